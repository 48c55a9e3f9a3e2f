"""Phones at the table (issue 22): the room's seats and PIN, the messages
a phone may send, and the real server on loopback, talked to by real
WebSocket clients (no browser here: tests/test_phones_browser.py)."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import logging
import socket
import threading
from contextlib import closing

import pytest
from sealed import SealedPhone as ClientConnection
from sealed import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from wolfbox.events import PhoneChoice
from wolfbox.phones import protocol
from wolfbox.phones.portal import PAGE_FILES
from wolfbox.phones.room import WRONG_PIN_WINDOW, WRONG_PINS, Joined, JoinRefused, Room, clean_name
from wolfbox.phones.server import PhoneServer, Seated

WAIT = 10.0          # only a bound: every wait below ends on a message from the server


# ------------------------------------------------------------------ the room
def test_a_phone_joins_a_free_seat_with_the_pin_and_keeps_it_with_its_token():
    room = Room(seats=5, pin="4821")
    joined = room.join("10.0.0.7", "4821", 3, "Ann", now=0.0)
    assert isinstance(joined, Joined) and joined.seat == 3
    assert len(joined.token) >= 22                        # 128 bits, base64
    assert room.seat_of(joined.token) == 3
    assert room.seat_of("not-a-token") is None
    assert room.names() == {3: "Ann"}


@pytest.mark.parametrize("pin, seat, why", [
    ("1234", 2, "That is not the PIN on the box's screen."),
    ("4821", 6, "The seats are 1 to 5."),
    ("4821", 1, "Seat 1 is taken: ask the box to free it."),
])
def test_a_wrong_pin_a_seat_off_the_table_or_a_taken_seat_is_refused(pin, seat, why):
    room = Room(seats=5, pin="4821")
    assert isinstance(room.join("a", "4821", 1, "Ann", 0.0), Joined)
    assert room.join("b", pin, seat, "Bo", 1.0) == JoinRefused(why)
    assert room.names() == {1: "Ann"}


def test_wrong_pins_are_counted_per_client_and_make_it_wait():
    room = Room(seats=9, pin="0000")
    for i in range(WRONG_PINS):
        assert isinstance(room.join("guesser", f"{i + 1:04d}", 1, "", float(i)), JoinRefused)
    late = room.join("guesser", "0000", 1, "", float(WRONG_PINS))      # the right PIN, too late
    assert isinstance(late, JoinRefused) and "Too many wrong PINs" in late.why
    assert isinstance(room.join("neighbour", "0000", 2, "", float(WRONG_PINS)), Joined)
    later = float(WRONG_PIN_WINDOW + 1)
    assert isinstance(room.join("guesser", "0000", 1, "", later), Joined)


def test_a_new_game_brings_a_new_pin_and_voids_every_token():
    room = Room(seats=5, pin="4821")
    joined = room.join("a", "4821", 2, "Ann", 0.0)
    assert isinstance(joined, Joined)
    pins = set()
    for _ in range(20):
        room.new_game(7)
        pins.add(room.pin)
    assert len(pins) > 1 and all(len(p) == 4 and p.isdigit() for p in pins)
    assert room.seat_of(joined.token) is None and room.names() == {} and room.seats == 7


def test_the_box_can_free_a_seat():
    room = Room(seats=5, pin="1111")
    joined = room.join("a", "1111", 4, "Ann", 0.0)
    assert isinstance(joined, Joined)
    assert room.free(4) and not room.free(4)
    assert room.seat_of(joined.token) is None
    assert isinstance(room.join("b", "1111", 4, "Bo", 1.0), Joined)


@pytest.mark.parametrize("name", ["Seat 4", "seat4", " SEAT  2 ", "Seat 4!", "Mayor", "MAYOR",
                                  "Spieler 3", "Bürgermeister", "5号玩家", "镇长", "7", "Seat\t9",
                                  # as a table writes a seat, not as the box does
                                  "Platz 4", "Sitz 2", "Player 3", "玩家4", "4号", "座位 2",
                                  # the Mayor's word makes a name the Mayor's
                                  "Mayor Bob"])
def test_a_name_that_reads_as_a_seat_or_the_mayor_is_refused_in_any_language(name):
    room = Room(seats=9, pin="4821")
    refused = room.join("a", "4821", 1, name, 0.0)
    assert refused in (JoinRefused("That name is what the box calls a seat: choose your own."),
                       JoinRefused("That name reads as the Mayor: choose your own."))
    assert room.names() == {}
    for own in ("Ann", "Seattle", "Mayorga", "李雷", "Platzhirsch", "Anna 2000", ""):
        assert isinstance(room.join("a", "4821", len(room.names()) + 1, own, 0.0), Joined)
    room.resize(11)
    assert isinstance(room.join("a", "4821", 10, "Seat 10", 0.0), Joined)   # its own words
    assert isinstance(room.join("a", "4821", 11, "Mayor", 0.0, label="Mayor"), Joined)


def test_the_room_kept_across_a_power_cut_holds_each_token_by_its_hash_alone():
    room = Room(seats=5, pin="4821")
    joined = room.join("a", "4821", 3, "Ann", 0.0)
    assert isinstance(joined, Joined)
    kept = json.loads(json.dumps(room.saved()))                 # as the file holds it
    assert joined.token not in json.dumps(kept)
    back = Room.restored(kept)
    assert (back.pin, back.seats, back.names()) == ("4821", 5, {3: "Ann"})
    assert back.seat_of(joined.token) == 3 and back.seat_of("guess") is None
    assert isinstance(back.join("b", "4821", 3, "Bo", 0.0), JoinRefused)     # no first tap
    for bad in (None, [], {"pin": "48", "seats": 5, "held": {}},
                {**kept, "held": {"3": {"name": "Ann", "digest": "00"}}},
                {**kept, "held": {"100": kept["held"]["3"]}}):
        with pytest.raises(ValueError):
            Room.restored(bad)


def test_names_are_shown_on_one_short_line():
    assert clean_name("  Ann\n\tMarie  ") == "Ann Marie"
    assert clean_name("\x1b[31mred") == "[31mred"
    assert len(clean_name("x" * 500)) == 20


# -------------------------------------------------------------- the messages
def test_every_kind_of_message_reads_into_its_type():
    assert protocol.read('{"t": "hello"}') == protocol.Hello()
    assert protocol.read(b'{"t": "join", "pin": "1234", "seat": 3, "name": "Ann"}') == \
        protocol.Join("1234", 3, "Ann")
    assert protocol.read('{"t": "choose", "step": "n1.seer", "choice": [4]}') == \
        protocol.Choose("n1.seer", [4])


@pytest.mark.parametrize("raw", [
    "", "null", "[]", "{}", '{"t": "hello", "token": 5}', '{"t": "take", "seat": 1}',
    '{"t": "join", "pin": "1234"}', '{"t": "join", "pin": "1234", "seat": 0}',
    '{"t": "join", "pin": "1234", "seat": 3, "name": "' + "x" * 61 + '"}',
    '{"t": "choose", "step": "s", "choice": [1, 2, 3, 4, 5]}',
    '{"t": "choose", "step": "s", "choice": ["1"]}',
    '{"t": "choose", "step": "s", "choice": [-1]}',
    '{"t": "choose", "step": "s", "choice": [1000]}',
    '{"t": "hello", "token": "", "extra": 1}', b"\xff\xfe", "x" * 2000,
])
def test_anything_else_is_malformed(raw):
    with pytest.raises(protocol.MalformedMessage):
        protocol.read(raw)


# ---------------------------------------------------------------- the server
class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Changes(list):
    """Each change of who sits where the server reports (a list of Seated),
    and a wait for the next ones (a signal from the server's thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()

    def __call__(self, seated: Seated) -> None:
        with self.changed:
            self.append(seated)
            self.changed.notify_all()

    def wait_for(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self) >= count, WAIT)


@pytest.fixture
def served():
    """A server on loopback (a port of its own), the events it posted, and
    a signal for each change of who sits where."""
    posted: list[object] = []
    seated = Changes()
    clock = FakeClock()
    server = PhoneServer(Room(seats=5, pin="4821"), posted.append, seated,
                         ["127.0.0.1"], 0, clock)
    (url,) = server.start()
    server.publish({}, {"title": "One Night", "words": {"pin": "PIN"}})
    yield server, url, posted, seated, clock
    server.close()


def socket_url(url: str) -> str:
    return url.replace("http://", "ws://") + "ws"


def receive(phone: ClientConnection, kind: str) -> dict:
    """The next message of `kind` (earlier ones of other kinds are passed)."""
    while True:
        message = json.loads(phone.recv(timeout=WAIT))
        if message["t"] == kind:
            return message


def phone(url: str, **kw) -> ClientConnection:
    return connect(socket_url(url), open_timeout=WAIT, **kw)


def test_the_page_is_served_with_a_strict_policy_and_fits_in_100_kb(served):
    server, url, *_ = served
    host, port = url.split("//")[1].rstrip("/").split(":")
    total = 0
    for path in PAGE_FILES:                 # the page, its script, its style, tweetnacl
        with closing(http.client.HTTPConnection(host, int(port), timeout=WAIT)) as c:
            c.request("GET", path, headers={"Accept-Encoding": "gzip"})
            r = c.getresponse()
            body = r.read()
            assert r.status == 200
            policy = r.getheader("Content-Security-Policy")
            assert "default-src 'none'" in policy and "script-src 'self'" in policy
            assert "unsafe-inline" not in policy
            assert r.getheader("X-Content-Type-Options") == "nosniff"
            assert r.getheader("Content-Encoding") == "gzip"
            total += len(body)
            text = gzip.decompress(body).decode()
            if path == "/":
                assert "<script src=\"/app.js\"" in text and "<script>" not in text
                assert "http" not in text.replace('"/app', "")      # nothing from elsewhere
    assert total <= 100 * 1024
    with closing(http.client.HTTPConnection(host, int(port), timeout=WAIT)) as c:
        c.request("GET", "/../../etc/passwd")
        assert c.getresponse().status == 404


def test_a_socket_from_another_origin_is_refused(served):
    _server, url, *_ = served
    with pytest.raises(InvalidStatus) as e:
        phone(url, origin="http://evil.example")
    assert e.value.response.status_code == 403


def test_a_phone_joins_sees_its_view_and_comes_back_to_its_seat(served):
    server, url, posted, seated, _clock = served
    with phone(url) as ann, phone(url) as bo:
        for p in (ann, bo):
            p.send('{"t": "hello"}')
            lobby = receive(p, "lobby")
            assert lobby["seats"] == 5 and lobby["taken"] == {} and lobby["title"] == "One Night"
        ann.send('{"t": "join", "pin": "0000", "seat": 2, "name": "Ann"}')
        assert receive(ann, "refused")["why"] == "That is not the PIN on the box's screen."
        ann.send('{"t": "join", "pin": "4821", "seat": 2, "name": "Ann"}')
        token = receive(ann, "joined")["token"]
        assert receive(bo, "lobby")["taken"] == {"2": ""}     # the seat is gone for all (no name)
        assert seated[-1] == Seated("4821", {2: "Ann"}, wrong=1)   # the box saw the typo
        server.publish({2: protocol.encode("view", title="Night", lines=["for seat 2"])},
                       {"title": "One Night", "words": {}})
        assert receive(ann, "view")["lines"] == ["for seat 2"]
        bo.send('{"t": "join", "pin": "4821", "seat": 2, "name": "Bo"}')
        assert receive(bo, "refused")["why"] == "Seat 2 is taken: ask the box to free it."
    with phone(url) as again:                       # a reload: the token finds the seat
        again.send(json.dumps({"t": "hello", "token": token}))
        assert receive(again, "joined")["seat"] == 2
        assert receive(again, "view")["lines"] == ["for seat 2"]
        again.send('{"t": "choose", "step": "n1.seer", "choice": [4]}')
        again.send(json.dumps({"t": "hello", "token": token}))   # answered after the choice
        receive(again, "joined")
    assert posted == [PhoneChoice(2, "n1.seer", (4,))]


def test_frames_of_one_update_have_one_size():
    frames = {1: protocol.encode("view", secret=["Werewolf", "Your partner: seat 7"]),
              2: protocol.encode("view", secret=[]), 3: protocol.encode("view", lines=["x" * 700])}
    sized = protocol.padded(frames)
    assert len({len(f) for f in sized.values()}) == 1                 # one size for all
    assert len(sized[3]) >= len(frames[3])
    again = protocol.padded({**frames, 1: protocol.encode("view", secret=["x" * 900])})
    assert {len(f) for f in again.values()} == {len(f) for f in sized.values()}  # fixed
    assert {s: json.loads(f) for s, f in sized.items()} == \
        {s: json.loads(f) for s, f in frames.items()}                 # the same messages


def test_when_one_seat_s_view_changes_every_seated_phone_hears(served):
    server, url, *_ = served
    with phone(url) as ann, phone(url) as bo:
        for p, seat in ((ann, 1), (bo, 2)):
            p.send('{"t": "hello"}')
            receive(p, "lobby")
            p.send(json.dumps({"t": "join", "pin": "4821", "seat": seat, "name": f"x{seat}"}))
            receive(p, "joined")
        views = {1: protocol.encode("view", lines=["night"]),
                 2: protocol.encode("view", lines=["night"])}
        server.publish(views, {"title": "One Night"})
        assert receive(ann, "view")["lines"] == receive(bo, "view")["lines"] == ["night"]
        server.publish({**views, 1: protocol.encode("view", lines=["night"], secret=["Seer"])},
                       {"title": "One Night"})
        assert receive(ann, "view")["secret"] == ["Seer"]
        assert receive(bo, "view")["lines"] == ["night"]        # a frame, though nothing moved


def test_a_new_game_sends_every_phone_back_to_the_lobby(served):
    server, url, _posted, seated, _clock = served
    with phone(url) as ann:
        ann.send('{"t": "hello"}')
        receive(ann, "lobby")
        ann.send('{"t": "join", "pin": "4821", "seat": 1, "name": "Ann"}')
        token = receive(ann, "joined")["token"]
        server.new_game(9)
        lobby = receive(ann, "lobby")
        assert lobby["seats"] == 9 and lobby["taken"] == {}
        ann.send(json.dumps({"t": "hello", "token": token}))        # last game's token
        assert receive(ann, "lobby")["taken"] == {}
    assert seated[-1].pin != "4821" or seated[-1].names == {}


def test_a_choice_from_a_phone_without_a_seat_posts_nothing(served):
    _server, url, posted, *_ = served
    with phone(url) as p:
        p.send('{"t": "choose", "step": "n1.seer", "choice": [1]}')
        p.send('{"t": "hello"}')
        receive(p, "lobby")
    assert posted == []


def test_two_thousand_malformed_messages_change_nothing_and_are_logged_once(served, caplog):
    server, url, posted, seated, clock = served
    junk = ["", "{", "[]", '{"t": 1}', '{"t": "join", "seat": -1}', "x" * 1000,
            '{"t": "choose", "step": "' + "s" * 50 + '", "choice": [1]}',
            '{"t": "join", "pin": null, "seat": 1}', '{"t": "hello", "token": [1]}',
            "\u0000" * 10]
    with phone(url) as p:
        for i in range(2000):
            p.send(junk[i % len(junk)])
            if i % 8 == 7:                                    # within the rate: a second
                p.send('{"t": "hello"}')                      # for every 9 messages
                assert receive(p, "lobby")["taken"] == {}     # still answering, nothing taken
                clock.now += 1.01
    assert posted == [] and all(s.names == {} for s in seated)
    refused = [r for r in caplog.records if "refused a phone's message" in r.getMessage()]
    assert len(refused) == 1


def test_a_phone_that_sends_too_fast_is_closed(served):
    _server, url, *_ = served
    with phone(url) as p:
        with pytest.raises(ConnectionClosed) as e:
            for _ in range(100):                              # the clock stands still
                p.send('{"t": "hello"}')
            while True:
                p.recv(timeout=WAIT)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1008


def test_fifty_phones_at_once_are_all_answered(served):
    _server, url, *_ = served
    answered: list[int] = []
    lock = threading.Lock()

    def one(n: int) -> None:                              # fifty phones: fifty addresses
        with phone(url, source_address=(f"127.0.0.{10 + n}", 0)) as p:
            p.send('{"t": "hello"}')
            lobby = receive(p, "lobby")
            with lock:
                answered.append(lobby["seats"])

    threads = [threading.Thread(target=one, args=(n,)) for n in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT * 3)
    assert answered == [5] * 50


def test_the_server_follows_the_box_s_addresses_as_they_come_and_go():
    """A box that booted before its network, then given another address:
    the page comes up when an address does, and moves with it."""
    now_at: list[str] = []
    seated = Changes()
    changes = seated.wait_for
    server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, seated, [], 0,
                         FakeClock(), find=lambda: list(now_at), look_every=0.01)
    try:
        assert server.start() == []                        # no network yet: no page
        server.publish({}, {"title": "One Night"})
        changes(1)
        now_at.append("127.0.0.1")
        changes(2)
        (first,) = server.urls
        assert first.startswith("http://127.0.0.1:")
        with phone(first) as p:
            p.send('{"t": "hello"}')
            receive(p, "lobby")
        now_at[:] = ["127.0.0.2"]                          # DHCP gave another address
        changes(3)
        (moved,) = server.urls
        assert moved == first.replace("127.0.0.1", "127.0.0.2")    # the same port
        with phone(moved) as p:
            p.send('{"t": "hello"}')
            assert receive(p, "lobby")["seats"] == 5
        with pytest.raises(OSError):
            phone(first)                                   # nothing left on the old one
    finally:
        server.close()


def test_phones_coming_and_going_leave_no_line_in_the_log(served, caplog):
    """A table's phones connect and reload all evening: the box's terminal
    and journal hear of refusals, not of every socket opened or closed."""
    _server, url, *_ = served
    with caplog.at_level(logging.DEBUG, logger="wolfbox"):
        for _ in range(3):
            with phone(url) as p:
                p.send('{"t": "hello"}')
                receive(p, "lobby")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def test_an_address_gone_leaves_the_join_card_at_once_though_a_phone_on_it_is_silent():
    """The box's address goes away while a phone that can no longer be
    reached holds a socket on it: the box hears that the page has no
    address before that socket's close has run its course (it takes
    seconds), so the join card does not go on showing the old one."""
    now_at = ["127.0.0.1"]
    seated = Changes()
    server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, seated, [], 0,
                         FakeClock(), find=lambda: list(now_at), look_every=0.01)
    try:
        server.start()
        seated.wait_for(2)
        (url,) = server.urls
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        silent.sendall(b"GET /ws HTTP/1.1\r\nHost: " + url.split("//")[1].rstrip("/").encode()
                       + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       b"Sec-WebSocket-Version: 13\r\n\r\n")
        assert silent.recv(12) == b"HTTP/1.1 101"          # open, and never answers again
        heard = len(seated)
        now_at.clear()                                     # the Wi-Fi went
        seated.wait_for(heard + 1)
        assert server.urls == []
    finally:
        server.close()                                     # and the silent phone is let go
        silent.close()


def test_an_address_found_while_the_server_starts_is_kept():
    """The box's addresses looked up again while `start` was still waking
    (a busy machine: the loop's follower ran first) stay the page's: once
    `start` wrote the address list it had begun with over the newer one,
    and the join card lost the box's address (seen in CI)."""
    seated = Changes()
    server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, seated, [], 0,
                         FakeClock(), find=lambda: ["127.0.0.1"], look_every=0.01)
    listen = server._listen

    async def slow_listen() -> list[str]:
        began = await listen()                    # no address yet
        while not server.urls:                    # the follower finds one first
            await asyncio.sleep(0.01)
        return began

    server._listen = slow_listen  # type: ignore[method-assign]
    try:
        assert server.start() == []
        assert server.urls == [f"http://127.0.0.1:{server.port}/"]
    finally:
        server.close()


def test_wrong_pins_are_counted_per_address_however_many_sockets_it_opens(served):
    """A guesser opening a new socket for every PIN is still one address."""
    _server, url, _posted, seated, _clock = served
    for guess in range(WRONG_PINS):
        with phone(url) as p:
            p.send(json.dumps({"t": "join", "pin": f"{guess:04d}", "seat": 1, "name": ""}))
            assert receive(p, "refused")["why"] == "That is not the PIN on the box's screen."
    with phone(url) as p:
        p.send('{"t": "join", "pin": "4821", "seat": 1, "name": ""}')      # right, too late
        assert "Too many wrong PINs" in receive(p, "refused")["why"]
    assert all(s.names == {} for s in seated)
