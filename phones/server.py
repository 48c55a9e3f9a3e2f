"""The phones' web server: the page and one WebSocket a phone, served by
the box itself on the local network, in a thread of its own.

It uses `websockets` (asyncio): the page's files are answered in the
handshake hook, everything else travels on the socket. Its resident cost
is a few MB, where a full web framework would have taken most of the
30 MB the phones may add to the box.

What a phone sends becomes an event in the box's inbox (`post`), never a
change to a game; what it is sent is what the box publishes for its seat
(`publish`), or the lobby while it holds none. Security: it listens only
on the addresses given (the local network, loopback in tests); after
the phone's key every frame, both ways, is sealed (seal.py), so tokens,
PINs and cards travel only sealed, and tokens are compared in constant
time (room.py); every message is checked (protocol.py), capped in size
and in rate, and a bad one is refused and logged once per connection.

This module wires the server's parts, each a module of its own:

- gate.py: sockets counted and let go before any HTTP (a flood on the Wi-Fi)
- bounded.py: every log line a client can cause, said once then once a minute
- portal.py: the page's files, the Host and origin checks, the captive portal
- publish.py: which frame each phone is sent, and when (the secret windows)
- asking.py: a phone asking for a guarded seat, until the box answers

and holds what is left between them: the thread and its loop, listening
on the box's addresses as they change, a socket's life (its key, its
rate, its messages) and the seats taken through it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from wolfbox.events import PhoneChoice
from wolfbox.i18n import _

from . import protocol, seal
from .asking import Asking
from .bounded import Bounded, log
from .gate import PER_ADDRESS, Gate, doors, socket_budget
from .portal import Portal, page_url
from .publish import COVER_SECONDS, MESSAGES_PER_SECOND, Phone, Publisher
from .room import Joined, Room, prepare_names

# The library's own lines (a connection opened or closed, a page served) are
# for debugging: a table's phones would fill the box's terminal and journal.
wire_log = logging.getLogger("wolfbox.phones.wire")
wire_log.setLevel(logging.WARNING)

START_SECONDS = 10.0              # how long the server may take to start listening
# A socket that has not sent its phone's key this long after the box's is
# closed: a page sends it at once, so what sits keyless holds a place a
# phone may need (sockets handshaken and left idle kept phones out).
KEY_SECONDS = 5.0
ADDRESS_LOOK_SECONDS = 10.0       # how often the box's own addresses are looked up again


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
        self.key_seconds = key_seconds
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
        self._phones: set[Phone] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        # The box's key pair (seal.py): new each time the server starts,
        # never written (a key on the SD card would open every capture of
        # the games it sealed). Its public half is in the QR code's address.
        self.key = seal.BoxKey()
        self.urls: list[str] = []
        self.said = Bounded(clock)
        self.gate = Gate(socket_budget() if sockets_at_most is None else sockets_at_most,
                         per_address)
        self._door = doors(self.gate, self.said)
        self.portal = Portal(self.said, lambda: self.port, lambda: self._servers, names)
        # Every frame goes through `_deliver`, looked up at each send.
        self.publisher = Publisher(self._loop, room, self._phones,
                                   lambda phone, frame: self._deliver(phone, frame),
                                   self._keep, cover_seconds)
        self.asking: Asking[Phone] = Asking(room, clock, self.said, self._seated,
                                            self.publisher.queue, self._may_sit)
        self._loop.set_exception_handler(self._loop_trouble)

    @property
    def _views(self) -> Mapping[int, bytes]:
        """What each seat's phone was last published (the tests read it)."""
        return self.publisher.views

    # ------------------------------------------------------- the box's side
    def start(self) -> list[str]:
        """Listen on every address; the page's addresses. OSError (one
        line) if an address cannot be listened on."""
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        try:
            # Not assigned here: by the time this thread wakes, the loop's
            # address follower may have set newer ones (a busy machine).
            return future.result(START_SECONDS)
        except OSError:
            self.close()
            raise

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
        self._loop.call_soon_threadsafe(self.publisher.publish, dict(views), dict(lobby),
                                        secret)

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
        self._loop.call_soon_threadsafe(self.asking.guard, frozenset(seats))

    def answer(self, seat: int, code: str, accept: bool) -> None:
        """The box's answer to the phone asking for `seat` with `code`
        (a phone asking since, with another code, is not answered by it).
        Safe from any thread."""
        self._loop.call_soon_threadsafe(self.asking.answer, seat, code, accept)

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
        self.urls = self._urls()
        return self.urls

    async def _serve(self, address: str) -> None:
        server = await serve(self._talk, address, self.port, process_request=self.portal.answer,
                             max_size=protocol.MAX_MESSAGE_BYTES + seal.OVERHEAD, max_queue=4,
                             compression=None, server_header=None, logger=wire_log,
                             create_connection=self._door)
        self._servers[address] = server
        self.port = server.sockets[0].getsockname()[1]  # port 0 (tests): one for every address

    def _urls(self) -> list[str]:
        return [page_url(a, self.port) for a in self._servers]

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
        self.changed(Seated(self.room.pin, self.room.names(), self.asking.shown(),
                            self.room.wrong))
        for phone in list(self._phones):
            self.publisher.send(phone)

    def _new_game(self, seats: int, freed: frozenset[int] | None) -> None:
        if freed is None:
            self.room.new_game(seats)
        else:
            self.room.next_round(seats, freed)
        self.asking.new_game()
        self._seated()

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
        self.publisher.cover_clock(False)
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

    def _keyless(self, phone: Phone) -> None:
        """KEY_SECONDS after the box's key: a socket with no phone's key goes."""
        if phone.channel is not None or phone.closing or phone not in self._phones:
            return
        self.said.say("keyless", "closed a socket that sent no key in %g s (%s)",
                      self.key_seconds, phone.client)
        phone.closing = True
        self._keep(self._loop.create_task(phone.socket.close(1008, "no key")))

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio would log with a traceback (an accept that failed for
        want of descriptors, many times a second): one line, bounded."""
        trouble = context.get("exception")
        self.said.say("loop", "%s%s", context.get("message", "trouble"),
                      f": {trouble}" if trouble is not None else "")

    async def _talk(self, socket: ServerConnection) -> None:
        remote = socket.remote_address
        phone = Phone(socket, str(remote[0]) if remote else "?")
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
                    phone.owed -= 1             # a beat's answer (publish.py's cover clock)
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
            self.asking.forget(phone)

    def _opened(self, phone: Phone, raw: str | bytes) -> protocol.Incoming | None:
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

    def _in_rate(self, phone: Phone) -> bool:
        now = self.clock()
        phone.times = [t for t in phone.times if now - t < 1.0] + [now]
        return len(phone.times) <= MESSAGES_PER_SECOND

    async def _answer(self, phone: Phone, message: protocol.Incoming) -> None:
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
                self.publisher.send(phone, force=True)
            case protocol.Join() if phone.superseded:
                await self._deliver(phone, protocol.encode("refused", why=_(
                    "This phone's seat is open on another page: use that one, or reload "
                    "this page to take it back here.")))
            case protocol.Join() if self._seat_held(phone) is not None:
                await self._deliver(phone, protocol.encode("refused", why=_(
                    "This phone holds seat {seat} already: one phone, one seat.").format(
                        seat=phone.seat)))
            case protocol.Join(pin=pin, seat=seat, name=name) if seat in self.asking.guarded:
                await self._deliver(phone, self.asking.ask(phone, pin, seat, name,
                                                           self.publisher.label(seat)))
            case protocol.Join(pin=pin, seat=seat, name=name):
                wrong = self.room.wrong
                result = self.room.join(phone.client, pin, seat, name, self.clock(),
                                        self.publisher.label(seat))
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

    def _seat_held(self, phone: Phone) -> int | None:
        """The seat `phone` holds now (None once the box freed it)."""
        return phone.seat if phone.seat in self.room.held else None

    def _may_sit(self, phone: Phone) -> bool:
        """Whether `phone` may take a seat the box accepted it for: its
        socket still open, no seat held."""
        return phone in self._phones and self._seat_held(phone) is None

    def _one_socket(self, phone: Phone) -> None:
        """A seat is seen through one socket: the newest with its token.
        The token lives on one phone only, so a second socket with it is
        that phone again (a reload, a tab reopened, a Wi-Fi come back while
        the box still holds the old socket, which can take a minute to die);
        refusing it would lock the player out of their own seat. The older
        socket goes back to the lobby and hears no more of the seat."""
        for other in self._phones:
            if other is not phone and other.seat == phone.seat:
                other.seat, other.superseded = None, True
                self.publisher.send(other, force=True)

    def _keep(self, task: asyncio.Task[None]) -> None:
        """A task is held until it ends (the loop keeps only a weak reference)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, phone: Phone, message: bytes) -> None:
        """The one way a message reaches a phone: padded (protocol.framed),
        sealed with the next count as it is handed to the socket, so the
        counts follow the order the frames travel in. A phone that has not
        sent its key yet is sent nothing."""
        if phone.channel is not None:
            await phone.socket.send(phone.channel.seal(protocol.framed(message)), text=False)
