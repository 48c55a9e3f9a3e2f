"""Choosing a deck on the box, before START: a player count and a deck.

Pure, like the flow that owns it. The options for a player count are the
table's own deck (from --deck or the config file, at its player count), the
presets valid for that count, and a random deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..i18n import N_, _
from .deck import MIN_PLAYERS, players_for
from .presets import MAX_PLAYERS, RANDOM, mixed_title, presets_for, random_deck

YOURS = "yours"


@dataclass(frozen=True)
class Choice:
    name: str            # a preset name, "yours" or "random"
    label: str           # English, marked N_(); `title` is what the screen shows
    deck: tuple[str, ...]
    mixed: bool = False  # a scenario filled with other roles

    @property
    def title(self) -> str:
        """The choice's title in the box's language (as it is now, not when made)."""
        return mixed_title(self.label) if self.mixed else _(self.label)


@dataclass
class Picker:
    own: tuple[str, ...]                        # the deck the box was started with
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.players = players_for(self.own)
        self._options = self._options_for(self.players)
        match = [i for i, c in enumerate(self._options) if c.deck == self.own and c.name != YOURS]
        self.index = match[0] if match else 0

    @property
    def choice(self) -> Choice:
        return self._options[self.index]

    def next_deck(self) -> Choice:
        self.index = (self.index + 1) % len(self._options)
        if self.choice.name == RANDOM:       # a fresh shuffle each time it comes round
            self._options[self.index] = self._random(self.players)
        return self.choice

    def change_players(self, delta: int) -> Choice:
        span = MAX_PLAYERS - MIN_PLAYERS + 1
        self.players = MIN_PLAYERS + (self.players - MIN_PLAYERS + delta) % span
        self._options = self._options_for(self.players)
        self.index = 0
        return self.choice

    def _options_for(self, players: int) -> list[Choice]:
        out = []
        if players_for(self.own) == players:
            out.append(Choice(YOURS, N_("Your deck"), self.own))
        out += [Choice(p.name, p.title, tuple(p.deck(players)), p.others)
                for p in presets_for(players)]
        out.append(self._random(players))
        # The table's own deck is listed once: under its preset name if it is one.
        if len(out) > 1 and out[0].name == YOURS and any(c.deck == self.own for c in out[1:]):
            out.pop(0)
        return out

    def _random(self, players: int) -> Choice:
        return Choice(RANDOM, N_("Random deck"), tuple(random_deck(players, self.rng)))
