"""The Mayor's sheet: the plan of a game for a table, as data. What
`wolfbox script --mode dark_arts --players N [--roles ...] --json` will
print (issue 11), and the printable plan for a human Mayor without a box:
the night calls with their times, and the hands a lynch needs for every
living count from the table's size down to 2.
"""

from __future__ import annotations

from typing import Any

from .night import CALLS, mayor_notes, night_calls
from .rules import Setup, lynch_threshold


def thresholds(players: int) -> dict[int, int]:
    """Hands needed to lynch, for every living count from `players` down to 2."""
    return {living: lynch_threshold(living) for living in range(players, 1, -1)}


def sheet(setup: Setup, scale: float = 1.0,
          action_seconds: dict[str, float] | None = None) -> dict[str, Any]:
    """JSON-safe: {"mode", "players", "roles", "night": [{"id", "text",
    "seconds", "first_night_only"}], "thresholds": {"<living>": hands},
    "notes": [what the Mayor needs to resolve a night with 004's roles]}."""
    first_only = {c.id for c in CALLS if c.first_night_only}
    return {
        "mode": "dark_arts",
        "players": setup.players,
        "roles": setup.counts,
        "night": [{"id": s.id, "text": s.text, "after": s.after, "seconds": s.seconds,
                   "first_night_only": s.id in first_only}
                  for s in night_calls(setup.in_play(), 1, scale, action_seconds or {})],
        "thresholds": {str(k): v for k, v in thresholds(setup.players).items()},
        "notes": list(mayor_notes(setup.in_play())),
    }


def parse_roles(text: str, players: int) -> Setup:
    """A setup from `--roles` ("werewolf,werewolf,hunter": a role once a
    copy; Villagers fill the seats left), or the default one: a werewolf for
    every four players, the Hunter and the Matchmaker. UserError (one line)
    for an unknown role, too many copies or a deal that cannot be played."""
    from ..errors import UserError
    from ..i18n import _, ngettext
    from .roles import CHOSEN, ROLES, VILLAGER
    counts: dict[str, int] = {}
    if text.strip():
        for raw in text.split(","):
            rid = raw.strip().lower().replace(" ", "_").replace("-", "_")
            if rid not in CHOSEN and rid != VILLAGER:     # the sheet's JSON names villagers
                raise UserError(_("--roles: unknown role '{role}'; the roles are {known} "
                                  "(villagers fill the other seats)").format(
                    role=raw.strip()[:40], known=", ".join(CHOSEN)))
            counts[rid] = counts.get(rid, 0) + 1
    else:
        from .rules import default_roles
        counts = default_roles(players)
    for rid, n in counts.items():
        most = ROLES[rid].most
        if most and n > most:
            raise UserError(ngettext("--roles: {role} at most {most} time, not {count}",
                                     "--roles: {role} at most {most} times, not {count}",
                                     most).format(role=rid, most=most, count=n))
    if sum(counts.values()) > players:               # villagers named fill seats too
        raise UserError(_("--players {players} --roles {roles}: {problem}").format(
            players=players, roles=text.strip()[:200], problem=_("More roles than players.")))
    setup = Setup.of(players, counts)
    problem = setup.problem()
    if problem:
        raise UserError(_("--players {players} --roles {roles}: {problem}").format(
            players=players, roles=",".join(r for r, n in setup.roles for _ in range(n)),
            problem=problem))
    return setup


def sheet_text(data: dict[str, Any]) -> str:
    """The sheet for a human Mayor to print."""
    from ..i18n import _, copies, listed, ngettext
    from .roles import role_name
    roles = listed([copies(role_name(r), n) for r, n in data["roles"].items()])
    players = data["players"]
    out = [ngettext("Werewolves of the Dark Arts, {players} player: {roles}",
                    "Werewolves of the Dark Arts, {players} players: {roles}", players).format(
        players=players, roles=roles), "",
        _("Every night, the same calls with the same times, whoever is alive:")]
    for n, call in enumerate(data["night"], 1):
        first = " " + _("(first night only)") if call["first_night_only"] else ""
        out.append(f"{n:3}. [{call['id']}]{first}")
        out.append(f'     "{call["text"]}"')
        if call["seconds"]:
            out.append("     " + _("(wait {seconds} s)").format(seconds=f"{call['seconds']:g}"))
        if call["after"]:
            out.append(f'     "{call["after"]}"')
    out += ["", _("Hands a lynch needs (at least half of the living, rounded up; the accused "
                  "counts, the Mayor does not):")]
    out += [_("  {living} living: {hands}").format(living=living, hands=hands)
            for living, hands in data["thresholds"].items()]
    if data["notes"]:
        out += ["", _("Resolving the night (004):")]
        out += [f"  - {note}" for note in data["notes"]]
    return "\n".join(out)
