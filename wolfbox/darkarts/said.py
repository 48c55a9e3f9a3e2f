"""Everything the box says in this mode outside the night calls.

Announcements with numbers in them are built from short lines, each with
one number at most ("Seat 4 has died." then "The card: Seer."), so the
set of lines a game can need is small and enumerable: `all_lines` is what
`wolfbox prepare` renders ahead, and no line of a game waits for the voice.
So a seat is said by its number, never by the name its player typed on a
phone (no cache holds a name typed tonight); the screens and phones show
the name (wolfbox.phone.seat_name). The words are the box's own; the facts
are 003's.
"""

from __future__ import annotations

from ..i18n import N_, _, ngettext
from .night import CALLS
from .roles import CHOSEN, VILLAGER, role_name
from .seats import MAX_PLAYERS

# The deal on the phones (a phone at every seat): all eyes open, each seat
# reads its own card behind its phone's cover; then the night begins.
PHONE_DEAL = N_("Everyone, open your eyes and look at your phone: hold its cover to read "
                "your card. Let nobody else see it.")
PHONE_DEAL_OVER = N_("Phones face down.")
NOBODY_DIED = N_("Nobody died in the night.")
HUNTER_CALL = N_("Hunter, choose your victim alone, and point at them.")
OPEN_DISCUSSION = N_("Open discussion and accusations are allowed now.")
NO_SECOND = N_("No second. The discussion goes on.")
REPEAT = N_("The same person cannot be accused twice in a row.")
VOTE_FAILS = N_("The vote fails.")
# 003: the lynched player has no last words; the Mayor turns their card.
NO_LAST_WORDS = N_("No last words. The Mayor turns the card over.")
VILLAGE_WINS = N_("The village wins.")
WEREWOLVES_WIN = N_("The werewolves win.")
FIXED = (NOBODY_DIED, HUNTER_CALL, OPEN_DISCUSSION, NO_SECOND, REPEAT, VOTE_FAILS,
         NO_LAST_WORDS, VILLAGE_WINS, WEREWOLVES_WIN)


def died(seat: int) -> str:
    return _("Seat {seat} has died.").format(seat=seat)


def card(role: str) -> str:
    # TRANSLATORS: said after a death, when the dead player's card is turned up.
    return _("The card: {role}.").format(role=role_name(role))


def heartbreak(seat: int) -> str:
    return _("Seat {seat} was a Lover and dies of a broken heart.").format(seat=seat)


def shot(seat: int) -> str:
    return _("The Hunter shot seat {seat}.").format(seat=seat)


def accused(seat: int) -> str:
    return _("Seat {seat} is accused. Is there a second?").format(seat=seat)


def defend(seat: int) -> str:
    return _("Seat {seat}, defend yourself.").format(seat=seat)


def raise_hands(seat: int) -> str:
    return _("Raise your hands to lynch seat {seat}.").format(seat=seat)


def vote_on_phones(seat: int) -> str:
    """The call to vote where every voter holds a phone: nobody raises a hand."""
    return _("Vote on your phones to lynch seat {seat}.").format(seat=seat)


def votes(count: int) -> str:
    return ngettext("{count} vote.", "{count} votes.", count).format(count=count)


def needed(count: int) -> str:
    # TRANSLATORS: the hands a lynch needs, said after the vote count.
    return ngettext("{count} needed.", "{count} needed.", count).format(count=count)


def lynched(seat: int) -> str:
    return _("Seat {seat} is lynched.").format(seat=seat)


def result(count: int, need: int, seat: int) -> list[str]:
    """The vote's result as said: the count, the threshold, the outcome."""
    outcome = lynched(seat) if count >= need else _(VOTE_FAILS)
    return [votes(count), needed(need), outcome]


def all_lines(max_players: int = MAX_PLAYERS,
              dealt: frozenset[str] | None = None) -> list[str]:
    """Every line this mode can say at tables up to `max_players`, the deal
    on the phones and the night calls first (a first game needs them
    first); with `dealt`, only the calls and cards of those roles (what one
    game can need)."""
    calls = [c for c in CALLS if dealt is None or not c.role or c.role in dealt]
    out = [_(PHONE_DEAL), _(PHONE_DEAL_OVER)]
    out += [_(text) for call in calls for text in (call.wake, call.pack, call.sleep) if text]
    seats = range(1, max_players + 1)
    for build in (died, heartbreak, shot, accused, defend, raise_hands, vote_on_phones,
                  lynched):
        out += [build(s) for s in seats]
    out += [card(r) for r in (*CHOSEN, VILLAGER) if dealt is None or r in dealt]
    # Hands: at most every living player but the accused; an adjustment
    # (003's Shaman) may add as many again.
    out += [votes(n) for n in range(0, 2 * max_players + 1)]
    out += [needed(n) for n in range(1, max_players // 2 + 2)]
    out += [_(text) for text in FIXED]
    return list(dict.fromkeys(out))
