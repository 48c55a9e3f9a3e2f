"""Keyboard input: window keys and terminal keys, both as button edges.

Keys never act on the game directly: they drive the buttons' mock pins
(see wolfbox.hardware.buttons.ButtonBank.drive), exactly as an arcade
button would.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import select
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from wolfbox.buttons import Button
from wolfbox.errors import KeyNameError as KeyNameError
from wolfbox.i18n import _

log = logging.getLogger("wolfbox.device")


def key_codes(keys: dict[Button, list[str]]) -> dict[int, Button]:
    """pygame key codes for the configured key names; bad names are errors."""
    codes: dict[int, Button] = {}
    for button, names in keys.items():
        for name in names:
            try:
                with warnings.catch_warnings():
                    # Name-to-code lookup needs no video; pygame warns anyway.
                    warnings.simplefilter("ignore")
                    code = pygame.key.key_code(name)
            except ValueError:
                raise KeyNameError(_("keys.{button}: unknown key name '{name}' (use pygame "
                                     "key names such as space, return, a, right)")
                                   .format(button=button.value, name=name)) from None
            if code in codes and codes[code] is not button:
                raise KeyNameError(_("key '{name}' is given to both {first} and {second}")
                                   .format(name=name, first=codes[code].value,
                                           second=button.value))
            codes[code] = button
    return codes


def terminal_chars(keys: dict[Button, list[str]]) -> dict[str, Button]:
    """Keys that a terminal can send as one character ('space' is ' ')."""
    chars: dict[str, Button] = {}
    for button, names in keys.items():
        for name in names:
            ch = " " if name == "space" else name
            if len(ch) == 1:
                chars[ch.lower()] = button
    return chars


def gives_keys(fd: int) -> bool:
    """A terminal, a pipe or a file can give keys; a closed descriptor or
    /dev/null (a service's standard input) cannot."""
    try:
        here, null = os.fstat(fd), os.stat(os.devnull)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) != (null.st_dev, null.st_ino)


QUEUED = 20   # presses of one key that may wait their turn (a Mayor counting hands)


class Presses:
    """Presses and lets go of keys in their time, on one thread for all of them.

    A terminal sends no key-up, so every key's release is scheduled. A
    thread (or timer) per key would be hundreds of threads under a burst of
    pasted text on a Pi Zero; here there is one, sleeping until the
    earliest edge is due. The same key typed again before its release
    (or "vvv" arriving in one read) is pressed again after it, `gap` later,
    so each one counts; more than QUEUED waiting are dropped (a paste).
    """

    def __init__(self, drive: Callable[[Button, bool], None],
                 clock: Callable[[], float] = time.monotonic, gap: float = 0.06) -> None:
        self._drive = drive
        self._clock = clock
        self._gap = gap
        self._due: list[tuple[float, int, Button, bool]] = []
        self._order = itertools.count()            # equal times keep their order
        self._free: dict[Button, float] = {}       # when each key may be pressed again
        self._waiting: dict[Button, int] = {}      # presses of each key not yet made
        self._last: dict[Button, float] = {}       # when each key's last edge was driven
        self._wake = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def press(self, button: Button, seconds: float) -> None:
        """Press `button` now, or as soon as its last press is over, for `seconds`."""
        with self._wake:
            if self._stopped or self._waiting.get(button, 0) >= QUEUED:
                return
            now = self._clock()
            # Never sooner than `gap` after the edge last driven, which a
            # starved thread may have driven late.
            start = max(now, self._free.get(button, now), self._last.get(button, now - self._gap)
                        + self._gap)
            self._free[button] = start + seconds + self._gap
            at_once = start <= now
            if not at_once:
                self._waiting[button] = self._waiting.get(button, 0) + 1
                heapq.heappush(self._due, (start, next(self._order), button, True))
            heapq.heappush(self._due, (start + seconds, next(self._order), button, False))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wolfbox-key-release",
                                                daemon=True)
                self._thread.start()
            if at_once:
                self._last[button] = now
            self._wake.notify()
        if at_once:
            self._drive(button, True)

    def stop(self) -> None:
        """Forget what is pending; the box is closing and its pins with it."""
        with self._wake:
            self._stopped = True
            self._due.clear()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (not self._due or self._due[0][0] > self._clock()):
                    self._wake.wait(self._due[0][0] - self._clock() if self._due else None)
                if self._stopped:
                    return
                _, _, button, down = heapq.heappop(self._due)
                # A thread starved past two edges of one key would drive them
                # back to back, and the debounce would take the second for
                # contact bounce (a tap lost on a busy machine): each edge
                # of a key comes `gap` after the one before it, at least.
                now = self._clock()
                ready = self._last.get(button, now - self._gap) + self._gap
                if ready > now:
                    heapq.heappush(self._due, (ready, next(self._order), button, down))
                    continue
                self._last[button] = now
                if down:
                    self._waiting[button] -= 1
            self._drive(button, down)        # outside the lock: it may take a while


def key_labels(chars: dict[str, Button]) -> dict[Button, str]:
    """The key to show beside each button: its first letter key, else space."""
    labels: dict[Button, str] = {}
    for ch, button in chars.items():
        if ch != " " and button not in labels:
            labels[button] = ch
    for ch, button in chars.items():
        labels.setdefault(button, "space" if ch == " " else ch)
    return labels


@dataclass
class TerminalKeys:
    """Reads keys typed in the terminal on a thread.

    A key taps its button; the same key in capitals holds it (press, then
    release after the hold time), since a terminal sends no key-up. When
    standard input is closed or not a terminal (a service manager), the
    reader simply ends: the box carries on with its buttons.
    """
    chars: dict[str, Button]
    drive: Callable[[Button, bool], None]
    hold_seconds: float
    on_quit: Callable[[], None]
    stream: object = field(default_factory=lambda: sys.stdin)
    gap: float = 0.06          # between presses of one key: longer than the debounce

    def __post_init__(self) -> None:
        self._presses = Presses(self.drive, gap=self.gap)

    def start(self) -> bool:
        """Start reading; False if the stream can give no keys (closed, or
        /dev/null as under a service manager), so nobody offers keys that
        would do nothing."""
        try:
            fd = self.stream.fileno()  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):
            return False
        if not gives_keys(fd):
            return False
        self._fd = fd
        self._restore: Callable[[], None] = lambda: None
        if os.isatty(fd):
            try:
                import termios
                import tty
                saved = termios.tcgetattr(fd)
                tty.setcbreak(fd)
                self._restore = lambda: termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            except (ImportError, OSError):
                pass
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wolfbox-keys", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        self._presses.stop()
        if hasattr(self, "_stop"):
            self._stop.set()
            self._restore()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._fd], [], [], 0.25)
                if not ready:
                    continue
                data = os.read(self._fd, 64)
            except (OSError, ValueError):
                return
            if not data:            # end of input: stop reading, keep the box running
                return
            for ch in data.decode(errors="ignore"):
                self.key(ch)

    def key(self, ch: str) -> None:
        if ch.lower() == "q" and "q" not in self.chars:
            self.on_quit()
            return
        button = self.chars.get(ch.lower())
        if button is None:
            return
        hold = ch != ch.lower()
        self._presses.press(button, self.hold_seconds + 0.2 if hold else 0.08)
