"""How ready the round's voice is, for the start screen, and records that
do not grow for as long as the box runs."""

from __future__ import annotations

import builtins
import os
import sys
import time
from pathlib import Path

from helpers import forbid_checks_on_the_main_thread, tone_wav
from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat
from wolfbox.audio.narrator import Narrator
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import find_voice
from wolfbox.effects import Say, Warm

HERE = Path(__file__).parent


def until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def narrator_with(tmp_path, mode: str = "ok") -> tuple[Narrator, LineCache, Path]:
    cache = LineCache(tmp_path / "c", "voice-a", SynthSettings(), WavFormat(22050))
    log = tmp_path / "order.txt"
    r = Renderer(find_voice(""), cache, command=[sys.executable, str(HERE / "fake_worker.py"),
                                                 mode, str(log)])
    return Narrator(cache, r, time.monotonic), cache, log


def test_readiness_counts_up_to_the_whole_round_first_lines_first(tmp_path, mixer, monkeypatch):
    lines = [f"Line {i}." for i in range(8)]
    n, cache, log = narrator_with(tmp_path, "slow")
    tone_wav(cache.path(lines[5]))                       # cached already
    assert n.readiness() == (0, 0)
    seen = []
    try:
        n.apply(Warm(tuple(lines)))
        while n.readiness() != (8, 8):
            seen.append(n.readiness())
            assert len(seen) < 100_000, seen[-1]
            time.sleep(0.005)
        assert all(needed == 8 for _, needed in seen)
        counts = [ready for ready, _ in seen]
        assert counts == sorted(counts) and counts[0] < 8   # it counted up as lines came
        assert log.read_text().split("\n")[:-1] == lines[:5] + lines[6:]
        # Ready means checked ahead: saying a line checks nothing on the main
        # loop (the whole WAV was read off the thread, so it is file-cached).
        forbid_checks_on_the_main_thread(monkeypatch)
        n.apply(Say(lines[0], token=1))
        assert [p.text for p in n.played] == [lines[0]] and list(n.missed) == []
    finally:
        n.close()


def test_readiness_never_touches_the_disk(tmp_path, mixer, monkeypatch):
    lines = ["One.", "Two."]
    n, cache, _ = narrator_with(tmp_path)
    try:
        n.warm(lines)
        until(lambda: n.readiness() == (2, 2))

        def no_disk(*a, **k):
            raise AssertionError("disk I/O in readiness()")
        for name in ("stat", "open", "listdir", "scandir"):
            monkeypatch.setattr(os, name, no_disk)
        monkeypatch.setattr(builtins, "open", no_disk)
        assert n.readiness() == (2, 2)
    finally:
        monkeypatch.undo()
        n.close()


def test_a_new_round_is_rendered_before_the_rest_of_the_old_one(tmp_path, mixer):
    old = [f"Old {i}." for i in range(10)]
    new = ["New 1.", "New 2.", "Old 9."]
    n, cache, log = narrator_with(tmp_path, "slow")
    try:
        n.warm(old)
        until(lambda: log.exists() and log.read_text())
        n.warm(new)
        assert n.readiness()[1] == 3
        until(lambda: n.readiness() == (3, 3))
        order = log.read_text().split("\n")[:-1]
        after = order[order.index("New 1."):]
        assert after[:3] == new                    # the new round first, in its order
        assert not all(cache.get(t) for t in old[:9])    # while the old one waited
    finally:
        n.close()


def test_a_box_without_a_voice_needs_nothing(tmp_path):
    n = Narrator(None, None, time.monotonic, sound=False)
    n.apply(Warm(("One.",)))
    assert n.readiness() == (0, 0)


def test_records_keep_only_the_latest(tmp_path, mixer):
    n, _, _ = narrator_with(tmp_path)
    n.renderer.close()                           # nothing renders: every line is missed
    try:
        for i in range(1000):
            n.apply(Say(f"Line {i}.", token=i))
        assert 0 < len(n.missed) <= 500 and n.missed[-1] == "Line 999."
        assert 0 < len(n.cues) <= 500
        assert n.missed == list(n.missed)            # still compares as a list
    finally:
        n.close()
