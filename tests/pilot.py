"""Drive the real box on a fake clock, the way Textual's Pilot drives an app.

The box is built with every real adapter (mock pins, SDL's dummy drivers,
the narrator and its mixer) but reads time from a FakeClock. `advance`
jumps the clock from one of the box's own deadlines to the next and lets
the loop act at each, so a ten-minute round takes milliseconds and no test
waits on the wall clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wolfbox.buttons import Button
from wolfbox.view import View


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Pilot:
    parts: object                       # wolfbox.device.app.Parts
    clock: FakeClock
    frames: list[View] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.box = self.parts.box       # type: ignore[attr-defined]
        self.bank = self.parts.bank     # type: ignore[attr-defined]
        self.box.on_frame = lambda view, t: self.frames.append(view)
        self.box.refresh()

    @property
    def view(self) -> View:
        return self.frames[-1]

    def settle(self) -> None:
        """Let the loop act on everything posted and due, without waiting."""
        self.box.act(self.box.inbox.wait(0))

    def advance(self, seconds: float) -> None:
        """Move time on by `seconds`, acting at every deadline on the way."""
        target = self.clock.now + seconds
        for _ in range(100_000):
            due = self.box.next_due(self.clock.now)
            if due is None or due > target:
                break
            self.clock.now = max(self.clock.now, due)
            self.settle()
        self.clock.now = target
        self.settle()

    def until(self, predicate, limit: float = 3600.0, step: float = 0.25) -> float:
        """Advance in small steps until `predicate()`; the time it took."""
        start = self.clock.now
        while not predicate():
            assert self.clock.now - start < limit, "the box never got there"
            self.advance(step)
        return self.clock.now - start

    def press(self, button: Button, hold: float = 0.05) -> None:
        """Press the button's mock pin for `hold` seconds of box time, then
        let go and wait out the debounce, as a finger would."""
        self.bank.drive(button, True)
        self.settle()
        self.advance(hold)
        self.bank.drive(button, False)
        self.settle()
        self.advance(0.1)
