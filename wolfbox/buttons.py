"""The four buttons and the pure tap/hold classifier.

Hold versus tap is decided here, with the injected clock, rather than by
gpiozero's `hold_time`: gpiozero's mock pins ignore `bounce_time` and run
callbacks on library threads, so classification that must be tested lives
in pure code where a fake clock can drive it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Button(StrEnum):
    START = "start"
    VOTE = "vote"
    NEXT = "next"
    BACK = "back"


@dataclass(frozen=True)
class Tap:
    button: Button


@dataclass(frozen=True)
class Hold:
    button: Button


@dataclass
class _Pressed:
    since: float
    held_fired: bool = False


@dataclass
class Classifier:
    """Turns raw press/release edges into Tap and Hold events.

    Buttons in `hold_seconds` may be held: they tap on release (if released
    before the hold time) and hold when the hold time passes while still
    down. Other buttons tap on press, which keeps them as responsive as the
    hardware allows. Edges closer than `debounce` to the previous edge of the
    same button are contact bounce and are ignored.
    """

    hold_seconds: dict[Button, float] = field(default_factory=dict)
    debounce: float = 0.03
    _down: dict[Button, _Pressed] = field(default_factory=dict)
    _last_edge: dict[Button, float] = field(default_factory=dict)

    def _bounced(self, button: Button, now: float) -> bool:
        last = self._last_edge.get(button)
        if last is not None and 0 <= now - last < self.debounce:
            return True
        self._last_edge[button] = now
        return False

    def press(self, button: Button, now: float) -> list[Tap | Hold]:
        if button in self._down or self._bounced(button, now):
            return []
        self._down[button] = _Pressed(since=now)
        if button in self.hold_seconds:
            return []
        return [Tap(button)]

    def release(self, button: Button, now: float) -> list[Tap | Hold]:
        pressed = self._down.get(button)
        if pressed is None or self._bounced(button, now):
            return []
        del self._down[button]
        if button not in self.hold_seconds:
            return []
        events = self.poll(now, only=button, pressed=pressed)
        if pressed.held_fired or events:
            return events
        return [Tap(button)]

    def poll(self, now: float, only: Button | None = None,
             pressed: _Pressed | None = None) -> list[Tap | Hold]:
        """Hold events whose hold time has passed by `now`."""
        items = [(only, pressed)] if only is not None and pressed is not None \
            else list(self._down.items())
        events: list[Tap | Hold] = []
        for button, state in items:
            limit = self.hold_seconds.get(button)
            if limit is not None and not state.held_fired and now - state.since >= limit:
                state.held_fired = True
                events.append(Hold(button))
        return events

    def next_deadline(self) -> float | None:
        """When the next hold can fire, so the loop knows when to wake."""
        times = [state.since + self.hold_seconds[b] for b, state in self._down.items()
                 if b in self.hold_seconds and not state.held_fired]
        return min(times, default=None)

    def held(self, button: Button) -> bool:
        return button in self._down


# The colour of each arcade button's cap; the on-screen legend uses the same.
BUTTON_COLORS: dict[Button, tuple[int, int, int]] = {
    Button.START: (60, 190, 90),
    Button.VOTE: (225, 60, 60),
    Button.NEXT: (60, 130, 235),
    Button.BACK: (240, 200, 50),
}
