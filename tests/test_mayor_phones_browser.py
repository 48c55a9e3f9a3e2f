"""The Mayor's console in a real browser (issue 22): Debian's Chromium,
driven by Playwright, against the real box on loopback and its fake
clock. The Mayor's phone joins the seat that opens after the table's when
the game starts and runs a day on it: the Lovers, a death and its card,
an accusation, a second, the vote called, the hands on the players'
phones (seat 1 in Chromium, the others on plain sockets), the phones'
count corrected by hand, and the lynched player's card. Screenshots are
kept only when WOLFBOX_PHONE_SHOTS is set (en-mayor-*.png)."""

from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack

from test_mayor_phones_box import join
from test_phones_box import box_hears, join_details, receive
from test_phones_browser import (  # noqa: F401
    WAIT_MS,
    browser,
    caught_up,
    hold_cover,
    open_phone,
    playwright,
    pytestmark,  # skipped where Debian's chromium is not installed
    shoot,
)

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts import console
from wolfbox.darkarts import said as mayors_said
from wolfbox.darkarts.game import Stage
from wolfbox.darkarts.model import PHONE_DEAL_SECONDS
from wolfbox.darkarts.roles import role_name
from wolfbox.i18n import _
from wolfbox.phone import EYES_CLOSED

MAYOR = 8
# The players' names as they join: on the console, each seat by its name and number.
NAMES = {1: "Ann", **{seat: f"P{seat}" for seat in range(2, 8)}}


def on_the_page(names: dict[int, str], option: int, words: str) -> str:
    """An option's words as the page shows them: a seat called by number alone
    ("Seat 3") by its player's name too ("P3 · 3")."""
    return f"{names[option]} · {option}" if words == f"Seat {option}" else words


def seated(page, pin: str, seat: int, name: str) -> None:
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    page.fill("#pin", pin)
    page.fill("#name", name)
    page.locator("#seats button", has_text=str(seat)).first.click()
    page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)


def console_seated(pilot, page, pin: str, name: str) -> None:
    """The Mayor's page asks for seat 8; its code is on the page and the
    box; the Mayor accepts it on the box, and the page shows the console."""
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    page.fill("#pin", pin)
    page.fill("#name", name)
    page.locator("#seats button", has_text=str(MAYOR)).first.click()
    box_hears(pilot, lambda: re.fullmatch(r"\d{4}", pilot.box.flow.view(pilot.clock.now).big))
    code = pilot.box.flow.view(pilot.clock.now).big           # the box asks with a code ...
    page.wait_for_selector(f"#refused:has-text('{code}')", timeout=WAIT_MS)   # ... the page's
    pilot.press(Button.START)                                 # the Mayor's yes, on the box
    page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)


class Console:
    """The Mayor's page: a tap, once the page shows the console as the box
    has it now (a tap on an older one would rightly change nothing)."""

    def __init__(self, pilot, game, page, names: dict[int, str] = NAMES) -> None:
        self.pilot, self.game, self.page, self.names = pilot, game, page, names

    def shows_now(self) -> None:
        task = self.game.phone_view(MAYOR, self.pilot.clock.now).task
        buttons = self.page.locator("#options button")
        playwright.expect(buttons).to_have_text(
            [on_the_page(self.names, i, w) for i, w in task.options], timeout=WAIT_MS)
        for i, (option, _words) in enumerate(task.options):
            if option in task.chosen:
                playwright.expect(buttons.nth(i)).to_have_class("chosen", timeout=WAIT_MS)
        playwright.expect(self.page.locator("#actions button")).to_have_text(
            [w for _i, w in task.actions], timeout=WAIT_MS)

    def tap(self, words: str, done=None) -> None:
        """Tap `words`; the box has heard it when the console changes (or
        when `done()`, for a tap that leaves the console as it was)."""
        self.shows_now()
        before = console.step(self.game)
        self.page.locator("#task").get_by_role("button", name=words, exact=True).click(
            timeout=WAIT_MS)
        box_hears(self.pilot, done or (lambda: console.step(self.game) != before))
        self.shows_now()


def quiet(pilot, game) -> None:
    pilot.until(lambda: game.speech.line is None, limit=600, step=0.25)


def test_the_mayor_runs_a_day_on_the_console_in_the_browser(tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    config.night.scale = 0.1
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    game = pilot.box.flow.active
    with ExitStack() as stack:
        others = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}"))
                  for seat in range(2, 8)}
        ann, ann_problems = open_phone(browser, url)
        seated(ann, pin, 1, "Ann")
        box_hears(pilot, lambda: game.phones == frozenset(range(1, 8)))
        game.rng = random.Random(5)                           # the same deal every run
        pilot.press(Button.START)                             # the box deals; seat 8 opens
        mayor_page, problems = open_phone(browser, url)
        mayor_page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
        playwright.expect(mayor_page.locator("#seats button")).to_have_count(
            8, timeout=WAIT_MS)
        console_seated(pilot, mayor_page, pin, "Mayor")
        box_hears(pilot, lambda: MAYOR in game.phones)
        mayor = Console(pilot, game, mayor_page)
        assert mayor_page.inner_text("#prompt") == "The Mayor's console"
        assert not ann.is_visible("#task")                    # a player has no console

        pilot.until(lambda: game.stage is Stage.LOVERS, limit=600, step=1.0)
        for seat in (3, 5):
            mayor.tap(f"P{seat} · {seat}")
            mayor.tap("Lover")
        shoot(mayor_page, "en-mayor-lovers.png")
        mayor.tap("Done")
        assert game.lovers == (3, 5)

        pilot.until(lambda: game.stage is Stage.DAWN, limit=600, step=1.0)
        mayor.tap("P7 · 7")                                   # a death ...
        mayor.tap("Died")
        card = role_name(game.dealt[6])                       # ... read off seat 7's phone
        mayor.tap(card)
        shoot(mayor_page, "en-mayor-card.png")
        mayor.tap("OK")
        assert game.stage is Stage.CONFIRM
        mayor.tap("OK")                                       # entered
        assert game.ring.dead == {7: game.dealt[6]}
        mayor.tap("No more deaths")
        mayor.tap("OK")

        quiet(pilot, game)
        mayor.tap("Accuse")                                   # an accusation
        mayor.tap("P2 · 2")
        shoot(mayor_page, "en-mayor-accuse.png")
        mayor.tap("Accuse")
        assert game.stage is Stage.SECOND and game.accused == 2
        quiet(pilot, game)
        mayor.tap("Seconded")                                 # a second
        quiet(pilot, game)
        mayor.tap("Vote")                                     # the vote, on the phones
        assert game.stage is Stage.HANDS and game.hands_on_phones

        caught_up(ann, game.phone_view(1, pilot.clock.now))
        up = ann.locator("#options").get_by_role("button", name="Hand up: lynch", exact=True)
        up.click(timeout=WAIT_MS)
        box_hears(pilot, lambda: game.hand_votes.get(1) is True)
        playwright.expect(up).to_have_class("chosen", timeout=WAIT_MS)
        shoot(ann, "en-mayor-hands.png")
        assert ann.inner_text("#prompt") == "Raise your hand to lynch P2 · 2?"
        for seat in (3, 4):
            task = receive(others[seat], "view", lambda m: m["task"] is not None)["task"]
            others[seat].send(json.dumps({"t": "choose", "step": task["step"], "choice": [1]}))
            box_hears(pilot, lambda s=seat: game.hand_votes.get(s) is True)
        pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
        assert game.hands == 3                                # the box counted the phones
        shoot(mayor_page, "en-mayor-result.png")
        mayor.tap("Recount")                                  # a hand the phones missed
        mayor.tap("Hand +1", done=lambda: game.hands == 4)
        mayor.tap("Done")
        mayor.tap("OK")
        assert game.book.lines()[-1] == "Day 1: 4 votes to lynch Seat 2, 3 needed: lynched."
        assert game.stage is Stage.ROLE and game.dying == 2
        mayor.tap(role_name(game.dealt[1]))
        mayor.tap("OK")
        mayor.tap("OK")
        assert 2 in game.ring.dead
        playwright.expect(ann.locator("#lines")).to_contain_text("Dead: P2 · 2", timeout=WAIT_MS)
        shoot(ann, "en-mayor-player.png")
    assert problems == [] and ann_problems == []


def test_seven_browsers_each_read_their_card_before_the_night_and_point_nowhere_at_night(
        tmp_path, pilots, browser):  # noqa: F811
    """The deal on real pages (issue 40): with a phone at every seat, each
    of seven Chromium phones shows its own card behind its cover while the
    box is in the deal's window, before "close your eyes" is said; the
    night waits for the window; and while the Mayor marks the Lovers on
    the box, every page shows the same night line, dimmed, never "Look at
    the box.\""""
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    config.night.scale = 0.1
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    game = pilot.box.flow.active
    pages = {}
    for seat in range(1, 8):
        page, problems = open_phone(browser, url)
        seated(page, pin, seat, NAMES[seat])
        pages[seat] = (page, problems)
    box_hears(pilot, lambda: game.phones == frozenset(range(1, 8)))
    game.rng = random.Random(5)
    pilot.press(Button.START)                                 # the box deals to the phones
    assert game.stage is Stage.DEAL
    look = _(mayors_said.PHONE_DEAL)
    for seat, (page, _problems) in pages.items():
        playwright.expect(page.locator("#title")).to_have_text("The deal", timeout=WAIT_MS)
        playwright.expect(page.locator("#lines")).to_contain_text(look, timeout=WAIT_MS)
        assert not page.is_visible("#secret")                 # behind the cover ...
        assert role_name(game.dealt[seat - 1]) in hold_cover(page)   # ... its own card
        if seat == 1:
            shoot(page, "en-mayor-deal.png", full_page=True)
        page.mouse.up()
        assert game.stage is Stage.DEAL                       # no "close your eyes" yet
    pilot.until(lambda: game.speech.line is None, limit=120, step=0.5)
    opened = pilot.clock.now
    pilot.until(lambda: game.stage is Stage.NIGHT, limit=120, step=0.5)
    assert pilot.clock.now - opened >= PHONE_DEAL_SECONDS     # the whole window first
    pilot.until(lambda: game.stage is Stage.LOVERS, limit=600, step=1.0)
    pilot.press(Button.NEXT)                                  # a Lover marked on the box's ring
    pilot.press(Button.VOTE)
    assert game.picked
    for seat, (page, _problems) in pages.items():
        playwright.expect(page.locator("#title")).to_have_text("Night 1 · Lovers",
                                                               timeout=WAIT_MS)
        playwright.expect(page.locator("#lines")).to_have_text(_(EYES_CLOSED), timeout=WAIT_MS)
        playwright.expect(page.locator("body")).to_have_class(re.compile(r"\bdim\b"),
                                                             timeout=WAIT_MS)
        assert "Look at the box" not in page.inner_text("body")
        assert role_name(game.dealt[seat - 1]) in hold_cover(page)   # still its own card
        page.mouse.up()
    shoot(pages[1][0], "en-mayor-night.png")
    assert all(problems == [] for _page, problems in pages.values())
