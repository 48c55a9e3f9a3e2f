"""The image's twin: the SD-card image's own kernel, initrd and root booted
under qemu-system-aarch64 -M virt (TCG), driven as a table would drive the
box, and checked (make boot-check; image/boot-check.sh prepares the copy of
the image this boots and calls `main`).

The twin reaches the box only through what a Pi has: the screen (QMP
screendump of the virtio-gpu display the box draws on through KMSDRM), a USB
keyboard (QMP input-send-event), the sound card (qemu's wav audiodev writes
what ALSA played), the power (qemu killed), the network (a port forward on
the host's loopback). To read the box's state it has one thing a Pi has not,
from the twin-only overlay (image/twin/): a root shell on the virtio
console, which reads systemd and the journal.

Each check prints pass, FAIL or cannot, and its time; a check the twin cannot
do says why in one line and never counts as passed.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

# ------------------------------------------------------------ the screen
# The twin's display (virtio-gpu's mode, which the box's KMSDRM fullscreen takes).
SCREEN = (1024, 768)
# Two pictures of one screen: a pixel differs when a channel differs by more
# than PIXEL_TOLERANCE (anti-aliasing, the display's colour conversion);
# they are the same screen when at most SCREEN_THRESHOLD of the pixels
# differ. Measured on the box's own screenshots (docs/screenshots, 480x320):
# the start screen with one notice line added differs in 0.9 % of them, with
# the voice's status and two notices in 5.4 %, another screen in 15 % and more.
PIXEL_TOLERANCE = 48
SCREEN_THRESHOLD = 0.004


def load_rgb(path: Path):
    """A picture as an H x W x 3 array of uint8 (pygame reads qemu's PNG and
    the box's own)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import numpy
    import pygame
    surface = pygame.image.load(str(path))
    return numpy.ascontiguousarray(pygame.surfarray.pixels3d(surface).swapaxes(0, 1))


def screen_difference(a: Path, b: Path) -> float:
    """The share of pixels of two pictures of one size that differ (1.0 when
    the sizes differ: a screen drawn at another size is not the same)."""
    import numpy
    one, two = load_rgb(a), load_rgb(b)
    if one.shape != two.shape:
        return 1.0
    diff = numpy.abs(one.astype(numpy.int16) - two.astype(numpy.int16)).max(axis=2)
    return float((diff > PIXEL_TOLERANCE).mean())


def same_screen(a: Path, b: Path) -> tuple[bool, float]:
    """Whether two pictures show the same screen, and their difference."""
    share = screen_difference(a, b)
    return share <= SCREEN_THRESHOLD, share


# ------------------------------------------------------------- the sound
RATE = 44100            # the wav audiodev's format, set on qemu's command line
CHANNELS = 2
FRAME = 2 * CHANNELS    # s16


def wav_frames(path: Path) -> int:
    """Frames written so far (qemu writes the header's sizes only at the end)."""
    try:
        return max(0, (path.stat().st_size - 44) // FRAME)
    except FileNotFoundError:
        return 0


# The cached line is found in qemu's wav by its loudness over time (RMS in
# ENVELOPE windows), not by its samples: on the way to the sound card SDL,
# ALSA and the emulated HDA resample it, and a drift of a fraction of a per
# cent puts the samples out of step within a second (measured: samples 0.48
# and 0.02 correlated in the line's two halves, the envelope 0.79 and
# 0.97), and the night's ambience runs quietly under the voice. Where the
# envelope correlates with the line's by LINE_MATCH over the whole line and
# by LINE_HALF in each half (neither cut short nor stretched), the line
# plays there. Measured in the twin: the first line 0.84 (halves 0.79,
# 0.97); the night's other lines against it at most 0.53.
ENVELOPE = 0.02
LINE_MATCH = 0.7
LINE_HALF = 0.6


@dataclass(frozen=True)
class Heard:
    """Where a line was found in qemu's wav: seconds after the given frame,
    and how its envelope correlated with the line's (whole, halves)."""
    begins: float
    match: float
    halves: tuple[float, float]

    @property
    def found(self) -> bool:
        return self.match >= LINE_MATCH and min(self.halves) >= LINE_HALF


def envelope(samples, rate: int):
    """RMS loudness in ENVELOPE-second windows of mono samples."""
    import numpy
    n = max(1, round(ENVELOPE * rate))
    m = len(samples) // n
    block = numpy.asarray(samples[: m * n], dtype=numpy.float64).reshape(m, n)
    return numpy.sqrt((block * block).mean(axis=1))


def _correlations(windows, want):
    """Pearson's r of each row of `windows` with `want` (0 where either is flat)."""
    import numpy
    rows = windows - windows.mean(axis=1, keepdims=True)
    w = want - want.mean()
    den = numpy.linalg.norm(rows, axis=1) * numpy.linalg.norm(w)
    num = rows @ w
    return numpy.divide(num, den, out=numpy.zeros_like(num), where=den > 0)


def find_line(path: Path, frame: int, line, line_rate: int, within: float) -> Heard | None:
    """The best place the line (mono samples at `line_rate`) starts in
    qemu's wav, within `within` seconds after `frame`; None when the wav
    holds less than that and the line after it."""
    import numpy
    from numpy.lib.stride_tricks import sliding_window_view
    want = envelope(line, line_rate)
    seconds = within + len(want) * ENVELOPE
    with open(path, "rb") as f:
        f.seek(44 + frame * FRAME)
        data = numpy.frombuffer(f.read(int(seconds * RATE) * FRAME), dtype="<i2")
    if data.size < int(seconds * RATE) * CHANNELS:
        return None
    mono = data.reshape(-1, CHANNELS).astype(numpy.float64).mean(axis=1)
    got = envelope(mono, RATE)
    windows = sliding_window_view(got, len(want))
    whole = _correlations(windows, want)
    k = int(whole.argmax())
    half = len(want) // 2
    first = _correlations(got[k:k + half][None, :], want[:half])[0]
    second = _correlations(got[k + half:k + len(want)][None, :], want[half:])[0]
    return Heard(k * ENVELOPE, float(whole[k]), (float(first), float(second)))


def wav_seconds(path: Path) -> float:
    """A complete WAV's length (a cached line)."""
    import wave
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def cached_line(config: Path, text: str) -> Path:
    """Where the box keeps its rendered `text`, relative to its cache folder
    (the voice's folder and the line's key: the same on the host and the
    box), from the box's own code."""
    import wolfbox.lineup  # noqa: F401  (the games' config sections)
    from wolfbox.audio.cache import cache_for
    from wolfbox.audio.voice import choose_voice
    from wolfbox.config import load
    settings = load(config)
    voice, _problem = choose_voice(settings.voice.model, settings.box.lang)
    if voice is None:
        raise RuntimeError("no voice for the image's settings")
    return Path(voice.name) / cache_for(settings, voice).path(text).name


# The box's own Python (the image's python3 is python3-minimal: no json, no wave).
GUEST_PYTHON = "/opt/wolfbox/.venv/bin/python"

# The first line a One Night round says (`wolfbox script`, step 1).
FIRST_LINE = "Night falls. Everyone, close your eyes."



def wifi_code(code: str) -> dict[str, str]:
    """The fields of a Wi-Fi QR code (`WIFI:T:WPA;S:name;P:pass;;`), its
    backslash escapes undone, as a phone's camera reads them."""
    fields: dict[str, str] = {}
    body, i = code.removeprefix("WIFI:"), 0
    while i < len(body):
        j, value = i, ""
        while j < len(body) and body[j] != ";":
            if body[j] == "\\" and j + 1 < len(body):
                j += 1
            value += body[j]
            j += 1
        key, colon, rest = value.partition(":")
        if colon:
            fields[key] = rest
        i = j + 1
    return fields


def resolver_rule(url: str) -> str:
    """Chromium's rule that takes the page's own address (the guest's, on
    qemu's user network, which the host cannot reach) to the host's
    loopback, where qemu forwards the same port: the browser opens the QR
    code's address as it is, and the box sees its own address in the Host
    header, as from a phone at the table (it refuses any other: DNS
    rebinding)."""
    return f"MAP {urlsplit(url).hostname} 127.0.0.1"


# ------------------------------------------------- the box's user as an attacker
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


# -------------------------------------------------------------- qemu
class Qmp:
    """QEMU's machine protocol on a unix socket: one command at a time."""

    def __init__(self, path: Path, timeout: float = 30) -> None:
        self.sock = _connect(path, timeout)
        self.file = self.sock.makefile("rwb", buffering=0)
        self.lock = threading.Lock()                   # the power line's thread too
        self._read()                                   # the greeting
        self.execute("qmp_capabilities")

    def _read(self) -> dict:
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError("qemu closed its QMP socket")
            reply = json.loads(line)
            if "event" not in reply:
                return reply

    def execute(self, command: str, **arguments) -> object:
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        with self.lock:
            self.file.write(json.dumps(message).encode() + b"\n")
            reply = self._read()
        if "error" in reply:
            raise RuntimeError(f"QMP {command}: {reply['error'].get('desc')}")
        return reply.get("return")

    def key(self, qcode: str, hold: float = 0.15) -> None:
        """A key pressed and let go on the USB keyboard."""
        for down in (True, False):
            self.execute("input-send-event", events=[
                {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}])
            if down:
                time.sleep(hold)

    def gpio_data(self) -> int:
        """PL061's GPIODATA (all 8 lines, as the chip reads them), read by the
        monitor from the machine's physical memory."""
        out = str(self.execute("human-monitor-command",
                               **{"command-line": f"xp /1wx {PL061_DATA:#x}"}))
        return int(out.split(":")[1].split()[0], 16) & 0xFF

    def close(self) -> None:
        self.sock.close()


# qemu virt's PL061: GPIODATA with every line's address bit set.
PL061_DATA = 0x09030000 + 0x3FC
# gpio-key (qemu's power button device on PL061 line 3) lets the line fall
# 100 ms after system_powerdown: called more often, the line stays high.
POWER_LINE = 3
POWER_PERIOD = 0.04


class PowerLine(threading.Thread):
    """PL061 line 3 held high (a pull-up button at rest) by system_powerdown
    every 40 ms; `release` lets it fall: the button pressed and held."""

    def __init__(self, qmp: Qmp) -> None:
        super().__init__(daemon=True)
        self.qmp = qmp
        self.high = threading.Event()
        self.high.set()
        self.done = threading.Event()
        self.gaps = 0.0                      # the longest pause between two calls

    def run(self) -> None:
        last = time.monotonic()
        while not self.done.is_set():
            if self.high.is_set():
                try:
                    self.qmp.execute("system_powerdown")
                except (OSError, ConnectionError, RuntimeError):
                    return                   # qemu gone (powered off, killed)
                now = time.monotonic()
                self.gaps = max(self.gaps, now - last)
                last = now
            else:
                last = time.monotonic()
            self.done.wait(POWER_PERIOD)

    def release(self) -> None:
        self.high.clear()

    def stop(self) -> None:
        self.done.set()


def twin_dtb(command: list[str], path: Path) -> Path:
    """qemu virt's own device tree for this machine, for the twin: without
    its gpio-keys node (which would claim PL061 line 3 for the kernel's
    power key) and with a Raspberry Pi 4's revision code in /system (gpiozero
    reads it to know the header's pins; the model stays qemu's, so the box's
    own choice of pin driver is unchanged: the twin's GPIO settings name
    lgpio)."""
    dump = [part if part != "virt" else f"virt,dumpdtb={path}" for part in command]
    subprocess.run(dump, check=True, capture_output=True, timeout=60)
    subprocess.run(["fdtput", "-r", str(path), "/gpio-keys"], check=True)
    subprocess.run(["fdtput", "-c", str(path), "/system"], check=True)
    subprocess.run(["fdtput", "-t", "x", str(path), "/system", "linux,revision", "c03111"],
                   check=True)
    return path


def _connect(path: Path, timeout: float) -> socket.socket:
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class Shell:
    """The twin-only root shell on the guest's virtio console (image/twin/),
    one command at a time, its output between markers."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None
        self.count = 0
        self.buffer = b""

    def wait(self, timeout: float) -> None:
        """Until the guest's shell answers (it starts late in the boot)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.sock is None:
                    self.sock = _connect(self.path, 10)
                self.run("stty -echo; export PS1= PS2= SYSTEMD_PAGER= SYSTEMD_COLORS=0 "
                         "TERM=dumb", timeout=15)
                return
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise TimeoutError("the twin's shell never answered") from None

    def run(self, command: str, timeout: float = 60) -> tuple[int, str]:
        """(exit status, output) of one shell command in the guest."""
        assert self.sock is not None
        self.count += 1
        n = self.count
        self.sock.sendall(f"printf '\\n@@S{n}@@\\n'; {{ {command}\n}} 2>&1; "
                          f"printf '\\n@@E{n} %d@@\\n' $?\n".encode())
        end = re.compile(rb"\n@@E%d (\d+)@@\r?\n" % n)
        deadline = time.monotonic() + timeout
        while not end.search(self.buffer):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the twin's shell: no answer to {command!r}")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise OSError("the twin's shell closed")
            self.buffer += chunk
        match = end.search(self.buffer)
        assert match
        body = self.buffer[:match.start()]
        self.buffer = self.buffer[match.end():]
        start = body.rfind(b"@@S%d@@" % n)
        out = body[start + len(b"@@S%d@@" % n):] if start >= 0 else body
        return int(match.group(1)), out.decode(errors="replace").replace("\r", "").strip("\n")

    def out(self, command: str, timeout: float = 60) -> str:
        return self.run(command, timeout)[1]


@dataclass
class Twin:
    """One qemu of the image's copy; files in `work`."""

    work: Path
    kernel: Path
    initrd: Path
    disk: Path
    cmdline: str
    memory: int = 1024
    port: int = 18080
    qemu: subprocess.Popen | None = None
    qmp: Qmp | None = None
    shell: Shell | None = None
    started: float = 0.0
    boots: int = 0
    gpio: bool = True                        # the twin's device tree, the power line held
    dtb: Path | None = None
    power: PowerLine | None = None

    @property
    def wav(self) -> Path:
        return self.work / f"sound-{self.boots}.wav"

    def command(self) -> list[str]:
        w = self.work
        return [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2",
            "-m", str(self.memory), "-nodefaults", "-no-reboot",
            "-kernel", str(self.kernel), "-initrd", str(self.initrd), "-append", self.cmdline,
            "-drive", f"if=none,id=card,file={self.disk},format=raw,cache=writeback",
            "-device", "virtio-blk-pci,drive=card",
            "-device", f"virtio-gpu-pci,xres={SCREEN[0]},yres={SCREEN[1]}",
            "-display", "none",
            "-audiodev", f"wav,id=snd0,path={self.wav},out.frequency={RATE},"
                         f"out.channels={CHANNELS},out.format=s16",
            "-device", "intel-hda", "-device", "hda-output,audiodev=snd0",
            "-device", "qemu-xhci", "-device", "usb-kbd",
            "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.port}-:{self.port}",
            "-device", "virtio-net-pci,netdev=net0",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=shell,path={w / 'shell.sock'},server=on,wait=off",
            "-device", "virtconsole,chardev=shell",
            "-chardev", f"file,id=console,path={w / f'console-{self.boots}.log'}",
            "-serial", "chardev:console",
            "-qmp", f"unix:{w / 'qmp.sock'},server=on,wait=off",
        ] + (["-dtb", str(self.dtb)] if self.dtb else [])

    def start(self) -> None:
        self.boots += 1
        if self.gpio and self.dtb is None:
            self.dtb = twin_dtb(self.command(), self.work / "twin.dtb")
        for name in ("shell.sock", "qmp.sock"):
            (self.work / name).unlink(missing_ok=True)
        log = open(self.work / f"qemu-{self.boots}.log", "w")
        self.started = time.monotonic()
        self.qemu = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.qmp = Qmp(self.work / "qmp.sock")
        self.shell = Shell(self.work / "shell.sock")
        if self.dtb:                         # the power button at rest from the first moment
            self.power = PowerLine(self.qmp)
            self.power.start()

    def since_start(self) -> float:
        return time.monotonic() - self.started

    def kill(self) -> None:
        """The power cut: qemu killed, nothing flushed."""
        if self.qemu and self.qemu.poll() is None:
            self.qemu.send_signal(signal.SIGKILL)
            self.qemu.wait()
        self.closed()

    def wait_exit(self, timeout: float) -> int | None:
        assert self.qemu
        try:
            return self.qemu.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def closed(self) -> None:
        """Let go of the power line, the QMP and the shell of a qemu that has
        ended (by itself, or killed), so the twin can be started again."""
        if self.power:
            self.power.stop()
            self.power = None
        for part in (self.qmp, self.shell and self.shell.sock):
            try:
                part and part.close()  # type: ignore[union-attr]
            except OSError:
                pass
        self.qmp = None
        self.shell = None

    def screendump(self, path: Path) -> Path:
        assert self.qmp
        path.unlink(missing_ok=True)
        self.qmp.execute("screendump", filename=str(path), format="png")
        return path


# ------------------------------------------------------------ the checks
@dataclass
class Result:
    name: str
    outcome: str            # pass, FAIL or cannot
    seconds: float
    detail: str


@dataclass
class Checks:
    twin: Twin
    host: Path               # the host's wolfbox (the venv's), for screenshots
    config: Path             # the box's wolfbox.toml as the image ships it
    boot_timeout: float = 1200
    results: list[Result] = field(default_factory=list)
    figures: dict[str, str] = field(default_factory=dict)

    def run(self, name: str, check: Callable[[], tuple[str, str]]) -> Result:
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

    @property
    def sh(self) -> Shell:
        assert self.twin.shell
        return self.twin.shell

    def show(self, unit: str, *props: str) -> dict[str, str]:
        out = self.sh.out(f"systemctl show {unit} " + " ".join(f"-p {p}" for p in props))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    # a. boot to READY, no failed unit, the watchdog fed
    def boot(self) -> tuple[str, str]:
        twin = self.twin
        twin.start()
        assert twin.shell
        twin.shell.wait(self.boot_timeout)
        shell_at = twin.since_start()
        deadline = time.monotonic() + self.boot_timeout
        while True:
            state = self.show("wolfbox.service", "LoadState", "ActiveState", "SubState",
                              "NRestarts", "ActiveEnterTimestampMonotonic", "StatusText",
                              "MainPID")
            if state.get("LoadState") != "loaded":
                return "FAIL", f"wolfbox.service is {state.get('LoadState')} in the image"
            if state.get("ActiveState") == "active" or time.monotonic() > deadline:
                break
            if state.get("ActiveState") == "failed":
                break
            time.sleep(2)
        ready_wall = twin.since_start()
        if state.get("ActiveState") != "active":
            journal = self.sh.out("journalctl -b -u wolfbox --no-pager -n 15 -o cat")
            return "FAIL", (f"wolfbox.service {state.get('ActiveState')}/"
                            f"{state.get('SubState')} after {ready_wall:.0f} s; "
                            + " | ".join(journal.splitlines()[-6:]))
        ready = int(state["ActiveEnterTimestampMonotonic"]) / 1e6
        self.figures["boot to READY (guest clock)"] = f"{ready:.1f} s"
        self.figures["boot to READY (wall, qemu start)"] = f"{ready_wall:.0f} s"
        self.figures["shell up (wall)"] = f"{shell_at:.0f} s"
        running = self.sh.out("systemctl is-system-running --wait", timeout=600)
        failed = self.sh.out("systemctl --failed --plain --no-legend")
        if failed.strip():
            units = " ".join(line.split()[0] for line in failed.splitlines())
            return "FAIL", f"failed units: {units}"
        pid = state["MainPID"]
        dog0 = self.show("wolfbox.service", "WatchdogTimestampMonotonic")
        time.sleep(120)                          # the watchdog's two minutes, in real time
        after = self.show("wolfbox.service", "ActiveState", "MainPID", "NRestarts",
                          "WatchdogTimestampMonotonic", "MemoryCurrent")
        now = float(self.sh.out("cut -d' ' -f1 /proc/uptime"))
        fed = int(after.get("WatchdogTimestampMonotonic", "0") or 0) / 1e6
        timeouts = self.sh.out("journalctl -b -u wolfbox --no-pager -o cat "
                               "| grep -ci watchdog || true")
        self.figures["wolfbox.service memory (systemd)"] = \
            f"{int(after.get('MemoryCurrent', '0')) / 2**20:.0f} MiB" \
            if after.get("MemoryCurrent", "").isdigit() else "?"
        rss = self.sh.out(f"awk '/^VmRSS:/ {{ print $2 }}' /proc/{pid}/status").strip()
        if rss.isdigit():
            self.figures["wolfbox RSS"] = f"{int(rss) / 1024:.0f} MiB"
        problems = []
        if after.get("MainPID") != pid or after.get("NRestarts") != "0":
            problems.append(f"restarted (pid {pid} -> {after.get('MainPID')}, "
                            f"NRestarts {after.get('NRestarts')})")
        fed0 = int(dog0.get("WatchdogTimestampMonotonic") or 0) / 1e6
        if not fed or now - fed > 30 or fed <= fed0:
            problems.append(f"watchdog last fed at {fed:.0f} s, now {now:.0f} s")
        if timeouts.strip() not in ("", "0"):
            problems.append("the journal names the watchdog")
        # Every service's exposure as systemd rates it (issue 41: it may only
        # stay or get better), kept beside the twin's other files.
        # The loaded ones in a table; the box's own each by name (a unit not
        # started yet, the own Wi-Fi's, is not in the table).
        security = self.sh.out(
            "systemd-analyze security --no-pager 2>&1; "
            "for u in $(systemctl list-unit-files --no-legend 'wolfbox*.service' "
            "| cut -d' ' -f1); do systemd-analyze security --no-pager $u 2>&1 | tail -n 1; "
            "done", timeout=900)
        (twin.work / "security.txt").write_text(security + "\n")
        for unit, score in re.findall(r"Overall exposure level for (\S+): (\S+ \S+)", security):
            self.figures[f"systemd-analyze security {unit}"] = score
        if problems:
            return "FAIL", "; ".join(problems)
        return "pass", (f"READY {ready:.1f} s after the kernel started ({ready_wall:.0f} s wall), "
                        f"system {running.strip()}, no failed unit, same process and "
                        f"watchdog fed {now - fed:.0f} s ago after 2 min")

    # b. the screen
    def screen(self) -> tuple[str, str]:
        work = self.twin.work
        shot = self.twin.screendump(work / "twin-start.png")
        reference = self.reference("1-start")
        same, share = same_screen(shot, reference)
        detail = (f"screendump {shot.name} vs wolfbox screenshot 1-start at "
                  f"{SCREEN[0]}x{SCREEN[1]}: {share:.2%} of pixels differ "
                  f"(threshold {SCREEN_THRESHOLD:.1%})")
        return ("pass" if same else "FAIL"), detail

    def reference(self, name: str) -> Path:
        """The host's `wolfbox screenshot` of a screen, from the image's config."""
        out = self.twin.work / "reference"
        if not (out / f"{name}.png").is_file():
            env = dict(os.environ, STATE_DIRECTORY=str(self.twin.work / "reference-state"),
                       SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                       PYGAME_HIDE_SUPPORT_PROMPT="1")
            subprocess.run([str(self.host), "screenshot", "--config", str(self.config),
                            "--size", f"{SCREEN[0]}x{SCREEN[1]}", "--out", str(out)],
                           check=True, env=env, capture_output=True, timeout=600)
        return out / f"{name}.png"

    # c. a key through the kernel starts a round, and the box speaks
    def press(self) -> tuple[str, str]:
        twin = self.twin
        assert twin.qmp
        before = wav_frames(twin.wav)
        if before == 0:
            return "FAIL", "qemu's wav holds nothing: the box never opened the sound card"
        start = twin.screendump(twin.work / "twin-before-press.png")
        twin.qmp.key("spc")
        pressed = time.monotonic()
        left = None
        while time.monotonic() - pressed < 30:
            shot = twin.screendump(twin.work / "twin-after-press.png")
            if not same_screen(shot, start)[0]:
                left = time.monotonic() - pressed
                break
            time.sleep(0.5)
        if left is None:
            return "FAIL", "the start screen stayed 30 s after SPACE on the USB keyboard"
        line = "/var/cache/wolfbox/" + str(cached_line(self.config, FIRST_LINE))
        # 165 KB through the virtio console: seconds on a quiet host, a minute
        # and more on a busy one (c once timed out at 60 s beside an xz).
        out = self.sh.out(f"base64 -w0 < {line}", timeout=600)
        try:
            with wave.open(io.BytesIO(base64.b64decode(out.strip(), validate=True))) as w:
                rate, frames = w.getframerate(), w.readframes(w.getnframes())
        except (ValueError, EOFError, wave.Error):
            return "FAIL", f"the image has no cached {FIRST_LINE!r} ({line}): {out[-120:]}"
        import numpy
        samples = numpy.frombuffer(frames, dtype="<i2")
        expected = len(samples) / rate
        within = 2.0 + 1.0                        # the line must start within 2 s of the key
        heard = None
        deadline = time.monotonic() + 60 + 2 * expected
        while heard is None and time.monotonic() < deadline:
            heard = find_line(twin.wav, before, samples, rate, within)
            if heard is None:
                time.sleep(1)
        if heard is None:
            return "FAIL", f"the screen changed {left:.1f} s after the key; qemu's wav stopped"
        self.figures["key to the first line"] = f"{heard.begins:.2f} s"
        detail = (f"SPACE (usb-kbd, evdev, SDL): the screen changed within {left:.1f} s; "
                  f"{FIRST_LINE!r} ({expected:.2f} s cached) found {heard.begins:.2f} s after "
                  f"the key, its loudness correlated {heard.match:.2f} with the cached line's "
                  f"(halves {heard.halves[0]:.2f}, {heard.halves[1]:.2f}; needed {LINE_MATCH}, "
                  f"{LINE_HALF})")
        problems = []
        if not heard.found:
            problems.append("the first line is not in the sound")
        elif heard.begins > 2.0:
            problems.append("the first line over 2 s after the key")
        return ("FAIL" if problems else "pass"), detail + "".join(f"; {p}" for p in problems)

    # f. a power cut in a timed game, and the box again
    def saved_stage(self) -> tuple[str, int] | None:
        """The timed game's saved stage and night in the box's state.json."""
        out = self.sh.out(f"{GUEST_PYTHON} -c 'import json; g = json.load(open(\"/var/lib/wolfbox/"
                          "state.json\")).get(\"games\", {}).get(\"newd3\") or {}; "
                          "print(g.get(\"stage\", \"\"), g.get(\"night\", 0))' 2>&1")
        parts = out.split()
        return (parts[0], int(parts[1])) if len(parts) == 2 and parts[1].isdigit() else None

    def power_cut(self) -> tuple[str, str]:
        twin = self.twin
        assert twin.qmp
        # The timed game chosen as a config file would choose it (the twin's
        # shell edits the box's own file), its cards dealt by the table.
        self.sh.run("cp /etc/wolfbox/wolfbox.toml /etc/wolfbox/wolfbox.toml.twin && "
                    "printf '\\n[game]\\nmode = \"newd3\"\\ncards_on_phones = false\\n' "
                    ">> /etc/wolfbox/wolfbox.toml && systemctl restart wolfbox")
        if not self.wait_active(600):
            return "FAIL", "the box did not come back with the timed game"
        stage = None
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            twin.qmp.key("spc")
            time.sleep(3)
            stage = self.saved_stage()
            if stage and stage[0] not in ("", "setup"):
                break
        if not stage or stage[0] in ("", "setup"):
            return "FAIL", f"START never began the timed game (saved: {stage})"
        twin.screendump(twin.work / "twin-before-cut.png")
        twin.kill()                                # no sync, no shutdown: the cord pulled
        twin.start()
        assert twin.shell
        twin.shell.wait(self.boot_timeout)
        if not self.wait_active(self.boot_timeout):
            return "FAIL", "the box did not start again after the cut"
        after = self.saved_stage()
        journal = self.sh.out("journalctl -b -u wolfbox --no-pager -o cat | grep -iE "
                              "'cannot be resumed|could not trust|corrupt' | head -3")
        ext4 = self.sh.out("journalctl -b -k --no-pager -o cat "
                           "| grep -iE 'EXT4-fs.*error' | head -3")
        twin.screendump(twin.work / "twin-after-cut.png")
        problems = []
        if not after or after[0] in ("", "setup") or after[1] < stage[1]:
            problems.append(f"saved game after the cut: {after}, before: {stage}")
        if journal.strip():
            problems.append(f"the box: {journal.strip()}")
        if ext4.strip():
            problems.append(f"the kernel: {ext4.strip()}")
        self.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml")
        return ("FAIL" if problems else "pass"), ("; ".join(problems) if problems else
            f"cut at stage {stage[0]} (night {stage[1]}); again at {after[0]} "  # type: ignore[index]
            f"(night {after[1]}), no file refused, no ext4 error")  # type: ignore[index]

    def wait_active(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.show("wolfbox.service", "ActiveState", "SubState")
            if state.get("ActiveState") == "active":
                return True
            time.sleep(2)
        return False

    # g. phones: the QR code on the box's screen, the page through the port forward
    def phones(self) -> tuple[str, str]:
        """Phones turned on as a config file would turn them on (the twin's
        shell adds [phones] to the box's own file; `network = "home"`: the
        twin has no Wi-Fi radio, its network is qemu's cable). The host reads
        the QR code off qemu's screendump as a phone's camera would, opens
        that page, key fragment and all, through the port forward on its
        loopback in Debian's Chromium, types the PIN and takes seat 1."""
        twin = self.twin
        chromium, zbar = shutil.which("chromium"), shutil.which("zbarimg")
        if chromium is None or zbar is None:
            return "cannot", "the host needs chromium and zbar-tools (boot-check.sh installs them)"
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            return "cannot", "Playwright is not in the host's venv (make install)"
        self.sh.run("cp -n /etc/wolfbox/wolfbox.toml /etc/wolfbox/wolfbox.toml.twin && "
                    "printf '\\n[phones]\\nenabled = true\\nnetwork = \"home\"\\n"
                    f"port = {twin.port}\\n' "
                    ">> /etc/wolfbox/wolfbox.toml && systemctl restart wolfbox")
        try:
            if not self.wait_active(600):
                return "FAIL", "the box did not come back with phones on"
            t0 = time.monotonic()
            url = ""
            while not url and time.monotonic() - t0 < 300:
                shot = twin.screendump(twin.work / "twin-phones.png")
                read = subprocess.run([zbar, "--quiet", "--raw", str(shot)],
                                      capture_output=True, text=True, check=False).stdout
                url = next((u for u in read.split() if u.startswith("http")), "")
                if not url:
                    time.sleep(5)
            if not url:
                return "FAIL", "no QR code with the page's address on the screen in 300 s"
            seen = time.monotonic() - t0
            kept = json.loads(self.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
            pin = str(kept.get("room", {}).get("pin", ""))
            if not pin:
                return "FAIL", f"the box keeps no PIN in seats.json: {kept}"
            problems: list[str] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=[
                    "--no-sandbox", f"--host-resolver-rules={resolver_rule(url)}"])
                page = browser.new_context(viewport={"width": 360, "height": 740},
                                           is_mobile=True, has_touch=True).new_page()
                page.on("pageerror", lambda e: problems.append(f"the page: {e}"))
                page.goto(url, timeout=120_000)
                page.wait_for_selector("#lobby:not([hidden])", timeout=120_000)
                page.fill("#pin", pin)
                page.fill("#name", "Twin")
                page.click("#seats button >> nth=0")
                page.wait_for_selector("#seat:not([hidden])", timeout=120_000)
                title = page.inner_text("#seat-title")
                page.screenshot(path=str(twin.work / "twin-phone.png"))
                browser.close()
            held: dict = {}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not held:
                kept = json.loads(self.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
                held = kept.get("room", {}).get("held", {})
                if not held:
                    time.sleep(2)
            twin.screendump(twin.work / "twin-phones-joined.png")
            name = (held.get("1") or {}).get("name")
            if name != "Twin":
                problems.append(f"the box keeps seat 1 as {held}")
            return ("FAIL" if problems else "pass"), "; ".join(problems) or (
                f"QR code read off the screen {seen:.0f} s after the box was back "
                f"({urlsplit(url).netloc}, key in its fragment); host Chromium opened it "
                f"through qemu's forward of port {twin.port} and joined with the PIN as "
                f"{title!r}, the box keeps it")
        finally:
            self.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml && "
                        "systemctl restart wolfbox")
            self.wait_active(600)

    # w. the box's own Wi-Fi on simulated radios (issue 31)
    def codes(self, want_wifi: bool, host: str, timeout: float = 300
              ) -> tuple[dict[str, str], str]:
        """The codes on the box's screen, read off qemu's screendumps with
        zbarimg as a phone's camera reads them: the Wi-Fi's (its name and
        passphrase, once `want_wifi`) and the page's address, once it is at
        `host` (where the phones are: the box is on qemu's cable too). The
        join card turns between the two every few seconds."""
        zbar = shutil.which("zbarimg")
        assert zbar
        wifi: dict[str, str] = {}
        url = ""
        deadline = time.monotonic() + timeout
        while (not url or (want_wifi and not wifi)) and time.monotonic() < deadline:
            shot = self.twin.screendump(self.twin.work / "twin-own-wifi.png")
            read = subprocess.run([zbar, "--quiet", "--raw", str(shot)], capture_output=True,
                                  text=True, check=False).stdout
            for code in read.splitlines():
                if code.startswith("WIFI:"):
                    wifi = wifi_code(code)
                elif code.startswith("http") and urlsplit(code).hostname == host:
                    url = code
            time.sleep(2)
        return wifi, url

    def wifi_step(self, step: str, env: str = "", timeout: float = 900) -> tuple[int, str]:
        """One step of systemd/wifi-check.sh in the twin, its output kept."""
        code, out = self.sh.run(f"{env} WOLFBOX_WAIT=300 bash /run/wifi-check.sh {step}",
                                timeout=timeout)
        with open(self.twin.work / "wifi-check.log", "a") as log:
            log.write(f"$ wifi-check.sh {step}\n{out}\n(exit {code})\n")
        return code, out

    def sim(self, url: str, pin: str, seats: int, deal: bool) -> None:
        """image/phones_sim.py started in the phone's namespace, in the background."""
        self.sh.run(f"rm -f /run/phones-sim.log; (ip netns exec phone {GUEST_PYTHON} "
                    f"/run/phones_sim.py {url!r} {pin} --seats {seats} --timeout 900 "
                    f"{'--deal' if deal else ''} > /run/phones-sim.log 2>&1 &)")

    def sim_says(self, words: str, timeout: float) -> str:
        """The simulated phones' log once it holds `words` (or their end)."""
        deadline = time.monotonic() + timeout
        out = ""
        while time.monotonic() < deadline:
            out = self.sh.out("cat /run/phones-sim.log 2>/dev/null")
            if words in out or "OK:" in out or "FAIL:" in out:
                break
            time.sleep(3)
        return out

    def pin(self) -> str:
        kept = json.loads(self.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
        return str(kept.get("room", {}).get("pin", ""))

    def restart_box(self, network: str) -> bool:
        """The box again with phones on `network` and the timed game, as a
        config file would set them (the twin's shell edits the box's own
        file), and no game or seat kept."""
        self.sh.run("systemctl stop wolfbox; cp -n /etc/wolfbox/wolfbox.toml "
                    "/etc/wolfbox/wolfbox.toml.twin; cp /etc/wolfbox/wolfbox.toml.twin "
                    "/etc/wolfbox/wolfbox.toml; rm -f /var/lib/wolfbox/state.json "
                    "/var/lib/wolfbox/seats.json; printf '\\n[game]\\nmode = \"newd3\"\\n"
                    f"\\n[phones]\\nenabled = true\\nnetwork = \"{network}\"\\n' "
                    ">> /etc/wolfbox/wolfbox.toml && systemctl start wolfbox", timeout=300)
        return self.wait_active(600)

    def own_wifi(self) -> tuple[str, str]:
        """Three simulated radios (the kernel's mac80211_hwsim): the box's
        own Wi-Fi on the first, a phone on the second in a network namespace
        of its own, a "home" access point on the third. The host reads the
        Wi-Fi's code and the page's off the screen; systemd/wifi-check.sh,
        written into the twin through its shell, joins with them as a phone
        would (a wrong passphrase first) and checks the lease, DNS, the
        captive probes and the page, then a second phone on the third
        radio, isolated from the first, neither reaching a machine on the
        box's cable (a veth); nine simulated phones
        (image/phones_sim.py) take every seat and are dealt a timed game.
        Then the box on "auto" joins the home Wi-Fi, a phone there takes a
        seat, home goes away and the box opens its own again."""
        if shutil.which("zbarimg") is None:
            return "cannot", "the host needs zbar-tools (boot-check.sh installs them)"
        here = Path(__file__).parent
        script = (here.parent / "systemd/wifi-check.sh").read_text()
        sim = (here / "phones_sim.py").read_text()
        (self.twin.work / "wifi-check.log").write_text("")
        code, out = self.sh.run(
            f"cat > /run/wifi-check.sh <<'TWIN'\n{script}TWIN\n"
            f"cat > /run/phones_sim.py <<'TWIN'\n{sim}TWIN\n"
            "modprobe mac80211_hwsim radios=3 && sleep 2 && ls /sys/class/ieee80211")
        if code != 0 or len(out.split()) < 3:
            return "FAIL", f"no three simulated radios: {out.strip()[-300:]}"
        # The phone's radio and the home's are NetworkManager's no more (the
        # script moves them into namespaces of their own). qemu's cable is
        # unplugged: "auto" would count it as a network the box knows, and
        # the page's code would show its address, which no phone reaches.
        said: list[str] = []
        try:
            self.sh.run("nmcli device set eth0 managed no; ip link set eth0 down; "
                        "ip -4 addr flush dev eth0")
            code, out = self.wifi_step("clean")
            if not self.restart_box("own"):
                return "FAIL", "the box did not come back with its own Wi-Fi"
            from wolfbox.device.hotspot import ADDRESS  # the box on its own Wi-Fi
            wifi, url = self.codes(want_wifi=True, host=ADDRESS)
            if not wifi or not url:
                return "FAIL", f"no Wi-Fi code and page code on the screen: {wifi} {url}"
            said.append(f"codes read off the screen: Wi-Fi {wifi['S']} ({wifi['T']}), "
                        f"{urlsplit(url).netloc}")
            env = f"WOLFBOX_SSID={wifi['S']!r} WOLFBOX_PSK={wifi['P']!r}"
            code, out = self.wifi_step("own", env)
            if code != 0:
                return "FAIL", " / ".join([*said, *out.splitlines()[-3:]])
            said += [line.strip() for line in out.splitlines()
                     if line.startswith(("a wrong", "OK")) or ": 302" in line][:6]
            # A second phone (the third radio, the home's later): isolated
            # from the first, and no phone reaches the box's cable.
            code, out = self.wifi_step("guests")
            if code != 0:
                return "FAIL", " / ".join([*said, *out.splitlines()[-3:]])
            said += [line.strip() for line in out.splitlines() if line.startswith("OK")]
            # Nine phones on the box's own Wi-Fi: every seat, and the deal.
            pin = self.pin()
            self.sim(url, pin, 9, deal=True)
            log = self.sim_says("joined 9", 900)
            if "joined 9" not in log:
                return "FAIL", " / ".join([*said, "nine phones: " + log[-300:]])
            assert self.twin.qmp
            self.twin.qmp.key("spc")                       # START: deal
            t0 = time.monotonic()
            stage = None
            while time.monotonic() - t0 < 900:
                stage = self.saved_stage()
                if stage and stage[0] not in ("", "setup", "deal"):
                    break
                if time.monotonic() - t0 > 60 and (not stage or stage[0] in ("", "setup")):
                    self.twin.qmp.key("spc")               # a START lost on a busy twin
                    t0 = time.monotonic()
                time.sleep(5)
            log = self.sim_says("OK:", 300)
            self.twin.screendump(self.twin.work / "twin-own-wifi-dealt.png")
            if "OK:" not in log:
                return "FAIL", " / ".join([*said, "the deal on nine phones: " + log[-300:]])
            if not stage or stage[0] in ("", "setup", "deal"):
                return "FAIL", " / ".join([*said, f"the deal never ended (saved: {stage})"])
            said.append(log.split("OK:", 1)[1].strip().splitlines()[0]
                        + f"; the game went on to its {stage[0]}")
            # Home: a network the box knows, the phones there; then it goes away.
            code, out = self.wifi_step("home-up")
            if code != 0:
                return "FAIL", " / ".join([*said, *out.splitlines()[-2:]])
            radio = self.sh.out("ls /sys/class/ieee80211/*/device/net").split()
            if len(radio) != 1:
                return "FAIL", " / ".join([*said, f"the box's radio is not alone: {radio}"])
            self.sh.run(f"nmcli connection add type wifi con-name twin-home ifname {radio[0]} "
                        "ssid Twin-Home wifi-sec.key-mgmt wpa-psk "
                        "wifi-sec.psk home-twin-passphrase >/dev/null")
            if not self.restart_box("auto"):
                return "FAIL", "the box did not come back on auto"
            t0 = time.monotonic()
            box = ""
            while time.monotonic() - t0 < 300 and not box:
                active = self.sh.out("nmcli -t -f NAME connection show --active")
                if "twin-home" in active.split():
                    box = self.sh.out(f"ip -4 -o addr show dev {radio[0]} | "
                                      "sed -n 's/.*inet \\([0-9.]*\\).*/\\1/p'").strip()
                time.sleep(3)
            if not box:
                return "FAIL", " / ".join([*said, "the box never joined the home Wi-Fi"])
            # What the box hears of home: its radio's count of home's beacons.
            beacons = [self.sh.out(f"iw dev {radio[0]} station dump | sed -n "
                                   "'s/.*beacon rx:[[:space:]]*//p'").strip()]
            time.sleep(5)
            beacons.append(self.sh.out(f"iw dev {radio[0]} station dump | sed -n "
                                       "'s/.*beacon rx:[[:space:]]*//p'").strip())
            self.figures["home's beacons counted by the box, 5 s apart"] = " -> ".join(beacons)
            code, out = self.wifi_step(f"join-home {box}")
            if code != 0:
                return "FAIL", " / ".join([*said, *out.splitlines()[-2:]])
            _wifi, url = self.codes(want_wifi=False, host=box, timeout=60)
            if not url:
                # No room for the page's code beside this start screen's
                # texts (the card shows the address in words): the phones'
                # screen, BACK held, as a table would open it.
                assert self.twin.qmp
                self.twin.qmp.key("backspace", hold=3.0)
                _wifi, url = self.codes(want_wifi=False, host=box, timeout=180)
                said.append("the page's code read off the phones' screen (BACK held)")
            if not url:
                return "FAIL", " / ".join([*said, f"no page code at {box} on the screen"])
            self.sim(url, self.pin(), 1, deal=False)
            log = self.sim_says("OK:", 600)
            hotspot = self.sh.out("systemctl is-active wolfbox-hotspot.service").strip()
            if "OK:" not in log or hotspot == "active":
                return "FAIL", " / ".join([*said, f"a phone at home: {log[-200:]} "
                                                  f"(the box's own Wi-Fi: {hotspot})"])
            said.append(f"on auto the box joined the home Wi-Fi ({box}) and kept its own "
                        "down; a phone there took a seat")
            code, out = self.wifi_step("home-down")
            t0 = time.monotonic()
            while time.monotonic() - t0 < 600:
                if self.sh.out("systemctl is-active wolfbox-hotspot.service").strip() == "active":
                    break
                time.sleep(3)
            else:
                seen = self.sh.out("nmcli -t -f NAME,TYPE,DEVICE,STATE connection show --active; "
                                   f"iw dev {radio[0]} link; "
                                   f"iw dev {radio[0]} station dump | grep -i beacon; "
                                   "journalctl -u wolfbox --no-pager -o cat -n 3")
                return "FAIL", " / ".join([*said, "home went away; no own Wi-Fi in 600 s: "
                                           + seen.replace("\n", "; ")[-400:]])
            fell = time.monotonic() - t0
            self.figures["home gone to own Wi-Fi up"] = f"{fell:.0f} s"
            code, out = self.wifi_step("own", env)
            if code != 0:
                return "FAIL", " / ".join([*said, "after home: " + out.splitlines()[-1]])
            said.append(f"home went away: the box's own Wi-Fi up {fell:.0f} s later, "
                        "the phone joined it again and loaded the page")
            self.twin.screendump(self.twin.work / "twin-own-wifi-fallback.png")
            return "pass", " / ".join(said)[:1500]
        finally:
            self.wifi_step("clean")
            self.sh.run("nmcli connection delete twin-home >/dev/null 2>&1; "
                        "ip link set eth0 up; nmcli device set eth0 managed yes; "
                        "systemctl stop wolfbox; "
                        "mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml; "
                        "rm -f /var/lib/wolfbox/state.json /var/lib/wolfbox/seats.json; "
                        "systemctl start wolfbox", timeout=300)
            self.wait_active(600)

    # r. the box's user tries the LD_PRELOAD trick on the own Wi-Fi's root unit (issue 41.4)
    def root_trick(self) -> tuple[str, str]:
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
        uid = self.sh.out("id -u wolfbox").strip()
        since = self.sh.out("date +%s").strip()
        code, out = self.sh.run(
            f"runuser -u wolfbox -- sh -c 'base64 -d | gzip -d > {lib}' <<'TWIN'\n{packed}\nTWIN\n"
            f"runuser -u wolfbox -- env LD_PRELOAD={lib} /bin/true")
        if PRELOAD_USER.decode().strip() not in out:
            return "cannot", f"the box's user's library did not run even for it: {out[-200:]}"
        said.append(f"its library ran for the box's user (uid {uid}) with LD_PRELOAD")
        # What the box's user can write, outside the folders anyone may.
        writable = self.sh.out(
            "runuser -u wolfbox -- find / -xdev \\( -path /proc -o -path /sys -o -path /dev "
            "-o -path /run -o -path /tmp -o -path /var/tmp \\) -prune -o -writable "
            "\\( -type f -o -type d \\) -print 2>/dev/null | grep -v '^/var/cache/wolfbox/.' "
            "| sort", timeout=600).split()
        targets = [p for p in writable if p.endswith((".env", ".conf"))]
        own = [p for p in writable if not p.startswith(("/var/lib/wolfbox", "/var/cache/wolfbox"))]
        said.append(f"it can write {len(writable)} files and folders, outside its state "
                    f"and cache: {own or 'none'}")
        # Root keeps a copy of each file it will change, to put back after.
        self.sh.run("rm -rf /root/twin-trick; mkdir -p /root/twin-trick; "
                    + "".join(f"cp -a --parents {p} /root/twin-trick/; " for p in targets))
        roots = ("/var/lib/wolfbox-wifi/wifi.env /var/lib/wolfbox-wifi/wifi.secrets "
                 "/etc/wolfbox/captive.nft /usr/local/lib/wolfbox/wolfbox-wifi "
                 "/etc/systemd/system/wolfbox-hotspot.service /etc/environment")
        code, out = self.sh.run(
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
        journal = self.sh.out(f"journalctl --since @{since} --no-pager -o cat "
                              "| grep -aE 'wolfbox-twin-preload|cannot be preloaded' || true")
        ran = self.sh.out(f"journalctl --since @{since} --no-pager -o cat -u wolfbox-hotspot "
                          "| tail -n 5")
        state = self.show("wolfbox-hotspot.service", "ActiveState", "Result",
                          "EnvironmentFiles", "Environment")
        still = self.sh.out("runuser -u wolfbox -- id -u").strip()
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
        self.sh.run("systemctl stop wolfbox-hotspot.service; rm -f /var/lib/wolfbox/wifi.env "
                    f"{lib}; cp -a /root/twin-trick/. / 2>/dev/null; rm -rf /root/twin-trick; "
                    "systemctl unset-environment LD_PRELOAD", timeout=300)
        return ("FAIL" if problems else "pass"), " / ".join(problems or said)[:1500]

    # d. the lights on the kernel's GPIO chip, from inside the sandbox
    def use_gpio(self) -> bool:
        """The box restarted on the twin's GPIO settings (image/twin/gpio.toml)
        with no game saved: the start screen of a fresh box."""
        settings = (Path(__file__).parent / "twin/gpio.toml").read_text()
        self.sh.run("systemctl stop wolfbox; cp -n /etc/wolfbox/wolfbox.toml "
                    "/etc/wolfbox/wolfbox.toml.twin; rm -f /var/lib/wolfbox/state.json; "
                    f"cat > /etc/wolfbox/wolfbox.toml <<'TWIN'\n{settings}TWIN\n"
                    "systemctl start wolfbox")
        return self.wait_active(self.boot_timeout)

    def sample_lines(self, lines: list[int], seconds: float = 3) -> dict[int, set[int]]:
        """The levels each line took over `seconds`, as the chip reads them."""
        assert self.twin.qmp
        seen: dict[int, set[int]] = {line: set() for line in lines}
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            data = self.twin.qmp.gpio_data()
            for line in lines:
                seen[line].add((data >> line) & 1)
            time.sleep(0.1)
        return seen

    def lights(self) -> tuple[str, str]:
        twin = self.twin
        assert twin.qmp
        if not self.use_gpio():
            return "FAIL", "the box did not start on the twin's GPIO settings"
        info = self.sh.out("gpioinfo gpiochip0")
        claimed = {int(m.group(1)): m.group(2) for m in
                   re.finditer(r"line\s+(\d+):\s+\S+\s+\"?([^\"\s]*)\"?\s+(\S+)", info)
                   if m.group(2) != "unused"}
        outputs = {int(m.group(1)) for m in re.finditer(r"line\s+(\d+):.*\soutput\s", info)}
        problems = []
        if not {4, 5, 6, 7} <= outputs or not {POWER_LINE, 4, 5, 6, 7} <= set(claimed):
            problems.append(f"gpioinfo: {info!r}")
        # The start screen: START pulses (the one to press), VOTE, NEXT and
        # BACK lit (each does something); at night all off but START, dim.
        leds = tomllib.loads((Path(__file__).parent / "twin/gpio.toml").read_text())["leds"]
        lit = [leds["vote"], leds["next"], leds["back"]]
        start = self.sample_lines(lit)
        twin.qmp.key("spc")
        time.sleep(8)
        night = self.sample_lines(lit)
        if any(start[line] != {1} for line in lit):
            problems.append(f"start screen: VOTE, NEXT, BACK lines took {start}, not all lit")
        if any(night[line] != {0} for line in lit):
            problems.append(f"night: VOTE, NEXT, BACK lines took {night}, not all off")
        detail = (f"lines claimed in the guest: {claimed}; outputs {sorted(outputs)}; "
                  f"VOTE, NEXT, BACK (lines {lit}) lit on the start screen, off at night "
                  "(PL061's data register read by the host)")
        return ("FAIL" if problems else "pass"), "; ".join(problems) if problems else detail

    # e. the power button held: a clean poweroff through polkit
    def power_button(self) -> tuple[str, str]:
        twin = self.twin
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
                jobs = self.sh.out("systemctl list-jobs --no-legend | head -n 5; journalctl -b "
                                   "--no-pager -o cat -n 8", timeout=30)
            except (OSError, TimeoutError) as e:
                jobs = f"the shell: {e}"
            twin.screendump(twin.work / "twin-power-stuck.png")
            return "FAIL", ("qemu still runs 300 s after the power button went down: "
                            + " | ".join(jobs.splitlines())[-600:])
        twin.closed()
        twin.start()                              # the journal of that boot
        assert twin.shell
        twin.shell.wait(self.boot_timeout)
        journal = self.sh.out("journalctl -b -1 --no-pager -o cat | tail -n 300")
        self.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml")
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

    # h. a Zero 2 W's 512 MB: a missing line rendered on the box
    def small_memory(self) -> tuple[str, str]:
        if self.twin.memory > 512:
            return "cannot", (f"this run has {self.twin.memory} MB; the 512 MB run "
                              "(image/boot-check.sh --memory=512) does h")
        line = "/var/cache/wolfbox/" + str(cached_line(self.config, FIRST_LINE))
        rc, out = self.sh.run(f"rm {line} && systemctl restart wolfbox")
        if rc:
            return "FAIL", f"could not take {line} away: {out[-200:]}"
        t0 = time.monotonic()
        while time.monotonic() - t0 < 3600:
            if self.sh.run(f"test -s {line}")[0] == 0:
                break
            time.sleep(10)
        rendered = self.sh.run(f"test -s {line}")[0] == 0
        took = time.monotonic() - t0
        oom = self.sh.out("journalctl -b -k --no-pager -o cat "
                          "| grep -ciE 'out of memory|oom-kill|invoked oom-killer' || true")
        peak = self.sh.out("cat /sys/fs/cgroup/system.slice/wolfbox.service/memory.peak "
                           "2>/dev/null || echo ?").strip()
        low = self.sh.out("grep MemAvailable /proc/meminfo").strip()
        if peak.isdigit():
            self.figures["512 MB: the box and its renderer, peak (cgroup)"] = \
                f"{int(peak) / 2**20:.0f} MiB"
        state = self.show("wolfbox.service", "ActiveState", "NRestarts")
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

    def cannot(self, why: str) -> Callable[[], tuple[str, str]]:
        return lambda: ("cannot", why)

    def summary(self) -> int:
        print("\nboot-check: the image's twin (qemu-system-aarch64 -M virt, TCG, "
              f"{self.twin.memory} MB)")
        for r in self.results:
            print(f"  {r.outcome:6} {r.seconds:6.0f} s  {r.name}: {r.detail}")
        for k, v in self.figures.items():
            print(f"  {k}: {v}")
        return 0 if all(r.outcome != "FAIL" for r in self.results) and \
            any(r.outcome == "pass" for r in self.results) else 1


def main(argv: list[str] | None = None) -> int:
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
    checks = Checks(twin, args.wolfbox, args.config, args.boot_timeout)
    try:
        booted = checks.run("a. boot to READY, no failed unit, watchdog fed 2 min", checks.boot)
        ran = {
            "b": ("b. the start screen (screendump vs wolfbox screenshot)", checks.screen),
            "c": ("c. a key on the USB keyboard starts a round; the box speaks", checks.press),
            "f": ("f. a power cut in a timed game: it resumes, no file corrupt",
                  checks.power_cut),
            "g": ("g. phones: the QR code, the page through the port forward, a seat",
                  checks.phones),
            "w": ("w. the box's own Wi-Fi on simulated radios: a phone joins it",
                  checks.own_wifi),
            "r": ("r. the box's user tries LD_PRELOAD on the own Wi-Fi's root unit: stays itself",
                  checks.root_trick),
            "d": ("d. the lights: the box's LED lines on PL061, as the legend says",
                  checks.lights),
            "e": ("e. the power button held: poweroff through polkit, qemu exits",
                  checks.power_button),
            "h": (f"h. {args.memory} MB: a missing line rendered, no OOM killer",
                  checks.small_memory),
        }
        for key in args.only.split(","):
            if key in ran and booted.outcome == "pass":
                checks.run(*ran[key])
            elif key in ran:
                checks.run(ran[key][0], checks.cannot("a failed: the box is not up"))
    finally:
        twin.kill()
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
