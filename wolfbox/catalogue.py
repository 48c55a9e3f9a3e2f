"""Every line the box can say with a configuration: what `wolfbox prepare`
renders ahead of time, in the order a first game needs them."""

from __future__ import annotations

import dataclasses

from .config import Config
from .entry import verdict_lines
from .flow import RoundSettings
from .night import all_lines
from .presets import MAX_PLAYERS


def game_lines(config: Config) -> list[str]:
    """The configured round's lines first, then every other night line
    (any deck, lone wolf on or off) the picker could lead to."""
    settings = RoundSettings.from_config(config)
    out = settings.lines()
    for lone in (config.game.lone_wolf, not config.game.lone_wolf):
        out += all_lines(dataclasses.replace(settings.options, lone_wolf=lone))
    out += verdict_lines(MAX_PLAYERS)
    return list(dict.fromkeys(out))
