"""One Night as the box makes it: from its settings, or from a round saved
before a power cut (wolfbox.mode.Kind)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..config import Config, Section
from ..i18n import N_
from ..settings_screen import SettingsScreen
from . import section as one_night
from .entry import verdict_lines
from .flow import Flow, RoundSettings
from .model import ONE_NIGHT
from .night import all_lines
from .presets import MAX_PLAYERS


@dataclass(frozen=True)
class OneNight:
    """One Night's kind: the box's first game."""
    name: str = ONE_NIGHT
    title: str = N_("One Night")
    section: Section = one_night.SECTION
    pages: frozenset[str] = frozenset({"night.scale", "game.discussion_seconds",
                                       "game.warnings", "game.lone_wolf",
                                       "game.cards_on_phones"})

    def lines(self, config: Config) -> list[str]:
        """The configured round's first, then every other night line (any
        deck, lone wolf on or off) the picker could lead to, then the
        referee's verdicts."""
        settings = RoundSettings.from_config(config)
        out = settings.lines()
        for lone in (config.game.lone_wolf, not config.game.lone_wolf):
            out += all_lines(dataclasses.replace(settings.options, lone_wolf=lone))
        return out + verdict_lines(MAX_PLAYERS)

    def new(self, settings: SettingsScreen) -> Flow:
        """A round of the deck the settings hold."""
        return Flow.from_config(settings.config, screen=settings)

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Flow:
        """A deal made before START is dealt again as it was (for the same
        deck); a round begun waits on the start screen for the table's yes."""
        flow = self.new(settings)
        flow.restore(state)
        return flow


KIND = OneNight()
