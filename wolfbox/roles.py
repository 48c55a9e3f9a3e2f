"""The role catalogue: every card the box knows, in one place.

A role's team, how many copies exist, its printed wake number and its
default action time live here and nowhere else. What the narrator says when
a role wakes lives with the night order in wolfbox.night.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import StrEnum

from .errors import UserError


class Team(StrEnum):
    VILLAGE = "village"
    WEREWOLF = "werewolf"
    TANNER = "tanner"


class Box(StrEnum):
    BASE = "One Night Ultimate Werewolf"


@dataclass(frozen=True)
class Role:
    id: str
    name: str
    team: Team
    box: Box
    summary: str                 # what the card does, in a sentence of our own
    wake: str | None = None      # the wake number printed on the card; None: never wakes
    copies: int = 1              # physical cards in the box
    action_seconds: float = 10.0 # default time to act when called


ROLES: dict[str, Role] = {r.id: r for r in [
    Role("werewolf", "Werewolf", Team.WEREWOLF, Box.BASE,
         "Wakes with the other werewolves; a lone wolf may look at one center card.",
         wake="2", copies=2),
    Role("minion", "Minion", Team.WEREWOLF, Box.BASE,
         "Sees who the werewolves are; wins with them even if he dies.", wake="3"),
    Role("mason", "Mason", Team.VILLAGE, Box.BASE,
         "Wakes to see the other Mason.", wake="4", copies=2),
    Role("seer", "Seer", Team.VILLAGE, Box.BASE,
         "May look at another player's card or two center cards.", wake="5"),
    Role("robber", "Robber", Team.VILLAGE, Box.BASE,
         "May swap cards with another player and look at the new card.", wake="6"),
    Role("troublemaker", "Troublemaker", Team.VILLAGE, Box.BASE,
         "May swap two other players' cards without looking.", wake="7"),
    Role("drunk", "Drunk", Team.VILLAGE, Box.BASE,
         "Must swap his card with a center card without looking.", wake="8"),
    Role("insomniac", "Insomniac", Team.VILLAGE, Box.BASE,
         "Looks at her own card at the end of the night.", wake="9"),
    Role("villager", "Villager", Team.VILLAGE, Box.BASE,
         "No night action.", copies=3),
    Role("hunter", "Hunter", Team.VILLAGE, Box.BASE,
         "If he dies, the player he points at dies too."),
    Role("tanner", "Tanner", Team.TANNER, Box.BASE,
         "Wins only if he dies."),
]}


class UnknownRole(UserError):
    pass


def role(role_id: str) -> Role:
    """Look a role up by id, suggesting the nearest id on a typo."""
    try:
        return ROLES[role_id]
    except KeyError:
        near = difflib.get_close_matches(role_id, ROLES, n=1)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        raise UnknownRole(f"unknown role '{role_id}'{hint}; "
                          f"known roles: {', '.join(ROLES)}") from None
