"""The tests' fourth game: "Pick a number", for three seats (not shipped).

Written only against what the README's "Adding a fourth game" names: the
box's protocol (`wolfbox.mode`: `Mode`, `Playable`, `PublicPhones`), the
shared engine (`wolfbox.engine`: the event handling, the clocks, the
speech queue, the button tables) and the shared screen and phone models
(`wolfbox.view`, `wolfbox.phone`). Each seat is dealt a lucky number, its
secret, shown on its own phone behind the cover; then every phone has the
same task, to pick a number, until all three have picked or the time is
up; then the box says how many picked their own. tests/test_fourth_game.py
plays it through the real box and the real phones' server; `make lint`
holds it to the protocol with mypy (tests/typing_games.py).

`Quiet` is the same game without phones of its own: it keeps
`PublicPhones`' `phone_view`, so every phone shows the public screen.

`KIND` (and `QUIET`) is all the box needs to offer it (wolfbox.mode.Kind):
its name and title, its part of the config file (`[pick_a_number]`, the
picking's seconds), its lines, a new game from the settings and one
resumed from its checkpoint (the rounds dealt). The test registers it as
wolfbox.lineup registers the shipped games (`lineup.register`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from wolfbox.buttons import Button
from wolfbox.config import Config, Section, _c
from wolfbox.effects import Checkpoint, Effect
from wolfbox.engine import handling, pacing
from wolfbox.engine.actions import Action, Actions, Legend, power_hold
from wolfbox.engine.speech import Speech
from wolfbox.errors import CannotResume
from wolfbox.events import Event, PhoneEvent, PhonesSeated
from wolfbox.i18n import N_, _
from wolfbox.mode import Kind, PublicPhones
from wolfbox.pages import PER_WORD
from wolfbox.phone import PhoneView, Task, public
from wolfbox.settings_screen import SettingsScreen
from wolfbox.timer import Countdown, clock_text
from wolfbox.view import Phase, View

TOY = "pick_a_number"               # its config name (game.mode, its section, its saves)
SEATS = (1, 2, 3)
NUMBERS = (1, 2, 3, 4, 5)
PICK_SECONDS = 60.0

PICK = "Pick a number on your phone."
TIME_UP = "Time is up."


def told(hits: int) -> str:
    """What the box says at the end: how many picked their own number."""
    return _("{hits} of three picked their lucky number.").format(hits=hits)


class Stage(StrEnum):
    START = "start"
    PICK = "pick"
    END = "end"


@dataclass(frozen=True)
class Options:
    """What the engine's clocks ask of a game's options."""
    per_word: float = PER_WORD
    line_gap: float = 0.05


@dataclass
class Quiet(PublicPhones):
    """Pick a number, with the phones showing only the public screen."""
    rng: random.Random = field(default_factory=random.Random)
    options: Options = field(default_factory=Options)
    stage: Stage = Stage.START
    paused: bool = False
    timer: Countdown | None = None
    caption: str = ""
    speech: Speech[None] = field(default_factory=Speech)
    lucky: dict[int, int] = field(default_factory=dict)     # each seat's secret
    picks: dict[int, int] = field(default_factory=dict)     # each seat's pick so far
    hits: int = 0
    rounds: int = 0
    phones: frozenset[int] = frozenset()
    seconds: float = PICK_SECONDS                           # the config's [pick_a_number]

    # ------------------------------------------------------------ Mode
    def handle(self, event: Event, now: float) -> list[Effect]:
        """Events in, through the engine: a press runs its button's action."""
        return handling.handle(self, event, now, phoned=self._phoned)

    def tick(self, now: float) -> list[Effect]:
        """The line and the stage's clock, moved on by the engine."""
        return pacing.run_due(self, now)

    def next_change(self, now: float) -> float | None:
        """The engine's next deadline, or the clock's next second."""
        return pacing.next_deadline(self, now)

    def view(self, now: float) -> View:
        """The start screen (between games), the picking, or who won."""
        legend = Legend.of(self.taps(), self.holds())
        title = _("Pick a number")
        if self.stage is Stage.START:
            return View(Phase.IDLE, title, details=(_("Three seats"),),
                        legend=legend.labels, holds=legend.holds, between=True)
        if self.stage is Stage.PICK:
            left = self.timer.remaining(now) if self.timer is not None else 0.0
            picked = _("{n} of three have picked.").format(n=len(self.picks))
            return View(Phase.DISCUSSION, title, big=clock_text(left),
                        caption=self.caption, details=(picked,), legend=legend.labels,
                        holds=legend.holds, paused=self.paused)
        shown = tuple(_("Seat {seat}: {pick}").format(seat=s, pick=self.picks.get(s, "-"))
                      for s in SEATS)
        return View(Phase.VERDICT, title, big=str(self.hits), caption=self.caption,
                    details=shown, legend=legend.labels, holds=legend.holds)

    def lines(self) -> list[str]:
        """Every line a round can say."""
        return [_(PICK), _(TIME_UP), *(told(n) for n in range(len(SEATS) + 1))]

    def busy(self) -> bool:
        """A round is under way; with phones, its end too: they keep their
        seats to show who picked what, until the table starts again (a
        game no longer busy is the next game: a new PIN, for newcomers)."""
        return self.stage is Stage.PICK or (self.stage is Stage.END and bool(self.phones))

    def setting_changed(self, key: str) -> list[Effect]:
        """No setting shapes this game."""
        return []

    @property
    def table_seats(self) -> int:
        """Three seats."""
        return len(SEATS)

    # ------------------------------------------------------------ the engine's hooks
    def taps(self) -> Actions:
        """START deals, pauses and resumes, and starts again."""
        if self.stage is Stage.START:
            return {Button.START: Action(_("Deal"), self._deal)}
        if self.stage is Stage.PICK:
            key = pacing.resume_key(self) if self.paused else pacing.pause_key(self)
            return {Button.START: key}
        return {Button.START: Action(_("Again"), self._again)}

    def holds(self) -> Actions:
        """The power hold every screen has."""
        return power_hold()

    def line_finished(self, now: float) -> list[Effect]:
        """Every line said: nothing waits on it."""
        return []

    def time_up(self, now: float) -> list[Effect]:
        """The picking's time is up: the round ends with the picks made."""
        return pacing.speak(self, now, _(TIME_UP)) + self._end(now)

    # ------------------------------------------------------------ the game
    def step(self) -> str:
        """The task of this round (an answer to an older one changes nothing)."""
        return f"pick{self.rounds}"

    def _deal(self, now: float) -> list[Effect]:
        self.rounds += 1
        self.lucky = {seat: self.rng.choice(NUMBERS) for seat in SEATS}
        self.picks, self.hits, self.stage = {}, 0, Stage.PICK
        self.timer = Countdown.start(now, self.seconds)
        # The rounds dealt: what a box that lost its power resumes with.
        return [Checkpoint(TOY, {"rounds": self.rounds}), *pacing.say_now(self, now, _(PICK))]

    def _again(self, now: float) -> list[Effect]:
        self.stage, self.caption = Stage.START, ""
        return []

    def _end(self, now: float) -> list[Effect]:
        """How many picked their own number, said and shown."""
        self.timer, self.stage = None, Stage.END
        self.hits = sum(self.picks.get(s) == n for s, n in self.lucky.items())
        return pacing.speak(self, now, told(self.hits))

    def _phoned(self, event: PhoneEvent, now: float) -> list[Effect]:
        if isinstance(event, PhonesSeated):
            self.phones = event.seats
            return []
        if self.stage is not Stage.PICK or event.step != self.step() \
                or event.seat not in SEATS or len(event.choice) != 1 \
                or event.choice[0] not in NUMBERS:
            return []
        self.picks[event.seat] = event.choice[0]
        return self._end(now) if len(self.picks) == len(SEATS) else []


@dataclass
class Toy(Quiet):
    """Pick a number on phones: each seat's lucky number behind its cover,
    and the same task on every phone."""

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """The public screen, with this seat's secret and task."""
        base = public(self.view(now), seat)
        if self.stage is Stage.START or seat not in SEATS:
            return base
        secret = (_("Your lucky number: {n}").format(n=self.lucky[seat]),)
        if self.stage is Stage.END:
            return PhoneView(seat, base.title, base.big, base.lines, secret)
        chosen = (self.picks[seat],) if seat in self.picks else ()
        task = Task(self.step(), _("Pick a number"),
                    tuple((n, str(n)) for n in NUMBERS), chosen)
        return PhoneView(seat, base.title, base.big, base.lines, secret, task=task)

    def lobby_note(self) -> str:
        """What the seat list says before a round."""
        return _("Three seats: each gets a lucky number.") if self.stage is Stage.START else ""


def check(game: Quiet) -> None:
    """Raise AssertionError if the game is where it should never be."""
    assert set(game.picks) <= set(SEATS)
    assert game.stage is not Stage.PICK or game.timer is not None


@dataclass
class ToyConfig:
    """The toy's part of the config file, `[pick_a_number]`."""
    seconds: float = _c(PICK_SECONDS, "the time to pick a number, in seconds", min=5, max=600)


SECTION = Section(TOY, ToyConfig)


@dataclass(frozen=True)
class ToyKind:
    """Pick a number as the box makes it (wolfbox.mode.Kind): `make`, with
    or without phones of its own; `seed`, its deals."""
    make: type[Quiet] = Toy
    seed: int = 4
    name: str = TOY
    title: str = N_("Pick a number")
    section: Section = SECTION
    pages: frozenset[str] = frozenset()

    def lines(self, config: Config) -> list[str]:
        """Every line a round can say."""
        return self.make().lines()

    def new(self, settings: SettingsScreen) -> Quiet:
        """A game on its start screen, picking for the seconds configured."""
        return self.make(rng=random.Random(self.seed),
                         seconds=settings.config.part(ToyConfig).seconds)

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Quiet:
        """A game on its start screen with the rounds it had dealt."""
        rounds = state.get("rounds")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
            raise CannotResume(f"rounds: {rounds!r} is no count of rounds")
        game = self.new(settings)
        game.rounds = rounds
        return game


KIND: Kind = ToyKind()
QUIET: Kind = ToyKind(make=Quiet)
