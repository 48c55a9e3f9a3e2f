"""The phones' HTTP side (phones/portal.py), alone: which Host is the box,
the page's files and their headers, the captive portal's redirect, and
what is refused, each over a real loopback socket to a websockets server
whose only hook is the portal (no gate, no seats, no game).

The same answers through the whole server: tests/test_phones.py and
tests/test_phones_outsiders.py."""

from __future__ import annotations

import asyncio
import gzip
import logging
import socket

import pytest
from test_phones import FakeClock
from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve

from wolfbox.phones.bounded import Bounded
from wolfbox.phones.portal import PAGE_FILES, SECURITY_HEADERS, Portal, page_file

WAIT = 10.0          # only a bound: each wait ends on the server's answer
HOST = socket.gethostname().lower()


def test_the_box_s_own_host_is_its_addresses_and_names_at_its_port():
    portal = Portal(Bounded(FakeClock()), lambda: 8080, lambda: ("10.42.0.1", "fd00::1"),
                    names=("Wolfbox.LAN",))
    for host in ("10.42.0.1:8080", "[fd00::1]:8080", "wolfbox.lan:8080", " WOLFBOX.lan:8080",
                 f"{HOST}:8080", f"{HOST}.local:8080"):
        assert portal.own_host(host), host
    for host in ("10.42.0.1", "10.42.0.1:80", "10.42.0.2:8080", "evil.example:8080",
                 "10.42.0.1:80x", "10.42.0.1:", "", "[fd00::1]",
                 "wolfbox.lan.evil.example:8080"):
        assert not portal.own_host(host), host
    # no port is port 80: the box's address typed as it is
    assert portal.own_host("10.42.0.1", 80) and portal.own_host("[fd00::1]", 80)
    assert not portal.own_host("10.42.0.1:8080", 80)


class Page:
    """A websockets server on loopback answering through a Portal."""

    def __init__(self) -> None:
        self.said = Bounded(FakeClock())
        self.server: Server | None = None
        self.portal = Portal(self.said, lambda: self.port, lambda: {"127.0.0.1": None},
                             names=("wolfbox.lan",))

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    async def handler(self, socket: ServerConnection) -> None:
        await socket.send("socket")
        await socket.wait_closed()

    async def __aenter__(self) -> Page:
        self.server = await serve(self.handler, "127.0.0.1", 0,
                                  process_request=self.portal.answer, server_header=None,
                                  logger=logging.getLogger("tests.portal.wire"))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def get(self, path: str = "/", host: str | None = None, method: str = "GET",
                  **headers: str) -> tuple[int, dict[str, str], bytes]:
        """One request; (status, headers by lower-case name, body)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1",
                 f"Host: {host if host is not None else f'127.0.0.1:{self.port}'}",
                 *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items())]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            answer = await asyncio.wait_for(reader.read(), WAIT)
        finally:
            writer.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        status, *fields = head.decode().split("\r\n")
        named = {k.lower(): v for k, _, v in (f.partition(": ") for f in fields)}
        return int(status.split()[1]), named, body


def run(test) -> None:
    asyncio.run(asyncio.wait_for(test(), 3 * WAIT))


@pytest.mark.parametrize("path", sorted(PAGE_FILES))
def test_each_file_of_the_page_is_served_with_its_type_and_the_strict_policy(path):
    async def test() -> None:
        async with Page() as page:
            status, headers, body = await page.get(path)
            assert status == 200 and body == page_file(PAGE_FILES[path][0])[0]
            assert headers["content-type"] == PAGE_FILES[path][1]
            for name, value in SECURITY_HEADERS.items():
                assert headers[name.lower()] == value
            status, headers, zipped = await page.get(path, Accept_Encoding="gzip, br")
            assert headers["content-encoding"] == "gzip" and gzip.decompress(zipped) == body
            assert headers["content-length"] == str(len(zipped))
            status, headers, empty = await page.get(path, method="HEAD")
            assert status == 200 and empty == b"" and headers["content-length"] == str(len(body))
    run(test)


def test_a_request_for_another_host_is_refused_and_said():
    async def test() -> None:
        async with Page() as page:
            assert (await page.get(host="evil.example"))[0] == 421
            assert (await page.get(host=f"evil.example:{page.port}"))[0] == 421
            assert (await page.get(host=f"wolfbox.lan:{page.port}"))[0] == 200
            assert page.said.counts == {"host": 2}
    run(test)


@pytest.mark.parametrize("host", ["captive.apple.com", "connectivitycheck.gstatic.com",
                                  "www.msftconnecttest.com:80", "127.0.0.1", "wolfbox.lan"])
def test_a_captive_probe_or_the_box_s_address_with_no_port_is_sent_to_the_page(host):
    async def test() -> None:
        async with Page() as page:
            status, headers, body = await page.get("/generate_204", host=host)
            assert (status, body) == (302, b"")
            assert headers["location"] == f"http://127.0.0.1:{page.port}/"
            assert headers["content-security-policy"] == SECURITY_HEADERS[
                "Content-Security-Policy"]
            assert page.said.counts == {}
    run(test)


def test_other_methods_paths_and_the_favicon_have_their_own_answers():
    async def test() -> None:
        async with Page() as page:
            status, headers, _body = await page.get(method="DELETE")
            assert status == 405 and headers["allow"] == "GET, HEAD"
            assert page.said.counts == {"method": 1}
            assert (await page.get("/favicon.ico"))[0] == 204
            assert (await page.get("/etc/passwd"))[0] == 404
            assert (await page.get("/app.js?v=2"))[0] == 200          # the query is no path
    run(test)


def test_the_socket_opens_only_from_the_page_s_own_origin():
    async def test() -> None:
        async with Page() as page:
            uri = f"ws://127.0.0.1:{page.port}/ws"
            async with connect(uri, open_timeout=WAIT,
                               origin=f"http://127.0.0.1:{page.port}") as phone:
                assert await asyncio.wait_for(phone.recv(), WAIT) == "socket"
            async with connect(uri, open_timeout=WAIT) as phone:      # no Origin: not a page
                assert await asyncio.wait_for(phone.recv(), WAIT) == "socket"
            status, _headers, _body = await page.get("/ws", Origin="http://evil.example")
            assert status == 403
            status, _headers, _body = await page.get(
                "/ws", Origin=f"http://127.0.0.1:{page.port}, http://evil.example")
            assert status == 403
            assert page.said.counts == {"origin": 2}
    run(test)
