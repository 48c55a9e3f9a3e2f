"""The core stands alone: checked statically by import-linter (make lint;
tests/test_contracts.py shows a planted violation fails it) and here at
run time, where a lazy import would slip past a static check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pygame", "gpiozero", "piper", "onnxruntime")


@pytest.mark.parametrize("argv", [
    ["script", "--deck", "total_chaos", "--players", "6"],
    ["script", "--json"],
    ["decks"],
    ["config"],
    ["settings"],
    ["replay", "-"],
    ["script", "--mode", "dark_arts", "--json"],
    ["resolve", "night.json"],
])
def test_text_commands_load_no_screen_pins_or_voice(argv, tmp_path):
    probe = (
        "import io, json, sys\n"
        "from wolfbox.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        f"code = main({argv!r})\n"
        "sys.stdout = real\n"
        f"print(json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
    )
    (tmp_path / "night.json").write_text(
        '{"players": ["wolf", "wolf", "seer", "sheep", "sheep", "sheep", "sheep", "sheep", '
        '"sheep"], "kill": {"target": 3, "knife": 1}}')
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            input='{"at": 0, "tap": "start"}\n{"at": 30}\n', timeout=60,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    code, loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert code == 0
    assert loaded == []
