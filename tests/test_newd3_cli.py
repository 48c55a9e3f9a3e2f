"""`wolfbox resolve`: one night of the timed game (004) from JSON, as a command."""

from __future__ import annotations

import json
import subprocess
import sys

A1 = ["wolf", "alchemist", "seer", "guard", "sheep", "sheep", "sheep", "sheep", "sheep"]


def resolve(text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", "resolve", *args], input=text,
                          capture_output=True, text=True, timeout=60)


def test_the_issues_example_night_kills_the_unguarded_victim():
    """The Alchemist (2) blocks the Guard (4), so the Guard's protection of 5
    fails and the kill lands; the Seer (3) sees the Alchemist as a Wolf."""
    night = {"players": A1, "dead": [], "actions": {"2": 4, "3": 2, "4": 5},
             "kill": {"target": 5, "knife": 1}}
    result = resolve(json.dumps(night))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"killed": 5, "results": {"3": {"wolf": True}}}


def test_a_night_from_a_file_and_without_a_kill(tmp_path):
    path = tmp_path / "night.json"
    path.write_text(json.dumps({"players": A1, "actions": {"4": 5}}))
    result = resolve("", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"killed": None, "results": {}}


def test_bad_nights_are_one_line_and_exit_2():
    cases = (
        ("[1", "not JSON"),
        ('{"players": ["wolf"]}', "not one of the nine setups"),
        (json.dumps({"players": A1, "actions": {"3": 3}}), "targets itself"),
        (json.dumps({"players": A1, "kill": {"target": 2, "knife": 1}}), ""),
        (json.dumps({"players": A1, "dead": [3], "actions": {"3": 1}}), ""),
        (json.dumps({"players": A1, "actions": {"x": 1}}), '"actions"'),
        (json.dumps({"players": A1, "kill": {"target": 5}}), '"kill" must be'),
        (json.dumps({"players": A1, "nights": 2}), "unknown key 'nights'"),
        # The game is over: both Wolves dead (the Town won), or parity.
        (json.dumps({"players": A1, "dead": [1, 2]}), "already won"),
        (json.dumps({"players": A1, "dead": [5, 6, 7, 8, 9]}), "already won"),
    )
    for text, fragment in cases:
        result = resolve(text)
        assert result.returncode == 2, (text, result.stdout)
        assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr and result.stdout == ""
