"""The roles this mode offers: those 003 gives rules for (Werewolf,
Villager, Hunter, Matchmaker) and the optional extra roles of 004.

A role's team is what the win check needs. 004 puts the Alchemist and
the Track Reader with the Wolves: they count as werewolves here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, _

VILLAGE, WEREWOLVES = "village", "werewolves"

WEREWOLF, VILLAGER, HUNTER, MATCHMAKER = "werewolf", "villager", "hunter", "matchmaker"
SEER, GUARD, CHEF, DAIRY_MAID = "seer", "guard", "chef", "dairy_maid"
PRIEST, NOBLE, ALCHEMIST, TRACK_READER = "priest", "noble", "alchemist", "track_reader"


@dataclass(frozen=True)
class Role:
    id: str
    name: str            # English, marked N_(); shown through role_name()
    team: str
    most: int            # copies a setup may hold (0: no limit but the table)


ROLES: dict[str, Role] = {r.id: r for r in (
    Role(WEREWOLF, N_("Werewolf"), WEREWOLVES, 0),
    Role(VILLAGER, N_("Villager"), VILLAGE, 0),
    Role(HUNTER, N_("Hunter"), VILLAGE, 1),
    Role(MATCHMAKER, N_("Matchmaker"), VILLAGE, 1),
    Role(SEER, N_("Seer"), VILLAGE, 1),
    Role(GUARD, N_("Guard"), VILLAGE, 1),
    Role(CHEF, N_("Chef"), VILLAGE, 1),
    Role(DAIRY_MAID, N_("Dairy Maid"), VILLAGE, 1),
    Role(PRIEST, N_("Priest"), VILLAGE, 1),
    Role(NOBLE, N_("Noble"), VILLAGE, 2),          # 004: Nobles come in twos
    Role(ALCHEMIST, N_("Alchemist"), WEREWOLVES, 1),
    Role(TRACK_READER, N_("Track Reader"), WEREWOLVES, 1),
)}

# The roles a setup chooses, in the order the setup screen offers them;
# the Villagers fill the seats left.
CHOSEN = (WEREWOLF, HUNTER, MATCHMAKER, SEER, GUARD, CHEF, DAIRY_MAID, PRIEST, NOBLE,
          ALCHEMIST, TRACK_READER)


def role_name(role_id: str) -> str:
    """The role's name in the box's language."""
    return _(ROLES[role_id].name)


def is_werewolf(role_id: str) -> bool:
    return ROLES[role_id].team == WEREWOLVES
