"""Stop signals against the real `wolfbox` command, at the moments they hurt:
during start-up, during close, and a hangup on a terminal.

systemd stops the service with SIGTERM whenever it likes (a restart during
start-up, a second stop while closing), and closing tty1 sends SIGHUP.
Whenever it comes, the box must end with status 0, take its renderer
process with it, and give the terminal back as it found it.

These need the stop handlers installed at the very start of
`wolfbox.cli.main` (device/signals.py); before that change they fail.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import psutil
import pytest
from conftest import Lines, NotifySocket

BROKEN_CONFIG = "[game]\ndiscussion_seconds = 'long'\n"
COOKED = termios.ICANON | termios.ECHO


class Box:
    """A real `wolfbox run --headless`, its notify socket, and optionally a
    terminal (a pty) as its standard input."""

    def __init__(self, tmp_path: Path, *args: str, tty: bool = False) -> None:
        self.notify = NotifySocket(tmp_path / "notify")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "NOTIFY_SOCKET": self.notify.address, "XDG_CACHE_HOME": str(tmp_path / "cache"),
               "XDG_STATE_HOME": str(tmp_path / "state")}
        self.master = self.slave = -1
        stdin: int = subprocess.DEVNULL
        if tty:
            self.master, self.slave = pty.openpty()
            stdin = self.slave
        self.proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--headless",
                                      *args], env=env, stdin=stdin, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.out, self.err = Lines(self.proc.stdout), Lines(self.proc.stderr)
        self.children: list[psutil.Process] = []

    def note_children(self) -> None:
        """Remember the box's child processes (its renderer) to check on later."""
        try:
            self.children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            pass

    def wait_for_renderer(self, timeout: float = 120) -> None:
        """The renderer process is started on a thread of its own, soon after
        the first frame; wait until it is there (a bound, not a delay)."""
        deadline = time.monotonic() + timeout
        while not self.children:
            assert time.monotonic() < deadline, "no renderer process"
            assert self.proc.poll() is None, self.err.rest()
            self.note_children()
            time.sleep(0.02)

    def mode(self) -> int:
        return termios.tcgetattr(self.slave)[3] & COOKED

    def ended(self) -> int:
        """The exit status; and nothing of the box may outlive it."""
        status = self.proc.wait(timeout=60)    # an upper bound for a box that ignores it
        left = [c for c in self.children
                if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
        assert not left, f"left running after the box ended: {left}"
        return status

    def close(self) -> None:
        for child in self.children:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            stream.close()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.notify.close()


@pytest.mark.parametrize("moment", [
    "starting on the defaults",           # the config is read; nothing built yet
    "Config error: playing on the defaults",   # built (SDL up, renderer started); no loop yet
])
def test_sigterm_during_start_up_ends_the_box(tmp_path, moment):
    """SDL installs a SIGTERM handler of its own that only queues an event;
    a headless box reads no SDL events, so a stop during start-up was
    swallowed and the service ran on until systemd killed it."""
    config = tmp_path / "wolfbox.toml"
    config.write_text(BROKEN_CONFIG)
    box = Box(tmp_path, "--config", str(config), "--safe-config")
    try:
        box.err.wait_for(moment)
        box.note_children()
        box.proc.send_signal(signal.SIGTERM)
        assert box.ended() == 0
        assert "Traceback" not in box.err.rest()
    finally:
        box.close()


def test_sigterm_while_closing_lets_the_close_finish(tmp_path):
    """A second SIGTERM during close must not cut it short: the renderer is
    stopped, the terminal is given back, the status is 0."""
    box = Box(tmp_path, tty=True)
    try:
        cooked = box.mode()
        assert cooked == COOKED
        box.notify.wait_for("READY=1")
        box.wait_for_renderer()
        assert box.mode() == 0                      # cbreak while it runs
        box.proc.send_signal(signal.SIGTERM)
        box.notify.wait_for("STOPPING=1")           # the loop is over: closing now
        box.proc.send_signal(signal.SIGTERM)
        assert box.ended() == 0
        assert box.mode() == cooked
    finally:
        box.close()


def test_sighup_on_a_terminal_closes_everything(tmp_path):
    """The terminal going away (SIGHUP) is a stop like SIGTERM: no renderer
    left orphaned, no terminal left in cbreak mode."""
    box = Box(tmp_path, tty=True)
    try:
        cooked = box.mode()
        box.notify.wait_for("READY=1")
        box.wait_for_renderer()
        box.proc.send_signal(signal.SIGHUP)
        assert box.ended() == 0
        assert box.mode() == cooked
        assert "Traceback" not in box.err.rest()
    finally:
        box.close()


def test_the_key_hint_only_when_the_keys_work(tmp_path):
    """Standard input that gives no keys (a service, a pipe) gets no hint
    about keys; a terminal does."""
    for tty in (False, True):
        (tmp_path / str(tty)).mkdir()
        box = Box(tmp_path / str(tty), tty=tty)
        try:
            box.notify.wait_for("READY=1")
            box.proc.send_signal(signal.SIGTERM)
            assert box.ended() == 0
            hint = [line for line in box.out.rest().splitlines() if "Keys:" in line]
            assert bool(hint) == tty, (tty, hint)
        finally:
            box.close()
