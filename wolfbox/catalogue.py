"""Every line the box can say with a configuration: what `wolfbox prepare`
renders ahead of time, in the order a first game needs them: the game the
box starts in first, then the others."""

from __future__ import annotations

import dataclasses

from .config import Config
from .darkarts.said import all_lines as dark_arts_lines
from .newd3.said import all_lines as timed_lines
from .onenight.entry import verdict_lines
from .onenight.flow import RoundSettings
from .onenight.night import all_lines
from .onenight.presets import MAX_PLAYERS


def game_lines(config: Config) -> list[str]:
    """One Night's configured round first, then every other night line (any
    deck, lone wolf on or off) the picker could lead to, then every line of
    the Mayor's game, then the timed game's; the game the box starts in
    comes first."""
    settings = RoundSettings.from_config(config)
    one_night = settings.lines()
    for lone in (config.game.lone_wolf, not config.game.lone_wolf):
        one_night += all_lines(dataclasses.replace(settings.options, lone_wolf=lone))
    one_night += verdict_lines(MAX_PLAYERS)
    games = {"one_night": one_night, "dark_arts": dark_arts_lines(), "newd3": timed_lines()}
    first = games.pop(config.game.mode, [])
    out = first + [line for lines in games.values() for line in lines]
    return list(dict.fromkeys(out))
