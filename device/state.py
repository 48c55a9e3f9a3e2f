"""What the box remembers between runs: the deck and player count chosen on
the start screen, the settings made on the box, each game's last checkpoint
(device.saves). Written atomically (temp file, fsync, rename), so pulling
the plug mid-write leaves the old state or the new one, never a broken file.

Written with a checksum (`SEAL`: the SHA-256 of the state's canonical JSON)
and checked on load: a saved game is resumed without the table seeing it,
so a file the box did not write as it is (a bad SD card's flipped bit, a
truncated or NUL-padded file, a hand edit) must not resume one. A state
that fails the check keeps its settings and its deck (each checked by
value, and on the screen for the table to see) but loses its saved games;
a state with no checksum (a box from before it had one) is treated alike,
since a flipped bit in the checksum's own key must not make a save pass
unchecked. `unreadable` then says why, for the start screen
(device.saves).

Read back through a schema (`Remembered`): each part that is not what the
box writes is left out (one warning), so the rest still counts; each
setting's value is then checked like the config file's
(wolfbox.settings), and each game's state by the game (its `saved` module).
"""

from __future__ import annotations

import hashlib
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

# The state is a deck, the settings and each game's last checkpoint: at most
# some 30 KB (One Night on phones with every card the game has, every answer
# of its night: tests/test_saved_onenight.py). Anything far larger is not
# ours, and reading it whole could stall or exhaust a Pi Zero.
MAX_STATE_BYTES = 64 * 1024


class Remembered(msgspec.Struct):
    """state.json as the box writes it, a part at a time (see `load`)."""
    deck: list[str]                                          # One Night's deck
    players: Annotated[int, msgspec.Meta(ge=1, le=99)]       # ... and its players
    settings: dict[str, bool | int | float | str]            # by config key
    games: dict[str, dict[str, Any]]                         # by mode (device.saves)
    game: dict[str, Any]                                     # an older box's one game


PARTS: dict[str, Any] = {f.name: f.type for f in msgspec.structs.fields(Remembered)}
SEAL = "sha256"          # state.json: the checksum of everything else in it
GAME_PARTS = ("games", "game")      # what a broken seal costs: the saved games


def seal(data: dict[str, Any]) -> str:
    """The checksum of `data` (without any seal of its own): the SHA-256 of
    its canonical JSON (keys sorted, no spaces, UTF-8), as written and as
    read back, so reading it from the file gives what writing it gave."""
    body = {k: v for k, v in data.items() if k != SEAL}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_path() -> Path:
    if os.environ.get("STATE_DIRECTORY"):                 # systemd's StateDirectory=
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "state.json"
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "wolfbox" / "state.json"


@dataclass
class StateStore:
    path: Path
    # Why the last load could not trust the file's saved games (a file that
    # is no JSON, or whose checksum is missing or wrong), or None.
    unreadable: str | None = None

    def load(self) -> dict:
        """The saved state, or {} if there is none or it cannot be used.

        `--safe-config` promises a box that starts whatever is on the disk,
        so anything odd at this path (a FIFO that would block the open, a
        device, a huge file, JSON nested deep enough to exhaust the parser's
        recursion) is one warning and the defaults, never a hang or a crash.
        The same problem at the same path is warned of once a run.

        What is read but cannot be trusted (no JSON, a checksum missing or
        wrong) is also kept in `unreadable`, for the start screen.
        """
        self.unreadable = None
        try:
            raw = self._read()
        except FileNotFoundError:
            return {}
        except OSError as e:
            self._warn(e)
            return {}
        return self.decode(raw)

    def decode(self, raw: bytes) -> dict:
        """The state in `raw` (the file's bytes), as `load` reads it."""
        self.unreadable = None
        try:
            data = loads(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            return self._garbled(_("not UTF-8 ({problem})").format(problem=e))
        except ValueError as e:
            return self._garbled(str(e))
        if not isinstance(data, dict):
            return self._garbled(_("not a JSON object"))
        checked = self._checked(data)
        if checked is not None:
            self.unreadable = checked
            self._warn(checked)
            for part in GAME_PARTS:
                data.pop(part, None)
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key not in PARTS:
                continue                         # not ours: never trusted, not kept
            try:
                out[key] = msgspec.convert(value, PARTS[key])
            except msgspec.ValidationError as e:
                self._warn(f"{key}: {e}")
        return out

    def _garbled(self, problem: str) -> dict:
        self.unreadable = problem
        self._warn(problem)
        return {}

    @staticmethod
    def _checked(data: dict[str, Any]) -> str | None:
        """Why the saved games in `data` cannot be trusted, or None. A
        checksum is checked wherever there is one (a flipped bit in the
        games' own key must not make them vanish unsaid); without one, only
        saved games are refused: a file written by hand with a deck alone
        stays good (the settings are checked by value)."""
        given = data.pop(SEAL, None)
        if given is None:
            return _("no checksum") if any(part in data for part in GAME_PARTS) else None
        try:
            if given != seal(data):
                return _("the checksum does not match")
        except ValueError as e:              # NaN or Infinity: never written by the box
            return str(e)
        return None

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
            body = json.loads(json.dumps({k: v for k, v in data.items() if k != SEAL}))
            # Compact: One Night on phones keeps every answer of a night,
            # and the largest table's must stay far below MAX_STATE_BYTES.
            write_atomic(self.path, json.dumps({**body, SEAL: seal(body)}, sort_keys=True,
                                               separators=(",", ":")).encode())
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
