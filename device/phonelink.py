"""The phones, switched on and off with the box's setting, and how the
screens between games say to join.

Off by default: nothing listens, and nothing of the server is loaded,
until the table turns phones on (in the config file or on the settings
screen). Turned on, the server starts at once; turned off, it stops and
every phone loses its seat. A server that cannot start (no network, the
port taken) is said once, and the box plays on its buttons as ever.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wolfbox.config import PhonesConfig
from wolfbox.effects import ChangeSetting, Effect, FreeSeat
from wolfbox.events import PhonesSeated
from wolfbox.games import PHONES_KEY
from wolfbox.i18n import _
from wolfbox.view import JoinCard

from .notices import NO_PHONE_SERVER as NO_SERVER

if TYPE_CHECKING:
    from wolfbox.phones.link import Phones

log = logging.getLogger("wolfbox.device")

def _cannot_serve(why: str) -> str:
    return _("Phones: cannot serve their page ({why})").format(why=why)


class PhoneLink:
    """The box's phones, while they are on."""

    def __init__(self, config: PhonesConfig, game: Callable[[], Any],
                 clock: Callable[[], float], post: Callable[[object], None],
                 wake: Callable[[], None], notice: Callable[[str, tuple[str, ...]], None],
                 addresses: list[str] | None = None, port: int | None = None) -> None:
        self.config, self.game, self.clock = config, game, clock
        self.post, self.wake, self.notice = post, wake, notice
        self.addresses, self.port = addresses, port
        self.phones: Phones | None = None
        self._waiting = ""              # the notice shown while the box has no network
        self._unloadable = False        # the server could not be imported: said once

    def turn(self, on: bool) -> None:
        if on and self.phones is None:
            Phones = self._server()
            if Phones is None:
                return
            phones = Phones(self.config, self.post, self.wake, self.clock,
                            self.addresses, self.port)
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
                # server looks again, and the notice goes when one comes.
                from wolfbox.phones.link import no_address
                self._waiting = _cannot_serve(no_address())
                log.warning("%s", self._waiting)
                self.notice(self._waiting, ())
            self.follow()
        elif not on and self.phones is not None:
            self.phones.close()
            self.phones = None
            self.post(PhonesSeated(frozenset()))           # nobody holds a phone now
        self.wake()

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

    def follow(self, *_view: object) -> None:
        """The box's screen changed: the phones follow it."""
        if self.phones is not None:
            if self._waiting and self.phones.urls:
                self.notice("", (self._waiting,))       # the network came: the page is up
                self._waiting = ""
            self.phones.follow(self.game(), self.clock())

    def join_card(self) -> JoinCard | None:
        """How phones join, for the screens between games: None while off."""
        if self.phones is None or not self.phones.urls:
            return None
        seated = self.phones.seated
        return JoinCard(self.phones.urls[0], seated.pin, tuple(sorted(seated.names.items())))

    def close(self) -> None:
        self.turn(False)
