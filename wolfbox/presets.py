"""Ready-made decks: the Chinese sheet's recommendations for 3 to 8
players, the Daybreak rulebook's "fun scenarios", and random decks.

A scenario names a core of roles and a minimum player count; it is filled
with villagers up to the table's size, so it is valid for a range of player
counts (until the three Villager cards run out).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .deck import DeckError, check_deck, extra_cards
from .roles import ROLES, Team

MAX_PLAYERS = 10          # the picker's upper end; the rules allow more with a helper


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    core: tuple[str, ...]
    source: str
    fill: bool            # True: filled with villagers to the table; False: as given only
    least: int = 3        # the source's minimum player count

    def deck(self, players: int) -> list[str]:
        """The deck for `players`, filled with villagers; DeckError if it cannot be."""
        try:
            return self._build(players)
        except DeckError:
            span = self.players()
            counts = f"exactly {span.start}" if len(span) == 1 else \
                f"{span.start} to {span[-1]}"
            raise DeckError(f"preset '{self.name}' is for {counts} players, "
                            f"not {players}") from None

    def _build(self, players: int) -> list[str]:
        deck = list(self.core)
        missing = players + extra_cards(deck) - len(deck)
        if players < self.least:
            raise DeckError(f"preset '{self.name}' is for at least {self.least} players, "
                            f"not {players}")
        if missing and not self.fill:
            raise DeckError(f"preset '{self.name}' is for exactly "
                            f"{len(deck) - extra_cards(deck)} players, not {players}")
        if missing < 0:
            raise DeckError(f"preset '{self.name}' is for at least "
                            f"{len(deck) - extra_cards(deck)} players, not {players}")
        deck += ["villager"] * missing
        check_deck(deck, players)
        return deck

    def players(self) -> range:
        """The player counts this preset can be played with."""
        ok = []
        for n in range(3, MAX_PLAYERS + 1):
            try:
                self._build(n)
            except DeckError:
                continue
            ok.append(n)
        return range(ok[0], ok[-1] + 1) if ok else range(0)


def _p(name: str, title: str, roles: str, source: str, least: int = 3) -> Preset:
    return Preset(name, title, tuple(roles.split()), source, fill=source == _FUN, least=least)


_SHEET = "recommended deck (rules sheet)"
_FUN = "Daybreak fun scenario"
_WW = "werewolf werewolf"

PRESETS: dict[str, Preset] = {p.name: p for p in [
    _p("classic_3", "Classic, 3 players", f"{_WW} seer robber troublemaker villager", _SHEET),
    _p("classic_4", "Classic, 4 players",
       f"{_WW} seer robber troublemaker villager villager", _SHEET),
    _p("classic_5", "Classic, 5 players",
       f"{_WW} seer robber troublemaker villager villager villager", _SHEET),
    _p("classic_6", "Classic, 6 players",
       f"{_WW} seer robber troublemaker mason mason tanner villager", _SHEET),
    _p("classic_7", "Classic, 7 players",
       f"{_WW} seer robber troublemaker mason mason minion insomniac villager", _SHEET),
    _p("classic_8a", "Classic, 8 players (with a Villager)",
       f"{_WW} minion mason mason seer robber troublemaker insomniac villager tanner", _SHEET),
    _p("classic_8b", "Classic, 8 players (with the Hunter)",
       f"{_WW} minion mason mason seer robber troublemaker insomniac hunter tanner", _SHEET),
    _p("classic_8c", "Classic, 8 players (with the Drunk)",
       f"{_WW} minion mason mason seer robber troublemaker insomniac drunk tanner", _SHEET),
    _p("evil_transformation", "Evil Transformation",
       "doppelganger alpha_wolf mystic_wolf minion robber witch", _FUN, least=3),
    _p("trust_no_one", "Trust No One",
       "doppelganger alpha_wolf dream_wolf robber witch tanner", _FUN, least=3),
    _p("cautionary_tale", "Cautionary Tale",
       "werewolf mystic_wolf seer apprentice_seer revealer hunter bodyguard", _FUN, least=4),
    _p("information_society", "Information Society",
       "werewolf mystic_wolf seer apprentice_seer paranormal_investigator witch insomniac "
       "revealer", _FUN, least=5),
    _p("total_chaos", "Total Chaos",
       "doppelganger alpha_wolf werewolf robber witch troublemaker village_idiot curator",
       _FUN, least=5),
]}

RANDOM = "random"


def presets_for(players: int) -> list[Preset]:
    return [p for p in PRESETS.values() if players in p.players()]


def random_deck(players: int, rng: random.Random) -> list[str]:
    """A playable deck for `players`: a sensible number of werewolves, then a
    random mix of roles that act, no role that needs a partner left alone."""
    if players < 3:
        raise DeckError(f"a random deck needs at least 3 players, not {players}")
    wolves = 1 if players <= 3 else 2 if players <= 8 else 3
    wolf_cards = ["werewolf", "werewolf", "mystic_wolf", "dream_wolf"]
    rng.shuffle(wolf_cards)
    deck = wolf_cards[:wolves]
    total = players + 3
    village = [r.id for r in ROLES.values()
               if r.team is not Team.WEREWOLF and r.id not in ("villager", "mason")]
    if players >= 6 and rng.random() < 0.5:
        deck.append("minion")
    if players >= 5 and total - len(deck) >= 2 and rng.random() < 0.5:
        deck += ["mason", "mason"]
    rng.shuffle(village)
    for rid in village:
        if len(deck) >= total:
            break
        if rid == "insomniac" and not any(m in deck for m in ("robber", "troublemaker")):
            continue
        deck.append(rid)
    deck += ["villager"] * (total - len(deck))
    check_deck(deck, players)
    return deck


def resolve_deck(text: str, players: int | None,
                 rng: random.Random | None = None) -> list[str]:
    """A deck from a preset name or a list of role ids (for --deck and the config);
    `rng` draws a random deck (seeded for a replay that must repeat itself)."""
    from .deck import parse_deck
    name = text.strip().lower()
    if name in PRESETS:
        preset = PRESETS[name]
        return preset.deck(players if players is not None else preset.players().start)
    if name == RANDOM:
        return random_deck(players or 5, rng or random.Random())
    deck = parse_deck(text)
    if len(deck) == 1 and deck[0] not in ROLES:
        import difflib
        near = difflib.get_close_matches(deck[0], [*PRESETS, RANDOM, *ROLES], n=1)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        raise DeckError(f"'{deck[0]}' is neither a preset nor a role{hint}; "
                        "see 'wolfbox decks' for presets, or give role ids separated by commas")
    check_deck(deck, players)
    return deck


def describe(deck: Sequence[str]) -> str:
    """'2× Werewolf, Seer, Robber' in deck order."""
    counts = Counter(deck)
    return ", ".join(f"{n}× {ROLES[r].name}" if n > 1 else ROLES[r].name
                     for r, n in counts.items())
