"""The line cache, the renderer process and the cue sounds."""

from __future__ import annotations

import array
import os
import sys
import wave
from pathlib import Path

import pytest

from helpers import tone_wav
from wolfbox.audio.cache import LineCache, SynthSettings, WavFormat, wav_ok, write_atomic
from wolfbox.audio.cues import LOUDNESS, cue_pcm
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import VoiceError, find_voice
from wolfbox.effects import Cue

HERE = Path(__file__).parent


def cache_at(tmp_path, **settings) -> LineCache:
    return LineCache(tmp_path / "cache", "voice-a", SynthSettings(**settings))


def test_cache_keys_change_with_voice_text_and_settings(tmp_path):
    a = cache_at(tmp_path)
    assert a.key("Seer, wake up.") == cache_at(tmp_path).key("Seer, wake up.")
    assert a.key("Seer, wake up.") != a.key("Robber, wake up.")
    assert a.key("x") != cache_at(tmp_path, length_scale=1.2).key("x")
    assert a.key("x") != cache_at(tmp_path, volume=0.5).key("x")
    assert a.key("x") != LineCache(a.root, "voice-b", a.settings).key("x")


def test_cache_keys_are_the_ones_a_box_already_has(tmp_path):
    """Keys are file names on a box's card: a change to how they are made
    throws away every rendered line. Pinned: English keys as they were
    before languages (sha256 of the sorted JSON of voice, text and settings),
    another language's with "lang" among them."""
    assert LineCache(tmp_path, "voice", SynthSettings()).key("OK") == \
        "89d179e62616e7937914c53a5d4c20f1"
    assert LineCache(tmp_path, "285ca0eb0f17813e", SynthSettings(1.2, 0.5)).key(
        "Seer, wake up.") == "d0c488c9a3c8aef5550ba77171924f03"
    assert LineCache(tmp_path, "voice", SynthSettings(), lang="de").key("OK") == \
        "be6ce0b20adfffa5aa62ec29a58552ba"


def test_cache_hit_and_miss(tmp_path):
    cache = cache_at(tmp_path)
    assert cache.get("Three.") is None
    assert cache.missing(["Three.", "Two.", "Three."]) == ["Three.", "Two."]
    tone_wav(cache.path("Three."))
    assert cache.get("Three.") == cache.path("Three.")
    assert cache.missing(["Three.", "Two."]) == ["Two."]


def test_a_truncated_wav_is_detected_removed_and_missing(tmp_path):
    cache = cache_at(tmp_path)
    path = cache.path("One.")
    tone_wav(path, 0.2)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert not wav_ok(path)
    assert cache.get("One.") is None
    assert not path.exists()
    path.write_bytes(b"RIFF....garbage")
    assert cache.get("One.") is None


def test_an_empty_wav_is_missing_and_rendered_again(tmp_path):
    """A WAV with a header and no sound (a voice that said nothing, a write
    cut short by the OS) is not a line: the cache drops it, and the renderer
    renders it again rather than the box playing silence for it forever."""
    cache = LineCache(tmp_path / "cache", "voice-a", SynthSettings(), WavFormat(22050))
    path = cache.path("One.")
    tone_wav(path, 0)
    assert path.is_file() and wave.open(str(path)).getnframes() == 0
    assert not wav_ok(path) and cache.get("One.") is None and not path.exists()
    assert cache.missing(["One."]) == ["One."]
    tone_wav(path, 0)
    log = tmp_path / "asked.txt"
    r = Renderer(find_voice(""), cache, timeout=10,
                 command=[sys.executable, str(HERE / "fake_worker.py"), "ok", str(log)])
    r.request(["One."])
    assert r.wait_idle(30)
    r.close()
    assert log.read_text().splitlines() == ["One."]
    assert cache.get("One.") == path and wave.open(str(path)).getnframes() > 0


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "a" / "line.wav"
    write_atomic(target, b"first")
    assert target.read_bytes() == b"first"

    def boom(fd):
        raise OSError("disk full")
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        write_atomic(target, b"second, never seen")
    assert target.read_bytes() == b"first"
    assert [p.name for p in target.parent.iterdir()] == ["line.wav"]


def renderer(tmp_path, mode="ok", log=None) -> Renderer:
    voice = find_voice("")
    cmd = [sys.executable, str(HERE / "fake_worker.py"), mode] + ([str(log)] if log else [])
    return Renderer(voice, cache_at(tmp_path), command=cmd, timeout=10)


def test_renderer_renders_missing_lines_in_the_order_asked(tmp_path):
    log = tmp_path / "order.txt"
    r = renderer(tmp_path, log=log)
    tone_wav(r.cache.path("B"))
    r.request(["A", "B", "C", "D"])
    assert r.wait_idle(10)
    assert log.read_text().split() == ["A", "C", "D"]          # B was cached already
    assert all(r.cache.get(t) for t in "ABCD")
    assert r.stats.rendered == 3
    r.close()


def test_urgent_lines_jump_the_queue(tmp_path):
    log = tmp_path / "order.txt"
    r = renderer(tmp_path, mode="slow", log=log)
    r.request(["1", "2", "3", "4", "5"])
    r.request(["5"], urgent=True)
    assert r.wait_idle(20)
    order = log.read_text().split()
    assert order.index("5") < order.index("4")
    r.close()


def test_a_crashing_renderer_loses_one_line_and_restarts(tmp_path):
    r = renderer(tmp_path, mode="crash-on:bad")
    r.request(["good", "bad", "after"])
    assert r.wait_idle(20)
    assert r.cache.get("good") and r.cache.get("after")
    assert r.cache.get("bad") is None
    assert r.stats.failed == 1 and r.available
    r.close()


def test_a_renderer_that_cannot_start_gives_up_once(tmp_path, caplog):
    voice = find_voice("")
    r = Renderer(voice, cache_at(tmp_path), command=[sys.executable, "-c", "raise SystemExit(1)"],
                 timeout=5)
    r.request(["a", "b", "c", "d"])
    assert r.wait_idle(20)
    assert not r.available
    assert sum("cannot start" in m for m in caplog.messages) == 1
    r.request(["e"])                      # ignored, no new attempts
    assert r.pending() == []


def test_one_real_piper_render(tmp_path):
    """The real worker with the bundled voice: a short line becomes speech."""
    voice = find_voice("")
    cache = LineCache(tmp_path / "cache", voice.identity, SynthSettings())
    # Its limits are the box's own (processor time, scaled by the voice's
    # load): the wait is only a bound, long enough for an emulated arm64.
    r = Renderer(voice, cache, priority="normal")        # not starved on a busy CPU
    r.request(["Seer, open your eyes."])
    assert r.wait_idle(3600)
    path = cache.get("Seer, open your eyes.")
    assert path is not None and r.stats.rendered == 1
    with wave.open(str(path)) as w:
        assert w.getframerate() == voice.sample_rate == 22050
        seconds = w.getnframes() / w.getframerate()
        samples = array.array("h", w.readframes(w.getnframes()))
    assert 0.8 < seconds < 4.0
    assert max(abs(s) for s in samples) > 3000           # speech, not silence
    r.close()


def test_a_missing_voice_names_the_path(tmp_path):
    with pytest.raises(VoiceError, match="voice model not found: .*nope.onnx"):
        find_voice(str(tmp_path / "nope.onnx"))
    model = tmp_path / "v.onnx"
    model.write_bytes(b"x")
    with pytest.raises(VoiceError, match="voice config not found"):
        find_voice(str(model))
    (tmp_path / "v.onnx.json").write_text("{")
    with pytest.raises(VoiceError, match="voice config unreadable"):
        find_voice(str(model))


@pytest.mark.parametrize("cue, seconds", [(Cue.CHIME, 0.72), (Cue.TICK, 0.04),
                                          (Cue.VOTE, 0.65), (Cue.TIME_UP, 0.8),
                                          (Cue.ABANDON, 0.55)])
def test_cues_have_their_length_and_a_safe_peak(cue, seconds):
    pcm = array.array("h", cue_pcm(cue, 22050))
    assert len(pcm) / 22050 == pytest.approx(seconds, abs=0.01)
    peak = max(abs(s) for s in pcm)
    assert peak == pytest.approx(32767 * LOUDNESS[cue], rel=0.01)
    assert peak < 0.75 * 32767                   # quieter than the voice
    assert abs(pcm[0]) < 2000                    # starts from silence: no click


def test_a_hung_renderer_times_out_loses_one_line_and_restarts(tmp_path):
    voice = find_voice("")
    cmd = [sys.executable, str(HERE / "fake_worker.py"), "hang-on:stuck"]
    # The line limit is wall-clock time: long enough that a worker started on
    # a machine whose cores are all busy still answers the lines it can.
    r = Renderer(voice, cache_at(tmp_path), command=cmd, timeout=8)
    r.request(["before", "stuck", "after"])
    assert r.wait_idle(90)
    assert r.cache.get("before") and r.cache.get("after")
    assert r.cache.get("stuck") is None and r.stats.failed == 1
    r.close()


def test_garbage_from_the_renderer_is_a_failed_line_not_a_crash(tmp_path):
    voice = find_voice("")
    cmd = [sys.executable, str(HERE / "fake_worker.py"), "garbage"]
    r = Renderer(voice, cache_at(tmp_path), command=cmd, timeout=5)
    r.request(["a"])
    assert r.wait_idle(30)
    assert r.cache.get("a") is None and r.stats.failed >= 1
    r.close()


def test_a_wav_at_another_rate_is_resampled_not_sped_up(tmp_path):
    """A voice at 16 kHz through a mixer opened at 22.05 kHz keeps its length
    (and so its pitch): pygame converts on load."""
    import pygame

    from wolfbox.audio.narrator import open_mixer
    pygame.mixer.quit()
    assert open_mixer(22050) is None
    path = tmp_path / "16k.wav"
    tone_wav(path, seconds=1.0, rate=16000)
    sound = pygame.mixer.Sound(file=str(path))
    assert sound.get_length() == pytest.approx(1.0, abs=0.01)
    assert pygame.mixer.get_init()[0] == 22050
    pygame.mixer.quit()


def test_a_retargeted_renderer_starts_a_worker_with_the_new_settings(tmp_path, monkeypatch):
    """A new speech speed: lines asked for afterwards go to the new cache,
    rendered by a process started with the new settings, not the old one."""
    import threading
    starts = tmp_path / "starts.txt"
    monkeypatch.setenv("FAKE_WORKER_STARTS", str(starts))
    r = renderer(tmp_path, mode="slow")
    first = threading.Event()
    r.subscribe(lambda text: first.set())
    r.request(["A", "B", "C", "D"])
    assert first.wait(20)                                # the old worker is busy
    faster = cache_at(tmp_path, length_scale=0.9)
    old = r.cache
    r.retarget(faster)
    r.request(["F", "G"])
    assert r.wait_idle(20)
    assert faster.get("F") and faster.get("G")
    assert old.get("F") is None and old.get("G") is None
    assert faster.get("D") is None                       # the old queue was dropped
    assert len(starts.read_text().split()) == 2          # a fresh worker for the new speed
    r.close()
