"""Phones at the table: the box serves its own page on the local network,
and each player's phone becomes one more channel for one seat.

An adapter, like the buttons: a phone's message becomes an event in the
box's inbox, and what a seat's phone shows is the game's pure phone view
for that seat, sent to that seat alone. No game imports this package.

- room.py: the table's PIN, its seats and the phones' tokens (no network)
- protocol.py: every message a phone may send, checked at the door
- server.py: the web server (websockets), in a thread of its own
- addresses.py: where the page is served (the box's local network only)
- page/: the page itself, served by the box (no CDN, no app)
"""
