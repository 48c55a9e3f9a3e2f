"""Helpers for tests that run the real loop."""

from __future__ import annotations

import math
import struct
import time
import wave
from pathlib import Path

from wolfbox.audio.cache import LineCache, cache_for
from wolfbox.audio.voice import find_voice
from wolfbox.config import Config


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


def line_cache(config: Config) -> LineCache:
    return cache_for(config, find_voice(config.voice.model))


def fill_cache(config: Config, texts: list[str], seconds: float = 0.15) -> LineCache:
    """Stand in for the voice: a short tone for every line (a fake renderer)."""
    cache = line_cache(config)
    for text in texts:
        tone_wav(cache.path(text), seconds)
    return cache


def run_for(box, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and box.running:
        box.step(max_sleep=end - time.monotonic())


def run_until(box, predicate, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out waiting for the box"
        box.step(max_sleep=0.05)


def press(parts, button, hold: float = 0.0) -> None:
    """Drive the button's mock pin low, then high, letting the loop run."""
    parts.bank.drive(button, True)
    run_for(parts.box, max(hold, 0.02))
    parts.bank.drive(button, False)
    run_for(parts.box, 0.06)      # longer than the debounce, as fingers are


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
