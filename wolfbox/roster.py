"""The games on offer, as the shared modules read them: each one's name,
its title on the screen and the settings pages of its own, in the order
the box offers them.

wolfbox.lineup fills this from its `Kind`s (`offer`), the one list of the
games a box has; nothing here names a game. It sits under everything that
reads it (the settings screen, the config file's `game.mode`, the game
switch, the games' own start screens), and imports nothing of theirs, so
none of them needs the game switch or the lineup to know the games, and
no import goes round in a circle (`make lint`: import-linter's
acyclic_siblings over the whole package).
"""

from __future__ import annotations

from dataclasses import dataclass

from .effects import ChangeSetting, Effect
from .i18n import _

MODE_KEY = "game.mode"
PHONES_KEY = "phones.enabled"


@dataclass(frozen=True)
class Offered:
    """A game as the shared screens show it."""
    title: str                      # N_ message: its name on the screen
    pages: frozenset[str]           # the settings screen's pages of its own (menu.Item.own)


# name: the game, in the order offered; filled by wolfbox.lineup.
_OFFERED: dict[str, Offered] = {}


def offer(name: str, title: str, pages: frozenset[str] = frozenset()) -> None:
    """Put a game on offer, after those already offered (again: in place)."""
    _OFFERED[name] = Offered(title, pages)


def withdraw(name: str) -> None:
    """Offer a game no more (wolfbox.lineup.withdraw)."""
    _OFFERED.pop(name, None)


def names() -> tuple[str, ...]:
    """Every game on offer, by its config name, in the order offered."""
    return tuple(_OFFERED)


def own_pages(name: str) -> frozenset[str]:
    """The settings pages `name` shows beside every game's (none for a
    game not on offer)."""
    offered = _OFFERED.get(name)
    return offered.pages if offered is not None else frozenset()


def next_game(mode: str, step: int = 1) -> str:
    """The game after `mode` in the order offered (the start screens' hold
    VOTE), or before it with step -1; round the list."""
    order = names()
    return order[(order.index(mode) + step) % len(order)] if mode in order else order[0]


def switch(mode: str, step: int = 1) -> list[Effect]:
    """The table picks the game after `mode` (before it, step -1):
    wolfbox.games follows the change."""
    return [ChangeSetting(MODE_KEY, next_game(mode, step))]


def game_name(mode: object) -> str:
    """A game's name in the box's language."""
    offered = _OFFERED.get(str(mode))
    return _(offered.title) if offered is not None else str(mode)


def switch_note(mode: str) -> str:
    """What a setup screen's game item says its buttons do."""
    return _("VOTE: {after}. BACK: {before}.").format(
        after=game_name(next_game(mode)), before=game_name(next_game(mode, -1)))


def setup_holds_note(mode: str, phones: bool = False) -> str:
    """What a start or setup screen says its holds do (the same on every
    game's; with phones on, START opens the phones' screen, as on every
    screen: BACK's hold there does too, unsaid)."""
    if phones:
        return _("Hold: NEXT settings, VOTE {game}, START phones.").format(
            game=game_name(next_game(mode)))
    return _("Hold NEXT: settings. Hold VOTE: {game}.").format(game=game_name(next_game(mode)))
