"""mypy holds every game to the box's protocol: `make lint` type-checks this
module with the package, so a game that lacks a member of `Playable` (or
gives one another type) fails the lint, not a table. Each function is an
assignment mypy checks: the game's class where the protocol is expected.
The screens' protocols (each game's `seen.py`) are checked the same way.
Nothing here runs."""

from __future__ import annotations

from toygame import Quiet, Toy

from wolfbox.darkarts import kind as mayor_kind
from wolfbox.darkarts import seen as mayor_seen
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.games import Games
from wolfbox.mode import Kind, Playable
from wolfbox.newd3 import kind as timed_kind
from wolfbox.newd3 import seen as timed_seen
from wolfbox.newd3.game import Game as Timed
from wolfbox.onenight import kind as one_night_kind
from wolfbox.onenight import seen as one_night_seen
from wolfbox.onenight.flow import Flow


def one_night(game: Flow) -> Playable:
    return game


def mayor(game: Mayor) -> Playable:
    return game


def timed(game: Timed) -> Playable:
    return game


def fourth(game: Toy) -> Playable:
    return game


def fourth_without_phones(game: Quiet) -> Playable:
    return game


def one_night_kind_(kind: one_night_kind.OneNight) -> Kind:
    """What makes a game, new or resumed, and its config section: a `Kind`."""
    return kind


def mayor_kind_(kind: mayor_kind.Mayor) -> Kind:
    return kind


def timed_kind_(kind: timed_kind.Timed) -> Kind:
    return kind


def switch(games: Games) -> Playable:
    """The game switch is one too: the loop and the phones drive it as a game."""
    return games


def one_night_screens(game: Flow) -> one_night_seen.Seen:
    return game


def mayor_screens(game: Mayor) -> mayor_seen.Seen:
    return game


def timed_screens(game: Timed) -> timed_seen.Seen:
    return game
