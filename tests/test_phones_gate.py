"""The gate before the handshake (phones/gate.py), alone: the count of
sockets by address and in all, the oldest silent socket making room, a
request of another method answered before websockets reads it; and the
seam the gate relies on, websockets' asyncio protocol callbacks, checked
against the installed version on a real loopback connection.

The server as a whole under a flood is tests/test_phones_outsiders.py."""

from __future__ import annotations

import asyncio
import inspect
import logging
from dataclasses import dataclass, field
from http import HTTPStatus

import websockets
from test_phones import FakeClock
from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from wolfbox.phones.bounded import Bounded
from wolfbox.phones.gate import METHOD_BYTES, Door, Gate, doors, socket_budget

WAIT = 10.0          # only a bound: each wait ends on the server's own doing
WEBSOCKETS = websockets.version.version
SEAM = (f"websockets {WEBSOCKETS}: the phones' gate (phones/gate.py, Door) overrides "
        "ServerConnection.connection_made, data_received and connection_lost, the asyncio "
        "protocol callbacks of websockets' asyncio server, and hands its class to serve() as "
        "create_connection; pyproject.toml pins websockets to the versions this holds for")


# ------------------------------------------------------------ the count alone
@dataclass(eq=False)
class Transport:
    aborted: bool = False

    def abort(self) -> None:
        self.aborted = True


@dataclass(eq=False)
class Socket:
    """What the gate reads of a door: its address, whether its request came."""
    address: str
    request: object | None = None
    transport: Transport = field(default_factory=Transport)


def test_the_budget_keeps_a_reserve_of_descriptors_for_the_box_s_own_files():
    assert socket_budget(1024) == 256 and socket_budget(4096) == 256
    assert socket_budget(300) == 44 and socket_budget(100) == 0


def test_an_address_holds_its_share_and_no_more():
    gate = Gate(total=10, per_address=2)
    a = [Socket("10.0.0.2") for _ in range(3)]
    assert [gate.enter(s) for s in a] == [True, True, False]
    assert gate.enter(Socket("10.0.0.3"))
    assert gate.open == {"10.0.0.2": 2, "10.0.0.3": 1} and gate.held == 3
    gate.leave(a[0])
    assert gate.enter(a[2]) and gate.open["10.0.0.2"] == 2


def test_when_all_places_are_taken_the_oldest_silent_socket_makes_room():
    gate = Gate(total=3, per_address=3)
    talked, silent, later = Socket("10.0.0.2", request="GET /"), Socket("10.0.0.3"), \
        Socket("10.0.0.4")
    for s in (talked, silent, later):
        assert gate.enter(s)
    phone = Socket("10.0.0.5")
    assert gate.enter(phone)
    assert silent.transport.aborted and not later.transport.aborted
    assert not talked.transport.aborted
    assert list(gate.doors) == [talked, later, phone] and gate.held == 3
    assert "10.0.0.3" not in gate.open


def test_a_socket_that_spoke_is_never_put_out_for_another():
    gate = Gate(total=2, per_address=2)
    spoke = [Socket(f"10.0.0.{n}", request="GET /") for n in (2, 3)]
    for s in spoke:
        assert gate.enter(s)
    assert not gate.enter(Socket("10.0.0.4"))
    assert not any(s.transport.aborted for s in spoke) and gate.held == 2


def test_a_socket_let_go_twice_is_counted_once():
    gate = Gate(total=4, per_address=4)
    s, other = Socket("10.0.0.2"), Socket("10.0.0.2")
    gate.enter(s)
    gate.enter(other)
    gate.leave(s)
    gate.leave(s)
    assert gate.held == 1 and gate.open == {"10.0.0.2": 1}
    gate.leave(Socket("10.0.0.9"))             # never let in: nothing
    assert gate.held == 1


# ------------------------------------------------ the doors, on real sockets
class Watched(Gate):
    """A gate that signals each socket let go (the server's own doing)."""

    def __init__(self, total: int, per_address: int) -> None:
        super().__init__(total, per_address)
        self.entered: list[Door] = []
        self.left = asyncio.Event()

    def enter(self, door: Door) -> bool:
        self.entered.append(door)
        return super().enter(door)

    def leave(self, door: Door) -> None:
        super().leave(door)
        self.left.set()


class Served:
    """A websockets server on loopback whose sockets come through `gate`
    (the server's own wiring: doors() as create_connection), answering a
    page request with 200 and a socket's handshake with one message."""

    def __init__(self, gate: Gate) -> None:
        self.gate, self.said = gate, Bounded(FakeClock())
        self.handled = 0
        self.server: Server | None = None
        self.heard = asyncio.Event()            # a socket's bytes reached its door
        heard = self.heard

        class Heard(doors(gate, self.said)):
            def data_received(self, data: bytes) -> None:
                heard.set()
                super().data_received(data)
        self.door = Heard

    async def handler(self, socket: ServerConnection) -> None:
        self.handled += 1
        await socket.send("in")
        await socket.wait_closed()              # open until the client closes it

    def page(self, connection: ServerConnection, request: Request) -> Response | None:
        return None if request.path == "/ws" else connection.respond(HTTPStatus.OK, "page\n")

    async def __aenter__(self) -> Served:
        self.server = await serve(self.handler, "127.0.0.1", 0, process_request=self.page,
                                  create_connection=self.door,
                                  logger=logging.getLogger("tests.gate.wire"))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    async def ask(self, *parts: bytes) -> bytes:
        """`parts` written one at a time, each once the last reached the
        box; the whole answer, until the box closes the socket (b"" if it
        closed it before a word)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            for n, part in enumerate(parts):
                self.heard.clear()
                writer.write(part)
                await writer.drain()
                if n < len(parts) - 1:
                    await asyncio.wait_for(self.heard.wait(), WAIT)
            return await asyncio.wait_for(reader.read(), WAIT)
        except (ConnectionResetError, BrokenPipeError):
            return b""
        finally:
            writer.close()


def run(test) -> None:
    asyncio.run(asyncio.wait_for(test(), 3 * WAIT))


def test_a_socket_refused_at_the_gate_is_closed_before_a_byte_is_read():
    async def test() -> None:
        gate = Watched(total=0, per_address=4)
        async with Served(gate) as served:
            answer = await served.ask(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert answer == b""
            assert served.handled == 0 and served.said.counts == {"full": 1}
            assert gate.held == 0 and gate.entered and not gate.entered[0].started
    run(test)


def test_another_method_is_answered_405_before_websockets_reads_it():
    """A POST with a body: websockets' parser would close it without a word."""
    async def test() -> None:
        async with Served(Watched(total=8, per_address=8)) as served:
            answer = await served.ask(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                      b"Content-Length: 5\r\n\r\nhello")
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.split(b"\r\n")[0] == b"HTTP/1.1 405 Method Not Allowed"
            assert b"Allow: GET, HEAD" in head.split(b"\r\n") and body == b"Method Not Allowed\n"
            assert served.said.counts == {"method": 1}
    run(test)


def test_a_method_is_read_whole_however_it_arrives():
    """A request line cut before its method ends is waited for; a method
    with no end in sight is judged by its first bytes."""
    async def test() -> None:
        async with Served(Watched(total=8, per_address=8)) as served:
            answer = await served.ask(b"GE", b"T / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                             b"Connection: close\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"page\n")
            answer = await served.ask(b"G" * METHOD_BYTES)
            assert answer.startswith(b"HTTP/1.1 405 Method Not Allowed")
            assert served.said.counts == {"method": 1}
    run(test)


def test_the_seam_into_websockets_holds_for_the_installed_version():
    """The gate overrides asyncio protocol callbacks of websockets' own
    connection class: were a new websockets to rename them, move them or
    make its connections another way, the gate would be skipped without
    a sound and every socket let in. This says so, naming the version."""
    for name in ("connection_made", "data_received", "connection_lost"):
        own = getattr(ServerConnection, name, None)
        assert own is not None and own is not getattr(asyncio.Protocol, name), \
            f"{SEAM}: ServerConnection.{name} is not websockets' own any more"
        assert name in vars(Door), f"{SEAM}: Door no longer overrides {name}"
    assert "create_connection" in inspect.signature(serve).parameters, \
        f"{SEAM}: serve() takes no create_connection"

    async def test() -> None:
        gate = Watched(total=8, per_address=8)
        async with Served(gate) as served:
            uri = f"ws://127.0.0.1:{served.port}/ws"
            async with connect(uri, open_timeout=WAIT) as phone:
                assert await asyncio.wait_for(phone.recv(), WAIT) == "in"
                assert len(gate.entered) == 1 and gate.entered[0].started, \
                    f"{SEAM}: a connection came in without Door.connection_made"
                assert gate.held == 1 and gate.open == {"127.0.0.1": 1}, \
                    f"{SEAM}: a connection was not counted at the gate"
            await asyncio.wait_for(gate.left.wait(), WAIT)
            assert gate.held == 0, f"{SEAM}: a connection closed without Door.connection_lost"
    run(test)
