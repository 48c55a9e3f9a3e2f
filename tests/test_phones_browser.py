"""Phones in a real browser (issue 22): Debian's Chromium, driven by
Playwright, against the real box on loopback. The box runs on its fake
clock; the page talks to the real server. CI installs both (.ci/run);
where either is missing here the tests say so and skip."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from helpers import phones_config
from wolfbox.buttons import Button

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

PHONE = {"width": 360, "height": 740}
WAIT_MS = 10_000          # only a bound: each wait ends when the page shows what it waits for
# `make screenshots` sets this to keep the phones' screenshots for the README.
SHOTS = os.environ.get("WOLFBOX_PHONE_SHOTS")


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_phone(browser, url: str):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return page, problems


def shoot(page, name: str, full_page: bool = False) -> None:
    """The page as a picture for the README, where `make screenshots` asks
    (`full_page`: the whole page, where it runs below the phone's fold)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full_page)


def seat_phones(browser, card, seats) -> dict:
    """A phone in Chromium at each of `seats`, joined with the PIN the box
    shows (as P1, P2...): {seat: (page, the page's script errors)}."""
    pages = {}
    for seat in seats:
        page, problems = open_phone(browser, card.url)
        page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
        page.fill("#pin", card.pin)
        page.fill("#name", f"P{seat}")
        page.click(f"#seats button >> nth={seat - 1}")
        page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
        pages[seat] = (page, problems)
    return pages


def caught_up(page, view) -> None:
    """Wait until the page shows `view`, the box's PhoneView for its seat
    now: its big words and its task's step. A busy machine may still be
    drawing an older view, whose buttons carry the same words (a tap then
    answers a step that has passed) or whose layout the next view moves
    (a press lands beside the cover)."""
    playwright.expect(page.locator("#big")).to_have_text(view.big, timeout=WAIT_MS)
    playwright.expect(page.locator("#options")).to_have_attribute(
        "data-step", view.task.step if view.task is not None else "", timeout=WAIT_MS)


def hold_cover(page) -> str:
    """Press and hold the cover (and keep holding): the secret's words."""
    cover = page.locator("#cover")
    cover.wait_for(state="visible", timeout=WAIT_MS)
    box = cover.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    playwright.expect(page.locator("#secret")).to_be_visible(timeout=WAIT_MS)
    return page.inner_text("#secret")


def test_a_phone_joins_in_the_browser_keeps_its_seat_on_reload_and_follows_the_box(
        tmp_path, pilots, browser):
    pilot = pilots.start(phones_config(tmp_path))
    pilot.settle()
    card = pilot.view.join
    assert card is not None
    ann, problems = open_phone(browser, card.url)
    ann.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#lobby-title") == "One Night"
    assert ann.get_attribute("html", "lang") == "en"           # the box's language, for fonts
    assert ann.locator("#seats button").count() == pilot.box.flow.table_seats
    ann.fill("#pin", card.pin)
    ann.fill("#name", "Ann")
    ann.click("#seats button >> nth=1")                       # seat 2
    ann.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#title") == pilot.view.title
    assert ann.inner_text("#seat-title") == "Seat 2"
    assert not ann.is_visible("#cover")                       # no secret: nothing to hold
    shoot(ann, "en-joined.png")

    bo, _ = open_phone(browser, card.url)                     # seat 2 is taken for the next
    bo.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    taken = bo.locator("#seats button >> nth=1")
    taken.wait_for(timeout=WAIT_MS)
    playwright.expect(taken).to_be_disabled(timeout=WAIT_MS)     # no script run in the page:
                                                              # its policy forbids eval
    assert "Ann" not in taken.inner_text()                   # no name before the PIN
    assert "Ask the box to free it." in bo.inner_text("#lobby-note")   # a lost phone's seat
    bo.fill("#pin", "0000" if card.pin != "0000" else "1111")
    bo.click("#seats button >> nth=2")
    bo.wait_for_selector("#refused:has-text('not the PIN')", timeout=WAIT_MS)
    shoot(bo, "en-lobby.png")

    ann.reload()                                              # a reload keeps the seat
    ann.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#seat-title") == "Seat 2"

    pilot.press(Button.START)                                 # the night falls on the box
    playwright.expect(ann.locator("body")).to_have_class("dim", timeout=WAIT_MS)
    assert ann.inner_text("#title") == pilot.view.title
    pilot.press(Button.BACK, hold=2.0)                        # the round ended on the box:
    pilot.until(lambda: not pilot.box.flow.busy())            # the table stays seated
    playwright.expect(ann.locator("body")).not_to_have_class("dim", timeout=WAIT_MS)
    playwright.expect(ann.locator("#title")).to_have_text(pilot.view.title, timeout=WAIT_MS)
    assert ann.is_visible("#seat") and not ann.is_visible("#lobby")
    pilot.press(Button.BACK, hold=2.0)                        # the phones screen: seat 2
    pilot.press(Button.VOTE, hold=2.0)                        # freed, asked
    pilot.press(Button.VOTE, hold=2.0)                        # and freed
    playwright.expect(ann.locator("#lobby")).to_be_visible(timeout=WAIT_MS)
    assert ann.input_value("#pin") == ""                      # the PIN: typed again
    playwright.expect(ann.locator("#refused")).to_have_text(
        "Your seat is free again: type the PIN the box shows now.")
    from wolfbox.effects import ChangeSetting
    pilot.box._apply([ChangeSetting("phones.enabled", False)])     # phones off on the box
    playwright.expect(ann.locator("#gone")).to_have_text("The box has turned its phones off.",
                                                         timeout=WAIT_MS)
    assert problems == []                                     # no script or policy error


def test_nine_browsers_get_their_cards_and_vote_in_the_timed_game(tmp_path, pilots, browser):
    """Nine phones in Chromium at the timed game: the deal on the phones
    (a card shows only while its cover is held), then the day's vote by
    tapping a seat; the box counts it."""
    from wolfbox.newd3 import said
    from wolfbox.newd3.game import Stage
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    pilot.settle()
    pages = seat_phones(browser, pilot.view.join, range(1, 10))
    for _ in range(50):                                       # the box hears all nine
        if pilot.box.flow.active.phones == frozenset(range(1, 10)):
            break
        pilot.box.act(pilot.box.inbox.wait(0.5))
    game = pilot.box.flow.active
    game.rng = random.Random(7)                               # the same deal every run
    pilot.press(Button.START)                                 # the deal, on the phones
    pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
    page = pages[4][0]
    caught_up(page, game.phone_view(4, pilot.clock.now))
    cover = page.locator("#cover")
    cover.wait_for(state="visible", timeout=WAIT_MS)
    assert not page.is_visible("#secret")                     # covered
    box = cover.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()                                         # held: the card shows
    playwright.expect(page.locator("#secret")).to_be_visible(timeout=WAIT_MS)
    from wolfbox.newd3.roles import role_name
    assert role_name(game.seats[3]) in page.inner_text("#secret")
    shoot(page, "en-timed-card.png")
    clock = page.inner_text("#big")
    pilot.advance(3.0)                                        # the window's clock ticks on:
    playwright.expect(page.locator("#big")).not_to_have_text(clock, timeout=WAIT_MS)
    assert page.is_visible("#secret")                         # a held cover stays open
    page.mouse.move(box["x"] + 10, box["y"] - 120)            # the finger slides off it,
    assert page.is_visible("#secret")                         # still down: still open
    page.mouse.up()                                           # let go: covered again
    playwright.expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)

    pilot.until(lambda: game.stage is Stage.VOTE, limit=600, step=1.0)
    for seat in (1, 2, 4, 5, 6):
        page = pages[seat][0]
        caught_up(page, game.phone_view(seat, pilot.clock.now))
        button = page.locator("#options button", has_text="P3 · 3")   # its name (P3) too
        button.click(timeout=WAIT_MS)
        for _ in range(50):
            if game.phone_votes.get(seat) == 3:
                break
            pilot.box.act(pilot.box.inbox.wait(0.5))
        # The card is behind the cover by day too: the vote is written
        # there, no button marked where a neighbour could see it.
        playwright.expect(page.locator("#choice")).to_have_text("✓ P3 · 3", timeout=WAIT_MS)
        playwright.expect(button).not_to_have_class("chosen")
    shoot(pages[1][0], "en-timed-vote.png")
    pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
    assert (game.tally, game.votes) == (3, 5)
    assert all(problems == [] for _page, problems in pages.values())
