"""NewD3: random legal nights (hypothesis) against the rules that must hold
on every one, and random corruptions of them that must all be refused."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from wolfbox.newd3.resolve import IllegalNight, Kill, Night, resolve
from wolfbox.newd3.rules import winner
from wolfbox.newd3.setups import SETUPS

WOLF_TEAM = {"wolf", "alchemist", "track_reader"}
ACTING = {"alchemist", "track_reader", "seer", "guard", "chef", "dairy_maid", "priest"}
INFORMATION = {"seer", "track_reader", "dairy_maid", "priest"}


@dataclass
class Table:
    players: list[str]
    dead: set[int]
    actions: dict[int, int]
    kill: Kill | None

    def seat_of(self, role: str) -> int | None:
        return next((s for s in self.actions if self.players[s - 1] == role), None)


@st.composite
def legal_nights(draw) -> Table:
    """A seating of one of the nine setups, some dead (a game nobody has won
    yet), and a legal choice (or a pass) for every living actor and for the
    pack."""
    name = draw(st.sampled_from(sorted(SETUPS)))
    players = draw(st.permutations(list(SETUPS[name])))
    dead = draw(st.sets(st.integers(1, 9), max_size=6))
    # A night is played only while nobody has won (resolve refuses the rest).
    assume(winner(players, dead, 0) is None)
    living = [s for s in range(1, 10) if s not in dead]
    wolves = [s for s in living if players[s - 1] in WOLF_TEAM]
    town = [s for s in living if players[s - 1] not in WOLF_TEAM]
    kill = None
    if wolves and town and draw(st.booleans()):
        kill = Kill(target=draw(st.sampled_from(town)), knife=draw(st.sampled_from(wolves)))
    # Half the time an actor aims at a seat where rules meet (another actor,
    # the knife, the victim), so blocks, jails and saves cross often.
    busy = [s for s in living if players[s - 1] in ACTING]
    busy += [kill.target, kill.knife] if kill else []
    actions: dict[int, int] = {}
    for seat in living:
        others = [s for s in living if s != seat]
        hot = sorted({s for s in busy if s != seat})
        if players[seat - 1] in ACTING and others and draw(st.booleans()):
            anyone = st.sampled_from(others)
            actions[seat] = draw(st.sampled_from(hot) | anyone if hot else anyone)
    return Table(list(players), dead, actions, kill)


def _stopped(t: Table) -> tuple[set[int], set[int]]:
    """Worked out from 004's order alone, apart from resolve(): the seats
    blocked or jailed, and the seats shielded from the kill."""
    alchemist, chef, guard = t.seat_of("alchemist"), t.seat_of("chef"), t.seat_of("guard")
    blocked = {t.actions[alchemist]} if alchemist else set()
    shielded: set[int] = set()
    if chef and chef not in blocked:
        blocked.add(t.actions[chef])
        shielded.add(t.actions[chef])
    if guard and guard not in blocked:
        shielded.add(t.actions[guard])
    return blocked, shielded


@settings(max_examples=400, deadline=None)
@given(legal_nights())
def test_resolve_never_crashes_on_a_legal_night(t):
    night = resolve(t.players, t.dead, t.actions, t.kill)
    assert isinstance(night, Night)
    json.dumps(night.to_json())
    assert resolve(t.players, t.dead, t.actions, t.kill) == night      # the same every time


@settings(max_examples=400, deadline=None)
@given(legal_nights())
def test_the_kill_never_hits_a_protected_or_jailed_target(t):
    night = resolve(t.players, t.dead, t.actions, t.kill)
    blocked, shielded = _stopped(t)
    assert night.killed is None or night.killed not in shielded
    if t.kill is None:
        assert night.killed is None
    elif t.kill.knife in blocked or t.kill.target in shielded:
        assert night.killed is None
    else:
        assert night.killed == t.kill.target


@settings(max_examples=400, deadline=None)
@given(legal_nights())
def test_a_blocked_actor_never_gets_a_result(t):
    night = resolve(t.players, t.dead, t.actions, t.kill)
    blocked, _ = _stopped(t)
    acted = {s for s in t.actions if t.players[s - 1] in INFORMATION}
    assert set(night.results) == acted
    for seat in acted:
        assert (night.results[seat] is None) == (seat in blocked)


@settings(max_examples=400, deadline=None)
@given(legal_nights())
def test_the_killed_seat_was_living_town_and_the_counts_stay_sane(t):
    night = resolve(t.players, t.dead, t.actions, t.kill)
    if night.killed is not None:
        assert night.killed not in t.dead
        assert t.players[night.killed - 1] not in WOLF_TEAM
    dead = t.dead | ({night.killed} if night.killed else set())
    living = 9 - len(dead)
    assert living >= 0
    winner(t.players, dead, 1)          # a win check on the dawn never fails


def _corrupt(t: Table, how: str, data) -> Table | None:
    """`t` made illegal in one way, or None if this table has no room for it."""
    living = [s for s in range(1, 10) if s not in t.dead]
    wolves = [s for s in living if t.players[s - 1] in WOLF_TEAM]
    actors = [s for s in living if t.players[s - 1] in ACTING]
    idle = [s for s in living if t.players[s - 1] not in ACTING]
    town = [s for s in living if s not in wolves]
    actions = dict(t.actions)
    if how == "self" and actors:
        s = data.draw(st.sampled_from(actors))
        return Table(t.players, t.dead, {**actions, s: s}, t.kill)
    if how == "wolf-kill" and wolves:
        return Table(t.players, t.dead, actions,
                     Kill(target=data.draw(st.sampled_from(wolves)), knife=wolves[0]))
    if how == "dead-actor" and t.dead:
        s = data.draw(st.sampled_from(sorted(t.dead)))
        return Table(t.players, t.dead, {**actions, s: data.draw(st.integers(1, 9))}, t.kill)
    if how == "dead-target" and t.dead and actions:
        s = data.draw(st.sampled_from(sorted(actions)))
        target = data.draw(st.sampled_from(sorted(t.dead - {s})) if t.dead - {s} else st.none())
        return None if target is None else Table(t.players, t.dead, {**actions, s: target}, t.kill)
    if how == "no-ability" and idle:
        s = data.draw(st.sampled_from(idle))
        return Table(t.players, t.dead, {**actions, s: 1 if s != 1 else 2}, t.kill)
    if how == "bad-knife" and town:
        k = data.draw(st.sampled_from(sorted(set(range(1, 10)) - set(wolves))))
        return Table(t.players, t.dead, actions, Kill(target=town[0], knife=k))
    if how == "out-of-range":
        bad = data.draw(st.sampled_from([0, 10, -3, 99]))
        where = data.draw(st.sampled_from(["dead", "actor", "target", "kill", "knife"]))
        if where == "dead":
            return Table(t.players, t.dead | {bad}, actions, t.kill)
        if where == "actor":
            return Table(t.players, t.dead, {**actions, bad: 1}, t.kill)
        if where == "target" and actors:
            return Table(t.players, t.dead, {**actions, actors[0]: bad}, t.kill)
        if where in {"kill", "knife"} and t.kill is not None:
            kill = Kill(bad, t.kill.knife) if where == "kill" else Kill(t.kill.target, bad)
            return Table(t.players, t.dead, actions, kill)
        return None
    if how == "not-a-setup":
        swap = data.draw(st.integers(0, 8))
        role = data.draw(st.sampled_from(["noble", "wolf", "seer", "villager"]))
        assume(t.players[swap] != role)
        players = t.players[:swap] + [role] + t.players[swap + 1:]
        assume(sorted(players) not in [list(v) for v in SETUPS.values()])
        return Table(players, t.dead, actions, t.kill)
    return None


@settings(max_examples=600, deadline=None)
@given(legal_nights(), st.sampled_from(["self", "wolf-kill", "dead-actor", "dead-target",
                                        "no-ability", "bad-knife", "out-of-range",
                                        "not-a-setup"]), st.data())
def test_an_illegal_night_always_raises(t, how, data):
    bad = _corrupt(t, how, data)
    assume(bad is not None)
    try:
        resolve(bad.players, bad.dead, bad.actions, bad.kill)
    except IllegalNight as e:
        assert "\n" not in str(e)
    else:
        raise AssertionError(f"{how} was resolved: {bad}")


def _every_night(name: str):
    """Every legal night of a setup seated in its sorted order with nobody
    dead: each actor passes or picks any other seat, the pack kills any Town
    seat with any Wolf-team knife, or does not kill. Rare crossings (a
    blocked Guard saving the victim) that random nights seldom reach are
    all here."""
    players = list(SETUPS[name])
    actors = [s for s in range(1, 10) if players[s - 1] in ACTING]
    choices = [[None] + [t for t in range(1, 10) if t != a] for a in actors]
    kills = [None] + [Kill(target, knife) for target in range(1, 10) for knife in range(1, 10)
                      if players[target - 1] not in WOLF_TEAM and players[knife - 1] in WOLF_TEAM]
    for picks in itertools.product(*choices):
        actions = {a: t for a, t in zip(actors, picks, strict=True) if t is not None}
        for kill in kills:
            yield Table(players, set(), actions, kill)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_night_of_every_setup_keeps_the_kill_and_block_rules(name):
    for t in _every_night(name):
        night = resolve(t.players, t.dead, t.actions, t.kill)
        blocked, shielded = _stopped(t)
        if t.kill is None or t.kill.knife in blocked or t.kill.target in shielded:
            assert night.killed is None, t
        else:
            assert night.killed == t.kill.target, t
        acted = {s for s in t.actions if t.players[s - 1] in INFORMATION}
        assert set(night.results) == acted, t
        assert all((night.results[s] is None) == (s in blocked) for s in acted), t
