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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wolfbox.audio.cache import write_atomic
from wolfbox.audio.faults import os_error_kind
from wolfbox.audio.pieces import CLAUSE_MARKS, cap_for, pieces
from wolfbox.audio.readings import respelled

if TYPE_CHECKING:                       # imported where used: they are heavy
    import numpy as np
    from piper import PiperVoice, SynthesisConfig

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
    from piper import SynthesisConfig

    voice = load_piper(args.model, config, args.threads)
    syn = SynthesisConfig(length_scale=args.length_scale, volume=args.volume)
    cap = cap_for(args.length_scale)

    def render(text: str) -> bytes:
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            wav.setframerate(voice.config.sample_rate)
            wav.setsampwidth(2)
            wav.setnchannels(1)
            for frames in sentences(voice, text, syn, cap):
                wav.writeframes(frames)
        return buf.getvalue()
    return render


def load_piper(model: Path, config: dict[str, Any], threads: int) -> PiperVoice:
    """The voice with our own onnxruntime session: PiperVoice.load builds one
    with default options (every core, spinning threads, memory patterns)."""
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    # A memory pattern is planned per input shape, and every sentence has
    # its own: with patterns on, the arena keeps a block for each length
    # seen (the catalogue's peak: 335 MB with pieces capped, 240 without).
    options.enable_mem_pattern = False
    session = onnxruntime.InferenceSession(str(model), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    return PiperVoice(config=PiperConfig.from_dict(config), session=session,
                      download_dir=Path(os.environ.get("XDG_CACHE_HOME") or "/tmp"))


def sentences(voice: PiperVoice, text: str, syn: SynthesisConfig,
              cap: int) -> Iterator[bytes]:
    """16-bit frames of `text`, a sentence at a time, as piper's own
    PiperVoice.synthesize makes them, except that a sentence longer than
    `cap` phoneme ids is rendered in pieces (audio/pieces.py) and joined
    before it is normalised, so it sounds as loud as one said whole."""
    import numpy as np

    def count(phonemes: list[str]) -> int:
        return len(voice.phonemes_to_ids(phonemes))

    for phonemes in voice.phonemize(text):
        if not phonemes:
            continue
        parts = pieces(phonemes, count, cap)
        audio = join([np.asarray(voice.phoneme_ids_to_audio(voice.phonemes_to_ids(p), syn),
                                 dtype=np.float32).reshape(-1) for p in parts],
                     [p[-1] in CLAUSE_MARKS for p in parts[:-1]], voice.config.sample_rate)
        if syn.normalize_audio:
            peak = float(np.max(np.abs(audio))) if audio.size else 0.0
            audio = audio / peak if peak >= 1e-8 else np.zeros_like(audio)
        audio = np.clip(audio * syn.volume, -1.0, 1.0)
        yield np.clip(audio * 32767.0, -32767.0, 32767.0).astype(np.int16).tobytes()


# The longest pause a join may leave: a comma's in a sentence said whole
# (the catalogue's are 150-590 ms, median 350), and a short breath where a
# clause had to be cut between words (pauses there are 60-110 ms).
JOIN_PAUSE_CLAUSE = 0.40
JOIN_PAUSE_WORD = 0.15


def join(parts: list[np.ndarray], after_clause: list[bool], rate: int) -> np.ndarray:
    """Pieces of one sentence back into one: each piece ends and starts in
    silence of its own, and the two together can be longer than any pause
    the voice makes inside a sentence (up to 790 ms); the silence at a join
    is cut to at most the pause of its kind, so no join stands out."""
    import numpy as np

    if len(parts) == 1:
        return parts[0]
    window = max(1, rate // 100)
    quiet = 0.01 * max(float(np.max(np.abs(p))) if p.size else 0.0 for p in parts)

    def silent_run(audio: np.ndarray) -> int:
        """Samples of silence (10 ms windows under -40 dB of the peak) at its start."""
        n = 0
        while n + window <= audio.size and \
                float(np.sqrt(np.mean(audio[n:n + window] ** 2))) < quiet:
            n += window
        return n

    out = [parts[0]]
    for clause, part in zip(after_clause, parts[1:], strict=True):
        tail, lead = silent_run(out[-1][::-1]), silent_run(part)
        excess = tail + lead - int((JOIN_PAUSE_CLAUSE if clause else JOIN_PAUSE_WORD) * rate)
        if excess > 0:
            cut_tail = min(excess, tail)
            out[-1] = out[-1][:out[-1].size - cut_tail]
            part = part[min(excess - cut_tail, lead):]
        out.append(part)
    return np.concatenate(out)


def _espeak(args: argparse.Namespace) -> Callable[[str], bytes]:
    speed = max(80, min(450, round(165 / args.length_scale)))   # words a minute
    amplitude = round(100 * args.volume)

    voice = ["-v", args.espeak_voice] if args.espeak_voice else []

    def render(text: str) -> bytes:
        said = respelled(text, args.espeak_voice)
        raw = subprocess.run([str(args.model), "--stdout", "-s", str(speed),
                              "-a", str(amplitude), *voice, said],
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
