"""What the box needs of a game mode: events in, effects and a screen out.

One Night (wolfbox.onenight.flow.Flow) is one mode; every mode is a pure state
machine with these methods, so the loop, the narrator, the screen and the
replay harness drive any of them the same way and no mode knows another's
rules.
"""

from __future__ import annotations

from typing import Protocol

from .effects import Effect
from .events import Event
from .view import View


class Mode(Protocol):
    """A game mode, driven by the loop on an injected clock."""

    def handle(self, event: Event, now: float) -> list[Effect]:
        """A button's tap or hold, or the end of a spoken line."""
        ...

    def tick(self, now: float) -> list[Effect]:
        """Move on past every deadline that has passed by `now`."""
        ...

    def next_change(self, now: float) -> float | None:
        """When the mode or its screen next changes by itself."""
        ...

    def view(self, now: float) -> View:
        """The screen now."""
        ...

    def lines(self) -> list[str]:
        """The lines this game may say next, first needed first: the device
        loads them into memory (or has them rendered) before they are due."""
        ...

    def busy(self) -> bool:
        """True while a game is under way: a stray quit key must ask twice."""
        ...

    def setting_changed(self, key: str) -> list[Effect]:
        """A setting was changed on the box (from this game's setup or
        another's; "" after a reset): follow what shapes this game."""
        ...
