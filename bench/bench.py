"""`make bench`: the box's performance figures, measured on this machine.

Runs the real main loop (SDL's dummy video and audio drivers, the real
painter drawing every frame, gpiozero's mock pins) in this process, with a
cache warmed by the real piper renderer in its own process. Prints a table,
then one JSON line as the last line of output.

Idle CPU is measured in the discussion's last minute, when the VOTE light
pulses (its gpiozero thread is part of the cost), and compared with a
minimal pygame-ce loop redrawing once a second, run at the same time in a
process of its own: on a machine this figure travels, the raw percentage
does not. Button latency is measured twice: on an idle machine and while
the real renderer renders the whole catalogue into a cold cache.
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
# The bench measures a new box: nothing this machine's box remembers (a
# language, a game) may change what it renders or plays.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="wolfbox-bench-state-")
os.environ.pop("STATE_DIRECTORY", None)

import psutil

from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import find_voice
from wolfbox.buttons import Button
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.hardware.factory import mock_factory
from wolfbox.onenight.flow import Flow
from wolfbox.view import Phase

IDLE_SECONDS = float(os.environ.get("WOLFBOX_BENCH_IDLE_SECONDS", 20))
PRESSES = 120
TARGETS = {"idle_cpu_percent": 1.0, "button_to_screen_ms_p99": 20.0,
           "button_to_screen_ms_p99_rendering": 20.0, "idle_cpu_ratio": 1.5,
           "second_redraw_late_ms_p99": 20.0, "start_to_audio_ms": 50.0, "loop_rss_mb": 80.0,
           "button_to_cue_ms": 30.0, "games_rss_mb": 80.0,
           "games_rss_mb_all": 80.0, "renderer_peak_rss_mb": 250.0,
           # phones at the table (bench/phones.py)
           "phone_to_box_ms_p99": 50.0, "idle_cpu_ratio_phones": 1.5,
           "phones_extra_rss_mb": 30.0,
           # the timed game on phones, box time (bench/timed.py)
           "timed_deal_window_phones_s": 30.0, "timed_night_phones_s": 90.0}
AT_LEAST = {"render_vs_cli_ratio": 5.0}
CLI_LINES = 12          # lines rendered both ways for render_vs_cli_ratio


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 \
        else values[0]


def worker_cpu(renderer: Renderer) -> float:
    """CPU seconds of the renderer's running worker (0 if none runs)."""
    pid = renderer.worker_pid()
    if pid is None:
        return 0.0
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# A minimal pygame-ce program: a clock face redrawn once a second, the
# yardstick for the box's idle CPU. It prints its own CPU seconds over the
# measured window (after start-up) as its last line.
MINIMAL_LOOP = """
import os, resource, sys, time
os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame
pygame.init()
screen = pygame.display.set_mode((int(sys.argv[1]), int(sys.argv[2])))
font = pygame.font.Font(None, 120)
seconds = float(sys.argv[3])
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
print("ready", flush=True)
start, cpu0 = time.monotonic(), cpu()
while time.monotonic() - start < seconds:
    pygame.event.get()
    screen.fill((10, 10, 30))
    text = font.render(time.strftime("%M:%S"), True, (240, 240, 240))
    screen.blit(text, text.get_rect(center=screen.get_rect().center))
    pygame.display.flip()
    time.sleep(1 - (time.monotonic() - start) % 1)
print(cpu() - cpu0, time.monotonic() - start, flush=True)
"""


def start_minimal_loop(size: tuple[int, int], seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", MINIMAL_LOOP, str(size[0]), str(size[1]),
                             str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def minimal_loop_cpu_percent(proc: subprocess.Popen[str]) -> float:
    out, _ = proc.communicate(timeout=600)
    cpu, wall = (float(x) for x in out.split()[-2:])
    return 100 * cpu / wall


def prepare_cold(config_path: Path, state: Path) -> dict[str, float]:
    """`wolfbox prepare` on an empty cache, as a person runs it on a new box
    (no remembered settings: a language chosen on this machine's box would
    change the voice). The renderer's peak is its own high-water mark
    (VmHWM), read from /proc while it runs."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "prepare", "--config",
                             str(config_path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "STATE_DIRECTORY": str(state)})
    peak_kb = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_kb
        while not done.is_set():
            try:
                children = psutil.Process(proc.pid).children(recursive=True)
            except psutil.Error:
                children = []
            for child in children:
                try:
                    with open(f"/proc/{child.pid}/status") as f:
                        hwm = next((int(line.split()[1]) for line in f
                                    if line.startswith("VmHWM")), 0)
                except (OSError, ValueError):
                    continue
                peak_kb = max(peak_kb, hwm)
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    done.set()
    sampler.join()
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"bench: wolfbox prepare failed: {err.strip()}")
    summary = re.search(r"rendered (\d+) lines \((\d+) s of speech\) in ([\d.]+) s", err)
    assert summary, err
    lines, speech, render = int(summary[1]), float(summary[2]), float(summary[3])
    return {"prepare_cold_s": elapsed, "lines": lines, "speech_s": speech,
            "render_rtf": render / speech, "renderer_peak_rss_mb": peak_kb / 1024}


def batch_vs_cli(config: Config, texts: list[str], tmp: Path) -> tuple[float, float]:
    """The same lines by our batch renderer and by piper's command line, a
    process a line (how a naive integration calls it)."""
    voice = find_voice(config.voice.model)
    cache = LineCache(tmp / "batch", voice.identity, SynthSettings())
    renderer = Renderer(voice, cache, timeout=300, priority="normal")   # as `prepare` renders
    started = time.perf_counter()
    renderer.request(texts)
    renderer.wait_idle()
    batch = time.perf_counter() - started
    renderer.close()
    started = time.perf_counter()
    for i, text in enumerate(texts):
        subprocess.run([sys.executable, "-m", "piper", "-m", str(voice.model), "-f",
                        str(tmp / f"cli-{i}.wav")], input=text, text=True, check=True,
                       capture_output=True)
    return batch, time.perf_counter() - started


GAMES = 300
GAMES_ALL = 99          # the three games in turn, 33 each


# A part of the bench whose processes used no CPU for this long has hung;
# it is looked at every POLL_SECONDS.
STALLED_SECONDS = 300.0
POLL_SECONDS = 10.0


def part_figures(script: str, *args: str) -> dict[str, float]:
    """A part of the bench (bench/<script>) in processes of its own: the
    JSON line it ends with. It may take as long as the machine makes it:
    `memory.py --all 99` takes 2.5 minutes on a quiet machine and more
    than 15 on a busy one (a fixed 900 s timeout stopped the whole bench
    there, issue 42.11). What ends it is a hang: its processes (children
    too) using no CPU for STALLED_SECONDS."""
    proc = subprocess.Popen([sys.executable, str(Path(__file__).parent / script), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    used, since = -1.0, time.monotonic()
    while True:
        try:
            out, err = proc.communicate(timeout=POLL_SECONDS)   # retried: nothing is lost
            break
        except subprocess.TimeoutExpired:
            now_used = tree_cpu_seconds(proc.pid)
            if now_used > used:
                used, since = now_used, time.monotonic()
            elif time.monotonic() - since > STALLED_SECONDS:
                proc.kill()
                proc.communicate()
                raise RuntimeError(f"bench/{script} {' '.join(args)}: no CPU used for "
                                   f"{STALLED_SECONDS:.0f} s; taken as hung") from None
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, out, err)
    return json.loads(out.strip().splitlines()[-1])


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children so far (0 once gone)."""
    try:
        root = psutil.Process(pid)
        total = 0.0
        for p in [root, *root.children(recursive=True)]:
            try:
                times = p.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
        return total
    except psutil.Error:
        return 0.0


def games_rss(*args: str) -> dict[str, float]:
    """bench/memory.py's figures: the loop's memory over many fast games, in
    a process of its own (this one holds the bench's own box)."""
    return part_figures("memory.py", *args)


def phones_figures() -> dict[str, float]:
    """bench/phones.py, in processes of its own (the box with phones and
    without, the phones in a third)."""
    return part_figures("phones.py")


def timed_figures() -> dict[str, float]:
    """bench/timed.py: the timed game's deal and night with and without
    phones, on the game's own fake clock."""
    return part_figures("timed.py")


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="wolfbox-bench-"))
    config = Config()
    config.voice.cache_dir = str(tmp / "cache")
    # The whole idle window inside the last minute, where VOTE's light pulses.
    config.game.discussion_seconds = min(59.0, IDLE_SECONDS + 30)
    config_path = tmp / "bench.toml"
    config_path.write_text(f'[voice]\ncache_dir = "{tmp / "cache"}"\n')
    print(f"wolfbox prepare on an empty cache in {tmp} ...", flush=True)
    rendering = prepare_cold(config_path, tmp / "state")
    texts = game_lines(config)[:CLI_LINES]
    print(f"rendering {len(texts)} lines in one batch and by piper's CLI, a process a line ...",
          flush=True)
    batch_s, cli_s = batch_vs_cli(config, texts, tmp)
    print(f"playing {GAMES} fast games for the loop's memory ...", flush=True)
    games = games_rss(str(GAMES))
    print(f"playing {GAMES_ALL} fast games of the three in turn ...", flush=True)
    games.update(games_rss("--all", str(GAMES_ALL)))
    print("the phones: idle with nine joined, taps from twenty ...", flush=True)
    phones = phones_figures()
    phones.update(timed_figures())
    print("running the box ...", flush=True)

    parts = build(config, "window", pin_factory=mock_factory(), stdin_keys=False)
    box, bank, narrator = parts.box, parts.bank, parts.narrator
    frames: list[tuple[float, object]] = []
    box.on_frame = lambda view, t: frames.append((t, view))
    narrator.wait_warm(60)
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

    # start_to_audio_ms: START press to the first line handed to the mixer;
    # button_to_cue_ms: the same press to its chime handed to the mixer.
    def new_round() -> Flow:
        """A fresh round of the same settings, played by the box's game
        switch as the box plays every game."""
        games = box.flow
        flow = Flow(games.active.settings)
        games.make = {**games.make, games.name: lambda: flow}
        games.restart()
        return flow

    start_lat, cue_lat = [], []
    for _ in range(10):
        new_round()
        narrator.played.clear()
        narrator.cues.clear()
        box.refresh()
        run_for(0.1)
        t0 = time.monotonic()
        bank.drive(Button.START, True)
        while not narrator.played and time.monotonic() - t0 < 2:
            box.step(max_sleep=0.01)
        bank.drive(Button.START, False)
        start_lat.append((narrator.played[0].at - t0) * 1000)
        cue_lat.append((narrator.cues[0][1] - t0) * 1000)
        run_for(0.05)

    # Into the discussion: skip through the night with NEXT.
    flow = new_round()
    tap(Button.START)
    while flow.phase is Phase.NIGHT:
        tap(Button.NEXT)
    assert flow.phase is Phase.DISCUSSION
    run_for(1.5)

    # idle_cpu_percent and second_redraw_late_ms over IDLE_SECONDS of countdown,
    # the minimal loop measured over the same seconds.
    assert parts.leds is not None
    pulsing = [b.value for b, light in parts.leds.shown.items() if light.value == "pulse"]
    minimal = start_minimal_loop((config.screen.width, config.screen.height), IDLE_SECONDS)
    frames.clear()
    assert flow.timer is not None
    deadline = flow.timer.deadline
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    run_for(IDLE_SECONDS)
    cpu1, wall1 = cpu_seconds(), time.monotonic()
    idle_cpu = 100 * (cpu1 - cpu0) / (wall1 - wall0)
    minimal_cpu = minimal_loop_cpu_percent(minimal)
    late = []
    for t, view in frames:
        minutes, seconds = view.big.split(":")
        shown = int(minutes) * 60 + int(seconds)
        late.append((t - (deadline - shown)) * 1000)
    rss_mb = psutil.Process().memory_info().rss / 2**20

    # button_to_screen_ms: a press on a gpiozero thread to the flip showing it,
    # first on an idle machine, then while the renderer renders the whole
    # catalogue into a cold cache.
    tap(Button.NEXT)                               # time enough for both runs
    tap(Button.NEXT)

    def press_latencies() -> list[float]:
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
        return [(next(t for t in toggles if t >= p) - p) * 1000 for p in presses]

    button_lat = press_latencies()
    voice = find_voice(config.voice.model)
    cold = LineCache(tmp / "cold" / voice.name, voice.identity, SynthSettings(),
                     WavFormat(voice.sample_rate))
    first = threading.Event()
    renderer = Renderer(voice, cold, on_ready=lambda text: first.set())
    renderer.request(game_lines(config))
    first.wait(300)                                # the worker is up and rendering
    render_cpu0 = worker_cpu(renderer)
    button_lat_rendering = press_latencies()
    still_rendering = bool(renderer.pending())
    render_cpu = worker_cpu(renderer) - render_cpu0
    renderer.close()
    parts.close()

    result = {
        "idle_cpu_percent": round(idle_cpu, 3),
        "button_to_screen_ms_p99": round(p99(button_lat), 2),
        "button_to_screen_ms_p99_rendering": round(p99(button_lat_rendering), 2),
        "idle_cpu_ratio": round(idle_cpu / minimal_cpu, 2) if minimal_cpu else float("inf"),
        "minimal_loop_cpu_percent": round(minimal_cpu, 3),
        "pulsing_in_idle": ",".join(pulsing) or "none",
        "rendering_throughout": still_rendering,
        "renderer_cpu_s_while_pressing": round(render_cpu, 2),
        "second_redraw_late_ms_p99": round(p99(late), 2),
        "start_to_audio_ms": round(statistics.median(start_lat), 2),
        "loop_rss_mb": round(rss_mb, 1),
        "games_rss_mb": games[f"games_rss_mb_after_{GAMES}"],
        "games_rss_mb_all": games[f"games_rss_mb_all_after_{GAMES_ALL}"],
        **{k: v for k, v in games.items()
           if k not in (f"games_rss_mb_after_{GAMES}", f"games_rss_mb_all_after_{GAMES_ALL}")},
        "button_to_cue_ms": round(statistics.median(cue_lat), 2),
        **phones,
        "render_rtf": round(rendering["render_rtf"], 4),
        "render_vs_cli_ratio": round(cli_s / batch_s, 1),
        "prepare_cold_s": round(rendering["prepare_cold_s"], 1),
        "renderer_peak_rss_mb": round(rendering["renderer_peak_rss_mb"], 0),
        "catalogue_lines": rendering["lines"],
        "catalogue_speech_s": rendering["speech_s"],
        "batch_s": round(batch_s, 2),
        "cli_s": round(cli_s, 2),
        "button_to_screen_ms_median": round(statistics.median(button_lat), 2),
        "button_to_screen_ms_median_rendering": round(statistics.median(button_lat_rendering),
                                                      2),
        "second_redraw_late_ms_max": round(max(late), 2),
        "start_to_audio_ms_max": round(max(start_lat), 2),
        "frames_in_idle": len(late),
        "idle_seconds": IDLE_SECONDS,
        "presses": len(button_lat),
        "load_avg_1m_at_end": round(os.getloadavg()[0], 2),
        "machine": f"{platform.machine()}, {psutil.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
    }
    print()
    print(f"{'figure':32} {'value':>10}  target")
    for key, value in result.items():
        if key in TARGETS:
            mark = f"<= {TARGETS[key]:g}  " + ("ok" if value <= TARGETS[key] else "MISSED")
        elif key in AT_LEAST:
            mark = f">= {AT_LEAST[key]:g}  " + ("ok" if value >= AT_LEAST[key] else "MISSED")
        else:
            mark = ""
        print(f"{key:32} {value!s:>10}  {mark}")
    missed = [k for k in TARGETS if result[k] > TARGETS[k]] + \
        [k for k in AT_LEAST if result[k] < AT_LEAST[k]]
    met = len(TARGETS) + len(AT_LEAST) - len(missed)
    print(f"targets met: {met} of {len(TARGETS) + len(AT_LEAST)}"
          + (f"; missed: {', '.join(missed)}" if missed else ""))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
