"""systemd's notify protocol (sd_notify), in the few lines it takes.

READY=1 once the first frame is on screen; WATCHDOG=1 at half the
interval systemd asks for, from the main loop itself, so a loop that hangs
is restarted. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
Nothing is kept of what was sent (the box runs for months): a test that
wants to see the messages listens on a socket of its own.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass


@dataclass
class Notifier:
    address: str | None = None
    watchdog_seconds: float | None = None

    @classmethod
    def from_env(cls) -> Notifier:
        """The box's own notifier, the variables taken out of its environment
        (as sd_notify's unset_environment does): a program it starts (nmcli,
        systemctl, the renderer) must not speak for it; systemd logs each
        message from another PID ("reception only permitted for main PID")."""
        address = os.environ.pop("NOTIFY_SOCKET", None) or None
        usec = os.environ.pop("WATCHDOG_USEC", None)
        pid = os.environ.pop("WATCHDOG_PID", None)
        seconds = None
        if usec and usec.isdigit() and (not pid or pid == str(os.getpid())):
            seconds = int(usec) / 1_000_000
        return cls(address, seconds)

    def __post_init__(self) -> None:
        self._last_ping = float("-inf")

    @property
    def active(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> None:
        if self.address is None:
            return
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
                s.connect(address)
                s.sendall(message.encode())
        except OSError:
            pass            # systemd gone or not listening: nothing to tell

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def ping(self, now: float) -> None:
        """WATCHDOG=1, at most every half watchdog interval."""
        if self.watchdog_seconds is None:
            return
        if now - self._last_ping >= self.watchdog_seconds / 2:
            self._last_ping = now
            self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
