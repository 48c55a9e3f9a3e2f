"""The box's memory over many games (`make bench` runs it in a process of
its own; `python bench/memory.py [GAMES]` alone prints the same JSON line).

The real loop (window mode on SDL's dummy driver, the real painter, the
narrator with an open mixer, mock pins) plays fast One Night games on a
fake clock, each on the next deck, so other lines and other screens come
and go. Every line is a 1.5 s tone standing in for the voice. What grows
here grows on a box left on all evening.

`python bench/memory.py --all [GAMES] [--trace]` plays the three games in
turn instead, switching with hold VOTE on each setup screen as a table
would: a fast One Night game, a Mayor's game through night 1 (the Lovers
marked), dawn and the confirmation into the discussion, and a timed game
through the deal, night 1 and into the day, the last two ended with BACK
held twice (a whole Mayor's game needs the table's own entries; the night
and dawn are where its lines and screens come and go). `--trace` compares
tracemalloc snapshots after game 10 and the last on stderr: the sites
that grew.
"""

from __future__ import annotations

import gc
import json
import os
import random
import sys
import tempfile
import tracemalloc
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
from wolfbox.darkarts import said as mayor_said
from wolfbox.device.app import build
from wolfbox.hardware.factory import mock_factory
from wolfbox.newd3 import said as timed_said
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


def measure(games: int, every_game: bool = False, trace: bool = False) -> dict[str, float]:
    """RSS at the start, after game 10, 50 and `games`: One Night alone, or
    (`every_game`) the three games in turn."""
    tmp = Path(tempfile.mkdtemp(prefix="wolfbox-memory-"))
    os.environ["XDG_STATE_HOME"] = str(tmp / "state")
    config = Config()
    config.game.discussion_seconds = 3
    config.game.warnings = [2]
    config.night.scale = 0.02
    config.night.line_gap = 0.05
    config.voice.cache_dir = str(tmp / "cache")
    cache = cache_for(config, find_voice(config.voice.model))
    lines = set(game_lines(config))
    if every_game:
        lines |= set(mayor_said.all_lines()) | set(timed_said.all_lines())
    for text in lines:
        _tone(cache.path(text), TONE_SECONDS)
    clock = Clock()
    parts = build(config, "window", clock=clock, pin_factory=mock_factory(), stdin_keys=False,
                  renderer_command=["false"])
    box = parts.box
    box.on_frame = lambda view, t: None
    hold = config.buttons.hold_seconds + 0.1
    rng = random.Random(20)

    def advance(seconds: float) -> None:
        target = clock.now + seconds
        while (due := box.next_due(clock.now)) is not None and due <= target:
            clock.now = max(clock.now, due)
            box.act(box.inbox.wait(0))
        clock.now = target
        box.act(box.inbox.wait(0))

    def press(button: Button, seconds: float = 0.05) -> None:
        parts.bank.drive(button, True)
        box.act(box.inbox.wait(0))
        advance(seconds)
        parts.bank.drive(button, False)
        box.act(box.inbox.wait(0))
        advance(0.1)

    def stage() -> str:
        return str(getattr(box.flow.active, "stage", ""))

    def switch_to(name: str) -> None:
        """Hold VOTE on the setup screen until the box plays `name`."""
        for _ in range(3):
            if box.flow.name == name:
                return
            press(Button.VOTE, hold)
        raise AssertionError(f"hold VOTE never reached {name}")

    def one_night() -> None:
        press(Button.NEXT)                 # the next deck: other lines, other screens
        press(Button.START)
        for _ in range(10_000):
            if box.flow.active.phase is Phase.REVEAL:
                break
            advance(0.25)
        press(Button.NEXT)
        press(Button.START)

    def until_day() -> None:
        """START when the game waits for the table, time on when it waits for
        itself; the Lovers marked on night 1 (two seats a few NEXTs apart)."""
        press(Button.START)
        for _ in range(2000):
            if stage() in ("discussion", "end"):
                return
            if stage() == "lovers":
                # No seat is lit when the Lovers are asked for (against a
                # hurried mark): NEXT lights the first.
                press(Button.NEXT)
                press(Button.VOTE)
                for _ in range(rng.randint(1, 4)):
                    press(Button.NEXT)
                press(Button.VOTE)
                press(Button.START)
                continue
            due = box.next_due(clock.now)
            if due is None or due - clock.now > 30:
                press(Button.START)
            else:
                advance(max(due - clock.now, 0.05))
        raise AssertionError(f"the game never reached its day: {stage()}")

    def back_to_setup() -> None:
        """BACK held twice ends the game; the end screen then goes back to the setup."""
        for _ in range(4):
            if stage() == "setup":
                return
            if stage() == "end":
                press(Button.START)
            else:
                press(Button.BACK, hold)
        raise AssertionError(f"the game never went back to its setup: {stage()}")

    def mayor_or_timed() -> None:
        until_day()
        advance(rng.choice((1.0, 10.0, 60.0)))       # some of the day's screens
        back_to_setup()

    plays = {"one_night": one_night, "dark_arts": mayor_or_timed, "newd3": mayor_or_timed}
    order = list(plays) if every_game else ["one_night"]
    parts.narrator.wait_warm(60)
    box.refresh()
    figures = {"start": rss_mb()}
    first: tracemalloc.Snapshot | None = None
    if trace:
        tracemalloc.start(8)
    for game in range(1, games + 1):
        name = order[(game - 1) % len(order)]
        switch_to(name)
        plays[name]()
        parts.narrator.wait_warm(60)
        if game in (10, 50):
            figures[f"after_{game}"] = rss_mb()
        if trace and game == 10:
            first = tracemalloc.take_snapshot()
    figures[f"after_{games}"] = rss_mb()
    if trace and first is not None:
        grew = tracemalloc.take_snapshot().compare_to(first, "traceback")
        for stat in grew[:12]:
            print(f"{stat.size_diff / 1024:+.0f} KiB {stat.count_diff:+d} blocks",
                  *stat.traceback.format()[-6:], sep="\n  ", file=sys.stderr)
    parts.close()
    prefix = "games_rss_mb_all_" if every_game else "games_rss_mb_"
    return {f"{prefix}{k}": round(v, 1) for k, v in figures.items()}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    every = "--all" in sys.argv
    print(json.dumps(measure(int(args[0]) if args else (99 if every else 300), every,
                             "--trace" in sys.argv)))
