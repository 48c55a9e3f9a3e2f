"""NewD3: one night resolved in 004's order, each rule and each decided open
case (wolfbox/newd3/resolve.py's module doc) with a test of its own."""

from __future__ import annotations

import json

import pytest

from wolfbox.errors import UserError
from wolfbox.i18n import pseudo_translation
from wolfbox.newd3.resolve import IllegalNight, Kill, Night, resolve

S = ["sheep"] * 5
# Seatings used below (seats from 1):
A1 = ["wolf", "alchemist", "seer", "guard"] + S           # 1 W, 2 Alch, 3 Seer, 4 Guard
A2 = ["wolf", "alchemist", "chef", "priest"] + S          # 1 W, 2 Alch, 3 Chef, 4 Priest
A3 = ["wolf", "alchemist", "noble", "noble"] + S          # 3, 4 Nobles
B1 = ["wolf", "track_reader", "priest", "dairy_maid"] + S  # 2 TR, 3 Priest, 4 Maid
B2 = ["wolf", "track_reader", "chef", "dairy_maid"] + S    # 2 TR, 3 Chef, 4 Maid
B3 = ["wolf", "track_reader", "priest", "guard"] + S       # 2 TR, 3 Priest, 4 Guard
C1 = ["wolf", "wolf", "seer"] + S + ["sheep"]              # 1, 2 Wolves, 3 Seer
C2 = ["wolf", "wolf", "chef"] + S + ["sheep"]              # 3 Chef


# ------------------------------------------------------------ the kill
def test_a_night_with_no_actions_and_no_kill_kills_nobody():
    assert resolve(A1, set(), {}, None) == Night(None, {})


def test_an_unopposed_kill_kills_its_target():
    assert resolve(A1, set(), {}, Kill(target=5, knife=1)).killed == 5


def test_any_wolf_team_seat_may_hold_the_knife():
    assert resolve(A1, set(), {}, Kill(target=5, knife=2)).killed == 5
    assert resolve(B1, set(), {}, Kill(target=5, knife=2)).killed == 5


def test_the_guards_protection_stops_the_kill():
    assert resolve(A1, set(), {4: 5}, Kill(target=5, knife=1)).killed is None


def test_the_guard_protecting_someone_else_does_not_stop_the_kill():
    assert resolve(A1, set(), {4: 6}, Kill(target=5, knife=1)).killed == 5


def test_a_blocked_guard_protects_nobody():
    assert resolve(A1, set(), {2: 4, 4: 5}, Kill(target=5, knife=1)).killed == 5


def test_the_chefs_jail_protects_its_target_from_the_kill():
    assert resolve(A2, set(), {3: 5}, Kill(target=5, knife=1)).killed is None


def test_blocking_the_knife_stops_the_kill():
    assert resolve(A1, set(), {2: 1}, Kill(target=5, knife=1)).killed is None


def test_jailing_the_knife_wolf_stops_the_kill():
    assert resolve(C2, set(), {3: 1}, Kill(target=5, knife=1)).killed is None


def test_jailing_the_wolf_without_the_knife_does_not_stop_the_kill():
    assert resolve(C2, set(), {3: 1}, Kill(target=5, knife=2)).killed == 5


def test_blocking_the_wolf_without_the_knife_does_not_stop_the_kill():
    # The Alchemist blocks his partner but holds the knife himself.
    assert resolve(A1, set(), {2: 1}, Kill(target=5, knife=2)).killed == 5


def test_the_alchemist_may_block_his_own_partner():
    night = resolve(A2, set(), {2: 1, 4: 1}, Kill(target=5, knife=1))
    assert night.killed is None
    assert night.results == {4: {"visited": None}}


# ------------------------------------------------------------ block against jail
def test_a_blocked_chef_jails_nobody():
    # Blocked Chef: the jail neither protects the kill target nor blocks the Priest.
    assert resolve(A2, set(), {2: 3, 3: 5}, Kill(target=5, knife=1)).killed == 5
    assert resolve(A2, set(), {2: 3, 3: 4, 4: 6}, None).results == {4: {"visited": None}}


def test_the_chef_jailing_the_alchemist_does_not_undo_his_block():
    night = resolve(A2, set(), {2: 4, 3: 2, 4: 1}, None)
    assert night.results == {4: None}


def test_a_jailed_alchemist_cannot_use_the_knife():
    assert resolve(A2, set(), {3: 2}, Kill(target=5, knife=2)).killed is None
    assert resolve(A2, set(), {2: 6, 3: 2}, Kill(target=5, knife=2)).killed is None


def test_a_jail_never_lifts_a_block_but_still_protects():
    night = resolve(A2, set(), {2: 4, 3: 4, 4: 6}, Kill(target=4, knife=1))
    assert night.results == {4: None}
    assert night.killed is None


# ------------------------------------------------------------ information
def test_the_seer_sees_a_wolf_as_a_wolf():
    assert resolve(C1, set(), {3: 2}, None).results == {3: {"wolf": True}}


def test_the_seer_sees_the_alchemist_as_a_wolf():
    assert resolve(A1, set(), {3: 2}, None).results == {3: {"wolf": True}}


def test_the_seer_sees_town_as_not_a_wolf():
    assert resolve(A1, set(), {3: 4}, None).results == {3: {"wolf": False}}
    assert resolve(A1, set(), {3: 9}, None).results == {3: {"wolf": False}}


def test_the_track_reader_reads_a_power_role_exactly():
    assert resolve(B1, set(), {2: 3}, None).results == {2: {"role": "priest"}}
    assert resolve(B3, set(), {2: 4}, None).results == {2: {"role": "guard"}}


def test_the_track_reader_reads_sheep_as_vanilla():
    assert resolve(B1, set(), {2: 7}, None).results == {2: {"role": "vanilla"}}


def test_the_track_reader_reads_the_wolf_as_vanilla():
    assert resolve(B1, set(), {2: 1}, None).results == {2: {"role": "vanilla"}}


def test_the_dairy_maid_tells_her_target_she_is_town():
    assert resolve(B1, set(), {4: 6}, None).results == {4: {"told": 6}}


def test_the_priest_sees_whom_his_target_visited():
    assert resolve(B1, set(), {3: 4, 4: 6}, None).results == {3: {"visited": 6}, 4: {"told": 6}}


def test_the_priest_sees_the_knife_wolf_visit_the_victim():
    night = resolve(B1, set(), {3: 1}, Kill(target=5, knife=1))
    assert night.results == {3: {"visited": 5}}


def test_the_priest_sees_a_wolf_without_the_knife_visit_nobody():
    assert resolve(B1, set(), {3: 1}, Kill(target=5, knife=2)).results == {3: {"visited": None}}


def test_a_blocked_information_role_gets_no_result():
    assert resolve(A1, set(), {2: 3, 3: 1}, None).results == {3: None}


def test_a_jailed_information_role_gets_no_result():
    assert resolve(B2, set(), {3: 2, 2: 4, 4: 6}, None).results == {2: None, 4: {"told": 6}}
    assert resolve(B2, set(), {3: 4, 4: 6}, None).results == {4: None}


def test_only_information_roles_that_acted_have_a_result():
    night = resolve(A1, set(), {2: 5, 4: 6}, Kill(target=7, knife=1))
    assert night.results == {}


def test_a_blocked_player_stays_home_for_the_priest():
    night = resolve(A2, set(), {2: 3, 3: 5, 4: 3}, None)
    assert night.results == {4: {"visited": None}}


def test_a_jailed_player_stays_home_for_the_priest():
    night = resolve(A2, set(), {3: 1, 4: 1}, Kill(target=6, knife=1))
    assert night.results == {4: {"visited": None}}
    assert night.killed is None


def test_a_jailed_alchemist_is_still_seen_at_his_block_target():
    assert resolve(A2, set(), {2: 5, 3: 2, 4: 2}, None).results == {4: {"visited": 5}}


def test_the_knife_visits_a_target_that_was_saved():
    night = resolve(A2, set(), {3: 5, 4: 1}, Kill(target=5, knife=1))
    assert night.killed is None
    assert night.results == {4: {"visited": 5}}


def test_a_knife_alchemist_is_seen_at_the_kill_target_not_his_block():
    night = resolve(A2, set(), {2: 6, 4: 2}, Kill(target=5, knife=2))
    assert night.results == {4: {"visited": 5}}


def test_a_knife_track_reader_is_seen_at_the_kill_target_not_his_read():
    night = resolve(B1, set(), {2: 4, 3: 2}, Kill(target=5, knife=2))
    assert night.results == {2: {"role": "dairy_maid"}, 3: {"visited": 5}}


def test_the_priest_sees_a_player_who_passed_visit_nobody():
    assert resolve(B1, set(), {3: 4}, None).results == {3: {"visited": None}}


def test_the_priest_sees_a_player_without_an_ability_visit_nobody():
    assert resolve(B1, set(), {3: 8}, None).results == {3: {"visited": None}}


def test_an_information_role_killed_tonight_still_gets_its_result():
    night = resolve(C1, set(), {3: 1}, Kill(target=3, knife=2))
    assert night.killed == 3
    assert night.results == {3: {"wolf": True}}


def test_milk_to_the_victim_is_still_delivered():
    night = resolve(B1, set(), {4: 5}, Kill(target=5, knife=1))
    assert night.killed == 5
    assert night.results == {4: {"told": 5}}


def test_a_night_with_every_step_of_004s_order():
    # 004's order with every step: block, jail, protect, kill, information.
    night = resolve(A1, {9}, {2: 3, 3: 2, 4: 6}, Kill(target=6, knife=1))
    assert night == Night(None, {3: None})


def test_nobles_change_nothing_at_night():
    assert resolve(A3, set(), {}, Kill(target=3, knife=1)).killed == 3


def test_dead_seats_take_no_part_but_the_night_goes_on():
    assert resolve(A1, {3, 4}, {2: 5}, Kill(target=6, knife=1)).killed == 6


# ------------------------------------------------------------ json
def test_the_example_night_of_issue_12():
    night = resolve(["wolf", "alchemist", "seer", "guard"] + S, set(),
                    {2: 4, 3: 2, 4: 5}, Kill(target=5, knife=1))
    assert night.to_json() == {"killed": 5, "results": {"3": {"wolf": True}}}


def test_to_json_gives_text_seats_and_null_for_blocked_results():
    night = resolve(B1, set(), {2: 7, 3: 1, 4: 5}, Kill(target=5, knife=1))
    out = night.to_json()
    assert out == {"killed": 5, "results": {"2": {"role": "vanilla"}, "3": {"visited": 5},
                                            "4": {"told": 5}}}
    text = json.dumps(resolve(A1, set(), {2: 3, 3: 1}, None).to_json())
    assert text == '{"killed": null, "results": {"3": null}}'


# ------------------------------------------------------------ illegal nights
def _illegal(players, dead, actions, kill) -> str:
    with pytest.raises(IllegalNight) as caught:
        resolve(players, dead, actions, kill)
    message = str(caught.value)
    assert "\n" not in message and ": " in message    # one line: the problem, what is allowed
    return message


def test_an_illegal_night_is_a_user_error_that_no_value_parsing_swallows():
    # Issue 45.5: only a value read that does not fit is also a ValueError;
    # a night against the rules is the user's error, said by `wolfbox resolve`.
    assert issubclass(IllegalNight, UserError) and not issubclass(IllegalNight, ValueError)


def test_targeting_yourself_is_illegal():
    assert "itself" in _illegal(A1, set(), {3: 3}, None)
    assert "itself" in _illegal(A2, set(), {3: 3}, None)


def test_the_guard_protecting_himself_is_illegal():
    assert "Guard" in _illegal(A1, set(), {4: 4}, None)


def test_a_kill_on_the_wolf_team_is_illegal():
    assert "Wolf team" in _illegal(A1, set(), {}, Kill(target=2, knife=1))
    assert "Wolf team" in _illegal(C1, set(), {}, Kill(target=1, knife=2))


def test_a_dead_actor_is_illegal():
    assert "dead" in _illegal(A1, {3}, {3: 1}, None)


def test_a_dead_target_is_illegal():
    assert "dead" in _illegal(A1, {5}, {3: 5}, None)


def test_a_dead_kill_target_is_illegal():
    assert "dead" in _illegal(A1, {5}, {}, Kill(target=5, knife=1))


@pytest.mark.parametrize("players,actor", [(A1, 1), (A1, 5), (A3, 3), (C1, 2)])
def test_an_actor_with_no_targeted_ability_is_illegal(players, actor):
    assert "no targeted night ability" in _illegal(players, set(), {actor: 6}, None)


@pytest.mark.parametrize("knife", [3, 5])
def test_a_knife_that_is_not_on_the_wolf_team_is_illegal(knife):
    assert "knife" in _illegal(A1, set(), {}, Kill(target=6, knife=knife))


def test_a_night_after_the_town_has_won_is_illegal():
    """Both Wolves dead: the game ended at that death; no night follows."""
    message = _illegal(A1, {1, 2}, {3: 5}, None)
    assert "already won" in message and "Town" in message
    assert "already won" in _illegal(C1, {1, 2, 5}, {}, None)


def test_a_night_after_the_wolves_have_won_is_illegal():
    """Two Wolves and two Town alive: the Wolves won at that death."""
    assert "already won" in _illegal(A1, {5, 6, 7, 8, 9}, {}, Kill(target=3, knife=1))


def test_a_night_with_one_wolf_left_and_the_town_ahead_goes_on():
    assert resolve(A1, {1, 5, 6, 7, 8}, {}, Kill(target=3, knife=2)).killed == 3


def test_a_dead_knife_is_illegal():
    assert "knife" in _illegal(A1, {1}, {}, Kill(target=6, knife=1))


@pytest.mark.parametrize("dead,actions,kill", [
    ({10}, {}, None),
    ({0}, {}, None),
    (set(), {0: 3}, None),
    (set(), {10: 3}, None),
    (set(), {3: 10}, None),
    (set(), {3: -1}, None),
    (set(), {"3": 1}, None),
    (set(), {3: True}, None),
    (set(), {}, Kill(target=10, knife=1)),
    (set(), {}, Kill(target=5, knife=0)),
], ids=["dead-10", "dead-0", "actor-0", "actor-10", "target-10", "target-neg", "actor-text",
        "target-bool", "kill-10", "knife-0"])
def test_a_seat_out_of_range_is_illegal(dead, actions, kill):
    assert "not a seat" in _illegal(A1, dead, actions, kill)


@pytest.mark.parametrize("players", [
    A1[:8], A1 + ["sheep"], ["wolf"] * 3 + S + ["seer"],
    ["wolf", "alchemist", "seer", "chef"] + S, ["werewolf", "alchemist", "seer", "guard"] + S,
], ids=["eight", "ten", "three-wolves", "no-row", "unknown-id"])
def test_players_that_are_not_one_of_the_nine_setups_are_illegal(players):
    assert "setups" in _illegal(players, set(), {}, None)


def test_illegal_night_messages_go_through_translation():
    with pseudo_translation():
        message = _illegal(A1, set(), {3: 3}, None)
    assert message.startswith("⟦") and message.endswith("⟧")


@pytest.mark.parametrize("change, words", [
    ({"actions": {"x": 3}}, 'the actor "x" is not a seat number from 1 to 9'),
    ({"actions": {"2": "3"}}, 'the target of seat 2, "3", is not a seat number'),
    ({"players": ["Wolf"] + ["sheep"] * 8}, 'unknown role "Wolf"; the roles are'),
    ({"players": "wolf"}, '"players" must be a list of role ids'),
    ({"dead": ["3"]}, '"dead" must be a list of seat numbers'),
    ({"dead": [True]}, '"dead" must be a list of seat numbers'),
    ({"actions": [[2, 4]]}, '"actions" must map an actor'),
    ({"kill": {"target": 1, "knife": 2, "when": 3}}, '"kill" must be {"target": seat'),
    ({"kill": {"target": 1.5, "knife": 2}}, '"kill" must be {"target": seat'),
    ({"night": 2}, "unknown key 'night' (allowed: players, dead, actions, kill)"),
])
def test_a_malformed_night_names_what_is_wrong_in_plain_words(change, words):
    """From a newcomer's run: the actor and its target are named apart, and
    a role that is no role is called that (not "not one of the setups")."""
    from wolfbox.newd3.resolve import IllegalNight, read_night
    night = {"players": ["wolf", "wolf"] + ["sheep"] * 7, **change}
    with pytest.raises(IllegalNight) as e:
        read_night(night)
    assert words in str(e.value)
