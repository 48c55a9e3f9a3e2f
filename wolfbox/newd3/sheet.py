"""The timed game's plan, as `wolfbox script --mode newd3` prints it: 004's
phase lengths, the votes an elimination needs at every living count, the
night limit and the nine setups (issue 12's interface)."""

from __future__ import annotations

from typing import Any

from ..i18n import N_
from .rules import MAX_NIGHTS, PHASES, votes_needed
from .setups import PLAYERS, SETUPS

# The phases' names for people (the JSON keeps the ids).
PHASE_NAMES = {"discussion": N_("discussion"), "vote": N_("vote"),
               "coordination": N_("coordination"), "actions": N_("actions")}


def sheet() -> dict[str, Any]:
    """JSON-safe: {"mode", "players", "phases": [{"id", "seconds"}],
    "thresholds": {"<living>": votes}, "max_nights", "setups": {name: roles}}."""
    return {
        "mode": "newd3",
        "players": PLAYERS,
        "phases": [{"id": pid, "seconds": seconds} for pid, seconds in PHASES],
        "thresholds": {str(n): votes_needed(n) for n in range(PLAYERS, 0, -1)},
        "max_nights": MAX_NIGHTS,
        "setups": {name: list(roles) for name, roles in SETUPS.items()},
    }


def sheet_text(data: dict[str, Any]) -> str:
    """The plan for a table to read."""
    from ..i18n import _
    from .setups import describe
    out = [_("The timed game (004): {players} players, two Wolves, seven Town").format(
        players=data["players"]), "", _("Phases:")]
    out += [_("  {phase}: {seconds} s").format(phase=_(PHASE_NAMES.get(p["id"], p["id"])),
                                                seconds=p["seconds"])
            for p in data["phases"]]
    out += ["", _("Votes an elimination needs (more than half of the living):")]
    out += [_("  {living} living: {votes}").format(living=living, votes=votes)
            for living, votes in data["thresholds"].items()]
    out += ["", _("A draw if nobody has won after {nights} nights.").format(
        nights=data["max_nights"]), "", _("The nine setups (one is dealt in secret):")]
    out += ["  " + describe(name) for name in data["setups"]]
    return "\n".join(out)
