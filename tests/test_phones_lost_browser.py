"""A page that has lost its box (issue 40, item 7): the box's phones'
server runs in a process of its own and is killed, as a power cut would
(no goodbye to any phone); the page in Chromium says so, large and in
the box's language, and greys its buttons. The box started again has a
new key: the page opened from the old QR code says to scan it again, and
scanning it in the same tab (only the fragment changes) brings the page
back to the new box."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from test_phones_browser import CHROMIUM, WAIT_MS, browser, playwright, pytestmark  # noqa: F401

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is

PHONE = {"width": 360, "height": 640}

# The box's phones' server and a German table's view of a task (two
# buttons): its address, QR code and PIN on a line, then served until killed.
BOX = """
import dataclasses, json, sys, time
from wolfbox.config import PhonesConfig
from wolfbox.phone import PhoneView, Task
from wolfbox.phones.link import Phones

@dataclasses.dataclass
class Shown:
    name: str = "one_night"
    lang: str = "de"
    table_seats: int = 5
    guarded_seats: frozenset = frozenset()
    def busy(self): return True
    def lobby_note(self): return ""
    def phone_view(self, seat, now):
        return PhoneView(seat, "Abstimmung", big="0:10", task=Task(
            "1.vote", "Wen stimmst du raus?", ((1, "Spieler 1"), (2, "Spieler 2"))))

config = PhonesConfig()
config.enabled, config.listen, config.port = True, ["127.0.0.1"], int(sys.argv[1])
phones = Phones(config, post=lambda event: None, wake=lambda: None)
(url,) = phones.start()
phones.follow(Shown(), 0.0)
end = time.monotonic() + 10
while not phones.seated.pin and time.monotonic() < end:
    time.sleep(0.01)
print(json.dumps({"url": url, "qr": phones.server.pinned(url), "pin": phones.seated.pin}),
      flush=True)
sys.stdin.read()
"""


@contextmanager
def box(port: int = 0) -> Iterator[tuple[dict, subprocess.Popen]]:
    """The phones' server of a box started on `port` (0: any free one)."""
    child = subprocess.Popen([sys.executable, "-c", BOX, str(port)], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        line = child.stdout.readline() if child.stdout else ""
        assert line, "the box's server did not start"
        yield json.loads(line), child
    finally:
        child.kill()
        child.wait()
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                pipe.close()


def test_a_page_whose_box_is_gone_says_so_and_a_new_qr_code_in_the_tab_brings_it_back(
        browser):  # noqa: F811 (the fixture)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    with box() as (first, child):
        page.goto(first["qr"])                             # the QR code scanned
        page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
        page.fill("#pin", first["pin"])
        page.click("#seats button >> nth=1")
        page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
        buttons = page.locator("#options button")
        playwright.expect(buttons).to_have_count(2, timeout=WAIT_MS)
        for n in range(2):
            playwright.expect(buttons.nth(n)).to_be_enabled()
        assert page.is_hidden("#gone")
        child.kill()                                       # the power is cut
        child.wait()
        gone = page.locator("#gone")
        playwright.expect(gone).to_have_text(
            "Die Box ist nicht erreichbar: Sie ist aus oder dieses Handy nicht in ihrem "
            "Netz. Die Seite verbindet sich von selbst wieder.", timeout=WAIT_MS)
        assert float(gone.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
        for n in range(2):                                 # no button looks alive
            playwright.expect(buttons.nth(n)).to_be_disabled()
            assert buttons.nth(n).evaluate("b => getComputedStyle(b).backgroundColor") \
                == "rgb(51, 51, 51)"
        port = int(first["url"].rstrip("/").rsplit(":", 1)[1])
    with box(port) as (again, _child):                     # the box started again: a new key
        assert again["qr"] != first["qr"]
        playwright.expect(gone).to_contain_text("QR", timeout=WAIT_MS)
        assert page.is_visible("#seat")                    # the old view, greyed
        playwright.expect(buttons.nth(0)).to_be_disabled()
        fragment = again["qr"].split("#", 1)[1]
        page.evaluate("k => { location.hash = k; }", fragment)   # scanned in the same tab
        playwright.expect(page.locator("#lobby")).to_be_visible(timeout=WAIT_MS)
        playwright.expect(gone).to_be_hidden()
        playwright.expect(page.locator("#seats button").nth(1)).to_be_enabled()
        assert page.evaluate("() => location.hash") == "#" + fragment
    assert problems == []
