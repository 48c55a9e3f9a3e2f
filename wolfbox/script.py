"""`wolfbox script` and `wolfbox decks`: the night as a human narrator would
read it, and the preset decks."""

from __future__ import annotations

import json

from .config import Config
from .deck import players_for
from .flow import RoundSettings
from .night import setup_text
from .presets import MAX_PLAYERS, PRESETS, describe


def _steps(config: Config):
    return RoundSettings.from_config(config).night


def script_text(config: Config) -> str:
    deck = config.game.deck
    out = [f"One Night for {players_for(deck)} players, {len(deck)} cards: {describe(deck)}"
           + (" (lone wolf on)" if config.game.lone_wolf else ""), "", "Setup:"]
    out += [f"  {line}" for line in setup_text(deck)]
    out += ["", "Read aloud, waiting where it says:"]
    for n, step in enumerate(_steps(config), 1):
        out.append(f"{n:3}. [{step.id}]")
        out.append(f'     "{step.text}"')
        if step.seconds:
            out.append(f"     (wait {step.seconds:g} s)")
        if step.after:
            out.append(f'     "{step.after}"')
    return "\n".join(out)


def script_json(config: Config) -> str:
    deck = config.game.deck
    return json.dumps({
        "deck": list(deck),
        "players": players_for(deck),
        "lone_wolf": config.game.lone_wolf,
        "setup": setup_text(deck),
        "steps": [{"id": s.id, "text": s.text, "seconds": s.seconds, "after": s.after}
                  for s in _steps(config)],
    }, indent=2, ensure_ascii=False)


def decks_table() -> str:
    rows = [("name", "players", "deck")]
    for p in PRESETS.values():
        counts = p.players()
        span = f"{counts.start}" if len(counts) == 1 else f"{counts.start}-{counts[-1]}"
        rows.append((p.name, span, f"{p.title}: {describe(p.core)}"
                     + (" + villagers" if p.fill else "")))
    rows.append(("random", f"3-{MAX_PLAYERS}", "a new random deck each time"))
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]}" for r in rows)


def roles_table() -> str:
    """The README's role table, made from the catalogue so the two cannot differ."""
    from .roles import ROLES
    rows = ["| id | role | box | team | wakes | what it does |", "|---|---|---|---|---|---|"]
    for r in ROLES.values():
        copies = f" (×{r.copies})" if r.copies > 1 else ""
        rows.append(f"| `{r.id}` | {r.name}{copies} | {r.box.value} | {r.team.value} | "
                    f"{r.wake or '–'} | {r.summary} |")
    return "\n".join(rows)
