"""Issue 42.11: `make bench` stopped at the Mayor's Lovers (the picker no
longer starts on a seat) and nothing noticed until the figures were wanted.
The bench's own driver plays each game once here, so a change that breaks
the bench fails the suite; the figures themselves are `make bench`'s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchs_driver_plays_each_game_once_to_its_end(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "memory.py"), "--all", "3"],
                         capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(figures) == {"games_rss_mb_all_start", "games_rss_mb_all_after_3"}
    assert all(value > 0 for value in figures.values())
