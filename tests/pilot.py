"""Drive the real box on a fake clock, the way Textual's Pilot drives an app.

The box is built with every real adapter (mock pins, SDL's dummy drivers,
the narrator and its mixer) but reads time from a FakeClock. `advance`
jumps the clock from one of the box's own deadlines to the next and lets
the loop act at each, so a ten-minute round takes milliseconds and no test
waits on the wall clock.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from wolfbox.buttons import Button
from wolfbox.config import Config
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


# A renderer that cannot start: the box plays from what the test put in the cache.
NO_RENDERER = [sys.executable, "-c", "import sys; sys.exit(3)"]


def game_lines(config: Config) -> list[str]:
    """Every line the game the config names can say at its first table."""
    if config.game.mode == "dark_arts":
        from wolfbox.darkarts import said as mayors
        from wolfbox.darkarts.seats import DEFAULT_PLAYERS
        return mayors.all_lines(config.mayor_players or DEFAULT_PLAYERS)
    if config.game.mode == "newd3":
        from wolfbox.newd3 import said as timed
        return timed.all_lines()
    from wolfbox.onenight.flow import RoundSettings
    return RoundSettings.from_config(config).lines()


@dataclass
class Pilots:
    """Starts real boxes for one test, each on mock pins and a fake clock,
    and closes them all when the test ends (the `pilot_for` fixture)."""
    made: list[object] = field(default_factory=list)

    def start(self, config: Config, lines: list[str] | None = None, *, fill: bool = True,
              line_seconds: float = 0.15, display: str = "headless",
              renderer: list[str] | None = None, warm: bool = True) -> Pilot:
        """The real box for `config`: every line of its game (or `lines`)
        in the cache as a tone of `line_seconds`, unless `fill` is off."""
        from helpers import fill_cache
        from wolfbox.device.app import build
        from wolfbox.hardware.factory import mock_factory
        if fill:
            fill_cache(config, game_lines(config) if lines is None else lines,
                       seconds=line_seconds)
        clock = FakeClock()
        parts = build(config, display, clock=clock, pin_factory=mock_factory(),
                      stdin_keys=False, renderer_command=renderer or NO_RENDERER)
        self.made.append(parts)
        if warm:
            parts.narrator.wait_warm(timeout=30)
        return Pilot(parts, clock)

    def close(self) -> None:
        for parts in self.made:
            parts.close()           # type: ignore[attr-defined]


class GameDriver:
    """Any game (wolfbox.mode.Mode) by itself on a fake clock, with no box
    around it: presses at `now`, time moved on from one of the game's own
    changes to the next, every line said kept with its time, and the game's
    own `check()` run after every step. Each game's unit tests extend it
    with the moves of that game's table."""

    def __init__(self, game, now: float = 0.0, check: bool = True) -> None:
        self.game, self.now, self.checking = game, now, check
        self.effects: list = []
        self.said: list[tuple[float, str]] = []     # (when, the line)

    @property
    def g(self):
        return self.game

    def _record(self, effects: list) -> list:
        from wolfbox.effects import Say
        self.effects += effects
        self.said += [(self.now, e.text) for e in effects if isinstance(e, Say)]
        if self.checking and hasattr(self.game, "check"):
            self.game.check()
        return effects

    def press(self, event) -> list:
        return self._record(self.game.handle(event, self.now))

    def tap(self, button: Button, times: int = 1) -> list:
        from wolfbox.buttons import Tap
        out: list = []
        for _ in range(times):
            out += self.press(Tap(button))
        return out

    def hold(self, button: Button) -> list:
        from wolfbox.buttons import Hold
        return self.press(Hold(button))

    def release(self, button: Button) -> list:
        from wolfbox.buttons import Release
        return self.press(Release(button))

    def step(self) -> list:
        """On to the game's next change, and what it does there."""
        at = self.game.next_change(self.now)
        assert at is not None, f"the game waits for nothing at {getattr(self.game, 'stage', '?')}"
        assert at >= self.now
        self.now = max(self.now, at)
        return self._record(self.game.tick(self.now))

    def until(self, done, limit: int = 5000) -> list:
        """Step until `done()`; every effect on the way."""
        out: list = []
        for _ in range(limit):
            if done():
                return out
            out += self.step()
        raise AssertionError(f"never got there; stuck at {getattr(self.game, 'stage', '?')}")

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass, stopping at every change on the way."""
        end = self.now + seconds
        while (at := self.game.next_change(self.now)) is not None and at <= end:
            self.step()
        self.now = end
        self._record(self.game.tick(self.now))

    def view(self):
        return self.game.view(self.now)
