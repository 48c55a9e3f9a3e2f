"""A valid saved game of each mode, spoilt a thousand ways (hypothesis): wrong
types, keys deleted, numbers out of range, negative or huge, unknown words,
lists of the wrong length. Whatever the file holds, checking it, building the
game from it, resuming it and playing on a few steps (on the game's own clock)
never crash; and the lines said on resuming never tell of a death the
checked state does not hold."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_saved_games import MAYOR, TIMED_DAWN, TIMED_DAY, TIMED_NIGHT

from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.darkarts import saved as mayor_saved
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.darkarts.roles import ROLES as MAYOR_ROLES
from wolfbox.effects import Say
from wolfbox.events import SpeechDone
from wolfbox.newd3 import saved as timed_saved
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.roles import ROLES as TIMED_ROLES
from wolfbox.newd3.setups import SETUPS
from wolfbox.onenight import saved as one_saved
from wolfbox.onenight.flow import Flow as OneNight
from wolfbox.onenight.flow import RoundSettings
from wolfbox.onenight.night import NightOptions
from wolfbox.onenight.roles import ROLES as ONE_ROLES

# Every phase a game resumes at, and the setup, for each mode.
MAYORS = [
    MAYOR,
    {**MAYOR, "stage": "dawn"},
    {**MAYOR, "stage": "discussion"},
    {"version": 1, "stage": "setup", "players": 9, "roles": {"werewolf": 2, "noble": 2}},
]
TIMEDS = [
    TIMED_DAWN, TIMED_NIGHT, TIMED_DAY,
    {**TIMED_DAY, "stage": "vote"},
    {**TIMED_DAY, "stage": "deal", "dead": {}, "night": 0, "killed": None},
    {"version": 1, "stage": "setup", "choice": "B2"},
]

# What a file can hold in a value's place: the numbers and words that sit
# near the edges, and anything JSON can say.
EDGY = st.integers(-2, 21) | st.sampled_from([-5, 99, 1_000_000, 2**64, -2**70, "",
                        "1", "seat four", "martian", "werewolf", "villager", "wolf", "sheep",
                        "night", "dawn", "end", "setup", "A1", "town", "wolves", "draw",
                        "village", "werewolves", "death", True, False, None, 1.5])
LEAF = st.one_of(EDGY, st.integers(), st.text(max_size=6), st.floats(allow_nan=True))
KEYS = st.one_of(st.sampled_from(["1", "2", "3", "5", "9", "0", "-1", "99", "x", "werewolf"]),
                 st.text(max_size=4))
JSON = st.recursive(LEAF, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(KEYS, kids, max_size=4), max_leaves=6)


@st.composite
def places(draw, value):
    """A place in a JSON value, as the keys and indexes leading there: a
    key of the top level first, each as likely (so `killed` is picked as
    often as the nine `seats`), then deeper, or not."""
    here: tuple = ()
    while isinstance(value, dict | list) and value:
        if here and draw(st.integers(0, 2)) == 2:
            break
        keys = list(value) if isinstance(value, dict) else list(range(len(value)))
        key = draw(st.sampled_from(keys))
        here, value = (*here, key), value[key]
    return here


# Words the two games save: a spoilt state often holds a real one in the wrong place.
WORDS = st.sampled_from(sorted({*MAYOR_ROLES, *TIMED_ROLES, *ONE_ROLES, *SETUPS, "night",
                                "dawn", "dealt", "werewolves", "wake_up", "close_eyes",
                                "discussion", "vote", "deal", "end", "setup", "town", "wolves",
                                "draw", "village", "death", "accusation",
                                "lynch", "shot", "heartbreak", "martian", ""}))


def plausible(value):
    """A value of the same kind as `value`, near what the games save."""
    if isinstance(value, bool) or value is None:
        return st.none() | st.booleans() | st.integers(-1, 10)
    if isinstance(value, int):
        return st.integers(-2, 21)
    if isinstance(value, str):
        return WORDS
    return st.nothing()


@st.composite
def spoilt(draw, bases):
    """A valid state with one or two things changed; half the changes are
    plausible (a number near the range, a word the games use) so that many
    spoilt states pass the schema and test the rules' checks behind it."""
    state = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        where = draw(places(state))
        if not where or draw(st.integers(0, 19)) == 19:
            state = draw(JSON)                           # not even a game's object
            continue
        parent = state
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        how = draw(st.sampled_from(["plausible"] * 5 + ["replace", "edge", "delete", "grow",
                                                        "shrink", "key"]))
        value = parent[last]
        if how == "delete":
            del parent[last]
        elif how == "grow" and isinstance(value, list):
            value.append(draw(st.sampled_from(value) if value else EDGY))
        elif how == "shrink" and isinstance(value, list) and value:
            value.pop(draw(st.integers(0, len(value) - 1)))
        elif how == "key" and isinstance(value, dict):
            value[draw(KEYS)] = draw(WORDS | EDGY | JSON)
        elif how == "edge":
            parent[last] = draw(EDGY)
        elif how == "plausible" and not isinstance(value, dict | list):
            parent[last] = draw(plausible(value))
        else:
            parent[last] = draw(JSON)
    return state


def leaves(value, here=()):
    """Every number, word, true/false or null in a JSON value, by its place."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, (*here, i))
    else:
        yield here


@st.composite
def nudged(draw, bases):
    """A valid state with one value changed to a near one of its kind (a
    seat, a night, a role): each passes the schema, so the rules' checks
    behind it are what must hold."""
    state = copy.deepcopy(draw(st.sampled_from(bases)))
    places = list(leaves(state))
    top = draw(st.sampled_from(sorted({str(p[0]) for p in places})))    # each key as likely
    where = draw(st.sampled_from([p for p in places if p[0] == top]))
    parent = state
    for step in where[:-1]:
        parent = parent[step]
    parent[where[-1]] = draw(plausible(parent[where[-1]]))
    return state


def spoilt_or_nudged(bases):
    return st.one_of(nudged(bases), spoilt(bases))


STEPS = st.lists(st.one_of(
    st.sampled_from([Tap(b) for b in GAME_BUTTONS]),
    st.sampled_from([Hold(Button.BACK), Hold(Button.VOTE)]),
    st.just("spoken"), st.just("due"), st.floats(0.0, 60.0)), max_size=12)

# The lines that tell of a death, by the seat they name.
DEATHS = re.compile(r"Seat (-?\d+)(?: has died| was a Lover| was killed| was the|, you are out"
                    r"| is out)|shot seat (-?\d+)")


def resumed_and_played(game, steps) -> list[str]:
    """START on the resume screen, the lines said in the phase it resumes
    (the resume's own), then `steps`; game.check() after each. The
    resume's lines."""
    now, token = 0.0, 0
    said: list[str] = []

    def take(out) -> None:
        nonlocal token
        for e in out:
            if isinstance(e, Say):
                said.append(e.text)
                token = e.token

    take(game.handle(Tap(Button.START), now))
    stage = game.stage
    for _ in range(12):          # the resume's lines, each to its end, in its phase
        take(game.handle(SpeechDone(token), now))
        due = game.next_change(now)
        if due is None or game.stage is not stage:
            break
        now = max(now, due)
        take(game.tick(now))
        game.check()
    resume_lines = list(said)
    for step in steps:
        if step == "spoken":
            take(game.handle(SpeechDone(token), now))
        elif step == "due":
            due = game.next_change(now)
            if due is not None:
                now = max(now, due)
                take(game.tick(now))
        elif isinstance(step, float):
            now += step
            take(game.tick(now))
        else:
            take(game.handle(step, now))
        game.check()
    return resume_lines


def told_dead(lines: list[str]) -> set[int]:
    return {int(a or b) for line in lines for a, b in DEATHS.findall(line)}


FUZZ = settings(max_examples=2500, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FUZZ
@given(spoilt_or_nudged(MAYORS), STEPS)
def test_a_spoilt_mayors_game_is_refused_or_resumed_truthfully(state, steps):
    try:
        checked = mayor_saved.read(state)
    except mayor_saved.CannotResume:
        with pytest.raises(mayor_saved.CannotResume):            # the game refuses it too
            Mayor.from_dict(state)
        return
    game = Mayor.from_dict(state)
    lines = resumed_and_played(game, steps)
    dead = set(getattr(checked, "dead", {}))
    assert told_dead(lines) <= dead, (lines, dead)


@FUZZ
@given(spoilt_or_nudged(TIMEDS), STEPS)
def test_a_spoilt_timed_game_is_refused_or_resumed_truthfully(state, steps):
    try:
        checked = timed_saved.read(state)
    except timed_saved.CannotResume:
        with pytest.raises(timed_saved.CannotResume):            # the game refuses it too
            Timed.from_dict(state)
        return
    game = Timed.from_dict(state)
    lines = resumed_and_played(game, steps)
    if isinstance(checked, str):
        assert not told_dead(lines)
        return
    told = told_dead(lines)
    assert told <= set(checked.dead), (lines, checked.dead)
    assert told <= {checked.killed}, (lines, checked.killed)   # the dawn tells its own death
    for seat in told:
        assert any(f"Seat {seat} was the {word}" in line for line in lines
                   for word in [checked.seats[seat - 1].replace("_", " ").title()])


def one_night_saves() -> list[dict]:
    """A One Night round with cards on phones saved dealt, in the night (the
    Seer answered), in the discussion and in the vote, and one without
    phones in the night."""
    from test_saved_onenight import Saving
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    out = [json.loads(json.dumps(one_saved.state(one_saved.DEALT, t.f.settings.deck, 7,
                                                  t.f.table)))]
    t.press(Tap(Button.START))
    t.call("seer")
    t.choose(2, 1)
    t.everyone_else({2})
    t.call("robber")
    out.append(t.saved[-1])
    t.until(lambda: t.f.phase.value == "discussion")
    out.append(t.saved[-1])
    t.press(Tap(Button.VOTE))
    t.until(lambda: t.f.table.voting)
    t.choose(1, 3)
    out.append(t.saved[-1])
    bare = copy.deepcopy(out[1])
    bare["table"] = None
    return [*out, bare]


ONE_NIGHTS = one_night_saves()
ONE_DECK = ONE_NIGHTS[0]["deck"]


@settings(max_examples=1500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(spoilt_or_nudged(ONE_NIGHTS), STEPS)
def test_a_spoilt_one_night_round_is_refused_or_resumed_without_a_crash(state, steps):
    """Refused by `read` and by the flow alike; or resumed and played on,
    the flow's own check holding after every step."""
    f = OneNight(RoundSettings.for_deck(ONE_DECK))
    try:
        one_saved.read(state, NightOptions())
    except one_saved.CannotResume:
        with pytest.raises(ValueError):
            f.restore(state)
        return
    f.restore(state)
    now, token = 0.0, 0
    for step in [Tap(Button.START), *steps]:
        if step == "spoken":
            out = f.handle(SpeechDone(token), now)
        elif step == "due":
            due = f.next_change(now)
            now = now if due is None else max(now, due)
            out = f.tick(now)
        elif isinstance(step, float):
            now += step
            out = f.tick(now)
        else:
            out = f.handle(step, now)
        token = next((e.token for e in out if isinstance(e, Say)), token)
        f.check(now)
