"""The Doppelganger's copy is asked from the role's own row (prompts.py):
its second pick only after a first pick of the kind that calls for one,
and her part done otherwise; the role's own player is asked from the same
row."""

from __future__ import annotations

import pytest
from test_onenight_phones import Table

from wolfbox.buttons import Button, Tap
from wolfbox.onenight.phones import CENTER

START = Tap(Button.START)
DONE = "Your part of this call is done. Tap any choice; it changes nothing."


def _copying(role: str) -> Table:
    t = Table(["doppelganger", role, "werewolf", "villager", "villager"],
              ["troublemaker", "drunk", "werewolf"])
    t.press(START)
    t.call("doppelganger")
    t.choose(1, 2)
    return t


@pytest.mark.parametrize("role, first, then", [
    ("seer", CENTER + 1, "As the Seer: choose a second center card to look at."),
    ("seer", 3, DONE),
    ("witch", CENTER + 2, "Now choose the player whose card you swap it with, your own "
                          "included."),
    ("troublemaker", 3, "As the Troublemaker: choose the second player."),
    ("paranormal_investigator", 4, "As the Paranormal Investigator: choose a second "
                                   "player's card to look at."),
    ("robber", 4, DONE),
    ("drunk", CENTER + 1, DONE),
])
def test_a_copy_is_asked_again_only_after_the_pick_that_calls_for_it(role, first, then):
    t = _copying(role)
    t.choose(1, first)
    assert t.secret(1)[-1] == then


@pytest.mark.parametrize("role, asked", [
    ("revealer", DONE),                     # she wakes at her own call later
    ("curator", DONE),
    ("insomniac", DONE),
    ("sentinel", "As the Sentinel: choose another player's card to shield."),
    ("village_idiot", "As the Village Idiot: choose which way every other player's card "
                      "moves one seat (shielded cards stay)."),
])
def test_a_copy_is_asked_its_first_pick_only_if_it_acts_at_once(role, asked):
    assert _copying(role).secret(1)[-1] == asked


def test_the_own_card_is_asked_from_the_same_row_step_by_step():
    t = Table(["witch", "seer", "werewolf", "villager", "villager"],
              ["troublemaker", "drunk", "werewolf"])
    t.press(START)
    t.call("witch")
    assert t.secret(1)[-1] == ("You are the Witch: choose a center card to look at; then you "
                               "must swap it with a player's card.")
    t.choose(1, CENTER + 1)
    assert t.secret(1)[-1] == ("Now choose the player whose card you swap it with, your own "
                               "included.")
