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
from .roles import CHOSEN, HUNTER, MATCHMAKER, NOBLE, ROLES
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
    if saved.dealt is not None:
        for seat, role in sorted(saved.dead.items()):
            if saved.dealt[seat - 1] != role:
                raise CannotResume(f"dead seat {seat} was dealt the {saved.dealt[seat - 1]}, "
                                   f"not the {role} the book turns up")
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
    _Story(saved).told()


# Where a day is, as its book tells it: its dawn (the night's deaths and
# their chains), its discussion (accusations and failed votes), its lynch
# (and the lynch's chains), which ends it.
_DAWN, _DAY, _LYNCHED = "dawn", "day", "lynched"


class _Story:
    """The book played again from the first night, against 003's order of
    things: each day opens with the night's deaths, then their chains (a
    Lover's broken heart, a dead Hunter's one shot), then accusations, each
    with a second or not, a seconded one voted on at once, a vote that
    passes lynching its seat, the lynch's chains, and the next night. Only
    the living die, are accused or are voted on; the threshold is the
    living's; a day ends only in a lynch, and nobody has won at a point
    where the game would have checked. A checkpoint's stage then says
    where in this story it was taken."""

    def __init__(self, saved: SavedGame) -> None:
        self.saved = saved
        self.setup = rules.Setup.of(saved.players, saved.roles)
        self.dead: dict[int, str] = {}
        self.died_on: dict[int, int] = {}
        self.shot: set[int] = set()                 # the Hunters who have shot
        self.day, self.part = 1, _DAWN
        self.chained = False                        # a chain death this dawn
        self.accused: int | None = None             # the day's last accused
        self.last: SavedRecord | None = None

    def living(self) -> int:
        return self.saved.players - len(self.dead)

    def told(self) -> None:
        for record in self.saved.book:
            self._follow(record)
            self.last = record
        self._ends()

    def _follow(self, r: SavedRecord) -> None:
        if r.day < self.day:
            raise CannotResume(f"a book entry of day {r.day} after one of day {self.day}")
        if r.day > self.day:
            if r.day != self.day + 1 or self.part != _LYNCHED:
                raise CannotResume(f"day {self.day} ends without a lynch")
            self._settled()
            self.day, self.part, self.chained, self.accused = r.day, _DAWN, False, None
        last = self.last
        if last is not None and last.kind == ACCUSATION and last.seconded \
                and not (r.kind == VOTE and r.seat == last.seat):
            raise CannotResume(f"seat {last.seat}'s seconded accusation is not voted on")
        if last is not None and last.kind == VOTE and last.votes >= last.needed \
                and not (r.kind == DEATH and r.cause == LYNCH and r.seat == last.seat):
            raise CannotResume(f"the vote to lynch seat {last.seat} passed, "
                               f"but seat {last.seat} is not lynched")
        if r.seat in self.dead:
            raise CannotResume(f"dead seat {r.seat} is in the book again on day {r.day}")
        if r.team or (r.kind != DEATH and (r.role or r.cause or r.by)) \
                or (r.kind != ACCUSATION and r.seconded) \
                or (r.kind != VOTE and (r.votes or r.needed)) \
                or (r.kind == DEATH and r.cause in (NIGHT, LYNCH) and r.by):
            raise CannotResume(f"a {r.kind} on day {r.day} with what a {r.kind} never holds")
        if r.kind == DEATH:
            self._death(r)
        elif r.kind == ACCUSATION:
            self._accusation(r)
        else:
            self._vote(r)

    def _death(self, r: SavedRecord) -> None:
        if r.cause == NIGHT:
            if self.part != _DAWN or self.chained or r.by:
                raise CannotResume(f"a night death (seat {r.seat}) out of its dawn")
        elif r.cause == LYNCH:
            if self.last is None or self.last.kind != VOTE or self.last.seat != r.seat \
                    or self.last.votes < self.last.needed:
                raise CannotResume(f"seat {r.seat} is lynched without a vote that passed")
            self.part = _LYNCHED
        else:
            if self.part == _DAY:
                raise CannotResume(f"a {r.cause} (seat {r.seat}) in the day's discussion")
            if r.by not in self.dead or self.died_on[r.by] != r.day:
                raise CannotResume(f"a {r.cause} for seat {r.by}, who did not die that day")
            if r.cause == HEARTBREAK and (self.saved.lovers is None
                                          or {r.seat, r.by} != set(self.saved.lovers)):
                raise CannotResume(f"seat {r.seat} dies of a broken heart for seat {r.by}, "
                                   "who are not the Lovers")
            if r.cause == SHOT:
                if self.dead[r.by] != HUNTER or r.by in self.shot:
                    raise CannotResume(f"seat {r.by} shoots, and is no dead Hunter "
                                       "with a shot left")
                self.shot.add(r.by)
            self.chained = True
        self.dead[r.seat] = r.role
        self.died_on[r.seat] = r.day

    def _accusation(self, r: SavedRecord) -> None:
        if self.part == _LYNCHED:
            raise CannotResume(f"an accusation on day {r.day} after its lynch")
        if self.part == _DAWN:
            self._settled()
            self.part = _DAY
        if r.seat == self.accused:
            raise CannotResume(f"seat {r.seat} accused twice in a row")
        self.accused = r.seat

    def _vote(self, r: SavedRecord) -> None:
        last = self.last
        if last is None or last.kind != ACCUSATION or not last.seconded or last.seat != r.seat:
            raise CannotResume(f"a vote on seat {r.seat} without its seconded accusation")
        living = self.living()
        if r.needed != rules.lynch_threshold(living):
            raise CannotResume(f"a vote needing {r.needed} of {living} living")
        if r.votes > rules.most_hands(living) + living:
            raise CannotResume(f"{r.votes} votes from {living} living")

    def _settled(self) -> None:
        """The chains are over and the game checked for a win: every dead
        Lover's partner dead, every dead Hunter has shot, and nobody won."""
        lovers = self.saved.lovers
        if lovers is not None and (lovers[0] in self.dead) != (lovers[1] in self.dead):
            raise CannotResume(f"a Lover dies on day {self.day}, the other lives on")
        for seat, role in self.dead.items():
            if role == HUNTER and seat not in self.shot:
                raise CannotResume(f"the Hunter at seat {seat} died on day "
                                   f"{self.died_on[seat]} and never shot")
        if rules.winner(self.setup, Ring(self.saved.players, dict(self.dead))) is not None:
            raise CannotResume(f"the game was won on day {self.day}, and went on")

    def _ends(self) -> None:
        """Where the checkpoint's stage says the story is: a night or its
        dawn after the lynch of the day before (the first night before
        anything); a discussion after the night's deaths and their chains,
        before the day's lynch, and not in the middle of a vote."""
        saved, last = self.saved, self.last
        if last is not None and ((last.kind == ACCUSATION and last.seconded)
                                 or (last.kind == VOTE and last.votes >= last.needed)):
            raise CannotResume(f"the book stops in the middle of seat {last.seat}'s vote")
        night, today = saved.night, saved.stage == "discussion"
        if not today and last is not None and self.day >= night:
            raise CannotResume(f"day {self.day} is in the book at the start of "
                               f"{saved.stage} {night}")
        if self.day < night - 1 or (last is None and night > 1):
            raise CannotResume(f"the book has no day {self.day + 1}")
        if (self.day < night or not today) and night > 1 and self.part != _LYNCHED:
            raise CannotResume(f"day {self.day} ends without a lynch")
        if today and self.day == night and self.part == _LYNCHED:
            raise CannotResume(f"a discussion on day {night} after its lynch")
        self._settled()
        accused = self.accused if today and self.day == night else None
        if saved.previous_accused != accused:
            raise CannotResume(f"seat {saved.previous_accused} is saved as the last accused; "
                               f"the book says {accused}")
