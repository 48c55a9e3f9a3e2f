"""The phones' own screen on the box (issue 22): opened with a hold of BACK
from any game's start or setup screen while phones are on; it shows the
join card with room for the code, walks the seats that hold a phone, and
frees one with a hold of VOTE (never a tap), sending that phone back to
the list of seats."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pygame
import pytest
from test_device_render import SIZES, check
from test_join_card import CARD
from test_phones_box import box_hears, join, join_details, receive

from helpers import LANGS, phones_config
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as MayorGame
from wolfbox.device.render import Painter
from wolfbox.effects import FreeSeat
from wolfbox.events import PhonesSeated
from wolfbox.games import Games
from wolfbox.i18n import speaking
from wolfbox.join_screen import JoinScreen
from wolfbox.newd3.game import Game as TimedGame
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.roster import setup_holds_note
from wolfbox.view import Phase

HOLD = 2.0           # longer than any hold time the box uses


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    pygame.display.init()
    pygame.font.init()
    yield Painter()


def test_the_screen_walks_the_seated_and_frees_only_on_a_hold():
    screen = JoinScreen()
    seated = frozenset({2, 5, 7})
    screen.show(seated)
    shown = screen.view(PhonesSeated(seated, ((2, "Ann"), (5, "Bo"))), "One Night")
    assert (shown.big, shown.details[:2]) == ("Seat 2", ("Phones", "Ann"))
    assert screen.handle(Tap(Button.BACK), seated) == []
    assert screen.seat == 7                                       # round the table
    screen.handle(Tap(Button.NEXT), seated)
    assert screen.seat == 2
    assert screen.handle(Tap(Button.VOTE), seated) == []          # a tap frees nobody
    assert screen.handle(Hold(Button.VOTE), seated) == []         # a first hold asks
    assert "Hold VOTE again to free seat 2" in screen.view(PhonesSeated(seated), "x").details[1]
    screen.handle(Tap(Button.NEXT), seated)                       # another press: it lapses
    screen.handle(Tap(Button.BACK), seated)
    assert screen.handle(Hold(Button.VOTE), seated) == []
    assert screen.handle(Hold(Button.VOTE), seated) == [FreeSeat(2)]   # the second frees
    assert screen.seat == 5                                       # on to the next
    assert screen.view(PhonesSeated(frozenset({5})), "x").big == "Seat 5"
    empty = screen.view(PhonesSeated(frozenset()), "x")
    assert empty.big == "" and empty.holds == ()                  # nothing to free
    assert screen.handle(Hold(Button.VOTE), frozenset()) == []
    screen.handle(Tap(Button.START), frozenset())
    assert not screen.open


@pytest.mark.parametrize("game", ["one_night", "dark_arts", "newd3"])
def test_every_start_screen_offers_it_only_while_phones_are_on(tmp_path, pilots, game):
    off = pilots.start(phones_config(tmp_path / "off", game, on=False))
    off.settle()
    assert off.view.footer == setup_holds_note(game)
    assert Button.START not in dict(off.view.holds)
    off.press(Button.BACK, hold=HOLD)                             # phones off: no screen
    assert off.view.phase is not Phase.SETTINGS
    pilot = pilots.start(phones_config(tmp_path / "on", game))
    pilot.settle()
    assert pilot.view.footer == setup_holds_note(game, phones=True)
    pilot.press(Button.BACK, hold=HOLD)
    assert pilot.view.phase is Phase.SETTINGS and pilot.view.details[0] == "Phones"
    assert pilot.view.join is not None                            # the card, with its code
    pilot.press(Button.START)                                     # done: back, no game begun
    assert pilot.view.footer == setup_holds_note(game, phones=True)


def test_with_phones_on_the_footer_says_each_of_its_three_buttons_is_held():
    """A tap of VOTE adds a player and a tap of START begins: the footer
    must not read as if only NEXT were held (a newcomer read it so)."""
    with speaking("en"):
        assert setup_holds_note("one_night", phones=True) == \
            "Hold: NEXT settings, VOTE Werewolf with a Mayor, START phones."
        assert setup_holds_note("one_night") == \
            "Hold NEXT: settings. Hold VOTE: Werewolf with a Mayor."


def test_a_seat_freed_on_the_box_sends_its_phone_back_to_the_seats(tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path))
    url, pin = join_details(pilot)
    with join(url, pin, 1, "Ann") as ann, join(url, pin, 3, "Bo") as bo:
        pilot.settle()
        assert pilot.view.join.seated == ((1, "Ann"), (3, "Bo"))
        pilot.press(Button.BACK, hold=HOLD)
        assert pilot.view.big == "Seat 1"
        pilot.press(Button.NEXT)
        assert (pilot.view.big, pilot.view.details[1]) == ("Seat 3", "Bo")
        pilot.press(Button.VOTE)                                  # a tap: nothing happens
        pilot.settle()
        assert pilot.view.join.seated == ((1, "Ann"), (3, "Bo"))
        pilot.press(Button.VOTE, hold=HOLD)                       # a hold asks ...
        pilot.press(Button.VOTE, hold=HOLD)                       # ... and the next frees seat 3
        # The box hears it from the server's thread; a lobby Bo was sent
        # before it joined may still be waiting in its socket, so the
        # lobby is read only once the box has heard.
        box_hears(pilot, lambda: pilot.view.join.seated == ((1, "Ann"),))
        lobby = receive(bo, "lobby")
        assert lobby["taken"] == {"1": ""}
        assert pilot.view.big == "Seat 1"
        receive(ann, "view", lambda m: m["seat_title"] == "Ann · 1")  # seat 1 keeps its seat
        bo.send('{"t": "join", "pin": "' + pin + '", "seat": 3, "name": "Cy"}')
        assert receive(bo, "joined")["seat"] == 3                  # the seat is free again


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_every_start_screen_with_phones_reads_with_its_card(painter, size, lang):
    """Every game's start or setup screen as the box shows it with phones
    on (its hold of BACK, what it says of the phones at a few, and at every,
    seat), the join card beside it, and the phones screen: every text whole,
    over the floor, apart (the render tests' own checks)."""
    makes = {"one_night": lambda: Flow(RoundSettings.from_config(Config())),
             "dark_arts": lambda: MayorGame(rng=random.Random(1)),
             "newd3": lambda: TimedGame(rng=random.Random(1))}
    for mode, make in makes.items():
        games = Games({mode: make}, mode, lang, phones_on=True)
        seats = games.table_seats
        for seated in ({2}, set(range(1, seats + 1))):
            games.handle(PhonesSeated(frozenset(seated), tuple((s, f"P{s}") for s in seated)),
                         0.0)
            with speaking(lang):
                check(painter, dataclasses.replace(games.view(0.0), join=CARD), size)
            games.handle(Hold(Button.BACK), 0.0)
            with speaking(lang):
                check(painter, dataclasses.replace(games.view(0.0), join=CARD), size)
            games.handle(Hold(Button.VOTE), 0.0)                  # asked to free a seat
            with speaking(lang):
                check(painter, dataclasses.replace(games.view(0.0), join=CARD), size)
            games.handle(Tap(Button.START), 0.0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_a_paused_game_offers_the_phones_screen_and_both_read(painter, size, lang):
    """Mid-game, paused, with phones on: the hold of VOTE that opens the
    phones' screen is on the legend, and that screen, the card with it
    (a lost phone joins again), reads at every size."""
    makes = {"one_night": lambda: Flow(RoundSettings.from_config(Config())),
             "dark_arts": lambda: MayorGame(rng=random.Random(1))}
    for mode, make in makes.items():
        games = Games({mode: make}, mode, lang, phones_on=True)
        games.handle(PhonesSeated(frozenset({1, 2}), ((1, "Ann"), (2, "Bo"))), 0.0)
        games.handle(Tap(Button.START), 0.0)                      # the night
        assert Button.VOTE not in dict(games.view(0.0).holds)     # running: no phones' hold
        games.handle(Tap(Button.START), 0.0)                      # paused
        paused = games.view(0.0)
        assert paused.paused and Button.START in dict(paused.holds), mode
        with speaking(lang):
            check(painter, paused, size)
        games.handle(Hold(Button.VOTE), 0.0)
        with speaking(lang):
            check(painter, dataclasses.replace(games.view(0.0), join=CARD), size)
        assert games.phones_screen_open
