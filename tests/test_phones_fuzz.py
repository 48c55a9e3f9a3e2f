"""Nothing a phone sends can crash the box or change another seat (issue 22,
item 7): each game, with a phone at every seat, driven by random buttons,
random waits and random phone messages (answers to the task shown, to
another seat's task, to no task; options offered and not; too many, too
few). The game's own invariants (`check()`) hold after every step, and an
answer from one seat never changes what another seat has answered to a
task still open on its phone."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pilot import GameDriver

from wolfbox.buttons import GAME_BUTTONS
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.phone import Task

STEPS = 80                     # moves in one game
ONE_NIGHT_DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "drunk",
                  "insomniac", "villager"]


def one_night(seed: int):
    from wolfbox.onenight.flow import Flow, RoundSettings
    return Flow(RoundSettings.for_deck(ONE_NIGHT_DECK), rng=random.Random(seed)), 5


def timed(seed: int):
    from wolfbox.newd3.game import Game
    return Game(rng=random.Random(seed)), 9


def mayor(seed: int):
    from test_darkarts_game import ROLES7

    from wolfbox.darkarts.game import Game
    return Game(players=7, chosen=dict(ROLES7), rng=random.Random(seed)), 8


GAMES = {"one_night": one_night, "timed": timed, "mayor": mayor}

moves = st.lists(st.one_of(
    st.tuples(st.just("tap"), st.sampled_from(GAME_BUTTONS)),
    st.tuples(st.just("hold"), st.sampled_from(GAME_BUTTONS)),
    st.tuples(st.just("step"), st.integers(1, 40)),
    st.tuples(st.just("phone"), st.integers(0, 12), st.sampled_from(["own", "other", "junk"]),
              st.sampled_from(["offered", "any"]),
              st.lists(st.integers(0, 999), max_size=4), st.integers(0, 3)),
), min_size=STEPS // 2, max_size=STEPS)


def tasks(d: GameDriver, seats: int) -> dict[int, Task]:
    return {s: t for s in range(1, seats + 1)
            if (t := d.g.phone_view(s, d.now).task) is not None}


def answer(d: GameDriver, seats: int, move: tuple) -> PhoneChoice:
    """A phone message as a phone (or a broken one) might send it."""
    _kind, seat, whose, what, numbers, picks = move
    open_tasks = tasks(d, seats)
    task = open_tasks.get(seat)
    others = [t for s, t in open_tasks.items() if s != seat]
    if whose == "own" and task is not None:
        step = task.step
    elif whose == "other" and others:
        step = others[0].step
    else:
        step = "n9.nothing"
    offered = [i for i, _w in (*task.options, *task.actions)] if task is not None else []
    if what == "offered" and offered:
        choice = tuple(offered[(n + picks) % len(offered)] for n in numbers[:max(1, picks)])
    else:
        choice = tuple(numbers)
    return PhoneChoice(seat, step, choice)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000), plan=moves)
def test_no_phone_message_crashes_a_game_or_moves_another_seat(game, seed, plan):
    made, seats = GAMES[game](seed)
    d = GameDriver(made, check=game != "one_night")     # One Night's check() takes the time
    d.press(PhonesSeated(frozenset(range(1, seats + 1))))
    for move in plan:
        if getattr(d.g, "stage", None) is not None and str(d.g.stage).lower() == "end":
            break
        match move[0]:
            case "tap":
                d.tap(move[1])
            case "hold":
                d.hold(move[1])
            case "step":
                for _ in range(move[1]):
                    if d.g.next_change(d.now) is None:
                        break
                    d.step()
            case "phone":
                before = tasks(d, seats)
                message = answer(d, seats, move)
                d.press(message)
                after = tasks(d, seats)
                for seat, task in before.items():
                    if seat != message.seat and seat in after and after[seat].step == task.step:
                        assert after[seat].chosen == task.chosen, (game, message, seat)
        if game == "one_night":
            made.check(d.now)
