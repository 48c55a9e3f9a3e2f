"""What comes into a game mode besides the time: buttons and speech ends.

Shared by every mode (and the narrator, which reports the end of a line),
so no mode imports another to speak the same language.
"""

from __future__ import annotations

from dataclasses import dataclass

from .buttons import Hold, Release, Tap


@dataclass(frozen=True)
class SpeechDone:
    """The narrator finished (or gave up on) the line with this token."""
    token: int


@dataclass(frozen=True)
class PhoneChoice:
    """A seat's answer on its own phone to the task it was given (`step`
    names the task, so an answer to one that has passed changes nothing)."""
    seat: int
    step: str
    choice: tuple[int, ...]


@dataclass(frozen=True)
class PhonesSeated:
    """The seats that hold a phone now, and the names their players gave
    (public: the table sees who joined). A game that deals or asks on
    phones reads it; the others ignore it."""
    seats: frozenset[int]
    names: tuple[tuple[int, str], ...] = ()
    # A phone asking for a seat the box must accept (the Mayor's console):
    # (seat, the name it gave, the code its page shows), at most one a seat.
    asking: tuple[tuple[int, str, str], ...] = ()
    wrong: int = 0               # wrong PINs typed this game (someone may be guessing)

    def name(self, seat: int) -> str:
        return dict(self.names).get(seat, "")


PhoneEvent = PhoneChoice | PhonesSeated
Event = Tap | Hold | Release | SpeechDone | PhoneChoice | PhonesSeated
