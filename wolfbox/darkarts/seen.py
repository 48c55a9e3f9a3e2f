"""What the Mayor's game's screens read of it: typed, read-only.

The screens (`screen.py`, and the Mayor's phone, `console.py`) draw a
game they cannot change and do not import: they take it as a `Seen`,
which the game's class fills as it is (mypy checks it wherever the game
hands itself to a screen). So a game's module imports its screens and
never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..engine.actions import Actions
from ..engine.checkpoints import Checkpoints
from ..engine.speech import Speech
from ..settings_screen import SettingsScreen
from ..timer import Countdown
from .book import Book
from .model import Options, Stage
from .night import Step
from .seats import Ring


class Seen(Protocol):
    """A game as its screens read it (wolfbox.darkarts.game.Game)."""

    @property
    def accused(self) -> int: ...

    @property
    def adjust(self) -> int: ...

    @property
    def alert(self) -> str: ...

    @property
    def book(self) -> Book: ...

    def book_pages(self) -> tuple[tuple[str, ...], ...]: ...

    def busy(self) -> bool: ...

    @property
    def by(self) -> int: ...

    def can_undo(self) -> bool: ...

    @property
    def caption(self) -> str: ...

    @property
    def cause(self) -> str: ...

    @property
    def chosen(self) -> Mapping[str, int]: ...

    def chosen_role(self) -> str | None: ...

    @property
    def cursor(self) -> int: ...

    @property
    def dawn_deaths(self) -> Sequence[int]: ...

    @property
    def dealt(self) -> tuple[str, ...] | None: ...

    @property
    def dying(self) -> int: ...

    @property
    def hand_votes(self) -> Mapping[int, bool]: ...

    @property
    def hands(self) -> int: ...

    @property
    def hands_on_phones(self) -> bool: ...

    def holds(self) -> Actions: ...

    def living_count(self) -> int: ...

    @property
    def mayor_seat(self) -> int: ...

    @property
    def names(self) -> Mapping[int, str]: ...

    @property
    def night(self) -> int: ...

    @property
    def night_stage(self) -> str: ...

    @property
    def options(self) -> Options: ...

    @property
    def page(self) -> int: ...

    @property
    def paused(self) -> bool: ...

    @property
    def pending(self) -> str: ...

    @property
    def phones(self) -> frozenset[int]: ...

    @property
    def picked(self) -> Sequence[int]: ...

    @property
    def players(self) -> int: ...

    @property
    def previous_accused(self) -> int | None: ...

    @property
    def reading(self) -> bool: ...

    @property
    def ring(self) -> Ring | None: ...

    def role_options(self) -> list[str]: ...

    @property
    def saves(self) -> Checkpoints[Stage]: ...

    @property
    def settings(self) -> SettingsScreen: ...

    def setup_items(self) -> tuple[str, ...]: ...

    @property
    def speech(self) -> Speech[tuple[object, ...]]: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def step_index(self) -> int: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...

    def subject(self) -> tuple[object, ...]: ...

    def taps(self) -> Actions: ...

    @property
    def timer(self) -> Countdown | None: ...

    def vote_count(self) -> int: ...

    @property
    def winner(self) -> str | None: ...
