"""The twin's machine: qemu-system-aarch64 -M virt started on the image's
copy (`Twin`), its machine protocol (`Qmp`: screendumps, the USB keyboard,
the PL061's data register), the power button's line held by the host
(`PowerLine`) and the twin-only root shell on the virtio console (`Shell`).
Nothing here knows a check."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

# The twin's display (virtio-gpu's mode, which the box's KMSDRM fullscreen takes).
SCREEN = (1024, 768)

# The sound card's output as qemu's wav audiodev writes it (set on the
# command line below; media.py reads the file in this format).
RATE = 44100
CHANNELS = 2


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
        message: dict[str, object] = {"execute": command}
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
                part and part.close()
            except OSError:
                pass
        self.qmp = None
        self.shell = None

    def screendump(self, path: Path) -> Path:
        assert self.qmp
        path.unlink(missing_ok=True)
        self.qmp.execute("screendump", filename=str(path), format="png")
        return path

