"""A phone asking for a guarded seat (the Mayor's console): it is checked
as any join, then held for the box's answer, with a code shown on the
phone and the box alike. One phone asks for a seat at a time; one the box
refused waits REFUSED_WAIT before it may ask again.

Its own module because it is the one conversation of the server that
waits on a person at the box, not on the phone: its state (which seats are
guarded, who asks, who was turned away) and its rules are read here
alone, and the server only carries its frames.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from wolfbox.i18n import _

from . import protocol
from .bounded import Bounded
from .room import JoinRefused, Room, clean_name, look_alike_refused, new_pin

REFUSED_WAIT = 60.0               # a phone the box refused a guarded seat waits this long


class Asker(Protocol):
    """What asking reads and sets of a phone (the server's `Phone`)."""
    client: str
    seat: int | None
    last_sent: bytes


P = TypeVar("P", bound=Asker)


@dataclass(eq=False)
class Ask(Generic[P]):
    """A phone asking for a guarded seat, until the box answers."""
    phone: P
    name: str
    code: str


class Asking(Generic[P]):
    """The guarded seats and the phones asking for them, on the server's
    loop. `seated` tells the box and the phones that who sits where (or
    who asks) changed; `queue` sends a phone a frame; `may_sit` is whether
    a phone is still there and holds no seat."""

    def __init__(self, room: Room, clock: Callable[[], float], said: Bounded,
                 seated: Callable[[], None], queue: Callable[[P, bytes], None],
                 may_sit: Callable[[P], bool]) -> None:
        self.room, self.clock, self.said = room, clock, said
        self.seated, self.queue, self.may_sit = seated, queue, may_sit
        # Seats the box must accept a phone for (the Mayor's console), and
        # the phone asking for each: a socket that joins one right after
        # START is not the console until the Mayor says yes on the box.
        self.guarded: frozenset[int] = frozenset()
        self.asks: dict[int, Ask[P]] = {}
        self.turned_away: dict[str, float] = {}    # address: when the box last refused it

    def shown(self) -> tuple[tuple[int, str, str], ...]:
        """The phones asking, for the box's screen: (seat, name, code)."""
        return tuple((seat, a.name, a.code) for seat, a in sorted(self.asks.items()))

    def ask(self, phone: P, pin: str, seat: int, name: str, label: str) -> bytes:
        """A phone asks for guarded `seat` (`label`: the seat's name in
        the lobby): the frame to answer it with, "asking" with the code or
        "refused". Another phone asking for the seat is refused until the
        box has answered."""
        wrong = self.room.wrong
        refused = self.room.may_join(phone.client, pin, seat, name, self.clock(), label)
        if self.room.wrong != wrong:
            self.said.say("pin", "a wrong PIN from %s", phone.client)
            self.seated()
        asking = self.asks.get(seat)
        now = self.clock()
        since = now - self.turned_away.get(phone.client, -REFUSED_WAIT)
        if refused is None and since < REFUSED_WAIT:
            # Refused on the box: the same address may not ask again at
            # once, or one player could hold the Mayor's phone off for good.
            refused = JoinRefused(_("The box refused this phone: try again in {seconds} s.")
                                  .format(seconds=math.ceil(REFUSED_WAIT - since)))
        if refused is None and asking is not None and asking.phone is not phone:
            refused = JoinRefused(_("Another phone is asking for seat {seat}: the box answers "
                                    "it first.").format(seat=seat))
        if refused is not None:
            return protocol.encode("refused", why=refused.why)
        if asking is None:
            self.asks[seat] = asking = Ask(
                phone, clean_name(name) or label or _("Seat {seat}").format(seat=seat),
                new_pin())
            self.seated()
        return protocol.encode("asking", why=_(
            "The box must accept this phone for seat {seat}: on the box, accept code "
            "{code}.").format(seat=seat, code=asking.code))

    def answer(self, seat: int, code: str, accept: bool) -> None:
        """The box's answer to the phone asking for `seat` with `code` (a
        phone asking since, with another code, is not answered by it)."""
        asking = self.asks.get(seat)
        if asking is None or asking.code != code:
            return                              # gone, or another phone asks now
        del self.asks[seat]
        phone = asking.phone
        if accept and self.room.look_alike(asking.name):
            # another phone took a name like it while the box was asked
            self.seated()
            self.queue(phone, protocol.encode("refused", why=look_alike_refused().why))
            return
        if accept and seat not in self.room.held and self.may_sit(phone):
            joined = self.room.take(seat, asking.name)
            phone.seat, phone.last_sent = seat, b""
            # the token, then the view
            self.queue(phone, protocol.encode("joined", seat=seat, token=joined.token))
            self.seated()
            return
        if not accept:
            self.turned_away[phone.client] = self.clock()
        self.seated()
        self.queue(phone, protocol.encode("refused", why=_(
            "The box did not accept this phone for seat {seat}.").format(seat=seat)))

    def guard(self, seats: frozenset[int]) -> None:
        """`seats` are taken only with the box's yes: a phone asking for
        another seat is asked no more."""
        self.guarded = seats
        if any(seat not in seats for seat in self.asks):
            self.asks = {s: a for s, a in self.asks.items() if s in seats}
            self.seated()

    def forget(self, phone: P) -> None:
        """`phone`'s socket is gone: its question goes with it."""
        gone = [seat for seat, a in self.asks.items() if a.phone is phone]
        for seat in gone:
            del self.asks[seat]
        if gone:
            self.seated()

    def new_game(self) -> None:
        """Another game: nobody asks, nobody waits."""
        self.asks.clear()
        self.turned_away.clear()
