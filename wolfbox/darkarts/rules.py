"""The rules of the day, from 003 (Werewolves of the Dark Arts, Day Phase),
and the win check.

Each function cites its passage. The box decides without knowing secrets:
it knows the setup (how many of each role were dealt) and the roles of the
dead, so the living werewolves are the setup's werewolves less the dead ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..i18n import _, ngettext
from .roles import (
    CHOSEN,
    HUNTER,
    MATCHMAKER,
    NOBLE,
    ROLES,
    VILLAGE,
    VILLAGER,
    WEREWOLF,
    WEREWOLVES,
    is_werewolf,
)
from .seats import MAX_PLAYERS, MIN_PLAYERS, Ring


# ------------------------------------------------------------------ setup
@dataclass(frozen=True)
class Setup:
    """What the Mayor deals: `roles` maps each chosen role to its copies;
    Villagers fill the other seats."""
    players: int
    roles: tuple[tuple[str, int], ...]          # (role id, copies), in CHOSEN order

    @classmethod
    def of(cls, players: int, roles: Mapping[str, int]) -> Setup:
        return cls(players, tuple((r, roles[r]) for r in CHOSEN if roles.get(r, 0) > 0))

    @property
    def counts(self) -> dict[str, int]:
        """Every role dealt, Villagers included, with its copies."""
        out = dict(self.roles)
        villagers = self.players - sum(out.values())
        if villagers > 0:
            out[VILLAGER] = villagers
        return out

    @property
    def werewolves(self) -> int:
        return sum(n for r, n in self.roles if is_werewolf(r))

    def in_play(self) -> frozenset[str]:
        return frozenset(self.counts)

    def problem(self) -> str | None:
        """Why this setup cannot be dealt, in the box's language, or None."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            return ngettext("The game takes {least} to {most} player.",
                            "The game takes {least} to {most} players.", MAX_PLAYERS).format(
                least=MIN_PLAYERS, most=MAX_PLAYERS)
        for r, n in self.roles:
            if r not in ROLES or r == VILLAGER:
                raise ValueError(f"{r} cannot be chosen")
            if ROLES[r].most and n > ROLES[r].most:
                raise ValueError(f"at most {ROLES[r].most} {r}")
        if sum(n for _r, n in self.roles) > self.players:
            return _("More roles than players.")
        if dict(self.roles).get(NOBLE, 0) % 2:
            # 004: the Nobles know each other, so they always come as a pair.
            return _("Nobles come in pairs: choose none or two.")
        wolves = self.werewolves
        # The werewolves' call wakes the pack; the 004 wolves (Alchemist,
        # Track Reader) join a pack, they are not one.
        if not dict(self.roles).get(WEREWOLF, 0):
            return _("The game needs a Werewolf card.")
        if wolves >= self.players - wolves:
            return _("Too many werewolves: they would win at once.")
        return None


def default_roles(players: int) -> dict[str, int]:
    """A first setup for a table (the box's setup screen and the sheet): a
    werewolf for about every four players, the Hunter and the Matchmaker,
    the two roles 003 gives rules for."""
    return {WEREWOLF: max(1, (players + 2) // 4), HUNTER: 1, MATCHMAKER: 1}


def roles_left(setup: Setup, ring: Ring) -> dict[str, int]:
    """The roles not yet turned up, with their copies: what a death may reveal.
    Their copies always add up to the living players."""
    left = Counter(setup.counts)
    left.subtract(Counter(ring.dead.values()))
    return {r: n for r, n in left.items() if n > 0}


# ------------------------------------------------------------------- vote
def lynch_threshold(living: int) -> int:
    """003: "A vote passes if the total number of votes is at least half of
    the number of players still alive (with a remainder rounded up). This
    number of players includes the person being accused, and it does not
    include the Town Mayor": 10 living need 5, 9 living need 5."""
    if living < 1:
        raise ValueError(f"{living} living players: nobody to lynch")
    return (living + 1) // 2


def most_hands(living: int) -> int:
    """003: "The accused is not allowed to vote": at most everyone else's hand."""
    return max(0, living - 1)


def votes(hands: int, adjust: int = 0) -> int:
    """The vote count from the hands raised, changed by `adjust` for roles
    that change it (003's footnote: the Shaman); never below zero."""
    return max(0, hands + adjust)


def passes(count: int, living: int) -> bool:
    return count >= lynch_threshold(living)


# -------------------------------------------------------------- accusing
DEAD, REPEAT = "dead", "repeat"


def refusal(ring: Ring, seat: int, previous: int | None) -> str | None:
    """Why `seat` may not be accused now, or None. Only the living play; and
    003: "the same person cannot be accused twice in a row"."""
    if not ring.alive(seat):
        return DEAD
    if seat == previous:
        return REPEAT
    return None


# ---------------------------------------------------------------- chains
@dataclass(frozen=True)
class Heartbreak:
    """`seat` dies of a broken heart: their Lover `lover` died."""
    seat: int
    lover: int


@dataclass(frozen=True)
class Shot:
    """The dead Hunter at `hunter` picks a victim, alone."""
    hunter: int


Chain = Heartbreak | Shot


def partner(lovers: tuple[int, int] | None, seat: int) -> int | None:
    if lovers is None or seat not in lovers:
        return None
    return lovers[1] if lovers[0] == seat else lovers[0]


def chains(ring: Ring, lovers: tuple[int, int] | None, deaths: Sequence[int]) -> list[Chain]:
    """What follows these deaths (their roles on the ring), in 003's order:
    "If one of the dead players had a Lover, announce that their Lover has
    died of a broken heart", then "If one of the killed players was the
    Hunter, they must then make a decision on who to kill". A victim's own
    chains follow when their death is entered (the Hunter's victim's Lover:
    "remember to kill the other Lover")."""
    out: list[Chain] = []
    for seat in deaths:
        other = partner(lovers, seat)
        if other is not None and ring.alive(other):
            out.append(Heartbreak(other, seat))
    out += [Shot(seat) for seat in deaths if ring.dead.get(seat) == "hunter"]
    return out


# ------------------------------------------------------------------- win
def living_werewolves(setup: Setup, ring: Ring) -> int:
    dead = sum(1 for r in ring.dead.values() if is_werewolf(r))
    return setup.werewolves - dead


def winner(setup: Setup, ring: Ring) -> str | None:
    """VILLAGE when every werewolf is dead; WEREWOLVES when the living
    werewolves equal or outnumber everyone else alive; else None. 003 leaves
    the conditions unsaid ("if the role reveal meets a winning condition");
    these are the classic ones (rules-facts)."""
    wolves = living_werewolves(setup, ring)
    assert wolves >= 0, "more werewolves dead than dealt"
    if wolves == 0:
        return VILLAGE
    if wolves >= len(ring.living()) - wolves:
        return WEREWOLVES
    return None
