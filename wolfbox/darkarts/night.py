"""The night calls of this mode, in their fixed order.

The order of CALLS *is* the night order: first those who act on other
players' actions (004's resolution order: the Alchemist's block, the Chef's
jail, the Guard's protection), then the werewolves' kill, then those who
learn something (Seer, Track Reader, Dairy Maid, Priest). The Matchmaker
(003) and the Nobles' meeting (004: Nobles know each other) come on the
first night only.

A role in play is called every night, with the same time, whether or not
its player still lives: a skipped call, or a shorter night, would tell the
table who died. Only the first night differs, and it differs for every table.

The texts are the box's own words, whole sentences a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..i18n import N_, _
from .roles import (
    ALCHEMIST,
    CHEF,
    DAIRY_MAID,
    GUARD,
    MATCHMAKER,
    NOBLE,
    PRIEST,
    SEER,
    TRACK_READER,
    WEREWOLF,
    is_werewolf,
)

CLOSE_EYES_ID, WAKE_UP_ID, LOVERS_ID = "close_eyes", "wake_up", "lovers"


@dataclass(frozen=True)
class Call:
    id: str
    role: str                 # the role in play that brings the call ("" : always)
    wake: str                 # English, N_(); said through _()
    sleep: str
    seconds: float            # the action time, at scale 1
    first_night_only: bool = False
    # Said instead of `wake` when a role on the werewolves' side that is not
    # a Werewolf card is dealt (004's Alchemist, Track Reader): it wakes with
    # the pack.
    pack: str = ""


CALLS = (
    Call(CLOSE_EYES_ID, "", N_("Night falls. Everyone, close your eyes."), "", 0.0),
    Call(MATCHMAKER, MATCHMAKER,
         N_("Matchmaker, open your eyes. Point at two players: they are the Lovers. "
            "If one of them dies, the other dies of a broken heart."),
         N_("Matchmaker, close your eyes."), 20.0, first_night_only=True),
    Call(LOVERS_ID, MATCHMAKER,
         N_("The Mayor will touch the two Lovers. Lovers, open your eyes and look at "
            "each other."),
         N_("Lovers, close your eyes."), 15.0, first_night_only=True),
    Call(NOBLE, NOBLE,
         N_("Nobles, open your eyes and look at each other."),
         N_("Nobles, close your eyes."), 10.0, first_night_only=True),
    Call(ALCHEMIST, ALCHEMIST,
         N_("Alchemist, open your eyes. Point at a player whose power fails tonight."),
         N_("Alchemist, close your eyes."), 15.0),
    Call(CHEF, CHEF,
         N_("Chef, open your eyes. Point at a player to lock in your kitchen tonight."),
         N_("Chef, close your eyes."), 15.0),
    Call(GUARD, GUARD,
         N_("Guard, open your eyes. Point at a player to protect tonight, not yourself."),
         N_("Guard, close your eyes."), 15.0),
    Call(WEREWOLF, WEREWOLF,
         N_("Werewolves, open your eyes. Agree in silence on your victim and point at "
            "them."),
         N_("Werewolves, close your eyes."), 30.0,
         pack=N_("Werewolves, and everyone on the werewolves' side, open your eyes. Agree "
                 "in silence on your victim and point at them.")),
    Call(SEER, SEER,
         N_("Seer, open your eyes. Point at a player: the Mayor shows you whether they "
            "are a werewolf."),
         N_("Seer, close your eyes."), 15.0),
    Call(TRACK_READER, TRACK_READER,
         N_("Track Reader, open your eyes. Point at a player: the Mayor shows you their "
            "role."),
         N_("Track Reader, close your eyes."), 15.0),
    Call(DAIRY_MAID, DAIRY_MAID,
         N_("Dairy Maid, open your eyes. Point at a player: the Mayor will tell them "
            "that you are with the village."),
         N_("Dairy Maid, close your eyes."), 15.0),
    Call(PRIEST, PRIEST,
         N_("Priest, open your eyes. Point at a player: the Mayor shows you whom they "
            "visited tonight."),
         N_("Priest, close your eyes."), 15.0),
    Call(WAKE_UP_ID, "",
         N_("Everyone, open your eyes. Stay silent until the Mayor has told you who "
            "died."), "", 0.0),
)


KNIFE = "knife"          # the note naming the werewolf who kills


@dataclass(frozen=True)
class Note:
    """A note for the Mayor, brought in by any of `roles` (and, where set,
    only with any of `with_any` dealt too). A note that speaks of another
    (`refers`, by its `id`) brings that one in with it: no note names
    something the sheet leaves unexplained."""
    roles: frozenset[str]
    text: str                           # English, N_(); shown through _()
    with_any: frozenset[str] = frozenset()
    id: str = ""
    refers: frozenset[str] = frozenset()


# What the Mayor needs to resolve a night with 004's roles (004's night
# resolution and its roles' notes).
_FROM_004 = frozenset({NOBLE, ALCHEMIST, CHEF, GUARD, SEER, TRACK_READER, DAIRY_MAID, PRIEST})
MAYOR_NOTES = (
    Note(_FROM_004, N_("Nobody may choose themselves; the werewolves may not choose one of "
                       "their own.")),
    Note(frozenset({ALCHEMIST}), N_("Alchemist: the chosen player's power fails tonight, "
                                    "and a blocked player learns nothing."),
         refers=frozenset({KNIFE})),
    Note(frozenset({CHEF}), N_("Chef: the guest in the kitchen is blocked and cannot be "
                               "killed tonight."), refers=frozenset({KNIFE})),
    Note(frozenset({GUARD}), N_("Guard: the protected player cannot be killed tonight.")),
    # 004: the pack names its victim and the one of them who kills (the knife).
    Note(frozenset(), N_("The knife: the werewolves also point at which of them does the "
                         "killing. The kill fails if that werewolf is blocked."), id=KNIFE),
    Note(frozenset({SEER}), N_("Seer: the Alchemist and the Track Reader show as werewolves."),
         with_any=frozenset({ALCHEMIST, TRACK_READER})),
    Note(frozenset({TRACK_READER}), N_("Track Reader: a Werewolf and a Villager both show as "
                                       "no special role.")),
    Note(frozenset({DAIRY_MAID}), N_("Dairy Maid: the Mayor tells the chosen player, by a "
                                     "touch, that the Dairy Maid is with the village.")),
    Note(frozenset({PRIEST}), N_("Priest: the player's real visit tonight; the werewolf "
                                 "with the knife visited the victim."),
         refers=frozenset({KNIFE})),
)


def mayor_notes(in_play: frozenset[str] | set[str]) -> tuple[str, ...]:
    """The notes that the roles in play bring in, with the notes those
    refer to, in MAYOR_NOTES order, translated."""
    dealt = set(in_play)
    brought = [n for n in MAYOR_NOTES
               if n.roles & dealt and (not n.with_any or n.with_any & dealt)]
    referred = {ref for n in brought for ref in n.refers}
    return tuple(_(n.text) for n in MAYOR_NOTES
                 if n in brought or (n.id and n.id in referred))


@dataclass(frozen=True)
class Step:
    """One call as said on a given night: `text`, then `seconds`, then `after`."""
    id: str
    text: str
    seconds: float
    after: str


def night_calls(in_play: frozenset[str] | set[str], night: int, scale: float = 1.0,
                seconds: Mapping[str, float] | None = None) -> tuple[Step, ...]:
    """The calls of night number `night` (1 is the first) for the roles in
    play, in CALLS order, translated. The same for any deaths so far."""
    if night < 1:
        raise ValueError(f"night {night}: nights count from 1")
    seconds = seconds or {}
    out = []
    for call in CALLS:
        if call.role and call.role not in in_play:
            continue
        if call.first_night_only and night > 1:
            continue
        wait = seconds.get(call.id, call.seconds) * scale
        allies = any(is_werewolf(r) and r != WEREWOLF for r in in_play)
        wake = call.pack if call.pack and allies else call.wake
        out.append(Step(call.id, _(wake), wait, _(call.sleep)))
    return tuple(out)


def call_title(call_id: str) -> str:
    """The night screen's title for a call."""
    titles = {CLOSE_EYES_ID: N_("Eyes closed"), WAKE_UP_ID: N_("Dawn"),
              LOVERS_ID: N_("Lovers"), MATCHMAKER: N_("Matchmaker"), NOBLE: N_("Nobles"),
              ALCHEMIST: N_("Alchemist"), CHEF: N_("Chef"), GUARD: N_("Guard"),
              WEREWOLF: N_("Werewolves"), SEER: N_("Seer"), TRACK_READER: N_("Track Reader"),
              DAIRY_MAID: N_("Dairy Maid"), PRIEST: N_("Priest")}
    return _(titles[call_id])
