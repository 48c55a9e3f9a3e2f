"""Issue 20.11: what a long-running box holds stays bounded.

Two things grew with every deck, game, language and window size a box had
seen: the painter kept every face at every pixel size it had ever tried
(each a FreeType face with its glyph cache, the CJK face beside it even on
an English screen), and the narrator kept every line it had ever read
into memory. The README's performance section has the figures."""

from __future__ import annotations

import time
from dataclasses import replace

import pygame

from helpers import tone_wav
from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat
from wolfbox.audio.narrator import Narrator
from wolfbox.config import Config
from wolfbox.device import painter as painting
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import dark_arts_views, round_views
from wolfbox.effects import Say, Warm

FONTS_AT_MOST = 64          # the bound the README gives


def test_the_painter_keeps_a_bounded_number_of_fonts_and_no_chinese_for_english():
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: "/no/such/font/needed.ttc")
    views = list(round_views(Config()))
    for size in ((480, 320), (800, 480)):
        for _name, view, notice in views:
            render_view(view, size, notice, painter)
    held = list(painter._fonts.values())
    assert len(held) <= FONTS_AT_MOST
    # The Chinese face is opened only for Chinese: an English box never asks.
    assert painter._cjk_known is False
    assert all(not t._cjk_open for t in held)


def test_the_narrator_lets_go_of_the_lines_the_next_round_does_not_need(tmp_path, mixer):
    cache = LineCache(tmp_path / "c", "voice-a", SynthSettings(), WavFormat(22050))
    first = [f"First round, line {i}." for i in range(12)]
    second = [f"Second round, line {i}." for i in range(12)]
    for text in first + second:
        tone_wav(cache.path(text), seconds=0.3)
    n = Narrator(cache, None, time.monotonic)
    try:
        n.apply(Warm(tuple(first)))
        n.wait_warm(30)
        for i, text in enumerate(first[:6]):
            n.apply(Say(text, token=i))          # these are decoded, the rest read
        n.apply(Warm(tuple(second + first[:1])))  # the next deck: one line in common
        n.wait_warm(30)
        for text in first:
            cache.path(text).unlink()
        # What the new round needs is still in memory; the rest is gone.
        n.apply(Say(first[0], token=100))
        n.apply(Say(first[1], token=101))
        n.apply(Say(first[8], token=102))
        assert [p.text for p in n.played][-1] == first[0]
        assert list(n.missed)[-2:] == [first[1], first[8]]
    finally:
        n.close()


def test_a_whole_games_lines_are_checked_ahead_but_not_held_in_the_boxs_memory(tmp_path, mixer):
    """The timed game can say some 270 lines: read into the box's memory they
    were 16 MiB of tones (more with a voice), over the 80 MB budget. They are
    checked ahead and left in the system's file cache; only the last eight
    said stay decoded (the bound the README gives)."""
    cache = LineCache(tmp_path / "c", "voice-a", SynthSettings(), WavFormat(22050))
    lines = [f"Line {i}." for i in range(40)]
    for text in lines:
        tone_wav(cache.path(text), seconds=1.0)
    one_line = 22050 * 2                                # a second of 16-bit mono
    n = Narrator(cache, None, time.monotonic)
    try:
        n.apply(Warm(tuple(lines)))
        n.wait_warm(30)
        assert n.readiness() == (40, 40)
        assert n.held_bytes() == 0                      # checked, nothing held yet
        for i, text in enumerate(lines):
            n.apply(Say(text, token=i))
        assert [p.text for p in n.played] == lines and list(n.missed) == []
        assert 0 < n.held_bytes() <= 8 * one_line * 1.01
        n.apply(Say(lines[-1], token=99))               # the last ones said are kept
        assert n.held_bytes() <= 8 * one_line * 1.01
    finally:
        n.close()


def test_the_next_frame_of_the_seat_ring_reopens_few_fonts_and_the_bound_holds(monkeypatch):
    """The seat ring tries more sizes in one draw than the painter keeps (the
    Mayor's and the timed game draw it every frame): a bound applied mid-draw
    closed the fonts the same draw was about to ask for again, and every
    frame (a new seat, a new second) reopened thousands (0.16 s a frame). A
    draw keeps what it uses; the painter trims back to the bound when done."""
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: "/no/such/font/needed.ttc")
    ring = next(view for name, view, _notice in dark_arts_views() if name == "c-mayor-dawn")
    render_view(replace(ring, big="Seat 1"), (960, 640), "", painter)
    assert len(painter._fonts) <= FONTS_AT_MOST
    opened: list[int] = []
    real_open = painting.open_font
    monkeypatch.setattr(painting, "open_font", lambda path, px: opened.append(px)
                        or real_open(path, px))
    render_view(replace(ring, big="Seat 2"), (960, 640), "", painter)   # the next frame
    # A new text asks for the sizes beyond the bound again, not for thousands.
    assert len(opened) <= FONTS_AT_MOST, f"{len(opened)} fonts opened for one frame"
    assert len(painter._fonts) <= FONTS_AT_MOST
