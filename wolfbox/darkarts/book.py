"""The game log: every death (when, as what, how if the table saw how),
every accusation and every vote count, in the order they happened.

The Mayor can open it at any time and the final screen tells the whole
story from it. It holds only what the table already knows: a night death
is "died in night 2", never how.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..i18n import _, ngettext
from ..phone import seat_name
from .roles import VILLAGE, role_name

# Kinds of entry
DEATH, ACCUSATION, VOTE, WIN = "death", "accusation", "vote", "win"
# How a death came, as far as the table knows it
NIGHT, LYNCH, HEARTBREAK, SHOT = "night", "lynch", "heartbreak", "shot"


@dataclass(frozen=True)
class Record:
    kind: str
    day: int                  # the night's number; its day has the same number
    seat: int = 0
    role: str = ""            # DEATH: the role turned up
    cause: str = ""           # DEATH: NIGHT, LYNCH, HEARTBREAK, SHOT
    by: int = 0               # HEARTBREAK: the Lover who died; SHOT: the Hunter
    seconded: bool = False    # ACCUSATION
    votes: int = 0            # VOTE
    needed: int = 0           # VOTE
    team: str = ""            # WIN


@dataclass
class Book:
    records: list[Record] = field(default_factory=list)

    def add(self, record: Record) -> None:
        self.records.append(record)

    def deaths(self) -> list[Record]:
        return [r for r in self.records if r.kind == DEATH]

    def to_list(self) -> list[dict[str, Any]]:
        names = [f.name for f in fields(Record)]
        return [{n: getattr(r, n) for n in names} for r in self.records]

    @classmethod
    def from_list(cls, items: list[dict[str, Any]]) -> Book:
        return cls([Record(**item) for item in items])

    def lines(self, names: Mapping[int, str] | None = None) -> list[str]:
        """The story so far, one line a record, in the box's language, each
        seat by its player's name where a phone gave one."""
        return [describe(r, names) for r in self.records]


def describe(r: Record, names: Mapping[int, str] | None = None) -> str:
    seat, by = seat_name(r.seat, names or ""), seat_name(r.by, names or "")
    if r.kind == DEATH:
        role = role_name(r.role)
        match r.cause:
            case "night":
                text = _("Night {day}: {seat} died ({role}).")
            case "lynch":
                text = _("Day {day}: {seat} was lynched ({role}).")
            case "heartbreak":
                text = _("Day {day}: {seat} ({role}) died of a broken heart for {by}.")
            case _:
                text = _("Day {day}: the Hunter, {by}, shot {seat} ({role}).")
        return text.format(day=r.day, seat=seat, role=role, by=by)
    if r.kind == ACCUSATION:
        text = (_("Day {day}: {seat} accused, seconded.") if r.seconded
                else _("Day {day}: {seat} accused, no second."))
        return text.format(day=r.day, seat=seat)
    if r.kind == VOTE:
        # The count picks the form ("1 vote", "2 votes"); "needed" has one form.
        if r.votes >= r.needed:
            text = ngettext(
                "Day {day}: {votes} vote to lynch {seat}, {needed} needed: lynched.",
                "Day {day}: {votes} votes to lynch {seat}, {needed} needed: lynched.",
                r.votes)
        else:
            text = ngettext(
                "Day {day}: {votes} vote to lynch {seat}, {needed} needed: failed.",
                "Day {day}: {votes} votes to lynch {seat}, {needed} needed: failed.",
                r.votes)
        return text.format(day=r.day, seat=seat, votes=r.votes, needed=r.needed)
    return _("The village wins.") if r.team == VILLAGE else _("The werewolves win.")
