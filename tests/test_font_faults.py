"""Issue 20.8: a font file that is empty or corrupt, at a CJK path or the
one fontconfig names, or in place of the shipped DejaVu, never crashes
the window or `screenshot --lang zh`: the painter tries the next face,
then none (with the start screen's notice); a broken Latin face gives
pygame's default font and one warning."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from wolfbox.config import Config
from wolfbox.device.fonts import CJK_FONTS, FONT_DIR, Face
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import round_views
from wolfbox.i18n import speaking

INSTALLED = next((p for p in CJK_FONTS if Path(p).is_file()), None)


@pytest.fixture(autouse=True)
def fonts():
    pygame.display.init()
    pygame.font.init()


@pytest.fixture
def broken(tmp_path) -> dict[str, str]:
    """Font files that are not fonts: empty, random bytes, a DejaVu cut short."""
    empty = tmp_path / "empty.ttc"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(bytes(range(256)) * 40)
    cut = tmp_path / "cut.ttf"
    cut.write_bytes((FONT_DIR / "DejaVuSans.ttf").read_bytes()[:20000])
    return {"empty": str(empty), "junk": str(junk), "cut": str(cut)}


def chinese_views():
    with speaking("zh"):
        return list(round_views(Config()))[:12]


def drawn(painter: Painter, views) -> str:
    shown = []
    for _name, view, notice in views:
        render_view(view, (480, 320), notice, painter)
        shown += [d.text for d in painter.drawn]
    return " ".join(shown)


@pytest.mark.skipif(INSTALLED is None, reason="no CJK font installed")
def test_a_broken_cjk_file_is_passed_over_for_the_next(broken, caplog):
    painter = Painter(cjk_font=lambda: [broken["empty"], broken["junk"], INSTALLED])
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        shown = drawn(painter, chinese_views())
    assert painter.cjk_file() == INSTALLED
    assert "No Chinese font" not in shown
    said = [r.getMessage() for r in caplog.records]
    assert sum(broken["empty"] in m for m in said) == 1
    assert sum(broken["junk"] in m for m in said) == 1


@pytest.mark.parametrize("which", ["empty", "junk", "cut"])
def test_with_only_broken_cjk_files_chinese_screens_draw_with_the_notice(broken, which):
    painter = Painter(cjk_font=lambda: broken[which])
    shown = drawn(painter, chinese_views())
    assert painter.cjk_file() is None
    assert "No Chinese font" in shown


def test_a_cjk_file_that_fails_after_it_was_chosen_is_dropped_not_a_crash(broken, monkeypatch):
    """A file that passed the look at 24 px and fails at another size."""
    painter = Painter(cjk_font=lambda: str(FONT_DIR / "DejaVuSans.ttf"))
    painter._cjk_known, painter._cjk_file = True, broken["junk"]
    shown = drawn(painter, chinese_views())
    assert painter.cjk_file() is None and "No Chinese font" in shown


@pytest.mark.parametrize("which", ["empty", "junk", "cut"])
def test_a_broken_dejavu_gives_pygames_font_and_one_warning(tmp_path, broken, which, caplog):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for face in Face:
        shutil.copy(FONT_DIR / face.value, fonts / face.value)
    shutil.copy(broken[which], fonts / Face.BOLD.value)
    painter = Painter(font_dir=fonts, cjk_font=lambda: None)
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        shown = drawn(painter, list(round_views(Config()))[:12])
    assert "Start" in shown or "Wolfbox" in shown
    said = [r.getMessage() for r in caplog.records if "pygame's default font" in r.getMessage()]
    assert len(said) == 1 and Face.BOLD.value in said[0]


def test_screenshot_in_chinese_with_a_corrupt_cjk_font_is_no_traceback(tmp_path, broken):
    """fc-match naming a corrupt file: the real command, in its own process."""
    fc = tmp_path / "bin" / "fc-match"
    fc.parent.mkdir()
    fc.write_text(f"#!/bin/sh\nprintf %s '{broken['junk']}'\n")
    fc.chmod(0o755)
    code = ("import sys; from wolfbox.device import fonts; "
            "fonts.CJK_FONTS = (sys.argv[1],); "
            "from wolfbox.cli import main; "
            "sys.exit(main(['screenshot', '--lang', 'zh', '--out', sys.argv[2]]))")
    env = {**os.environ, "PATH": f"{fc.parent}:{os.environ['PATH']}", "SDL_VIDEODRIVER": "dummy",
           "XDG_STATE_HOME": str(tmp_path / "state")}
    result = subprocess.run([sys.executable, "-c", code, broken["empty"], str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert list((tmp_path / "out").glob("*.png"))
    assert broken["empty"] in result.stderr and broken["junk"] in result.stderr

