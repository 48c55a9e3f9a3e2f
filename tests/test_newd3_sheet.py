"""`wolfbox script --mode newd3`: the timed game's plan (004's numbers)."""

from __future__ import annotations

import json
import subprocess
import sys


def script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", "script", "--mode", "newd3", *args],
                          capture_output=True, text=True, timeout=60)


def test_the_plan_as_json_has_004s_numbers():
    result = script("--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["mode"], data["players"], data["max_nights"]) == ("newd3", 9, 8)
    # 004: discussion 2½ minutes, vote 45 s; night coordination 30 s, actions 45 s.
    assert data["phases"] == [{"id": "discussion", "seconds": 150},
                              {"id": "vote", "seconds": 45},
                              {"id": "coordination", "seconds": 30},
                              {"id": "actions", "seconds": 45}]
    # A strict majority: 5 of 9, 4 of 7, 3 of 5 (004), 5 of 8.
    assert {k: data["thresholds"][k] for k in ("9", "8", "7", "5")} == {
        "9": 5, "8": 5, "7": 4, "5": 3}
    assert sorted(data["setups"]) == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]
    assert sorted(data["setups"]["C3"]) == sorted(["wolf", "wolf", "noble", "noble"]
                                                  + ["sheep"] * 5)


def test_the_plan_as_text_and_what_it_refuses():
    text = script()
    assert text.returncode == 0, text.stderr
    assert "  A1: Wolf, Alchemist, Seer, Guard, 5× Sheep" in text.stdout
    refused = script("--players", "7")
    assert refused.returncode == 2 and "nine players" in refused.stderr
