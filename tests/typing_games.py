"""mypy holds every game to the box's protocol: `make lint` type-checks this
module with the package. The shipped games need no line here: wolfbox.lineup
lists their kinds as `Kind`s (`SHIPPED`), and a Kind's `new` returns a
`Playable`, so a game that lacks a member of the protocol (or gives one
another type) fails the lint there, not at a table. The tests' fourth game
is held the same way (toygame.KIND is a `Kind`); its class, and the game
switch, are assigned below. The screens' protocols (each game's `seen.py`)
are a game's own, checked here as assignments too. Nothing here runs."""

from __future__ import annotations

from toygame import Quiet, Toy

from wolfbox import lineup
from wolfbox.darkarts import seen as mayor_seen
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.games import Games
from wolfbox.mode import Playable
from wolfbox.newd3 import seen as timed_seen
from wolfbox.newd3.game import Game as Timed
from wolfbox.onenight import seen as one_night_seen
from wolfbox.onenight.flow import Flow

# The shipped games, each a `Kind` (checked where lineup lists them).
SHIPPED = lineup.SHIPPED


def fourth(game: Toy) -> Playable:
    return game


def fourth_without_phones(game: Quiet) -> Playable:
    return game


def switch(games: Games) -> Playable:
    """The game switch is one too: the loop and the phones drive it as a game."""
    return games


def one_night_screens(game: Flow) -> one_night_seen.Seen:
    return game


def mayor_screens(game: Mayor) -> mayor_seen.Seen:
    return game


def timed_screens(game: Timed) -> timed_seen.Seen:
    return game
