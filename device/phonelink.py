"""The phones, switched on and off with the box's setting, and how the
screens between games say to join.

Off by default: nothing listens, and nothing of the server is loaded,
until the table turns phones on (in the config file or on the settings
screen). Turned on, the server starts at once; turned off, it stops and
every phone is let go (the seats stay in `seats.json`, as across a power
cut: turned on again in the same game, each phone finds its seat by its
token). A server that cannot start (no network, the port taken) is said
once, and the box plays on its buttons as ever.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import stat
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from wolfbox.audio.cache import write_atomic
from wolfbox.config import PhonesConfig
from wolfbox.effects import AnswerSeat, ChangeSetting, Effect, FreeSeat
from wolfbox.events import PhonesSeated
from wolfbox.games import PHONES_KEY, Games
from wolfbox.i18n import _
from wolfbox.view import JoinCard

from .hotspot import ADDRESS as OWN_ADDRESS
from .hotspot import Hotspot, HotspotThread
from .notices import NO_OWN_WIFI, WAITING_FOR_NETWORK
from .notices import NO_PHONE_SERVER as NO_SERVER

if TYPE_CHECKING:
    from wolfbox.phones.link import Phones

log = logging.getLogger("wolfbox.device")

def _cannot_serve(why: str) -> str:
    return _("Phones: cannot serve their page ({why})").format(why=why)


class PhoneLink:
    """The box's phones, while they are on."""

    def __init__(self, config: PhonesConfig, game: Callable[[], Games],
                 clock: Callable[[], float], post: Callable[[object], None],
                 wake: Callable[[], None], notice: Callable[[str, tuple[str, ...]], None],
                 addresses: list[str] | None = None, port: int | None = None,
                 seats_file: Path | None = None,
                 serving: Callable[[bool], None] = lambda _up: None,
                 barrier: Callable[[Callable[[], None]], None] = lambda call: call()) -> None:
        self.config, self.game, self.clock = config, game, clock
        # Every call into the game (its phone views) goes through the box's
        # exception barrier, at startup too: a game's fault there is a bug
        # the box recovers from, never a box that ends and is restarted
        # into the same fault.
        self.barrier = barrier
        # Told after each turn whether a server that should serve does: the
        # games offer the phones' screen only then (Games.phones_up).
        self.serving = serving
        # Who holds which seat, kept across a power cut (see _seats).
        self.seats_file = seats_file
        self._writer: ThreadPoolExecutor | None = None
        self.post, self.wake, self.notice = post, wake, notice
        self.addresses, self.port = addresses, port
        self.phones: Phones | None = None
        self._waiting = ""              # the notice shown while the box has no network
        self._unloadable = False        # the server could not be imported: said once
        # Whether a game was under way when the phones last followed it: the
        # Wi-Fi's thread reads this, never the game (no call into a game off
        # the main loop, outside its barrier).
        self._busy = False
        self.hotspot: HotspotThread | None = None   # [phones] network: auto or own

    def turn(self, on: bool) -> None:
        """Phones on or off, as the setting now says; a server that cannot
        serve is said once, and the games stop offering the phones."""
        self._turn(on)
        self.serving(self.phones is not None or not on)
        self.wake()

    def _turn(self, on: bool) -> None:
        if on and self.phones is None:
            Phones = self._server()
            if Phones is None:
                return
            phones = Phones(self.config, self.post, self.wake, self.clock,
                            self.addresses, self.port, **self._seats())
            try:
                phones.start()
            except OSError as e:
                why = e.strerror or str(e)
                log.warning("phones: cannot serve the page: %s", why)
                self.notice(_cannot_serve(why), ())
                return
            self.phones = phones
            if phones.urls:
                log.info("phones: the page is at %s", " ".join(phones.urls))
            else:
                # No network yet (a box that booted before its Wi-Fi): the
                # server looks again, and the notice goes when one comes. A
                # box that opens its own Wi-Fi has one in seconds: it says
                # only that it waits (no installer's hint to mislead).
                from wolfbox.phones.link import no_address
                self._waiting = (_(WAITING_FOR_NETWORK) if self._opens_own_wifi()
                                 else _cannot_serve(no_address()))
                log.warning("%s", self._waiting)
                self.notice(self._waiting, ())
            self.follow()
            self._own_wifi()
        elif not on and self.phones is not None:
            if self.hotspot is not None:
                hotspot, self.hotspot = self.hotspot, None
                hotspot.close()
            phones, self.phones = self.phones, None        # off, however the closing goes
            try:
                phones.close()
            except Exception as e:
                log.warning("phones: off, though their server did not stop cleanly (%s)",
                            f"{type(e).__name__}: {e}" if str(e) else type(e).__name__)
            self.post(PhonesSeated(frozenset()))           # nobody holds a phone now

    def _opens_own_wifi(self) -> bool:
        """Whether the box opens a Wi-Fi of its own where it needs one (a
        box with no state of its own, a test's, never does)."""
        return self.config.network != "home" and self.seats_file is not None

    def _own_wifi(self) -> None:
        """The box's own Wi-Fi, as `[phones] network` says, looked after on a
        thread of its own; a box that cannot open one says so once."""
        if not self._opens_own_wifi() or self.seats_file is None:
            return

        def idle() -> bool:
            phones = self.phones
            return phones is not None and not phones.seated.names and not self._busy

        def cannot(why: str) -> None:
            self.notice(_(NO_OWN_WIFI), ())

        hotspot = Hotspot(self.config.network, cannot)
        self.hotspot = HotspotThread(hotspot, self.clock, idle, self.wake)
        self.hotspot.start()

    def _seats(self) -> dict[str, Any]:
        """The seats kept before (a power cut mid-game: each phone finds its
        seat again by its token) and where to keep them from now on: a file
        of their own beside the box's state, written whole (temp file,
        fsync, rename) on a thread of its own, in order."""
        if self.seats_file is None:
            return {}
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wolfbox-seats")
        path, writer = self.seats_file, self._writer

        def write(kept: dict[str, Any]) -> None:
            try:
                write_atomic(path, json.dumps(kept, sort_keys=True).encode())
            except OSError as e:
                log.warning("phones: cannot keep the seats in %s (%s)", path, e)

        return {"saved": _read_seats(path), "keep": lambda kept: writer.submit(write, kept),
                "mode": self.game().name}

    def _server(self) -> type[Phones] | None:
        """The phones' server, imported when first turned on: a box without
        phones holds no web server, asyncio or websockets in its memory. A
        server that cannot be loaded (a broken or missing `websockets`) is
        said once, in a line, and the box plays on its buttons: phones on
        in the config, or turned on and remembered, must never stop a boot."""
        if self._unloadable:
            return None
        try:
            from wolfbox.phones.link import Phones
        except Exception as e:          # whatever a broken install raises while importing
            self._unloadable = True
            log.warning("phones: off: their web server cannot be loaded (%s: %s)",
                        type(e).__name__, e)
            self.notice(_(NO_SERVER), ())
            return None
        return Phones

    def effect(self, effect: Effect) -> None:
        """The table turned phones on or off on the settings screen, or
        gave a seat back on the phones' screen."""
        if isinstance(effect, ChangeSetting) and effect.key == PHONES_KEY:
            self.turn(bool(effect.value))
        elif isinstance(effect, FreeSeat) and self.phones is not None:
            self.phones.server.free(effect.seat)
        elif isinstance(effect, AnswerSeat) and self.phones is not None:
            self.phones.server.answer(effect.seat, effect.code, effect.accept)

    def follow(self, *_view: object) -> None:
        """The box's screen changed: the phones follow it."""
        if self.phones is not None:
            if self._waiting and self.phones.urls:
                self.notice("", (self._waiting,))       # the network came: the page is up
                self._waiting = ""
            phones, game = self.phones, self.game()

            def follow() -> None:
                phones.follow(game, self.clock())
                self._busy = game.busy()
            self.barrier(follow)

    def join_card(self) -> JoinCard | None:
        """How phones join, for the screens between games: None while off."""
        if self.phones is None or not self.phones.urls:
            return None
        seated, url = self.phones.seated, self.phones.urls[0]
        card = JoinCard(url, seated.pin, tuple(sorted(seated.names.items())),
                        self.phones.server.pinned(url))
        return self._with_wifi(card)

    def _with_wifi(self, card: JoinCard) -> JoinCard:
        """The card with the box's own Wi-Fi, while it is up: its code and
        the page's shown in turn."""
        hotspot = self.hotspot
        wifi = hotspot.hotspot.wifi if hotspot is not None else None
        if hotspot is None or wifi is None:
            return card
        # A box on a cable too: the page at its address on its own Wi-Fi,
        # where the phones are (once the server serves there).
        own = f"{OWN_ADDRESS}:"
        where = urlsplit(card.url).netloc
        if self.phones is not None and not where.startswith(own):
            mine = next((urlsplit(u).netloc for u in self.phones.urls
                         if urlsplit(u).netloc.startswith(own)), None)
            if mine is not None:
                url = card.url.replace(where, mine, 1)
                card = dataclasses.replace(card, url=url, qr=self.phones.server.pinned(url))
        return dataclasses.replace(card, wifi=wifi, wifi_shown=hotspot.wifi_shown)

    def close(self) -> None:
        self.turn(False)
        if self._writer is not None:
            self._writer.shutdown(wait=True)        # the last change reaches the disk


SEATS_FILE = "seats.json"      # beside state.json: who holds which seat (phones)
MAX_SEATS_BYTES = 16 * 1024      # 99 seats' names and hashes fit many times over


def _read_seats(path: Path) -> object:
    """The seats file's JSON, or None when there is none or it is not
    readable as such (said in the log: the phones then join afresh)."""
    try:
        # O_NONBLOCK: a FIFO at the path must not hold the box's start.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError("not a regular file")
            data = f.read(MAX_SEATS_BYTES + 1)
        if len(data) > MAX_SEATS_BYTES:
            raise ValueError(f"more than {MAX_SEATS_BYTES} bytes")
        return json.loads(data.decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        log.warning("phones: ignoring the seats kept in %s (%s)", path, e)
        return None
