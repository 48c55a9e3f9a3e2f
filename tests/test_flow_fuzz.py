"""Random taps, holds, speech ends and time jumps never break the flow."""

from __future__ import annotations

from conftest import make_flow
from hypothesis import given, settings
from hypothesis import strategies as st

from wolfbox.buttons import Button, Hold, Tap
from wolfbox.events import SpeechDone
from wolfbox.view import Phase

events = st.one_of(
    st.builds(Tap, st.sampled_from(list(Button))),
    st.builds(Hold, st.sampled_from(list(Button))),
    st.builds(SpeechDone, st.integers(0, 40)),
    st.floats(0, 400, allow_nan=False),          # a time jump, in seconds
)


@settings(max_examples=400, deadline=None)
@given(st.lists(events, max_size=80), st.sampled_from([10.0, 60.0, 300.0]),
       st.lists(st.integers(1, 600), max_size=3))
def test_any_sequence_keeps_the_flow_defined(sequence, discussion, warnings):
    flow = make_flow(discussion_seconds=discussion, warnings=tuple(warnings))
    now = 0.0
    for item in sequence:
        if isinstance(item, float):
            now += item
            flow.tick(now)
        else:
            flow.handle(item, now)
        flow.check(now)
        view = flow.view(now)
        assert view.phase is flow.phase
        if flow.clock is not None:
            assert flow.clock.remaining(now) >= 0
            assert flow.clock.remaining(now) <= flow.clock.total + 1e-9
            assert view.progress is None or view.progress <= 1.0
        if flow.phase is not Phase.SETTINGS and view.big[:1].isdigit() and ":" in view.big:
            minutes, seconds = view.big.split(":")
            assert int(minutes) >= 0 and 0 <= int(seconds) < 60
        if view.progress is not None:
            assert 0.0 <= view.progress <= 1.0
        nxt = flow.next_change(now)
        assert nxt is None or nxt >= now - 1e-9
        if flow.phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE) and not flow.paused:
            assert nxt is not None, "a running phase must always have a next deadline"
