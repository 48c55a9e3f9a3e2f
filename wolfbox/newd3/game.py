"""004's timed nine-player game at a table, with the box as its only
moderator: a pure state machine, shaped like the other modes (events in,
effects out, an injected clock and an injected random source).

The box deals in secret, seat by seat; every night it calls each role of
every setup in 004's order and each seat for its private message, with
windows of fixed length (wolfbox.newd3.turns), so nothing about the cards
shows in what is said or when; it resolves the night with
wolfbox.newd3.resolve, announces the dawn, runs the day's two clocks, and
applies the table's vote with the strict majority. With a phone at every
living seat (issue 22) a night is 004's own instead: the Wolves' plot, every
action at once and every message at once, each a window of the same task
for every seat (turns.phone_night_turns, screen.phone_view), resolved by
the same rules.

Secrets on the screen: between turns the screen is dimmed to black; in a
turn it shows only the turn's own screen, the same for a role that is in
play as for one that is not; a card or a message appears only while its
seat holds VOTE (and at least `Options.show` seconds, so a quick press
still reads), never on its own; a hold begun while the seat's call is
still being said counts from the moment the window opens.

A checkpoint is taken at the start of the deal, each night, each dawn,
each discussion and each vote: after a power cut the game resumes at the
start of the phase it was in, with the same cards and the same dead.

Why this file is long: it is one state machine, whose turns, windows and
day stages all read and change the same state (the seats, the night's
choices, the tally); what it is lives in model.py, what it shows in
screen.py, and what every game does alike in wolfbox.engine.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import pages
from ..buttons import Button, Hold, Release, Tap
from ..effects import (
    Ambience,
    Checkpoint,
    Cue,
    Effect,
    PlayCue,
    Warm,
)
from ..engine import handling, pacing
from ..engine.actions import Action, Actions, SecondHold, paged, seat_keys
from ..engine.checkpoints import Checkpoints, restore
from ..engine.speech import Speech
from ..events import Event, PhoneEvent, PhonesSeated
from ..i18n import _, sentences
from ..mode import PublicPhones
from ..phone import PhoneView, seat_name
from ..roster import switch
from ..settings_screen import ANY, SettingsScreen
from ..tablemap import TableMap
from ..timer import Countdown
from ..view import View
from . import rules, said, saved
from . import screen as shown
from .model import (
    _AFTER,
    _KNIFE,
    _SPEAK,
    _WAIT,
    DAY_STAGES,
    KILL_STEPS,
    MODE,
    RANDOM,
    SAVE_VERSION,
    SEATS,
    SETUP_ITEMS,
    SKIP,
    WOLF_SLOTS,
    Options,
    Stage,
)
from .nightmap import NightKept, nights_map
from .resolve import Kill, Night, resolve
from .roles import (
    ROLES,
    Team,
    is_wolf_team,
    role_name,
    team_name,
    team_of,
)
from .screen import result_words
from .setups import PLAYERS, SETUPS, describe
from .tracker import possible_setups
from .turns import (
    Kind,
    Turn,
    deal_turns,
    night_turns,
    phone_deal_turns,
    phone_night_turns,
)

# The windows of a night on phones in which every living seat answers a task.
NIGHT_TASKS = (Kind.PLOT, Kind.ACT)
# The turns in which a night's messages are read: once they begin, the
# night's choices are all made (see _turn_next).
READING = (Kind.LOOK, Kind.READ)


@dataclass
class Game(PublicPhones):
    """The timed game (wolfbox.mode.Mode)."""
    options: Options = field(default_factory=Options)
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)
    stage: Stage = Stage.SETUP
    choice: str = RANDOM                    # the setup picked on the setup screen
    item: int = 0                           # the setup screen's item
    setup: str = ""                         # the setup dealt
    seats: tuple[str, ...] = ()             # the role of seat 1, 2, ...
    dead: dict[int, str] = field(default_factory=dict)
    night: int = 0                          # nights begun; today is day night + 1
    winner: str | None = None
    ended_early: bool = False               # the table ended it: nobody won
    paused: bool = False
    alert: str = ""
    caption: str = ""
    # a run of turns (the deal, a night)
    turns: tuple[Turn, ...] = ()
    turn_index: int = 0
    turn_stage: str = _SPEAK
    timer: Countdown | None = None
    cursor: int = 1
    chosen: int | None = None               # CHOOSE: the seat picked
    # KILL: each Wolf's own marks, one slot a Wolf (None: not marked)
    victims: list[int | None] = field(default_factory=lambda: [None] * WOLF_SLOTS)
    knives: list[int | None] = field(default_factory=lambda: [None] * WOLF_SLOTS)
    kill_step: int = 0                      # KILL: the step of KILL_STEPS shown
    refused: int | None = None              # the seat a press was just refused on
    actions: dict[int, int] = field(default_factory=dict)
    kill: Kill | None = None
    outcome: Night | None = None
    killed: int | None = None               # tonight's death, told at dawn
    showing: bool = False                   # a card or message is on the screen
    _hide: Countdown | None = None          # ... at least until this runs out
    _released: bool = False
    # VOTE's hold came in between turns and VOTE is still down: the next
    # window to open takes it as its own (see _open_window)
    _early_hold: bool = False
    phones: frozenset[int] = frozenset()        # the seats that hold a phone (public)
    names: dict[int, str] = field(default_factory=dict)    # their players' names (public)
    kept: list[NightKept] = field(default_factory=list)    # this game's nights, for its end
    phone_votes: dict[int, int] = field(default_factory=dict)   # today's: voter -> seat, or SKIP
    # A night on phones: each living seat's answer in the window open now
    # (an actor's target, a Wolf's last tap, a decoy's), shown on its phone
    marks: dict[int, int] = field(default_factory=dict)
    # the day
    count_in: int = 0
    tally: int = 0                          # the seat with the most votes
    votes: int = 0
    tie: bool = False
    verdict: tuple[bool, int] = (False, 0)  # out?, and of how many living, as entered
    applied: bool = False
    warned: set[int] = field(default_factory=set)
    reading: bool = False                   # the setup tracker is open
    page: int = 0
    # the box's settings screen (shared by its games), open over the setup
    settings: SettingsScreen = field(default_factory=SettingsScreen, compare=False, repr=False)
    speech: Speech[None] = field(default_factory=Speech)
    saves: Checkpoints[Stage] = field(default_factory=lambda: Checkpoints(MODE))
    _second_hold: SecondHold = field(default_factory=SecondHold)   # BACK held once: ask
    _resume_chosen: bool = False                # resume a night at its messages

    # ================================================================ input
    def handle(self, event: Event, now: float) -> list[Effect]:
        return handling.handle(self, event, now, self._released_vote, self._pressing,
                               self._phoned)

    def _phoned(self, event: PhoneEvent, now: float) -> list[Effect]:
        """Who holds a phone decides how the next deal is made and whether
        the day's vote is taken on the phones; a vote is a living seat's
        choice of another living seat, changeable until the count ends.
        Anything else a phone sends changes nothing."""
        if isinstance(event, PhonesSeated):
            # A game keeps a name its phone let go of, for its messages and end.
            heard = dict(event.names)
            self.phones = event.seats
            self.names = {**self.names, **heard} if self.busy() else heard
            return []
        if self.night_task() is not None and event.step == self.night_step():
            if len(event.choice) == 1:
                self._night_answer(event.seat, event.choice[0])
            return []
        voter, target = event.seat, event.choice[0] if len(event.choice) == 1 else -1
        if event.step == self.vote_step() and self.stage in (Stage.VOTE, Stage.POINT) \
                and self.voting_on_phones() and voter not in self.dead \
                and (target == SKIP or target in SEATS and target not in self.dead
                     and target != voter):
            self.phone_votes[voter] = target          # SKIP: for nobody (004), changeable
        return []

    def voting_on_phones(self) -> bool:
        """Every living seat holds a phone: the day's vote is taken on them."""
        return self.living_on_phones()

    def living_on_phones(self) -> bool:
        """Every living seat holds a phone: the day's vote and the night are
        played on them (a dead seat's phone only follows the box)."""
        return set(SEATS) - set(self.dead) <= self.phones

    # ====================================================== a night on phones
    def night_task(self) -> Kind | None:
        """The night window on phones open now (PLOT or ACT), if any."""
        if self.stage is not Stage.NIGHT or not self.turns or self.turn_stage != _WAIT:
            return None
        kind = self.current_turn().kind
        return kind if kind in NIGHT_TASKS else None

    def night_step(self) -> str:
        """The name of the night window open now, as the phones answer it."""
        return f"night{self.night}.{self.current_turn().id}"

    def night_options(self, seat: int) -> tuple[int, ...]:
        """What a living seat may tap in the window open now, the same kind
        of options for every seat whatever its card: in the Wolves' plot
        every living seat (a Wolf taps a Town seat for the victim, itself
        or its partner for the knife); in the actions every other living
        seat (004: nobody targets themselves)."""
        living = tuple(s for s in SEATS if s not in self.dead)
        if self.night_task() is Kind.ACT:
            return tuple(s for s in living if s != seat)
        return living

    def pack(self) -> list[int]:
        """The living Wolves, in seat order: each marks in its own slot."""
        return self._wolves()

    def _night_answer(self, seat: int, target: int) -> None:
        """A living seat's tap in a night window: kept as its mark (the
        last tap counts); a Wolf's tap in the plot is also its vote, for the
        victim (a Town seat) or for the knife (a Wolf). Anything else
        changes nothing."""
        if seat not in SEATS or seat in self.dead or target not in self.night_options(seat):
            return
        self.marks[seat] = target
        pack = self.pack()
        if self.night_task() is Kind.PLOT and seat in pack:
            slot = pack.index(seat)
            if is_wolf_team(self.seats[target - 1]):
                self.knives[slot] = target
            else:
                self.victims[slot] = target

    def vote_step(self) -> str:
        """The name of today's vote, as the phones answer it."""
        return f"vote.day{self.night + 1}"

    def _phone_tally(self, now: float) -> list[Effect]:
        """The count ends: the box counts the phones' votes. The seat with
        the most is the tally; two or more with the most, or no vote, is a
        tie. The table checks the result on the screen (or recounts by hand)."""
        counts = Counter(v for v in self.phone_votes.values() if v != SKIP)
        top = max(counts.values(), default=0)
        leaders = [seat for seat, n in counts.items() if n == top]
        self.tally = leaders[0] if len(leaders) == 1 else 0
        self.votes, self.tie = top, len(leaders) != 1
        self.cursor = self.tally or self._first_living()
        return self._show_result(now)

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """What `seat`'s phone shows (wolfbox.phone): its own card in the
        deal on phones, else the public screen."""
        return shown.phone_view(self, seat, now)

    def _released_vote(self, event: Release, now: float) -> list[Effect]:
        if event.button is not Button.VOTE:
            return []
        self._early_hold = False
        if not self.showing:
            return []
        self._released = True
        return self.tick(now)

    def _pressing(self, event: Tap | Hold, action: Action | None) -> None:
        if isinstance(event, Hold) and event.button is Button.VOTE \
                and self.stage in (Stage.DEAL, Stage.NIGHT) and self.turn_stage != _WAIT \
                and Button.VOTE not in self.holds():
            # A seat that presses while its call is still being said: nothing
            # may change now (it would be seen and heard between turns), but
            # the hold counts if VOTE is still down when the window opens.
            self._early_hold = True
        if action is not None:
            self.alert, self.refused = "", None
            self._second_hold.lapse_unless(action, self._abandon)

    def tick(self, now: float) -> list[Effect]:
        """Move on past every deadline that has passed by `now`, in order."""
        def hide_card() -> list[Effect]:
            if self.showing and self._released and self._hide is not None \
                    and self._hide.expired(now):
                self.showing, self._hide = False, None
            return []
        return pacing.run_due(self, now, hide_card) + self._warnings(now)

    def next_change(self, now: float) -> float | None:
        if self.paused:
            return None
        times = [pacing.next_deadline(self, now)]
        if self.showing and self._released and self._hide is not None:
            times.append(self._hide.deadline)          # a card's time on the screen
        return min((t for t in times if t is not None), default=None)

    # ====================================================== what buttons do
    def taps(self) -> Actions:
        """What a tap of each button does now: the legend and the lights read it."""
        if self.reading:
            return paged({Button.START: Action(_("Back"), self._close_tracker)},
                         len(self.tracker_pages()), self._next_page)
        if self.settings.shown_over(MODE):
            return self.settings.taps(self.settings.close, self.setting_changed)
        if self.paused:
            return {Button.START: pacing.resume_key(self)}
        match self.stage:
            case Stage.SETUP:
                game = SETUP_ITEMS[self.item] == "game"
                return {Button.START: Action(_("Deal"), self._start),
                        Button.NEXT: Action(_("Next item"), self._next_item),
                        Button.VOTE: Action(_("Next game") if game else _("Next setup"),
                                             lambda now: self._change(+1)),
                        Button.BACK: Action(_("Previous game") if game else
                                             _("Previous setup"),
                                             lambda now: self._change(-1))}
            case Stage.RESUME:
                return {Button.START: Action(_("Resume"), self._resume_saved),
                        Button.BACK: Action(_("New game"), self._to_setup)}
            case Stage.DEAL | Stage.NIGHT:
                return self._turn_taps()
            case Stage.DISCUSSION | Stage.VOTE:
                # Ending a clock early is a hold (see _holds): one stray tap
                # must not cut 004's discussion short.
                return {Button.START: pacing.pause_key(self),
                        Button.NEXT: Action(_("Setups"), self._open_tracker)}
            case Stage.TALLY:
                taps = seat_keys(self._move)
                taps[Button.VOTE] = Action(_("Most votes"), self._tallied)
                taps[Button.START] = Action(_("Tie"), self._tied)
                return taps
            case Stage.COUNT:
                return {Button.VOTE: Action(_("Vote +1"), lambda now: self._count(+1)),
                        Button.BACK: Action(_("Vote −1"), lambda now: self._count(-1)),
                        Button.START: Action(_("Done"), self._counted)}
            case Stage.RESULT:
                if self.applied:
                    return {}
                return {Button.START: Action(_("OK"), self._result_ok),
                        Button.BACK: Action(_("Recount"), self._recount)}
            case Stage.END:
                return paged({Button.START: Action(_("New game"), self._to_setup)},
                             self._end_count(), self._next_page)
        return {}

    def _turn_taps(self) -> Actions:
        """A turn's buttons work only in its window; between turns nothing
        does (a press would be heard, and would do nothing anyway)."""
        if self.turn_stage != _WAIT:
            return {}
        turn = self.current_turn()
        if turn.kind is Kind.CHOOSE:
            taps = seat_keys(self._move)
            taps[Button.VOTE] = Action(_("Choose"), self._choose)
            return taps
        if turn.kind is Kind.KILL:
            taps = seat_keys(self._move)
            taps[Button.VOTE] = Action(_("Mark"), self._mark)
            if self.kill_step + 1 < len(KILL_STEPS):
                slot, question = KILL_STEPS[self.kill_step + 1]
                label = _("Knife") if question == _KNIFE else \
                    _("Wolf {n}").format(n=slot + 1)
                taps[Button.START] = Action(label, self._next_kill_step)
            return taps
        return {}

    def holds(self) -> Actions:
        """What a hold of each button does now."""
        holds = self.settings.holds(MODE, self.stage is Stage.SETUP)
        if self.stage not in (Stage.SETUP, Stage.RESUME, Stage.END):
            holds[Button.BACK] = Action(_("Hold: end game"), self._abandon)
        if self.stage is Stage.DISCUSSION and not self.paused and not self.reading:
            holds[Button.VOTE] = Action(_("Hold: vote now"), self._begin_vote)
        if self.stage is Stage.VOTE and not self.paused and not self.reading:
            holds[Button.VOTE] = Action(_("Hold: point now"), self._begin_point)
        if self.stage in (Stage.DEAL, Stage.NIGHT) and self.turn_stage == _WAIT \
                and self.current_turn().kind in (Kind.CARD, Kind.LOOK):
            holds[Button.VOTE] = Action(_("Hold: show"), self._show)
        return holds

    # ================================================================ setup
    def _next_item(self, now: float) -> list[Effect]:
        self.item = (self.item + 1) % len(SETUP_ITEMS)
        return []

    def _change(self, step: int) -> list[Effect]:
        if SETUP_ITEMS[self.item] == "game":
            return switch(MODE, step)
        choices = [RANDOM, *SETUPS]
        here = choices.index(self.choice) if self.choice in choices else 0
        self.choice = choices[(here + step) % len(choices)]
        return []

    def _start(self, now: float) -> list[Effect]:
        name = self.choice or self.rng.choice(list(SETUPS))
        roles = list(SETUPS[name])
        self.rng.shuffle(roles)
        self.setup, self.seats, self.dead = name, tuple(roles), {}
        self.night, self.winner, self.ended_early = 0, None, False
        self.kept = []
        return [Warm(tuple(self.lines()))] + self._begin_deal(now)

    def _to_setup(self, now: float) -> list[Effect]:
        dark = self.stage in (Stage.DEAL, Stage.NIGHT)
        effects: list[Effect] = [Ambience(False)] if dark else []
        self.stage, self.item, self.paused, self.timer = Stage.SETUP, 0, False, None
        self.reading, self.showing = False, False
        self._second_hold.disarm()
        self.speech.silence()
        self.caption = ""
        return effects + [self.saves.forget()]

    def _show_alert(self, text: str) -> None:
        self.alert = text

    def _abandon(self, now: float) -> list[Effect]:
        """The first hold asks, a second one (before any other button) ends."""
        return self._second_hold.held(now, self._show_alert, self._end_early)

    def _end_early(self, now: float) -> list[Effect]:
        """The table ends the game: nobody wins, and the end screen shows
        every seat's card as after a win (the table wants to know who was
        who). Nothing is saved: after a power cut the box offers a new game."""
        dark = self.stage in (Stage.DEAL, Stage.NIGHT)
        self.stage, self.page, self.winner, self.ended_early = Stage.END, 0, None, True
        self.paused, self.reading, self.timer, self.showing = False, False, None, False
        self.alert = ""
        self._second_hold.disarm()
        self.speech.silence()
        self.caption = ""
        effects: list[Effect] = [Ambience(False)] if dark else []
        return effects + [self.saves.forget()]

    # ================================================================ turns
    def current_turn(self) -> Turn:
        """The turn of the deal or the night being played."""
        return self.turns[self.turn_index]

    def _begin_turns(self, now: float, turns: tuple[Turn, ...]) -> list[Effect]:
        self.turns, self.turn_index = turns, 0
        return self._turn_stage(now, _SPEAK)

    def _turn_stage(self, now: float, stage: str) -> list[Effect]:
        # A word from the box (the end game's question) never outlives the
        # part of a turn it was asked in: it would glow through the dark.
        self.turn_stage, self.alert = stage, ""
        self._second_hold.disarm()
        turn = self.current_turn()
        if stage == _SPEAK and turn.over:
            return self._turn_stage(now, _WAIT)
        if stage == _WAIT:
            self.timer = Countdown.start(now, turn.seconds)
            self._open_window(now, turn)
            return self._say_now(now, turn.wake) if turn.over else []
        if stage == _AFTER and not turn.sleep:
            return self._turn_next(now)
        return self._speak(now, turn.wake if stage == _SPEAK else turn.sleep)

    def _turn_next(self, now: float) -> list[Effect]:
        """The current part of a turn is over: the next part, or turn."""
        if self.turn_stage == _SPEAK:
            return self._turn_stage(now, _WAIT)
        if self.turn_stage == _WAIT:
            self._close_window(self.current_turn())
            return self._turn_stage(now, _AFTER)
        if self.turn_index + 1 < len(self.turns):
            self.turn_index += 1
            effects: list[Effect] = []
            if self.current_turn().kind in READING and self.outcome is None:
                # Every choice is in: resolve, and keep the choices, so a
                # power cut from here on does not ask for them again.
                self._resolve()
                effects.append(self._take_checkpoint())
            return effects + self._turn_stage(now, _SPEAK)
        if self.stage is Stage.DEAL:
            return self._begin_day(now, wake=True)
        return self._begin_dawn(now)

    def _open_window(self, now: float, turn: Turn) -> None:
        self.showing, self._hide, self._released = False, None, False
        early, self._early_hold = self._early_hold, False
        if early and turn.kind in (Kind.CARD, Kind.LOOK):
            # VOTE was pressed before the window and is still held: the
            # classifier sends no second Hold, so the card shows now.
            self._show(now)
        self.chosen, self.kill_step, self.refused = None, 0, None
        self.victims, self.knives = [None] * WOLF_SLOTS, [None] * WOLF_SLOTS
        self.marks = {}
        # No seat is pointed at until NEXT or BACK is pressed, and the cursor
        # then stops on every living seat: a window must look the same
        # whoever is dealt the role, so nothing on it (where the cursor
        # starts, which seats it passes over, an outline) may follow from
        # who acts or where the Wolves sit. A seat that may not be chosen is
        # refused only when it is chosen (see _refuse).
        self.cursor = 0

    def _close_window(self, turn: Turn) -> None:
        self.showing, self._hide = False, None
        if turn.kind is Kind.CHOOSE:
            actor = self._actor(turn.role)
            if actor is not None and self.chosen is not None:
                self.actions[actor] = self.chosen
        elif turn.kind in (Kind.KILL, Kind.PLOT):
            self.kill = self._pack_choice()
        elif turn.kind is Kind.ACT:
            # The roles that act: their taps are their actions; every other
            # seat's answer was a decoy and changes nothing.
            for seat, target in self.marks.items():
                if ROLES[self.seats[seat - 1]].ability is not None:
                    self.actions[seat] = target
        self.marks = {}

    def _actor(self, role: str) -> int | None:
        """The living seat with `role`, if it is dealt and alive."""
        return next((s for s in SEATS if self.seats[s - 1] == role and s not in self.dead),
                    None)

    def _wolves(self) -> list[int]:
        return [s for s in SEATS if is_wolf_team(self.seats[s - 1]) and s not in self.dead]

    def _allowed(self, seat: int) -> bool:
        """Whether this window's choice may fall on `seat` (004: nobody
        targets themselves; the kill is on the Town, by a living Wolf)."""
        turn = self.current_turn()
        if turn.kind is Kind.KILL:
            wolf = is_wolf_team(self.seats[seat - 1])
            return wolf if self._kill_question() == _KNIFE else not wolf
        return seat != self._actor(turn.role)

    def _move(self, step: int) -> list[Effect]:
        options = [s for s in SEATS if s not in self.dead]     # the dead are public
        if self.cursor not in options:
            self.cursor = options[0] if step > 0 else options[-1]
            return []
        self.cursor = options[(options.index(self.cursor) + step) % len(options)]
        return []

    def _refuse(self, seat: int) -> list[Effect]:
        """The same words for every seat that may not be chosen, whatever
        the reason: the reason (the actor's own seat, a Wolf's) is a secret
        of whoever stands at the box."""
        self.refused = seat
        self.alert = _("Seat {seat} cannot be chosen here: choose another seat.").format(
            seat=seat)
        return []

    def _choose(self, now: float) -> list[Effect]:
        if not self.cursor:
            return []
        if not self._allowed(self.cursor):
            return self._refuse(self.cursor)
        self.chosen = self.cursor
        return []

    def _kill_question(self) -> str:
        return KILL_STEPS[self.kill_step][1]

    def kill_marks(self) -> list[int | None]:
        """The slots of the question the kill window asks now."""
        return self.knives if self._kill_question() == _KNIFE else self.victims

    def _mark(self, now: float) -> list[Effect]:
        """The Wolf at the box marks its own slot; marking again changes
        that mark, never the other Wolf's (004: the pack decides by
        plurality, ties at random; see _pack_choice)."""
        if not self.cursor:
            return []
        if not self._allowed(self.cursor):
            return self._refuse(self.cursor)
        slot = KILL_STEPS[self.kill_step][0]
        self.kill_marks()[slot] = self.cursor
        return []

    def _next_kill_step(self, now: float) -> list[Effect]:
        """START: on to the next step; there is no way back, so a Wolf's
        marks are the other's to see, not to change."""
        self.kill_step = min(self.kill_step + 1, len(KILL_STEPS) - 1)
        self.cursor = 0
        return []

    def _pack_choice(self) -> Kill | None:
        """The victim and the knife by plurality of the Wolves' marks, ties
        (and an unmarked knife) broken at random, as 004 decides them."""
        victims = [s for s in self.victims if s is not None]
        if not victims or not self._wolves():
            return None
        knives = [s for s in self.knives if s is not None] or self._wolves()
        return Kill(self._plurality(victims), self._plurality(knives))

    def _plurality(self, marks: list[int]) -> int:
        counts = Counter(marks)
        most = max(counts.values())
        return self.rng.choice(sorted(s for s, n in counts.items() if n == most))

    def _show(self, now: float) -> list[Effect]:
        self.showing, self._released = True, False
        self._hide = Countdown.start(now, self.options.show)
        return []

    # ================================================================ deal
    def _begin_deal(self, now: float) -> list[Effect]:
        """The deal: on the box, a seat at a time; with a phone at every
        seat, all at once on the phones (issue 22), in one 30 s step."""
        self.stage = Stage.DEAL
        on_phones = self.phones >= set(SEATS)
        effects: list[Effect] = [self._take_checkpoint(), Ambience(True)]
        effects += self._speak(now, _(said.SEATING))
        effects += self._speak(now, _(said.PHONE_DEAL if on_phones else said.DEAL))
        self.turns = phone_deal_turns() if on_phones else deal_turns(self.options.times)
        self.turn_index, self.turn_stage = 0, _SPEAK
        return effects + self._speak(now, self.current_turn().wake)

    # ================================================================ night
    def _begin_night(self, now: float, number: int, chosen: bool = False) -> list[Effect]:
        """Night `number` from its first turn; with `chosen` (a resume after
        every choice was made) from its first message turn, the night
        resolved again from the saved choices."""
        self.stage, self.night = Stage.NIGHT, number
        self.outcome, self.killed = None, None
        if not chosen:
            self.actions, self.kill = {}, None
        # With a phone at every living seat, 004's own night (issue 22);
        # else the box's, a role at a time. Decided as the night falls.
        on_phones = self.living_on_phones()
        self.turns = phone_night_turns() if on_phones else night_turns(self.options.times)
        self.turn_index, self.turn_stage = 0, _SPEAK
        if chosen:
            self.turn_index = next(i for i, t in enumerate(self.turns) if t.kind in READING)
            self._resolve()
        effects: list[Effect] = [self._take_checkpoint(), PlayCue(Cue.CHIME), Ambience(True)]
        falls = said.phone_night_falls if on_phones else said.night_falls
        effects += self._speak(now, falls(number))
        if self.current_turn().over:               # its call is said over its window
            return effects
        return effects + self._speak(now, self.current_turn().wake)

    def _resolve(self) -> None:
        self.outcome = resolve(self.seats, set(self.dead), self.actions, self.kill)
        self.killed = self.outcome.killed

    def message(self, seat: int) -> tuple[str, str]:
        """What seat `seat` reads in its turn tonight: a headline and a line.
        A blocked result reads "No result", in the same layout as any other."""
        assert self.outcome is not None
        lines: list[tuple[str, str]] = []
        if seat == self.killed:
            # The box's choice where 004 leaves it open: a player killed
            # tonight cannot use a result, and a face reading one at dawn
            # would say more than the role the dawn reveals.
            return _("Nothing"), _("Nothing for you tonight.")
        if seat in self.outcome.results:
            lines.append(result_words(self.seats[seat - 1], self.actions.get(seat, 0),
                                       self.outcome.results[seat], self.names))
        for maid, told in self.outcome.results.items():
            if told is not None and told.get("told") == seat:
                lines.append((team_name(Team.TOWN), _(
                    "The Dairy Maid visited you: {seat} is Town.").format(
                    seat=seat_name(maid, self.names))))
        if not lines:
            return _("Nothing"), _("Nothing for you tonight.")
        return lines[0][0], sentences([note for _head, note in lines])

    # ================================================================= dawn
    def _begin_dawn(self, now: float) -> list[Effect]:
        self.stage = Stage.DAWN
        if self.killed is not None:
            self.dead[self.killed] = self.seats[self.killed - 1]
        if self.outcome is not None:
            self.kept = [k for k in self.kept if k.number != self.night] + [NightKept(
                self.night, dict(self.actions), self.kill, self.outcome, frozenset(self.dead))]
        effects: list[Effect] = [Ambience(False), self._take_checkpoint()]
        return effects + self._dawn_lines(now)

    def _dawn_lines(self, now: float) -> list[Effect]:
        effects = self._speak(now, _(said.EVERYONE_WAKE))
        if self.killed is None:
            return effects + self._speak(now, _(said.NOBODY_DIED))
        effects += self._speak(now, said.killed(self.killed))
        effects += self._speak(now, said.was(self.killed, self.seats[self.killed - 1]))
        return effects + self._speak(now, said.silent(self.killed))

    def _check_win(self, now: float) -> list[Effect]:
        """After a death and at each dawn: the game ends, or goes on."""
        self.winner = rules.winner(self.seats, set(self.dead), self.night)
        if self.winner is not None:
            return self._end(now)
        if self.stage is Stage.DAWN:
            return self._begin_day(now)
        return self._begin_night(now, self.night + 1)

    def _end(self, now: float) -> list[Effect]:
        assert self.winner is not None
        self.stage, self.page, self.reading, self.timer = Stage.END, 0, False, None
        effects: list[Effect] = [Ambience(False), PlayCue(Cue.CHIME), self._take_checkpoint()]
        return effects + self._speak(now, _(said.END_LINES[self.winner]))

    # ============================================================= the day
    def _begin_day(self, now: float, wake: bool = False) -> list[Effect]:
        self.stage, self.warned = Stage.DISCUSSION, set()
        self.timer = Countdown.start(now, rules.DISCUSSION)
        effects: list[Effect] = [self._take_checkpoint()]
        if wake:
            effects += [Ambience(False)] + self._speak(now, _(said.EVERYONE_WAKE))
        return effects + self._speak(now, said.day_begins(self.night + 1))

    def _begin_vote(self, now: float) -> list[Effect]:
        self.stage, self.warned, self.reading = Stage.VOTE, set(), False
        self.phone_votes = {}
        self.timer = Countdown.start(now, rules.VOTE)
        effects: list[Effect] = [self._take_checkpoint(), PlayCue(Cue.TIME_UP)]
        line = said.PHONE_VOTE_NOW if self.voting_on_phones() else said.VOTE_NOW
        return effects + self._say_now(now, _(line))

    def _begin_point(self, now: float) -> list[Effect]:
        self.stage, self.count_in, self.reading = Stage.POINT, 0, False
        self.timer = Countdown.start(now, 1.0)
        return self._say_now(now, _(said.COUNT_IN[0]))

    def _warnings(self, now: float) -> list[Effect]:
        """The day's clocks speak at set times left (said.*_WARNINGS)."""
        if self.paused or self.timer is None or self.stage not in (Stage.DISCUSSION,
                                                                    Stage.VOTE):
            return []
        marks = said.DISCUSSION_WARNINGS if self.stage is Stage.DISCUSSION else \
            said.VOTE_WARNINGS
        shown = self.timer.shown_seconds(now)
        crossed = [w for w in marks if w not in self.warned and shown <= w]
        if not crossed:
            return []
        self.warned.update(crossed)
        if shown < min(crossed) - 1:       # long past (a resume): no stale warning
            return []
        return self._say_now(now, said.left(min(crossed)))

    def _tallied(self, now: float) -> list[Effect]:
        if self.cursor in self.dead:
            self.cursor = self._first_living()
            return []
        self.tally, self.tie, self.stage = self.cursor, False, Stage.COUNT
        self.votes = min(self.votes, self.living_count())
        return []

    def _tied(self, now: float) -> list[Effect]:
        self.tie = True
        return self._show_result(now)

    def _count(self, step: int) -> list[Effect]:
        most = self.living_count()
        if self.votes + step > most:
            self.alert = _("At most {most} votes: one a living player.").format(most=most)
        self.votes = max(0, min(most, self.votes + step))
        return []

    def _counted(self, now: float) -> list[Effect]:
        return self._show_result(now)

    def _show_result(self, now: float) -> list[Effect]:
        """The verdict on the screen for the table to check; said once it
        is confirmed (a recount must not follow an announcement)."""
        self.stage, self.applied = Stage.RESULT, False
        self.verdict = (self._out(), self.living_count())
        return []

    def _out(self) -> bool:
        return not self.tie and rules.eliminated(self.votes, self.living_count())

    def _recount(self, now: float) -> list[Effect]:
        self.stage = Stage.TALLY
        self.cursor = self.tally if self.tally and self.tally not in self.dead else \
            self._first_living()
        return []

    def _result_ok(self, now: float) -> list[Effect]:
        """Apply and announce the vote; the game goes on once it is said."""
        if self.tie:
            lines = [_(said.TIE)]
        elif self.verdict[0]:
            role = self.seats[self.tally - 1]
            lines = [said.out(self.tally, self.votes), said.was(self.tally, role),
                     said.silent(self.tally)]
            self.dead[self.tally] = role
        else:
            lines = [said.short(self.votes, rules.votes_needed(self.living_count())),
                     _(said.NOBODY_OUT)]
        self.applied = True
        effects = self._say_now(now, lines[0])
        for line in lines[1:]:
            effects += self._speak(now, line)
        return effects

    # ============================================================ tracker
    def _open_tracker(self, now: float) -> list[Effect]:
        self.reading, self.page = True, 0
        return []

    def _close_tracker(self, now: float) -> list[Effect]:
        self.reading = False
        return []

    def _next_page(self, now: float) -> list[Effect]:
        count = len(self.tracker_pages()) if self.reading else self._end_count()
        self.page = (self.page + 1) % count
        return []

    def _end_count(self) -> int:
        """The end's screens: its cards and deaths, then a picture a night."""
        picture = self.picture()
        return len(self.end_pages()) + (len(picture.pages) if picture else 0)

    def picture(self) -> TableMap | None:
        """Each night as a picture, once the game is over (public then)."""
        if self.stage is not Stage.END:
            return None
        return nights_map(self.seats, self.names, self.kept)

    def possible(self) -> list[str]:
        """The setups the dead's roles still allow (public facts only)."""
        return possible_setups(self.dead)

    def tracker_pages(self) -> tuple[tuple[str, ...], ...]:
        """The setup tracker, a page a screen."""
        return pages.group(self.tracker_items(), pages.RULES_LINES)

    def tracker_items(self) -> list[str]:
        """The setups still possible, whole (the box pages them, a phone scrolls)."""
        possible = self.possible()
        items = [describe(name) for name in possible]
        ruled_out = [name for name in SETUPS if name not in possible]
        if ruled_out:
            items.append(_("Ruled out by the dead: {names}").format(names=" ".join(ruled_out)))
        return items

    def end_pages(self) -> tuple[tuple[str, ...], ...]:
        """The end's cards and deaths, a page a screen."""
        return pages.group(self.end_items(), pages.RULES_LINES)

    def end_items(self) -> list[str]:
        """The end's setup and every seat's card, whole (the box pages them)."""
        items = [_("The setup was {name}.").format(name=self.setup)]
        for seat, role in enumerate(self.seats, 1):
            mark = _(" (died)") if seat in self.dead else ""
            items.append(_("{seat}: {role}, {team}{dead}").format(
                seat=seat_name(seat, self.names), role=role_name(role),
                team=team_name(team_of(role)), dead=mark))
        return items

    # ======================================================= pause, timers
    def time_up(self, now: float) -> list[Effect]:
        """The stage's time is up (the engine's hook)."""
        match self.stage:
            case Stage.DEAL | Stage.NIGHT:
                return self._turn_next(now)
            case Stage.DISCUSSION:
                return self._begin_vote(now)
            case Stage.VOTE:
                return self._begin_point(now)
            case Stage.POINT:
                self.count_in += 1
                if self.count_in < len(said.COUNT_IN):
                    self.timer = Countdown.start(now, 1.0)
                    return self._say_now(now, _(said.COUNT_IN[self.count_in]))
                if self.voting_on_phones():
                    return [PlayCue(Cue.VOTE)] + self._phone_tally(now)
                self.stage, self.cursor, self.votes = Stage.TALLY, self._first_living(), 0
                return [PlayCue(Cue.VOTE)] + self._say_now(now, _(said.POINT))
        return []

    # =============================================================== speech
    def _speak(self, now: float, text: str) -> list[Effect]:
        return pacing.speak(self, now, text)

    def _say_now(self, now: float, text: str) -> list[Effect]:
        return pacing.say_now(self, now, text)

    def line_finished(self, now: float) -> list[Effect]:
        """Every queued line has been said: a stage waiting on them goes on."""
        self.caption = ""
        if self.stage in (Stage.DEAL, Stage.NIGHT) and self.turn_stage in (_SPEAK, _AFTER):
            return self._turn_next(now)
        if self.stage is Stage.DAWN:
            return self._check_win(now)
        if self.stage is Stage.RESULT and self.applied:
            return self._check_win(now)
        return []

    # ========================================================= save, resume
    def _take_checkpoint(self) -> Checkpoint:
        return self.saves.take(self.checkpoint_state())

    def checkpoint_state(self) -> dict[str, Any]:
        """The game as its checkpoint keeps it (saved.py reads it back)."""
        return {"version": SAVE_VERSION, "stage": str(self.stage), "choice": self.choice,
                "setup": self.setup, "seats": list(self.seats),
                "dead": {str(s): r for s, r in sorted(self.dead.items())},
                "night": self.night, "killed": self.killed, "winner": self.winner,
                # A night's choices, once all are made (see _turn_next).
                "chosen": None if self.outcome is None or self.stage is not Stage.NIGHT else {
                    "actions": {str(a): t for a, t in sorted(self.actions.items())},
                    "kill": [self.kill.target, self.kill.knife] if self.kill else None}}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the game at the start of its current phase."""
        saved = self.saves.saved()
        if self.stage is Stage.SETUP or saved is None:
            return {"version": SAVE_VERSION, "stage": str(Stage.SETUP), "choice": self.choice}
        return saved

    @classmethod
    def from_dict(cls, state: Mapping[str, Any], options: Options | None = None,
                  rng: random.Random | None = None) -> Game:
        """A game restored from `to_dict`, asking to resume at the start of
        its saved phase. The state is checked first (wolfbox.newd3.saved):
        anything that is not a checkpoint this game could have taken is
        `CannotResume`, a ValueError, never a game that crashes or tells
        what did not happen."""
        checked = saved.read(state)
        if isinstance(checked, str):                     # the setup screen's choice
            return cls(options or Options(), rng or random.Random(), choice=checked)
        game = cls(options or Options(), rng or random.Random(), choice=checked.choice)
        game.setup, game.seats = checked.setup, checked.seats
        game.dead = dict(checked.dead)
        game.night, game.killed, game.winner = checked.night, checked.killed, checked.winner
        if checked.chosen is not None:
            game.actions, game.kill = dict(checked.chosen.actions), checked.kill
            game._resume_chosen = True
            game._resolve()
        restore(game, Stage(checked.stage), Stage.RESUME)
        return game

    def _resume_saved(self, now: float) -> list[Effect]:
        match self.saves.resume():
            case Stage.DEAL:
                return self._begin_deal(now)
            case Stage.NIGHT:
                return self._begin_night(now, self.night, chosen=self._resume_chosen)
            case Stage.DAWN:
                self.stage = Stage.DAWN
                return [self._take_checkpoint()] + self._dawn_lines(now)
            case Stage.DISCUSSION:
                return self._begin_day(now)
            case Stage.VOTE:
                return self._begin_vote(now)
        self.stage, self.page = Stage.END, 0
        return []

    # ================================================================ mode
    def lines(self) -> list[str]:
        """Every line a game can say (wolfbox.mode.Mode)."""
        return said.all_lines()

    @property
    def table_seats(self) -> int:
        """The seats at the table: 004's nine."""
        return PLAYERS

    def busy(self) -> bool:
        """A game is under way (a stray quit key must ask twice); with
        phones, its end too: they keep their seats to show who won and every
        card, until the table leaves the end."""
        return self.stage not in (Stage.SETUP, Stage.RESUME, Stage.END) \
            or (self.stage is Stage.END and bool(self.phones))

    def setting_changed(self, key: str) -> list[Effect]:
        """A setting changed on the box: captions follow the speech speed,
        and the lines are rendered again at it."""
        if key not in ("voice.length_scale", ANY):
            return []
        per_word = pages.PER_WORD * self.settings.config.voice.length_scale
        self.options = dataclasses.replace(self.options, per_word=per_word)
        return [Warm(tuple(self.lines()))]

    # ================================================================ view
    def view(self, now: float) -> View:
        """The screen model (wolfbox.mode.Mode), drawn by screen.py."""
        return shown.view(self, now)

    @property
    def resume_chosen(self) -> bool:
        """A night resumed is to begin again at its messages (its choices made)."""
        return self._resume_chosen

    # ================================================================ seats
    def living_count(self) -> int:
        """The seats still in the game."""
        return PLAYERS - len(self.dead)

    def _first_living(self) -> int:
        return next((s for s in SEATS if s not in self.dead), 1)

    # =============================================================== checks
    def check(self) -> None:
        """AssertionError if the game is in a state it should never reach."""
        if self.stage in (Stage.SETUP, Stage.RESUME):
            return
        assert tuple(sorted(self.seats)) == SETUPS[self.setup]
        assert all(self.seats[s - 1] == r for s, r in self.dead.items())
        assert 0 <= self.night <= rules.MAX_NIGHTS
        if self.stage in DAY_STAGES and not self.applied:
            assert rules.winner(self.seats, set(self.dead), self.night) is None, \
                "a win was missed"
        if self.stage is Stage.NIGHT:
            # Tonight is not done: the nights done are the ones before it.
            assert rules.winner(self.seats, set(self.dead), self.night - 1) is None, \
                "a win was missed"
            # Only the living act (those killed tonight die at dawn).
            for actor, target in self.actions.items():
                assert actor != target and actor not in self.dead
        if self.stage is Stage.END and not self.ended_early:
            assert self.winner == rules.winner(self.seats, set(self.dead), self.night)


# What each ability's turn asks, by role.
