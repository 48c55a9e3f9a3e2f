"""r. The box's user (its service gone wrong, or a shell got as it) tries
the LD_PRELOAD trick on the own Wi-Fi's root unit (issue 41.4): its own
library, written wherever it can write and offered to systemd, must run
in no root process, and the user stays itself."""

from __future__ import annotations

import base64
import re
import time

from twin.context import Check, Context, Outcome

# What a library of the box's user's choosing says on stderr when it runs:
# getuid() picks the line, so the journal tells whether a root process ran it.
PRELOAD_ROOT = b"wolfbox-twin-preload: ran as root\n"
PRELOAD_USER = b"wolfbox-twin-preload: ran as a user\n"


def preload_library() -> bytes:
    """An arm64 shared library (ELF, no compiler needed on the host) whose
    DT_INIT, run by ld.so when LD_PRELOAD names it, writes PRELOAD_ROOT or
    PRELOAD_USER to stderr, by getuid(), and returns: the code a box's user
    would hand a root unit that read its environment from a file of that
    user's. Two segments (code read-and-execute, the dynamic section
    read-write: a unit's MemoryDenyWriteExecute does not stop it), a
    non-executable stack, a one-bucket DT_HASH with no symbol but the null one."""
    import struct

    def movz(rd: int, imm: int) -> int:
        return 0xD2800000 | (imm << 5) | rd

    def adr(rd: int, offset: int) -> int:
        return 0x10000000 | ((offset & 3) << 29) | (((offset >> 2) & 0x7FFFF) << 5) | rd

    n_phdr = 4
    code_at = 64 + 56 * n_phdr
    # getuid; x1, x2 = the user's line; if uid == 0, the root's; write(2, ...); ret
    words_n = 11
    user_at = code_at + 4 * words_n
    root_at = user_at + len(PRELOAD_USER)
    words = [
        movz(8, 174), 0xD4000001,                                   # getuid
        adr(1, user_at - (code_at + 8)), movz(2, len(PRELOAD_USER)),
        0xB5000000 | ((12 // 4) << 5) | 0,                          # cbnz x0, +12
        adr(1, root_at - (code_at + 20)), movz(2, len(PRELOAD_ROOT)),
        movz(0, 2), movz(8, 64), 0xD4000001,                        # write(2, x1, x2)
        0xD65F03C0,                                                 # ret
    ]
    assert len(words) == words_n
    text = b"".join(struct.pack("<I", w) for w in words) + PRELOAD_USER + PRELOAD_ROOT
    text_end = code_at + len(text)
    data_at = 0x10000                                # its own page, on 64 KiB pages too
    # The data segment: DT_HASH (nbucket 1, nchain 1, both 0), the null
    # symbol, an empty string table, then the dynamic section.
    hash_at, sym_at, str_at = data_at, data_at + 16, data_at + 16 + 24
    dyn_at = str_at + 8
    # DT_HASH, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT, DT_INIT, DT_NULL
    dynamic = [(4, hash_at), (5, str_at), (6, sym_at), (10, 1), (11, 24),
               (12, code_at), (0, 0)]
    data = (struct.pack("<4I", 1, 1, 0, 0) + bytes(24) + bytes(8)
            + b"".join(struct.pack("<qQ", tag, value) for tag, value in dynamic))
    data_end = data_at + len(data)
    header = struct.pack("<4sBBBBB7xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0,
                         3, 183, 1, 0, 64, 0, 0, 64, 56, n_phdr, 64, 0, 0)   # ET_DYN, EM_AARCH64
    phdrs = b"".join(struct.pack("<IIQQQQQQ", *p) for p in (
        (1, 5, 0, 0, 0, text_end, text_end, 0x10000),                       # PT_LOAD r-x
        (1, 6, data_at, data_at, data_at, len(data), len(data), 0x10000),   # PT_LOAD rw-
        (2, 6, dyn_at, dyn_at, dyn_at, data_end - dyn_at, data_end - dyn_at, 8),  # PT_DYNAMIC
        (0x6474E551, 6, 0, 0, 0, 0, 0, 16),                                 # PT_GNU_STACK rw-
    ))
    image = header + phdrs + text
    return image + bytes(data_at - len(image)) + data


def root_trick(ctx: Context) -> Outcome:
    """The box's user (its service gone wrong, or a shell got as it) tries
    to run code as root: its own library in its state directory (shown
    to run when LD_PRELOAD names it, for that user); LD_PRELOAD=... into
    every file it can write that a unit might read (its state's
    wifi.env, where the root unit once read it, and every *.env and
    *.conf it can write), and into the root unit's own files (refused);
    into systemd's environment (refused by polkit); then it asks polkit
    to start wolfbox-hotspot.service, as the README says it may. The
    unit runs; no root process runs the library, nor even tries (ld.so
    says so when it cannot load one), and the user is still itself."""
    import gzip
    lib = "/var/lib/wolfbox/twin-preload.so"
    line = f"LD_PRELOAD={lib}"
    packed = base64.b64encode(gzip.compress(preload_library())).decode()
    said: list[str] = []
    uid = ctx.sh.out("id -u wolfbox").strip()
    since = ctx.sh.out("date +%s").strip()
    code, out = ctx.sh.run(
        f"runuser -u wolfbox -- sh -c 'base64 -d | gzip -d > {lib}' <<'TWIN'\n{packed}\nTWIN\n"
        f"runuser -u wolfbox -- env LD_PRELOAD={lib} /bin/true")
    if PRELOAD_USER.decode().strip() not in out:
        return "cannot", f"the box's user's library did not run even for it: {out[-200:]}"
    said.append(f"its library ran for the box's user (uid {uid}) with LD_PRELOAD")
    # What the box's user can write, outside the folders anyone may.
    writable = ctx.sh.out(
        "runuser -u wolfbox -- find / -xdev \\( -path /proc -o -path /sys -o -path /dev "
        "-o -path /run -o -path /tmp -o -path /var/tmp \\) -prune -o -writable "
        "\\( -type f -o -type d \\) -print 2>/dev/null | grep -v '^/var/cache/wolfbox/.' "
        "| sort", timeout=600).split()
    targets = [p for p in writable if p.endswith((".env", ".conf"))]
    own = [p for p in writable if not p.startswith(("/var/lib/wolfbox", "/var/cache/wolfbox"))]
    said.append(f"it can write {len(writable)} files and folders, outside its state "
                f"and cache: {own or 'none'}")
    # Root keeps a copy of each file it will change, to put back after.
    ctx.sh.run("rm -rf /root/twin-trick; mkdir -p /root/twin-trick; "
               + "".join(f"cp -a --parents {p} /root/twin-trick/; " for p in targets))
    roots = ("/var/lib/wolfbox-wifi/wifi.env /var/lib/wolfbox-wifi/wifi.secrets "
             "/etc/wolfbox/captive.nft /usr/local/lib/wolfbox/wolfbox-wifi "
             "/etc/systemd/system/wolfbox-hotspot.service /etc/environment")
    code, out = ctx.sh.run(
        "runuser -u wolfbox -- sh -c '"
        f"printf \"%s\\n\" {line} > /var/lib/wolfbox/wifi.env "
        "&& echo wrote /var/lib/wolfbox/wifi.env; "
        f"for f in {' '.join(targets)}; do printf \"%s\\n\" {line} >> \"$f\" "
        "&& echo wrote $f; done; "
        f"for f in {roots}; do if printf \"%s\\n\" {line} >> \"$f\" 2>/dev/null; "
        "then echo WROTE $f; else echo refused $f; fi; done; "
        f"if systemctl --no-ask-password set-environment {line} 2>/dev/null; "
        "then echo SET systemd environment; else echo refused systemd environment; fi; "
        "systemctl --no-ask-password start wolfbox-hotspot.service; echo started $?' 2>&1",
        timeout=300)
    wrote = [w.split(None, 1)[1] for w in out.splitlines() if w.startswith("wrote ")]
    breached = [w for w in out.splitlines() if w.startswith(("WROTE", "SET"))]
    started = re.search(r"started (\d+)", out)
    said.append(f"LD_PRELOAD written into {wrote}; the root unit's files and systemd's "
                f"environment {'refused' if not breached else 'NOT refused: ' + str(breached)}")
    time.sleep(2)
    journal = ctx.sh.out(f"journalctl --since @{since} --no-pager -o cat "
                         "| grep -aE 'wolfbox-twin-preload|cannot be preloaded' || true")
    ran = ctx.sh.out(f"journalctl --since @{since} --no-pager -o cat -u wolfbox-hotspot "
                     "| tail -n 5")
    state = ctx.show("wolfbox-hotspot.service", "ActiveState", "Result",
                     "EnvironmentFiles", "Environment")
    still = ctx.sh.out("runuser -u wolfbox -- id -u").strip()
    problems = []
    if breached:
        problems.append(f"the box's user wrote where root reads: {breached}")
    if PRELOAD_ROOT.decode().strip() in journal:
        problems.append("its library ran as root: " + journal.replace("\n", " | ")[-300:])
    elif journal.strip():
        problems.append("a root unit tried to load it: " + journal.replace("\n", " | ")[-300:])
    if not started or not ran.strip():
        problems.append(f"the unit was not started for it: {out[-200:]}")
    if still != uid:
        problems.append(f"the box's user is now uid {still}")
    said.append(f"polkit let it start the unit (exit {started.group(1) if started else '?'}, "
                f"{state.get('ActiveState')}, {state.get('Result')}; environment files: "
                f"{state.get('EnvironmentFiles') or 'none'}); the journal holds no line of "
                f"its library, the user is still uid {still}")
    ctx.sh.run("systemctl stop wolfbox-hotspot.service; rm -f /var/lib/wolfbox/wifi.env "
               f"{lib}; cp -a /root/twin-trick/. / 2>/dev/null; rm -rf /root/twin-trick; "
               "systemctl unset-environment LD_PRELOAD", timeout=300)
    return ("FAIL" if problems else "pass"), " / ".join(problems or said)[:1500]


CHECK = Check("r. the box's user tries LD_PRELOAD on the own Wi-Fi's root unit: stays itself",
              root_trick)
