"""Nothing readable on the air (issue 31, item 3): every frame between the
box and a phone after the phone's key is sealed (phones/seal.py).

The capture: every byte the real server reads and writes on its sockets
(what a capture of the loopback, or of the Wi-Fi, would hold) through a
whole game of each kind (the timed game on nine phones, One Night with a
phone dropping and coming back, the Mayor's game and its console) on
phones that joined by the QR code, the box's key pinned from the code's
address. No card, team, partner, choice, result,
message, PIN, token or name is in it, in any of the box's languages, nor
any text the box or a phone sealed; and every sealed frame each way is one
size. Then a frame sealed for one seat does not open for another, and a
frame tampered with, replayed or sent back is refused, by the real server
in one bounded line, with the socket closed."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import logging
import re
from urllib.parse import urlsplit

import pytest
import test_mayor_phones_box as mayor
import test_onenight_phones_box as onenight
import test_timed_phones_box as timed
from nacl.public import PrivateKey
from sealed import KeyMismatch, SealedPhone, connect
from test_phones import FakeClock, receive, served, socket_url  # noqa: F401 (a fixture)
from test_phones_box import sent  # noqa: F401 (a fixture)
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as plain_connect

from wolfbox.darkarts import roles as darkarts_roles
from wolfbox.i18n import LANGUAGES, _, speaking
from wolfbox.newd3 import roles as newd3_roles
from wolfbox.onenight import roles as onenight_roles
from wolfbox.phones import protocol, seal
from wolfbox.phones.gate import Door
from wolfbox.phones.portal import PAGE_FILES
from wolfbox.phones.room import Room
from wolfbox.phones.server import PhoneServer

WAIT = 10.0
OTHER = ("This page was opened for another start of the box: scan the QR code on the box "
         "again.")
NACL_SHA256 = "3ec535c004aeeb225785d8e93fb33bf99f52e399bd7dfc01969b5629baea5131"  # npm's 1.0.3


class Wire:
    """Every byte each socket of the server read and wrote, in order (the
    n-th socket accepted at `read[n]` and `written[n]`)."""

    def __init__(self) -> None:
        self.read: list[bytearray] = []
        self.written: list[bytearray] = []


@pytest.fixture
def wire(monkeypatch) -> Wire:
    """The server's sockets, recorded below the WebSocket library: the
    bytes as they go to and come from the kernel."""
    record = Wire()
    made, received = Door.connection_made, ServerConnection.data_received

    def connection_made(self, transport):
        self.wire_read, written = bytearray(), bytearray()
        record.read.append(self.wire_read)
        record.written.append(written)
        write = transport.write

        def recording(data):
            written.extend(data)
            return write(data)
        transport.write = recording
        made(self, transport)

    def data_received(self, data):
        self.wire_read.extend(data)
        received(self, data)
    monkeypatch.setattr(Door, "connection_made", connection_made)
    monkeypatch.setattr(Door, "data_received", data_received)
    return record


@pytest.fixture
def phones_said(monkeypatch) -> list[bytes]:
    """Every message the test's phones sealed, before sealing."""
    said: list[bytes] = []
    real = SealedPhone.sealed

    def sealed(self, message):
        said.append(message.encode() if isinstance(message, str) else message)
        return real(self, message)
    monkeypatch.setattr(SealedPhone, "sealed", sealed)
    return said


def frames(data: bytes, masked: bool) -> list[tuple[int, bytes]]:
    """The WebSocket frames after the HTTP handshake in one direction of
    one socket, as an eavesdropper reads them: (opcode, payload) each, a
    phone's payload unmasked (RFC 6455, section 5.2: the mask travels with
    the frame, so masking hides nothing)."""
    at = data.index(b"\r\n\r\n") + 4
    found = []
    while at < len(data):
        opcode, size = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if size == 126:
            size, at = int.from_bytes(data[at:at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(data[at:at + 8], "big"), at + 8
        mask = data[at:at + 4] if masked else bytes(4)
        at += 4 if masked else 0
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(data[at:at + size]))
        at += size
        found.append((opcode, payload))
    return found


def strings(value) -> set[str]:
    """Every text in a JSON value, keys and values."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


def forms(text: str) -> set[bytes]:
    """`text` as it would travel in a frame: a JSON string, in UTF-8 or
    escaped to ASCII, with its quotes; and bare, where it is long enough
    (8 bytes) that random ciphertext does not hold it by chance (a short
    one, "0:07", turns up in a megabyte of it once in a few dozen runs)."""
    found = {json.dumps(text, ensure_ascii=False).encode(), json.dumps(text).encode()}
    if len(text.encode()) >= 8:
        found |= {f[1:-1] for f in found}
    return found


def pinned_key(qr: str) -> str:
    found = re.fullmatch(r"k=([A-Za-z0-9_-]{43})", urlsplit(qr).fragment)
    assert found, qr
    return found[1]


def qr_joined(module, monkeypatch) -> dict[str, str]:
    """The phones of a whole-game test `module` join by the QR code: each
    pins the box's key from the code's address (and would refuse another).
    What the code held, and the PIN, once the game's test has read them."""
    card: dict[str, str] = {}
    real_details = module.join_details

    def details(pilot):
        url, pin = real_details(pilot)
        card["qr"], card["pin"] = pilot.view.join.qr, pin
        assert urlsplit(card["qr"])._replace(fragment="").geturl() == url
        return url, pin

    def scanned(url, **kw):
        return connect(url, pinned=pinned_key(card["qr"]), **kw)
    monkeypatch.setattr(module, "join_details", details)
    monkeypatch.setattr(module, "connect", scanned)
    return card


GAMES = {
    "timed": (timed, lambda tmp, pilots, record, mp: timed.
              test_a_whole_timed_game_on_nine_phones_tells_each_seat_only_its_own(
                  tmp, pilots, record, 7), newd3_roles),
    "one night": (onenight, lambda tmp, pilots, record, mp: onenight.play(
        tmp, pilots, record, mp, 2, 3), onenight_roles),
    "mayor": (mayor, lambda tmp, pilots, record, mp: mayor.
              test_a_whole_game_on_phones_each_seat_sees_its_own_card_and_the_console_the_mayor(
                  tmp, pilots, record, 1), darkarts_roles),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_on_qr_joined_phones_puts_nothing_readable_on_the_air(
        tmp_path, pilots, sent, wire, phones_said, monkeypatch, game):  # noqa: F811
    module, play, roles = GAMES[game]
    card = qr_joined(module, monkeypatch)
    play(tmp_path, pilots, sent, monkeypatch)

    # What travels, socket by socket and each way: the HTTP handshake (the
    # page's address, its Origin, a date), the box's key and the phone's in
    # the clear, then sealed frames only, of one size each way (a
    # Villager's frame is a Wolf's length).
    assert len(wire.written) >= 5                         # a phone a seat
    payloads, sizes_out, sizes_in = [], set(), set()
    challenges: list[str] = []
    box_key = pinned_key(card["qr"])
    for written, read in zip(wire.written, wire.read, strict=True):
        out = frames(bytes(written), masked=False)
        back = frames(bytes(read), masked=True)
        key, phone_key = json.loads(out[0][1]), json.loads(back[0][1])
        assert (out[0][0], back[0][0]) == (0x1, 0x1)
        assert set(key) == {"t", "k", "c", "other"} and (key["t"], key["k"]) == ("key", box_key)
        challenges.append(key["c"])                       # the socket's own random
        assert set(phone_key) == {"t", "k"} and phone_key["t"] == "seal"
        assert key["other"] == OTHER                      # the box speaks English here
        assert all(opcode in (0x2, 0x8, 0x9, 0xA) for opcode, _p in out[1:] + back[1:])
        sizes_out |= {len(p) for opcode, p in out[1:] if opcode == 0x2}
        sizes_in |= {len(p) for opcode, p in back[1:] if opcode == 0x2}
        payloads += [p for _opcode, p in out + back]
    assert sizes_out == {protocol.FRAME_BYTES + seal.OVERHEAD}
    assert sizes_in == {protocol.PHONE_FRAME_BYTES + seal.OVERHEAD}
    assert len(set(challenges)) == len(challenges)          # no socket's key is another's
    air = b"\n".join(payloads)
    assert len(air) > 300_000

    # In it: no text the box or a phone sealed, no card or team in any
    # language, no PIN, token, choice or seat's view.
    box_said = [json.loads(m) for _socket, m in sent]
    tokens = {m["token"] for m in box_said if m["t"] == "joined"}
    assert len(tokens) >= 4
    secret = {s for m in box_said for s in strings(m)} | {
        s for m in phones_said for s in strings(json.loads(m))}
    for lang in LANGUAGES:                               # every card and team, every language
        with speaking(lang):
            secret |= {roles.role_name(r) for r in roles.ROLES}
            secret |= {_(name) for name in newd3_roles.TEAM_NAMES.values()}
    secret |= {card["pin"], *tokens}
    # (a word of the one line in the clear, "... scan the QR code again", is no secret)
    searched = {s for s in secret if len(s.encode()) >= 3 and s not in OTHER}
    assert len(searched) > 100
    seen = [s for s in searched for form in forms(s) if form in air]
    seen += [m for m in ('"t":"view"', '"secret":', '"choice":', '"token":', '"pin":')
             if m.encode() in air]
    assert seen == [], seen[:10]


def test_a_frame_sealed_for_one_seat_does_not_open_for_another_nor_twice_nor_changed():
    box = seal.BoxKey()
    three, four = PrivateKey.generate(), PrivateKey.generate()
    c3, c4 = seal.challenge(), seal.challenge()
    to_three = box.channel(seal.text(bytes(three.public_key)), c3)
    to_four = box.channel(seal.text(bytes(four.public_key)), c4)
    public = seal.key_of(box.public)
    at_three = seal.Channel(three, public, box=False, challenge=c3)
    at_four = seal.Channel(four, public, box=False, challenge=c4)
    card = protocol.framed(protocol.encode("view", secret=["Wolf"]))
    frame = to_three.seal(card)
    assert b"Wolf" not in frame and len(frame) == protocol.FRAME_BYTES + seal.OVERHEAD
    with pytest.raises(seal.Unsealable):
        at_four.open(frame)                              # seat 4 cannot read seat 3's card
    assert at_three.open(frame) == card
    with pytest.raises(seal.Unsealable, match="order"):
        at_three.open(frame)                             # the same frame again: a replay
    later = to_three.seal(card)
    changed = bytearray(later)
    changed[-1] ^= 1
    with pytest.raises(seal.Unsealable, match="does not open"):
        at_three.open(bytes(changed))
    assert at_three.open(later) == card                  # the real one still opens, in order
    tap = at_four.seal(b'{"t":"choose"}')
    with pytest.raises(seal.Unsealable, match="order"):
        at_four.open(tap)                                # sent back to the phone that sealed it
    assert to_four.open(tap) == b'{"t":"choose"}'
    for bad in ("", "A" * 42, "*" * 43, seal.text(bytes(32))):   # not a key, a weak key
        with pytest.raises(seal.Unsealable):
            box.channel(bad, c3)
    for bad_challenge in (b"", bytes(15), bytes(17)):
        with pytest.raises(seal.Unsealable):
            box.channel(seal.text(bytes(three.public_key)), bad_challenge)


def test_frames_recorded_on_one_socket_open_on_no_other():
    """Issue 41.1, as a listener on the Wi-Fi would: record a phone's
    sockets (its key goes in the clear, its frames sealed), then open a
    socket of your own, send the phone's key as yours and replay its
    frames: its hello with the token, its join. Nothing opens: the box's
    random for the new socket makes another key; the replayer's socket is
    closed and takes no seat, and the real phone keeps it."""
    posted: list = []
    server = PhoneServer(Room(seats=5, pin="4821"), posted.append, lambda s: None,
                         ["127.0.0.1"], 0, FakeClock())
    (url,) = server.start()
    server.publish({1: protocol.encode("view", title="One Night")},
                   {"title": "One Night", "words": {}})
    try:
        with connect(socket_url(url), open_timeout=WAIT) as ann:   # the victim, recorded
            key = seal.text(bytes(ann.channel_key))
            recorded = [ann.sealed('{"t": "hello"}'),
                        ann.sealed(json.dumps({"t": "join", "pin": "4821", "seat": 1,
                                               "name": "Ann"}))]
            for frame in recorded:
                ann.socket.send(frame)
            token = receive(ann, "joined")["token"]
            recorded.append(ann.sealed(json.dumps({"t": "hello", "token": token})))
            ann.socket.send(recorded[2])                 # as after a sleep, on its socket
            assert receive(ann, "joined")["seat"] == 1
            for replayed in (recorded[2], recorded[0], recorded[1]):
                with plain_connect(socket_url(url), open_timeout=WAIT, legacy=True) as thief:
                    first = json.loads(thief.recv(timeout=WAIT))
                    assert first["t"] == "key" and seal.challenge_of(first["c"])
                    thief.send(json.dumps({"t": "seal", "k": key}))     # the victim's key
                    thief.send(replayed)
                    with pytest.raises(ConnectionClosed):
                        while True:
                            thief.recv(timeout=WAIT)
                    assert thief.close_code == 1008
            assert server.room.seat_of(token) == 1 and set(server.room.held) == {1}
            ann.send(json.dumps({"t": "hello", "token": token}))       # still the victim's
            assert receive(ann, "joined")["seat"] == 1
        assert server.said.counts["unsealable"] == 3
        challenges = set()
        for _ in range(20):                              # a fresh random for each socket
            with plain_connect(socket_url(url), open_timeout=WAIT, legacy=True) as s:
                challenges.add(json.loads(s.recv(timeout=WAIT))["c"])
        assert len(challenges) == 20
    finally:
        server.close()


def test_no_two_frames_share_a_nonce_so_no_keystream_is_used_twice():
    """XSalsa20 under one key with a nonce used twice gives away the XOR of
    the two messages: every frame of a socket, both ways, has a nonce of its
    own (issue 42.12: a fixed nonce passed the suite)."""
    box = seal.BoxKey()
    phone = PrivateKey.generate()
    fresh = seal.challenge()
    to_phone = box.channel(seal.text(bytes(phone.public_key)), fresh)
    at_phone = seal.Channel(phone, seal.key_of(box.public), box=False, challenge=fresh)
    card = protocol.framed(protocol.encode("view", secret=["Wolf"]))
    made = [to_phone.seal(card) for _ in range(50)] + [at_phone.seal(card) for _ in range(50)]
    nonces = {frame[:seal.NONCE_BYTES] for frame in made}
    assert len(nonces) == len(made)
    bodies = {frame[seal.NONCE_BYTES:] for frame in made}
    assert len(bodies) == len(made)                    # the same card never looks the same


def test_each_start_of_the_server_has_a_key_of_its_own_shown_only_in_the_qr_code(
        served):  # noqa: F811 (the fixture)
    server, url, *_ = served
    other = PhoneServer(Room(seats=5), lambda e: None, lambda s: None, ["127.0.0.1"], 0,
                        FakeClock())
    assert other.key.public != server.key.public
    assert server.pinned(url) == f"{url}#k={server.key.public}"
    with connect(socket_url(url), open_timeout=WAIT, pinned=server.key.public):
        pass
    with pytest.raises(KeyMismatch, match="scan the QR code"):
        connect(socket_url(url), open_timeout=WAIT, pinned=other.key.public)


@pytest.mark.parametrize("attack", ["tampered", "replayed", "another key's"])
def test_a_frame_that_does_not_open_is_refused_in_one_line_and_its_socket_closed(
        served, caplog, attack):  # noqa: F811 (the fixture)
    server, url, posted, seated, _clock = served
    with connect(socket_url(url), open_timeout=WAIT) as ann:
        ann.send('{"t": "hello"}')
        assert receive(ann, "lobby")["title"] == "One Night"
        frame = ann.sealed('{"t": "hello"}')
        if attack == "tampered":
            frame = frame[:30] + bytes([frame[30] ^ 0x40]) + frame[31:]
        elif attack == "another key's":
            frame = seal.Channel(PrivateKey.generate(), seal.key_of(server.key.public),
                                 box=False, challenge=seal.challenge()
                                 ).seal(b" " * protocol.PHONE_FRAME_BYTES)
        else:
            ann.socket.send(frame)                       # sent once as it should be ...
            receive(ann, "lobby")
        with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
            with pytest.raises(ConnectionClosed):        # the box may close mid-way
                for _ in range(3):                       # ... then again, or changed
                    ann.socket.send(frame)
                while True:
                    ann.recv(timeout=WAIT)
        assert ann.close_code == 1008
    lines = [r.getMessage() for r in caplog.records if "did not open" in r.getMessage()]
    assert len(lines) == 1 and len(lines[0]) < 300, lines
    assert server.said.counts["unsealable"] == 1


def test_nothing_but_the_phones_key_is_heard_in_the_clear(served, caplog):  # noqa: F811
    _server, url, *_ = served
    with plain_connect(socket_url(url), open_timeout=WAIT, legacy=True) as raw:
        assert json.loads(raw.recv(timeout=WAIT))["t"] == "key"
        with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
            raw.send('{"t": "hello"}')                   # a hello in the clear: refused
            raw.send('{"t": "join", "pin": "4821", "seat": 1}')
            raw.send(b"\x00" * 100)                      # a "sealed" frame before a key
            raw.send('{"t": "seal", "k": "not a key"}')
            with pytest.raises(TimeoutError):
                raw.recv(timeout=0.5)                    # nothing comes back in the clear
    assert any("refused a phone's message" in r.getMessage() for r in caplog.records)
    refused = _server.said.counts["malformed"]
    with connect(socket_url(url), open_timeout=WAIT) as ann:     # a text after the key
        ann.socket.send('{"t": "hello"}')
        ann.send('{"t": "hello"}')
        assert receive(ann, "lobby")["title"] == "One Night"     # sealed, it is heard
        with pytest.raises(TimeoutError):
            ann.recv(timeout=0.5)                        # and the text was not: one lobby
    assert _server.said.counts["malformed"] == refused + 1


def test_the_page_with_tweetnacl_is_under_100_kb_gzipped_and_tweetnacl_is_npms():
    from importlib import resources
    page = resources.files("wolfbox.phones").joinpath("page")
    zipped = {name: len(gzip.compress(page.joinpath(name).read_bytes(), mtime=0))
              for name, _kind in PAGE_FILES.values()}
    assert sum(zipped.values()) <= 100 * 1024, zipped
    nacl = page.joinpath("nacl-fast.min.js").read_bytes()
    header, _end, body = nacl.partition(b"*/\n")
    assert b"Unlicense" in header or b"public domain" in header
    assert hashlib.sha256(body).hexdigest() == NACL_SHA256


def test_the_box_keeps_its_seats_across_a_power_cut_but_never_its_key():
    kept: list[dict] = []
    server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, lambda s: None,
                         ["127.0.0.1"], 0, FakeClock(), keep=kept.append)
    (url,) = server.start()
    try:
        server.publish({}, {"title": "One Night"})
        with connect(socket_url(url), open_timeout=WAIT, pinned=server.key.public) as ann:
            ann.send('{"t": "hello"}')
            ann.send(json.dumps({"t": "join", "pin": "4821", "seat": 2, "name": "Ann"}))
            receive(ann, "joined")
    finally:
        server.close()
    private = bytes(server.key._private)
    written = json.dumps(kept)
    assert "Ann" in written                              # the seat is kept, with its name
    for form in (private.hex(), seal.text(private), base64.b64encode(private).decode()):
        assert form not in written


def test_a_seat_freed_on_the_box_is_free_after_a_power_cut_too():
    """The box frees a lost phone's seat: what it keeps for a power cut
    says so at once, so the lost phone's token does not win the seat back
    when the box comes up again (issue 42.12: a free() that no longer
    wrote the seats file passed the suite)."""
    import threading
    kept: list[dict] = []
    wrote = threading.Condition()

    def keep(data: dict) -> None:
        with wrote:
            kept.append(data)
            wrote.notify_all()
    server = PhoneServer(Room(seats=5, pin="4821"), lambda e: None, lambda s: None,
                         ["127.0.0.1"], 0, FakeClock(), keep=keep)
    (url,) = server.start()
    try:
        server.publish({}, {"title": "One Night"})
        with connect(socket_url(url), open_timeout=WAIT, pinned=server.key.public) as ann:
            ann.send('{"t": "hello"}')
            ann.send(json.dumps({"t": "join", "pin": "4821", "seat": 2, "name": "Ann"}))
            token = receive(ann, "joined")["token"]
        with wrote:
            assert wrote.wait_for(lambda: Room.restored(kept[-1]).seat_of(token) == 2,
                                  timeout=WAIT)
            server.free(2)
            assert wrote.wait_for(lambda: Room.restored(kept[-1]).seat_of(token) is None,
                                  timeout=WAIT), kept[-1]
    finally:
        server.close()
    after_the_cut = Room.restored(kept[-1])
    assert after_the_cut.seat_of(token) is None and 2 not in after_the_cut.names()
