"""The gate before the handshake: a socket is counted the moment it is
accepted, before a byte of HTTP is read, and let go at once past a few an
address or a total that leaves the box's own files a reserve of
descriptors; a request of a method the page has no use for is answered
405 before the WebSocket library reads it.

Its own module because it is the one part of the server that runs before
anything is known of a socket but its address: it knows nothing of the
page, the seats, the messages or the games (`.importlinter` holds it to
that), and it is the one place that reaches into the WebSocket library's
asyncio protocol (`Door`, tests/test_phones_gate.py holds that seam).
"""

from __future__ import annotations

import asyncio
import resource
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection

from .bounded import Bounded

PER_ADDRESS = 32                  # sockets one address may hold (a page load opens six)
MOST_SOCKETS = 256                # sockets in all: nine phones need a few dozen
FILES_KEPT = 256                  # descriptors left for the box's own files, whatever comes
METHODS = ("GET", "HEAD")
METHOD_BYTES = 16                # a request line's method is read within this many bytes


def socket_budget(limit: int | None = None) -> int:
    """How many sockets the phones may hold at once: MOST_SOCKETS, or fewer
    where the process's descriptor limit (`limit`, else its soft limit)
    would leave the box fewer than FILES_KEPT for its saves, its cache,
    its sounds and fonts."""
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return max(0, min(MOST_SOCKETS, limit - FILES_KEPT))


class Gate:
    """The sockets open now, by address: counted when accepted, before the
    HTTP request is read, so a flood holds at most the budget of them.
    When all are taken, a new socket takes the place of the oldest one
    that has not sent its request yet (a phone sends it at once: what sits
    silent is a flood), so sockets opened and left idle keep no phone out."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.open: dict[str, int] = {}
        self.doors: dict[Door, None] = {}         # oldest first
        self.held = 0

    def enter(self, door: Door) -> bool:
        address = door.address
        if self.open.get(address, 0) >= self.per_address:
            return False
        if self.held >= self.total:
            silent = next((d for d in self.doors if d.request is None), None)
            if silent is None:
                return False
            self.leave(silent)
            silent.transport.abort()
        self.open[address] = self.open.get(address, 0) + 1
        self.doors[door] = None
        self.held += 1
        return True

    def leave(self, door: Door) -> None:
        if self.doors.pop(door, False) is False:
            return                                # let go before: counted once
        self.held -= 1
        left = self.open[door.address] - 1
        if left:
            self.open[door.address] = left
        else:
            del self.open[door.address]


class Door(ServerConnection):
    """A socket let in only through the gate (`let_in` and `let_go`, given
    by `doors`); one refused is closed before a byte is read from it. A
    request of another method than the page's is answered 405 here, before
    websockets reads it: its parser refuses a request with a body (a POST)
    by closing the socket without a word."""

    let_in: Callable[[Door], bool]
    let_go: Callable[[Door], None]
    refused_method: Callable[[Door, str], None]
    address = ""
    started = False
    _head = b""
    _checked = False

    def data_received(self, data: bytes) -> None:
        if self._checked:
            super().data_received(data)
            return
        self._head += data
        method, space, _rest = self._head.partition(b" ")
        if not space and len(self._head) < METHOD_BYTES:
            return                                  # the method is not all here yet
        self._checked = True
        head, self._head = self._head, b""
        if method.decode("ascii", "replace") in METHODS:
            super().data_received(head)
            return
        type(self).refused_method(self, method[:10].decode("ascii", "replace"))
        self.transport.write(
            b"HTTP/1.1 405 Method Not Allowed\r\nAllow: " + ", ".join(METHODS).encode()
            + b"\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 19"
            + b"\r\nConnection: close\r\n\r\nMethod Not Allowed\n")
        self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        if not type(self).let_in(self):
            assert isinstance(transport, asyncio.Transport)
            transport.abort()
            return
        self.started = True
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        type(self).let_go(self)
        if self.started:
            super().connection_lost(exc)


def doors(gate: Gate, said: Bounded) -> type[Door]:
    """The connection class `serve` makes each socket with (its
    `create_connection`): let in and let go through `gate`, what is
    refused said through `said`."""

    def let_in(door: Door) -> bool:
        if gate.enter(door):
            return True
        said.say("full", "refused a socket from %s: %d open from it, %d in all",
                 door.address[:60], gate.open.get(door.address, 0), gate.held)
        return False

    def refused_method(door: Door, method: str) -> None:
        said.say("method", "refused a %s request (%s)", method, door.address[:60])

    return type("Door", (Door,), {"let_in": let_in, "let_go": gate.leave,
                                  "refused_method": refused_method})
