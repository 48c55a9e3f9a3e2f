"""Issue 20.11: what a long-running box holds stays bounded.

Two things grew with every deck, game, language and window size a box had
seen: the painter kept every face at every pixel size it had ever tried
(each a FreeType face with its glyph cache, the CJK face beside it even on
an English screen), and the narrator kept every line it had ever read
into memory. The README's performance section has the figures."""

from __future__ import annotations

import time

import pygame
import pytest

from helpers import tone_wav
from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat
from wolfbox.audio.narrator import Narrator, open_mixer
from wolfbox.config import Config
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import round_views
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


@pytest.fixture
def mixer():
    pygame.mixer.quit()
    assert open_mixer(22050) is None
    yield
    pygame.mixer.quit()


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
