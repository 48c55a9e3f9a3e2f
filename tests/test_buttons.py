from wolfbox.buttons import Button, Classifier, Hold, Release, Tap


def classifier() -> Classifier:
    return Classifier(hold_seconds={Button.BACK: 2.0}, debounce=0.03)


def test_plain_buttons_tap_on_press():
    c = classifier()
    assert c.press(Button.START, 1.0) == [Tap(Button.START)]
    assert c.release(Button.START, 1.1) == []


def test_hold_button_taps_on_a_short_press():
    c = classifier()
    assert c.press(Button.BACK, 1.0) == []
    assert c.poll(2.9) == []
    assert c.release(Button.BACK, 2.9) == [Tap(Button.BACK)]


def test_hold_fires_at_the_hold_time_while_still_down_and_once():
    c = classifier()
    c.press(Button.BACK, 1.0)
    assert c.next_deadline() == 3.0
    assert c.poll(2.999) == []
    assert c.poll(3.0) == [Hold(Button.BACK)]
    assert c.poll(10.0) == []
    assert c.next_deadline() is None
    # No tap after a hold: the release is told as such (the timed game
    # shows a card only while it is held).
    assert c.release(Button.BACK, 10.0) == [Release(Button.BACK)]


def test_a_late_release_still_counts_as_a_hold_if_poll_was_missed():
    c = classifier()
    c.press(Button.BACK, 0.0)
    assert c.release(Button.BACK, 2.5) == [Hold(Button.BACK), Release(Button.BACK)]


def test_contact_bounce_is_ignored_and_the_level_settles():
    c = classifier()
    assert c.press(Button.START, 1.0) == [Tap(Button.START)]
    assert c.release(Button.START, 1.01) == []     # bounce inside the lockout
    assert c.press(Button.START, 1.02) == []
    assert c.poll(1.03) == [] and c.held(Button.START)   # it ended down: still down
    assert c.release(Button.START, 1.2) == []
    assert not c.held(Button.START)
    assert c.press(Button.START, 1.5) == [Tap(Button.START)]


def test_a_release_inside_the_lockout_is_taken_when_it_ends():
    c = classifier()
    c.press(Button.BACK, 1.0)
    assert c.release(Button.BACK, 1.02) == []
    assert c.next_deadline() == 1.03
    assert c.poll(1.03) == [Tap(Button.BACK)]
    assert not c.held(Button.BACK) and c.next_deadline() is None


def test_bounce_while_pressing_back_does_not_spoil_the_hold():
    c = classifier()
    c.press(Button.BACK, 0.0)
    c.release(Button.BACK, 0.005)
    c.press(Button.BACK, 0.01)
    assert c.poll(1.0) == []
    assert c.poll(2.0) == [Hold(Button.BACK)]


def test_repeated_press_edges_without_release_do_not_tap_twice():
    c = classifier()
    assert c.press(Button.VOTE, 1.0) == [Tap(Button.VOTE)]
    assert c.press(Button.VOTE, 2.0) == []


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

edges = st.lists(st.tuples(st.sampled_from(list(Button)), st.booleans(),
                           st.floats(0, 3, allow_nan=False)), max_size=60)


@given(edges)
def test_random_edges_never_tap_more_than_presses_and_always_settle(sequence):
    c = classifier()
    now, presses, events = 0.0, {b: 0 for b in Button}, []
    level = {b: False for b in Button}
    for button, down, dt in sequence:
        now += dt
        events += c.poll(now)
        if down and not level[button]:
            presses[button] += 1
        level[button] = down
        events += c.press(button, now) if down else c.release(button, now)
    now += 10
    events += c.poll(now)
    for b in Button:
        mine = [e for e in events if e.button is b]
        assert sum(1 for e in mine if not isinstance(e, Release)) <= presses[b]
        # A release is told only after that press's hold, once.
        assert sum(1 for e in mine if isinstance(e, Release)) <= \
            sum(1 for e in mine if isinstance(e, Hold))
        assert c.held(b) == level[b]          # the debounced level ends as the pin's
    assert c.next_deadline() is None          # nothing left pending


def test_a_hold_not_offered_now_taps_on_press_decided_as_it_goes_down():
    """START holds only where the screen offers it (the phones' screen):
    elsewhere it taps as it goes down, as quick as a plain button; a press
    keeps what it was when it went down, whatever the screen offers by
    its release (no second tap, no hold)."""
    c = Classifier(hold_seconds={Button.START: 2.0}, debounce=0.03,
                   taps_now=frozenset({Button.START}))
    assert c.press(Button.START, 1.0) == [Tap(Button.START)]
    assert c.holding(2.0) is None and c.next_deadline() is None
    c.taps_now = frozenset()                        # the screen now offers the hold
    assert c.poll(5.0) == []
    assert c.release(Button.START, 5.0) == []
    assert c.press(Button.START, 6.0) == []         # the next press may hold
    c.taps_now = frozenset({Button.START})
    assert c.poll(8.0) == [Hold(Button.START)]
    assert c.release(Button.START, 8.5) == [Release(Button.START)]
