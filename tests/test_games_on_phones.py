"""The games on phones (issue 22). The timed game: with a phone at every
seat, the deal is one step of 30 s, every seat's card on its own phone at
once, behind a cover; with a seat short of a phone, the box deals on its
own screen, a seat at a time, as before. The Mayor's game: with a phone at
every seat, the box deals the cards, each to its seat's phone for the
whole game (kept through a power cut); else the Mayor deals by hand."""

from __future__ import annotations

import random

import pytest
from test_newd3_game import Table

from wolfbox.buttons import Button, Tap
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.games import Games
from wolfbox.newd3 import said
from wolfbox.newd3.game import Game, Stage
from wolfbox.newd3.roles import role_name
from wolfbox.newd3.turns import PHONE_DEAL_SECONDS, Kind
from wolfbox.onenight.flow import Flow, RoundSettings

SEATS = range(1, 10)


def dealt(phones: set[int], seed: int = 4) -> Table:
    t = Table(Game(rng=random.Random(seed)))
    t.press(PhonesSeated(frozenset(phones)))
    t.tap(Button.START)                                  # deal
    return t


def test_with_a_phone_at_every_seat_the_deal_is_one_step_on_the_phones():
    t = dealt(set(SEATS))
    assert [turn.kind for turn in t.g.turns] == [Kind.PHONES]
    t.until(lambda: t.g.turn_stage == "speak")              # "look at your phone...":
    assert all(t.g.phone_view(seat, t.now).secret for seat in SEATS)    # the cards are there
    t.until(t.in_window)
    opened = t.now
    secrets = {seat: t.g.phone_view(seat, t.now).secret for seat in SEATS}
    for seat in SEATS:
        role = t.g.seats[seat - 1]
        assert secrets[seat][0] == role_name(role)            # its own card, first
    view = t.view()
    assert not view.private and view.big == "0:30"          # the box shows no card
    partners = {seat: line for seat in SEATS for line in secrets[seat]
                if line.startswith("Your partner")}
    assert len(partners) == 2                               # the two Wolves, each the other's
    for seat, line in partners.items():                     # on that seat's phone alone
        assert [s for s in SEATS if line in secrets[s]] == [seat]
    t.until(lambda: not t.in_window())
    assert t.now - opened == pytest.approx(PHONE_DEAL_SECONDS)
    assert all(t.g.phone_view(seat, t.now).secret == () for seat in SEATS)   # covered again
    t.until(lambda: t.g.stage is Stage.DISCUSSION)


def test_the_deal_on_phones_takes_a_fraction_of_the_deal_on_the_box():
    """From START to the first day: the figures the README gives."""
    times = {}
    for phones in (set(SEATS), set(SEATS) - {9}):
        t = dealt(phones)
        start = t.now
        t.until(lambda t=t: t.g.stage is Stage.DISCUSSION)
        times[len(phones)] = t.now - start
    assert times[9] < 75 < 3 * 60 < times[8]              # 59.7 s against 3 min 51 s


def test_a_seat_without_a_phone_gets_the_deal_on_the_box():
    t = dealt(set(SEATS) - {5})
    kinds = [turn.kind for turn in t.g.turns]
    assert kinds == [Kind.CARD] * 9
    t.until(t.in_window)
    assert all(t.g.phone_view(seat, t.now).secret == () for seat in SEATS)


def test_a_game_chosen_after_the_phones_joined_hears_who_holds_one():
    timed = Game(rng=random.Random(1))
    games = Games({"one_night": lambda: Flow(RoundSettings.for_deck(
        ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"])),
        "newd3": lambda: timed}, "one_night")
    games.handle(PhonesSeated(frozenset(SEATS)), 0.0)       # joined on One Night's screen
    games.name = "newd3"                                    # the table picks the timed game
    games.handle(Tap(Button.START), 1.0)
    assert timed.phones == frozenset(SEATS)
    assert [turn.kind for turn in timed.turns] == [Kind.PHONES]


# ------------------------------------------------------- the Mayor's game
def mayors(phones: set[int], seed: int = 3):
    from test_darkarts_game import ROLES7
    from test_darkarts_game import Table as MayorTable

    from wolfbox.darkarts.game import Game as Mayor
    t = MayorTable(Mayor(players=7, chosen=dict(ROLES7), rng=random.Random(seed)))
    t.press(PhonesSeated(frozenset(phones)))
    t.tap(Button.START)
    return t


def test_with_a_phone_at_every_seat_the_mayors_cards_are_dealt_to_the_phones():
    from test_darkarts_game import ROLES7

    from wolfbox.darkarts.roles import role_name as mayor_role
    from wolfbox.darkarts.rules import Setup
    t = mayors(set(range(1, 8)))
    assert t.g.dealt is not None
    counts = Setup.of(7, ROLES7).counts
    assert sorted(t.g.dealt) == sorted(r for r, n in counts.items() for _ in range(n))
    for seat in range(1, 8):                                # its own card, the whole game
        secret = t.g.phone_view(seat, t.now).secret
        assert secret[0] == mayor_role(t.g.dealt[seat - 1])
    assert not t.view().private
    # A power cut: the game comes back with the same cards on the same phones.
    from wolfbox.darkarts.game import Game as Mayor
    back = Mayor.from_dict(t.g.to_dict())
    assert back.dealt == t.g.dealt


def test_with_a_seat_short_of_a_phone_the_mayor_deals_by_hand():
    t = mayors(set(range(1, 7)))
    assert t.g.dealt is None
    assert all(t.g.phone_view(seat, t.now).secret == () for seat in range(1, 8))


def test_a_saved_game_whose_phone_cards_are_not_its_setup_is_not_resumed():
    from wolfbox.darkarts.game import Game as Mayor
    from wolfbox.darkarts.saved import CannotResume
    t = mayors(set(range(1, 8)))
    state = t.g.to_dict()
    state["dealt"] = ["werewolf"] * 7
    with pytest.raises(CannotResume, match="not the setup's"):
        Mayor.from_dict(state)


# ------------------------------------------------- the timed game's vote
def to_the_vote(phones: set[int]) -> Table:
    t = dealt(phones)
    t.until(lambda: t.g.stage is Stage.VOTE)
    return t


def vote(t: Table, voter: int, target: int, step: str | None = None) -> None:
    t.press(PhoneChoice(voter, step or t.g.vote_step(), (target,)))


def test_the_day_vote_on_phones_counts_and_applies_the_strict_majority():
    t = to_the_vote(set(SEATS))
    assert t.texts()[-1] == said.PHONE_VOTE_NOW                # "on your phones", not "point"
    task = t.g.phone_view(1, t.now).task
    assert task is not None and task.step == "vote.day1"
    assert [option for option, _words in task.options] == [2, 3, 4, 5, 6, 7, 8, 9, 0]
    assert task.options[-1][1] == "Nobody: skip"                # 004: vote, or skip
    for voter in (1, 2, 4, 5, 6):                           # five of nine: a strict majority
        vote(t, voter, 3)
    vote(t, 7, 2)
    vote(t, 7, 8)                                           # changed its mind: the last counts
    assert t.g.phone_view(7, t.now).task.chosen == (8,)
    assert t.g.phone_view(8, t.now).task.chosen == ()       # its own choice only
    t.until(lambda: t.g.stage is Stage.RESULT)
    assert (t.g.tally, t.g.votes, t.g.tie) == (3, 5, False)
    t.tap(Button.START)                                     # the table checks it: OK
    assert 3 in t.g.dead
    assert "You are out of the game." in t.g.phone_view(3, t.now).lines
    assert "You are out of the game." not in t.g.phone_view(4, t.now).lines


def test_four_votes_of_nine_or_a_tie_put_nobody_out():
    t = to_the_vote(set(SEATS))
    for voter in (1, 2, 4, 5):
        vote(t, voter, 3)
    t.until(lambda: t.g.stage is Stage.RESULT)
    assert (t.g.tally, t.g.votes) == (3, 4)
    t.tap(Button.START)
    assert t.g.dead == {}
    t2 = to_the_vote(set(SEATS))
    for voter, target in ((1, 3), (2, 3), (4, 5), (6, 5)):
        vote(t2, voter, target)
    t2.until(lambda: t2.g.stage is Stage.RESULT)
    assert t2.g.tie


def test_a_vote_for_oneself_from_an_old_day_or_not_one_seat_changes_nothing():
    t = to_the_vote(set(SEATS))
    vote(t, 1, 1)                                           # oneself
    vote(t, 2, 3, step="vote.day9")                         # another day's vote
    t.press(PhoneChoice(4, t.g.vote_step(), (3, 5)))        # two seats at once
    vote(t, 5, 10)                                          # no such seat
    assert t.g.phone_votes == {}


def test_with_a_living_seat_short_of_a_phone_the_table_points_and_enters_the_count():
    t = to_the_vote(set(SEATS) - {9})
    assert t.texts()[-1] == said.VOTE_NOW
    assert t.g.phone_view(1, t.now).task is None
    t.until(lambda: t.g.stage in (Stage.TALLY, Stage.RESULT))
    assert t.g.stage is Stage.TALLY


# ------------------------------------------- what the setups say of phones
@pytest.mark.parametrize("phones, says", [
    (set(), "Nine players. Seat 1 faces the screen"),
    ({2, 5}, "Phones at 2 of 9 seats: the deal, the nights and the votes go on the phones"),
    (set(SEATS), "A phone at every seat: the deal, the nights and the votes are on the phones"),
])
def test_the_timed_setup_says_what_the_phones_will_do(phones, says):
    t = Table(Game(rng=random.Random(1)))
    t.press(PhonesSeated(frozenset(phones)))
    assert t.g.stage is Stage.SETUP
    assert any(line.startswith(says) for line in t.g.view(t.now).details)


@pytest.mark.parametrize("phones, says", [
    (set(), "Seat 1 faces the screen"),
    ({1, 2, 3}, "Phones at 3 of 7 seats: the box deals the cards to the phones once"),
    (set(range(1, 8)), "A phone at every seat: the box deals the cards to the phones. The "
                       "Mayor's phone takes seat 8 once the game starts."),
])
def test_the_mayors_setup_says_what_the_phones_will_do(phones, says):
    from test_darkarts_game import ROLES7
    from test_darkarts_game import Table as MayorTable

    from wolfbox.darkarts.game import Game as Mayor
    t = MayorTable(Mayor(players=7, chosen=dict(ROLES7), rng=random.Random(1)))
    t.press(PhonesSeated(frozenset(phones)))
    assert any(line.startswith(says) for line in t.g.view(t.now).details)


def test_a_phone_may_skip_the_vote_and_change_its_mind_until_the_count():
    """004: "Each living player votes for one player or skips." A skip is
    no vote for anyone; a vote can be taken back by skipping, or a skip
    turned into a vote, until the count ends."""
    t = to_the_vote(set(SEATS))
    for voter in (1, 2, 4, 5):                              # four of nine: short
        vote(t, voter, 3)
    vote(t, 6, 3)
    vote(t, 6, 0)                                           # taken back: a skip
    assert t.g.phone_view(6, t.now).task.chosen == (0,)     # marked on its own phone
    vote(t, 7, 0)
    t.until(lambda: t.g.stage is Stage.RESULT)
    assert (t.g.tally, t.g.votes) == (3, 4)                 # skips count for nobody
    t.tap(Button.START)
    assert 3 not in t.g.dead                                # 4 of 9 is no majority
