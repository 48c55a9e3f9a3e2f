"""The night as pictures (issue 40, item 6): for known deals and nights,
what each picture holds. The expected seats, cards, arrows and pages are
worked out by hand from the rules (who acts when, what each move does to
the cards), not read from the code."""

from __future__ import annotations

from test_onenight_phones import START, VOTE, Table

from wolfbox.events import PhonesSeated
from wolfbox.onenight.phones import CENTER, PAIR
from wolfbox.tablemap import Arrow, MapPage, Spot
from wolfbox.view import Phase

C1, C2, C3 = CENTER + 1, CENTER + 2, CENTER + 3


def named(t: Table, names: dict[int, str]) -> None:
    """The phones say again who holds them, now with their names."""
    t.press(PhonesSeated(frozenset(range(1, t.n + 1)), tuple(sorted(names.items()))))


def vote(t: Table, votes: dict[int, int]) -> None:
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    t.until(lambda: t.f.phase is Phase.VOTE and t.task(1) is not None)
    for voter, target in votes.items():
        t.choose(voter, target)
    t.until(lambda: t.f.phase is Phase.VERDICT)


def test_five_seats_the_deal_the_night_dawn_and_the_votes():
    t = Table(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
              ["villager", "villager", "drunk"])
    named(t, {1: "Ann", 2: "Bo", 4: "Dee", 5: "Eve"})        # seat 3 gave no name
    t.press(START)
    t.call("seer")
    t.choose(2, PAIR + 12)                                   # center cards 1 and 2
    t.call("robber")
    t.choose(3, 5)                                           # takes seat 5's Werewolf
    t.call("troublemaker")
    t.choose(4, 1, 2)                                        # swaps seats 1 and 2
    assert t.f.picture() is None                             # nothing before the verdict
    vote(t, {1: 3, 2: 3, 3: 1, 4: 3, 5: 3})
    picture = t.f.picture()
    assert picture is not None
    deal, night, dawn, votes = picture.pages
    names = ("Ann", "Bo", "Seat 3", "Dee", "Eve")
    centers = (Spot(C1, "Center 1", "Villager", label="1 · Villager"),
               Spot(C2, "Center 2", "Villager", label="2 · Villager"),
               Spot(C3, "Center 3", "Drunk", label="3 · Drunk"))
    assert deal == MapPage(
        "The deal",
        tuple(Spot(n, name, card) for n, name, card in zip(
            range(1, 6), names, ("Werewolf", "Seer", "Robber", "Troublemaker", "Werewolf"),
            strict=True)),
        ())
    assert night == MapPage(
        "The night", tuple(Spot(n, name) for n, name in enumerate(names, 1)), centers,
        (Arrow("look", 2, C1, 1), Arrow("look", 2, C2, 2),      # the Seer, card by card
         Arrow("take", 5, 3, 3),                                # the Robber takes from 5
         Arrow("swap", 1, 2, 4)),                               # the Troublemaker
        (("look", "looked"), ("swap", "swapped"), ("take", "took")),
        night.notes)
    assert [n[:3] for n in night.notes] == ["1. ", "2. ", "3. ", "4. "]
    assert night.notes[3] == "4. Dee · 4 (Troublemaker) swapped the cards of Ann · 1 and Bo · 2."
    # At dawn: 1 and 2 swapped (Seer, Werewolf), 3 has 5's Werewolf, 5 the Robber.
    assert dawn == MapPage(
        "Dawn",
        (Spot(1, "Ann", "Seer"), Spot(2, "Bo", "Werewolf"),
         Spot(3, "Seat 3", "Werewolf", dead=True), Spot(4, "Dee", "Troublemaker"),
         Spot(5, "Eve", "Robber")),
        ())
    assert votes == MapPage(
        "The votes",
        tuple(Spot(n, name, dead=n == 3) for n, name in enumerate(names, 1)), centers,
        (Arrow("vote", 1, 3), Arrow("vote", 2, 3), Arrow("vote", 3, 1), Arrow("vote", 4, 3),
         Arrow("vote", 5, 3)),
        (("vote", "vote"), ("died", "died")))
    assert picture.list == tuple(t.f.table.happened())       # the list, one tap away
    assert "Seat 3 voted for Ann · 1." in picture.list
    for seat in range(1, 6):                                 # every phone, the same pictures
        assert t.f.phone_view(seat, t.now).picture == picture


def test_four_seats_two_pictures_cards_and_arrows_together():
    t = Table(["seer", "robber", "werewolf", "villager"], ["werewolf", "troublemaker",
                                                            "villager"])
    t.press(START)
    t.call("robber")
    t.choose(2, 4)                                           # takes seat 4's Villager
    vote(t, {1: 3, 2: 3, 3: 1, 4: 3})
    picture = t.f.picture()
    assert picture is not None
    deal, dawn = picture.pages
    assert (deal.title, dawn.title) == ("The deal and the night", "Dawn and the votes")
    assert [(s.name, s.card) for s in deal.seats] == [
        ("Seat 1", "Seer"), ("Seat 2", "Robber"), ("Seat 3", "Werewolf"), ("Seat 4", "Villager")]
    assert [c.card for c in deal.centers] == ["Werewolf", "Troublemaker", "Villager"]
    assert deal.arrows == (Arrow("take", 4, 2, 1),)
    assert [(s.card, s.dead) for s in dawn.seats] == [
        ("Seer", False), ("Villager", False), ("Werewolf", True), ("Robber", False)]
    assert dawn.arrows == (Arrow("vote", 1, 3), Arrow("vote", 2, 3), Arrow("vote", 3, 1),
                           Arrow("vote", 4, 3))


def test_seven_seats_four_pictures_cards_apart_from_arrows():
    """Above four seats the cards and the arrows take a picture each. The
    Witch's swap and the Village Idiot's move, every other card one place
    on, shielded none: 1→2→4→5→6→7→1, the Idiot's own seat 3 left out."""
    t = Table(["werewolf", "witch", "village_idiot", "villager", "seer", "werewolf",
               "villager"], ["tanner", "hunter", "mason"])
    t.press(START)
    t.call("seer")
    t.choose(5, 1)                                           # looks at seat 1
    t.call("witch")
    t.choose(2, C1)                                          # looks at the Tanner ...
    t.choose(2, 4)                                           # ... and gives it to seat 4
    t.call("village_idiot")
    t.choose(3, 301)                                         # every other card on: 1 → 2
    vote(t, {1: 5, 2: 5, 3: 5, 4: 5, 5: 1, 6: 5, 7: 5})
    picture = t.f.picture()
    assert picture is not None
    assert [p.title for p in picture.pages] == ["The deal", "The night", "Dawn", "The votes"]
    deal, night, dawn, votes = picture.pages
    assert [s.card for s in deal.seats] == ["Werewolf", "Witch", "Village Idiot", "Villager",
                                            "Seer", "Werewolf", "Villager"]
    assert [s.name for s in deal.seats] == [f"Seat {n}" for n in range(1, 8)]
    assert deal.arrows == deal.centers == () and votes.seats[0].card == night.seats[0].card == ""
    assert [c.card for c in night.centers] == ["Tanner", "Hunter", "Mason"]
    assert night.arrows == (
        Arrow("look", 5, 1, 1), Arrow("look", 2, C1, 2), Arrow("swap", C1, 4, 3),
        Arrow("shift", 1, 2, 4), Arrow("shift", 2, 4, 4), Arrow("shift", 4, 5, 4),
        Arrow("shift", 5, 6, 4), Arrow("shift", 6, 7, 4), Arrow("shift", 7, 1, 4))
    assert night.legend == (("look", "looked"), ("swap", "swapped"), ("shift", "moved on"))
    # Seat 4 had the Tanner before the move on; at dawn seat 5 has it, and dies.
    assert [s.card for s in dawn.seats] == ["Villager", "Werewolf", "Village Idiot", "Witch",
                                            "Tanner", "Seer", "Werewolf"]
    assert [c.card for c in votes.centers] == ["Villager", "Hunter", "Mason"]
    assert [s.place for s in dawn.seats if s.dead] == [5] == [
        s.place for s in votes.seats if s.dead]
    assert votes.arrows == tuple(Arrow("vote", v, 1 if v == 5 else 5) for v in range(1, 8))
    assert votes.legend == (("vote", "vote"), ("died", "died"))
