"""NewD3: which setups the roles of the dead still allow, worked out by hand."""

from __future__ import annotations

import pytest

from wolfbox.newd3.tracker import possible_setups

ALL = ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]


def test_with_nobody_dead_all_nine_are_possible():
    assert possible_setups({}) == ALL


def test_a_dead_alchemist_means_a1_a2_or_a3_as_004_says():
    assert possible_setups({4: "alchemist"}) == ["A1", "A2", "A3"]


def test_a_dead_track_reader_means_a_b_setup():
    assert possible_setups({7: "track_reader"}) == ["B1", "B2", "B3"]


def test_one_dead_wolf_rules_nothing_out():
    assert possible_setups({1: "wolf"}) == ALL


def test_two_dead_wolves_mean_a_c_setup():
    assert possible_setups({1: "wolf", 6: "wolf"}) == ["C1", "C2", "C3"]


def test_one_dead_noble_means_a3_or_c3():
    assert possible_setups({2: "noble"}) == ["A3", "C3"]


def test_two_dead_nobles_still_mean_a3_or_c3():
    assert possible_setups({2: "noble", 9: "noble"}) == ["A3", "C3"]


def test_a_dead_seer_means_a1_or_c1():
    assert possible_setups({3: "seer"}) == ["A1", "C1"]


def test_a_dead_chef_means_a2_b2_or_c2():
    assert possible_setups({3: "chef"}) == ["A2", "B2", "C2"]


def test_a_dead_priest_means_a2_b1_or_b3():
    assert possible_setups({3: "priest"}) == ["A2", "B1", "B3"]


def test_a_dead_guard_and_a_dead_priest_mean_b3():
    assert possible_setups({3: "guard", 5: "priest"}) == ["B3"]


def test_a_dead_dairy_maid_and_a_dead_chef_mean_b2():
    assert possible_setups({3: "dairy_maid", 5: "chef"}) == ["B2"]


def test_five_dead_sheep_rule_nothing_out():
    assert possible_setups({s: "sheep" for s in range(1, 6)}) == ALL


def test_six_dead_sheep_mean_c1_or_c2():
    # Only C1 and C2 deal six Sheep.
    assert possible_setups({s: "sheep" for s in range(1, 7)}) == ["C1", "C2"]


def test_a_reveal_no_setup_holds_leaves_nothing():
    assert possible_setups({1: "alchemist", 2: "track_reader"}) == []
    assert possible_setups({1: "seer", 2: "chef"}) == []


def test_a_game_narrowing_night_by_night():
    revealed: dict[int, str] = {}
    steps = [(5, "sheep", ALL), (8, "wolf", ALL), (3, "chef", ["A2", "B2", "C2"]),
             (6, "dairy_maid", ["B2"])]
    for seat, role, expected in steps:
        revealed[seat] = role
        assert possible_setups(revealed) == expected


@pytest.mark.parametrize("revealed", [{0: "sheep"}, {10: "sheep"}, {"3": "sheep"},
                                      {3: "villager"}, {3: "Wolf"}])
def test_the_tracker_refuses_a_seat_or_role_that_does_not_exist(revealed):
    with pytest.raises(ValueError):
        possible_setups(revealed)
