"""The phones' figures for `make bench` (issue 22), in processes of their own.

    python bench/phones.py            # prints one JSON line of figures

The box runs headless on the real clock with phones on loopback; the
phones are another process (bench/phone_clients.py), so their memory and
CPU are not the box's. Measured:
The box waits on the Mayor's setup screen for a table of twenty.
- phone_to_box_ms_p99: a phone's tap (a choice sent on its socket) to the
  box's game handling it, with 20 phones joined (each choice carries its
  send time on the system's monotonic clock, which both processes share);
- idle_cpu_percent_phones / idle_cpu_percent_alone and their ratio: the
  box's own CPU while it waits on a start screen, with phones on and nine
  joined, and with phones off;
- phones_extra_rss_mb: the box's resident memory with phones on and nine
  joined, less the same box with phones off.
"""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from wolfbox import lineup  # noqa: F401
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.events import PhoneChoice
from wolfbox.hardware.factory import mock_factory

HERE = Path(__file__).parent
IDLE_SECONDS = 20.0
TAPS = 400


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def box(phones: bool, state: Path):
    config = Config()
    config.voice.enabled = False
    config.voice.cache_dir = str(state / "cache")
    config.phones.enabled, config.phones.listen, config.phones.port = phones, ["127.0.0.1"], 0
    config.game.mode, config.mayor_players = "dark_arts", 20     # room for twenty phones
    return build(config, "headless", pin_factory=mock_factory(), stdin_keys=False)


def run_for(parts, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        parts.box.step(max_sleep=end - time.monotonic())


def idle(parts) -> tuple[float, float]:
    """(CPU % of one core, VmRSS MB) of this process over an idle window."""
    run_for(parts, 2.0)                                    # settle
    cpu0, t0 = time.process_time(), time.monotonic()
    run_for(parts, IDLE_SECONDS)
    return 100 * (time.process_time() - cpu0) / (time.monotonic() - t0), rss_mb()


def clients(parts, count: int, taps: int = 0) -> subprocess.Popen[str]:
    parts.box.refresh()
    card = parts.phones.join_card()
    assert card is not None, "phones did not start"
    proc = subprocess.Popen([sys.executable, str(HERE / "phone_clients.py"), card.url,
                             card.pin, str(count), str(taps)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    while True:                                            # the box answers them as it runs
        parts.box.step(max_sleep=0.05)
        if proc.poll() is not None:
            raise RuntimeError("the phones' process ended early")
        if _ready(proc):
            return proc


def _ready(proc: subprocess.Popen[str]) -> bool:
    """The phones' process has said "ready" (a look at its pipe, no wait)."""
    assert proc.stdout is not None
    if select.select([proc.stdout], [], [], 0)[0]:
        return proc.stdout.readline().strip() == "ready"
    return False


def alone(state: Path) -> dict[str, float]:
    parts = box(False, state)
    cpu, rss = idle(parts)
    parts.close()
    return {"cpu": cpu, "rss": rss}


def with_phones(state: Path) -> dict[str, float]:
    on = box(True, state)
    nine = clients(on, 9)
    cpu, rss = idle(on)
    nine.terminate()
    nine.wait(10)
    handled: list[float] = []
    real = on.box.flow.handle

    def timed(event, now):
        if isinstance(event, PhoneChoice) and event.step.startswith("t"):
            handled.append((time.monotonic() - float(event.step[1:])) * 1000)
        return real(event, now)
    on.box.flow.handle = timed                             # type: ignore[method-assign]
    on.phones.phones.server.new_game(20)                   # the nine's seats free again
    run_for(on, 0.5)
    twenty = clients(on, 20, TAPS)
    while twenty.poll() is None or len(handled) < TAPS:
        on.box.step(max_sleep=0.01)
        if twenty.poll() is not None and len(handled) < TAPS:
            run_for(on, 1.0)
            break
    on.close()
    handled.sort()
    return {"cpu": cpu, "rss": rss, "p99": handled[int(0.99 * (len(handled) - 1))],
            "handled": len(handled)}


def main() -> int:
    state = Path(tempfile.mkdtemp(prefix="wolfbox-bench-phones-"))
    os.environ["XDG_STATE_HOME"] = str(state / "state")
    if len(sys.argv) > 1:                                  # one part, in a process of its own
        part = alone if sys.argv[1] == "alone" else with_phones
        print(json.dumps(part(state)))
        return 0
    runs = {}
    for part in ("alone", "phones"):
        # No time limit of its own: a busy machine makes it slow; a hang
        # (no CPU in any of its processes) is stopped by bench.py.
        out = subprocess.run([sys.executable, __file__, part], capture_output=True, text=True,
                             check=True)
        runs[part] = json.loads(out.stdout.strip().splitlines()[-1])
    a, p = runs["alone"], runs["phones"]
    print(json.dumps({
        "idle_cpu_percent_alone": round(a["cpu"], 2),
        "idle_cpu_percent_phones": round(p["cpu"], 2),
        "idle_cpu_ratio_phones": round(p["cpu"] / max(a["cpu"], 1e-3), 2),
        "phones_extra_rss_mb": round(p["rss"] - a["rss"], 1),
        "phone_to_box_ms_p99": round(p["p99"], 2),
        "phone_taps_handled": p["handled"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
