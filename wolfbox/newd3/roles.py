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
    does: str = ""              # what the card's holder does, as the deal shows it (N_)


ROLES: dict[str, Role] = {r.id: r for r in (
    Role(WOLF, N_("Wolf"), Team.WOLVES, None,
         N_("Each night the Wolves choose a victim and which of them holds the knife.")),
    Role(ALCHEMIST, N_("Alchemist"), Team.WOLVES, Ability.BLOCK,
         N_("A Wolf who may hold the knife. Each night you block a seat: its action "
            "fails; blocking the knife stops the kill.")),
    Role(TRACK_READER, N_("Track Reader"), Team.WOLVES, Ability.READ,
         N_("A Wolf who may hold the knife. Each night you learn a seat's role; Wolves "
            "and Sheep read as vanilla.")),
    Role(SEER, N_("Seer"), Team.TOWN, Ability.INSPECT,
         N_("Each night you learn whether a seat is on the Wolves' side.")),
    Role(GUARD, N_("Guard"), Team.TOWN, Ability.PROTECT,
         N_("Each night you protect another seat from the kill.")),
    Role(CHEF, N_("Chef"), Team.TOWN, Ability.JAIL,
         N_("Each night you jail a seat: it cannot act and cannot be killed.")),
    Role(DAIRY_MAID, N_("Dairy Maid"), Team.TOWN, Ability.MILK,
         N_("Each night you visit a seat, who learns that you are Town.")),
    Role(PRIEST, N_("Priest"), Team.TOWN, Ability.WATCH,
         N_("Each night you watch a seat and learn whom it visited.")),
    # 004: Nobles only know each other.
    Role(NOBLE, N_("Noble"), Team.TOWN, None,
         N_("The two Nobles know each other: you can trust your partner.")),
    Role(SHEEP, N_("Sheep"), Team.TOWN, None,
         N_("No power: find the Wolves and vote them out.")),
)}

# The roles whose result resolve() reports, in 004's order of results.
INFORMATION = (SEER, TRACK_READER, DAIRY_MAID, PRIEST)


def role_name(role_id: str) -> str:
    """The role's name in the box's language (KeyError for an unknown id)."""
    return _(ROLES[role_id].name)


def team_name(team: Team) -> str:
    """A team's name in the box's language."""
    return _(TEAM_NAMES[team])


TEAM_NAMES = {Team.TOWN: N_("Town"), Team.WOLVES: N_("Wolves")}


def team_of(role_id: str) -> Team:
    return ROLES[role_id].team


def is_wolf_team(role_id: str) -> bool:
    """On the Wolves' side: the Wolf, the Alchemist and the Track Reader (004)."""
    return ROLES[role_id].team is Team.WOLVES


def ability_of(role_id: str) -> Ability | None:
    """The role's targeted night ability, or None when it has none to aim."""
    return ROLES[role_id].ability
