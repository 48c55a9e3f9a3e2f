"""The renderer's ceiling is counted in the worker's processor time and
scaled by what loading the voice cost (issue 34): a runaway worker is
stopped and says which limit ended it; a starved one, or one on a machine
as slow as an emulated arm64 system, is left to finish its line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_audio import cache_at

import wolfbox.audio.renderer as renderer_module
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import find_voice

HERE = Path(__file__).parent
WAIT = 120.0                       # a bound: each wait ends when the renderer is idle


@pytest.fixture(autouse=True)
def small_factor(monkeypatch):
    """A line may use 3 times what the worker's start used (100 on the box),
    so that a test's runaway burns a second or two, not a minute."""
    monkeypatch.setattr(renderer_module, "CEILING_PER_START", 3.0)


def renderer(tmp_path, mode: str, timeout: float, said: list[str]) -> Renderer:
    cmd = [sys.executable, str(HERE / "fake_worker.py"), mode]
    return Renderer(find_voice(""), cache_at(tmp_path), command=cmd, timeout=timeout,
                    report=said.append, backoff_first=0.0, priority="normal")


def test_a_runaway_line_is_stopped_by_its_processor_time_and_says_so(tmp_path):
    said: list[str] = []
    r = renderer(tmp_path, "spin-on:stuck", 2.0, said)
    r.request(["before", "stuck", "after"])
    assert r.wait_idle(WAIT)
    r.close()
    assert r.cache.get("before") and r.cache.get("after")
    assert r.cache.get("stuck") is None and r.stats.failed == 1
    assert len(said) == 1
    assert "processor time on one line" in said[0] and "limit of 2 s" in said[0]
    assert "progress" not in said[0]


def test_a_starved_worker_slower_than_the_ceiling_on_the_wall_clock_finishes(tmp_path):
    said: list[str] = []
    r = renderer(tmp_path, "crawl:3", 2.0, said)    # 3 s a line, little processor time
    r.request(["slow"])
    assert r.wait_idle(WAIT)
    r.close()
    assert r.cache.get("slow") and r.stats.failed == 0 and said == []


def test_a_line_may_take_longer_where_loading_the_voice_took_longer(tmp_path):
    """A worker whose start cost over 1.2 s of processor time may spend 3
    times that on a line; one that started at once (a Python's start, well
    under half a second) is held to the 2 s ceiling."""
    said: list[str] = []
    slow_machine = renderer(tmp_path / "a", "load:1.2:3", 2.0, said)
    slow_machine.request(["line"])
    assert slow_machine.wait_idle(WAIT)
    slow_machine.close()
    assert slow_machine.cache.get("line") and said == []
    fast_start = renderer(tmp_path / "b", "load:0:3", 2.0, said)
    fast_start.request(["line"])
    assert fast_start.wait_idle(WAIT)
    fast_start.close()
    assert fast_start.cache.get("line") is None
    assert len(said) == 1 and "on one line" in said[0] and "limit of 2 s" in said[0]
