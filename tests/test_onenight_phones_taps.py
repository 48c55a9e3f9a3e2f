"""Every tap a phone is offered, for every role and every Doppelganger copy
(issue 29, item 1): each acting role's every option is either used (its
result behind the cover) or refused with a line why, and the seat chooses
again; none crashes the box and none is dropped in silence. And a copy
that acted at once is not called again at its role's own call (item 6)."""

from __future__ import annotations

import itertools

import pytest

from wolfbox.onenight.night import center_wolf_card
from wolfbox.onenight.phones import SHAPES, PhoneNight
from wolfbox.onenight.roles import ROLES

COPIES = sorted(r for r in ROLES if r != "doppelganger")
# 000 "Doppelganger and Daybreak": the copies that act at once, in her call.
ACTS_AT_ONCE = ("sentinel", "alpha_wolf", "mystic_wolf", "seer", "apprentice_seer",
                "paranormal_investigator", "robber", "witch", "troublemaker",
                "village_idiot", "drunk")


def copy_deal(copy: str) -> tuple[str, ...]:
    """Seat 1 the Doppelganger, seat 2 the card she copies; the Witch and
    the Village Idiot in the deck, so her picks offer every kind (all the
    seats, the center cards, the Idiot's two ways)."""
    others = [r for r in ("witch", "village_idiot", "villager", "tanner") if r != copy][:3]
    center = [r for r in ("seer", "drunk", "hunter", "villager") if r not in (copy, *others)]
    deal = ["doppelganger", copy, *others, *center[:3]]
    if copy == "alpha_wolf":
        deal.append(center_wolf_card(deal + ["werewolf"]))
    return tuple(deal)


def copied(copy: str) -> PhoneNight:
    night = PhoneNight(copy_deal(copy))
    night.begin("doppelganger")
    assert night.answer(1, night.task(1).step, (2,))
    assert night.copied == copy
    return night


def options(night: PhoneNight, seat: int = 1) -> list[int]:
    return [o for o, _w in night.task(seat).options]


def tap(night: PhoneNight, seat: int, choice: tuple[int, ...]) -> str:
    """'used', 'refused' or 'ignored' (taken, and nothing learned)."""
    task = night.task(seat)
    before = list(night.results.get(seat, ()))
    taken = night.answer(seat, task.step, choice)
    if not taken:
        assert night.refused.get(seat), (choice, "refused with no reason")
        assert night.refused[seat] in night.secret(seat)
        assert night.task(seat) == task, "a refused tap moved the seat on"
        return "refused"
    assert seat not in night.refused
    return "used" if night.results.get(seat, ()) != before else "ignored"


# What a copy's first pick (stage 1) and second pick (stage 2) do, as
# the rules have it (000): a pick with an action is used or refused.
FIRST_ACTS = set(ACTS_AT_ONCE) - {"troublemaker"}      # her first pick is only remembered
SECOND_ACTS = {"seer", "troublemaker", "paranormal_investigator", "witch"}


@pytest.mark.parametrize("copy", COPIES)
def test_every_option_a_copys_picks_offer_is_used_or_refused_never_dropped(copy):
    for first in options(copied(copy)):
        night = copied(copy)
        how = tap(night, 1, (first,))
        if copy not in ACTS_AT_ONCE:
            assert how == "ignored", (copy, first)   # she wakes later, or never: taps do nothing
            continue
        if copy in FIRST_ACTS:
            assert how in ("used", "refused"), (copy, first)
        if how == "refused":
            continue
        for second in options(night):
            again = copied(copy)                    # the same night again, to this pick
            tap(again, 1, (first,))
            how2 = tap(again, 1, (second,))
            needs = copy in SECOND_ACTS and not (
                copy == "seer" and first < 100) and not (
                copy == "paranormal_investigator" and "doppelganger" in night.became)
            if needs:
                assert how2 in ("used", "refused"), (copy, first, second)
            else:
                assert how2 == "ignored", (copy, first, second)


def test_a_doppelganger_witch_must_swap_with_a_player_a_center_tap_is_asked_again():
    night = copied("witch")
    assert tap(night, 1, (1,)) == "refused"                      # a seat: she looks first
    assert tap(night, 1, (301,)) == "refused"                    # the Idiot's way: no card
    assert tap(night, 1, (101,)) == "used"
    center = night.cards[night._at(101)]
    assert tap(night, 1, (102,)) == "refused"                    # a center card: no swap
    assert night.refused[1] == ("Choose the player whose card you swap it with, your own "
                                "included.")
    assert night.secret(1)[-1] == night.refused[1]
    assert tap(night, 1, (3,)) == "used"
    assert night.cards[2] == center


def test_a_doppelganger_drunk_must_take_a_center_card_a_seat_tap_is_asked_again():
    night = copied("drunk")
    assert tap(night, 1, (3,)) == "refused"
    assert night.refused[1] == "Your role needs a center card here: choose again."
    assert tap(night, 1, (302,)) == "refused"
    assert night.cards[0] == "doppelganger"
    assert tap(night, 1, (102,)) == "used"
    assert night.cards[0] != "doppelganger"


@pytest.mark.parametrize("copy", ["seer", "apprentice_seer", "witch", "drunk"])
def test_the_village_idiots_ways_offered_to_a_copy_that_needs_a_card_are_refused(copy):
    night = copied(copy)
    assert 301 in options(night) and 302 in options(night)
    assert tap(night, 1, (301,)) == "refused"
    assert tap(night, 1, (302,)) == "refused"


def every_role_deal(role: str) -> tuple[str, ...]:
    """Seat 1 the role, four more seats and the center of cards that do
    not act (a werewolf among them, for the Alpha Wolf's refusal)."""
    fill = [r for r in ("werewolf", "villager", "tanner", "hunter", "seer", "drunk",
                        "villager", "bodyguard") if r != role]
    return (role, *fill[:7]) + (("werewolf",) if role == "alpha_wolf" else ())


ACTORS = {call: role for call, role in (
    ("sentinel", "sentinel"), ("alpha_wolf", "alpha_wolf"), ("mystic_wolf", "mystic_wolf"),
    ("seer", "seer"), ("apprentice_seer", "apprentice_seer"),
    ("paranormal_investigator", "paranormal_investigator"), ("robber", "robber"),
    ("witch", "witch"), ("troublemaker", "troublemaker"), ("village_idiot", "village_idiot"),
    ("drunk", "drunk"), ("revealer", "revealer"), ("curator", "curator"))}


@pytest.mark.parametrize("call", sorted(ACTORS))
def test_every_option_a_role_is_offered_is_used_or_refused(call):
    deal = every_role_deal(ACTORS[call])
    fresh = PhoneNight(deal)
    fresh.begin(call)
    pick = fresh.task(1).pick
    for choice in itertools.permutations(options(fresh), pick):
        night = PhoneNight(deal)
        night.begin(call)
        how = tap(night, 1, choice)
        assert how in ("used", "refused"), (call, choice)
        if len(SHAPES[call]) == 2 and how == "used":
            for second in options(night):
                again = PhoneNight(deal)
                again.begin(call)
                tap(again, 1, choice)
                stopped = bool(again.became)          # he saw a werewolf: no second look
                assert tap(again, 1, (second,)) in (("ignored",) if stopped else (
                    "used", "refused")), (call, choice, second)


@pytest.mark.parametrize("copy", sorted(set(ACTS_AT_ONCE) & set(SHAPES)))
def test_a_copy_that_acted_at_once_is_not_called_again_at_its_roles_call(copy):
    """000: a copy that acts at once "does not wake up when the [role] is
    called": at that call she reads the same decoy line as everyone else,
    and her taps change nothing."""
    night = copied(copy)
    night.begin(copy)
    assert not night.acts(copy, 1)
    assert night.secret(1)[-1].startswith("Not your call"), (copy, night.secret(1))
    cards = list(night.cards)
    task = night.task(1)
    for choice in itertools.permutations(options(night), task.pick):
        assert night.answer(1, task.step, choice)
        break
    assert night.cards == cards and not night.results.get(1)


def test_a_doppelgangers_result_reads_as_her_own_not_under_another_seats_decoy():
    """Item 4: her copy done, her next pick reads as her own call, under
    what she learned; never "Not your call" at her own call."""
    night = copied("robber")
    assert tap(night, 1, (3,)) == "used"
    secret = night.secret(1)
    assert secret[1:] == ("Seat 2's card is the Robber: you are now the Robber.",
                          "You took Seat 3's card: you are now the Witch.",
                          "Your part of this call is done. Tap any choice; it changes nothing.")
    minion = copied("tanner")                              # a copy with nothing to do
    assert not any(line.startswith("Not your call") for line in minion.secret(1))
    assert minion.secret(1)[-1].startswith("Your part of this call is done.")
