"""Reading and checking a deck: the cards a table plays with.

Errors are DeckError with one line naming the problem; doubtful but legal
decks give warnings instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .errors import UserError
from .roles import ROLES, UnknownRole, role

CENTER_CARDS = 3
MIN_PLAYERS = 3


class DeckError(UserError):
    pass


def parse_deck(text: str) -> list[str]:
    """'werewolf, werewolf,seer' -> ['werewolf', 'werewolf', 'seer']."""
    ids = [part.strip().lower().replace("-", "_").replace(" ", "_")
           for part in text.split(",")]
    ids = [i for i in ids if i]
    if not ids:
        raise DeckError("the deck is empty: give role ids separated by commas, "
                        "e.g. werewolf,werewolf,seer,robber,troublemaker,villager")
    return ids


def check_deck(deck: Sequence[str], players: int | None = None) -> list[str]:
    """Raise DeckError if the deck cannot be played; return warnings otherwise."""
    for rid in deck:
        try:
            role(rid)
        except UnknownRole as e:
            raise DeckError(str(e)) from None
    counts = Counter(deck)
    for rid, n in counts.items():
        if n > ROLES[rid].copies:
            limit = ROLES[rid].copies
            raise DeckError(f"{n} × {rid}: the game has only {limit} "
                            f"{ROLES[rid].name} card{'s' if limit > 1 else ''}")
    implied = len(deck) - CENTER_CARDS
    if players is not None and players != implied:
        raise DeckError(f"{players} players need {players + CENTER_CARDS} cards "
                        f"(players + {CENTER_CARDS}); the deck has {len(deck)}")
    if implied < MIN_PLAYERS:
        raise DeckError(f"a deck of {len(deck)} cards is for {implied} players; "
                        f"the game needs at least {MIN_PLAYERS} players "
                        f"({MIN_PLAYERS + CENTER_CARDS} cards)")
    warnings = []
    if not any(ROLES[r].team == "werewolf" and r != "minion" for r in deck):
        warnings.append("no werewolf card in the deck: the village can only win "
                        "if nobody dies")
    return warnings
