"""Stopping the box on a signal, from the first instruction to the last.

`install()` runs before anything slow is imported. Until the box's loop is
running, SIGTERM, SIGHUP and SIGINT raise `Stopped`, which unwinds
start-up through its `finally` blocks (no renderer or pins are left
behind). While the loop runs they ask it to stop, and the loop ends at its
next wake-up and closes everything in order. While closing, further
signals are ignored: a second SIGTERM must not cut a save or leave the
terminal in cbreak mode. SDL is told not to install handlers of its own,
which would swallow SIGTERM into an event queue nobody reads yet.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Stopped(BaseException):
    """A stop signal arrived before the loop was running.

    A BaseException, like KeyboardInterrupt, so no `except Exception` in
    start-up code catches it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """0 for a requested stop (SIGTERM, SIGHUP), 130 for Ctrl-C."""
        return 130 if self.signum == signal.SIGINT else 0


_on_stop: Callable[[int], None] | None = None


def _handler(signum: int, frame: FrameType | None) -> None:
    if _on_stop is None:
        raise Stopped(signum)
    _on_stop(signum)


def _ignore(signum: int) -> None:
    pass


def install() -> None:
    """Take the stop signals; call before importing pygame or building anything."""
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    for sig in STOP_SIGNALS:
        signal.signal(sig, _handler)


@contextmanager
def running(stop: Callable[[], None]) -> Iterator[None]:
    """While inside, a stop signal calls `stop()` (the loop's own stop, safe
    from a handler); afterwards, signals are ignored until the process exits."""
    global _on_stop
    _on_stop = lambda signum: stop()       # noqa: E731
    try:
        yield
    finally:
        _on_stop = _ignore                 # closing: let it finish
