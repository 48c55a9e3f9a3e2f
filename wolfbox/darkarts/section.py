"""The Mayor's part of the config file: the [mayor] table, its check, and
the game's options as the box's settings make them."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config, ConfigError, Section, _c
from ..i18n import _
from ..pages import PER_WORD
from .model import SETTABLE, Options
from .night import CALLS


@dataclass
class MayorConfig:
    """Werewolf with a Mayor (game.mode = "dark_arts"): the day's optional
    limits. 003 sets none; a table that wants one sets it here or on the
    Mayor's setup screen."""
    discussion_seconds: float = _c(0.0, "a limit on each open discussion; 0: none (003)",
                                   min=0, max=3600)
    defence_seconds: float = _c(0.0, "a limit on the accused's defence; 0: none", min=0,
                                max=600)
    hands_seconds: float = _c(4.0, "the beat for raising hands before the count (003: "
                                   "3 to 5 seconds)", min=3, max=5)
    action_seconds: dict[str, float] = _c({}, "per-call action time at night, e.g. "
                                              "werewolf = 40 (night.scale applies too)",
                                          min=0, max=300)


def of(config: Config) -> MayorConfig:
    """The Mayor's section of `config`, typed."""
    return config.part(MayorConfig)


def options(config: Config) -> Options:
    """The game's options as `config` sets them (the box's settings as they
    stand, or a replay's): the one place a configuration becomes them."""
    mayor = of(config)
    return Options(scale=config.night.scale, line_gap=config.night.line_gap,
                   action_seconds=dict(mayor.action_seconds),
                   per_word=PER_WORD * config.voice.length_scale,
                   discussion_seconds=mayor.discussion_seconds or None,
                   defence_seconds=mayor.defence_seconds or None,
                   hands_beat=mayor.hands_seconds,
                   fixed=frozenset(k for k in config.from_file if k.startswith("mayor.")))


def _check(config: Config) -> None:
    timed = [c.id for c in CALLS if c.seconds > 0]
    for cid in of(config).action_seconds:
        if cid not in timed:
            raise ConfigError(_("mayor.action_seconds: unknown call {call} (allowed: "
                                "{allowed})").format(call=repr(cid), allowed=", ".join(timed)))


SECTION = Section("mayor", MayorConfig, _check, SETTABLE)
