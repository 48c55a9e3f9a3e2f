"""The games saved in the box's state, one slot a game.

state.json keeps each game's last checkpoint under "games", by the game's
mode name: the timed game's checkpoints never overwrite a Mayor's game left
for it, and each is offered when the table switches to its game. A box
from before kept one game under "game" ({"mode": ..., "state": ...}); it is
moved into its own slot when the state is read.

A saved game the game itself refuses (`from_dict` raises ValueError: see
wolfbox.darkarts.saved, wolfbox.newd3.saved and wolfbox.onenight.saved) is
forgotten, and the table is told once on the screen; a new game starts. So
is every saved game of a state.json the box could not trust (no JSON, a
checksum missing or wrong: device.state), without a crash at the start or
at the next.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wolfbox.i18n import _

from . import notices

log = logging.getLogger("wolfbox")

GAMES = "games"          # state.json: {mode: the game's last checkpoint}
LEGACY = "game"          # an older box's single slot: {"mode": ..., "state": ...}


def slots(memory: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The saved games in `memory` by mode, made so in place: anything in
    their place that is not a game's state is dropped, and an older box's
    single game moves into its own slot."""
    found = memory.get(GAMES)
    games = {str(m): s for m, s in found.items() if isinstance(s, dict)} \
        if isinstance(found, dict) else {}
    legacy = memory.pop(LEGACY, None)
    if isinstance(legacy, dict) and isinstance(legacy.get("mode"), str) \
            and isinstance(legacy.get("state"), dict):
        games.setdefault(legacy["mode"], legacy["state"])
    memory[GAMES] = games
    return games


@dataclass
class Saves:
    """The box's memory of saved games, and what to do when one cannot be
    resumed: `persist` writes the memory out, `notice` shows a line on the
    start screen."""
    memory: dict[str, Any]
    persist: Callable[[], None] = lambda: None
    notice: Callable[[str], None] = lambda text: None
    unreadable: str | None = None      # why state.json's saved games were not read
    _told: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        slots(self.memory)
        if self.unreadable is not None:
            # The file is written anew (sealed, without what could not be
            # read), so the next start does not meet it again.
            self._forget(self.unreadable)
            self.persist()

    def saved(self, mode: str) -> dict[str, Any] | None:
        """The state saved for the game `mode`, if any."""
        return slots(self.memory).get(mode)

    def keep(self, mode: str, state: dict[str, Any] | None) -> None:
        """A game's checkpoint: kept in its slot, or (none, or a game over)
        its slot emptied. The caller persists."""
        games = slots(self.memory)
        if state and state.get("stage") != "end":
            games[mode] = state
        else:
            games.pop(mode, None)

    def refused(self, mode: str, problem: Exception) -> None:
        """The game `mode` cannot resume its saved state: the detail in the
        log, one line on the screen (once a run), the state forgotten and
        the memory written, so the next start does not meet it again."""
        slots(self.memory).pop(mode, None)
        self._forget(problem)
        self.persist()

    def _forget(self, problem: object) -> None:
        log.warning(_("the saved game cannot be resumed ({problem}): a new one starts")
                    .format(problem=problem))
        if not self._told:
            self._told = True
            self.notice(_(notices.CANNOT_RESUME))
