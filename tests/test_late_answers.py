"""A seat's night result reaches its phone however late in the call its
answer came, and however busy the box is (issue 33).

Two causes could each lose it: the game forgot a result as soon as the
next step began (an answer tapped in the last second of a call was shown
for a moment, or never, and the last call's was dropped at dawn), and the
server sent each phone only the newest view, so views published while
its thread was busy were never sent. Each is tested on its own here."""

from __future__ import annotations

import json
import threading

from test_onenight_phones import START, VOTE, Table
from test_phones import WAIT, phone, receive

from wolfbox.onenight.phones import PhoneNight
from wolfbox.phones import protocol
from wolfbox.phones.room import Room
from wolfbox.phones.server import PhoneServer
from wolfbox.view import Phase

# Five seats with the Curator last at night, and the Seer earlier.
SEATS = ["werewolf", "seer", "villager", "villager", "curator"]
CENTER = ["werewolf", "villager", "drunk"]
PUT = "You put an artifact token face down on Seat 1's card."


def test_an_answer_in_the_last_moment_of_the_last_call_is_read_until_the_vote():
    table = Table(SEATS, CENTER)
    table.press(START)
    table.call("curator")
    deadline = table.f.next_change(table.now)
    assert deadline is not None
    table.now = deadline - 0.01                      # the last hundredth of the window
    table.choose(5, 1)
    table.everyone_else({5})
    seen_after: list[tuple[str, ...]] = []
    table.until(lambda: seen_after.append(table.secret(5)) or table.f.phase is not Phase.NIGHT)
    assert seen_after and all(PUT in s for s in seen_after)       # the close, the dawn
    table.until(lambda: table.f.phase is Phase.DISCUSSION)
    assert PUT in table.secret(5)                    # behind the cover through the talk
    table.press(VOTE)
    table.until(lambda: table.task(5) is not None)
    assert PUT not in table.secret(5)                # its next task: the vote


def test_a_result_stays_through_the_call_s_closing_and_goes_when_the_next_task_opens():
    night = PhoneNight(tuple(SEATS + CENTER))
    night.begin("seer")
    assert night.answer(2, night.task(2).step, (1,))
    assert "Seat 1: Werewolf." in night.secret(2)
    night.close()                                    # "Seer, close your eyes."
    assert "Seat 1: Werewolf." in night.secret(2)
    night.begin("close_eyes")
    assert "Seat 1: Werewolf." in night.secret(2)    # a step with no task
    night.begin("robber")                            # every seat's next task
    assert "Seat 1: Werewolf." not in night.secret(2)


def test_views_published_while_the_server_is_busy_all_reach_the_phone_in_order():
    """The box publishes three views while the server's loop is held up
    (a busy machine): the phone is sent all three, in order, not only
    the last."""
    server = PhoneServer(Room(seats=2, pin="4821"), lambda e: None, lambda s: None,
                         ["127.0.0.1"], 0)
    (url,) = server.start()
    try:
        server.publish({}, {"title": "One Night", "words": {}})
        with phone(url) as ann:
            ann.send('{"t": "hello"}')
            receive(ann, "lobby")
            ann.send(json.dumps({"t": "join", "pin": "4821", "seat": 1, "name": "Ann"}))
            receive(ann, "joined")
            held, holding = threading.Event(), threading.Event()

            def busy() -> None:
                holding.set()
                held.wait(WAIT)
            server._loop.call_soon_threadsafe(busy)
            assert holding.wait(WAIT)
            for n in range(3):
                server.publish({1: protocol.encode("view", lines=[f"view {n}"]),
                                2: protocol.encode("view", lines=[f"view {n}"])},
                               {"title": "One Night", "words": {}})
            held.set()
            got = [receive(ann, "view")["lines"] for _n in range(3)]
            assert got == [["view 0"], ["view 1"], ["view 2"]]
    finally:
        server.close()
