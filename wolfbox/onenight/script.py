"""`wolfbox script` and `wolfbox decks`: the night as a human narrator would
read it, and the preset decks."""

from __future__ import annotations

import json

from ..config import Config
from ..i18n import _
from . import section
from .deck import players_for
from .flow import RoundSettings
from .lines import reveal_rules
from .night import morning_notes, setup_text
from .presets import MAX_PLAYERS, PRESETS, describe


def _steps(config: Config):
    return RoundSettings.from_config(config).night


def script_text(config: Config) -> str:
    deck = section.of(config).deck
    if section.of(config).lone_wolf:
        head = _("One Night for {players} players, {cards} cards: {deck} (lone wolf on)")
    else:
        head = _("One Night for {players} players, {cards} cards: {deck}")
    out = [head.format(players=players_for(deck), cards=len(deck), deck=describe(deck)),
           "", _("Setup:")]
    out += [f"  {line}" for line in setup_text(deck)]
    out += ["", _("Read aloud, waiting where it says:")]
    for n, step in enumerate(_steps(config), 1):
        out.append(f"{n:3}. [{step.id}]")
        out.append(f'     "{step.text}"')
        if step.seconds:
            out.append("     " + _("(wait {seconds} s)").format(seconds=f"{step.seconds:g}"))
        if step.after:
            out.append(f'     "{step.after}"')
    out += ["", _("In the morning:")] + [f"  {line}" for line in morning_notes(deck)]
    out += ["", _("After the vote, who died and who won:")]
    out += [f"  - {line}" for line in reveal_rules(deck)]
    return "\n".join(out)


def script_json(config: Config) -> str:
    deck = section.of(config).deck
    return json.dumps({
        "deck": list(deck),
        "players": players_for(deck),
        "lone_wolf": section.of(config).lone_wolf,
        "setup": setup_text(deck),
        "morning": morning_notes(deck),
        "reveal": list(reveal_rules(deck)),
        "steps": [{"id": s.id, "text": s.text, "seconds": s.seconds, "after": s.after}
                  for s in _steps(config)],
    }, indent=2, ensure_ascii=False)


def decks_table() -> str:
    # TRANSLATORS: the column headings of `wolfbox decks`.
    rows = [(_("name"), _("players"), _("deck"))]
    for p in PRESETS.values():
        counts = p.players()
        span = f"{counts.start}" if len(counts) == 1 else f"{counts.start}-{counts[-1]}"
        # TRANSLATORS: a preset's title and its cards; "+ villagers": filled up to the table.
        cards = _("{title}: {cards} + other roles") if p.others else \
            _("{title}: {cards} + villagers") if p.fill else _("{title}: {cards}")
        rows.append((p.name, span, cards.format(title=p.shown_title(), cards=describe(p.core))))
    rows.append(("random", f"3-{MAX_PLAYERS}", _("a new random deck each time")))
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]}" for r in rows)


def decks_json() -> str:
    """The presets for programs: name, title, player counts and the deck at
    the smallest count (`wolfbox decks --json`)."""
    out = []
    for p in PRESETS.values():
        counts = p.players()
        out.append({"name": p.name, "title": p.shown_title(),
                    "players": [counts.start, counts[-1]], "deck": p.deck(counts.start)})
    return json.dumps(out, indent=2, ensure_ascii=False)


def roles_table() -> str:
    """The README's role table, made from the catalogue so the two cannot differ.

    In English on purpose: it is the README's text (the names and summaries
    are the catalogue's English), not something the box shows or says."""
    from .roles import ROLES
    rows = ["| id | role | box | team | wakes | what it does |", "|---|---|---|---|---|---|"]
    for r in ROLES.values():
        copies = f" (×{r.copies})" if r.copies > 1 else ""
        rows.append(f"| `{r.id}` | {r.name}{copies} | {r.box.value} | {r.team.value} | "
                    f"{r.wake or '–'} | {r.summary} |")
    return "\n".join(rows)
