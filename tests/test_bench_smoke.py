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


def bench_part(tmp_path, call: str) -> subprocess.CompletedProcess[str]:
    """`call` on bench/bench.py's runner of the bench's parts, in a process
    of its own (importing the bench points SDL and the state folder at its
    own)."""
    code = (f"import json, sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench; "
            f"{call}")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)


def test_the_bench_runs_a_part_to_its_end_and_reads_its_figures(tmp_path):
    """bench.py's runner of its parts and bench/timed.py (box time on a fake
    clock: the same figures on any machine, the README's)."""
    run = bench_part(tmp_path, "print(json.dumps(bench.timed_figures()))")
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["timed_deal_window_phones_s"] <= 30.0
    assert figures["timed_night_phones_s"] <= 90.0


def test_a_part_of_the_bench_is_stopped_only_when_it_hangs(tmp_path):
    """A busy machine makes a part slow, never silent: the bench waits as
    long as the part uses CPU (a fixed 900 s ended `make bench` on a busy
    machine before any figure), and stops one that used none for the
    stall time, saying which."""
    (tmp_path / "hangs.py").write_text("import time\ntime.sleep(20)\n")
    (tmp_path / "works.py").write_text(
        "import json, time\nend = time.process_time() + 0.5\n"
        "while time.process_time() < end:\n    pass\nprint(json.dumps({'done': 1}))\n")
    patient = "bench.STALLED_SECONDS, bench.POLL_SECONDS = 5, 0.1; "
    quick = "bench.STALLED_SECONDS, bench.POLL_SECONDS = 0.3, 0.1; "
    works = str(tmp_path / "works.py")
    run = bench_part(tmp_path, patient + f"print(bench.part_figures({works!r}))")
    assert run.returncode == 0 and "{'done': 1}" in run.stdout, run.stderr[-2000:]
    run = bench_part(tmp_path, quick + f"bench.part_figures({str(tmp_path / 'hangs.py')!r})")
    assert run.returncode != 0
    assert "hangs.py : no CPU used for 0 s; taken as hung" in run.stderr
