"""What the box remembers, and that a power cut mid-save never corrupts it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import Lines

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device.state import StateStore, state_path

WRITER = """
import sys, itertools
from pathlib import Path
from wolfbox.device.state import StateStore
store = StateStore(Path(sys.argv[1]))
for i in itertools.count():
    store.save({"deck": ["villager"] * (i % 50 + 1), "n": i, "pad": "x" * 20000})
    print(i, flush=True)                          # a save is complete, and the next begins
"""


def test_killing_a_writer_mid_save_never_leaves_a_broken_file(tmp_path):
    path = tmp_path / "state.json"
    rng = random.Random(1)
    for _ in range(25):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                                stdout=subprocess.PIPE, text=True)
        # Kill it a varied number of saves in: it is always mid-save or about to be.
        for _ in range(rng.randint(1, 6)):
            line = proc.stdout.readline()
            assert line, "the writer died on its own"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        data = json.loads(path.read_text())               # always whole, always valid
        assert len(data["deck"]) == data["n"] % 50 + 1
        assert len(data["pad"]) == 20000
        assert data["n"] >= int(line)                       # the last save it reported
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "state.json"]
    assert len(leftovers) <= 25                           # at most a temp file per kill


def test_unreadable_state_is_ignored(tmp_path, caplog):
    path = tmp_path / "state.json"
    path.write_text("{not json")
    assert StateStore(path).load() == {}
    assert "ignoring unreadable saved state" in caplog.text
    path.write_text('{"deck": "seer"}')
    assert StateStore(path).remembered_deck() is None


def test_the_deck_chosen_on_the_box_survives_a_restart(tmp_path, monkeypatch, pilots):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert state_path() == tmp_path / "state.json"
    config = Config()
    config.voice.enabled = False
    pilot = pilots.start(config, fill=False)
    pilot.press(Button.NEXT)
    chosen = list(pilot.box.flow.active.settings.deck)
    pilot.parts.close()                 # as the box does at exit: the last save is written
    assert StateStore(state_path()).remembered_deck() == chosen
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    assert "Evil Transformation" in start_screen(env)      # the deck after classic_3


def start_screen(env: dict[str, str]) -> str:
    """What a real `wolfbox --headless` shows once its start screen is up."""
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out = Lines(proc.stdout)
        out.wait_for("== ")                                   # the first frame
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        return out.rest()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()


def whatever_is_there(path):
    """Things a state file can turn out to be after a bad day."""
    yield "a FIFO", lambda: os.mkfifo(path)
    yield "a folder", lambda: path.mkdir()
    yield "a huge file", lambda: path.write_text('{"deck": ["seer"], "pad": "'
                                                 + "x" * 2**21 + '"}')
    yield "deep nesting", lambda: path.write_text("[" * 60000 + "]" * 60000)
    yield "a dangling link", lambda: path.symlink_to(path.parent / "nowhere")


@pytest.mark.parametrize("kind", [kind for kind, _ in whatever_is_there(Path("x"))])
def test_a_state_path_holding_anything_is_one_warning_and_the_defaults(tmp_path, caplog,
                                                                        kind):
    path = tmp_path / "state.json"
    dict(whatever_is_there(path))[kind]()
    results: list[object] = []
    reader = threading.Thread(target=lambda: results.extend(
        [StateStore(path).load(), StateStore(path).remembered_deck()]), daemon=True)
    reader.start()
    reader.join(timeout=60)                 # an upper bound: a FIFO's open() never returns
    stuck = reader.is_alive()
    if stuck and kind == "a FIFO":
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))   # let the reader go
    assert not stuck, f"{kind}: still reading after 60 s"
    assert results == [{}, None]
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert kind == "a dangling link" or len(warnings) == 1     # read twice, said once (19)
    assert all("ignoring unreadable saved state" in r.getMessage() for r in warnings)


def test_a_saved_state_as_big_as_the_limit_is_read(tmp_path):
    """The limit is for what is not ours, not a truncation of what is."""
    path = tmp_path / "state.json"
    deck = ["werewolf", "seer", "robber", "troublemaker", "villager", "werewolf"]
    StateStore(path).save({"deck": deck, "pad": "x" * (60 * 1024)})
    assert StateStore(path).remembered_deck() == deck


def test_the_box_starts_whatever_its_state_path_holds(tmp_path):
    """`--safe-config` is the service's promise of a box that starts."""
    os.mkfifo(tmp_path / "state.json")                  # the worst: an open() that waits
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "STATE_DIRECTORY": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert "Classic" in start_screen(env)
