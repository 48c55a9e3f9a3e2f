"""Where the button legend sits on the box's screen: one fact with two
readers. The painter draws a box per button here (device/layouts.py); the
enclosure puts each arcade button straight below its own box
(hardware/enclosure/layout.py), so what the screen says a button does is
written above that button, on every screen the box is built for.

Logical 480×320 units, like the rest of the screen's layout (device/style.py
holds the other sizes); `letterbox` says how they land on a real screen and
`centres_mm` where each box's middle is on the glass."""

from __future__ import annotations

LOGICAL = (480, 320)
# Four boxes across the screen's foot: 4 + 4 × 115 + 3 × 4 = 476.
LEGEND_X, LEGEND_Y = 4, 258
LEGEND_H = 60
BOX_W, BOX_GAP = 115, 4


def boxes() -> tuple[tuple[int, int, int, int], ...]:
    """Each button's box (x, y, width, height), left to right in the order
    of wolfbox.buttons.GAME_BUTTONS."""
    return tuple((LEGEND_X + i * (BOX_W + BOX_GAP), LEGEND_Y, BOX_W, LEGEND_H) for i in range(4))


def letterbox(width: int, height: int) -> tuple[float, float, float]:
    """The logical frame on a screen of `width` × `height` pixels: its
    scale, and its offset from the left and the top. It keeps its shape and
    is centred, so a screen wider than 3:2 (800×480) has dark bars at the
    sides and one taller than it (320×240) has height to spare."""
    s = min(width / LOGICAL[0], height / LOGICAL[1])
    return s, (width - LOGICAL[0] * s) / 2, (height - LOGICAL[1] * s) / 2


def centres_mm(pixels: tuple[int, int], visible: tuple[float, float]) -> tuple[float, ...]:
    """Each box's middle, left to right, in mm from the middle of a screen
    of `pixels` whose visible area is `visible` mm: where the enclosure
    puts each button's axis."""
    s, ox, _ = letterbox(*pixels)
    per_px = visible[0] / pixels[0]
    return tuple((ox + (x + w / 2) * s - pixels[0] / 2) * per_px for x, _y, w, _h in boxes())


def foot_mm(pixels: tuple[int, int], visible: tuple[float, float]) -> float:
    """The legend's middle, in mm below the middle of the screen (toward
    the buttons): the legend sits on the screen's lower edge."""
    s, _, oy = letterbox(*pixels)
    drop = int(oy)          # the canvas moves the legend down to the lower edge
    mid = oy + (LEGEND_Y + LEGEND_H / 2) * s + drop
    return (mid - pixels[1] / 2) * visible[1] / pixels[1]
