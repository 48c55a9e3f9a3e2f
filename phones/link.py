"""The box's side of the phones: it starts the server where the config
says, hands it what each seat's phone shows whenever the box's screen
changes, and keeps a copy of who sits where for the box's own screen.

The table stays seated from game to game, as players stay at a table:
the box back on a start screen after a game (a new round, or another
game chosen there) keeps every seat, its name and its phone's token, so
no phone types the PIN again. Only newcomers need it, and it is new each
game. A seat goes when the box frees it, when the table shrinks past it,
or when it was the Mayor's console (taken only with the box's yes, so
never carried into another game). A table that grows or shrinks on its
setup screen keeps its PIN.

The seats survive a power cut: whenever one is taken or let go, the room
(its PIN, each seat's name and the hash of its token) is handed to `keep`
with the game it belongs to, and a box started again is handed it back
(`saved`). A phone then finds its seat by its token, as after a reload;
nobody takes a seat by tapping it first. Seats kept for another game than
the one the box starts on are let go.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from wolfbox.config import PhonesConfig
from wolfbox.events import PhonesSeated
from wolfbox.games import Games
from wolfbox.i18n import _, speaking
from wolfbox.phone import PhoneView, named, seat_name
from wolfbox.roster import game_name

from . import protocol
from .addresses import local_addresses
from .room import Room
from .server import PhoneServer, Seated

log = logging.getLogger("wolfbox.phones")

NO_SEATS = 0            # the room before the box has said which game it plays


def no_address() -> str:
    """Why there is no page to join (in the language spoken when it is said)."""
    return _("no local network address; the installed service needs its installer's --phones")


def words() -> dict[str, str]:
    """The page's own words, in the language spoken now."""
    return {"pin": _("The PIN on the box's screen"), "name": _("Your name"),
            "seat": _("Your seat (seat 1 faces the screen)"), "hold": _("Hold to see"),
            "reconnecting": _("Reconnecting…"),
            "again": _("Your seat is free again: type the PIN the box shows now."),
            "off": _("The box has turned its phones off."),
            "lost": _("The box cannot be reached: it is off, or this phone is off its "
                      "network. This page reconnects by itself."),
            "taken": _("Is your seat held by a phone you no longer have? Ask the box to free it.")}


class Phones:
    """The server, and what the box knows of it."""

    def __init__(self, config: PhonesConfig, post: Callable[[object], None],
                 wake: Callable[[], None], clock: Callable[[], float] = time.monotonic,
                 addresses: list[str] | None = None, port: int | None = None,
                 find: Callable[[], list[str]] | None = None,
                 saved: object = None,
                 keep: Callable[[dict[str, Any]], None] = lambda kept: None,
                 mode: str = "") -> None:
        # The config's addresses are kept as they are; else the box's local
        # ones, looked up again while it runs (`find`; tests give theirs).
        if config.listen:
            found, find = list(config.listen), None
        else:
            find = find or (None if addresses is not None else local_addresses)
            found = addresses if addresses is not None else local_addresses()
        self.wake, self.post = wake, post
        self.seated = Seated("", {})
        self._busy = False
        self._seats = NO_SEATS
        self._oversized = False
        self._guarded: frozenset[int] = frozenset()
        self._keep, self._mode, room = keep, "", Room(seats=NO_SEATS)
        self._kept_for: str | None = None          # the game the seats were kept for
        if saved is not None:
            try:
                room, self._kept_for = _restored(saved)
            except ValueError as e:
                log.warning("phones: the seats kept before are not usable (%s)", e)
        if mode and self._kept_for not in (None, mode):
            # Kept for another game than the one the box starts on (`mode`):
            # let go before the server serves, so no phone and no screen ever
            # sees them (follow() lets go too, where the mode was not known).
            log.info("phones: the seats kept for %s are let go", self._kept_for)
            room, self._kept_for = Room(seats=NO_SEATS), None
        self.server = PhoneServer(room, post, self._changed, found,
                                  config.port if port is None else port, clock, find,
                                  keep=self._kept)

    @property
    def urls(self) -> list[str]:
        """The page's addresses now (none while the box has no network)."""
        return self.server.urls

    def start(self) -> list[str]:
        """Listen; the page's addresses. OSError if an address cannot be
        listened on, or none can be had and none will be looked for."""
        if not self.server.addresses and self.server.find is None:
            raise OSError(no_address())
        return self.server.start()

    def _changed(self, seated: Seated) -> None:
        self.seated = seated            # on the server's thread: a copy, swapped whole
        self.post(PhonesSeated(frozenset(seated.names),         # the games hear it in turn
                               tuple(sorted(seated.names.items())), seated.asking,
                               seated.wrong))

    def _kept(self, room: dict[str, Any]) -> None:
        """On the server's thread: the seats changed; kept with their game."""
        if self._mode:
            self._keep({"mode": self._mode, "room": room})

    def follow(self, game: Games, now: float) -> None:
        """After the box's screen changed: a new game's PIN, and each joined
        seat's view, in the game's language."""
        busy, seats = game.busy(), game.table_seats
        switched = self._mode not in ("", game.name)
        self._mode = game.name
        if switched:
            self.server.kept_again()        # the seats now belong to this game (a power cut)
        # A seat the box must accept a phone for (the Mayor's console) is
        # guarded before it opens and let go only after it closed: the
        # server runs these in order, a phone's message perhaps between.
        guarded = game.guarded_seats
        if guarded - self._guarded:
            self._guarded = self._guarded | guarded
            self.server.guard(self._guarded)
        if self._kept_for is not None:
            if self._kept_for != self._mode:         # kept for another game: let go
                self.server.new_game(seats)
            self._kept_for = None
        if self._busy and not busy:
            # A game ended: the table stays seated for the next, but for
            # the console (guarded now or in the game to come).
            self.server.next_round(seats, self._guarded | guarded)
        elif seats != self._seats:
            self.server.resize(seats)
        self._busy, self._seats = busy, seats
        if guarded != self._guarded:
            self._guarded = guarded
            self.server.guard(guarded)
        with speaking(game.lang):
            said = words()
            shown = {seat: named(game.phone_view(seat, now), self.seated.names)
                     for seat in range(1, seats + 1)}     # ready before a phone takes the seat
            secret = covered(shown.values())
            views, labels = {}, {}
            for seat, phone_view in shown.items():
                view = dataclasses.asdict(phone_view)
                label = view.pop("label")
                if label:
                    labels[str(seat)] = label
                views[seat] = protocol.encode(
                    "view", **view, words=said, lang=game.lang, cover=secret,
                    seat_title=label or seat_name(seat, self.seated.names.get(seat, "")))
            lobby = {"title": game_name(game.name), "words": said, "lang": game.lang,
                     "labels": labels, "note": game.lobby_note()}
        frames = protocol.padded(views)
        if protocol.oversized(frames) and not self._oversized:
            self._oversized = True          # said once a run: the size could tell
            log.warning("phones: a frame of %d bytes is longer than %d", max(
                len(v) for v in views.values()), protocol.FRAME_BYTES)
        self.server.publish(frames, lobby, secret)

    def close(self) -> None:
        self.server.close()


def covered(views: Iterable[PhoneView]) -> bool:
    """Whether the table is in a secret window (issue 41.3): some phone
    holds a secret and some phone is asked a choice whose marks are not
    shown (a night's task, a call, a vote behind the cover; not the
    Mayor's hands nor the console, public). The whole table's, never one
    seat's: while it lasts every
    seated phone, whatever its role, alive or dead, asked or not, is sent
    a frame on the server's clock and answers each with one (publish.py),
    so the count, size and time of a phone's frames tell nobody who acted."""
    views = list(views)
    return any(v.secret for v in views) and any(
        v.task is not None and not v.task.marks_shown for v in views)


def _restored(saved: object) -> tuple[Room, str]:
    """The room kept by `Phones._kept`, and its game; ValueError if it is
    not what the box writes."""
    if not isinstance(saved, dict) or not isinstance(saved.get("mode"), str):
        raise ValueError("no game named")
    return Room.restored(saved.get("room")), saved["mode"]
