"""An outsider on the box's network (issue 41, last step), through the
real phones' server over real sockets on loopback (127.0.0.x stands in for
the Wi-Fi's other addresses): odd requests, many sockets, idle sockets,
guessed PINs."""

from __future__ import annotations

import json
import socket as pysocket
import time

import pytest
from test_laptop_player import PIN, phone, receive
from test_phones import FakeClock
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect as plain_connect

from wolfbox.phones import protocol
from wolfbox.phones.room import Room
from wolfbox.phones.server import PhoneServer

KEY = 2.0       # the key's wait (5 s on the box): shorter, so the test is short


@pytest.fixture
def box():
    clock = FakeClock()
    server = PhoneServer(Room(seats=7, pin=PIN), lambda m: None, lambda s: None,
                         ["127.0.0.1"], 0, clock, key_seconds=KEY)
    (url,) = server.start()
    server.publish({s: protocol.encode("view", title="x") for s in range(1, 8)},
                   {"title": "x", "words": {}})
    host, port = url.split("//")[1].rstrip("/").split(":")
    yield server, url, (host, int(port)), clock
    server.close()


def raw(address, request: bytes, source: str = "127.0.0.1") -> bytes:
    s = pysocket.socket()
    s.settimeout(5)
    s.bind((source, 0))
    s.connect(address)
    s.sendall(request)
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    s.close()
    return got


def status(answer: bytes) -> str:
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


@pytest.mark.parametrize("request_", [
    b"POST / HTTP/1.1\r\nHost: {h}\r\nContent-Length: 11\r\n\r\npin=4821&x=",
    b"PUT /ws HTTP/1.1\r\nHost: {h}\r\nContent-Length: 3\r\n\r\nabc",
    b"DELETE / HTTP/1.1\r\nHost: {h}\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: {h}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    b"PROPFIND / HTTP/1.1\r\nHost: {h}\r\n\r\n",
])
def test_another_method_gets_405(box, request_):
    _server, url, address, _clock = box
    host = url.split("//")[1].rstrip("/")
    assert " 405 " in status(raw(address, request_.replace(b"{h}", host.encode())))


@pytest.mark.parametrize("host", [b"evil.example", b"127.0.0.1:1", b"localhost.evil",
                                  b"127.0.0.1.nip.io:{p}", b""])
def test_another_host_gets_no_page(box, host):
    _server, _url, address, _clock = box
    host = host.replace(b"{p}", str(address[1]).encode())
    answer = raw(address, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
    assert b"<script" not in answer and " 200 " not in status(answer), status(answer)


def test_a_socket_from_another_origin_is_refused(box):
    _server, url, address, _clock = box
    host = url.split("//")[1].rstrip("/")
    for origin in (b"http://evil.example", b"null", b"http://" + host.encode() + b".evil"):
        answer = raw(address, b"GET /ws HTTP/1.1\r\nHost: " + host.encode() +
                     b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: " + origin +
                     b"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Version: 13\r\n\r\n")
        assert " 101 " not in status(answer), (origin, status(answer))


def test_idle_and_silent_sockets_from_many_addresses_keep_no_phone_out(box):
    """300 silent TCP sockets from 40 addresses, then 256 handshaken
    sockets that never send their key, 32 from each of 8 addresses (the
    limit: every socket the box allows): a phone from yet another address,
    retrying as the page does, joins once the key's wait has closed them."""
    server, url, address, _clock = box
    held = []
    for i in range(300):
        s = pysocket.socket()
        s.bind((f"127.0.0.{10 + i % 40}", 0))
        s.connect(address)
        held.append(s)
    handshaken = []
    for i in range(256):
        src = pysocket.socket()
        src.bind((f"127.0.1.{10 + i % 8}", 0))
        src.connect(address)
        try:
            handshaken.append(plain_connect(url.replace("http", "ws") + "ws", sock=src,
                                            open_timeout=5, legacy=True))
        except (OSError, InvalidHandshake, TimeoutError):
            pass
    started, tries = time.monotonic(), 0
    while True:
        tries += 1
        try:
            with phone(url, source="127.0.2.99") as ann:
                ann.send('{"t": "hello"}')
                ann.send(json.dumps({"t": "join", "pin": PIN, "seat": 1, "name": "Ann"}))
                assert receive(ann, "joined")["seat"] == 1
                break
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
            assert time.monotonic() - started < 3 * KEY, "the phone never got in"
            time.sleep(0.25)                     # the page's own retry
    took = time.monotonic() - started
    print(f"\nphone joined {took:.2f} s after {len(held)} silent and "
          f"{len(handshaken)} handshaken sockets ({tries} tries)")
    assert len(handshaken) >= 200                # the attack was real
    for s in held:
        s.close()
    for c in handshaken:
        c.close()


def test_guessed_pins_from_many_addresses_stop_at_the_limit_and_the_right_pin_waits_too(box):
    server, url, _address, _clock = box
    answers = []
    for i in range(40):
        with phone(url, source=f"127.0.3.{10 + i}") as eve:
            eve.send('{"t": "hello"}')
            eve.send(json.dumps({"t": "join", "pin": f"{i:04d}", "seat": 2, "name": "Eve"}))
            answers.append(receive(eve, "refused")["why"])
    wrong = answers.count("That is not the PIN on the box's screen.")
    assert server.room.held == {}
    assert wrong <= 20, answers                  # 20 a minute across every address
    with phone(url, source="127.0.3.200") as ann:      # the real PIN waits too now
        ann.send('{"t": "hello"}')
        ann.send(json.dumps({"t": "join", "pin": PIN, "seat": 1, "name": "Ann"}))
        refused = receive(ann, "refused")["why"]
    assert refused.startswith("The box has heard too many wrong PINs"), refused
    print(f"\n{wrong} of 40 guesses compared; then the right PIN: {refused!r}")
