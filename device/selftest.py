"""`wolfbox selftest`: is this box put together right?

Reports the pin driver, the screen, the sound device, the voice and how fast
it renders here, the free space for the cache and the service's watchdog;
speaks a test line; then asks for each button in turn, lighting its LED and
showing it on the screen. On a PC it runs against the mock pins (`--auto`
presses them itself).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import pygame

from wolfbox.audio.cache import LineCache, cache_for
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import choose_voice
from wolfbox.buttons import GAME_BUTTONS, Button
from wolfbox.config import Config
from wolfbox.effects import Say
from wolfbox.i18n import N_, _
from wolfbox.view import Phase, View

from . import notices as notice_texts
from .app import build
from .loop import Edge

TEST_LINE = N_("This is the Wolfbox self test. If you can hear me, the speaker works.")
OK, WARN, FAIL = "ok", "warn", "FAIL"
# How long the check waits for the voice, at most. The renderer's own limits
# end a worker that hangs or runs away (its processor time, scaled by what
# loading the voice cost here); this bounds only a bug in them, so that an
# emulated arm64 system, a hundred times slower than a Pi, still finishes.
VOICE_WAIT = 3600.0


@dataclass
class Check:
    name: str
    result: str
    status: str = OK


def existing_parent(folder: Path) -> Path:
    """`folder`, or the nearest folder above it that exists: where the
    cache's files will land before the box has made its folder (the home
    folder may be on another disk, or another partition of the card)."""
    folder = folder.absolute()
    for candidate in (folder, *folder.parents):
        if os.path.isdir(candidate):
            return candidate
    return Path(folder.anchor)


def cache_space(cache_dir: Path) -> Check:
    """The free space where the rendered lines will be kept."""
    probe = existing_parent(cache_dir)
    free = shutil.disk_usage(probe).free / 2**20
    return Check(_("cache space"), _("{free:.0f} MB free at {folder}").format(
        free=free, folder=probe), OK if free > 100 else WARN)


def _watchdog() -> Check:
    if shutil.which("systemctl") is None:
        return Check(_("watchdog"), _("no systemd here"), WARN)
    try:
        show = subprocess.run(["systemctl", "show", "wolfbox.service", "-p", "ActiveState",
                               "-p", "WatchdogUSec", "--value"], capture_output=True, text=True,
                              timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError) as e:
        return Check(_("watchdog"), _("cannot ask systemd ({error})").format(error=e), WARN)
    if len(show) >= 2 and show[0] == "active" and show[1] not in ("0", "infinity"):
        return Check(_("watchdog"), _("wolfbox.service is active, watchdog {interval}").format(
            interval=show[1]))
    state = show[0] if show else _("unknown")
    return Check(_("watchdog"), _("wolfbox.service is {state}: no watchdog running").format(
        state=state), WARN)


def _wait_for_line(renderer: Renderer, cache: LineCache, line: str) -> None:
    """Until `line` is in the cache, or the renderer has given up. Not until
    the renderer is idle: the box asked it for the whole round's lines as
    it started, which an emulated arm64 renders for hours."""
    ready = threading.Event()
    renderer.subscribe(lambda text: ready.set() if text == line else None)
    renderer.request([line], urgent=True)
    deadline = time.monotonic() + VOICE_WAIT
    while cache.get(line) is None and renderer.available and time.monotonic() < deadline:
        ready.wait(1.0)


def _voice_speed(config: Config) -> Check:
    voice, problem = choose_voice(config.voice.model, config.box.lang)
    if voice is None:
        return Check(_("voice"), problem or _("no voice"), FAIL)
    with tempfile.TemporaryDirectory() as tmp:
        cache = LineCache(Path(tmp), voice.identity, cache_for(config, voice).settings)
        said: list[str] = []            # why it failed, if it did: the check says it
        renderer = Renderer(voice, cache, timeout=300, priority="normal", report=said.append,
                            max_failures=2)
        started = time.monotonic()
        renderer.request([_(TEST_LINE)])
        renderer.wait_idle(VOICE_WAIT)
        renderer.close()
        total = time.monotonic() - started
    stats = renderer.stats
    if not stats.rendered:
        why = "".join(f"; {line}" for line in dict.fromkeys(said))
        return Check(_("voice"), _("{voice}: the renderer failed").format(voice=voice.name)
                     + why, FAIL)
    rtf = stats.render_seconds / stats.audio_seconds
    note = _("{voice} ({engine}): real-time factor {rtf:.2f}, {total:.1f} s with loading").format(
        voice=voice.name, engine=voice.engine, rtf=rtf, total=total) \
        + (f"; {problem}" if problem else "")
    return Check(_("voice"), note, WARN if problem or rtf > 1 else OK)


def selftest(config: Config, display: str | None = None, auto: bool = False,
             button_timeout: float = 20.0, out: TextIO | None = None) -> int:
    import sys
    out = out or sys.stdout
    checks: list[Check] = []
    # Rendering is part of the test here, not something behind a game.
    parts = build(config, display, stdin_keys=not auto, render_priority="normal")
    try:
        bank = parts.bank
        factory = type(bank.factory).__name__
        checks.append(Check(_("pin driver"), factory + (
            " " + _("(mock pins: no GPIO on this machine)") if bank.mock else ""),
                            WARN if bank.mock else OK))
        missing = [b.value for b in config.buttons.pins() if b not in bank.devices]
        if missing:
            checks.append(Check(_("button pins"), _("left out: {pins}").format(
                pins=", ".join(missing)), FAIL))
        surface = pygame.display.get_surface()
        size = "x".join(map(str, surface.get_size())) if surface else _("none")
        checks.append(Check(_("screen"), _("{driver} driver, {size}").format(
                                driver=pygame.display.get_driver(), size=size)
                            + (" " + _("(headless)") if parts.display == "headless" else ""),
                            WARN if parts.display == "headless" else OK))
        mixer = pygame.mixer.get_init()
        checks.append(Check(_("sound"), _("mixer {rate} Hz, {channels} channel(s)").format(
                                rate=mixer[0], channels=mixer[2]) if mixer
                            else "; ".join(n for n in parts.notices
                                           if n == _(notice_texts.NO_SOUND))
                            or _("no sound device"), OK if mixer else FAIL))
        checks.append(_voice_speed(config))
        checks.append(cache_space(config.cache_dir()))
        checks.append(_watchdog())

        # A test line through the real narrator, from the real cache.
        narrator = parts.narrator
        if narrator.sound and narrator.renderer is not None:
            cache = cache_for(config, choose_voice(config.voice.model, config.box.lang)[0])
            line = _(TEST_LINE)
            _wait_for_line(narrator.renderer, cache, line)
            narrator.apply(Say(line, token=1))
            played = any(p.text == line for p in narrator.played)
            checks.append(Check(_("test line"), _("played") if played else
                                _("not rendered into {folder}").format(folder=cache.root),
                                OK if played else FAIL))

        for button in GAME_BUTTONS:
            checks.append(_ask_for(parts, button, auto, button_timeout))
    finally:
        parts.close()
    width = max(len(c.name) for c in checks)
    print(_("Wolfbox self-test"), file=out)
    for c in checks:
        print(f"  [{c.status:>4}] {c.name:<{width}}  {c.result}", file=out)
    failed = [c for c in checks if c.status == FAIL]
    print(_("{passed} passed, {failed} failed").format(passed=len(checks) - len(failed),
                                                       failed=len(failed)), file=out)
    return 1 if failed else 0


def _ask_for(parts, button: Button, auto: bool, timeout: float) -> Check:
    """Light the button, show it, and wait for a press of that button."""
    view = View(phase=Phase.IDLE, title=_("Self-test"), big=button.value.upper(),
                caption=_("Press the {button} button").format(button=button.value.upper()),
                legend=((button, _("Press me")),), hint=button)
    parts.box.screen.show(view, "")
    if parts.leds is not None:
        parts.leds.show(view)
    if auto:
        def press() -> None:
            time.sleep(0.15)
            parts.bank.drive(button, True)
            time.sleep(0.05)
            parts.bank.drive(button, False)
        threading.Thread(target=press, daemon=True).start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for item in parts.box.inbox.wait(min(0.1, deadline - time.monotonic())):
            if isinstance(item, Edge) and item.down and item.button is button:
                return Check(_("{button} button").format(button=button.value), _("pressed"))
        if parts.box.sdl_poll is not None:
            for e in pygame.event.get():
                if e.type in (pygame.KEYDOWN, pygame.KEYUP):
                    hit = parts.box.key_codes.get(e.key)
                    if hit is not None:
                        parts.bank.drive(hit, e.type == pygame.KEYDOWN)
    return Check(_("{button} button").format(button=button.value),
                 _("not pressed within {seconds:g} s").format(seconds=timeout), FAIL)
