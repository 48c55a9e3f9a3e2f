"""NewD3 (004's timed nine-player game): the roles, their teams, names and abilities."""

from __future__ import annotations

import pytest

from wolfbox.i18n import pseudo_translation
from wolfbox.newd3.resolve import seer_sees, track_reader_sees
from wolfbox.newd3.roles import ROLES, Ability, Team, ability_of, is_wolf_team, role_name, team_of

# Written out from 004's role tables and issue 12's list of ids.
TEAMS = {
    "wolf": "wolves", "alchemist": "wolves", "track_reader": "wolves",
    "seer": "town", "guard": "town", "chef": "town", "dairy_maid": "town",
    "priest": "town", "noble": "town", "sheep": "town",
}
ABILITIES = {
    "alchemist": "block", "chef": "jail", "guard": "protect", "seer": "inspect",
    "track_reader": "read", "dairy_maid": "milk", "priest": "watch",
    "wolf": None, "noble": None, "sheep": None,
}
NAMES = {
    "wolf": "Wolf", "alchemist": "Alchemist", "track_reader": "Track Reader", "seer": "Seer",
    "guard": "Guard", "chef": "Chef", "dairy_maid": "Dairy Maid", "priest": "Priest",
    "noble": "Noble", "sheep": "Sheep",
}


def test_the_role_ids_are_exactly_issue_12s_ten():
    assert set(ROLES) == set(TEAMS)


@pytest.mark.parametrize("role,team", sorted(TEAMS.items()))
def test_each_role_is_on_004s_team(role, team):
    assert team_of(role) == team
    assert is_wolf_team(role) == (team == "wolves")


def test_the_teams_are_town_and_wolves():
    assert {t.value for t in Team} == {"town", "wolves"}


@pytest.mark.parametrize("role,ability", list(ABILITIES.items()))
def test_each_role_has_its_targeted_ability_or_none(role, ability):
    found = ability_of(role)
    assert (found.value if found is not None else None) == ability


def test_every_ability_belongs_to_exactly_one_role():
    owners = [ability_of(r) for r in ROLES if ability_of(r) is not None]
    assert sorted(owners) == sorted(Ability)


@pytest.mark.parametrize("role,name", sorted(NAMES.items()))
def test_role_names_are_english_by_default(role, name):
    assert role_name(role) == name


def test_role_names_go_through_translation():
    with pseudo_translation():
        assert role_name("dairy_maid") == "⟦Dairy Maid⟧"


def test_role_name_of_an_unknown_id_is_an_error():
    with pytest.raises(KeyError):
        role_name("werewolf")


@pytest.mark.parametrize("role", sorted(TEAMS))
def test_the_seer_sees_the_whole_wolf_team_as_wolf_and_nobody_else(role):
    # 004: Alchemists and Track Readers read as Wolf.
    assert seer_sees(role) is (role in {"wolf", "alchemist", "track_reader"})


@pytest.mark.parametrize("role,seen", [
    ("wolf", "vanilla"), ("sheep", "vanilla"), ("alchemist", "alchemist"),
    ("track_reader", "track_reader"), ("seer", "seer"), ("guard", "guard"), ("chef", "chef"),
    ("dairy_maid", "dairy_maid"), ("priest", "priest"), ("noble", "noble"),
])
def test_the_track_reader_reads_wolves_and_sheep_as_vanilla_and_others_exactly(role, seen):
    assert track_reader_sees(role) == seen
