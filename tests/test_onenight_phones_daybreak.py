"""One Night on phones with the Daybreak and Bonus roles (issue 22), on the
fake clock: each role acts on its own phone with its result behind its
cover, the box applies it to the deal it holds in the night's order (the
shield, the center werewolf card, the Paranormal Investigator's change,
the Witch's swap, the Village Idiot's move, the Revealer's flip, the
Curator's token), every seat's task keeps one shape at every call, and
the Doppelganger's copies act as the rules say."""

from __future__ import annotations

import random

from test_onenight_phones import START, Table

from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.phones import CENTER, DOWN, PAIR, UP, WOLF_CARD
from wolfbox.view import Phase

EVERY = ["doppelganger", "sentinel", "alpha_wolf", "mystic_wolf", "minion", "apprentice_seer",
         "paranormal_investigator", "witch", "village_idiot", "aura_seer", "revealer",
         "curator", "insomniac", "dream_wolf", "drunk"]
EVERY_CENTER = ["seer", "robber", "troublemaker", "werewolf"]     # the last: the wolf card


def dawn(t: Table) -> None:
    t.until(lambda: t.f.phase is Phase.DISCUSSION)


# ---------------------------------------------------------------- the shape
def test_every_call_of_a_deck_of_every_role_gives_every_seat_one_shape():
    t = Table(EVERY, EVERY_CENTER)
    n = len(EVERY)
    allowed = set(range(1, n + 1)) | {CENTER + k for k in range(1, 5)} | {UP, DOWN} \
        | {PAIR + 10 * a + b for a in range(1, 5) for b in range(a + 1, 5)}
    t.press(START)
    seen = set()
    while t.f.phase is Phase.NIGHT:
        step = t.f.settings.night[t.f.step_index]
        if t.f.stage != "after" and step.id not in ("close_eyes", "wake_up"):
            stages = 3 if step.id == "doppelganger" else 2 if step.id in (
                "paranormal_investigator", "witch") else 1
            for _stage in range(stages):         # every stage of the call, every seat alike
                tasks = [t.task(s) for s in range(1, n + 1)]
                assert all(k is not None for k in tasks), step.id
                shapes = {(k.step, k.prompt, k.pick, len(k.options)) for k in tasks}
                assert len(shapes) == 1, (step.id, shapes)
                own = {seat in [o for o, _w in k.options] for seat, k in enumerate(tasks, 1)}
                assert len(own) == 1, step.id                 # its own seat: all or none
                assert all({o for o, _w in k.options} <= allowed for k in tasks)
                for seat, task in enumerate(tasks, 1):        # each answers from the end
                    mine = [o for o, _w in task.options if o != seat]
                    for k in range(len(mine) - task.pick, -1, -1):   # a refusal: another
                        t.press(PhoneChoice(seat, task.step, tuple(mine[k:k + task.pick])))
                        if t.task(seat) != task:
                            break
            seen.add(step.id)
        else:
            assert [t.task(s) for s in range(1, n + 1)] == [None] * n, step.id
        t.until(lambda s=(t.f.step_index, t.f.stage): (t.f.step_index, t.f.stage) != s
                or t.f.phase is not Phase.NIGHT)
    assert seen == {"sentinel", "doppelganger", "doppelganger_minion", "werewolves",
                    "alpha_wolf", "mystic_wolf", "minion", "seer", "apprentice_seer",
                    "paranormal_investigator", "robber", "witch", "troublemaker",
                    "village_idiot", "aura_seer", "doppelganger_aura_seer", "drunk",
                    "insomniac", "doppelganger_insomniac", "revealer", "doppelganger_revealer",
                    "curator", "doppelganger_curator"}


def test_every_deck_is_dealt_to_the_phones_and_an_alpha_deck_keeps_a_wolf_card_apart():
    deck = ["alpha_wolf", "mystic_wolf", "werewolf", "witch", "robber", "curator",
            "village_idiot", "sentinel"]
    for seed in range(20):
        f = Flow(RoundSettings.for_deck(deck), rng=random.Random(seed))
        f.handle(PhonesSeated(frozenset(range(1, 5))), 0.0)
        assert f.table is not None and sorted(f.table.dealt) == sorted(deck)
        assert f.table.dealt[-1] == "werewolf"           # across the center (setup notes)
        assert f.table.players == 4


# ------------------------------------------------------------ each role
def test_the_sentinel_shields_a_card_nobody_may_look_at_or_move_and_all_see_it_at_dawn():
    t = Table(["sentinel", "seer", "robber", "werewolf", "insomniac"],
              ["villager", "villager", "troublemaker"])
    t.press(START)
    t.call("sentinel")
    assert t.secret(1)[1] == "You are the Sentinel: choose another player's card to shield."
    assert t.secret(2)[1].startswith("Not your call")
    t.choose(1, 4)
    assert "You put the shield on Seat 4's card." in t.secret(1)
    t.call("seer")
    t.choose(2, 4)                                    # refused: she may choose again
    assert t.secret(2)[-1] == ("Seat 4's card has the shield: it may not be looked at or "
                               "moved. Choose another.")
    assert not any("shield" in line for s in (1, 3, 4, 5) for line in t.secret(s))
    assert t.task(2).chosen == ()
    t.choose(2, 3)
    assert "Seat 3: Robber." in t.secret(2) and "shield" not in " ".join(t.secret(2))
    t.call("robber")
    t.choose(3, 4)
    assert t.cards()[2:4] == ["robber", "werewolf"]   # not moved
    t.choose(3, 5)
    assert t.cards()[2] == "insomniac"
    dawn(t)
    for seat in range(1, 6):
        assert "Seat 4's card has the shield." in t.f.phone_view(seat, t.now).lines


def test_a_shielded_insomniac_may_not_look_at_her_card():
    t = Table(["sentinel", "insomniac", "robber", "werewolf", "villager"],
              ["villager", "seer", "troublemaker"])
    t.press(START)
    t.call("sentinel")
    t.choose(1, 2)
    t.call("insomniac")
    assert t.secret(2)[1] == ("Your card has the shield: you may not look at it. Tap any "
                              "choice; it changes nothing.")


def test_the_alpha_wolf_gives_a_non_werewolf_the_center_werewolf_card_unseen():
    t = Table(["alpha_wolf", "werewolf", "seer", "villager"],
              ["robber", "villager", "troublemaker", "mystic_wolf"])
    t.press(START)
    t.call("werewolves")
    assert "The werewolves: Seat 1 and Seat 2." in t.secret(1)[1]
    assert [o for o, _w in t.task(3).options] == [101, 102, 103, WOLF_CARD]
    t.call("alpha_wolf")
    t.choose(1, 2)                                    # a werewolf: refused
    assert t.secret(1)[-1] == "Seat 2 is a werewolf: choose a player who is not."
    t.choose(1, 3)
    assert t.cards()[2] == "mystic_wolf" and t.cards()[-1] == "seer"
    assert ("You swapped the center werewolf card with Seat 3's card, without looking."
            in t.secret(1))
    assert not any("Mystic" in line for line in t.secret(1))


def test_the_mystic_wolf_and_the_apprentice_seer_look():
    t = Table(["mystic_wolf", "apprentice_seer", "villager", "tanner"],
              ["robber", "werewolf", "seer"])
    t.press(START)
    t.call("mystic_wolf")
    t.choose(1, 4)
    assert "Seat 4: Tanner." in t.secret(1)
    t.call("apprentice_seer")
    assert [o for o, _w in t.task(2).options] == [101, 102, 103]
    t.choose(2, CENTER + 2)
    assert "Center card 2: Werewolf." in t.secret(2)
    assert not any("Werewolf." in line for line in t.secret(1))


def test_the_investigator_looks_twice_or_stops_on_a_werewolf_and_is_one_at_the_vote():
    t = Table(["paranormal_investigator", "villager", "werewolf", "seer"],
              ["robber", "villager", "troublemaker"])
    t.press(START)
    t.call("paranormal_investigator")
    t.choose(1, 2)
    assert "Seat 2: Villager." in t.secret(1)
    assert t.secret(1)[2].startswith("As the Paranormal Investigator: choose a second")
    t.choose(1, 3)
    assert t.secret(1)[-3:-1] == ("Seat 3: Werewolf.", "You stop: you are now a Werewolf.")
    dawn(t)
    game = t.f.table.game()
    assert game.players[0].became == "werewolf"
    stop = Table(["paranormal_investigator", "tanner", "werewolf", "seer"],
                 ["robber", "villager", "troublemaker"])
    stop.press(START)
    stop.call("paranormal_investigator")
    stop.choose(1, 2)
    assert "You stop: you are now a Tanner." in stop.secret(1)
    stop.choose(1, 3)                                 # stopped: he sees no more
    assert "Seat 3: Werewolf." not in stop.secret(1)


def test_the_witch_looks_at_a_center_card_and_swaps_it_with_any_player():
    t = Table(["witch", "werewolf", "villager", "seer"], ["tanner", "robber", "villager"])
    t.press(START)
    t.call("witch")
    assert [o for o, _w in t.task(2).options] == [101, 102, 103]
    t.choose(1, CENTER + 1)
    assert "Center card 1: Tanner." in t.secret(1)
    assert [o for o, _w in t.task(1).options] == [1, 2, 3, 4]    # her own card too
    t.choose(3, CENTER + 2)
    assert [o for o, _w in t.task(3).options] == [1, 2, 3, 4]    # everyone's alike
    t.choose(1, 2)
    assert t.cards()[1] == "tanner" and t.cards()[4] == "werewolf"
    assert "You swapped center card 1 with Seat 2's card." in t.secret(1)


def test_the_village_idiot_moves_every_other_unshielded_card_one_seat():
    t = Table(["sentinel", "village_idiot", "seer", "robber", "villager"],
              ["werewolf", "tanner", "troublemaker"])
    t.press(START)
    t.call("sentinel")
    t.choose(1, 4)
    t.call("village_idiot")
    assert [o for o, _w in t.task(1).options] == [UP, DOWN]
    t.choose(2, UP)
    # Seat 2 (his own) and seat 4 (shielded) stay; seats 1, 3, 5 move up, round the table.
    assert t.cards()[:5] == ["villager", "village_idiot", "sentinel", "robber", "seer"]
    assert "Every other card moved one seat to the left (1 → 2)." in t.secret(2)


def test_the_aura_seer_sees_who_looked_at_or_moved_a_card():
    t = Table(["aura_seer", "seer", "robber", "werewolf", "villager"],
              ["villager", "minion", "troublemaker"])
    t.press(START)
    t.call("seer")
    t.choose(2, 4)
    t.call("aura_seer")
    assert t.secret(1)[1] == ("You are the Aura Seer. These players looked at or moved a "
                              "card tonight: Seat 2. Tap any choice; it changes nothing.")
    assert "Seat 2" not in " ".join(t.secret(3))


def test_the_revealer_turns_a_card_up_for_all_at_dawn_but_not_a_werewolf():
    t = Table(["revealer", "seer", "werewolf", "villager"], ["robber", "villager", "tanner"])
    t.press(START)
    t.call("revealer")
    t.choose(1, 2)
    assert "Seat 2's card: Seer. It stays face up for everyone to see." in t.secret(1)
    assert not any("lies face up" in line for line in t.f.phone_view(3, t.now).lines)
    dawn(t)
    for seat in range(1, 5):
        assert "Seat 2's card lies face up: Seer." in t.f.phone_view(seat, t.now).lines
    wolf = Table(["revealer", "seer", "werewolf", "villager"], ["robber", "villager", "tanner"])
    wolf.press(START)
    wolf.call("revealer")
    wolf.choose(1, 3)
    assert "Seat 3's card: Werewolf. You turned it face down again." in wolf.secret(1)
    dawn(wolf)
    assert not any("lies face up" in line for line in wolf.f.phone_view(2, wolf.now).lines)


def test_the_curators_token_is_read_by_its_holder_alone_and_counts_at_the_vote():
    t = Table(["curator", "seer", "werewolf", "villager", "villager"],
              ["robber", "troublemaker", "drunk"])
    t.press(START)
    t.call("curator")
    assert [o for o, _w in t.task(2).options] == [1, 2, 3, 4, 5]
    t.choose(1, 2)                                    # the first token of the pile: the claw
    assert "You put an artifact token face down on Seat 2's card." in t.secret(1)
    assert not any("Claw" in line for line in t.secret(1))
    dawn(t)
    assert t.secret(2)[-1] == ("An artifact token lies on your card: the Claw of the "
                               "Werewolf. You are now a Werewolf.")
    assert not any("Claw" in line for s in (1, 3, 4, 5) for line in t.secret(s))
    assert "Seat 2's card has an artifact token on it." in t.f.phone_view(4, t.now).lines
    t.until(lambda: t.f.phase is Phase.VOTE)
    for voter in (1, 3, 4, 5):
        t.choose(voter, 2)
    t.until(lambda: t.f.phase is Phase.VERDICT)
    assert t.f.verdict is not None and t.f.verdict.teams == ("village",)   # a werewolf died
    assert "Seat 1 (Curator) put the Claw of the Werewolf on Seat 2's card." \
        in t.f.table.happened()


def test_the_dream_wolf_sleeps_and_a_wolf_who_sees_his_thumb_is_not_alone():
    t = Table(["werewolf", "dream_wolf", "seer", "minion"], ["robber", "villager", "drunk"])
    t.press(START)
    t.call("werewolves")
    assert t.secret(1)[1] == ("The werewolves: Seat 1 and Seat 2. Tap any choice; it changes "
                              "nothing.")
    assert t.secret(2)[1].startswith("You are the Dream Wolf")
    t.choose(1, CENTER + 1)
    assert not any("Center card 1" in line for line in t.secret(1))
    t.call("minion")
    assert "The werewolves: Seat 1 and Seat 2." in t.secret(4)[1]


# ------------------------------------------------------- the Doppelganger
def doppel(seats: list[str], center: list[str], *picks: int) -> Table:
    t = Table(seats, center)
    t.press(START)
    t.call("doppelganger")
    for pick in picks:
        t.choose(1, pick)
    return t


def test_the_doppelganger_sentinel_mystic_apprentice_and_idiot_act_at_once():
    t = doppel(["doppelganger", "sentinel", "seer", "robber", "werewolf"],
               ["villager", "villager", "troublemaker"], 2, 3)
    assert t.f.table.shields == [3] and "You put the shield on Seat 3's card." in t.secret(1)
    t = doppel(["doppelganger", "mystic_wolf", "seer", "werewolf"],
               ["villager", "robber", "troublemaker"], 2, 3)
    assert "Seat 3: Seer." in t.secret(1)
    t.call("werewolves")                              # and she wakes with the werewolves
    assert "Seat 1, Seat 2 and Seat 4" in t.secret(1)[1]
    t = doppel(["doppelganger", "apprentice_seer", "seer", "werewolf"],
               ["villager", "robber", "troublemaker"], 2, CENTER + 2)
    assert "Center card 2: Robber." in t.secret(1)
    t = doppel(["doppelganger", "village_idiot", "seer", "werewolf"],
               ["villager", "robber", "troublemaker"], 2, DOWN)
    assert t.cards()[:4] == ["doppelganger", "seer", "werewolf", "village_idiot"]


def test_the_doppelganger_alpha_wolf_investigator_and_witch_act_at_once():
    t = doppel(["doppelganger", "alpha_wolf", "seer", "villager"],
               ["robber", "villager", "troublemaker", "werewolf"], 2, 2)
    assert t.secret(1)[-1] == "Seat 2 is a werewolf: choose a player who is not."
    t.choose(1, 3)
    assert t.cards()[2] == "werewolf" and t.cards()[-1] == "seer"
    t.call("alpha_wolf")                              # the Alpha's own call still comes
    assert t.secret(1)[1].startswith("Not your call")
    t = doppel(["doppelganger", "paranormal_investigator", "werewolf", "seer"],
               ["robber", "villager", "troublemaker"], 2, 3, 4)
    assert "You stop: you are now a Werewolf." in t.secret(1)
    assert "Seat 4: Seer." not in t.secret(1)
    assert t.f.table.game().players[0].became == "werewolf"
    t = doppel(["doppelganger", "witch", "seer", "villager"],
               ["tanner", "robber", "troublemaker"], 2, CENTER + 1, 1)
    assert t.cards()[0] == "tanner" and t.cards()[4] == "doppelganger"
    assert "You took center card 1: you are now the Tanner." in t.secret(1)


def test_the_doppelganger_revealer_curator_and_aura_seer_wake_after_theirs():
    t = doppel(["doppelganger", "revealer", "curator", "aura_seer", "seer"],
               ["villager", "werewolf", "troublemaker"], 2)
    t.call("revealer")
    assert t.secret(1)[1].startswith("Not your call")
    t.call("doppelganger_revealer")
    assert t.secret(1)[1].startswith("You are the Revealer")
    t.choose(1, 5)
    assert t.f.table.revealed == {5: "seer"}
    t = doppel(["doppelganger", "revealer", "curator", "aura_seer", "seer"],
               ["villager", "werewolf", "troublemaker"], 3)
    t.call("curator")
    t.choose(3, 4)
    t.call("doppelganger_curator")
    t.choose(1, 4)                                    # a token there already: refused
    assert t.secret(1)[-1] == "Seat 4's card has a token already: choose another."
    t.choose(1, 5)
    assert t.f.table.artifacts == {4: "claw", 5: "brand"}
    t = doppel(["doppelganger", "revealer", "curator", "aura_seer", "seer"],
               ["villager", "werewolf", "troublemaker"], 4)
    t.call("doppelganger_aura_seer")
    assert "looked at or moved a card tonight: Seat 1" not in t.secret(1)[1]   # only herself
    assert t.secret(1)[1].startswith("You are the Aura Seer. Nobody else")


def test_a_robber_or_drunk_whose_own_card_has_the_shield_is_told_once_it_cannot_act():
    """Issue 42.5: every tap was "Seat 2's card has the shield ... Choose
    another", though no other choice could work. Its answer is taken once,
    with why behind its cover, and its part of the call is done; nothing
    moves, and what happened says so."""
    for role, target in (("robber", 3), ("drunk", CENTER + 1)):
        t = Table(["sentinel", role, "werewolf", "villager"], ["seer", "tanner", "villager"])
        t.press(START)
        t.call("sentinel")
        t.choose(1, 2)                                    # the shield on the Robber's card
        t.call(role)
        before = t.cards()
        t.choose(2, target)
        assert t.task(2).chosen                           # answered: nothing more to tap
        shown = t.secret(2)
        assert "Your own card has the shield: it may not move, so you cannot act tonight." \
            in shown
        assert not any("Choose another" in line for line in shown)
        assert t.cards() == before
        dawn(t)
        happened = t.f.table.moves
        assert any("could not act: their own card had the shield" in m for m in happened), role


def test_a_witch_who_looked_but_never_swapped_is_said_so_in_what_happened():
    """Issue 42.6: the call ended between her look and her swap; no answer
    is no action, and what happened says she did not swap."""
    t = Table(["witch", "werewolf", "villager", "seer"], ["tanner", "robber", "villager"])
    t.press(START)
    t.call("witch")
    t.choose(1, CENTER + 1)                               # she looks ...
    before = t.cards()
    dawn(t)                                               # ... and the call ends
    assert t.cards() == before
    moves = t.f.table.moves
    looked = next(i for i, m in enumerate(moves) if "looked at center card 1" in m)
    assert "looked but did not swap: the call ended first." in moves[looked + 1]
    assert "You did not swap in time: the card stays in the center." in t.secret(1)


def test_the_moves_that_moved_nothing_are_in_the_nights_picture_without_an_arrow():
    from wolfbox.onenight.nightmap import _night_arrows
    t = Table(["sentinel", "robber", "witch", "villager"], ["seer", "tanner", "villager"])
    t.press(START)
    t.call("sentinel")
    t.choose(1, 2)
    t.call("robber")
    t.choose(2, 3)                                        # shielded: nothing moves
    t.call("witch")
    t.choose(3, CENTER + 1)                               # looks, never swaps
    dawn(t)
    arrows, notes = _night_arrows(t.f.table)
    assert [a.number for a in arrows] == [1, 2]           # the shield, the look
    assert notes[1].endswith("could not act: their own card had the shield.")
    assert not notes[1][0].isdigit() and notes[-1].endswith("the call ended first.")
