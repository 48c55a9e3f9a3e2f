"""Reading and checking a deck: the cards a table plays with.

Errors are DeckError with one line naming the problem; doubtful but legal
decks give warnings instead. Both are in the box's language; role ids in
them (werewolf, alpha_wolf) are what a person types, so they stay as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..errors import DeckError as DeckError
from ..i18n import _, ngettext
from .roles import ROLES, WEREWOLF_CARDS, Team, UnknownRole, role, role_name

CENTER_CARDS = 3
MIN_PLAYERS = 3

# Cards that can move another player's card during the night.
_MOVERS = ("robber", "troublemaker", "witch", "village_idiot", "alpha_wolf", "doppelganger")


def parse_deck(text: str) -> list[str]:
    """'werewolf, werewolf,seer' -> ['werewolf', 'werewolf', 'seer']."""
    ids = [part.strip().lower().replace("-", "_").replace(" ", "_")
           for part in text.split(",")]
    ids = [i for i in ids if i]
    if not ids:
        raise DeckError(_("the deck is empty: give role ids separated by commas, "
                          "e.g. werewolf,werewolf,seer,robber,troublemaker,villager"))
    return ids


def extra_cards(deck: Sequence[str]) -> int:
    """Cards beyond one a player: 3 in the center, plus the center werewolf card."""
    return CENTER_CARDS + (1 if "alpha_wolf" in deck else 0)


def players_for(deck: Sequence[str]) -> int:
    return len(deck) - extra_cards(deck)


def check_deck(deck: Sequence[str], players: int | None = None) -> list[str]:
    """Raise DeckError if the deck cannot be played; return warnings otherwise."""
    for rid in deck:
        try:
            role(rid)
        except UnknownRole as e:
            raise DeckError(str(e)) from None
    counts = Counter(deck)
    for rid, n in counts.items():
        limit = ROLES[rid].copies
        if n > limit:
            raise DeckError(ngettext("{count} × {id}: the game has only {limit} {role} card",
                                     "{count} × {id}: the game has only {limit} {role} cards",
                                     limit).format(count=n, id=rid, limit=limit,
                                                   role=role_name(rid)))
    if counts["mason"] == 1:
        raise DeckError(_("mason: the two Mason cards are played together or not at all "
                          "(add the second mason or remove the first)"))
    extra = extra_cards(deck)
    # TRANSLATORS: how many cards a deck needs; "alpha_wolf" is a role id, kept as it is.
    why = _("players + 4 with the alpha_wolf") if extra == 4 else _("players + 3")
    if "alpha_wolf" in counts and not any(r in WEREWOLF_CARDS for r in deck):
        raise DeckError(_("alpha_wolf needs a center werewolf card: add a werewolf, "
                          "mystic_wolf or dream_wolf"))
    if players is not None:
        if players < MIN_PLAYERS:
            raise DeckError(_("--players {players}: the game needs at least {least} "
                              "players").format(players=players, least=MIN_PLAYERS))
        if len(deck) != players + extra:
            raise DeckError(_("{players} players need {need} cards ({why}); the deck has "
                              "{cards}").format(players=players, need=players + extra, why=why,
                                                cards=len(deck)))
    implied = len(deck) - extra
    if implied < MIN_PLAYERS:
        # Said as the cards it lacks: a count of players below three (or below
        # zero) is no number a table can act on.
        raise DeckError(ngettext(
            "a deck needs at least {least_cards} cards ({why}, and at least {least} players); "
            "this one has {cards} card",
            "a deck needs at least {least_cards} cards ({why}, and at least {least} players); "
            "this one has {cards} cards", len(deck)).format(
            cards=len(deck), why=why, least=MIN_PLAYERS, least_cards=MIN_PLAYERS + extra))
    return _warnings(deck, counts, implied)


def _warnings(deck: Sequence[str], counts: Counter[str], players: int) -> list[str]:
    warnings = []
    wolves = [r for r in deck if ROLES[r].team is Team.WEREWOLF and r != "minion"]
    if not wolves:
        warnings.append(_("no werewolf card in the deck: the village can only win if "
                          "nobody dies"))
    if "insomniac" in counts and not any(m in counts for m in _MOVERS):
        warnings.append(_("insomniac: nothing in this deck can move her card, so she "
                          "learns nothing (add a robber or troublemaker)"))
    if "minion" in counts and not wolves:
        warnings.append(_("minion: there are no werewolves for him to see"))
    if "bodyguard" in counts and players < 5:
        warnings.append(_("bodyguard: recommended for five or more players"))
    if players > 10:
        warnings.append(_("{players} players: above 10, the rules suggest a helper who "
                          "does not play to move the cards").format(players=players))
    if "aura_seer" in counts and not any(ROLES[r].wake for r in deck if r not in
                                         ("aura_seer", "werewolf", "mason", "minion")):
        warnings.append(_("aura_seer: nobody else in this deck looks at or moves cards"))
    return warnings
