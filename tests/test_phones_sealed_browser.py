"""The sealed page in a real browser (issue 31, item 3): Debian's Chromium
opens the QR code's address (the box's key in its fragment), joins and
follows the box through sealed frames made by tweetnacl and read by
libsodium, and back; a page whose fragment holds another key talks to
nobody and says to scan the code again. The page may use no WebCrypto
(a plain-http page on the Wi-Fi has none; loopback would): here any use
of it is an error on the page."""

from __future__ import annotations

from urllib.parse import urlsplit

from nacl.public import PrivateKey
from test_phones_browser import CHROMIUM, WAIT_MS, browser, pytestmark  # noqa: F401
from test_phones_browser import playwright as pw

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.phones import seal

PHONE = {"width": 360, "height": 740}
# What a plain-http page on the Wi-Fi lacks (a secure origin's APIs):
# loopback is a secure origin to Chromium, so they are taken away here.
NO_SECURE_ORIGIN = """
Object.defineProperty(Crypto.prototype, "subtle", {get: function () {
  throw new Error("WebCrypto used"); }});
Object.defineProperty(Crypto.prototype, "randomUUID", {get: function () {
  throw new Error("randomUUID used"); }});
"""


def open_page(browser, url: str):  # noqa: F811 (the fixture)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(NO_SECURE_ORIGIN)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return page, problems


def test_a_phone_that_scanned_the_qr_code_joins_and_follows_the_box_sealed(
        tmp_path, pilots, browser):  # noqa: F811 (the fixture)
    pilot = pilots.start(phones_config(tmp_path))
    pilot.settle()
    card = pilot.view.join
    assert card is not None and urlsplit(card.qr).fragment.startswith("k=")
    ann, problems = open_page(browser, card.qr)
    ann.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#lobby-title") == "One Night"
    ann.fill("#pin", card.pin)
    ann.fill("#name", "Ann")
    ann.click("#seats button >> nth=2")                     # seat 3
    ann.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#seat-title") == "Seat 3"
    ann.reload()                                            # the fragment and the token stay
    ann.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
    assert ann.inner_text("#seat-title") == "Seat 3"
    pilot.press(Button.START)                               # the night falls on the box
    pw.expect(ann.locator("body")).to_have_class("dim", timeout=WAIT_MS)
    assert ann.inner_text("#title") == pilot.view.title
    assert problems == []


def test_a_page_whose_address_holds_another_key_talks_to_nobody(
        tmp_path, pilots, browser):  # noqa: F811 (the fixture)
    pilot = pilots.start(phones_config(tmp_path))
    pilot.settle()
    card = pilot.view.join
    assert card is not None
    another = seal.text(bytes(PrivateKey.generate().public_key))
    page, problems = open_page(browser, f"{card.url}#k={another}")
    page.wait_for_selector("#gone:has-text('scan the QR code')", timeout=WAIT_MS)
    assert page.is_hidden("#lobby") and page.is_hidden("#seat")
    typed, _ = open_page(browser, card.url)                 # the typed address: no key to check
    typed.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    assert problems == []
