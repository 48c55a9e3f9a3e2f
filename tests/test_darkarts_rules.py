"""Werewolves of the Dark Arts: the seat ring and the rules of 003, in the pure core."""

from __future__ import annotations

import pytest

from wolfbox.darkarts import rules
from wolfbox.darkarts.roles import (
    HUNTER,
    MATCHMAKER,
    SEER,
    VILLAGE,
    VILLAGER,
    WEREWOLF,
    WEREWOLVES,
)
from wolfbox.darkarts.rules import Heartbreak, Setup, Shot
from wolfbox.darkarts.seats import Ring

# Hand-computed from 003: at least half of the living, rounded up, the accused
# counted, the Mayor not ("10 players requires at least 5 votes ... 9 players
# also requires 5 votes").
THRESHOLDS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4, 9: 5, 10: 5, 11: 6, 12: 6, 13: 7,
              14: 7, 15: 8, 16: 8, 17: 9, 18: 9, 19: 10, 20: 10}


@pytest.mark.parametrize("living,needed", sorted(THRESHOLDS.items()))
def test_lynch_threshold_for_every_living_count(living, needed):
    assert rules.lynch_threshold(living) == needed
    assert rules.passes(needed, living)
    assert not rules.passes(needed - 1, living)


def test_the_examples_003_gives():
    assert rules.lynch_threshold(10) == 5
    assert rules.lynch_threshold(9) == 5


def test_nobody_alive_has_no_threshold():
    with pytest.raises(ValueError):
        rules.lynch_threshold(0)


def test_the_accused_cannot_raise_a_hand_and_adjustments_change_the_count():
    assert rules.most_hands(7) == 6
    assert rules.votes(3) == 3
    assert rules.votes(3, +1) == 4          # a role that adds a vote (003: the Shaman)
    assert rules.votes(1, -3) == 0          # never below zero


# ------------------------------------------------------------------ seats
def test_ring_next_living_seat_clockwise_and_back():
    ring = Ring(7, {2: VILLAGER, 3: SEER, 7: WEREWOLF})
    assert ring.living() == (1, 4, 5, 6)
    assert ring.next_living(1) == 4
    assert ring.next_living(6) == 1            # round the table
    assert ring.next_living(4, -1) == 1
    assert ring.next_living(1, -1) == 6
    assert ring.next_living(2) == 4            # from a dead seat too


def test_ring_alone_and_bounds():
    ring = Ring(5, {s: VILLAGER for s in (2, 3, 4, 5)})
    assert ring.next_living(1) is None
    for players in (4, 21):
        with pytest.raises(ValueError):
            Ring(players)
    with pytest.raises(ValueError):
        Ring(5).alive(6)
    ring = Ring(5)
    ring.kill(3, SEER)
    with pytest.raises(ValueError):
        ring.kill(3, SEER)


# ---------------------------------------------------------------- accusing
def test_the_same_seat_cannot_be_accused_twice_in_a_row():
    ring = Ring(7)
    assert rules.refusal(ring, 3, previous=None) is None
    assert rules.refusal(ring, 3, previous=3) == rules.REPEAT
    assert rules.refusal(ring, 4, previous=3) is None   # another seat in between


def test_the_dead_cannot_be_accused():
    ring = Ring(7, {5: VILLAGER})
    assert rules.refusal(ring, 5, previous=None) == rules.DEAD


# ------------------------------------------------------------------ chains
def test_a_dead_lovers_partner_dies_of_a_broken_heart():
    ring = Ring(7, {3: SEER})
    assert rules.chains(ring, (3, 5), [3]) == [Heartbreak(5, 3)]


def test_no_broken_heart_when_both_lovers_died_already():
    ring = Ring(7, {3: SEER, 5: VILLAGER})
    assert rules.chains(ring, (3, 5), [3, 5]) == []


def test_a_dead_hunter_shoots():
    ring = Ring(7, {2: HUNTER})
    assert rules.chains(ring, None, [2]) == [Shot(2)]


def test_the_lovers_heartbreak_comes_before_the_hunters_shot():
    # 003's order: the Lover first, then the Hunter's decision.
    ring = Ring(7, {2: HUNTER, 4: VILLAGER})
    assert rules.chains(ring, (4, 6), [2, 4]) == [Heartbreak(6, 4), Shot(2)]
    # A Hunter who was a Lover: the partner dies, and he still shoots.
    ring = Ring(7, {2: HUNTER})
    assert rules.chains(ring, (2, 6), [2]) == [Heartbreak(6, 2), Shot(2)]


def test_the_hunters_victim_takes_their_lover_too():
    ring = Ring(7, {2: HUNTER})
    ring.kill(3, SEER)                  # the Hunter shot seat 3, a Lover
    assert rules.chains(ring, (3, 5), [3]) == [Heartbreak(5, 3)]


# --------------------------------------------------------------------- win
SEVEN = Setup.of(7, {WEREWOLF: 2, HUNTER: 1, MATCHMAKER: 1, SEER: 1})


def test_no_winner_at_the_start():
    assert rules.winner(SEVEN, Ring(7)) is None
    assert rules.living_werewolves(SEVEN, Ring(7)) == 2


def test_the_village_wins_when_every_werewolf_is_dead():
    ring = Ring(7, {1: WEREWOLF})
    assert rules.winner(SEVEN, ring) is None
    ring.kill(6, WEREWOLF)
    assert rules.winner(SEVEN, ring) == VILLAGE


def test_the_werewolves_win_when_they_equal_the_others():
    ring = Ring(7, {2: HUNTER, 3: SEER})
    assert rules.winner(SEVEN, ring) is None          # 2 wolves, 3 others
    ring.kill(5, VILLAGER)
    assert rules.winner(SEVEN, ring) == WEREWOLVES    # 2 wolves, 2 others


def test_the_werewolves_win_when_they_outnumber_the_others():
    ring = Ring(7, {2: HUNTER, 3: SEER, 4: MATCHMAKER, 5: VILLAGER})
    assert rules.winner(SEVEN, ring) == WEREWOLVES    # 2 wolves, 1 other


def test_the_wolf_team_of_004_counts_as_werewolves():
    setup = Setup.of(9, {WEREWOLF: 1, "alchemist": 1, SEER: 1})
    assert setup.werewolves == 2
    ring = Ring(9, {1: WEREWOLF})
    assert rules.winner(setup, ring) is None
    ring.kill(2, "alchemist")
    assert rules.winner(setup, ring) == VILLAGE


# ------------------------------------------------------------------- setup
def test_setup_fills_with_villagers_and_counts_what_may_still_be_revealed():
    assert SEVEN.counts == {WEREWOLF: 2, HUNTER: 1, MATCHMAKER: 1, SEER: 1, VILLAGER: 2}
    ring = Ring(7, {1: WEREWOLF, 7: VILLAGER})
    left = rules.roles_left(SEVEN, ring)
    assert left == {WEREWOLF: 1, HUNTER: 1, MATCHMAKER: 1, SEER: 1, VILLAGER: 1}
    assert sum(left.values()) == len(ring.living())


@pytest.mark.parametrize("players,roles", [
    (7, {}),                                  # no werewolf
    (6, {WEREWOLF: 3}),                       # they would win at once
    (5, {WEREWOLF: 1, HUNTER: 1, SEER: 1, MATCHMAKER: 1, "guard": 1, "chef": 1}),
    (9, {"alchemist": 1, "track_reader": 1, SEER: 1}),   # wolves, but no pack to wake
    (9, {WEREWOLF: 2, "noble": 1}),           # 004: Nobles come in pairs
])
def test_setups_that_cannot_be_dealt(players, roles):
    assert Setup.of(players, roles).problem()


def test_a_setup_that_can_be_dealt():
    assert SEVEN.problem() is None
