"""004's timed game as the box makes it: from its settings, or from the
checkpoint of a game under way (wolfbox.mode.Kind)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..config import Config, Section
from ..i18n import N_
from ..settings_screen import SettingsScreen
from . import section as timed
from .game import Game
from .model import MODE
from .said import all_lines


@dataclass(frozen=True)
class Timed:
    """The timed game's kind. Its deals come from the system's randomness:
    nobody at the table can know or repeat them."""
    name: str = MODE
    title: str = N_("Timed Werewolf for nine")
    section: Section = timed.SECTION
    pages: frozenset[str] = frozenset()

    def lines(self, config: Config) -> list[str]:
        """Every line of the timed game."""
        return all_lines()

    def new(self, settings: SettingsScreen) -> Game:
        """A new game, its setup chosen from the settings."""
        return Game(options=timed.options(settings.config), rng=random.SystemRandom(),
                    settings=settings)

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Game:
        """The game asking to resume the phase it was in (wolfbox.newd3.saved
        checks the state first)."""
        game = Game.from_dict(state, timed.options(settings.config), random.SystemRandom())
        game.settings = settings
        return game


KIND = Timed()
