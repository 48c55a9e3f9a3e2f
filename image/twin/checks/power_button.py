"""e. The power button held (PL061 line 3 let fall by the host): the box
powers off through logind and polkit, qemu exits by itself, and the next
boot's journal shows the box's line and the poweroff target. Run last: it
powers the twin off (and boots it once more to read that journal)."""

from __future__ import annotations

import re
import time

from twin.context import Check, Context, Outcome


def power_button(ctx: Context) -> Outcome:
    twin = ctx.twin
    if twin.power is None:
        return "FAIL", "the power line is not held"
    gaps = twin.power.gaps
    twin.power.release()                      # PL061 line 3 falls: the button held
    t0 = time.monotonic()
    rc = twin.wait_exit(300)
    took = time.monotonic() - t0
    if rc is None:
        # Where the shutdown stands, if the twin's shell still answers.
        try:
            jobs = ctx.sh.out("systemctl list-jobs --no-legend | head -n 5; journalctl -b "
                              "--no-pager -o cat -n 8", timeout=30)
        except (OSError, TimeoutError) as e:
            jobs = f"the shell: {e}"
        twin.screendump(twin.work / "twin-power-stuck.png")
        return "FAIL", ("qemu still runs 300 s after the power button went down: "
                        + " | ".join(jobs.splitlines())[-600:])
    twin.closed()
    twin.start()                              # the journal of that boot
    assert twin.shell
    twin.shell.wait(ctx.boot_timeout)
    journal = ctx.sh.out("journalctl -b -1 --no-pager -o cat | tail -n 300")
    # The box's own settings back, as check d (lights) kept them.
    ctx.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml")
    held = "power button held: powering off" in journal
    denied = re.search(r"(?i)access denied|interactive authentication|not authorized",
                       journal)
    clean = "poweroff.target" in journal or "System Power Off" in journal
    detail = (f"qemu exited by itself {took:.0f} s after line 3 fell (exit {rc}); "
              f"the last boot's journal: {'the box powered off' if held else 'no box line'}, "
              f"{'System Power Off reached' if clean else 'no poweroff target'}; "
              f"the line's longest pause while held {gaps * 1000:.0f} ms")
    ok = held and clean and not denied and rc == 0
    return ("pass" if ok else "FAIL"), detail + (f"; {denied.group(0)}" if denied else "")


CHECK = Check("e. the power button held: poweroff through polkit, qemu exits", power_button)
