"""One Night's vote on phones shows its clock (issue 40, item 9): the ten
seconds to tap a vote count down, large, on every phone, as the timed
game's and the Mayor's timed tasks do; the box's bar drains with them.
The game alone on the fake clock, then Chromium at the real box."""

from __future__ import annotations

from test_onenight_phones import BASE5, START, VOTE, base5
from test_phones_box import box_hears
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    playwright,
    pytestmark,
    seat_phones,
)

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.view import Phase

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is

SEATS = range(1, 6)


def test_every_phone_shows_the_vote_s_seconds_left_and_the_box_a_draining_bar():
    t = base5()
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(VOTE)
    t.until(lambda: t.f.phase is Phase.VOTE and t.f.view(t.now).big == "VOTE!")
    assert {t.f.phone_view(s, t.now).big for s in SEATS} == {"0:10"}
    assert t.f.view(t.now).progress == 1.0
    start = t.now
    t.until(lambda: t.now >= start + 3)
    assert {t.f.phone_view(s, t.now).big for s in SEATS} == {"0:07"}
    assert t.f.view(t.now).progress == 0.7
    assert all(t.f.phone_view(s, t.now).task is not None for s in SEATS)


def test_the_phone_s_clock_ticks_with_the_box_in_the_own_cards_vote(
        tmp_path, pilots, browser):  # noqa: F811 (the fixture)
    config = phones_config(tmp_path)
    config.game.deck, config.game.cards_on_phones = list(BASE5), False
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    pages = seat_phones(browser, pilot.view.join, SEATS)
    box_hears(pilot, lambda: game.own_cards())
    pilot.press(Button.START)
    pilot.until(lambda: game.phase is Phase.DISCUSSION, step=1.0)
    pilot.press(Button.VOTE)
    pilot.until(lambda: pilot.view.big == "VOTE!", step=0.25)
    for page, _problems in pages.values():
        playwright.expect(page.locator("#big")).to_have_text("0:10", timeout=WAIT_MS)
        playwright.expect(page.locator("#options button")).to_have_count(4, timeout=WAIT_MS)
    pilot.advance(4.0)
    for page, _problems in pages.values():
        playwright.expect(page.locator("#big")).to_have_text("0:06", timeout=WAIT_MS)
    assert all(problems == [] for _page, problems in pages.values())
