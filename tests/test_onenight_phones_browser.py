"""One Night on phones in a real browser (issue 22): five Chromium phones
at the real box on loopback. The box deals, each card shows only while
its cover is held; the Troublemaker taps two seats and the box swaps
them; the phones vote; every phone shows the verdict and what happened."""

from __future__ import annotations

import random

import pytest
from test_phones_browser import CHROMIUM, WAIT_MS, browser, open_phone, playwright, shoot  # noqa: F401

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.events import PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.view import Phase

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "drunk"]
SEATS = range(1, 6)


def hold_cover(page) -> None:
    cover = page.locator("#cover")
    cover.wait_for(state="visible", timeout=WAIT_MS)
    box = cover.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    playwright.expect(page.locator("#secret")).to_be_visible(timeout=WAIT_MS)


def let_go(page) -> None:
    page.mouse.up()
    playwright.expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)


def seed_with_a_troublemaker() -> int:
    """A seed whose deal puts the Troublemaker at a seat, as the box deals."""
    for seed in range(100):
        flow = Flow(RoundSettings.for_deck(DECK), rng=random.Random(seed))
        flow.handle(PhonesSeated(frozenset(SEATS)), 0.0)
        if flow.table is not None and "troublemaker" in flow.table.dealt[:5]:
            return seed
    raise AssertionError("no seed deals the Troublemaker to a seat")


def hear(pilot, done) -> None:
    for _ in range(50):
        if done():
            return
        pilot.box.act(pilot.box.inbox.wait(0.5))
    raise AssertionError("the box never heard the phone")


def test_five_browsers_play_one_night_on_their_phones(tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(seed_with_a_troublemaker())
    card = pilot.view.join
    pages = {}
    for seat in SEATS:
        page, problems = open_phone(browser, card.url)
        page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
        page.fill("#pin", card.pin)
        page.fill("#name", f"P{seat}")
        page.click(f"#seats button >> nth={seat - 1}")
        page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
        pages[seat] = (page, problems)
    hear(pilot, lambda: game.table is not None)
    table = game.table
    assert "troublemaker" in table.dealt[:5]           # the seed deals her to a seat
    maker = table.dealt.index("troublemaker") + 1
    others = [s for s in SEATS if s != maker]

    page = pages[maker][0]                             # her card, while the cover is held
    hold_cover(page)
    assert "Your card: Troublemaker" in page.inner_text("#secret")
    shoot(page, "en-onenight-card.png")
    let_go(page)

    pilot.press(Button.START)
    pilot.until(lambda: table.call == "troublemaker" and table.open, step=1.0)
    for seat in SEATS:                                 # every phone: two seats to tap
        options = pages[seat][0].locator("#options button")
        playwright.expect(options).to_have_count(4, timeout=WAIT_MS)
    hold_cover(page)
    assert "You are the Troublemaker" in page.inner_text("#secret")
    let_go(page)
    before = list(table.cards)
    a, b = others[0], others[1]
    page.locator("#options button", has_text=f"Seat {a}").click(timeout=WAIT_MS)
    page.locator("#options button", has_text=f"Seat {b}").click(timeout=WAIT_MS)
    hear(pilot, lambda: table.cards != before)
    assert (table.cards[a - 1], table.cards[b - 1]) == (before[b - 1], before[a - 1])
    for seat in (a, b):
        playwright.expect(page.locator("#options button", has_text=f"Seat {seat}")) \
            .to_have_class("chosen", timeout=WAIT_MS)
    hold_cover(page)
    assert f"You swapped the cards of Seat {a} and Seat {b}." in page.inner_text("#secret")
    shoot(page, "en-onenight-troublemaker.png")
    let_go(page)
    decoy = pages[others[2]][0]                       # another phone: the same two taps
    hold_cover(decoy)
    assert "Not your call" in decoy.inner_text("#secret")
    shoot(decoy, "en-onenight-decoy.png")
    let_go(decoy)

    pilot.until(lambda: game.phase is Phase.DISCUSSION, step=1.0)
    pilot.press(Button.VOTE)
    pilot.until(lambda: table.voting, step=0.25)
    target = others[0]
    for seat in SEATS:
        vote = target if seat != target else maker
        pages[seat][0].locator("#options button", has_text=f"Seat {vote}").click(
            timeout=WAIT_MS)
        hear(pilot, lambda s=seat, v=vote: table.votes.get(s) == v)
    shoot(pages[maker][0], "en-onenight-vote.png")
    pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
    assert game.verdict is not None and target in game.verdict.dead
    for seat in SEATS:
        lines = pages[seat][0].locator("#lines")
        playwright.expect(lines).to_contain_text("What happened:", timeout=WAIT_MS)
        playwright.expect(lines).to_contain_text(
            f"swapped the cards of seat {a} and seat {b}", timeout=WAIT_MS)
    shoot(pages[maker][0], "en-onenight-what-happened.png")
    assert all(problems == [] for _page, problems in pages.values())
