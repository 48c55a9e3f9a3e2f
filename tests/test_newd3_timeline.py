"""Nothing about the cards shows in when things happen at night (issue 12).

A night of the timed game is played from its checkpoint four ways: two
different setups, each with two different patterns of deaths, with the
players at the box pressing buttons in one and nobody answering in the
other. What the table can perceive with its eyes closed (every line said,
every sound, the ambience, and when the screen lights up or goes dark)
must be the same, to the millisecond.
"""

from __future__ import annotations

import random

import pytest

from wolfbox.buttons import Button, Hold, Release, Tap
from wolfbox.effects import Ambience, PlayCue, Say
from wolfbox.newd3.game import Game, Stage
from wolfbox.newd3.setups import SETUPS

NIGHT = 3


def night_checkpoint(setup: str, dead: dict[int, str], rng: random.Random) -> Game:
    """A game saved at the start of night 3 with these cards and dead, resumed."""
    seats = list(SETUPS[setup])
    rng.shuffle(seats)
    for seat in dead:                         # the dead hold the roles named
        role = dead[seat]
        other = seats.index(role)
        seats[seat - 1], seats[other] = seats[other], seats[seat - 1]
    state = {"version": 1, "stage": "night", "choice": "", "setup": setup, "seats": seats,
             "dead": {str(s): r for s, r in dead.items()}, "night": NIGHT, "killed": None,
             "winner": None}
    return Game.from_dict(state, rng=rng)


def perceived(game: Game, busy: bool) -> list[tuple[float, str]]:
    """The night as a table with closed eyes perceives it, from its start to
    the dawn. With `busy`, whoever is in a window presses buttons in it."""
    now = 0.0
    out: list[tuple[float, str]] = []
    lit = None

    def note(effects: list) -> None:
        nonlocal lit
        for e in effects:
            if isinstance(e, Say):
                out.append((round(now, 6), f"say {e.text}"))
            elif isinstance(e, (PlayCue, Ambience)):
                out.append((round(now, 6), repr(e)))
        shown = not game.view(now).dim
        if shown != lit:
            out.append((round(now, 6), f"screen {'lit' if shown else 'dark'}"))
            lit = shown

    note(game.handle(Tap(Button.START), now))           # resume the night
    pressed = set()
    while game.stage is Stage.NIGHT:
        due = game.next_change(now)
        assert due is not None
        now = due
        note(game.tick(now))
        game.check()
        if busy and game.turn_stage == "wait" and game.turn_index not in pressed:
            pressed.add(game.turn_index)
            for event in (Tap(Button.NEXT), Tap(Button.VOTE), Hold(Button.VOTE),
                          Release(Button.VOTE), Tap(Button.START), Tap(Button.VOTE)):
                note(game.handle(event, now))
    return out


@pytest.mark.parametrize("other", [
    ("C3", {2: "wolf", 5: "noble", 7: "sheep"}, False),
    ("A2", {}, True),
    ("B1", {1: "dairy_maid", 9: "priest"}, False),
])
def test_a_night_sounds_and_lights_the_same_whatever_the_cards_and_the_dead(other):
    base = perceived(night_checkpoint("A1", {4: "seer"}, random.Random(1)), busy=True)
    setup, dead, busy = other
    assert perceived(night_checkpoint(setup, dead, random.Random(2)), busy=busy) == base


def test_the_timeline_holds_every_call_and_lights_only_in_windows():
    """The shared timeline itself: every role's call, every seat's turn,
    and the screen lit exactly once a window, 10 calls and 9 seats (dark
    between them: the calls read above the veil)."""
    timeline = perceived(night_checkpoint("C1", {}, random.Random(3)), busy=False)
    said = [what for _at, what in timeline if what.startswith("say ")]
    for role in ("Alchemist", "Chef", "Guard", "Seer", "Track Reader", "Dairy Maid", "Priest"):
        assert f"say {role}, close your eyes." in said
    assert sum(1 for s in said if s.startswith("say Seat ") and "open your eyes" in s) == 9
    lit = [at for at, what in timeline if what == "screen lit"]
    assert len(lit) == 10 + 9 + 1            # the windows, then the dawn
