"""What the box remembers between runs: the deck and player count chosen on
the start screen. Written atomically (temp file, fsync, rename), so pulling
the plug mid-write leaves the old state or the new one, never a broken file.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from wolfbox.audio.cache import write_atomic

log = logging.getLogger("wolfbox")


def state_path() -> Path:
    if os.environ.get("STATE_DIRECTORY"):                 # systemd's StateDirectory=
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "state.json"
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "wolfbox" / "state.json"


@dataclass
class StateStore:
    path: Path

    def load(self) -> dict:
        """The saved state, or {} if there is none or it cannot be read."""
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            log.warning("ignoring unreadable saved state %s (%s)", self.path, e)
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, data: dict) -> None:
        try:
            write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True).encode())
        except OSError as e:
            log.warning("cannot save the box's state to %s (%s)", self.path, e)

    def remembered_deck(self) -> list[str] | None:
        deck = self.load().get("deck")
        if isinstance(deck, list) and all(isinstance(r, str) for r in deck) and deck:
            return deck
        return None
