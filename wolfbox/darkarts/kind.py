"""Werewolves of the Dark Arts as the box makes it: from its settings, or
from the checkpoint of a game under way (wolfbox.mode.Kind)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..config import Config, Section
from ..i18n import N_
from ..settings_screen import SettingsScreen
from . import section as mayor
from .game import Game
from .model import MODE
from .rules import default_roles
from .said import all_lines


@dataclass(frozen=True)
class Mayor:
    """The Mayor's game's kind."""
    name: str = MODE
    title: str = N_("Werewolf with a Mayor")
    section: Section = mayor.SECTION
    pages: frozenset[str] = frozenset({"night.scale"})

    def lines(self, config: Config) -> list[str]:
        """Every line of the Mayor's game."""
        return all_lines()

    def new(self, settings: SettingsScreen) -> Game:
        """A new game's setup; with `wolfbox run --players N`, for N seats
        and the cards 003 suggests for them."""
        config = settings.config
        options = mayor.options(config)
        if config.mayor_players:
            return Game(options=options, players=config.mayor_players,
                        chosen=default_roles(config.mayor_players), settings=settings)
        return Game(options=options, settings=settings)

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Game:
        """The game in setup as it was chosen, or asking to resume the phase
        it was in (wolfbox.darkarts.saved checks the state first)."""
        game = Game.from_dict(state, mayor.options(settings.config))
        game.settings = settings
        return game


KIND = Mayor()
