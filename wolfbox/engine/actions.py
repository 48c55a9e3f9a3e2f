"""What each button does now: one table of taps and one of holds per stage,
from which the button's action, the on-screen legend and (through the
legend) the buttons' lights all come, so the screen cannot say one thing
and the button do another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..buttons import GAME_BUTTONS, Button, Hold, Tap
from ..effects import Cue, Effect, PlayCue, Shutdown, StopSpeech
from ..i18n import N_, _


@dataclass(frozen=True)
class Action:
    """A button's action: the label its legend shows, and what it does."""
    label: str
    run: Callable[[float], list[Effect]]


Actions = dict[Button, Action]
Run = Callable[[float], list[Effect]]


def power_off(now: float) -> list[Effect]:
    """The power button held: what is said stops, the box says goodbye and
    shuts down (the device does, on `Shutdown`)."""
    return [StopSpeech(), PlayCue(Cue.ABANDON), Shutdown()]


def power_hold() -> Actions:
    """The hold every screen of every game offers."""
    return {Button.POWER: Action(_("Hold: power off"), power_off)}


def start_holds(open_settings: Run, next_game: Run) -> Actions:
    """The holds of every game's start or setup screen: NEXT for the box's
    settings, VOTE for the next game. Which game is next is the caller's
    (wolfbox.roster.switch): the engine knows no list of games."""
    return {Button.NEXT: Action(_("Hold: settings"), open_settings),
            Button.VOTE: Action(_("Hold: next game"), next_game)}


def seat_keys(move: Callable[[int], list[Effect]]) -> Actions:
    """NEXT and BACK walk the seat ring, a seat each way."""
    return {Button.NEXT: Action(_("Next seat"), lambda now: move(+1)),
            Button.BACK: Action(_("Previous seat"), lambda now: move(-1))}


def paged(taps: Actions, pages: int, turn: Run) -> Actions:
    """`taps`, with NEXT turning the page where there is more than one."""
    if pages > 1:
        taps[Button.NEXT] = Action(_("More"), turn)
    return taps


def chosen(event: Tap | Hold, taps: Actions, holds: Actions) -> Action | None:
    """The action a press runs: a hold runs the button's hold action; a
    button with nothing to hold taps, however long it was held."""
    action = holds.get(event.button) if isinstance(event, Hold) else None
    return action if action is not None else taps.get(event.button)


@dataclass(frozen=True)
class Legend:
    """The labels a screen shows, in the buttons' order: a tap's label, or
    the hold's where the button has no tap (`labels`); the holds apart
    (`holds`), for the screen's "hold" marks."""
    labels: tuple[tuple[Button, str], ...]
    holds: tuple[tuple[Button, str], ...]

    @classmethod
    def of(cls, taps: Actions, holds: Actions) -> Legend:
        labels = {b: a.label for b, a in taps.items()}
        for b, a in holds.items():
            labels.setdefault(b, a.label)
        return cls(tuple((b, labels[b]) for b in GAME_BUTTONS if b in labels),
                   tuple((b, holds[b].label) for b in GAME_BUTTONS if b in holds))


END_AGAIN = N_("Hold BACK again to end the game.")


@dataclass
class SecondHold:
    """A game of many nights is not lost to one long press: the first hold
    of BACK asks, and only a second one, before any other button, ends it."""
    armed: bool = False

    def ask(self) -> str | None:
        """None: end the game now. Else the question to show (now armed)."""
        if self.armed:
            self.armed = False
            return None
        self.armed = True
        return _(END_AGAIN)

    def disarm(self) -> None:
        """Another button, or a new part of the game: the question lapses."""
        self.armed = False

    def held(self, now: float, show: Callable[[str], None], end: Run) -> list[Effect]:
        """BACK held: the first time, `show` the question; the second, what
        was being said stops, the box sounds the end, and the game `end`s."""
        question = self.ask()
        if question is not None:
            show(question)
            return []
        ended: list[Effect] = [StopSpeech(), PlayCue(Cue.ABANDON)]
        return ended + end(now)

    def lapse_unless(self, action: Action, end: Run) -> None:
        """Any press but the hold that ends the game (`end`) lets the
        question lapse."""
        if action.run != end:
            self.armed = False
