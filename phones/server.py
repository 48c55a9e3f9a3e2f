"""The phones' web server: the page and one WebSocket a phone, served by
the box itself on the local network, in a thread of its own.

It uses `websockets` (asyncio): the page's three files are answered in the
handshake hook, everything else travels on the socket. Its resident cost
is a few MB, where a full web framework would have taken most of the
30 MB the phones may add to the box.

What a phone sends becomes an event in the box's inbox (`post`), never a
change to a game; what it is sent is what the box publishes for its seat
(`publish`), or the lobby while it holds none. Security: it listens only
on the addresses given (the local network, loopback in tests); the page
may load nothing from elsewhere (a strict Content-Security-Policy, no
inline script); a socket opened from another origin is refused; after
the phone's key every frame, both ways, is sealed (seal.py), so tokens,
PINs and cards travel only sealed, and tokens are compared in constant
time (room.py);
every message is checked (protocol.py), capped in size and in rate, and a
bad one is refused and logged once per connection.

Outsiders on the same network: a socket is counted the moment it is
accepted, before any HTTP, and let go at once past a few an address or a
total that leaves the box's own files a reserve of descriptors; a request
is answered only for a Host that is one of the box's own names or
addresses (DNS rebinding), and only for GET and HEAD (a phone's
captive-portal probe, to a name of its maker's, is sent to the page); before a phone has
the PIN it is sent what joining needs, no player's name; every log line a
client can cause is said once, then at most once a minute with a count
(`Bounded`).
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import math
import resource
import socket as sockets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from wolfbox.events import PhoneChoice
from wolfbox.i18n import _

from . import protocol, seal
from .room import (
    Joined,
    JoinRefused,
    Room,
    clean_name,
    look_alike_refused,
    new_pin,
    prepare_names,
)

log = logging.getLogger("wolfbox.phones")
# The library's own lines (a connection opened or closed, a page served) are
# for debugging: a table's phones would fill the box's terminal and journal.
wire_log = logging.getLogger("wolfbox.phones.wire")
wire_log.setLevel(logging.WARNING)

PAGE_FILES = {"/": ("index.html", "text/html; charset=utf-8"),
              "/app.js": ("app.js", "text/javascript; charset=utf-8"),
              "/app.css": ("app.css", "text/css; charset=utf-8"),
              "/night.js": ("night.js", "text/javascript; charset=utf-8"),
              "/night.css": ("night.css", "text/css; charset=utf-8"),
              "/nacl-fast.min.js": ("nacl-fast.min.js", "text/javascript; charset=utf-8")}
SOCKET_PATH = "/ws"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
MESSAGES_PER_SECOND = 10          # a phone sending more is closed: no person taps that fast
# A secret window's clock (issue 41.3): while a choice is secret every
# seated phone is sent a frame this often, and answers each with one.
COVER_SECONDS = 0.5
START_SECONDS = 10.0              # how long the server may take to start listening
# A socket that has not sent its phone's key this long after the box's is
# closed: a page sends it at once, so what sits keyless holds a place a
# phone may need (sockets handshaken and left idle kept phones out).
KEY_SECONDS = 5.0
REFUSED_WAIT = 60.0               # a phone the box refused a guarded seat waits this long
ADDRESS_LOOK_SECONDS = 10.0       # how often the box's own addresses are looked up again
PER_ADDRESS = 32                  # sockets one address may hold (a page load opens six)
MOST_SOCKETS = 256                # sockets in all: nine phones need a few dozen
FILES_KEPT = 256                  # descriptors left for the box's own files, whatever comes
LOG_EVERY = 60.0                  # a line a client can cause is said at most this often
METHODS = ("GET", "HEAD")
METHOD_BYTES = 16                # a request line's method is read within this many bytes
# The names phones ask, over plain HTTP, whether a Wi-Fi reaches the
# internet (Android and ChromeOS; iOS and macOS; Windows; GNOME, Firefox).
# Where the box's own network answers every name with the box, each is
# sent to the page (302): the phone's "sign in to network" sheet opens it.
CAPTIVE_PROBES = frozenset({
    "connectivitycheck.gstatic.com", "connectivitycheck.android.com", "clients1.google.com",
    "clients3.google.com", "captive.apple.com", "www.apple.com", "www.appleiphonecell.com",
    "www.msftconnecttest.com", "www.msftncsi.com", "ipv6.msftconnecttest.com",
    "nmcheck.gnome.org", "detectportal.firefox.com"})


def socket_budget(limit: int | None = None) -> int:
    """How many sockets the phones may hold at once: MOST_SOCKETS, or fewer
    where the process's descriptor limit (`limit`, else its soft limit)
    would leave the box fewer than FILES_KEPT for its saves, its cache,
    its sounds and fonts."""
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return max(0, min(MOST_SOCKETS, limit - FILES_KEPT))


class Bounded:
    """Log lines a client can cause (a refused origin, a flood, a malformed
    message, a wrong PIN): the first of each kind is said at once, the
    next at most once in LOG_EVERY seconds, with how many came between.
    `counts` holds every one, said or not."""

    def __init__(self, clock: Callable[[], float], every: float = LOG_EVERY) -> None:
        self.clock, self.every = clock, every
        self.counts: dict[str, int] = {}
        self._said: dict[str, tuple[float, int]] = {}     # kind: (said when, count then)

    def say(self, kind: str, line: str, *args: object) -> None:
        now = self.clock()
        count = self.counts.get(kind, 0) + 1
        said = self._said.get(kind)
        if said is None or now - said[0] >= self.every:
            unsaid = count - (said[1] if said is not None else 0) - 1
            self._said[kind] = (now, count)
            if unsaid:
                log.warning("phones: " + line + " (and %d more like it since the last said)",
                            *args, unsaid)
            else:
                log.warning("phones: " + line, *args)
        self.counts[kind] = count            # counted once said: a reader then finds the line


class _Gate:
    """The sockets open now, by address: counted when accepted, before the
    HTTP request is read, so a flood holds at most the budget of them.
    When all are taken, a new socket takes the place of the oldest one
    that has not sent its request yet (a phone sends it at once: what sits
    silent is a flood), so sockets opened and left idle keep no phone out."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.open: dict[str, int] = {}
        self.doors: dict[_Door, None] = {}        # oldest first
        self.held = 0

    def enter(self, door: _Door) -> bool:
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

    def leave(self, door: _Door) -> None:
        if self.doors.pop(door, False) is False:
            return                                # let go before: counted once
        self.held -= 1
        left = self.open[door.address] - 1
        if left:
            self.open[door.address] = left
        else:
            del self.open[door.address]


class _Door(ServerConnection):
    """A socket let in only through the gate (`let_in` and `let_go` are the
    server's); one refused is closed before a byte is read from it. A
    request of another method than the page's is answered 405 here, before
    websockets reads it: its parser refuses a request with a body (a POST)
    by closing the socket without a word."""

    let_in: Callable[[_Door], bool]
    let_go: Callable[[_Door], None]
    refused_method: Callable[[_Door, str], None]
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


@dataclass(eq=False)               # each socket is itself: kept in a set by identity
class _Phone:
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


@dataclass(frozen=True)
class Seated:
    """Who holds which seat, and the PIN: a copy for the box's screen (the
    room itself is only ever touched on the server's thread); and the
    phones asking for a guarded seat: (seat, name, code); and how many
    wrong PINs the game has heard (someone may be guessing)."""
    pin: str
    names: Mapping[int, str]
    asking: tuple[tuple[int, str, str], ...] = ()
    wrong: int = 0


@dataclass(eq=False)
class _Asking:
    """A phone asking for a guarded seat, until the box answers."""
    phone: _Phone
    name: str
    code: str


class PhoneServer:
    """The server and its thread. `post` hands an event to the box's inbox;
    `changed` hands the box a copy of who sits where, whenever it changes."""

    def __init__(self, room: Room, post: Callable[[object], None],
                 changed: Callable[[Seated], None], addresses: list[str], port: int,
                 clock: Callable[[], float] = time.monotonic,
                 find: Callable[[], list[str]] | None = None,
                 look_every: float = ADDRESS_LOOK_SECONDS,
                 keep: Callable[[dict[str, Any]], None] = lambda saved: None,
                 names: tuple[str, ...] = (), sockets_at_most: int | None = None,
                 per_address: int = PER_ADDRESS, key_seconds: float = KEY_SECONDS,
                 cover_seconds: float = COVER_SECONDS) -> None:
        self.key_seconds, self.cover_seconds = key_seconds, cover_seconds
        # A secret window (publish's `secret`): its clock's next beat.
        self._covering = False
        self._cover_beat: asyncio.TimerHandle | None = None
        self._beaten: Mapping[int, bytes] = {}     # the views its last beat sent
        # `keep` is handed the room's saved form whenever a seat is taken or
        # let go, so the seats survive a power cut (link.py writes it out).
        self.room, self.post, self.changed, self.keep = room, post, changed, keep
        self.addresses, self.port, self.clock = addresses, port, clock
        # Where the config names no address, the box's local addresses are
        # looked up again now and then (`find`): a box that booted before
        # its Wi-Fi, or was given a new address by DHCP, follows.
        self.find, self.look_every = find, look_every
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="phones",
                                        daemon=True)
        self._servers: dict[str, Server] = {}
        self._gone: list[Server] = []          # servers of addresses gone, still closing
        self._watch: asyncio.Task[None] | None = None
        self._phones: set[_Phone] = set()
        # Seats the box must accept a phone for (the Mayor's console), and
        # the phone asking for each: a socket that joins one right after
        # START is not the console until the Mayor says yes on the box.
        self._guarded: frozenset[int] = frozenset()
        self._asking: dict[int, _Asking] = {}
        self._turned_away: dict[str, float] = {}    # address: when the box last refused it
        self._tasks: set[asyncio.Task[None]] = set()
        self._views: Mapping[int, bytes] = {}
        self._lobby: dict[str, object] = {}
        # The box's key pair (seal.py): new each time the server starts,
        # never written (a key on the SD card would open every capture of
        # the games it sealed). Its public half is in the QR code's address.
        self.key = seal.BoxKey()
        self._files = {path: _page_file(name) for path, (name, _kind) in PAGE_FILES.items()}
        self.urls: list[str] = []
        # The names a phone may reach the box by (besides its addresses):
        # its host name, on the network and by mDNS, and `names` (the own
        # network's captive names). Any other Host is a page elsewhere
        # whose name was pointed at the box (DNS rebinding).
        host = sockets.gethostname().lower()
        self.names = frozenset({host, f"{host}.local", *(n.lower() for n in names)})
        self.said = Bounded(clock)
        self.gate = _Gate(socket_budget() if sockets_at_most is None else sockets_at_most,
                          per_address)
        self._door = type("Door", (_Door,), {"let_in": self._let_in, "let_go": self.gate.leave,
                                             "refused_method": self._refused_method})
        self._loop.set_exception_handler(self._loop_trouble)

    # ------------------------------------------------------- the box's side
    def start(self) -> list[str]:
        """Listen on every address; the page's addresses. OSError (one
        line) if an address cannot be listened on."""
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        try:
            self.urls = future.result(START_SECONDS)
        except OSError:
            self.close()
            raise
        return self.urls

    def pinned(self, url: str) -> str:
        """`url` with the box's public key in its fragment, for the QR code:
        a phone that scans it talks only to the holder of that key."""
        return f"{url}#k={self.key.public}"

    def publish(self, views: Mapping[int, bytes], lobby: Mapping[str, object],
                secret: bool = False) -> None:
        """What each seat's phone shows now (encoded), and the lobby's words
        (the seats and who holds them are the room's): sent to each phone
        whose screen it changes; in a `secret` window (link.covered), on
        the cover's clock instead. Safe from any thread."""
        self._loop.call_soon_threadsafe(self._publish, dict(views), dict(lobby), secret)

    def new_game(self, seats: int) -> None:
        """Another table's game: a new PIN, every seat free. Safe from any thread."""
        self._loop.call_soon_threadsafe(self._new_game, seats, None)

    def next_round(self, seats: int, freed: frozenset[int]) -> None:
        """The same table's next game: a new PIN, every seat kept but those
        past `seats` and in `freed` (room.next_round). Safe from any thread."""
        self._loop.call_soon_threadsafe(self._new_game, seats, frozenset(freed))

    def kept_again(self) -> None:
        """Hand the room to `keep` again (the game it is kept with changed).
        Safe from any thread."""
        self._loop.call_soon_threadsafe(lambda: self.keep(self.room.saved()))

    def resize(self, seats: int) -> None:
        """The table has `seats` seats now. Safe from any thread."""
        self._loop.call_soon_threadsafe(self._resize, seats)

    def free(self, seat: int) -> None:
        """The box lets `seat` go. Safe from any thread."""
        self._loop.call_soon_threadsafe(self._free, seat)

    def guard(self, seats: frozenset[int]) -> None:
        """`seats` are taken only with the box's yes. Safe from any thread."""
        self._loop.call_soon_threadsafe(self._guard, frozenset(seats))

    def answer(self, seat: int, code: str, accept: bool) -> None:
        """The box's answer to the phone asking for `seat` with `code`
        (a phone asking since, with another code, is not answered by it).
        Safe from any thread."""
        self._loop.call_soon_threadsafe(self._answer_asking, seat, code, accept)

    def close(self) -> None:
        """Stop serving: each phone told, the sockets closed, every task
        ended, the loop and its thread stopped. However the shutting down
        fails (a server that will not stop, or takes too long), the tasks,
        the loop and the thread are ended all the same, and the failure is
        raised after: a half-closed server would hold the port and a thread."""
        try:
            if self._thread.is_alive():
                shut = asyncio.run_coroutine_threadsafe(self._shut(), self._loop)
                try:
                    shut.result(START_SECONDS)
                except BaseException:
                    shut.cancel()
                    raise
        finally:
            self._stop()

    def _stop(self) -> None:
        """Every task still on the loop ended, then the loop and its thread."""
        if self._thread.is_alive():
            ended = asyncio.run_coroutine_threadsafe(self._end_tasks(), self._loop)
            try:
                ended.result(START_SECONDS)
            except Exception as e:                  # a task that would not end
                log.warning("phones: a task of the server would not end (%s)",
                            type(e).__name__)
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join(START_SECONDS)
        if self._thread.is_alive():
            log.warning("phones: the server's thread would not stop")
        else:
            self._loop.close()

    # ------------------------------------------------------ the loop's side
    async def _listen(self) -> list[str]:
        self.changed(Seated(self.room.pin, self.room.names()))
        for address in self.addresses:
            await self._serve(address)
        if self.find is not None:
            self._watch = self._loop.create_task(self._follow_addresses())
        self._loop.call_soon(prepare_names)        # before a phone has scanned the code
        return self._urls()

    async def _serve(self, address: str) -> None:
        server = await serve(self._talk, address, self.port, process_request=self._http,
                             max_size=protocol.MAX_MESSAGE_BYTES + seal.OVERHEAD, max_queue=4,
                             compression=None, server_header=None, logger=wire_log,
                             create_connection=self._door)
        self._servers[address] = server
        self.port = server.sockets[0].getsockname()[1]  # port 0 (tests): one for every address

    def _urls(self) -> list[str]:
        return [f"http://{f'[{a}]' if ':' in a else a}:{self.port}/" for a in self._servers]

    async def _follow_addresses(self) -> None:
        """Every few seconds: listen on the box's local addresses as they
        are now, and let the box know when the page's address changed."""
        assert self.find is not None
        while True:
            await asyncio.sleep(self.look_every)
            found = self.find()
            if found == self.addresses:
                continue
            for gone in set(self._servers) - set(found):
                # Closed in the background: a phone that cannot be reached
                # any more holds its socket's close for many seconds, and
                # the box must not show the old address all that time.
                server = self._servers.pop(gone)
                server.close()
                self._gone.append(server)
            for address in found:
                if address not in self._servers:
                    try:
                        await self._serve(address)
                    except OSError as e:       # looked up again at the next look
                        log.warning("phones: cannot listen on %s: %s", address, e.strerror)
            self.addresses = found
            self.urls = self._urls()
            log.info("phones: the page is now at %s", " ".join(self.urls) or "no address")
            self._seated()

    def _seated(self) -> None:
        self.keep(self.room.saved())
        asking = tuple((seat, a.name, a.code) for seat, a in sorted(self._asking.items()))
        self.changed(Seated(self.room.pin, self.room.names(), asking, self.room.wrong))
        for phone in list(self._phones):
            self._send(phone)

    def _new_game(self, seats: int, freed: frozenset[int] | None) -> None:
        if freed is None:
            self.room.new_game(seats)
        else:
            self.room.next_round(seats, freed)
        self._asking.clear()
        self._turned_away.clear()
        self._seated()

    def _guard(self, seats: frozenset[int]) -> None:
        self._guarded = seats
        if any(seat not in seats for seat in self._asking):
            self._asking = {s: a for s, a in self._asking.items() if s in seats}
            self._seated()

    def _answer_asking(self, seat: int, code: str, accept: bool) -> None:
        asking = self._asking.get(seat)
        if asking is None or asking.code != code:
            return                              # gone, or another phone asks now
        del self._asking[seat]
        phone = asking.phone
        if accept and self.room.look_alike(asking.name):
            # another phone took a name like it while the box was asked
            self._seated()
            self._keep(self._loop.create_task(self._write(phone, protocol.encode(
                "refused", why=look_alike_refused().why))))
            return
        if accept and seat not in self.room.held and phone in self._phones \
                and self._seat_held(phone) is None:
            joined = self.room.take(seat, asking.name)
            phone.seat, phone.last_sent = seat, b""
            self._keep(self._loop.create_task(self._write(     # the token, then the view
                phone, protocol.encode("joined", seat=seat, token=joined.token))))
            self._seated()
            return
        if not accept:
            self._turned_away[phone.client] = self.clock()
        self._seated()
        self._keep(self._loop.create_task(self._write(phone, protocol.encode(
            "refused", why=_("The box did not accept this phone for seat {seat}.").format(
                seat=seat)))))

    def _resize(self, seats: int) -> None:
        if seats != self.room.seats:
            self.room.resize(seats)
            self._seated()

    def _free(self, seat: int) -> None:
        if self.room.free(seat):
            self._seated()

    async def _shut(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        self._cover_clock(False)
        for phone in list(self._phones):            # the page says phones are off
            if phone.socket.state is not State.OPEN:
                phone.socket.transport.abort()      # closing (its address gone): let it go
                continue
            try:
                await self._deliver(phone, protocol.encode("bye"))
            except ConnectionClosed:
                pass
        for server in (*self._servers.values(), *self._gone):
            server.close()
            await server.wait_closed()

    async def _end_tasks(self) -> None:
        """The tasks still running (the writes `_keep` holds, the address
        watch, a shut cut short, a socket's handler) cancelled and awaited:
        none is left pending on a closed loop."""
        this = asyncio.current_task()
        left = [task for task in asyncio.all_tasks() if task is not this]
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        self._tasks.clear()
        self._watch = None

    def _refused_method(self, door: _Door, method: str) -> None:
        self.said.say("method", "refused a %s request (%s)", method, door.address[:60])

    def _keyless(self, phone: _Phone) -> None:
        """KEY_SECONDS after the box's key: a socket with no phone's key goes."""
        if phone.channel is not None or phone.closing or phone not in self._phones:
            return
        self.said.say("keyless", "closed a socket that sent no key in %g s (%s)",
                      self.key_seconds, phone.client)
        phone.closing = True
        self._keep(self._loop.create_task(phone.socket.close(1008, "no key")))

    def _let_in(self, door: _Door) -> bool:
        if self.gate.enter(door):
            return True
        self.said.say("full", "refused a socket from %s: %d open from it, %d in all",
                      door.address[:60], self.gate.open.get(door.address, 0), self.gate.held)
        return False

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio would log with a traceback (an accept that failed for
        want of descriptors, many times a second): one line, bounded."""
        trouble = context.get("exception")
        self.said.say("loop", "%s%s", context.get("message", "trouble"),
                      f": {trouble}" if trouble is not None else "")

    def _own_host(self, host: str, port: int | None = None) -> bool:
        """Whether `host` (a request's Host header) names the box itself: one
        of its addresses or names, with `port` (the port it listens on)."""
        host = host.strip().lower()
        name, _colon, given = host.rpartition(":") if not host.endswith("]") else ("", "", "")
        if not _colon:
            name, given = host, "80"
        if not given.isdigit() or int(given) != (self.port if port is None else port):
            return False
        name = name.removeprefix("[").removesuffix("]")
        return name in self.names or name in self._servers

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """The page's files, or the socket's handshake (the box's own Host,
        the same origin)."""
        path = urlsplit(request.path).path
        client = self._client(connection)
        hosts = request.headers.get_all("Host")
        host = hosts[0] if len(hosts) == 1 else ""
        if host.lower().partition(":")[0] in CAPTIVE_PROBES and request.method in METHODS:
            return self._captive(connection)
        if self.port != 80 and self._own_host(host, 80) and request.method in METHODS:
            # The box's address typed as it is, no port: on its own Wi-Fi the
            # captive rule (systemd/captive.nft) brings port 80 here.
            return self._captive(connection)
        if not self._own_host(host):
            self.said.say("host", "refused a request for another host (%s): %s",
                          client, host[:80])
            return connection.respond(HTTPStatus.MISDIRECTED_REQUEST, "Misdirected Request\n")
        if request.method not in METHODS:
            self.said.say("method", "refused a %s request (%s)", request.method[:10], client)
            response = connection.respond(HTTPStatus.METHOD_NOT_ALLOWED, "Method Not Allowed\n")
            response.headers["Allow"] = ", ".join(METHODS)
            return response
        if path == SOCKET_PATH:
            origins = request.headers.get_all("Origin")
            if len(origins) > 1 or any(origin != f"http://{host}" for origin in origins):
                origin = " ".join(origins)
                self.said.say("origin", "refused a phone socket from another origin (%s): %s",
                              client, origin[:80])
                return connection.respond(HTTPStatus.FORBIDDEN, "Forbidden\n")
            return None
        if path == "/favicon.ico":                # asked by every browser: there is none
            return Response(HTTPStatus.NO_CONTENT, "No Content", Headers(SECURITY_HEADERS))
        if path not in self._files:
            return connection.respond(HTTPStatus.NOT_FOUND, "Not found\n")
        body, zipped = self._files[path]
        headers = Headers({**SECURITY_HEADERS, "Content-Type": PAGE_FILES[path][1]})
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"], body = "gzip", zipped
        headers["Content-Length"] = str(len(body))
        return Response(HTTPStatus.OK, "OK", headers, body if request.method == "GET" else b"")

    def _captive(self, connection: ServerConnection) -> Response:
        """A phone's captive-portal probe: not the answer it expects (204,
        "Success", "Microsoft Connect Test"), but the page, at the address
        the phone reached the box by."""
        local = connection.local_address
        address = str(local[0]) if local else ""
        if address not in self._servers:
            address = next(iter(self._servers), "")
        where = f"http://{f'[{address}]' if ':' in address else address}:{self.port}/"
        return Response(HTTPStatus.FOUND, "Found", Headers(
            {**SECURITY_HEADERS, "Location": where, "Content-Length": "0"}), b"")

    @staticmethod
    def _client(connection: ServerConnection) -> str:
        remote = connection.remote_address
        return str(remote[0])[:60] if remote else "?"

    async def _talk(self, socket: ServerConnection) -> None:
        remote = socket.remote_address
        phone = _Phone(socket, str(remote[0]) if remote else "?")
        self._phones.add(phone)
        keyless: asyncio.TimerHandle | None = None
        try:
            # The box's key, in the clear: a page opened from the typed
            # address has no other; one opened from the QR code checks it
            # against the key in its address (and shows `other` if it differs).
            await socket.send(protocol.encode("key", k=self.key.public,
                                              c=seal.text(phone.challenge), other=_(
                "This page was opened for another start of the box: scan the QR code "
                "on the box again.")), text=True)
            keyless = self._loop.call_later(self.key_seconds, self._keyless, phone)
            async for raw in socket:
                if phone.closing:
                    continue                    # read on to the close, dropping the rest
                if phone.owed > 0:
                    phone.owed -= 1             # a beat's answer (`_cover_clock`)
                elif not self._in_rate(phone):
                    self.said.say("fast", "closed a phone that sent too fast (%s)",
                                  phone.client)
                    phone.closing = True
                    self._keep(self._loop.create_task(socket.close(1008, "too fast")))
                    continue
                try:
                    message = self._opened(phone, raw)
                except protocol.MalformedMessage as e:
                    if not phone.refused_once:
                        phone.refused_once = True
                        self.said.say("malformed", "refused a phone's message (%s): %s",
                                      phone.client, str(e)[:120])
                    continue
                except seal.Unsealable as e:
                    # Tampered, replayed or not this socket's: nothing after
                    # it can be trusted, so the socket goes (the page opens
                    # a new one, with a new key of its own).
                    self.said.say("unsealable", "closed a phone whose frame did not open "
                                  "(%s): %s", phone.client, str(e)[:120])
                    phone.closing = True
                    self._keep(self._loop.create_task(socket.close(1008, "unsealable")))
                    continue
                if message is not None:
                    await self._answer(phone, message)
        except ConnectionClosed:
            pass
        finally:
            if keyless is not None:
                keyless.cancel()
            self._phones.discard(phone)
            gone = [seat for seat, a in self._asking.items() if a.phone is phone]
            for seat in gone:                   # its question goes with it
                del self._asking[seat]
            if gone:
                self._seated()

    def _opened(self, phone: _Phone, raw: str | bytes) -> protocol.Incoming | None:
        """A phone's message: its key first, in the clear (None: nothing to
        answer), then only sealed frames. MalformedMessage for a message
        that is not one; Unsealable for a frame that does not open."""
        if phone.channel is None:
            if not isinstance(raw, str):
                raise protocol.MalformedMessage("a sealed frame before the phone's key")
            phone.channel = self.key.channel(protocol.read_seal(raw).k, phone.challenge)
            return None
        if isinstance(raw, str):
            raise protocol.MalformedMessage("a message in the clear after the phone's key")
        return protocol.read(phone.channel.open(raw))

    def _in_rate(self, phone: _Phone) -> bool:
        now = self.clock()
        phone.times = [t for t in phone.times if now - t < 1.0] + [now]
        return len(phone.times) <= MESSAGES_PER_SECOND

    async def _answer(self, phone: _Phone, message: protocol.Incoming) -> None:
        match message:
            case protocol.Hello(token=token):
                # A socket keeps the seat it holds (a hello with no token
                # or another's does not free it for a second seat).
                found = self.room.seat_of(token) if token else None
                phone.seat = found if found is not None else self._seat_held(phone)
                if found is not None:
                    self._one_socket(phone)
                    await self._deliver(phone, protocol.encode("joined", seat=phone.seat,
                                                               token=token))
                self._send(phone, force=True)
            case protocol.Join() if phone.superseded:
                await self._deliver(phone, protocol.encode("refused", why=_(
                    "This phone's seat is open on another page: use that one, or reload "
                    "this page to take it back here.")))
            case protocol.Join() if self._seat_held(phone) is not None:
                await self._deliver(phone, protocol.encode("refused", why=_(
                    "This phone holds seat {seat} already: one phone, one seat.").format(
                        seat=phone.seat)))
            case protocol.Join(pin=pin, seat=seat, name=name) if seat in self._guarded:
                await self._ask(phone, pin, seat, name)
            case protocol.Join(pin=pin, seat=seat, name=name):
                wrong = self.room.wrong
                result = self.room.join(phone.client, pin, seat, name, self.clock(),
                                        self._label(seat))
                if self.room.wrong != wrong:        # the box's screen shows the count
                    self.said.say("pin", "a wrong PIN from %s", phone.client)
                    self._seated()
                if isinstance(result, Joined):
                    phone.seat = result.seat
                    self._seated()              # the box hears of it before the phone does
                    await self._deliver(phone, protocol.encode("joined", seat=result.seat,
                                                               token=result.token))
                    phone.last_sent = b""
                else:
                    await self._deliver(phone, protocol.encode("refused", why=result.why))
            case protocol.Choose(step=step, choice=choice):
                if phone.seat is not None and phone.seat in self.room.held:
                    self.post(PhoneChoice(phone.seat, step, tuple(choice)))
            case protocol.Cover():
                pass                                # a secret window's clock: nothing in it

    def _label(self, seat: int) -> str:
        labels = self._lobby.get("labels")
        return str(labels.get(str(seat), "")) if isinstance(labels, dict) else ""

    async def _ask(self, phone: _Phone, pin: str, seat: int, name: str) -> None:
        """A phone asks for a guarded seat: checked as any join, then held
        for the box's answer, with a code shown on the phone and the box
        alike (the Mayor accepts the code their own phone shows). One phone
        asks at a time: another is refused until the box has answered."""
        wrong = self.room.wrong
        refused = self.room.may_join(phone.client, pin, seat, name, self.clock(),
                                     self._label(seat))
        if self.room.wrong != wrong:
            self.said.say("pin", "a wrong PIN from %s", phone.client)
            self._seated()
        asking = self._asking.get(seat)
        now = self.clock()
        since = now - self._turned_away.get(phone.client, -REFUSED_WAIT)
        if refused is None and since < REFUSED_WAIT:
            # Refused on the box: the same address may not ask again at
            # once, or one player could hold the Mayor's phone off for good.
            refused = JoinRefused(_("The box refused this phone: try again in {seconds} s.")
                                  .format(seconds=math.ceil(REFUSED_WAIT - since)))
        if refused is None and asking is not None and asking.phone is not phone:
            refused = JoinRefused(_("Another phone is asking for seat {seat}: the box answers "
                                    "it first.").format(seat=seat))
        if refused is not None:
            await self._deliver(phone, protocol.encode("refused", why=refused.why))
            return
        if asking is None:
            label = self._label(seat)
            self._asking[seat] = asking = _Asking(
                phone, clean_name(name) or label or _("Seat {seat}").format(seat=seat),
                new_pin())
            self._seated()
        await self._deliver(phone, protocol.encode("asking", why=_(
            "The box must accept this phone for seat {seat}: on the box, accept code "
            "{code}.").format(seat=seat, code=asking.code)))

    def _seat_held(self, phone: _Phone) -> int | None:
        """The seat `phone` holds now (None once the box freed it)."""
        return phone.seat if phone.seat in self.room.held else None

    def _one_socket(self, phone: _Phone) -> None:
        """A seat is seen through one socket: the newest with its token.
        The token lives on one phone only, so a second socket with it is
        that phone again (a reload, a tab reopened, a Wi-Fi come back while
        the box still holds the old socket, which can take a minute to die);
        refusing it would lock the player out of their own seat. The older
        socket goes back to the lobby and hears no more of the seat."""
        for other in self._phones:
            if other is not phone and other.seat == phone.seat:
                other.seat, other.superseded = None, True
                self._send(other, force=True)

    def _publish(self, views: dict[int, bytes], lobby: dict[str, object],
                 secret: bool = False) -> None:
        # When any seat's view changes, every seated phone is sent a frame
        # (its own, the same size as the others'): which phones hear from
        # the box must not tell whose card or choice moved. Each phone is
        # sent the view of this publish, in order, however busy the loop:
        # a result shown for a moment (an answer tapped late in a call) is
        # never skipped because a later view was published before it went.
        # In a secret window, only on the cover's clock (`_cover_clock`).
        every = views != self._views
        edge = secret != self._covering
        if edge and not secret and self._views != self._beaten:
            # The window ends: what changed in it since its last beat (an
            # answer tapped late in a call) goes first, on a last beat.
            self._beat()
        self._views, self._lobby = views, lobby
        if edge:
            self._cover_clock(secret)
        for phone in list(self._phones):
            self._send(phone, force=(every or edge) and phone.seat is not None, beat=edge)

    def _cover_clock(self, on: bool) -> None:
        """A secret window opens or ends (issue 41.3). While it lasts, every
        seated phone is sent its view now and every `cover_seconds` after,
        changed or not, and nothing between: a Wolf's partner's mark, a
        Seer's answer or a tap's own mark waits for the next beat, so the
        box's frames to each phone come at the same times, whoever acted.
        The page answers each such frame with one of its own, a tap riding
        in it or a cover frame (app.js), so the phones' frames are as even.
        The window's start and end are the whole table's: every phone is
        sent a frame at each, at once."""
        self._covering = on
        if self._cover_beat is not None:
            self._cover_beat.cancel()
            self._cover_beat = None
        if on:
            self._beaten = self._views
            self._cover_beat = self._loop.call_at(self._loop.time() + self.cover_seconds,
                                                  self._cover_tick)

    def _cover_tick(self) -> None:
        assert self._cover_beat is not None
        # The next beat a period after this one was due (a late loop does
        # not bunch the beats after it), never in the past.
        due = max(self._cover_beat.when() + self.cover_seconds, self._loop.time())
        self._cover_beat = self._loop.call_at(due, self._cover_tick)
        self._beat()

    def _beat(self) -> None:
        """Every seated phone its view, now, on the cover's clock."""
        self._beaten = self._views
        for phone in list(self._phones):
            if phone.seat is not None:
                self._send(phone, force=True, beat=True)

    def _send(self, phone: _Phone, force: bool = False, beat: bool = False) -> None:
        """Choose `phone`'s frame now and queue it: frames leave in the
        order they were chosen (tasks start in the order they are made,
        and each writes its frame before it first waits). In a secret
        window a seated phone's frame goes only on a `beat` of its clock."""
        if phone.channel is None:
            return                              # its key first: nothing goes in the clear
        if phone.seat is not None and phone.seat not in self.room.held:
            phone.seat = None                   # freed on the box, or past the table now
        if phone.seat is not None and self._covering and not beat:
            return                              # the next beat sends it
        if phone.seat is not None:
            shown = self._views.get(phone.seat, b"")
        elif self._lobby:
            # Before the PIN, what joining needs: which seats are free, and
            # no player's name (anyone on the Wi-Fi may open the page).
            shown = protocol.encode("lobby", **self._lobby, seats=self.room.seats,
                                    taken={str(k): "" for k in sorted(self.room.held)})
        else:
            shown = b""
        if shown and (force or shown != phone.last_sent):
            phone.last_sent = shown
            if beat and phone.seat is not None and self._covering:
                phone.owed = min(phone.owed + 1, MESSAGES_PER_SECOND)
            self._keep(self._loop.create_task(self._write(phone, shown)))

    def _keep(self, task: asyncio.Task[None]) -> None:
        """A task is held until it ends (the loop keeps only a weak reference)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, phone: _Phone, frame: bytes) -> None:
        try:
            await self._deliver(phone, frame)
        except ConnectionClosed:
            pass

    async def _deliver(self, phone: _Phone, message: bytes) -> None:
        """The one way a message reaches a phone: padded (protocol.framed),
        sealed with the next count as it is handed to the socket, so the
        counts follow the order the frames travel in. A phone that has not
        sent its key yet is sent nothing."""
        if phone.channel is not None:
            await phone.socket.send(phone.channel.seal(protocol.framed(message)), text=False)


def _page_file(name: str) -> tuple[bytes, bytes]:
    body = resources.files(__package__).joinpath("page", name).read_bytes()
    return body, gzip.compress(body, mtime=0)
