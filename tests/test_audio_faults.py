"""Faults the voice meets on a real box, each injected for real where the
machine allows it: a full disk, a read-only card, a cache folder that is
not a folder, a stopped renderer, a broken voice, a WAV in the wrong format."""

from __future__ import annotations

import errno
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest.mock import ANY

import pygame
import pytest

from helpers import tone_wav
from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat
from wolfbox.audio.narrator import Narrator, open_mixer
from wolfbox.audio.render_worker import render_job
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import VoiceError, choose_voice, find_voice
from wolfbox.effects import Say

HERE = Path(__file__).parent
LINES = [f"Line {i}." for i in range(12)]


def fake(mode: str = "ok") -> list[str]:
    return [sys.executable, str(HERE / "fake_worker.py"), mode]


def cache_in(root: Path) -> LineCache:
    return LineCache(root, "voice-a", SynthSettings(), WavFormat(22050))


def renderer(cache: LineCache, mode: str = "ok", **kw) -> tuple[Renderer, list[str]]:
    said: list[str] = []
    kw.setdefault("backoff_first", 0.1)
    kw.setdefault("backoff_cap", 0.8)
    r = Renderer(find_voice(""), cache, command=fake(mode), report=said.append, **kw)
    return r, said


def until(predicate, timeout: float = 30.0) -> None:
    """Wait for a condition the code under test brings about (an upper bound,
    not a sleep: it returns as soon as the condition holds)."""
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.fixture
def tmpfs(tmp_path):
    """A tiny filesystem of our own (needs root and mount rights, else skip):
    the only way to get a real ENOSPC or EROFS."""
    mounted: list[Path] = []

    def make(kb: int) -> Path:
        point = tmp_path / f"fs{len(mounted)}"
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kb}k", "tmpfs",
                               str(point)], capture_output=True)
        if done.returncode != 0:
            pytest.skip("cannot mount a tmpfs here")
        mounted.append(point)
        return point
    yield make
    for point in mounted:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def fill(point: Path, leave: int) -> Path:
    """Fill the filesystem at `point` until about `leave` bytes are free."""
    filler = point / "filler"
    with filler.open("wb") as f:
        try:
            while os.statvfs(point).f_bavail * os.statvfs(point).f_frsize > leave:
                f.write(b"\0" * 1024)
                f.flush()
        except OSError:
            pass
    return filler


def starts_log(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "starts.txt"
    monkeypatch.setenv("FAKE_WORKER_STARTS", str(path))
    return path


def starts(path: Path) -> list[float]:
    return [float(x) for x in path.read_text().split()] if path.exists() else []


# ------------------------------------------------------------- the cache folder
def test_a_cache_folder_that_cannot_exist_starts_no_worker_says_once_then_recovers(
        tmp_path, monkeypatch):
    """voice.cache_dir under a regular file: ENOTDIR even for root."""
    log = starts_log(tmp_path, monkeypatch)
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    r, said = renderer(cache_in(blocker / "voice"))
    r.request(LINES)
    until(lambda: r._failures >= 4)
    assert starts(log) == []                    # no worker storm: no worker at all
    assert len(said) == 1 and "not a folder" in said[0] and str(blocker) in said[0]
    assert r.pending() == LINES                 # nothing dropped
    blocker.unlink()                            # the owner fixes it: rendering resumes
    assert r.wait_idle(30)
    assert all(r.cache.get(t) for t in LINES)
    assert len(said) == 1
    r.close()


def test_a_full_disk_keeps_its_lines_and_backs_off_exponentially(tmp_path, tmpfs,
                                                                 monkeypatch):
    point = tmpfs(1024)
    log = starts_log(tmp_path, monkeypatch)
    cache = cache_in(point / "voice")
    filler = fill(point, 12 * 1024)             # room for the probe, not for a line
    r, said = renderer(cache, "long", backoff_first=0.2, backoff_cap=5)
    r.request(LINES)
    until(lambda: len(starts(log)) >= 4)
    times = starts(log)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    for i, gap in enumerate(gaps):              # each pause at least twice the last
        assert gap >= 0.2 * 2 ** i, gaps
    assert r.stats.rendered == 0 and r.stats.failed == 0
    assert len(said) == 1 and "disk is full" in said[0]
    filler.unlink()                             # space again: every line is rendered
    assert r.wait_idle(60)
    assert all(r.cache.get(t) for t in LINES)
    r.close()


def test_the_worker_names_a_storage_fault_in_its_reply(tmp_path, tmpfs):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    reply = render_job(lambda text: b"", "a", blocker / "a.wav")
    assert reply["ok"] is False and reply["kind"] == "line"      # nothing rendered
    wav = tmp_path / "t.wav"
    tone_wav(wav, 0.5)
    data = wav.read_bytes()
    reply = render_job(lambda text: data, "a", blocker / "a.wav")
    assert reply == {"ok": False, "kind": "not-a-folder", "detail": reply["detail"]}
    point = tmpfs(64)
    fill(point, 0)
    reply = render_job(lambda text: data, "a", point / "a.wav")
    assert reply["ok"] is False and reply["kind"] == "disk-full"
    assert [p.name for p in point.iterdir()] == ["filler"]       # no partial file left


def read_only(point: Path) -> None:
    done = subprocess.run(["mount", "-o", "remount,ro", str(point)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot remount read-only")


def test_a_read_only_cache_plays_what_it_has_and_says_once(tmp_path, tmpfs, monkeypatch):
    point = tmpfs(512)
    cache = cache_in(point / "voice")
    tone_wav(cache.path("Kept."), 0.2)
    good = cache.path("Broken.")
    tone_wav(good, 0.2)
    good.write_bytes(good.read_bytes()[:200])       # truncated before the card failed
    read_only(point)
    log = starts_log(tmp_path, monkeypatch)
    assert cache.get("Broken.") is None              # used to unlink and raise EROFS
    pygame.mixer.quit()
    assert open_mixer(22050) is None
    r, said = renderer(cache)
    narrator_said: list[str] = []
    n = Narrator(cache, r, time.monotonic, report=narrator_said.append)
    try:
        n.warm(["Kept.", "Broken.", "New."])
        n.apply(Say("Kept.", token=1))
        n.apply(Say("Broken.", token=2))
        n.apply(Say("New.", token=3))
        assert [p.text for p in n.played] == ["Kept."]
        assert list(n.missed) == ["Broken.", "New."]
        until(lambda: r._failures >= 3)
        assert starts(log) == []
        assert len(said) == 1 and "read-only" in said[0]
        assert narrator_said == []
    finally:
        n.close()
        pygame.mixer.quit()


def test_nothing_the_narrator_meets_escapes_to_the_main_loop(tmp_path, monkeypatch):
    cache = cache_in(tmp_path / "c")
    tone_wav(cache.path("Hello."), 0.2)
    pygame.mixer.quit()
    assert open_mixer(22050) is None
    said: list[str] = []
    n = Narrator(cache, None, time.monotonic, report=said.append)

    def broken(*a, **k):
        raise RuntimeError("the sound card went away")
    monkeypatch.setattr(pygame.mixer, "Sound", broken)
    try:
        for token in range(5):
            n.apply(Say("Hello.", token=token))      # must not raise
        assert len(said) == 1 and "the sound card went away" in said[0]
    finally:
        n.close()
        pygame.mixer.quit()


# ------------------------------------------------------------- the renderer
def test_a_stopped_renderer_is_noticed_in_seconds_killed_and_replaced(tmp_path):
    cache = cache_in(tmp_path / "c")
    first = threading.Event()
    r, said = renderer(cache, "slow", stall=1.0, on_ready=lambda t: first.set())
    r.request(LINES)
    assert first.wait(30)
    stopped = r.worker_pid()
    assert stopped is not None
    t0 = time.monotonic()
    os.kill(stopped, signal.SIGSTOP)
    until(lambda: r.worker_pid() not in (None, stopped), timeout=30)
    noticed = time.monotonic() - t0
    assert noticed < 20                               # was 58 s: a per-line timeout
    assert not Path(f"/proc/{stopped}").exists()      # killed and reaped
    assert r.wait_idle(60)
    assert sum(r.cache.get(t) is None for t in LINES) <= 1    # at most the line in hand
    assert len(said) == 1 and "progress" in said[0]
    r.close()


def real_renderer(tmp_path, **kw) -> tuple[Renderer, threading.Event]:
    voice = find_voice("")
    cache = LineCache(tmp_path / "cache" / voice.name, voice.identity, SynthSettings(),
                      WavFormat(voice.sample_rate))
    ready = threading.Event()
    r = Renderer(voice, cache, on_ready=lambda t: ready.set(), **kw)
    return r, ready


def tasks(pid: int) -> list[list[str]]:
    """/proc stat fields (after the name) of each thread of `pid`."""
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            out.append(f.read().rsplit(")", 1)[1].split())
    return out


def worker_threads(tmp_path, **kw) -> int:
    """Thread count of a real worker in mid-render. At normal priority: an
    idle-priority worker gets no CPU at all while every core is busy, and
    the suite must pass on such a machine."""
    r, ready = real_renderer(tmp_path, priority="normal", **kw)
    r.request([f"This is line number {i} of a long night." for i in range(30)])
    try:
        assert ready.wait(240), "the real worker rendered nothing"
        pid = r.worker_pid()
        assert pid is not None
        return len(tasks(pid))
    finally:
        r.close()


def test_the_real_worker_leaves_a_core_free(tmp_path):
    cores = len(os.sched_getaffinity(0))
    voice = find_voice("")
    cache = LineCache(tmp_path, voice.identity, SynthSettings())

    def threads_asked(**kw) -> int:
        cmd = Renderer(voice, cache, **kw)._cmd()
        return int(cmd[cmd.index("--threads") + 1])
    assert threads_asked() == max(1, cores - 1)      # behind a game: a core stays free
    assert threads_asked(priority="normal") == cores  # prepare: every core
    few = worker_threads(tmp_path / "c", threads=2)
    more = worker_threads(tmp_path / "d", threads=4)
    assert more - few == 2                           # onnxruntime honours the number


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="no SCHED_IDLE here")
def test_the_box_worker_runs_at_idle_priority_before_it_loads_anything(tmp_path):
    """Linux threads inherit their creator's policy, so a worker idle before
    its first thread is idle in every thread onnxruntime makes later. Its
    voice config is a FIFO: the worker blocks opening it, busy loading, and
    its heartbeat says so; no CPU is needed to look at it there."""
    model = tmp_path / "v.onnx"
    model.write_bytes(b"x")
    os.mkfifo(tmp_path / "v.onnx.json")
    for priority, policy in (("idle", os.SCHED_IDLE), ("normal", os.SCHED_OTHER)):
        proc = subprocess.Popen([sys.executable, "-I", "-m", "wolfbox.audio.render_worker",
                                 str(model), "--priority", priority], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert json.loads(proc.stdout.readline()) == {"alive": True, "cpu": ANY}
            assert {int(t[38]) for t in tasks(proc.pid)} == {policy}    # field 41: policy
        finally:
            proc.kill()
            proc.wait()


def test_the_real_worker_writes_nothing_outside_the_cache(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    r, ready = real_renderer(tmp_path, priority="normal")
    r.request(["Seer, wake up."])
    assert r.wait_idle(240) and r.stats.rendered == 1
    r.close()
    assert list(home.rglob("*")) == []               # no ~/.cache/Microsoft device id


def test_the_worker_refuses_a_volume_that_is_not_a_number():
    done = subprocess.run([sys.executable, "-I", "-m", "wolfbox.audio.render_worker",
                           "/nonexistent.onnx", "--volume", "nan"], capture_output=True,
                          text=True, timeout=60)
    hello = json.loads(done.stdout.splitlines()[0])
    assert hello["ready"] is False and hello["kind"] == "settings"


def test_a_non_finite_setting_never_reaches_the_key_or_the_worker(tmp_path):
    for bad in (math.nan, math.inf, -1.0, 0.0):
        settings = SynthSettings(length_scale=bad, volume=bad)
        assert settings == SynthSettings()
    r2 = Renderer(find_voice(""), LineCache(tmp_path, "v", SynthSettings(volume=math.nan)))
    cmd = r2._cmd()
    assert cmd[cmd.index("--volume") + 1] == "1.0"


# ------------------------------------------------------------- wrong format
@pytest.mark.parametrize("rate, width, channels", [(16000, 2, 1), (22050, 1, 1),
                                                   (22050, 2, 2)])
def test_a_wav_in_another_format_is_rendered_again(tmp_path, rate, width, channels):
    import wave
    cache = cache_in(tmp_path / "c")
    path = cache.path("Seer.")
    path.parent.mkdir(parents=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(b"\x10" * width * channels * 4000)
    assert cache.get("Seer.") is None and not path.exists()
    r, _ = renderer(cache)
    r.request(["Seer."])
    assert r.wait_idle(30)
    with wave.open(str(cache.get("Seer."))) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (22050, 2, 1)
    r.close()


# ------------------------------------------------------------- the voice
def voice_files(tmp_path, rate=22050) -> Path:
    model = tmp_path / "v.onnx"
    model.write_bytes(b"onnx")
    (tmp_path / "v.onnx.json").write_text(json.dumps({"audio": {"sample_rate": rate}}))
    return model


@pytest.mark.parametrize("rate", [0, 7999, 48001, 10**9, -22050])
def test_an_absurd_sample_rate_is_refused_with_one_line(tmp_path, rate, monkeypatch):
    model = voice_files(tmp_path, rate)
    with pytest.raises(VoiceError, match=f"impossible sample rate \\({rate} Hz\\)"):
        find_voice(str(model))
    monkeypatch.setenv("PATH", str(tmp_path))            # no espeak-ng: captions
    voice, notice = choose_voice(str(model))
    assert voice is None and notice.count("\n") == 0 and "captions only" in notice


def test_a_sane_rate_is_accepted(tmp_path):
    assert find_voice(str(voice_files(tmp_path, 16000))).sample_rate == 16000


def test_a_voice_the_box_may_not_read_is_refused(tmp_path, monkeypatch):
    model = voice_files(tmp_path)
    real_open = Path.open

    def no_access(self, *a, **k):
        if self == model:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *a, **k)
    monkeypatch.setattr(Path, "open", no_access)
    with pytest.raises(VoiceError, match="voice model unreadable: .*Permission denied"):
        find_voice(str(model))


def test_a_fifo_or_a_huge_file_is_never_read(tmp_path):
    model = voice_files(tmp_path)
    config = tmp_path / "v.onnx.json"
    config.unlink()
    os.mkfifo(config)                                    # a read would block forever
    with pytest.raises(VoiceError, match="voice config unreadable"):
        find_voice(str(model))
    config.unlink()
    with config.open("wb") as f:
        f.truncate(64 << 20)                             # sparse: 64 MB of nothing
    with pytest.raises(VoiceError, match="too big"):
        find_voice(str(model))
    other = tmp_path / "w.onnx"
    os.mkfifo(other)
    (tmp_path / "w.onnx.json").write_text('{"audio": {"sample_rate": 22050}}')
    with pytest.raises(VoiceError, match="voice model unreadable"):
        find_voice(str(other))


def test_prepare_on_a_cache_it_cannot_write_ends_with_the_reason(tmp_path):
    import io

    from wolfbox.audio.prepare import prepare
    from wolfbox.config import Config
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    config = Config()
    config.voice.cache_dir = str(blocker / "inside")
    out = io.StringIO()
    started = time.monotonic()
    assert prepare(config, out=out, command=fake()) == 1
    assert time.monotonic() - started < 120
    text = out.getvalue()
    assert text.count("not a folder") == 1 and "could not be rendered" in text
