"""`wolfbox screenshot`: every screen of a round, rendered to PNG.

The round is played by the real flow on a fake clock and drawn by the real
painter, so the pictures are exactly what the box shows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame

from wolfbox.buttons import Button, Tap
from wolfbox.config import Config
from wolfbox.flow import Flow, RoundSettings
from wolfbox.view import Phase, View

from .render import Painter, render_view


def round_views(config: Config) -> Iterator[tuple[str, View, str]]:
    """(name, view, notice) for each screen worth a picture, in play order."""
    flow = Flow(RoundSettings.from_config(config))
    now = 0.0
    yield "1-start", flow.view(now), ""
    yield "1-start-no-sound", flow.view(now), "no sound device: captions only"
    flow.handle(Tap(Button.START), now)
    while flow.phase is Phase.NIGHT and flow.settings.night[flow.step_index].id != "seer":
        now += 0.5
        flow.tick(now)
    now += 0.1
    yield "2-night", flow.view(now), ""
    while flow.phase is Phase.NIGHT:
        now += 0.5
        flow.tick(now)
    now += 17.2
    flow.tick(now)
    yield "3-discussion", flow.view(now), ""
    flow.handle(Tap(Button.START), now)
    yield "4-paused", flow.view(now), ""
    flow.handle(Tap(Button.START), now)
    assert flow.timer is not None
    now += flow.timer.remaining(now) - 8.5
    flow.tick(now)
    yield "5-last-seconds", flow.view(now), ""
    flow.handle(Tap(Button.VOTE), now)
    yield "6-vote-3", flow.view(now), ""
    while flow.phase is Phase.VOTE and flow.beat < 3:
        now += 0.25
        flow.tick(now)
    yield "7-vote", flow.view(now), ""
    while flow.phase is Phase.VOTE:
        now += 0.25
        flow.tick(now)
    yield "8-reveal", flow.view(now), ""


def save_screenshots(config: Config, out: Path, size: tuple[int, int]) -> list[Path]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

    pygame.display.init()
    pygame.font.init()
    out.mkdir(parents=True, exist_ok=True)
    painter = Painter()
    paths = []
    for name, view, notice in round_views(config):
        path = out / f"{name}.png"
        pygame.image.save(render_view(view, size, notice, painter), str(path))
        paths.append(path)
    return paths
