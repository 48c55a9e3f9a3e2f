"""Issue 41.3: the Wolves showed in the tap counts. Every box frame was
one size, but a phone that acted sent more sealed frames than a decoy
(in a timed night 11 against 3): anyone counting a phone's frames on the
air could point at the Wolves. In a secret window every page sends one
frame a second from the moment its task came, whatever its role and taps,
and a tap rides in the next one. Five Chromium phones, One Night's
Troublemaker call held open while the phones run: every phone's frames
counted and timed as the box reads them (before they are opened)."""

from __future__ import annotations

import threading
import time

from test_onenight_phones_browser import DECK, SEATS, hear, seed_with_a_troublemaker
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
from wolfbox.phones import protocol, seal
from wolfbox.phones.server import PhoneServer

__all__ = ["CHROMIUM", "pytestmark"]
COVER = 1.0                      # the page's COVER_MS, in seconds
WAIT = 15.0                      # only a bound: each wait ends on frames arriving


class Heard:
    """Every sealed frame the server reads from each phone, with when (the
    real clock: the pages run on it), by the seat its socket holds then."""

    def __init__(self, monkeypatch) -> None:
        self.frames: dict[int, list[tuple[float, int, str]]] = {}
        self.changed = threading.Condition()
        real = PhoneServer._opened

        def opened(server, phone, raw):
            message = real(server, phone, raw)
            if phone.seat is not None and isinstance(raw, bytes):
                kind = type(message).__name__ if message is not None else "?"
                with self.changed:
                    self.frames.setdefault(phone.seat, []).append(
                        (time.monotonic(), len(raw), kind))
                    self.changed.notify_all()
            return message
        monkeypatch.setattr(PhoneServer, "_opened", opened)

    def since(self, at: float) -> dict[int, list[tuple[float, int, str]]]:
        with self.changed:
            return {s: [f for f in fs if f[0] >= at] for s, fs in self.frames.items()}

    def until_each(self, at: float, count: int) -> None:
        """Wait until every seat sent `count` frames since `at` (bounded)."""
        with self.changed:
            assert self.changed.wait_for(lambda: all(
                len([f for f in self.frames.get(s, []) if f[0] >= at]) >= count
                for s in SEATS), timeout=WAIT), {s: len(f) for s, f in self.since(at).items()}


def test_in_a_secret_window_every_phone_sends_the_same_frames_whatever_it_taps(
        tmp_path, pilots, browser, monkeypatch):  # noqa: F811
    heard = Heard(monkeypatch)
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    config.night.scale = 5.0                              # a call long enough to watch
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    import random
    game.rng = random.Random(seed_with_a_troublemaker())
    pages = seat_phones(browser, pilot.view.join, SEATS)
    hear(pilot, lambda: game.table is not None)
    table = game.table
    maker = table.dealt.index("troublemaker") + 1
    pilot.press(Button.START)
    pilot.until(lambda: table.call == "troublemaker" and table.open, step=1.0)
    for seat in SEATS:
        playwright.expect(pages[seat][0].locator("#options button")).to_have_count(
            4, timeout=WAIT_MS)
    opened = time.monotonic()
    heard.until_each(opened, 2)                           # the window's clock runs everywhere
    before = list(table.cards)
    others = [s for s in SEATS if s != maker]
    tapped = time.monotonic()
    page = pages[maker][0]                                # the Troublemaker's two taps
    for seat in others[:2]:
        page.locator("#options button", has_text=f"P{seat} · {seat}").click(timeout=WAIT_MS)
    decoy = pages[others[2]][0]                           # a decoy taps too; the rest do not
    for seat in (maker, others[0]):
        decoy.locator("#options button", has_text=f"P{seat} · {seat}").click(timeout=WAIT_MS)
    hear(pilot, lambda: table.cards != before)            # the swap rode in a frame
    heard.until_each(tapped, 3)
    window = heard.since(opened)
    counts = {seat: len(frames) for seat, frames in window.items()}
    sizes = {size for frames in window.values() for _t, size, _k in frames}
    assert sizes == {protocol.PHONE_FRAME_BYTES + seal.OVERHEAD}
    # The same count on every phone, give or take the one at the edge of
    # the look, tapping or not ...
    assert max(counts.values()) - min(counts.values()) <= 1, counts
    # ... and on its clock: no frame sooner than the page's second after
    # the one before (a tap sent at once would be), for every phone.
    for seat, frames in window.items():
        gaps = [b[0] - a[0] for a, b in zip(frames, frames[1:], strict=False)]
        assert all(gap > 0.6 * COVER for gap in gaps), (seat, gaps)
    kinds = {seat: {k for _t, _s, k in frames} for seat, frames in window.items()}
    assert "Choose" in kinds[maker] and "Cover" in kinds[maker]
    assert kinds[others[3]] == {"Cover"}                  # never tapped: covers alone
