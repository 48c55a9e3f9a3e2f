"""What the box remembers between runs: the deck and player count chosen on
the start screen. Written atomically (temp file, fsync, rename), so pulling
the plug mid-write leaves the old state or the new one, never a broken file.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from wolfbox.audio.cache import write_atomic
from wolfbox.i18n import _
from wolfbox.jsontext import loads

log = logging.getLogger("wolfbox")
_warned: set[str] = set()       # each unreadable state said once a run

# The state is a deck and a count: a few hundred bytes. Anything far larger
# is not ours, and reading it whole could stall or exhaust a Pi Zero.
MAX_STATE_BYTES = 64 * 1024


def state_path() -> Path:
    if os.environ.get("STATE_DIRECTORY"):                 # systemd's StateDirectory=
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "state.json"
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "wolfbox" / "state.json"


@dataclass
class StateStore:
    path: Path

    def load(self) -> dict:
        """The saved state, or {} if there is none or it cannot be used.

        `--safe-config` promises a box that starts whatever is on the disk,
        so anything odd at this path (a FIFO that would block the open, a
        device, a huge file, JSON nested deep enough to exhaust the parser's
        recursion) is one warning and the defaults, never a hang or a crash.
        The same problem at the same path is warned of once a run.
        """
        try:
            data = loads(self._read().decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            # A command reads the state more than once (the language, the
            # deck, the settings): the table needs to hear of it once.
            warning = _("ignoring unreadable saved state {path} ({problem})").format(
                path=self.path, problem=e)
            if warning not in _warned:
                _warned.add(warning)
                log.warning("%s", warning)
            return {}
        return data if isinstance(data, dict) else {}

    def _read(self) -> bytes:
        # O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise OSError(_("not a regular file"))
            if info.st_size > MAX_STATE_BYTES:
                raise OSError(_("{size} bytes, more than saved state can be")
                              .format(size=info.st_size))
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(MAX_STATE_BYTES + 1)
        finally:
            os.close(fd)
        if len(data) > MAX_STATE_BYTES:          # it grew since fstat
            raise OSError(_("more than {limit} bytes").format(limit=MAX_STATE_BYTES))
        return data

    def save(self, data: dict) -> None:
        try:
            write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True).encode())
        except OSError as e:
            log.warning(_("cannot save the box's state to {path} ({problem})")
                        .format(path=self.path, problem=e))

    def remembered_deck(self) -> list[str] | None:
        deck = self.load().get("deck")
        if isinstance(deck, list) and all(isinstance(r, str) for r in deck) and deck:
            return deck
        return None
