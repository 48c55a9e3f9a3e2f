"""The Mayor's game as data: its stages, how each is drawn (its phase and
whether the seat ring shows), the options a game is built with, and the
words and limits the setup screen offers. The state machine is game.py,
the screens screen.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .. import pages
from ..effects import Effect
from ..view import Phase, Seat, View
from . import saved

SAVE_VERSION = saved.VERSION


class Stage(StrEnum):
    SETUP = "setup"            # players and roles in play
    RESUME = "resume"          # a saved game was found: resume it?
    DEAL = "deal"              # cards on the phones: every seat reads its own, eyes open
    NIGHT = "night"            # the calls, timed
    LOVERS = "lovers"          # night 1: the Mayor enters the Matchmaker's two Lovers
    DAWN = "dawn"              # the Mayor picks each seat that died in the night
    ROLE = "role"              # the Mayor enters the role turned up for a death
    SHOT = "shot"              # the Mayor enters the dead Hunter's victim
    CONFIRM = "confirm"        # an entry shown back: OK, or BACK to change it
    DISCUSSION = "discussion"  # open discussion and accusations
    ACCUSE = "accuse"          # the Mayor picks the accused
    SECOND = "second"          # is there a second?
    DEFENCE = "defence"        # the accused defends
    HANDS = "hands"            # "raise your hands", then the 3-5 s beat
    COUNT = "count"            # the Mayor taps a hand at a time
    RESULT = "result"          # the count against the threshold
    END = "end"                # who won, and the whole story


# The screen model's phase for each stage (the painter's layout). The exact
# stage goes with it in Screen.stage.
PHASE_OF = {
    # The setup shows one item and its value, as the settings screen does.
    Stage.SETUP: Phase.REFEREE, Stage.RESUME: Phase.IDLE,
    # The deal on the phones: the window's clock and what to do, eyes open.
    Stage.DEAL: Phase.DISCUSSION,
    Stage.NIGHT: Phase.NIGHT, Stage.LOVERS: Phase.NIGHT,
    Stage.DAWN: Phase.REFEREE, Stage.ROLE: Phase.REFEREE, Stage.SHOT: Phase.REFEREE,
    Stage.CONFIRM: Phase.REFEREE,
    Stage.ACCUSE: Phase.REFEREE,
    Stage.DISCUSSION: Phase.DISCUSSION, Stage.SECOND: Phase.DISCUSSION,
    Stage.DEFENCE: Phase.DISCUSSION,
    # The count and its result show the hands against the threshold: a value
    # and its notes, the referee's layout.
    Stage.HANDS: Phase.VOTE, Stage.COUNT: Phase.REFEREE, Stage.RESULT: Phase.REFEREE,
    Stage.END: Phase.VERDICT,
}
# The stages whose screen is about the seats: the seat ring is drawn, with
# the value and the question in its middle.
RING_STAGES = (Stage.LOVERS, Stage.DAWN, Stage.ROLE, Stage.SHOT, Stage.CONFIRM,
               Stage.DISCUSSION, Stage.ACCUSE, Stage.SECOND, Stage.DEFENCE)
# Where a checkpoint may be taken, and so where a game resumes.
CHECKPOINTS = (Stage.DEAL, Stage.NIGHT, Stage.DAWN, Stage.DISCUSSION)
_NIGHT_STAGES = (Stage.NIGHT, Stage.LOVERS)
_DAY_STAGES = (Stage.DISCUSSION, Stage.ACCUSE, Stage.SECOND, Stage.DEFENCE, Stage.HANDS,
               Stage.COUNT, Stage.RESULT)

# Where the box deals the cards to the phones: the window every seat has to
# read its card, eyes open, before the night (the timed game's deal on
# phones is as long). The same whatever the cards, so it tells nothing.
PHONE_DEAL_SECONDS = 30.0

# Night stages: say the call, wait for the action, say the closing line.
_SPEAK, _WAIT, _AFTER = "speak", "wait", "after"
# What the chains lead to once they are over.
_TO_DISCUSSION, _TO_NIGHT = "discussion", "night"
# The entries shown back before they take effect (Stage.CONFIRM).
_CARD, _SHOT, _DAWN = "card", "shot", "dawn"
# A picker's cursor before the Mayor has chosen: the role picker's (an index)
# and the Hunter's (a seat).
NO_ROLE, NO_SEAT = -1, 0
# What an undo leaves as it is: the options, and what belongs to the moment
# (speech, timers, the pause, the open book, messages on the screen).
_NOT_UNDONE = frozenset({"options", "paused", "reading", "alert", "caption", "timer", "page",
                         "speech",
                         "_second_hold", "_undo", "phones", "rng"})


DarkEffect = Effect
MODE = "dark_arts"                     # this mode's name, in saved games and settings
GAME_ITEM = "game"                     # the setup's last item: the choice of game
# The day's optional limits, set on the setup screen: item -> (config key, steps in s).
LIMITS = {
    "discussion": ("mayor.discussion_seconds", (0, 60, 120, 180, 300, 420, 600, 900)),
    "defence": ("mayor.defence_seconds", (0, 30, 60, 90, 120, 180)),
}
# What the setup screen may change and the box remembers (wolfbox.settings).
SETTABLE = frozenset(key for key, _steps in LIMITS.values())


@dataclass(frozen=True)
class Options:
    scale: float = 1.0                                   # multiplies every action time
    action_seconds: Mapping[str, float] = field(default_factory=dict)   # per call id
    discussion_seconds: float | None = None              # None: no limit (003)
    defence_seconds: float | None = None                 # None: no limit
    hands_beat: float = 4.0                              # 003: "around 3-5 seconds"
    # The hands on the phones: a phone is found and tapped more slowly than
    # a hand goes up, and nobody counts round the table after it.
    phone_hands_seconds: float = 10.0
    fixed: frozenset[str] = frozenset()                  # config keys the file sets
    line_gap: float = 0.6                                # silence after a line
    per_word: float = pages.PER_WORD                     # caption time a word


@dataclass(frozen=True)
class Screen:
    """The screen model, the exact stage, and the seat ring as it stands
    (the view carries the ring only where it is drawn: RING_STAGES)."""
    view: View
    stage: Stage
    seats: tuple[Seat, ...] = ()
