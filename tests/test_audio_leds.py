"""The pulsing button light: visibly breathing, at few pin writes a second
(gpiozero's own pulse writes 25 a second, a third of the idle box's CPU)."""

from __future__ import annotations

import time

from conftest import make_flow
from gpiozero.pins.mock import MockFactory, MockPWMPin

from wolfbox.buttons import Button
from wolfbox.hardware.leds import LedBank


def test_the_pulse_breathes_at_a_dozen_writes_a_second_at_most():
    factory = MockFactory(pin_class=MockPWMPin)
    bank = LedBank({Button.START: 12}, factory, brightness=0.8)
    bank.show(make_flow().view(0))                     # START pulses on the start screen
    pin = factory.pin(12)
    pin.clear_states()
    t0 = time.monotonic()
    deadline = t0 + 60                                 # an upper bound, not a sleep
    while len(pin.states) < 30:
        assert time.monotonic() < deadline, "the light does not pulse"
        time.sleep(0.01)
    elapsed = time.monotonic() - t0
    assert elapsed >= 29 / 12                          # no faster than 12 writes a second
    levels = [s.state for s in pin.states[1:]]
    assert min(levels) < 0.05 and max(levels) > 0.75   # dark to bright: visibly pulsing
    assert max(levels) <= 0.8 + 1e-9                   # within the set brightness
    bank.close()
