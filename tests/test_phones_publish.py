"""Publishing (phones/publish.py), alone: which frame each phone is sent,
and when, on a loop of the test's own, with the sending recorded in the
order the frames leave (no sockets, no seals: the frames before sealing).

Over real sockets and pages: tests/test_phones_frames.py,
tests/test_phones_cover_beats.py, tests/test_phones_cover_frames_browser.py."""

from __future__ import annotations

import asyncio
import json

import pytest

from wolfbox.phones import protocol
from wolfbox.phones.publish import MESSAGES_PER_SECOND, Phone, Publisher
from wolfbox.phones.room import Room

WAIT = 10.0          # only a bound: each wait ends on a frame sent
KEYED = object()     # a phone's channel: it sent its key (what it is, sending does not read)
LOBBY = {"title": "One Night", "words": {}}


def view(seat: int, text: str) -> bytes:
    return protocol.encode("view", seat=seat, text=text)


class Table:
    """A Publisher over a room of five on a loop of its own; `sent` holds
    (client, frame) as each frame is delivered."""

    def __init__(self, cover_seconds: float = 0.5) -> None:
        self.loop = asyncio.new_event_loop()
        self.room = Room(seats=5, pin="4821")
        self.phones: set[Phone] = set()
        self.sent: list[tuple[str, dict]] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.heard = asyncio.Event()
        self.publisher = Publisher(self.loop, self.room, self.phones, self.deliver, self.keep,
                                   cover_seconds)

    async def deliver(self, phone: Phone, frame: bytes) -> None:
        self.sent.append((phone.client, json.loads(frame)))
        self.heard.set()

    def keep(self, task: asyncio.Task[None]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def phone(self, client: str, seat: int | None = None, keyed: bool = True) -> Phone:
        phone = Phone(None, client, channel=KEYED if keyed else None)
        if seat is not None:
            self.room.take(seat, client)
            phone.seat = seat
        self.phones.add(phone)
        return phone

    def publish(self, views: dict[int, bytes], secret: bool = False,
                lobby: dict[str, object] = LOBBY) -> list[tuple[str, dict]]:
        """One publish, its frames let go: those it sent, in order."""
        before = len(self.sent)
        self.publisher.publish(views, dict(lobby), secret)
        self.drain()
        return self.sent[before:]

    def drain(self) -> None:
        async def drained() -> None:
            while self.tasks:
                await asyncio.gather(*list(self.tasks))
        self.loop.run_until_complete(drained())

    def close(self) -> None:
        self.publisher.cover_clock(False)
        self.loop.close()


@pytest.fixture
def table():
    table = Table()
    yield table
    table.close()


def kinds(frames: list[tuple[str, dict]]) -> list[tuple[str, str]]:
    return [(client, frame["t"]) for client, frame in frames]


def test_when_one_seat_s_view_changes_every_seated_phone_is_sent_its_own(table):
    table.phone("ann", 1)
    table.phone("bo", 2)
    views = {1: view(1, "a"), 2: view(2, "b")}
    assert sorted(kinds(table.publish(views))) == [("ann", "view"), ("bo", "view")]
    changed = table.publish({**views, 2: view(2, "b, changed")})
    assert sorted((c, f["text"]) for c, f in changed) == [("ann", "a"), ("bo", "b, changed")]
    assert table.publish(dict(views) | {2: view(2, "b, changed")}) == []   # nothing new


def test_before_the_pin_a_phone_is_sent_the_lobby_with_the_seats_taken_and_no_name(table):
    table.phone("ann", 3)
    table.phone("newcomer")
    frames = dict(table.publish({3: view(3, "a")}))
    assert frames["newcomer"]["t"] == "lobby" and frames["newcomer"]["taken"] == {"3": ""}
    assert frames["newcomer"]["seats"] == 5 and "ann" not in json.dumps(frames["newcomer"])
    # a view changed elsewhere: the lobby is the same, and is not sent again
    assert kinds(table.publish({3: view(3, "b")})) == [("ann", "view")]


def test_a_phone_that_has_not_sent_its_key_is_sent_nothing(table):
    table.phone("keyless", 1, keyed=False)
    table.phone("nobody", keyed=False)
    assert table.publish({1: view(1, "a")}) == []


def test_a_seat_freed_on_the_box_sends_its_phone_back_to_the_lobby(table):
    ann = table.phone("ann", 1)
    table.publish({1: view(1, "a")})
    table.room.free(1)
    table.publisher.send(ann)
    table.drain()
    assert ann.seat is None and kinds(table.sent[-1:]) == [("ann", "lobby")]


def test_a_secret_window_sends_the_seated_only_at_its_edges_and_beats(table):
    ann, bo = table.phone("ann", 1), table.phone("bo", 2)
    table.phone("newcomer")
    views = {1: view(1, "a"), 2: view(2, "b")}
    table.publish(views)
    opened = table.publish(views, secret=True)              # the edge: every seated phone
    assert sorted(kinds(opened)) == [("ann", "view"), ("bo", "view")]
    assert ann.owed == bo.owed == 1                          # each answers a beat
    inside = table.publish({**views, 1: view(1, "a, the Seer looked")}, secret=True)
    assert inside == []                                      # it waits for the next beat
    later = {1: view(1, "a, the Seer looked"), 2: view(2, "b, night ends")}
    ended = table.publish(later, secret=False)
    # the last beat (what changed inside, for every seated phone), then the edge
    assert [(c, f["text"]) for c, f in ended if c == "ann"] == [
        ("ann", "a, the Seer looked"), ("ann", "a, the Seer looked")]
    assert [(c, f["text"]) for c, f in ended if c == "bo"] == [("bo", "b"), ("bo", "b, night ends")]
    assert all(c != "newcomer" for c, _f in ended)
    assert ann.owed == bo.owed == 2


def test_the_cover_s_clock_beats_every_seated_phone_alike_and_what_is_owed_is_capped():
    table = Table(cover_seconds=0.01)
    try:
        ann, bo = table.phone("ann", 1), table.phone("bo", 2)
        table.publish({1: view(1, "a"), 2: view(2, "b")}, secret=True)
        beats = MESSAGES_PER_SECOND + 3

        async def beaten() -> None:
            while len(table.sent) < 2 * (1 + beats):
                table.heard.clear()
                await asyncio.wait_for(table.heard.wait(), WAIT)
        table.loop.run_until_complete(beaten())
        table.publisher.cover_clock(False)
        table.drain()
        by = {c: [f["text"] for cc, f in table.sent if cc == c] for c in ("ann", "bo")}
        assert len(by["ann"]) == len(by["bo"]) >= 1 + beats
        assert set(by["ann"]) == {"a"} and set(by["bo"]) == {"b"}
        assert ann.owed == bo.owed == MESSAGES_PER_SECOND
    finally:
        table.close()


def test_the_lobby_labels_name_a_seat(table):
    table.publish({}, lobby={**LOBBY, "labels": {"1": "Mayor"}})
    assert table.publisher.label(1) == "Mayor" and table.publisher.label(2) == ""
