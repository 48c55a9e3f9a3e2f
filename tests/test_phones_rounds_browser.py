"""Three rounds of One Night on five Chromium phones that join once
(issue 40, item 4): after each verdict the table presses Done on the box,
and each page goes from "what happened" to the next round's start with
its new card behind the cover, never by the join form, with no reload."""

from __future__ import annotations

import random

import pytest
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    caught_up,
    hold_cover,
    playwright,
    seat_phones,
)

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.onenight.roles import role_name
from wolfbox.view import Phase

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "drunk"]
SEATS = range(1, 6)


def hear(pilot, done) -> None:
    for _ in range(50):
        if done():
            return
        pilot.box.act(pilot.box.inbox.wait(0.5))
    raise AssertionError("the box never heard the phone")


def test_five_browsers_play_three_rounds_without_joining_again(
        tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(11)
    card = pilot.view.join
    pages = seat_phones(browser, card, SEATS)
    hear(pilot, lambda: game.table is not None)
    for played in range(3):
        table = game.table
        assert game.phase is Phase.IDLE and not table.started
        for seat in SEATS:                                # the round's own card, held
            page = pages[seat][0]
            caught_up(page, game.phone_view(seat, pilot.clock.now))
            assert not page.is_visible("#lobby") and page.inner_text("#refused") == ""
            assert f"Your card: {role_name(table.dealt[seat - 1])}" in hold_cover(page)
            page.mouse.up()
            playwright.expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)
        pilot.press(Button.START)
        pilot.until(lambda: game.phase is Phase.DISCUSSION, step=1.0)
        pilot.press(Button.VOTE)
        pilot.until(lambda t=table: t.voting)
        for seat in SEATS:                                # everyone votes for seat 1 (and 1 for 2)
            vote = 1 if seat != 1 else 2
            page = pages[seat][0]
            caught_up(page, game.phone_view(seat, pilot.clock.now))
            page.locator("#options button", has_text=f"P{vote} · {vote}").click(
                timeout=WAIT_MS)
            hear(pilot, lambda s=seat, v=vote, t=table: t.votes.get(s) == v)
        pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
        for seat in SEATS:
            playwright.expect(pages[seat][0].locator("#night svg").first).to_be_visible(
                timeout=WAIT_MS)                          # the night drawn, on every phone
        pilot.press(Button.START)                         # Done: the next round's deal
        hear(pilot, lambda t=table: game.table is not None and game.table is not t)
        pilot.settle()
        assert pilot.view.join.seated == tuple((s, f"P{s}") for s in SEATS), played
    for seat in SEATS:
        page, problems = pages[seat]
        caught_up(page, game.phone_view(seat, pilot.clock.now))      # the fourth deal's start
        assert page.input_value("#pin") == card.pin       # the join form never came back
        assert page.inner_text("#refused") == "" and problems == []
