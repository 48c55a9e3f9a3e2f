"""The Mayor's phone as the box's console, and the hand count on the
players' phones (issue 22).

The Mayor does not play (003: "This number of players ... does not
include the Town Mayor"), so the Mayor's phone is not one of the table's
seats: while a game is under way the room has one seat more than the
table, the seat after the last player's (seat 8 at a table of seven), and
the phone that takes it is the console. It opens when the game starts, so
a table that grows or shrinks on the setup screen never turns a player's
phone into the console or the console into a player's.

The console is the box's buttons by tapping, never a second path into the
game: each option stands for presses of the buttons (`Press`), or, for a
seat or a card picked on the phone, for the NEXT presses that bring the
box's picker to it (`Point`). The game runs them through its own
`handle`, so the box's screen follows, the buttons keep working beside
it, and an entry made on the phone is shown back for a yes exactly as one
made on the buttons. Nothing is entered by one stray tap: pointing at a
seat or a card enters nothing, and every entry still waits for its OK.

A tap counts only on the console it was made on: its `step` names the
stage, the seat it is about and every option with what is marked, so a
tap sent from a console that has changed since (a double tap on OK that
would confirm the next question too) changes nothing, and a press on the
box that changes nothing on the console leaves the Mayor's taps good.

The hand count: when the Mayor calls the vote and every seat that may vote
(the living but the accused: 003, "The accused is not allowed to vote")
holds a phone, each of them is asked the same question on its own phone;
the box counts the hands up when the window ends and shows the result to
the Mayor, to confirm (OK) or to recount by hand.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from ..buttons import GAME_BUTTONS, Button, Hold, Tap
from ..i18n import _
from ..phone import PhoneView, Task, seat_name
from ..view import View
from .book import NIGHT as NIGHT_CAUSE
from .model import NO_ROLE, NO_SEAT, Stage
from .roles import role_name
from .seen import Seen

ROLE_IDS = 100            # a card of the role picker: 100 + its place among the cards left
TAP_IDS = 900             # a button's tap: 900 + its place in GAME_BUTTONS
UNDO, BOOK = 950, 951     # the holds of VOTE (undo) and NEXT (the book)
# The stages whose picker is a seat of the ring.
SEAT_PICKERS = (Stage.LOVERS, Stage.DAWN, Stage.SHOT, Stage.ACCUSE)
HAND_DOWN, HAND_UP = 0, 1


@dataclass(frozen=True)
class Press:
    """A button's press."""
    event: Tap | Hold


@dataclass(frozen=True)
class Point:
    """The picker on this value (a seat, or a card's place): NEXT presses
    until it is there."""
    cursor: int


Meaning = Press | Point


def step(game: Seen) -> str:
    """The console as it stands, in a few characters: a tap sent from
    another console than this one is ignored."""
    words = repr((game.reading, game.paused, game.dying, game.accused, _chosen(game),
                  [(i, w) for i, w, _meant in options(game)]))
    return f"mayor.{game.stage}.{zlib.crc32(words.encode()):08x}"


def _movers(game: Seen) -> frozenset[Button]:
    """The buttons that only walk the picker, which the console's seats or
    cards replace (a tap on one goes straight to it)."""
    if game.reading or game.paused:
        return frozenset()
    if game.stage in SEAT_PICKERS:
        return frozenset({Button.NEXT, Button.BACK})
    if game.stage is Stage.ROLE:
        return frozenset({Button.NEXT}) | (
            frozenset() if game.cause == NIGHT_CAUSE else frozenset({Button.BACK}))
    return frozenset()


def options(game: Seen) -> list[tuple[int, str, Meaning]]:
    """What the console offers now: the picker's seats or cards, then each
    button's tap, then the undo and the book."""
    out: list[tuple[int, str, Meaning]] = []
    ring = game.ring
    if ring is not None and not game.reading and not game.paused:
        if game.stage is Stage.LOVERS:
            for seat in ring.seats:
                words = _lover(game, seat) if seat in game.picked else _seat(game, seat)
                out.append((seat, words, Point(seat)))
        elif game.stage in SEAT_PICKERS:
            out += [(seat, _seat(game, seat), Point(seat)) for seat in ring.living()]
        elif game.stage is Stage.ROLE:
            out += [(ROLE_IDS + i, role_name(role), Point(i))
                    for i, role in enumerate(game.role_options())]
    taps, holds, movers = game.taps(), game.holds(), _movers(game)
    for i, button in enumerate(GAME_BUTTONS):
        if button in taps and button not in movers:
            out.append((TAP_IDS + i, taps[button].label, Press(Tap(button))))
    if Button.VOTE in holds and game.can_undo():
        out.append((UNDO, _("Undo the last entry"), Press(Hold(Button.VOTE))))
    if Button.NEXT in holds and not game.reading:
        out.append((BOOK, _("Book"), Press(Hold(Button.NEXT))))
    return out


def _chosen(game: Seen) -> tuple[int, ...]:
    """What the box's picker is on, marked on the console."""
    if game.reading or game.paused:
        return ()
    if game.stage in SEAT_PICKERS and game.cursor != NO_SEAT:
        return (game.cursor,)
    if game.stage is Stage.ROLE and game.cursor != NO_ROLE:
        return (ROLE_IDS + game.cursor,)
    return ()


def task(game: Seen) -> Task | None:
    """The console's task, while a game is under way."""
    if not game.busy():
        return None
    offered = [(i, words) for i, words, _meant in options(game)]
    # The console has no cover: what it marks is on its buttons (and the
    # Mayor is no secret), so it opens no secret window of the phones'
    # (phones/link.py covered): its taps go at once, and each step it
    # names is on the page before the Mayor's next tap.
    return Task(step(game), _("The Mayor's console"),
                tuple(o for o in offered if o[0] < TAP_IDS), _chosen(game),
                actions=tuple(o for o in offered if o[0] >= TAP_IDS), marks_shown=True)


def meaning(game: Seen, asked: str, choice: tuple[int, ...]) -> Meaning | None:
    """What the console's tap stands for; None for anything it does not
    offer now (another moment, no such option, more than one)."""
    if not game.busy() or asked != step(game) or len(choice) != 1:
        return None
    return next((meant for i, _words, meant in options(game) if i == choice[0]), None)


def view(game: Seen, shown: View, seat: int) -> PhoneView:
    """The Mayor's phone: the box's screen as the Mayor sees it (a screen
    for the Mayor's eyes, the Lovers being entered, included), its alert,
    and the console."""
    lines = tuple(t for t in (shown.alert, shown.caption, *shown.details) if t)
    return PhoneView(seat, shown.title, shown.big, lines, dim=shown.dim, task=task(game),
                     label=_("Mayor"))


# ------------------------------------------------------- the hand count
def hands_step(game: Seen) -> str:
    """The name of this call of the vote (a day may have many)."""
    return f"hands.{game.night}.{len(game.book.records)}"


def voters(game: Seen) -> frozenset[int]:
    """The seats that may vote now: the living but the accused."""
    if game.ring is None:
        return frozenset()
    return frozenset(game.ring.living()) - {game.accused}


def hands_task(game: Seen, seat: int) -> Task | None:
    """A voter's question while the hands are up on the phones: the same
    for every voter, with what it answered marked on its own phone alone."""
    if game.stage is not Stage.HANDS or not game.hands_on_phones or seat not in voters(game):
        return None
    vote = game.hand_votes.get(seat)
    return Task(hands_step(game),
                # TRANSLATORS: {seat} is the accused by name, "Ann · 3", or "Seat 3".
                _("Raise your hand to lynch {seat}?").format(
                    seat=seat_name(game.accused, game.names.get(game.accused, ""))),
                ((HAND_UP, _("Hand up: lynch")), (HAND_DOWN, _("Hand down"))),
                () if vote is None else (HAND_UP if vote else HAND_DOWN,))


def hand(game: Seen, seat: int, asked: str, choice: tuple[int, ...]) -> bool | None:
    """A voter's answer: hand up (True) or down (False); None if it is not
    an answer to the question asked now, by a seat that may vote."""
    if hands_task(game, seat) is None or asked != hands_step(game) \
            or choice not in ((HAND_UP,), (HAND_DOWN,)):
        return None
    return choice == (HAND_UP,)


def _seat(game: Seen, seat: int) -> str:
    """A seat on the console as everywhere a seat is chosen: by its player's
    name too, where the phone gave one ("Ann · 3")."""
    return seat_name(seat, game.names.get(seat, ""))


def _lover(game: Seen, seat: int) -> str:
    """A seat marked as a Lover, still by its player's name."""
    if not game.names.get(seat, "").strip():
        return _("Seat {seat} · Lover").format(seat=seat)
    # TRANSLATORS: a seat marked as a Lover: "Ann · 3 · Lover".
    return _("{seat} · Lover").format(seat=seat_name(seat, game.names[seat]))
