"""The timed game's nights as pictures, once it is over (issue 40): for
each night, the table from above with every seat's name, who
aimed at whom (a numbered arrow each, in the order 004 resolves them:
the Alchemist's block, the Chef's jail, the Guard's protection, the
pack's kill, then the information roles), the actions that failed said
so in the notes, and the seats dead by that dawn in red. Pure: read
from what the game kept of each night; drawn by wolfbox.tablemap's
drawings. Nothing of a night is shown before the game ends: who
protected or blocked whom is a secret until then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..i18n import N_, _
from ..tablemap import BLOCK, DIED, JAIL, KILL, LOOK, PROTECT, Arrow, MapPage, Spot, TableMap
from .resolve import Kill, Night
from .roles import INFORMATION, Ability, ability_of, role_name

# The arrow of each ability; the information roles look.
KIND = {Ability.BLOCK: BLOCK, Ability.JAIL: JAIL, Ability.PROTECT: PROTECT}
KEY_WORDS = {BLOCK: N_("blocked"), JAIL: N_("jailed"), PROTECT: N_("protected"),
             KILL: N_("kill"), LOOK: N_("looked"), DIED: N_("died")}
ORDER = (Ability.BLOCK, Ability.JAIL, Ability.PROTECT)


@dataclass(frozen=True)
class NightKept:
    """What one night was: its number, each actor's target, the pack's
    kill, its outcome, and the seats dead by its dawn."""
    number: int
    actions: Mapping[int, int]
    kill: Kill | None
    outcome: Night
    dead: frozenset[int] = field(default_factory=frozenset)


def seat_label(seat: int, names: Mapping[int, str]) -> str:
    name = " ".join(names.get(seat, "").split())
    return name or _("Seat {seat}").format(seat=seat)


def nights_map(seats: Sequence[str], names: Mapping[int, str],
               nights: Sequence[NightKept]) -> TableMap | None:
    """A picture a night, in order (the end's list of cards is on the
    phones' page already: no list of its own)."""
    if not nights:
        return None
    return TableMap(tuple(_night(seats, names, night) for night in nights))


def _night(seats: Sequence[str], names: Mapping[int, str], night: NightKept) -> MapPage:
    # Names alone: nine seats with their cards leave the box's screen no
    # room for the arrows; the cards are on the end's own pages, the roles
    # in the notes.
    spots = tuple(Spot(s, seat_label(s, names), dead=s in night.dead)
                  for s in range(1, len(seats) + 1))
    by_ability = {ability_of(seats[actor - 1]): (actor, target)
                  for actor, target in night.actions.items()}
    arrows: list[Arrow] = []
    notes: list[str] = []

    def add(kind: str, actor: int, target: int, words: str) -> None:
        arrows.append(Arrow(kind, actor, target, len(arrows) + 1))
        failed = actor in night.outcome.blocked and kind != BLOCK
        if failed:
            # TRANSLATORS: a night's action that was blocked, in the timed game's picture.
            words = _("{action} Blocked: it had no effect.").format(action=words)
        notes.append(_("{number}. {move}").format(number=len(arrows), move=words))

    def who(seat: int) -> str:
        # TRANSLATORS: a seat and its role in the timed game's night picture: "Ann (Guard)".
        return _("{name} ({role})").format(name=seat_label(seat, names),
                                         role=role_name(seats[seat - 1]))

    for ability in ORDER:
        if ability in by_ability:
            actor, target = by_ability[ability]
            words = {Ability.BLOCK: _("{who} blocked {seat}."),
                     Ability.JAIL: _("{who} jailed {seat}."),
                     Ability.PROTECT: _("{who} protected {seat}.")}[ability]
            add(KIND[ability], actor, target, words.format(who=who(actor),
                                                          seat=seat_label(target, names)))
    if night.kill is not None:
        words = _("The Wolves' knife, {who}, went for {seat}.").format(
            who=who(night.kill.knife), seat=seat_label(night.kill.target, names))
        add(KILL, night.kill.knife, night.kill.target, words)
    for role in INFORMATION:
        info = ability_of(role)
        if info in by_ability:
            actor, target = by_ability[info]
            add(LOOK, actor, target, _("{who} looked at {seat}.").format(
                who=who(actor), seat=seat_label(target, names)))
    if night.outcome.killed is None:
        notes.append(_("Nobody died."))
    else:
        notes.append(_("{seat} died.").format(seat=seat_label(night.outcome.killed, names)))
    kinds = {a.kind for a in arrows} | ({DIED} if night.dead else set())
    legend = tuple((k, _(KEY_WORDS[k])) for k in KEY_WORDS if k in kinds)
    return MapPage(_("Night {n}").format(n=night.number), spots, (),
                   tuple(arrows), legend, tuple(notes))
