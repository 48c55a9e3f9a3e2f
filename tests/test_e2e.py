"""The real main loop with SDL's dummy drivers and gpiozero's MockFactory.

Buttons are pressed by driving mock pins; the assertions read what the
screen showed and which lines reached the mixer, in order.
"""

from __future__ import annotations

import sys

import pygame
import pytest

from helpers import fill_cache, press, run_for, run_until
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device.app import build, round_settings
from wolfbox.hardware.factory import mock_factory
from wolfbox.view import Phase

NO_RENDERER = [sys.executable, "-c", "import sys; sys.exit(3)"]


def fast_config(tmp_path) -> Config:
    c = Config()
    c.game.discussion_seconds = 3
    c.game.warnings = [2]
    c.night.scale = 0.02
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    return c


@pytest.fixture
def box_parts(tmp_path):
    made = []

    def make(config: Config | None = None, fill: bool = True, display: str = "headless"):
        config = config or fast_config(tmp_path)
        if fill:
            fill_cache(config, round_settings(config).lines())
        parts = build(config, display, pin_factory=mock_factory(), stdin_keys=False,
                      renderer_command=NO_RENDERER)
        frames = []
        parts.box.on_frame = lambda view, t: frames.append(view)
        parts.frames = frames
        made.append(parts)
        return parts
    yield make
    for parts in made:
        parts.close()


def phases(frames) -> list[Phase]:
    out: list[Phase] = []
    for view in frames:
        if not out or out[-1] is not view.phase:
            out.append(view.phase)
    return out


def test_a_whole_round_by_mock_buttons(box_parts):
    parts = box_parts()
    box, narrator = parts.box, parts.narrator
    assert narrator.sound, "the dummy audio driver should give a mixer"
    box.refresh()
    assert parts.frames[-1].phase is Phase.IDLE
    assert parts.frames[-1].label(Button.START) == "Start"

    press(parts, Button.START)
    assert parts.frames[-1].phase is Phase.NIGHT and parts.frames[-1].dim
    run_until(box, lambda: box.flow.phase is Phase.REVEAL, timeout=40)
    press(parts, Button.NEXT)
    assert box.flow.phase is Phase.IDLE

    assert phases(parts.frames) == [Phase.IDLE, Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE,
                                    Phase.REVEAL, Phase.IDLE]
    settings = box.flow.settings
    expected = []
    for step in settings.night:
        expected += [step.text] + ([step.after] if step.after else [])
    expected += [settings.lines()[len(expected)], "2 seconds left.",
                 "Three.", "Two.", "One.", "Vote!",
                 "Everyone, flip your card over and see who won."]
    assert [p.text for p in narrator.played] == expected
    assert narrator.missed == []
    shown = [v.big for v in parts.frames if v.phase is Phase.VOTE]
    assert [b for i, b in enumerate(shown) if i == 0 or shown[i - 1] != b] == \
        ["3", "2", "1", "VOTE!"]
    discussion = [v.big for v in parts.frames if v.phase is Phase.DISCUSSION]
    assert discussion[0] == "0:03" and "0:01" in discussion


def test_pause_vote_and_abandon_by_mock_buttons(box_parts):
    parts = box_parts()
    box = parts.box
    press(parts, Button.START)
    press(parts, Button.START)                        # pause
    assert parts.frames[-1].paused
    assert parts.frames[-1].label(Button.START) == "Resume"
    remaining = box.flow.timer.remaining(box.clock())
    run_for(box, 0.3)
    assert box.flow.timer.remaining(box.clock()) == remaining
    press(parts, Button.START)                        # resume
    assert not parts.frames[-1].paused
    press(parts, Button.VOTE)
    assert parts.frames[-1].phase is Phase.VOTE and parts.frames[-1].big == "3"
    assert parts.narrator.played[-1].text == "Three."
    press(parts, Button.BACK, hold=0.5)               # a tap is not enough
    assert box.flow.phase is Phase.VOTE
    press(parts, Button.BACK, hold=box.classifier.hold_seconds[Button.BACK] + 0.05)
    assert parts.frames[-1].phase is Phase.IDLE


def test_a_line_missing_from_the_cache_is_a_caption_and_the_flow_goes_on(box_parts):
    parts = box_parts(fill=False)
    press(parts, Button.START)
    assert parts.frames[-1].caption == "Night falls. Everyone, close your eyes."
    assert parts.narrator.played == []
    assert parts.narrator.missed == ["Night falls. Everyone, close your eyes."]
    run_until(parts.box, lambda: parts.box.flow.step_index == 1, timeout=10)


def test_no_sound_card_runs_on_captions_and_says_so_once(box_parts, monkeypatch, capsys):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no_such_driver")
    pygame.mixer.quit()
    parts = box_parts()
    assert not parts.narrator.sound
    assert any("captions only" in n for n in parts.notices)
    press(parts, Button.START)
    press(parts, Button.VOTE)
    run_until(parts.box, lambda: parts.box.flow.phase is Phase.REVEAL, timeout=15)
    out = capsys.readouterr().out
    assert out.count("captions only") == 1
    assert '>> "Vote!"' in out


def test_closing_the_window_ends_the_loop(box_parts):
    parts = box_parts(display="window")
    assert parts.display == "window"
    press(parts, Button.START)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    parts.box.run()
    assert not parts.box.running


def test_window_keys_drive_the_mock_pins(box_parts):
    parts = box_parts(display="window")
    seen = []
    device = parts.bank.devices[Button.START]
    device.when_pressed = lambda: seen.append("pressed")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    parts.box.step()
    assert seen == ["pressed"]
    assert device.is_pressed


def test_the_deck_picker_on_the_box(box_parts):
    parts = box_parts()
    box = parts.box
    box.refresh()
    first = parts.frames[-1]
    assert first.details[:2] == ("3 players", "Classic, 3 players")
    assert first.label(Button.NEXT) == "Next deck"
    seen_titles = [first.details[1]]
    for _ in range(3):
        press(parts, Button.NEXT)
        seen_titles.append(parts.frames[-1].details[1])
    assert seen_titles == ["Classic, 3 players", "Evil Transformation", "Trust No One",
                           "Random deck"]
    press(parts, Button.VOTE)                        # 4 players
    press(parts, Button.VOTE)                        # 5 players
    press(parts, Button.NEXT)
    view = parts.frames[-1]
    assert view.details[0] == "5 players"
    assert box.flow.settings.deck == tuple(__import__("wolfbox.presets", fromlist=["x"])
                                           .PRESETS["evil_transformation"].deck(5))
    assert any("center werewolf card" in d for d in view.details)   # setup note on screen
    press(parts, Button.START)
    assert box.flow.phase is Phase.NIGHT
    run_until(box, lambda: box.flow.settings.night[box.flow.step_index].id == "doppelganger",
              timeout=10)
    assert parts.frames[-1].title == "Night · Doppelganger"
