"""The timed game's nights on phones (issue 22, item 5), on the fake clock.

With a phone at every living seat a night is 004's own shape: the Wolves'
30 s plot (each Wolf's marks live on the other Wolf's phone, every other
seat a decoy of the same shape), every action at once in one 45 s window
(the roles that act choose, everyone else a decoy), then every living
seat's message on its phone at the same moment. With a living seat short
of a phone the night is the box's, a role at a time, as before."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from test_newd3_game import A1, A2, B1, C3, Table, saved

from wolfbox.buttons import Button
from wolfbox.effects import Ambience, PlayCue, Say
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.newd3.game import Game, Stage
from wolfbox.newd3.roles import role_name
from wolfbox.newd3.saved import CannotResume
from wolfbox.newd3.turns import CALLS, Kind
from wolfbox.phone import PhoneView

SEATS = range(1, 10)
# A2 with a Chef: 1 Wolf, 2 Alchemist, 3 Priest, 5 Chef; B2-like seatings below.
B2 = ["wolf", "track_reader", "chef", "dairy_maid"] + ["sheep"] * 5
B3 = ["wolf", "track_reader", "priest", "guard"] + ["sheep"] * 5
C1 = ["wolf", "wolf", "seer"] + ["sheep"] * 6


def night(seats: list[str], dead: Iterable[int] = (), phones: Iterable[int] = SEATS,
          number: int = 1, seed: int = 0) -> Table:
    """A game with these cards resumed at the start of night `number`, the
    seats in `phones` holding one; the night's first line is being said."""
    game = Game.from_dict(saved("night", seats, dead, number), rng=random.Random(seed))
    t = Table(game)
    t.press(PhonesSeated(frozenset(phones)))
    t.tap(Button.START)
    assert t.g.stage is Stage.NIGHT
    return t


def to(t: Table, kind: Kind) -> None:
    t.until(lambda: t.g.stage is Stage.NIGHT and t.g.turn_stage == "wait"
            and t.g.turns[t.g.turn_index].kind is kind)


def tap(t: Table, seat: int, target: int, step: str | None = None) -> None:
    t.press(PhoneChoice(seat, step or t.g.night_step(), (target,)))


def phone(t: Table, seat: int) -> PhoneView:
    return t.g.phone_view(seat, t.now)


def words(view: PhoneView) -> str:
    task = view.task
    parts = [view.title, view.big, *view.lines, *view.secret]
    if task is not None:
        parts += [task.step, task.prompt, *(w for _id, w in task.options), str(task.chosen)]
    return "\n".join(parts)


def play(t: Table, plot: dict[int, Iterable[int]] | None = None,
         act: dict[int, int] | None = None) -> None:
    """The night on phones: in the plot each seat taps its seats in turn,
    in the actions each seat taps one; then to its messages."""
    to(t, Kind.PLOT)
    for seat, targets in (plot or {}).items():
        for target in targets:
            tap(t, seat, target)
    to(t, Kind.ACT)
    for seat, target in (act or {}).items():
        tap(t, seat, target)
    to(t, Kind.READ)


# ======================================================== the night's shape
def test_a_night_on_phones_is_the_plot_the_actions_and_the_messages_in_90_s():
    t = night(A1)
    start = t.now
    assert [turn.kind for turn in t.g.turns] == [Kind.PLOT, Kind.ACT, Kind.READ]
    to(t, Kind.PLOT)
    opened = t.now
    to(t, Kind.ACT)
    assert t.now - opened == pytest.approx(30.0)              # 004's coordination
    opened = t.now
    to(t, Kind.READ)
    assert t.now - opened == pytest.approx(45.0)              # 004's actions, all at once
    opened = t.now
    t.until(lambda: t.g.stage is Stage.DAWN)
    assert t.now - opened == pytest.approx(10.0)              # the messages
    assert t.now - start <= 90.0                              # the whole night, box time
    assert t.texts()[0] == "Night 1. Everyone, eyes on your phone."


def test_with_a_living_seat_short_of_a_phone_the_night_is_played_on_the_box():
    t = night(A1, phones=set(SEATS) - {6})
    assert [turn.id for turn in t.g.turns[:len(CALLS)]] == [c.id for c in CALLS]
    assert t.texts()[0] == "Night 1. Everyone, close your eyes."
    start = t.now
    t.until(lambda: t.g.stage is Stage.DAWN)
    assert t.now - start > 6 * 60                             # 7 min 15 s, as before
    assert all(phone(t, s).task is None and phone(t, s).secret[0] == role_name(A1[s - 1])
               for s in SEATS)                                # its card, no task


def test_a_dead_seat_needs_no_phone_and_its_phone_shows_the_public_screen():
    t = night(A1, dead=[6], phones=set(SEATS) - {6})
    to(t, Kind.PLOT)
    dead = phone(t, 6)
    assert dead.task is None and dead.secret[0] == "Sheep"      # its card, turned up anyway
    assert dead.big == t.view().big                           # the box's clock
    assert all(phone(t, s).task is not None for s in SEATS if s != 6)
    assert all(6 not in [o for o, _w in phone(t, s).task.options] for s in SEATS if s != 6)


def perceived(seats: list[str], dead: list[int], busy: bool) -> list[tuple]:
    """What the table hears and sees of a night on phones, from its first
    line to the dawn: every line and sound with its time, and the box's
    screen at every change."""
    t = night(seats, dead)
    heard: list[tuple] = []

    def note(effects: list) -> None:
        for e in effects:
            if isinstance(e, Say | PlayCue | Ambience):
                heard.append((round(t.now, 3), e.text if isinstance(e, Say) else repr(e)))
    note(t.effects)
    while t.g.stage is Stage.NIGHT:
        if busy and t.g.night_task() is not None:
            for seat in SEATS:
                if seat not in t.g.dead and seat not in t.g.marks:
                    note(t.press(PhoneChoice(seat, t.g.night_step(),
                                             (t.g.night_options(seat)[-1],))))
        v = t.view()
        heard.append((round(t.now, 3), v.title, v.big, v.caption, v.private, v.dim))
        note(t.step())
    return heard


def test_what_the_table_hears_and_sees_is_the_same_whatever_the_cards_and_the_answers():
    first = perceived(A1, [], busy=True)
    assert first == perceived(C3, [], busy=False)
    assert perceived(B1, [9], busy=True) == perceived(A2, [9], busy=False)


def test_every_living_seat_gets_a_task_of_the_same_shape_at_every_step():
    t = night(A1, dead=[7], seed=1)
    for kind in (Kind.PLOT, Kind.ACT):
        to(t, kind)
        views = {s: phone(t, s) for s in SEATS if s != 7}
        tasks = {s: v.task for s, v in views.items()}
        assert {(task.step, task.prompt, task.pick) for task in tasks.values()} == \
            {(t.g.night_step(), "Tonight: choose a seat", 1)}
        for seat, task in tasks.items():
            ids = [o for o, _w in task.options]
            others = [s for s in SEATS if s not in (7, seat)]
            # In the plot every living seat (a Wolf taps itself for the knife);
            # in the actions every other living seat: alike for every seat.
            assert ids == (sorted([*others, seat]) if kind is Kind.PLOT else others)
            assert views[seat].secret[0] == role_name(A1[seat - 1])   # its own card
            assert views[seat].lines == views[1].lines                # the public words
        assert not t.view().private
        box = " ".join((t.view().title, t.view().big, t.view().caption, *t.view().details))
        assert not any(role_name(r) in box for r in ("alchemist", "seer", "guard", "sheep"))
    assert phone(t, 7).task is None                                   # the dead follow the box


# ======================================================== the Wolves' plot
def test_each_wolfs_marks_show_live_on_the_other_wolfs_phone_and_nowhere_else():
    t = night(A1)                                   # 1 Wolf, 2 Alchemist, 3 Seer, 4 Guard
    to(t, Kind.PLOT)
    tap(t, 1, 5)                                    # Wolf: victim seat 5
    partner = phone(t, 2).secret
    assert "Seat 1, your partner: victim: Seat 5 · knife: –" in partner
    assert "You: victim: – · knife: –" in partner
    tap(t, 2, 1)                                    # the Alchemist: the Wolf holds the knife
    assert "Seat 2, your partner: victim: – · knife: Seat 1" in phone(t, 1).secret
    assert phone(t, 2).task.chosen == (1,)          # its own last tap, marked
    tap(t, 1, 6)                                    # the Wolf changes its mind: live
    assert "Seat 1, your partner: victim: Seat 6 · knife: –" in phone(t, 2).secret
    for seat in range(3, 10):                       # no other seat learns a mark
        seen = words(phone(t, seat))
        assert "victim:" not in seen and "partner" not in seen
        assert phone(t, seat).task.chosen == ()


@pytest.mark.parametrize("victims, knives, kills, holders", [
    ((5, 5), (2, 2), {5}, {2}),                     # they agree
    ((5, 6), (1, 2), {5, 6}, {1, 2}),               # they disagree: drawn at random
    ((5, None), (None, None), {5}, {1, 2}),         # one mark; no knife: a living Wolf
])
def test_the_pack_decides_by_plurality_ties_at_random(victims, knives, kills, holders):
    outcomes = set()
    for seed in range(12):
        t = night(A1, seed=seed)
        to(t, Kind.PLOT)
        for wolf, victim, knife in zip((1, 2), victims, knives, strict=True):
            for target in (victim, knife):
                if target is not None:
                    tap(t, wolf, target)
        to(t, Kind.ACT)
        assert t.g.kill is not None
        outcomes.add((t.g.kill.target, t.g.kill.knife))
        assert f"Tonight's kill: Seat {t.g.kill.target}; the knife: Seat {t.g.kill.knife}." \
            in phone(t, 1).secret
    assert {target for target, _k in outcomes} == kills
    assert {knife for _t, knife in outcomes} == holders


def test_a_lone_wolf_marks_alone_and_holds_the_knife():
    t = night(A1, dead=[2])
    to(t, Kind.PLOT)
    assert "You hold the knife" in phone(t, 1).secret[1]
    tap(t, 1, 4)
    to(t, Kind.ACT)
    assert (t.g.kill.target, t.g.kill.knife) == (4, 1)


def test_decoy_taps_in_the_plot_change_nothing():
    t = night(A1)
    to(t, Kind.PLOT)
    for seat in range(3, 10):
        tap(t, seat, 8)
    assert phone(t, 5).task.chosen == (8,)           # each sees its own tap marked
    to(t, Kind.ACT)
    assert t.g.kill is None


# ======================================================== the actions
def killed_and_messages(seats: list[str], plot: dict[int, Iterable[int]],
                        act: dict[int, int]) -> tuple[int | None, dict[int, tuple[str, ...]]]:
    t = night(seats)
    play(t, plot, act)
    return t.g.killed, {s: phone(t, s).secret[:2] for s in SEATS}   # the card after it


def test_every_role_acts_from_its_phone():
    # A1: the Alchemist blocks the Seer, the Guard protects the victim.
    killed, msgs = killed_and_messages(A1, {1: (5, 1), 2: (5,)}, {2: 3, 3: 1, 4: 5})
    assert killed is None and msgs[3] == ("No result", "Your action did not work tonight.")
    # A1: the Seer sees the Wolf; the kill lands.
    killed, msgs = killed_and_messages(A1, {1: (6,), 2: (6,)}, {3: 1})
    assert killed == 6 and msgs[3] == ("Wolf", "Seat 1 is on the Wolves' side.")
    assert msgs[6] == ("Nothing", "Nothing for you tonight.")
    # B2: the Chef jails the victim; the Dairy Maid visits seat 7; the Track Reader reads.
    killed, msgs = killed_and_messages(B2, {1: (5, 1)}, {3: 5, 4: 7, 2: 3})
    assert killed is None
    assert msgs[7] == ("Town", "The Dairy Maid visited you: Seat 4 is Town.")
    assert msgs[4] == ("Milk", "Seat 7 now knows you are Town.")
    assert msgs[2] == ("Chef", "Seat 3 is the Chef.")
    # B3: the Priest watches the knife, who visited the victim.
    killed, msgs = killed_and_messages(B3, {1: (8, 2), 2: (8, 2)}, {3: 2})
    assert killed == 8 and msgs[3] == ("Seat 8", "Seat 2 visited Seat 8.")


def test_the_actors_read_their_question_and_everyone_else_a_decoy():
    t = night(A2)                                   # 1 Wolf, 2 Alchemist, 3 Priest, 5 Chef
    to(t, Kind.ACT)
    assert phone(t, 2).secret[1] == "Whom do you block?"
    assert phone(t, 3).secret[1] == "Whom do you watch?"
    assert phone(t, 5).secret[1] == "Whom do you jail?"
    for seat in (1, 4, 6, 7, 8, 9):                 # a plain Wolf too: the kill is decided
        assert phone(t, seat).secret[1].startswith("Nothing to do now")
    assert phone(t, 1).secret[-1] == "No kill tonight: no victim was marked."


def test_decoy_answers_change_nothing_and_a_missing_answer_is_no_action():
    t = night(C1)                                   # 1, 2 Wolves, 3 Seer
    play(t, act={s: 3 if s != 3 else 4 for s in (1, 2, 4, 5, 6, 7, 8, 9)})
    assert t.g.actions == {} and t.g.kill is None and t.g.killed is None
    assert phone(t, 3).secret[:2] == ("Nothing", "Nothing for you tonight.")
    t.until(lambda: t.g.stage is Stage.DISCUSSION)
    assert "Nobody died in the night." in t.texts()


def test_answers_that_do_not_fit_change_nothing():
    t = night(A1, dead=[9])
    to(t, Kind.PLOT)
    tap(t, 1, 5, step="night1.act")                 # another window's step
    t.press(PhoneChoice(1, t.g.night_step(), (5, 6)))   # two seats at once
    tap(t, 1, 9)                                    # a dead seat
    tap(t, 9, 5)                                    # a dead seat's phone
    tap(t, 1, 10)                                   # no such seat
    assert t.g.marks == {} and t.g.victims == [None, None]
    to(t, Kind.ACT)
    tap(t, 3, 3)                                    # oneself: nobody targets themselves
    assert t.g.marks == {}
    step = t.g.night_step()
    to(t, Kind.READ)
    tap(t, 3, 1, step=step)                         # too late
    assert t.g.actions == {}


def test_the_messages_come_at_the_same_moment_for_every_living_seat():
    t = night(A1, dead=[9])
    play(t, {1: (5,)}, {3: 2})
    assert all(len(phone(t, s).secret) == 3 for s in SEATS if s != 9)
    assert phone(t, 9).secret[0] == "Sheep"                      # the dead: the card alone
    assert all(phone(t, s).task is None for s in SEATS)
    assert phone(t, 3).secret == ("Wolf", "Seat 2 is on the Wolves' side.", "Your card: Seer")
    t.until(lambda: t.g.stage is Stage.DAWN)
    assert all(phone(t, s).secret[0] == role_name(A1[s - 1]) for s in SEATS)   # the card again


# ======================================================== the card all game long
def test_every_seat_keeps_its_card_behind_the_cover_in_every_phase():
    """A player whose phone rejoins by day reads its card again: every seat's
    phone holds its own card (and its partner, if it has one) in every phase
    after the deal, in four lines whatever the card, the dead's too."""
    t = night(C3, phones=set(SEATS) - {4})                   # the night on the box
    seen: dict[Stage, dict[int, tuple[str, ...]]] = {}
    for _ in range(2000):
        if t.g.stage in (Stage.DAWN, Stage.DISCUSSION, Stage.VOTE, Stage.NIGHT):
            seen.setdefault(t.g.stage, {s: phone(t, s).secret for s in SEATS})
        if t.g.stage in (Stage.TALLY, Stage.END):
            break
        t.step()
    assert set(seen) == {Stage.NIGHT, Stage.DAWN, Stage.DISCUSSION, Stage.VOTE}
    for stage, secrets in seen.items():
        for seat, secret in secrets.items():
            assert secret[0] == role_name(C3[seat - 1]), (stage, seat, secret)
            assert len(secret) == 4, (stage, seat, secret)
        assert "Your partner: Seat 5, Noble" in secrets[1]
        assert "Your partner: Seat 7, Wolf" in secrets[2]
        assert not any("partner" in line for line in secrets[3])


def test_no_card_shows_before_the_deal():
    t = Table(Game(rng=random.Random(0)))
    t.press(PhonesSeated(frozenset(SEATS)))
    assert all(phone(t, s).secret == () for s in SEATS)


# ======================================================== a power cut
def test_a_power_cut_in_a_window_restarts_the_night_from_its_plot():
    t = night(A1)
    to(t, Kind.ACT)
    tap(t, 3, 1)
    back = Table(Game.from_dict(t.g.to_dict(), rng=random.Random(0)), t.now)
    assert back.view().details == ("Night 1, from its start",)
    back.press(PhonesSeated(frozenset(SEATS)))
    back.tap(Button.START)
    assert back.g.actions == {} and back.g.kill is None
    to(back, Kind.PLOT)


def test_a_power_cut_in_the_messages_resumes_them_with_the_same_choices():
    t = night(A1)
    play(t, {1: (6,), 2: (6, 2)}, {3: 1, 4: 5})
    killed, kill, actions = t.g.killed, t.g.kill, dict(t.g.actions)
    state = t.g.to_dict()
    assert state["chosen"] is not None
    back = Table(Game.from_dict(state, rng=random.Random(99)), t.now)
    assert back.view().details == ("Night 1, from its messages",)
    back.press(PhonesSeated(frozenset(SEATS)))
    back.tap(Button.START)
    to(back, Kind.READ)
    assert (back.g.killed, back.g.kill, back.g.actions) == (killed, kill, actions)
    assert phone(back, 3).secret[:2] == ("Wolf", "Seat 1 is on the Wolves' side.")
    # Without the phones now, the same messages are read on the box.
    box = Table(Game.from_dict(state), t.now)
    box.tap(Button.START)
    box.until(lambda: box.in_window())
    assert box.turn().kind is Kind.LOOK and box.g.killed == killed


def test_a_tampered_phone_night_save_is_refused_in_one_line():
    t = night(A1)
    play(t, {1: (6,)}, {3: 1})
    state = t.g.to_dict()
    state["chosen"]["kill"] = [2, 1]                 # the Wolves kill their own
    with pytest.raises(CannotResume) as refused:
        Game.from_dict(state)
    assert "\n" not in str(refused.value) and "Wolf team" in str(refused.value)
    state = t.g.to_dict()
    state["chosen"]["actions"]["3"] = 3              # the Seer inspects himself
    with pytest.raises(CannotResume, match="targets itself"):
        Game.from_dict(state)
