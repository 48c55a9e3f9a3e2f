"""What One Night's screens read of it: typed, read-only.

The screens (`screen.py`) draw a game they cannot change and do not
import: they take it as a `Seen`, which the game's class fills as it is
(mypy checks it wherever the game hands itself to a screen). So a game's
module imports its screens and never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ..engine.actions import Actions
from ..settings_screen import SettingsScreen
from ..tablemap import TableMap
from ..timer import Countdown
from ..view import Phase
from .entry import Entry
from .night import Step
from .owncards import OwnCards
from .phones import PhoneNight
from .picker import Picker
from .referee import Verdict
from .saved import Resumed


class SeenRound(Protocol):
    """What the screens read of the round's settings."""

    @property
    def deck(self) -> tuple[str, ...]: ...

    @property
    def night(self) -> tuple[Step, ...]: ...

    @property
    def tick_from(self) -> int: ...

    @property
    def vote_hint_seconds(self) -> int: ...


class Seen(Protocol):
    """A round as its screens read it (wolfbox.onenight.flow.Flow)."""

    @property
    def beat(self) -> int: ...

    def caption_page(self, now: float) -> str: ...

    @property
    def entry(self) -> Entry | None: ...

    def happened_pages(self) -> tuple[tuple[str, ...], ...]: ...

    def holds(self) -> Actions: ...

    def idle_pages(self) -> tuple[tuple[str, ...], ...]: ...

    @property
    def idle_since(self) -> float: ...

    @property
    def names(self) -> Mapping[int, str]: ...

    def on_phones(self) -> bool: ...

    @property
    def own(self) -> OwnCards | None: ...

    @property
    def paused(self) -> bool: ...

    @property
    def phase(self) -> Phase: ...

    def picture(self) -> TableMap | None: ...

    @property
    def picker(self) -> Picker | None: ...

    def playing(self) -> bool: ...

    @property
    def resumed(self) -> Resumed | None: ...

    @property
    def reveal_page(self) -> int: ...

    def reveal_pages(self) -> tuple[tuple[str, ...], ...]: ...

    @property
    def screen(self) -> SettingsScreen | None: ...

    @property
    def settings(self) -> SeenRound: ...

    @property
    def stage(self) -> str: ...

    @property
    def step_index(self) -> int: ...

    @property
    def table(self) -> PhoneNight | None: ...

    def taps(self) -> Actions: ...

    @property
    def timer(self) -> Countdown | None: ...

    @property
    def verdict(self) -> Verdict | None: ...

    @property
    def verdict_page(self) -> int: ...

    def verdict_pages(self) -> tuple[tuple[str, ...], ...]: ...
