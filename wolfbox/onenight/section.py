"""One Night's part of the config file: the [game] table (the box's first
game, whose keys kept the table's old name; `mode`, the box's choice of
game, lives here with them) and its checks across keys."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config, ConfigError, Section, _c, shown
from ..i18n import _
from ..roster import names
from .model import LONGEST_DISCUSSION
from .roles import UnknownRole, role

STARTER_DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]


@dataclass
class OneNightConfig:
    mode: str = _c("one_night", "the game: one_night; dark_arts (Werewolves of the Dark "
                   "Arts, many nights, run with a moderator); newd3 (the timed game of "
                   "nine, no moderator)",
                   choices=names)
    deck: list[str] = _c(STARTER_DECK, "the cards in play: role ids (players + 3 cards), "
                                       "or one preset name (see: wolfbox decks)")
    players: int = _c(0, "players at the table; 0: as many as the deck is for", min=0, max=30)
    lone_wolf: bool = _c(True, "a werewolf who wakes alone (and sees no Dream Wolf thumb) may "
                               "look at a center card; false: the table plays without it")
    discussion_seconds: float = _c(300.0, "length of the discussion timer", min=1,
                                   max=LONGEST_DISCUSSION)
    warnings: list[int] = _c([60, 10], "spoken warnings, in seconds left", min=1, max=3600)
    add_seconds: int = _c(60, "what NEXT adds to the discussion", min=5, max=600)
    cards_on_phones: bool = _c(True, "with a phone at every seat the box deals the cards to "
                                     "the phones; false: the table plays its own cards, and "
                                     "the phones take the vote and the cards turned up")


def of(config: Config) -> OneNightConfig:
    """One Night's section of `config`, typed."""
    return config.part(OneNightConfig)


def _check(config: Config) -> None:
    game = of(config)
    too_long = [w for w in game.warnings if w >= game.discussion_seconds]
    if too_long and "game.warnings" not in config.from_file:
        # Default warnings that a short discussion leaves no room for are dropped.
        game.warnings = [w for w in game.warnings if w < game.discussion_seconds]
    elif too_long:
        raise ConfigError(_("game.warnings: {warning} seconds left is not within a discussion "
                            "of {length} seconds (game.discussion_seconds); every warning "
                            "must be shorter than the discussion").format(
            warning=too_long[0], length=shown(game.discussion_seconds)))
    for rid in config.night.action_seconds:
        try:
            role(rid)
        except UnknownRole as e:
            raise ConfigError(f"night.action_seconds: {e}") from None


SECTION = Section("game", OneNightConfig, _check)
