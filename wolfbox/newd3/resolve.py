"""One night of 004's timed game, resolved: who died and what each
information role learned.

Seats are numbered from 1 in the order of `players`. `actions` maps a
living actor's seat to the seat its one targeted ability aims at (a seat
left out passed); `kill` is the pack's choice, a target and the Wolf-team
seat that holds the knife (None: no kill). 004 fixes the order: the
Alchemist's block, the Chef's jail, the Guard's protection, the kill, then
the information results (Seer, Track Reader, Dairy Maid, Priest).

Where 004 leaves a case open, this is what the box does. Each paragraph
below is one decision, tested by name in tests/test_newd3_resolve.py.

Steps only look back. Each step of 004's order is finished before the next
starts, and a later step never changes an earlier one. That single rule
settles most of the questions below, and it is the one to say at a table.

The Alchemist's block always lands. It is the first step, so nothing has
happened yet that could stop it. If the Chef jails the Alchemist, the block
still takes effect; the jail stops only what the Alchemist does later in
the night, that is, the kill if he holds the knife.

A blocked Chef jails nobody. If the Alchemist blocks the Chef, the jail
fails as a whole: its target is neither blocked nor protected. A jail never
lifts a block: a player both blocked and jailed stays blocked (and is
protected from the kill by the jail).

Only the knife matters for the kill. The target and the knife are the
pack's decision, not one Wolf's action, so blocking or jailing a Wolf-team
player stops the kill exactly when that player holds the knife (004's Chef
note). Blocking the other Wolf changes nothing about the kill.

The Alchemist may block any other living player, his own partner too.
004 forbids only targeting oneself and a kill on the Wolf team; every other
target is allowed, and blocking the knife holder stops the kill like any
block of the knife. In the same way the Track Reader may read his partner
and the Seer may look at anyone.

A blocked player stays home. 004 says a blocked player's action fails; a
failed action is no visit, so the Priest watching a blocked or jailed
player sees nobody. The Alchemist is an exception only in appearance: his
block happens before anyone can block him, so he is always seen at his
block target, even on a night he is jailed.

The knife visits its target whenever the knife is not blocked, even if the
Guard or the Chef saves the target: protection stops the kill at the door,
not the walk there. An Alchemist or Track Reader holding the knife makes
two trips in one night; the Priest is shown the kill target, since 004
names catching the knife Wolf at the victim as what the Priest is for.

A player who passed, or who has nothing to aim (a Sheep, a Noble, a Wolf
without the knife), visited nobody: the Priest's result is
{"visited": None}, the same as for a blocked player, so a Priest cannot
tell a pass from a block.

The kill undoes nothing that night. All targets are chosen at the same
time, so a player killed tonight still blocked, jailed or protected, and
an information role killed tonight still gets its result (whether a dead
player is shown it is for the box to decide); milk delivered to the victim
is still delivered.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

import msgspec

from ..errors import IllegalNight as IllegalNight
from ..i18n import _
from ..schema import Misfit, convert
from .roles import INFORMATION, ROLES, SHEEP, WOLF, Ability, ability_of, is_wolf_team
from .rules import winner
from .setups import PLAYERS, setup_of

# What a result holds, by role: {"wolf": bool}, {"role": id}, {"told": seat}
# or {"visited": seat or None}.
Result = dict[str, bool | int | str | None]

# 004: the Track Reader learns an exact role, but Wolves and Sheep show as "vanilla".
VANILLA = "vanilla"
_VANILLA_ROLES = frozenset({WOLF, SHEEP})


@dataclass(frozen=True)
class Kill:
    """The pack's choice for the night: whom to kill and which Wolf-team
    player carries it out (004: both are decided by the pack)."""
    target: int
    knife: int


@dataclass(frozen=True)
class Night:
    """The outcome of a night: the seat killed (None: nobody died) and one
    result per information role that acted, None where it was blocked."""
    killed: int | None
    results: dict[int, Result | None] = field(default_factory=dict)
    # For the night's picture at the game's end, beside the outcome (not part of it):
    # the seats whose action failed (the Alchemist's, the Chef's), the Guard's seat.
    blocked: frozenset[int] = field(default=frozenset(), compare=False)
    protected: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        """The outcome as issue 12's `wolfbox resolve` prints it: JSON object
        keys are text, so the seats in "results" become strings."""
        return {"killed": self.killed,
                "results": {str(seat): result for seat, result in sorted(self.results.items())}}


def seer_sees(role_id: str) -> bool:
    """The Seer's answer for a role: Wolf or not. 004 has the Alchemist and
    the Track Reader read as Wolf, so the answer is simply the role's team."""
    return is_wolf_team(role_id)


def track_reader_sees(role_id: str) -> str:
    """The Track Reader's answer for a role: its id, except that the plain
    Wolf and the Sheep both show as "vanilla" (004). A Noble shows as a
    Noble. Reading the partner therefore says nothing the pack did not know."""
    return VANILLA if role_id in _VANILLA_ROLES else role_id


# ------------------------------------------------------------ checking a night
def _seat(value: object, what: str) -> int:
    """`value` as a seat number, or IllegalNight naming `what` it was meant to be."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= PLAYERS:
        raise IllegalNight(_("{what} {value} is not a seat: seats are 1 to {most}").format(
            what=what, value=repr(value), most=PLAYERS))
    return value


def _check(players: Sequence[str], dead: Set[int], actions: Mapping[int, int],
           kill: Kill | None) -> None:
    """Raise IllegalNight for the first thing about this night that cannot be."""
    if setup_of(players) is None:
        raise IllegalNight(_("the players are not one of the nine setups: give the 9 role ids "
                             "of one of A1..C3, in seat order"))
    for seat in dead:
        _seat(seat, _("dead seat"))
    # A night follows only a day that ended with nobody winning: after the
    # last Wolf's death, or once the Wolves are as many as the Town, the
    # game is over and no night is played (004 "Winning").
    won = winner(players, dead, 0)
    if won == "town":
        raise IllegalNight(_("both Wolves are dead, so the Town has already won: a night is "
                             "played only while a Wolf is alive and the Town outnumbers "
                             "the Wolves"))
    if won is not None:
        raise IllegalNight(_("the Wolves are as many as the Town, so they have already won: "
                             "a night is played only while a Wolf is alive and the Town "
                             "outnumbers the Wolves"))
    for actor, target in actions.items():
        _seat(actor, _("actor"))
        _seat(target, _("target"))
        role = players[actor - 1]
        if actor in dead:
            raise IllegalNight(_("seat {seat} is dead: only the living act at night").format(
                seat=actor))
        if ability_of(role) is None:
            raise IllegalNight(_("seat {seat} ({role}) has no targeted night ability: only "
                                 "{roles} choose a target").format(
                seat=actor, role=role,
                roles=", ".join(r.id for r in ROLES.values() if r.ability is not None)))
        if target == actor:
            if ability_of(role) is Ability.PROTECT:
                raise IllegalNight(_("the Guard (seat {seat}) cannot protect himself: choose "
                                     "another living seat").format(seat=actor))
            raise IllegalNight(_("seat {seat} targets itself: nobody may target themselves")
                               .format(seat=actor))
        if target in dead:
            raise IllegalNight(_("seat {actor} targets seat {seat}, who is dead: targets must "
                                 "be living").format(actor=actor, seat=target))
    if kill is None:
        return
    target = _seat(kill.target, _("kill target"))
    knife = _seat(kill.knife, _("knife"))
    if not is_wolf_team(players[knife - 1]) or knife in dead:
        raise IllegalNight(_("the knife, seat {seat}, is not a living Wolf: the knife must be "
                             "a living wolf, alchemist or track_reader").format(seat=knife))
    if is_wolf_team(players[target - 1]):
        raise IllegalNight(_("the kill targets seat {seat}, on the Wolf team: the Wolves may "
                             "only kill Town").format(seat=target))
    if target in dead:
        raise IllegalNight(_("the kill targets seat {seat}, who is dead: targets must be "
                             "living").format(seat=target))


# ------------------------------------------------------------ resolving it
def _actor(players: Sequence[str], actions: Mapping[int, int], ability: Ability) -> int | None:
    """The seat that used `ability` tonight, if any. Each setup deals at most
    one role with each ability, so there is at most one such seat."""
    return next((seat for seat in actions if ability_of(players[seat - 1]) is ability), None)


def resolve(players: Sequence[str], dead: Set[int], actions: Mapping[int, int],
            kill: Kill | None) -> Night:
    """Resolve one night in 004's order (see the module doc for the cases 004
    leaves open). IllegalNight, before anything is resolved, for a night that
    cannot happen."""
    _check(players, dead, actions, kill)

    # 1. The Alchemist's block: first, so nothing stops it.
    blocked: set[int] = set()
    alchemist = _actor(players, actions, Ability.BLOCK)
    if alchemist is not None:
        blocked.add(actions[alchemist])

    # 2. The Chef's jail: blocks and protects, unless the Chef was blocked.
    jailed: int | None = None
    chef = _actor(players, actions, Ability.JAIL)
    if chef is not None and chef not in blocked:
        jailed = actions[chef]
        blocked.add(jailed)

    # 3. The Guard's protection, unless the Guard was blocked or jailed.
    protected: int | None = None
    guard = _actor(players, actions, Ability.PROTECT)
    if guard is not None and guard not in blocked:
        protected = actions[guard]

    # 4. The kill: fails on a blocked knife or a protected or jailed target.
    killed: int | None = None
    if kill is not None and kill.knife not in blocked and kill.target not in (protected, jailed):
        killed = kill.target

    # Who went where tonight, for the Priest: an action that took effect is
    # a visit; the Alchemist's always does; an unblocked knife's trip to the
    # kill target is the one shown for a knife that also used an ability.
    visited: dict[int, int] = {
        actor: target for actor, target in actions.items()
        if actor == alchemist or actor not in blocked}
    if kill is not None and kill.knife not in blocked:
        visited[kill.knife] = kill.target

    # 5. The information results, in 004's order.
    results: dict[int, Result | None] = {}
    for role in INFORMATION:
        ability = ability_of(role)
        assert ability is not None
        actor = _actor(players, actions, ability)
        if actor is None:
            continue
        if actor in blocked:
            results[actor] = None
            continue
        target = actions[actor]
        seen = players[target - 1]
        if ability is Ability.INSPECT:
            results[actor] = {"wolf": seer_sees(seen)}
        elif ability is Ability.READ:
            results[actor] = {"role": track_reader_sees(seen)}
        elif ability is Ability.MILK:
            results[actor] = {"told": target}
        else:   # Ability.WATCH
            results[actor] = {"visited": visited.get(target)}
    return Night(killed, results, frozenset(blocked), protected)


class _KillIn(msgspec.Struct, forbid_unknown_fields=True):
    target: int
    knife: int


class _NightIn(msgspec.Struct, forbid_unknown_fields=True):
    """`resolve`'s input, the shape; the rules are `resolve`'s."""
    players: list[str]
    dead: list[int] = msgspec.field(default_factory=list)
    actions: dict[str, object] = msgspec.field(default_factory=dict)
    kill: _KillIn | None = None



def read_night(data: object) -> tuple[list[str], set[int], dict[int, int], Kill | None]:
    """`wolfbox resolve`'s input, already parsed (wolfbox.jsontext reads the
    text once, with its limits): {"players": [9 role ids], "dead": [seats],
    "actions": {"<seat>": target}, "kill": {"target", "knife"}} ("dead",
    "actions" and "kill" may be left out). IllegalNight (one line) for data
    that is not that shape; `resolve` checks the rules."""
    try:
        night = convert(data, _NightIn)
    except Misfit as e:
        raise IllegalNight(_night_misfit(e)) from None
    unknown_roles = [p for p in night.players if p not in ROLES]
    if unknown_roles:
        raise IllegalNight(_('"players": unknown role {role}; the roles are {roles}').format(
            role=json.dumps(unknown_roles[0])[:40], roles=", ".join(ROLES)))
    actions: dict[int, int] = {}
    for actor, target in night.actions.items():
        if not (actor.isascii() and actor.isdigit()):
            raise IllegalNight(_('"actions": the actor {actor} is not a seat number from 1 to '
                                 '{most} (as text: "2")').format(actor=json.dumps(actor)[:20],
                                                                 most=PLAYERS))
        if not isinstance(target, int) or isinstance(target, bool):
            raise IllegalNight(_('"actions": the target of seat {actor}, {target}, is not a '
                                 'seat number from 1 to {most}').format(
                actor=actor, target=json.dumps(target)[:20], most=PLAYERS))
        actions[int(actor)] = target
    kill = Kill(night.kill.target, night.kill.knife) if night.kill is not None else None
    return night.players, set(night.dead), actions, kill


def _night_misfit(e: Misfit) -> str:
    """What does not fit the night's shape, said for the table."""
    if not e.path:
        if e.kind == "unknown":
            return _("unknown key '{key}' (allowed: players, dead, actions, kill)").format(
                key=e.key[:40])
        if e.kind == "missing":
            return _('"players" must be a list of role ids, one a seat')
        return _('expected an object such as {"players": [...], "actions": {}}')
    return {
        "players": _('"players" must be a list of role ids, one a seat'),
        "dead": _('"dead" must be a list of seat numbers'),
        "actions": _('"actions" must map an actor\'s seat to its target\'s: {"2": 4}'),
    }.get(str(e.path[0]), _('"kill" must be {"target": seat, "knife": seat}'))
