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
`between` flag; a game's checkpoints are `Checkpoint` effects
(wolfbox.engine.checkpoints), its part of the config file its `section.py`
(registered in wolfbox.lineup). mypy holds the three games to `Playable`
(tests/typing_games.py).
"""

from __future__ import annotations

from typing import Protocol

from .effects import Effect
from .events import Event
from .phone import PhoneView, public
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
