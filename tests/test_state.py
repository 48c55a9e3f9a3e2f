"""What the box remembers, and that a power cut mid-save never corrupts it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from helpers import press
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.device.state import StateStore, state_path
from wolfbox.hardware.factory import mock_factory

WRITER = """
import sys, itertools
from pathlib import Path
from wolfbox.device.state import StateStore
store = StateStore(Path(sys.argv[1]))
for i in itertools.count():
    store.save({"deck": ["villager"] * (i % 50 + 1), "n": i, "pad": "x" * 20000})
"""


def test_killing_a_writer_mid_save_never_leaves_a_broken_file(tmp_path):
    path = tmp_path / "state.json"
    rng = random.Random(1)
    for _ in range(25):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)])
        time.sleep(0.25 + rng.random() * 0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = json.loads(path.read_text())               # always whole, always valid
        assert len(data["deck"]) == data["n"] % 50 + 1
        assert len(data["pad"]) == 20000
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "state.json"]
    assert len(leftovers) <= 25                           # at most a temp file per kill


def test_unreadable_state_is_ignored(tmp_path, caplog):
    path = tmp_path / "state.json"
    path.write_text("{not json")
    assert StateStore(path).load() == {}
    assert "ignoring unreadable saved state" in caplog.text
    path.write_text('{"deck": "seer"}')
    assert StateStore(path).remembered_deck() is None


def test_the_deck_chosen_on_the_box_survives_a_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert state_path() == tmp_path / "state.json"
    config = Config()
    config.voice.enabled = False
    parts = build(config, "headless", pin_factory=mock_factory(), stdin_keys=False)
    try:
        press(parts, Button.NEXT)
        chosen = list(parts.box.flow.settings.deck)
    finally:
        parts.close()
    assert StateStore(state_path()).remembered_deck() == chosen
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-m", "wolfbox", "--headless"], env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=30, preexec_fn=lambda: signal.alarm(4))
    assert "Evil Transformation" in result.stdout          # the deck after classic_3
