"""The phone page in German and Chinese (issue 29, item 13): no button
label broken inside a word (a long one takes more columns), the page's
language said as the fonts need it ("zh-Hans"), and the Mayor's vote on
the players' phones with its clock. Chromium against the real box, on
its fake clock; skipped where either is missing."""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest
from test_mayor_phones_box import join
from test_mayor_phones_browser import MAYOR, console_seated, seated
from test_phones_box import box_hears, join_details
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    open_phone,
    playwright,
    pytestmark,
    shoot,
)

from helpers import phones_config
from wolfbox import i18n
from wolfbox.buttons import Button
from wolfbox.darkarts import console
from wolfbox.darkarts import said as mayors_said
from wolfbox.darkarts.game import Stage
from wolfbox.darkarts.model import NO_SEAT
from wolfbox.i18n import speaking

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is

# Every button of the task whose words run past its edge (a word too wide
# for its column would be cut or broken inside).
OVERFLOWING = """() => Array.from(document.querySelectorAll('#task button'))
  .filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)"""


def tap(pilot, page, words: str, heard) -> None:
    """Tap `words`, let the box act on it, and wait until the page shows the
    console the box has now: on a busy machine the old console's buttons,
    with the same words, would answer a step that has passed (and rightly
    change nothing)."""
    page.locator("#task").get_by_role("button", name=words, exact=True).click(timeout=WAIT_MS)
    box_hears(pilot, heard)
    playwright.expect(page.locator("#options")).to_have_attribute(
        "data-step", console.step(pilot.box.flow.active), timeout=WAIT_MS)


@pytest.mark.parametrize("lang, html, died, undo", [
    ("de", "de", "Gestorben", "Rückgängig"), ("zh", "zh-Hans", "死亡", "撤销上一步")])
def test_the_mayors_console_and_a_players_vote_read_whole_in_each_language(
        tmp_path, pilots, browser, lang, html, died, undo):  # noqa: F811
    config = phones_config(tmp_path, "dark_arts")
    config.box.lang, config.mayor_players, config.night.scale = lang, 7, 0.1
    with speaking(lang):
        lines = mayors_said.all_lines(7)
    pilot = pilots.start(config, lines, warm=False)
    url, pin = join_details(pilot)
    game = pilot.box.flow.active
    with ExitStack() as stack:
        for seat in range(2, 8):
            stack.enter_context(join(url, pin, seat, f"P{seat}"))
        ann, ann_problems = open_phone(browser, url)
        seated(ann, pin, 1, "Ann")
        assert ann.get_attribute("html", "lang") == html
        box_hears(pilot, lambda: game.phones == frozenset(range(1, 8)))
        game.rng = random.Random(5)
        pilot.press(Button.START)
        mayor, problems = open_phone(browser, url)
        playwright.expect(mayor.locator("#seats button")).to_have_count(8, timeout=WAIT_MS)
        console_seated(pilot, mayor, pin, "Mo")
        box_hears(pilot, lambda: MAYOR in game.phones)

        pilot.until(lambda: game.stage is Stage.LOVERS, limit=600, step=1.0)
        for seat in (3, 5):                         # the Lovers, by the buttons
            while game.cursor != seat:
                pilot.press(Button.NEXT)
            pilot.press(Button.VOTE)
        pilot.press(Button.START)
        pilot.until(lambda: game.stage is Stage.DAWN, limit=600, step=1.0)
        with speaking(lang):                        # a seat by its player's name
            p7 = i18n._("{name} · {seat}").format(name="P7", seat=7)
        tap(pilot, mayor, p7, lambda: game.cursor == 7)
        tap(pilot, mayor, died, lambda: game.stage is Stage.ROLE)
        # The role picker: every card a button, and the undo, never broken
        # inside a word (German's "Dorfbewohner", "Rückgängig").
        playwright.expect(mayor.locator("#actions")).to_contain_text(undo, timeout=WAIT_MS)
        assert mayor.evaluate(OVERFLOWING) == []
        shoot(mayor, f"{lang}-mayor-card.png", full_page=True)

        for _ in range(400):                        # on to the vote, by the buttons
            if game.stage is Stage.HANDS:
                break
            dealt = game.dealt[game.dying - 1] if game.dealt and game.dying > 0 else None
            if game.stage is Stage.ROLE and game.chosen_role() in (None, *(
                    [] if dealt is None else [r for r in game.role_options() if r != dealt])) \
                    or game.stage is Stage.ACCUSE and game.cursor in (NO_SEAT, 1):
                pilot.press(Button.NEXT)                # on nobody yet, or not the card dealt
                continue
            press = {Stage.ROLE: Button.START, Stage.CONFIRM: Button.START,
                     Stage.DAWN: Button.START, Stage.DISCUSSION: Button.VOTE,
                     Stage.ACCUSE: Button.VOTE, Stage.SECOND: Button.VOTE,
                     Stage.DEFENCE: Button.VOTE}.get(game.stage)
            if press is None or game.speech.line is not None:
                pilot.advance(0.5)
            else:
                pilot.press(press)
        assert game.hands_on_phones
        pilot.until(lambda: game.timer is not None, limit=60, step=0.25)
        voter = ann
        if voter is not None:
            playwright.expect(voter.locator("#big")).to_have_text("0:10", timeout=WAIT_MS)
            assert "0:10" not in voter.inner_text("#lines")     # the clock once
            assert voter.evaluate(OVERFLOWING) == []
            shoot(voter, f"{lang}-mayor-hands.png", full_page=True)
    assert problems == [] and ann_problems == []
