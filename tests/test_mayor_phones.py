"""The Mayor's game with phones (issue 22): the Mayor's phone is the
box's console, the seat after the table's; every entry made on it is the
same entry made on the buttons (the same presses, through the same
handler); the hand count is taken on the players' phones when every seat
that may vote holds one. The game alone, on the fake clock."""

from __future__ import annotations

import json
import random

import pytest
from test_darkarts_game import BACK, NEXT, ROLES7, START, VOTE_, Table, says

from wolfbox.buttons import Button, Hold
from wolfbox.darkarts import console as console_ids
from wolfbox.darkarts.game import Game, Options, Stage
from wolfbox.darkarts.saved import CannotResume
from wolfbox.events import PhoneChoice, PhonesSeated

MAYOR = 8                         # at a table of seven, the seat after the last
PLAYERS = frozenset(range(1, 8))


def table(phones: frozenset[int] = frozenset({MAYOR}), seed: int = 3) -> Table:
    t = Table(Game(players=7, chosen=dict(ROLES7), rng=random.Random(seed)))
    t.press(PhonesSeated(phones))
    return t


def console(t: Table):
    task = t.g.phone_view(MAYOR, t.now).task
    assert task is not None, "no console on the Mayor's phone"
    return task


def offered(task) -> tuple:
    """The console's choices: the seats or cards, then the buttons' actions."""
    return (*task.options, *task.actions)


def tap(t: Table, words: str) -> list:
    """The Mayor taps the console's option with these words."""
    task = console(t)
    ids = [i for i, w in offered(task) if w == words]
    assert ids, f"{words!r} is not offered: {[w for _i, w in offered(task)]}"
    return t.press(PhoneChoice(MAYOR, task.step, (ids[0],)))


def state(g: Game) -> dict:
    """Everything an entry changes (the console's own count of presses
    and what belongs to the moment left out)."""
    return {"stage": g.stage, "cursor": g.cursor, "picked": list(g.picked),
            "lovers": g.lovers, "dead": dict(g.ring.dead) if g.ring else {},
            "book": g.book.lines(), "pending": g.pending, "dying": g.dying,
            "accused": g.accused, "hands": g.hands, "adjust": g.adjust,
            "previous": g.previous_accused, "night": g.night, "alert": g.alert,
            "view": g.view(0.0), "undo": len(g._undo)}


# Each entry of a day as the Mayor makes it on the buttons, and on the console.
def lovers_buttons(t):
    for seat in (3, 5):
        t.seat(seat)
        t.press(VOTE_)
    t.press(START)


def lovers_console(t):
    for seat in (3, 5):
        tap(t, f"Seat {seat}")
        tap(t, "Lover")
    tap(t, "Done")


def death_buttons(t):
    t.death(7, "werewolf")


def death_console(t):
    tap(t, "Seat 7")
    tap(t, "Died")
    tap(t, "Werewolf")
    tap(t, "OK")                              # shown back ...
    tap(t, "OK")                              # ... and entered


def dawn_buttons(t):
    t.dawn_over()


def dawn_console(t):
    tap(t, "No more deaths")
    tap(t, "OK")


def accuse_buttons(t):
    t.press(VOTE_)
    t.seat(2)
    t.press(VOTE_)


def accuse_console(t):
    tap(t, "Accuse")
    tap(t, "Seat 2")
    tap(t, "Accuse")


def second_buttons(t):
    t.settle()
    t.press(VOTE_)


def second_console(t):
    t.settle()
    tap(t, "Seconded")


def call_buttons(t):
    t.settle()
    t.press(VOTE_)
    t.stage_is(Stage.COUNT)


def call_console(t):
    t.settle()
    tap(t, "Vote")
    t.stage_is(Stage.COUNT)


def count_buttons(t):
    t.press(VOTE_)
    t.press(VOTE_)
    t.press(BACK)
    t.press(VOTE_)
    t.press(START)


def count_console(t):
    tap(t, "Hand +1")
    tap(t, "Hand +1")
    tap(t, "Hand −1")
    tap(t, "Hand +1")
    tap(t, "Done")


def result_buttons(t):
    t.press(START)


def result_console(t):
    tap(t, "OK")


DAY = [(lovers_buttons, lovers_console, Stage.LOVERS), (death_buttons, death_console, Stage.DAWN),
       (dawn_buttons, dawn_console, None), (accuse_buttons, accuse_console, None),
       (second_buttons, second_console, None), (call_buttons, call_console, None),
       (count_buttons, count_console, None), (result_buttons, result_console, None)]


def test_each_entry_on_the_console_is_the_same_entry_as_on_the_buttons():
    on_buttons, on_phone = table(), table()
    on_buttons.press(START)
    on_phone.press(START)                   # the console opens with the game
    for by_buttons, by_phone, wait_for in DAY:
        if wait_for is not None:
            on_buttons.stage_is(wait_for)
            on_phone.stage_is(wait_for)
        before = len(on_buttons.effects), len(on_phone.effects)
        by_buttons(on_buttons)
        by_phone(on_phone)
        assert on_buttons.now == on_phone.now
        assert state(on_phone.g) == state(on_buttons.g), by_phone.__name__
        assert says(on_phone.effects[before[1]:]) == says(on_buttons.effects[before[0]:])
    g = on_phone.g
    assert g.lovers == (3, 5) and g.ring.dead == {7: "werewolf"}
    assert g.book.lines()[-1] == "Day 1: 2 votes to lynch Seat 2, 3 needed: failed."
    assert g.stage is Stage.DISCUSSION


def test_the_buttons_keep_working_beside_the_console():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    tap(t, "Seat 4")                        # the phone points at seat 4 ...
    t.press(NEXT)                           # ... a button moves on from it
    assert t.g.cursor == 5 and console(t).chosen == (5,)
    tap(t, "Died")
    assert t.g.stage is Stage.ROLE and t.g.dying == 5


def test_a_picker_on_the_console_starts_on_nothing_and_nothing_is_entered_by_one_tap():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    task = console(t)
    assert [w for _i, w in task.options] == [f"Seat {s}" for s in range(1, 8)]
    assert all(i >= console_ids.TAP_IDS for i, _w in task.actions)   # drawn apart
    words = [w for _i, w in offered(task)]
    assert words[:8] == [f"Seat {s}" for s in range(1, 8)] + ["Nobody died"]
    assert "Died" in words and "Next seat" not in words     # a seat is tapped, not stepped to
    tap(t, "Seat 7")                        # pointing enters nothing
    assert t.g.stage is Stage.DAWN and t.g.ring.dead == {}
    tap(t, "Died")
    task = console(t)
    assert task.chosen == ()                # no card offered first
    assert "OK" in [w for _i, w in offered(task)]
    tap(t, "OK")                            # an OK on no card: refused, as on the box
    assert t.g.stage is Stage.ROLE and t.g.alert.startswith("No card chosen yet")
    assert t.g.phone_view(MAYOR, t.now).lines[0] == t.g.alert   # the Mayor reads why


def test_every_entry_on_the_console_can_be_put_right():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    before = state(t.g)
    tap(t, "Seat 7")
    tap(t, "Died")
    tap(t, "Other seat")                    # the wrong seat: back to the ring
    assert t.g.stage is Stage.DAWN and t.g.cursor == 7
    tap(t, "Died")
    tap(t, "Hunter")
    tap(t, "OK")
    assert t.g.stage is Stage.CONFIRM
    tap(t, "Change")                        # the card shown back is wrong: change it
    assert t.g.stage is Stage.ROLE and console(t).chosen == (console(t).options[1][0],)
    tap(t, "Werewolf")
    tap(t, "OK")
    tap(t, "OK")
    assert t.g.ring.dead == {7: "werewolf"}
    tap(t, "Undo the last entry")           # entered after all: undone
    assert t.g.ring.dead == {} and t.g.stage is Stage.CONFIRM
    tap(t, "Change")
    tap(t, "Other seat")
    assert state(t.g)["dead"] == before["dead"] and t.g.stage is Stage.DAWN
    t.hold(Button.VOTE)                     # the buttons' undo, beside it: nothing left
    assert t.g.ring.dead == {}


def test_the_console_is_on_the_mayors_phone_alone_and_only_during_a_game():
    t = table(PLAYERS | {MAYOR})
    assert t.g.table_seats == 7             # the setup: no Mayor's seat yet
    assert t.g.phone_view(MAYOR, t.now).task is None
    t.press(START)
    assert t.g.table_seats == 8             # the game: the Mayor's seat opens
    assert t.g.phone_view(MAYOR, t.now).label == "Mayor"        # named so on its phone
    assert {t.g.phone_view(seat, t.now).label for seat in PLAYERS} == {""}
    seen = set()
    for _ in range(4000):
        if t.g.stage is Stage.END:
            break
        for seat in PLAYERS:
            task = t.g.phone_view(seat, t.now).task
            assert task is None or task.step.startswith("hands."), (seat, t.g.stage)
        assert console(t).step.startswith("mayor.")
        seen.add(t.g.stage)
        _play_on(t)
    assert t.g.stage is Stage.END
    assert seen >= {Stage.NIGHT, Stage.LOVERS, Stage.DAWN, Stage.ROLE, Stage.CONFIRM,
                    Stage.DISCUSSION, Stage.ACCUSE, Stage.SECOND, Stage.DEFENCE,
                    Stage.HANDS, Stage.RESULT}
    # The end: the phones keep their seats to show who won, the Mayor the
    # console (for an undo), until the table leaves it for a new game.
    assert t.g.busy() and t.g.table_seats == 8
    assert {"New game", "Undo the last entry"} <= {w for _i, w in console(t).actions}
    # Each death turns up the card the box dealt (seed 3: the werewolves at
    # seats 1 and 7); a table that lynches its lowest living seat each day
    # loses its villagers first.
    assert {t.g.phone_view(seat, t.now).title for seat in PLAYERS} == {"The werewolves win"}
    tap(t, "New game")
    assert t.g.stage is Stage.SETUP and not t.g.busy()
    assert t.g.phone_view(MAYOR, t.now).task is None and t.g.table_seats == 7


def _play_on(t: Table) -> None:
    """One move of a table that lynches whoever it accuses: the Mayor on
    the console, every hand up on the phones."""
    g = t.g
    if g.stage is Stage.LOVERS:
        return lovers_console(t)
    if g.stage is Stage.DAWN:
        words = [w for _i, w in offered(console(t))]
        tap(t, "No more deaths" if "No more deaths" in words else "Nobody died")
        return None
    if g.stage is Stage.DISCUSSION:
        t.settle()
        tap(t, "Accuse")
        return None
    if g.stage is Stage.ACCUSE:
        tap(t, f"Seat {g.ring.living()[0]}")
        tap(t, "Accuse")
        return None
    if g.stage is Stage.SECOND:
        t.settle()
        tap(t, "Seconded")
        return None
    if g.stage is Stage.DEFENCE:
        t.settle()
        tap(t, "Vote")
        return None
    if g.stage is Stage.HANDS:
        for seat in PLAYERS:
            task = g.phone_view(seat, t.now).task
            if task is not None:
                t.press(PhoneChoice(seat, task.step, (1,)))
        t.stage_is(Stage.RESULT)
        return None
    if g.stage in (Stage.RESULT, Stage.CONFIRM):
        tap(t, "OK")
        return None
    if g.stage is Stage.ROLE:                            # the card on the dead's phone
        from wolfbox.darkarts.roles import role_name
        tap(t, role_name(g.dealt[g.dying - 1]) if g.dealt else
            [w for _i, w in console(t).options][0])
        tap(t, "OK")
        return None
    if g.stage is Stage.SHOT:
        tap(t, f"Seat {g.ring.living()[0]}")
        tap(t, "Shot")
        return None
    t.step()
    return None


# ------------------------------------------------------- the hand count
def to_the_hands(phones: frozenset[int]) -> Table:
    """Night 1 (Lovers 3 and 5), seat 7 dead at dawn, seat 2 accused and
    seconded, the vote called; the call's line said."""
    t = table(phones)
    t.press(START)
    t.lovers_to_dawn()
    t.death(7, "werewolf")
    call_the_vote_on(t, 2)
    assert t.g.stage is Stage.HANDS
    return t


def call_the_vote_on(t: Table, seat: int) -> None:
    """The dawn closed, `seat` accused and seconded, the vote called, on
    the box's buttons."""
    t.dawn_over()
    t.press(VOTE_)
    t.seat(seat)
    t.press(VOTE_)
    t.settle()
    t.press(VOTE_)
    t.settle()
    t.press(VOTE_)


def hand(t: Table, seat: int, up: bool = True, step: str | None = None) -> None:
    task = t.g.phone_view(seat, t.now).task
    t.press(PhoneChoice(seat, step or (task.step if task else "hands.1.3"), (1 if up else 0,)))


def test_the_hands_go_up_on_the_phones_the_accused_and_the_dead_not_asked():
    t = to_the_hands(PLAYERS | {MAYOR})
    assert says(t.effects)[-1] == "Vote on your phones to lynch seat 2."   # no hand is raised
    assert t.g.view(t.now).title == "Vote on your phones"
    asked = {s: t.g.phone_view(s, t.now).task for s in PLAYERS}
    assert [s for s, task in asked.items() if task is not None] == [1, 3, 4, 5, 6]
    tasks = [task for task in asked.values() if task is not None]
    assert len({(task.step, task.prompt, task.options) for task in tasks}) == 1   # one shape
    assert tasks[0].prompt == "Raise your hand to lynch Seat 2?"
    for seat in (1, 3, 4):
        hand(t, seat)
    step = asked[1].step
    hand(t, 5)
    hand(t, 5, up=False)                    # changed its mind: down
    hand(t, 2)                              # the accused may not vote
    hand(t, 7)                              # the dead may not vote
    assert t.g.phone_view(5, t.now).task.chosen == (0,)
    assert t.g.phone_view(1, t.now).task.chosen == (1,)
    assert t.g.phone_view(6, t.now).task.chosen == ()        # its own answer only
    t.run_until(lambda g: g.speech.line is None)   # the line is said: the window opens
    opened = t.now
    t.stage_is(Stage.RESULT)
    assert t.now - opened == pytest.approx(Options().phone_hands_seconds)   # on the clock
    assert t.g.hands == 3
    t.settle()
    assert says(t.effects)[-3:] == ["3 votes.", "3 needed.", "Seat 2 is lynched."]
    assert t.g.phone_view(1, t.now).task is None             # the question is over
    hand(t, 6, step=step)                   # too late: the count is taken
    assert t.g.hands == 3 and 6 not in t.g.hand_votes


def test_the_mayor_confirms_or_corrects_the_phones_count():
    t = to_the_hands(PLAYERS | {MAYOR})
    for seat in (1, 3):
        hand(t, seat)
    t.stage_is(Stage.RESULT)
    assert t.g.hands == 2
    tap(t, "Recount")                       # a hand the phones missed
    assert t.g.stage is Stage.COUNT and t.g.hands == 2
    tap(t, "Hand +1")
    tap(t, "Done")
    tap(t, "OK")
    assert t.g.book.lines()[-1] == "Day 1: 3 votes to lynch Seat 2, 3 needed: lynched."
    assert t.g.stage is Stage.ROLE and t.g.dying == 2


def test_a_hand_from_another_call_or_not_one_of_the_two_answers_changes_nothing():
    t = to_the_hands(PLAYERS)
    step = t.g.phone_view(1, t.now).task.step
    t.press(PhoneChoice(1, "hands.9.9", (1,)))               # another call
    t.press(PhoneChoice(3, step, (2,)))                      # no such answer
    t.press(PhoneChoice(4, step, (1, 0)))                    # two at once
    t.press(PhoneChoice(MAYOR, step, (1,)))                  # the Mayor does not vote
    t.press(PhoneChoice(99, step, (1,)))                     # no such seat
    assert t.g.hand_votes == {}


def test_with_a_voter_short_of_a_phone_the_mayor_counts_the_hands():
    t = to_the_hands((PLAYERS - {4}) | {MAYOR})
    assert all(t.g.phone_view(s, t.now).task is None for s in PLAYERS)
    t.stage_is(Stage.COUNT)
    assert t.g.hands == 0
    t2 = to_the_hands((PLAYERS - {2, 7}) | {MAYOR})          # the accused and the dead:
    assert t2.g.phone_view(1, t2.now).task is not None       # not needed on a phone


# ------------------------------------------------------------- bad taps
def test_a_tap_the_console_does_not_offer_now_changes_nothing():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    task = console(t)
    before = state(t.g)
    died = next(i for i, w in offered(task) if w == "Died")
    t.press(PhoneChoice(MAYOR, "mayor.dawn.0", (died,)))     # from an older screen
    t.press(PhoneChoice(MAYOR, task.step, (999,)))           # no such option
    t.press(PhoneChoice(MAYOR, task.step, (3, died)))        # two at once
    t.press(PhoneChoice(3, task.step, (died,)))              # a player's phone
    t.press(PhoneChoice(MAYOR, task.step, ()))               # nothing
    assert state(t.g) == before
    tap(t, "Seat 3")
    t.press(PhoneChoice(MAYOR, task.step, (died,)))          # the step has moved on
    assert t.g.stage is Stage.DAWN


def test_a_seat_the_console_offers_not_is_not_reached():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    t.death(7, "werewolf")
    task = console(t)
    assert 7 not in [i for i, _w in task.options]            # the dead are not offered
    t.press(PhoneChoice(MAYOR, task.step, (7,)))
    assert t.g.cursor != 7


def test_the_lovers_stay_on_the_mayors_phone():
    t = table(PLAYERS | {MAYOR})
    t.press(START)
    t.stage_is(Stage.LOVERS)
    tap(t, "Seat 3")
    tap(t, "Lover")
    mayor = t.g.phone_view(MAYOR, t.now)
    assert "Seat 3 · Lover" in [w for _i, w in mayor.task.options]
    assert "Mark the two Lovers the Matchmaker chose." in mayor.lines
    for seat in PLAYERS:
        view = t.g.phone_view(seat, t.now)
        assert view.lines == ("Night: keep your eyes closed until you are called.",)
        assert view.task is None and view.dim and view.title == "Night 1 · Lovers"


def test_the_phones_show_the_dead_and_their_cards():
    t = table(PLAYERS | {MAYOR})
    t.press(START)
    t.lovers_to_dawn()
    assert not any("Dead" in line for line in t.g.phone_view(1, t.now).lines)
    t.death(7, "werewolf")
    assert "Dead: Seat 7 (Werewolf)" in t.g.phone_view(1, t.now).lines
    assert "You are out of the game." in t.g.phone_view(7, t.now).lines    # its own phone
    assert "You are out of the game." not in t.g.phone_view(1, t.now).lines


# ----------------------------------------------------------- power cut
def test_a_resumed_game_has_its_console_and_takes_the_count_on_the_phones():
    t = to_the_hands(PLAYERS | {MAYOR})
    saved = json.loads(json.dumps(t.g.to_dict()))            # the power is cut
    back = Table(Game.from_dict(saved), now=t.now)
    assert back.g.dealt == t.g.dealt and back.g.dealt is not None
    back.press(PhonesSeated(PLAYERS | {MAYOR}))              # the phones come back
    assert back.g.phone_view(MAYOR, back.now).task is None   # not under way yet
    back.press(START)                                        # resume: the day from its start
    assert back.g.stage is Stage.DISCUSSION and back.g.table_seats == 8
    tap(back, "Accuse")
    tap(back, "Seat 1")
    tap(back, "Accuse")
    back.settle()
    tap(back, "Seconded")
    back.settle()
    tap(back, "Vote")
    for seat in (2, 3, 4):
        hand(back, seat)
    back.stage_is(Stage.RESULT)
    assert back.g.hands == 3


def test_a_tampered_save_is_refused_in_one_line():
    t = to_the_hands(PLAYERS | {MAYOR})
    saved = t.g.to_dict()
    saved["dealt"] = ["werewolf"] * 7
    with pytest.raises(CannotResume) as refused:
        Game.from_dict(saved)
    assert "\n" not in str(refused.value) and "not the setup's" in str(refused.value)


def test_an_undo_takes_the_hands_back_with_the_vote():
    t = to_the_hands(PLAYERS | {MAYOR})
    for seat in (1, 3, 4):
        hand(t, seat)
    t.stage_is(Stage.RESULT)
    tap(t, "OK")
    assert t.g.stage is Stage.ROLE
    t.press(Hold(Button.VOTE))
    assert t.g.stage is Stage.RESULT and t.g.hands == 3 and t.g.hand_votes[4] is True


def test_a_double_tap_confirms_one_question_and_counts_two_hands():
    t = table()
    t.press(START)
    t.lovers_to_dawn()
    tap(t, "Seat 7")
    tap(t, "Died")
    tap(t, "Werewolf")
    tap(t, "OK")
    ok = console(t)                                          # the card shown back
    okay = next(i for i, w in offered(ok) if w == "OK")
    t.press(PhoneChoice(MAYOR, ok.step, (okay,)))
    t.press(PhoneChoice(MAYOR, ok.step, (okay,)))            # the same tap again, at once
    assert t.g.ring.dead == {7: "werewolf"}
    assert t.g.stage is Stage.DAWN                           # the dawn is not closed by it
    call_the_vote_on(t, 2)
    t.stage_is(Stage.COUNT)
    count = console(t)
    plus = next(i for i, w in offered(count) if w == "Hand +1")
    t.press(PhoneChoice(MAYOR, count.step, (plus,)))
    t.press(PhoneChoice(MAYOR, count.step, (plus,)))         # as two presses of VOTE
    assert t.g.hands == 2


def test_the_seat_list_tells_the_mayor_which_seat_opens_at_the_start():
    t = table(frozenset())
    assert t.g.lobby_note() == "The Mayor: once the game has started, take seat 8."
    t.press(START)
    assert t.g.lobby_note() == ""                         # the seat is there now
