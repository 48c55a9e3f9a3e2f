"""What the box remembers between runs: the deck and player count chosen on
the start screen, the settings made on the box, each game's last checkpoint
(device.saves). Written atomically (temp file, fsync, rename), so pulling
the plug mid-write leaves the old state or the new one, never a broken file.

Read back through a schema (`Remembered`): each part that is not what the
box writes is left out (one warning), so the rest still counts; each
setting's value is then checked like the config file's
(wolfbox.settings), and each game's state by the game (its `saved` module).
"""

from __future__ import annotations

import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import msgspec

from wolfbox.audio.cache import write_atomic
from wolfbox.i18n import _
from wolfbox.jsontext import loads

log = logging.getLogger("wolfbox")
_warned: set[str] = set()       # each unreadable state said once a run

# The state is a deck and a count: a few hundred bytes. Anything far larger
# is not ours, and reading it whole could stall or exhaust a Pi Zero.
MAX_STATE_BYTES = 64 * 1024


class Remembered(msgspec.Struct):
    """state.json as the box writes it, a part at a time (see `load`)."""
    deck: list[str]                                          # One Night's deck
    players: Annotated[int, msgspec.Meta(ge=1, le=99)]       # ... and its players
    settings: dict[str, bool | int | float | str]            # by config key
    games: dict[str, dict[str, Any]]                         # by mode (device.saves)
    game: dict[str, Any]                                     # an older box's one game


PARTS: dict[str, Any] = {f.name: f.type for f in msgspec.structs.fields(Remembered)}


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
            self._warn(e)
            return {}
        if not isinstance(data, dict):
            self._warn(_("not a JSON object"))
            return {}
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key not in PARTS:
                continue                         # not ours: never trusted, not kept
            try:
                out[key] = msgspec.convert(value, PARTS[key])
            except msgspec.ValidationError as e:
                self._warn(f"{key}: {e}")
        return out

    def _warn(self, problem: object) -> None:
        # A command reads the state more than once (the language, the
        # deck, the settings): the table needs to hear of it once.
        warning = _("ignoring unreadable saved state {path} ({problem})").format(
            path=self.path, problem=problem)
        if warning not in _warned:
            _warned.add(warning)
            log.warning("%s", warning)

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

    def save(self, data: dict) -> OSError | None:
        """Write `data`; the problem if it could not be (a read-only or full
        state directory), logged here, for the caller to tell the table."""
        try:
            write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True).encode())
        except OSError as e:
            log.warning(_("cannot save the box's state to {path} ({problem})")
                        .format(path=self.path, problem=e))
            return e
        return None

    def remembered_deck(self) -> list[str] | None:
        deck = self.load().get("deck")
        if isinstance(deck, list) and all(isinstance(r, str) for r in deck) and deck:
            return deck
        return None
