"""Names, not numbers, where players read (issue 40, item 5): a seat whose
player gave a name on its phone is called by it ("Ann · 3") wherever a
seat is named to the table, on the phones and on the box: One Night's
results, partners, verdict and what happened; the timed game's partner,
marks, messages and end; the Mayor's dead and book. A seat without a name
stays "Seat N"; spoken lines keep the number (the voice is rendered ahead)."""

from __future__ import annotations

import random

from test_mayor_phones import PLAYERS as MAYOR_PLAYERS
from test_mayor_phones import table as mayor_table
from test_newd3_game import Table as TimedTable
from test_newd3_game import saved as timed_saved
from test_onenight_phones import START, VOTE, Table, base5
from test_onenight_phones_own_cards import DECK as OWN_DECK
from test_onenight_phones_own_cards import OwnTable
from test_onenight_phones_own_cards import card as own_card
from test_timed_phones import A1, C3, phone, play, tap, to

from wolfbox.buttons import Button
from wolfbox.effects import Say
from wolfbox.events import PhonesSeated
from wolfbox.newd3.game import Game as TimedGame
from wolfbox.newd3.game import Stage as TimedStage
from wolfbox.newd3.turns import Kind
from wolfbox.onenight import saved
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.view import Phase

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}          # seat 5 typed no name


def named_table() -> Table:
    t = base5()                       # 1 Werewolf, 2 Seer, 3 Robber, 4 Troublemaker, 5 Werewolf
    t.press(PhonesSeated(frozenset(range(1, 6)), tuple(NAMES.items())))
    return t


def shown(t: Table, seat: int) -> str:
    view = t.f.phone_view(seat, t.now)
    return "\n".join((view.title, view.big, *view.lines, *view.secret))


# ================================================================ One Night
def test_one_night_names_the_players_in_what_each_learns():
    t = named_table()
    t.press(START)
    t.call("werewolves")
    assert "The werewolves: Ann · 1 and Seat 5. Tap any choice; it changes nothing." \
        in t.secret(1)
    t.everyone_else(set())
    t.call("robber")
    t.choose(3, 1)
    assert "You took Ann · 1's card: you are now the Werewolf." in t.secret(3)
    t.call("troublemaker")
    t.choose(4, 2, 5)
    assert "You swapped the cards of Bo · 2 and Seat 5." in t.secret(4)


def test_one_night_names_the_players_in_the_verdict_and_what_happened_on_phones_and_box():
    t = named_table()
    t.press(START)
    t.call("robber")
    t.choose(3, 5)                                    # the Robber takes Seat 5's Werewolf
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    for voter, target in ((1, 3), (2, 3), (4, 1), (5, 3)):
        t.choose(voter, target)
    t.until(lambda: t.f.phase is Phase.VERDICT)
    t.until(lambda: not t.f._to_say and t.f.speech.line is None)
    view = t.f.phone_view(2, t.now)
    assert view.picture is not None                   # what happened: one tap from the pictures
    phone = view.lines + view.picture.list
    assert phone[:2] == ("Cy · 3 dies.", "The village wins.")
    assert "The most votes (3) went to Cy · 3 (Werewolf), who dies." in phone
    assert "Cy · 3 (Robber) swapped cards with Seat 5 and took the Werewolf." in phone
    assert "Ann · 1 was dealt the Werewolf." in phone and "Seat 5 was dealt the Werewolf." in phone
    assert "At dawn Cy · 3 has the Werewolf." in phone
    assert "Di · 4 voted for Ann · 1." in phone and "Seat 5 voted for Cy · 3." in phone
    box = [line for page in t.f.verdict_pages() for line in page]
    assert "The most votes (3) went to Cy · 3 (Werewolf), who dies." in box
    assert "Cy · 3 (Robber) swapped cards with Seat 5 and took the Werewolf." in box
    said = [text for _when, text in t.said]
    assert "Seat 3 dies." in said and not any("Cy ·" in line for line in said)   # the voice


def test_one_night_keeps_the_names_through_a_power_cut_and_a_phone_gone():
    t = named_table()
    t.press(START)
    t.call("robber")
    t.choose(3, 5)
    state = t.f.saves.state
    assert state
    back = Flow(RoundSettings.for_deck(t.dealt), rng=random.Random(1))
    back.restore(state)
    back.handle(START, 0.0)                           # yes: resume
    assert back.table is not None
    assert "Cy · 3 (Robber) swapped cards with Seat 5 and took the Werewolf." in back.table.moves
    # A phone that drops during the round keeps its name to the verdict.
    t.press(PhonesSeated(frozenset({2, 3, 4, 5}), ((2, "Bo"), (3, "Cy"), (4, "Di"))))
    assert t.f.table is not None and t.f.table.names[1] == "Ann"


def test_a_name_never_reaches_the_voice():
    t = named_table()
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    effects_said = [e.text for e in t.f.handle(VOTE, t.now) if isinstance(e, Say)]
    assert effects_said
    assert not any(f"{name} ·" in line for line in effects_said for name in NAMES.values())


def test_the_saved_round_reads_names_and_refuses_nonsense():
    t = named_table()
    state = dict(t.f.saves.state or {})
    assert state["table"]["names"] == {"1": "Ann", "2": "Bo", "3": "Cy", "4": "Di"}
    state["table"] = {**state["table"], "names": {"1": 3}}
    try:
        saved.read(state, RoundSettings.for_deck(t.dealt).options)
    except saved.CannotResume:
        pass
    else:
        raise AssertionError("a name that is not text was taken")


# ============================================================ the timed game
TIMED_NAMES = ((1, "Ann"), (2, "Bo"), (3, "Cy"), (5, "Eve"))


def timed_night(seats: list[str]) -> TimedTable:
    game = TimedGame.from_dict(timed_saved("night", seats, (), 1), rng=random.Random(0))
    t = TimedTable(game)
    t.press(PhonesSeated(frozenset(range(1, 10)), TIMED_NAMES))
    t.tap(Button.START)
    assert t.g.stage is TimedStage.NIGHT
    return t


def test_the_timed_game_names_partners_messages_and_the_end():
    t = timed_night(A1)                        # 1 Wolf, 2 Alchemist, 3 Seer, 4 Guard
    play(t, {1: (5, 1), 2: (5,)}, {3: 1})
    assert phone(t, 3).secret[:2] == ("Wolf", "Ann · 1 is on the Wolves' side.")
    t.until(lambda: t.g.stage is TimedStage.DAWN)
    assert "Your partner: Bo · 2, Alchemist" in phone(t, 1).secret
    assert "Your partner: Ann · 1, Wolf" in phone(t, 2).secret
    end = t.g.end_items()
    assert "Ann · 1: Wolf, Wolves" in end and "Seat 4: Guard, Town" in end
    said = [text for _at, text in t.said]
    assert said and not any(f"{name} ·" in line for line in said for _s, name in TIMED_NAMES)


def test_the_timed_game_names_the_partner_in_the_wolves_plot_and_the_kill():
    t = timed_night(C3)                        # 1 and 5 Nobles, 2 and 7 Wolves
    to(t, Kind.PLOT)
    tap(t, 2, 3)
    tap(t, 7, 3)
    assert "Bo · 2, your partner: victim: Cy · 3 · knife: –" in phone(t, 7).secret
    assert "Seat 7, your partner: victim: Cy · 3 · knife: –" in phone(t, 2).secret
    tap(t, 2, 2)
    to(t, Kind.ACT)
    assert "Tonight's kill: Cy · 3; the knife: Bo · 2." in phone(t, 7).secret


# ============================================================ the Mayor's game
def test_the_mayors_game_names_the_dead_and_the_book():
    t = mayor_table(MAYOR_PLAYERS | {8})
    t.press(PhonesSeated(frozenset(MAYOR_PLAYERS | {8}), ((4, "Di"), (7, "Gus"), (8, "Mia"))))
    t.press(START)
    t.lovers_to_dawn()
    t.death(7, "werewolf")                            # the card its phone holds
    assert "Dead: Gus · 7 (Werewolf)" in t.g.phone_view(1, t.now).lines
    assert "Night 1: Gus · 7 died (Werewolf)." in [
        line for page in t.g.book_pages() for line in page]
    # A phone let go of during the game: its seat keeps its name in the book.
    t.press(PhonesSeated(frozenset(MAYOR_PLAYERS | {8}) - {7}, ((4, "Di"), (8, "Mia"))))
    assert "Night 1: Gus · 7 died (Werewolf)." in t.g.book_pages()[0]


def test_one_night_names_the_players_in_the_next_round_too():
    """The next round is dealt as the verdict is left: its night names the
    players as the first did, with no phone joining again."""
    t = named_table()
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    t.until(lambda: t.f.phase is Phase.VERDICT)
    t.until(lambda: not t.f._to_say and t.f.speech.line is None)
    t.press(START)                                    # Done: the next round is dealt
    assert t.f.phase is Phase.IDLE and t.f.table is not None and not t.f.table.started
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    t.until(lambda: t.f.phase is Phase.VERDICT)
    view = t.f.phone_view(5, t.now)
    assert view.picture is not None
    lines = view.lines + view.picture.list
    for seat, name in NAMES.items():
        assert any(line.startswith(f"{name} · {seat} was dealt the ") for line in lines)
    assert any(line.startswith("Seat 5 was dealt the ") for line in lines)


def test_one_night_on_the_tables_own_cards_names_the_players_too():
    t = OwnTable(OWN_DECK)
    t.press(PhonesSeated(frozenset(range(1, 6)), tuple(NAMES.items())))
    t.press(START)
    t.vote({1: 2, 2: 1, 3: 1, 4: 1, 5: 1})
    for seat, role in ((1, "seer"), (2, "seer"), (3, "villager"), (4, "robber"),
                       (5, "drunk")):
        t.choose(seat, own_card(role))
    assert "Ann · 1 and Bo · 2 entered the Seer, but the deck has only 1: enter again." \
        in t.f.view(t.now).details
    t.choose(1, own_card("werewolf"))
    t.choose(2, own_card("seer"))
    assert t.view(3).lines[:2] == ("Ann · 1 dies.", "The village wins.")
    assert "The most votes (4) went to Ann · 1 (Werewolf), who dies." in t.view(3).lines
