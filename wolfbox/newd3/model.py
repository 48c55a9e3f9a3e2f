"""The timed game as data: its stages, the kill window's steps, and the
options a game is built with. The state machine is game.py, the screens
screen.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .. import pages
from . import saved
from .setups import PLAYERS
from .turns import Times

MODE = "newd3"
SAVE_VERSION = saved.VERSION
SEATS = tuple(range(1, PLAYERS + 1))
RANDOM = ""                 # the setup item's value for "deal one at random"
SETUP_ITEMS = ("setup", "game")


class Stage(StrEnum):
    SETUP = "setup"            # which setup (random by default), or another game
    RESUME = "resume"          # a saved game was found
    DEAL = "deal"              # seat by seat, each sees its card
    NIGHT = "night"            # the turns of a night
    DAWN = "dawn"              # who died, what they were
    DISCUSSION = "discussion"  # 2:30 of talk
    VOTE = "vote"              # 0:45 to decide
    POINT = "point"            # 3, 2, 1: everyone points
    TALLY = "tally"            # the table enters the seat with the most votes
    COUNT = "count"            # ... and its count
    RESULT = "result"          # the strict majority applied
    END = "end"                # who won, and every card


CHECKPOINTS = (Stage.DEAL, Stage.NIGHT, Stage.DAWN, Stage.DISCUSSION, Stage.VOTE, Stage.END)
DAY_STAGES = (Stage.DISCUSSION, Stage.VOTE, Stage.POINT, Stage.TALLY, Stage.COUNT,
              Stage.RESULT)
# The stages of many turns, each a line, a window and a line.
_SPEAK, _WAIT, _AFTER = "speak", "wait", "after"
SKIP = 0                      # a phone's vote for nobody (004: "votes for one player or skips")
# The kill window's steps, in order: each Wolf in turn marks a victim, then
# a knife, in a slot of its own ("Wolf 1", "Wolf 2"). START only moves on,
# so no Wolf can change the other's marks, and the window is the same with
# one Wolf alive as with two (a lone Wolf leaves the second slot empty).
WOLF_SLOTS = 2
_VICTIM, _KNIFE = "victim", "knife"
KILL_STEPS = tuple((slot, question) for slot in range(WOLF_SLOTS)
                   for question in (_VICTIM, _KNIFE))


@dataclass(frozen=True)
class Options:
    times: Times = field(default_factory=Times)
    show: float = 3.0            # a card or message shows at least this long once held
    line_gap: float = 0.6        # silence after a line
    per_word: float = pages.PER_WORD
