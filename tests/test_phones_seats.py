"""Seats that a cheating player cannot take (issue 29), tried as one would:
through the real box and the real server on loopback, with a second phone,
another seat, the wrong seat after a power cut."""

from __future__ import annotations

import json
import socket as pysocket
from contextlib import ExitStack

from sealed import connect
from test_phones_box import box_hears, join, join_details, receive

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts import said as mayors_said
from wolfbox.darkarts.roles import role_name

WAIT = 10.0
TAKEN = "Seat {seat} is taken: ask the box to free it."


def socket(url: str, source: str | None = None):
    """A phone's socket; from `source`, another loopback address (another
    phone on the Wi-Fi has an address of its own)."""
    if source is None:
        return connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT)
    host, port = url.split("//")[1].rstrip("/").split(":")
    raw = pysocket.socket()
    raw.bind((source, 0))
    raw.connect((host, int(port)))
    return connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT, sock=raw)


def mayors_box(tmp_path, pilots):
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    return pilots.start(config, mayors_said.all_lines(7), warm=False), config


def test_after_a_power_cut_each_seat_is_its_own_phone_s_and_no_first_tap_s(tmp_path, pilots):
    """Seven phones, the cards dealt to them, the power cut: the box comes
    back with the game to resume. A phone that taps another's seat first
    (it knows the PIN, it was at the table) is refused; each phone finds
    its own seat by its token and is shown its own card again."""
    pilot, config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    tokens, cards = {}, {}
    with ExitStack() as stack:
        phones = {}
        for seat in range(1, 8):
            p = stack.enter_context(socket(url))
            p.send('{"t": "hello"}')
            p.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": f"P{seat}"}))
            tokens[seat] = receive(p, "joined")["token"]
            phones[seat] = p
        pilot.settle()
        pilot.press(Button.START)                                  # dealt to the phones
        game = pilot.box.flow.active
        assert game.dealt is not None
        for seat, p in phones.items():
            cards[seat] = receive(p, "view", lambda m: bool(m["secret"]))["secret"][0]
        pilot.press(Button.START)                                  # paused: a checkpoint
    pilots.close()                                                 # the power goes
    kept = (tmp_path / "state" / "wolfbox" / "seats.json").read_text()
    assert not any(token in kept for token in tokens.values())    # hashes, not tokens
    again = pilots.start(config, mayors_said.all_lines(7), warm=False)
    again.settle()
    url, kept_pin = join_details(again)                            # a new port, the same PIN
    assert kept_pin == pin
    with socket(url) as thief:
        thief.send('{"t": "hello"}')
        lobby = receive(thief, "lobby")
        assert set(lobby["taken"]) == {str(s) for s in range(1, 8)}
        for seat in (3, 5):
            thief.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": "X"}))
            assert receive(thief, "refused")["why"] == TAKEN.format(seat=seat)
    again.press(Button.START)                                      # the table resumes
    again.settle()
    for seat in (3, 5):
        with socket(url) as own:
            own.send(json.dumps({"t": "hello", "token": tokens[seat]}))
            assert receive(own, "joined")["seat"] == seat
            card = receive(own, "view", lambda m: bool(m["secret"]))["secret"][0]
            assert card == cards[seat] == role_name(again.box.flow.active.dealt[seat - 1])


KEPT = {"mode": "dark_arts", "room": {"pin": "6084", "seats": 7, "held": {
    "2": {"name": "Ann", "digest": "ab" * 32}}}}


def test_seats_kept_for_another_game_are_never_served(tmp_path):
    """Let go before the server starts, not once it has: a box busy at
    boot must not show, nor give back, a seat of another game's table."""
    from wolfbox.phones.link import Phones
    config = phones_config(tmp_path).phones

    def room(mode: str):
        return Phones(config, lambda _m: None, lambda: None, saved=KEPT, mode=mode).server.room

    kept = room("dark_arts")
    assert (kept.pin, kept.names()) == ("6084", {2: "Ann"})
    other = room("newd3")
    assert other.names() == {}


def test_seats_kept_for_another_game_are_let_go(tmp_path, pilots):
    """A seats file left by the Mayor's game is no use to a box that starts
    on the timed game: every seat there is free."""
    pilot, config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    with join(url, pin, 2, "Ann"):
        pilot.settle()
    pilots.close()
    config.game.mode = "newd3"
    again = pilots.start(config, warm=False, fill=False)
    url, pin = join_details(again)
    assert again.view.join.seated == ()
    with join(url, pin, 2, "Bo"):
        again.settle()
        assert again.view.join.seated == ((2, "Bo"),)


def test_one_phone_holds_one_seat_and_its_newest_socket_sees_it(tmp_path, pilots):
    """A socket that holds a seat cannot take another, not even after a
    hello without its token; the same token on a second socket (the phone
    reloaded while its old socket lingers) moves the seat to the new
    socket, and the old one hears no more of it."""
    pilot = pilots.start(phones_config(tmp_path), warm=False)
    url, pin = join_details(pilot)
    with socket(url) as ann:
        ann.send('{"t": "hello"}')
        ann.send(json.dumps({"t": "join", "pin": pin, "seat": 1, "name": "Ann"}))
        token = receive(ann, "joined")["token"]
        for seat in (2, 3):
            ann.send('{"t": "hello"}')
            ann.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": "Ann"}))
            assert receive(ann, "refused")["why"] == \
                "This phone holds seat 1 already: one phone, one seat."
        pilot.settle()
        assert pilot.view.join.seated == ((1, "Ann"),)
        with socket(url) as again:
            again.send(json.dumps({"t": "hello", "token": token}))
            assert receive(again, "joined")["seat"] == 1
            assert receive(ann, "lobby")["taken"] == {"1": ""}   # the old socket: out
            pilot.press(Button.START)
            receive(again, "view", lambda m: m["dim"])              # the night, on the new
            ann.send('{"t": "choose", "step": "x", "choice": [1]}')
            ann.send('{"t": "hello"}')
            assert receive(ann, "lobby")["taken"] == {"1": ""}   # the old: still out
            # Issue 41.6: the old socket (tab 1 of the same phone) may not
            # take a second seat, a friend's who is not here yet.
            ann.send(json.dumps({"t": "join", "pin": pin, "seat": 2, "name": "Bo"}))
            assert receive(ann, "refused")["why"] == (
                "This phone's seat is open on another page: use that one, or reload this "
                "page to take it back here.")
            pilot.settle()
            assert pilot.view.join is None or pilot.view.join.seated == ((1, "Ann"),)
            assert set(pilot.parts.phones.phones.server.room.held) == {1}


def test_a_lost_phone_gets_its_seat_and_card_back_mid_game_from_the_box(tmp_path, pilots):
    """The Mayor's game, cards dealt to seven phones; seat 3's phone loses
    its token (a new phone, a cleared browser). Its seat is taken: the page
    says to ask the box. The box, paused, opens the phones' screen with a
    hold of VOTE, shows how to join, and frees seat 3 with two holds; the
    new phone joins seat 3 and is shown seat 3's card."""
    pilot, _config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}"))
                  for seat in range(1, 8)}
        pilot.settle()
        pilot.press(Button.START)                                  # dealt to the phones
        game = pilot.box.flow.active
        card = receive(phones[3], "view", lambda m: bool(m["secret"]))["secret"]
        phones[3].close()                                          # the phone is lost
        with socket(url) as new:
            new.send('{"t": "hello"}')
            receive(new, "lobby")
            new.send(json.dumps({"t": "join", "pin": pin, "seat": 3, "name": "P3"}))
            assert receive(new, "refused")["why"] == TAKEN.format(seat=3)
            pilot.press(Button.VOTE, hold=2.0)                     # not paused: no screen
            assert pilot.view.details[:1] != ("Phones",)
            pilot.press(Button.START)                              # paused
            assert pilot.view.paused and dict(pilot.view.holds)[Button.START] == "Hold: phones"
            pilot.press(Button.VOTE, hold=2.0)
            assert pilot.view.details[0] == "Phones" and pilot.view.join is not None
            while pilot.view.big != "Seat 3":
                pilot.press(Button.NEXT)
            pilot.press(Button.VOTE, hold=2.0)                     # asks
            pilot.settle()
            assert 3 in game.phones
            pilot.press(Button.VOTE, hold=2.0)                     # frees
            box_hears(pilot, lambda: 3 not in game.phones)
            new.send(json.dumps({"t": "join", "pin": pin, "seat": 3, "name": "P3"}))
            assert receive(new, "joined")["seat"] == 3
            assert receive(new, "view", lambda m: bool(m["secret"]))["secret"] == card
            pilot.press(Button.START)                              # done: the game, paused
            assert pilot.view.paused and pilot.view.details[:1] != ("Phones",)


def test_the_console_goes_only_to_the_phone_the_mayor_accepts_on_the_box(tmp_path, pilots):
    """A player's second phone asks for the Mayor's seat right after START:
    the box shows its code; the Mayor's own phone, asking next, is told
    another phone asks; the Mayor sees the code is not theirs and refuses
    it. The Mayor's phone asks again and is accepted. The thief never gets
    a console frame, and cannot take the seat after."""
    pilot, _config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        for seat in range(1, 8):
            stack.enter_context(join(url, pin, seat, f"P{seat}"))
        pilot.settle()
        pilot.press(Button.START)
        game = pilot.box.flow.active
        thief = stack.enter_context(socket(url))
        mayor = stack.enter_context(socket(url, source="127.0.0.2"))
        ask = json.dumps({"t": "join", "pin": pin, "seat": 8, "name": "Mia"})
        thief.send('{"t": "hello"}')
        thief.send(ask)
        theirs = receive(thief, "asking")["why"][-5:-1]
        box_hears(pilot, lambda: pilot.view.big == theirs)
        assert "seat 8 (Mayor): Mia" in pilot.view.details[0]
        pilot.press(Button.VOTE)                                   # no other button answers
        assert pilot.view.big == theirs and 8 not in game.phones
        mayor.send('{"t": "hello"}')
        mayor.send(ask)
        assert receive(mayor, "refused")["why"] == \
            "Another phone is asking for seat 8: the box answers it first."
        pilot.press(Button.BACK)                                   # not the Mayor's code
        assert receive(thief, "refused")["why"] == \
            "The box did not accept this phone for seat 8."
        thief.send(ask)                                            # again at once: no
        assert receive(thief, "refused")["why"] == \
            "The box refused this phone: try again in 60 s."
        mayor.send(ask)
        mine = receive(mayor, "asking")["why"][-5:-1]
        box_hears(pilot, lambda: pilot.view.big == mine)
        pilot.press(Button.START)                                  # the Mayor's yes
        assert receive(mayor, "joined")["seat"] == 8
        assert receive(mayor, "view", lambda m: m["task"] is not None)["seat_title"] == "Mayor"
        thief.send(ask)
        assert receive(thief, "refused")["why"] == TAKEN.format(seat=8)
        thief.send('{"t": "hello"}')
        receive(thief, "lobby")
        box_hears(pilot, lambda: 8 in game.phones)


def test_after_a_power_cut_the_console_stays_the_mayor_s_on_the_resume_screen(
        tmp_path, pilots):
    """The power goes mid-game with the console on the Mayor's phone. On the
    box's "Resume the saved game?" screen seat 8 is still the Mayor's: no
    other phone takes it, and the Mayor's phone finds it by its token at
    once (it was dropped there: the Mayor had to ask the box again)."""
    pilot, config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        for seat in range(1, 8):
            stack.enter_context(join(url, pin, seat, f"P{seat}"))
        pilot.settle()
        pilot.press(Button.START)
        game = pilot.box.flow.active
        mayor = stack.enter_context(socket(url))
        mayor.send('{"t": "hello"}')
        mayor.send(json.dumps({"t": "join", "pin": pin, "seat": 8, "name": "Mia"}))
        code = receive(mayor, "asking")["why"][-5:-1]
        box_hears(pilot, lambda: pilot.view.big == code)
        pilot.press(Button.START)                                  # the Mayor's yes
        token = receive(mayor, "joined")["token"]
        box_hears(pilot, lambda: 8 in game.phones)
        pilot.press(Button.START)                                  # paused: a checkpoint
    pilots.close()                                                 # the power goes
    again = pilots.start(config, mayors_said.all_lines(7), warm=False)
    again.settle()
    assert again.view.title == "Resume the saved game?"
    url, _pin = join_details(again)
    with socket(url) as thief:
        thief.send('{"t": "hello"}')
        assert "8" in receive(thief, "lobby")["taken"]
        thief.send(json.dumps({"t": "join", "pin": pin, "seat": 8, "name": "X"}))
        assert receive(thief, "refused")["why"] == TAKEN.format(seat=8)
    with socket(url) as own:
        own.send(json.dumps({"t": "hello", "token": token}))
        assert receive(own, "joined")["seat"] == 8
        assert receive(own, "view")["seat_title"] == "Mayor"


def test_the_console_is_taken_back_mid_game_freed_then_accepted_again(tmp_path, pilots):
    """The console's phone is lost mid-game: paused, the box frees seat 8
    on the phones' screen, and the Mayor's new phone takes it with the
    box's yes."""
    from test_mayor_phones_box import take_console
    pilot, _config = mayors_box(tmp_path, pilots)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        for seat in range(1, 8):
            stack.enter_context(join(url, pin, seat, f"P{seat}"))
        pilot.settle()
        pilot.press(Button.START)
        game = pilot.box.flow.active
        with take_console(pilot, url, pin):
            box_hears(pilot, lambda: 8 in game.phones)
        pilot.press(Button.START)                                  # paused
        pilot.press(Button.VOTE, hold=2.0)                         # the phones' screen
        while pilot.view.big != "Seat 8":
            pilot.press(Button.NEXT)
        pilot.press(Button.VOTE, hold=2.0)
        pilot.press(Button.VOTE, hold=2.0)                         # seat 8 freed
        box_hears(pilot, lambda: 8 not in game.phones)
        pilot.press(Button.START)                                  # back to the game
        with take_console(pilot, url, pin, "Mia") as again:
            assert receive(again, "view", lambda m: m["task"] is not None)["task"][
                "prompt"] == "The Mayor's console"


def test_the_console_seat_is_guarded_before_it_opens_and_until_it_closed():
    """The server runs the box's calls in order with phones' messages in
    between: seat 8 must never be open without its guard, not for one
    message, when the game starts or ends."""
    from wolfbox.config import PhonesConfig
    from wolfbox.phone import PhoneView
    from wolfbox.phones.link import Phones

    class Game:
        name, lang = "dark_arts", "en"

        def __init__(self, busy: bool) -> None:
            self.running = busy
            self.table_seats = 8 if busy else 7
            self.guarded_seats = frozenset({8}) if busy else frozenset()

        def busy(self) -> bool:
            return self.running

        def phone_view(self, seat: int, now: float) -> PhoneView:
            return PhoneView(seat, "t")

        def lobby_note(self) -> str:
            return ""

    calls: list[tuple] = []

    class Server:
        def __getattr__(self, name):
            return lambda *args: calls.append((name, *args))

    phones = Phones(PhonesConfig(), lambda e: None, lambda: None, addresses=["127.0.0.1"])
    phones.server.close()
    phones.server = Server()
    for busy in (False, True, False):
        phones.follow(Game(busy), 0.0)
    order = [c for c in calls if c[0] != "publish"]
    assert order == [("resize", 7), ("guard", frozenset({8})), ("resize", 8),
                     ("next_round", 7, frozenset({8})), ("guard", frozenset())]
