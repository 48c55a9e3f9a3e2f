"""The speech queue every game shares (wolfbox.engine.speech): one line at
a time, each held for its caption time, shortened to the gap once heard,
and held whole through a pause, in every game alike."""

from __future__ import annotations

import pytest

from wolfbox.engine.speech import Speech

PER_WORD = 0.4


def test_lines_are_said_one_at_a_time_in_order_with_their_tokens():
    s: Speech[str] = Speech()
    assert s.add("One two three.", "dawn") is True          # nothing said: start it
    first = s.next(0.0, PER_WORD, paused=False)
    assert first is not None and first.text == "One two three." and s.about == "dawn"
    assert s.add("Four.") is False                          # queued behind it
    assert s.heard(first.token, 1.0, gap=0.5, paused=False)
    assert s.line is not None and s.line.deadline == pytest.approx(1.5)   # only the gap
    second = s.next(1.5, PER_WORD, paused=False)
    assert second is not None and second.text == "Four." and second.token == first.token + 1
    assert s.next(9.0, PER_WORD, paused=False) is None and s.speaking is None


def test_a_line_heard_out_while_paused_keeps_its_whole_gap_for_the_resume():
    s: Speech[None] = Speech()
    s.add("A line.")
    say = s.next(0.0, PER_WORD, paused=False)
    assert say is not None
    s.line.pause(0.2)                                       # the game pauses its clocks
    assert s.heard(say.token, 0.3, gap=0.6, paused=True)
    s.line.resume(100.0)                                    # ... and resumes them
    assert s.line.deadline == pytest.approx(100.6)


def test_a_stale_token_changes_nothing_and_silence_says_whether_to_stop():
    s: Speech[None] = Speech()
    s.add("First.")
    old = s.next(0.0, PER_WORD, paused=False)
    s.replace("Instead.")
    new = s.next(0.1, PER_WORD, paused=False)
    assert old is not None and new is not None
    line = s.line
    assert s.heard(old.token, 0.2, gap=0.5, paused=False) is False and s.line is line
    assert s.silence() is True and s.line is None and s.queue == []
    assert s.silence() is False
