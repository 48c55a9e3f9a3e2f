"""A picture of the table seen from above: plain data a game fills and
both the box's screen (device/tablemap.py) and the phones' page
(phones/page/night.js) draw, so the two show the same thing.

The seats go round the table as on the seat ring (seat 1 faces the
screen, then clockwise), the center cards lie in the middle, and arrows
join places: a move of the night (numbered in the night's order) or a
vote. Every word is already in the table's language; the kinds are ids
the drawings give a colour and a line each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

CENTER = 100            # a center card's place: CENTER + k (as wolfbox.onenight.phones)

# The kinds of arrow (and the mark of a seat that died), as the drawings know them;
# the last four are the timed game's night (a kill, a protection, a block, a jail).
LOOK, COPY, SWAP, TAKE, SHIELD, TOKEN, REVEAL, SHIFT, VOTE, DIED = (
    "look", "copy", "swap", "take", "shield", "token", "reveal", "shift", "vote", "died")
KILL, PROTECT, BLOCK, JAIL = "kill", "protect", "block", "jail"
KINDS = (LOOK, COPY, SWAP, TAKE, SHIELD, TOKEN, REVEAL, SHIFT, VOTE, DIED, KILL, PROTECT,
         BLOCK, JAIL)


class Spot(NamedTuple):
    """A place on the table: a seat (1..n) or a center card (CENTER + k),
    what it is called, the card shown on it ("" for none), and for a center
    card the one line a drawing writes on it (its number and its card).
    A tuple, so a phone's frame carries it as a short array (the frames
    have a fixed size: phones/protocol.py), in this order."""
    place: int
    name: str
    card: str = ""
    dead: bool = False
    label: str = ""


class Arrow(NamedTuple):
    """From one place to another. `number` is its move's place in the
    night's order (1 up; 0 for an arrow without one, a vote). A swap points
    both ways; a card taken points at the one who took it. A short array
    on the air, as Spot."""
    kind: str
    source: int
    target: int
    number: int = 0


@dataclass(frozen=True)
class MapPage:
    """One picture: the seats and center cards with their cards, the
    arrows, what each kind drawn means (`legend`: kind, words) and the numbered
    moves in words (`notes`, for a screen with room under the picture)."""
    title: str
    seats: tuple[Spot, ...]
    centers: tuple[Spot, ...]
    arrows: tuple[Arrow, ...] = ()
    legend: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableMap:
    """The pictures in order, and the same game as a list of lines, one
    tap away on a phone (`show_list` and `show_picture` are the words of
    that tap)."""
    pages: tuple[MapPage, ...]
    list_title: str = ""
    list: tuple[str, ...] = ()
    show_list: str = ""
    show_picture: str = ""
