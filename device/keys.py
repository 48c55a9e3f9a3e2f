"""Keyboard input: window keys and terminal keys, both as button edges.

Keys never act on the game directly: they drive the buttons' mock pins
(see wolfbox.hardware.buttons.ButtonBank.drive), exactly as an arcade
button would.
"""

from __future__ import annotations

import logging
import os
import select
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from wolfbox.buttons import Button
from wolfbox.errors import UserError

log = logging.getLogger("wolfbox.device")



class KeyNameError(UserError):
    pass


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
                raise KeyNameError(f"keys.{button.value}: unknown key name '{name}' "
                                "(use pygame key names such as space, return, a, right)") from None
            if code in codes and codes[code] is not button:
                raise KeyNameError(f"key '{name}' is given to both {codes[code].value} "
                                f"and {button.value}")
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

    def start(self) -> bool:
        try:
            fd = self.stream.fileno()  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):
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
        self.drive(button, True)
        release = threading.Timer(self.hold_seconds + 0.2 if hold else 0.08,
                                  self.drive, (button, False))
        release.daemon = True
        release.start()
