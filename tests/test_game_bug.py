"""Issue 29.2: an exception in a game never ends the box. A phone tap that
hit a bug in One Night ended the box's process and the game with it. At the
table the box logs the trace once, says so in a line on the start screen,
keeps the game's last checkpoint and goes back to the game's start screen
(which offers that checkpoint); a box built for tests raises instead, so no
test passes over a bug (tests/conftest.py sets WOLFBOX_STRICT)."""

from __future__ import annotations

import json
import logging

import pytest
from pilot import Pilot

from wolfbox.buttons import Button, Tap
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.device.notices import GAME_BUG
from wolfbox.events import PhonesSeated
from wolfbox.newd3 import said as timed_said
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.game import Stage
from wolfbox.onenight.flow import Flow
from wolfbox.view import Phase


class PlantedBug(Exception):
    pass


def plant(monkeypatch, game: type, button: Button) -> list[int]:
    """`game`'s handle raises on a tap of `button` (as One Night's did on a
    Doppelganger's tap); how many times it did."""
    raised: list[int] = []
    real = game.handle

    def handle(self, event, now):
        if event == Tap(button):
            raised.append(1)
            raise PlantedBug(f"a planted bug on {button.value}")
        return real(self, event, now)
    monkeypatch.setattr(game, "handle", handle)
    return raised


def table(monkeypatch, pilots, config: Config, lines: list[str] | None = None) -> Pilot:
    """A box as it runs at a table (not built for tests)."""
    monkeypatch.setenv("WOLFBOX_STRICT", "0")
    pilot = pilots.start(config, lines, warm=False)
    monkeypatch.setenv("WOLFBOX_STRICT", "1")
    assert not pilot.box.strict
    return pilot


def one_night(tmp_path) -> Config:
    c = Config()
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    return c


def traces(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info and r.exc_info[0] is PlantedBug]


def test_a_bug_in_a_tap_sends_one_night_back_to_its_start(tmp_path, pilots, monkeypatch,
                                                          caplog):
    caplog.set_level(logging.WARNING)
    pilot = table(monkeypatch, pilots, one_night(tmp_path))
    pilot.box.inbox.phoned(PhonesSeated(frozenset({1})))     # a phone at seat 1
    pilot.settle()
    pilot.press(Button.START)                           # the night falls
    pilot.until(lambda: pilot.view.phase is Phase.NIGHT, limit=30)
    raised = plant(monkeypatch, Flow, Button.VOTE)
    pilot.press(Button.VOTE)                            # the tap that hits the bug
    assert raised == [1]
    assert pilot.box.running
    assert pilot.view.phase is Phase.IDLE               # One Night's start screen
    assert pilot.box.notice.split("; ").count(GAME_BUG) == 1
    assert pilot.box._notice_shown == pilot.box.notice   # on the screen, not only kept
    assert len(traces(caplog)) == 1
    assert caplog.text.count("Traceback") == 1 and "a planted bug on vote" in caplog.text
    assert pilot.box.flow.active.phones == frozenset()      # the game built afresh ...
    # The box plays on: a new round starts, and the same bug again, as
    # often as the table meets it, is one more line in the log, not
    # another trace (nor, with rounds played in between, the box's end).
    for times in (2, 3, 4):
        pilot.press(Button.START)
        pilot.until(lambda: pilot.view.phase is Phase.NIGHT, limit=30)
        assert pilot.box.flow.active.phones == frozenset({1})    # ... is told who holds one
        pilot.press(Button.VOTE)
        assert len(raised) == times and pilot.box.running
        assert pilot.view.phase is Phase.IDLE
    assert len(traces(caplog)) == 1 and caplog.text.count("Traceback") == 1
    assert pilot.box.notice.split("; ").count(GAME_BUG) == 1


def timed(tmp_path) -> Config:
    c = one_night(tmp_path)
    c.game.mode = "newd3"
    return c


def to_discussion(pilot: Pilot) -> None:
    pilot.press(Button.START)
    pilot.until(lambda: pilot.box.flow.active.stage is Stage.DISCUSSION, limit=400, step=0.5)


def saved(tmp_path) -> dict:
    path = tmp_path / "state" / "wolfbox" / "state.json"
    return json.loads(path.read_text()).get("games", {}) if path.exists() else {}


def test_a_game_with_a_checkpoint_is_offered_from_it(tmp_path, pilots, monkeypatch):
    pilot = table(monkeypatch, pilots, timed(tmp_path), timed_said.all_lines())
    to_discussion(pilot)
    seats = list(pilot.box.flow.active.seats)
    kept = pilot.box.flow.active.to_dict()
    plant(monkeypatch, Timed, Button.NEXT)
    pilot.press(Button.NEXT)
    assert pilot.box.running
    assert pilot.view.title == "Resume the saved game?"
    assert GAME_BUG in pilot.box.notice.split("; ")
    monkeypatch.undo()                                  # the table goes on from there
    pilot.press(Button.START)
    game = pilot.box.flow.active
    assert game.stage is Stage.DISCUSSION and list(game.seats) == seats
    assert game.to_dict()["stage"] == kept["stage"]


def test_a_game_that_fails_again_at_once_starts_anew_then_ends_the_box(
        tmp_path, pilots, monkeypatch, caplog):
    """A bug the checkpoint itself leads into (the rebuilt game fails with
    no input between) is not resumed again and again: the checkpoint is
    forgotten and the game starts anew; failing even then, the box ends."""
    caplog.set_level(logging.WARNING)
    pilot = table(monkeypatch, pilots, timed(tmp_path), timed_said.all_lines())
    to_discussion(pilot)
    pilot.parts.close()                 # the checkpoint on the disk, as a box would have it
    pilots.made.clear()
    assert "newd3" in saved(tmp_path)
    pilot = table(monkeypatch, pilots, timed(tmp_path))
    ticks: list[str] = []
    real = Timed.tick

    def tick(self, now):
        ticks.append(self.stage.value)
        if self.stage is Stage.DISCUSSION:
            raise PlantedBug("a planted bug in the discussion")
        return real(self, now)
    monkeypatch.setattr(Timed, "tick", tick)
    pilot.press(Button.START)                           # resume: the discussion fails
    assert pilot.view.title == "Resume the saved game?" and pilot.box.running
    assert "discussion" in ticks                         # it got there, and failed
    pilot.press(Button.START)              # again, with nothing in between that worked
    assert pilot.box.running
    assert pilot.view.title == "Timed Werewolf for nine"        # anew, at its setup
    pilot.parts.close()                    # what the box remembers, on the disk
    pilots.made.clear()
    assert "newd3" not in saved(tmp_path)
    assert GAME_BUG in pilot.box.notice.split("; ")


def test_a_game_that_fails_even_anew_leaves_the_box_to_the_next_game(
        tmp_path, pilots, monkeypatch):
    """Issue 42.1: a box that ended here would be started again by systemd
    into the same game and the same fault. The game that cannot be played
    now gives way to the next, as if the table had chosen it."""
    pilot = table(monkeypatch, pilots, timed(tmp_path), timed_said.all_lines())

    def tick(self, now):
        raise PlantedBug("a planted bug everywhere")
    monkeypatch.setattr(Timed, "tick", tick)
    pilot.press(Button.START)
    assert pilot.box.running
    assert pilot.box.flow.name == "one_night"               # the next game, round the list
    assert pilot.view.title.startswith("One Night")
    assert GAME_BUG in pilot.box.notice.split("; ")
    pilot.press(Button.START)                               # and it plays
    assert pilot.box.flow.busy() and pilot.box.running


def test_a_box_whose_every_game_fails_at_once_ends(tmp_path, pilots, monkeypatch):
    """Nothing is left to show: only then does the exception end the box."""
    pilot = table(monkeypatch, pilots, timed(tmp_path), timed_said.all_lines())

    def tick(self, now):
        raise PlantedBug("a planted bug everywhere")
    for game in (Timed, Flow, Mayor):
        monkeypatch.setattr(game, "tick", tick)
    with pytest.raises(PlantedBug, match="everywhere"):
        pilot.press(Button.START)


def test_a_box_built_for_tests_fails_loudly(tmp_path, pilots, monkeypatch):
    pilot = pilots.start(one_night(tmp_path), warm=False)
    assert pilot.box.strict
    pilot.press(Button.START)
    pilot.until(lambda: pilot.view.phase is Phase.NIGHT, limit=30)
    plant(monkeypatch, Flow, Button.VOTE)
    with pytest.raises(PlantedBug):
        pilot.press(Button.VOTE)


@pytest.mark.parametrize("stop", ["Stopped", "KeyboardInterrupt"])
def test_a_stop_raised_inside_a_game_stops_the_box_and_is_never_taken_for_a_bug(
        tmp_path, pilots, monkeypatch, caplog, stop):
    """SIGTERM (the box's `Stopped`) or Ctrl-C may arrive while the game's
    code runs: the barrier catches a game's bugs, never a stop, which would
    put the game back to its start instead of ending the box (issue 42.12:
    a barrier catching BaseException passed the suite)."""
    from wolfbox.device.signals import Stopped
    kind = Stopped if stop == "Stopped" else KeyboardInterrupt
    caplog.set_level(logging.WARNING)
    pilot = table(monkeypatch, pilots, one_night(tmp_path))
    real = Flow.handle

    def handle(self, event, now):
        if event == Tap(Button.VOTE):
            raise kind(2) if kind is Stopped else kind()
        return real(self, event, now)
    monkeypatch.setattr(Flow, "handle", handle)
    with pytest.raises(kind):
        pilot.press(Button.VOTE)
    assert GAME_BUG not in pilot.box.notice.split("; ")
    assert "the game failed" not in caplog.text
