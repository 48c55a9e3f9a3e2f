"""What a table sees on its phones and on the box (issue 29, items 7, 10,
11, 12): nothing a tap changes outside the cover, a clock once, an end
screen whole, a seat by its player's name, a Mayor's picker that starts on
nobody and a vote the box calls on the phones. The games alone, on the
fake clock."""

from __future__ import annotations

import pytest
from test_darkarts_game import NEXT, START, VOTE_
from test_mayor_phones import MAYOR, PLAYERS, _play_on, console, table, tap, to_the_hands
from test_timed_phones import C1, night, phone, to
from test_timed_phones import tap as tap_night

from wolfbox.buttons import Button
from wolfbox.darkarts.game import Stage as MayorStage
from wolfbox.events import PhonesSeated
from wolfbox.i18n import speaking
from wolfbox.newd3.game import Stage
from wolfbox.newd3.turns import Kind
from wolfbox.phone import PhoneView, Task, named, seat_name

ALL = frozenset(range(1, 10))


def shown(view: PhoneView) -> list[str]:
    """Everything a phone shows outside its cover."""
    return [view.title, view.big, *view.lines]


# ======================================================== item 7: the cover
def test_a_wolfs_marks_are_behind_its_cover_the_victim_kept_once_the_knife_is_tapped():
    t = night(C1)                                   # 1 and 2 Wolves, 3 Seer
    to(t, Kind.PLOT)
    tap_night(t, 1, 5)                              # victim: seat 5
    tap_night(t, 1, 1)                              # knife: itself, the tell at a glance
    wolf = phone(t, 1)
    assert wolf.secret and not wolf.task.marks_shown    # the page marks nothing outside
    assert wolf.task.chosen == (5, 1)               # the victim stays marked behind it
    assert "You: victim: Seat 5 · knife: Seat 1" in wolf.secret
    tap_night(t, 3, 3)                              # a decoy taps itself too
    decoy = phone(t, 3)
    assert decoy.secret and not decoy.task.marks_shown and decoy.task.chosen == (3,)
    # Outside the cover the two phones are the same but for the seat.
    assert shown(wolf) == shown(decoy)


def test_the_mayors_hands_stay_marked_in_the_open_they_are_public():
    t = to_the_hands(PLAYERS | {MAYOR})
    assert t.g.phone_view(1, t.now).task.marks_shown


# ======================================================== item 10: the clock
def test_a_night_window_shows_its_clock_once_on_a_phone():
    t = night(C1)
    for kind in (Kind.PLOT, Kind.ACT, Kind.READ):
        to(t, kind)
        view = phone(t, 4)
        clock = t.g.view(t.now).big
        assert clock and view.big == clock
        assert sum(text.count(clock) for text in shown(view)) == 1, shown(view)
        assert view.title == "Night 1"


def test_the_mayors_hands_show_their_clock_on_the_players_phones_once():
    t = to_the_hands(PLAYERS | {MAYOR})
    t.run_until(lambda g: g.timer is not None)
    clock = t.g.timer and "0:10"
    view = t.g.phone_view(1, t.now)
    assert view.big == clock
    assert sum(text.count(clock) for text in shown(view)) == 1, shown(view)


# =============================================== item 10: every page on a phone
def test_the_timed_end_shows_every_seat_on_every_phone():
    t = night(C1)
    t.checking = False                              # an end put in place, not played to
    t.g.stage, t.g.winner, t.g.page = Stage.END, "town", 0
    pages = [t.g.view(t.now).details]
    for _ in range(3):
        t.tap(Button.NEXT)                          # the box's pages, one at a time
        pages.append(t.g.view(t.now).details)
    assert len({p for p in pages}) > 1              # the box pages the end
    for seat in (1, 9):
        view = phone(t, seat)
        assert view.title == "The Town wins"        # no page count: it is all there
        assert {line for page in pages for line in page} <= set(view.lines)
        assert any(line.startswith("Seat 9: ") for line in view.lines)


def test_the_mayors_book_reaches_every_players_phone_whole():
    t = table(PLAYERS | {MAYOR})
    t.press(START)
    for _ in range(4000):
        if t.g.stage is MayorStage.END:
            break
        _play_on(t)
    pages = []
    for _ in range(3):
        pages.append(t.g.view(t.now).details)
        t.press(NEXT)                               # the box's next page
    assert len(set(pages)) > 1
    for seat in PLAYERS:
        lines = t.g.phone_view(seat, t.now).lines
        assert {line for page in pages for line in page} <= set(lines)


# ================================================ item 10: a picker on nobody
def test_the_mayors_dawn_starts_on_nobody_and_a_hurried_died_marks_none():
    t = table(PLAYERS | {MAYOR})
    t.press(START)
    t.lovers_to_dawn()
    assert console(t).chosen == ()                  # no seat lit on the console
    assert t.g.view(t.now).big == "Not chosen"
    tap(t, "Died")
    assert t.g.stage is MayorStage.DAWN and t.g.ring.dead == {}
    assert t.g.alert.startswith("No seat chosen yet")
    t.press(VOTE_)                                  # on the box's buttons alike
    assert t.g.stage is MayorStage.DAWN and t.g.ring.dead == {}
    t.press(NEXT)
    assert t.g.view(t.now).big == "Seat 1"          # NEXT: the first living seat


# ============================================================ item 11: names
def test_a_seat_is_called_by_its_players_name_and_number():
    assert seat_name(3, "Ann") == "Ann · 3"
    assert seat_name(3, "") == seat_name(3, "Seat 3") == seat_name(3, "  ") == "Seat 3"
    with speaking("de"):
        assert seat_name(3, "Ann") == "Ann · 3"


def test_a_phones_seat_options_carry_the_names_and_nothing_else_changes():
    view = PhoneView(1, "Vote", task=Task("s", "Whom?", (
        (2, "Seat 2"), (3, "Seat 3"), (4, "Seat 4"), (101, "Center card 1"), (0, "Nobody: skip"))))
    task = named(view, {2: "Bo", 3: "Seat 3", 101: "Eve"}).task
    assert task.options == ((2, "Bo · 2"), (3, "Seat 3"), (4, "Seat 4"), (101, "Center card 1"),
                            (0, "Nobody: skip"))


def test_the_mayors_pickers_call_a_seat_by_its_players_name():
    t = table(PLAYERS | {MAYOR})
    t.press(PhonesSeated(PLAYERS | {MAYOR}, ((1, "Ann"), (2, "Bo"), (MAYOR, "Mayor"))))
    t.press(START)
    t.lovers_to_dawn()
    t.press(NEXT)
    assert t.g.view(t.now).big == "Ann · 1"
    t.press(NEXT)
    assert t.g.view(t.now).big == "Bo · 2"


def test_the_timed_tally_calls_a_seat_by_its_players_name():
    t = night(C1, phones=())
    t.press(PhonesSeated(frozenset({4}), ((4, "Dora"),)))
    t.g.stage, t.g.cursor = Stage.TALLY, 4
    assert t.g.view(t.now).big == "Dora · 4"


# ======================================================= item 12: the call
@pytest.mark.parametrize("phones, title, line", [
    (PLAYERS | {MAYOR}, "Vote on your phones", "Vote on your phones to lynch seat 2."),
    (frozenset({MAYOR}), "Raise your hands", "Raise your hands to lynch seat 2.")])
def test_the_mayors_box_calls_the_vote_as_the_table_makes_it(phones, title, line):
    t = to_the_hands(phones)
    assert t.g.view(t.now).title == title
    assert t.g.speech.line is not None and line in t.g.caption
