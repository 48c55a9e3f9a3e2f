"""Helpers for tests of the real box: a tone standing in for the voice, the
cache filled with it, and a guard on what the main loop reads from it."""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

import pytest

from wolfbox.audio.cache import LineCache, cache_for
from wolfbox.audio.voice import find_voice
from wolfbox.config import Config
from wolfbox.device.fonts import CJK_FONTS

# The box's three languages as a test parameter: Chinese screens are checked
# only where a CJK face the box knows is installed (CI installs
# fonts-wqy-microhei); without one the box draws a notice instead of the
# glyphs, which its own tests check (test_device_render).
LANGS = ["en", "de",
         pytest.param("zh", marks=pytest.mark.skipif(
             not any(Path(f).is_file() for f in CJK_FONTS),
             reason="no CJK font installed (fonts-wqy-microhei)"))]


def tone_wav(path: Path, seconds: float = 0.15, rate: int = 22050, freq: float = 440.0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = int(seconds * rate)
    frames = b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * freq * i / rate)))
                      for i in range(n))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)


def phones_config(tmp_path: Path, mode: str = "one_night", on: bool = True) -> Config:
    """A box for `mode` with phones on loopback, on a free port."""
    c = Config()
    c.game.mode = mode
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    c.phones.enabled, c.phones.listen, c.phones.port = on, ["127.0.0.1"], 0
    return c


def line_cache(config: Config) -> LineCache:
    return cache_for(config, find_voice(config.voice.model))


def fill_cache(config: Config, texts: list[str], seconds: float = 0.15) -> LineCache:
    """Stand in for the voice: a short tone for every line (a fake renderer)."""
    cache = line_cache(config)
    for text in texts:
        tone_wav(cache.path(text), seconds)
    return cache


def forbid_checks_on_the_main_thread(monkeypatch) -> None:
    """From now on a cached line checked on the main thread (the box's loop)
    fails the test: a line ready to play was checked ahead, off the loop."""
    import threading

    from wolfbox.audio.cache import LineCache
    real_get = LineCache.get

    def checked(self, text):
        assert threading.current_thread() is not threading.main_thread(), \
            f"{text!r} checked on the main loop when it was due"
        return real_get(self, text)
    monkeypatch.setattr(LineCache, "get", checked)
