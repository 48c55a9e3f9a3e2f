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
    COPIED = "as copied"         # the Doppelganger joins the team of the card she copies


class Box(StrEnum):
    BASE = "base game"
    DAYBREAK = "Daybreak"
    BONUS = "Bonus pack"


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
    wolf_card: bool = False      # a werewolf card: may be the center werewolf card


def _r(*args, **kw) -> Role:
    return Role(*args, **kw)


B, D, X = Box.BASE, Box.DAYBREAK, Box.BONUS
V, W = Team.VILLAGE, Team.WEREWOLF

ROLES: dict[str, Role] = {r.id: r for r in [
    _r("sentinel", "Sentinel", V, D,
       "May shield another player's card: nobody may look at it, move it or put an artifact "
       "on it.", wake="0"),
    _r("doppelganger", "Doppelganger", Team.COPIED, B,
       "Looks at another player's card and becomes that role, acting at once or waking "
       "again with it.", wake="1", action_seconds=20.0),
    _r("werewolf", "Werewolf", W, B,
       "Wakes with the other werewolves; with the lone-wolf option, a lone wolf may look at "
       "one center card.", wake="2", copies=2, wolf_card=True),
    _r("alpha_wolf", "Alpha Wolf", W, D,
       "Wakes with the werewolves, then swaps the center werewolf card with a non-werewolf "
       "player's card.", wake="2-B", action_seconds=12.0),
    _r("mystic_wolf", "Mystic Wolf", W, D,
       "Wakes with the werewolves, then may look at another player's card.", wake="2-C",
       wolf_card=True),
    _r("minion", "Minion", W, B,
       "Sees who the werewolves are; wins with them even if he dies.", wake="3"),
    _r("mason", "Mason", V, B,
       "Wakes to see the other Mason.", wake="4", copies=2),
    _r("seer", "Seer", V, B,
       "May look at another player's card or two center cards.", wake="5"),
    _r("apprentice_seer", "Apprentice Seer", V, D,
       "May look at one center card.", wake="5-B"),
    _r("paranormal_investigator", "Paranormal Investigator", V, D,
       "May look at up to two players' cards; on seeing a werewolf or the Tanner, stops and "
       "becomes it.", wake="5-C", action_seconds=15.0),
    _r("robber", "Robber", V, B,
       "May swap cards with another player and look at the new card.", wake="6"),
    _r("witch", "Witch", V, D,
       "May look at a center card; if she does, must swap it with any player's card.",
       wake="6-B", action_seconds=15.0),
    _r("troublemaker", "Troublemaker", V, B,
       "May swap two other players' cards without looking.", wake="7"),
    _r("village_idiot", "Village Idiot", V, D,
       "May move every other player's card one place left or right.", wake="7-B",
       action_seconds=12.0),
    _r("aura_seer", "Aura Seer", V, X,
       "Sees everyone who looked at or moved a card tonight.", wake="7-C"),
    _r("drunk", "Drunk", V, B,
       "Must swap his card with a center card without looking.", wake="8"),
    _r("insomniac", "Insomniac", V, B,
       "Looks at her own card at the end of the night.", wake="9"),
    _r("revealer", "Revealer", V, D,
       "May turn another player's card face up; a werewolf or the Tanner goes back face "
       "down.", wake="10"),
    _r("curator", "Curator", V, D,
       "May put a random face-down artifact on any player's card.", wake="11",
       action_seconds=12.0),
    _r("villager", "Villager", V, B, "No night action.", copies=3),
    _r("hunter", "Hunter", V, B, "If he dies, the player he points at dies too."),
    _r("tanner", "Tanner", Team.TANNER, B, "Wins only if he dies."),
    _r("bodyguard", "Bodyguard", V, D,
       "The player he points at in the vote cannot die."),
    _r("dream_wolf", "Dream Wolf", W, D,
       "A werewolf who sleeps: shows a thumb when the werewolves and the Minion wake.",
       wolf_card=True),
    _r("prince", "Prince", V, X,
       "Cannot die by the vote; the next most-voted player dies instead (with two votes or "
       "more)."),
    _r("cursed", "Cursed", V, X,
       "A villager, unless a werewolf votes for him: then he is a werewolf."),
]}

WEREWOLF_CARDS = frozenset(r.id for r in ROLES.values() if r.wolf_card)


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

