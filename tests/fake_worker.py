"""A stand-in renderer process: same protocol as wolfbox.audio.render_worker,
a tone instead of a voice. Modes (argv[1]): ok, slow, crash-on:TEXT, hang-on:TEXT,
garbage."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import tone_wav


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    log = Path(sys.argv[2]) if len(sys.argv) > 2 else None
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
        if mode == "garbage":
            print("not json", flush=True)
            continue
        tone_wav(Path(job["path"]), 0.05)
        print(json.dumps({"path": job["path"], "ok": True, "audio_seconds": 0.05,
                          "render_seconds": 0.0}), flush=True)


if __name__ == "__main__":
    main()
