"""The role catalogue: every card the box knows, in one place.

A role's team, how many copies exist, its printed wake number and its
default action time live here and nowhere else. What the narrator says when
a role wakes lives with the night order in wolfbox.onenight.night. Names and
summaries are English, marked with `N_()`; `role_name()` gives a name in the
box's language.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import StrEnum

from ..errors import UnknownRole as UnknownRole
from ..i18n import N_, _


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
    _r("sentinel", N_("Sentinel"), V, D,
       N_("May shield another player's card: nobody may look at it, move it or put an artifact "
          "on it."), wake="0"),
    _r("doppelganger", N_("Doppelganger"), Team.COPIED, B,
       N_("Looks at another player's card and becomes that role, acting at once or waking "
          "again with it."), wake="1", action_seconds=20.0),
    _r("werewolf", N_("Werewolf"), W, B,
       N_("Wakes with the other werewolves; with the lone-wolf option, a lone wolf may look at "
          "one center card."), wake="2", copies=2, wolf_card=True),
    _r("alpha_wolf", N_("Alpha Wolf"), W, D,
       N_("Wakes with the werewolves, then swaps the center werewolf card with a non-werewolf "
          "player's card."), wake="2-B", action_seconds=12.0),
    _r("mystic_wolf", N_("Mystic Wolf"), W, D,
       N_("Wakes with the werewolves, then may look at another player's card."), wake="2-C",
       wolf_card=True),
    _r("minion", N_("Minion"), W, B,
       N_("Sees who the werewolves are; wins with them even if he dies."), wake="3"),
    _r("mason", N_("Mason"), V, B,
       N_("Wakes to see the other Mason."), wake="4", copies=2),
    _r("seer", N_("Seer"), V, B,
       N_("May look at another player's card or two center cards."), wake="5"),
    _r("apprentice_seer", N_("Apprentice Seer"), V, D,
       N_("May look at one center card."), wake="5-B"),
    _r("paranormal_investigator", N_("Paranormal Investigator"), V, D,
       N_("May look at up to two players' cards; on seeing a werewolf or the Tanner, stops and "
          "becomes it."), wake="5-C", action_seconds=15.0),
    _r("robber", N_("Robber"), V, B,
       N_("May swap cards with another player and look at the new card."), wake="6"),
    _r("witch", N_("Witch"), V, D,
       N_("May look at a center card; if she does, must swap it with any player's card."),
       wake="6-B", action_seconds=15.0),
    _r("troublemaker", N_("Troublemaker"), V, B,
       N_("May swap two other players' cards without looking."), wake="7"),
    _r("village_idiot", N_("Village Idiot"), V, D,
       N_("May move every other player's card one place left or right."), wake="7-B",
       action_seconds=12.0),
    _r("aura_seer", N_("Aura Seer"), V, X,
       N_("Sees everyone who looked at or moved a card tonight."), wake="7-C"),
    _r("drunk", N_("Drunk"), V, B,
       N_("Must swap his card with a center card without looking."), wake="8"),
    _r("insomniac", N_("Insomniac"), V, B,
       N_("Looks at her own card at the end of the night."), wake="9"),
    _r("revealer", N_("Revealer"), V, D,
       N_("May turn another player's card face up; a werewolf or the Tanner goes back face "
          "down."), wake="10"),
    _r("curator", N_("Curator"), V, D,
       N_("May put a random face-down artifact on any player's card."), wake="11",
       action_seconds=12.0),
    _r("villager", N_("Villager"), V, B, N_("No night action."), copies=3),
    _r("hunter", N_("Hunter"), V, B, N_("If he dies, the player he points at dies too.")),
    _r("tanner", N_("Tanner"), Team.TANNER, B, N_("Wins only if he dies.")),
    _r("bodyguard", N_("Bodyguard"), V, D,
       N_("The player he points at in the vote cannot die.")),
    _r("dream_wolf", N_("Dream Wolf"), W, D,
       N_("A werewolf who sleeps: shows a thumb when the werewolves and the Minion wake."),
       wolf_card=True),
    _r("prince", N_("Prince"), V, X,
       N_("Cannot die by the vote; the next most-voted player dies instead (with two votes or "
          "more).")),
    _r("cursed", N_("Cursed"), V, X,
       N_("A villager, unless a werewolf votes for him: then he is a werewolf.")),
]}

WEREWOLF_CARDS = frozenset(r.id for r in ROLES.values() if r.wolf_card)
# The cards that are werewolves (000: "Werewolf" includes the Alpha Wolf, Mystic
# Wolf and Dream Wolf). The Minion is on their team but is not a werewolf.
WEREWOLVES = frozenset(r.id for r in ROLES.values()
                       if r.team is Team.WEREWOLF and r.id != "minion")


def role_name(role_id: str) -> str:
    """The name of the role with this id, in the box's language."""
    return _(ROLES[role_id].name)


def role(role_id: str) -> Role:
    """Look a role up by id, suggesting the nearest id on a typo."""
    try:
        return ROLES[role_id]
    except KeyError:
        near = difflib.get_close_matches(role_id, ROLES, n=1)
        known = ", ".join(ROLES)
        if near:
            raise UnknownRole(_("unknown role '{id}' (did you mean '{near}'?); known roles: "
                                "{known}").format(id=role_id, near=near[0], known=known)) \
                from None
        raise UnknownRole(_("unknown role '{id}'; known roles: {known}").format(
            id=role_id, known=known)) from None

