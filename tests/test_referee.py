"""The referee: who dies and who wins a finished One Night game.

Each rule's test names its source: 000 the Daybreak rulebook, 001 the
Chinese rules sheet, 002 the German base game (../shared/seeds). "decision"
marks a choice made where the sources are silent (see wolfbox/onenight/referee.py).
Expected values are worked out by hand from the votes in each test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from wolfbox.i18n import pseudo_translation
from wolfbox.onenight.referee import (
    ARTIFACT_ROLE,
    ARTIFACTS,
    WEREWOLVES,
    RefereeError,
    Verdict,
    judge,
    parse_game,
    read_game,
)
from wolfbox.onenight.roles import ROLES, Team

EXAMPLE = {"players": [{"card": "werewolf", "vote": 2},
                       {"card": "doppelganger", "as": "hunter", "vote": 1},
                       {"card": "villager", "vote": 1}],
           "artifacts": {"3": "claw"}}


def p(card: str, vote: int, became: str | None = None) -> dict[str, Any]:
    """One seat: its card at dawn, its vote, and "as" if given."""
    return {"card": card, "vote": vote} | ({"as": became} if became else {})


def referee(*players: dict[str, Any], artifacts: dict[str, str] | None = None) -> Verdict:
    return judge(parse_game({"players": list(players), "artifacts": artifacts or {}}))


def outcome(v: Verdict) -> tuple[list[int], list[int], list[str]]:
    return list(v.dead), list(v.winners), list(v.teams)


# ------------------------------------------------------------ the vote
def test_most_votes_dies_001_002():
    v = referee(p("werewolf", 2), p("seer", 1), p("villager", 1))
    assert outcome(v) == ([1], [2, 3], ["village"])


def test_a_tie_at_the_most_votes_kills_all_tied_001_002():
    # seat 1: votes from 2 and 3; seat 2: from 1 and 4.
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("seer", 2))
    assert outcome(v) == ([1, 2], [2, 3, 4], ["village"])


def test_nobody_dies_when_the_votes_go_round_a_circle_001():
    v = referee(p("werewolf", 2), p("villager", 3), p("villager", 1))
    assert outcome(v) == ([], [1], ["werewolf"])
    assert "kills nobody" in v.why[0]


def test_circle_with_no_werewolf_the_village_wins_001():
    v = referee(p("seer", 2), p("villager", 3), p("robber", 4), p("villager", 1))
    assert outcome(v) == ([], [1, 2, 3, 4], ["village"])


def test_no_werewolf_and_someone_dies_the_village_loses_001():
    v = referee(p("seer", 2), p("villager", 3), p("villager", 2))
    assert outcome(v) == ([2], [], [])


def test_werewolf_team_wins_if_no_werewolf_dies_001():
    v = referee(p("werewolf", 2), p("villager", 3), p("villager", 2))
    assert outcome(v) == ([2], [1], ["werewolf"])


def test_one_vote_each_kills_nobody_even_with_more_seats_than_votes_001():
    # The Bodyguard's point is no vote: 3 votes for 4 seats, none with two.
    v = referee(p("werewolf", 2), p("villager", 3), p("bodyguard", 1), p("villager", 1))
    assert outcome(v) == ([], [1], ["werewolf"])


# ------------------------------------------------------------ werewolf team, Minion
def test_minion_wins_with_the_werewolves_even_if_he_dies_001_002():
    v = referee(p("werewolf", 3), p("villager", 3), p("minion", 1))
    assert outcome(v) == ([3], [1, 3], ["werewolf"])


def test_minion_without_werewolves_wins_if_neither_he_nor_the_tanner_dies_001():
    v = referee(p("minion", 2), p("villager", 3), p("villager", 2), p("seer", 2))
    assert outcome(v) == ([2], [1], ["werewolf"])


def test_minion_without_werewolves_loses_if_he_dies_001():
    # Nobody wins: someone died with no werewolf at the table, and it was him.
    v = referee(p("minion", 2), p("villager", 1), p("villager", 1))
    assert outcome(v) == ([1], [], [])


def test_minion_without_werewolves_loses_if_the_tanner_dies_001():
    v = referee(p("minion", 2), p("tanner", 3), p("villager", 2), p("seer", 2))
    assert outcome(v) == ([2], [2], ["tanner"])


def test_no_werewolf_and_nobody_dies_village_and_minion_both_win_001():
    v = referee(p("minion", 2), p("villager", 3), p("seer", 1))
    assert outcome(v) == ([], [1, 2, 3], ["village", "werewolf"])


def test_minion_is_not_a_werewolf_001():
    # The Minion dies and no werewolf does: the village does not win.
    v = referee(p("werewolf", 3), p("seer", 3), p("minion", 1), p("villager", 3))
    assert outcome(v) == ([3], [1, 3], ["werewolf"])


# ------------------------------------------------------------ Tanner
def test_tanner_who_dies_alone_wins_and_the_werewolves_cannot_001():
    v = referee(p("werewolf", 2), p("tanner", 1), p("villager", 2))
    assert outcome(v) == ([2], [2], ["tanner"])


def test_tanner_and_a_werewolf_die_tanner_and_village_both_win_001_000_cudgel():
    v = referee(p("werewolf", 2), p("tanner", 1), p("villager", 1), p("villager", 2))
    assert outcome(v) == ([1, 2], [2, 3, 4], ["village", "tanner"])


def test_a_living_tanner_is_no_winner_001():
    v = referee(p("werewolf", 2), p("tanner", 1), p("villager", 1))
    assert outcome(v) == ([1], [3], ["village"])


def test_only_the_tanner_who_dies_wins_000_cudgel_decision():
    # Seat 4 is a Tanner by the Cudgel and stays alive: only seat 3 wins.
    v = referee(p("werewolf", 3), p("villager", 3), p("tanner", 1), p("villager", 1),
                artifacts={"4": "cudgel"})
    assert outcome(v) == ([1, 3], [2, 3], ["village", "tanner"])


def test_a_team_with_nobody_on_it_wins_nothing_decision():
    # A werewolf died, so the village would win, but nobody plays for it.
    v = referee(p("werewolf", 3), p("werewolf", 3), p("tanner", 1), p("villager", 1),
                artifacts={"4": "cudgel"})
    assert outcome(v) == ([1, 3], [3], ["tanner"])
    assert not any("village" in line for line in v.why)


# ------------------------------------------------------------ Bodyguard, Prince
def test_bodyguard_point_protects_000():
    # Seat 1 has the most votes (2) but is protected; nobody else has two.
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("bodyguard", 1))
    assert outcome(v) == ([], [1], ["werewolf"])


def test_bodyguard_point_is_not_a_vote_000():
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("bodyguard", 1))
    assert any("The most votes (2)" in line for line in v.why)   # not 3


def test_bodyguard_protected_top_the_next_most_voted_dies_000():
    # Seat 1: 3 votes (2, 3, 5), protected; seat 2: 2 votes (1, 4).
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("villager", 2),
                p("seer", 1), p("bodyguard", 1))
    assert outcome(v) == ([2], [1], ["werewolf"])


def test_bodyguard_next_most_voted_tied_all_die_000():
    # Seat 1: 3 votes, protected; seats 2 and 3: 2 votes each.
    v = referee(p("villager", 2), p("werewolf", 1), p("seer", 1), p("villager", 1),
                p("robber", 2), p("villager", 3), p("bodyguard", 1), p("mason", 3))
    assert outcome(v) == ([2, 3], [1, 3, 4, 5, 6, 7, 8], ["village"])


def test_bodyguard_next_most_voted_needs_two_votes_000():
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("seer", 1),
                p("bodyguard", 1))
    assert outcome(v) == ([], [1], ["werewolf"])


def test_bodyguard_protecting_someone_off_the_top_changes_nothing_000():
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), p("bodyguard", 2))
    assert outcome(v) == ([1], [2, 3, 4], ["village"])


def test_branded_bodyguard_point_is_a_plain_vote_000():
    guarded = referee(p("werewolf", 2), p("villager", 1), p("bodyguard", 1), p("villager", 2))
    assert outcome(guarded) == ([2], [1], ["werewolf"])
    branded = referee(p("werewolf", 2), p("villager", 1), p("bodyguard", 1), p("villager", 2),
                      artifacts={"3": "brand"})
    assert outcome(branded) == ([1, 2], [2, 3, 4], ["village"])


def test_doppelganger_bodyguard_point_protects_000():
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1),
                p("doppelganger", 1, "bodyguard"))
    assert outcome(v) == ([], [1], ["werewolf"])


def test_prince_cannot_be_killed_the_next_most_dies_001():
    # Seat 1 (Prince): 3 votes; seat 2 (werewolf): 2 votes.
    v = referee(p("prince", 2), p("werewolf", 1), p("villager", 1), p("villager", 2),
                p("seer", 1))
    assert outcome(v) == ([2], [1, 3, 4, 5], ["village"])


def test_prince_with_the_most_votes_and_nobody_else_with_two_nobody_dies_001():
    v = referee(p("prince", 2), p("werewolf", 1), p("villager", 1))
    assert outcome(v) == ([], [2], ["werewolf"])


def test_several_protected_seats_at_the_top_are_all_skipped_000_001_decision():
    # Seats 1 (Prince) and 2 (guarded) have 2 votes each; seat 3 has 2 too
    # and dies; seat 4 has 1.
    v = referee(p("prince", 3), p("villager", 1), p("werewolf", 2), p("seer", 1),
                p("villager", 2), p("villager", 3), p("bodyguard", 2), p("robber", 4))
    assert outcome(v) == ([3], [1, 2, 4, 5, 6, 7, 8], ["village"])
    assert any("who cannot be killed" in line for line in v.why)


def test_branded_prince_can_be_killed_000():
    v = referee(p("prince", 2), p("werewolf", 1), p("villager", 1), artifacts={"1": "brand"})
    assert outcome(v) == ([1], [2], ["werewolf"])


# ------------------------------------------------------------ Hunter
def test_dead_hunter_takes_his_pick_001_002():
    # Seat 1 (Hunter) dies with 2 votes and points at seat 2, a werewolf.
    v = referee(p("hunter", 2), p("werewolf", 1), p("villager", 1), p("seer", 3))
    assert outcome(v) == ([1, 2], [1, 3, 4], ["village"])


def test_hunter_pick_dies_after_every_vote_death_001_002():
    # Seats 1 and 3 (Hunter) die by the vote; the Hunter's pick, seat 2, last.
    v = referee(p("villager", 5), p("werewolf", 1), p("hunter", 2), p("villager", 1),
                p("seer", 3), p("villager", 3))
    assert outcome(v) == ([1, 3, 2], [1, 3, 4, 5, 6], ["village"])


def test_living_hunter_shoots_nobody_001_002():
    v = referee(p("hunter", 2), p("werewolf", 3), p("villager", 2))
    assert outcome(v) == ([2], [1, 3], ["village"])


def test_hunter_pick_already_dead_dies_once_001_002():
    v = referee(p("hunter", 2), p("werewolf", 1), p("villager", 1), p("seer", 2))
    assert outcome(v) == ([1, 2], [1, 3, 4], ["village"])
    assert any("already dead" in line for line in v.why)


def test_hunter_shot_cannot_kill_a_bodyguard_protected_seat_000_decision():
    v = referee(p("hunter", 2), p("werewolf", 1), p("villager", 1), p("bodyguard", 2))
    assert outcome(v) == ([1], [2], ["werewolf"])


def test_hunter_shot_cannot_kill_the_prince_001():
    v = referee(p("hunter", 2), p("prince", 1), p("werewolf", 1))
    assert outcome(v) == ([1], [3], ["werewolf"])


def test_hunter_shot_at_a_hunter_shoots_on_decision():
    # Seat 1 (Hunter) dies and shoots seat 2 (Doppelganger-Hunter), who shoots seat 3.
    v = referee(p("hunter", 2), p("doppelganger", 3, "hunter"), p("werewolf", 1),
                p("villager", 1))
    assert outcome(v) == ([1, 2, 3], [1, 2, 4], ["village"])


def test_clawed_hunter_has_no_shot_000():
    v = referee(p("hunter", 2), p("villager", 1), p("villager", 1), artifacts={"1": "claw"})
    assert outcome(v) == ([1], [2, 3], ["village"])


def test_cudgel_takes_the_hunters_shot_and_makes_a_tanner_000():
    v = referee(p("hunter", 2), p("werewolf", 1), p("villager", 1), artifacts={"1": "cudgel"})
    assert outcome(v) == ([1], [1], ["tanner"])


def test_the_example_doppelganger_hunter_and_a_claw_000_001():
    v = judge(parse_game(EXAMPLE))
    assert outcome(v) == ([1], [2], ["village"])


# ------------------------------------------------------------ Cursed
def test_cursed_voted_for_by_a_werewolf_is_a_werewolf_001():
    v = referee(p("werewolf", 2), p("cursed", 3), p("villager", 2))
    assert outcome(v) == ([2], [3], ["village"])


def test_cursed_without_a_werewolf_vote_stays_a_villager_001():
    v = referee(p("werewolf", 3), p("cursed", 1), p("villager", 2), p("seer", 2))
    assert outcome(v) == ([2], [1], ["werewolf"])


def test_a_minion_vote_does_not_turn_the_cursed_001():
    v = referee(p("minion", 2), p("cursed", 3), p("werewolf", 4), p("villager", 2))
    assert outcome(v) == ([2], [1, 3], ["werewolf"])


def test_a_turned_cursed_turns_a_doppelganger_cursed_001_decision():
    # Seat 1 turns seat 2; seat 2, now a werewolf, votes for seat 3, who dies.
    v = referee(p("werewolf", 2), p("cursed", 3), p("doppelganger", 1, "cursed"),
                p("villager", 3))
    assert outcome(v) == ([3], [4], ["village"])


def test_a_clawed_voter_turns_the_cursed_000_001():
    v = referee(p("villager", 2), p("cursed", 3), p("seer", 2), artifacts={"1": "claw"})
    assert outcome(v) == ([2], [3], ["village"])


def test_branded_cursed_is_a_plain_villager_000():
    v = referee(p("werewolf", 2), p("cursed", 3), p("villager", 2), artifacts={"2": "brand"})
    assert outcome(v) == ([2], [1], ["werewolf"])


# ------------------------------------------------------------ artifacts, Doppelganger, PI
def test_claw_makes_a_werewolf_000():
    v = referee(p("seer", 2), p("villager", 1), p("villager", 1), artifacts={"1": "claw"})
    assert outcome(v) == ([1], [2, 3], ["village"])


def test_brand_makes_a_werewolf_a_villager_000():
    # With the werewolf branded nobody is a werewolf, and someone died.
    v = referee(p("werewolf", 2), p("villager", 1), p("villager", 1), artifacts={"1": "brand"})
    assert outcome(v) == ([1], [], [])


def test_branded_tanner_does_not_win_by_dying_000():
    v = referee(p("werewolf", 2), p("tanner", 1), p("villager", 2), artifacts={"2": "brand"})
    assert outcome(v) == ([2], [1], ["werewolf"])


@pytest.mark.parametrize("artifact", ["void", "mute", "shroud"])
def test_void_mute_and_shroud_change_no_role_000(artifact):
    for seat in ("1", "2", "3"):
        v = referee(p("hunter", 2), p("werewolf", 1), p("tanner", 1), artifacts={seat: artifact})
        assert outcome(v) == ([1, 2], [1], ["village"])


def test_a_token_the_same_as_the_card_changes_nothing_000():
    v = referee(p("werewolf", 2), p("tanner", 1), p("villager", 2), artifacts={"2": "cudgel"})
    assert outcome(v) == ([2], [2], ["tanner"])


def test_doppelganger_plays_the_role_she_copied_001():
    v = referee(p("doppelganger", 2, "werewolf"), p("villager", 1), p("seer", 1))
    assert outcome(v) == ([1], [2, 3], ["village"])
    v = referee(p("doppelganger", 2, "tanner"), p("werewolf", 1), p("seer", 1))
    assert outcome(v) == ([1], [1], ["tanner"])
    v = referee(p("doppelganger", 2, "minion"), p("werewolf", 1), p("seer", 1))
    assert outcome(v) == ([1], [1, 2], ["werewolf"])


def test_artifact_overrides_what_the_doppelganger_copied_000():
    v = referee(p("doppelganger", 2, "hunter"), p("werewolf", 1), p("villager", 1),
                artifacts={"1": "brand"})
    assert outcome(v) == ([1], [2], ["werewolf"])


def test_pi_who_became_a_werewolf_is_one_000():
    v = referee(p("paranormal_investigator", 2, "werewolf"), p("villager", 1), p("seer", 1))
    assert outcome(v) == ([1], [2, 3], ["village"])


def test_pi_who_became_a_tanner_wins_only_by_dying_000():
    v = referee(p("paranormal_investigator", 2, "tanner"), p("werewolf", 1), p("seer", 1))
    assert outcome(v) == ([1], [1], ["tanner"])


def test_pi_who_became_nothing_is_on_the_village_team_000():
    v = referee(p("paranormal_investigator", 2), p("werewolf", 1), p("seer", 1))
    assert outcome(v) == ([1], [2], ["werewolf"])


@pytest.mark.parametrize("wolf", sorted(WEREWOLVES))
def test_every_werewolf_card_is_a_werewolf_000(wolf):
    v = referee(p(wolf, 2), p("villager", 1), p("seer", 1))
    assert outcome(v) == ([1], [2, 3], ["village"])


# ------------------------------------------------------------ the reasons
def test_every_reason_goes_through_the_translation_function():
    games = [EXAMPLE,
             {"players": [p("hunter", 2), p("doppelganger", 3, "hunter"), p("werewolf", 1),
                          p("villager", 1), p("bodyguard", 1), p("prince", 1),
                          p("minion", 1), p("tanner", 1), p("cursed", 3)],
              "artifacts": {"9": "brand", "8": "cudgel", "6": "void"}},
             {"players": [p("minion", 2), p("villager", 3), p("tanner", 1)]},
             {"players": [p("cursed", 2), p("werewolf", 1), p("seer", 1)]}]
    with pseudo_translation():
        for spec in games:
            for line in judge(parse_game(spec)).why:
                assert not any(c.isalpha() for c in _outside(line)), line


def test_there_is_a_reason_for_each_step():
    v = referee(p("hunter", 2), p("werewolf", 1), p("villager", 1), p("bodyguard", 3),
                p("tanner", 1), artifacts={"3": "void"})
    assert v.why == (
        "The Bodyguard, Seat 4, protects Seat 3 (Villager): that player cannot be killed, "
        "and the Bodyguard's point is not a vote.",
        "The most votes (3) went to Seat 1 (Hunter), who dies.",
        "The Hunter, Seat 1, died, so Seat 2 (Werewolf) dies too.",
        "The village wins because a werewolf died: Seat 2 (Werewolf).",
        "The werewolf team loses: a werewolf died.",
        "The Tanner, Seat 5, is alive and loses.",
    )


def _outside(text: str) -> str:
    depth, out = 0, []
    for ch in text:
        depth += ch == "⟦"
        depth -= ch == "⟧"
        if depth == 0 and ch != "⟧":
            out.append(ch)
    return "".join(out)


# ------------------------------------------------------------ bad input (in process)
@pytest.mark.parametrize("spec, fragments", [
    ([], ['must be a JSON object with "players"']),
    ({"players": [p("werewolf", 2), p("seer", 1)]}, ["2 players", "at least 3"]),
    ({"players": "many"}, ['"players" must be a list']),
    ({"players": [p("werewolf", 2), p("seer", 1), 7]}, ["seat 3", "must be an object"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 3)]},
     ["seat 3: votes for their own seat"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 4)]},
     ["seat 3: votes for seat 4", "1 to 3"]),
    ({"players": [p("werewolf", 2), p("seer", 1), {"card": "villager"}]},
     ['seat 3: "vote" is missing']),
    ({"players": [p("werewolf", 2), p("seer", 1), {"card": "villager", "vote": True}]},
     ['seat 3: "vote" must be a seat number']),
    ({"players": [p("werewolf", 2), p("seer", 1), {"card": "villager", "vote": "2"}]},
     ['seat 3: "vote" is a number, written without quotes: 2, not "2"']),
    ({"players": [p("werwolf", 2), p("seer", 1), p("villager", 1)]},
     ["seat 1: unknown role 'werwolf'", "did you mean 'werewolf'?", "known roles:"]),
    ({"players": [{"vote": 2}, p("seer", 1), p("villager", 1)]}, ['seat 1: "card" must be']),
    ({"players": [p("doppelganger", 2), p("seer", 1), p("villager", 1)]},
     ['seat 1: the doppelganger needs "as"']),
    ({"players": [p("doppelganger", 2, "huntr"), p("seer", 1), p("villager", 1)]},
     ["seat 1: unknown role 'huntr'", "did you mean 'hunter'?"]),
    ({"players": [p("doppelganger", 2, "doppelganger"), p("seer", 1), p("villager", 1)]},
     ["cannot have copied a doppelganger"]),
    ({"players": [p("seer", 2, "werewolf"), p("seer", 1), p("villager", 1)]},
     ['seat 1: "as" is only for the doppelganger', "card is seer"]),
    ({"players": [p("paranormal_investigator", 2, "seer"), p("seer", 1), p("villager", 1)]},
     ["werewolf or tanner", "not 'seer'"]),
    ({"players": [p("werewolf", 2) | {"voted": 3}, p("seer", 1), p("villager", 1)]},
     ["seat 1: unknown key 'voted'", "allowed: card, as, vote"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "cursed_by_werewolf": 1},
     ["unknown key 'cursed_by_werewolf'", "allowed: players, artifacts"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "artifacts": ["claw"]},
     ['"artifacts" must be an object']),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "artifacts": {"2": "clw"}},
     ["seat 2: unknown artifact 'clw'", "did you mean 'claw'?", "claw, brand, cudgel"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "artifacts": {"4": "claw"}},
     ["there is no seat 4", "1 to 3"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "artifacts": {"x": "claw"}},
     ["'x' is not a seat number"]),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1)], "artifacts": {"2": 5}},
     ['"artifacts" must be an object from seat to artifact']),
    ({"players": [p("werewolf", 2), p("seer", 1), p("villager", 1) | {"as": None}]},
     ['seat 3: "as" must be a role id']),
    ({"players": [p("werewolf", 2), p("seer", 1), {"card": 7, "vote": 1}]},
     ['seat 3: "card" must be the role id']),
])
def test_bad_games_are_refused_with_what_is_allowed(spec, fragments):
    with pytest.raises(RefereeError) as e:
        parse_game(spec)
    for fragment in fragments:
        assert fragment in str(e.value)


def test_a_key_given_twice_is_refused():
    with pytest.raises(RefereeError, match='"vote" appears twice'):
        read_game('{"players": [{"card": "werewolf", "vote": 2, "vote": 3}]}')


def test_error_messages_go_through_the_translation_function():
    with pseudo_translation(), pytest.raises(RefereeError) as e:
        parse_game({"players": [p("doppelganger", 2), p("seer", 1), p("villager", 1)]})
    assert not any(c.isalpha() for c in _outside(str(e.value))), str(e.value)


# ------------------------------------------------------------ properties
def _card(draw: st.DrawFn, card: str, cards: list[str], seat: int, n: int) -> dict[str, Any]:
    player = p(card, draw(st.sampled_from([s for s in range(1, n + 1) if s != seat])))
    if card == "doppelganger":
        player["as"] = draw(st.sampled_from([c for c in cards if c != "doppelganger"]))
    elif card == "paranormal_investigator":
        became = draw(st.sampled_from([None, "werewolf", "tanner"]))
        if became:
            player["as"] = became
    return player


@st.composite
def games(draw: st.DrawFn, cards: tuple[str, ...] = tuple(ROLES)) -> dict[str, Any]:
    n = draw(st.integers(3, 9))
    # The cards that exist: each role as many times as the game has it.
    pool = [c for c in cards for _copy in range(ROLES[c].copies)]
    dealt = draw(st.permutations(pool))[:n]
    assume(len(dealt) == n)
    players = [_card(draw, card, list(cards), seat, n) for seat, card in enumerate(dealt, 1)]
    seats = draw(st.lists(st.integers(1, n), unique=True, max_size=2))
    tokens = draw(st.permutations(list(ARTIFACTS)))
    artifacts = {str(seat): token for seat, token in zip(seats, tokens, strict=False)}
    return {"players": players, "artifacts": artifacts}


def _roles(spec: dict[str, Any]) -> dict[int, str]:
    """Each seat's role at the vote, worked out apart from the referee's code."""
    out = {}
    for seat, player in enumerate(spec["players"], 1):
        artifact = spec["artifacts"].get(str(seat))
        out[seat] = ARTIFACT_ROLE.get(artifact, player.get("as", player["card"]))
    return out


def _werewolves(spec: dict[str, Any]) -> set[int]:
    roles = _roles(spec)
    wolves = {s for s, r in roles.items() if r in WEREWOLVES}
    while True:
        turned = {s for s, r in roles.items() if r == "cursed" and s not in wolves
                  and any(spec["players"][w - 1]["vote"] == s for w in wolves)}
        if not turned:
            return wolves
        wolves |= turned


@given(games(cards=tuple(r for r in ROLES if r not in ("bodyguard", "prince"))))
def test_without_bodyguard_or_prince_nobody_dies_exactly_when_no_seat_has_two_votes_001(spec):
    v = judge(parse_game(spec))
    tally = Counter(player["vote"] for player in spec["players"])
    assert (v.dead == ()) == (max(tally.values()) < 2)


@given(games())
def test_dead_and_winners_are_seats_and_dead_has_no_repeats(spec):
    v = judge(parse_game(spec))
    seats = set(range(1, len(spec["players"]) + 1))
    assert set(v.dead) <= seats and len(set(v.dead)) == len(v.dead)
    assert set(v.winners) <= seats and list(v.winners) == sorted(set(v.winners))
    assert list(v.teams) == [t for t in ("village", "werewolf", "tanner") if t in v.teams]


@given(games())
def test_if_a_werewolf_dies_the_village_wins_001(spec):
    v = judge(parse_game(spec))
    wolves, roles = _werewolves(spec), _roles(spec)
    village = [s for s, r in roles.items() if s not in wolves and ROLES[r].team is Team.VILLAGE]
    if wolves & set(v.dead):
        assert "werewolf" not in v.teams
        if village:
            assert "village" in v.teams and set(village) <= set(v.winners)


@given(games())
def test_a_dead_tanner_and_no_dead_werewolf_the_werewolf_team_did_not_win_001(spec):
    v = judge(parse_game(spec))
    roles, wolves = _roles(spec), _werewolves(spec)
    tanners = {s for s, r in roles.items() if r == "tanner"}
    if tanners & set(v.dead) and not wolves & set(v.dead):
        assert "werewolf" not in v.teams
    assert {s for s in tanners if s in v.winners} == tanners & set(v.dead)


@given(games())
def test_every_verdict_has_reasons_in_the_box_language(spec):
    with pseudo_translation():
        v = judge(parse_game(spec))
    assert v.why
    assert all(not any(c.isalpha() for c in _outside(line)) for line in v.why)


# ------------------------------------------------------------ the command
def wolfbox(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", *args], capture_output=True,
                          text=True, timeout=60, input=stdin)


EXPECTED = {"dead": [1], "winners": [2], "teams": ["village"]}


def test_referee_reads_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE))
    result = wolfbox("referee", str(path))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert {k: out[k] for k in EXPECTED} == EXPECTED
    assert out["why"] and all(isinstance(line, str) for line in out["why"])
    assert result.stderr == ""


@pytest.mark.parametrize("args", [[], ["-"]])
def test_referee_reads_standard_input(args):
    result = wolfbox("referee", *args, stdin=json.dumps(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert {k: v for k, v in json.loads(result.stdout).items() if k != "why"} == EXPECTED


def _one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def _players(*players: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"players": list(players), **extra})


OK3 = (p("seer", 1), p("villager", 1))


@pytest.mark.parametrize("stdin, fragments", [
    ("this is not json", ["<stdin>: not JSON"]),
    ("", ["<stdin>: not JSON"]),
    ("[1, 2, 3]", ["must be a JSON object"]),
    ("[" * 100_000, ["nested too deeply"]),
    (_players(p("werewolf", 1), *OK3), ["seat 1: votes for their own seat"]),
    (_players(p("werewolf", 9), *OK3), ["seat 1: votes for seat 9", "1 to 3"]),
    (_players({"card": "werewolf"}, *OK3), ['seat 1: "vote" is missing']),
    (_players(p("werwolf", 2), *OK3), ["unknown role 'werwolf'", "did you mean 'werewolf'?"]),
    (_players(p("doppelganger", 2), *OK3), ['the doppelganger needs "as"']),
    (_players(p("seer", 2, "hunter"), *OK3), ['"as" is only for the doppelganger']),
    (_players(p("paranormal_investigator", 2, "minion"), *OK3), ["werewolf or tanner"]),
    (_players(p("werewolf", 2), *OK3, artifacts={"1": "crown"}),
     ["unknown artifact 'crown'", "claw, brand, cudgel, void, mute, shroud"]),
    (_players(p("werewolf", 2), *OK3, artifacts={"5": "claw"}), ["there is no seat 5"]),
    (_players(p("werewolf", 2), p("seer", 1)), ["2 players", "at least 3"]),
])
def test_bad_input_is_one_line_and_exit_2(stdin, fragments):
    _one_line_error(wolfbox("referee", stdin=stdin), *fragments)


def test_a_missing_file_is_one_line_and_exit_2(tmp_path):
    _one_line_error(wolfbox("referee", str(tmp_path / "gone.json")),
                    "cannot read the game from", "gone.json")


def test_a_bad_file_is_named(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("{")
    _one_line_error(wolfbox("referee", str(path)), f"{path}: not JSON")


def test_referee_loads_no_screen_pins_or_voice():
    probe = ("import io, sys\n"
             "from wolfbox.cli import main\n"
             "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
             "code = main(['referee'])\n"
             "sys.stdout = real\n"
             "print(code, [m for m in ('pygame', 'gpiozero', 'piper', 'onnxruntime') "
             "if m in sys.modules])\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            input=json.dumps(EXAMPLE), timeout=60)
    assert result.stdout.strip().splitlines()[-1] == "0 []", result.stderr


def test_a_file_that_is_not_utf8_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"players": "\xff"}')
    _one_line_error(wolfbox("referee", str(path)), "cannot read the game from", str(path))
