"""Background rendering of missing lines, in the order they will be needed.

A thread feeds a renderer process (wolfbox.audio.render_worker) one line at
a time. The process is started when there is work and closed when the queue
runs dry, so the voice's memory is only held while rendering. A crash or a
timeout costs that one line (it stays a caption) and restarts the process.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .cache import LineCache
from .voice import Voice

log = logging.getLogger("wolfbox.audio")


@dataclass
class RenderStats:
    rendered: int = 0
    failed: int = 0
    audio_seconds: float = 0.0
    render_seconds: float = 0.0


@dataclass
class Renderer:
    voice: Voice
    cache: LineCache
    on_ready: Callable[[str], None] = lambda text: None
    timeout: float = 60.0
    command: list[str] | None = None     # tests swap in a fake worker
    max_start_failures: int = 2
    stats: RenderStats = field(default_factory=RenderStats)

    def __post_init__(self) -> None:
        self._queue: deque[str] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._busy = False
        self._start_failures = 0
        self.available = True
        self._thread: threading.Thread | None = None

    # -------------------------------------------------------------- public
    def request(self, texts: Iterable[str], urgent: bool = False) -> None:
        """Queue lines to render; `urgent` ones go first. Cheap for the caller
        (the main loop): whether a line is cached already is checked on the
        render thread, where reading the files costs nobody anything."""
        with self._cond:
            if self._closed:
                return
            wanted = list(dict.fromkeys(texts))
            if urgent:
                for t in reversed(wanted):
                    if t in self._queue:
                        self._queue.remove(t)
                    self._queue.appendleft(t)
                new = wanted
            else:
                queued = set(self._queue)
                new = [t for t in wanted if t not in queued]
                self._queue.extend(new)
            if new:
                self._ensure_thread()
                self._cond.notify_all()

    def pending(self) -> list[str]:
        with self._cond:
            return list(self._queue)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until the queue is empty (for `prepare` and tests)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # ------------------------------------------------------------- worker
    def _give_up(self) -> None:
        """The renderer will not start: stop trying, say so once."""
        log.warning("the voice renderer cannot start (voice %s): lines not yet rendered "
                    "stay captions", self.voice.model)
        with self._cond:
            self.available = False
            self._closed = True
            self._queue.clear()

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="wolfbox-render",
                                            daemon=True)
            self._thread.start()

    def _cmd(self) -> list[str]:
        if self.command is not None:
            return self.command
        # -I: the worker imports the installed wolfbox, never a source folder
        # that happens to be the current directory.
        return [sys.executable, "-I", "-m", "wolfbox.audio.render_worker", str(self.voice.model),
                "--engine", self.voice.engine,
                "--length-scale", str(self.cache.settings.length_scale),
                "--volume", str(self.cache.settings.volume)]

    def _run(self) -> None:
        proc: subprocess.Popen[str] | None = None
        try:
            while True:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
                    if not self._queue:
                        # Nothing left: let the voice's memory go.
                        if proc is not None:
                            _stop(proc)
                            proc = None
                        self._cond.wait_for(lambda: self._queue or self._closed)
                    if self._closed:
                        return
                    text = self._queue.popleft()
                    self._busy = True
                if self.cache.get(text) is not None:
                    continue
                if proc is None or proc.poll() is not None:
                    proc = self._start()
                    if proc is None:
                        self.stats.failed += 1
                        self._start_failures += 1
                        if self._start_failures >= self.max_start_failures:
                            self._give_up()
                            return
                        continue
                    self._start_failures = 0
                if self._render(proc, text):
                    self.on_ready(text)
                else:
                    self.stats.failed += 1
                    _stop(proc)
                    proc = None
        finally:
            if proc is not None:
                _stop(proc)
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _start(self) -> subprocess.Popen[str] | None:
        try:
            proc = subprocess.Popen(self._cmd(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            log.warning("cannot start the voice renderer: %s", e)
            return None
        hello = _readline(proc, self.timeout)
        if not hello or not hello.get("ready"):
            _stop(proc)
            return None
        return proc

    def _render(self, proc: subprocess.Popen[str], text: str) -> bool:
        path = self.cache.path(text)
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"text": text, "path": str(path)}) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            log.warning("the voice renderer died; restarting it")
            return False
        reply = _readline(proc, self.timeout)
        if not reply or not reply.get("ok"):
            log.warning("the voice renderer failed on a line; it stays a caption")
            return False
        self.stats.rendered += 1
        self.stats.audio_seconds += float(reply.get("audio_seconds", 0))
        self.stats.render_seconds += float(reply.get("render_seconds", 0))
        return True


def _readline(proc: subprocess.Popen[str], timeout: float) -> dict | None:
    """One JSON reply from the worker, or None on EOF, garbage or timeout."""
    result: list[str] = []
    reader = threading.Thread(target=lambda: result.append(proc.stdout.readline()),  # type: ignore[union-attr]
                              daemon=True)
    reader.start()
    reader.join(timeout)
    if not result or not result[0]:
        return None
    try:
        value = json.loads(result[0])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _stop(proc: subprocess.Popen[str]) -> None:
    try:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=2)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
