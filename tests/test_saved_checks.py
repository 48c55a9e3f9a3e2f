"""A save the box could not have written is never resumed, and the table is
told so on the start screen (issue 29, item 14).

Found by fuzzing: a timed game saved at its end, a Mayor's game whose Lovers
were forgotten, a Mayor's phones game with no cards dealt, a timed night
whose choices were dropped, single flipped bits. Each is refused by what a
checkpoint always holds (the game's `saved` module) or by the checksum the
box writes with every state (device.state), and a state.json that is no
JSON at all (truncated, NUL-padded, not UTF-8) is said on the screen too;
the box starts a new game and does not meet the file again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_saved_games import MAYOR, TIMED_DAY, TIMED_NIGHT, changed

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.darkarts.game import Stage as MayorStage
from wolfbox.darkarts.saved import CannotResume as MayorCannot
from wolfbox.device.state import SEAL, StateStore, seal
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.game import Stage as TimedStage
from wolfbox.newd3.saved import CannotResume as TimedCannot

CANNOT_RESUME = "Saved game unreadable: a new game starts"

# The Mayor's game of 7 at night 2 with its cards dealt to the phones.
DEALT = ["werewolf", "villager", "villager", "hunter", "werewolf", "matchmaker", "villager"]
MAYOR_PHONES = changed(MAYOR, dealt=DEALT)


def state_file(tmp_path: Path) -> Path:
    """Where the `pilots` fixture's boxes keep their state."""
    return tmp_path / "state" / "wolfbox" / "state.json"


def written(tmp_path: Path, memory: dict) -> bytes:
    """`memory` as the box itself writes it (checksum and all)."""
    path = state_file(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    assert StateStore(path).save(memory) is None
    return path.read_bytes()


def start(pilots, mode: str):
    config = Config()
    config.voice.enabled = False
    config.game.mode = mode
    return pilots.start(config, fill=False, warm=False)


def told(pilot) -> int:
    """How often the start screen says the saved game could not be resumed."""
    pilot.settle()
    return pilot.box.notice.split("; ").count(CANNOT_RESUME)


def stage(pilot) -> str:
    return str(pilot.box.flow.active.stage)


# --------------------------------------------------- what a checkpoint holds
def test_the_states_below_resume_as_they_are():
    """The states the cases spoil are checkpoints the games resume."""
    assert Mayor.from_dict(MAYOR_PHONES).stage is MayorStage.RESUME
    assert Timed.from_dict(TIMED_NIGHT).stage is TimedStage.RESUME


def test_a_timed_game_at_its_end_without_a_winner_is_refused():
    """Resumed, it showed every card with everyone alive."""
    end = changed(TIMED_DAY, stage="end", winner=None)
    with pytest.raises(TimedCannot, match="no win"):
        Timed.from_dict(end)


def test_a_game_over_found_in_the_state_is_refused_on_the_screen(tmp_path, pilots):
    """The box never keeps a game over (device.saves), so one in its state
    is no save of its own, even with the winner the rules give."""
    over = changed(TIMED_DAY, stage="end", winner="wolves", night=4,
                   dead={str(s): r for s, r in enumerate(TIMED_DAY["seats"], 1)
                         if r in ("sheep", "seer")})
    assert Timed.from_dict(over).stage is TimedStage.RESUME         # the game takes it
    written(tmp_path, {"games": {"newd3": over}})
    pilot = start(pilots, "newd3")
    assert stage(pilot) == "setup" and told(pilot) == 1


@pytest.mark.parametrize("stage_, night", [("night", 2), ("dawn", 1), ("discussion", 1)])
def test_a_mayors_game_past_the_first_night_with_a_matchmaker_has_its_lovers(stage_, night):
    forgotten = changed(MAYOR, lovers=None, stage=stage_, night=night,
                        book=[r for r in MAYOR["book"] if r["day"] <= night])
    with pytest.raises(MayorCannot, match="Lovers are missing"):
        Mayor.from_dict(forgotten)


def test_the_first_night_has_no_lovers_before_the_matchmakers_call():
    first = changed(MAYOR, night=1, dead={}, book=[], previous_accused=None)
    assert Mayor.from_dict(changed(first, lovers=None)).stage is MayorStage.RESUME
    with pytest.raises(MayorCannot, match="before the Matchmaker"):
        Mayor.from_dict(first)


# ------------------------------------------------ the checksum, at the start
# Saves that are checkpoints of their game, but not the one the box wrote:
# only the checksum tells them from it.
SPOILT = {
    "the Mayor's phones game, its cards dealt dropped":
        ("dark_arts", MAYOR_PHONES, changed(MAYOR_PHONES, dealt=None)),
    "the timed night, its choices dropped":
        ("newd3", TIMED_NIGHT, changed(TIMED_NIGHT, chosen=None, killed=None)),
    "the Mayor's night 2 as its dawn":
        ("dark_arts", MAYOR, changed(MAYOR, stage="dawn")),
}


@pytest.mark.parametrize("case", SPOILT)
def test_a_checkpoint_changed_after_the_box_wrote_it_is_refused_on_the_screen(
        tmp_path, pilots, case):
    mode, real, spoilt = SPOILT[case]
    text = written(tmp_path, {"games": {mode: real}}).decode()
    data = json.loads(text)
    data["games"][mode] = spoilt                     # the checksum is the real save's
    state_file(tmp_path).write_text(json.dumps(data))
    pilot = start(pilots, mode)
    assert stage(pilot) == "setup"                   # a new game, not the spoilt one
    assert told(pilot) == 1
    pilot.press(Button.NEXT)
    pilot.parts.close()
    again = json.loads(state_file(tmp_path).read_text())
    assert again["games"] == {} and again[SEAL] == seal(again)     # forgotten, sealed anew


@pytest.mark.parametrize("mode, real", [("dark_arts", MAYOR_PHONES), ("newd3", TIMED_NIGHT)])
def test_the_real_save_resumes(tmp_path, pilots, mode, real):
    written(tmp_path, {"games": {mode: real}, "settings": {"game.mode": mode}})
    pilot = start(pilots, mode)
    assert stage(pilot) == "resume"
    assert told(pilot) == 0


def test_a_saved_game_from_a_box_before_the_checksum_is_refused_on_the_screen(tmp_path, pilots):
    """No checksum: refused (a flipped bit in the checksum's own key must
    not let a save through unchecked); the settings beside it are kept."""
    path = state_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"games": {"newd3": TIMED_NIGHT},
                                "settings": {"game.discussion_seconds": 240.0}}))
    pilot = start(pilots, "newd3")
    assert stage(pilot) == "setup" and told(pilot) == 1
    pilot.parts.close()
    again = json.loads(path.read_text())
    assert again["games"] == {} and again["settings"] == {"game.discussion_seconds": 240.0}


def test_a_state_without_a_saved_game_needs_no_checksum(tmp_path, pilots):
    """A deck written by hand (the README's example) is read as ever."""
    path = state_file(tmp_path)
    path.parent.mkdir(parents=True)
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager"]
    path.write_text(json.dumps({"deck": deck, "players": 4}))
    assert StateStore(path).load() == {"deck": deck, "players": 4}
    pilot = start(pilots, "one_night")
    assert told(pilot) == 0


# ------------------------------------------------------------ a garbled file
def garbled(real: bytes) -> dict[str, bytes]:
    return {
        "truncated": real[:len(real) // 2],
        "NUL-padded": real + b"\0" * 512,
        "zeroed": b"\0" * len(real),
        "not UTF-8": real.replace(b'"night"', b'"n\xffght"', 1),
        "empty": b"",
    }


@pytest.mark.parametrize("kind", list(garbled(b"")))
def test_a_garbled_state_is_said_on_the_screen_and_a_new_game_starts(tmp_path, pilots, kind):
    real = written(tmp_path, {"games": {"newd3": TIMED_NIGHT},
                              "settings": {"game.mode": "newd3"}})
    state_file(tmp_path).write_bytes(garbled(real)[kind])
    pilot = start(pilots, "newd3")
    assert stage(pilot) == "setup"
    assert told(pilot) == 1
    pilot.parts.close()
    # Written anew, so the next start does not meet it again (no loop).
    again = StateStore(state_file(tmp_path))
    assert again.load() == {"games": {}} and again.unreadable is None
    third = start(pilots, "newd3")
    assert told(third) == 0


# ----------------------------------------------------------- flipped bits
def test_every_flipped_bit_of_a_real_save_is_refused_or_changes_nothing(tmp_path):
    """Each of the file's bits flipped in turn: the saved games read back
    exactly as written, or not at all and `unreadable` says why (the start
    screen's notice). Before the checksum, 4 of 80 flips resumed another
    game (7 players read as 6)."""
    games = {"dark_arts": MAYOR_PHONES, "newd3": TIMED_NIGHT}
    real = written(tmp_path, {"games": games, "deck": ["werewolf", "seer", "robber",
                                                        "villager", "villager", "villager"],
                              "players": 3, "settings": {"game.mode": "newd3"}})
    store = StateStore(state_file(tmp_path))
    kept = refused = 0
    for bit in range(len(real) * 8):
        flipped = bytearray(real)
        flipped[bit // 8] ^= 1 << bit % 8
        loaded = store.decode(bytes(flipped))          # as `load` reads the file
        if "games" in loaded:
            assert loaded["games"] == games and store.unreadable is None, bit
            kept += 1
        else:
            assert store.unreadable is not None, bit
            refused += 1
    assert refused == len(real) * 8 and kept == 0       # no flip leaves the file as written
