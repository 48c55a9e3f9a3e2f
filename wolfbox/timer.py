"""A countdown that is a deadline on a monotonic clock.

Never a count of frames or a sum of sleeps: a late wake-up cannot make the
timer drift. It keeps the time left as of an instant (`left` at `since`),
so pausing stores the remaining time exactly and resuming picks it up
exactly, with no rounding through an absolute deadline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

EPSILON = 1e-9


@dataclass
class Countdown:
    total: float
    left: float                 # seconds left as of `since`
    since: float | None         # None while paused

    @classmethod
    def start(cls, now: float, seconds: float) -> Countdown:
        seconds = max(0.0, seconds)
        return cls(total=seconds, left=seconds, since=now)

    @property
    def paused(self) -> bool:
        return self.since is None

    @property
    def deadline(self) -> float | None:
        return None if self.since is None else self.since + self.left

    def remaining(self, now: float) -> float:
        if self.since is None:
            return self.left
        left = self.left - (now - self.since)
        # Below a nanosecond is rounding in `since + left`, not time left:
        # at its own deadline a countdown has expired.
        return left if left > EPSILON else 0.0

    def expired(self, now: float) -> bool:
        return self.remaining(now) <= 0.0

    def pause(self, now: float) -> None:
        if self.since is not None:
            self.left, self.since = self.remaining(now), None

    def resume(self, now: float) -> None:
        if self.since is None:
            self.since = now

    def add(self, now: float, seconds: float) -> None:
        """Extend the countdown. The total is scaled with the time left, so a
        bar of the share of time left stays where it is and then runs down
        more slowly, instead of jumping."""
        before = self.remaining(now)
        self.left = before + seconds
        if self.since is not None:
            self.since = now
        self.total = self.total * self.left / before if before > EPSILON else self.left

    def shown_seconds(self, now: float) -> int:
        """Whole seconds as a display shows them: 4:59.2 left shows 5:00."""
        return math.ceil(self.remaining(now) - EPSILON)

    def next_change(self, now: float) -> float | None:
        """The monotonic time at which `shown_seconds` next changes."""
        deadline = self.deadline
        if deadline is None:
            return None
        shown = self.shown_seconds(now)
        if shown <= 0:
            return None
        return deadline - (shown - 1)


def clock_text(seconds: float) -> str:
    """Seconds as a timer shows them: 90 -> "1:30"."""
    s = round(seconds)
    return f"{s // 60}:{s % 60:02d}"
