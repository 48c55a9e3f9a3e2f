"""The games this box has: the one module that names every game's package.

Each game's `kind.py` says how the box makes it, new or resumed, and which
part of the config file is its own (wolfbox.mode.Kind). This module lists
them, in the order of wolfbox.games.GAMES, and hands their parts to
wolfbox.config, which knows no game. Whatever makes a Config imports this
first: the command line and the device do, and so do the tests.
"""

from __future__ import annotations

from .config import register
from .darkarts.kind import KIND as MAYOR
from .games import GAMES
from .mode import Kind
from .newd3.kind import KIND as TIMED
from .onenight.kind import KIND as ONE_NIGHT

KINDS: dict[str, Kind] = {kind.name: kind for kind in (ONE_NIGHT, MAYOR, TIMED)}
# GAMES words each game for the screen, in the order the box offers them.
assert list(KINDS) == list(GAMES), "wolfbox.games.GAMES and the kinds name the same games"

for _kind in KINDS.values():
    register(_kind.section)
