"""Every line the box can say with a configuration: what `wolfbox prepare`
renders ahead of time, in the order a first game needs them: the game the
box starts in first, then the others, each as its Kind says (`lines`)."""

from __future__ import annotations

from . import lineup
from .config import Config


def game_lines(config: Config) -> list[str]:
    """Every game's lines (wolfbox.lineup's kinds, in their order), the game
    the box starts in first; each line once."""
    games = {name: kind.lines(config) for name, kind in lineup.KINDS.items()}
    first = games.pop(config.game.mode, [])
    out = first + [line for lines in games.values() for line in lines]
    return list(dict.fromkeys(out))
