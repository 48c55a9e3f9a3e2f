"""Ready-made decks: the Chinese sheet's recommendations for 3 to 8
players, the Daybreak rulebook's "fun scenarios", and random decks.

A scenario names a core of roles and a minimum player count; it is filled
with villagers up to the table's size, so it is valid for a range of player
counts (until the three Villager cards run out).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import N_, _, copies, listed
from .deck import DeckError, check_deck, extra_cards
from .roles import ROLES, Team, role_name

MAX_PLAYERS = 10          # the picker's upper end; the rules allow more with a helper


@dataclass(frozen=True)
class Preset:
    name: str
    title: str            # English, marked N_(): shown through _()
    core: tuple[str, ...]
    source: str
    fill: bool            # True: filled to the table's size; False: as given only
    least: int = 3        # the source's minimum player count
    others: bool = False  # filled with other roles (FILL_ORDER) before any villager

    def deck(self, players: int) -> list[str]:
        """The deck for `players`, filled with villagers; DeckError if it cannot be."""
        try:
            return self._build(players)
        except DeckError:
            span = self.players()
            if len(span) == 1:
                raise DeckError(_("preset '{name}' is for exactly {least} players, not "
                                  "{players}").format(name=self.name, least=span.start,
                                                      players=players)) from None
            raise DeckError(_("preset '{name}' is for {least} to {most} players, not "
                              "{players}").format(name=self.name, least=span.start,
                                                  most=span[-1], players=players)) from None

    def _build(self, players: int) -> list[str]:
        deck = list(self.core)
        if self.fill and "alpha_wolf" in deck:
            # 000 lists each scenario's dealt cards (players + 3 at its minimum); the
            # Alpha Wolf needs one more werewolf card on top, for the center.
            deck.append("werewolf")
        missing = players + extra_cards(deck) - len(deck)
        if players < self.least:
            raise DeckError(_("preset '{name}' is for at least {least} players, not "
                              "{players}").format(name=self.name, least=self.least,
                                                  players=players))
        if missing and not self.fill:
            raise DeckError(_("preset '{name}' is for exactly {least} players, not "
                              "{players}").format(name=self.name,
                                                  least=len(deck) - extra_cards(deck),
                                                  players=players))
        if missing < 0:
            raise DeckError(_("preset '{name}' is for at least {least} players, not "
                              "{players}").format(name=self.name,
                                                  least=len(deck) - extra_cards(deck),
                                                  players=players))
        if self.others and missing == 0:        # the scenario itself, not a variant
            raise DeckError(_("preset '{name}' is for at least {least} players, not "
                              "{players}").format(name=self.name, least=players + 1,
                                                  players=players))
        if self.others:
            extra = [r for r in FILL_ORDER if r not in deck][:missing]
            deck += extra
            missing -= len(extra)
        deck += ["villager"] * missing
        check_deck(deck, players)
        return deck

    def shown_title(self) -> str:
        """The title in the box's language; a scenario's variant says so."""
        return mixed_title(self.title) if self.others else _(self.title)

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


# 000: "you can add other roles to these sets to match the number of players".
# The "+ other roles" variant of each scenario adds these, in this order, those
# already in the scenario skipped: village roles that act alone, the roles
# whose night is simplest first.
FILL_ORDER = ("seer", "troublemaker", "hunter", "insomniac", "apprentice_seer", "drunk",
              "bodyguard", "sentinel", "revealer", "village_idiot", "prince", "aura_seer")

_SHEET = "recommended deck (rules sheet)"
_FUN = "Daybreak fun scenario"
_WW = "werewolf werewolf"

PRESETS: dict[str, Preset] = {p.name: p for p in [
    _p("classic_3", N_("Classic, 3 players"), f"{_WW} seer robber troublemaker villager", _SHEET),
    _p("classic_4", N_("Classic, 4 players"),
       f"{_WW} seer robber troublemaker villager villager", _SHEET),
    _p("classic_5", N_("Classic, 5 players"),
       f"{_WW} seer robber troublemaker villager villager villager", _SHEET),
    _p("classic_6", N_("Classic, 6 players"),
       f"{_WW} seer robber troublemaker mason mason tanner villager", _SHEET),
    _p("classic_7", N_("Classic, 7 players"),
       f"{_WW} seer robber troublemaker mason mason minion insomniac villager", _SHEET),
    # 001 lists the 7-player deck's last card as "1村民(皮匠)": a Villager, or the Tanner.
    _p("classic_7t", N_("Classic, 7 players (with the Tanner)"),
       f"{_WW} seer robber troublemaker mason mason minion insomniac tanner", _SHEET),
    _p("classic_8a", N_("Classic, 8 players (with a Villager)"),
       f"{_WW} minion mason mason seer robber troublemaker insomniac villager tanner", _SHEET),
    _p("classic_8b", N_("Classic, 8 players (with the Hunter)"),
       f"{_WW} minion mason mason seer robber troublemaker insomniac hunter tanner", _SHEET),
    _p("classic_8c", N_("Classic, 8 players (with the Drunk)"),
       f"{_WW} minion mason mason seer robber troublemaker insomniac drunk tanner", _SHEET),
    _p("evil_transformation", N_("Evil Transformation"),
       "doppelganger alpha_wolf mystic_wolf minion robber witch", _FUN, least=3),
    _p("trust_no_one", N_("Trust No One"),
       "doppelganger alpha_wolf dream_wolf robber witch tanner", _FUN, least=3),
    _p("cautionary_tale", N_("Cautionary Tale"),
       "werewolf mystic_wolf seer apprentice_seer revealer hunter bodyguard", _FUN, least=4),
    _p("information_society", N_("Information Society"),
       "werewolf mystic_wolf seer apprentice_seer paranormal_investigator witch insomniac "
       "revealer", _FUN, least=5),
    _p("total_chaos", N_("Total Chaos"),
       "doppelganger alpha_wolf werewolf robber witch troublemaker village_idiot curator",
       _FUN, least=5),
]}

for _scenario in [p for p in PRESETS.values() if p.fill]:
    _mixed = dataclasses.replace(_scenario, name=f"{_scenario.name}_mixed", others=True)
    PRESETS[_mixed.name] = _mixed

RANDOM = "random"


def mixed_title(title: str) -> str:
    # TRANSLATORS: a Daybreak scenario filled with other roles: "Total Chaos + other roles".
    return _("{title} + other roles").format(title=_(title))


def presets_for(players: int) -> list[Preset]:
    return [p for p in PRESETS.values() if players in p.players()]


def random_deck(players: int, rng: random.Random) -> list[str]:
    """A playable deck for `players`: a sensible number of werewolves, then a
    random mix of roles that act, no role that needs a partner left alone."""
    if players < 3:
        raise DeckError(_("a random deck needs at least 3 players, not {players}").format(
            players=players))
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
        if near:
            raise DeckError(_("'{name}' is neither a preset nor a role (did you mean "
                              "'{near}'?); see 'wolfbox decks' for presets, or give role ids "
                              "separated by commas").format(name=deck[0], near=near[0]))
        raise DeckError(_("'{name}' is neither a preset nor a role; see 'wolfbox decks' for "
                          "presets, or give role ids separated by commas").format(
            name=deck[0]))
    check_deck(deck, players)
    return deck


def describe(deck: Sequence[str]) -> str:
    """'2× Werewolf, Seer, Robber' in deck order, in the box's language."""
    return listed([copies(role_name(r), n) for r, n in Counter(deck).items()])
