"""The reveal screen's rules, for the deck in play, checked against the sources
(000 Daybreak rulebook, 001 Chinese rules sheet, 002 German base game)."""

from __future__ import annotations

from wolfbox.onenight.lines import reveal_rules

CLASSIC = "werewolf werewolf seer robber troublemaker villager".split()
EVERY_SPECIAL = ("doppelganger alpha_wolf dream_wolf mystic_wolf werewolf minion cursed curator "
                 "tanner bodyguard prince hunter paranormal_investigator seer").split()


def text(deck) -> str:
    return "\n".join(reveal_rules(deck))


def test_everyone_votes_and_not_for_themselves_001():
    assert "nobody may point at themselves" in text(CLASSIC)


def test_most_votes_die_ties_all_die_nobody_below_two_votes_001_002():
    rules = text(CLASSIC)
    assert "Most votes dies; a tie for most: all of them die." in rules
    assert "Nobody with two votes or more? Nobody dies." in rules


def test_no_werewolf_among_the_players_the_village_needs_nobody_dead_001():
    """001: with no werewolf, the village wins only if nobody dies, and voting in a
    circle is the one way. With two werewolves in the center (one deal in five for
    the 3-player deck) the screen must say so."""
    rules = text(CLASSIC)
    assert "No werewolf among the players? The village wins only if nobody died" in rules
    assert "votes in a circle" in rules
    assert "The werewolves win if a player is a werewolf and no werewolf died." in rules


def test_who_counts_as_a_werewolf_000_001():
    rules = reveal_rules(EVERY_SPECIAL)
    who = rules[0]
    for name in ("Alpha Wolf", "Dream Wolf", "Mystic Wolf", "Werewolf",
                 "a Doppelganger who copied a werewolf", "a Paranormal Investigator who saw one",
                 "the Cursed if a werewolf voted for him", "a player given the Claw"):
        assert name in who
    assert "Minion" not in who                          # on their team, not a werewolf
    assert not text(CLASSIC).startswith("Werewolves in this deck")   # plain werewolves only


def test_the_bodyguards_point_protects_and_is_not_a_vote_000():
    rules = text(EVERY_SPECIAL)
    assert "The Bodyguard's point is not a vote: that player cannot die." in rules
    assert "next most-voted (two votes or more) dies" in rules


def test_the_prince_cannot_die_001():
    assert "The Prince cannot die." in text(EVERY_SPECIAL)


def test_the_tanner_wins_by_dying_and_shares_a_win_with_the_village_001_000_cudgel():
    rules = text(EVERY_SPECIAL)
    assert "The Tanner wins only if he died. Then the werewolves cannot win; if a werewolf " \
           "died too, the village wins with him." in rules


def test_the_minion_with_no_werewolf_wins_if_neither_he_nor_the_tanner_dies_001():
    rules = text(EVERY_SPECIAL)
    assert "The Minion wins with the werewolves, even if he died." in rules
    assert "he wins if neither he nor the Tanner died" in rules


def test_artifacts_override_the_card_and_take_away_hunter_and_tanner_000():
    rules = text(EVERY_SPECIAL)
    assert "An artifact overrides the card" in rules
    assert "take away the card's own power (a Hunter's shot, a Bodyguard's protection, " \
           "a Tanner's win)" in rules
    assert "artifact" not in text(CLASSIC)


def test_only_the_cards_in_the_deck_bring_their_rules():
    rules = text(CLASSIC)
    for card in ("Hunter", "Bodyguard", "Prince", "Cursed", "Tanner", "Minion"):
        assert card not in rules


def test_with_the_curator_the_tanners_rules_hold_for_a_cudgel_000():
    """000 Cudgel of the Tanner: "You only win if you die. If you die, the werewolf
    team cannot win." A Curator deck may make a Tanner without the Tanner card."""
    deck = "werewolf werewolf seer curator villager villager".split()
    assert "The Tanner wins only if he died." in text(deck)


def test_no_copy_of_a_werewolf_where_the_deck_has_no_werewolf_card():
    deck = "doppelganger seer robber troublemaker villager villager".split()
    assert "Werewolves in this deck" not in text(deck)
