"""What a seat's phone shows: a pure function of the game and the seat.

The server sends each seat exactly what this returns for it, so privacy
is one function to test, not a property of many handlers. Until a game
gives its seats their own secrets and tasks, a phone shows what the whole
table sees on the box (never a screen meant for some eyes only).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .i18n import _
from .view import View


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


def public(view: View, seat: int) -> PhoneView:
    """The box's screen as any seat may see it on its phone. A screen for
    some eyes only (a card, a night's choice) is not sent: its place says
    so, the same words for every seat."""
    if view.private:
        return PhoneView(seat, view.title, lines=(_("Look at the box."),), dim=view.dim)
    lines = tuple(t for t in (view.caption, *view.details) if t)
    return PhoneView(seat, view.title, view.big, lines, dim=view.dim)


def out_of_the_game(view: PhoneView) -> PhoneView:
    """A dead seat's own phone says so (public: the table saw it die), in
    the same words in every game."""
    return dataclasses.replace(view, lines=(*view.lines, _("You are out of the game.")))
