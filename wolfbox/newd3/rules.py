"""The day vote, the win check and the phase lengths of 004's timed game.

Everything a clock or a screen needs from 004 in numbers lives here, in one
place, so the box, `wolfbox script` and the tests cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from .roles import is_wolf_team
from .setups import PLAYERS, setup_of

# 004 "Day" and "Night": the four phases and their lengths in seconds. Day
# comes first: the game opens on Day 1 (rules facts, NewD3).
DISCUSSION = 150        # 2½ minutes of open talk
VOTE = 45
COORDINATION = 30       # the Wolves (and the Nobles) plan in private
ACTIONS = 45            # online, every role picks its target at once

# The phases in the order they are played, as (id, seconds): a day, then a night.
PHASES: tuple[tuple[str, int], ...] = (
    ("discussion", DISCUSSION),
    ("vote", VOTE),
    ("coordination", COORDINATION),
    ("actions", ACTIONS),
)

# 004 "Winning": nobody has won after this many nights, so it is a draw.
MAX_NIGHTS = 8

Winner = Literal["town", "wolves", "draw"]


def votes_needed(living: int) -> int:
    """Votes one player needs to be eliminated: a strict majority of the
    living, more than half (004: 5 of 9, 4 of 7, 3 of 5). Because it is more
    than half, two players can never both reach it, so a tie never
    eliminates anyone."""
    if living < 1:
        raise ValueError(f"nobody is alive to vote ({living} living)")
    return living // 2 + 1


def eliminated(votes: int, living: int) -> bool:
    """Whether the player with the most votes, `votes` of them, is out.
    Anything short of a strict majority eliminates nobody (004)."""
    if not 0 <= votes <= living:
        raise ValueError(f"{votes} votes cannot come from {living} living players")
    return votes >= votes_needed(living)


def _living(players: Sequence[str], dead: Iterable[int]) -> list[str]:
    """The roles of the living; refuses a deal that is not a setup or a dead
    seat that does not exist, since a wrong count would decide a game."""
    if setup_of(players) is None:
        raise ValueError("the players are not one of the nine NewD3 setups")
    gone = set(dead)
    for seat in gone:
        if not 1 <= seat <= PLAYERS:
            raise ValueError(f"dead seat {seat} is not a seat: seats are 1 to {PLAYERS}")
    return [role for seat, role in enumerate(players, 1) if seat not in gone]


def winner(players: Sequence[str], dead: Iterable[int], nights_done: int) -> Winner | None:
    """Who has won, from the deal, the dead seats and the nights played.

    In 004's order: Town once both Wolf-team players are dead; the Wolves
    once the living Wolf team equals or outnumbers the living Town (checked
    before the draw, so a parity reached at the eighth dawn is the Wolves'
    win); a draw once eight nights have passed with neither; else None, the
    game goes on. The whole winning team wins, the dead too, so the answer
    names a team, not seats."""
    if nights_done < 0:
        raise ValueError(f"{nights_done} nights cannot have been played")
    living = _living(players, dead)
    wolves = sum(1 for role in living if is_wolf_team(role))
    town = len(living) - wolves
    if wolves == 0:
        return "town"
    if wolves >= town:
        return "wolves"
    if nights_done >= MAX_NIGHTS:
        return "draw"
    return None
