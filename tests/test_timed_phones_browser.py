"""A night of the timed game on nine phones in Chromium (issue 22, item 5):
the Wolves' marks live on each other's phone, every seat's task in the
45 s window, then every seat's message at once. Debian's Chromium driven
by Playwright against the real box on loopback, the box on its fake
clock; skipped where either is missing."""

from __future__ import annotations

import random

from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    caught_up,
    hold_cover,
    playwright,
    pytestmark,
    seat_phones,
    shoot,
)

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.newd3 import said
from wolfbox.newd3.game import Stage
from wolfbox.newd3.roles import role_name
from wolfbox.newd3.turns import Kind

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is


def heard(pilot, done) -> None:
    """The box acts on what the phones sent until `done()` (each wait ends
    when something arrives; the bound only stops a test that went wrong)."""
    for _ in range(60):
        if done():
            return
        pilot.box.act(pilot.box.inbox.wait(0.5))
    raise AssertionError("the box never heard the phone")


def test_nine_browsers_play_a_night_the_wolves_marks_live_then_all_at_once(
        tmp_path, pilots, browser):  # noqa: F811 (the fixture)
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    pilot.settle()
    pages = seat_phones(browser, pilot.view.join, range(1, 10))
    game = pilot.box.flow.active
    heard(pilot, lambda: game.phones == frozenset(range(1, 10)))
    game.choice = "A1"                                        # a Seer and a Guard in play
    game.rng = random.Random(3)                               # the same deal every run
    pilot.press(Button.START)
    pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
    pilot.press(Button.VOTE, hold=2.1)                        # talk cut short
    pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
    pilot.press(Button.START)                                 # nobody voted: nobody out
    pilot.until(lambda: game.night_task() is Kind.PLOT, limit=60, step=0.5)

    seats = game.seats
    first, second = (s for s in range(1, 10) if seats[s - 1] in ("wolf", "alchemist"))
    seer = seats.index("seer") + 1
    victim = next(s for s in range(1, 10) if seats[s - 1] == "sheep")
    wolf = pages[first][0]
    caught_up(wolf, game.phone_view(first, pilot.clock.now))
    # A seat by its player's name (joined as P<n>) and its number.
    wolf.locator("#options button", has_text=f"P{victim} · {victim}").click(timeout=WAIT_MS)
    heard(pilot, lambda: game.marks.get(first) == victim)
    playwright.expect(wolf.locator("#choice")).to_have_text(
        f"✓ P{victim} · {victim}", timeout=WAIT_MS)
    wolf.locator("#options button", has_text=f"P{first} · {first}").click(timeout=WAIT_MS)
    heard(pilot, lambda: game.marks.get(first) == first)      # the knife: its own seat
    # Behind the cover both marks; outside it, no button marked: a glance
    # at the Wolf's phone does not show it tapped itself.
    playwright.expect(wolf.locator("#choice")).to_contain_text(
        f"P{first} · {first}", timeout=WAIT_MS)
    assert f"P{victim} · {victim}" in wolf.inner_text("#choice")
    playwright.expect(wolf.locator("#options button.chosen, #options button.picking")
                      ).to_have_count(0)
    assert not wolf.is_visible("#choice")                     # until the cover is held
    shoot(wolf, "en-timed-plot-tapped.png")
    wolf.locator("#options button", has_text=f"P{victim} · {victim}").click(timeout=WAIT_MS)
    heard(pilot, lambda: game.marks.get(first) == victim)     # the victim again: kept
    partner = pages[second][0]
    caught_up(partner, game.phone_view(second, pilot.clock.now))
    # The partner holds the cover: the first Wolf's mark is there, live.
    playwright.expect(partner.locator("#secret")).to_contain_text(
        f"P{first} · {first}, your partner: victim: P{victim} · {victim}", timeout=WAIT_MS)
    assert role_name(seats[second - 1]) in hold_cover(partner)
    shoot(partner, "en-timed-plot.png", full_page=True)
    partner.mouse.up()
    decoy = pages[seer][0]                                    # the Seer, a decoy now
    assert f"victim: {victim}" not in (decoy.text_content("#seat") or "")
    playwright.expect(decoy.locator("#options button")).to_have_count(9)
    assert decoy.inner_text("#prompt") == wolf.inner_text("#prompt")

    pilot.until(lambda: game.night_task() is Kind.ACT, limit=60, step=0.5)
    page = pages[seer][0]
    caught_up(page, game.phone_view(seer, pilot.clock.now))
    playwright.expect(page.locator("#options button")).to_have_count(8, timeout=WAIT_MS)
    page.locator("#options button", has_text=f"P{first} · {first}").click(timeout=WAIT_MS)
    heard(pilot, lambda: game.marks.get(seer) == first)
    playwright.expect(page.locator("#choice")).to_have_text(
        f"✓ P{first} · {first}", timeout=WAIT_MS)
    playwright.expect(page.locator("#options button.chosen")).to_have_count(0)
    assert "Whom do you inspect?" in hold_cover(page)
    shoot(page, "en-timed-act.png", full_page=True)
    page.mouse.up()
    for seat in range(1, 10):                                 # the same task on every phone
        playwright.expect(pages[seat][0].locator("#options button")).to_have_count(
            8, timeout=WAIT_MS)
        assert pages[seat][0].inner_text("#prompt") == page.inner_text("#prompt")

    pilot.until(lambda: game.turns[game.turn_index].kind is Kind.READ
                and game.turn_stage == "wait", limit=60, step=0.5)
    for seat in range(1, 10):                                 # every message at once
        playwright.expect(pages[seat][0].locator("#task")).to_be_hidden(timeout=WAIT_MS)
        playwright.expect(pages[seat][0].locator("#secret")).to_contain_text(
            game.message(seat)[1], timeout=WAIT_MS)
    assert "is on the Wolves' side" in hold_cover(page)
    shoot(page, "en-timed-message.png", full_page=True)
    page.mouse.up()
    pilot.until(lambda: game.stage is not Stage.NIGHT, limit=60, step=0.5)
    assert game.killed == victim
    assert all(problems == [] for _page, problems in pages.values())
