"""The nine setups of 004 (A1..C3), and which one a deal is.

Every game of 004 secretly uses one of nine fixed line-ups of nine roles,
always with two on the Wolf team. The A setups pair the Wolf with the
Alchemist, the B setups with the Track Reader, the C setups have two plain
Wolves; the rest of each column is the Town's power roles and Sheep (004,
"The nine setups").

A setup is kept as a sorted tuple of role ids: a deal is the same setup
whatever seat got which card, and a sorted tuple compares equal exactly
when the two hold the same roles the same number of times.
"""

from __future__ import annotations

from collections.abc import Iterable

from .roles import (
    ALCHEMIST,
    CHEF,
    DAIRY_MAID,
    GUARD,
    NOBLE,
    PRIEST,
    SEER,
    SHEEP,
    TRACK_READER,
    WOLF,
)

PLAYERS = 9


def _setup(*roles: str) -> tuple[str, ...]:
    """The named roles, Sheep filling the seats left, sorted (see the module doc)."""
    return tuple(sorted(roles + (SHEEP,) * (PLAYERS - len(roles))))


# 004's table, row by row: the Wolf team first, then the Town power roles.
SETUPS: dict[str, tuple[str, ...]] = {
    "A1": _setup(WOLF, ALCHEMIST, SEER, GUARD),
    "A2": _setup(WOLF, ALCHEMIST, CHEF, PRIEST),
    "A3": _setup(WOLF, ALCHEMIST, NOBLE, NOBLE),
    "B1": _setup(WOLF, TRACK_READER, PRIEST, DAIRY_MAID),
    "B2": _setup(WOLF, TRACK_READER, CHEF, DAIRY_MAID),
    "B3": _setup(WOLF, TRACK_READER, PRIEST, GUARD),
    "C1": _setup(WOLF, WOLF, SEER),
    "C2": _setup(WOLF, WOLF, CHEF),
    "C3": _setup(WOLF, WOLF, NOBLE, NOBLE),
}

_BY_ROLES = {roles: name for name, roles in SETUPS.items()}


def describe(name: str) -> str:
    """A setup for people: "A1: Wolf, Alchemist, Seer, Guard, 5× Sheep", the
    Wolf team first, in the box's language."""
    from collections import Counter

    from ..i18n import _, copies, listed
    from .roles import ROLES, role_name
    order = list(ROLES)
    counts = Counter(sorted(SETUPS[name], key=order.index))
    # TRANSLATORS: a setup's name (A1..C3) and its roles.
    return _("{name}: {roles}").format(
        name=name, roles=listed([copies(role_name(r), n) for r, n in counts.items()]))


def setup_of(players: Iterable[str]) -> str | None:
    """The name of the setup a dealt list of roles is, seat order ignored, or
    None when it is none of the nine (wrong count, unknown id, wrong mix)."""
    roles = list(players)
    if not all(isinstance(r, str) for r in roles):    # JSON may hold anything
        return None
    return _BY_ROLES.get(tuple(sorted(roles)))
