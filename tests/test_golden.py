"""Golden replays: whole games of each kind, events in, the timeline out
(`wolfbox replay`'s JSON lines: every screen, line, cue and light a table
sees and hears), compared byte for byte with the timeline recorded before
the engine under the three games was rebuilt (issue 21).

A difference is a change a table would notice. When one is meant (a new
line, a fixed timing), record again and read the diff before committing:

    .venv/bin/python tests/test_golden.py --record [NAME ...]

The walks were written by tests/replays/walk.py (seeded random taps and
holds, the language and settings changed on the way; each reaches a
game's end); `classic_round` is the hand-written round of test_replay.
The games on phones were written by tests/replays/phone_walk.py (every
seat seated, answers drawn from the options each phone's task offers)
and hold each phone's view besides the box's screen.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPLAYS = Path(__file__).parent / "replays"

# name: (the events file, the options of `wolfbox replay`)
GOLDEN: dict[str, tuple[str, tuple[str, ...]]] = {
    "one_night_classic": ("classic_round.events", ("--mode", "one_night")),
    "one_night_walk": ("walk_11_400.events", ("--mode", "one_night", "--seed", "11")),
    "one_night_chaos": ("walk_5_1500.events",
                        ("--mode", "one_night", "--deck", "total_chaos", "--players", "8",
                         "--seed", "5")),
    "mayor_walk": ("walk_2_400.events", ("--mode", "dark_arts", "--seed", "2")),
    "mayor_long": ("walk_8_1500.events", ("--mode", "dark_arts", "--seed", "8")),
    "timed_walk": ("walk_3_400.events", ("--mode", "newd3", "--seed", "3")),
    "timed_long": ("walk_1_700.events", ("--mode", "newd3", "--seed", "1")),
    # Played on phones: every seat holds one (the Mayor's console too) and
    # answers the tasks its phone shows (tests/replays/phone_walk.py).
    "one_night_phones": ("phones_one_night_21_200.events",
                         ("--mode", "one_night", "--deck", "classic_5", "--seed", "21")),
    "mayor_phones": ("phones_mayor_22_2500.events", ("--mode", "dark_arts", "--seed", "22")),
    "timed_phones": ("phones_timed_23_990.events", ("--mode", "newd3", "--seed", "23")),
}


def timeline(name: str) -> bytes:
    """`wolfbox replay` of a golden game, in a box that remembers nothing."""
    events, options = GOLDEN[name]
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, "XDG_STATE_HOME": state}
        env.pop("STATE_DIRECTORY", None)
        done = subprocess.run([sys.executable, "-m", "wolfbox", "replay",
                               str(REPLAYS / events), *options],
                              capture_output=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def golden_path(name: str) -> Path:
    return REPLAYS / f"{name}.golden.gz"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_a_whole_game_sees_and_hears_what_it_did(name):
    expected = gzip.decompress(golden_path(name).read_bytes())
    got = timeline(name)
    if got != expected:
        old, new = expected.splitlines(), got.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                     min(len(old), len(new)))
        before = old[first] if first < len(old) else b"(the recorded game ended)"
        after = new[first] if first < len(new) else b"(this game ended)"
        pytest.fail(f"{name}: record {first + 1} differs\n  was: {before.decode()[:600]}\n"
                    f"  now: {after.decode()[:600]}")


def test_the_golden_games_reach_the_ends_of_their_games():
    """The walks are worth keeping only if they go deep: each game's end is
    reached (a winner or a verdict), and not only in English."""
    ends = {"one_night_walk": "reveal", "one_night_chaos": "reveal",
            "mayor_long": "end", "timed_long": "end",
            "one_night_phones": "verdict", "mayor_phones": "end", "timed_phones": "end"}
    for name, phase in ends.items():
        records = [json.loads(line) for line in
                   gzip.decompress(golden_path(name).read_bytes()).splitlines()]
        assert any(r.get("phase") == phase for r in records), name


@pytest.mark.parametrize("name", ["one_night_phones", "mayor_phones", "timed_phones"])
def test_the_phone_games_show_every_seats_phone_and_take_its_answers(name):
    """A phone game's timeline holds what each seat's phone showed, its
    tasks, and answers the game took (a task showing what it chose)."""
    events, _options = GOLDEN[name]
    lines = (REPLAYS / events).read_text().splitlines()
    seated = next(json.loads(t)["seated"] for t in lines if '"seated"' in t)
    records = [json.loads(line) for line in
               gzip.decompress(golden_path(name).read_bytes()).splitlines()]
    phones = [r for r in records if "phone" in r]
    assert {r["phone"] for r in phones} == set(seated)
    assert any("task" in r for r in phones)
    assert any(r.get("task", {}).get("chosen") for r in phones)


def record(names: list[str] | None = None) -> None:
    for name in names or sorted(GOLDEN):
        golden_path(name).write_bytes(gzip.compress(timeline(name), mtime=0))
        print(f"recorded {golden_path(name).name}")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or not set(sys.argv[2:]) <= set(GOLDEN):
        sys.exit("usage: tests/test_golden.py --record [NAME ...]")
    record(sys.argv[2:])
