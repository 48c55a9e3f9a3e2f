"""NewD3: the nine setups against 004's table, and recognising a deal."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from wolfbox.newd3.setups import SETUPS, setup_of

# 004 "The nine setups (NewD3)", typed out by hand: Wolf team, Town power
# roles, and the number of Sheep.
TABLE = {
    "A1": ({"wolf": 1, "alchemist": 1}, {"seer": 1, "guard": 1}, 5),
    "A2": ({"wolf": 1, "alchemist": 1}, {"chef": 1, "priest": 1}, 5),
    "A3": ({"wolf": 1, "alchemist": 1}, {"noble": 2}, 5),
    "B1": ({"wolf": 1, "track_reader": 1}, {"priest": 1, "dairy_maid": 1}, 5),
    "B2": ({"wolf": 1, "track_reader": 1}, {"chef": 1, "dairy_maid": 1}, 5),
    "B3": ({"wolf": 1, "track_reader": 1}, {"priest": 1, "guard": 1}, 5),
    "C1": ({"wolf": 2}, {"seer": 1}, 6),
    "C2": ({"wolf": 2}, {"chef": 1}, 6),
    "C3": ({"wolf": 2}, {"noble": 2}, 5),
}


def _deal(name):
    wolves, power, sheep = TABLE[name]
    return [r for r, n in (*wolves.items(), *power.items()) for _ in range(n)] + ["sheep"] * sheep


def test_there_are_exactly_the_nine_setups_a1_to_c3_in_order():
    assert list(SETUPS) == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_setup_holds_the_roles_of_004s_table(name):
    assert Counter(SETUPS[name]) == Counter(_deal(name))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_setup_is_a_sorted_tuple_of_nine_with_two_wolves(name):
    roles = SETUPS[name]
    assert isinstance(roles, tuple) and list(roles) == sorted(roles)
    assert len(roles) == 9
    assert sum(r in {"wolf", "alchemist", "track_reader"} for r in roles) == 2


def test_no_two_setups_are_the_same():
    assert len(set(SETUPS.values())) == 9


@pytest.mark.parametrize("name", sorted(TABLE))
def test_setup_of_names_a_deal_whatever_the_seat_order(name):
    deal = _deal(name)
    assert setup_of(deal) == name
    assert setup_of(list(reversed(deal))) == name
    for shift in range(1, 9):
        assert setup_of(deal[shift:] + deal[:shift]) == name


def test_setup_of_names_every_distinct_order_of_a_small_setup():
    # C1 has few distinct orders of its three non-Sheep: try each seating of them.
    for seats in itertools.permutations(range(9), 3):
        deal = ["sheep"] * 9
        deal[seats[0]], deal[seats[1]], deal[seats[2]] = "wolf", "wolf", "seer"
        assert setup_of(deal) == "C1"


@pytest.mark.parametrize("deal", [
    [],
    ["wolf", "alchemist", "seer", "guard"] + ["sheep"] * 4,             # eight seats
    ["wolf", "alchemist", "seer", "guard"] + ["sheep"] * 6,             # ten seats
    ["wolf", "wolf", "alchemist", "seer"] + ["sheep"] * 5,              # three wolves
    ["wolf", "alchemist", "seer", "chef"] + ["sheep"] * 5,              # a mix in no row
    ["wolf", "alchemist", "noble"] + ["sheep"] * 6,                     # a lone Noble
    ["wolf", "alchemist", "seer", "guard"] + ["villager"] * 5,          # unknown ids
    ["wolf", "alchemist", "seer", "guard", 5, "sheep", "sheep", "sheep", "sheep"],
], ids=["empty", "eight", "ten", "three-wolves", "no-row", "lone-noble", "unknown-id",
        "not-text"])
def test_setup_of_refuses_a_deal_that_is_none_of_the_nine(deal):
    assert setup_of(deal) is None
