"""One Night with a phone at every seat (issue 22), on the fake clock: the
box deals the cards, every seat gets a task of the same shape at every
call, the called role's answer moves the deal the box holds, the phones
vote, and the referee settles the game; with a seat short of a phone, or
a card not on phones yet, the game plays as before."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from wolfbox import pages
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.effects import Say
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.model import WAIT
from wolfbox.onenight.night import NightOptions
from wolfbox.onenight.phones import CENTER, PAIR, PhoneNight
from wolfbox.view import Phase

START, VOTE, NEXT, BACK = (Tap(b) for b in (Button.START, Button.VOTE, Button.NEXT,
                                             Button.BACK))
BASE5 = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
         "villager", "drunk"]


class Table:
    """A One Night table of phones: a known deal (seats, then the center)."""

    def __init__(self, seats: list[str], center: list[str], lone_wolf: bool = True,
                 phones: set[int] | None = None, seed: int = 1) -> None:
        self.dealt = tuple(seats + center)
        self.f = Flow(RoundSettings.for_deck(self.dealt, NightOptions(lone_wolf=lone_wolf)),
                      rng=random.Random(seed))
        self.n = len(seats)
        self.now = 0.0
        self.said: list[tuple[float, str]] = []
        held = set(range(1, self.n + 1)) if phones is None else phones
        self.f.handle(PhonesSeated(frozenset(held)), self.now)
        if self.f.table is not None:                 # the box dealt: make it a known deal
            self.f.table = PhoneNight(self.dealt, lone_wolf, round=7)

    def press(self, event) -> None:
        self._heard(self.f.handle(event, self.now))

    def _heard(self, effects) -> None:
        self.said += [(self.now, e.text) for e in effects if isinstance(e, Say)]

    def until(self, done: Callable[[], bool]) -> None:
        """Jump the fake clock from change to change until `done()`,
        noting each line with the time it is said."""
        while not done():
            nxt = self.f.next_change(self.now)
            assert nxt is not None and nxt >= self.now, f"stuck in {self.f.phase}"
            self.now = nxt
            self._heard(self.f.tick(self.now))
            self.f.check(self.now)

    def call(self, call: str) -> None:
        """On to the wait of `call` (its role acting)."""
        self.until(lambda: self.f.phase is Phase.NIGHT and self.f.stage == WAIT
                   and self.f.settings.night[self.f.step_index].id == call)

    def task(self, seat: int):
        return self.f.phone_view(seat, self.now).task

    def secret(self, seat: int) -> tuple[str, ...]:
        return self.f.phone_view(seat, self.now).secret

    def choose(self, seat: int, *choice: int) -> None:
        task = self.task(seat)
        assert task is not None
        self.press(PhoneChoice(seat, task.step, choice))

    def everyone_else(self, acting: set[int]) -> None:
        for seat in range(1, self.n + 1):
            if seat not in acting:
                task = self.task(seat)
                self.choose(seat, *[o for o, _w in task.options[:task.pick]])

    def cards(self) -> list[str]:
        assert self.f.table is not None
        return self.f.table.cards


def start_screen(f: Flow) -> list[str]:
    """Every line the start screen shows, page after page."""
    return [line for page in range(len(f.idle_pages()))
            for line in f.view(page * pages.IDLE_PAGE_SECONDS).details]


def base5(**kw) -> Table:
    return Table(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
                 ["villager", "villager", "drunk"], **kw)


# ------------------------------------------------------------------ the deal
def test_with_a_phone_at_every_seat_the_box_deals_the_deck_with_its_own_random_source():
    deals = []
    for seed in (3, 3, 4):
        f = Flow(RoundSettings.for_deck(BASE5), rng=random.Random(seed))
        f.handle(PhonesSeated(frozenset(range(1, 6))), 0.0)
        assert f.table is not None and sorted(f.table.dealt) == sorted(BASE5)
        deals.append(f.table.dealt)
        for seat in range(1, 6):                     # its own card, behind the cover
            role = f.table.dealt[seat - 1]
            assert f.phone_view(seat, 0.0).secret[0] == f"Your card: {role.capitalize()}"
        assert "Cards on phones: each player's card is on their phone, behind its cover." \
            in start_screen(f)
    assert deals[0] == deals[1] != deals[2]


def test_the_deal_stays_while_the_deck_stays_and_a_new_game_is_dealt_anew():
    f = Flow(RoundSettings.for_deck(BASE5), rng=random.Random(5))
    seats = frozenset(range(1, 6))
    f.handle(PhonesSeated(seats), 0.0)
    first = f.table
    f.handle(PhonesSeated(seats - {2}), 1.0)         # a phone sleeps and comes back
    f.handle(PhonesSeated(seats), 2.0)
    assert f.table is first
    f.handle(START, 3.0)
    f.handle(Hold(Button.BACK), 4.0)                 # the round is ended
    assert f.phase is Phase.IDLE
    assert f.table is not first and f.table is not None and not f.table.started


@pytest.mark.parametrize("phones, deck, note", [
    ({1, 2, 3, 4}, BASE5, "Cards on phones need a phone at every seat: phones at 4 of 5 seats."),
    ({1, 2, 4, 5}, ["werewolf", "werewolf", "seer", "robber", "sentinel", "villager",
                    "villager", "drunk"],
     "Cards on phones need a phone at every seat: phones at 4 of 5 seats."),
])
def test_a_seat_short_of_a_phone_plays_as_before(phones, deck, note):
    t = Table(deck[:5], deck[5:], phones=phones)
    assert t.f.table is None
    assert note in start_screen(t.f)
    t.press(START)
    t.until(lambda: t.f.phase is not Phase.NIGHT)
    assert all(t.secret(s) == () and t.task(s) is None for s in range(1, 6))
    t.until(lambda: t.f.phase is not Phase.DISCUSSION)
    t.until(lambda: t.f.phase is not Phase.VOTE)
    assert t.f.phase is Phase.REVEAL                 # the table settles it as before


def test_with_cards_on_phones_the_start_screen_and_phones_give_no_physical_setup():
    """Issue 29, item 5: the box holds the cards and the tokens; the table
    reads the phones' rule instead. A seat short of a phone: the setup."""
    deck = ["alpha_wolf", "sentinel", "curator", "seer", "villager", "werewolf", "robber",
            "drunk", "villager"]
    physical = ("center werewolf card", "shield token", "artifact tokens")
    for held, on_phones in ((range(1, 6), True), (range(1, 5), False)):
        f = Flow(RoundSettings.for_deck(deck), rng=random.Random(1))
        f.handle(PhonesSeated(frozenset(held)), 0.0)
        shown = start_screen(f)
        phone = [line for page in range(len(f.idle_pages()))
                 for line in f.phone_view(1, page * pages.IDLE_PAGE_SECONDS).lines]
        for lines in (shown, phone):
            assert (RULE in lines) is on_phones
            assert any(word in line for word in physical for line in lines) is not on_phones


def test_before_start_a_phone_shows_the_whole_deck_not_the_box_s_page():
    """The box pages a long deck every few seconds; a phone scrolls, so it
    shows every page at once, whenever it looks."""
    deck = ["alpha_wolf", "sentinel", "curator", "seer", "villager", "werewolf", "robber",
            "drunk", "villager", "doppelganger", "witch", "village_idiot", "tanner"]
    f = Flow(RoundSettings.for_deck(deck), rng=random.Random(1))
    f.handle(PhonesSeated(frozenset(range(1, 11))), 0.0)
    box = start_screen(f)                              # every page the box turns through
    assert len(f.idle_pages()) > 1
    for page in range(len(f.idle_pages())):
        lines = f.phone_view(3, page * pages.IDLE_PAGE_SECONDS).lines
        assert all(line in lines for line in box), (page, lines)


def test_no_word_of_phones_on_a_box_no_phone_has_joined():
    f = Flow(RoundSettings.for_deck(BASE5))
    assert not any("phone" in line for line in start_screen(f))


# ----------------------------------------------------------------- the night
WAKE_PHONES = "Everyone, look up from your phone: it is morning in the village."
RULE = ("Eyes on your own phone all night: hold its cover to read it, and keep your screen "
        "to yourself.")


def test_the_night_on_phones_says_the_same_lines_at_the_same_times_whatever_was_dealt():
    """Nobody can tap with their eyes closed (issue 29, item 3): on phones
    every eye stays on its own phone all night, and every call is said in
    the same words at the same times, whatever was dealt or tapped."""
    runs = []
    for seats, seer in ((["werewolf", "seer", "robber", "troublemaker", "werewolf"], 2),
                        (["werewolf", "seer", "robber", "troublemaker", "werewolf"], None),
                        (["villager", "drunk", "werewolf", "seer", "troublemaker"], None)):
        center = list(BASE5)
        for card in seats:
            center.remove(card)
        t = Table(seats, center)
        t.press(START)
        assert t.f.view(t.now).title == "Night · Eyes on Your Phone"
        if seer:
            t.call("seer")
            assert RULE in t.f.phone_view(3, t.now).lines       # the phone says it too
            t.choose(seer, 1)
            t.everyone_else({seer})
        t.until(lambda t=t: t.f.phase is Phase.DISCUSSION)
        runs.append(t.said)
    assert runs[0] == runs[1] == runs[2]
    said = [text for _when, text in runs[0]]
    assert said[0] == ("Night falls. Everyone, eyes on your own phone until morning: hold its "
                       "cover to read it, and keep your screen to yourself.")
    assert not any("close your eyes" in line or "open your eyes" in line for line in said)
    assert said[1:5] == ["Werewolves: everyone, answer on your phone.", "Werewolves: time is up.",
                         "Seer: everyone, answer on your phone.", "Seer: time is up."]
    assert said[-2] == WAKE_PHONES


def test_the_night_on_phones_makes_every_call_of_the_deck_with_the_same_action_time():
    cards = RoundSettings.for_deck(BASE5)
    phones = cards.with_phones(True)
    assert [(s.id, s.seconds) for s in phones.night] == [(s.id, s.seconds) for s in cards.night]
    assert cards.night[0].text == "Night falls. Everyone, close your eyes."   # as before
    t = base5(phones=set())
    t.press(START)
    assert t.f.view(t.now).title == "Night · Close Eyes"


def test_every_seat_gets_a_task_of_the_same_shape_at_every_call():
    t = Table(["doppelganger", "werewolf", "minion", "mason", "mason", "seer", "robber",
               "troublemaker", "insomniac"], ["drunk", "villager", "werewolf"])
    t.press(START)
    seen = set()
    while t.f.phase is Phase.NIGHT:
        step = t.f.settings.night[t.f.step_index]
        tasks = [t.task(s) for s in range(1, 10)]
        if t.f.stage != "after" and step.id not in ("close_eyes", "wake_up"):
            assert all(task is not None for task in tasks), step.id
            assert len({(k.step, k.prompt, k.pick, len(k.options)) for k in tasks}) == 1
            for seat, task in enumerate(tasks, 1):
                assert seat not in [o for o, _w in task.options]
                assert {o for o, _w in task.options} - {seat} <= \
                    set(range(1, 10)) | {101, 102, 103, 212, 213, 223}
            seen.add(step.id)
        else:
            assert tasks == [None] * 9, step.id
        t.until(lambda s=(t.f.step_index, t.f.stage): (t.f.step_index, t.f.stage) != s
                or t.f.phase is not Phase.NIGHT)
    assert seen == {"doppelganger", "doppelganger_minion", "werewolves", "minion", "masons",
                    "seer", "robber", "troublemaker", "drunk", "insomniac",
                    "doppelganger_insomniac"}


def test_the_seer_looks_at_a_player_and_sees_it_alone():
    t = base5()
    t.press(START)
    t.call("seer")
    assert t.secret(2)[1].startswith("You are the Seer")
    assert all(t.secret(s)[1].startswith("Not your call") for s in (1, 3, 4, 5))
    t.choose(2, 5)
    assert "Seat 5: Werewolf." in t.secret(2)
    assert all("Seat 5: Werewolf." not in t.secret(s) for s in (1, 3, 4, 5))
    t.choose(2, 1)                                    # she looks once
    assert "Seat 1: Werewolf." not in t.secret(2) and t.task(2).chosen == (5,)
    t.until(lambda: t.f.settings.night[t.f.step_index].id == "robber")
    assert "Seat 5: Werewolf." not in t.secret(2)     # shown until the next call


def test_the_seer_looks_at_two_center_cards():
    t = base5()
    t.press(START)
    t.call("seer")
    t.choose(2, PAIR + 13)
    assert t.secret(2)[1:] == ("Center card 1: Villager.", "Center card 3: Drunk.",
                               "Answered. Keep your eyes on your phone until morning.")


def test_the_robber_takes_a_card_and_sees_it_and_the_troublemaker_swaps_two():
    t = base5()
    t.press(START)
    t.call("robber")
    t.choose(3, 1)
    assert t.cards()[:5] == ["robber", "seer", "werewolf", "troublemaker", "werewolf"]
    assert "You took Seat 1's card: you are now the Werewolf." in t.secret(3)
    t.call("troublemaker")
    assert t.task(4).pick == 2 and t.task(1).pick == 2
    t.choose(4, 4, 2)                                 # not its own card: refused
    t.choose(4, 2, 2)                                 # the same seat twice: refused
    t.press(PhoneChoice(4, t.task(4).step, (2,)))     # one seat of two: refused
    assert t.cards()[:5] == ["robber", "seer", "werewolf", "troublemaker", "werewolf"]
    t.choose(4, 2, 3)
    assert t.cards()[:5] == ["robber", "werewolf", "seer", "troublemaker", "werewolf"]
    assert "You swapped the cards of Seat 2 and Seat 3." in t.secret(4)
    assert "Seat 2" not in " ".join(t.secret(2)[1:])


def test_the_drunk_takes_a_center_card_without_seeing_it():
    t = Table(["werewolf", "seer", "drunk", "villager", "villager"],
              ["robber", "troublemaker", "werewolf"])
    t.press(START)
    t.call("drunk")
    t.choose(3, CENTER + 2)
    assert t.cards()[2] == "troublemaker" and t.cards()[6] == "drunk"
    assert not any("Troublemaker" in line for line in t.secret(3))


def test_wolves_see_each_other_and_a_lone_wolf_looks_at_a_center_card():
    t = base5()
    t.press(START)
    t.call("werewolves")
    assert "The werewolves: Seat 1 and Seat 5. Tap any choice; it changes nothing." \
        in t.secret(1)
    t.choose(1, CENTER + 1)
    assert not any("Villager" in line for line in t.secret(1))
    lone = Table(["werewolf", "seer", "robber", "troublemaker", "villager"],
                 ["villager", "werewolf", "drunk"])
    lone.press(START)
    lone.call("werewolves")
    assert lone.secret(1)[1] == "You are the only werewolf: choose a center card to look at."
    lone.choose(1, CENTER + 2)
    assert "Center card 2: Werewolf." in lone.secret(1)
    off = Table(["werewolf", "seer", "robber", "troublemaker", "villager"],
                ["villager", "werewolf", "drunk"], lone_wolf=False)
    off.press(START)
    off.call("werewolves")
    off.choose(1, CENTER + 2)
    assert not any("Center card 2" in line for line in off.secret(1))


def test_the_minion_sees_the_wolves_the_masons_each_other_the_insomniac_her_card():
    t = Table(["werewolf", "minion", "mason", "mason", "insomniac", "robber"],
              ["villager", "seer", "werewolf"])
    t.press(START)
    t.call("minion")
    assert t.secret(2)[1] == ("You are the Minion. The werewolves: Seat 1. Tap any choice; "
                              "it changes nothing.")
    t.call("masons")
    assert "Seat 3 and Seat 4" in t.secret(3)[1] and "Seat 3 and Seat 4" in t.secret(4)[1]
    assert "Mason" not in " ".join(t.secret(5))
    t.call("robber")
    t.choose(6, 5)
    t.call("insomniac")
    assert t.secret(5)[1] == "Your card now: Robber. Tap any choice; it changes nothing."


def test_the_doppelganger_copies_the_seer_and_looks_at_once_not_at_the_seers_call():
    t = Table(["doppelganger", "seer", "werewolf", "robber", "villager"],
              ["troublemaker", "drunk", "werewolf"])
    t.press(START)
    t.call("doppelganger")
    assert t.secret(1)[1].startswith("You are the Doppelganger")
    t.choose(1, 2)
    assert t.secret(1)[1] == "Seat 2's card is the Seer: you are now the Seer."
    assert t.secret(1)[2].startswith("As the Seer")        # her result above her next ask
    t.choose(1, CENTER + 1)
    t.choose(1, CENTER + 3)
    assert t.secret(1)[-3:] == ("Center card 1: Troublemaker.", "Center card 3: Werewolf.",
                                "Answered. Keep your eyes on your phone until morning.")
    for seat in range(2, 6):                          # three taps for everyone alike
        for _stage in range(3):
            t.choose(seat, t.task(seat).options[0][0])
        assert t.task(seat).chosen
    t.call("seer")
    assert t.secret(1)[1].startswith("Not your call")


@pytest.mark.parametrize("copied, picks, cards", [
    ("robber", (2, 3), ["werewolf", "robber", "doppelganger", "villager", "villager"]),
    ("troublemaker", (2, 3, 4), ["doppelganger", "troublemaker", "villager", "werewolf",
                                 "villager"]),
    ("drunk", (2, CENTER + 2), ["seer", "drunk", "werewolf", "villager", "villager"]),
])
def test_the_doppelganger_acts_as_the_copy_that_acts_at_once(copied, picks, cards):
    seats = ["doppelganger", copied, "werewolf", "villager", "villager"]
    t = Table(seats, ["robber" if copied != "robber" else "seer", "seer" if copied != "seer"
                      else "drunk", "troublemaker" if copied != "troublemaker" else "drunk"])
    t.press(START)
    t.call("doppelganger")
    for pick in picks:
        t.choose(1, pick)
    assert t.cards()[:5] == cards
    assert t.f.table is not None and t.f.table.copied == copied


def test_a_doppelganger_who_copied_a_werewolf_wakes_with_the_wolves():
    t = Table(["doppelganger", "werewolf", "seer", "insomniac", "villager"],
              ["robber", "troublemaker", "werewolf"])
    t.press(START)
    t.call("doppelganger")
    t.choose(1, 2)
    t.call("werewolves")
    assert "The werewolves: Seat 1 and Seat 2" in t.secret(2)[1]
    assert "The werewolves: Seat 1 and Seat 2" in t.secret(1)[1]


def test_the_doppelganger_insomniac_and_minion_are_called_again():
    t = Table(["doppelganger", "insomniac", "werewolf", "minion", "robber"],
              ["villager", "seer", "troublemaker"])
    t.press(START)
    t.call("doppelganger")
    t.choose(1, 2)
    t.call("robber")
    t.choose(5, 1)
    t.call("doppelganger_insomniac")
    assert t.secret(1)[1] == "Your card now: Robber. Tap any choice; it changes nothing."
    assert t.secret(2)[1].startswith("Not your call")
    m = Table(["doppelganger", "insomniac", "werewolf", "minion", "robber"],
              ["villager", "seer", "troublemaker"])
    m.press(START)
    m.call("doppelganger")
    m.choose(1, 4)
    m.call("doppelganger_minion")
    assert m.secret(1)[1].startswith("You are the Minion. The werewolves: Seat 3.")


def test_an_answer_to_another_task_a_passed_one_or_none_at_all_moves_nothing():
    t = base5()
    t.press(START)
    t.call("seer")
    seer_step = t.task(3).step
    t.call("robber")
    t.press(PhoneChoice(3, seer_step, (1,)))          # the Seer's task has passed
    t.press(PhoneChoice(3, "7.robber.0", (3,)))       # its own card
    t.press(PhoneChoice(3, "6.robber.0", (1,)))       # another game's task
    t.press(PhoneChoice(3, "7.robber.0", (1000,)))    # no such option
    assert t.cards() == list(t.dealt)
    t.until(lambda: t.f.stage == "after")
    t.press(PhoneChoice(3, "7.robber.0", (1,)))       # eyes are closing
    t.until(lambda: t.f.phase is Phase.DISCUSSION)    # nobody else answers either
    assert t.cards() == list(t.dealt)


# ------------------------------------------------------------- the vote
def test_the_phones_vote_and_the_referee_settles_the_game_from_the_cards_at_dawn():
    t = base5()
    t.press(START)
    t.call("robber")
    t.choose(3, 5)                                    # the Robber is a werewolf now
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)                                     # the table votes now
    task = t.task(1)
    assert task.prompt == "Your vote: whom do you point at?"
    assert [o for o, _w in task.options] == [2, 3, 4, 5]
    for voter, target in ((1, 3), (2, 3), (4, 1), (5, 2)):
        t.choose(voter, target)
    t.choose(5, 3)                                    # a vote changed: the last counts
    assert t.task(5).chosen == (3,) and t.task(4).chosen == (1,)
    t.until(lambda: t.f.phase is not Phase.VOTE)
    assert t.f.phase is Phase.VERDICT
    assert t.f.verdict is not None and t.f.verdict.dead == (3,)
    assert t.f.verdict.teams == ("village",)          # seat 3 holds the Werewolf at dawn
    assert t.f.busy()                                 # the phones keep their seats
    spoken = [text for _when, text in t.said]
    assert spoken[-1] == "Seat 3 dies."
    t.until(lambda: not t.f._to_say and t.f.speech.line is None)
    phone = t.f.phone_view(4, t.now)
    assert phone.lines[:2] == ("Seat 3 dies.", "The village wins.")
    listed = phone.picture.list                       # one tap away from the pictures
    assert "Seat 3 (Robber) swapped cards with Seat 5 and took the Werewolf." in listed
    assert "Seat 4 voted for Seat 1." in listed and phone.task is None
    titles = []
    for _page in range(len(t.f.verdict_pages()) + 4):
        titles.append(t.f.view(t.now).title)
        t.press(NEXT)
    assert titles[0] == "Verdict" and titles[-1].startswith("What happened")
    assert titles[1:5] == ["The deal · 1/4", "The night · 2/4", "Dawn · 3/4", "The votes · 4/4"]
    assert t.f.view(t.now).title == titles[0]          # round again
    assert Button.BACK not in dict(t.f.view(t.now).legend)   # no entry to correct
    t.press(START)
    assert t.f.phase is Phase.IDLE and not t.f.busy()


def test_the_night_is_not_told_before_the_game_ends():
    t = base5()
    t.press(START)
    t.call("robber")
    t.choose(3, 5)
    t.until(lambda: t.f.phase is Phase.VOTE)
    for seat in range(1, 6):
        view = t.f.phone_view(seat, t.now)
        assert not any("swapped" in line for line in (*view.lines, *view.secret))
        assert view.picture is None and t.f.picture() is None


def test_a_seat_that_does_not_vote_casts_no_vote():
    t = base5()
    t.press(START)
    t.until(lambda: t.f.phase is Phase.VOTE)
    t.choose(1, 2)
    t.choose(3, 2)                                    # two votes; three seats silent
    t.until(lambda: t.f.phase is Phase.VERDICT)
    assert t.f.verdict is not None and t.f.verdict.dead == (2,)
    assert "Seat 4 did not vote." in t.f.phone_view(4, t.now).picture.list


def test_the_referee_counts_no_vote_for_a_seat_that_did_not_vote():
    """On phones a missing vote is no vote: it makes nobody the most voted,
    and a dead Hunter or a Bodyguard who pointed at nobody takes nobody."""
    from wolfbox.onenight.referee import NO_VOTE, Game, Player, judge
    game = Game((Player("hunter", NO_VOTE), Player("werewolf", 1), Player("villager", 1),
                 Player("bodyguard", NO_VOTE), Player("seer", NO_VOTE)))
    verdict = judge(game)
    assert verdict.dead == (1,)
    assert verdict.why[:3] == (
        "The Bodyguard, Seat 4, pointed at nobody.",
        "The most votes (2) went to Seat 1 (Hunter), who dies.",
        "The Hunter, Seat 1, died and pointed at nobody.")
