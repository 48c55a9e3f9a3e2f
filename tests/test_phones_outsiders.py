"""Outsiders on the same Wi-Fi (issue 31, item 4): each attack found on
the server, made again against the real server on loopback. The attackers
are sockets bound to their own loopback addresses (127.0.0.2 and on);
counts are small and every wait ends on the server's answer (bounded)."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import textwrap
import time
from contextlib import ExitStack, closing

import pytest
from sealed import SealedPhone as ClientConnection
from sealed import connect
from test_phones import WAIT, Changes, FakeClock, phone, receive, socket_url
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from wolfbox.events import PhonesSeated
from wolfbox.join_screen import JoinScreen
from wolfbox.phones.room import (
    ALL_WRONG_PINS,
    GUESSING,
    LONG_PIN_DIGITS,
    WRONG_PINS,
    Joined,
    JoinRefused,
    Room,
)
from wolfbox.phones.server import PhoneServer, Seated


@pytest.fixture
def box():
    """The server on 127.0.0.1 with a small socket budget (so a flood is
    a few dozen sockets), its clock, and each change of who sits where."""
    seated, clock = Changes(), FakeClock()
    server = PhoneServer(Room(seats=9, pin="4821"), lambda e: None, seated, ["127.0.0.1"], 0,
                         clock, sockets_at_most=24, per_address=6, names=("wolfbox.lan",))
    (url,) = server.start()
    server.publish({}, {"title": "One Night", "words": {}})
    yield server, url, clock, seated
    server.close()


def raw(server: PhoneServer, source: str) -> socket.socket:
    """A TCP socket to the box from `source` (a loopback address)."""
    s = socket.socket()
    s.settimeout(WAIT)
    s.bind((source, 0))
    s.connect(("127.0.0.1", server.port))
    return s


def request(server: PhoneServer, head: str, source: str = "127.0.0.1",
            close: bool = False) -> bytes:
    """One HTTP request, as written; the box's whole answer (`close`: the
    head of it, the socket closed by the client once it came)."""
    with closing(raw(server, source)) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
            if close and b"\r\n\r\n" in answer:
                break
    return answer


def let_go(s: socket.socket) -> bool:
    """Whether the box closed `s` without a word, before any request: it
    is asked for the page, and a socket let in answers."""
    try:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def answered(server: PhoneServer, source: str) -> bool:
    """Whether a new socket from `source` is let in (the box answers it)."""
    with closing(raw(server, source)) as s:
        return not let_go(s)


def opened(url: str, source: str) -> ClientConnection | None:
    """A phone's socket from `source`, or None if the box let it go."""
    try:
        return connect(socket_url(url), open_timeout=WAIT, source_address=(source, 0))
    except (InvalidHandshake, ConnectionClosed, OSError, EOFError):
        return None


def test_sockets_are_limited_per_address_and_in_all_before_any_request(box):
    server, url, _clock, _seated = box
    with ExitStack() as held:
        mine = [opened(url, "127.0.0.2") for _ in range(6)]      # an address's share
        assert all(mine)
        for p in mine:
            held.enter_context(p)
        flood = [held.enter_context(closing(raw(server, "127.0.0.2"))) for _ in range(14)]
        assert all(let_go(s) for s in flood)                     # closed, never read
        assert server.gate.open["127.0.0.2"] == 6
        ann = held.enter_context(phone(url))                     # a phone is let in
        ann.send('{"t": "hello"}')
        receive(ann, "lobby")
        others = [opened(url, f"127.0.0.{a}") for a in range(3, 10) for _ in range(6)]
        for p in others:
            if p is not None:
                held.enter_context(p)
        assert sum(p is not None for p in others) == 24 - 6 - 1  # the budget, no more
        assert server.gate.held == 24 and not answered(server, "127.0.0.200")
    deadline = time.monotonic() + WAIT                 # a bound: the closes reach the box
    while not answered(server, "127.0.0.200") and time.monotonic() < deadline:
        pass
    assert answered(server, "127.0.0.200")          # the flood gone, the box takes sockets
    assert server.said.counts["full"] >= 14 + len(others) - 17


def test_sockets_left_silent_keep_no_phone_out(box):
    """The cheapest flood: sockets opened from many addresses and left
    without a word. A phone takes the place of the oldest of them."""
    server, url, *_ = box
    with ExitStack() as held:
        silent = [held.enter_context(closing(raw(server, f"127.0.0.{a}")))
                  for a in range(2, 10) for _ in range(6)]               # 48: twice the budget
        for n in range(3):                                 # each held, each its own place
            p = held.enter_context(phone(url, source_address=(f"127.0.0.{100 + n}", 0)))
            p.send('{"t": "hello"}')
            receive(p, "lobby")
        assert server.gate.held == 24
        assert sum(let_go(s) for s in silent) >= len(silent) - 24 + 3


def test_a_flood_past_the_descriptor_limit_leaves_the_box_its_files_and_a_short_log(tmp_path):
    """The attack as found: the box's process at a low descriptor limit, far
    more sockets than it allows; the box still opens its files, the flood
    is let go, and what it logs stays a few lines."""
    script = textwrap.dedent("""
        import logging, os, resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (320, 320))
        logging.basicConfig(level=logging.WARNING)
        from wolfbox.phones.room import Room
        from wolfbox.phones.server import PhoneServer
        server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, lambda s: None,
                             ["127.0.0.1"], 0)
        server.start()
        print(server.port, server.gate.total, flush=True)
        for line in sys.stdin:                       # "files": open the box's files
            try:
                files = [open(sys.argv[1], "rb") for _ in range(200)]
                print("files", len(files), len(os.listdir("/proc/self/fd")), flush=True)
                for f in files:
                    f.close()
            except OSError as e:
                print("no files", e, len(os.listdir("/proc/self/fd")), flush=True)
    """)
    box_file = tmp_path / "save.json"
    box_file.write_text("{}")
    child = subprocess.Popen([sys.executable, "-c", script, str(box_file)], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert child.stdout is not None and child.stdin is not None
        port, total = map(int, child.stdout.readline().split())
        assert total == 320 - 256
        with ExitStack() as held:
            for n in range(400):                     # 400 sockets from 25 addresses
                s = held.enter_context(closing(socket.socket()))
                s.bind((f"127.0.0.{2 + n % 25}", 0))
                s.connect(("127.0.0.1", port))
            last = held.enter_context(closing(socket.create_connection(
                ("127.0.0.1", port), WAIT, source_address=("127.0.0.250", 0))))
            assert not let_go(last)          # after the flood: a silent one gives it its place
            child.stdin.write("files\n")
            child.stdin.flush()
            files, count, open_now = child.stdout.readline().split()
            assert (files, count) == ("files", "200")
            assert int(open_now) <= 320 - 256 + 200 + 40    # the budget, the files, a few
    finally:
        child.terminate()
        _out, err = child.communicate(timeout=WAIT)
    assert "Traceback" not in err
    assert len(err.splitlines()) <= 5


def test_accepts_failing_for_want_of_descriptors_are_one_line_not_a_traceback_each():
    """Were the budget ever past the limit (a unit without LimitNOFILE, a
    box with many files open), asyncio's failed accepts, each logged with a
    traceback before, are said as any line a client causes."""
    script = textwrap.dedent("""
        import logging, resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (96, 96))
        logging.basicConfig(level=logging.WARNING)
        from wolfbox.phones.room import Room
        from wolfbox.phones.server import PhoneServer
        server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, lambda s: None,
                             ["127.0.0.1"], 0, sockets_at_most=1000)
        server.start()
        print(server.port, flush=True)
        for line in sys.stdin:
            print(server.said.counts.get("loop", 0), flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], text=True, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdin is not None
        port = int(child.stdout.readline())
        with ExitStack() as held:
            for n in range(150):                     # more than the box's 96 descriptors
                s = held.enter_context(closing(socket.socket()))
                s.bind((f"127.0.0.{2 + n % 25}", 0))
                s.connect(("127.0.0.1", port))
            heard = 0
            deadline = time.monotonic() + WAIT       # a bound: the box tries to accept
            while heard == 0 and time.monotonic() < deadline:
                child.stdin.write("?\n")
                child.stdin.flush()
                heard = int(child.stdout.readline())
            assert heard >= 1
    finally:
        child.terminate()
        _out, err = child.communicate(timeout=WAIT)
    assert "Traceback" not in err and "out of system resource" in err
    assert len(err.splitlines()) <= 3


def test_cross_origin_sockets_by_the_hundred_log_one_line(box, caplog):
    server, url, clock, _seated = box
    with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
        for _ in range(100):
            with pytest.raises(InvalidStatus):
                phone(url, origin="http://evil.example")
    assert len(caplog.records) == 1 and server.said.counts["origin"] == 100


def test_before_the_pin_a_phone_learns_which_seats_are_free_and_no_name(box):
    server, url, *_ = box
    with phone(url) as ann, phone(url) as outsider:
        ann.send('{"t": "join", "pin": "4821", "seat": 3, "name": "Annabel"}')
        receive(ann, "joined")
        outsider.send('{"t": "hello"}')
        frame = outsider.recv(timeout=WAIT)
        assert json.loads(frame)["taken"] == {"3": ""}
        assert "Annabel" not in frame


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1",
                                  "127.0.0.1:{port}\nHost: evil.example:{port}",
                                  "127.0.0.2:{port}", "localhost.evil:{port}", ""])
def test_a_request_for_another_host_is_refused_though_its_origin_matches(box, host):
    """DNS rebinding: a page on evil.example whose name now points at the
    box would send Host and Origin both evil.example."""
    server, url, *_ = box
    host = host.format(port=server.port)
    page = request(server, f"GET / HTTP/1.1\nHost: {host}")
    assert page.startswith(b"HTTP/1.1 421") and b"<script" not in page
    upgrade = request(server, f"GET /ws HTTP/1.1\nHost: {host}\nOrigin: http://{host}\n"
                              "Upgrade: websocket\nConnection: Upgrade\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n"
                              "Sec-WebSocket-Version: 13")
    assert upgrade.startswith(b"HTTP/1.1 421")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:80", "wolfbox.lan"])
def test_the_box_s_own_address_typed_without_its_port_is_sent_to_the_page(box, host):
    """A player types the address the screen shows, or only its first part
    (http://10.42.0.1/): on the box's own Wi-Fi the captive rule brings
    port 80 to the server, which sends the phone on to the page."""
    server, url, *_ = box
    answer = request(server, f"GET / HTTP/1.1\nHost: {host}")
    assert answer.startswith(b"HTTP/1.1 302") and b"<script" not in answer
    assert f"\r\nLocation: {url}\r\n".encode() in answer
    # Not the socket, nor another verb, and no other host on port 80.
    assert request(server, f"POST / HTTP/1.1\nHost: {host}").startswith(b"HTTP/1.1 405")
    assert request(server, "GET / HTTP/1.1\nHost: evil.example").startswith(b"HTTP/1.1 421")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "wolfbox.lan:{port}",
                                  f"{socket.gethostname()}.local:{{port}}"])
def test_the_box_s_own_names_and_addresses_are_answered(box, host):
    server, url, *_ = box
    host = host.format(port=server.port)
    assert request(server, f"GET / HTTP/1.1\nHost: {host}").startswith(b"HTTP/1.1 200")
    upgrade = request(server, f"GET /ws HTTP/1.1\nHost: {host}\nOrigin: http://{host}\n"
                              "Upgrade: websocket\nConnection: Upgrade\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n"
                              "Sec-WebSocket-Version: 13", close=True)
    assert upgrade.startswith(b"HTTP/1.1 101")


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"])
def test_methods_other_than_get_and_head_get_405(box, method):
    server, *_ = box
    answer = request(server, f"{method} / HTTP/1.1\nHost: 127.0.0.1:{server.port}")
    assert answer.startswith(b"HTTP/1.1 405") and b"Allow: GET, HEAD" in answer
    head = request(server, f"HEAD / HTTP/1.1\nHost: 127.0.0.1:{server.port}")
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")     # no body


@pytest.mark.parametrize("body", ["Content-Length: 5\n\nhello", "Transfer-Encoding: chunked\n\n"
                                  "5\r\nhello\r\n0\r\n"])
@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_a_request_with_a_body_gets_405_too_not_a_silent_close(box, method, body):
    """Issue 41.9: websockets' parser closes a request with a body without
    a word; the box answers 405 before it reads one, and says so once."""
    server, *_ = box
    head, _blank, rest = body.partition("\n\n")
    answer = request(server, f"{method} / HTTP/1.1\nHost: 127.0.0.1:{server.port}\n{head}"
                     + ("\n\n" + rest if rest else ""))
    assert answer.startswith(b"HTTP/1.1 405") and b"Allow: GET, HEAD" in answer
    assert server.said.counts["method"] >= 1


def test_a_socket_that_sends_no_key_goes_and_makes_room_for_a_phone():
    """Issue 41.8: sockets handshaken and left keyless (their pings
    answered) held every place, and a phone from another address got no
    answer. A socket that has not sent its key soon after the box's goes,
    and the box says so."""
    from websockets.sync.client import connect as plain_connect
    seated, clock = Changes(), FakeClock()
    server = PhoneServer(Room(seats=9, pin="4821"), lambda e: None, seated, ["127.0.0.1"], 0,
                         clock, sockets_at_most=8, per_address=4, key_seconds=0.5)
    (url,) = server.start()
    server.publish({}, {"title": "One Night", "words": {}})
    try:
        with ExitStack() as held:
            idle = [held.enter_context(plain_connect(socket_url(url), open_timeout=WAIT,
                                                     source_address=(f"127.0.0.{a}", 0)))
                    for a in (2, 3) for _ in range(4)]
            for s in idle:
                assert json.loads(s.recv(timeout=WAIT))["t"] == "key"
            for s in idle:                               # each closed by the box, in time
                with pytest.raises(ConnectionClosed):
                    while True:
                        s.recv(timeout=WAIT)
                assert s.close_code == 1008
            ann = held.enter_context(phone(url))         # a phone gets its place
            ann.send('{"t": "hello"}')
            assert receive(ann, "lobby")["title"] == "One Night"
        assert server.said.counts["keyless"] == len(idle)
    finally:
        server.close()


# ------------------------------------------------------------------- the PIN
def test_wrong_pins_from_many_addresses_make_everyone_wait_before_the_pin_is_read():
    room = Room(seats=9, pin="4821")
    now = 0.0
    for n in range(ALL_WRONG_PINS):                     # each address below its own limit
        assert room.join(f"10.0.{n}.1", "0000", 1, "", now) == \
            JoinRefused("That is not the PIN on the box's screen.")
    refused = room.join("10.9.9.9", room.pin, 1, "", now)      # the right PIN waits too
    assert isinstance(refused, JoinRefused) and "too many wrong PINs" in refused.why
    assert isinstance(room.join("10.9.9.9", room.pin, 1, "", now + 60.0), Joined)


def test_a_table_that_mistypes_joins_with_a_short_pin_and_an_attack_makes_it_long():
    room = Room(seats=9, pin="4821")
    for seat in range(1, 10):                          # nine players, each a typo first
        assert isinstance(room.join(f"10.0.0.{seat}", "4812", seat, "", 0.0), JoinRefused)
        assert isinstance(room.join(f"10.0.0.{seat}", "4821", seat, "", 0.0), Joined)
    assert room.pin == "4821" and room.wrong == 9
    now = 60.0
    for n in range(GUESSING - 9):
        if n % ALL_WRONG_PINS == 0:
            now += 60.0
        room.join(f"10.1.{n}.1", "0000", 1, "", now)
    assert len(room.pin) == LONG_PIN_DIGITS            # the box shows the longer one
    room.new_game(9)
    assert len(room.pin) == LONG_PIN_DIGITS and room.wrong == 0     # for the rest of the run
    assert Room.restored(room.saved()).pin == room.pin


def test_a_full_search_takes_longer_than_a_game_night_from_any_number_of_addresses():
    """The guesser's best: every guess from a new address, as fast as the
    box lets any address guess. Counted on the room, minute by minute."""
    room = Room(seats=9, pin="4821")
    guesses, now, address = 0, 0.0, 0
    while now < 12 * 3600.0:                           # a long night, a guess a second
        address += 1
        answer = room.join(f"a{address}", f"{guesses % 10 ** len(room.pin):0{len(room.pin)}d}",
                           1, "", now)
        if isinstance(answer, JoinRefused) and "not the PIN" in answer.why:
            guesses += 1
        now += 1.0
    assert len(room.pin) == LONG_PIN_DIGITS
    assert guesses <= GUESSING + 12 * 60 * ALL_WRONG_PINS
    assert 10 ** LONG_PIN_DIGITS > 20 * guesses         # a night covers under 5 % of it


def test_wrong_pins_are_shown_on_the_box_s_phones_screen(box):
    server, url, _clock, seated = box
    with phone(url) as p:
        for guess in range(3):
            p.send(json.dumps({"t": "join", "pin": f"{guess:04d}", "seat": 1}))
            receive(p, "refused")
    seated.wait_for(4)
    assert seated[-1] == Seated("4821", {}, (), 3)
    screen = JoinScreen()
    screen.show(frozenset())
    shown = screen.view(PhonesSeated(frozenset(), (), (), 3), "One Night")
    assert "Wrong PINs typed: 3" in shown.details
    assert "Wrong PINs" not in " ".join(screen.view(PhonesSeated(frozenset()), "x").details)


def test_a_guesser_from_many_addresses_is_logged_in_a_few_lines(box, caplog):
    server, url, clock, _seated = box
    with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
        for a in range(2, 2 + ALL_WRONG_PINS // WRONG_PINS + 3):
            with phone(url, source_address=(f"127.0.0.{a}", 0)) as p:
                for guess in range(WRONG_PINS + 1):
                    p.send(json.dumps({"t": "join", "pin": f"{guess:04d}", "seat": 1}))
                    receive(p, "refused")
    assert server.said.counts["pin"] == ALL_WRONG_PINS
    assert len(caplog.records) == 1


@pytest.mark.parametrize("host, path, expected", [
    ("connectivitycheck.gstatic.com", "/generate_204", b"HTTP/1.1 204"),       # Android
    ("clients3.google.com", "/generate_204", b"HTTP/1.1 204"),
    ("captive.apple.com", "/hotspot-detect.html", b"<BODY>Success</BODY>"),      # iOS, macOS
    ("www.msftconnecttest.com", "/connecttest.txt", b"Microsoft Connect Test"),  # Windows
    ("www.msftncsi.com", "/ncsi.txt", b"Microsoft NCSI"),
])
def test_a_phone_s_captive_portal_probe_is_sent_to_the_page(box, host, path, expected):
    """On the box's own network every name is the box: a probe must not get
    the answer that says "internet here", and its redirect opens the page."""
    server, url, *_ = box
    answer = request(server, f"GET {path} HTTP/1.1\nHost: {host}")
    assert answer.startswith(b"HTTP/1.1 302") and expected not in answer
    assert f"\r\nLocation: {url}\r\n".encode() in answer
    assert request(server, f"POST {path} HTTP/1.1\nHost: {host}").startswith(b"HTTP/1.1 405")
