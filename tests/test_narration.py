"""Narration as the table hears it: prepare, fallbacks, ambience and ducking,
and a box that never waits for its voice."""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest
from pilot import Pilot

from helpers import fill_cache, forbid_checks_on_the_main_thread, line_cache
from wolfbox.audio.cache import LineCache
from wolfbox.audio.cues import ambience_pcm
from wolfbox.audio.prepare import prepare
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import choose_voice, espeak_voice, find_voice
from wolfbox.buttons import Button
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.effects import Say
from wolfbox.onenight.flow import RoundSettings
from wolfbox.view import Phase

HERE = Path(__file__).parent


def fake_worker(mode: str = "ok") -> list[str]:
    return [sys.executable, str(HERE / "fake_worker.py"), mode]


def config_at(tmp_path) -> Config:
    c = Config()
    c.voice.cache_dir = str(tmp_path / "cache")
    c.game.discussion_seconds = 3
    c.game.warnings = [2]
    c.night.scale = 0.02
    c.night.line_gap = 0.05
    return c


# ----------------------------------------------------------------- prepare
def test_prepare_renders_the_whole_catalogue_once_with_progress(tmp_path):
    config = config_at(tmp_path)
    out = io.StringIO()
    assert prepare(config, check=True, out=out) == 1
    assert f"0 of {len(game_lines(config))} lines are cached" in out.getvalue()

    out = io.StringIO()
    assert prepare(config, out=out, command=fake_worker()) == 0
    text = out.getvalue()
    total = len(game_lines(config))
    assert f"rendering {total} of {total} lines" in text
    assert f"rendered {total}/{total} lines" in text           # progress reached the end
    assert f"rendered {total} lines" in text and "MB in" in text
    assert line_cache(config).missing(game_lines(config)) == []

    out = io.StringIO()
    assert prepare(config, check=True, out=out) == 0
    out = io.StringIO()
    assert prepare(config, out=out, command=fake_worker("crash-on:never")) == 0
    assert "nothing to render" in out.getvalue()


def test_prepare_covers_every_deck_the_picker_offers(tmp_path):
    from wolfbox.onenight.presets import PRESETS
    config = config_at(tmp_path)
    catalogue = set(game_lines(config))
    for preset in PRESETS.values():
        for players in preset.players():
            config.game.deck = preset.deck(players)
            assert set(RoundSettings.from_config(config).lines()) <= catalogue, preset.name


def test_prepare_reports_lines_it_could_not_render(tmp_path):
    config = config_at(tmp_path)
    target = game_lines(config)[3]
    out = io.StringIO()
    assert prepare(config, out=out, command=fake_worker(f"crash-on:{target}")) == 1
    assert "1 lines could not be rendered" in out.getvalue()


def test_prepare_command_line_check(tmp_path):
    cfg = tmp_path / "box.toml"
    cfg.write_text(f'[voice]\ncache_dir = "{tmp_path / "c"}"\n')
    result = subprocess.run([sys.executable, "-m", "wolfbox", "prepare", "--check",
                             "--config", str(cfg)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "missing:" in result.stderr


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_prepare_renders_a_language_into_its_own_cache(tmp_path):
    """`wolfbox prepare --lang de` renders the German catalogue with the
    German voice (espeak-ng here), into a folder of its own, ahead of time."""
    from wolfbox.i18n import _, speaking
    cfg = tmp_path / "box.toml"
    cfg.write_text(f'[voice]\ncache_dir = "{tmp_path / "c"}"\n')
    result = subprocess.run([sys.executable, "-m", "wolfbox", "prepare", "--check", "--lang",
                             "de", "--config", str(cfg)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    with speaking("de"):
        total = len(game_lines(Config()))
        german = _("{cached} of {total} lines are cached for voice {voice} in {root} "
                   "({mb:.1f} MB)").format(cached=0, total=total, voice="espeak-ng-de",
                                            root=tmp_path / "c" / "espeak-ng-de", mb=0.0)
    assert german in result.stderr


# ----------------------------------------------------------------- the box
@pytest.fixture
def box_for(pilots):
    """The real box on a fake clock (tests/pilot.py), rendering with the fake
    worker; its cache cold unless `fill`."""
    def make(config: Config, command: list[str] | None = None, fill: bool = False,
             line_seconds: float = 0.15) -> Pilot:
        return pilots.start(config, fill=fill, line_seconds=line_seconds,
                            renderer=command or fake_worker())
    return make


# Seconds a held renderer waits for its test before it renders anyway. Only a
# box that waits for its renderer on the main loop ever gets there (the test
# lets it go as soon as the night is over): then it fails instead of hanging.
HELD_AT_MOST = 120.0


@pytest.fixture
def held_renderer(monkeypatch, pilots):
    """Renderers that render nothing until the test sets the event: the
    slowest renderer there is, slow whatever the machine's load. The thread
    of every render is kept. (It needs `pilots` so that it lets go of its
    renders before the boxes are closed.)"""
    gate = threading.Event()
    threads: list[threading.Thread] = []
    render = Renderer._render

    def held(self, worker, text: str) -> None:
        threads.append(threading.current_thread())
        if not gate.wait(HELD_AT_MOST):
            gate.set()
        render(self, worker, text)
    monkeypatch.setattr(Renderer, "_render", held)
    yield gate, threads
    gate.set()


@contextmanager
def audio_waits_on_the_main_thread(monkeypatch) -> Iterator[list[str]]:
    """What the main thread waits on from inside the audio side (the narrator,
    the renderer, the cache) in the block: a condition (so an event, a future
    or a queue too) or a sleep. The loop hands the narrator its lines; if the
    narrator ever waited there, for however short a time, every line would
    hold the game up on a slow renderer."""
    waited: list[str] = []
    wait, sleep = threading.Condition.wait, time.sleep

    def noted(what: str) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_globals.get("__name__", "").startswith("wolfbox.audio."):
                waited.append(f"{what} in {frame.f_code.co_name}")
                return
            frame = frame.f_back

    def condition_wait(self, timeout=None):
        noted(f"a condition (timeout {timeout})")
        return wait(self, timeout)

    def sleeping(seconds):
        noted(f"a sleep of {seconds} s")
        return sleep(seconds)
    with monkeypatch.context() as m:
        m.setattr(threading.Condition, "wait", condition_wait)
        m.setattr(time, "sleep", sleeping)
        yield waited


def test_the_flow_never_waits_for_a_slow_renderer(tmp_path, box_for, held_renderer,
                                                   monkeypatch):
    """The renderer here renders nothing until the night is over. A line due
    before its render is ready is a caption, and the night goes on on its own
    clock: the loop never waits for the renderer (a loop that did would
    hang until HELD_AT_MOST, then play the lines it waited for) and never
    renders itself."""
    gate, render_threads = held_renderer
    config = config_at(tmp_path)
    pilot = box_for(config)                             # a cold cache
    narrator = pilot.parts.narrator
    said: list[str] = []
    pilot.box.effect_sinks.append(lambda e: said.append(e.text) if isinstance(e, Say) else None)
    with audio_waits_on_the_main_thread(monkeypatch) as waited:
        pilot.press(Button.START)
        pilot.until(lambda: pilot.box.flow.active.phase is Phase.DISCUSSION)
    assert waited == []
    assert narrator.renderer.stats.rendered == 0        # held all night, as meant
    assert said[0] == "Night falls. Everyone, close your eyes." and len(said) > 5
    assert list(narrator.played) == []
    assert list(narrator.missed) == said                # every line due was a caption...
    gate.set()
    assert narrator.renderer.wait_idle(120)
    assert line_cache(config).get(said[0]) is not None  # ...rendered in the background
    assert render_threads and threading.main_thread() not in render_threads


def test_background_renders_follow_the_round_order(tmp_path, box_for):
    config = config_at(tmp_path)
    log = tmp_path / "order.txt"
    pilot = box_for(config, fake_worker("ok") + [str(log)])
    assert pilot.parts.narrator.renderer.wait_idle(120)
    rendered = log.read_text().splitlines()
    assert rendered == RoundSettings.from_config(config).lines()


def test_box_process_never_loads_the_voice_model_with_a_warm_cache(tmp_path):
    config = config_at(tmp_path)
    fill_cache(config, RoundSettings.from_config(config).lines())
    script = f"""
import os, sys
sys.path.insert(0, {str(HERE)!r})
os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
from pilot import FakeClock, Pilot
from wolfbox.hardware.factory import mock_factory
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.view import Phase
c = Config()
c.voice.cache_dir = {config.voice.cache_dir!r}
c.game.discussion_seconds, c.game.warnings = 3, [2]
c.night.scale, c.night.line_gap = 0.02, 0.05
clock = FakeClock()
parts = build(c, "headless", clock=clock, pin_factory=mock_factory(), stdin_keys=False)
parts.narrator.wait_warm(timeout=60)
pilot = Pilot(parts, clock)
pilot.press(Button.START)
pilot.until(lambda: parts.box.flow.active.phase is Phase.DISCUSSION)
print("played", len(parts.narrator.played), "missed", len(parts.narrator.missed))
print("loaded", sorted(m for m in ("onnxruntime", "piper", "numpy") if m in sys.modules))
parts.close()
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "missed 0" in result.stdout
    assert "loaded []" in result.stdout


# --------------------------------------------------------------- fallbacks
def test_a_missing_voice_falls_back_to_espeak_or_captions(tmp_path, monkeypatch):
    missing = str(tmp_path / "gone.onnx")
    voice, notice = choose_voice(missing)
    if shutil.which("espeak-ng"):
        assert voice is not None and voice.engine == "espeak"
        assert notice == f"voice model not found: {missing}; speaking with espeak-ng instead"
    monkeypatch.setenv("PATH", str(tmp_path))            # no espeak-ng anywhere
    voice, notice = choose_voice(missing)
    assert voice is None
    assert notice == f"voice model not found: {missing}; no espeak-ng either: captions only"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_espeak_renders_real_speech(tmp_path):
    from wolfbox.audio.cache import SynthSettings
    voice = espeak_voice()
    cache = LineCache(tmp_path, voice.identity, SynthSettings())
    r = Renderer(voice, cache, timeout=30, priority="normal")   # not starved on a busy CPU
    r.request(["Seer, open your eyes."])
    assert r.wait_idle(120)
    r.close()
    path = cache.get("Seer, open your eyes.")
    assert path is not None
    pygame.mixer.quit()


def test_the_box_with_a_missing_voice_says_so_once_and_plays(tmp_path, box_for, capsys,
                                                             caplog):
    config = config_at(tmp_path)
    config.voice.model = str(tmp_path / "gone.onnx")
    pilot = box_for(config)
    short = "Spoken by espeak-ng" if shutil.which("espeak-ng") else "No voice: captions only"
    assert pilot.parts.notices == [short]                # its meaning on the screen
    logged = [r.getMessage() for r in caplog.records if "gone.onnx" in r.getMessage()]
    assert len(logged) == 1                              # the detail, in the log once
    pilot.press(Button.START)
    pilot.press(Button.VOTE)
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL)
    out = capsys.readouterr().out
    assert out.count(short) == 1 and "gone.onnx" not in out


def test_a_crashing_renderer_turns_that_line_into_a_caption(tmp_path, box_for):
    config = config_at(tmp_path)
    first = RoundSettings.from_config(config).lines()[0]
    pilot = box_for(config, fake_worker(f"crash-on:{first}"))
    narrator = pilot.parts.narrator
    assert narrator.renderer.wait_idle(120)
    cache = line_cache(config)
    assert cache.get(first) is None
    assert cache.missing(RoundSettings.from_config(config).lines()) == [first]
    pilot.press(Button.START)
    assert narrator.missed == [first]
    assert pilot.box.flow.active.caption == first
    pilot.until(lambda: narrator.played, limit=15)       # the next line plays
    assert narrator.played[0].text != first


# ---------------------------------------------------------- ambience, ducking
def test_ambience_is_a_quiet_seamless_loop():
    rate = 22050
    pcm = array.array("h", ambience_pcm(rate))
    assert len(pcm) / rate == pytest.approx(8.0, abs=0.01)
    peak = max(abs(s) for s in pcm)
    assert peak == pytest.approx(0.25 * 32767, rel=0.01)
    rms = (sum(s * s for s in pcm) / len(pcm)) ** 0.5
    assert 0.02 * 32767 < rms < 0.15 * 32767
    steps = [abs(pcm[i + 1] - pcm[i]) for i in range(len(pcm) - 1)]
    seam = abs(pcm[0] - pcm[-1])
    assert seam <= max(steps)                           # no click where the loop restarts


def test_ambience_plays_at_night_and_ducks_under_every_line(tmp_path, box_for):
    config = config_at(tmp_path)
    config.sound.ambience_volume = 0.4
    config.sound.duck = 0.25
    pilot = box_for(config, fill=True, line_seconds=0.3)
    narrator, box = pilot.parts.narrator, pilot.box
    assert narrator.ambience_level() == 0.0
    pilot.press(Button.START)
    assert narrator.ambience_on
    assert narrator.ambience_level() == pytest.approx(0.4 * 0.25, abs=0.01)    # a line plays
    pilot.until(lambda: box.flow.active.stage == "wait", limit=10)
    assert narrator.ambience_level() == pytest.approx(0.4, abs=0.01)           # silence
    pilot.until(lambda: box.flow.active.phase is Phase.DISCUSSION, limit=20)
    assert not narrator.ambience_on and narrator.ambience_level() == 0.0


def test_ambience_can_be_switched_off(tmp_path, box_for):
    config = config_at(tmp_path)
    config.sound.ambience = False
    pilot = box_for(config)
    pilot.press(Button.START)
    assert not pilot.parts.narrator.ambience_on


def test_cue_volume_is_applied(tmp_path, box_for):
    config = config_at(tmp_path)
    config.sound.cue_volume = 0.5
    pilot = box_for(config)
    assert pilot.parts.narrator._cue.get_volume() == pytest.approx(0.5, abs=0.01)


def test_a_warm_round_is_checked_before_start_so_no_line_is_checked_when_due(
        tmp_path, box_for, monkeypatch):
    """The reader thread reads each WAV whole to check it (which leaves it in
    the system's file cache); a due line is only opened, never checked."""
    config = config_at(tmp_path)
    lines = RoundSettings.from_config(config).lines()
    pilot = box_for(config, fill=True)                  # and read ahead before it returns

    forbid_checks_on_the_main_thread(monkeypatch)
    pilot.press(Button.START)
    narrator = pilot.parts.narrator
    assert [p.text for p in narrator.played] == lines[:1] and narrator.missed == []


def fake_piper_voice(folder, name: str, family: str):
    """A voice file pair as piper's download command leaves it (the model's
    bytes are not read beyond the first; the config says the language)."""
    import json
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.onnx").write_bytes(b"\0" * 16)
    (folder / f"{name}.onnx.json").write_text(json.dumps(
        {"audio": {"sample_rate": 22050}, "language": {"family": family},
         "espeak": {"voice": family}}))
    return folder / f"{name}.onnx"


def test_each_language_is_spoken_by_a_piper_voice_in_it_else_espeak(tmp_path, monkeypatch):
    monkeypatch.setenv("WOLFBOX_VOICES", str(tmp_path / "voices"))
    fake_piper_voice(tmp_path / "voices", "de_DE-thorsten-medium", "de")
    voice, notice = choose_voice("", "de")
    assert voice is not None and voice.name == "de_DE-thorsten-medium" and notice is None
    voice, notice = choose_voice("", "zh")
    if shutil.which("espeak-ng"):
        # Mandarin as espeak-ng reads it: "cmn-latn-pinyin" on Debian 12's
        # 1.51, whose "cmn" reads pinyin as English (tests/test_spoken.py).
        assert voice is not None and voice.engine == "espeak"
        assert voice.espeak in ("cmn-latn-pinyin", "cmn")
        assert notice.startswith("no Piper voice for 中文 in ")
        assert notice.endswith("; speaking with espeak-ng instead")
    english, _notice = choose_voice("", "en")          # English keeps the bundled voice
    assert english is not None and english.name == "en_US-joe-medium"


def test_chinese_says_two_of_something_as_a_word_and_the_screen_keeps_the_digit(tmp_path):
    """"两票", not "二票": the voice reads a spoken form of the line, while
    the line is shown and cached as written (a seat number keeps its 2)."""
    from wolfbox.audio.cache import SynthSettings
    from wolfbox.spoken import spoken
    assert spoken("最高票为2票，2号玩家出局。", "zh") == "最高票为两票，2号玩家出局。"
    assert spoken("你们有2分钟，第2夜，12票", "zh") == "你们有两分钟，第2夜，12票"
    assert spoken("2 votes", "en") == "2 votes" and spoken("2 Stimmen", "de") == "2 Stimmen"
    voice = find_voice("")
    cache = LineCache(tmp_path / "zh", voice.identity, SynthSettings(), lang="zh")
    log = tmp_path / "said.txt"
    renderer = Renderer(voice, cache, command=[*fake_worker(), str(log)], timeout=30,
                        priority="normal")
    renderer.request(["2票。"])
    assert renderer.wait_idle(60)
    renderer.close()
    assert log.read_text(encoding="utf-8").splitlines() == ["两票。"]
    assert cache.get("2票。") is not None
