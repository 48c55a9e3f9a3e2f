"""The image's twin: the SD-card image's own kernel, initrd and root booted
under qemu-system-aarch64 -M virt (TCG), driven as a table would drive the
box, and checked (make boot-check; image/boot-check.sh prepares the copy of
the image this boots and calls `main`).

The twin reaches the box only through what a Pi has: the screen (QMP
screendump of the virtio-gpu display the box draws on through KMSDRM), a USB
keyboard (QMP input-send-event), the sound card (qemu's wav audiodev writes
what ALSA played), the power (qemu killed), the network (a port forward on
the host's loopback). To read the box's state it has one thing a Pi has not,
from the twin-only overlay (image/twin/root): a root shell on the virtio
console, which reads systemd and the journal.

Each check prints pass, FAIL or cannot, and its time; a check the twin cannot
do says why in one line and never counts as passed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from twin.checks import CHECKS
from twin.context import Context, Outcome
from twin.qemu import Twin


@dataclass
class Result:
    name: str
    outcome: str            # pass, FAIL or cannot
    seconds: float
    detail: str


@dataclass
class Run:
    """The checks run so far on one twin, each printed as it ends."""

    ctx: Context
    results: list[Result] = field(default_factory=list)

    def run(self, name: str, check: Callable[[], Outcome]) -> Result:
        print(f"{name} ...", flush=True)
        t0 = time.monotonic()
        try:
            outcome, detail = check()
        except Exception as e:                      # a check's own failure is a FAIL
            outcome, detail = "FAIL", f"{type(e).__name__}: {e}"
        result = Result(name, outcome, time.monotonic() - t0, detail)
        self.results.append(result)
        print(f"  {result.outcome} ({result.seconds:.0f} s): {result.detail}", flush=True)
        return result

    def summary(self) -> int:
        print("\nboot-check: the image's twin (qemu-system-aarch64 -M virt, TCG, "
              f"{self.ctx.twin.memory} MB)")
        for r in self.results:
            print(f"  {r.outcome:6} {r.seconds:6.0f} s  {r.name}: {r.detail}")
        for k, v in self.ctx.figures.items():
            print(f"  {k}: {v}")
        return 0 if all(r.outcome != "FAIL" for r in self.results) and \
            any(r.outcome == "pass" for r in self.results) else 1


def cannot(why: str) -> Callable[[], Outcome]:
    return lambda: ("cannot", why)


def main(argv: list[str] | None = None) -> int:
    assert __doc__
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--kernel", type=Path, required=True)
    parser.add_argument("--initrd", type=Path, required=True)
    parser.add_argument("--disk", type=Path, required=True)
    parser.add_argument("--cmdline", required=True)
    parser.add_argument("--config", type=Path, required=True,
                        help="the image's wolfbox.toml (for the host's reference screenshots)")
    parser.add_argument("--wolfbox", type=Path, required=True, help="the host's wolfbox")
    parser.add_argument("--memory", type=int, default=1024)
    parser.add_argument("--boot-timeout", type=float, default=1200)
    parser.add_argument("--only", default="b,c,f,g,w,r,d,e",
                        help="the checks after a, in the order given (e powers the twin off)")
    args = parser.parse_args(argv)
    twin = Twin(args.work, args.kernel, args.initrd, args.disk, args.cmdline, args.memory)
    ctx = Context(twin, args.wolfbox, args.config, args.boot_timeout)
    checks = Run(ctx)
    title = {key: check.title.format(memory=args.memory) for key, check in CHECKS.items()}
    try:
        booted = checks.run(title["a"], partial(CHECKS["a"].run, ctx))
        # Check a is not among those --only names: it has run (a letter
        # no check has is passed over, as ever).
        ran = {key: check for key, check in CHECKS.items() if key != "a"}
        for key in args.only.split(","):
            if key in ran and booted.outcome == "pass":
                checks.run(title[key], partial(ran[key].run, ctx))
            elif key in ran:
                checks.run(title[key], cannot("a failed: the box is not up"))
    finally:
        twin.kill()
    return checks.summary()
