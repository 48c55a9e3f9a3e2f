"""What every game does with an event, in one place.

Before anything else, the game catches up on what fell due (an event can
arrive after a deadline the loop has not woken for yet). A line heard out
leaves only the gap after it. A release is the game's own business (a hold
was its own action). A press runs its button's action, from the tables the
legend is drawn from, then whatever that made due.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..buttons import Hold, Release, Tap
from ..effects import Effect
from ..events import Event, PhoneChoice, PhoneEvent, PhonesSeated, SpeechDone
from .actions import Action, Actions, chosen
from .pacing import Paced


class Handled(Paced, Protocol):
    """A game as `handle` drives it: its clocks, and its button tables."""
    def tick(self, now: float) -> list[Effect]: ...

    def taps(self) -> Actions: ...

    def holds(self) -> Actions: ...


def _no_release(event: Release, now: float) -> list[Effect]:
    return []


def _no_phone(event: PhoneEvent, now: float) -> list[Effect]:
    return []


def _no_note(event: Tap | Hold, action: Action | None) -> None:
    return None


def handle(game: Handled, event: Event, now: float,
           released: Callable[[Release, float], list[Effect]] = _no_release,
           pressing: Callable[[Tap | Hold, Action | None], None] = _no_note,
           phoned: Callable[[PhoneEvent, float], list[Effect]] = _no_phone) -> list[Effect]:
    """`game`'s answer to `event` at `now`. `pressing` sees each press and
    the action it chose before the action runs (a game clears what the
    last press left on its screen there); `released` answers a release,
    `phoned` a seat's answer on its phone (a game that asks none ignores
    it)."""
    effects = game.tick(now)
    if isinstance(event, SpeechDone):
        if game.speech.heard(event.token, now, game.options.line_gap, game.paused):
            effects += game.tick(now)
        return effects
    if isinstance(event, Release):
        return effects + released(event, now)
    if isinstance(event, (PhoneChoice, PhonesSeated)):
        return effects + phoned(event, now)
    action = chosen(event, game.taps(), game.holds())
    pressing(event, action)
    if action is not None:
        effects += action.run(now)
        effects += game.tick(now)
    return effects
