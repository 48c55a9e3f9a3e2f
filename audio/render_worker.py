"""The renderer process: loads a Piper voice once and renders lines to WAV.

Runs as `python -m wolfbox.audio.render_worker MODEL`, reads one JSON object
a line on stdin ({"text": ..., "path": ...}) and answers one JSON object a
line on stdout. Kept in its own process so the box never holds onnxruntime
and the voice (hundreds of MB) and never waits on synthesis.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
import wave
from pathlib import Path

from wolfbox.audio.cache import write_atomic


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wolfbox-render-worker")
    parser.add_argument("model", type=Path)
    parser.add_argument("--length-scale", type=float, default=1.0)
    parser.add_argument("--volume", type=float, default=1.0)
    args = parser.parse_args(argv)

    from piper import PiperVoice, SynthesisConfig

    voice = PiperVoice.load(args.model)
    syn = SynthesisConfig(length_scale=args.length_scale, volume=args.volume)
    print(json.dumps({"ready": True, "sample_rate": voice.config.sample_rate}), flush=True)

    for raw in sys.stdin:
        if not raw.strip():
            continue
        job = json.loads(raw)
        started = time.perf_counter()
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            voice.synthesize_wav(job["text"], wav, syn_config=syn)
        data = buf.getvalue()
        with wave.open(io.BytesIO(data), "rb") as check:
            frames = check.getnframes()
            rate = check.getframerate()
        write_atomic(Path(job["path"]), data)
        print(json.dumps({"path": job["path"], "ok": True,
                          "audio_seconds": frames / rate,
                          "render_seconds": time.perf_counter() - started}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
