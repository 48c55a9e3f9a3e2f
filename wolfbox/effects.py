"""What the game flow asks the outside world to do.

The flow returns these; adapters (narrator, screen, LEDs) carry them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Cue(StrEnum):
    """Short sounds generated in code (see wolfbox.audio.cues)."""
    CHIME = "chime"        # a phase begins
    TICK = "tick"          # each of the last ten seconds of discussion
    VOTE = "vote"          # "vote!"
    TIME_UP = "time_up"    # the discussion timer ran out
    ABANDON = "abandon"    # the round was abandoned


@dataclass(frozen=True)
class Say:
    """Speak a line. `token` comes back in SpeechDone so stale ends are ignored."""
    text: str
    token: int


@dataclass(frozen=True)
class PlayCue:
    cue: Cue


@dataclass(frozen=True)
class StopSpeech:
    pass


@dataclass(frozen=True)
class PauseAudio:
    pass


@dataclass(frozen=True)
class ResumeAudio:
    pass


@dataclass(frozen=True)
class Ambience:
    """Night ambience on or off: a quiet bed of sound that masks moving cards."""
    on: bool


@dataclass(frozen=True)
class FreeSeat:
    """The table gives a seat back from the box's phones screen: its phone
    returns to the list of seats (the phones' adapter carries it out)."""
    seat: int


@dataclass(frozen=True)
class AnswerSeat:
    """The table accepts (or refuses) the phone asking for a seat the box
    guards (the Mayor's console): the phones' adapter carries it out."""
    seat: int
    code: str
    accept: bool


@dataclass(frozen=True)
class Shutdown:
    """The power button was held: end the box (and, on the Pi, power off)."""


@dataclass(frozen=True)
class Warm:
    """The lines a round with the newly chosen deck will say, in order:
    render whatever of them is not cached yet."""
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Remember:
    """The table chose a deck on the box: keep it for the next start."""
    deck: tuple[str, ...]
    players: int


@dataclass(frozen=True)
class ChangeSetting:
    """A setting changed on the box's settings screen: apply it now (volume,
    speech speed, brightness...) and remember it across restarts. `value`
    is what the config file would hold for `key` (a dotted config key)."""
    key: str
    value: object


@dataclass(frozen=True)
class Checkpoint:
    """Save this game state (JSON-safe, read-only): the start of the current
    phase, from which a game resumes after a power cut. An empty state: the
    game is over, forget it."""
    mode: str
    state: dict


Effect = (Say | PlayCue | StopSpeech | PauseAudio | ResumeAudio | Warm | Ambience
          | Shutdown | Remember | ChangeSetting | Checkpoint | FreeSeat
          | AnswerSeat)
