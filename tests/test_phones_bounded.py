"""The phones' bounded log (phones/bounded.py), alone: a line a client
can cause is said once, then at most once a minute with a count of those
not said, each kind on its own clock; every one is counted."""

from __future__ import annotations

import logging

from test_phones import FakeClock

from wolfbox.phones.bounded import LOG_EVERY, Bounded


def test_a_line_a_client_can_cause_is_said_once_then_once_a_minute_with_a_count(caplog):
    clock = FakeClock()
    said = Bounded(clock)
    with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
        for _ in range(1000):
            said.say("origin", "refused %s", "x")
        clock.now += 59.0
        said.say("origin", "refused %s", "x")
        said.say("fast", "too fast")                  # another kind is its own
        clock.now += 1.0
        said.say("origin", "refused %s", "x")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["phones: refused x", "phones: too fast",
                     "phones: refused x (and 1000 more like it since the last said)"]
    assert said.counts == {"origin": 1002, "fast": 1}


def test_a_kind_quiet_for_a_minute_is_said_again_with_no_count(caplog):
    """Once a line has been said and none like it came since, the next is
    said plainly: a count of nought would read as a flood that was not."""
    clock = FakeClock()
    said = Bounded(clock)
    with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
        said.say("pin", "a wrong PIN from %s", "10.0.0.7")
        clock.now += LOG_EVERY
        said.say("pin", "a wrong PIN from %s", "10.0.0.8")
    assert [r.getMessage() for r in caplog.records] == [
        "phones: a wrong PIN from 10.0.0.7", "phones: a wrong PIN from 10.0.0.8"]
    assert said.counts == {"pin": 2}


def test_the_minute_is_counted_from_the_line_said_not_from_the_last_one_heard(caplog):
    """A steady trickle, one line every 50 s, is said every other time: the
    minute runs from what was said, so a client cannot keep it quiet by
    never pausing, nor loud by pausing just short of it."""
    clock = FakeClock()
    said = Bounded(clock, every=60.0)
    with caplog.at_level(logging.WARNING, logger="wolfbox.phones"):
        for _ in range(5):
            said.say("fast", "closed a phone that sent too fast (%s)", "10.0.0.9")
            clock.now += 50.0
    assert [r.getMessage() for r in caplog.records] == [
        "phones: closed a phone that sent too fast (10.0.0.9)",
        "phones: closed a phone that sent too fast (10.0.0.9) "
        "(and 1 more like it since the last said)",
        "phones: closed a phone that sent too fast (10.0.0.9) "
        "(and 1 more like it since the last said)"]
