"""The turns of the deal and of every night, and how long each one lasts.

At a table the box is the only one who knows the cards, so every secret
moment is a turn: the box wakes one seat or one role, that player (eyes
open, everyone else's closed) uses the box's buttons, then sleeps again.
Nothing about the cards may show in *when* things happen, so the turns of
a night depend on nothing but the night's number: every role of every
setup is called every night, alive or dead, in play or not, and a turn
always lasts its full window, answered or not. `night_turns` takes no
deal and no deaths on purpose; the test of that is that it cannot.

How long a window is. 004's 0:45 for actions is for an online game where
everyone acts at once. At a table the calls come one after another, and a
call's window only has to hold one player's walk through the box: open the
eyes and lean to the box, read the question, decide, step the cursor round
the seat ring, confirm, check. Timed with the keystroke-level model (Card,
Moran and Newell: a mental step 1.35 s, a button press with a look at the
screen 0.5 s, reading at 250 words a minute), one player's choice takes:

    find the box and read the question   2.0 + 1.35 + 1.4   =  4.8 s
    decide                               1.35               =  1.4 s
    step round nine seats (at most 4)    4 x 0.5            =  2.0 s
    confirm and check the marked seat    0.5 + 1.35         =  1.9 s
                                                              ~ 10 s

and the window adds half as much again for a slow reader or a second
thought: 15 s. In the Wolves' kill each Wolf marks a victim and a knife in
a slot of its own, one Wolf after the other (so neither can change the
other's marks). They decided in their planning turn, so each Wolf only
steps and marks twice (2 x (2.0 + 0.5) + 2 x 0.5 for START = 6 s), after
finding the box and reading its question once for the pair (4.8 s), with
the second Wolf leaning in as the first leans back (about 2 s): about
19 s, and 25 s with a third again (less slack than a choice gets, since
nothing is left to decide). Reading a message is finding the box (2 s),
holding VOTE until it shows (the buttons' hold time, 2 s), reading up to
two short sentences (2.9 s) and a mental step: about 8 s, so 10 s. A
card in the deal has a longer note and is new to its player: about 11 s,
so 14 s. The coordination turns keep 004's 30 s: planning takes what it
takes. All of them can be changed in the `[timed]` section of the config.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..i18n import N_, _
from .roles import ALCHEMIST, CHEF, DAIRY_MAID, GUARD, PRIEST, SEER, TRACK_READER
from .rules import ACTIONS, COORDINATION
from .setups import PLAYERS


class Kind(StrEnum):
    """What a turn's window is for, which decides its screen and buttons."""
    CARD = "card"        # the deal: one seat holds VOTE to see its card
    PLAN = "plan"        # a team's eyes are open together (Wolves, Nobles)
    CHOOSE = "choose"    # one role chooses a seat for its ability
    KILL = "kill"        # the Wolves choose a victim and the knife
    LOOK = "look"        # one seat holds VOTE to read its message of the night
    PHONES = "phones"    # the deal on phones: every seat at once, each on its own
    # A night on phones (issue 22): every living seat at once, each on its own
    PLOT = "plot"        # the Wolves mark the kill, every other seat a decoy
    ACT = "act"          # every ability at once, every other seat a decoy
    READ = "read"        # every living seat reads its message


@dataclass(frozen=True)
class Times:
    """The windows, in seconds (see the module doc for where they come from)."""
    card: float = 14.0
    plan: float = float(COORDINATION)
    action: float = 15.0
    kill: float = 25.0
    look: float = 10.0


# The config keys of the windows, and what each sets: one list for the
# config loader and the README.
TIME_KEYS = {"card_seconds": "card", "plan_seconds": "plan", "action_seconds": "action",
             "kill_seconds": "kill", "look_seconds": "look"}


@dataclass(frozen=True)
class Call:
    """The words of one turn that is the same at every table: the call that
    wakes a role or a team, and the line that sends it back to sleep."""
    id: str
    kind: Kind
    wake: str            # marked N_(), translated when said
    sleep: str
    role: str = ""       # CHOOSE: whose ability the turn is for


WOLVES_PLAN = "wolves"
NOBLES_PLAN = "nobles"
KILL = "kill"

# 004's order: the two coordination turns, then every ability in the order
# the night is resolved (block, jail, protect, kill, then information).
CALLS: tuple[Call, ...] = (
    Call(WOLVES_PLAN, Kind.PLAN,
         N_("Wolves, open your eyes and plan your kill together, without a sound."),
         N_("Wolves, close your eyes.")),
    Call(NOBLES_PLAN, Kind.PLAN,
         N_("Nobles, open your eyes and look at each other."),
         N_("Nobles, close your eyes.")),
    Call(ALCHEMIST, Kind.CHOOSE,
         N_("Alchemist, open your eyes and choose a seat to block."),
         N_("Alchemist, close your eyes."), ALCHEMIST),
    Call(CHEF, Kind.CHOOSE,
         N_("Chef, open your eyes and choose a seat to jail."),
         N_("Chef, close your eyes."), CHEF),
    Call(GUARD, Kind.CHOOSE,
         N_("Guard, open your eyes and choose a seat to protect."),
         N_("Guard, close your eyes."), GUARD),
    Call(KILL, Kind.KILL,
         N_("Wolves, open your eyes. One Wolf at a time: mark a victim with VOTE, press "
            "START, mark who holds the knife, press START for the other Wolf."),
         N_("Wolves, close your eyes.")),
    Call(SEER, Kind.CHOOSE,
         N_("Seer, open your eyes and choose a seat to inspect."),
         N_("Seer, close your eyes."), SEER),
    Call(TRACK_READER, Kind.CHOOSE,
         N_("Track Reader, open your eyes and choose a seat to read."),
         N_("Track Reader, close your eyes."), TRACK_READER),
    Call(DAIRY_MAID, Kind.CHOOSE,
         N_("Dairy Maid, open your eyes and choose a seat to visit."),
         N_("Dairy Maid, close your eyes."), DAIRY_MAID),
    Call(PRIEST, Kind.CHOOSE,
         N_("Priest, open your eyes and choose a seat to watch."),
         N_("Priest, close your eyes."), PRIEST),
)


@dataclass(frozen=True)
class Turn:
    """One turn as the box runs it: a line, a window, a line."""
    id: str
    kind: Kind
    wake: str            # said before the window, translated
    sleep: str           # said after it
    seconds: float       # the window
    seat: int = 0        # CARD and LOOK: the seat called
    role: str = ""       # CHOOSE: the role whose ability it is
    # The wake is said over the window, which opens at once (a night on
    # phones: 004's windows back to back, each player reads the phone)
    over: bool = False


def card_wake(seat: int) -> str:
    return _("Seat {seat}, open your eyes; everyone else, keep yours closed. "
             "Hold VOTE to see your card.").format(seat=seat)


def look_wake(seat: int) -> str:
    return _("Seat {seat}, open your eyes and hold VOTE to read your message.").format(
        seat=seat)


def seat_sleep(seat: int) -> str:
    return _("Seat {seat}, close your eyes.").format(seat=seat)


def deal_turns(times: Times = Times()) -> tuple[Turn, ...]:
    """Every seat in order, the same window each, whatever its card."""
    return tuple(Turn("card", Kind.CARD, card_wake(s), seat_sleep(s), times.card, seat=s)
                 for s in range(1, PLAYERS + 1))


# Issue 22: with a phone at every seat, the deal is one step of 30 s, all
# at once, each seat's card on its own phone behind a cover.
PHONE_DEAL_SECONDS = 30.0
PHONE_DEAL_WAKE = N_("Everyone, open your eyes and look at your phone: hold its cover to see "
                     "your card, your team and your partner. Let nobody else see it.")
PHONE_DEAL_SLEEP = N_("Phones face down. Everyone, close your eyes.")


def phone_deal_turns() -> tuple[Turn, ...]:
    """The deal when every seat holds a phone: one window for all."""
    return (Turn("phones", Kind.PHONES, _(PHONE_DEAL_WAKE), _(PHONE_DEAL_SLEEP),
                 PHONE_DEAL_SECONDS),)


def night_turns(times: Times = Times()) -> tuple[Turn, ...]:
    """One night's turns: every call of every setup, then every seat's
    message. The same for every night of every game (see the module doc)."""
    window = {Kind.PLAN: times.plan, Kind.CHOOSE: times.action, Kind.KILL: times.kill}
    turns = [Turn(c.id, c.kind, _(c.wake), _(c.sleep), window[c.kind], role=c.role)
             for c in CALLS]
    # Every seat reads its message, so whom the Dairy Maid visited (or who
    # the Seer is) shows in nobody's turn being longer or called at all.
    turns += [Turn("look", Kind.LOOK, look_wake(s), seat_sleep(s), times.look, seat=s)
              for s in range(1, PLAYERS + 1)]
    return tuple(turns)


# Issue 22: with a phone at every living seat, a night is 004's own shape:
# the Wolves' coordination (30 s), every action at once (45 s), then every
# living seat's message at the same moment, each window with the same
# task for every seat (the roles that act choose, the others answer a
# decoy). Each window's call is said over it: the phone shows what to do,
# the voice only marks the change, so the night is 004's 75 s of windows,
# the night's first line and the messages' window (at most 90 s in all).
# Reading a message: the cover held (no walk to the box), two short
# sentences (2.9 s) and a mental step: about 5 s, so 10 s.
PHONE_PLOT_SECONDS = float(COORDINATION)
PHONE_ACT_SECONDS = float(ACTIONS)
PHONE_READ_SECONDS = 10.0
PHONE_PLOT_WAKE = N_("Wolves, mark your victim on your phone; everyone else, answer yours.")
PHONE_ACT_WAKE = N_("Now every role acts: everyone, answer on your phone.")
PHONE_READ_WAKE = N_("Hold your phone's cover to read your message.")


def phone_night_turns() -> tuple[Turn, ...]:
    """A night when every living seat holds a phone: three windows for all,
    the same every night of every game, whatever the cards and the dead."""
    return (Turn("plot", Kind.PLOT, _(PHONE_PLOT_WAKE), "", PHONE_PLOT_SECONDS, over=True),
            Turn("act", Kind.ACT, _(PHONE_ACT_WAKE), "", PHONE_ACT_SECONDS, over=True),
            Turn("read", Kind.READ, _(PHONE_READ_WAKE), "", PHONE_READ_SECONDS, over=True))
