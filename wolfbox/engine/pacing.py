"""A game's clocks: the line being said and the stage's countdown, moved on
in the order they fall due, and paused and resumed together.

Every game with a `Speech` and one stage `timer` runs its deadlines here,
so a pause means the same thing in each of them, and a late wake-up never
moves a stage: the next one starts when the last was due, not when the
loop noticed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..effects import Effect, PauseAudio, ResumeAudio
from ..i18n import _
from ..timer import Countdown
from .actions import Action
from .speech import Speech

# More deadlines than any game has in one wake-up: a bound, so a mistake
# that keeps a deadline in the past cannot spin the loop for ever.
PASSES = 1000


class _Captioned(Protocol):
    @property
    def per_word(self) -> float: ...        # a caption's time a word (the speech speed)

    @property
    def line_gap(self) -> float: ...        # the silence after a line that was heard out


class Paced(Protocol):
    """What a game offers its clocks: the two it runs, the caption the
    screen shows, and what it does when every line is said or the stage's
    time is up."""
    paused: bool
    timer: Countdown | None
    caption: str

    @property
    def speech(self) -> Speech[Any]: ...

    @property
    def options(self) -> _Captioned: ...

    def line_finished(self, now: float) -> list[Effect]: ...

    def time_up(self, now: float) -> list[Effect]: ...


def speak(game: Paced, now: float, text: str, about: Any = None) -> list[Effect]:
    """Say `text` after the lines already queued."""
    return next_line(game, now) if game.speech.add(text, about) else []


def say_now(game: Paced, now: float, text: str, about: Any = None) -> list[Effect]:
    """Say `text` at once, dropping what was queued: the stage waits for it."""
    game.speech.replace(text, about)
    return next_line(game, now)


def next_line(game: Paced, now: float) -> list[Effect]:
    """The next queued line, shown as the caption; the game's own step
    once every line has been said."""
    say = game.speech.next(now, game.options.per_word, game.paused)
    if say is None:
        return game.line_finished(now)
    game.caption = say.text
    return [say]


def run_due(game: Paced, now: float,
            first: Callable[[], list[Effect]] = list) -> list[Effect]:
    """Move on past every deadline that has passed by `now`, in order.
    `first` runs before each step, paused or not (the timed game hides a
    card whose time is up, whatever step showed it; One Night's discussion
    says its warnings)."""
    effects: list[Effect] = []
    for _pass in range(PASSES):
        effects += first()
        if game.paused:
            break
        due = [(t.deadline, i) for i, t in enumerate((game.speech.line, game.timer))
               if t is not None and t.deadline is not None and t.expired(now)]
        if not due:
            break
        at, which = min(due)
        assert at is not None
        at = min(now, at)               # the next stage starts when this one was due
        if which == 0:
            game.speech.line = None
            effects += next_line(game, at)
        else:
            game.timer = None
            effects += game.time_up(at)
    return effects


def next_deadline(game: Paced, now: float) -> float | None:
    """The next time the game or its screen can change (None while paused)."""
    if game.paused:
        return None
    times = [t.deadline for t in (game.speech.line, game.timer) if t is not None]
    if game.timer is not None:
        times.append(game.timer.next_change(now))
    return min((t for t in times if t is not None), default=None)


def pause(game: Paced, now: float) -> list[Effect]:
    """Hold both clocks and the sound where they are."""
    game.paused = True
    for t in (game.timer, game.speech.line):
        if t is not None:
            t.pause(now)
    return [PauseAudio()]


def pause_key(game: Paced) -> Action:
    """START while a game runs: everything it is timing, and its sound, hold."""
    return Action(_("Pause"), lambda now: pause(game, now))


def resume_key(game: Paced) -> Action:
    """START while paused: everything runs on from where it was held."""
    return Action(_("Resume"), lambda now: resume(game, now))


def resume(game: Paced, now: float) -> list[Effect]:
    game.paused = False
    for t in (game.timer, game.speech.line):
        if t is not None:
            t.resume(now)
    return [ResumeAudio()]
