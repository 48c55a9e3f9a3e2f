"""The games this box has: the one module that names every game's package.

Each game's `kind.py` says all the box needs of it (wolfbox.mode.Kind): its
names, how to make one, new or resumed, its part of the config file and of
the settings screen, and its lines. This module lists them in the order
the box offers them (`SHIPPED`) and registers each (`register`): its
section with wolfbox.config, its name, title and pages with
wolfbox.roster, which the shared modules read, knowing no game. The device
makes and resumes every game from `KINDS`; the catalogue asks each for its
lines; `make lint`'s contracts find each game's package from here
(lint/importrules.py). Whatever makes a Config imports this first: the
command line and the device do, and so do the tests.
"""

from __future__ import annotations

from . import config, roster
from .darkarts.kind import KIND as MAYOR
from .mode import Kind
from .newd3.kind import KIND as TIMED
from .onenight.kind import KIND as ONE_NIGHT

# The games a box has, in the order offered (mypy holds each to Kind).
SHIPPED: tuple[Kind, ...] = (ONE_NIGHT, MAYOR, TIMED)

KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    """Add a game to the box, after those it has: the whole of it."""
    KINDS[kind.name] = kind
    config.register(kind.section)
    roster.offer(kind.name, kind.title, kind.pages)


def withdraw(name: str) -> None:
    """Take a game away again (the tests' fourth game, after its test)."""
    kind = KINDS.pop(name, None)
    if kind is not None:
        config.withdraw(kind.section.name)
        roster.withdraw(name)


for _kind in SHIPPED:
    register(_kind)
