"""NewD3 at a table (wolfbox/newd3/game.py): the deal, the night's calls and
messages, the dawn, the day's clocks and vote, the setup tracker, resuming
after a power cut and ending a game, each driven on a fake clock (the test
jumps to `next_change` and ticks; nothing sleeps)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Sequence

import pytest
from pilot import GameDriver

from wolfbox.buttons import Button, Classifier, Hold, Release, Tap
from wolfbox.effects import Checkpoint, Effect, Say
from wolfbox.events import SpeechDone
from wolfbox.i18n import _ as tr
from wolfbox.newd3 import rules, said
from wolfbox.newd3.game import KILL_STEPS, SAVE_VERSION, Game, Stage
from wolfbox.newd3.roles import ROLES, TEAM_NAMES, is_wolf_team, role_name
from wolfbox.newd3.setups import setup_of
from wolfbox.newd3.turns import CALLS, Kind, Times, Turn
from wolfbox.view import View

S5 = ["sheep"] * 5
# Seatings used below, seats from 1:
A1 = ["wolf", "alchemist", "seer", "guard"] + S5            # 1 W, 2 Alch, 3 Seer, 4 Guard
A2 = ["wolf", "alchemist", "priest", "sheep", "chef"] + ["sheep"] * 4   # 3 Priest, 5 Chef
B1 = ["wolf", "track_reader", "priest", "dairy_maid"] + S5  # 2 TR, 3 Priest, 4 Maid
# A1 with the Wolf team away from seat 1: 4 Wolf, 7 Alchemist, 2 Seer, 9 Guard.
A1_SPREAD = ["sheep", "seer", "sheep", "wolf", "sheep", "sheep", "alchemist", "sheep", "guard"]
C3 = ["noble", "wolf", "sheep", "sheep", "noble", "sheep", "wolf", "sheep", "sheep"]

# Every role's and team's name: nothing of a card may show before its hold.
SECRET_WORDS = [role_name(r) for r in ROLES] + list(TEAM_NAMES.values()) + ["partner"]


# ------------------------------------------------------------ the table
class Table(GameDriver):
    """One game on a fake clock (tests/pilot.py's driver), keeping also each
    change of turn with its time (the timeline a listener would hear)."""

    def __init__(self, game: Game, now: float = 0.0, check: bool = True) -> None:
        super().__init__(game, now, check)
        self.timeline: list[tuple[float, str, int, str]] = []
        self._where: tuple[str, int, str] | None = None

    def _record(self, effects: list[Effect]) -> list[Effect]:
        where = (str(self.g.stage), self.g.turn_index, self.g.turn_stage)
        if where != self._where:
            self._where = where
            self.timeline.append((self.now, *where))
        return super()._record(effects)

    def view(self) -> View:
        return self.g.view(self.now)

    def texts(self) -> list[str]:
        return [text for _at, text in self.said]

    # ---- turns
    def turn(self) -> Turn:
        return self.g.turns[self.g.turn_index]

    def in_window(self) -> bool:
        return self.g.stage in (Stage.DEAL, Stage.NIGHT) and self.g.turn_stage == "wait"

    def to_window(self, turn_id: str, seat: int = 0) -> None:
        self.until(lambda: self.in_window() and self.turn().id == turn_id
                   and (not seat or self.turn().seat == seat))

    def cursor(self) -> int:
        """The seat the buttons point at; 0 before a window's first press."""
        return next((s.seat for s in self.view().seats if s.cursor), 0)

    def point_at(self, seat: int) -> None:
        for _ in range(20):
            if self.cursor() == seat:
                return
            self.tap(Button.NEXT)
        raise AssertionError(f"the cursor never reaches seat {seat}")

    def cursor_stops(self) -> set[int]:
        """Every seat the cursor can stop on, going both ways round."""
        seen = {self.cursor()} - {0}
        for button in (Button.NEXT, Button.BACK):
            for _ in range(12):
                self.tap(button)
                seen.add(self.cursor())
        return seen

    def read_message(self, seat: int) -> View:
        """Seat `seat` holds VOTE at the start of its turn tonight."""
        self.to_window("look", seat)
        self.hold(Button.VOTE)
        shown = self.view()
        self.release(Button.VOTE)
        return shown


def saved(stage: str, seats: list[str], dead: Iterable[int] = (), night: int = 0,
          killed: int | None = None, winner: str | None = None) -> dict:
    return {"version": SAVE_VERSION, "stage": stage, "choice": "", "setup": setup_of(seats),
            "seats": list(seats), "dead": {str(s): seats[s - 1] for s in sorted(dead)},
            "night": night, "killed": killed, "winner": winner}


def resumed(stage: str, seats: list[str], dead: Iterable[int] = (), night: int = 1,
            seed: int = 0, now: float = 0.0, check: bool = True) -> Table:
    """A game with these cards, picked up at the start of `stage`: at
    `night`, or later if the dead need more (a day's vote and a night's
    kill each kill at most one; a night comes after its day)."""
    dead = tuple(dead)
    night = max(night, (len(dead) + (1 if stage == "night" else 0) + 1) // 2)
    game = Game.from_dict(saved(stage, seats, dead, night), rng=random.Random(seed))
    table = Table(game, now, check)
    table.tap(Button.START)
    assert table.g.stage is Stage(stage)
    return table


def dealt(choice: str, seed: int) -> Table:
    table = Table(Game(choice=choice, rng=random.Random(seed)))
    table.tap(Button.START)
    assert table.g.stage is Stage.DEAL
    return table


def play_night(table: Table, choices: dict[str, int] | None = None,
               victims: Sequence[int | None] = (), knives: Sequence[int | None] = ()) -> None:
    """Every call of the night in turn: `choices` maps a role to the seat it
    picks in its window; in the kill, Wolf 1 marks victims[0] and knives[0],
    then Wolf 2 victims[1] and knives[1] (a seat left out or None: no mark)."""
    choices = choices or {}
    for index, call in enumerate(CALLS):      # a night's first turns are CALLS, in order
        g = table.g
        past = g.turn_index > index or g.turn_index == index and g.turn_stage == "after"
        if g.stage is Stage.NIGHT and past:
            continue
        table.to_window(call.id)
        if call.kind is Kind.CHOOSE and call.role in choices:
            table.point_at(choices[call.role])
            table.tap(Button.VOTE)
        elif call.kind is Kind.KILL:
            for step, (slot, question) in enumerate(KILL_STEPS):
                marks = victims if question == "victim" else knives
                seat = marks[slot] if slot < len(marks) else None
                if seat is not None:
                    table.point_at(seat)
                    table.tap(Button.VOTE)
                if step + 1 < len(KILL_STEPS):
                    table.tap(Button.START)
    table.until(lambda: table.g.turns[table.g.turn_index].kind is Kind.LOOK)


def to_dawn(table: Table) -> None:
    table.until(lambda: table.g.stage is not Stage.NIGHT)


def finish_night(table: Table) -> None:
    """To the day after (or the end): the dawn's lines all said."""
    table.until(lambda: table.g.stage not in (Stage.NIGHT, Stage.DAWN))


def to_tally(table: Table) -> None:
    table.until(lambda: table.g.stage is Stage.TALLY)


def vote(table: Table, seat: int, votes: int) -> None:
    """From the tally: `seat` had the most votes, `votes` of them, entered
    and shown (not yet applied)."""
    table.point_at(seat)
    table.tap(Button.VOTE)
    assert table.g.stage is Stage.COUNT
    table.tap(Button.VOTE, votes)
    table.tap(Button.START)
    assert table.g.stage is Stage.RESULT


def end_pages(table: Table) -> list[str]:
    """Every line of the end screen, page by page (NEXT turns them)."""
    title = table.view().title
    pages = int(title.rsplit("/", 1)[1]) if "/" in title else 1
    lines: list[str] = []
    for _page in range(pages):
        lines += table.view().details
        table.tap(Button.NEXT)
    return lines


def strings(v: View) -> list[str]:
    return [v.title, v.big, v.caption, v.alert, *v.details, *(label for _b, label in v.legend)]


# ====================================================================== deal
def deal_timeline(choice: str, seed: int, hold_in: Iterable[int] = ()) -> list:
    """The deal's timeline, seats in `hold_in` holding VOTE for 2 s."""
    table = dealt(choice, seed)
    holders = set(hold_in)
    for seat in range(1, 10):
        table.to_window("card", seat)
        if seat in holders:
            table.hold(Button.VOTE)
            table.wait(2.0)
            table.release(Button.VOTE)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    return table.timeline + [(t, text) for t, text in table.said]


def test_the_deal_takes_the_same_time_whatever_the_cards_and_the_holds():
    one = deal_timeline("A1", 1, hold_in=(1, 4, 7))
    other = deal_timeline("C3", 2)
    assert one == other


def test_every_seat_turn_of_the_deal_lasts_the_same_with_a_window_of_times_card():
    table = dealt("B2", 5)
    windows = []
    for seat in range(1, 10):
        table.to_window("card", seat)
        opened = table.now
        if seat % 2:
            table.hold(Button.VOTE)
            table.release(Button.VOTE)
        table.until(lambda: table.g.turn_stage != "wait")
        windows.append(table.now - opened)
    wakes = [t for t, text in table.said if text.startswith("Seat ") and "open" in text]
    turns = [b - a for a, b in zip(wakes, wakes[1:], strict=False)]
    assert windows == pytest.approx([Times().card] * 9)
    assert max(turns) - min(turns) < 1e-6


def test_nothing_of_the_card_shows_before_the_hold_and_the_screen_is_the_same_for_any_card():
    one, other = dealt("C3", 3), dealt("A1", 4)
    assert sum(a != b for a, b in zip(one.g.seats, other.g.seats, strict=True)) >= 4
    for seat in range(1, 10):
        for table in (one, other):
            table.to_window("card", seat)
        assert one.now == other.now
        before = one.view()
        assert before == other.view()
        assert not any(word in text for text in strings(before) for word in SECRET_WORDS)
        assert before.big == "Hold VOTE" and not one.g.showing
        assert before.details[0] == f"Seat {seat} only"


def test_the_card_shows_on_a_hold_of_vote_in_its_window():
    table = dealt("A1", 6)
    table.to_window("card", 3)
    table.hold(Button.VOTE)
    shown = table.view()
    assert shown.big == role_name(table.g.seats[2])
    assert shown.details[0] == "Seat 3 · your card"
    assert not shown.dim


def test_the_card_stays_at_least_options_show_seconds_after_a_quick_hold():
    table = dealt("A1", 6)
    table.to_window("card", 2)
    card = role_name(table.g.seats[1])
    table.hold(Button.VOTE)
    held_at = table.now
    table.wait(0.2)
    table.release(Button.VOTE)
    show = table.g.options.show
    table.wait(show - 0.2 - 0.01)
    assert table.view().big == card
    table.wait(0.02)
    assert table.now - held_at > show
    assert table.view().big == "Hold VOTE"


def test_the_card_hides_on_release_after_the_show_time():
    table = dealt("A1", 6)
    table.to_window("card", 2)
    table.hold(Button.VOTE)
    table.wait(table.g.options.show + 1)
    assert table.view().big == role_name(table.g.seats[1])
    table.release(Button.VOTE)
    assert table.view().big == "Hold VOTE"
    assert not any(role_name(table.g.seats[1]) in t for t in strings(table.view()))


def test_a_card_held_to_the_end_of_its_window_hides_when_the_window_ends():
    table = dealt("A1", 6)
    table.to_window("card", 4)
    table.hold(Button.VOTE)
    table.until(lambda: table.g.turn_stage != "wait")
    v = table.view()
    assert v.big == "" and v.details == ()
    assert not any(role_name(table.g.seats[3]) in t for t in strings(v))
    table.to_window("card", 5)
    assert table.view().big == "Hold VOTE"


def between_turns(table: Table, stage: Stage) -> list[View]:
    """Every screen of `stage` between its turns, each checked to show only
    the line being said: no card, no message, no seat, no word from the box."""
    seen = []
    while table.g.stage is stage:
        v = table.view()
        if not table.in_window():
            assert (v.big, v.details, v.seats, v.alert) == ("", (), (), "")
            assert v.caption in ("", table.g.caption)
            seen.append(v)
        table.step()
    return seen


def test_between_the_deals_turns_the_screen_is_dark_with_only_the_line_said():
    """Veiled, as the night is: a box without sound shows its instructions
    there (the painter lights them above the veil; tests/test_newd3_screens
    measures them); nothing there is secret."""
    table = dealt("A1", 6)
    seen = between_turns(table, Stage.DEAL)
    assert len(seen) > 9 and all(v.dim for v in seen)
    captions = {v.caption for v in seen}
    assert tr(said.SEATING) in captions
    assert all(f"Seat {s}, open your eyes; everyone else, keep yours closed. Hold VOTE to "
               f"see your card." in captions for s in range(1, 10))


def test_a_hold_between_the_deals_turns_shows_nothing_and_does_nothing():
    table = dealt("A1", 6)
    table.to_window("card", 1)
    table.until(lambda: not table.in_window())
    before = table.view()
    assert table.hold(Button.VOTE) == []
    assert table.tap(Button.VOTE) == []
    assert table.view() == before and not table.g.showing
    assert table.release(Button.VOTE) == []        # let go before the next window
    assert table.view() == before
    table.to_window("card", 2)
    assert table.view().big == "Hold VOTE"


def test_a_tap_in_a_card_window_does_not_show_the_card():
    table = dealt("A1", 6)
    table.to_window("card", 1)
    before = table.view()
    table.tap(Button.VOTE)
    table.tap(Button.NEXT)
    assert table.view() == before


def to_call(table: Table, turn_id: str, seat: int) -> None:
    """To the line calling `seat` to its `turn_id` turn: its window is not open yet."""
    table.until(lambda: table.turn().id == turn_id and table.turn().seat == seat
                and table.g.turn_stage == "speak" and table.g.caption != "")


class Hands:
    """Real presses on the table's clock: the box's classifier (VOTE held
    for 2 s is a hold) turns them into the events the game is given."""

    HOLD = 2.0

    def __init__(self, table: Table) -> None:
        self.table = table
        self.buttons = Classifier(hold_seconds={Button.VOTE: self.HOLD})

    def _feed(self, events: list[Tap | Hold | Release]) -> None:
        for event in events:
            self.table.press(event)

    def down(self) -> None:
        self._feed(self.buttons.press(Button.VOTE, self.table.now))

    def up(self) -> None:
        self._feed(self.buttons.release(Button.VOTE, self.table.now))

    def wait_until(self, at: float) -> None:
        """To `at`, stopping at every change of the game and of the buttons."""
        t = self.table
        while True:
            due = [d for d in (t.g.next_change(t.now), self.buttons.next_deadline())
                   if d is not None and d <= at]
            if not due:
                break
            t.now = max(t.now, min(due))
            t._record(t.g.tick(t.now))
            self._feed(self.buttons.poll(t.now))
        t.now = at
        t._record(t.g.tick(t.now))
        self._feed(self.buttons.poll(t.now))


def window_opens(choice: str, seed: int, seat: int) -> float:
    """When the deal's window for `seat` opens (the same every deal)."""
    table = dealt(choice, seed)
    table.to_window("card", seat)
    return table.now


def test_a_vote_held_from_the_call_shows_the_card_as_the_window_opens():
    """A newcomer presses at "Hold VOTE to see your card", while it is
    still said, and keeps holding: the window takes the hold."""
    table = dealt("A1", 6)
    to_call(table, "card", 3)
    before = table.view()
    assert table.hold(Button.VOTE) == []        # between turns: nothing seen or heard
    assert table.view() == before and not table.g.showing
    table.to_window("card", 3)
    opened = table.now
    shown = table.view()
    assert shown.big == role_name(table.g.seats[2]) and not shown.dim
    assert shown.details[0] == "Seat 3 · your card"
    table.release(Button.VOTE)                  # let go at once: the usual minimum
    table.wait(table.g.options.show - 0.01)
    assert table.view().big == role_name(table.g.seats[2])
    table.wait(0.02)
    assert table.now - opened > table.g.options.show
    assert table.view().big == "Hold VOTE"


def test_a_vote_pressed_before_the_window_counts_whenever_its_hold_comes():
    """Pressed 3 s before the window, the hold comes between turns; pressed
    1 s before, it comes 1 s into the window: either way the card shows
    while VOTE is down, and hides when it is let go."""
    opens = window_opens("A1", 6, 5)
    for early, shows_at in ((3.0, opens), (1.0, opens + 1.0)):
        table = dealt("A1", 6)
        hands = Hands(table)
        card = role_name(table.g.seats[4])
        hands.wait_until(opens - early)
        assert not table.in_window()
        before = table.view()
        hands.down()
        assert table.view() == before
        hands.wait_until(shows_at - 0.01)
        assert table.view().big != card
        hands.wait_until(shows_at)
        assert table.in_window() and table.turn().seat == 5
        assert table.view().big == card
        hands.wait_until(shows_at + 5.0)
        assert table.view().big == card
        hands.up()
        hands.wait_until(table.now + table.g.options.show)
        assert table.view().big == "Hold VOTE"


def test_a_vote_let_go_before_the_window_shows_nothing_in_it():
    opens = window_opens("A1", 6, 5)
    table = dealt("A1", 6)
    hands = Hands(table)
    hands.wait_until(opens - 4.0)
    hands.down()
    hands.wait_until(opens - 1.0)               # held 3 s: its hold came, in the dark
    hands.up()
    hands.wait_until(opens + 1.0)
    assert table.in_window() and table.turn().seat == 5
    assert table.view().big == "Hold VOTE" and not table.g.showing


def test_presses_from_the_calls_change_nothing_between_turns_nor_the_deals_time():
    """Every seat pressing VOTE during its call (some letting go before the
    window): what is said, when, and every screen between turns are the
    same as for a table that waits for the window."""
    def deal(early: bool) -> tuple[list, list]:
        table = dealt("A1", 6)
        dark = []
        for seat in range(1, 10):
            to_call(table, "card", seat)
            if early:
                table.hold(Button.VOTE)
                if seat % 3 == 0:
                    table.release(Button.VOTE)
            while not table.in_window():
                dark.append((table.now, table.view()))
                table.step()
            if not early:
                table.hold(Button.VOTE)
            table.wait(1.0)
            table.release(Button.VOTE)
            while table.in_window():
                table.step()
        table.until(lambda: table.g.stage is Stage.DISCUSSION)
        return table.timeline + table.said, dark
    assert deal(early=True) == deal(early=False)


def test_a_vote_held_from_the_call_shows_the_nights_message_as_the_window_opens():
    table, other = resumed("night", A1), resumed("night", A1)
    for t in (table, other):
        play_night(t, {"seer": 2})
    to_call(table, "look", 3)
    assert table.hold(Button.VOTE) == []
    table.to_window("look", 3)
    assert table.view() == other.read_message(3)
    assert table.view().big == "Wolf"


@pytest.mark.parametrize("choice,seed", [("A1", 7), ("A3", 8), ("B1", 9), ("C3", 10)])
def test_the_wolf_team_and_the_nobles_see_their_partner_and_nobody_else_does(choice, seed):
    table = dealt(choice, seed)
    seats = table.g.seats
    for seat in range(1, 10):
        table.to_window("card", seat)
        table.hold(Button.VOTE)
        v = table.view()
        table.release(Button.VOTE)
        role = seats[seat - 1]
        assert v.big == role_name(role)
        assert v.details[1] == ("Team: Wolves" if is_wolf_team(role) else "Team: Town")
        partner_lines = [d for d in v.details if d.startswith("Your partner")]
        if is_wolf_team(role):
            other = [s for s in range(1, 10) if s != seat and is_wolf_team(seats[s - 1])]
        elif role == "noble":
            other = [s for s in range(1, 10) if s != seat and seats[s - 1] == "noble"]
        else:
            other = []
        # The partner's role too: a silent pack cannot say it at the table.
        assert partner_lines == [f"Your partner: Seat {s}, {role_name(seats[s - 1])}"
                                 for s in other]


def test_after_the_deal_everyone_wakes_to_day_one():
    table = dealt("A1", 6)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    table.wait(5)
    assert "Everyone, open your eyes." in table.texts()
    assert table.texts()[-1] == "Day 1. The discussion begins."
    assert not table.view().dim


# ===================================================================== night
def night_record(seats: list[str], dead: Iterable[int], act: bool) -> list:
    table = resumed("night", seats, dead, night=2)
    if act:
        living = [s for s in range(1, 10) if s not in set(dead)]
        sheep = [s for s in living if seats[s - 1] == "sheep"]
        play_night(table, {c.role: next(s for s in living if seats[s - 1] != c.role)
                           for c in CALLS if c.kind is Kind.CHOOSE},
                   victims=sheep[:1])
        for seat in range(1, 10):
            table.read_message(seat)
    to_dawn(table)
    return table.timeline + table.said


def test_the_nights_timeline_is_the_same_for_any_setup_deaths_and_actions():
    quiet = night_record(C3, dead=(), act=False)
    busy = night_record(A1, dead=(), act=True)
    deaths = night_record(A1_SPREAD, dead=(2, 9), act=True)
    others = night_record(B1, dead=(1, 5, 6), act=False)
    assert quiet == busy == deaths == others


def test_every_call_is_made_every_night_in_004s_order_even_when_not_dealt_or_dead():
    # C3 deals none of the callable roles but the Wolves; seat 2's Wolf is dead.
    table = resumed("night", C3, dead=(2, 3), night=3)
    finish_night(table)
    wakes = [t for t in table.texts() if "open your eyes" in t]
    expected = [tr(c.wake) for c in CALLS] + [
        f"Seat {s}, open your eyes and hold VOTE to read your message." for s in range(1, 10)]
    assert wakes == expected + ["Everyone, open your eyes."]
    assert table.texts()[0] == "Night 3. Everyone, close your eyes."


def test_a_call_nobody_answers_takes_its_full_window():
    table = resumed("night", C3)       # no Alchemist, Chef, Guard, Seer... in C3
    windows: dict[str, float] = {}
    while table.g.stage is Stage.NIGHT:
        if table.in_window():
            turn, opened = table.turn(), table.now
            table.until(lambda: not table.in_window())
            windows.setdefault(turn.id, table.now - opened)
        else:
            table.step()
    times = Times()
    for call in CALLS:
        expected = {Kind.PLAN: times.plan, Kind.CHOOSE: times.action,
                    Kind.KILL: times.kill}[call.kind]
        assert windows[call.id] == pytest.approx(expected), call.id
    assert windows["look"] == pytest.approx(times.look)


def test_choosing_early_does_not_shorten_a_window():
    table = resumed("night", A1)
    table.to_window("seer")
    opened = table.now
    table.tap(Button.VOTE)
    table.until(lambda: not table.in_window())
    assert table.now - opened == pytest.approx(Times().action)


def test_between_the_nights_turns_the_screen_is_dark_with_only_the_line_said():
    table = resumed("night", A1)
    seen = between_turns(table, Stage.NIGHT)
    assert seen and all(v.dim for v in seen)
    assert "Seer, open your eyes and choose a seat to inspect." in {v.caption for v in seen}


def test_presses_between_the_nights_turns_do_nothing():
    table = resumed("night", A1)
    table.to_window("guard")
    table.until(lambda: not table.in_window())
    before = table.view()
    for button in (Button.VOTE, Button.NEXT, Button.START):
        assert table.tap(button) == []
    assert table.hold(Button.VOTE) == []
    assert table.view() == before
    play_night(table)
    assert table.g.actions == {}
    assert table.read_message(3).big == "Nothing"


def test_a_window_opens_the_same_whoever_holds_the_role():
    """The cursor starts on no seat: it would otherwise start off the
    actor's own seat, so its first place would differ when the Seer sits in
    seat 1 (A1) from when nobody is the Seer (C3)."""
    shown = []
    for seats in (A1, C3, A1_SPREAD):
        table = resumed("night", seats)
        table.to_window("seer")
        view = table.view()
        shown.append((view.title, view.big, view.details, view.legend, view.seats))
        assert view.big == "NEXT: a seat"
    assert shown[0] == shown[1] == shown[2]


def test_a_dead_roles_choice_is_discarded():
    table = resumed("night", A1, dead=(3,), night=1)     # the Seer is dead
    table.to_window("seer")
    table.point_at(1)
    table.tap(Button.VOTE)
    assert [s.seat for s in table.view().seats if s.marked] == [1]
    table.until(lambda: not table.in_window())
    assert 3 not in table.g.actions
    finish_night(table)
    assert table.g.outcome is not None and table.g.outcome.results == {}


REFUSED = "Seat {seat} cannot be chosen here: choose another seat."


def refused_on(table: Table, seat: int) -> View:
    """VOTE on `seat`; the screen after."""
    table.point_at(seat)
    table.tap(Button.VOTE)
    return table.view()


def assert_refused(v: View, seat: int) -> None:
    assert v.alert == REFUSED.format(seat=seat)
    assert [(s.seat, s.marked) for s in v.seats if s.refused] == [(seat, False)]


@pytest.mark.parametrize("role", ["alchemist", "guard", "seer"])
def test_nobody_can_choose_themselves(role):
    """The cursor passes over nobody living (where it would skip would show
    whose turn it is); choosing one's own seat is refused, in the words any
    refused seat gets."""
    table = resumed("night", A1_SPREAD)
    actor = A1_SPREAD.index(role) + 1
    table.to_window(role)
    assert table.cursor_stops() == set(range(1, 10))
    assert_refused(refused_on(table, actor), actor)
    assert table.g.chosen is None
    table.until(lambda: not table.in_window())
    assert actor not in table.g.actions


def test_the_cursor_skips_the_dead():
    table = resumed("night", A1_SPREAD, dead=(1, 5))
    table.to_window("seer")
    assert table.cursor_stops() == {2, 3, 4, 6, 7, 8, 9}


def kill_screens(seats: list[str], dead: Iterable[int] = ()) -> list[tuple]:
    """The kill window's every screen as NEXT walks the ring round in each
    step, START moving on: what anyone peeking would see."""
    table = resumed("night", seats, dead)
    table.to_window("kill")
    shown = []
    for step in range(len(KILL_STEPS)):
        for _ in range(10):
            v = table.view()
            shown.append((v.title, v.big, v.details, v.legend, v.holds, v.seats, v.alert))
            table.tap(Button.NEXT)
        if step + 1 < len(KILL_STEPS):
            table.tap(Button.START)
    return shown


def test_the_kill_window_shows_no_seat_as_special():
    """Nothing on the kill window follows from where the Wolves sit: no seat
    outlined, the cursor stopping on every living seat, in every step."""
    screens = kill_screens(A1_SPREAD)                   # the Wolves at 4 and 7
    assert screens == kill_screens(A1) == kill_screens(C3)   # 1 and 2; 2 and 7
    opened = screens[0]
    assert not any(s.refused or s.marked or s.cursor for s in opened[5])
    table = resumed("night", A1_SPREAD, dead=(6,))
    table.to_window("kill")
    assert table.cursor_stops() == {1, 2, 3, 4, 5, 7, 8, 9}
    table.tap(Button.START)
    assert table.cursor_stops() == {1, 2, 3, 4, 5, 7, 8, 9}


def test_the_kill_window_looks_the_same_with_one_wolf_alive_as_with_two():
    """Seat 7 dead: the Alchemist (one Wolf left) or a Sheep (two). The
    ring names a dead seat's card, as the dawn did; nothing else differs."""
    def public(screens: list[tuple]) -> list[tuple]:
        return [(*shown[:5], tuple(dataclasses.replace(s, role="") for s in shown[5]),
                 shown[6]) for shown in screens]
    assert public(kill_screens(A1_SPREAD, dead=(7,))) == public(kill_screens(A1, dead=(7,)))


def test_a_wolf_seat_is_refused_as_a_victim_only_when_marked():
    table = resumed("night", A1_SPREAD)
    table.to_window("kill")
    table.point_at(4)
    assert not any(s.refused for s in table.view().seats)    # pointed at, not refused
    v = refused_on(table, 4)
    assert_refused(v, 4)
    assert table.g.victims == [None, None]
    table.tap(Button.NEXT)                                   # any press clears it
    assert table.view().alert == "" and not any(s.refused for s in table.view().seats)


def test_the_knife_may_only_be_a_living_wolf_refused_in_the_same_words():
    table = resumed("night", A1_SPREAD, dead=(7,))
    table.to_window("kill")
    table.tap(Button.START)
    assert table.view().title.startswith("Wolves · Wolf 1: knife")
    assert_refused(refused_on(table, 5), 5)
    assert table.g.knives == [None, None]
    refused_on(table, 4)
    assert table.g.knives == [4, None] and table.view().alert == ""


def test_the_wolves_mark_one_after_the_other_each_in_a_slot_of_its_own():
    table = resumed("night", A1_SPREAD)
    table.to_window("kill")
    labels = []
    for step in range(len(KILL_STEPS)):
        v = table.view()
        labels.append((v.title, v.label(Button.START)))
        if step + 1 < len(KILL_STEPS):
            table.tap(Button.START)
    assert labels == [("Wolves · Wolf 1: victim · 0:25", "Knife"),
                      ("Wolves · Wolf 1: knife · 0:25", "Wolf 2"),
                      ("Wolves · Wolf 2: victim · 0:25", "Knife"),
                      ("Wolves · Wolf 2: knife · 0:25", "")]
    table.tap(Button.START)                     # no way on, and none back
    assert table.view().title == "Wolves · Wolf 2: knife · 0:25"


def test_the_marked_victim_dies_and_the_marks_show_on_the_ring():
    table = resumed("night", A1_SPREAD)
    play_night(table, victims=[5], knives=[7])
    assert table.g.kill is not None and (table.g.kill.target, table.g.kill.knife) == (5, 7)
    finish_night(table)
    assert table.g.dead == {5: "sheep"}


def test_the_kill_screen_shows_each_wolfs_mark_and_a_tie_as_a_tie():
    table = resumed("night", A1_SPREAD)
    table.to_window("kill")
    assert table.view().details == ("Wolf 1: – · Wolf 2: –",)
    refused_on(table, 5)                        # Wolf 1's victim
    v = table.view()
    assert [s.seat for s in v.seats if s.marked] == [5]
    assert v.details[0] == "Wolf 1: 5 · Wolf 2: –"
    table.tap(Button.START)                     # Wolf 1's knife: no knife marked yet
    v = table.view()
    assert v.details[0] == "Wolf 1: – · Wolf 2: –" and not any(s.marked for s in v.seats)
    table.tap(Button.START)                     # Wolf 2's victim: Wolf 1's shows
    assert table.view().details[0] == "Wolf 1: 5 · Wolf 2: –"
    refused_on(table, 8)
    v = table.view()
    assert v.details[0] == "Wolf 1: 5 · Wolf 2: 8 · a tie"
    assert [s.seat for s in v.seats if s.marked] == [5, 8]
    refused_on(table, 5)                        # Wolf 2 changes its mind: agreed
    assert table.view().details[0] == "Wolf 1: 5 · Wolf 2: 5"


def test_two_different_victim_marks_are_a_tie_broken_at_random():
    killed = set()
    for seed in range(12):
        table = resumed("night", C3, seed=seed)
        play_night(table, victims=[3, 4], knives=[2])
        finish_night(table)
        killed |= set(table.g.dead)
    assert killed == {3, 4}


def test_two_different_knife_marks_are_a_tie_broken_at_random():
    knives = set()
    for seed in range(12):
        table = resumed("night", C3, seed=seed)
        play_night(table, victims=[3, 3], knives=[2, 7])
        assert table.g.kill is not None
        knives.add(table.g.kill.knife)
    assert knives == {2, 7}


def test_an_unmarked_knife_goes_at_random_to_a_living_wolf():
    knives = set()
    for seed in range(12):
        table = resumed("night", A1_SPREAD, seed=seed)
        play_night(table, victims=[5])
        assert table.g.kill is not None and table.g.kill.target == 5
        knives.add(table.g.kill.knife)
    assert knives == {4, 7}
    for seed in range(6):
        table = resumed("night", A1_SPREAD, dead=(4,), seed=seed)
        play_night(table, victims=[5])
        assert table.g.kill is not None and table.g.kill.knife == 7


def test_one_wolf_pressing_again_and_again_never_erases_the_others_mark():
    """The 1-1 tie stays a tie however often Wolf 2 presses: its presses
    change its own mark only."""
    killed = set()
    for seed in range(12):
        table = resumed("night", A1_SPREAD, seed=seed)
        table.to_window("kill")
        refused_on(table, 3)                    # Wolf 1: seat 3
        table.tap(Button.START, times=2)        # on to Wolf 2's victim
        table.point_at(5)
        table.tap(Button.VOTE, times=3)         # Wolf 2: seat 5, pressed three times
        assert table.g.victims == [3, 5]
        finish_night(table)
        killed |= set(table.g.dead)
    assert killed == {3, 5}


def test_a_wolf_marking_again_changes_its_own_mark():
    table = resumed("night", A1_SPREAD)
    table.to_window("kill")
    for seat in (1, 2, 3):
        refused_on(table, seat)
    assert table.g.victims == [3, None]
    finish_night(table)
    assert table.g.dead == {3: "sheep"}


def test_two_wolves_marking_the_same_seat_both_vote_for_it():
    table = resumed("night", A1_SPREAD)
    play_night(table, victims=[5, 5], knives=[7, 4])
    assert table.g.kill is not None and table.g.kill.target == 5
    finish_night(table)
    assert table.g.dead == {5: "sheep"}


def test_a_long_press_in_a_choice_window_still_chooses():
    """VOTE is a holdable button: a press held past the hold time arrives
    as a Hold, and in a window with nothing to hold it chooses as a tap."""
    table = resumed("night", A1)
    table.to_window("seer")
    table.point_at(5)
    table.hold(Button.VOTE)
    assert table.g.chosen == 5


def test_the_end_games_question_never_lights_the_dark():
    """A BACK held in one turn asks "again?"; the question ends with that
    part of the turn: it neither glows between turns nor arms the next
    turn's player to end the game with a single hold."""
    table = resumed("night", A1)
    table.to_window("guard")
    table.hold(Button.BACK)
    assert table.view().alert
    table.until(lambda: not table.in_window())
    assert not table.view().alert
    table.to_window("kill")
    table.hold(Button.BACK)
    assert table.g.stage is Stage.NIGHT             # only asked, again


def test_the_victim_of_the_night_reads_nothing():
    """004 leaves open whether a killed information role sees its result:
    at a table it would only show on a face at dawn. The box shows nothing."""
    table = resumed("night", A1)
    play_night(table, {"seer": 2}, victims=[3], knives=[1])
    v = table.read_message(3)
    assert (v.big, v.details[1]) == ("Nothing", "Nothing for you tonight.")
    finish_night(table)
    assert table.g.dead == {3: "seer"}


def test_no_victim_marked_means_no_kill():
    table = resumed("night", A1_SPREAD)
    play_night(table, knives=[4])
    finish_night(table)
    assert table.g.kill is None and table.g.dead == {}
    assert "Nobody died in the night." in table.texts()


# ================================================================== messages
def test_the_seer_learns_wolf_or_not():
    table = resumed("night", A1)
    play_night(table, {"seer": 2})
    v = table.read_message(3)
    assert (v.big, v.details) == ("Wolf", ("Seat 3 · tonight",
                                           "Seat 2 is on the Wolves' side."))
    table = resumed("night", A1)
    play_night(table, {"seer": 5})
    assert table.read_message(3).big == "Not a Wolf"


@pytest.mark.parametrize("target,big,note", [
    (1, "Vanilla", "Seat 1 is a Wolf or a Sheep."),
    (5, "Vanilla", "Seat 5 is a Wolf or a Sheep."),
    (3, "Priest", "Seat 3 is the Priest."),
    (4, "Dairy Maid", "Seat 4 is the Dairy Maid."),
])
def test_the_track_reader_learns_the_role_with_wolves_and_sheep_vanilla(target, big, note):
    table = resumed("night", B1)
    play_night(table, {"track_reader": target})
    v = table.read_message(2)
    assert (v.big, v.details[1]) == (big, note)


def test_the_priest_learns_whom_the_watched_seat_visited():
    table = resumed("night", B1)
    play_night(table, {"dairy_maid": 6, "priest": 4})
    v = table.read_message(3)
    assert (v.big, v.details[1]) == ("Seat 6", "Seat 4 visited Seat 6.")
    table = resumed("night", B1)
    play_night(table, {"priest": 5})
    v = table.read_message(3)
    assert (v.big, v.details[1]) == ("Nobody", "Seat 5 visited nobody.")


def test_the_dairy_maids_target_wakes_to_learn_she_is_town():
    table = resumed("night", B1)
    play_night(table, {"dairy_maid": 7})
    maid = table.read_message(4)
    assert (maid.big, maid.details[1]) == ("Milk", "Seat 7 now knows you are Town.")
    told = table.read_message(7)
    assert told.big == "Town"
    assert told.details == ("Seat 7 · tonight",
                            "The Dairy Maid visited you: Seat 4 is Town.")


def test_a_sheep_reads_nothing():
    table = resumed("night", A1)
    play_night(table, {"seer": 2})
    v = table.read_message(6)
    assert (v.big, v.details) == ("Nothing", ("Seat 6 · tonight", "Nothing for you tonight."))


def _layout(v: View) -> View:
    return dataclasses.replace(v, big="", details=("",) * len(v.details))


def test_a_blocked_seer_reads_no_result_in_the_layout_of_a_real_result():
    blocked = resumed("night", A1)
    play_night(blocked, {"alchemist": 3, "seer": 1})
    no_result = blocked.read_message(3)
    free = resumed("night", A1)
    play_night(free, {"alchemist": 5, "seer": 1})
    result = free.read_message(3)
    assert blocked.now == free.now
    assert (no_result.big, no_result.details[1]) == ("No result",
                                                     "Your action did not work tonight.")
    assert result.big == "Wolf"
    assert no_result.phase is result.phase
    assert no_result.title == result.title == f"Seat 3 · {no_result.title.split(' · ')[1]}"
    assert len(no_result.details) == len(result.details)
    assert no_result.legend == result.legend and no_result.holds == result.holds
    assert _layout(no_result) == _layout(result)


def test_a_message_shows_only_while_held_and_not_between_turns():
    table = resumed("night", A1)
    play_night(table, {"seer": 2})
    table.to_window("look", 3)
    assert table.view().big == "Hold VOTE"
    table.hold(Button.VOTE)
    assert table.view().big == "Wolf"
    table.until(lambda: not table.in_window())
    assert "Wolf" not in strings(table.view())


# ====================================================================== dawn
def test_dawn_names_the_dead_seat_then_its_role_and_team():
    table = resumed("night", A2)
    play_night(table, victims=[5])
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    texts = table.texts()
    at = texts.index("Seat 5 was killed in the night.")
    assert texts[at + 1] == "Seat 5 was the Chef, on the Town's side."
    assert texts[at - 1] == "Everyone, open your eyes."
    assert table.g.dead == {5: "chef"}
    assert [s.role for s in table.view().seats if not s.alive] == ["Chef"]


def test_dawn_with_no_kill_says_nobody_died():
    table = resumed("night", A2)
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    assert "Nobody died in the night." in table.texts()
    assert not any("killed" in t for t in table.texts())
    assert table.g.dead == {}


def test_the_guards_target_survives_the_kill():
    table = resumed("night", A1)
    play_night(table, {"guard": 6}, victims=[6])
    finish_night(table)
    assert table.g.dead == {}
    assert "Nobody died in the night." in table.texts()


def test_the_chefs_jailed_target_survives_the_kill():
    table = resumed("night", A2)
    play_night(table, {"chef": 6}, victims=[6])
    finish_night(table)
    assert table.g.dead == {}
    assert "Nobody died in the night." in table.texts()


def test_check_accepts_a_dawn_that_kills_a_role_that_acted():
    table = resumed("night", A1, check=False)
    play_night(table, {"seer": 1}, victims=[3])
    to_dawn(table)
    assert table.g.dead == {3: "seer"}
    table.g.check()


def test_a_blocked_guard_does_not_save_the_target():
    table = resumed("night", A1)
    play_night(table, {"alchemist": 4, "guard": 6}, victims=[6])
    finish_night(table)
    assert table.g.dead == {6: "sheep"}


# ======================================================================= day
def test_004s_day_lengths():
    assert (rules.DISCUSSION, rules.VOTE) == (150, 45)


def test_the_days_clocks_warnings_and_count_in():
    table = resumed("discussion", A1, night=0)
    to_tally(table)
    d, v = rules.DISCUSSION, rules.VOTE
    assert table.said == [
        (0.0, "Day 1. The discussion begins."),
        (d - 60, "1 minute left."),
        (d - 30, "30 seconds left."),
        (d - 10, "10 seconds left."),
        (d, "Time to vote. When the count ends, everyone alive points at a player, or at "
            "the ceiling to skip."),
        (d + v - 10, "10 seconds left."),
        (d + v, "Three."),
        (d + v + 1, "Two."),
        (d + v + 2, "One."),
        (d + v + 3, "Point!"),
    ]
    assert table.now == d + v + 3
    assert table.view().title == "Who has the most votes?"


def test_the_day_screens_clock():
    table = resumed("discussion", A1, night=2)
    v = table.view()
    assert (v.title, v.big) == ("Day 3 · Discussion", "2:30")
    table.wait(rules.DISCUSSION)
    v = table.view()
    assert (v.title, v.big) == ("Day 3 · Vote", "0:45")


def test_the_vote_shows_its_clock_alone_then_the_votes_needed():
    """The vote's clock is the big timer with its bar (no ring squeezing
    it): under it the call while it is said, then the votes needed."""
    table = resumed("vote", A1, dead=(5,))
    v = table.view()
    assert (v.big, v.seats, v.progress) == ("0:45", (), 1.0)
    assert v.caption == tr(said.VOTE_NOW)
    table.wait(15)
    v = table.view()
    assert (v.big, v.progress) == ("0:30", 30 / 45)
    assert v.caption == "8 alive: 5 votes put a seat out." and not v.urgent
    table.wait(25)
    assert table.view().urgent and table.view().big == "0:05"


def test_vote_now_skips_the_rest_of_the_discussion():
    """A hold, not a tap: one stray tap must not cut the day short."""
    table = resumed("discussion", A1)
    table.wait(20)
    table.tap(Button.VOTE)
    assert table.g.stage is Stage.DISCUSSION
    table.g.handle(Hold(Button.VOTE), table.now)
    assert table.g.stage is Stage.VOTE
    table.tap(Button.VOTE)
    assert table.g.stage is Stage.VOTE
    table.g.handle(Hold(Button.VOTE), table.now)
    assert table.g.stage is Stage.POINT
    to_tally(table)
    assert table.now == pytest.approx(23)


@pytest.mark.parametrize("dead,seat,votes,out", [
    # 9, 7 and 5 alive: more than half is 5, 4, 3 (004's examples).
    ((), 9, 5, True), ((), 9, 4, False), ((5, 6), 9, 4, True), ((5, 6), 9, 3, False),
    ((5, 6, 7, 8), 1, 3, True), ((5, 6, 7, 8), 1, 2, False),
    # 8, 6 and 4 alive: exactly half is no majority (4 of 8, 3 of 6, 2 of 4).
    ((5,), 9, 5, True), ((5,), 9, 4, False), ((5,), 1, 4, False),
    ((5, 6, 7), 9, 4, True), ((5, 6, 7), 9, 3, False),
    ((1, 5, 6, 7, 8), 9, 3, True), ((1, 5, 6, 7, 8), 2, 2, False),
])
def test_a_seat_is_out_only_with_a_strict_majority_of_the_living(dead, seat, votes, out):
    table = resumed("vote", A1, dead)
    to_tally(table)
    vote(table, seat, votes)
    living = 9 - len(dead)
    needed = {9: 5, 8: 5, 7: 4, 6: 4, 5: 3, 4: 3}[living]         # more than half
    assert table.view().details[1] == f"{living} alive: {needed} votes put a seat out."
    assert table.view().big == ("Out" if out else "Nobody out")
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.NIGHT and table.in_window())
    assert (seat in table.g.dead) is out
    if out:
        assert f"Seat {seat} is out, with {votes} votes." in table.texts()
        side = "the Wolves' side" if seat in (1, 2) else "the Town's side"
        was = f"Seat {seat} was the {role_name(A1[seat - 1])}, on {side}."
        assert was in table.texts()
    else:
        assert f"{votes} votes, and {needed} were needed." in table.texts()
        assert "Nobody is out." in table.texts()


def test_a_tie_puts_nobody_out():
    table = resumed("vote", A1)
    to_tally(table)
    table.tap(Button.START)
    assert table.g.stage is Stage.RESULT
    assert table.view().details[0] == "A tie"
    assert table.texts()[-1] == "Point!"                # said once confirmed
    table.tap(Button.START)
    assert table.texts()[-1] == "A tie: nobody is out."
    table.until(lambda: table.g.stage is Stage.NIGHT)
    assert table.g.dead == {} and table.g.night == 2


def test_a_recount_corrects_the_count_before_it_is_applied():
    table = resumed("vote", A1)
    to_tally(table)
    vote(table, 6, 4)
    assert table.view().big == "Nobody out"
    table.tap(Button.BACK)
    assert table.g.stage is Stage.TALLY and table.cursor() == 6
    table.tap(Button.VOTE)
    assert table.view().big == "4"              # the count is kept
    table.tap(Button.VOTE)
    table.tap(Button.START)
    assert table.view().big == "Out"
    table.tap(Button.START)
    assert table.g.dead == {6: "sheep"}


def test_a_recount_can_name_another_seat():
    table = resumed("vote", A1)
    to_tally(table)
    vote(table, 6, 5)
    table.tap(Button.BACK)
    table.point_at(7)
    table.tap(Button.VOTE)
    table.tap(Button.START)
    table.tap(Button.START)
    assert table.g.dead == {7: "sheep"}


def test_the_count_cannot_exceed_the_living_nor_go_below_zero():
    table = resumed("vote", A1, dead=(5, 6))
    to_tally(table)
    table.point_at(9)
    table.tap(Button.VOTE)
    table.tap(Button.VOTE, 12)
    v = table.view()
    assert v.big == "7"
    assert v.alert == "At most 7 votes: one a living player."
    table.tap(Button.BACK, 10)
    assert table.view().big == "0"


def test_the_tally_cursor_skips_the_dead():
    table = resumed("vote", A1, dead=(1, 5))
    to_tally(table)
    assert table.cursor() == 2
    assert table.cursor_stops() == {2, 3, 4, 6, 7, 8, 9}


def test_a_recount_after_a_tie_never_offers_a_seat_already_dead():
    table = resumed("vote", A1)
    to_tally(table)
    vote(table, 6, 5)
    table.tap(Button.START)                     # seat 6 is out on day 1
    table.until(lambda: table.g.stage is Stage.NIGHT)
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    to_tally(table)
    table.tap(Button.START)                     # "tie" by mistake ...
    table.tap(Button.BACK)                      # ... so recount
    assert table.g.stage is Stage.TALLY
    assert table.cursor() not in table.g.dead
    table.tap(Button.VOTE)
    assert table.g.tally not in table.g.dead


def test_town_wins_when_the_second_wolf_is_voted_out():
    table = resumed("vote", A1, dead=(1,), night=1)
    to_tally(table)
    vote(table, 2, 5)
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.END)
    assert table.g.winner == "town"
    texts = table.texts()
    assert texts[-3:] == ["Seat 2 was the Alchemist, on the Wolves' side.", said.silent(2),
                          said.TOWN_WINS]
    assert table.view().title.startswith("The Town wins")


def test_the_wolves_win_at_parity_after_a_vote():
    # 2 Wolves and 3 Town alive; the Town votes out one of its own.
    table = resumed("vote", A1, dead=(5, 6, 7, 8), night=2)
    to_tally(table)
    vote(table, 9, 3)
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.END)
    assert table.g.winner == "wolves"
    assert table.texts()[-1] == said.WOLVES_WIN
    assert table.view().title.startswith("The Wolves win")


def test_the_wolves_win_at_parity_after_a_nights_kill():
    table = resumed("night", A1, dead=(5, 6, 7, 8), night=2)
    play_night(table, victims=[9], knives=[1])
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.END)
    assert table.g.winner == "wolves"
    assert table.texts()[-4:] == ["Seat 9 was killed in the night.",
                                  "Seat 9 was the Sheep, on the Town's side.", said.silent(9),
                                  said.WOLVES_WIN]


def test_no_win_after_a_vote_goes_on_to_the_next_night():
    table = resumed("vote", A1, night=1)
    to_tally(table)
    vote(table, 1, 5)
    table.tap(Button.START)
    table.until(lambda: table.g.stage is not Stage.RESULT)
    assert table.g.stage is Stage.NIGHT and table.g.night == 2
    assert table.texts()[-1] == "Night 2. Everyone, close your eyes."


def test_a_draw_after_the_eighth_night():
    table = resumed("night", A1, night=8)
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.END)
    assert table.g.winner == "draw"
    assert table.texts()[-1] == said.DRAW
    assert table.view().title.startswith("A draw")


def test_check_accepts_the_eighth_night():
    table = resumed("night", A1, night=8, check=False)
    table.until(table.in_window)
    table.g.check()


def test_no_draw_after_the_seventh_night():
    table = resumed("night", A1, night=7)
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    table.wait(5)
    assert table.texts()[-1] == "Day 8. The discussion begins."


def test_the_end_screen_lists_every_card():
    table = resumed("vote", A1, dead=(1,), night=1)
    to_tally(table)
    vote(table, 2, 5)
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.END)
    lines = end_pages(table)
    assert "The setup was A1." in lines
    assert "Seat 3: Seer, Town" in lines
    assert "Seat 1: Wolf, Wolves (died)" in lines


# ================================================================== tracker
def test_the_day_screen_shows_the_setups_the_dead_allow():
    table = resumed("discussion", A1, dead=(2,), night=1)
    table.wait(5)
    assert table.view().details == ("Possible setups: A1 A2 A3",)
    everyone = resumed("discussion", A1, night=0)
    everyone.wait(5)
    assert everyone.view().details == ("Possible setups: A1 A2 A3 B1 B2 B3 C1 C2 C3",)


def test_next_opens_the_tracker_listing_the_possible_setups():
    table = resumed("discussion", A1, dead=(2,), night=1)
    table.wait(5)
    table.tap(Button.NEXT)
    assert table.view().title == "Setups still possible · 1/2"
    listed = list(table.view().details)
    table.tap(Button.NEXT)
    assert table.view().title == "Setups still possible · 2/2"
    listed += table.view().details
    assert listed == ["A1: Wolf, Alchemist, Seer, Guard, 5× Sheep",
                      "A2: Wolf, Alchemist, Chef, Priest, 5× Sheep",
                      "A3: Wolf, Alchemist, 2× Noble, 5× Sheep",
                      "Ruled out by the dead: B1 B2 B3 C1 C2 C3"]
    table.tap(Button.START)
    assert table.view().title == "Day 2 · Discussion"


def test_the_tracker_narrows_as_the_dead_are_revealed():
    table = resumed("discussion", A1_SPREAD, dead=(2, 9), night=2)    # Seer and Guard
    table.wait(5)
    assert table.view().details == ("Possible setups: A1",)
    table.tap(Button.NEXT)
    assert table.view().details[0].startswith("A1: ")


# =================================================================== resume
def full_game() -> tuple[Table, dict[str, dict]]:
    """A1 from the deal to a Town win: a tie, a night kill, two votes out.
    Returns the table and the last checkpoint taken at each stage."""
    table = dealt("A1", 11)
    seats = table.g.seats
    wolves = [s for s in range(1, 10) if is_wolf_team(seats[s - 1])]
    sheep = [s for s in range(1, 10) if seats[s - 1] == "sheep"]
    table.until(lambda: table.g.stage is Stage.TALLY)
    table.tap(Button.START)                            # day 1: a tie
    table.tap(Button.START)
    play_night(table, victims=[sheep[0]], knives=[wolves[0]])
    table.until(lambda: table.g.stage is Stage.TALLY)
    vote(table, wolves[0], 5)                          # day 2: a Wolf out
    table.tap(Button.START)
    play_night(table)
    table.until(lambda: table.g.stage is Stage.TALLY)
    vote(table, wolves[1], 4)                          # day 3: 4 of 7
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.END)
    states: dict[str, dict] = {}
    for e in table.effects:
        if isinstance(e, Checkpoint) and e.state:
            # A night's second checkpoint, once its choices are in, by its own name.
            name = "night-chosen" if e.state.get("chosen") else e.state["stage"]
            states[name] = e.state
    return table, states


def test_a_checkpoint_is_taken_at_each_phase():
    table, states = full_game()
    assert set(states) == {"deal", "night", "night-chosen", "dawn", "discussion", "vote",
                           "end"}
    assert table.g.winner == "town"
    assert states["end"]["winner"] == "town"
    assert table.g.to_dict() == states["end"]


@pytest.mark.parametrize("stage", ["deal", "night", "dawn", "discussion", "vote", "end"])
def test_a_checkpoint_resumes_at_its_phase_with_the_same_cards_and_dead(stage):
    original, states = full_game()
    state = json.loads(json.dumps(states[stage]))
    game = Game.from_dict(state, rng=random.Random(0))
    assert game.stage is Stage.RESUME
    assert game.to_dict() == state
    table = Table(game, now=1000.0)
    table.tap(Button.START)
    assert table.g.stage is Stage(stage)
    assert table.g.seats == original.g.seats
    assert table.g.dead == {int(s): r for s, r in state["dead"].items()}
    assert table.g.night == state["night"]
    assert table.g.to_dict() == state


def test_a_night_resumes_from_its_first_call():
    _table, states = full_game()
    table = Table(Game.from_dict(states["night"]))
    table.tap(Button.START)
    n = states["night"]["night"]
    assert table.texts()[:1] == [f"Night {n}. Everyone, close your eyes."]
    table.until(lambda: table.in_window())
    assert table.turn().id == CALLS[0].id


def test_a_night_cut_after_its_choices_resumes_at_its_messages():
    """Nobody chooses twice: the Seer would choose again knowing a result."""
    _table, states = full_game()
    state = states["night-chosen"]
    game = Game.from_dict(json.loads(json.dumps(state)))
    table = Table(game)
    assert table.view().details == (f"Night {state['night']}, from its messages",)
    table.tap(Button.START)
    table.until(lambda: table.in_window())
    assert (table.turn().kind, table.turn().seat) == (Kind.LOOK, 1)
    assert table.g.actions == {int(a): t for a, t in state["chosen"]["actions"].items()}


def test_a_dawn_resumes_with_its_death_told_again():
    table = Table(Game.from_dict(saved("dawn", A2, dead=(5,), night=1, killed=5)))
    table.tap(Button.START)
    table.until(lambda: table.g.stage is Stage.DISCUSSION)
    assert "Seat 5 was killed in the night." in table.texts()
    assert "Seat 5 was the Chef, on the Town's side." in table.texts()
    assert table.g.dead == {5: "chef"}


def test_the_resume_screen_names_the_phase():
    game = Game.from_dict(saved("night", A1, night=3))
    v = game.view(0.0)
    assert v.title == "Resume the saved game?"
    assert v.details == ("Night 3, from its start",)


def test_a_new_game_instead_of_resuming_forgets_the_saved_one():
    table = Table(Game.from_dict(saved("night", A1, night=3)))
    effects = table.tap(Button.BACK)
    assert table.g.stage is Stage.SETUP
    assert Checkpoint("newd3", {}) in effects


def test_from_dict_refuses_another_version():
    state = saved("night", A1, night=1)
    state["version"] = SAVE_VERSION + 1
    with pytest.raises(ValueError):
        Game.from_dict(state)


def test_from_dict_refuses_cards_that_are_not_the_saved_setup():
    state = saved("night", A1, night=1)
    state["setup"] = "A2"
    with pytest.raises(ValueError):
        Game.from_dict(state)
    state = saved("night", A1, night=1)
    state["seats"][4] = "noble"
    with pytest.raises(ValueError):
        Game.from_dict(state)


def test_from_dict_refuses_a_death_that_does_not_match_its_card():
    state = saved("night", A1, dead=(3,), night=1)
    state["dead"]["3"] = "sheep"
    with pytest.raises(ValueError):
        Game.from_dict(state)


def test_from_dict_refuses_a_stage_that_is_never_saved():
    with pytest.raises(ValueError):
        Game.from_dict(saved("tally", A1, night=1))


@pytest.mark.parametrize("seat", ["0", "10"])
def test_from_dict_refuses_a_dead_seat_that_is_not_a_seat(seat):
    state = saved("night", A1, night=1)
    state["dead"] = {seat: "sheep"}
    with pytest.raises(ValueError):
        Game.from_dict(state)


# ====================================================================== end
def test_one_hold_of_back_only_asks():
    table = resumed("discussion", A1)
    table.hold(Button.BACK)
    assert table.g.stage is Stage.DISCUSSION
    assert table.view().alert == "Hold BACK again to end the game."


def test_a_second_hold_of_back_ends_the_game_and_shows_every_card():
    table = resumed("night", A1, dead=(5,), night=1)
    table.to_window("seer")
    table.hold(Button.BACK)
    effects = table.hold(Button.BACK)
    assert table.g.stage is Stage.END
    assert Checkpoint("newd3", {}) in effects           # nothing left to resume
    assert not table.g.busy()
    v = table.view()
    assert v.title.startswith("Game ended early") and not v.dim
    lines = end_pages(table)
    assert "The setup was A1." in lines
    assert "Seat 1: Wolf, Wolves" in lines and "Seat 3: Seer, Town" in lines
    assert "Seat 5: Sheep, Town (died)" in lines
    assert [line for line in lines if line.startswith("Seat ")] == [
        f"Seat {s}: {role_name(r)}, {'Wolves' if is_wolf_team(r) else 'Town'}"
        f"{' (died)' if s == 5 else ''}" for s, r in enumerate(A1, 1)]
    assert not any(t in table.texts() for t in (said.TOWN_WINS, said.WOLVES_WIN, said.DRAW))
    table.tap(Button.START)                             # a new game
    assert table.g.stage is Stage.SETUP


def test_a_game_ended_in_the_deal_shows_every_card_too():
    table = dealt("C3", 5)
    table.to_window("card", 2)
    table.hold(Button.BACK)
    table.hold(Button.BACK)
    assert table.g.stage is Stage.END
    lines = end_pages(table)
    assert "The setup was C3." in lines
    assert sum(1 for line in lines if line.startswith("Seat ")) == 9


def test_another_button_between_the_holds_disarms_the_end():
    table = resumed("discussion", A1)
    table.hold(Button.BACK)
    table.tap(Button.NEXT)                  # the tracker
    table.tap(Button.START)                 # back from it
    table.hold(Button.BACK)
    assert table.g.stage is Stage.DISCUSSION
    assert table.view().alert == "Hold BACK again to end the game."


# ===================================================================== i18n
def outside_brackets(text: str) -> str:
    """What of a pseudo-translated text lies outside every ⟦…⟧."""
    depth, out = 0, []
    for char in text:
        if char == "⟦":
            depth += 1
        elif char == "⟧":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def test_every_word_of_the_timed_game_goes_through_the_translation_function():
    """A whole game in the pseudo-language: every line said and every text
    on every screen is bracketed, so a German or Chinese table never meets
    English. 004's setup names (A1..C3) are names, shown as they are."""
    from wolfbox.i18n import pseudo_translation
    seen: set[str] = set()
    with pseudo_translation():
        table = dealt("A1", 3)
        while table.g.stage is not Stage.END:
            v = table.view()
            seen.update([v.title, v.big, v.caption, v.alert, *v.details,
                         *(label for _b, label in (*v.legend, *v.holds))])
            if table.in_window() and table.turn().kind in (Kind.CARD, Kind.LOOK):
                table.hold(Button.VOTE)
                v = table.view()
                seen.update([v.big, *v.details])
            if table.g.stage is Stage.TALLY:
                wolves = [s for s in range(1, 10) if is_wolf_team(table.g.seats[s - 1])
                          and s not in table.g.dead]
                table.point_at(wolves[0])
                table.tap(Button.VOTE)
                table.tap(Button.VOTE, times=9)
                v = table.view()
                seen.update([v.title, v.big, *v.details])
                table.tap(Button.START)
                v = table.view()
                seen.update([v.title, v.big, *v.details])
                table.tap(Button.START)
                continue
            table.step()
        v = table.view()
        seen.update([v.title, *v.details, *(label for _b, label in v.legend)])
        seen.update(text for _at, text in table.said)
    bad = sorted(t for t in seen if t and any(c.isalpha() for c in outside_brackets(t))
                 and t not in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"))
    assert bad == []


def test_a_line_heard_out_while_paused_holds_its_gap_until_the_game_resumes():
    """Issue 21: the three games share one speech queue (wolfbox.engine). The
    timed game's gap after a line ran on through a pause, so a line heard
    out while paused let the next one come the moment the game resumed."""
    table = resumed("discussion", A1, night=2)
    says = [e for e in table.effects if isinstance(e, Say)]
    assert says and table.g.speech.speaking == says[-1].token, "the day opens with a line"
    table.tap(Button.START)                                # pause
    assert table.g.paused
    table.press(SpeechDone(says[-1].token))                # the line is heard out
    heard = len(table.said)
    assert table.g.next_change(table.now) is None          # nothing runs while paused
    table.now += 120
    table._record(table.g.tick(table.now))
    table.tap(Button.START)                                # resume
    resumed_at, gap = table.now, table.g.options.line_gap
    assert not table.g.paused and len(table.said) == heard
    line = table.g.speech.line                             # the gap, held through the pause
    assert line is not None and line.deadline == pytest.approx(resumed_at + gap)
