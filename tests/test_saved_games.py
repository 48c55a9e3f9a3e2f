"""Nothing read from a saved game can crash the box or make it lie (issue 20).

Each game's saved state is checked before it is trusted (wolfbox.darkarts.saved,
wolfbox.newd3.saved); one that is not a checkpoint its game could have taken
is refused, said once on the start screen, forgotten, and a new game starts.
Each game keeps its own slot in state.json, and a state directory that takes
no writes is said once on the screen while the game goes on.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Lines
from pilot import FakeClock, Pilot

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.darkarts.game import Stage as MayorStage
from wolfbox.darkarts.saved import CannotResume as MayorCannot
from wolfbox.device.app import build
from wolfbox.device.state import SEAL, seal
from wolfbox.effects import Say
from wolfbox.hardware.factory import mock_factory
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.game import Stage as TimedStage
from wolfbox.newd3.saved import CannotResume as TimedCannot

CANNOT_RESUME = "Saved game unreadable: a new game starts"
NO_SAVE = "Cannot save: games will not survive a power cut"

# A Mayor's game at the start of night 2: seat 3 died in the first night (a
# Villager), seats 1 and 2 are the Lovers, seat 4 was accused on day 1.
MAYOR = {
    "version": 1, "stage": "night", "players": 7,
    "roles": {"werewolf": 2, "hunter": 1, "matchmaker": 1},
    "night": 2, "dead": {"3": "villager", "7": "villager"}, "lovers": [1, 2],
    "previous_accused": None, "winner": None,
    # Day 1: seat 3 found dead; seat 4 accused, 2 of the 3 votes needed;
    # then seat 7 accused and lynched (a day ends only in a lynch).
    "book": [
        {"kind": "death", "day": 1, "seat": 3, "role": "villager", "cause": "night", "by": 0,
         "seconded": False, "votes": 0, "needed": 0, "team": ""},
        {"kind": "accusation", "day": 1, "seat": 4, "role": "", "cause": "", "by": 0,
         "seconded": True, "votes": 0, "needed": 0, "team": ""},
        {"kind": "vote", "day": 1, "seat": 4, "role": "", "cause": "", "by": 0,
         "seconded": False, "votes": 2, "needed": 3, "team": ""},
        {"kind": "accusation", "day": 1, "seat": 7, "role": "", "cause": "", "by": 0,
         "seconded": True, "votes": 0, "needed": 0, "team": ""},
        {"kind": "vote", "day": 1, "seat": 7, "role": "", "cause": "", "by": 0,
         "seconded": False, "votes": 4, "needed": 3, "team": ""},
        {"kind": "death", "day": 1, "seat": 7, "role": "villager", "cause": "lynch", "by": 0,
         "seconded": False, "votes": 0, "needed": 0, "team": ""},
    ],
}
# Setup A1 (Wolf, Alchemist, Seer, Guard, five Sheep), seated thus.
SEATS = ["sheep", "wolf", "seer", "sheep", "alchemist", "guard", "sheep", "sheep", "sheep"]
# The timed game at the second dawn: seat 1 was killed in night 1, seat 4 in
# night 2.
TIMED_DAWN = {"version": 1, "stage": "dawn", "choice": "", "setup": "A1", "seats": SEATS,
              "dead": {"1": "sheep", "4": "sheep"}, "night": 2, "killed": 4,
              "winner": None, "chosen": None}
# Night 2 with every choice made: the Alchemist (5) blocks the Seer (3), the
# Guard (6) protects seat 7, the Wolf (2) kills seat 4.
TIMED_NIGHT = {"version": 1, "stage": "night", "choice": "", "setup": "A1", "seats": SEATS,
               "dead": {"1": "sheep"}, "night": 2, "killed": 4, "winner": None,
               "chosen": {"actions": {"5": 3, "6": 7, "3": 2}, "kill": [4, 2]}}
TIMED_DAY = {"version": 1, "stage": "discussion", "choice": "", "setup": "A1", "seats": SEATS,
             "dead": {"1": "sheep"}, "night": 1, "killed": 1, "winner": None, "chosen": None}


def changed(base: dict, **changes) -> dict:
    out = copy.deepcopy(base)
    for path, value in changes.items():
        *parents, last = path.split("__")
        here = out
        for key in parents:
            here = here[key]
        here[last] = value
    return out


def test_the_valid_states_resume():
    """The states the tests below spoil are ones the games resume."""
    assert Mayor.from_dict(MAYOR).stage is MayorStage.RESUME
    for state in (TIMED_DAWN, TIMED_NIGHT, TIMED_DAY):
        assert Timed.from_dict(state).stage is TimedStage.RESUME


# ------------------------------------------------------------------ item 1, 2
# Saved games that crashed the box at its start: a list where an object
# belongs, a list too short.
START_CRASHES = {
    "mayor roles a list": ("dark_arts", changed(MAYOR, roles=["werewolf"])),
    "mayor dead a list": ("dark_arts", changed(MAYOR, dead=[3])),
    "mayor one Lover": ("dark_arts", changed(MAYOR, lovers=[1])),
    "timed dead a list": ("newd3", changed(TIMED_DAWN, dead=[1, 4])),
    "timed actions a list": ("newd3", changed(TIMED_NIGHT, chosen__actions=[[5, 3]])),
    "timed kill too short": ("newd3", changed(TIMED_NIGHT, chosen__kill=[4])),
}


def sealed(memory: dict) -> dict:
    """`memory` as the box writes it: with its checksum."""
    return {**memory, SEAL: seal(memory)}


def boot(tmp_path: Path, mode: str, memory: dict) -> Pilot:
    """The box as the service starts it, on a fake clock, with this state.json
    (sealed as the box seals it)."""
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    (state / "state.json").write_text(json.dumps(sealed(memory)))
    os.environ["STATE_DIRECTORY"] = str(state)
    config = Config()
    config.voice.enabled = False
    config.game.mode = mode
    parts = build(config, "headless", clock=FakeClock(), pin_factory=mock_factory(),
                  stdin_keys=False)
    pilot = Pilot(parts, parts.box.clock)
    pilot.said = []                                           # type: ignore[attr-defined]
    parts.box.effect_sinks.append(
        lambda e: pilot.said.append(e.text) if isinstance(e, Say) else None)  # type: ignore
    pilot.settle()
    return pilot


@pytest.fixture(autouse=True)
def _state_env():
    """boot() points the box at a test's state folder through the
    environment: put it back as it was, so no later test reads this one's."""
    before = os.environ.pop("STATE_DIRECTORY", None)
    yield
    os.environ.pop("STATE_DIRECTORY", None)
    if before is not None:
        os.environ["STATE_DIRECTORY"] = before


def saved_file(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "state" / "state.json").read_text())


@pytest.mark.parametrize("case", START_CRASHES)
def test_a_saved_game_of_the_wrong_shape_is_a_new_game_and_one_notice(tmp_path, case):
    mode, state = START_CRASHES[case]
    pilot = boot(tmp_path, mode, {"settings": {"game.mode": mode},
                                  "game": {"mode": mode, "state": state}})
    try:
        game = pilot.box.flow.active
        assert game.stage.value == "setup"                     # a new game, no resume
        assert pilot.box.notice.split("; ").count(CANNOT_RESUME) == 1
        pilot.press(Button.NEXT)
    finally:
        pilot.parts.close()
    assert mode not in saved_file(tmp_path).get("games", {})   # forgotten: no crash loop


def test_the_issues_saved_game_starts_the_real_box(tmp_path):
    """Issue 20's example, as the service runs it (`--safe-config`): once it
    crashed at every boot."""
    state = {"version": 1, "stage": "night", "players": 7, "roles": ["werewolf"], "night": 1,
             "dead": {}, "lovers": None, "previous_accused": None, "winner": None, "book": []}
    (tmp_path / "state.json").write_text(json.dumps(
        {"settings": {"game.mode": "dark_arts"}, "game": {"mode": "dark_arts", "state": state}}))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "STATE_DIRECTORY": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--headless",
                             "--safe-config"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out = Lines(proc.stdout)
        out.wait_for(CANNOT_RESUME)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    assert "dark_arts" not in json.loads((tmp_path / "state.json").read_text())["games"]


# ------------------------------------------------------------------- item 3, 4
# Saved games that crashed once resumed, or resumed telling what did not happen.
REFUSED_MAYOR = {
    "a martian died": changed(MAYOR, dead={"3": "martian"}),
    "every seat dead": changed(MAYOR, dead={str(s): "villager" for s in range(1, 8)}),
    "night -5": changed(MAYOR, night=-5),
    "night 1000000": changed(MAYOR, night=1_000_000),
    "Lovers 98 and 99": changed(MAYOR, lovers=[98, 99]),
    "Lovers 1 and 1": changed(MAYOR, lovers=[1, 1]),
    "accused 'seat four'": changed(MAYOR, previous_accused="seat four"),
    "winner martians": changed(MAYOR, winner="martians"),
    "an unknown role": changed(MAYOR, roles={"werewolf": 2, "vampire": 1}),
    "a death the book does not tell": changed(MAYOR, dead={"3": "villager", "5": "hunter"}),
    "too many Hunters": changed(MAYOR, roles={"werewolf": 2, "hunter": 3}),
}
REFUSED_TIMED = {
    "killed 99": changed(TIMED_DAWN, killed=99),
    "killed -1": changed(TIMED_DAWN, killed=-1),
    "killed 0": changed(TIMED_DAWN, killed=0),
    "killed a living Wolf": changed(TIMED_DAWN, killed=2),
    "all nine dead": changed(TIMED_DAY, dead={str(s): r for s, r in enumerate(SEATS, 1)},
                             night=2),
    "night -5": changed(TIMED_DAY, night=-5),
    "night 1000000": changed(TIMED_DAY, night=1_000_000),
    "winner martians": changed(TIMED_DAY, winner="martians"),
    "a winner before the end": changed(TIMED_DAY, winner="town"),
    "an unknown role": changed(TIMED_DAY, seats=["martian", *SEATS[1:]]),
    "a night killing another seat": changed(TIMED_NIGHT, killed=7),
}


@pytest.mark.parametrize("case", REFUSED_MAYOR)
def test_the_mayor_refuses_a_saved_game_it_could_not_have_saved(case):
    with pytest.raises(MayorCannot):
        Mayor.from_dict(REFUSED_MAYOR[case])


@pytest.mark.parametrize("case", REFUSED_TIMED)
def test_the_timed_game_refuses_a_saved_game_it_could_not_have_saved(case):
    with pytest.raises(TimedCannot):
        Timed.from_dict(REFUSED_TIMED[case])


def test_a_refused_game_on_the_box_starts_a_new_game_and_says_so_once(tmp_path):
    """The box at the timed game's start, with a dawn naming seat -1: no
    resume offered (no "Seat -1 was the Priest" on START), one notice."""
    pilot = boot(tmp_path, "newd3", {"games": {"newd3": REFUSED_TIMED["killed -1"],
                                               "dark_arts": REFUSED_MAYOR["a martian died"]}})
    try:
        assert pilot.box.flow.active.stage is TimedStage.SETUP
        pilot.press(Button.VOTE, hold=2.0)                 # hold: the next game (One Night)
        pilot.press(Button.VOTE, hold=2.0)                 # ... and the Mayor's
        assert pilot.box.flow.active.stage is MayorStage.SETUP
        assert pilot.box.notice.split("; ").count(CANNOT_RESUME) == 1    # said once
        assert not any("was the" in line or "died" in line for line in pilot.said)
    finally:
        pilot.parts.close()
    assert saved_file(tmp_path)["games"] == {}


# ---------------------------------------------------------------------- item 5
def test_a_mayors_game_waits_in_its_slot_while_the_timed_game_is_played(tmp_path):
    """Started as the timed game, the box keeps the Mayor's saved game (an
    older box's single slot) while the timed game saves its own; the Mayor's
    is offered when the table switches to it."""
    pilot = boot(tmp_path, "newd3", {"game": {"mode": "dark_arts", "state": MAYOR}})
    try:
        assert pilot.box.flow.active.stage is TimedStage.SETUP
        pilot.press(Button.START)                          # deal: the timed checkpoint
        assert pilot.box.flow.active.stage is TimedStage.DEAL
        pilot.advance(1.0)
        pilot.parts.close()                                # the power goes
        games = saved_file(tmp_path)["games"]
        assert games["dark_arts"] == MAYOR and games["newd3"]["stage"] == "deal"
    finally:
        pilot.parts.close()
    again = boot(tmp_path, "one_night", saved_file(tmp_path))
    try:
        again.press(Button.VOTE, hold=2.0)                 # hold: the Mayor's game
        mayor = again.box.flow.active
        assert mayor.stage is MayorStage.RESUME
        assert again.view.title == "Resume the saved game?"
        assert again.view.details == ("Night 2",)
        assert CANNOT_RESUME not in again.box.notice
    finally:
        again.parts.close()
    third = boot(tmp_path, "newd3", saved_file(tmp_path))
    try:
        assert third.box.flow.active.stage is TimedStage.RESUME     # and the timed one
        assert third.view.details == ("The deal, from seat 1",)
    finally:
        third.parts.close()


# ---------------------------------------------------------------------- item 6
def test_a_state_directory_that_takes_no_writes_is_said_once(tmp_path):
    """A read-only or full state directory (here: a file where the folder
    should be) fails every save; the table hears of it once, and plays on."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    os.environ["STATE_DIRECTORY"] = str(blocker / "state")
    config = Config()
    config.voice.enabled = False
    parts = build(config, "headless", clock=FakeClock(), pin_factory=mock_factory(),
                  stdin_keys=False)
    pilot = Pilot(parts, parts.box.clock)
    told: list[str] = []
    show = parts.box.add_notice
    parts.box.add_notice = lambda text, replaces=(): (told.append(text), show(text, replaces))
    try:
        for _ in range(3):
            pilot.press(Button.NEXT)                       # another deck: a save each
        pilot.press(Button.START)                          # the round starts all the same
        assert pilot.box.flow.active.phase.value != "idle"
    finally:
        parts.close()                                      # every save has been tried
    pilot.box.act(pilot.box.inbox.wait(0))                 # what the saver said meanwhile
    assert told.count(NO_SAVE) == 1
    assert parts.box.notice.split("; ").count(NO_SAVE) == 1


# ------------------------------------------------------------------ state.json
def test_each_part_of_state_json_of_the_wrong_shape_is_left_out(tmp_path, caplog):
    """The deck, the players, the settings and the saved games are each
    read through the schema: a part of the wrong shape is left out (so it
    is written anew), the others still count."""
    from wolfbox.device.state import StateStore
    path = tmp_path / "state.json"
    path.write_text(json.dumps(sealed({
        "deck": "seer", "players": "seven", "settings": ["sound.volume", 0.5],
        "games": {"newd3": {"version": 1, "stage": "setup", "choice": "C1"}},
        "game": [1], "mine": "not the box's"})))
    assert StateStore(path).load() == {
        "games": {"newd3": {"version": 1, "stage": "setup", "choice": "C1"}}}
    assert "ignoring unreadable saved state" in caplog.text
    path.write_text(json.dumps({"deck": ["seer", "robber"], "players": 4,
                                "settings": {"sound.volume": 0.5, "box.lang": "de"}}))
    assert StateStore(path).load() == {"deck": ["seer", "robber"], "players": 4,
                                       "settings": {"sound.volume": 0.5, "box.lang": "de"}}


def test_a_game_that_fails_to_build_says_why_not_a_recursion():
    """Issue 20: an AttributeError while building a game (a list where an
    object belongs) escaped `Games.active`, and `__getattr__` asked for it
    again until Python gave up with a RecursionError that named nothing."""
    from wolfbox.games import Games

    def broken():
        return [].items()                    # AttributeError: 'list' has no 'items'

    games = Games({"one_night": broken}, "one_night")
    with pytest.raises(RuntimeError, match="items"):
        games.view(0.0)
    with pytest.raises(RuntimeError, match="items"):
        games.active.phase                                                # noqa: B018
