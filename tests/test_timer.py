import pytest
from hypothesis import given
from hypothesis import strategies as st

from wolfbox.timer import Countdown


def test_counts_down_from_a_deadline():
    t = Countdown.start(100.0, 300)
    assert t.remaining(100.0) == 300
    assert t.remaining(250.5) == 149.5
    assert t.shown_seconds(250.5) == 150       # 2:29.5 left reads 2:30
    assert t.remaining(500.0) == 0 and t.expired(400.0)


def test_pause_keeps_the_exact_remaining_time():
    t = Countdown.start(0.0, 60)
    t.pause(12.345)
    assert t.remaining(1000.0) == 60 - 12.345
    t.resume(2000.0)
    assert t.remaining(2000.0) == 60 - 12.345
    assert t.deadline == 2000.0 + 60 - 12.345


def test_add_extends_and_keeps_the_share_of_time_left():
    t = Countdown.start(0.0, 60)
    t.add(50.0, 60)                               # 10 of 60 s left, then 70
    assert t.remaining(50.0) == 70
    assert t.remaining(50.0) / t.total == pytest.approx(10 / 60)
    t.pause(60.0)
    t.add(60.0, 30)
    assert t.remaining(99.0) == 90


def test_next_change_is_the_next_displayed_second():
    t = Countdown.start(10.0, 5)
    assert t.next_change(10.0) == 11.0           # 5 -> 4 at one second in
    assert t.next_change(11.2) == 12.0
    assert t.next_change(15.0) is None           # over
    t.pause(12.5)
    assert t.next_change(12.5) is None


@given(st.floats(0, 10_000), st.floats(0, 3600), st.lists(st.floats(0, 500), max_size=20))
def test_never_negative_and_never_grows_by_itself(start, seconds, steps):
    t = Countdown.start(start, seconds)
    now, last = start, t.remaining(start)
    for dt in steps:
        now += dt
        r = t.remaining(now)
        assert 0 <= r <= last
        last = r
