"""The seat ring: seats 1..N clockwise around the table, seat 1 facing the
screen; each seat alive or dead, and a dead seat's role as revealed.

The box never knows a living player's role: only the dead are turned up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_PLAYERS = 5
MAX_PLAYERS = 20
DEFAULT_PLAYERS = 7       # a new setup, and the sheet without --players


@dataclass
class Ring:
    players: int
    dead: dict[int, str] = field(default_factory=dict)   # seat -> role turned up

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"{self.players} players: the game takes "
                             f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        for seat in self.dead:
            self._check(seat)

    def _check(self, seat: int) -> None:
        if not 1 <= seat <= self.players:
            raise ValueError(f"no seat {seat} at a table of {self.players}")

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    def alive(self, seat: int) -> bool:
        self._check(seat)
        return seat not in self.dead

    def living(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.dead)

    def kill(self, seat: int, role: str) -> None:
        if not self.alive(seat):
            raise ValueError(f"seat {seat} is already dead")
        self.dead[seat] = role

    def next_living(self, seat: int, step: int = +1) -> int | None:
        """The next living seat clockwise from `seat` (step -1: anticlockwise),
        not `seat` itself; None if nobody else lives."""
        self._check(seat)
        for k in range(1, self.players):
            other = (seat - 1 + step * k) % self.players + 1
            if other not in self.dead:
                return other
        return None
