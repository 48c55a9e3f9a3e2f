"""Issue 41.3 at the server, without a browser: in a secret window the box
sends every seated phone a frame on the cover's clock and nothing between,
so a change to one seat's view (a Wolf's partner's mark) is not a frame
to that seat alone, nor a frame at the moment a phone's tap arrived; the
window's end sends what changed since its last beat, then the day. And
which moments are secret windows: the whole table's, whoever holds the
task (link.covered). test_phones_cover_frames_browser.py captures whole
games in Chromium."""

from __future__ import annotations

import json
import threading
import time

from test_phones import WAIT, phone, receive

from wolfbox.phone import PhoneView, Task
from wolfbox.phones import protocol
from wolfbox.phones.link import covered
from wolfbox.phones.room import Room
from wolfbox.phones.server import COVER_SECONDS, PhoneServer

LOBBY = {"title": "Night", "words": {}}


def views(marks: int, cover: bool) -> dict[int, bytes]:
    """Seat 1 a Wolf whose partner has made `marks` marks, seat 2 a decoy."""
    return {1: protocol.encode("view", secret=["Wolf", f"marks: {marks}"], cover=cover),
            2: protocol.encode("view", secret=["Sheep"], cover=cover)}


def test_in_a_secret_window_the_box_sends_every_phone_on_its_beat_and_nothing_between():
    server = PhoneServer(Room(seats=2, pin="4821"), lambda e: None, lambda s: None,
                         ["127.0.0.1"], 0)
    (url,) = server.start()
    heard: dict[int, list[tuple[float, dict]]] = {1: [], 2: []}
    try:
        server.publish({}, LOBBY)
        with phone(url) as wolf, phone(url) as sheep:
            for seat, socket in ((1, wolf), (2, sheep)):
                socket.send('{"t": "hello"}')
                receive(socket, "lobby")
                socket.send(json.dumps({"t": "join", "pin": "4821", "seat": seat}))
                receive(socket, "joined")
            server.publish(views(0, False), LOBBY)
            for socket in (wolf, sheep):
                receive(socket, "view")

            def listen(seat: int, socket) -> None:
                for raw in socket:
                    message = json.loads(raw)
                    heard[seat].append((time.monotonic(), message))
                    if message["t"] == "view" and not message["cover"]:
                        return                          # the day
            listening = [threading.Thread(target=listen, args=args)
                         for args in ((1, wolf), (2, sheep))]
            for thread in listening:
                thread.start()
            opened = time.monotonic()
            server.publish(views(0, True), LOBBY, secret=True)      # the window opens
            marks = 0
            while time.monotonic() - opened < 4 * COVER_SECONDS:    # the partner marks,
                marks += 1                                          # and marks again
                server.publish(views(marks, True), LOBBY, secret=True)
                time.sleep(COVER_SECONDS / 10)
            server.publish(views(marks, True), LOBBY, secret=True)
            server.publish(views(marks, False), LOBBY)              # the window ends
            closed = time.monotonic()
            for thread in listening:
                thread.join(WAIT)
    finally:
        server.close()
    # Some 40 changes to the Wolf's view, and each phone was sent only the
    # window's first frame and its beats: as many to the decoy as to the
    # Wolf; then the last marks, then the day. (When each left, as the air
    # orders it, test_phones_cover_frames_browser records at the server.)
    beats = {seat: [(t, m) for t, m in frames if m["cover"]] for seat, frames in heard.items()}
    assert marks > 20
    most = (closed - opened) / COVER_SECONDS + 3               # its beats, its two ends, one
    assert len(beats[1]) == len(beats[2]) <= most < marks / 2, beats
    assert [len(frames) for frames in heard.values()] == [len(beats[1]) + 1] * 2
    assert beats[1][-1][1]["secret"] == ["Wolf", f"marks: {marks}"]   # the last, at the end
    assert not heard[1][-1][1]["cover"] and not heard[2][-1][1]["cover"]


WOLF = PhoneView(1, "Night 1", secret=("Wolf",), task=Task("plot", "Tonight", ((2, "Seat 2"),)))
DEAD = PhoneView(2, "Night 1", secret=("Sheep",))              # no task: out of the game
CONSOLE_BY_DAY = PhoneView(8, "Day", task=Task("console", "The Mayor's console", (),
                                               marks_shown=True))
HANDS = PhoneView(1, "Day", secret=("Wolf",), task=Task("hands", "Hand up?", ((1, "Up"),),
                                                        marks_shown=True))


def test_a_secret_window_is_the_whole_tables_whoever_holds_the_task():
    assert covered([WOLF, DEAD])                       # the dead seat's phone keeps time too
    assert not covered([HANDS, CONSOLE_BY_DAY])        # the hands and the console: public
    assert not covered([DEAD, PhoneView(3, "Night")])  # nobody is asked anything
    assert not covered([PhoneView(1, "Vote", task=WOLF.task)])   # no secret on any phone
