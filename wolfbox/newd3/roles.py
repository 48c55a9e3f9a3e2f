"""The ten roles of 004's nine-player game: ids, teams, names, night abilities.

The ids are the ones the JSON interface (issue 12) uses, so a role id read
from a file is looked up here unchanged. 004 puts the Alchemist and the
Track Reader on the Wolves' side: for the win check and the Seer they are
Wolves, and each still has a night ability of its own besides the kill.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..i18n import N_, _


class Team(StrEnum):
    """The two sides of 004; every role is on exactly one."""
    TOWN = "town"
    WOLVES = "wolves"


class Ability(StrEnum):
    """What a role's one targeted night action does, named as issue 12 does.

    The Wolves' kill is not among these: it belongs to the pack, not to one
    role, and resolve() takes it separately (a target and a knife)."""
    BLOCK = "block"        # Alchemist: the target's action fails
    JAIL = "jail"          # Chef: blocks the target and shields it from the kill
    PROTECT = "protect"    # Guard: shields the target from the kill
    INSPECT = "inspect"    # Seer: Wolf or not
    READ = "read"          # Track Reader: the exact role, or "vanilla"
    MILK = "milk"          # Dairy Maid: the target learns she is Town
    WATCH = "watch"        # Priest: whom the target visited


WOLF, ALCHEMIST, TRACK_READER = "wolf", "alchemist", "track_reader"
SEER, GUARD, CHEF, DAIRY_MAID = "seer", "guard", "chef", "dairy_maid"
PRIEST, NOBLE, SHEEP = "priest", "noble", "sheep"


@dataclass(frozen=True)
class Role:
    id: str
    name: str                   # English, marked N_(); shown through role_name()
    team: Team
    ability: Ability | None     # its targeted night action, if it has one


ROLES: dict[str, Role] = {r.id: r for r in (
    Role(WOLF, N_("Wolf"), Team.WOLVES, None),
    Role(ALCHEMIST, N_("Alchemist"), Team.WOLVES, Ability.BLOCK),
    Role(TRACK_READER, N_("Track Reader"), Team.WOLVES, Ability.READ),
    Role(SEER, N_("Seer"), Team.TOWN, Ability.INSPECT),
    Role(GUARD, N_("Guard"), Team.TOWN, Ability.PROTECT),
    Role(CHEF, N_("Chef"), Team.TOWN, Ability.JAIL),
    Role(DAIRY_MAID, N_("Dairy Maid"), Team.TOWN, Ability.MILK),
    Role(PRIEST, N_("Priest"), Team.TOWN, Ability.WATCH),
    Role(NOBLE, N_("Noble"), Team.TOWN, None),      # 004: Nobles only know each other
    Role(SHEEP, N_("Sheep"), Team.TOWN, None),
)}

# The roles whose result resolve() reports, in 004's order of results.
INFORMATION = (SEER, TRACK_READER, DAIRY_MAID, PRIEST)


def role_name(role_id: str) -> str:
    """The role's name in the box's language (KeyError for an unknown id)."""
    return _(ROLES[role_id].name)


def team_of(role_id: str) -> Team:
    return ROLES[role_id].team


def is_wolf_team(role_id: str) -> bool:
    """On the Wolves' side: the Wolf, the Alchemist and the Track Reader (004)."""
    return ROLES[role_id].team is Team.WOLVES


def ability_of(role_id: str) -> Ability | None:
    """The role's targeted night ability, or None when it has none to aim."""
    return ROLES[role_id].ability
