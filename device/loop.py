"""The main loop: sleep until something happens, feed the flow, show the result.

It blocks on its own inbox with a timeout that ends exactly when the
flow's next deadline or displayed second is due, so a box showing a
five-minute countdown wakes about once a second and otherwise sleeps.
Button callbacks (gpiozero threads) only post edges into that inbox.
SDL's own queue (window close, keyboard) is read at `sdl_poll` intervals,
and only where there is a window or console to read it from.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from wolfbox.buttons import Button, Classifier
from wolfbox.effects import Ambience, Effect, ResumeAudio, StopSpeech
from wolfbox.events import Event, PhoneChoice, PhonesSeated, SpeechDone
from wolfbox.games import Games
from wolfbox.i18n import _
from wolfbox.view import JoinCard, Phase, View

from .notices import GAME_BUG
from .notify import Notifier
from .screen import Screen

log = logging.getLogger("wolfbox.device")

MAX_SLEEP = 1.0     # seconds; an upper bound, the loop normally sleeps until a deadline


@dataclass(frozen=True)
class Edge:
    button: Button
    down: bool
    at: float


class Stop:
    pass


@dataclass(frozen=True)
class Notice:
    """Something the table should know about the box itself (no sound, a
    full disk), reported once from whichever thread found it. It takes the
    place of any of `replaces` (the voice's notice in another language)."""
    text: str
    replaces: tuple[str, ...] = ()


class Wake:
    """Nothing to act on: something the screen shows has changed elsewhere."""


class QuitKey:
    """Esc or q on a keyboard: ends the box, but asks again mid-round."""


@dataclass(frozen=True)
class Phoned:
    """From the phones (wolfbox.phones): a seat's answer, or who holds a
    phone now; an event for the game."""
    event: PhoneChoice | PhonesSeated


Item = Edge | Stop | Notice | Wake | QuitKey | Phoned
QUIT_CONFIRM_SECONDS = 3.0     # how long a first Esc/q mid-round waits for the second
HOLD_STEPS = 10                # a held button's box fills in this many steps
# A game that fails again before the table's next input, after being sent
# back to its start (strike 1) and then started anew (strike 2), cannot be
# played now: the box offers the next game (strike 3), which gets as many.
# Only when every game has failed so, with no input between, does the
# exception end the box.
RECOVERIES = 2


class Inbox:
    """Events from other threads (gpiozero callbacks, terminal keys, signals).

    The loop blocks on this queue, not on SDL's event queue: pygame's
    event.wait(timeout) polls inside SDL and costs a steady 1.5-2 % of a core
    however long it waits, while a queue wait costs nothing until woken.
    """

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Item] = queue.SimpleQueue()

    def edge(self, button: Button, down: bool, at: float) -> None:
        self._queue.put(Edge(button, down, at))

    def stop(self) -> None:
        self._queue.put(Stop())

    def notice(self, text: str, replaces: tuple[str, ...] = ()) -> None:
        self._queue.put(Notice(text, replaces))

    def wake(self, *_args: object) -> None:
        self._queue.put(Wake())

    def quit_key(self) -> None:
        self._queue.put(QuitKey())

    def phoned(self, event: object) -> None:
        """From the phones' server thread: one more event for the game."""
        if isinstance(event, (PhoneChoice, PhonesSeated)):
            self._queue.put(Phoned(event))

    def wait(self, timeout: float) -> list[Item]:
        try:
            items = [self._queue.get(timeout=timeout)] if timeout > 0 else []
        except queue.Empty:
            items = []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items


@dataclass
class Box:
    flow: Games                     # the games, and the one being played (wolfbox.games)
    classifier: Classifier
    screen: Screen
    clock: Callable[[], float]
    inbox: Inbox = field(default_factory=Inbox)
    effect_sinks: list[Callable[[Effect], None]] = field(default_factory=list)
    speech_poll: Callable[[float], SpeechDone | None] = lambda now: None
    speech_deadline: Callable[[], float | None] = lambda: None
    key_codes: dict[int, Button] = field(default_factory=dict)
    drive: Callable[[Button, bool], None] = lambda b, d: None
    sdl_poll: float | None = None      # seconds between reads of SDL's queue; None: never
    # The start screen's notices, each kept whole: a notice may itself hold
    # "; " (one joined string lost such a notice for good, as it could no
    # longer be matched to be taken away).
    notices: tuple[str, ...] = ()
    on_frame: Callable[[View, float], None] | None = None
    view_sinks: list[Callable[[View], None]] = field(default_factory=list)   # LEDs
    notifier: Notifier = field(default_factory=Notifier)
    readiness: Callable[[], tuple[int, int]] = lambda: (0, 0)   # voice lines (ready, needed)
    join_card: Callable[[], JoinCard | None] = lambda: None     # how phones join, if on
    phones_follow: Callable[[], None] = lambda: None             # send the phones their views
    # The game raised: build it again (1: from its last checkpoint, offered
    # on its start screen; 2: anew, the checkpoint forgotten; then the next
    # game), and what the box does about it (effects); None: nothing is left.
    # No `recover` at all: raise.
    recover: Callable[[int], list[Effect] | None] | None = None
    strict: bool = False        # tests: a game's exception is raised, never caught

    def __post_init__(self) -> None:
        self.running = True
        self._strikes = 0                   # game failures since the table's last input
        self._failures = 0                  # game failures since the box started
        self._bugs: set[tuple[str, str, int]] = set()     # the traces already logged
        self._shown: View | None = None
        self._notice_shown = ""
        self._failed: set[tuple[str, str]] = set()
        self._quit_armed_until: float | None = None

    def stop(self) -> None:
        """Ask the loop to end; safe from signal handlers and other threads."""
        self.running = False
        self.inbox.stop()

    def run(self, until: Callable[[], bool] | None = None) -> None:
        """Run until quit, or until `until()` is true (tests)."""
        self._settled()
        self.notifier.ready("showing the start screen")
        while self.running and not (until and until()):
            self.step()
        self.notifier.stopping()

    def step(self, max_sleep: float = MAX_SLEEP) -> None:
        """Sleep until the next event or deadline, then act on everything due."""
        now = self.clock()
        self.notifier.ping(now)
        due = self.next_due(now)
        sleep = min([max_sleep] + ([due - now] if due is not None else []))
        if self.sdl_poll is not None:
            sleep = min(sleep, self.sdl_poll)
        items = self.inbox.wait(sleep)
        sdl_events = pygame.event.get() if self.sdl_poll is not None else []
        for e in sdl_events:
            self._sdl(e)
        if sdl_events:
            items += self.inbox.wait(0)      # keys drive pins, whose callbacks post here
        if not items and not sdl_events and due is not None and self.clock() < due:
            return                           # only SDL's queue was read: nothing to do
        self.act(items)

    def act(self, items: list[Item]) -> None:
        """Hand the posted edges to the flow, then everything due by now, and
        redraw. The loop calls it after each sleep; a test on a fake clock
        calls it at each instant it jumps to."""
        phoned = False
        for item in items:
            if isinstance(item, Stop):
                self.running = False
            elif isinstance(item, Notice):
                self.add_notice(item.text, item.replaces)
            elif isinstance(item, QuitKey):
                self._game(lambda: self.quit_key(self.clock()))
            elif isinstance(item, Phoned):
                self._table(item.event)
                phoned = True
            elif isinstance(item, Edge):
                edge = self.classifier.press if item.down else self.classifier.release
                for ev in edge(item.button, item.at):
                    self._table(ev)
        self._settled()
        if phoned:
            self._game(self.phones_follow)      # a phone's answer shows on that phone at once

    def _settled(self) -> None:
        """Everything due by now, then the frame; a game that fails on the
        way is put back and this starts over (RECOVERIES bounds it)."""
        while True:
            failures = self._failures
            try:
                self._advance()
                self.refresh()
            except Exception as e:
                self._game_failed(e)
                continue
            # A failure met by an inner barrier (the phones' views, a sink
            # that asked the game) left a frame of the failed game: again.
            if self._failures == failures:
                return

    def in_game(self, call: Callable[[], None]) -> None:
        """`call` (into the game, from an adapter: the phones' views)
        behind the game's exception barrier, at startup as in a round."""
        self._game(call)

    def _table(self, event: Event) -> None:
        """The table's input (a button, a phone) for the game."""
        self._game(lambda: self._apply(self.flow.handle(event, self.clock())), table=True)

    def _game(self, call: Callable[[], None], table: bool = False) -> None:
        """`call` into the game; an exception is the game's bug, never the
        end of the box. A call on the table's input (`table`) that the game
        takes is the table playing on: the strikes start over."""
        try:
            call()
        except Exception as e:
            self._game_failed(e)
        else:
            if table:
                self._strikes = 0

    def _game_failed(self, error: Exception) -> None:
        """The game raised. At the table the trace goes to the log (once
        for each place it was raised), the start screen says so in a line,
        and the game is built again (`recover`): from its last checkpoint,
        which its start screen offers to resume, so a bug costs the table
        at most the phase it was in and the table chooses whether to go on
        from there. A game that fails again before the table's next input
        starts anew; once more, it cannot be played now, and the box offers
        the next game (a box that ended would be started again by systemd
        into the same fault). Only when every game failed so does the
        exception end the box. A box built for tests (`strict`) raises at
        once: a bug is never hidden from a test."""
        self._strikes += 1
        self._failures += 1
        if self.strict or self.recover is None:
            raise error
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = (type(error).__name__, frame.filename, frame.lineno or 0)
        if where not in self._bugs:
            self._bugs.add(where)
            log.error(_("the game failed ({error}): back to its start screen").format(
                error=f"{type(error).__name__}: {error}"), exc_info=error)
        else:
            log.error(_("the game failed ({error}): back to its start screen").format(
                error=f"{type(error).__name__}: {error}") + " (" + _("trace above") + ")")
        then = self.recover(self._strikes)
        if then is None:                    # every game failed, with no input between
            raise error
        # Whatever the failed game left sounding stops with it.
        self._apply([ResumeAudio(), StopSpeech(), Ambience(False), *then])
        self._quit_armed_until = None
        self.add_notice(_(GAME_BUG))

    def next_due(self, now: float) -> float | None:
        """The clock time at which the box next has something to do unasked:
        a stage ends, a shown second changes, a hold completes, a line ends.
        The loop sleeps until then; a test on a fake clock jumps to it."""
        try:
            game = self.flow.next_change(now)
        except Exception as e:
            self._game_failed(e)
            return now                  # the game was put back: act on it at once
        deadlines = [t for t in (game, self.classifier.next_deadline(),
                                 self.speech_deadline(), self._quit_armed_until,
                                 self._next_hold_step(now))
                     if t is not None]
        return min(deadlines, default=None)

    def _holding(self, view: View, now: float) -> tuple[Button, int] | None:
        """A button held for its hold action, and how many tenths of its time
        have passed: the screen fills its legend box as it goes."""
        held = self.classifier.holding(now)
        if held is None or held[0] not in dict(view.holds):
            return None
        return held[0], min(HOLD_STEPS, int(held[1] * HOLD_STEPS + 1e-6))

    def _next_hold_step(self, now: float) -> float | None:
        held = self.classifier.holding(now)
        if held is None or self._shown is None or held[0] not in dict(self._shown.holds):
            return None
        button, share = held
        limit = self.classifier.hold_seconds[button]
        step = int(share * HOLD_STEPS + 1e-6) + 1       # float dust must not stall the loop
        return max(now + 1e-6, now + (step / HOLD_STEPS - share) * limit)

    def _sdl(self, e: pygame.event.Event) -> None:
        if e.type == pygame.QUIT:
            self.running = False
        elif e.type in (pygame.KEYDOWN, pygame.KEYUP):
            button = self.key_codes.get(e.key)
            if button is not None:
                self.drive(button, e.type == pygame.KEYDOWN)
            elif e.type == pygame.KEYDOWN and e.key in (pygame.K_ESCAPE, pygame.K_q):
                self._game(lambda: self.quit_key(self.clock()))     # it asks the game
        elif e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE):
            self.screen.resized()
            self._shown = None

    def _advance(self) -> None:
        now = self.clock()
        for ev in self.classifier.poll(now):
            self._apply(self.flow.handle(ev, now))
        done = self.speech_poll(now)
        if done is not None:
            self._apply(self.flow.handle(done, now))
        self._apply(self.flow.tick(now))

    def _apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            for sink in self.effect_sinks:
                self._guarded(sink, effect)

    def _guarded(self, sink: Callable[[Any], None], value: object) -> None:
        """Run one sink; a failing adapter is logged once and the round goes
        on, since nothing a speaker or a light does may stop the game."""
        try:
            sink(value)
        except Exception as e:
            key = (getattr(sink, "__qualname__", repr(sink)), type(e).__name__)
            if key not in self._failed:
                self._failed.add(key)
                log.exception(_("an adapter failed ({error}); the round goes on").format(
                    error=f"{type(e).__name__}: {e}"))

    def quit_key(self, now: float) -> None:
        """Esc or q: on the start screen it ends the box at once; in a round
        a stray key must not end the game, so it asks for a second press."""
        armed = self._quit_armed_until is not None and now < self._quit_armed_until
        if armed or not self.flow.busy():
            self.running = False
            return
        self._quit_armed_until = now + QUIT_CONFIRM_SECONDS

    def add_notice(self, text: str, replaces: tuple[str, ...] = ()) -> None:
        """Show `text` on the start screen beside any earlier notice (once),
        in the place of any of `replaces`; an empty `text` only removes."""
        shown = [n for n in self.notices if n not in replaces]
        if text and text not in shown:
            shown.append(text)
        self.notices = tuple(shown)

    @property
    def notice(self) -> str:
        """The notices as the start screen shows them, in one line."""
        return "; ".join(self.notices)

    def status(self) -> str:
        """The voice's preparation, in tenths, while it is not ready."""
        ready, needed = self.readiness()
        if not needed or ready >= needed:
            return ""
        return _("Preparing the voice: {percent} %").format(
            percent=10 * (100 * ready // needed // 10))

    def refresh(self) -> None:
        """Draw the view if it changed since the last frame."""
        now = self.clock()
        view = self.flow.view(now)
        if view.phase is Phase.IDLE or view.between:
            view = dataclasses.replace(view, status=self.status())
        if not self.flow.busy() or self.flow.phones_screen_open:
            view = dataclasses.replace(view, join=self.join_card())
        # START taps as it goes down unless the screen offers its hold (the
        # phones' screen, wolfbox.games): a table without phones keeps its
        # quickest button; with phones, START taps as it is let go.
        self.classifier.taps_now = frozenset({Button.START}) - dict(view.holds).keys()
        holding = self._holding(view, now)
        if holding is not None:
            view = dataclasses.replace(view, held=holding[0],
                                       held_progress=holding[1] / HOLD_STEPS)
        if self._quit_armed_until is not None:
            if now < self._quit_armed_until:
                view = dataclasses.replace(
                    view, alert=_("Press Esc or q again to end the box"))
            else:
                self._quit_armed_until = None
        # Not an adapter's sink: what each phone shows is the game's own
        # `phone_view`, so a fault there is the game's, met by the barrier
        # (_settled), not logged and passed over as a light's would be. It
        # follows the game, not only the box's screen: the night can end
        # under the Mayor's open book, and the console must have the new
        # step at once (the server sends only the views that changed).
        if view == self._shown and self.notice == self._notice_shown:
            self.phones_follow()
            return
        self.screen.show(view, self.notice)
        for sink in self.view_sinks:
            self._guarded(sink, view)
        self.phones_follow()
        self._shown, self._notice_shown = view, self.notice
        if self.on_frame is not None:
            self.on_frame(view, self.clock())
