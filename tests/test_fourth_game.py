"""A fourth game, for real (issue 32): "Pick a number" (tests/toygame.py),
written only against the box's protocol and the engine, is played by the
real box (its loop, narrator and screen on a fake clock) and three
simulated phones on the real phones' server, as the README's "Adding a
fourth game" says a new game would be: the box builds it from a factory in
the games' `make`, the phones join its seats with the PIN its start screen
shows, each phone gets its own seat's secret and the same task, and their
answers come back into the game as its events. The same game without
phones of its own (`Quiet`) gets the public screen on every phone."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

from pilot import Pilot, game_lines
from sealed import connect
from test_phones_box import (  # noqa: F401
    WAIT,
    box_hears,
    join,
    join_details,
    receive,
    sent,
    streams_by_seat,
)
from toygame import NUMBERS, PICK, SEATS, TOY, Quiet, Stage, Toy, check, told

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.games import Games
from wolfbox.phone import public


def play_the_fourth(pilot: Pilot, make: type[Quiet], seed: int) -> Quiet:
    """The box switched to the fourth game, as the game switch switches:
    its factory among the games' `make`, then its name."""
    games: Games = pilot.box.flow
    games.make = {**games.make, TOY: lambda: make(rng=random.Random(seed))}
    games.name = TOY
    pilot.box.refresh()
    game = games.active
    assert isinstance(game, make)
    return game


def start(tmp_path, pilots) -> Pilot:
    config = phones_config(tmp_path)
    return pilots.start(config, game_lines(config) + Toy().lines())


def test_the_fourth_game_plays_through_the_real_box_and_three_phones(
        tmp_path, pilots, sent):  # noqa: F811
    pilot = start(tmp_path, pilots)
    game = play_the_fourth(pilot, Toy, seed=4)
    assert pilot.view.title == "Pick a number" and pilot.view.between
    # START's hold opens the phones' screen here as on every screen;
    # the footer claims no hold the game does not have (settings, next game).
    assert dict(pilot.view.holds)[Button.START] == "Hold: phones"
    assert "Hold NEXT" not in pilot.view.footer
    url, pin = join_details(pilot)                  # the start screen's join card
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT) as stranger:
        stranger.send('{"t": "hello"}')             # before the PIN: the seat list
        lobby = receive(stranger, "lobby", lambda m: m["title"] == TOY)
        assert lobby["seats"] == 3 and lobby["note"] == "Three seats: each gets a lucky number."
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}")) for seat in SEATS}
        box_hears(pilot, lambda: game.phones == frozenset(SEATS))
        for socket in phones.values():
            first = receive(socket, "view", lambda m: m["title"] == "Pick a number")
            assert first["task"] is None and first["secret"] == []
        pilot.press(Button.START)                   # the deal
        assert game.stage is Stage.PICK and check(game) is None
        lucky = dict(game.lucky)
        assert len(set(lucky.values())) == len(SEATS), "a seed that tells the secrets apart"
        tasks = {}
        for seat, socket in phones.items():
            shown = receive(socket, "view", lambda m: m["task"] is not None)
            assert shown["secret"] == [f"Your lucky number: {lucky[seat]}"]
            tasks[seat] = shown["task"]
        # Every phone is asked the same: nobody's task tells their secret.
        assert len({json.dumps(t, sort_keys=True) for t in tasks.values()}) == 1
        assert [o for o, _w in tasks[1]["options"]] == list(NUMBERS)
        # Seat 1 picks its own number; the others another.
        for seat, socket in phones.items():
            pick = lucky[seat] if seat == 1 else next(n for n in NUMBERS if n != lucky[seat])
            socket.send(json.dumps({"t": "choose", "step": tasks[seat]["step"],
                                    "choice": [pick]}))
        box_hears(pilot, lambda: game.stage is Stage.END)
        pilot.advance(10)                           # the lines are said
        said = [p.text for p in pilot.parts.narrator.played]
        assert said == [PICK, told(1)]
        assert pilot.view.big == "1"
        for seat, socket in phones.items():
            end = receive(socket, "view", lambda m: m["big"] == "1")
            assert end["task"] is None
            assert end["secret"] == [f"Your lucky number: {lucky[seat]}"]
    # What the server sent each seat: its own secret, never another's.
    for seat, stream in streams_by_seat(sent).items():
        for other in SEATS:
            mentioned = f"Your lucky number: {lucky[other]}".encode() in stream
            assert mentioned == (other == seat), (seat, other)


def test_a_fourth_game_without_phones_of_its_own_shows_the_public_screen(
        tmp_path, pilots, sent):  # noqa: F811
    pilot = start(tmp_path, pilots)
    game = play_the_fourth(pilot, Quiet, seed=4)
    url, pin = join_details(pilot)
    with join(url, pin, 3, "Cy") as cy:             # a seat of the game's three
        box_hears(pilot, lambda: game.phones == frozenset({3}))
        pilot.press(Button.START)
        shown = receive(cy, "view", lambda m: m["big"] != "")
        now = pilot.clock.now
        public_view = public(pilot.box.flow.view(now), 3)
        assert (shown["title"], shown["lines"]) == (public_view.title, list(public_view.lines))
        assert shown["task"] is None and shown["secret"] == []
    assert all(b"lucky number" not in stream for stream in streams_by_seat(sent).values())
