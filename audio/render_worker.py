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
import subprocess
import sys
import time
import wave
from collections.abc import Callable
from pathlib import Path

from wolfbox.audio.cache import write_atomic


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wolfbox-render-worker")
    parser.add_argument("model", type=Path)
    parser.add_argument("--length-scale", type=float, default=1.0)
    parser.add_argument("--volume", type=float, default=1.0)
    parser.add_argument("--engine", choices=("piper", "espeak"), default="piper")
    args = parser.parse_args(argv)
    render = _espeak(args) if args.engine == "espeak" else _piper(args)
    print(json.dumps({"ready": True}), flush=True)

    for raw in sys.stdin:
        if not raw.strip():
            continue
        job = json.loads(raw)
        started = time.perf_counter()
        data = render(job["text"])
        with wave.open(io.BytesIO(data), "rb") as check:
            frames = check.getnframes()
            rate = check.getframerate()
        write_atomic(Path(job["path"]), data)
        print(json.dumps({"path": job["path"], "ok": True,
                          "audio_seconds": frames / rate,
                          "render_seconds": time.perf_counter() - started}), flush=True)
    return 0


def _piper(args: argparse.Namespace) -> Callable[[str], bytes]:
    from piper import PiperVoice, SynthesisConfig

    voice = PiperVoice.load(args.model)       # once for the whole batch
    syn = SynthesisConfig(length_scale=args.length_scale, volume=args.volume)

    def render(text: str) -> bytes:
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            voice.synthesize_wav(text, wav, syn_config=syn)
        return buf.getvalue()
    return render


def _espeak(args: argparse.Namespace) -> Callable[[str], bytes]:
    speed = max(80, min(450, round(165 / args.length_scale)))   # words a minute
    amplitude = round(100 * args.volume)

    def render(text: str) -> bytes:
        raw = subprocess.run([str(args.model), "--stdout", "-s", str(speed),
                              "-a", str(amplitude), text],
                             capture_output=True, check=True, timeout=60).stdout
        # A stream's header cannot know its length: write a WAV that does.
        with wave.open(io.BytesIO(raw), "rb") as streamed:
            params = streamed.getparams()
            frames = streamed.readframes(2**31 - 1)
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            wav.setnchannels(params.nchannels)
            wav.setsampwidth(params.sampwidth)
            wav.setframerate(params.framerate)
            wav.writeframes(frames)
        return buf.getvalue()
    return render


if __name__ == "__main__":
    sys.exit(main())
