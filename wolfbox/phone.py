"""What a seat's phone shows: a pure function of the game and the seat.

The server sends each seat exactly what this returns for it, so privacy
is one function to test, not a property of many handlers. Until a game
gives its seats their own secrets and tasks, a phone shows what the whole
table sees on the box (never a screen meant for some eyes only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from .i18n import N_, _
from .tablemap import TableMap
from .view import View

# What every phone says while the box calls the roles at night.
EYES_CLOSED = N_("Night: keep your eyes closed until you are called.")


@dataclass(frozen=True)
class Task:
    """What a seat is asked on its phone: `step` names it (an answer to a
    task that has passed changes nothing), `options` are (id, words) with
    ids from 0 to 999, `pick` how many of them make one answer (the
    Troublemaker's two seats), and `chosen` what this seat has answered so
    far. At a night step every phone gets a task of the same shape (the
    role that acts chooses, the others answer a decoy), so nobody learns a
    role from who is tapping."""
    step: str
    prompt: str
    options: tuple[tuple[int, str], ...]
    chosen: tuple[int, ...] = ()
    pick: int = 1
    # Buttons of another kind, drawn apart under the options (the Mayor's
    # console: OK, Change, Undo under the seats or cards); answered alike.
    actions: tuple[tuple[int, str], ...] = ()
    # Whether what this seat chose is marked on its buttons where anyone
    # can see them (a hand up in the Mayor's vote, public anyway). Else, on
    # a phone with a cover, a tap changes nothing outside it: the page marks
    # no button and writes the choice behind the cover, so a glance at a
    # Wolf's phone never shows it tapped its own seat for the knife. A
    # choice not shown is secret: while a phone holds one, and a phone holds
    # a secret, every phone's frames run on the cover's clock (issue 41.3,
    # phones/link.py `covered`).
    marks_shown: bool = False


@dataclass(frozen=True)
class PhoneView:
    """One seat's phone: the public words, and what is for this seat alone
    (`secret`, shown only while the player holds the cover)."""
    seat: int
    title: str
    big: str = ""
    lines: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()
    dim: bool = False
    task: Task | None = None
    label: str = ""            # what the phone calls its seat, where not "Seat N" (the Mayor)
    # Pictures of the table, the same on every phone (public: the game is over).
    picture: TableMap | None = None


def seat_name(seat: int, name: str | Mapping[int, str] = "") -> str:
    """A seat as the table reads it wherever a seat is named to it (a
    choice, a result, the verdict, what happened, on the phones and on the
    box): the name its player typed at join with its number ("Ann · 3"),
    or "Seat 3" for a seat without a name of its own. `name` is the name,
    or the names of the table by seat (PhonesSeated.names, as a game keeps
    them). Spoken lines keep the number: the voice is rendered ahead of
    time, and a name typed tonight is in no cache."""
    if not isinstance(name, str):
        name = name.get(seat, "")
    plain = _("Seat {seat}").format(seat=seat)
    name = " ".join(name.split())
    if not name or name in (plain, f"Seat {seat}"):
        return plain
    # TRANSLATORS: a seat by its player's name and its number, e.g. "Ann · 3".
    return _("{name} · {seat}").format(name=name, seat=seat)


def named(view: PhoneView, names: Mapping[int, str]) -> PhoneView:
    """`view` with each seat its task offers by number alone ("Seat 3")
    called by its player's name too, so a table chooses the people it
    sees. Only the words change: an answer is still the seat's number."""
    task = view.task
    if task is None or not names:
        return view

    def word(option: tuple[int, str]) -> tuple[int, str]:
        seat, words = option
        if seat in names and words == _("Seat {seat}").format(seat=seat):
            return seat, seat_name(seat, names[seat])
        return option
    return dataclasses.replace(view, task=dataclasses.replace(
        task, options=tuple(word(o) for o in task.options)))


def public(view: View, seat: int) -> PhoneView:
    """The box's screen as any seat may see it on its phone. A screen for
    some eyes only (a card, a night's choice) is not sent: it is shown only
    while the table's eyes are closed, so its place is the night view, the
    same for every seat."""
    if view.private:
        return night(seat, view.title)
    lines = tuple(t for t in (view.caption, *view.details) if t)
    return PhoneView(seat, view.title, view.big, lines, dim=view.dim)


def night(seat: int, title: str) -> PhoneView:
    """A phone while the table's eyes are closed and the box, not the
    phones, calls each role in turn: it points at nothing but itself (a
    called player is told aloud what to do; "look at the box" on every
    phone would wake the whole table). The same for every seat; a game
    adds only this seat's own card behind the cover."""
    return PhoneView(seat, title, lines=(_(EYES_CLOSED),), dim=True)


def out_of_the_game(view: PhoneView) -> PhoneView:
    """A dead seat's own phone says so (public: the table saw it die), in
    the same words in every game."""
    return dataclasses.replace(view, lines=(*view.lines, _("You are out of the game.")))
