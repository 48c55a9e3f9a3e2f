"""b. The start screen as qemu's screendump shows it is the screen the
host's own `wolfbox screenshot` draws from the image's settings."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from twin.context import Check, Context, Outcome
from twin.media import SCREEN_THRESHOLD, same_screen
from twin.qemu import SCREEN


def screen(ctx: Context) -> Outcome:
    work = ctx.twin.work
    shot = ctx.twin.screendump(work / "twin-start.png")
    picture = reference(ctx, "1-start")
    same, share = same_screen(shot, picture)
    detail = (f"screendump {shot.name} vs wolfbox screenshot 1-start at "
              f"{SCREEN[0]}x{SCREEN[1]}: {share:.2%} of pixels differ "
              f"(threshold {SCREEN_THRESHOLD:.1%})")
    return ("pass" if same else "FAIL"), detail


def reference(ctx: Context, name: str) -> Path:
    """The host's `wolfbox screenshot` of a screen, from the image's config."""
    out = ctx.twin.work / "reference"
    if not (out / f"{name}.png").is_file():
        env = dict(os.environ, STATE_DIRECTORY=str(ctx.twin.work / "reference-state"),
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        subprocess.run([str(ctx.host), "screenshot", "--config", str(ctx.config),
                        "--size", f"{SCREEN[0]}x{SCREEN[1]}", "--out", str(out)],
                       check=True, env=env, capture_output=True, timeout=600)
    return out / f"{name}.png"


CHECK = Check("b. the start screen (screendump vs wolfbox screenshot)", screen)
