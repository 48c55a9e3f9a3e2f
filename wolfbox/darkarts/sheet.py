"""The Mayor's sheet: the plan of a game for a table, as data. What
`wolfbox script --mode dark_arts --players N [--roles ...] --json` will
print (issue 11), and the printable plan for a human Mayor without a box:
the night calls with their times, and the hands a lynch needs for every
living count from the table's size down to 2.
"""

from __future__ import annotations

from typing import Any

from .night import CALLS, night_calls
from .rules import Setup, lynch_threshold


def thresholds(players: int) -> dict[int, int]:
    """Hands needed to lynch, for every living count from `players` down to 2."""
    return {living: lynch_threshold(living) for living in range(players, 1, -1)}


def sheet(setup: Setup, scale: float = 1.0) -> dict[str, Any]:
    """JSON-safe: {"mode", "players", "roles", "night": [{"id", "text",
    "seconds", "first_night_only"}], "thresholds": {"<living>": hands}}."""
    first_only = {c.id for c in CALLS if c.first_night_only}
    return {
        "mode": "dark_arts",
        "players": setup.players,
        "roles": setup.counts,
        "night": [{"id": s.id, "text": s.text, "after": s.after, "seconds": s.seconds,
                   "first_night_only": s.id in first_only}
                  for s in night_calls(setup.in_play(), 1, scale)],
        "thresholds": {str(k): v for k, v in thresholds(setup.players).items()},
    }
