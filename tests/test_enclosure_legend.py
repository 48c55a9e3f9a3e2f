"""The box's geometry and the game's screen agree (issue 43, item 5): each
box of the button legend, as the real painter draws it at the screen's own
resolution, sits straight above the arcade button it names.

The legend is found in the drawn pixels (each box is outlined in its
button's colour), its centre turned into millimetres through the screen's
visible area as its maker draws it, and set against the button's axis in
the enclosure's plan. The rule: the box's centre lies within 1 mm of the
button's axis, left to right, which puts it well inside the cap the
finger presses (24 mm on a 30 mm button, 18 mm on a 24 mm one). Needs no
CAD kernel: the plan is arithmetic, the screen is pygame."""

from __future__ import annotations

import dataclasses

import pytest

from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS
from wolfbox.config import Config
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import round_views
from wolfbox.hardware.enclosure.layout import (
    BUTTON_ORDER,
    Layout,
    LegendTooNarrow,
    plan,
)
from wolfbox.hardware.enclosure.parts import ARCADE30, CONFIGS
from wolfbox.i18n import speaking

# From the makers' drawings: the screen's pixels and active area (mm), the
# arcade button's cap (the plunger under the finger, mm).
DRAWINGS = {
    "pi4-35-30": dict(pixels=(480, 320), area=(73.44, 48.96), cap=24.0),
    "zero2w-5-24": dict(pixels=(800, 480), area=(108.0, 64.8), cap=18.0),
}
REQUIRED = sorted(DRAWINGS)
ALIGNED_MM = 1.0


def start_screen(pixels: tuple[int, int], lang: str = "en"):
    """The start screen as `wolfbox screenshot` draws it (1-start.png), at
    the screen's own resolution: every button has a label there."""
    import pygame
    pygame.font.init()
    with speaking(lang):
        name, view, notice = next(iter(round_views(Config())))
        assert name == "1-start"
        return render_view(view, pixels, notice, Painter())


def legend_in_pixels(surface) -> list[tuple[float, float]]:
    """Each legend box's centre (x, y) in pixels, left to right in the
    order of GAME_BUTTONS: the middle of the pixels in the lower third of
    the screen drawn in exactly that button's colour (its outline)."""
    import numpy as np
    import pygame
    rgb = pygame.surfarray.array3d(surface)          # (x, y, 3)
    w, h = surface.get_size()
    centres = []
    for button in GAME_BUTTONS:
        hit = np.all(rgb == np.array(BUTTON_COLORS[button]), axis=2)
        hit[:, : 2 * h // 3] = False
        xs, ys = np.nonzero(hit)
        assert len(xs) > 20, f"no legend box for {button.name} on the screen"
        centres.append(((xs.min() + xs.max() + 1) / 2, (ys.min() + ys.max() + 1) / 2))
    return centres


def to_box(lay: Layout, area: tuple[float, float], pixels: tuple[int, int],
           px: tuple[float, float]) -> tuple[float, float]:
    """A point of the screen (pixels, y down) in the box's frame (mm): the
    visible area fills the window, its top row at the back."""
    x0, x1, y0, y1 = lay.visible()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx + (px[0] - pixels[0] / 2) * area[0] / pixels[0],
            cy - (px[1] - pixels[1] / 2) * area[1] / pixels[1])


def misaligned(lay: Layout, legend_mm: list[tuple[float, float]], cap: float) -> list[str]:
    """Where a legend box is not straight above its button."""
    faults = []
    x0, x1, y0, y1 = lay.visible()
    for name, (bx, by), (lx, ly) in zip(BUTTON_ORDER, lay.buttons, legend_mm, strict=True):
        off = lx - bx
        if abs(off) > ALIGNED_MM:
            where = "outside" if abs(off) > cap / 2 else "inside"
            faults.append(f"{name}: the legend's box is {off:+.1f} mm from the button's axis "
                          f"({where} its {cap:.0f} mm cap)")
        if not by < y0 <= ly <= y0 + (y1 - y0) / 4:
            faults.append(f"{name}: the legend is not on the screen's edge toward the button")
    return faults


@pytest.mark.parametrize("name", REQUIRED)
def test_each_legend_box_is_straight_above_its_button(name):
    d = DRAWINGS[name]
    lay = plan(CONFIGS[name])
    assert lay.config.screen.pixels == d["pixels"]        # the resolution the box is set for
    surface = start_screen(d["pixels"])
    legend = [to_box(lay, d["area"], d["pixels"], c) for c in legend_in_pixels(surface)]
    assert misaligned(lay, legend, d["cap"]) == []


@pytest.mark.parametrize("name", REQUIRED)
def test_the_check_catches_buttons_in_one_row_at_their_own_pitch(name):
    """The box as it was first drawn: four buttons in a row, 42 mm (30 mm
    buttons) or 36 mm apart, centred under the screen: only the order agrees."""
    d = DRAWINGS[name]
    lay = plan(CONFIGS[name])
    pitch = lay.config.button.nut + lay.config.box.margin
    y = lay.buttons[0][1]
    row = dataclasses.replace(lay, buttons=tuple(((i - 1.5) * pitch, y) for i in range(4)))
    legend = [to_box(row, d["area"], d["pixels"], c)
              for c in legend_in_pixels(start_screen(d["pixels"]))]
    faults = misaligned(row, legend, d["cap"])
    assert any(f.startswith("START") and "outside" in f for f in faults), faults
    assert any(f.startswith("BACK") and "outside" in f for f in faults), faults
    # The legend on the wrong edge of the screen (the screen turned round).
    x0, x1, y0, y1 = lay.visible()
    flipped = [(x, y0 + y1 - y) for x, y in legend]
    assert any("edge" in f for f in misaligned(lay, flipped, d["cap"]))


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_legend_stays_put_in_every_language(lang):
    """The boxes are where the buttons are whatever they say."""
    d = DRAWINGS["pi4-35-30"]
    assert legend_in_pixels(start_screen(d["pixels"], lang)) == \
        legend_in_pixels(start_screen(d["pixels"]))


def test_buttons_stand_in_two_rows_clear_of_each_other():
    """The legend's boxes are closer than arcade buttons can be: the
    buttons alternate between two rows, each row's pair as far apart as
    every other box, neighbours in the other row clear of each other's nuts."""
    for name in REQUIRED:
        lay = plan(CONFIGS[name])
        nut = lay.config.button.nut
        ys = [y for _, y in lay.buttons]
        assert ys[0] == ys[2] < ys[1] == ys[3], name
        for i, (ax, ay) in enumerate(lay.buttons):
            for bx, by in lay.buttons[i + 1:]:
                assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 >= nut, name


def test_a_screen_too_narrow_for_the_buttons_is_refused_in_a_line():
    big = dataclasses.replace(ARCADE30, nut=40.0)
    config = dataclasses.replace(CONFIGS["pi4-35-30"], button=big)
    with pytest.raises(LegendTooNarrow) as e:
        plan(config)
    said = str(e.value)
    assert "\n" not in said and "36.4 mm apart" in said and "40 mm nuts" in said


def picture_faults(path) -> list[str]:
    """Where a render (azimuth 0: the picture's x is the box's x) does not
    show a legend box straight above its button. The screen is laid on
    unshaded, so its outlines keep the buttons' exact colours; the bezels'
    top faces are lit, so theirs are a shade darker, and stand lower."""
    import numpy as np
    import pygame
    img = pygame.surfarray.array3d(pygame.image.load(str(path))).astype(int)   # (x, y, 3)
    boxes, bezels = [], []
    for button in GAME_BUTTONS:
        col = np.array(BUTTON_COLORS[button])
        exact = np.all(img == col, axis=2)
        xs, ys = np.nonzero(exact)
        if len(xs) <= 20:
            return [f"no legend box for {button.name} on the screen"]
        boxes.append(((xs.min() + xs.max() + 1) / 2, ys.mean()))
        ratio = img / np.maximum(col, 1)
        lit = np.all(np.abs(ratio - ratio[..., :1]) < 0.03, axis=2) & \
            (ratio[..., 0] > 0.6) & (ratio[..., 0] < 0.98) & ~exact
        lit[:, : int(ys.max()) + 1] = False                 # below the screen only
        bx, by = np.nonzero(lit)
        if len(bx) <= 200:
            return [f"no {button.name} button below the screen"]
        bezels.append(((bx.min() + bx.max() + 1) / 2, by.mean()))
    span = bezels[-1][0] - bezels[0][0]
    faults = []
    for button, (lx, ly), (bx, by) in zip(GAME_BUTTONS, boxes, bezels, strict=True):
        if abs(lx - bx) > 0.02 * span or by <= ly:
            faults.append(f"{button.name}: box at x {lx:.0f} px, button at x {bx:.0f} px")
    return faults


@pytest.mark.parametrize("name", REQUIRED)
def test_the_pictures_show_each_box_above_its_button(name):
    """The renders in docs/enclosure (`make enclosure`) double as a check:
    seen from the front, each box of the legend on the pictured screen has
    its button straight below it (checked once on a render of the first
    box, four buttons in one row, which it fails)."""
    from pathlib import Path
    path = Path(__file__).parent.parent / "docs" / "enclosure" / f"{name}-legend.png"
    assert picture_faults(path) == []
