"""What each role's phone asks at its call (phones.py): one row a role, read
both for a player's own card and for the Doppelganger who copied it, so a
role's prompt is worded here and nowhere else.

A row's prompts go by the seat's step at the call: `own[0]` before its
first pick, `own[1]` (if the role picks again) after it. A copy acts inside
the Doppelganger's call, after her first pick copied the card: `copied[0]`
is her copy's first pick, `copied[1]` its second, asked only where the
first pick was of the kind `again_after` names (a center card: the Seer's
second center card, the Witch's swap; a player: the Troublemaker's second
player, the Paranormal Investigator's second look). A role without
`copied` does nothing at once as a copy: it wakes at its own call, or
not at all.

The calls whose words depend on the night (the werewolves, the Minion, the
Masons, the Aura Seer, the Insomniac) are worded in phones.py, where what
they are told is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_

CENTER_CARD = "center"          # `again_after`: the first pick was a center card
PLAYER_CARD = "player"          # ... another player's card


@dataclass(frozen=True)
class Prompt:
    """A role's asks at its call, for its own card and as a copy (N_() texts)."""
    own: tuple[str, ...]
    copied: tuple[str, ...] = ()
    again_after: str = ""


_WITCH_SWAP = N_("Now choose the player whose card you swap it with, your own included.")
_PI_SECOND = N_("As the Paranormal Investigator: choose a second player's card to look at.")

PROMPTS: dict[str, Prompt] = {
    "doppelganger": Prompt(
        (N_("You are the Doppelganger: choose the player whose card you copy."),)),
    "sentinel": Prompt(
        (N_("You are the Sentinel: choose another player's card to shield."),),
        (N_("As the Sentinel: choose another player's card to shield."),)),
    "alpha_wolf": Prompt(
        (N_("You are the Alpha Wolf: choose a player who is not a werewolf; they get the "
            "center werewolf card."),),
        (N_("As the Alpha Wolf: choose a player who is not a werewolf; they get the center "
            "werewolf card. You wake with the werewolves."),)),
    "mystic_wolf": Prompt(
        (N_("You are the Mystic Wolf: choose another player's card to look at."),),
        (N_("As the Mystic Wolf: choose another player's card to look at. You wake with the "
            "werewolves."),)),
    "seer": Prompt(
        (N_("You are the Seer: choose another player's card to look at, or two center "
            "cards."),),
        (N_("As the Seer: choose another player's card to look at, or a center card and then "
            "a second one."),
         N_("As the Seer: choose a second center card to look at.")),
        again_after=CENTER_CARD),
    "apprentice_seer": Prompt(
        (N_("You are the Apprentice Seer: choose a center card to look at."),),
        (N_("As the Apprentice Seer: choose a center card to look at."),)),
    "paranormal_investigator": Prompt(
        (N_("You are the Paranormal Investigator: choose another player's card to look at; "
            "then you may look at a second one."), _PI_SECOND),
        (N_("As the Paranormal Investigator: choose another player's card to look at; then "
            "you may look at a second one."), _PI_SECOND),
        again_after=PLAYER_CARD),
    "robber": Prompt(
        (N_("You are the Robber: choose the player whose card you take; you will see it."),),
        (N_("As the Robber: choose the player whose card you take; you will see it."),)),
    "witch": Prompt(
        (N_("You are the Witch: choose a center card to look at; then you must swap it with "
            "a player's card."), _WITCH_SWAP),
        (N_("As the Witch: choose a center card to look at; then you must swap it with a "
            "player's card."), _WITCH_SWAP),
        again_after=CENTER_CARD),
    "troublemaker": Prompt(
        (N_("You are the Troublemaker: choose two other players whose cards you swap."),),
        (N_("As the Troublemaker: choose the first of two other players whose cards you "
            "swap."),
         N_("As the Troublemaker: choose the second player.")),
        again_after=PLAYER_CARD),
    "village_idiot": Prompt(
        (N_("You are the Village Idiot: choose which way every other player's card moves "
            "one seat (shielded cards stay)."),),
        (N_("As the Village Idiot: choose which way every other player's card moves one "
            "seat (shielded cards stay)."),)),
    "drunk": Prompt(
        (N_("You are the Drunk: choose the center card you take, without looking."),),
        (N_("As the Drunk: choose the center card you take, without looking."),)),
    "revealer": Prompt(
        (N_("You are the Revealer: choose another player's card to turn face up."),)),
    "curator": Prompt(
        (N_("You are the Curator: choose any player's card, your own included, to put an "
            "artifact token on it, face down."),)),
}
