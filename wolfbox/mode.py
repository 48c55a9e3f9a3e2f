"""What the box needs of a game: events in, effects and a screen out, and
what its phones show.

Every game is a pure state machine with the methods of `Mode`, so the loop,
the narrator, the screen and the replay harness drive any of them the same
way and no game knows another's rules. `Playable` adds what the game switch
(wolfbox.games) and the phones (wolfbox.phones) ask of it: its seats, each
seat's phone, the phones' seat list and the seats a phone takes only with
the box's yes. A game without phones of its own takes those from
`PublicPhones`: every seat's phone shows the public screen. Whether a screen
is one between games (where the phones' screen opens) is the View's own
`between` flag. A game takes its checkpoints as `Checkpoint` effects
(wolfbox.engine.checkpoints); what makes a game, new or from the checkpoint
a power cut left, and its part of the config file is its `Kind` (each
game's `kind.py`, listed once in wolfbox.lineup, which mypy holds to
`Kind`, and through its `new`, each game to `Playable`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from .effects import Effect
from .events import Event
from .phone import PhoneView, public
from .view import View

if TYPE_CHECKING:
    from .config import Config, Section
    from .settings_screen import SettingsScreen


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


class Playable(Mode, Protocol):
    """A game as the box's game switch and the phones drive it."""

    @property
    def table_seats(self) -> int:
        """The seats at the table now: a phone joins one of 1 to this."""
        ...

    @property
    def guarded_seats(self) -> frozenset[int]:
        """The seats a phone takes only with the box's yes (the Mayor's
        console): none in a game without such a seat."""
        ...

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """What `seat`'s phone shows now (wolfbox.phone): that seat's own
        secret and task, or the public screen."""
        ...

    def lobby_note(self) -> str:
        """What the phones' seat list says before a game ("" for nothing)."""
        ...


class PublicPhones:
    """What a game without phones of its own gives them: every seat's phone
    shows the public screen (never a screen for some eyes only), no seat is
    guarded and the seat list says nothing more. A game inherits these and
    says its own `table_seats`."""

    def phone_view(self: Mode, seat: int, now: float) -> PhoneView:
        """The box's screen as any seat may see it (wolfbox.phone.public)."""
        return public(self.view(now), seat)

    @property
    def guarded_seats(self) -> frozenset[int]:
        """No seat needs the box's yes."""
        return frozenset()

    def lobby_note(self) -> str:
        """Nothing more for the seat list."""
        return ""


class Kind(Protocol):
    """A game before one is made, and all the box needs to offer it: its
    names, its part of the config file and of the settings screen, its
    lines, and how to make one from its settings or from the checkpoint
    it took before a power cut. Listing a Kind in wolfbox.lineup is the
    whole of adding a game to the box."""

    @property
    def name(self) -> str:
        """The game's name in `game.mode`, the config file and the saves."""
        ...

    @property
    def title(self) -> str:
        """Its name on the screen: an N_ message (wolfbox.roster.game_name
        says it in the box's language)."""
        ...

    @property
    def section(self) -> Section:
        """The game's part of the config file (wolfbox.config registers it)."""
        ...

    @property
    def pages(self) -> frozenset[str]:
        """The keys of the settings screen's pages of some games' own
        (wolfbox.menu, `own`) this game shows from its setup."""
        ...

    def lines(self, config: Config) -> list[str]:
        """Every line a game of this kind may say with `config`, first
        needed first (wolfbox.catalogue: what `wolfbox prepare` renders)."""
        ...

    def new(self, settings: SettingsScreen) -> Playable:
        """A new game, from the box's settings as they stand; `settings` is
        the settings screen the games share."""
        ...

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Playable:
        """The game a checkpoint of its own (`state`, as it was saved) left,
        asking the table whether to go on. Anything that is not such a
        checkpoint raises `wolfbox.errors.CannotResume`."""
        ...
