"""Issue 42.1 and 42.2: a fault in what a game shows the phones is the
game's bug, at startup as mid-game. The first phone views were computed
outside the exception barrier, so a fault there ended the box before its
first screen (under systemd: restarted into the same fault, for ever);
mid-game the same fault was logged as an adapter's and the round went on
with phones that never heard of it again. Now both meet the barrier: the
trace in the log once, the start screen's line, the game built again; a
box built for tests raises."""

from __future__ import annotations

import logging

import pytest
from test_game_bug import PlantedBug, table, traces

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.device.notices import GAME_BUG
from wolfbox.newd3.game import Game as Timed
from wolfbox.onenight.flow import Flow

GAMES = {"one_night": Flow, "newd3": Timed, "dark_arts": Mayor}


def broken(monkeypatch, game: type, calls: set[int]) -> list[int]:
    """`game.phone_view` raises on the calls numbered in `calls` (1 is the
    first); how many calls were made."""
    made: list[int] = []
    real = game.phone_view

    def phone_view(self, seat, now):
        made.append(1)
        if len(made) in calls:
            raise PlantedBug("a planted bug in phone_view")
        return real(self, seat, now)
    monkeypatch.setattr(game, "phone_view", phone_view)
    return made


@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("call", [1, 3])
def test_a_fault_in_the_first_phone_views_is_met_by_the_barrier_not_the_end_of_the_box(
        tmp_path, pilots, monkeypatch, caplog, mode, call):
    caplog.set_level(logging.WARNING)
    made = broken(monkeypatch, GAMES[mode], {call})
    pilot = table(monkeypatch, pilots, phones_config(tmp_path, mode))
    pilot.settle()
    assert len(made) > call                              # asked again after the fault
    assert pilot.box.running
    assert GAME_BUG in pilot.box.notice.split("; ")
    assert len(traces(caplog)) == 1
    assert "an adapter failed" not in caplog.text


@pytest.mark.parametrize("mode", GAMES)
def test_a_box_built_for_tests_raises_a_fault_in_the_phone_views_at_startup(
        tmp_path, pilots, monkeypatch, mode):
    broken(monkeypatch, GAMES[mode], {1})
    with pytest.raises(PlantedBug):
        pilots.start(phones_config(tmp_path, mode), warm=False)


def test_a_fault_in_the_phone_views_mid_game_is_the_games_bug(tmp_path, pilots, monkeypatch,
                                                               caplog):
    """What the README says of a game's fault holds for its phone views
    too: logged with its trace, the start screen's line, the game put back;
    never "an adapter failed; the round goes on"."""
    caplog.set_level(logging.WARNING)
    pilot = table(monkeypatch, pilots, phones_config(tmp_path, "one_night"))
    pilot.settle()
    assert GAME_BUG not in pilot.box.notice.split("; ")
    broken(monkeypatch, Flow, {1})
    pilot.press(Button.START)                            # the night falls: views change
    pilot.settle()
    assert pilot.box.running
    assert GAME_BUG in pilot.box.notice.split("; ")
    assert len(traces(caplog)) == 1
    assert "an adapter failed" not in caplog.text


def test_a_fault_in_the_phone_views_mid_game_fails_a_test(tmp_path, pilots, monkeypatch):
    pilot = pilots.start(phones_config(tmp_path, "one_night"), warm=False)
    pilot.settle()
    broken(monkeypatch, Flow, {1})
    with pytest.raises(PlantedBug):
        pilot.press(Button.START)
        pilot.settle()
