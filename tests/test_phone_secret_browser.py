"""The secret on screen while its cover is held (issue 40, item 3): on a
360x640 phone the largest task each game can offer (One Night's
Doppelganger with twelve options and her longest result, the timed
game's largest night task, the Mayor's game card with the hands up)
shows every word of its secret inside the viewport, in English, German
and Chinese. Each view is the game's own, made by its pure rules and
served by the box's real phones' server (phones/link.py) to Chromium."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import pytest
from test_mayor_phones import MAYOR, PLAYERS, to_the_hands
from test_newd3_game import A1, A2, B1, C3
from test_onenight_phones import START, Table
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    playwright,
    pytestmark,
)
from test_timed_phones import B2, B3, C1, night, phone, tap, to

from wolfbox.config import PhonesConfig
from wolfbox.i18n import speaking
from wolfbox.newd3.turns import Kind
from wolfbox.phone import PhoneView
from wolfbox.phones.link import Phones

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is

SMALL = {"width": 360, "height": 640}
LANGS = ("en", "de", "zh")
WAIT = 10.0                                # only a bound: each wait ends on what it waits for

# Where each of the secret's lines is, and how much of it scrolls out of sight.
MEASURED = """() => {
  const s = document.querySelector('#secret');
  const box = r => { const b = r.getBoundingClientRect();
                     return [b.left, b.top, b.right, b.bottom]; };
  return {secret: box(s), lines: Array.from(s.children).map(box),
          hidden: s.scrollHeight - s.clientHeight,
          viewport: [window.innerWidth, window.innerHeight]};
}"""


def text_size(view: PhoneView) -> int:
    return sum(len(line) for line in view.secret)


def doppelganger_largest(lang: str) -> PhoneView:
    """The Doppelganger's second and third tasks (twelve options: seven
    seats, three center cards, the Village Idiot's two ways), whatever
    she copies and taps: the view whose secret is the longest."""
    seats = ["doppelganger", "witch", "village_idiot", "seer", "robber", "troublemaker",
             "paranormal_investigator"]
    views = []
    with speaking(lang):
        for copied in range(2, len(seats) + 1):
            for first in range(12):
                for second in (0, 11):
                    t = Table(seats, ["werewolf", "werewolf", "drunk"])
                    t.press(START)
                    t.call("doppelganger")
                    t.choose(1, copied)
                    for pick in (first, second, None):
                        view = t.f.phone_view(1, t.now)
                        assert view.task is not None and "doppelganger" in view.task.step
                        assert len(view.task.options) == 12
                        views.append(view)
                        if pick is not None:
                            t.choose(1, view.task.options[pick][0])
    return max(views, key=text_size)


def timed_largest(lang: str) -> PhoneView:
    """Every living seat's phone in the plot, the actions and the messages
    of a night on phones, for seatings of one and of two Wolves (each
    Wolf's marks tapped, shown on the partner's phone): the longest."""
    views = []
    with speaking(lang):
        for seats in (A1, A2, B1, B2, B3, C1, C3):
            t = night(list(seats))
            to(t, Kind.PLOT)
            pack = [s for s in range(1, 10) if seats[s - 1] == "wolf"]
            for wolf in pack:
                tap(t, wolf, next(s for s in range(9, 0, -1) if s not in pack))
                tap(t, wolf, wolf)
            views += [phone(t, s) for s in range(1, 10)]
            for kind in (Kind.ACT, Kind.READ):
                to(t, kind)
                views += [phone(t, s) for s in range(1, 10)]
    return max(views, key=text_size)


def mayors_largest(lang: str) -> PhoneView:
    """A player's phone in the Mayor's game as the hands go up (the task,
    the dead, the card behind the cover): the seat whose card says most."""
    with speaking(lang):
        t = to_the_hands(PLAYERS | {MAYOR})
        return max((t.g.phone_view(s, t.now) for s in PLAYERS), key=text_size)


@dataclasses.dataclass
class Shown:
    """A game as the phones' link reads it (Games' face): every seat shows
    `view`, in `lang`."""
    view: PhoneView
    lang: str
    name: str = "one_night"
    table_seats: int = 9
    guarded_seats: frozenset[int] = frozenset()

    def busy(self) -> bool:
        return True

    def phone_view(self, seat: int, now: float) -> PhoneView:
        return dataclasses.replace(self.view, seat=seat)

    def lobby_note(self) -> str:
        return ""


def until(done: Callable[[], bool]) -> None:
    """Wait for the server's thread to have done something (a bound only)."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "the server never got there"
        time.sleep(0.01)


def seated(page, phones: Phones, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    page.fill("#pin", phones.seated.pin)
    page.click("#seats button >> nth=0")
    page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)


def held_on_screen(page, case: str, view: PhoneView) -> None:
    """Hold the cover where it is on the screen; every line of the secret
    is inside the viewport, clear of the cover, none scrolled away."""
    box = page.locator("#cover").bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL["height"], case
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    playwright.expect(page.locator("#secret")).to_be_visible(timeout=WAIT_MS)
    assert page.inner_text("#secret").split("\n")[0] == view.secret[0]
    seen = page.evaluate(MEASURED)
    assert seen["viewport"] == [SMALL["width"], SMALL["height"]]
    for left, top, right, bottom in [seen["secret"], *seen["lines"]]:
        assert 0 <= left and right <= SMALL["width"], (case, seen)
        assert 0 <= top and bottom <= SMALL["height"], (case, seen)
    assert seen["hidden"] <= 0, (case, seen)              # nothing scrolled out of sight
    # Not under the finger: the secret ends where the cover begins.
    assert seen["secret"][3] <= box["y"] + 1, (case, seen)
    page.mouse.up()
    playwright.expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)


@pytest.fixture
def served():
    config = PhonesConfig()
    config.enabled, config.listen, config.port = True, ["127.0.0.1"], 0
    phones = Phones(config, post=lambda event: None, wake=lambda: None,
                    clock=lambda: 1000.0)
    (url,) = phones.start()
    yield phones, url
    phones.close()


def largest() -> list[tuple[str, str, PhoneView]]:
    return [(game, lang, make(lang)) for lang in LANGS
            for game, make in (("onenight", doppelganger_largest), ("timed", timed_largest),
                               ("mayor", mayors_largest))]


def test_every_word_of_the_largest_secret_is_on_a_360x640_screen_while_held(
        served, browser):  # noqa: F811 (the fixture)
    phones, url = served
    views = largest()
    phones.follow(Shown(views[0][2], views[0][0]), 1000.0)
    until(lambda: phones.seated.pin != "")
    context = browser.new_context(viewport=SMALL, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    seated(page, phones, url)
    for game, lang, view in views:
        phones.follow(Shown(view, lang), 1000.0)
        assert view.task is not None
        playwright.expect(page.locator("#prompt")).to_have_text(view.task.prompt,
                                                                timeout=WAIT_MS)
        for scrolled in ("0", "document.body.scrollHeight"):   # read from its top, its foot
            page.evaluate(f"() => window.scrollTo(0, {scrolled})")
            held_on_screen(page, f"{game} {lang} scrolled to {scrolled}", view)
    assert problems == []


def test_a_secret_too_long_for_the_screen_scrolls_under_the_holding_finger(
        served, browser):  # noqa: F811 (the fixture)
    """No game's secret is this long; were one ever, it would take a smaller
    size, then scroll as the finger on the cover slides, the cover held."""
    phones, url = served
    lines = tuple(f"Line {n}: a long note of the night, word after word." for n in range(60))
    view = PhoneView(1, "Night", secret=("Werewolf", *lines))
    phones.follow(Shown(view, "en"), 1000.0)
    until(lambda: phones.seated.pin != "")
    page = browser.new_page(viewport=SMALL)
    seated(page, phones, url)
    box = page.locator("#cover").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    secret = page.locator("#secret")
    playwright.expect(secret).to_be_visible(timeout=WAIT_MS)
    playwright.expect(secret).to_have_class("secret fit3")     # the smallest size first
    assert secret.evaluate("s => s.scrollTop") == 0
    page.mouse.move(box["x"] + 10, box["y"] - 300)             # the finger slides up
    assert secret.evaluate("s => s.scrollTop") == 310          # the words follow it
    assert page.is_visible("#secret")                          # still held
    page.mouse.up()
    playwright.expect(secret).to_be_hidden(timeout=WAIT_MS)
