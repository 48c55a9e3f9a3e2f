"""A game's checkpoints: what it hands the box to save, and the question it
asks after a power cut.

A game of many nights saves itself at the start of each phase (a
`Checkpoint` effect; the device writes it to disk). Restored, it does not
jump back into the phase: it shows where it would resume and waits for the
table to say yes, so nobody is surprised by a voice in the middle of a
night. Both halves are the same in every game; what a checkpoint holds,
and how a phase begins again, are the game's own.

A saved game comes back from a file that anything may have touched: an
old box, a hand edit, a bad SD card. Each game's `saved.read` turns it
into typed values (msgspec: types and ranges) and then checks what the
rules make true of every checkpoint the game takes, so a game resumed from
it can neither crash nor announce what did not happen. Anything else is
`CannotResume`, naming the first problem: the box starts a new game.
Before any of that the box checks the file as a whole (device.state: a
SHA-256 written with it), so a checkpoint that would pass these checks
but is not the one written (a flipped bit, a value dropped) is refused too.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..effects import Checkpoint
from ..errors import CannotResume as CannotResume

Stage = TypeVar("Stage")


class Restorable(Protocol[Stage]):
    """A game as `restore` sees it: its stage and its checkpoints."""
    stage: Stage
    saves: Checkpoints[Stage]

    def checkpoint_state(self) -> dict[str, Any]: ...


def restore(game: Restorable[Stage], saved: Stage, asking: Stage) -> None:
    """`game`, rebuilt from a checkpoint of its `saved` phase, takes that
    checkpoint again (as it was saved, in its own words) and waits at its
    `asking` stage for the table to resume."""
    game.stage = saved
    game.saves.ask(saved, game.checkpoint_state())
    game.stage = asking


@dataclass
class Checkpoints(Generic[Stage]):
    """The last checkpoint taken, and the phase a restored game resumes."""
    mode: str
    state: dict[str, Any] | None = None
    resume_to: Stage | None = None

    def take(self, state: dict[str, Any]) -> Checkpoint:
        """Keep `state` as the game's checkpoint, and hand it to the box."""
        self.state = state
        return Checkpoint(self.mode, state)       # read-only: `saved` hands out copies

    def again(self) -> list[Checkpoint]:
        """The checkpoint kept, handed out again (after an undo)."""
        return [] if self.state is None else [Checkpoint(self.mode, self.state)]

    def forget(self) -> Checkpoint:
        """Nothing to resume (a game ended early): the box's save is emptied."""
        self.state = None
        return Checkpoint(self.mode, {})

    def saved(self) -> dict[str, Any] | None:
        """A copy of the checkpoint kept, or None if none was taken."""
        return None if self.state is None else copy.deepcopy(self.state)

    def ask(self, stage: Stage, state: dict[str, Any]) -> None:
        """A restored game: `state` is its checkpoint as it was saved (in the
        game's own words), and `stage` the phase it resumes when told to."""
        self.state, self.resume_to = state, stage

    def resume(self) -> Stage:
        """The phase to begin again: the table said yes."""
        to = self.resume_to
        assert to is not None, "no saved game to resume"
        self.resume_to = None
        return to
