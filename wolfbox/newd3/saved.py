"""The timed game as it is saved on disk, checked before it is trusted.

`read` checks a saved game as wolfbox.engine.checkpoints says every game
does (types and ranges first, then what the rules make true);
`CannotResume` names the first problem.

What a checkpoint always holds: the cards are one of the nine setups; the
dead are seats, each with its own card; the night is one the game can be
in at that phase (the deal before the first, a night from 1 to 8); nobody
has won before the end, and the end has the winner the rules give (never
none: an end with nobody dead would show every card); no more dead than
the days and nights played can kill (a vote and a kill each); the setup
picked on the setup screen, if one was, is the one dealt; the
seat killed in the night is one of the dead from the dawn on (and nobody
before it); a night's saved choices are a night that can happen, and its
death is theirs.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..engine.checkpoints import CannotResume as CannotResume
from . import rules
from .resolve import IllegalNight, Kill, resolve
from .setups import PLAYERS, SETUPS

VERSION = 1
SETUP = "setup"
DEAL, NIGHT, DAWN, DISCUSSION, VOTE, END = "deal", "night", "dawn", "discussion", "vote", "end"

Seat = Annotated[int, msgspec.Meta(ge=1, le=PLAYERS)]
Nights = Annotated[int, msgspec.Meta(ge=0, le=rules.MAX_NIGHTS)]


class _Head(msgspec.Struct):
    version: Literal[1]
    stage: Literal["setup", "deal", "night", "dawn", "discussion", "vote", "end"]
    choice: str = ""                 # the setup picked on the setup screen ("": random)


class Chosen(msgspec.Struct, forbid_unknown_fields=True):
    """A night's choices, once all are made: each actor's target, the kill."""
    actions: dict[Seat, Seat]
    kill: tuple[Seat, Seat] | None          # target, knife


class SavedGame(msgspec.Struct):
    """A game at the start of its deal, a night, a dawn, a day, a vote or the end."""
    stage: str
    choice: str
    setup: str
    seats: tuple[str, ...]
    dead: dict[Seat, str]
    night: Nights
    killed: Seat | None = None
    winner: Literal["town", "wolves", "draw"] | None = None
    chosen: Chosen | None = None

    @property
    def kill(self) -> Kill | None:
        if self.chosen is None or self.chosen.kill is None:
            return None
        return Kill(*self.chosen.kill)


def read(state: object) -> str | SavedGame:
    """The saved state, typed and checked: the setup screen's choice ("" for
    random) for a game not begun, else the game; CannotResume names what is
    wrong."""
    try:
        head = msgspec.convert(state, _Head)
        if head.choice and head.choice not in SETUPS:
            raise CannotResume(f"unknown setup {head.choice!r}: the setups are "
                               f"{', '.join(SETUPS)}")
        if head.stage == SETUP:
            return head.choice
        saved = msgspec.convert(state, SavedGame, str_keys=True)
    except msgspec.ValidationError as e:
        raise CannotResume(str(e)) from None
    _check(saved)
    return saved


def _check(saved: SavedGame) -> None:
    if saved.setup not in SETUPS or tuple(sorted(saved.seats)) != SETUPS[saved.setup]:
        raise CannotResume("the saved cards are not the saved setup")
    if saved.choice and saved.choice != saved.setup:
        raise CannotResume(f"setup {saved.choice} was picked, but {saved.setup} was dealt")
    for seat, role in saved.dead.items():
        if saved.seats[seat - 1] != role:
            raise CannotResume(f"dead seat {seat} was not the {role}")
    dead, night, stage = set(saved.dead), saved.night, saved.stage
    most = _most_dead(stage, night)
    if len(dead) > most:
        raise CannotResume(f"{len(dead)} dead at the {stage} of night {night}: "
                           f"the days and nights played kill at most {most}")
    killed = saved.killed
    if stage != END and saved.winner is not None:
        raise CannotResume(f"a winner before the end ({saved.winner})")
    if stage != NIGHT and saved.chosen is not None:
        raise CannotResume("a night's choices are saved only in the night")
    if stage == DEAL and (night or dead or killed is not None):
        raise CannotResume("a game is dealt before any night or death")
    if stage in (NIGHT, DAWN) and night < 1:
        raise CannotResume(f"night {night} in the {stage}")
    if stage in (DAWN, DISCUSSION, VOTE, END) and killed is not None and killed not in dead:
        raise CannotResume(f"seat {killed} was killed but is alive")
    # Who has won by now: at the start of a night, none in the nights
    # before; at a dawn, none before its death; in a day, none yet; at the
    # end, exactly the saved winner, and one there is.
    if stage == NIGHT:
        _not_won(saved, dead, night - 1)
        _check_night(saved)
    elif stage == DAWN:
        _not_won(saved, dead - {killed}, night - 1)
    elif stage in (DISCUSSION, VOTE):
        _not_won(saved, dead, night)
    elif stage == END and (saved.winner is None
                           or saved.winner != rules.winner(saved.seats, dead, night)):
        raise CannotResume(f"the rules give no win to {saved.winner}")


def _most_dead(stage: str, night: int) -> int:
    """The most deaths the game can have had by this checkpoint: 004's
    game opens on Day 1, each day's vote eliminates at most one, each
    night's kill at most one. At `night` n a day (its discussion, its
    vote) comes after n nights and n votes; the night n after n votes
    and n - 1 nights; its dawn after its own kill; the end after a dawn
    or a day's vote."""
    if stage == DEAL:
        return 0
    if stage == NIGHT:
        return 2 * night - 1
    if stage == END:
        return 2 * night + 1
    return 2 * night


def _not_won(saved: SavedGame, dead: set[int], nights: int) -> None:
    won = rules.winner(saved.seats, dead, nights)
    if won is not None:
        raise CannotResume(f"the saved game is already won ({won})")


def _check_night(saved: SavedGame) -> None:
    """Without choices, nobody is killed yet; with them, the night can
    happen and its death is the saved one."""
    if saved.chosen is None:
        if saved.killed is not None:
            raise CannotResume("a night killed before its choices")
        return
    try:
        outcome = resolve(saved.seats, set(saved.dead), saved.chosen.actions, saved.kill)
    except IllegalNight as e:
        raise CannotResume(f"the saved night cannot happen: {e}") from None
    if outcome.killed != saved.killed:
        raise CannotResume(f"the saved night kills seat {outcome.killed}, not {saved.killed}")
