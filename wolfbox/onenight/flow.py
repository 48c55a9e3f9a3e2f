"""The game flow of a One Night round, as a pure state machine.

It takes events (a tap, a hold, the end of a spoken line) and the time from
an injected monotonic clock, and returns effects (say this, play that cue).
It imports nothing from pygame, gpiozero or piper and never reads a clock
itself, which is what lets a ten-minute round be tested in milliseconds.

Every running phase has one clock: a line the stage waits for (its
`speech`, the engine's, shortened to the gap when the narrator reports the
line heard out), or the stage's own Countdown (`timer`: an action's time,
the discussion, a beat of the vote). Both pause and run on in
wolfbox.engine.pacing, as in the other games.

Why this file is long: it is one state machine whose phases (night,
discussion, vote, reveal, referee, verdict, settings) hand the table from
one to the next with the same clock; what it shows is screen.py, the night
script night.py, the verdict referee.py and entry.py.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import menu, pages
from ..buttons import Button
from ..config import Config
from ..effects import Ambience, Cue, Effect, PlayCue, Remember, StopSpeech, Warm
from ..engine import handling, pacing
from ..engine.actions import Action, Actions, power_hold, start_holds
from ..engine.checkpoints import Checkpoints
from ..engine.speech import Speech
from ..events import Event, PhoneChoice, PhoneEvent, PhonesSeated
from ..i18n import LANGUAGE_KEY, _
from ..mode import PublicPhones
from ..pages import PER_WORD
from ..phone import PhoneView
from ..roster import switch
from ..settings_screen import SettingsScreen
from ..tablemap import TableMap
from ..timer import Countdown
from ..view import Phase, View
from . import lines, saved, section
from . import screen as shown
from .deck import players_for
from .entry import Entry, spoken_verdict, verdict_lines
from .model import AFTER as _AFTER
from .model import LONGEST_DISCUSSION, ONE_NIGHT
from .model import SPEAK as _SPEAK
from .model import WAIT as _WAIT
from .night import NightOptions, Step, night_script, setup_notes
from .nightmap import night_map
from .owncards import OwnCards
from .phones import PhoneNight
from .picker import Picker
from .presets import describe
from .referee import Verdict


@dataclass(frozen=True)
class RoundSettings:
    deck: tuple[str, ...]
    night: tuple[Step, ...]
    options: NightOptions = field(default_factory=NightOptions)
    discussion_seconds: float = 300.0
    warnings: tuple[int, ...] = (60, 10)
    add_seconds: int = 60
    line_gap: float = 0.6          # silence after a line before the next stage
    vote_beat: float = 1.0         # seconds between "3", "2", "1", "vote!"
    vote_hold: float = 3.0         # "VOTE!" stays this long before the reveal
    tick_from: int = 10            # tick each second from here down
    per_word: float = PER_WORD     # caption time a word (scaled with speech speed)
    vote_hint_seconds: int = 60    # VOTE's light pulses from here to the end of discussion
    phone_vote_hold: float = 10.0  # on phones, "VOTE!" leaves this long to tap a vote

    @classmethod
    def for_deck(cls, deck: Sequence[str], options: NightOptions | None = None,
                 **kw: object) -> RoundSettings:
        options = options or NightOptions()
        return cls(deck=tuple(deck), night=tuple(night_script(deck, options)),
                   options=options, **kw)  # type: ignore[arg-type]

    @classmethod
    def from_config(cls, config: Config) -> RoundSettings:
        """The round as configured; config.game.deck must already be resolved.
        The one place a configuration becomes a round."""
        game = section.of(config)
        options = NightOptions(lone_wolf=game.lone_wolf, scale=config.night.scale,
                               action_seconds=dict(config.night.action_seconds))
        return cls.for_deck(
            game.deck, options,
            discussion_seconds=game.discussion_seconds,
            warnings=tuple(game.warnings),
            add_seconds=game.add_seconds,
            line_gap=config.night.line_gap,
            per_word=PER_WORD * config.voice.length_scale,
        )

    def with_deck(self, deck: Sequence[str]) -> RoundSettings:
        return dataclasses.replace(self, deck=tuple(deck),
                                   night=tuple(night_script(deck, self.options)))

    def with_phones(self, phones: bool) -> RoundSettings:
        """The night told for cards on the phones (nothing on the table to
        touch at dawn) or on the table; the same for every deal."""
        if phones == self.options.phones:
            return self
        options = dataclasses.replace(self.options, phones=phones)
        return dataclasses.replace(self, options=options,
                                   night=tuple(night_script(self.deck, options)))

    def lines(self) -> list[str]:
        """Every line a round can say, in the order it is first needed."""
        out: list[str] = []
        for step in self.night:
            out += [step.text] + ([step.after] if step.after else [])
        out.append(lines.discussion_start(round(self.discussion_seconds)))
        out += [lines.warning(w) for w in sorted(self.warnings, reverse=True)]
        out.append(lines.added(self.add_seconds))
        out += [_(c) for c in lines.COUNTDOWN] + [_(lines.REVEAL)]
        out += verdict_lines(players_for(self.deck))        # if the table asks the referee
        return list(dict.fromkeys(out))




@dataclass
class Flow(PublicPhones):
    settings: RoundSettings
    phase: Phase = Phase.IDLE
    paused: bool = False
    timer: Countdown | None = None
    step_index: int = 0
    stage: str = _SPEAK
    beat: int = 0
    caption: str = ""
    speech: Speech[None] = field(default_factory=Speech)   # the line a stage waits for
    _fired: set[int] = field(default_factory=set)
    _vote_at_dawn: bool = False           # VOTE was pressed at night: wake, then vote
    _last_shown: int | None = None
    picker: Picker | None = None
    screen: SettingsScreen | None = None   # the box's settings, shared by its games
    reveal_page: int = 0
    _caption_pages: tuple[str, ...] = ()
    _caption_timer: Countdown | None = None   # the spoken line's time, for its pages
    _idle_since: float = 0.0            # the start screen's pages turn from here
    entry: Entry | None = None          # the finished game, as the table enters it
    verdict: Verdict | None = None
    verdict_page: int = 0
    _to_say: list[str] = field(default_factory=list)   # the verdict's lines still to say
    phones: frozenset[int] = field(default_factory=frozenset)   # the seats holding a phone
    # The names the players gave by seat (public), as the phones last said;
    # a round keeps a name its phone let go of until its verdict is done.
    names: dict[int, str] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)    # the phones' deals
    table: PhoneNight | None = None     # the cards the box dealt to the phones, and the night
    _rounds: int = 0                    # games dealt on phones: names their tasks
    own: OwnCards | None = None         # a game of the table's own cards, voted on the phones
    # The round's last checkpoint (saved.py), and a round saved before a
    # power cut, offered on the start screen until the table says yes or no.
    saves: Checkpoints[str] = field(default_factory=lambda: Checkpoints(ONE_NIGHT))
    resumed: saved.Resumed | None = None

    def __post_init__(self) -> None:
        if self.picker is None:
            self.picker = Picker(self.settings.deck)
        if self.screen is None:
            self.screen = SettingsScreen()

    @classmethod
    def from_config(cls, config: Config, picker: Picker | None = None,
                    has_brightness: bool = False, screen: SettingsScreen | None = None
                    ) -> Flow:
        """The flow of a box configured by `config` (its deck resolved);
        `screen` is the box's settings screen, if its games share one."""
        return cls(RoundSettings.from_config(config), picker=picker,
                   screen=screen or SettingsScreen(config, has_brightness))

    @property
    def config(self) -> Config:
        """The box's configuration, as the table has changed it."""
        assert self.screen is not None
        return self.screen.config

    @property
    def options(self) -> RoundSettings:
        """The round's pacing, as wolfbox.engine.pacing reads it (the time a
        caption's word is shown, the gap after a line)."""
        return self.settings

    @property
    def clock(self) -> Countdown | None:
        """The running stage's clock: the line it waits for, or its own time."""
        return self.timer if self.timer is not None else self.speech.line

    # ----------------------------------------------------------------- input
    def handle(self, event: Event, now: float) -> list[Effect]:
        return self._saved(handling.handle(self, event, now, phoned=self._phoned), now)

    # ------------------------------------------------------------ checkpoints
    def _saved(self, effects: list[Effect], now: float) -> list[Effect]:
        """`effects`, and a checkpoint if what a restart would resume has
        changed (saved.py says what that is): one place for every way a round
        moves on, so none is missed."""
        state = self._checkpoint(now)
        if state == (self.saves.state or {}):
            return effects
        return effects + [self.saves.take(state) if state else self.saves.forget()]

    def _checkpoint(self, now: float) -> dict:
        """The round as a restart would resume it, or {} for nothing to resume."""
        if self.resumed is not None:               # kept as it was until the table decides
            return self.resumed.state
        deck, table = self.settings.deck, self.table
        if self.phase in (Phase.IDLE, Phase.SETTINGS):
            if table is not None and not table.started:
                return saved.state(saved.DEALT, deck, self._rounds, table)
            return {}
        own = self.own is not None
        if self.phase is Phase.NIGHT:
            return saved.state(saved.NIGHT, deck, self._rounds, self.table, own=own,
                               step=self.step_index,
                               call=self.settings.night[self.step_index].id,
                               vote_at_dawn=self._vote_at_dawn)
        if self.phase is Phase.DISCUSSION and self.timer is not None:
            # To the minute above: a checkpoint a minute, not one a second.
            left = self.timer.remaining(now)
            seconds = min(math.ceil(left / 60) * 60, math.ceil(self.timer.total))
            return saved.state(saved.DISCUSSION, deck, self._rounds, table, own=own,
                               seconds=max(1, seconds))
        if self.phase is Phase.VOTE:
            votes = table.votes if table is not None else self.own.votes if self.own else {}
            return saved.state(saved.VOTE, deck, self._rounds, table, own=own, votes=votes)
        return {}                       # the reveal, the referee, the verdict: the round is over

    def restore(self, state: object) -> None:
        """A round saved before a power cut (saved.py): a deal before START
        is dealt again as it was (for the same deck); a round begun waits on
        the start screen for the table to resume it. CannotResume (a
        ValueError) leaves the flow as it was."""
        resumed = saved.read(state, self.settings.options)
        self.saves.state = resumed.state
        if resumed.saved.stage == saved.DEALT:
            if sorted(resumed.saved.deck) == sorted(self.settings.deck):
                self.table, self._rounds = resumed.table, resumed.saved.round
            return                          # another deck since: the deal is forgotten
        self.resumed = resumed

    def _resume_saved(self, now: float) -> list[Effect]:
        """The table said yes: the round as saved.py says it resumes."""
        resumed, self.resumed = self.resumed, None
        assert resumed is not None
        was = resumed.saved
        self.settings = self.settings.with_deck(was.deck).with_phones(resumed.table is not None)
        self.table, self.own, self._rounds = resumed.table, resumed.own_cards(), was.round
        if self.table is not None:          # the names saved, where a phone is not back yet
            self.names = {**self.table.names, **self.names}
            self.table.names = dict(self.names)
        if self.own is not None:
            self.own.names = dict(self.names)
        self._vote_at_dawn = was.vote_at_dawn
        self.entry, self.verdict, self._to_say = None, None, []
        effects: list[Effect] = [Warm(tuple(self.settings.lines()))]   # its deck's, its night's
        if was.stage == saved.DISCUSSION:
            self.phase = Phase.NIGHT                # as the night's end leaves it
            return effects + self._enter_discussion(now, was.seconds)
        if was.stage == saved.VOTE:
            effects += self._enter_vote(now)
            for seat, target in was.votes.items():
                self._phoned(PhoneChoice(seat, self._vote_step(), (target,)), now)
            return effects
        self.phase = Phase.NIGHT
        self.step_index = resumed.step
        effects += [PlayCue(Cue.CHIME), Ambience(True)]
        effects += self._night_stage(now, _SPEAK)
        if self.table is not None:
            for seat, pick in resumed.pending:
                task = self.table.task(seat)
                assert task is not None        # saved.read gave them once on a copy
                self.table.answer(seat, task.step, pick)
        return effects

    def _vote_step(self) -> str:
        if self.table is not None:
            return self.table.vote_step()
        return f"{self._rounds}.vote"

    def _new_round(self, now: float) -> list[Effect]:
        """The table said no: the saved round is forgotten."""
        self.resumed = None
        self._idle_since = now
        self._deal_if_ready()
        return []

    # ---------------------------------------------------------------- phones
    def _phoned(self, event: PhoneEvent, now: float) -> list[Effect]:
        """Who holds a phone decides whether the box deals the cards to the
        phones; a seat's answer goes to the night or the vote on phones if
        it answers the task open now, and changes nothing otherwise."""
        if isinstance(event, PhonesSeated):
            self.phones = event.seats
            heard = dict(event.names)
            between = self.phase in (Phase.IDLE, Phase.SETTINGS)
            self.names = heard if between else {**self.names, **heard}
            dealt = self.table
            self._deal_if_ready()
            for kept in (self.table, self.own):
                if kept is not None:
                    kept.names = dict(self.names)
            if self.table is not dealt:         # its night's own dawn line, rendered ahead
                return [Warm(tuple(self.settings.with_phones(True).lines()))]
        elif isinstance(event, PhoneChoice) and self.playing():
            assert self.table is not None
            if self.phase is Phase.VOTE:
                self.table.vote(event.seat, event.step, event.choice)
            elif self.phase is Phase.NIGHT:
                self.table.answer(event.seat, event.step, event.choice)
        elif isinstance(event, PhoneChoice) and self.own is not None:
            if self.phase is Phase.VOTE:
                self.own.vote(event.seat, event.step, event.choice)
            elif self.phase is Phase.REFEREE and self.own.entering \
                    and self.own.enter(event.seat, event.step, event.choice) \
                    and self.own.complete():
                return self._settle(now)
        return []

    def all_seated(self) -> bool:
        """Every seat of the deck holds a phone."""
        return self.phones >= set(range(1, self.table_seats + 1))

    def cards_on_phones(self) -> bool:
        """The table chose the box's deal on the phones over its own cards."""
        return section.of(self.config).cards_on_phones

    def on_phones(self) -> bool:
        """Every seat holds a phone and the table plays the cards on them:
        the box deals, and the night and the vote are on the phones."""
        return self.all_seated() and self.cards_on_phones()

    def own_cards(self) -> bool:
        """Every seat holds a phone and the table plays its own cards: the
        night is as without phones; the vote and the cards turned up are on
        the phones."""
        return self.all_seated() and not self.cards_on_phones()

    def playing(self) -> bool:
        """This game is played on the phones (dealt to them, and begun)."""
        return self.table is not None and self.table.started

    def _deal_if_ready(self) -> None:
        """Before START, a deal for the phones once every seat holds one;
        kept while the deck stays, so a phone that rejoins sees its card."""
        if self.phase in (Phase.IDLE, Phase.SETTINGS) and self.on_phones() \
                and self.resumed is None \
                and (self.table is None or sorted(self.table.dealt) != sorted(self.settings.deck)):
            self._rounds += 1
            self.table = PhoneNight.deal(self.settings.deck, self.rng,
                                         self.settings.options.lone_wolf, self._rounds)
            self.table.names = dict(self.names)

    def phone_note(self) -> str:
        """What the start screen says of phones, once one has joined."""
        if not self.phones:
            return ""
        if self.own_cards():
            return _("Own cards: play the night with the real cards; the phones take the "
                     "vote, then each player enters the card turned up.")
        if not self.on_phones():
            return _("Cards on phones need a phone at every seat: phones at {joined} of "
                     "{seats} seats.").format(joined=len(self.phones & set(range(1, self.table_seats
                                                                          + 1))),
                                       seats=self.table_seats)
        return _("Cards on phones: each player's card is on their phone, behind its cover.")

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """What `seat`'s phone shows (wolfbox.phone)."""
        return shown.phone_view(self, seat, now)

    def tick(self, now: float) -> list[Effect]:
        """Move on past every deadline that has passed by `now`, in order
        (the next stage starts when this one was due, not when the loop
        noticed: a late wake-up must not stretch the night)."""
        def discussion() -> list[Effect]:
            if self.phase is Phase.DISCUSSION and not self.paused and self.timer is not None:
                return self._discussion_tick(now)
            return []
        return self._saved(pacing.run_due(self, now, discussion), now)

    def line_finished(self, now: float) -> list[Effect]:
        """Every line of the stage said (the engine's hook): on to the next."""
        return self._stage_over(now)

    def time_up(self, now: float) -> list[Effect]:
        """The stage's time is up (the engine's hook): on to the next."""
        return self._stage_over(now)

    # ------------------------------------------------------- what buttons do
    def taps(self) -> Actions:
        """What a tap of each button does now: the legend and the lights read it."""
        if self.paused:
            return {Button.START: Action(_("Resume"), self._resume)}
        if self.resumed is not None and self.phase is Phase.IDLE:
            return {Button.START: Action(_("Resume"), self._resume_saved),
                    Button.BACK: Action(_("New game"), self._new_round)}
        match self.phase:
            case Phase.IDLE:
                return {Button.START: Action(_("Start"), self._start),
                        Button.VOTE: Action(_("Players +1"), self._more_players),
                        Button.NEXT: Action(_("Next deck"), self._next_deck),
                        Button.BACK: Action(_("Players −1"), self._fewer_players)}
            case Phase.NIGHT if self._vote_at_dawn:
                return {Button.START: Action(_("Pause"), self._pause)}
            case Phase.NIGHT:
                return {Button.START: Action(_("Pause"), self._pause),
                        Button.VOTE: Action(_("Vote now"), self._vote_now),
                        Button.NEXT: Action(_("Skip"), self._skip)}
            case Phase.DISCUSSION:
                taps = {Button.START: Action(_("Pause"), self._pause),
                        Button.VOTE: Action(_("Vote now"), self._vote_now)}
                if self._can_add():
                    taps[Button.NEXT] = Action(lines.plus(self.settings.add_seconds),
                                               self._add_time)
                return taps
            case Phase.VOTE:
                return {Button.START: Action(_("Pause"), self._pause),
                        Button.NEXT: Action(_("Skip"), self._skip_vote)}
            case Phase.REVEAL if len(self.reveal_pages()) > 1:
                return {Button.START: Action(_("Done"), self._to_idle),
                        Button.VOTE: Action(_("Referee"), self._open_referee),
                        Button.NEXT: Action(_("More rules"), self._next_rules)}
            case Phase.REVEAL:      # one page: START alone ends it (no two buttons say "Done")
                return {Button.START: Action(_("Done"), self._to_idle),
                        Button.VOTE: Action(_("Referee"), self._open_referee)}
            case Phase.REFEREE if self.own is not None:
                return {Button.BACK: Action(_("On the box"), self._own_on_box)}
            case Phase.REFEREE:
                return {Button.START: Action(_("OK"), self._answer),
                        Button.VOTE: Action(_("Previous"), lambda now: self._turn(-1)),
                        Button.NEXT: Action(_("Next"), lambda now: self._turn(+1)),
                        Button.BACK: Action(_("Undo"), self._referee_back)}
            case Phase.VERDICT:
                taps = {Button.START: Action(_("Done"), self._to_idle)}
                if self.entry is not None:          # a verdict on phones has no entry
                    taps[Button.BACK] = Action(_("Correct"), self._correct)
                if self._verdict_count() > 1:
                    taps[Button.NEXT] = Action(_("More"), self._next_verdict_page)
                return taps
            case Phase.SETTINGS:
                assert self.screen is not None
                return self.screen.taps(self._close_settings, self._setting_changed)
        return {}

    def holds(self) -> Actions:
        """What a hold of each button does now."""
        holds = power_hold()
        if self.phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE):
            holds[Button.BACK] = Action(_("Hold: end round"), self._abandon)
        if self.phase is Phase.IDLE:
            holds |= start_holds(self._open_settings, lambda now: switch(ONE_NIGHT))
        return holds

    # --------------------------------------------------------------- actions
    def _start(self, now: float) -> list[Effect]:
        self.own = None
        if self.table is not None and self.on_phones():
            self.table.lone_wolf = self.settings.options.lone_wolf
            self.table.started = True
        else:
            self.table = None
            if self.own_cards():
                self._rounds += 1
                self.own = OwnCards(self.settings.deck, self._rounds, names=dict(self.names))
        self.settings = self.settings.with_phones(self.playing())
        self.phase = Phase.NIGHT
        self.step_index = 0
        self._vote_at_dawn = False
        effects: list[Effect] = [PlayCue(Cue.CHIME), Ambience(True)]
        return effects + self._night_stage(now, _SPEAK)

    def _choose(self, deck: Sequence[str], now: float) -> list[Effect]:
        assert self.picker is not None
        self.settings = self.settings.with_deck(deck)
        self._idle_since = now
        self._deal_if_ready()
        return [Remember(self.settings.deck, self.picker.players),
                Warm(tuple(self.settings.lines()))]

    def _next_deck(self, now: float) -> list[Effect]:
        assert self.picker is not None
        return self._choose(self.picker.next_deck().deck, now)

    def _more_players(self, now: float) -> list[Effect]:
        assert self.picker is not None
        return self._choose(self.picker.change_players(+1).deck, now)

    def _fewer_players(self, now: float) -> list[Effect]:
        assert self.picker is not None
        return self._choose(self.picker.change_players(-1).deck, now)

    def _pause(self, now: float) -> list[Effect]:
        if self._caption_timer is not None:
            self._caption_timer.pause(now)
        return pacing.pause(self, now)

    def _resume(self, now: float) -> list[Effect]:
        if self._caption_timer is not None:
            self._caption_timer.resume(now)
        return pacing.resume(self, now)

    def _next_rules(self, now: float) -> list[Effect]:
        self.reveal_page = (self.reveal_page + 1) % len(self.reveal_pages())
        return []

    # --------------------------------------------------------------- referee
    def _open_referee(self, now: float) -> list[Effect]:
        """Enter the finished game, seat by seat; answers already given are
        kept if the table comes back from the verdict to correct one."""
        self.phase = Phase.REFEREE
        if self.entry is None:
            self.entry = Entry(self.settings.deck, players_for(self.settings.deck))
        return self._cut()

    def _turn(self, step: int) -> list[Effect]:
        assert self.entry is not None
        self.entry.turn(step)
        return []

    def _answer(self, now: float) -> list[Effect]:
        assert self.entry is not None
        if not self.entry.confirm():
            return []
        self.verdict = self.entry.verdict(self.names)
        self.verdict_page = 0
        self.phase = Phase.VERDICT
        self._to_say = spoken_verdict(self.verdict)
        return [PlayCue(Cue.CHIME)] + self._say_next(now)

    def _say_next(self, now: float) -> list[Effect]:
        """The verdict's next line; its end (or its caption time) brings the next."""
        if not self._to_say:
            self.timer = None
            self.speech.silence()
            return []
        return self._say(now, self._to_say.pop(0), holds=True)

    def _referee_back(self, now: float) -> list[Effect]:
        assert self.entry is not None
        if not self.entry.back():
            self.phase = Phase.REVEAL
        return []

    def _correct(self, now: float) -> list[Effect]:
        """From the verdict back to the last answer, to put a mistake right."""
        assert self.entry is not None
        self.phase = Phase.REFEREE
        self.timer, self._to_say = None, []
        self.speech.silence()
        self.entry.back()
        return [StopSpeech()]

    def verdict_pages(self) -> tuple[tuple[str, ...], ...]:
        """The verdict's reasons, then, for a game on phones, what happened."""
        assert self.verdict is not None
        return pages.group(self.verdict.why, pages.RULES_LINES) + self.happened_pages()

    def happened_pages(self) -> tuple[tuple[str, ...], ...]:
        """What the night did, as the verdict's last pages (a game on phones)."""
        if not self.playing():
            return ()
        assert self.table is not None
        return pages.group(self.table.happened(), pages.RULES_LINES)

    def phone_votes(self) -> bool:
        """The vote is taken on the phones (cards on them, or the table's own)."""
        return self.playing() or self.own is not None

    def _after_phone_vote(self, now: float) -> list[Effect]:
        """The vote on phones is over: with the cards on the phones the
        referee settles the game at once; with the table's own cards, each
        player turns up their card and enters it on their phone."""
        if self.own is None:
            return self._settle(now)
        self.own.voting = False
        self.own.entering = True
        self.phase = Phase.REFEREE
        self.timer = None
        return [PlayCue(Cue.CHIME)] + self._say(now, _(lines.REVEAL), holds=False)

    def _own_on_box(self, now: float) -> list[Effect]:
        """A phone short at the end: the cards are entered on the box, as
        without phones, with the votes the phones gave kept out of it."""
        self.own = None
        self.phase = Phase.REVEAL
        return self._open_referee(now)

    def _settle(self, now: float) -> list[Effect]:
        """The game is over on the phones: the referee settles it from the
        cards at dawn (the box's deal, or the cards the phones entered) and
        the votes, with nobody entering a card on the box."""
        self.timer = None
        if self.own is not None:
            self.own.entering = False
            self.verdict = self.own.verdict()
        else:
            assert self.table is not None
            self.table.voting = False
            self.verdict = self.table.verdict()
        self.verdict_page = 0
        self.phase = Phase.VERDICT
        self._to_say = spoken_verdict(self.verdict)
        return [PlayCue(Cue.CHIME)] + self._say_next(now)

    def _next_verdict_page(self, now: float) -> list[Effect]:
        self.verdict_page = (self.verdict_page + 1) % self._verdict_count()
        return []

    def _verdict_count(self) -> int:
        """The verdict's screens: its reasons, the night's pictures, the list."""
        picture = self.picture()
        return len(self.verdict_pages()) + (len(picture.pages) if picture else 0)

    def picture(self) -> TableMap | None:
        """The night as pictures, once a game on phones has its verdict."""
        if self.verdict is None or not self.playing():
            return None
        assert self.table is not None
        return night_map(self.table, self.verdict, self.names)

    # -------------------------------------------------------------- settings
    def _open_settings(self, now: float) -> list[Effect]:
        assert self.screen is not None
        self.phase = Phase.SETTINGS
        self.screen.open(ONE_NIGHT)
        return []

    def _close_settings(self, now: float) -> list[Effect]:
        assert self.screen is not None
        self.screen.close(now)
        self.phase = Phase.IDLE
        self._idle_since = now
        return []

    def setting_changed(self, key: str) -> list[Effect]:
        """A setting changed (here or from another game's setup): the round
        follows what shapes it, and its lines are rendered again."""
        effects = self._setting_changed(key)
        if self.phase in (Phase.IDLE, Phase.SETTINGS):      # a deal made or dropped
            return self._saved(effects, 0.0)
        return effects

    def _setting_changed(self, key: str) -> list[Effect]:
        if key and not key.startswith(("game.", "night.")) \
                and key not in ("voice.length_scale", LANGUAGE_KEY):
            return []
        config = menu.with_value(self.config, "game.deck", list(self.settings.deck))
        self.settings = RoundSettings.from_config(config)
        self._deal_if_ready()                   # cards on phones, turned on with every seat held
        return [Warm(tuple(self.settings.lines()))]

    def _vote_now(self, now: float) -> list[Effect]:
        if self.phase is Phase.NIGHT:
            return self._end_night_early(now)
        return [StopSpeech()] + self._enter_vote(now)

    def _end_night_early(self, now: float) -> list[Effect]:
        """VOTE at night: nobody may be left with open eyes, or wake without
        being told. The role awake closes its eyes, everyone is woken, then
        the countdown. Every later call is left out, the same for any deal."""
        self._vote_at_dawn = True
        last = len(self.settings.night) - 1
        if self.step_index == last:
            return []                         # the wake-up line is being said
        step = self.settings.night[self.step_index]
        if self.stage == _AFTER:
            return []                         # eyes are closing: the wake-up follows
        if step.after:
            return self._cut() + self._night_stage(now, _AFTER)
        self.step_index = last
        return self._cut() + self._night_stage(now, _SPEAK)

    def _cut(self) -> list[Effect]:
        """Stop the line the stage waits for, if one is being said."""
        return [StopSpeech()] if self.speech.silence() else []

    def _skip(self, now: float) -> list[Effect]:
        return self._cut() + self._stage_over(now)

    def _skip_vote(self, now: float) -> list[Effect]:
        if self.phone_votes():
            return [StopSpeech()] + self._after_phone_vote(now)
        return [StopSpeech()] + self._enter_reveal(now)

    def _can_add(self) -> bool:
        """NEXT adds time while the discussion stays within the longest the
        box runs (what the clock last showed is never less than what is left)."""
        shown = self._last_shown or 0
        return shown + self.settings.add_seconds <= LONGEST_DISCUSSION

    def _add_time(self, now: float) -> list[Effect]:
        assert self.timer is not None
        if not self._can_add():
            return []
        self.timer.add(now, self.settings.add_seconds)
        shown = self.timer.shown_seconds(now)
        self._fired = {w for w in self._fired if w >= shown}
        self._last_shown = shown
        return self._say(now, lines.added(self.settings.add_seconds), holds=False)

    def _abandon(self, now: float) -> list[Effect]:
        effects: list[Effect] = [StopSpeech(), PlayCue(Cue.ABANDON)]
        return effects + self._to_idle(now)

    def _to_idle(self, now: float) -> list[Effect]:
        was_night = self.phase is Phase.NIGHT
        self.phase = Phase.IDLE
        self.paused = False
        self.timer = None
        self.caption = ""
        self._caption_pages, self._caption_timer = (), None
        self.speech.silence()
        self._idle_since = now
        self.entry, self.verdict, self._to_say = None, None, []
        if self.playing():                        # the next game gets a deal of its own
            self.table = None
        self.own = None
        self._deal_if_ready()
        return [Ambience(False)] if was_night else []

    # ---------------------------------------------------------------- stages
    def _say(self, now: float, text: str, holds: bool) -> list[Effect]:
        """Speak `text`; if it `holds`, the stage lasts until the line ends,
        else the stage runs on its own clock while the line is said."""
        self.caption = text
        seconds = pages.caption_seconds(text, self.settings.per_word)
        self._caption_pages = pages.split_text(text, pages.CAPTION_LINES)
        self._caption_timer = Countdown.start(now, seconds)
        if self.paused:
            self._caption_timer.pause(now)
        if not holds:
            return [self.speech.over(text)]
        self.timer = None
        self.speech.replace(text)
        return pacing.next_line(self, now)

    def _night_stage(self, now: float, stage: str) -> list[Effect]:
        self.stage = stage
        self.speech.silence()
        step = self.settings.night[self.step_index]
        if self.playing():
            assert self.table is not None
            if stage == _SPEAK:
                self.table.begin(step.id)       # the call's task opens on the phones
            elif stage == _AFTER:
                self.table.close()              # eyes close: it can no longer be answered
        if stage == _SPEAK:
            return self._say(now, step.text, holds=True)
        if stage == _WAIT:
            self.timer = Countdown.start(now, step.seconds)
            return []
        return self._say(now, step.after, holds=True)

    def _stage_over(self, now: float) -> list[Effect]:
        match self.phase:
            case Phase.NIGHT:
                return self._night_next(now)
            case Phase.DISCUSSION:
                return [PlayCue(Cue.TIME_UP)] + self._enter_vote(now)
            case Phase.VOTE:
                if self.beat + 1 < len(lines.COUNTDOWN):
                    return self._vote_beat(now, self.beat + 1)
                if self.phone_votes():
                    return self._after_phone_vote(now)
                return self._enter_reveal(now)
            case Phase.VERDICT:
                return self._say_next(now)
        return []

    def _night_next(self, now: float) -> list[Effect]:
        step = self.settings.night[self.step_index]
        if self.stage == _SPEAK and (step.seconds > 0 or step.after):
            return self._night_stage(now, _WAIT)
        if self.stage == _WAIT and step.after:
            return self._night_stage(now, _AFTER)
        last = len(self.settings.night) - 1
        if self.step_index < last:
            self.step_index = last if self._vote_at_dawn else self.step_index + 1
            return self._night_stage(now, _SPEAK)
        return self._enter_vote(now) if self._vote_at_dawn else self._enter_discussion(now)

    def _enter_discussion(self, now: float, seconds: float | None = None) -> list[Effect]:
        """The discussion, of the time set (or `seconds` left, resumed)."""
        self.phase = Phase.DISCUSSION
        off: list[Effect] = [Ambience(False)]
        total = self.settings.discussion_seconds if seconds is None else seconds
        self.timer = Countdown.start(now, total)
        shown = self.timer.shown_seconds(now)
        self._fired = {w for w in self.settings.warnings if w >= shown}
        self._last_shown = shown
        return off + [PlayCue(Cue.CHIME)] + self._say(now, lines.discussion_start(round(total)),
                                                      holds=False)

    def _discussion_tick(self, now: float) -> list[Effect]:
        assert self.timer is not None
        shown = self.timer.shown_seconds(now)
        if shown == self._last_shown:
            return []
        self._last_shown = shown
        effects: list[Effect] = []
        crossed = [w for w in self.settings.warnings if w not in self._fired and shown <= w]
        if crossed and shown > 0:
            self._fired.update(crossed)
            effects += self._say(now, lines.warning(min(crossed)), holds=False)
        elif crossed:
            self._fired.update(crossed)
        if 0 < shown <= self.settings.tick_from:
            effects.append(PlayCue(Cue.TICK))
        return effects

    def _enter_vote(self, now: float) -> list[Effect]:
        off: list[Effect] = [Ambience(False)] if self.phase is Phase.NIGHT else []
        self.phase = Phase.VOTE
        return off + self._vote_beat(now, 0)

    def _vote_beat(self, now: float, beat: int) -> list[Effect]:
        self.beat = beat
        last = beat == len(lines.COUNTDOWN) - 1
        effects: list[Effect] = [PlayCue(Cue.VOTE)] if last else []
        effects += self._say(now, _(lines.COUNTDOWN[beat]), holds=False)
        hold = self.settings.phone_vote_hold if self.phone_votes() else self.settings.vote_hold
        if self.table is not None and self.playing() and not self.table.voting:
            self.table.start_vote()             # from "3" on, every phone may vote
        if self.own is not None:
            self.own.voting = True
        self.timer = Countdown.start(now, hold if last else self.settings.vote_beat)
        return effects

    def _enter_reveal(self, now: float) -> list[Effect]:
        self.phase = Phase.REVEAL
        self.timer = None
        self.reveal_page = 0
        return [PlayCue(Cue.CHIME)] + self._say(now, _(lines.REVEAL), holds=False)

    # ------------------------------------------------------------ for the loop
    def next_change(self, now: float) -> float | None:
        """The next monotonic time at which the flow or its view can change:
        a deadline, a shown second, a caption's or the start screen's page."""
        if self.phase is Phase.IDLE:
            n = len(self.idle_pages())
            if n <= 1:
                return None
            k = int((now - self._idle_since) // pages.IDLE_PAGE_SECONDS) + 1
            return self._idle_since + k * pages.IDLE_PAGE_SECONDS
        clock = pacing.next_deadline(self, now)
        if clock is None:
            return None
        return min((t for t in (clock, self._next_caption_page(now)) if t is not None),
                   default=None)

    def _next_caption_page(self, now: float) -> float | None:
        c = self._caption_timer
        if c is None or c.deadline is None or len(self._caption_pages) <= 1:
            return None
        # From the time into the line that the shown page is read from, so
        # the page has turned at the very time this returns.
        elapsed = c.total - c.remaining(now)
        later = [t for t in pages.page_starts(self._caption_pages, c.total)
                 if t > elapsed + pages.EPSILON]
        return now + min(later) - elapsed if later else None

    def caption_page(self, now: float) -> str:
        """The page of the caption due at `now` (a long line turns its pages)."""
        c = self._caption_timer
        if c is None or not self._caption_pages:
            return self.caption
        i = pages.page_at(self._caption_pages, c.total - c.remaining(now), c.total)
        return self._caption_pages[i]

    @property
    def idle_since(self) -> float:
        """When the start screen was last shown afresh: its pages turn from here."""
        return self._idle_since

    def reveal_pages(self) -> tuple[tuple[str, ...], ...]:
        """The reveal's rules, a page a screen."""
        return pages.group(lines.reveal_rules(self.settings.deck), pages.RULES_LINES)

    def idle_pages(self) -> tuple[tuple[str, ...], ...]:
        """The start screen's deck and notes, a page a screen."""
        deck = self.settings.deck
        note = [n for n in (self.phone_note(),) if n]
        notes = setup_notes(deck, phones=self.on_phones())     # the box holds the cards
        return pages.group([describe(deck), *note, *notes], pages.IDLE_LINES)

    def view(self, now: float) -> View:
        """The screen model (wolfbox.mode.Mode), drawn by screen.py."""
        return shown.view(self, now)

    def lines(self) -> list[str]:
        """The round's lines (wolfbox.mode.Mode)."""
        return self.settings.lines()

    @property
    def table_seats(self) -> int:
        """The seats at the table: the deck's players (its cards but the center's)."""
        return players_for(self.settings.deck)

    def busy(self) -> bool:
        """A round, or answers being given to the referee, is under way; a
        game on phones until the table leaves its verdict (the phones keep
        their seats to read what happened)."""
        return self.phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE, Phase.REFEREE) \
            or (self.phase is Phase.VERDICT and self.phone_votes())

    def check(self, now: float) -> None:
        """Raise AssertionError if the flow is in a state it should never reach."""
        assert self.phase in Phase
        running = self.phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE)
        if self.phase is not Phase.VERDICT:          # the verdict times its spoken lines
            assert (self.clock is not None) == running, (self.phase, self.clock)
        assert self.timer is None or self.speech.line is None   # one clock at a time
        assert running or not self.paused
        if self.clock is not None:
            assert self.clock.remaining(now) >= 0
            assert self.clock.paused == self.paused
        if self.phase is Phase.NIGHT:
            assert 0 <= self.step_index < len(self.settings.night)
        if self.phase is Phase.VOTE:
            assert 0 <= self.beat < len(lines.COUNTDOWN)

