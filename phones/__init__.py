"""Phones at the table: the box serves its own page on the local network,
and each player's phone becomes one more channel for one seat.

An adapter, like the buttons: a phone's message becomes an event in the
box's inbox, and what a seat's phone shows is the game's pure phone view
for that seat, sent to that seat alone. No game imports this package.

- room.py: the table's PIN, its seats and the phones' tokens (no network)
- protocol.py: every message a phone may send, checked at the door
- server.py: the web server (websockets), in a thread of its own, wiring:
  - gate.py: sockets counted and let go before any HTTP
  - bounded.py: each log line a client can cause, said once, then once a minute
  - portal.py: the page's files over HTTP, the Host and origin checks, the
    captive portal
  - publish.py: which frame each phone is sent, and when
  - asking.py: a phone asking for a seat the box must accept
- link.py: what the box hands the server after every screen
- seal.py: every frame after a phone's key sealed to it
- addresses.py: where the page is served (the box's local network only)
- page/: the page itself, served by the box (no CDN, no app)
"""
