"""f. A power cut in a timed game: qemu killed (no sync, no shutdown) past
the game's setup; booted again, the saved game is at the same stage or
later, the box refused no file and the kernel logged no ext4 error."""

from __future__ import annotations

import time

from twin.context import Check, Context, Outcome


def power_cut(ctx: Context) -> Outcome:
    twin = ctx.twin
    assert twin.qmp
    # The timed game chosen as a config file would choose it (the twin's
    # shell edits the box's own file), its cards dealt by the table.
    ctx.sh.run("cp /etc/wolfbox/wolfbox.toml /etc/wolfbox/wolfbox.toml.twin && "
               "printf '\\n[game]\\nmode = \"newd3\"\\ncards_on_phones = false\\n' "
               ">> /etc/wolfbox/wolfbox.toml && systemctl restart wolfbox")
    if not ctx.wait_active(600):
        return "FAIL", "the box did not come back with the timed game"
    stage = None
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        twin.qmp.key("spc")
        time.sleep(3)
        stage = ctx.saved_stage()
        if stage and stage[0] not in ("", "setup"):
            break
    if not stage or stage[0] in ("", "setup"):
        return "FAIL", f"START never began the timed game (saved: {stage})"
    twin.screendump(twin.work / "twin-before-cut.png")
    twin.kill()                                # no sync, no shutdown: the cord pulled
    twin.start()
    assert twin.shell
    twin.shell.wait(ctx.boot_timeout)
    if not ctx.wait_active(ctx.boot_timeout):
        return "FAIL", "the box did not start again after the cut"
    after = ctx.saved_stage()
    journal = ctx.sh.out("journalctl -b -u wolfbox --no-pager -o cat | grep -iE "
                         "'cannot be resumed|could not trust|corrupt' | head -3")
    ext4 = ctx.sh.out("journalctl -b -k --no-pager -o cat "
                      "| grep -iE 'EXT4-fs.*error' | head -3")
    twin.screendump(twin.work / "twin-after-cut.png")
    problems = []
    if not after or after[0] in ("", "setup") or after[1] < stage[1]:
        problems.append(f"saved game after the cut: {after}, before: {stage}")
    if journal.strip():
        problems.append(f"the box: {journal.strip()}")
    if ext4.strip():
        problems.append(f"the kernel: {ext4.strip()}")
    ctx.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml")
    return ("FAIL" if problems else "pass"), ("; ".join(problems) if problems else
        f"cut at stage {stage[0]} (night {stage[1]}); again at {after[0]} "  # type: ignore[index]
        f"(night {after[1]}), no file refused, no ext4 error")  # type: ignore[index]


CHECK = Check("f. a power cut in a timed game: it resumes, no file corrupt", power_cut)
