"""Shared test helpers. SDL runs on its dummy drivers everywhere in the
suite, so no test needs a screen or a sound card."""

from __future__ import annotations

import os
import queue
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
# What the box remembers goes to a scratch folder, never the real home.
STATE_HOME = tempfile.mkdtemp(prefix="wolfbox-test-state-")
os.environ["XDG_STATE_HOME"] = STATE_HOME
os.environ.pop("STATE_DIRECTORY", None)
# A game's exception, which the box at a table survives (device.loop), is
# raised in every box a test starts, here or as a child: bugs are never hidden.
os.environ["WOLFBOX_STRICT"] = "1"

import pytest  # noqa: E402  (after the environment above, as SDL reads it)

from wolfbox import lineup  # noqa: E402,F401  (the games' config sections)
from wolfbox.onenight.flow import Flow, RoundSettings  # noqa: E402
from wolfbox.onenight.night import NightOptions  # noqa: E402
from wolfbox.onenight.section import STARTER_DECK  # noqa: E402


def make_flow(deck=STARTER_DECK, options: NightOptions | None = None, **kw) -> Flow:
    return Flow(RoundSettings.for_deck(deck, options, **kw))


@pytest.fixture
def flow() -> Flow:
    return make_flow()


def pytest_configure(config) -> None:
    """Every session gets scratch folders of its own (two sessions at once
    never clean up each other's), removed when it ends: no litter in /tmp.
    Test processes started by pytest-xdist are given theirs by the first."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="wolfbox-tests-")
        config.stash[_OWN_BASETEMP] = config.option.basetemp


_OWN_BASETEMP = pytest.StashKey[str]()


def pytest_unconfigure(config) -> None:
    shutil.rmtree(STATE_HOME, ignore_errors=True)
    own = config.stash.get(_OWN_BASETEMP, None)
    if own is not None:
        shutil.rmtree(own, ignore_errors=True)


class Lines:
    """A child's output stream, read on a thread, so a test can wait for
    the line that says the child got somewhere instead of guessing how long
    that takes on a busy machine."""

    def __init__(self, stream: IO[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, needle: str, timeout: float = 120) -> str:
        """The first line from now on that contains `needle`; `timeout` is
        only an upper bound for a child that never gets there."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {needle!r} within {timeout} s; got:\n"
                                     + "".join(self.seen)) from None
            if line is None:
                self._queue.put(None)
                raise AssertionError(f"the stream ended before a line with {needle!r}; "
                                     "got:\n" + "".join(self.seen))
            self.seen.append(line)
            if needle in line:
                return line

    def rest(self, timeout: float = 60) -> str:
        """Everything, once the stream has ended."""
        self._thread.join(timeout)
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._queue.put(None)
                break
            self.seen.append(line)
        return "".join(self.seen)


class NotifySocket:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, path: Path) -> None:
        self.address = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.address)

    def next(self, timeout: float = 120) -> str:
        """The next message; `timeout` only bounds a box that never sends it."""
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode()

    def wait_for(self, prefix: str, timeout: float = 120) -> list[str]:
        """Messages up to and including the first that starts with `prefix`."""
        got = [self.next(timeout)]
        while not got[-1].startswith(prefix):
            got.append(self.next(timeout))
        return got

    def queued(self) -> list[str]:
        """What was sent and not read yet (all of it, once the sender has exited)."""
        self.sock.setblocking(False)
        got = []
        try:
            while True:
                got.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            return got

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def pilots(tmp_path, monkeypatch):
    """The one driver of the real box on a fake clock (tests/pilot.py): what
    a box remembers stays with its test; every box started is closed."""
    from pilot import Pilots
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    started = Pilots()
    yield started
    started.close()


@pytest.fixture
def mixer():
    """The mixer open at the voice's usual rate (SDL's dummy driver), closed after."""
    import pygame

    from wolfbox.audio.narrator import open_mixer
    pygame.mixer.quit()
    assert open_mixer(22050) is None
    yield
    pygame.mixer.quit()
