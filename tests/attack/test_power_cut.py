"""The box's power cut (issue 41, last step): a player who recorded a
friend's reconnect before the cut, and who holds a seat of their own,
tries for the friend's seat when the box comes back from its seats file."""

from __future__ import annotations

import json

from sealed import connect
from test_phones_box import join_details, receive
from test_phones_seats import mayors_box
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as plain_connect

from wolfbox.buttons import Button
from wolfbox.darkarts import said as mayors_said
from wolfbox.phones import seal

WAIT = 10.0


def ws(url: str) -> str:
    return url.replace("http://", "ws://") + "ws"


def test_after_the_power_cut_a_recorded_hello_and_a_player_s_own_token_take_no_other_seat(
        tmp_path, pilots):
    pilot, config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    tokens, recorded = {}, None
    friend_key = ""
    for seat in (1, 2, 3):
        with connect(ws(url), open_timeout=WAIT) as p:
            p.send('{"t": "hello"}')
            p.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": f"P{seat}"}))
            tokens[seat] = receive(p, "joined")["token"]
            if seat == 3:                                  # the friend's reconnect, recorded
                recorded = p.sealed(json.dumps({"t": "hello", "token": tokens[3]}))
                friend_key = seal.text(p.channel_key)
    pilot.settle()
    pilots.close()                                         # the power goes
    again = pilots.start(config, mayors_said.all_lines(7), warm=False)
    again.settle()
    url, _pin = join_details(again)
    with plain_connect(ws(url), open_timeout=WAIT, legacy=True) as thief:
        first = json.loads(thief.recv(timeout=WAIT))
        assert first["t"] == "key"
        thief.send(json.dumps({"t": "seal", "k": friend_key}))
        thief.send(recorded)
        try:
            while True:
                thief.recv(timeout=WAIT)
        except ConnectionClosed:
            assert thief.close_code == 1008
    with connect(ws(url), open_timeout=WAIT) as me:        # the thief's own seat, 1
        me.send(json.dumps({"t": "hello", "token": tokens[1]}))
        assert receive(me, "joined")["seat"] == 1
        for seat in (3, 4):
            me.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": "X"}))
            assert "one phone, one seat" in receive(me, "refused")["why"]
    with connect(ws(url), open_timeout=WAIT) as fresh:
        fresh.send('{"t": "hello"}')
        fresh.send(json.dumps({"t": "join", "pin": pin, "seat": 3, "name": "X"}))
        assert receive(fresh, "refused")["why"] == "Seat 3 is taken: ask the box to free it."
    again.press(Button.START)
    with connect(ws(url), open_timeout=WAIT) as friend:    # the friend comes back
        friend.send(json.dumps({"t": "hello", "token": tokens[3]}))
        assert receive(friend, "joined")["seat"] == 3
