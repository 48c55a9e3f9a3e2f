"""`make bench`: the box's performance figures, measured on this machine.

Runs the real main loop (SDL's dummy video and audio drivers, the real
painter drawing every frame, gpiozero's mock pins) in this process, with a
cache warmed by the real piper renderer in its own process. Prints a table,
then one JSON line as the last line of output.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import psutil  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from wolfbox.buttons import Button  # noqa: E402
from wolfbox.config import Config  # noqa: E402
from wolfbox.device.app import build, round_settings  # noqa: E402
from wolfbox.flow import Flow  # noqa: E402
from wolfbox.view import Phase  # noqa: E402
from wolfbox.audio.cache import cache_for  # noqa: E402
from wolfbox.audio.renderer import Renderer  # noqa: E402
from wolfbox.audio.voice import find_voice  # noqa: E402

IDLE_SECONDS = float(os.environ.get("WOLFBOX_BENCH_IDLE_SECONDS", 20))
PRESSES = 120
TARGETS = {"idle_cpu_percent": 1.0, "button_to_screen_ms_p99": 20.0,
           "second_redraw_late_ms_p99": 20.0, "start_to_audio_ms": 50.0, "loop_rss_mb": 80.0}


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 \
        else values[0]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def warm_cache(config: Config) -> float:
    """Render the round's lines with the real voice (its own process)."""
    voice = find_voice(config.voice.model)
    cache = cache_for(config, voice)
    renderer = Renderer(voice, cache, timeout=300)
    started = time.perf_counter()
    renderer.request(round_settings(config).lines())
    renderer.wait_idle(600)
    renderer.close()
    missing = cache.missing(round_settings(config).lines())
    if missing:
        sys.exit(f"bench: the voice did not render {len(missing)} lines")
    return time.perf_counter() - started


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="wolfbox-bench-"))
    config = Config()
    config.voice.cache_dir = str(tmp / "cache")
    print(f"warming the cache with the real voice in {tmp} ...", flush=True)
    warm_seconds = warm_cache(config)

    parts = build(config, "window", pin_factory=MockFactory(), stdin_keys=False)
    box, bank, narrator = parts.box, parts.bank, parts.narrator
    frames: list[tuple[float, object]] = []
    box.on_frame = lambda view, t: frames.append((t, view))
    box.refresh()

    def run_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            box.step(max_sleep=end - time.monotonic())

    def tap(button: Button) -> None:
        bank.drive(button, True)
        run_for(0.05)
        bank.drive(button, False)
        run_for(0.05)

    # start_to_audio_ms: START press to the first line handed to the mixer.
    start_lat = []
    for _ in range(10):
        box.flow = Flow(box.flow.settings)
        narrator.played.clear()
        box.refresh()
        run_for(0.1)
        t0 = time.monotonic()
        bank.drive(Button.START, True)
        while not narrator.played and time.monotonic() - t0 < 2:
            box.step(max_sleep=0.01)
        bank.drive(Button.START, False)
        start_lat.append((narrator.played[0].at - t0) * 1000)
        run_for(0.05)

    # Into the discussion: skip through the night with NEXT.
    box.flow = Flow(box.flow.settings)
    tap(Button.START)
    while box.flow.phase is Phase.NIGHT:
        tap(Button.NEXT)
    assert box.flow.phase is Phase.DISCUSSION
    run_for(1.5)

    # idle_cpu_percent and second_redraw_late_ms over IDLE_SECONDS of countdown.
    frames.clear()
    deadline = box.flow.timer.deadline
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    run_for(IDLE_SECONDS)
    cpu1, wall1 = cpu_seconds(), time.monotonic()
    idle_cpu = 100 * (cpu1 - cpu0) / (wall1 - wall0)
    late = []
    for t, view in frames:
        minutes, seconds = view.big.split(":")
        shown = int(minutes) * 60 + int(seconds)
        late.append((t - (deadline - shown)) * 1000)
    rss_mb = psutil.Process().memory_info().rss / 2**20

    # button_to_screen_ms: a press on a gpiozero thread to the flip showing it.
    presses: list[float] = []
    done = threading.Event()

    def presser() -> None:
        for _ in range(PRESSES):
            time.sleep(0.06)
            presses.append(time.monotonic())
            bank.drive(Button.START, True)         # pause / resume: the view flips
            time.sleep(0.06)
            bank.drive(Button.START, False)
        done.set()

    frames.clear()
    thread = threading.Thread(target=presser)
    thread.start()
    while not done.is_set():
        box.step(max_sleep=0.2)
    run_for(0.2)
    thread.join()
    toggles = [t for i, (t, v) in enumerate(frames)
               if i == 0 or v.paused != frames[i - 1][1].paused]
    button_lat = [(next(t for t in toggles if t >= p) - p) * 1000 for p in presses]
    parts.close()

    result = {
        "idle_cpu_percent": round(idle_cpu, 3),
        "button_to_screen_ms_p99": round(p99(button_lat), 2),
        "second_redraw_late_ms_p99": round(p99(late), 2),
        "start_to_audio_ms": round(statistics.median(start_lat), 2),
        "loop_rss_mb": round(rss_mb, 1),
        "button_to_screen_ms_median": round(statistics.median(button_lat), 2),
        "second_redraw_late_ms_max": round(max(late), 2),
        "start_to_audio_ms_max": round(max(start_lat), 2),
        "frames_in_idle": len(late),
        "idle_seconds": IDLE_SECONDS,
        "presses": len(button_lat),
        "warm_cache_seconds": round(warm_seconds, 2),
        "machine": f"{platform.machine()}, {psutil.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
    }
    print()
    print(f"{'figure':32} {'value':>10}  target")
    for key, value in result.items():
        target = TARGETS.get(key)
        mark = "" if target is None else (f"<= {target:g}  " +
                                          ("ok" if value <= target else "MISSED"))
        print(f"{key:32} {value!s:>10}  {mark}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
