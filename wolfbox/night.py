"""The night script: which calls a deck needs, in the order they happen.

The order of NIGHT_CALLS *is* the night order; nothing else in the project
repeats it. Every call whose roles are in the deck is made, whether the
card is with a player or in the center, with the same timing: a skipped
call or a shorter gap would tell the table what lies in the center.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping, Sequence

from .roles import ROLES


@dataclass(frozen=True)
class Step:
    """One thing the narrator does: say `text`, wait `seconds`, say `after`."""
    id: str
    text: str
    seconds: float = 0.0
    after: str = ""


@dataclass(frozen=True)
class Call:
    id: str
    roles: frozenset[str]        # the call is made when any of these is in the deck
    wake: str
    sleep: str
    timed_by: str                # the role whose action time the call gets


def _call(id: str, roles: Sequence[str], wake: str, sleep: str) -> Call:
    return Call(id, frozenset(roles), wake, sleep, timed_by=roles[0])


NIGHT_CALLS: tuple[Call, ...] = (
    _call("werewolves", ["werewolf"],
          "Werewolves, open your eyes and find each other. "
          "If you are the only werewolf, you may look at one card in the center.",
          "Werewolves, close your eyes."),
    _call("minion", ["minion"],
          "Minion, open your eyes. Werewolves, raise a thumb so the Minion can see you.",
          "Werewolves, lower your thumbs. Minion, close your eyes."),
    _call("masons", ["mason"],
          "Masons, open your eyes and look for the other Mason.",
          "Masons, close your eyes."),
    _call("seer", ["seer"],
          "Seer, open your eyes. You may look at another player's card, "
          "or at two of the cards in the center.",
          "Seer, close your eyes."),
    _call("robber", ["robber"],
          "Robber, open your eyes. You may swap your card with another player's card, "
          "then look at the card you now have.",
          "Robber, close your eyes."),
    _call("troublemaker", ["troublemaker"],
          "Troublemaker, open your eyes. You may swap the cards of two other players "
          "without looking at them.",
          "Troublemaker, close your eyes."),
    _call("drunk", ["drunk"],
          "Drunk, open your eyes and trade your card for one in the center, "
          "without looking at it.",
          "Drunk, close your eyes."),
    _call("insomniac", ["insomniac"],
          "Insomniac, open your eyes and look at your own card.",
          "Insomniac, close your eyes."),
)

CLOSE_EYES = Step("close_eyes", "Night falls. Everyone, close your eyes.", seconds=2.0)
WAKE_UP = Step("wake_up", "Everyone, reach out and touch your own card. "
               "Now open your eyes: it is morning in the village.")


def night_script(deck: Sequence[str], action_seconds: Mapping[str, float] | None = None,
                 scale: float = 1.0) -> list[Step]:
    """The steps of one night for `deck` (role ids, already validated).

    `action_seconds` overrides a role's default time; `scale` multiplies
    every role's time, overrides included, so one knob slows a whole night.
    """
    present = set(deck)
    overrides = dict(action_seconds or {})
    steps = [CLOSE_EYES]
    for call in NIGHT_CALLS:
        if call.roles & present:
            base = overrides.get(call.timed_by, ROLES[call.timed_by].action_seconds)
            steps.append(Step(call.id, call.wake, round(base * scale, 3), call.sleep))
    steps.append(WAKE_UP)
    return steps
