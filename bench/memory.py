"""The box's memory over many games (`make bench` runs it in a process of
its own; `python bench/memory.py [GAMES]` alone prints the same JSON line).

The real loop (window mode on SDL's dummy driver, the real painter, the
narrator with an open mixer, mock pins) plays fast One Night games on a
fake clock, each on the next deck, so other lines and other screens come
and go. Every line is a 1.5 s tone standing in for the voice. What grows
here grows on a box left on all evening.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import wave
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import psutil

from wolfbox.audio.cache import cache_for
from wolfbox.audio.voice import find_voice
from wolfbox.buttons import Button
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.hardware.factory import mock_factory
from wolfbox.view import Phase

TONE_SECONDS = 1.5


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def _tone(path: Path, seconds: float, rate: int = 22050) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x10\x00\xf0\xff" * int(seconds * rate / 2))


def rss_mb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def measure(games: int) -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="wolfbox-memory-"))
    os.environ["XDG_STATE_HOME"] = str(tmp / "state")
    config = Config()
    config.game.discussion_seconds = 3
    config.game.warnings = [2]
    config.night.scale = 0.02
    config.night.line_gap = 0.05
    config.voice.cache_dir = str(tmp / "cache")
    cache = cache_for(config, find_voice(config.voice.model))
    for text in game_lines(config):
        _tone(cache.path(text), TONE_SECONDS)
    clock = Clock()
    parts = build(config, "window", clock=clock, pin_factory=mock_factory(), stdin_keys=False,
                  renderer_command=["false"])
    box = parts.box
    box.on_frame = lambda view, t: None

    def advance(seconds: float) -> None:
        target = clock.now + seconds
        while (due := box.next_due(clock.now)) is not None and due <= target:
            clock.now = max(clock.now, due)
            box.act(box.inbox.wait(0))
        clock.now = target
        box.act(box.inbox.wait(0))

    def press(button: Button) -> None:
        parts.bank.drive(button, True)
        box.act(box.inbox.wait(0))
        advance(0.05)
        parts.bank.drive(button, False)
        box.act(box.inbox.wait(0))
        advance(0.1)

    parts.narrator.wait_warm(60)
    box.refresh()
    figures = {"start": rss_mb()}
    for game in range(1, games + 1):
        press(Button.NEXT)                 # the next deck: other lines, other screens
        press(Button.START)
        for _ in range(10_000):
            if box.flow.phase is Phase.REVEAL:
                break
            advance(0.25)
        press(Button.NEXT)
        press(Button.START)
        parts.narrator.wait_warm(60)
        if game in (10, 50):
            figures[f"after_{game}"] = rss_mb()
    figures[f"after_{games}"] = rss_mb()
    parts.close()
    return {f"games_rss_mb_{k}": round(v, 1) for k, v in figures.items()}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 300)))
