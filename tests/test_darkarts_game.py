"""Werewolves of the Dark Arts: the state machine on a fake clock. Whole
games of many nights in milliseconds; no test waits on the wall clock."""

from __future__ import annotations

import json

import pytest
from pilot import GameDriver

from wolfbox.buttons import GAME_BUTTONS, Button, Hold
from wolfbox.darkarts import rules
from wolfbox.darkarts.book import DEATH, VOTE, WIN
from wolfbox.darkarts.game import Game, Options, Stage
from wolfbox.darkarts.roles import VILLAGE, WEREWOLVES, role_name
from wolfbox.effects import Ambience, Checkpoint, Cue, PlayCue, Say
from wolfbox.events import SpeechDone
from wolfbox.i18n import pseudo_translation
from wolfbox.view import Phase

from wolfbox.buttons import Tap  # isort: skip

START, VOTE_, NEXT, BACK = (Tap(b) for b in GAME_BUTTONS)
ROLES7 = {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1}
# Who sits where (the box never knows this; the test plays the table):
# 1 werewolf, 2 hunter, 3 seer, 4 matchmaker, 5 villager, 6 werewolf, 7 villager.


def says(effects) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say)]


class Table(GameDriver):
    """Drives a game like the Mayor (tests/pilot.py's driver): taps, and the
    fake clock jumped from change to change. Every state is checked."""

    def run_until(self, done, limit: float = 100_000) -> list:
        """Step until `done(game)`; every effect on the way."""
        def reached() -> bool:
            assert self.now < limit
            return done(self.game)
        return self.until(reached, limit=1_000_000)

    def settle(self) -> list:
        """Let every queued line be said."""
        return self.run_until(lambda g: g.speech.line is None and g.timer is None)

    def stage_is(self, stage: Stage):
        return self.run_until(lambda g: g.stage is stage)

    def lovers_to_dawn(self) -> None:
        """Night 1: the Mayor marks seats 3 and 5 as the Lovers; on to the dawn."""
        self.stage_is(Stage.LOVERS)
        for seat in (3, 5):
            self.seat(seat)
            self.press(VOTE_)
        self.press(START)
        self.stage_is(Stage.DAWN)

    def seat(self, seat: int) -> None:
        for _ in range(25):
            if self.game.cursor == seat:
                return
            self.press(NEXT)
        raise AssertionError(f"seat {seat} cannot be reached")

    def role(self, role: str) -> None:
        """The role picker on `role` (it starts on none)."""
        for _ in range(25):
            if self.game.view(self.now).big == role_name(role):
                return
            self.press(NEXT)
        raise AssertionError(f"{role} is not offered")

    def card(self, role: str) -> list:
        """The card turned up: picked, shown back, OK."""
        self.role(role)
        assert self.press(START) == [] and self.game.stage is Stage.CONFIRM
        return self.press(START)

    def death(self, seat: int, role: str) -> list:
        """At dawn: seat died in the night, as role."""
        assert self.game.stage is Stage.DAWN
        self.seat(seat)
        self.press(VOTE_)
        return self.card(role)

    def dawn_over(self) -> list:
        """At dawn: no (more) deaths, shown back, OK."""
        assert self.game.stage is Stage.DAWN
        assert self.press(START) == [] and self.game.stage is Stage.CONFIRM
        return self.press(START)

    def shot(self, seat: int) -> list:
        """The Hunter's victim: picked, shown back, OK."""
        assert self.game.stage is Stage.SHOT
        self.seat(seat)
        assert self.press(VOTE_) == [] and self.game.stage is Stage.CONFIRM
        return self.press(START)

    def vote(self, accused: int, hands: int) -> list:
        """From the discussion: accuse, second, defend, count hands, result."""
        assert self.game.stage is Stage.DISCUSSION
        self.press(VOTE_)
        self.seat(accused)
        self.press(VOTE_)
        assert self.game.stage is Stage.SECOND
        self.settle()                           # the table hears the accusation
        self.press(VOTE_)
        assert self.game.stage is Stage.DEFENCE
        self.settle()                           # the accused defends
        self.press(VOTE_)
        said = self.stage_is(Stage.COUNT)
        for _ in range(hands):
            self.press(VOTE_)
        self.press(START)
        assert self.game.stage is Stage.RESULT
        return said


def new_game(**options) -> Table:
    table = Table(Game(Options(**options), players=7, chosen=dict(ROLES7)))
    return table


def test_a_seven_player_game_two_nights_a_failed_vote_a_lynch_a_hunter_chain_a_win():
    t = new_game()
    g = t.game
    t.press(START)
    assert g.stage is Stage.NIGHT and g.night == 1
    assert Ambience(True) in t.effects
    # Night 1: the Matchmaker chooses seats 3 and 5; the Mayor enters them.
    t.stage_is(Stage.LOVERS)
    assert g.screen(t.now).view.seats       # the Mayor reads the ring: not dimmed
    assert not g.screen(t.now).view.dim
    t.seat(3)
    t.press(VOTE_)
    t.seat(5)
    t.press(VOTE_)
    t.press(START)
    assert g.lovers == (3, 5)
    t.stage_is(Stage.DAWN)
    assert [s.split(",")[0] for s in says(t.effects)] == [
        "Night falls. Everyone", "Matchmaker", "Matchmaker", "The Mayor will touch the two "
        "Lovers. Lovers", "Lovers", "Werewolves", "Werewolves", "Seer", "Seer", "Everyone"]
    assert t.effects.index(Ambience(False)) > t.effects.index(Ambience(True))

    # Dawn 1: the werewolves killed seat 7, a Villager.
    said = t.death(7, "villager")
    assert says(said) == ["Seat 7 has died."]
    t.settle()
    assert says(t.effects)[-2:] == ["Seat 7 has died.", "The card: Villager."]
    t.dawn_over()
    assert g.stage is Stage.DISCUSSION
    view = g.screen(t.now).view
    assert view.phase is Phase.DISCUSSION
    # The line in the ring's middle while it is said, then the count of the living.
    assert view.caption == "Open discussion and accusations are allowed now."
    t.settle()
    view = g.screen(t.now).view
    assert view.caption == "" and view.details == ("6 alive: a lynch needs 3 votes.",)

    # Day 1: seat 2 accused, 2 hands of the 3 needed: the vote fails.
    t.vote(2, hands=2)
    t.settle()
    assert says(t.effects)[-6:] == ["Seat 2 is accused. Is there a second?",
                                    "Seat 2, defend yourself.",
                                    "Raise your hands to lynch seat 2.",
                                    "2 votes.", "3 needed.", "The vote fails."]
    t.press(START)
    assert g.stage is Stage.DISCUSSION
    # Seat 2 cannot be accused again at once.
    t.press(VOTE_)
    t.seat(2)
    said = t.press(VOTE_)
    assert g.stage is Stage.ACCUSE
    assert says(said) == ["The same person cannot be accused twice in a row."]
    assert g.screen(t.now).view.alert == "The same person cannot be accused twice in a row."
    assert [s.refused for s in g.screen(t.now).seats] == [False, True] + [False] * 5
    t.press(START)                                          # cancel
    # Seat 1 (a werewolf): 4 hands of 3 needed: lynched.
    t.vote(1, hands=4)
    t.settle()
    assert says(t.effects)[-3:] == ["4 votes.", "3 needed.", "Seat 1 is lynched."]
    mark = len(t.effects)
    t.press(START)
    assert g.stage is Stage.ROLE and g.dying == 1
    t.card("werewolf")
    # No win (1 werewolf, 4 others): straight to night 2, no discussion.
    assert g.stage is Stage.NIGHT and g.night == 2
    t.stage_is(Stage.DAWN)
    assert [s.split(",")[0] for s in says(t.effects[mark:])] == [
        "No last words. The Mayor turns the card over.", "The card: Werewolf.",
        "Night falls. Everyone", "Werewolves",
        "Werewolves", "Seer", "Seer", "Everyone"]

    # Dawn 2: the werewolves killed seat 2, the Hunter. He shoots seat 3, a
    # Lover (the Seer); seat 5, the other Lover, dies of a broken heart.
    mark = len(t.effects)
    t.death(2, "hunter")
    t.dawn_over()
    assert g.stage is Stage.SHOT
    t.shot(3)
    t.card("seer")
    assert g.stage is Stage.ROLE and g.dying == 5
    t.card("villager")
    # Left alive: 4 (Matchmaker) and 6 (werewolf): the werewolves win.
    assert g.stage is Stage.END
    assert g.winner == WEREWOLVES
    assert g.ring is not None and g.ring.living() == (4, 6)
    t.settle()
    assert says(t.effects[mark:]) == [
        "Seat 2 has died.",
        "The card: Hunter.",
        "Hunter, choose your victim alone, and point at them.",
        "The Hunter shot seat 3.",
        "The card: Seer.",
        "Seat 5 was a Lover and dies of a broken heart.",
        "The card: Villager.",
        "The werewolves win.",
    ]
    # The book tells the whole story.
    assert g.book.lines() == [
        "Night 1: Seat 7 died (Villager).",
        "Day 1: Seat 2 accused, seconded.",
        "Day 1: 2 votes to lynch Seat 2, 3 needed: failed.",
        "Day 1: Seat 1 accused, seconded.",
        "Day 1: 4 votes to lynch Seat 1, 3 needed: lynched.",
        "Day 1: Seat 1 was lynched (Werewolf).",
        "Night 2: Seat 2 died (Hunter).",
        "Day 2: the Hunter, Seat 2, shot Seat 3 (Seer).",
        "Day 2: Seat 5 (Villager) died of a broken heart for Seat 3.",
        "The werewolves win.",
    ]
    screen = g.screen(t.now)
    assert screen.view.phase is Phase.VERDICT
    assert screen.view.title.startswith("The werewolves win")
    assert [(s.seat, s.alive, s.role) for s in screen.seats] == [
        (1, False, "Werewolf"), (2, False, "Hunter"), (3, False, "Seer"), (4, True, ""),
        (5, False, "Villager"), (6, True, ""), (7, False, "Villager")]
    assert [r.kind for r in g.book.records].count(DEATH) == 5
    assert [r.kind for r in g.book.records][-1] == WIN
    assert [r.votes for r in g.book.records if r.kind == VOTE] == [2, 4]


def test_the_village_wins_when_the_last_werewolf_is_lynched():
    t = new_game()
    g = t.game
    t.press(START)
    t.lovers_to_dawn()
    t.death(1, "werewolf")                     # (the table's own business how)
    t.dawn_over()
    t.vote(6, hands=5)
    t.press(START)
    t.card("werewolf")
    assert g.stage is Stage.END and g.winner == VILLAGE
    t.settle()
    assert says(t.effects)[-2:] == ["The card: Werewolf.", "The village wins."]


def test_a_night_is_timed_the_same_whoever_is_dead():
    from wolfbox.darkarts.seats import Ring

    def night_two(dead_roles: dict[int, str]) -> list[tuple[float, str]]:
        t = new_game()
        g = t.game
        g.setup = rules.Setup.of(7, ROLES7)
        g.ring = Ring(7, dict(dead_roles))
        g.lovers = (3, 5)
        t.said = [(0.0, text) for text in says(g._begin_night(0.0, 2))]
        t.stage_is(Stage.DAWN)
        return t.said + [(t.now, "dawn")]

    alive = night_two({})
    assert [text.split(",")[0] for _at, text in alive] == [
        "Night falls. Everyone", "Werewolves", "Werewolves", "Seer", "Seer", "Everyone",
        "dawn"]
    assert night_two({3: "seer"}) == alive          # the Seer dead: the same calls and times
    assert night_two({2: "hunter", 3: "seer", 6: "werewolf"}) == alive


def test_said_lines_hold_the_night_until_spoken_and_a_short_gap():
    t = new_game(line_gap=0.5)
    g = t.game
    first = t.press(START)
    token = [e for e in first if isinstance(e, Say)][0].token
    t.now = 1.0
    t.press(SpeechDone(token))
    assert g.next_change(t.now) == pytest.approx(1.5)


def test_pause_stops_the_night_and_resume_picks_it_up():
    t = new_game()
    g = t.game
    t.press(START)
    t.run_until(lambda g: g.night_stage == "wait")
    left = g.timer.remaining(t.now)
    t.press(START)
    assert g.paused and g.next_change(t.now) is None
    t.now += 500
    t.press(START)
    assert g.timer.remaining(t.now) == pytest.approx(left)


def test_holding_back_twice_ends_the_game():
    """A game of many nights is not lost to one long press."""
    t = new_game()
    t.press(START)
    assert t.press(Hold(Button.BACK)) == [] and t.game.stage is Stage.NIGHT
    assert t.game.view(t.now).alert == "Hold BACK again to end the game."
    t.press(START)                              # anything else in between: asks again
    t.press(START)
    assert t.press(Hold(Button.BACK)) == [] and t.game.stage is Stage.NIGHT
    out = t.press(Hold(Button.BACK))
    assert t.game.stage is Stage.SETUP
    assert PlayCue(Cue.ABANDON) in out and Ambience(False) in out


def test_the_count_never_exceeds_the_hands_that_may_vote_and_adjusts():
    t = new_game()
    g = t.game
    t.press(START)
    t.lovers_to_dawn()
    t.dawn_over()                               # nobody died
    t.vote(4, hands=20)
    assert g.hands == 6                         # 7 alive, the accused does not vote
    t.press(BACK)                               # Recount
    assert g.stage is Stage.COUNT
    t.press(NEXT)                               # adjust
    t.press(BACK)
    assert g.vote_count() == 5
    t.press(START)
    t.settle()
    assert says(t.effects)[-3:] == ["5 votes.", "4 needed.", "Seat 4 is lynched."]


def test_setup_screen_changes_players_and_roles_and_refuses_a_bad_deal():
    t = Table(Game(players=6, chosen={"werewolf": 3}))
    g = t.game
    t.press(START)
    assert g.stage is Stage.SETUP               # 3 werewolves against 3: refused
    assert g.screen(t.now).view.alert == "Too many werewolves: they would win at once."
    t.press(VOTE_)                              # players 6 -> 7
    assert g.players == 7
    t.press(BACK)
    t.press(BACK)
    t.press(BACK)                               # 7 -> 6 -> 5 -> 20 (wraps)
    assert g.players == 20
    t.press(NEXT)                               # to Werewolf
    t.press(VOTE_)
    assert g.chosen["werewolf"] == 4
    t.press(NEXT)
    t.press(NEXT)                               # to the Matchmaker
    t.press(VOTE_)
    t.press(VOTE_)                              # at most one: back to none
    assert g.chosen["matchmaker"] == 0
    assert "4× Werewolf, 16× Villager" in g.screen(t.now).view.details[1]
    t.press(START)
    assert g.stage is Stage.NIGHT


# ------------------------------------------------------------ save, restore
def play_to_day_one_after_a_failed_vote() -> Table:
    t = new_game()
    t.press(START)
    t.lovers_to_dawn()
    t.death(7, "villager")
    t.dawn_over()
    t.vote(2, hands=1)
    t.press(START)
    assert t.game.stage is Stage.DISCUSSION
    return t


def test_save_and_restore_round_trip_at_the_start_of_the_phase():
    t = play_to_day_one_after_a_failed_vote()
    g = t.game
    checkpoints = [e for e in t.effects if isinstance(e, Checkpoint)]
    assert checkpoints[-1].state == g.to_dict()
    # Mid-accusation, the save is still the discussion's start.
    t.press(VOTE_)
    saved = json.loads(json.dumps(g.to_dict()))
    back = Game.from_dict(saved)
    assert back.stage is Stage.RESUME
    assert back.screen(0.0).view.details == ("Day 1",)
    out = back.handle(START, 0.0)
    back.check()
    assert back.stage is Stage.DISCUSSION
    assert back.ring == g.ring and back.lovers == (3, 5) and back.night == 1
    assert back.previous_accused == 2
    assert back.book == g.book
    assert back.to_dict() == saved
    assert says(out) == ["Open discussion and accusations are allowed now."]


def test_a_game_restored_at_night_replays_that_night_from_its_start():
    t = play_to_day_one_after_a_failed_vote()
    t.vote(1, hands=4)
    t.press(START)
    t.card("werewolf")
    assert t.game.stage is Stage.NIGHT and t.game.night == 2
    t.run_until(lambda g: g.step_index == 2)          # part-way through the night
    saved = json.loads(json.dumps(t.game.to_dict()))
    back = Game.from_dict(saved)
    assert back.screen(0.0).view.details == ("Night 2",)
    out = back.handle(START, 100.0)
    assert back.stage is Stage.NIGHT and back.night == 2 and back.step_index == 0
    assert back.steps == t.game.steps
    assert says(out) == ["Night falls. Everyone, close your eyes."]


def test_the_end_is_saved_too_and_a_setup_is_remembered():
    t = Table(Game(players=9, chosen={"werewolf": 2, "seer": 1}))
    saved = t.game.to_dict()
    assert saved["stage"] == "setup"
    back = Game.from_dict(json.loads(json.dumps(saved)))
    assert back.stage is Stage.SETUP and back.players == 9
    assert back.chosen == {"werewolf": 2, "seer": 1}


@pytest.mark.parametrize("bad", [
    {"version": 99},
    {"version": 1, "stage": "count", "players": 7, "roles": {}},
])
def test_a_bad_save_is_refused(bad):
    with pytest.raises(ValueError):
        Game.from_dict(bad)


# --------------------------------------------------------------------- i18n
def test_every_word_of_a_game_goes_through_the_translation_function():
    with pseudo_translation():
        t = new_game()
        t.press(START)
        t.lovers_to_dawn()
        t.death(7, "villager")
        t.dawn_over()
        t.vote(2, hands=1)
        texts = says(t.effects)
        view = t.game.screen(t.now).view
        texts += [view.title, *view.details, *(label for _b, label in view.legend)]
    for text in texts:
        assert "⟦" in text, text


def test_no_second_returns_to_discussion_and_the_book_opens_from_it():
    t = play_to_day_one_after_a_failed_vote()
    g = t.game
    t.press(VOTE_)
    t.seat(4)
    t.press(VOTE_)
    said = t.press(BACK)                        # no second
    assert g.stage is Stage.DISCUSSION
    t.settle()
    assert says(t.effects)[-1] == "No second. The discussion goes on."
    assert g.book.lines()[-1] == "Day 1: Seat 4 accused, no second."
    assert g.previous_accused == 4              # accused just before, seconded or not
    # A tap opens the book here: no hold says the same again.
    assert Button.NEXT not in dict(g.view(t.now).holds)
    said = t.press(NEXT)                        # the book
    assert g.reading and g.stage is Stage.DISCUSSION and says(said) == []
    screen = g.screen(t.now)
    assert screen.view.title == "Book"
    assert screen.view.details[0] == "Night 1: Seat 7 died (Villager)."
    assert screen.view.seats == ()              # the book, not the ring
    said = t.press(START)
    assert not g.reading and g.stage is Stage.DISCUSSION and says(said) == []


def test_the_book_opens_at_any_time_and_the_game_goes_on_under_it():
    """Hold NEXT at night: the calls go on with their times, and closing the
    book finds the game where it went."""
    t = play_to_day_one_after_a_failed_vote()
    g = t.game
    t.vote(1, hands=5)                          # lynched
    t.press(START)
    t.card("werewolf")
    assert g.stage is Stage.NIGHT and g.night == 2
    step, start = g.step_index, t.now
    assert t.press(Hold(Button.NEXT)) == [] and g.reading
    view = g.screen(t.now).view
    assert view.title.startswith("Book") and not view.dim
    assert "Day 1: Seat 1 was lynched (Werewolf)." in " ".join(
        line for page in g.book_pages() for line in page)
    assert dict(view.legend)[Button.START] == "Back"
    # The night runs on under the book, on its own clock.
    t.run_until(lambda game: game.step_index > step)
    assert g.stage is Stage.NIGHT and g.reading and t.now > start
    t.press(START)
    assert not g.reading and g.screen(t.now).view.dim
    assert t.press(Hold(Button.NEXT)) == [] and g.reading
    t.press(Hold(Button.BACK))                  # ending the game closes it too
    t.press(Hold(Button.BACK))
    assert g.stage is Stage.SETUP and not g.reading


def test_the_ring_points_at_the_accused_through_the_vote():
    t = play_to_day_one_after_a_failed_vote()
    g = t.game
    t.press(VOTE_)
    t.seat(4)
    t.press(VOTE_)
    assert [s.seat for s in g.screen(t.now).seats if s.cursor] == [4]
    assert [s.seat for s in g.screen(t.now).seats if not s.alive] == [7]


def test_the_mayor_cannot_cut_a_night_call_short():
    """A call cut short for a dead role's player would tell the table who died."""
    t = new_game()
    g = t.game
    t.press(START)
    assert g.stage is Stage.NIGHT
    before = (g.step_index, g.night_stage, g.timer)
    assert t.press(NEXT) == [] and (g.step_index, g.night_stage, g.timer) == before
    assert dict(g.view(t.now).legend)[Button.NEXT] == "Hold: book"   # no tap


def test_the_setup_sets_an_optional_discussion_limit_the_box_remembers():
    """003 sets no limit; a table that wants one sets it on the setup screen:
    the discussion then chimes when it runs out, and the box keeps the value."""
    from wolfbox.effects import ChangeSetting
    from wolfbox.settings import remembered_settings

    t = new_game()
    g = t.game
    while g.view(t.now).details[0] != "Discussion limit":
        t.press(NEXT)
    assert g.view(t.now).big == "No limit"
    said = t.press(VOTE_)
    assert said == [ChangeSetting("mayor.discussion_seconds", 60.0)]
    assert g.view(t.now).big == "1:00"
    assert remembered_settings({"settings": {"mayor.discussion_seconds": 60.0}}) == {
        "mayor.discussion_seconds": 60.0}
    t.press(BACK)
    t.press(BACK)                               # wraps round to the longest
    assert g.view(t.now).big == "15:00" and g.options.discussion_seconds == 900
    t.press(VOTE_)
    t.press(VOTE_)
    while g.view(t.now).details[0] != "Players":
        t.press(NEXT)
    t.press(START)
    t.lovers_to_dawn()
    t.dawn_over()                               # nobody died
    t.run_until(lambda game: game.stage is Stage.DISCUSSION)
    start = t.now
    assert g.view(t.now).big == "1:00"
    out = t.run_until(lambda game: game.timer is None)
    assert PlayCue(Cue.TIME_UP) in out and t.now - start == pytest.approx(60.0)
    assert g.stage is Stage.DISCUSSION          # the Mayor moves on, not the box


def test_a_limit_the_config_file_sets_is_fixed_on_the_setup_screen():
    g = Game(Options(discussion_seconds=120.0, fixed=frozenset({"mayor.discussion_seconds"})))
    t = Table(g)
    while g.view(t.now).details[0] != "Discussion limit":
        t.press(NEXT)
    assert t.press(VOTE_) == [] and g.options.discussion_seconds == 120.0
    assert g.view(t.now).details[1] == "Set in the config file."


def test_a_vote_called_early_drops_the_lines_still_waiting():
    """The Mayor moves to the vote while the box is still speaking: the
    call for hands is said at once; stale lines are not said after it."""
    t = play_to_day_one_after_a_failed_vote()
    t.press(VOTE_)
    t.seat(4)
    t.press(VOTE_)                              # "Seat 4 is accused…" starts
    t.press(VOTE_)                              # seconded: "defend yourself" waits
    said = t.press(VOTE_)                       # to the vote at once
    assert says(said) == ["Raise your hands to lynch seat 4."]
    t.stage_is(Stage.COUNT)
    assert "Seat 4, defend yourself." not in says(t.effects[-10:])


def test_a_line_about_one_seat_is_not_shown_over_the_next_seats_card():
    """After the Hunter's victim's card, the Lover's heartbreak opens the
    Lover's card: "The card: Seer." (the victim's) must not sit in its middle."""
    t = new_game()
    g = t.game
    t.press(START)
    t.lovers_to_dawn()
    t.death(2, "hunter")
    t.settle()
    t.dawn_over()                               # the Hunter shoots
    t.settle()
    t.shot(3)
    t.card("seer")                              # seat 5's card opens at once
    assert g.stage is Stage.ROLE and g.dying == 5
    # Still said: lines about seat 3 ("The Hunter shot seat 3.", "The card: Seer.").
    assert g.speech.line is not None and "Lover" not in g.caption
    assert g.view(t.now).caption == ""
    t.run_until(lambda game: game.caption == "The card: Seer.")
    assert g.view(t.now).caption == ""
    t.run_until(lambda game: game.caption.startswith("Seat 5 was a Lover"))
    assert g.view(t.now).caption == "Seat 5 was a Lover and dies of a broken heart."


def test_the_count_says_why_it_stops_at_the_living_less_the_accused():
    t = play_to_day_one_after_a_failed_vote()
    g = t.game
    t.press(VOTE_)
    t.seat(4)
    t.press(VOTE_)
    t.settle()
    t.press(VOTE_)
    t.settle()
    t.press(VOTE_)
    t.stage_is(Stage.COUNT)
    for _ in range(5):
        t.press(VOTE_)
    assert g.hands == 5 and g.view(t.now).alert == ""
    t.press(VOTE_)
    assert g.hands == 5
    assert g.view(t.now).alert == "At most 5 hands: the accused does not vote."


def test_the_setup_offers_a_first_table_and_names_the_game_switch():
    g = Game()
    assert (g.players, g.chosen) == (7, {"werewolf": 2, "hunter": 1, "matchmaker": 1})
    t = Table(g)
    while g.view(t.now).details[0] != "Game":
        t.press(NEXT)
    assert dict(g.view(t.now).legend)[Button.VOTE] == "Next game"
    assert dict(g.view(t.now).legend)[Button.BACK] == "Previous game"


def test_counted_words_in_the_book_and_on_the_screen_agree_with_their_count():
    """Issue 19: "1 votes" nowhere; every count picks its word's form."""
    from wolfbox.darkarts.book import Record, describe
    from wolfbox.darkarts.seats import Ring

    assert describe(Record(VOTE, 2, seat=3, votes=1, needed=3)) == \
        "Day 2: 1 vote to lynch Seat 3, 3 needed: failed."
    assert describe(Record(VOTE, 2, seat=3, votes=1, needed=1)) == \
        "Day 2: 1 vote to lynch Seat 3, 1 needed: lynched."
    assert describe(Record(VOTE, 2, seat=3, votes=0, needed=1)) == \
        "Day 2: 0 votes to lynch Seat 3, 1 needed: failed."
    # Two alive: one vote lynches, one hand at most.
    g = Game(players=5, chosen={"werewolf": 1})
    g.setup = rules.Setup.of(5, g.chosen)
    g.ring = Ring(5, {1: "villager", 2: "villager", 3: "villager"})
    g.stage, g.accused = Stage.DISCUSSION, 4
    assert g.view(0.0).details == ("2 alive: a lynch needs 1 vote.",)
    g.stage = Stage.COUNT
    g.handle(VOTE_, 0.0)
    g.handle(VOTE_, 0.0)
    assert g.view(0.0).alert == "At most 1 hand: the accused does not vote."


def test_a_setup_is_saved_as_it_is_chosen_and_after_the_game_it_was_dealt_for():
    """Issue 19: a Seer added on the setup screen, then a restart: the box
    starts from what it saved last, and the Seer is there. A finished game
    is not resumed, but its setup is kept."""
    t = Table(Game())                           # a new box: no Seer
    g = t.game
    while g.view(t.now).details[0] != "Seer":
        t.press(NEXT)
    t.press(VOTE_)
    saved = [e.state for e in t.effects if isinstance(e, Checkpoint)][-1]
    back = Game.from_dict(json.loads(json.dumps(saved)))          # the restart
    assert back.stage is Stage.SETUP and back.players == 7
    assert back.chosen == {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1}
    back_view = Table(back)
    while back.view(0.0).details[0] != "Seer":
        back_view.press(NEXT)
    assert back.view(0.0).big == "1"
    # Played to the end: what is saved is the setup again, not the game.
    t = Table(back)
    t.press(START)
    t.lovers_to_dawn()
    t.death(1, "werewolf")
    t.dawn_over()
    t.vote(6, hands=5)
    t.press(START)
    t.card("werewolf")
    assert back.stage is Stage.END
    last = [e.state for e in t.effects if isinstance(e, Checkpoint)][-1]
    assert last == {"version": 1, "stage": "setup", "players": 7,
                    "roles": {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1}}
    assert Game.from_dict(last).chosen["seer"] == 1
