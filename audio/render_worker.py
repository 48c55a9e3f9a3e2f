"""The renderer process: loads a Piper voice once and renders lines to WAV.

Runs as `python -m wolfbox.audio.render_worker MODEL`, reads one JSON object
a line on stdin ({"text": ..., "path": ...}) and answers one JSON object a
line on stdout: {"ready": ...} once the voice is loaded, then one reply a
job ({"ok": true, ...} or {"ok": false, "kind": ..., "detail": ...}). While
it works it also prints {"alive": true, "cpu": seconds} every second, so
the box can tell a slow render from a stopped or stuck process without a
long per-line timeout.

Kept in its own process so the box never holds onnxruntime and the voice
(hundreds of MB) and never waits on synthesis. It runs at the lowest CPU
priority with one core left free, so rendering a cold cache cannot make a
button press late on the main loop.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wolfbox.audio.cache import write_atomic
from wolfbox.audio.faults import os_error_kind

HEARTBEAT_SECONDS = 1.0
_out_lock = threading.Lock()


def emit(message: dict[str, Any]) -> None:
    """One JSON line to the box; the heartbeat thread writes too, so a lock."""
    with _out_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def lower_priority() -> str:
    """Put this process at the lowest CPU priority: SCHED_IDLE where the OS has
    it, else nice 19. Called before any thread starts, since on Linux both are
    per thread and only threads created afterwards inherit them."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return "idle"
    except (AttributeError, OSError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)
        return "nice"
    except (AttributeError, OSError):
        return "normal"


def default_threads() -> int:
    """Cores minus one (at least one): a core stays free for the main loop."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class Heartbeat:
    """Prints a heartbeat every second while the worker is busy. It carries
    the CPU time of every other thread, so a process that still answers but
    has stopped working (a deadlock) looks as hung as a stopped one."""

    def __init__(self) -> None:
        self.busy = threading.Event()
        threading.Thread(target=self._run, name="heartbeat", daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(HEARTBEAT_SECONDS)
            if self.busy.is_set():
                emit({"alive": True, "cpu": time.process_time() - time.thread_time()})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wolfbox-render-worker")
    parser.add_argument("model", type=Path)
    parser.add_argument("--length-scale", type=float, default=1.0)
    parser.add_argument("--volume", type=float, default=1.0)
    parser.add_argument("--engine", choices=("piper", "espeak"), default="piper")
    parser.add_argument("--espeak-voice", default="", help="espeak-ng's voice (-v); "
                        "empty: its default")
    parser.add_argument("--threads", type=int, default=0, help="0: cores minus one")
    parser.add_argument("--priority", choices=("idle", "normal"), default="idle")
    args = parser.parse_args(argv)
    if args.threads <= 0:
        args.threads = default_threads()
    priority = lower_priority() if args.priority == "idle" else "normal"
    beat = Heartbeat()
    if not (math.isfinite(args.volume) and args.volume > 0
            and math.isfinite(args.length_scale) and args.length_scale > 0):
        emit({"ready": False, "kind": "settings",
              "detail": f"volume {args.volume}, length scale {args.length_scale}"})
        return 2
    beat.busy.set()
    try:
        render = _espeak(args) if args.engine == "espeak" else _piper(args)
    except Exception as e:                  # a bad model, a missing library, ...
        emit({"ready": False, "kind": "voice", "detail": f"{type(e).__name__}: {e}"})
        return 1
    finally:
        beat.busy.clear()
    emit({"ready": True, "priority": priority, "threads": args.threads})

    for raw in sys.stdin:
        if not raw.strip():
            continue
        try:
            job = json.loads(raw)
            text, path = str(job["text"]), Path(job["path"])
        except (ValueError, KeyError, TypeError) as e:
            emit({"ok": False, "kind": "protocol", "detail": str(e)})
            continue
        beat.busy.set()
        try:
            emit(render_job(render, text, path))
        finally:
            beat.busy.clear()
    return 0


def render_job(render: Callable[[str], bytes], text: str, path: Path) -> dict[str, Any]:
    """Render one line and store it; the reply says what went wrong, if anything
    (a storage fault by kind, so the box can word it and keep the line)."""
    started = time.perf_counter()
    try:
        data = render(text)
        with wave.open(io.BytesIO(data), "rb") as check:
            frames = check.getnframes()
            rate = check.getframerate()
        if frames <= 0 or rate <= 0:
            raise ValueError("no audio")
    except Exception as e:                  # this line, not the voice or the disk
        return {"ok": False, "kind": "line", "detail": f"{type(e).__name__}: {e}"}
    try:
        write_atomic(path, data)
    except OSError as e:
        return {"ok": False, "kind": os_error_kind(e), "detail": e.strerror or str(e)}
    return {"path": str(path), "ok": True, "audio_seconds": frames / rate,
            "render_seconds": time.perf_counter() - started}


def _piper(args: argparse.Namespace) -> Callable[[str], bytes]:
    # The voice's config first: a bad path fails before the heavy imports.
    config = json.loads(Path(f"{args.model}.json").read_text(encoding="utf-8"))
    import onnxruntime
    from piper import PiperVoice, SynthesisConfig
    from piper.config import PiperConfig

    # PiperVoice.load builds its session with default options (every core,
    # spinning threads): build it here with the thread cap instead.
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(str(args.model), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    voice = PiperVoice(config=PiperConfig.from_dict(config), session=session,
                       download_dir=Path(os.environ.get("XDG_CACHE_HOME") or "/tmp"))
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

    voice = ["-v", args.espeak_voice] if args.espeak_voice else []

    def render(text: str) -> bytes:
        raw = subprocess.run([str(args.model), "--stdout", "-s", str(speed),
                              "-a", str(amplitude), *voice, text],
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
