"""Issue 42.1: every call into a game, at startup too, is inside the
exception barrier. A bug is planted in each game's `view`, `phone_view`
and checkpoint (the one it saves, and the one it is resumed from), with
phones on and off, at each moment a table meets it: the box's first calls
(a new box, and one resuming a game saved before a power cut), the calls
of a round's start (its first save, its first night), and mid-round. The
box runs through its real loop as at a table (`Box.run`'s first pass,
then the fake-clock pilot), and each test holds it to what the README
promises of a game's bug: the trace in the log, once; the box goes on (no
exit, so no restart into the same fault); the game back at a start screen
with a line saying so; the table can play on; and nothing secret on the
way (the bug's own words, here a card, stay in the log: not on the
screen, not on a phone, and every phone gets the same one-size frame).

A bug that never goes away (every call fails from then on) still never
ends the box while another game can be played: the saved game it was
resumed from is forgotten, then another game is offered."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

import pytest
from pilot import NO_RENDERER, FakeClock, Pilot, game_lines
from toygame import TOY, Toy

from helpers import fill_cache, phones_config
from wolfbox import lineup
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.darkarts.kind import Mayor as MayorKind
from wolfbox.device.notices import GAME_BUG
from wolfbox.engine.checkpoints import Checkpoints
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.kind import Timed as TimedKind
from wolfbox.onenight.flow import Flow
from wolfbox.onenight.kind import OneNight
from wolfbox.settings_screen import SettingsScreen

RESUME = "Resume the saved game?"       # each game's start screen offering its save
# The bug's message names a card: only the log may hold it.
SECRET = "seat 3 holds the Werewolf card"


class PlantedBug(Exception):
    pass


@dataclass(frozen=True)
class ToyKind:
    """The tests' fourth game as the lineup would list it (README: "Adding
    a fourth game"), so the box starts in it; it keeps no saves."""
    name: str = TOY
    section: object = None

    def new(self, settings: SettingsScreen) -> Toy:
        return Toy()

    def resume(self, state: object, settings: SettingsScreen) -> Toy:
        return Toy()


GAMES: dict[str, type] = {"one_night": Flow, "dark_arts": Mayor, "newd3": Timed, TOY: Toy}
KINDS: dict[str, type] = {"one_night": OneNight, "dark_arts": MayorKind, "newd3": TimedKind}
SAVES = ("one_night", "dark_arts", "newd3")       # the games that keep a checkpoint


@dataclass
class Fault:
    """A bug planted in one of a game's calls: it raises on the calls
    numbered in `on` (1 is the first after arming), or on every call
    (`on` empty); off until `arm`, and with `in_round` only while the game
    plays a round (not on the start screen the START press began on)."""
    on: frozenset[int] = frozenset({1})
    in_round: bool = False
    armed: bool = False
    calls: int = 0
    raised: int = 0

    def arm(self) -> None:
        self.armed, self.calls = True, 0

    def hit(self, game: object = None) -> None:
        if not self.armed or (self.in_round and game is not None
                              and not game.busy()):  # type: ignore[attr-defined]
            return
        self.calls += 1
        if not self.on or self.calls in self.on:
            self.raised += 1
            raise PlantedBug(f"a planted bug: {SECRET}")


def plant(monkeypatch, mode: str, call: str, fault: Fault) -> None:
    """`fault` in `mode`'s `call`: its view, its phones' views, or its
    checkpoint, both the one it takes (the engine's `Checkpoints.take`,
    for this game's saves only) and the one it is resumed from (its
    kind's `resume`)."""
    game = GAMES[mode]
    if call in ("view", "phone_view"):
        real = getattr(game, call)

        def wrapped(self, *args):
            fault.hit(self)
            return real(self, *args)
        monkeypatch.setattr(game, call, wrapped)
        return
    take = Checkpoints.take

    def taken(self, state):
        if self.mode == mode:
            fault.hit()
        return take(self, state)
    monkeypatch.setattr(Checkpoints, "take", taken)
    if mode in KINDS:
        resume = KINDS[mode].resume

        def resumed(self, state, settings):
            fault.hit()
            return resume(self, state, settings)
        monkeypatch.setattr(KINDS[mode], "resume", resumed)


@dataclass
class Frames:
    """Every update the phones' server was handed: (views by seat, lobby)."""
    sent: list[dict[int, bytes]] = field(default_factory=list)


def spy_on_phones(monkeypatch) -> Frames:
    """What the phones are sent from now on, kept to be read."""
    from wolfbox.phones.server import PhoneServer
    frames = Frames()
    real = PhoneServer.publish

    def publish(self, views, lobby, *rest, **kw):
        frames.sent.append(dict(views))
        return real(self, views, lobby, *rest, **kw)
    monkeypatch.setattr(PhoneServer, "publish", publish)
    return frames


def config_for(tmp_path, mode: str, phones: bool) -> Config:
    """The box's config for `mode` (the toy: as the lineup would name it)."""
    c = phones_config(tmp_path, "one_night" if mode == TOY else mode, on=phones)
    c.game.mode = mode
    return c


def lines_for(config: Config, mode: str) -> list[str]:
    return game_lines(config) + (Toy().lines() if mode == TOY else [])


class Booted(Pilot):
    """The pilot, taking over a box whose loop has made its first pass:
    its next pass is the loop's (`settle`, behind the barrier), not the
    bare redraw a pilot of a new box starts with."""

    def __post_init__(self) -> None:
        self.box, self.bank = self.parts.box, self.parts.bank      # type: ignore[attr-defined]
        self.box.on_frame = lambda view, t: self.frames.append(view)
        self.settle()


def boot(pilots, monkeypatch, config: Config, mode: str, strict: bool = False) -> Pilot:
    """The real box as `wolfbox run` starts it: built, then the loop's
    first pass (`Box.run` until its first frame is drawn); as at a table
    (not built for tests) unless `strict`."""
    from wolfbox.device.app import build
    from wolfbox.hardware.factory import mock_factory
    fill_cache(config, lines_for(config, mode))
    if mode == TOY:
        monkeypatch.setitem(lineup.KINDS, TOY, ToyKind())
    clock = FakeClock()
    parts = build(config, "headless", clock=clock, pin_factory=mock_factory(),
                  stdin_keys=False, renderer_command=NO_RENDERER, strict=strict)
    pilots.made.append(parts)
    frames: list = []
    parts.box.on_frame = lambda view, t: frames.append(view)
    parts.box.run(until=lambda: True)                # the loop's first pass, as at boot
    return Booted(parts, clock, frames)


def saved(tmp_path) -> dict:
    path = tmp_path / "state" / "wolfbox" / "state.json"
    return json.loads(path.read_text()).get("games", {}) if path.exists() else {}


def into_the_round(pilot: Pilot, mode: str) -> None:
    """START, and on until the round runs (the night, the deal, the picking)."""
    pilot.press(Button.START)
    pilot.until(lambda: pilot.box.flow.busy(), limit=30)
    pilot.advance(2)


def save_a_game(tmp_path, pilots, monkeypatch, mode: str, phones: bool) -> None:
    """A game saved mid-round by the real box, closed as a power cut leaves it."""
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode, strict=True)
    into_the_round(pilot, mode)
    pilot.parts.close()
    pilots.made.clear()
    assert mode in saved(tmp_path), "the round took no checkpoint"


def traces(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info and r.exc_info[0] is PlantedBug]


def secret_free(pilot: Pilot, frames: Frames | None, since: int = 0) -> None:
    """The bug's words are nowhere but the log: not in the start screen's
    line, not on any frame drawn, not on any phone."""
    assert SECRET not in pilot.box.notice
    assert all(SECRET not in repr(view) for view in pilot.frames)
    if frames is None:
        return
    for update in frames.sent[since:]:
        assert len({len(f) for f in update.values()}) <= 1, "frames of one update differ in size"
        for frame in update.values():
            assert SECRET.encode() not in frame


def back_at_a_start(pilot: Pilot, frames: Frames | None) -> None:
    """The README's promise: the game at a start screen (its own, which
    offers its last save, or anew), the line saying so on it, no secret
    shown there or on a phone."""
    box = pilot.box
    assert box.running
    assert GAME_BUG in box.notice.split("; ")
    assert box._notice_shown == box.notice                 # on the screen, not only kept
    view = box.flow.view(pilot.clock.now)
    assert pilot.view.title == view.title                   # drawn, not only built
    assert view.between or view.title == RESUME            # a start, or its save offered
    assert not box.flow.busy()
    assert not view.dim and not view.private
    if frames is not None and frames.sent:
        for frame in frames.sent[-1].values():
            shown = json.loads(frame)
            assert shown["secret"] == [] and shown["task"] is None


def plays_on(pilot: Pilot, mode: str) -> None:
    """The table goes on from there: START begins (or resumes) a round."""
    into_the_round(pilot, mode)
    assert pilot.box.running and pilot.box.flow.busy()
    assert pilot.box.flow.name == mode


CASES = [(mode, call, phones)
         for mode in GAMES for call in ("view", "phone_view", "checkpoint")
         for phones in (True, False)
         if not (call == "phone_view" and not phones)       # never asked without phones
         and not (call == "checkpoint" and mode == TOY)]     # the toy keeps no saves


def case_id(case: tuple[str, str, bool]) -> str:
    mode, call, phones = case
    return f"{mode}-{call}-{'phones' if phones else 'buttons'}"


@pytest.mark.parametrize("case", [c for c in CASES if c[1] != "checkpoint"], ids=case_id)
@pytest.mark.parametrize("on", [{1}, {2}], ids=["1st", "2nd"])
def test_a_fault_in_a_new_boxs_first_calls(tmp_path, pilots, monkeypatch, caplog, case, on):
    mode, call, phones = case
    caplog.set_level(logging.WARNING)
    frames = spy_on_phones(monkeypatch)
    fault = Fault(frozenset(on))
    plant(monkeypatch, mode, call, fault)
    fault.arm()
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    assert fault.raised == 1
    assert len(traces(caplog)) == 1 and SECRET in caplog.text
    back_at_a_start(pilot, frames if phones else None)
    secret_free(pilot, frames)
    plays_on(pilot, mode)


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in SAVES], ids=case_id)
def test_a_fault_in_the_first_calls_of_a_resumed_game(tmp_path, pilots, monkeypatch, caplog,
                                                      case):
    """A power cut left a game mid-round; the box comes back and its first
    call into the game (reading that checkpoint, its screen, its phones)
    hits the bug: the box offers the save again, the table resumes."""
    mode, call, phones = case
    save_a_game(tmp_path, pilots, monkeypatch, mode, phones)
    caplog.set_level(logging.WARNING)
    frames = spy_on_phones(monkeypatch)
    fault = Fault()
    plant(monkeypatch, mode, call, fault)
    fault.arm()
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    assert fault.raised == 1
    assert len(traces(caplog)) == 1
    back_at_a_start(pilot, frames if phones else None)
    assert pilot.box.flow.view(pilot.clock.now).title == RESUME
    assert mode in saved(tmp_path)                           # the save is still offered
    secret_free(pilot, frames)
    plays_on(pilot, mode)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_fault_as_a_round_begins(tmp_path, pilots, monkeypatch, caplog, case):
    """The bug is met by START: the round's first screen, its phones' first
    views of it, its first save."""
    mode, call, phones = case
    caplog.set_level(logging.WARNING)
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    frames = spy_on_phones(monkeypatch)
    fault = Fault(in_round=True)
    plant(monkeypatch, mode, call, fault)
    fault.arm()
    pilot.press(Button.START)
    pilot.until(lambda: fault.raised > 0, limit=30)
    assert fault.raised == 1 and len(traces(caplog)) == 1
    back_at_a_start(pilot, frames if phones else None)
    secret_free(pilot, frames)
    assert "an adapter failed" not in caplog.text
    plays_on(pilot, mode)


@pytest.mark.parametrize("case", [c for c in CASES if c[1] != "checkpoint"], ids=case_id)
def test_a_fault_mid_round(tmp_path, pilots, monkeypatch, caplog, case):
    mode, call, phones = case
    caplog.set_level(logging.WARNING)
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    into_the_round(pilot, mode)
    frames = spy_on_phones(monkeypatch)
    fault = Fault()
    plant(monkeypatch, mode, call, fault)
    fault.arm()
    pilot.until(lambda: fault.raised > 0, limit=30)
    assert len(traces(caplog)) == 1
    back_at_a_start(pilot, frames if phones else None)
    secret_free(pilot, frames)
    assert "an adapter failed" not in caplog.text
    plays_on(pilot, mode)


@pytest.mark.parametrize("mode", SAVES)
@pytest.mark.parametrize("phones", [True, False], ids=["phones", "buttons"])
def test_a_save_that_always_trips_a_bug_is_forgotten(tmp_path, pilots, monkeypatch, caplog,
                                                     mode, phones):
    """Resuming the saved game raises every time (a bug the checkpoint
    leads into): the box does not crash-loop on it; the save is forgotten
    and the game starts anew."""
    save_a_game(tmp_path, pilots, monkeypatch, mode, phones)
    caplog.set_level(logging.WARNING)
    fault = Fault(frozenset())
    monkeypatch.setattr(KINDS[mode], "resume",
                        lambda self, state, settings: fault.hit() or pytest.fail("resumed"))
    fault.arm()
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    assert fault.raised == 2                                  # tried again once, then anew
    assert len(traces(caplog)) == 1
    back_at_a_start(pilot, None)
    assert pilot.box.flow.view(pilot.clock.now).title != RESUME
    pilot.parts.close()
    pilots.made.clear()
    assert mode not in saved(tmp_path)


@pytest.mark.parametrize("case", [c for c in CASES if c[1] != "checkpoint"], ids=case_id)
def test_a_game_that_cannot_show_its_start_screen_leaves_the_box_to_another(
        tmp_path, pilots, monkeypatch, caplog, case):
    """Every call fails, from the first: this game cannot be played, but
    the box must not end (systemd would start it into the same fault, for
    ever). It is tried again from its save, anew, then another game is on
    the screen with the line saying why."""
    mode, call, phones = case
    caplog.set_level(logging.WARNING)
    frames = spy_on_phones(monkeypatch)
    fault = Fault(frozenset())
    plant(monkeypatch, mode, call, fault)
    fault.arm()
    pilot = boot(pilots, monkeypatch, config_for(tmp_path, mode, phones), mode)
    assert pilot.box.flow.name != mode
    assert len(traces(caplog)) == 1
    back_at_a_start(pilot, frames if phones else None)
    secret_free(pilot, frames)
    other = pilot.box.flow.name
    plays_on(pilot, other)


def test_a_box_built_for_tests_raises_at_its_first_call(tmp_path, pilots, monkeypatch):
    fault = Fault()
    plant(monkeypatch, "newd3", "view", fault)
    fault.arm()
    with pytest.raises(PlantedBug):
        boot(pilots, monkeypatch, config_for(tmp_path, "newd3", False), "newd3", strict=True)

