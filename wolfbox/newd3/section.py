"""The timed game's part of the config file: the [timed] table, and the
game's options as the box's settings make them."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config, Section, _c
from ..pages import PER_WORD
from .model import Options
from .turns import TIME_KEYS, Times


@dataclass
class TimedConfig:
    """The timed game of 004 (game.mode = "newd3"): the windows of the
    deal's and the nights' turns (wolfbox/newd3/turns.py says where the
    defaults come from). 004's day lengths are the game's and stay fixed."""
    card_seconds: float = _c(Times.card, "the deal: each seat's time to see its card",
                             min=3, max=60)
    plan_seconds: float = _c(Times.plan, "the Wolves' and the Nobles' planning turns (004: 30)",
                             min=5, max=120)
    action_seconds: float = _c(Times.action, "each role's turn to choose a seat on the ring",
                               min=5, max=120)
    kill_seconds: float = _c(Times.kill, "the Wolves' turn to choose the victim and the knife",
                             min=5, max=120)
    look_seconds: float = _c(Times.look, "each seat's turn to read its message of the night",
                             min=3, max=60)

    def times(self) -> Times:
        """The windows as the game takes them."""
        return Times(**{attr: float(getattr(self, key)) for key, attr in TIME_KEYS.items()})


def of(config: Config) -> TimedConfig:
    """The timed game's section of `config`, typed."""
    return config.part(TimedConfig)


def options(config: Config) -> Options:
    """The game's options as `config` sets them: the one place a
    configuration becomes them."""
    return Options(times=of(config).times(), line_gap=config.night.line_gap,
                   per_word=PER_WORD * config.voice.length_scale)


SECTION = Section("timed", TimedConfig)
