"""The main loop: sleep until something happens, feed the flow, show the result.

It waits on SDL's event queue with a timeout that ends exactly when the
flow's next deadline or displayed second is due, so a box showing a
five-minute countdown wakes about once a second and otherwise sleeps.
Button callbacks (gpiozero threads) only post events into that queue.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from wolfbox.buttons import Button, Classifier, Hold, Tap
from wolfbox.effects import Effect
from wolfbox.flow import Flow
from wolfbox.view import View

from .screen import Screen

log = logging.getLogger("wolfbox.device")

BUTTON_EDGE = pygame.event.custom_type()
MAX_SLEEP = 1.0     # seconds; bounds how long a signal (Ctrl-C, SIGTERM) waits


def post_edge(button: Button, down: bool, at: float) -> None:
    """Hand a button edge to the main loop; safe from any thread."""
    try:
        pygame.event.post(pygame.event.Event(BUTTON_EDGE, button=button.value,
                                             down=down, at=at))
    except pygame.error:
        pass    # the loop is shutting down


@dataclass
class Box:
    flow: Flow
    classifier: Classifier
    screen: Screen
    clock: Callable[[], float]
    effect_sinks: Sequence[Callable[[Effect], None]] = ()
    speech_end_type: int | None = None
    speech_ended: Callable[[], object] = lambda: None
    key_codes: dict[int, Button] = field(default_factory=dict)
    drive: Callable[[Button, bool], None] = lambda b, d: None
    notice: str = ""
    on_frame: Callable[[View, float], None] | None = None

    def __post_init__(self) -> None:
        self.running = True
        self._shown: View | None = None
        self._notice_shown = ""

    def stop(self) -> None:
        """Ask the loop to end (signal handlers, the quit key)."""
        self.running = False
        try:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        except pygame.error:
            pass

    def run(self, until: Callable[[], bool] | None = None) -> None:
        """Run until quit, or until `until()` is true (tests)."""
        self.refresh()
        while self.running and not (until and until()):
            self.step()

    def step(self, max_sleep: float = MAX_SLEEP) -> None:
        """Sleep until the next event or deadline, then act on everything due."""
        now = self.clock()
        deadlines = [t for t in (self.flow.next_change(now), self.classifier.next_deadline())
                     if t is not None]
        sleep = min([max_sleep] + [t - now for t in deadlines])
        wait_ms = math.ceil(sleep * 1000)
        # pygame.event.wait(0) would wait forever: something is due now, so poll.
        event = pygame.event.wait(wait_ms) if wait_ms > 0 else pygame.event.poll()
        events = [event] + pygame.event.get()
        for e in events:
            self._handle(e)
        self._advance()
        self.refresh()

    def _handle(self, e: pygame.event.Event) -> None:
        if e.type == pygame.QUIT:
            self.running = False
        elif e.type == BUTTON_EDGE:
            button = Button(e.button)
            edge = self.classifier.press if e.down else self.classifier.release
            for ev in edge(button, e.at):
                self._apply(self.flow.handle(ev, self.clock()))
        elif e.type == self.speech_end_type:
            done = self.speech_ended()
            if done is not None:
                self._apply(self.flow.handle(done, self.clock()))  # type: ignore[arg-type]
        elif e.type in (pygame.KEYDOWN, pygame.KEYUP):
            button = self.key_codes.get(e.key)
            if button is not None:
                self.drive(button, e.type == pygame.KEYDOWN)
            elif e.type == pygame.KEYDOWN and e.key in (pygame.K_ESCAPE, pygame.K_q):
                self.running = False
        elif e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE):
            self.screen.resized()
            self._shown = None

    def _advance(self) -> None:
        now = self.clock()
        for ev in self.classifier.poll(now):
            self._apply(self.flow.handle(ev, now))
        self._apply(self.flow.tick(now))

    def _apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            for sink in self.effect_sinks:
                sink(effect)

    def refresh(self) -> None:
        """Draw the view if it changed since the last frame."""
        view = self.flow.view(self.clock())
        if view == self._shown and self.notice == self._notice_shown:
            return
        self.screen.show(view, self.notice)
        self._shown, self._notice_shown = view, self.notice
        if self.on_frame is not None:
            self.on_frame(view, self.clock())


__all__ = ["BUTTON_EDGE", "Box", "Hold", "Tap", "post_edge"]
