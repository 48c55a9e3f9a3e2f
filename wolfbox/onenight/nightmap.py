"""One Night's game on phones as pictures of the table (issue 40): the
deal with each move of the night as a numbered arrow, then the cards at
dawn with the votes as arrows and the dead marked. Pure: read from the
deal the box holds (phones.py: its cards, its moves, its votes) and the
referee's verdict, once the game is over and all of it is public.

A small table gets two pictures (the deal and the night; dawn and the
votes). Above SMALL_TABLE seats, the seats' names and cards leave the
box's screen (480×320, at its size floor) no room for the center cards
and the arrows, so each picture is split in two: the cards on one, the
arrows (between the names alone, the center cards as they were then) on
the next.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import N_, _
from ..tablemap import (
    CENTER,
    COPY,
    DIED,
    LOOK,
    REVEAL,
    SHIELD,
    SHIFT,
    SWAP,
    TAKE,
    TOKEN,
    VOTE,
    Arrow,
    MapPage,
    Spot,
    TableMap,
)
from .phones import WOLF_CARD, PhoneNight
from .referee import Verdict
from .roles import role_name

SMALL_TABLE = 4          # seats up to which a picture holds both the cards and the arrows

# What each kind means, under the picture that draws it (short: a word or two).
KEY_WORDS = {
    LOOK: N_("looked"),
    COPY: N_("copied"),
    SWAP: N_("swapped"),
    TAKE: N_("took"),
    SHIELD: N_("shield"),
    TOKEN: N_("artifact"),
    REVEAL: N_("turned up"),
    SHIFT: N_("moved on"),
    VOTE: N_("vote"),
    DIED: N_("died"),
}


def seat_label(seat: int, names: Mapping[int, str]) -> str:
    """The name a seat's player gave at join, else "Seat N"."""
    name = " ".join(names.get(seat, "").split())
    return name or _("Seat {seat}").format(seat=seat)


def center_label(n: int) -> str:
    if CENTER + n == WOLF_CARD:
        # TRANSLATORS: the Alpha Wolf's center werewolf card, short, in a picture.
        return _("Wolf card")
    # TRANSLATORS: a center card in the night's picture, short: "Center 2".
    return _("Center {n}").format(n=n)


def _center(n: int, card: str) -> Spot:
    # TRANSLATORS: a center card's line in the night's picture: its number, its card.
    line = _("{n} · {card}").format(n=center_label(n) if CENTER + n == WOLF_CARD else n,
                                    card=role_name(card))
    return Spot(CENTER + n, center_label(n), role_name(card), label=line)


def night_map(table: PhoneNight, verdict: Verdict, names: Mapping[int, str]) -> TableMap:
    """The game's pictures, in order, and its list of what happened."""
    seats = tuple(table.seats)
    dealt = {s: role_name(table.card(s)) for s in seats}
    dawn = {s: role_name(table.cards[s - 1]) for s in seats}
    centers_dealt = tuple(_center(n, table.dealt[table.players + n - 1])
                          for n in table.centers)
    centers_dawn = tuple(_center(n, table.center(n)) for n in table.centers)
    dead = set(verdict.dead)

    def spots(cards: Mapping[int, str] | None, marked: bool) -> tuple[Spot, ...]:
        return tuple(Spot(s, seat_label(s, names), cards[s] if cards else "",
                          marked and s in dead) for s in seats)

    arrows, notes = _night_arrows(table)
    votes = tuple(Arrow(VOTE, s, t) for s, t in sorted(table.votes.items()) if t in seats)
    night_key = _key(arrows)
    vote_key = _key(votes, died=bool(dead))
    pages: tuple[MapPage, ...]
    if len(seats) <= SMALL_TABLE:
        pages = (
            MapPage(_("The deal and the night"), spots(dealt, False), centers_dealt, arrows,
                    night_key, notes),
            MapPage(_("Dawn and the votes"), spots(dawn, True), centers_dawn, votes,
                    vote_key))
    else:
        pages = (
            MapPage(_("The deal"), spots(dealt, False), ()),
            MapPage(_("The night"), spots(None, False), centers_dealt, arrows,
                    night_key, notes),
            MapPage(_("Dawn"), spots(dawn, True), ()),         # the dead's red: the next key
            MapPage(_("The votes"), spots(None, True), centers_dawn, votes, vote_key))
    return TableMap(pages, _("What happened:"), tuple(table.happened()),
                    _("Show the list"), _("Show the picture"))


def _night_arrows(table: PhoneNight) -> tuple[tuple[Arrow, ...], tuple[str, ...]]:
    """Each move's arrows, numbered in the night's order, and each move in
    words with its number (a change of role has no arrow and no number)."""
    arrows: list[Arrow] = []
    notes: list[str] = []
    number = 0
    for move, words in zip(table.drawn, table.moves, strict=True):
        drawn = _arrows(move.kind, move.actor, move.places)
        if not drawn:
            notes.append(words)
            continue
        number += 1
        arrows += [Arrow(a.kind, a.source, a.target, number) for a in drawn]
        # TRANSLATORS: a numbered move of the night, under its picture: "1. Seat 2 ...".
        notes.append(_("{number}. {move}").format(number=number, move=words))
    return tuple(arrows), tuple(notes)


def _arrows(kind: str, actor: int, places: tuple[int, ...]) -> list[Arrow]:
    if kind in (LOOK, COPY, SHIELD, TOKEN, REVEAL):
        return [Arrow(kind, actor, places[0])]
    if kind in (SWAP, TAKE):
        return [Arrow(kind, places[0], places[1])]
    if kind == SHIFT and len(places) > 1:
        ring = places + places[:1]
        return [Arrow(SHIFT, a, b) for a, b in zip(ring, ring[1:], strict=False)]
    return []


def _key(arrows: tuple[Arrow, ...], died: bool = False) -> tuple[tuple[str, str], ...]:
    """The kinds drawn, in a fixed order, with their words."""
    kinds = {a.kind for a in arrows} | ({DIED} if died else set())
    return tuple((k, _(KEY_WORDS[k])) for k in KEY_WORDS if k in kinds)
