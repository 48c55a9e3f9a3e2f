"""One Night comes back after a power cut (issue 29, item 3).

With the cards on the phones, a power cut or a crash lost the deal, and the
phones that joined again were dealt anew without a word. Now the round is
saved from the deal to the vote (wolfbox.onenight.saved): restarted, the
box offers it on the start screen, and resumes the night at the call that
was running (its answers kept, nobody acting twice), the discussion with
the time it had at its last whole minute, the vote with the votes given.
A deal made before START is dealt again as it was. A save the round could
not have written is refused, and the start screen says so.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from test_onenight_phones import BASE5, START, Table

from wolfbox.buttons import Button, Tap
from wolfbox.config import Config
from wolfbox.effects import Checkpoint
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.onenight import saved
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.night import NightOptions, night_script
from wolfbox.onenight.phones import PAIR, PhoneNight
from wolfbox.view import Phase

BACK = Tap(Button.BACK)
VOTE = Tap(Button.VOTE)
CANNOT_RESUME = "Saved game unreadable: a new game starts"


class Saving(Table):
    """A table of phones whose every checkpoint is kept, as the box's disk
    would keep it (JSON)."""

    def __init__(self, *args, **kw) -> None:
        self.saved: list[dict] = []
        super().__init__(*args, **kw)

    def _heard(self, effects) -> None:
        super()._heard(effects)
        self.saved += [json.loads(json.dumps(e.state)) for e in effects
                       if isinstance(e, Checkpoint)]

    def cut(self, **kw) -> Flow:
        """The power goes: a new box's round, from the last checkpoint."""
        assert self.saved and self.saved[-1], "nothing was saved"
        again = Flow(RoundSettings.for_deck(BASE5, NightOptions(**kw)),
                     rng=random.Random(99))
        again.restore(self.saved[-1])
        return again


def resumed(table: Saving, f: Flow) -> Saving:
    """`table` on the restored round `f`, its phones joined again."""
    table.f = f
    table.f.handle(PhonesSeated(frozenset(range(1, table.n + 1))), table.now)
    return table


# ------------------------------------------------------------------ the night
def test_a_cut_in_the_night_resumes_the_call_with_its_answers_and_nobody_acts_twice():
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.call("seer")
    t.choose(2, 1)                                         # the Seer looks at seat 1
    t.everyone_else({2})
    learned = t.secret(2)
    assert "Seat 1: Werewolf." in learned
    t.call("robber")
    t.choose(3, 4)                                         # the Robber takes seat 4's card
    cards = list(t.cards())
    assert cards[2] == "troublemaker" and cards[3] == "robber"

    f = t.cut()
    assert f.phase is Phase.IDLE and f.table is None       # nothing until the table says so
    view = f.view(t.now)
    assert view.title == "Resume the saved game?"
    assert view.details == ("Night · Robber",)
    assert view.label(Button.START) == "Resume" and view.label(Button.BACK) == "New game"
    t = resumed(t, f)
    assert t.f.table is None                               # no new deal for the phones meanwhile
    t.press(START)
    assert t.f.phase is Phase.NIGHT and t.f.settings.night[t.f.step_index].id == "robber"
    assert t.said[-1][1].startswith("Robber")              # the call is said again
    assert t.cards() == cards                              # one robbery, not two
    assert t.task(3).chosen == (4,)                        # answered: kept
    assert "Troublemaker" in " ".join(t.secret(3))         # and what it saw
    t.press(PhoneChoice(3, t.task(3).step, (1,)))          # a second robbery is not taken
    assert t.cards() == cards
    t.call("troublemaker")
    t.choose(4, 1, 2)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    assert t.cards()[:5] == ["seer", "werewolf", "troublemaker", "robber", "werewolf"]
    assert t.f.table.dealt == tuple(["werewolf", "seer", "robber", "troublemaker",
                                     "werewolf", "villager", "villager", "drunk"])


def test_the_night_before_the_cut_is_told_in_full_at_the_verdict():
    """What happened (the deal, each move, the votes) comes through the cut."""
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.call("robber")
    t.choose(3, 2)
    t.call("troublemaker")
    t = resumed(t, t.cut())
    t.press(START)
    t.call("troublemaker")
    t.choose(4, 1, 5)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    moves = t.f.table.moves
    assert len(moves) == 2 and "Seat 3" in moves[0] and "Seat 4" in moves[1]


def test_vote_pressed_in_the_night_resumes_at_the_wake_up():
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.call("seer")
    t.press(VOTE)
    t = resumed(t, t.cut())
    t.press(START)
    assert t.f.settings.night[t.f.step_index].id == "wake_up"
    t.until(lambda: t.f.phase is not Phase.NIGHT)
    assert t.f.phase is Phase.VOTE                         # the vote, as VOTE asked


# ------------------------------------------------- the discussion, the vote
def test_a_cut_in_the_discussion_resumes_its_time_to_the_minute_above():
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    began = t.now
    t.until(lambda: t.f.timer.remaining(t.now) < 170)     # 5 minutes, 2:10 gone
    assert t.now - began > 130
    f = t.cut()
    assert f.view(t.now).details == ("Discussion, 3:00 left",)
    t = resumed(t, f)
    t.press(START)
    assert t.f.phase is Phase.DISCUSSION and t.f.timer.remaining(t.now) == 180
    assert t.f.table.dawn                                  # the marks the table sees, as before


def test_a_cut_in_the_vote_keeps_the_votes_given():
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    t.until(lambda: t.f.table.voting)
    t.press(PhoneChoice(1, t.f.table.vote_step(), (2,)))
    t.press(PhoneChoice(3, t.f.table.vote_step(), (1,)))
    t = resumed(t, t.cut())
    assert t.f.view(t.now).details == ("Vote",)
    t.press(START)
    assert t.f.phase is Phase.VOTE and t.f.table.votes == {1: 2, 3: 1}
    t.until(lambda: t.f.phase is Phase.VERDICT)
    assert t.saved[-1] == {}                               # the round is over: nothing kept


# ----------------------------------------------------------------- the deal
def test_a_deal_before_start_is_dealt_again_as_it_was():
    f = Flow(RoundSettings.for_deck(BASE5), rng=random.Random(3))
    effects = f.handle(PhonesSeated(frozenset(range(1, 6))), 0.0)
    state = [e.state for e in effects if isinstance(e, Checkpoint)][-1]
    assert state["stage"] == "dealt"
    again = Flow(RoundSettings.for_deck(BASE5), rng=random.Random(4))
    again.restore(json.loads(json.dumps(state)))
    assert again.resumed is None                           # nothing to ask: START as ever
    again.handle(PhonesSeated(frozenset(range(1, 6))), 0.0)
    assert again.table is not None and again.table.dealt == f.table.dealt
    assert again.phone_view(2, 0.0).secret == f.phone_view(2, 0.0).secret
    other = Flow(RoundSettings.for_deck(BASE5[:-1] + ["insomniac"]), rng=random.Random(4))
    other.restore(json.loads(json.dumps(state)))           # another deck since: dealt anew
    assert other.table is None


def test_new_game_forgets_the_saved_round():
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.call("seer")
    t = resumed(t, t.cut())
    t.press(BACK)
    assert t.f.resumed is None and t.f.phase is Phase.IDLE
    assert t.saved[-1]["stage"] == "dealt"                 # a new deal, saved as such
    assert t.f.table is not None and not t.f.table.started


# -------------------------------------------------------------- without phones
def test_without_phones_the_night_resumes_at_its_call_and_the_discussion_its_time():
    f = Flow(RoundSettings.for_deck(BASE5))
    now, states = 0.0, []

    def run(effects):
        states.extend(e.state for e in effects if isinstance(e, Checkpoint))

    run(f.handle(START, now))
    while f.settings.night[f.step_index].id != "robber":
        now = f.next_change(now)
        run(f.tick(now))
    again = Flow(RoundSettings.for_deck(BASE5))
    again.restore(json.loads(json.dumps(states[-1])))
    assert again.view(now).details == ("Night · Robber",)
    again.handle(START, now)
    assert again.phase is Phase.NIGHT and again.settings.night[again.step_index].id == "robber"
    assert again.table is None


# ---------------------------------------------------------------- refused
def night_save() -> dict:
    t = Saving(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
               ["villager", "villager", "drunk"])
    t.press(START)
    t.call("seer")
    t.choose(2, 1)
    t.everyone_else({2})
    t.call("robber")
    return copy.deepcopy(t.saved[-1])


def spoil(**changes) -> dict:
    out = night_save()
    for path, value in changes.items():
        *parents, last = path.split("__")
        here = out
        for key in parents:
            here = here[int(key) if isinstance(here, list) else key]
        here[int(last) if isinstance(here, list) else last] = value
    return out


def test_the_night_save_resumes():
    state = night_save()
    assert state["stage"] == "night" and state["call"] == "robber"
    assert saved.read(state, NightOptions()).table is not None


REFUSED = {
    "the round over": lambda: spoil(stage="reveal"),
    "an unknown card": lambda: spoil(deck=["martian"] * 8),
    "cards dealt not the deck's": lambda: spoil(table__dealt=["werewolf"] * 8),
    "a seat short": lambda: spoil(table__dealt=night_save()["table"]["dealt"][:7]),
    "five tokens": lambda: spoil(table__tokens=night_save()["table"]["tokens"][:5]),
    "the call not at its step": lambda: spoil(call="seer"),
    "a step past the night": lambda: spoil(step=40),
    "a Seer looking at herself": lambda: spoil(table__answers=[["seer", 2, [[2]]]]),
    "an answer of a call to come": lambda: spoil(table__answers=[["troublemaker", 4, [[1, 5]]]]),
    "a call no deck makes": lambda: spoil(table__answers=[["vampire", 4, [[1]]]]),
    "a seat past the table": lambda: spoil(table__answers=[["seer", 9, [[1]]]]),
    "votes in the night": lambda: spoil(votes={"1": 2}),
    "a discussion's time in the night": lambda: spoil(seconds=120),
    "a discussion with no time": lambda: spoil(stage="discussion", step=0, call=""),
    "a deal before START with answers": lambda: spoil(stage="dealt", step=0, call=""),
    "the table's and its own cards": lambda: spoil(own=True),
    "dealt null in a phones night": lambda: spoil(table=None, votes={"1": 2}, stage="vote",
                                                  step=0, call=""),
    "a vote for oneself": lambda: spoil(stage="vote", step=0, call="", votes={"1": 1}),
    "version 2": lambda: spoil(version=2),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_save_the_round_could_not_have_written_is_refused(case):
    with pytest.raises(saved.CannotResume):
        saved.read(REFUSED[case](), NightOptions())
    f = Flow(RoundSettings.for_deck(BASE5))
    with pytest.raises(ValueError):
        f.restore(REFUSED[case]())
    assert f.resumed is None and f.table is None and f.saves.state is None


# ------------------------------------------------------------ the largest
def test_the_largest_round_saved_is_read_back_within_the_states_limit(tmp_path):
    """Every card the game has (26 players), every seat answering every
    step of the night: the save, beside the other games', stays well
    within what the box reads back."""
    from test_saved_checks import MAYOR_PHONES, TIMED_NIGHT

    from wolfbox.device.state import MAX_STATE_BYTES, StateStore
    from wolfbox.onenight.roles import ROLES
    deck = [r for r, role in sorted(ROLES.items()) for _copy in range(role.copies)]
    table = PhoneNight.deal(deck, random.Random(1), True, 1)
    table.started = True
    for step in night_script(deck, NightOptions(phones=True)):
        table.begin(step.id)
        while table.open and (asked := [s for s in table.seats if table.task(s)
                                        and not table.task(s).chosen]):
            for seat in asked:
                task = table.task(seat)
                ids = [o for o, _w in task.options]
                if not any(table.answer(seat, task.step, tuple(ids[k:k + task.pick]))
                           for k in range(len(ids) - task.pick + 1)):
                    table.close()              # nothing it may choose: as a call that ends
        table.close()
    assert table.players == 26 and len(table.answers) > 26 * 15
    state = saved.state(saved.VOTE, deck, 1, table, votes={s: 1 for s in range(2, 27)})
    path = tmp_path / "state.json"
    StateStore(path).save({"games": {"one_night": state, "dark_arts": MAYOR_PHONES,
                                     "newd3": TIMED_NIGHT}})
    assert path.stat().st_size < MAX_STATE_BYTES / 2
    assert StateStore(path).load()["games"]["one_night"] == json.loads(json.dumps(state))
    assert saved.read(state, NightOptions()).table.cards == table.cards


# ------------------------------------------------------------------ the box
def box_config() -> Config:
    config = Config()
    config.voice.enabled = False
    config.game.mode = "one_night"
    config.game.deck = list(BASE5)
    return config


def test_a_power_cut_on_the_box_resumes_the_same_deal(pilots):
    first = pilots.start(box_config(), fill=False, warm=False)
    first.box.inbox.phoned(PhonesSeated(frozenset(range(1, 6))))
    first.settle()
    flow = first.box.flow.active
    # A known deal (the box's own is random): the Seer at seat 2.
    flow.table = PhoneNight(("werewolf", "seer", "robber", "troublemaker", "werewolf",
                             "villager", "villager", "drunk"), round=flow.table.round)
    dealt = flow.table.dealt
    first.press(Button.START)
    first.until(lambda: flow.phase is Phase.NIGHT and flow.table.open
                and flow.settings.night[flow.step_index].id == "seer", step=0.05)
    seer = dealt.index("seer") + 1
    first.box.inbox.phoned(PhoneChoice(seer, flow.table.task(seer).step, (PAIR + 12,)))
    first.settle()
    assert flow.table.task(seer).chosen == (PAIR + 12,)
    first.parts.close()                                    # the power goes

    again = pilots.start(box_config(), fill=False, warm=False)
    again.settle()
    assert again.view.title == "Resume the saved game?"
    assert CANNOT_RESUME not in again.box.notice
    again.box.inbox.phoned(PhonesSeated(frozenset(range(1, 6))))
    again.press(Button.START)
    flow = again.box.flow.active
    assert flow.phase is Phase.NIGHT and flow.table.dealt == dealt
    assert flow.settings.night[flow.step_index].id == "seer"
    assert flow.table.task(seer).chosen == (PAIR + 12,)    # the Seer looked once
    assert "Center card 1: " + flow.table.dealt[5].capitalize() + "." in \
        flow.table.secret(seer)


def test_a_round_the_box_cannot_resume_is_said_on_the_start_screen(tmp_path, pilots):
    from wolfbox.device.state import StateStore
    path = tmp_path / "state" / "wolfbox" / "state.json"
    path.parent.mkdir(parents=True)
    StateStore(path).save({"games": {"one_night": REFUSED["a Seer looking at herself"]()}})
    pilot = pilots.start(box_config(), fill=False, warm=False)
    pilot.settle()
    assert pilot.box.notice.split("; ").count(CANNOT_RESUME) == 1
    assert pilot.view.title != "Resume the saved game?"
    assert pilot.box.flow.active.resumed is None
    pilot.press(Button.START)                              # a new round, as ever
    assert pilot.box.flow.active.phase is Phase.NIGHT


# --------------------------------------------------- every checkpoint resumes
SNAPSHOT = ("cards", "copied", "became", "shields", "artifacts", "revealed", "moves",
            "answers", "results", "votes")


def snapshot(table: PhoneNight) -> dict:
    """The night as it stands (a refused first answer leaves an empty entry
    of answers behind: the same as none)."""
    out = {name: copy.deepcopy(getattr(table, name)) for name in SNAPSHOT}
    out["answers"] = {k: v for k, v in out["answers"].items() if v}
    return out


def random_phones_night(deck: list[str], seed: int):
    """A One Night game on phones with random answers drawn from each task's
    options (some seats never answer): each checkpoint the round hands out,
    as the disk keeps it, with the night as it stood when it was taken."""
    rng = random.Random(seed)
    f = Flow(RoundSettings.for_deck(deck), rng=random.Random(seed))
    seats = range(1, len(deck) - (4 if "alpha_wolf" in deck else 3) + 1)
    now = 0.0

    def run(effects):
        for e in effects:
            if isinstance(e, Checkpoint) and e.state:
                yield json.loads(json.dumps(e.state)), snapshot(f.table), now

    yield from run(f.handle(PhonesSeated(frozenset(seats)), now))
    yield from run(f.handle(START, now))
    while f.phase is Phase.NIGHT or f.phase is Phase.VOTE and rng.random() < 0.9:
        for seat in rng.sample(list(seats), len(seats)):
            task = f.phone_view(seat, now).task
            if task is not None and not task.chosen and rng.random() < 0.8:
                ids = [o for o, _w in task.options]
                yield from run(f.handle(PhoneChoice(seat, task.step,
                                                    tuple(rng.sample(ids, task.pick))), now))
        now = f.next_change(now)
        yield from run(f.tick(now))
        if f.phase is Phase.DISCUSSION:
            yield from run(f.handle(VOTE, now))


@pytest.mark.parametrize("deck", [
    BASE5,
    ["doppelganger", "sentinel", "alpha_wolf", "werewolf", "paranormal_investigator",
     "witch", "village_idiot", "revealer", "curator"],
    ["doppelganger", "werewolf", "mystic_wolf", "minion", "mason", "mason", "seer",
     "apprentice_seer", "robber", "troublemaker", "drunk", "insomniac", "aura_seer"],
], ids=["base", "daybreak", "bonus"])
def test_the_checkpoints_of_games_on_phones_resume_to_the_same_night(deck):
    """The box's own saves (a fifth of each game's, in turn) are always taken
    back, and resumed (after START) the night is as it was: the cards, the
    copy, the shields, the tokens, what each seat learned, the moves, the
    answers and the votes."""
    for seed in range(4):
        saves = list(random_phones_night(deck, seed))
        for state, before, now in saves[seed % 5::5]:        # a fifth of them, in turn
            f = Flow(RoundSettings.for_deck(deck))
            f.restore(state)
            if state["stage"] != "dealt":
                f.handle(START, now)
            assert snapshot(f.table) == before, (seed, state["stage"], state["call"])
