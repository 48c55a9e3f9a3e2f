"""Entering a finished game on the box for the referee: the questions, their
defaults, corrections, and the whole thing driven through the flow."""

from __future__ import annotations

import pytest

from wolfbox.buttons import GAME_BUTTONS, Tap
from wolfbox.effects import Say
from wolfbox.onenight.entry import ARTIFACT, ARTIFACT_SEAT, AS, BECAME, CARD, NONE, VOTE, Entry
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.presets import PRESETS
from wolfbox.view import Phase

START, VOTE_B, NEXT, BACK = (Tap(b) for b in GAME_BUTTONS)
CLASSIC_5 = tuple(PRESETS["classic_5"].deck(5))


def answer(e: Entry, value: object) -> int:
    """Pick `value` the short way round, then OK; the presses it took."""
    q = e.current()
    i, j = q.options.index(e.choice), q.options.index(value)
    forward, backward = (j - i) % len(q.options), (i - j) % len(q.options)
    for _ in range(min(forward, backward)):
        e.turn(+1 if forward <= backward else -1)
    assert e.choice == value
    e.confirm()
    return min(forward, backward) + 1


def test_a_five_player_classic_game_needs_few_presses():
    """The README's figure: this game takes 16 presses to enter (plus one to
    open the referee): 10 answers, 6 of them changed from the default."""
    e = Entry(CLASSIC_5, 5)
    cards = ["werewolf", "seer", "villager", "troublemaker", "robber"]
    votes = [2, 1, 1, 1, 1]
    presses = 0
    for card, vote in zip(cards, votes, strict=True):
        presses += answer(e, card)
        presses += answer(e, vote)
    assert e.done
    assert presses == 16
    verdict = e.verdict()
    assert verdict.dead == (1,) and verdict.teams == ("village",)


def test_every_default_is_a_circle_and_the_commonest_cards_left():
    e = Entry(CLASSIC_5, 5)
    while not e.done:
        e.confirm()
    game = e.game()
    # The card with most copies left, the deck's order breaking ties: Villager (3),
    # Werewolf (2 against 2), Villager (2), Werewolf (1 each: first), Seer.
    assert [p.card for p in game.players] == ["villager", "werewolf", "villager", "werewolf",
                                              "seer"]
    assert [p.vote for p in game.players] == [2, 3, 4, 5, 1]
    assert e.verdict().dead == ()                        # a circle: nobody dies


def test_cards_already_placed_are_not_offered_again():
    e = Entry(CLASSIC_5, 5)
    answer(e, "seer")
    answer(e, 2)
    assert "seer" not in e.current().options            # there is one Seer card
    assert e.current().options.count("werewolf") == 1
    answer(e, "werewolf")
    answer(e, 1)
    answer(e, "werewolf")
    answer(e, 1)
    assert "werewolf" not in e.current().options         # both werewolves are placed


def test_a_vote_defaults_to_the_seat_the_player_before_pointed_at():
    e = Entry(CLASSIC_5, 5)
    answer(e, "villager")
    assert e.current().kind == VOTE and e.choice == 2   # seat 1: clockwise
    answer(e, 4)
    answer(e, "villager")
    assert e.choice == 4                                # seat 2: as seat 1 did
    assert 2 not in e.current().options                 # never oneself


def test_the_doppelganger_and_the_investigator_are_asked_what_they_became():
    deck = ("doppelganger", "paranormal_investigator", "werewolf", "hunter", "seer", "villager")
    e = Entry(deck, 3)
    answer(e, "doppelganger")
    assert e.current().kind == AS and "doppelganger" not in e.current().options
    answer(e, "hunter")
    answer(e, 2)
    answer(e, "paranormal_investigator")
    # 000: he may become a werewolf or the Tanner; this deck has no Tanner to see.
    assert e.current().kind == BECAME and e.current().options == ("", "werewolf")
    answer(e, "werewolf")
    answer(e, 1)
    answer(e, "villager")
    answer(e, 1)
    game = e.game()
    assert game.players[0].became == "hunter" and game.players[1].became == "werewolf"
    assert game.players[2].became is None


def test_artifacts_are_asked_only_with_the_curator():
    assert all(q.kind not in (ARTIFACT_SEAT, ARTIFACT) for q in Entry(CLASSIC_5, 5).questions())
    deck = ("curator", "werewolf", "werewolf", "seer", "villager", "villager")
    e = Entry(deck, 3)
    for card, vote in (("curator", 2), ("werewolf", 1), ("villager", 1)):
        answer(e, card)
        answer(e, vote)
    assert e.current().kind == ARTIFACT_SEAT and e.choice == NONE
    answer(e, 3)
    assert e.current().kind == ARTIFACT
    answer(e, "claw")
    assert e.done                                       # no Doppelganger: one token only
    assert e.game().artifacts == {3: "claw"}
    assert 3 in e.verdict().winners or e.verdict().dead == (1,)


def test_back_shows_the_answer_given_and_lets_it_be_changed():
    e = Entry(CLASSIC_5, 5)
    answer(e, "seer")
    assert e.back() and e.current().kind == CARD and e.choice == "seer"
    e.turn(+1)
    e.confirm()
    assert e.answers[(CARD, 1)] != "seer"
    assert e.back() and e.back() is False               # the first question


# ------------------------------------------------------------ through the flow
def at_reveal(deck=CLASSIC_5) -> tuple[Flow, float]:
    flow = Flow(RoundSettings.for_deck(deck))
    flow.handle(START, 0.0)
    now = 0.0
    flow.handle(VOTE_B, 0.0)                             # vote at night: wake, then vote
    while flow.phase is not Phase.REVEAL:
        now = flow.next_change(now)
        flow.tick(now)
    return flow, now


def test_the_referee_on_the_box_says_and_shows_the_verdict():
    flow, now = at_reveal()
    assert dict(flow.view(now).legend)[VOTE_B.button] == "Referee"
    flow.handle(VOTE_B, now)
    view = flow.view(now)
    assert view.phase is Phase.REFEREE and view.title == "Referee · 1/10"
    assert view.details[0] == "Seat 1: which card lies in front of this player?"
    assert "Seat 1 faces the screen" in view.details[1]
    assert view.big == "Villager"
    flow.handle(NEXT, now)                               # Werewolf (from Villager, round)
    assert flow.view(now).big == "Werewolf"
    flow.handle(START, now)
    for _ in range(8):                                   # the rest as offered...
        flow.handle(START, now)
    assert flow.view(now).title == "Referee · 10/10"
    # The defaults point each seat at the next (a circle); seat 5 turns from seat 1
    # to seat 4, who then has two votes.
    flow.handle(VOTE_B, now)
    assert flow.view(now).big == "Seat 4"
    effects = flow.handle(START, now)
    assert flow.phase is Phase.VERDICT
    said = [e.text for e in effects if isinstance(e, Say)]
    assert said == ["Seat 4 dies."]                      # then the rest, line by line
    while flow.clock is not None:
        now = flow.next_change(now)
        said += [e.text for e in flow.tick(now) if isinstance(e, Say)]
    assert said[-1] in ("The village wins.", "The werewolves win.")
    view = flow.view(now)
    assert view.title.startswith("Verdict")
    assert any("dies" in line for line in view.details)


def test_correct_goes_back_to_the_last_answer_and_done_ends():
    flow, now = at_reveal()
    flow.handle(VOTE_B, now)
    for _ in range(10):
        flow.handle(START, now)
    assert flow.phase is Phase.VERDICT
    flow.handle(BACK, now)                               # Correct
    assert flow.phase is Phase.REFEREE and flow.view(now).title == "Referee · 10/10"
    flow.handle(START, now)
    assert flow.phase is Phase.VERDICT
    flow.handle(START, now)                              # Done
    assert flow.phase is Phase.IDLE
    flow.handle(START, 1000.0)                           # a new round starts afresh
    assert flow.entry is None


@pytest.mark.parametrize("deck", [CLASSIC_5, tuple(PRESETS["total_chaos"].deck(6))])
def test_every_default_gives_a_verdict_for_any_deck(deck):
    flow, now = at_reveal(deck)
    flow.handle(VOTE_B, now)
    for _ in range(40):
        if flow.phase is Phase.VERDICT:
            break
        flow.handle(START, now)
    assert flow.phase is Phase.VERDICT
    assert flow.verdict is not None and flow.verdict.why


def test_a_doppelganger_who_copied_the_investigator_is_asked_what_she_became_000():
    """000: "Doppelganger-P.I. ... If she sees a werewolf she must stop, and then she
    becomes a werewolf." """
    deck = ("doppelganger", "paranormal_investigator", "werewolf", "tanner", "seer", "villager")
    e = Entry(deck, 3)
    answer(e, "doppelganger")
    answer(e, "paranormal_investigator")
    assert e.current().kind == BECAME and e.current().options == ("", "werewolf", "tanner")
    answer(e, "werewolf")
    answer(e, 2)
    answer(e, "villager")
    answer(e, 1)
    answer(e, "seer")
    answer(e, 1)
    assert e.game().players[0].became == "werewolf"
    assert e.verdict().dead == (1,) and e.verdict().teams == ("village",)


def test_two_artifacts_with_a_doppelganger_never_share_a_seat_or_a_token():
    deck = ("doppelganger", "curator", "werewolf", "werewolf", "seer", "villager")
    e = Entry(deck, 3)
    for card, vote in (("curator", 2), ("werewolf", 1), ("villager", 1)):
        answer(e, card)
        answer(e, vote)
    answer(e, 2)
    answer(e, "claw")
    assert e.current().kind == ARTIFACT_SEAT and 2 not in e.current().options
    answer(e, 3)
    assert "claw" not in e.current().options
    answer(e, "brand")
    assert e.done and e.game().artifacts == {2: "claw", 3: "brand"}
