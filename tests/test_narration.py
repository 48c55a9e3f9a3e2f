"""Narration as the table hears it: prepare, fallbacks, ambience and ducking,
and a box that never waits for its voice."""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from helpers import fill_cache, forbid_checks_on_the_main_thread, line_cache, press, run_until
from wolfbox.audio.cache import LineCache
from wolfbox.audio.cues import ambience_pcm
from wolfbox.audio.prepare import prepare
from wolfbox.audio.voice import choose_voice, espeak_voice, find_voice
from wolfbox.buttons import Button
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.effects import Cue
from wolfbox.hardware.factory import mock_factory
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
def parts_for(tmp_path):
    made = []

    def make(config: Config, command=None):
        parts = build(config, "headless", pin_factory=mock_factory(), stdin_keys=False,
                      renderer_command=command or fake_worker())
        made.append(parts)
        return parts
    yield make
    for p in made:
        p.close()


def test_the_flow_never_waits_for_a_slow_renderer(tmp_path, parts_for):
    config = config_at(tmp_path)
    parts = parts_for(config, fake_worker("slow"))      # 0.3 s a line, cold cache
    box = parts.box
    press(parts, Button.START)
    gaps, last = [], time.monotonic()
    deadline = time.monotonic() + 30
    while box.flow.phase is Phase.NIGHT and time.monotonic() < deadline:
        box.step(max_sleep=0.05)
        now = time.monotonic()
        gaps.append(now - last)
        last = now
    assert box.flow.phase is Phase.DISCUSSION
    assert max(gaps) < 0.25                             # never stalled on a render
    assert parts.narrator.missed                       # early lines were captions...
    assert (Cue.CHIME, ) <= tuple(c for c, _ in parts.narrator.cues)
    first = parts.narrator.missed[0]
    assert line_cache(config).get(first) is not None   # ...rendered in the background


def test_background_renders_follow_the_round_order(tmp_path, parts_for):
    config = config_at(tmp_path)
    log = tmp_path / "order.txt"
    parts = parts_for(config, fake_worker("ok") + [str(log)])
    parts.narrator.renderer.wait_idle(20)
    rendered = log.read_text().splitlines()
    assert rendered == RoundSettings.from_config(config).lines()


def test_box_process_never_loads_the_voice_model_with_a_warm_cache(tmp_path):
    config = config_at(tmp_path)
    fill_cache(config, RoundSettings.from_config(config).lines())
    script = f"""
import os, sys
sys.path.insert(0, {str(HERE)!r})
os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
from helpers import press, run_until
from wolfbox.hardware.factory import mock_factory
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device.app import build
from wolfbox.view import Phase
c = Config()
c.voice.cache_dir = {config.voice.cache_dir!r}
c.game.discussion_seconds, c.game.warnings = 3, [2]
c.night.scale, c.night.line_gap = 0.02, 0.05
parts = build(c, "headless", pin_factory=mock_factory(), stdin_keys=False)
press(parts, Button.START)
run_until(parts.box, lambda: parts.box.flow.phase is Phase.DISCUSSION, timeout=30)
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
    from wolfbox.audio.renderer import Renderer
    voice = espeak_voice()
    cache = LineCache(tmp_path, voice.identity, SynthSettings())
    r = Renderer(voice, cache, timeout=30, priority="normal")   # not starved on a busy CPU
    r.request(["Seer, open your eyes."])
    assert r.wait_idle(120)
    r.close()
    path = cache.get("Seer, open your eyes.")
    assert path is not None
    pygame.mixer.quit()


def test_the_box_with_a_missing_voice_says_so_once_and_plays(tmp_path, parts_for, capsys,
                                                             caplog):
    config = config_at(tmp_path)
    config.voice.model = str(tmp_path / "gone.onnx")
    parts = parts_for(config, fake_worker())
    short = "Spoken by espeak-ng" if shutil.which("espeak-ng") else "No voice: captions only"
    assert parts.notices == [short]                      # its meaning on the screen
    logged = [r.getMessage() for r in caplog.records if "gone.onnx" in r.getMessage()]
    assert len(logged) == 1                              # the detail, in the log once
    press(parts, Button.START)
    press(parts, Button.VOTE)
    run_until(parts.box, lambda: parts.box.flow.phase is Phase.REVEAL, timeout=15)
    out = capsys.readouterr().out
    assert out.count(short) == 1 and "gone.onnx" not in out


def test_a_crashing_renderer_turns_that_line_into_a_caption(tmp_path, parts_for):
    config = config_at(tmp_path)
    first = RoundSettings.from_config(config).lines()[0]
    parts = parts_for(config, fake_worker(f"crash-on:{first}"))
    parts.narrator.renderer.wait_idle(20)
    cache = line_cache(config)
    assert cache.get(first) is None
    assert cache.missing(RoundSettings.from_config(config).lines()) == [first]
    press(parts, Button.START)
    assert parts.narrator.missed == [first]
    assert parts.box.flow.caption == first
    run_until(parts.box, lambda: parts.narrator.played, timeout=15)   # the next line plays


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


def test_ambience_plays_at_night_and_ducks_under_every_line(tmp_path, parts_for):
    config = config_at(tmp_path)
    config.sound.ambience_volume = 0.4
    config.sound.duck = 0.25
    fill_cache(config, RoundSettings.from_config(config).lines(), seconds=0.3)
    parts = parts_for(config)
    narrator, box = parts.narrator, parts.box
    assert narrator.ambience_level() == 0.0
    press(parts, Button.START)
    assert narrator.ambience_on
    assert narrator.ambience_level() == pytest.approx(0.4 * 0.25, abs=0.01)    # a line plays
    run_until(box, lambda: box.flow.stage == "wait", timeout=10)
    assert narrator.ambience_level() == pytest.approx(0.4, abs=0.01)           # silence
    run_until(box, lambda: box.flow.phase is Phase.DISCUSSION, timeout=20)
    assert not narrator.ambience_on and narrator.ambience_level() == 0.0


def test_ambience_can_be_switched_off(tmp_path, parts_for):
    config = config_at(tmp_path)
    config.sound.ambience = False
    parts = parts_for(config)
    press(parts, Button.START)
    assert not parts.narrator.ambience_on


def test_cue_volume_is_applied(tmp_path, parts_for):
    config = config_at(tmp_path)
    config.sound.cue_volume = 0.5
    parts = parts_for(config)
    assert parts.narrator._cue.get_volume() == pytest.approx(0.5, abs=0.01)


def test_a_warm_round_is_checked_before_start_so_no_line_is_checked_when_due(
        tmp_path, parts_for, monkeypatch):
    """The reader thread reads each WAV whole to check it (which leaves it in
    the system's file cache); a due line is only opened, never checked."""
    config = config_at(tmp_path)
    lines = RoundSettings.from_config(config).lines()
    fill_cache(config, lines)
    parts = parts_for(config)
    parts.narrator.wait_warm(10)

    forbid_checks_on_the_main_thread(monkeypatch)
    press(parts, Button.START)
    assert parts.narrator.played[0].text == lines[0] and parts.narrator.missed == []


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
    from wolfbox.audio.renderer import Renderer
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
