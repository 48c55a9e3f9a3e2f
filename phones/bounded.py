"""The phones' log, bounded: every line a client can cause (a refused
origin, a flood, a malformed message, a wrong PIN) is said once, then at
most once a minute with a count.

Its own module because every other part of the server says its lines
through it (the gate before any request, the page, the seats, the
socket's messages) and it knows nothing of any of them: a flood on the
Wi-Fi may not fill the box's journal, whoever it reaches first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger("wolfbox.phones")

LOG_EVERY = 60.0                  # a line a client can cause is said at most this often


class Bounded:
    """Log lines a client can cause (a refused origin, a flood, a malformed
    message, a wrong PIN): the first of each kind is said at once, the
    next at most once in LOG_EVERY seconds, with how many came between.
    `counts` holds every one, said or not."""

    def __init__(self, clock: Callable[[], float], every: float = LOG_EVERY) -> None:
        self.clock, self.every = clock, every
        self.counts: dict[str, int] = {}
        self._said: dict[str, tuple[float, int]] = {}     # kind: (said when, count then)

    def say(self, kind: str, line: str, *args: object) -> None:
        now = self.clock()
        count = self.counts.get(kind, 0) + 1
        said = self._said.get(kind)
        if said is None or now - said[0] >= self.every:
            unsaid = count - (said[1] if said is not None else 0) - 1
            self._said[kind] = (now, count)
            if unsaid:
                log.warning("phones: " + line + " (and %d more like it since the last said)",
                            *args, unsaid)
            else:
                log.warning("phones: " + line, *args)
        self.counts[kind] = count            # counted once said: a reader then finds the line
