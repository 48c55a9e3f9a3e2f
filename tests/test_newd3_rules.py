"""NewD3: the strict-majority vote, the win check and 004's phase lengths."""

from __future__ import annotations

import pytest

from wolfbox.newd3 import rules
from wolfbox.newd3.rules import eliminated, votes_needed, winner

# More than half of the living, worked out by hand for every count a nine-seat
# game can reach.
NEEDED = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}

# A1 seated in this order: 1 Wolf, 2 Alchemist, 3 Seer, 4 Guard, 5-9 Sheep.
A1 = ["wolf", "alchemist", "seer", "guard"] + ["sheep"] * 5
# C1: 1 and 2 Wolves, 3 Seer, 4-9 Sheep.
C1 = ["wolf", "wolf", "seer"] + ["sheep"] * 6


@pytest.mark.parametrize("living,needed", sorted(NEEDED.items()))
def test_votes_needed_is_a_strict_majority_of_the_living(living, needed):
    assert votes_needed(living) == needed


def test_votes_needed_matches_004s_examples():
    assert (votes_needed(9), votes_needed(7), votes_needed(5)) == (5, 4, 3)


def test_votes_needed_for_even_counts_is_more_than_half():
    assert (votes_needed(8), votes_needed(6)) == (5, 4)


def test_votes_needed_refuses_a_table_with_nobody_alive():
    with pytest.raises(ValueError):
        votes_needed(0)


@pytest.mark.parametrize("living,needed", sorted(NEEDED.items()))
def test_a_strict_majority_eliminates(living, needed):
    assert eliminated(needed, living)
    assert eliminated(living, living)


@pytest.mark.parametrize("living,needed", sorted(NEEDED.items()))
def test_one_vote_short_of_the_majority_eliminates_nobody(living, needed):
    assert not eliminated(needed - 1, living)


def test_exactly_half_eliminates_nobody():
    assert not eliminated(4, 8)
    assert not eliminated(3, 6)


def test_a_tie_can_never_reach_the_majority():
    # Two players with the same count can share at most the whole table.
    for living in NEEDED:
        assert all(not eliminated(v, living) for v in range(living // 2 + 1) if 2 * v <= living)


@pytest.mark.parametrize("votes,living", [(-1, 5), (6, 5)])
def test_eliminated_refuses_a_count_the_table_cannot_give(votes, living):
    with pytest.raises(ValueError):
        eliminated(votes, living)


def test_town_wins_when_both_wolves_are_dead():
    assert winner(C1, {1, 2}, 1) == "town"


def test_town_wins_when_the_wolf_and_the_alchemist_are_dead():
    assert winner(A1, {1, 2}, 3) == "town"


def test_one_dead_wolf_is_not_yet_a_town_win():
    assert winner(A1, {1}, 1) is None
    assert winner(A1, {2}, 1) is None


def test_the_alchemist_counts_as_a_wolf_for_parity():
    # Wolf dead, Alchemist alive against one Town player: the Wolves win.
    assert winner(A1, {1, 4, 5, 6, 7, 8, 9}, 2) == "wolves"


def test_wolves_win_when_they_equal_the_living_town():
    assert winner(A1, {5, 6, 7, 8, 9}, 3) == "wolves"        # 2 against 2


def test_wolves_win_when_they_outnumber_the_living_town():
    assert winner(A1, {3, 4, 5, 6, 7, 8, 9}, 3) == "wolves"  # 2 against 0


def test_one_wolf_short_of_parity_is_no_win():
    assert winner(A1, {5, 6, 7, 8}, 3) is None                # 2 against 3


def test_the_whole_winning_team_wins_dead_or_alive_so_winner_names_a_team():
    assert winner(A1, {1, 3, 5, 6, 7, 8, 9}, 3) == "wolves"  # the dead Wolf wins too


def test_nobody_has_won_before_the_eighth_night():
    for nights in range(8):
        assert winner(A1, {5}, nights) is None


def test_a_draw_when_nobody_has_won_after_eight_nights():
    assert winner(A1, {5}, 8) == "draw"
    assert winner(A1, set(), 9) == "draw"


def test_the_wolves_win_is_checked_before_the_draw():
    assert winner(A1, {5, 6, 7, 8, 9}, 8) == "wolves"


def test_the_town_win_is_checked_before_the_draw():
    assert winner(A1, {1, 2}, 8) == "town"


@pytest.mark.parametrize("players,dead,nights", [
    (["wolf"] * 9, set(), 1),            # not a setup
    (A1[:8], set(), 1),                  # eight seats
    (A1, {10}, 1),                       # no seat 10
    (A1, {0}, 1),
    (A1, set(), -1),                     # nights cannot be negative
])
def test_winner_refuses_a_game_that_cannot_be(players, dead, nights):
    with pytest.raises(ValueError):
        winner(players, dead, nights)


def test_max_nights_is_eight():
    assert rules.MAX_NIGHTS == 8


def test_the_phase_lengths_are_004s():
    assert (rules.DISCUSSION, rules.VOTE, rules.COORDINATION, rules.ACTIONS) == (150, 45, 30, 45)


def test_the_phases_run_day_then_night():
    assert rules.PHASES == (("discussion", 150), ("vote", 45), ("coordination", 30),
                            ("actions", 45))
