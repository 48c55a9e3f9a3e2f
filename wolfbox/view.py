"""What the screen shows, as plain data.

The flow computes a View; the pygame screen and the terminal both draw it.
Equal views draw the same, so the loop redraws only when the view changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .buttons import Button


class Phase(StrEnum):
    IDLE = "idle"
    NIGHT = "night"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVEAL = "reveal"


@dataclass(frozen=True)
class View:
    phase: Phase
    title: str
    big: str = ""                      # the large timer or countdown figure
    progress: float | None = None      # 1.0 full .. 0.0 empty; None hides the bar
    caption: str = ""                  # the line being spoken
    details: tuple[str, ...] = ()      # deck on the start screen, rules on the reveal
    legend: tuple[tuple[Button, str], ...] = field(default_factory=tuple)
    paused: bool = False
    dim: bool = False                  # night: the screen goes near black
    hint: Button | None = None         # the button the table should press next
    status: str = ""                   # the box's own state on the start screen (voice)
    alert: str = ""                    # a passing word from the box, in any phase
    urgent: bool = False               # the last seconds: the timer itself turns red

    def label(self, button: Button) -> str:
        return dict(self.legend).get(button, "")
