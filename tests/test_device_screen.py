"""Choosing the display: a screen that cannot be opened means headless,
said once, never an invisible window."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NotifySocket


def _no_server() -> str:
    """A display number no X server answers on, looked for when the test
    runs (an Xvfb started meanwhile by another test or person holds one of
    the low numbers: :99, :100, ...), far above the numbers anyone picks."""
    n = random.Random().randrange(20000, 30000)
    while Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
        n += 1
    return f":{n}"


@pytest.mark.parametrize("display", ["auto", "window"])
def test_a_stale_display_runs_headless_and_says_so_once(tmp_path, display):
    """With DISPLAY naming no server, SDL quietly settles on its offscreen
    driver: a box drawing into memory, reading keys from a window nobody
    can see."""
    notify = NotifySocket(tmp_path / "notify")
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=_no_server(), SDL_AUDIODRIVER="dummy", NOTIFY_SOCKET=notify.address,
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


@pytest.mark.parametrize(("asked", "renderer"), [(None, "opengles2"), ("software", "software")])
def test_on_the_console_the_box_draws_through_opengl_es_2_unless_told_otherwise(
        asked, renderer):
    """SDL's own pick drew nothing on the twin's KMSDRM screen; GLES 2 did.
    There is no DRM device here: SDL says no, the box goes headless, and
    the renderer it asked SDL for is what the console would have used."""
    env = {k: v for k, v in os.environ.items() if k != "SDL_RENDER_DRIVER"}
    env.update({"SDL_VIDEODRIVER": "kmsdrm", **({"SDL_RENDER_DRIVER": asked} if asked else {})})
    result = subprocess.run(
        [sys.executable, "-c", "import os\n"
                               "from wolfbox.device.screen import init_video\n"
                               "shown = init_video('fullscreen')\n"
                               "print(os.environ.get('SDL_RENDER_DRIVER'))"],
        env=env, capture_output=True, text=True, timeout=120)
    assert result.stdout.split() == [renderer], result.stderr


def test_a_window_leaves_sdls_renderer_alone():
    env = {k: v for k, v in os.environ.items() if k != "SDL_RENDER_DRIVER"}
    result = subprocess.run(
        [sys.executable, "-c", "import os\n"
                               "from wolfbox.device.screen import init_video\n"
                               "init_video('window')\n"
                               "print(os.environ.get('SDL_RENDER_DRIVER'))"],
        env={**env, "SDL_VIDEODRIVER": "dummy"}, capture_output=True, text=True, timeout=120)
    assert result.stdout.split() == ["None"], result.stderr


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


# ------------------------------------------------------- secrets, headless

class FakeTerminal:
    """A stream standing for a terminal (isatty) or a pipe, recording what
    was written, and replaying it the way a terminal with an alternate
    screen shows it: `scrollback` is what stays in the normal screen."""

    def __init__(self, tty: bool) -> None:
        self.tty, self.written = tty, []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.written)

    def scrollback(self) -> str:
        """The normal screen: everything written outside the alternate one."""
        from wolfbox.device.screen import ALT_SCREEN_OFF, ALT_SCREEN_ON
        out, alternate = [], False
        for part in self.text().split("\x1b[?1049"):
            if not out and not part.startswith(("h", "l")):
                out.append(part)
                continue
            alternate = part.startswith("h")
            if not alternate:
                out.append(part[1:])
        assert ALT_SCREEN_ON[-1] == "h" and ALT_SCREEN_OFF[-1] == "l"
        return "".join(out)


def private_round():
    """A public screen, a seat's private window (its card shown, then the
    partner, the clock running), and the public screen after it."""
    from wolfbox.buttons import Button
    from wolfbox.view import Phase, View
    legend = ((Button.VOTE, "Hold: see"),)
    public = View(phase=Phase.NIGHT, title="The deal", details=("Seat 3, open your eyes.",),
                  legend=legend)
    card = View(phase=Phase.REFEREE, title="Seat 3 · 0:12", big="Wolf",
                details=("Your partner: seat 7, Alchemist",), legend=legend, private=True)
    later = View(phase=Phase.REFEREE, title="Seat 3 · 0:11", big="Wolf",
                 details=("Your partner: seat 7, Alchemist",), legend=legend, private=True)
    after = View(phase=Phase.NIGHT, title="The deal", details=("Seat 3, eyes closed.",),
                 legend=legend)
    return public, card, later, after


SECRETS = ("Wolf", "seat 7", "Alchemist")


def test_on_a_terminal_a_private_screen_leaves_no_trace_in_the_scrollback():
    from wolfbox.device.screen import TerminalScreen
    out = FakeTerminal(tty=True)
    screen = TerminalScreen(out)
    public, card, later, after = private_round()
    screen.show(public, "")
    screen.show(card, "")
    screen.say("Seat 3, close your eyes.")
    screen.show(later, "")
    assert all(secret in out.text() for secret in SECRETS)    # the seat could read it
    screen.show(after, "")
    kept = out.scrollback()
    assert not any(secret in kept for secret in SECRETS), kept
    # The public lines stay: the screen before, what was said aloud in the
    # window, and the screen after it, in that order.
    assert kept.index("open your eyes") < kept.index('>> "Seat 3, close your eyes."') \
        < kept.index("eyes closed"), kept


def test_a_box_stopped_in_a_private_window_leaves_the_alternate_screen():
    from wolfbox.device.screen import ALT_SCREEN_OFF, TerminalScreen
    out = FakeTerminal(tty=True)
    screen = TerminalScreen(out)
    public, card, _later, _after = private_round()
    screen.show(public, "")
    screen.show(card, "")
    screen.close()
    assert out.text().endswith(ALT_SCREEN_OFF)
    assert not any(secret in out.scrollback() for secret in SECRETS)


def test_into_a_pipe_a_private_window_is_one_placeholder_line():
    """A pipe or a log keeps everything: no secret goes there, and the
    placeholder is the same however the window's screens changed."""
    from wolfbox.device.screen import TerminalScreen
    out = FakeTerminal(tty=False)
    screen = TerminalScreen(out)
    public, card, later, after = private_round()
    screen.show(public, "")
    before = out.text()
    screen.show(card, "")
    screen.show(later, "")
    placeholder = out.text()[len(before):]
    screen.show(after, "")
    text = out.text()
    assert "\x1b" not in text
    assert not any(secret in text for secret in SECRETS), text
    assert placeholder.count("\n") == 1 and "private" in placeholder
    assert text.endswith("== The deal\n   Seat 3, eyes closed.\n   [VOTE] Hold: see\n"), text
    # Another window with other secrets prints the very same line.
    other = FakeTerminal(tty=False)
    screen = TerminalScreen(other)
    screen.show(public, "")
    import dataclasses
    screen.show(dataclasses.replace(card, big="Seer", details=()), "")
    assert other.text()[len(before):] == placeholder


# The screens of the games that carry a secret (the screenshot driver's
# names): a headless box must keep them out of the terminal's record.
SECRET_SCREENS = ("d-timed-deal-card", "d-timed-night-kill", "d-timed-night-knife",
                  "d-timed-night-choose", "d-timed-message", "d-timed-message-blocked",
                  "c-mayor-lovers")


@pytest.mark.parametrize("name", SECRET_SCREENS)
def test_every_secret_screen_of_the_games_is_marked_private(name):
    from wolfbox.config import Config
    from wolfbox.device.screenshots import round_views
    views = {n: view for n, view, _notice in round_views(Config())}
    assert views[name].private



def test_the_window_keeps_its_shape_and_fits_the_display():
    from wolfbox.device.screen import window_size
    assert window_size((960, 640), (480, 320)) == (480, 320)      # the default on a Pi's screen
    assert window_size((960, 640), (800, 480)) == (720, 480)      # shape kept, height the limit
    assert window_size((960, 640), (1920, 1080)) == (960, 640)    # fits: as asked
    assert window_size((2000, 500), (1000, 1000)) == (1000, 250)
    assert window_size((960, 640), None) == (960, 640)            # the display unknown
    assert window_size((960, 640), (0, 0)) == (960, 640)


def test_a_window_larger_than_the_display_opens_at_its_size_and_says_so_once(
        monkeypatch, caplog):
    """SDL's dummy driver reports a desktop: a window larger than it opens
    scaled down to it, said once; a window that fits is left alone."""
    import logging

    import pygame

    from wolfbox.device.screen import WindowScreen
    pygame.display.init()
    desktop = pygame.display.get_desktop_sizes()[0]
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        big = WindowScreen((desktop[0] * 2, desktop[1]))
        assert big.surface.get_size() == (desktop[0], desktop[1] // 2)
        said = [r for r in caplog.records if "larger than the display" in r.getMessage()]
        assert len(said) == 1
        fits = WindowScreen((desktop[0] // 2, desktop[1] // 2))
        assert fits.surface.get_size() == (desktop[0] // 2, desktop[1] // 2)
        assert len([r for r in caplog.records
                    if "larger than the display" in r.getMessage()]) == 1
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(480, 320)])
    assert WindowScreen((960, 640)).surface.get_size() == (480, 320)


def test_after_a_private_window_the_next_line_starts_at_the_left():
    """A clock rewritten in place leaves the cursor mid-line; the terminal
    puts it back there on leaving the alternate screen, so the line said
    next came out indented after the clock's text."""
    import dataclasses

    from wolfbox.device.screen import TerminalScreen
    from wolfbox.view import Phase, View
    out = FakeTerminal(tty=True)
    screen = TerminalScreen(out)
    clock = View(phase=Phase.DISCUSSION, title="Day 1", big="2:30")
    screen.show(clock, "")
    screen.show(dataclasses.replace(clock, big="2:29"), "")      # rewritten in place
    _public, card, _later, after = private_round()
    screen.show(card, "")
    screen.show(after, "")
    lines = out.scrollback().split("\n")
    assert any(line.startswith("== The deal") for line in lines), lines
    assert not any("2:29" in line and "== " in line for line in lines), lines


@pytest.mark.parametrize("tty", [True, False])
def test_a_clock_in_the_title_runs_in_place_not_a_screen_a_second(tty):
    """The timed game's "Seat 3 · 0:14": fourteen seconds of a window were
    fourteen whole screens in the scrollback (a game overflowed tmux's
    history); now it runs like the big timer."""
    from wolfbox.device.screen import TerminalScreen
    from wolfbox.view import Phase, View
    out = FakeTerminal(tty=tty)
    screen = TerminalScreen(out)
    for left in range(14, 0, -1):
        screen.show(View(phase=Phase.REFEREE, title=f"Seat 3 · 0:{left:02d}", big="Hold VOTE",
                         details=("Seat 3 only",)), "")
    assert out.text().count("== Seat 3") == 1
    assert ("0:01" in out.text()) == tty            # a terminal shows the clock run down
    screen.show(View(phase=Phase.REFEREE, title="Seat 4 · 0:14", big="Hold VOTE",
                     details=("Seat 4 only",)), "")
    assert "== Seat 4 · 0:14" in out.text()          # another seat's window is a new screen
