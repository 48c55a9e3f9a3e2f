"""The Mayor's game as it is saved on disk, checked before it is trusted.

`read` checks a saved game as wolfbox.engine.checkpoints says every game
does (types and ranges first, then what the rules make true);
`CannotResume` names the first problem.

What a checkpoint always holds: a setup that can be dealt; the dead are
seats of the table, each with a card of that setup (never more copies than
were dealt), and exactly the deaths the book tells; nobody has won yet (a
won game is saved as its setup alone); Lovers are two different seats of a
setup with the Matchmaker, both alive or both dead (a Lover's death takes
the other), named from the end of the first night on exactly when the
setup has a Matchmaker (night 1 cannot go on without them); the night,
the previous accused and every record of the book are numbers the game
can reach. A checkpoint of the deal on the phones (stage "deal", added
after the first saves: those still load) is a game not yet begun: night
1, cards dealt to the phones, nobody dead, no Lovers, an empty book.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

import msgspec

from ..engine.checkpoints import CannotResume as CannotResume
from . import rules
from .book import ACCUSATION, DEATH, HEARTBREAK, LYNCH, NIGHT, SHOT, VOTE
from .roles import CHOSEN, MATCHMAKER, NOBLE, ROLES
from .seats import MAX_PLAYERS, MIN_PLAYERS, Ring

VERSION = 1
# 003 sets no last night; a game of more nights than this is no game the
# box played (every night wakes the Werewolves, and a table tires long before).
MAX_NIGHTS = 99
SETUP = "setup"
DEAL = "deal"

Players = Annotated[int, msgspec.Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
Copies = Annotated[int, msgspec.Meta(ge=0, le=MAX_PLAYERS)]
Seat = Annotated[int, msgspec.Meta(ge=1, le=MAX_PLAYERS)]
SeatOrNone = Annotated[int, msgspec.Meta(ge=0, le=MAX_PLAYERS)]     # 0: no seat
Night = Annotated[int, msgspec.Meta(ge=1, le=MAX_NIGHTS)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_PLAYERS)]


class _Head(msgspec.Struct):
    version: Literal[1]
    stage: Literal["setup", "deal", "night", "dawn", "discussion"]


class SavedSetup(msgspec.Struct):
    """The setup being chosen (or of the game just over): players and roles."""
    players: Players
    roles: dict[str, Copies]


class SavedRecord(msgspec.Struct, forbid_unknown_fields=True):
    """One entry of the book (book.Record), as saved."""
    kind: str
    day: Night
    seat: SeatOrNone = 0
    role: str = ""
    cause: str = ""
    by: SeatOrNone = 0
    seconded: bool = False
    votes: Count = 0
    needed: Count = 0
    team: str = ""

    def as_dict(self) -> dict[str, Any]:
        return msgspec.structs.asdict(self)


class SavedGame(msgspec.Struct):
    """A game at the start of the deal on the phones, a night, a dawn or a
    discussion."""
    stage: str
    players: Players
    roles: dict[str, Copies]
    night: Night
    dead: dict[Seat, str]
    lovers: tuple[Seat, Seat] | None
    previous_accused: Seat | None
    winner: None
    book: list[SavedRecord]
    dealt: list[str] | None = None          # each seat's card, where the box dealt them


def read(state: object) -> SavedSetup | SavedGame:
    """The saved state, typed and checked; CannotResume names what is wrong."""
    try:
        head = msgspec.convert(state, _Head)
        saved: SavedSetup | SavedGame
        if head.stage == SETUP:
            saved = msgspec.convert(state, SavedSetup)
        else:
            saved = msgspec.convert(state, SavedGame, str_keys=True)
    except msgspec.ValidationError as e:
        raise CannotResume(str(e)) from None
    _check_roles(saved.roles)
    if isinstance(saved, SavedGame):
        _check_game(saved)
    return saved


def _check_roles(roles: dict[str, int]) -> None:
    """Roles the setup screen can choose, in copies it can choose."""
    for role, copies in roles.items():
        if role not in CHOSEN:
            raise CannotResume(f"unknown role {role!r} in the setup")
        most = ROLES[role].most
        if most and copies > most:
            raise CannotResume(f"at most {most} {role} in a setup")
        if role == NOBLE and copies % 2:
            raise CannotResume("Nobles come in pairs")


def _check_game(saved: SavedGame) -> None:
    setup = rules.Setup.of(saved.players, saved.roles)
    if setup.problem():
        raise CannotResume(f"the saved setup cannot be dealt: {setup.problem()}")
    seats = range(1, saved.players + 1)
    for seat, role in saved.dead.items():
        if seat not in seats:
            raise CannotResume(f"dead seat {seat} is not a seat of {saved.players}")
        if role not in ROLES:
            raise CannotResume(f"dead seat {seat} has an unknown role {role!r}")
    over = Counter(saved.dead.values()) - Counter(setup.counts)
    if over:
        raise CannotResume(f"more dead {', '.join(over)} than the setup deals")
    ring = Ring(saved.players, dict(saved.dead))
    if rules.winner(setup, ring) is not None:
        raise CannotResume("the saved game is already won")
    if saved.stage == DEAL:
        _check_deal(saved)
    first_night = saved.stage in (DEAL, "night") and saved.night == 1
    if saved.roles.get(MATCHMAKER) and not first_night and saved.lovers is None:
        raise CannotResume("the Matchmaker's Lovers are missing after the first night")
    if first_night and saved.lovers is not None:
        raise CannotResume("Lovers before the Matchmaker's call")
    if saved.lovers is not None:
        a, b = saved.lovers
        if a == b or a not in seats or b not in seats:
            raise CannotResume(f"Lovers {a} and {b} are not two seats of the table")
        if MATCHMAKER not in saved.roles or not saved.roles[MATCHMAKER]:
            raise CannotResume("Lovers without a Matchmaker")
        if ring.alive(a) != ring.alive(b):
            raise CannotResume("one Lover is dead and the other alive")
    if saved.dealt is not None and Counter(saved.dealt) != Counter(setup.counts):
        raise CannotResume("the cards dealt to the phones are not the setup's")
    if saved.previous_accused is not None and saved.previous_accused not in seats:
        raise CannotResume(f"accused seat {saved.previous_accused} is not a seat")
    _check_book(saved, seats)


def _check_deal(saved: SavedGame) -> None:
    """The deal on the phones comes before anything else of a game."""
    if saved.dealt is None:
        raise CannotResume("a deal on the phones without the cards dealt")
    if saved.night != 1 or saved.dead or saved.lovers is not None or saved.book \
            or saved.previous_accused is not None:
        raise CannotResume("the deal on the phones comes before the first night")


def _check_book(saved: SavedGame, seats: range) -> None:
    """The book tells exactly the saved deaths, of nights played, at seats
    of the table: it is what the Mayor reads and the end screen shows."""
    deaths: dict[int, str] = {}
    for record in saved.book:
        if record.kind not in (DEATH, ACCUSATION, VOTE):
            raise CannotResume(f"a book entry of kind {record.kind!r}")
        if record.day > saved.night:
            raise CannotResume(f"a book entry of day {record.day}, after night {saved.night}")
        if record.seat not in seats or record.by not in (0, *seats):
            raise CannotResume(f"a book entry about seat {record.seat} of {saved.players}")
        if record.kind == DEATH:
            if record.role not in ROLES or record.cause not in (NIGHT, LYNCH, HEARTBREAK,
                                                                  SHOT):
                raise CannotResume(f"a death of role {record.role!r} by {record.cause!r}")
            if record.seat in deaths:
                raise CannotResume(f"seat {record.seat} dies twice in the book")
            deaths[record.seat] = record.role
    if deaths != saved.dead:
        raise CannotResume("the book's deaths are not the saved dead")
