"""Background rendering of missing lines, in the order they will be needed.

A thread feeds a renderer process (wolfbox.audio.render_worker) one line at
a time. The process is started when there is work and closed when the queue
runs dry, so the voice's memory is only held while rendering.

When something goes wrong the box says so once (through `report`) and backs
off instead of starting a new 150-400 MB process for every line:

- a line the voice cannot say costs that line (it stays a caption);
- a crash, or a process that stops making progress (no heartbeat and no CPU
  time for `stall` seconds, e.g. SIGSTOP), costs that line and restarts the
  process after a pause;
- a process that keeps working without an answer (a runaway) is stopped by a
  ceiling counted in its own processor time, not on the wall clock: a busy
  machine starves a low-priority renderer, which is slow, not broken. The
  ceiling for a line scales with what loading the voice cost this machine
  (a fixed piece of work): a Pi renders within `timeout` seconds, an
  emulated arm64 system some hundred times slower gets its share, and each
  says which limit ended it;
- a cache that cannot take new lines (full disk, read-only card, a folder
  the box may not write) keeps the line queued; it is tried again after a
  pause that doubles up to `backoff_cap`, and no process is started until a
  small test write succeeds;
- a process that cannot start (bad voice) is given up after
  `max_start_failures` tries.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from wolfbox.i18n import _
from wolfbox.spoken import spoken

from .cache import LineCache
from .faults import DISK_KINDS, describe_storage, log_once
from .render_worker import default_threads
from .voice import Voice

log = logging.getLogger("wolfbox.audio")

# A line may use this many times the processor time that loading the voice
# took on this machine (when that is more than `Renderer.timeout`). Here a
# start costs about 2 s and a line well under 10 s; under qemu-user a start
# about 12 s and a short line some 35 s: the emulated arm64 cores run the
# voice's vector code far slower than its loading.
CEILING_PER_START = 100.0
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class RenderStats:
    rendered: int = 0
    failed: int = 0
    audio_seconds: float = 0.0
    render_seconds: float = 0.0
    restarts: int = 0           # processes started after a failure


class _Hung(Exception):
    pass


class _TooLong(Exception):
    """The worker used more processor time than its ceiling: a runaway."""

    def __init__(self, spent: float, limit: float) -> None:
        super().__init__(f"{spent:.0f} s of {limit:.0f} s")
        self.spent, self.limit = spent, limit


class _Died(Exception):
    pass


class _Worker:
    """A running renderer process and its output, read into a queue by a
    thread of its own so that waiting for a reply can time out."""

    def __init__(self, proc: subprocess.Popen[str], cache: LineCache) -> None:
        self.proc = proc
        self.cache = cache              # the settings it was started with render into this
        self.pid = proc.pid
        self.start_cpu = 0.0            # processor seconds it took to load the voice
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name="wolfbox-render-reader", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, job: dict[str, str]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()

    def stop(self, kill: bool = False) -> None:
        """Close its input and let it exit (kill it if it will not, or is hung)."""
        if kill:
            self.proc.kill()
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Renderer:
    """Renders missing lines into the cache in a separate, low-priority process."""
    voice: Voice
    cache: LineCache
    on_ready: Callable[[str], None] = lambda text: None
    # Ceiling for one line or a start, progress or not: seconds of the
    # worker's processor time (wall-clock time where /proc cannot tell). A
    # line's is raised to CEILING_PER_START times what loading the voice cost.
    timeout: float = 300.0
    command: list[str] | None = None     # tests swap in a fake worker
    max_start_failures: int = 2
    stats: RenderStats = field(default_factory=RenderStats)
    report: Callable[[str], None] = field(default_factory=log_once)
    threads: int | None = None           # onnxruntime threads; None: cores minus one
    # "idle": the box renders behind a game and must never slow the loop;
    # "normal": `prepare` and `selftest`, where rendering is the job itself.
    priority: str = "idle"
    stall: float = 5.0                   # seconds without progress: the process is hung
    backoff_first: float = 1.0
    backoff_cap: float = 300.0
    max_failures: int | None = None      # failures in a row before giving up; None: never

    def __post_init__(self) -> None:
        self._queue: deque[str] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._busy = False
        self._start_failures = 0
        self._failures = 0               # in a row, of any kind
        self._retry_at = 0.0
        self._said: str | None = None
        self._listeners: list[Callable[[str], None]] = []
        self._proc: _Worker | None = None
        self._starting: _Worker | None = None    # started, not ready yet
        self.available = True
        self._thread: threading.Thread | None = None

    # -------------------------------------------------------------- public
    def request(self, texts: Iterable[str], urgent: bool = False) -> None:
        """Queue lines to render; `urgent` ones go first, in the order given.
        Cheap for the caller (the main loop): whether a line is cached already
        is checked on the render thread, where reading the files costs nobody
        anything."""
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

    def retarget(self, cache: LineCache, voice: Voice | None = None) -> None:
        """Render into `cache` from now on (new synthesis settings, or with
        `voice`, another language's voice). What was queued is dropped (the
        narrator asks again); a worker started with the old settings is
        stopped before its next line, never used for the new."""
        with self._cond:
            self.cache = cache
            if voice is not None:
                self.voice = voice
            self._queue.clear()
            self._cond.notify_all()

    def subscribe(self, listener: Callable[[str], None]) -> None:
        """Also call `listener(text)` (on the render thread) when a line is
        ready, besides `on_ready`: the narrator reads it ahead this way."""
        self._listeners.append(listener)

    def pending(self) -> list[str]:
        with self._cond:
            return list(self._queue)

    def worker_pid(self) -> int | None:
        """The renderer process's id while one runs (tests, the bench)."""
        worker = self._proc
        return worker.pid if worker is not None and worker.alive() else None

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until the queue is empty (for `prepare` and tests)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self) -> None:
        """Stop rendering now: the line in progress is abandoned (the cache is
        written atomically, so nothing half-written stays) and the worker is
        ended, however busy or starved it is, before the box exits."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
            workers = [w for w in (self._proc, self._starting) if w is not None]
        for worker in workers:          # the one rendering, and one still loading
            worker.stop(kill=True)
        if self._thread is not None:
            self._thread.join(timeout=5)

    # ------------------------------------------------------------- worker
    def _say(self, message: str) -> None:
        """Report a fault once: again only after a success or a different fault."""
        if message != self._said:
            self._said = message
            try:
                self.report(message)
            except Exception:                  # a broken sink must not stop rendering
                log.exception("report failed")

    def _give_up(self, message: str) -> None:
        """Stop trying, say so once; lines not yet rendered stay captions."""
        self._say(message)
        with self._cond:
            self.available = False
            self._closed = True
            self._queue.clear()

    def _failed(self) -> None:
        """One more failure in a row: pause before the next attempt."""
        self._failures += 1
        delay = min(self.backoff_cap, self.backoff_first * 2 ** (self._failures - 1))
        self._retry_at = time.monotonic() + delay
        if self.max_failures is not None and self._failures >= self.max_failures:
            self._give_up(_("the voice renderer failed {count} times in a row: lines not "
                            "yet rendered stay captions").format(count=self._failures))

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
        espeak = ["--espeak-voice", self.voice.espeak] if self.voice.espeak else []
        return [sys.executable, "-I", "-m", "wolfbox.audio.render_worker", str(self.voice.model),
                "--engine", self.voice.engine, *espeak,
                "--length-scale", str(self.cache.settings.length_scale),
                "--volume", str(self.cache.settings.volume),
                "--threads", str(self._threads()), "--priority", self.priority]

    def _threads(self) -> int:
        """Cores minus one behind a game (a core stays free for the loop);
        every core where rendering is the job itself."""
        if self.threads:
            return self.threads
        return default_threads() if self.priority == "idle" else (os.cpu_count() or 1)

    def _env(self) -> dict[str, str]:
        """The worker's environment: onnxruntime's telemetry off (it writes a
        device id under ~/.cache/Microsoft), and anything else that honours
        XDG_CACHE_HOME kept inside the box's own cache folder."""
        env = dict(os.environ)
        env["ORT_DISABLE_TELEMETRY"] = "1"
        env["XDG_CACHE_HOME"] = str(self.cache.root.parent)
        env["OMP_NUM_THREADS"] = env["OPENBLAS_NUM_THREADS"] = str(self._threads())
        return env

    def _next(self) -> str | None:
        """The next line to render, after any back-off; None once closed.

        The worker is stopped outside the lock (it may take a moment to exit),
        so `request` from the main loop never waits for it.
        """
        while True:
            stop = False
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                if self._closed:
                    return None
                wait = self._retry_at - time.monotonic()
                stale = self._proc is not None and self._proc.cache is not self.cache
                if self._queue and wait <= 0 and not stale:
                    self._busy = True
                    return self._queue.popleft()
                if stale:
                    stop = True                  # started with the old settings
                if self._proc is not None:
                    stop = True                  # idle or pausing: let the voice's memory go
                elif self._queue:
                    self._cond.wait(wait)
                else:
                    self._cond.wait()
            if stop:
                self._stop_worker()

    def _stop_worker(self, kill: bool = False) -> None:
        worker, self._proc = self._proc, None
        if worker is not None:
            worker.stop(kill)

    def _run(self) -> None:
        try:
            while (text := self._next()) is not None:
                if self.cache.get(text) is not None:
                    continue
                if self._proc is not None and self._proc.cache is not self.cache:
                    self._stop_worker()          # retargeted: its settings are the old ones
                if self._proc is None or not self._proc.alive():
                    self._stop_worker()
                    problem = self.cache.probe()
                    if problem is not None:      # no process until a line can be stored
                        self._requeue(text)
                        self._say(problem)
                        self._failed()
                        continue
                    if self._start_failures or self._failures:
                        self.stats.restarts += 1
                    self._proc = self._start()
                    if self._proc is None:
                        self.stats.failed += 1
                        self._start_failures += 1
                        self._requeue(text)
                        if self._start_failures >= self.max_start_failures:
                            self._give_up(_("the voice renderer cannot start (voice {voice}): "
                                            "lines not yet rendered stay captions")
                                          .format(voice=self.voice.model))
                            return
                        self._failed()
                        continue
                    self._start_failures = 0
                self._render(self._proc, text)
        finally:
            self._stop_worker()
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def line_ceiling(self, worker: _Worker) -> float:
        """The processor time one line may take with this worker."""
        return max(self.timeout, CEILING_PER_START * worker.start_cpu)

    def _requeue(self, text: str) -> None:
        with self._cond:
            if not self._closed and text not in self._queue:
                self._queue.appendleft(text)

    def _start(self) -> _Worker | None:
        with self._cond:             # close() must see a worker from its first instant
            if self._closed:
                return None
            try:
                proc = subprocess.Popen(self._cmd(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1, env=self._env())
            except OSError as e:
                self._say(_("cannot start the voice renderer: {error}").format(error=e))
                return None
            worker = self._starting = _Worker(proc, self.cache)
        try:
            hello = _reply(worker, self.stall, self.timeout)
        except _TooLong as e:
            hello = None
            self._say(_("the voice renderer used {spent:.0f} s of processor time to start, past "
                        "its limit of {limit:.0f} s: trying again after a pause").format(
                spent=e.spent, limit=e.limit))
        except (_Hung, _Died):
            hello = None
        finally:
            with self._cond:
                self._starting = None
        worker.start_cpu = _cpu_seconds(worker.pid) or 0.0
        if not hello or not hello.get("ready"):
            worker.stop(kill=True)
            if hello and hello.get("kind") == "voice":
                self._say(_("the voice cannot be loaded ({detail}): lines not yet rendered "
                            "stay captions").format(detail=hello.get("detail", "")))
            return None
        return worker

    def _render(self, worker: _Worker, text: str) -> None:
        try:
            # The cache is keyed by the line as shown; the voice reads its
            # spoken form (Chinese 两 for two of something).
            worker.send({"text": spoken(text, worker.cache.lang),
                         "path": str(worker.cache.path(text))})
            reply = _reply(worker, self.stall, self.line_ceiling(worker))
        except (OSError, ValueError, _Died):     # ValueError: its pipe was closed under us
            if self._closed:
                return                           # close() ended it: nothing to report
            reply, problem = None, _("the voice renderer stopped on a line: it stays a "
                                     "caption")
        except _Hung:
            reply, problem = None, _("the voice renderer stopped making progress: restarting "
                                     "it after a pause")
        except _TooLong as e:
            reply, problem = None, _("the voice renderer used {spent:.0f} s of processor time "
                                     "on one line, past its limit of {limit:.0f} s here: "
                                     "restarting it after a pause").format(
                spent=e.spent, limit=e.limit)
        else:
            problem = _("the voice renderer sent nonsense: restarting it after a pause")
        if reply is not None and reply.get("ok"):
            self._failures = 0
            self._said = None
            self.stats.rendered += 1
            self.stats.audio_seconds += float(reply.get("audio_seconds", 0))
            self.stats.render_seconds += float(reply.get("render_seconds", 0))
            for listener in [self.on_ready, *self._listeners]:
                try:
                    listener(text)
                except Exception:
                    log.exception("on_ready failed")
            return
        kind = reply.get("kind") if reply is not None else None
        if reply is not None and kind in DISK_KINDS:
            self._requeue(text)                  # not the line's fault: try it again later
            self._say(describe_storage(str(kind), self.cache.root,
                                       str(reply.get("detail", ""))))
            self._stop_worker()
            self._failed()
            return
        self.stats.failed += 1
        if reply is not None and kind == "line":     # the process is fine: carry on with it
            self._say(_("the voice could not say a line ({detail}): it stays a caption")
                      .format(detail=reply.get("detail", "")))
            return
        self._say(problem)
        self._stop_worker(kill=True)
        self._failed()


def _reply(worker: _Worker, stall: float, ceiling: float) -> dict[str, Any] | None:
    """The worker's next reply (heartbeats aside), or None if it was not JSON.

    Raises _Died at end of output, _Hung when the process has made no progress
    for `stall` seconds (no heartbeat with more CPU time, and no CPU time
    seen in /proc: a starved low-priority process is slow, not hung), and
    _TooLong when it has used more than `ceiling` seconds of processor time
    on this reply (of wall-clock time where /proc cannot tell).
    """
    lines, pid = worker.lines, worker.pid
    started = last_progress = time.monotonic()
    beat_cpu: float | None = None
    proc_cpu = _cpu_ticks(pid)
    first_cpu = _cpu_seconds(pid)
    while True:
        now = time.monotonic()
        cpu = _cpu_seconds(pid)
        spent = cpu - first_cpu if cpu is not None and first_cpu is not None else now - started
        if spent > ceiling:
            raise _TooLong(spent, ceiling)
        try:
            line = lines.get(timeout=max(0.05, min(stall - (now - last_progress),
                                                   ceiling - spent)))
        except queue.Empty:
            line = ""
        if line is None:
            raise _Died()
        if line:
            try:
                value = json.loads(line)
            except ValueError:
                return None
            if not isinstance(value, dict):
                return None
            if not value.get("alive"):
                return value
            cpu = float(value.get("cpu", 0.0))
            if beat_cpu is None or cpu > beat_cpu + 0.001:
                last_progress = time.monotonic()
            beat_cpu = cpu
            continue
        if time.monotonic() - last_progress < stall:
            continue
        if _stopped(pid):
            raise _Hung()
        cpu_now = _cpu_ticks(pid)
        if cpu_now is None or proc_cpu is None or cpu_now <= proc_cpu:
            raise _Hung()
        proc_cpu = cpu_now
        last_progress = time.monotonic()


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name, or None off Linux."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _stopped(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] in ("T", "t")


def _cpu_ticks(pid: int) -> int | None:
    """User plus system CPU time of the whole process, in clock ticks."""
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12]) if fields is not None else None


def _cpu_seconds(pid: int) -> float | None:
    ticks = _cpu_ticks(pid)
    return ticks / TICKS_PER_SECOND if ticks is not None else None

