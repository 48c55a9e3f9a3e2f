"""Choosing the display: a screen that cannot be opened means headless,
said once, never an invisible window."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NotifySocket

NOBODY = ":99"


@pytest.mark.skipif(Path("/tmp/.X11-unix/X99").exists(), reason="an X server is on :99 here")
@pytest.mark.parametrize("display", ["auto", "window"])
def test_a_stale_display_runs_headless_and_says_so_once(tmp_path, display):
    """With DISPLAY naming no server, SDL quietly settles on its offscreen
    driver: a box drawing into memory, reading keys from a window nobody
    can see."""
    notify = NotifySocket(tmp_path / "notify")
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=NOBODY, SDL_AUDIODRIVER="dummy", NOTIFY_SOCKET=notify.address,
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_RUNTIME_DIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--display", display],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        notify.wait_for("READY=1")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        said = [line for line in err.splitlines() if "running headless" in line]
        assert len(said) == 1, err
        assert "== " in out                        # the start screen, in the terminal
        # stdin gives no keys: no key is offered, the legend names the buttons only
        assert "Keys:" not in out and "[s]" not in out and "[START] " in out, out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        notify.close()


def test_an_invisible_driver_asked_for_by_name_is_kept(tmp_path):
    """SDL_VIDEODRIVER=dummy on purpose (tests, benchmarks) still gives a window."""
    result = subprocess.run(
        [sys.executable, "-c", "from wolfbox.device.screen import init_video\n"
                               "print(init_video('window'))"],
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, capture_output=True, text=True,
        timeout=120)
    assert result.stdout.split() == ["window"], result.stderr
    assert "headless" not in result.stderr


def test_the_terminal_shows_the_voice_being_prepared_one_short_line_a_step():
    import io

    from wolfbox.device.screen import TerminalScreen
    from wolfbox.view import Phase, View
    out = io.StringIO()
    screen = TerminalScreen(out)
    start = View(phase=Phase.IDLE, title="Wolfbox", details=("3 players",))
    for status in ("Preparing the voice: 0 %", "Preparing the voice: 50 %", ""):
        screen.show(View(phase=Phase.IDLE, title="Wolfbox", details=("3 players",),
                         status=status), "")
    screen.show(start, "")
    text = out.getvalue()
    assert text.count("== Wolfbox") == 1                  # the block once, then short lines
    assert "   ~ Preparing the voice: 0 %" in text
    assert text.splitlines()[-2:] == ["   ~ Preparing the voice: 50 %",
                                      "   ~ The voice is ready."]


def test_the_terminal_legend_names_each_buttons_key_once_keys_are_read():
    import io

    from wolfbox.buttons import Button
    from wolfbox.device.keys import key_labels, terminal_chars
    from wolfbox.device.screen import TerminalScreen
    from wolfbox.view import Phase, View
    legend = ((Button.START, "Pause"), (Button.VOTE, "Vote now"))
    view = View(phase=Phase.DISCUSSION, title="Discussion", legend=legend)
    without = io.StringIO()
    TerminalScreen(without).show(view, "")
    assert "[START] Pause  [VOTE] Vote now" in without.getvalue()
    keys = key_labels(terminal_chars({Button.START: ["space", "s"], Button.VOTE: ["v"],
                                      Button.NEXT: ["right"], Button.BACK: ["space"]}))
    assert keys == {Button.START: "s", Button.VOTE: "v", Button.BACK: "space"}
    shown = io.StringIO()
    TerminalScreen(shown, keys=keys).show(view, "")
    assert "[s] START: Pause  [v] VOTE: Vote now" in shown.getvalue()


def test_the_terminal_shows_holds_and_the_footer_and_ignores_a_hold_filling():
    import dataclasses
    import io

    from wolfbox.buttons import Button
    from wolfbox.device.screen import TerminalScreen
    from wolfbox.view import Phase, View
    out = io.StringIO()
    screen = TerminalScreen(out)
    start = View(phase=Phase.IDLE, title="5 players", details=("Classic, 5 players",),
                 legend=((Button.START, "Start"), (Button.NEXT, "Next deck")),
                 holds=((Button.NEXT, "Hold: settings"),), footer="Hold NEXT: settings")
    screen.show(start, "")
    text = out.getvalue()
    assert "[START] Start  [NEXT] Next deck / Hold: settings" in text
    assert text.splitlines()[-1] == "   Hold NEXT: settings"
    for done in (0.25, 0.5, 0.75):                # a hold filling its box draws nothing new
        screen.show(dataclasses.replace(start, held=Button.NEXT, held_progress=done), "")
    assert out.getvalue() == text
    discussion = View(phase=Phase.DISCUSSION, title="Discussion", big="4:43",
                      legend=((Button.START, "Pause"), (Button.BACK, "Hold: end round")),
                      holds=((Button.BACK, "Hold: end round"),))
    screen.show(discussion, "")
    assert "[START] Pause  [BACK] Hold: end round\n" in out.getvalue()   # said once
    screen.show(View(phase=Phase.DISCUSSION, title="Discussion", big="4:43",
                     holds=((Button.BACK, "Hold: end round"),)), "")
    assert out.getvalue().endswith("   [BACK] Hold: end round\n")        # a hold alone
