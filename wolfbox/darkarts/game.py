"""Werewolves of the Dark Arts, as a pure state machine: the box as the
Town Mayor's partner.

Shaped like One Night's flow (wolfbox.onenight.flow): events in (a tap, a hold, the
end of a spoken line) with the time from an injected monotonic clock,
effects out (say this, play that cue, save this checkpoint). It never reads
a clock, so a whole game of many nights is tested in milliseconds.

The stages and what each button does are one table (`taps`); the legend
on the screen is read from it. Lines are said one after another from a
queue: a line ends when the narrator reports its end (then a short gap) or
when its caption time runs out, whichever is first.

At the start of each night, dawn and discussion the game takes a
checkpoint (`to_dict`, JSON-safe) and hands it out as a `Checkpoint`
effect: after a power cut `Game.from_dict` resumes there with the same
seats, roles, deaths, Lovers and night number. In the setup, every change
is handed out the same way, and at the end the setup of the game played:
a restart finds the table's setup as it was left.

Every entry the Mayor makes can be put right. A card, the Hunter's shot
and the close of a dawn are shown back for a yes (OK) or a change (BACK)
before they take effect, and no picker starts on a value: a stray OK
decides nothing. Once an entry has taken effect, holding VOTE undoes it:
the game keeps a snapshot from before each entry and goes back to it (the
book, the dead and the win check with it; the snapshot's checkpoint is
handed out again).

Why this file is long: it is one state machine, whose every stage's
buttons read and change the same state (the ring, the chains, the book,
the undo snapshots); what it is lives in model.py, what it shows in
screen.py, and what every game does alike in wolfbox.engine.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import pages
from ..buttons import Button, Hold, Tap
from ..effects import (
    Ambience,
    ChangeSetting,
    Checkpoint,
    Cue,
    Effect,
    PlayCue,
    StopSpeech,
    Warm,
)
from ..engine import handling, pacing
from ..engine.actions import Action, Actions, SecondHold, paged, seat_keys
from ..engine.checkpoints import Checkpoints, restore
from ..engine.speech import Speech
from ..events import Event, PhoneEvent, PhonesSeated
from ..i18n import _, ngettext
from ..phone import PhoneView
from ..roster import switch
from ..settings_screen import ANY, SettingsScreen
from ..timer import Countdown
from ..view import View
from . import console, rules, said, saved
from . import screen as shown
from .book import ACCUSATION, DEATH, HEARTBREAK, LYNCH, NIGHT, SHOT, VOTE, WIN, Book, Record
from .model import (
    _AFTER,
    _CARD,
    _DAWN,
    _DAY_STAGES,
    _NIGHT_STAGES,
    _NOT_UNDONE,
    _SHOT,
    _SPEAK,
    _TO_DISCUSSION,
    _TO_NIGHT,
    _WAIT,
    GAME_ITEM,
    LIMITS,
    MODE,
    NO_ROLE,
    NO_SEAT,
    PHONE_DEAL_SECONDS,
    SAVE_VERSION,
    DarkEffect,
    Options,
    Screen,
    Stage,
)
from .night import MATCHMAKER, Step, night_calls
from .roles import CHOSEN, ROLES, VILLAGE, VILLAGER
from .seats import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, Ring


@dataclass
class Game:
    options: Options = field(default_factory=Options)
    stage: Stage = Stage.SETUP
    players: int = DEFAULT_PLAYERS
    chosen: dict[str, int] = field(default_factory=lambda: rules.default_roles(
        DEFAULT_PLAYERS))
    setup: rules.Setup | None = None
    ring: Ring | None = None
    lovers: tuple[int, int] | None = None
    night: int = 0                      # the current night's number; its day's too
    previous_accused: int | None = None
    book: Book = field(default_factory=Book)
    winner: str | None = None
    paused: bool = False
    reading: bool = False               # the book is open over the game
    # the box's settings screen (shared by its games), open over the setup
    settings: SettingsScreen = field(default_factory=SettingsScreen, compare=False, repr=False)
    alert: str = ""
    caption: str = ""
    # night
    steps: tuple[Step, ...] = ()
    step_index: int = 0
    night_stage: str = _SPEAK
    timer: Countdown | None = None      # the stage's deadline: action time, beat, limits
    # entry
    cursor: int = 0                     # setup item, seat or role index, by stage
    picked: list[int] = field(default_factory=list)    # Lovers being entered
    dying: int = 0                      # the seat whose role is being entered
    cause: str = NIGHT
    by: int = 0
    dawn_deaths: list[int] = field(default_factory=list)
    chain: list[rules.Chain] = field(default_factory=list)
    after_chains: str = _TO_DISCUSSION
    pending: str = ""                   # the entry being shown back: _CARD, _SHOT, _DAWN
    accused: int = 0
    hands: int = 0
    adjust: int = 0
    adjusting: bool = False
    page: int = 0
    # Lines to say, each with what the screen was about when it was asked for.
    speech: Speech[tuple[object, ...]] = field(default_factory=Speech)
    saves: Checkpoints[Stage] = field(default_factory=lambda: Checkpoints(MODE))
    _second_hold: SecondHold = field(default_factory=SecondHold)   # BACK held once: ask
    phones: frozenset[int] = frozenset()     # the seats that hold a phone (public)
    names: dict[int, str] = field(default_factory=dict)   # their players' names (public)
    dealt: tuple[str, ...] | None = None     # each seat's card, where the box dealt them
    hands_on_phones: bool = False            # this call's hands are raised on the phones
    hand_votes: dict[int, bool] = field(default_factory=dict)   # voter -> hand up
    rng: random.Random = field(default_factory=random.SystemRandom, compare=False, repr=False)
    # The game before each entry, the last last: what a hold of VOTE goes back to.
    _undo: list[dict[str, Any]] = field(default_factory=list)

    # ================================================================ input
    def handle(self, event: Event, now: float) -> list[DarkEffect]:
        return handling.handle(self, event, now, pressing=self._pressing, phoned=self._phoned)

    def _phoned(self, event: PhoneEvent, now: float) -> list[DarkEffect]:
        """Who holds a phone decides whether the box deals the next game's
        cards to the phones and takes the hand counts on them. The Mayor's
        phone is the console: its tap becomes the presses of the buttons it
        stands for, through `handle`, as if pressed on the box. A voter's
        tap is its hand, while the hands are up. Anything else a phone
        sends changes nothing."""
        if isinstance(event, PhonesSeated):
            # A game keeps a name its phone let go of, for its book and end.
            heard = dict(event.names)
            self.phones = event.seats
            self.names = {**self.names, **heard} if self.busy() else heard
            return []
        if event.seat == self.mayor_seat:
            meant = console.meaning(self, event.step, event.choice)
            if isinstance(meant, console.Press):
                return self.handle(meant.event, now)
            if isinstance(meant, console.Point):
                return self._point(meant.cursor, now)
            return []
        up = console.hand(self, event.seat, event.step, event.choice)
        if up is not None:
            self.hand_votes[event.seat] = up
        return []

    def _point(self, cursor: int, now: float) -> list[DarkEffect]:
        """The picker brought to `cursor` by NEXT, a press at a time, as the
        Mayor would on the box (a seat or card the console offers is one
        NEXT can reach)."""
        effects: list[DarkEffect] = []
        stage = self.stage
        for _press in range(MAX_PLAYERS + len(CHOSEN) + 2):
            if self.cursor == cursor or self.stage is not stage:
                break
            effects += self.handle(Tap(Button.NEXT), now)
        return effects

    @property
    def mayor_seat(self) -> int:
        """The Mayor's phone: the seat after the last player's (console.py)."""
        return self.players + 1

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """What `seat`'s phone shows (wolfbox.phone): the public screen and,
        where the box dealt the cards to the phones, its own card."""
        return shown.phone_view(self, seat, now)

    def _pressing(self, event: Tap | Hold, action: Action | None) -> None:
        """A press that does something clears the last alert, and lapses the
        question of a first BACK hold unless it is the second."""
        if action is not None:
            self.alert = ""
            self._second_hold.lapse_unless(action, self._abandon)

    def tick(self, now: float) -> list[DarkEffect]:
        """Move on past every deadline that has passed by `now`, in order."""
        return pacing.run_due(self, now)

    def next_change(self, now: float) -> float | None:
        """The next monotonic time at which the game or its screen can change."""
        return pacing.next_deadline(self, now)

    # ====================================================== what buttons do
    def taps(self) -> Actions:
        """What a tap of each button does now: the legend and the lights read it."""
        if self.settings.shown_over(MODE):
            return self.settings.taps(self.settings.close, self.setting_changed)
        if self.reading:
            return paged({Button.START: Action(_("Back"), self._close_book)},
                         len(self.book_pages()), self._next_page)
        if self.paused:
            return {Button.START: pacing.resume_key(self)}
        pause = pacing.pause_key(self)
        match self.stage:
            case Stage.SETUP:
                game = self.setup_items()[self.cursor % len(self.setup_items())] == GAME_ITEM
                return {Button.START: Action(_("Start"), self._start),
                        Button.NEXT: Action(_("Next"), lambda now: self._move(+1)),
                        Button.VOTE: Action(_("Next game") if game else _("More"),
                                             lambda now: self._change(+1)),
                        Button.BACK: Action(_("Previous game") if game else _("Fewer"),
                                             lambda now: self._change(-1))}
            case Stage.RESUME:
                return {Button.START: Action(_("Resume"), self._resume_saved),
                        Button.BACK: Action(_("New game"), self._to_setup)}
            case Stage.NIGHT | Stage.DEAL:
                # No skipping: a call cut short for a dead role's player
                # would tell the table who died; the deal's window is as
                # long for every table.
                return {Button.START: pause}
            case Stage.LOVERS:
                taps = seat_keys(self._move)
                taps[Button.VOTE] = Action(_("Lover"), self._toggle_lover)
                if len(self.picked) == 2:
                    taps[Button.START] = Action(_("Done"), self._lovers_done)
                return taps
            case Stage.DAWN:
                taps = seat_keys(self._move) if self.living_count() else {}
                if self.living_count():
                    taps[Button.VOTE] = Action(_("Died"), self._night_death)
                label = _("No more deaths") if self.dawn_deaths else _("Nobody died")
                taps[Button.START] = Action(label, lambda now: self._show_back(_DAWN))
                return taps
            case Stage.ROLE:
                taps = {Button.START: Action(_("OK"), self._role_chosen),
                        Button.NEXT: Action(_("Next role"), lambda now: self._move(+1))}
                if self.cause == NIGHT:
                    taps[Button.BACK] = Action(_("Other seat"), self._other_seat)
                else:
                    taps[Button.BACK] = Action(_("Previous role"),
                                                lambda now: self._move(-1))
                return taps
            case Stage.SHOT:
                taps = seat_keys(self._move)
                taps[Button.VOTE] = Action(_("Shot"), self._shot_chosen)
                return taps
            case Stage.CONFIRM:
                return {Button.START: Action(_("OK"), self._confirmed),
                        Button.BACK: Action(_("Change"), self._change_entry)}
            case Stage.DISCUSSION:
                taps = {Button.VOTE: Action(_("Accuse"), self._open_accusation),
                        Button.NEXT: Action(_("Book"), self._open_book)}
                if self.timer is not None:
                    taps[Button.START] = pause
                return taps
            case Stage.ACCUSE:
                taps = seat_keys(self._move)
                taps[Button.VOTE] = Action(_("Accuse"), self._accuse)
                taps[Button.START] = Action(_("Cancel"), self._cancel_accusation)
                return taps
            case Stage.SECOND:
                return {Button.VOTE: Action(_("Seconded"), self._seconded),
                        Button.BACK: Action(_("No second"), self._no_second)}
            case Stage.DEFENCE:
                taps = {Button.VOTE: Action(_("Vote"), self._call_hands)}
                if self.timer is not None:
                    taps[Button.START] = pause
                return taps
            case Stage.HANDS:
                return {Button.NEXT: Action(_("Count"), self._start_count)}
            case Stage.COUNT:
                what = _("Adjust") if self.adjusting else _("Hand")
                return {Button.VOTE: Action(_("{what} +1").format(what=what),
                                             lambda now: self._count(+1)),
                        Button.BACK: Action(_("{what} −1").format(what=what),
                                             lambda now: self._count(-1)),
                        Button.NEXT: Action(_("Hands") if self.adjusting else _("Adjust"),
                                             self._toggle_adjust),
                        Button.START: Action(_("Done"), self._counted)}
            case Stage.RESULT:
                return {Button.START: Action(_("OK"), self._result_ok),
                        Button.BACK: Action(_("Recount"), self._recount)}
            case Stage.END:
                return paged({Button.START: Action(_("New game"), self._to_setup)},
                             len(self.book_pages()), self._next_page)
        return {}

    def holds(self) -> Actions:
        """What a hold of each button does now."""
        holds = self.settings.holds(MODE, self.stage is Stage.SETUP)
        if self._undo and self.stage not in (Stage.SETUP, Stage.RESUME) \
                and not self.reading and not self.paused:
            holds[Button.VOTE] = Action(_("Hold: undo"), self._undo_entry)
        if self.stage not in (Stage.SETUP, Stage.RESUME, Stage.END):
            holds[Button.BACK] = Action(_("Hold: end game"), self._abandon)
            next_tap = self.taps().get(Button.NEXT)
            if not self.reading and (next_tap is None or next_tap.run != self._open_book):
                holds[Button.NEXT] = Action(_("Hold: book"), self._open_book)
        return holds

    # ================================================================ setup
    def setup_items(self) -> tuple[str, ...]:
        """The setup screen's items, in order."""
        return ("players", *CHOSEN, *LIMITS, GAME_ITEM)

    def _change(self, step: int) -> list[DarkEffect]:
        item = self.setup_items()[self.cursor % len(self.setup_items())]
        if item == GAME_ITEM:              # to the box's next or previous game
            return switch(MODE, step)
        if item == "players":
            self.players = (self.players - MIN_PLAYERS + step) % (
                MAX_PLAYERS - MIN_PLAYERS + 1) + MIN_PLAYERS
            return [self._setup_checkpoint()]
        if item in LIMITS:
            key, steps = LIMITS[item]
            if key in self.options.fixed:
                self.alert = _("Set in the config file.")
                return []
            now_at = shown.setup_limit(self, item)
            here = steps.index(now_at) if now_at in steps else 0
            value = steps[(here + step) % len(steps)]
            limit = float(value) or None
            if item == "discussion":
                self.options = dataclasses.replace(self.options, discussion_seconds=limit)
            else:
                self.options = dataclasses.replace(self.options, defence_seconds=limit)
            return [ChangeSetting(key, float(value))]
        most = ROLES[item].most or self.players
        # Nobles come in twos (004): none or two.
        unit = 2 if item == "noble" else 1
        self.chosen[item] = (self.chosen.get(item, 0) + step * unit) % (most + unit)
        return [self._setup_checkpoint()]

    def _start(self, now: float) -> list[DarkEffect]:
        setup = rules.Setup.of(self.players, self.chosen)
        problem = setup.problem()
        if problem:
            self.alert = problem
            return []
        self.setup, self.ring, self.lovers = setup, Ring(self.players), None
        self.book, self.previous_accused, self.winner = Book(), None, None
        self._undo = []
        self.dealt = None
        if self.phones >= set(range(1, self.players + 1)):
            # A phone at every seat: the box deals, each card to its seat's
            # phone alone (issue 22); else the Mayor deals the cards by hand.
            cards = [role for role, n in setup.counts.items() for _copy in range(n)]
            self.rng.shuffle(cards)
            self.dealt = tuple(cards)
            return [Warm(tuple(self.lines()))] + self._begin_deal(now)
        return [Warm(tuple(self.lines()))] + self._begin_night(now, 1)

    def _to_setup(self, now: float) -> list[DarkEffect]:
        night = self.stage in (Stage.NIGHT, Stage.LOVERS)
        effects: list[DarkEffect] = [Ambience(False)] if night else []
        self.stage, self.cursor, self.paused, self.timer = Stage.SETUP, 0, False, None
        self.reading = False
        self._second_hold.disarm()
        self.speech.silence()
        self.caption = ""
        self._undo = []
        return effects + [self._setup_checkpoint()]

    def _show_alert(self, text: str) -> None:
        self.alert = text

    def _abandon(self, now: float) -> list[DarkEffect]:
        """A game of many nights is not lost to one long press: the first
        hold asks, a second hold (before any other button) ends it."""
        return self._second_hold.held(now, self._show_alert, self._to_setup)

    # ================================================================= deal
    def _begin_deal(self, now: float) -> list[DarkEffect]:
        """The cards on the phones get their own moment, eyes open, before
        the night: the box asks every seat to read its card, then gives
        them all the same window (from when the line has been said), so
        a Matchmaker knows to wake when called."""
        self.stage, self.night, self.timer = Stage.DEAL, 1, None
        effects: list[DarkEffect] = [self._take_checkpoint(), PlayCue(Cue.CHIME)]
        return effects + self._say_now(now, _(said.PHONE_DEAL))

    def _end_deal(self, now: float) -> list[DarkEffect]:
        return self._speak(now, _(said.PHONE_DEAL_OVER)) + self._begin_night(now, 1)

    # ================================================================ night
    def _begin_night(self, now: float, number: int) -> list[DarkEffect]:
        assert self.setup is not None
        self.stage, self.night, self.step_index = Stage.NIGHT, number, 0
        # "Twice in a row" is within a day: the last accused of the day
        # before is lynched, so the night's checkpoint keeps nobody.
        self.previous_accused = None
        self.steps = night_calls(self.setup.in_play(), number, self.options.scale,
                                 self.options.action_seconds)
        effects: list[DarkEffect] = [self._take_checkpoint(), PlayCue(Cue.CHIME),
                                     Ambience(True)]
        return effects + self._night_stage(now, _SPEAK)

    def _night_stage(self, now: float, stage: str) -> list[DarkEffect]:
        self.night_stage = stage
        step = self.steps[self.step_index]
        if stage == _WAIT:
            self.timer = Countdown.start(now, step.seconds)
            return []
        # Queued: a death announced just before is said in full first.
        return self._speak(now, step.text if stage == _SPEAK else step.after)

    def _night_next(self, now: float) -> list[DarkEffect]:
        """The current night stage is over: the next one."""
        step = self.steps[self.step_index]
        if self.night_stage == _SPEAK and step.seconds > 0:
            return self._night_stage(now, _WAIT)
        if self.night_stage in (_SPEAK, _WAIT) and step.after:
            return self._night_stage(now, _AFTER)
        if step.id == MATCHMAKER and self.night == 1 and self.lovers is None:
            self.stage, self.picked = Stage.LOVERS, []
            self.cursor = NO_SEAT       # no seat offered first: a hurried "Lover" marks none
            return []
        if self.step_index + 1 < len(self.steps):
            self.step_index += 1
            return self._night_stage(now, _SPEAK)
        return self._begin_dawn(now)

    def _toggle_lover(self, now: float) -> list[DarkEffect]:
        seat = self.cursor
        if seat == NO_SEAT:
            self.alert = _("No seat chosen yet: NEXT and BACK go round the ring.")
        elif seat in self.picked:
            self.picked.remove(seat)
        elif len(self.picked) < 2:
            self.picked.append(seat)
        else:
            self.alert = _("Two Lovers are chosen: unmark one first.")
        return []

    def _lovers_done(self, now: float) -> list[DarkEffect]:
        self._remember_entry()
        a, b = sorted(self.picked)
        self.lovers = (a, b)
        self.stage = Stage.NIGHT
        return self._night_next(now)

    # ================================================================= dawn
    def _begin_dawn(self, now: float) -> list[DarkEffect]:
        self.stage, self.dawn_deaths, self.chain = Stage.DAWN, [], []
        self.after_chains = _TO_DISCUSSION
        self.cursor = NO_SEAT           # no seat offered first: a hurried "Died" marks none
        return [Ambience(False), self._take_checkpoint()]

    def _night_death(self, now: float) -> list[DarkEffect]:
        if self.cursor == NO_SEAT:
            self.alert = _("No seat chosen yet: NEXT and BACK go round the ring.")
            return []
        return self._enter_role(self.cursor, NIGHT, 0)

    def _other_seat(self, now: float) -> list[DarkEffect]:
        self.stage = Stage.DAWN
        self.cursor = self.dying
        return []

    def _dawn_done(self, now: float) -> list[DarkEffect]:
        """No more deaths in the night (confirmed): the chains, then the day."""
        assert self.ring is not None
        effects: list[DarkEffect] = []
        if not self.dawn_deaths:
            effects += self._speak(now, _(said.NOBODY_DIED))
        self.chain = rules.chains(self.ring, self.lovers, self.dawn_deaths)
        return effects + self._next_chain(now)

    # ========================================================= deaths, chains
    def _enter_role(self, seat: int, cause: str, by: int) -> list[DarkEffect]:
        self.stage, self.dying, self.cause, self.by = Stage.ROLE, seat, cause, by
        self.cursor = NO_ROLE           # no card offered first: the Mayor picks one
        return []

    def role_options(self) -> list[str]:
        """The roles a seat may still be given (its card entered). The same
        list where the box dealt the cards: a picker that offered only the
        dealt card would show a living player's card on the table's screen
        the moment the wrong seat was marked."""
        assert self.setup is not None and self.ring is not None
        left = rules.roles_left(self.setup, self.ring)
        return [r for r in (*CHOSEN, VILLAGER) if r in left]

    def chosen_role(self) -> str | None:
        """The card the role picker is on; None before the Mayor picks one."""
        if self.cursor == NO_ROLE:
            return None
        options = self.role_options()
        return options[self.cursor % len(options)]

    def _role_chosen(self, now: float) -> list[DarkEffect]:
        chosen = self.chosen_role()
        if chosen is None:
            self.alert = _("No card chosen yet: NEXT goes through the cards.")
            return []
        if self.dealt is not None and 1 <= self.dying <= len(self.dealt) \
                and chosen != self.dealt[self.dying - 1]:
            # Its phone showed the card the box dealt all game: a book that
            # turned up another would contradict it (and a save with both is
            # refused). Said without the card: the wrong seat may be marked.
            self.alert = _("That is not the card on this seat's phone: check the seat "
                           "and the card.")
            return []
        return self._show_back(_CARD)

    def _shot_chosen(self, now: float) -> list[DarkEffect]:
        if self.cursor == NO_SEAT:
            self.alert = _("No seat chosen yet: NEXT and BACK go round the ring.")
            return []
        return self._show_back(_SHOT)

    # ============================================= showing back, undoing
    def _show_back(self, entry: str) -> list[DarkEffect]:
        """Show the entry for a yes before it takes effect."""
        self.stage, self.pending = Stage.CONFIRM, entry
        return []

    def _change_entry(self, now: float) -> list[DarkEffect]:
        """BACK on an entry shown back: to its picker, on the value chosen."""
        self.stage = {_CARD: Stage.ROLE, _SHOT: Stage.SHOT, _DAWN: Stage.DAWN}[self.pending]
        self.pending = ""
        return []

    def _confirmed(self, now: float) -> list[DarkEffect]:
        """OK on an entry shown back: it takes effect (and can be undone)."""
        self._remember_entry()
        entry, self.pending = self.pending, ""
        if entry == _DAWN:
            return self._dawn_done(now)
        if entry == _SHOT:
            return self._shot(now)
        return self._role_entered(now)

    def _remember_entry(self) -> None:
        """The game as it stands before an entry takes effect, for an undo."""
        self._undo.append({f.name: copy.deepcopy(getattr(self, f.name))
                           for f in dataclasses.fields(self) if f.name not in _NOT_UNDONE})

    def _undo_entry(self, now: float) -> list[DarkEffect]:
        """Back to the moment before the last entry took effect: its picker
        or its question again, with the dead, the book and the night as they
        were (so no win stands that the entry brought). What the box was
        saying stops; the checkpoint of that moment is handed out again, so
        a power cut after an undo resumes without the undone entry."""
        was_night = self.stage in _NIGHT_STAGES
        effects: list[DarkEffect] = [StopSpeech()] if self.speech.silence() else []
        for name, value in self._undo.pop().items():
            setattr(self, name, value)
        self.caption = ""
        self.timer, self.page = None, 0
        self.alert = _("The last entry is undone.")
        if was_night != (self.stage in _NIGHT_STAGES):
            effects.append(Ambience(not was_night))
        return effects + self.saves.again()

    def _role_entered(self, now: float) -> list[DarkEffect]:
        assert self.ring is not None
        role = self.chosen_role()
        assert role is not None
        seat = self.dying
        self.ring.kill(seat, role)
        self.book.add(Record(DEATH, self.night, seat=seat, role=role, cause=self.cause,
                             by=self.by))
        if self.cause == NIGHT:
            self.dawn_deaths.append(seat)
            self.stage = Stage.DAWN
            self.cursor = NO_SEAT
            return self._speak(now, said.died(seat)) + self._speak(now, said.card(role))
        effects = self._speak(now, said.card(role))
        # This death's own chains come first: its Lover, then a Hunter's shot.
        self.chain = rules.chains(self.ring, self.lovers, [seat]) + self.chain
        return effects + self._next_chain(now)

    def subject(self) -> tuple[object, ...]:
        """What the screen is about: a line said for another stays off it."""
        if self.stage is Stage.ROLE:
            return (self.stage, self.dying)
        if self.stage in (Stage.SECOND, Stage.DEFENCE):
            return (self.stage, self.accused)
        return (self.stage,)

    def _next_chain(self, now: float) -> list[DarkEffect]:
        assert self.ring is not None
        while self.chain:
            link = self.chain.pop(0)
            if isinstance(link, rules.Heartbreak):
                if not self.ring.alive(link.seat):
                    continue
                # The entry first: the line is about the screen it opens.
                effects = self._enter_role(link.seat, HEARTBREAK, link.lover)
                return effects + self._speak(now, said.heartbreak(link.seat))
            if not self.ring.living():
                continue
            self.stage, self.by = Stage.SHOT, link.hunter
            self.cursor = NO_SEAT           # no victim offered first: the Mayor picks one
            return self._speak(now, _(said.HUNTER_CALL))
        return self._chains_over(now)

    def _shot(self, now: float) -> list[DarkEffect]:
        victim = self.cursor
        effects = self._enter_role(victim, SHOT, self.by)
        return effects + self._speak(now, said.shot(victim))

    def _chains_over(self, now: float) -> list[DarkEffect]:
        assert self.setup is not None and self.ring is not None
        self.winner = rules.winner(self.setup, self.ring)
        if self.winner is not None:
            return self._end(now)
        if self.after_chains == _TO_NIGHT:
            return self._begin_night(now, self.night + 1)
        return self._begin_discussion(now)

    def _end(self, now: float) -> list[DarkEffect]:
        assert self.winner is not None
        self.book.add(Record(WIN, self.night, team=self.winner))
        self.stage, self.page, self.reading = Stage.END, 0, False
        line = _(said.VILLAGE_WINS if self.winner == VILLAGE else said.WEREWOLVES_WIN)
        # The game is over and is not resumed: what is kept is its setup, for
        # the next game (an undo hands the game's checkpoint out again).
        effects: list[DarkEffect] = [PlayCue(Cue.CHIME), self._setup_checkpoint()]
        return effects + self._speak(now, line)

    # ============================================================= the day
    def _begin_discussion(self, now: float, line: str | None = None) -> list[DarkEffect]:
        """Open discussion, from its start: after the dawn (the full line), or
        again after an accusation without a second or a failed vote (`line`,
        "" for none). Its optional time limit starts again."""
        self.stage = Stage.DISCUSSION
        self.timer = None
        if self.options.discussion_seconds is not None:
            self.timer = Countdown.start(now, self.options.discussion_seconds)
        effects: list[DarkEffect] = [self._take_checkpoint()]
        if line is None:
            line = _(said.OPEN_DISCUSSION)
        return effects + (self._speak(now, line) if line else [])

    def _open_accusation(self, now: float) -> list[DarkEffect]:
        self.timer = None
        self.stage = Stage.ACCUSE
        self.cursor = NO_SEAT           # no seat offered first: a hurried "Accuse" names none
        return []

    def _cancel_accusation(self, now: float) -> list[DarkEffect]:
        return self._begin_discussion(now, "")

    def _accuse(self, now: float) -> list[DarkEffect]:
        assert self.ring is not None
        if self.cursor == NO_SEAT:
            self.alert = _("No seat chosen yet: NEXT and BACK go round the ring.")
            return []
        why = rules.refusal(self.ring, self.cursor, self.previous_accused)
        if why == rules.REPEAT:
            self.alert = _(said.REPEAT)
            return self._say_now(now, self.alert)
        if why is not None:
            self.alert = _("Seat {seat} is dead.").format(seat=self.cursor)
            return []
        self._remember_entry()
        self.accused = self.cursor
        self.previous_accused = self.accused
        self.hands, self.adjust, self.adjusting = 0, 0, False
        self.stage = Stage.SECOND
        return self._speak(now, said.accused(self.accused))

    def _no_second(self, now: float) -> list[DarkEffect]:
        self._remember_entry()
        self.book.add(Record(ACCUSATION, self.night, seat=self.accused, seconded=False))
        return self._begin_discussion(now, _(said.NO_SECOND))

    def _seconded(self, now: float) -> list[DarkEffect]:
        self._remember_entry()
        self.book.add(Record(ACCUSATION, self.night, seat=self.accused, seconded=True))
        self.stage = Stage.DEFENCE
        if self.options.defence_seconds is not None:
            self.timer = Countdown.start(now, self.options.defence_seconds)
        return self._speak(now, said.defend(self.accused))

    def _call_hands(self, now: float) -> list[DarkEffect]:
        self.timer = None
        self.stage, self.hands, self.adjust, self.adjusting = Stage.HANDS, 0, 0, False
        # Every seat that may vote holds a phone: the hands go up on them.
        self.hands_on_phones = console.voters(self) <= self.phones
        self.hand_votes = {}
        # The beat starts when the line has been said (see line_finished);
        # a line still waiting (a defence the Mayor cut short) is dropped.
        call = said.vote_on_phones if self.hands_on_phones else said.raise_hands
        return self._say_now(now, call(self.accused))

    def _start_count(self, now: float) -> list[DarkEffect]:
        effects: list[DarkEffect] = [StopSpeech()] if self.speech.silence() else []
        self.timer = None
        self.stage = Stage.COUNT
        effects.append(PlayCue(Cue.VOTE))
        if self.hands_on_phones:
            # The box counts the hands up on the phones and shows the
            # result to the Mayor: OK, or a recount by hand from it.
            most = rules.most_hands(self.living_count())
            self.hands = min(most, sum(self.hand_votes.get(s, False)
                                       for s in console.voters(self)))
            return effects + self._counted(now)
        return effects

    def _count(self, step: int) -> list[DarkEffect]:
        living = self.living_count()
        if self.adjusting:
            # Roles that change the count (003's footnote: the Shaman).
            self.adjust = max(-living, min(living, self.adjust + step))
        else:
            most = rules.most_hands(living)
            if self.hands + step > most:
                self.alert = ngettext("At most {most} hand: the accused does not vote.",
                                      "At most {most} hands: the accused does not vote.",
                                      most).format(most=most)
            self.hands = max(0, min(most, self.hands + step))
        return []

    def _toggle_adjust(self, now: float) -> list[DarkEffect]:
        self.adjusting = not self.adjusting
        return []

    def can_undo(self) -> bool:
        """An entry was made that a hold of VOTE takes back."""
        return bool(self._undo)

    def vote_count(self) -> int:
        """The hands up for the accused, as adjusted by the table."""
        return rules.votes(self.hands, self.adjust)

    def _counted(self, now: float) -> list[DarkEffect]:
        self.stage = Stage.RESULT
        living = self.living_count()
        count, needed = self.vote_count(), rules.lynch_threshold(living)
        first, *rest = said.result(count, needed, self.accused)
        effects = self._say_now(now, first)
        for line in rest:
            effects += self._speak(now, line)
        return effects

    def _recount(self, now: float) -> list[DarkEffect]:
        self.stage = Stage.COUNT
        return []

    def _result_ok(self, now: float) -> list[DarkEffect]:
        self._remember_entry()
        living = self.living_count()
        count, needed = self.vote_count(), rules.lynch_threshold(living)
        self.book.add(Record(VOTE, self.night, seat=self.accused, votes=count, needed=needed))
        if not rules.passes(count, living):
            return self._begin_discussion(now, "")     # the result said it: the vote failed
        # 003: no last words; the role is revealed, chains, the win check, then night.
        self.chain, self.after_chains = [], _TO_NIGHT
        effects = self._enter_role(self.accused, LYNCH, 0)
        return effects + self._speak(now, _(said.NO_LAST_WORDS))

    # ================================================================ book
    def _open_book(self, now: float) -> list[DarkEffect]:
        """The book over whatever the game is doing: the game goes on under
        it (a call is timed, a line is said) and is there when it closes."""
        self.reading, self.page = True, 0
        return []

    def _close_book(self, now: float) -> list[DarkEffect]:
        self.reading = False
        return []

    def _next_page(self, now: float) -> list[DarkEffect]:
        self.page = (self.page + 1) % len(self.book_pages())
        return []

    def book_pages(self) -> tuple[tuple[str, ...], ...]:
        """The book of deaths, a page a screen."""
        return pages.group(self.book.lines(self.names) or [_("Nobody has died yet.")],
                           pages.RULES_LINES)

    # ======================================================= pause, timers
    def time_up(self, now: float) -> list[DarkEffect]:
        """The stage's countdown ran out."""
        match self.stage:
            case Stage.DEAL:
                return self._end_deal(now)
            case Stage.NIGHT:
                return self._night_next(now)
            case Stage.HANDS:
                return self._start_count(now)
            case Stage.DISCUSSION | Stage.DEFENCE:
                # An optional limit: the table is told; the Mayor moves on.
                return [PlayCue(Cue.TIME_UP)]
        return []

    # =============================================================== speech
    def _speak(self, now: float, text: str) -> list[DarkEffect]:
        return pacing.speak(self, now, text, self.subject())

    def _say_now(self, now: float, text: str) -> list[DarkEffect]:
        return pacing.say_now(self, now, text, self.subject())

    def line_finished(self, now: float) -> list[DarkEffect]:
        """Every queued line has been said."""
        if self.stage is Stage.NIGHT and self.night_stage in (_SPEAK, _AFTER):
            return self._night_next(now)
        if self.stage is Stage.DEAL and self.timer is None:
            self.timer = Countdown.start(now, PHONE_DEAL_SECONDS)
        if self.stage is Stage.HANDS and self.timer is None:
            self.timer = Countdown.start(now, self.options.phone_hands_seconds
                                         if self.hands_on_phones else self.options.hands_beat)
        return []

    # ================================================================ seats
    def living_count(self) -> int:
        """The seats still in the game."""
        assert self.ring is not None
        return len(self.ring.living())

    def _step_seat(self, seat: int, step: int) -> int:
        assert self.ring is not None
        if self.stage is Stage.LOVERS:
            return (seat - 1 + step) % self.ring.players + 1
        other = self.ring.next_living(seat, step)
        return seat if other is None else other

    def _move(self, step: int) -> list[DarkEffect]:
        match self.stage:
            case Stage.SETUP:
                self.cursor = (self.cursor + step) % len(self.setup_items())
            case Stage.ROLE:
                left = len(self.role_options())
                first = 0 if step > 0 else left - 1
                self.cursor = first if self.cursor == NO_ROLE else (self.cursor + step) % left
            case Stage.SHOT | Stage.DAWN | Stage.LOVERS | Stage.ACCUSE \
                    if self.cursor == NO_SEAT:
                living = self.ring.living() if self.ring else ()
                self.cursor = (living[0] if step > 0 else living[-1]) if living else NO_SEAT
            case _:
                self.cursor = self._step_seat(self.cursor, step)
        return []

    # ========================================================= save, resume
    def _take_checkpoint(self) -> Checkpoint:
        """The game as it stands at the start of this phase."""
        return self.saves.take(self.checkpoint_state())

    def _setup_checkpoint(self) -> Checkpoint:
        """The setup alone (players and roles): kept while it is chosen and
        after a game, so a restart finds the table's setup, not a new box's."""
        return self.saves.take(self._setup_state())

    def _setup_state(self) -> dict[str, Any]:
        return {"version": SAVE_VERSION, "stage": str(Stage.SETUP), "players": self.players,
                "roles": {r: n for r, n in self.chosen.items() if n > 0}}

    def checkpoint_state(self) -> dict[str, Any]:
        """The game as its checkpoint keeps it (saved.py reads it back)."""
        ring = self.ring
        return {
            "version": SAVE_VERSION,
            "stage": str(self.stage),
            "players": self.players,
            "roles": {r: n for r, n in self.chosen.items() if n > 0},
            "night": self.night,
            "dead": {str(s): r for s, r in sorted(ring.dead.items())} if ring else {},
            "lovers": list(self.lovers) if self.lovers else None,
            "previous_accused": self.previous_accused,
            "winner": self.winner,
            "book": self.book.to_list(),
            "dealt": list(self.dealt) if self.dealt else None,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the game at the start of its current phase (in setup,
        the setup being chosen)."""
        saved = self.saves.saved()
        return self._setup_state() if self.stage is Stage.SETUP or saved is None else saved

    @classmethod
    def from_dict(cls, state: Mapping[str, Any], options: Options | None = None) -> Game:
        """A game restored from `to_dict`: in setup with the setup chosen, or
        asking to resume at the start of the saved phase. The state is
        checked first (wolfbox.darkarts.saved): anything that is not a
        checkpoint this game could have taken is `CannotResume`, a
        ValueError, never a game that crashes or tells what did not happen."""
        checked = saved.read(state)
        game = cls(options or Options(), players=checked.players,
                   chosen=dict(checked.roles))
        if isinstance(checked, saved.SavedSetup):
            return game
        game.setup = rules.Setup.of(game.players, game.chosen)
        game.ring = Ring(game.players, dict(checked.dead))
        game.lovers = checked.lovers
        game.night = checked.night
        game.previous_accused = checked.previous_accused
        game.book = Book.from_list([r.as_dict() for r in checked.book])
        game.dealt = tuple(checked.dealt) if checked.dealt else None
        restore(game, Stage(checked.stage), Stage.RESUME)
        return game

    def _resume_saved(self, now: float) -> list[DarkEffect]:
        match self.saves.resume():
            case Stage.DEAL:
                return self._begin_deal(now)
            case Stage.NIGHT:
                return self._begin_night(now, self.night)
            case Stage.DAWN:
                return self._begin_dawn(now)
        return self._begin_discussion(now)

    # ================================================================ view
    def view(self, now: float) -> View:
        """The screen model (wolfbox.mode.Mode); `screen` adds the seat ring."""
        return shown.screen(self, now).view

    def lines(self) -> list[str]:
        """Every line a game of this setup can say (wolfbox.mode.Mode)."""
        return said.all_lines(self.players, rules.Setup.of(self.players, self.chosen).in_play())

    @property
    def table_seats(self) -> int:
        """The seats at the table (the Mayor's setup chooses how many), and,
        while a game is under way or offered for resuming, one more: the
        Mayor's (console.py), kept for the phone that held it."""
        return self.players + 1 if self._console_open() else self.players

    @property
    def guarded_seats(self) -> frozenset[int]:
        """The seats a phone takes only with the box's yes: the Mayor's
        console, while a game is under way (console.py), so a player who
        taps it first does not drive the box and see the Lovers."""
        return frozenset({self.mayor_seat}) if self._console_open() else frozenset()

    def _console_open(self) -> bool:
        """The Mayor's seat is at the table: while a game is under way, and
        on the screen that offers a saved one (after a power cut the
        Mayor's phone finds its seat by its token there, as every other)."""
        return self.busy() or self.stage is Stage.RESUME

    def lobby_note(self) -> str:
        """What the phones' seat list says before the game (the Mayor's seat
        is not there yet: it opens when the game starts)."""
        if self.stage is not Stage.SETUP:
            return ""
        return _("The Mayor: once the game has started, take seat {seat}.").format(
            seat=self.players + 1)

    def busy(self) -> bool:
        """A game is under way: a stray quit key must ask twice. With phones,
        its end too: the phones keep their seats (and the Mayor the console,
        for an undo) to show who won, until the table leaves the end."""
        return self.stage not in (Stage.SETUP, Stage.RESUME, Stage.END) \
            or (self.stage is Stage.END and bool(self.phones))

    def setting_changed(self, key: str) -> list[Effect]:
        """A setting changed on the box: captions follow the speech speed
        (and the lines are rendered again at it), the calls the action time."""
        config = self.settings.config
        if key in ("voice.length_scale", ANY):
            self.options = dataclasses.replace(
                self.options, per_word=pages.PER_WORD * config.voice.length_scale)
        if key in ("night.scale", ANY):
            self.options = dataclasses.replace(self.options, scale=config.night.scale)
        return [Warm(tuple(self.lines()))] if key in ("voice.length_scale", ANY) else []

    # ================================================================ view
    def screen(self, now: float) -> Screen:
        """The screen model with the seat ring as it stands (screen.py)."""
        return shown.screen(self, now)

    # =============================================================== checks
    def check(self) -> None:
        """Raise AssertionError if the game is in a state it should never reach."""
        if self.stage in (Stage.SETUP, Stage.RESUME):
            return
        assert self.setup is not None and self.ring is not None
        living = self.living_count()
        assert living >= 0
        wolves = rules.living_werewolves(self.setup, self.ring)
        assert 0 <= wolves <= living, (wolves, living)
        if self.stage is Stage.DEAL:
            assert self.dealt is not None and self.night == 1 and not self.ring.dead
        if self.stage in _DAY_STAGES or self.stage in (Stage.DEAL, Stage.NIGHT, Stage.LOVERS):
            assert rules.winner(self.setup, self.ring) is None, "a win was missed"
        if self.stage is Stage.END:
            assert self.winner == rules.winner(self.setup, self.ring) is not None
        if self.stage in (Stage.SECOND, Stage.DEFENCE, Stage.HANDS, Stage.COUNT,
                          Stage.RESULT):
            assert self.ring.alive(self.accused), "a dead player accused"
            assert 0 <= self.hands <= rules.most_hands(living)
        if self.stage is Stage.ROLE or (self.stage is Stage.CONFIRM and self.pending == _CARD):
            assert self.ring.alive(self.dying)
        if self.stage is Stage.CONFIRM:
            assert self.pending in (_CARD, _SHOT, _DAWN), self.pending
            if self.pending == _CARD:
                assert self.chosen_role() is not None, "a card confirmed that was not chosen"
        if self.stage is Stage.CONFIRM and self.pending == _SHOT or \
                self.stage is Stage.SHOT and self.cursor != NO_SEAT:
            assert self.ring.alive(self.cursor), "a dead seat shot"
        if self.stage in (Stage.ACCUSE, Stage.DAWN) and living and self.cursor != NO_SEAT:
            assert self.ring.alive(self.cursor)
        assert self.paused is False or self.timer is not None or self.speech.line is not None
