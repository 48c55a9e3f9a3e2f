"""A stand-in renderer process: the real worker's protocol and storage code
(wolfbox.audio.render_worker.render_job), a tone instead of a voice.

Modes (argv[1]): ok, slow, crash-on:TEXT, hang-on:TEXT, garbage, long (half
a second of tone a line, to fill a small disk), spin-on:TEXT (works on that
line for ever: a runaway), load:SECONDS:LINE (spends SECONDS of processor
time starting and LINE on each line: a slow machine), crawl:SECONDS (each
line takes SECONDS on the wall clock while using almost no processor time:
a starved process). argv[2], if given, is a
file each job's text is appended to. If FAKE_WORKER_STARTS is set, each
start appends its CLOCK_MONOTONIC time to that file.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import tone_wav
from wolfbox.audio.render_worker import render_job


def tone(seconds: float) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.wav"
        tone_wav(path, seconds)
        return path.read_bytes()


def burn(seconds: float) -> None:
    """Use `seconds` of this process's processor time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    log = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    starts = os.environ.get("FAKE_WORKER_STARTS")
    if starts:
        with open(starts, "a") as f:
            f.write(f"{time.monotonic()}\n")
    if mode.startswith("load:"):
        burn(float(mode.split(":")[1]))
    data = tone(0.5 if mode == "long" else 0.05)
    print(json.dumps({"ready": True, "sample_rate": 22050}), flush=True)
    for raw in sys.stdin:
        job = json.loads(raw)
        if log is not None:
            with log.open("a") as f:
                f.write(job["text"] + "\n")
        if mode.startswith("crash-on:") and job["text"] == mode.split(":", 1)[1]:
            sys.exit(1)
        if mode == "slow":
            time.sleep(0.3)
        if mode.startswith("hang-on:") and job["text"] == mode.split(":", 1)[1]:
            time.sleep(3600)
        if mode.startswith("spin-on:") and job["text"] == mode.split(":", 1)[1]:
            while True:
                burn(1.0)
        if mode.startswith("load:"):
            burn(float(mode.split(":")[2]))
        if mode.startswith("crawl:"):
            end = time.monotonic() + float(mode.split(":")[1])
            while time.monotonic() < end:      # a little work now and then
                burn(0.005)
                time.sleep(0.1)
        if mode == "garbage":
            print("not json", flush=True)
            continue
        print(json.dumps(render_job(lambda text: data, job["text"], Path(job["path"]))),
              flush=True)


if __name__ == "__main__":
    main()
