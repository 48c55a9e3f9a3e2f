"""h. A Pi Zero 2 W's 512 MB (the second run's memory): the cached first
line taken away and the box restarted, it renders the line itself and the
kernel's OOM killer never runs."""

from __future__ import annotations

import time

from twin.context import FIRST_LINE, Check, Context, Outcome, cached_line


def small_memory(ctx: Context) -> Outcome:
    if ctx.twin.memory > 512:
        return "cannot", (f"this run has {ctx.twin.memory} MB; the 512 MB run "
                          "(image/boot-check.sh --memory=512) does h")
    line = "/var/cache/wolfbox/" + str(cached_line(ctx.config, FIRST_LINE))
    rc, out = ctx.sh.run(f"rm {line} && systemctl restart wolfbox")
    if rc:
        return "FAIL", f"could not take {line} away: {out[-200:]}"
    t0 = time.monotonic()
    while time.monotonic() - t0 < 3600:
        if ctx.sh.run(f"test -s {line}")[0] == 0:
            break
        time.sleep(10)
    rendered = ctx.sh.run(f"test -s {line}")[0] == 0
    took = time.monotonic() - t0
    oom = ctx.sh.out("journalctl -b -k --no-pager -o cat "
                     "| grep -ciE 'out of memory|oom-kill|invoked oom-killer' || true")
    peak = ctx.sh.out("cat /sys/fs/cgroup/system.slice/wolfbox.service/memory.peak "
                      "2>/dev/null || echo ?").strip()
    low = ctx.sh.out("grep MemAvailable /proc/meminfo").strip()
    if peak.isdigit():
        ctx.figures["512 MB: the box and its renderer, peak (cgroup)"] = \
            f"{int(peak) / 2**20:.0f} MiB"
    state = ctx.show("wolfbox.service", "ActiveState", "NRestarts")
    problems = []
    if not rendered:
        problems.append(f"the line was not rendered again in {took:.0f} s")
    if oom.strip() not in ("", "0"):
        problems.append("the kernel's OOM killer ran")
    if state.get("ActiveState") != "active" or state.get("NRestarts") != "0":
        problems.append(f"wolfbox {state}")
    detail = (f"{FIRST_LINE!r} taken away, rendered again by the box in {took:.0f} s; "
              f"peak {peak} bytes; {low}")
    return ("FAIL" if problems else "pass"), detail + "".join(f"; {p}" for p in problems)


CHECK = Check("h. {memory} MB: a missing line rendered, no OOM killer", small_memory)
