"""Saved games read against their history (issue 42, item 3).

A checkpoint that is sealed and well formed may still hold a story no
table can have played: a dead seat accused the next day, a death of night
2 saved as night 2 begins, a broken heart while both Lovers live. Every
checkpoint real play takes (the games driven here on their own clocks,
their choices drawn by hypothesis) is resumed; each impossible story the
issue lists is refused in one line (CannotResume); and random changes to
the stage, the night, the dead and the book of real checkpoints are
either refused in one line or resumed, never a crash.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_saved_games import MAYOR, TIMED_DAY, TIMED_NIGHT, changed
from test_saved_onenight import Saving

from wolfbox.buttons import Button, Hold, Tap
from wolfbox.darkarts import rules
from wolfbox.darkarts import saved as mayor_saved
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.darkarts.model import CHECKPOINTS, Stage
from wolfbox.darkarts.roles import CHOSEN, HUNTER, ROLES, WEREWOLF
from wolfbox.darkarts.seats import Ring
from wolfbox.effects import Checkpoint
from wolfbox.errors import CannotResume
from wolfbox.events import PhonesSeated
from wolfbox.newd3 import saved as timed_saved
from wolfbox.newd3.game import Game as Timed
from wolfbox.onenight import saved as one_saved
from wolfbox.onenight.night import NightOptions
from wolfbox.view import Phase

START, NEXT, VOTE, BACK = (Tap(b) for b in (Button.START, Button.NEXT, Button.VOTE,
                                             Button.BACK))


def record(kind: str, day: int, seat: int, **fields) -> dict:
    """A book entry as the Mayor's game saves it."""
    return {"kind": kind, "day": day, "seat": seat, "role": "", "cause": "", "by": 0,
            "seconded": False, "votes": 0, "needed": 0, "team": "", **fields}


def death(day: int, seat: int, role: str, cause: str, by: int = 0) -> dict:
    return record("death", day, seat, role=role, cause=cause, by=by)


def refused(state: dict) -> str:
    """Why the Mayor's game will not resume `state`: one line, the game
    never built."""
    with pytest.raises(CannotResume) as caught:
        Mayor.from_dict(json.loads(json.dumps(state)))
    assert "\n" not in str(caught.value)
    return str(caught.value)


# ===================================================== the Mayor's game, played
@st.composite
def mayor_setups(draw) -> tuple[int, dict[str, int]]:
    players = draw(st.integers(5, 12))
    wolves = draw(st.integers(1, (players - 1) // 3))
    chosen = {WEREWOLF: wolves}
    room = players - wolves
    for role in CHOSEN[1:]:
        most = ROLES[role].most
        if room >= most and draw(st.booleans()):
            chosen[role], room = most, room - most
    if rules.Setup.of(players, chosen).problem():
        chosen = {WEREWOLF: 1, HUNTER: 1}
    return players, chosen


def play_mayor(data, players: int, chosen: dict[str, int], phones: bool,
               moves: int = 600) -> list[dict]:
    """A Mayor's game played on the box's buttons, each choice drawn: who
    dies in the night and as what, the Lovers, the Hunter's victim, who is
    accused, seconded or not, the hands counted, an undo now and then.
    Every checkpoint the game hands the box, as the disk keeps it."""
    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1)) if n > 1 else 0

    game = Mayor(players=players, chosen=dict(chosen), rng=random.Random(pick(1000)))
    now = 0.0
    effects = []
    if phones:          # a phone at every seat: the box deals the cards to them
        effects += game.handle(PhonesSeated(frozenset(range(1, players + 1))), now)
    effects += game.handle(START, now)
    for _ in range(moves):
        if game.stage is Stage.END:
            break
        if game.stage in (Stage.NIGHT, Stage.DEAL):
            at = game.next_change(now)
            assert at is not None
            now = max(now, at)
            effects += game.tick(now)
            continue
        if game._undo and pick(12) == 0:
            effects += game.handle(Hold(Button.VOTE), now)      # undo the last entry
            continue
        press = {
            Stage.LOVERS: lambda: [NEXT] * pick(players) + [VOTE, NEXT] + [NEXT] * pick(3)
            + [VOTE, START],
            Stage.DAWN: lambda: [NEXT] * (1 + pick(players)) + [VOTE] if pick(3) == 0
            else [START],
            Stage.ROLE: lambda: [NEXT] * (1 + pick(len(game.role_options()))) + [START],
            Stage.SHOT: lambda: [NEXT] * (1 + pick(players)) + [VOTE],
            Stage.CONFIRM: lambda: [START] if pick(5) else [BACK],
            Stage.DISCUSSION: lambda: [VOTE],
            Stage.ACCUSE: lambda: [NEXT] * (1 + pick(players)) + [VOTE]
            + ([] if pick(6) else [START]),
            Stage.SECOND: lambda: [VOTE] if pick(4) else [BACK],
            Stage.DEFENCE: lambda: [VOTE],
            Stage.HANDS: lambda: [NEXT],
            # Mostly enough hands to lynch, so that games go on for days.
            Stage.COUNT: lambda: [VOTE] * (players // 3 + pick(players)) + [START],
            Stage.RESULT: lambda: [START] if pick(3) else [BACK],
        }[game.stage]()
        for tap in press:
            effects += game.handle(tap, now)
            if game.stage is Stage.END:
                break
    return [json.loads(json.dumps(e.state)) for e in effects
            if isinstance(e, Checkpoint) and e.state and e.state["stage"] != "setup"]


def resumes(state: dict) -> Mayor:
    """`state` read, built, and its phase begun again (the table said yes)."""
    game = Mayor.from_dict(state)
    assert game.stage is Stage.RESUME
    game.handle(START, 0.0)
    assert game.stage in CHECKPOINTS
    game.check()
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mayor_setups(), st.booleans(), st.data())
def test_every_checkpoint_of_a_mayors_game_played_is_resumed(setup, phones, data):
    players, chosen = setup
    states = play_mayor(data, players, chosen, phones)
    assert states, "the game took no checkpoint"
    for state in states:
        resumes(state)


# ------------------------------------------------- the stories the issue lists
# MAYOR (tests/test_saved_games.py): 7 seats, Lovers 1 and 2; night 1 killed
# seat 3 (a Villager); day 1 seat 4 survived a vote, seat 7 (a Villager) was
# lynched; the box at the start of night 2. A death added is a Werewolf's
# (another Villager's would end the game: 2 werewolves against 2).
DAY2 = changed(MAYOR, stage="discussion")
DEALT = ["werewolf", "villager", "villager", "hunter", "werewolf", "matchmaker", "villager"]
MAYOR_LISTED = {
    "a dead seat voted on, a later day": changed(DAY2, book=[
        *MAYOR["book"], record("accusation", 2, 7, seconded=True),
        record("vote", 2, 7, votes=1, needed=3)]),
    "a dead seat accused, a later day": changed(DAY2, previous_accused=3, book=[
        *MAYOR["book"], record("accusation", 2, 3)]),
    "the previous accused a dead seat": changed(DAY2, previous_accused=7),
    "a night-2 death at the start of night 2": changed(
        MAYOR, dead={**MAYOR["dead"], "4": "werewolf"},
        book=[*MAYOR["book"], death(2, 4, "werewolf", "night")]),
    "a day-2 lynch saved before day 2": changed(
        MAYOR, stage="dawn", dead={**MAYOR["dead"], "4": "werewolf"},
        book=[*MAYOR["book"], record("accusation", 2, 4, seconded=True),
              record("vote", 2, 4, votes=4, needed=3), death(2, 4, "werewolf", "lynch")]),
    "a heartbreak while both Lovers live": changed(
        MAYOR, dead={**MAYOR["dead"], "4": "werewolf"},
        book=[*MAYOR["book"], death(1, 4, "werewolf", "heartbreak", by=1)]),
    "a Hunter's shot with no Hunter dead": changed(
        MAYOR, dead={**MAYOR["dead"], "4": "werewolf"},
        book=[*MAYOR["book"], death(1, 4, "werewolf", "shot", by=7)]),
    "a dead seat dealt another card than the book turns up": changed(
        MAYOR, dealt=["werewolf", "villager", "hunter", "villager", "werewolf", "matchmaker",
                      "villager"]),
}


def test_the_mayors_stories_below_are_ones_a_table_can_play():
    """The listed cases are each one change from these (so each refusal
    is about that change)."""
    for state in (MAYOR, DAY2, changed(MAYOR, stage="dawn"), changed(MAYOR, dealt=DEALT)):
        resumes(state)


@pytest.mark.parametrize("case", MAYOR_LISTED)
def test_a_mayors_story_that_cannot_have_happened_is_refused(case):
    assert "won" not in refused(MAYOR_LISTED[case])


# =================================================================== the timed game
TIMED_LISTED = {
    # Day 2 (after one night): at most the day-1 vote and the night's kill.
    "three dead by day 2": changed(TIMED_DAY, dead={"1": "sheep", "4": "sheep",
                                                    "7": "sheep"}),
    # Night 2: the votes of days 1 and 2 and the kill of night 1.
    "four dead as night 2 falls": changed(TIMED_NIGHT, chosen=None, killed=None, dead={
        "1": "sheep", "4": "sheep", "7": "sheep", "8": "sheep"}),
    "setup A2 picked, A1 dealt": changed(TIMED_DAY, choice="A2"),
}


@pytest.mark.parametrize("case", TIMED_LISTED)
def test_a_timed_story_that_cannot_have_happened_is_refused(case):
    with pytest.raises(CannotResume):
        Timed.from_dict(TIMED_LISTED[case])


def test_the_timed_stories_below_are_ones_a_table_can_play():
    for state in (TIMED_DAY, changed(TIMED_DAY, choice="A1"),
                  changed(TIMED_DAY, dead={"1": "sheep", "4": "sheep"}),
                  changed(TIMED_NIGHT, chosen=None, killed=None,
                          dead={"1": "sheep", "4": "sheep", "7": "sheep"})):
        timed_saved.read(state)


# ======================================================================= One Night
def discussion_save(presses: int = 0) -> tuple[Saving, dict]:
    """A real round on phones to its discussion, NEXT pressed `presses`
    times there; the table and its last checkpoint."""
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    for _ in range(presses):
        t.press(NEXT)
    t.until(lambda: t.saved[-1]["stage"] == "discussion")
    return t, t.saved[-1]


def test_a_discussion_with_a_day_left_is_refused():
    _t, state = discussion_save()
    assert one_saved.read(state, NightOptions()).saved.seconds
    with pytest.raises(CannotResume):
        one_saved.read({**state, "seconds": 86_400}, NightOptions())


def test_next_adds_time_up_to_the_longest_discussion_and_every_save_of_it_resumes():
    t, _state = discussion_save(presses=80)         # 80 minutes asked for, on 5
    assert t.f.timer.remaining(t.now) <= 3600
    for state in t.saved:
        one_saved.read(state, NightOptions())
    assert max(s["seconds"] or 0 for s in t.saved) == 3600


# ============================================== perturbations of real checkpoints
def living(state: dict) -> list[int]:
    return [s for s in range(1, state["players"] + 1) if str(s) not in state["dead"]]


def left(state: dict) -> str:
    """A card not yet turned up."""
    setup = rules.Setup.of(state["players"], state["roles"])
    return next(iter(rules.roles_left(setup, Ring(state["players"], {
        int(s): r for s, r in state["dead"].items()}))))


def impossible(state: dict) -> dict[str, dict]:
    """The issue's impossible stories, made from a real checkpoint where
    it has what they need: each must be refused."""
    out: dict[str, dict] = {}
    n, stage, dead = state["night"], state["stage"], [int(s) for s in state["dead"]]
    alive = living(state)
    last_day = max((r["day"] for r in state["book"]), default=1)
    if stage == "discussion" and dead:
        out["dead accused"] = changed(state, previous_accused=dead[0], book=[
            *state["book"], record("accusation", n, dead[0])])
        out["dead voted on"] = changed(state, book=[
            *state["book"], record("accusation", n, dead[0], seconded=True),
            record("vote", n, dead[0], votes=0, needed=(len(alive) + 1) // 2)])
        out["previous accused dead"] = changed(state, previous_accused=dead[0])
    if stage in ("night", "dawn") and alive:
        seat, role = alive[0], left(state)
        out["tonight's death saved as it falls"] = changed(
            state, dead={**state["dead"], str(seat): role},
            book=[*state["book"], death(n, seat, role, "night")])
        out["tomorrow's lynch saved tonight"] = changed(
            state, dead={**state["dead"], str(seat): role},
            book=[*state["book"], record("accusation", n, seat, seconded=True),
                  record("vote", n, seat, votes=len(alive), needed=(len(alive) + 1) // 2),
                  death(n, seat, role, "lynch")])
    lovers = state["lovers"]
    if lovers and all(s in alive for s in lovers) and len(alive) > 2:
        victim = next(s for s in alive if s not in lovers)
        role = left(state)
        out["heartbreak, both Lovers alive"] = changed(
            state, dead={**state["dead"], str(victim): role},
            book=[*state["book"], death(last_day, victim, role, "heartbreak", by=lovers[0])])
    shooters = [s for s in dead if state["dead"][str(s)] != HUNTER]
    if shooters and alive:
        role = left(state)
        out["shot, no Hunter dead"] = changed(
            state, dead={**state["dead"], str(alive[0]): role},
            book=[*state["book"], death(last_day, alive[0], role, "shot", by=shooters[0])])
    dealt = state.get("dealt")
    if dealt and dead:
        other = next((i for i, card in enumerate(dealt) if card != dealt[dead[0] - 1]), None)
        if other is not None:
            swapped = list(dealt)
            swapped[dead[0] - 1], swapped[other] = swapped[other], swapped[dead[0] - 1]
            out["a dead seat's phone dealt another card"] = changed(state, dealt=swapped)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mayor_setups(), st.booleans(), st.data())
def test_the_impossible_stories_made_from_real_checkpoints_are_refused(setup, phones, data):
    players, chosen = setup
    for state in play_mayor(data, players, chosen, phones):
        for case, spoilt in impossible(state).items():
            assert refused(spoilt), case


FIELDS = ("stage", "night", "dead", "book", "previous_accused", "lovers", "dealt")


@st.composite
def perturbed(draw, state: dict) -> dict:
    """`state` with one to three of its story's fields changed at random."""
    out = copy.deepcopy(state)
    for _ in range(draw(st.integers(1, 3))):
        seats = st.integers(0, out["players"] + 1)
        match draw(st.sampled_from(FIELDS)):
            case "stage":
                out["stage"] = draw(st.sampled_from(["deal", "night", "dawn", "discussion"]))
            case "night":
                out["night"] = max(1, out["night"] + draw(st.integers(-2, 2)))
            case "dead":
                dead = out["dead"]
                if dead and draw(st.booleans()):
                    dead.pop(draw(st.sampled_from(sorted(dead))))
                else:
                    dead[str(draw(seats))] = draw(st.sampled_from(sorted(ROLES)))
            case "book" if out["book"]:
                book = out["book"]
                at = draw(st.integers(0, len(book) - 1))
                what = draw(st.sampled_from(["drop", "day", "seat", "by", "cause", "swap",
                                             "votes"]))
                if what == "drop":
                    book.pop(at)
                elif what == "day":
                    book[at]["day"] = max(1, book[at]["day"] + draw(st.integers(-1, 1)))
                elif what in ("seat", "by"):
                    book[at][what] = draw(seats)
                elif what == "cause":
                    book[at]["cause"] = draw(st.sampled_from(["night", "lynch", "heartbreak",
                                                              "shot"]))
                elif what == "votes":
                    book[at]["votes"] = draw(st.integers(0, 25))
                elif at + 1 < len(book):
                    book[at], book[at + 1] = book[at + 1], book[at]
            case "previous_accused":
                out["previous_accused"] = draw(st.none() | seats)
            case "lovers":
                out["lovers"] = draw(st.none() | st.lists(seats, min_size=2, max_size=2))
            case "dealt" if out.get("dealt"):
                out["dealt"] = draw(st.permutations(out["dealt"]))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mayor_setups(), st.booleans(), st.data())
def test_perturbed_real_checkpoints_are_refused_in_one_line_or_resumed(setup, phones, data):
    players, chosen = setup
    states = play_mayor(data, players, chosen, phones, moves=250)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=8)):
        spoilt = data.draw(perturbed(state))
        try:
            mayor_saved.read(spoilt)
        except CannotResume as e:
            assert "\n" not in str(e)
            continue
        game, now = resumes(spoilt), 0.0
        for _ in range(30):             # plays on, on its own clock
            at = game.next_change(now)
            if at is None:
                break
            now = max(now, at)
            game.tick(now)
            game.check()


def test_where_the_box_dealt_the_cards_a_death_turns_up_the_card_dealt():
    """The phone of a dead seat showed its card all game: the book takes no
    other. The picker still offers every card left (one that offered the
    dealt card alone would show a living player's card on the table's
    screen the moment the wrong seat was marked); another card is refused
    with a line that names none."""
    from test_darkarts_game import VOTE_
    from test_mayor_phones import MAYOR as CONSOLE
    from test_mayor_phones import PLAYERS, table

    from wolfbox.darkarts.roles import role_name
    t = table(PLAYERS | {CONSOLE})
    t.press(START)
    t.lovers_to_dawn()
    assert t.g.dealt is not None
    t.seat(4)
    t.press(VOTE_)
    assert t.g.stage is Stage.ROLE
    dealt = role_name(t.g.dealt[3])
    shown = set()
    for _ in range(len(ROLES) + 1):
        t.press(NEXT)
        shown.add(t.g.view(t.now).big)
    assert len(shown) > 1 and dealt in shown            # every card left, not the dealt alone
    while t.g.view(t.now).big == dealt:
        t.press(NEXT)
    t.press(START)                                      # another card: refused
    assert t.g.stage is Stage.ROLE
    alert = t.g.view(t.now).alert
    assert alert == "That is not the card on this seat's phone: check the seat and the card."
    assert not any(role_name(r) in alert for r in ROLES)
    while t.g.view(t.now).big != dealt:
        t.press(NEXT)
    t.press(START)                                      # the dealt card: shown back
    assert t.g.stage is Stage.CONFIRM


# ======================================================= the timed game, played
def play_timed(data) -> list[dict]:
    """A timed game from its deal to its end (or 6 days), on its clock:
    each day a seat drawn gets a count of votes drawn (a strict majority
    puts it out); each night every living role aims at a seat drawn and
    the Wolves mark a victim and a knife drawn, or none. Every checkpoint
    the game hands the box, as the disk keeps it."""
    from test_newd3_game import Table, finish_night, play_night, to_tally, vote

    from wolfbox.newd3.game import Stage as TimedStage
    from wolfbox.newd3.roles import is_wolf_team
    from wolfbox.newd3.setups import SETUPS

    choice = data.draw(st.sampled_from(["", *sorted(SETUPS)]))
    table = Table(Timed(choice=choice, rng=random.Random(data.draw(st.integers(0, 99)))))
    g = table.g
    table.tap(Button.START)
    for _day in range(6):
        table.until(lambda: g.stage in (TimedStage.DISCUSSION, TimedStage.END))
        if g.stage is TimedStage.END:
            break
        to_tally(table)
        alive = [s for s in range(1, 10) if s not in g.dead]
        vote(table, data.draw(st.sampled_from(alive)), data.draw(st.integers(0, len(alive))))
        table.tap(Button.START)
        table.until(lambda: g.stage is TimedStage.END
                    or (g.stage is TimedStage.NIGHT and table.in_window()))
        if g.stage is TimedStage.END:
            break
        alive = [s for s in range(1, 10) if s not in g.dead]
        wolves = [s for s in alive if is_wolf_team(g.seats[s - 1])]
        town = [s for s in alive if s not in wolves]
        choices = {g.seats[s - 1]: data.draw(st.sampled_from([o for o in alive if o != s]))
                   for s in alive if data.draw(st.booleans())}
        marks = [data.draw(st.none() | st.sampled_from(town)) for _ in range(2)]
        knives = [data.draw(st.none() | st.sampled_from(wolves)) for _ in range(2)]
        play_night(table, choices, victims=marks, knives=knives)
        finish_night(table)
    return [json.loads(json.dumps(e.state)) for e in table.effects
            if isinstance(e, Checkpoint) and e.state and e.state["stage"] != "setup"]


def timed_resumes(state: dict) -> None:
    game = Timed.from_dict(state, rng=random.Random(0))
    game.handle(START, 0.0)
    game.check()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_checkpoint_of_a_timed_game_played_is_resumed_and_its_impossible_twins_refused(
        data):
    from wolfbox.newd3.setups import SETUPS
    for state in play_timed(data):
        timed_resumes(state)
        other = next(name for name in sorted(SETUPS) if name != state["setup"])
        with pytest.raises(CannotResume):
            timed_saved.read(changed(state, choice=other))
        # One death more than its days and nights can have killed: the game
        # opens on day 1; at night n of a day, n votes and n kills are done;
        # as night n falls, n votes and n - 1 kills; the end may follow a vote.
        n = state["night"]
        most = {"deal": 0, "night": 2 * n - 1, "end": 2 * n + 1}.get(state["stage"], 2 * n)
        dead = dict(state["dead"])
        for seat in range(1, 10):
            if len(dead) > most:
                break
            dead.setdefault(str(seat), state["seats"][seat - 1])
        if len(dead) > most:
            with pytest.raises(CannotResume):
                timed_saved.read(changed(state, dead=dead))


# ================================================== One Night's discussion, played
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 400), st.integers(0, 12)), min_size=1, max_size=8))
def test_every_checkpoint_of_a_one_night_discussion_played_is_resumed(moves):
    """Time passes and NEXT adds time, in any mix: each checkpoint is read
    back, with no more time than the longest discussion (an hour)."""
    t, _state = discussion_save()
    for wait, presses in moves:
        if t.f.phase is not Phase.DISCUSSION:
            break
        t.until(lambda end=t.now + wait: t.now >= end or t.f.phase is not Phase.DISCUSSION)
        for _ in range(presses):
            if t.f.phase is Phase.DISCUSSION:
                t.press(NEXT)
    for state in t.saved:
        assert (state["seconds"] or 0) <= 3600
        one_saved.read(state, NightOptions())
