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
    POWER = "power"      # optional, outside the game: held, it shuts the box down


GAME_BUTTONS = (Button.START, Button.VOTE, Button.NEXT, Button.BACK)


@dataclass(frozen=True)
class Tap:
    button: Button


@dataclass(frozen=True)
class Hold:
    button: Button


@dataclass(frozen=True)
class Release:
    """A held button let go, after its Hold: the timed game shows a card
    only while it is held. Other modes ignore it."""
    button: Button


@dataclass
class _State:
    raw: bool = False             # the level the pin last reported
    down: bool = False            # the debounced level
    since: float = 0.0            # when `down` last changed
    lock_until: float = float("-inf")
    held_fired: bool = False
    holdable: bool = False        # this press may hold (decided as it went down)


@dataclass
class Classifier:
    """Turns raw press/release edges into Tap and Hold events.

    Debounce is a lockout: the first edge counts at once (no added latency),
    then edges are ignored for `debounce` seconds, after which the level the
    pin last reported is taken as the truth. A bouncing contact cannot make
    two taps, and a button can never be left "stuck" down.

    Buttons in `hold_seconds` may be held: they tap on release (if released
    before the hold time) and hold when the hold time passes while still
    down. Other buttons tap on press, as responsive as the hardware allows,
    and so do those in `taps_now` (a hold the screen does not offer now:
    START's, without phones), decided as each press goes down.
    """

    hold_seconds: dict[Button, float] = field(default_factory=dict)
    debounce: float = 0.03
    taps_now: frozenset[Button] = frozenset()
    _states: dict[Button, _State] = field(default_factory=dict)

    def press(self, button: Button, now: float) -> list[Tap | Hold | Release]:
        return self._edge(button, True, now)

    def release(self, button: Button, now: float) -> list[Tap | Hold | Release]:
        return self._edge(button, False, now)

    def _edge(self, button: Button, down: bool, now: float) -> list[Tap | Hold | Release]:
        state = self._states.setdefault(button, _State())
        state.raw = down
        return self._settle(button, state, now)

    def _settle(self, button: Button, state: _State, now: float) -> list[Tap | Hold | Release]:
        if now < state.lock_until or state.raw == state.down:
            return []
        state.down, state.lock_until = state.raw, now + self.debounce
        if state.down:
            state.since, state.held_fired = now, False
            state.holdable = button in self.hold_seconds and button not in self.taps_now
            return [] if state.holdable else [Tap(button)]
        if not state.holdable:
            return []
        if state.held_fired:
            return [Release(button)]
        if now - state.since >= self.hold_seconds[button]:   # the hold was never polled
            state.held_fired = True
            return [Hold(button), Release(button)]
        return [Tap(button)]

    def poll(self, now: float) -> list[Tap | Hold | Release]:
        """Events due by `now`: settled edges and holds whose time has come."""
        events: list[Tap | Hold | Release] = []
        for button, state in self._states.items():
            if state.raw != state.down and now >= state.lock_until:
                events += self._settle(button, state, state.lock_until)
            limit = self.hold_seconds.get(button)
            if (limit is not None and state.down and state.holdable and not state.held_fired
                    and now - state.since >= limit):
                state.held_fired = True
                events.append(Hold(button))
        return events

    def next_deadline(self) -> float | None:
        """When poll() next has something to do, so the loop knows when to wake."""
        times = []
        for button, state in self._states.items():
            if state.raw != state.down:
                times.append(state.lock_until)
            limit = self.hold_seconds.get(button)
            if limit is not None and state.down and state.holdable and not state.held_fired:
                times.append(state.since + limit)
        return min(times, default=None)

    def held(self, button: Button) -> bool:
        state = self._states.get(button)
        return state is not None and state.down

    def holding(self, now: float) -> tuple[Button, float] | None:
        """A holdable button that is down and has not fired yet, with how far
        along its hold it is (0..1): the screen fills its legend box."""
        for button, state in self._states.items():
            limit = self.hold_seconds.get(button)
            if limit and state.down and state.holdable and not state.held_fired:
                return button, max(0.0, min(1.0, (now - state.since) / limit))
        return None


# The colour of each arcade button's cap; the on-screen legend uses the same.
BUTTON_COLORS: dict[Button, tuple[int, int, int]] = {
    Button.START: (60, 190, 90),
    Button.VOTE: (225, 60, 60),
    Button.NEXT: (60, 130, 235),
    Button.BACK: (240, 200, 50),
    Button.POWER: (200, 200, 200),
}
