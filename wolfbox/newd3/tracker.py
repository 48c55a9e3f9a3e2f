"""Which of the nine setups are still possible, from public facts alone.

004 notes that what gets revealed narrows the setup down ("a dead Alchemist
means A1, A2 or A3"). At a table the only facts nobody can lie about are
the roles of the dead, since every death reveals the role (004). A setup
stays possible while it holds at least as many copies of each revealed
role as have turned up dead: two dead Nobles fit A3 and C3, two dead plain
Wolves only the C setups. Claims are left out on purpose: a living
player's claim may be a lie, and the box shows only what is certain.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .roles import ROLES
from .setups import PLAYERS, SETUPS


def possible_setups(revealed: Mapping[int, str]) -> list[str]:
    """The setups, in 004's order A1..C3, that could hold the revealed dead
    (seat -> role id). ValueError for a seat or a role id that does not exist."""
    for seat, role in revealed.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= PLAYERS:
            raise ValueError(f"seat {seat!r} is not a seat: seats are 1 to {PLAYERS}")
        if role not in ROLES:
            raise ValueError(f"seat {seat}: {role!r} is not a NewD3 role id")
    dead = Counter(revealed.values())
    return [name for name, roles in SETUPS.items() if not dead - Counter(roles)]
