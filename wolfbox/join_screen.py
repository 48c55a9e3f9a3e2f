"""The phones' own screen on the box: how to join, who has, and a seat freed.

Every game's start or setup screen shows a join card where it has room,
but a setup full of words (German, a long deck) leaves none for the code,
and a seat held by the wrong phone (a player who left, a phone picked up
by someone else) has to be given back from the box. This screen does both,
the same for every game: `wolfbox.games` opens it with a hold of START on
any screen of any game, in every phase (a phone that died mid-day joins
again at once; a phone lost mid-game gets its seat, and its card, back),
while phones are on; the
device draws the join card on it as on any screen between games (its
middle is nearly empty, so the code fits at the box's smallest size). A
seat is freed with two holds of VOTE: the first asks.

Pure: it answers buttons with effects; the seats come from `PhonesSeated`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .buttons import Button, Hold, Release, Tap
from .effects import AnswerSeat, Effect, FreeSeat
from .events import PhonesSeated
from .i18n import N_, _
from .view import Phase, View

DONE, NEXT_SEAT, PREVIOUS_SEAT = N_("Done"), N_("Next seat"), N_("Previous seat")
ACCEPT, REFUSE = N_("Accept"), N_("Refuse")
FREE_HOLD = N_("Hold: free seat")
OPEN_HOLD = N_("Hold: phones")


@dataclass
class JoinScreen:
    """Open or not, the seat picked among those that hold a phone, and
    whether a first hold of VOTE has asked to free it."""
    open: bool = False
    seat: int = 0                 # 0: none picked (no phone has joined)
    asking: bool = False          # VOTE held once on this seat: the next hold frees it

    def show(self, seated: frozenset[int]) -> None:
        self.open, self.asking = True, False
        self.seat = min(seated, default=0)

    def handle(self, event: Tap | Hold | Release, seated: frozenset[int],
               free: bool = True) -> list[Effect]:
        """A button on this screen. A seat is freed only by two holds of
        VOTE with no other press between, never by a tap: mid-game a freed
        seat's card is the next phone's to see, so a stray press must not
        send a player's phone away. Not at all unless `free` (opened over
        a night: Games._may_free)."""
        if isinstance(event, Release):
            return []
        button = event.button
        if isinstance(event, Hold) and button is Button.VOTE:
            if self.seat not in seated or not free:
                self.asking = False
                return []
            if not self.asking:
                self.asking = True
                return []
            freed, self.asking = self.seat, False
            self.seat = _step(sorted(seated - {freed}), freed, +1)
            return [FreeSeat(freed)]
        self.asking = False
        if button is Button.START:
            self.open = False
        elif button in (Button.NEXT, Button.BACK):
            self.seat = _step(sorted(seated), self.seat, +1 if button is Button.NEXT else -1)
        return []

    def view(self, seated: PhonesSeated, title: str, free: bool = True) -> View:
        """The screen: the seat picked large with its player's name, and
        what a hold of VOTE does (where it frees seats now: `free`)."""
        if self.seat not in seated.seats:
            self.seat = _step(sorted(seated.seats), self.seat, +1)
        if self.seat:
            big = _("Seat {seat}").format(seat=self.seat)
            note = _("Hold VOTE again to free seat {seat}: whoever joins it next sees "
                     "its card.").format(seat=self.seat) if self.asking else \
                _("Hold VOTE to free this seat: its phone goes back to the list of seats.")
            if not free:
                note = _("Seats are freed by day, with the table watching.")
            name = seated.name(self.seat)
            notes: tuple[str, ...] = (name, note) if name else (note,)
        else:
            big, notes = "", (_("No phone has joined yet."),)
        if seated.wrong:             # a player mistyping, or someone guessing the PIN
            notes = (*notes, _("Wrong PINs typed: {count}").format(count=seated.wrong))
        holds = ((Button.VOTE, _(FREE_HOLD)),) if self.seat and free else ()
        legend = ((Button.START, _(DONE)), *holds,
                  (Button.NEXT, _(NEXT_SEAT)), (Button.BACK, _(PREVIOUS_SEAT)))
        return View(phase=Phase.SETTINGS, title=title, big=big,
                    details=(_("Phones"), *notes), legend=legend, holds=holds)


def asked(event: Tap | Hold | Release, seated: PhonesSeated) -> list[Effect]:
    """A button while a phone asks for a guarded seat (the Mayor's
    console): START accepts it, BACK refuses it; the other buttons wait
    for the answer (the game behind goes on by itself)."""
    seat, _name, code = seated.asking[0]
    if isinstance(event, Tap) and event.button in (Button.START, Button.BACK):
        return [AnswerSeat(seat, code, event.button is Button.START)]
    return []


def asking_view(seated: PhonesSeated, title: str, label: str, dim: bool = False) -> View:
    """The question over every screen while a phone asks for a guarded
    seat: the code its page shows, large, for the Mayor to compare with
    their own phone's (anyone may have tapped the seat first). `dim` at
    night, as the screen it covers: a box lit up in the dark would draw
    every eye to it."""
    seat, name, code = seated.asking[0]
    return View(phase=Phase.SETTINGS, title=title, big=code, dim=dim,
                details=(_("A phone asks for seat {seat} ({label}): {name}").format(
                    seat=seat, label=label, name=name),
                         _("Accept only if this code is on your own phone.")),
                legend=((Button.START, _(ACCEPT)), (Button.BACK, _(REFUSE))))


def _step(seats: list[int], seat: int, step: int) -> int:
    """The seat after (or before) `seat` among `seats`, round the table;
    0 when nobody holds a phone."""
    if not seats:
        return 0
    after = [s for s in seats if s > seat] if step > 0 else [s for s in seats if s < seat][::-1]
    return after[0] if after else (seats[0] if step > 0 else seats[-1])
