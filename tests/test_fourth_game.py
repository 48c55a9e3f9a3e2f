"""A fourth game, for real (issue 32): "Pick a number" (tests/toygame.py),
written only against the box's protocol and the engine, is played by the
real box (its loop, narrator and screen on a fake clock) and three
simulated phones on the real phones' server, as the README's "Adding a
fourth game" says a new game would be: the box makes it from its Kind,
the phones join its seats with the PIN its start screen shows, each
phone gets its own seat's secret and the same task, and their answers
come back into the game as its events. The same game without phones of
its own (`Quiet`) gets the public screen on every phone.

It joins the box as a shipped game does, by its Kind alone
(`lineup.register`, as wolfbox.lineup registers the three): the config
file names it in `game.mode` and sets its own `[pick_a_number]`, the box
makes it from `lineup.KINDS` with `new`, resumes it from its checkpoint
with `resume` after a power cut, offers it on the settings screen's Game
page and renders its lines with the others'."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from pilot import Pilot
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
from test_saved_checks import state_file, written
from toygame import KIND, NUMBERS, PICK, QUIET, SEATS, TOY, Quiet, Stage, Toy, check, told

from wolfbox import cli, lineup, menu
from wolfbox.buttons import Button
from wolfbox.catalogue import game_lines
from wolfbox.config import load
from wolfbox.device.state import StateStore
from wolfbox.mode import Kind
from wolfbox.phone import public

CONFIG = """
[game]
mode = "pick_a_number"

[pick_a_number]
seconds = 45

[night]
line_gap = 0.05

[phones]
enabled = true
listen = ["127.0.0.1"]
port = 0
"""


@pytest.fixture
def fourth(request) -> Iterator[Kind]:
    """The fourth game registered by its Kind (`KIND`, or the one named
    by the test's parameter), and taken away again after the test."""
    kind = getattr(request, "param", KIND)
    lineup.register(kind)
    yield kind
    lineup.withdraw(kind.name)


def start(tmp_path, pilots) -> Pilot:
    """A box whose config file names the fourth game."""
    path = tmp_path / "wolfbox.toml"
    path.write_text(CONFIG + f'\n[voice]\ncache_dir = "{tmp_path / "cache"}"\n')
    config = load(path)
    return pilots.start(config, lineup.KINDS[TOY].lines(config))


def the_fourth(pilot: Pilot, make: type[Quiet]) -> Quiet:
    """The game the box started in: the fourth, made from its Kind."""
    game = pilot.box.flow.active
    assert isinstance(game, make)
    return game


def test_the_fourth_game_plays_through_the_real_box_and_three_phones(
        tmp_path, pilots, sent, fourth):  # noqa: F811
    pilot = start(tmp_path, pilots)
    game = the_fourth(pilot, Toy)
    assert pilot.view.title == "Pick a number" and pilot.view.between
    # START's hold opens the phones' screen here as on every screen;
    # the footer claims no hold the game does not have (settings, next game).
    assert dict(pilot.view.holds)[Button.START] == "Hold: phones"
    assert "Hold NEXT" not in pilot.view.footer
    url, pin = join_details(pilot)                  # the start screen's join card
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT) as stranger:
        stranger.send('{"t": "hello"}')             # before the PIN: the seat list
        lobby = receive(stranger, "lobby", lambda m: m["title"] == "Pick a number")
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


@pytest.mark.parametrize("fourth", [QUIET], indirect=True)
def test_a_fourth_game_without_phones_of_its_own_shows_the_public_screen(
        tmp_path, pilots, sent, fourth):  # noqa: F811
    pilot = start(tmp_path, pilots)
    game = the_fourth(pilot, Quiet)
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


def test_the_fourth_game_is_offered_configured_and_resumed_by_its_kind_alone(
        tmp_path, pilots, fourth):
    """Its Kind is the whole registration: the Game page offers it after the
    shipped games, its lines are rendered with theirs, its own section of
    the config file sets its time, and after a power cut the box resumes it
    from its checkpoint."""
    game_page = next(i for i in menu.items(False) if i.key == "game.mode")
    assert game_page.steps == ("one_night", "dark_arts", "newd3", TOY)
    written(tmp_path, {"games": {TOY: {"rounds": 7}}})     # a checkpoint it took
    pilot = start(tmp_path, pilots)
    assert set(Toy().lines()) <= set(game_lines(load(tmp_path / "wolfbox.toml")))
    game = the_fourth(pilot, Toy)
    assert game.rounds == 7                                 # resumed, not made anew
    assert game.seconds == 45                               # its [pick_a_number]
    pilot.press(Button.START)                               # the deal
    assert game.stage is Stage.PICK and game.timer is not None
    assert game.timer.total == 45
    pilot.parts.close()                                     # the last save on the disk
    saved = StateStore(state_file(tmp_path)).load()
    assert saved["games"][TOY] == {"rounds": 8}            # its checkpoint, kept


def test_wolfbox_replay_plays_the_fourth_game_its_mode_names(tmp_path, monkeypatch, fourth):
    """`wolfbox replay --mode <a fourth game>` plays that game, made from its
    Kind, so its golden walk can be recorded (docs/develop/adding-a-game.md),
    not One Night under its name."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    events = tmp_path / "round.events"
    events.write_text('{"at": 0, "tap": "start"}\n{"at": 70}\n')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["replay", str(events), "--mode", TOY]) == 0
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {r["title"] for r in records} == {"Pick a number"}
    assert records[1]["caption"] == "Pick a number on your phone."
    assert records[-1]["phase"] == "verdict"


def test_a_fourth_game_not_registered_is_no_game_of_the_box(tmp_path):
    """Withdrawn, the box knows it no more: its config file is refused."""
    assert TOY not in lineup.KINDS
    path = tmp_path / "wolfbox.toml"
    path.write_text(CONFIG)
    with pytest.raises(Exception, match="game.mode must be one of one_night, dark_arts, newd3"):
        load(path)
