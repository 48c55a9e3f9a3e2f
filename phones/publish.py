"""Publishing: which frame each phone is sent, and when. What the box
publishes for a seat goes to that seat's phone, the lobby to a phone that
holds none; when any seat's view changes every seated phone is sent a
frame, and in a secret window only on the cover's clock, so which phones
hear from the box, and when, tells nothing of whose card or choice moved.

Its own module because this is where a game's secrets could leak by a
frame's count or time (issue 41.3): the rule is read here alone, over a
phone's record (`Phone`) and the views, with the sending itself handed in
(`deliver`, the server's one way a frame reaches a socket).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from . import protocol, seal
from .room import Room

MESSAGES_PER_SECOND = 10          # a phone sending more is closed: no person taps that fast
# A secret window's clock (issue 41.3): while a choice is secret every
# seated phone is sent a frame this often, and answers each with one.
COVER_SECONDS = 0.5


@dataclass(eq=False)               # each socket is itself: kept in a set by identity
class Phone:
    """One open socket: who it is, and what it was sent last."""
    socket: ServerConnection
    client: str
    seat: int | None = None
    last_sent: bytes = b""
    times: list[float] = field(default_factory=list)
    refused_once: bool = False
    closing: bool = False
    channel: seal.Channel | None = None     # sealed from the phone's key on (seal.py)
    # Its seat went to a newer socket of the same token (another tab of the
    # same phone): it may not take a second seat (one phone, one seat).
    superseded: bool = False
    # The box's random for this socket, sent with its key (seal.py).
    challenge: bytes = field(default_factory=seal.challenge)
    # Beats of a secret window sent it and not answered yet: an answer is
    # the box's pace, not the phone's, and is not held to the phone's rate.
    owed: int = 0


class Publisher:
    """What each phone is sent, on the server's loop: the views and the
    lobby last published, and a secret window's clock. `phones` is the
    server's set of open sockets; `deliver` sends one frame to one phone;
    `keep` holds a task until it ends."""

    def __init__(self, loop: asyncio.AbstractEventLoop, room: Room, phones: set[Phone],
                 deliver: Callable[[Phone, bytes], Awaitable[None]],
                 keep: Callable[[asyncio.Task[None]], None],
                 cover_seconds: float = COVER_SECONDS) -> None:
        self.loop, self.room, self.phones = loop, room, phones
        self.deliver, self.keep, self.cover_seconds = deliver, keep, cover_seconds
        self.views: Mapping[int, bytes] = {}
        self.lobby: dict[str, object] = {}
        # A secret window (publish's `secret`): its clock's next beat.
        self.covering = False
        self._cover_beat: asyncio.TimerHandle | None = None
        self._beaten: Mapping[int, bytes] = {}     # the views its last beat sent

    def label(self, seat: int) -> str:
        """The seat's label, as the lobby names it ("" if none)."""
        labels = self.lobby.get("labels")
        return str(labels.get(str(seat), "")) if isinstance(labels, dict) else ""

    def publish(self, views: dict[int, bytes], lobby: dict[str, object],
                secret: bool = False) -> None:
        # When any seat's view changes, every seated phone is sent a frame
        # (its own, the same size as the others'): which phones hear from
        # the box must not tell whose card or choice moved. Each phone is
        # sent the view of this publish, in order, however busy the loop:
        # a result shown for a moment (an answer tapped late in a call) is
        # never skipped because a later view was published before it went.
        # In a secret window, only on the cover's clock (`cover_clock`).
        every = views != self.views
        edge = secret != self.covering
        if edge and not secret and self.views != self._beaten:
            # The window ends: what changed in it since its last beat (an
            # answer tapped late in a call) goes first, on a last beat.
            self._beat()
        self.views, self.lobby = views, lobby
        if edge:
            self.cover_clock(secret)
        for phone in list(self.phones):
            self.send(phone, force=(every or edge) and phone.seat is not None, beat=edge)

    def cover_clock(self, on: bool) -> None:
        """A secret window opens or ends (issue 41.3). While it lasts, every
        seated phone is sent its view now and every `cover_seconds` after,
        changed or not, and nothing between: a Wolf's partner's mark, a
        Seer's answer or a tap's own mark waits for the next beat, so the
        box's frames to each phone come at the same times, whoever acted.
        The page answers each such frame with one of its own, a tap riding
        in it or a cover frame (app.js), so the phones' frames are as even.
        The window's start and end are the whole table's: every phone is
        sent a frame at each, at once."""
        self.covering = on
        if self._cover_beat is not None:
            self._cover_beat.cancel()
            self._cover_beat = None
        if on:
            self._beaten = self.views
            self._cover_beat = self.loop.call_at(self.loop.time() + self.cover_seconds,
                                                 self._cover_tick)

    def _cover_tick(self) -> None:
        assert self._cover_beat is not None
        # The next beat a period after this one was due (a late loop does
        # not bunch the beats after it), never in the past.
        due = max(self._cover_beat.when() + self.cover_seconds, self.loop.time())
        self._cover_beat = self.loop.call_at(due, self._cover_tick)
        self._beat()

    def _beat(self) -> None:
        """Every seated phone its view, now, on the cover's clock."""
        self._beaten = self.views
        for phone in list(self.phones):
            if phone.seat is not None:
                self.send(phone, force=True, beat=True)

    def send(self, phone: Phone, force: bool = False, beat: bool = False) -> None:
        """Choose `phone`'s frame now and queue it: frames leave in the
        order they were chosen (tasks start in the order they are made,
        and each writes its frame before it first waits). In a secret
        window a seated phone's frame goes only on a `beat` of its clock."""
        if phone.channel is None:
            return                              # its key first: nothing goes in the clear
        if phone.seat is not None and phone.seat not in self.room.held:
            phone.seat = None                   # freed on the box, or past the table now
        if phone.seat is not None and self.covering and not beat:
            return                              # the next beat sends it
        if phone.seat is not None:
            shown = self.views.get(phone.seat, b"")
        elif self.lobby:
            # Before the PIN, what joining needs: which seats are free, and
            # no player's name (anyone on the Wi-Fi may open the page).
            shown = protocol.encode("lobby", **self.lobby, seats=self.room.seats,
                                    taken={str(k): "" for k in sorted(self.room.held)})
        else:
            shown = b""
        if shown and (force or shown != phone.last_sent):
            phone.last_sent = shown
            if beat and phone.seat is not None and self.covering:
                phone.owed = min(phone.owed + 1, MESSAGES_PER_SECOND)
            self.queue(phone, shown)

    def queue(self, phone: Phone, frame: bytes) -> None:
        """`frame` on its way to `phone`, in a task of its own, held till it
        ends (a socket closed meanwhile drops it)."""
        self.keep(self.loop.create_task(self._write(phone, frame)))

    async def _write(self, phone: Phone, frame: bytes) -> None:
        try:
            await self.deliver(phone, frame)
        except ConnectionClosed:
            pass
