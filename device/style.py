"""The look of the box's screen: the logical frame, the colours (and how
they read at night, above the veil) and the preferred size of each kind of
text, in logical 480×320 px (render.py says how they are scaled)."""

from __future__ import annotations

import functools

# The legend's place is shared with the enclosure, which sets each button
# below its box: wolfbox/legend.py.
from wolfbox.legend import BOX_GAP as BOX_GAP
from wolfbox.legend import BOX_W as BOX_W
from wolfbox.legend import LEGEND_H as LEGEND_H
from wolfbox.legend import LEGEND_Y as LEGEND_Y
from wolfbox.legend import LOGICAL as LOGICAL

FLOOR_CAP = 16           # logical px: the smallest cap height the table reads
SMALLEST_PX = 6          # below the floor (a text that would not fit), never smaller
CJK_BOLD_PX = 48            # synthetic bold for Chinese only from here up

BG = (14, 20, 34)
BAR_BG = (40, 48, 66)
TEXT = (236, 238, 242)
NOTE = (196, 202, 216)   # the start screen's deck notes, settings notes
MUTED = (150, 158, 176)
ACCENT = (88, 196, 220)
HURRY = (245, 150, 60)
URGENT = (240, 70, 60)   # the timer's last seconds
PAUSED = (250, 210, 80)
LOVER = (236, 120, 170)  # a seat marked in an entry (the Lovers)
NIGHT_DIM = 232          # alpha of the black veil at night (0..255)
NIGHT_CONTRAST = 6.0     # text above the veil: the darkest shade reading at this (AA: 4.5)

Color = tuple[int, int, int]


def luminance(color: Color) -> float:
    """Relative luminance (WCAG 2), 0 for black to 1 for white."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = color
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio, 1 to 21: text reads from 4.5 (AA)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def veiled(color: Color) -> Color:
    """`color` under the night's veil."""
    return (round(color[0] * (255 - NIGHT_DIM) / 255), round(color[1] * (255 - NIGHT_DIM) / 255),
            round(color[2] * (255 - NIGHT_DIM) / 255))


@functools.cache
def night_color(color: Color) -> Color:
    """`color` for text at night, drawn above the veil: the darkest shade of
    it that still reads (NIGHT_CONTRAST over the veiled background), so a
    table without sound can read the calls while the screen stays near black."""
    ground = veiled(BG)
    for step in range(101):
        shade = (round(color[0] * step / 100), round(color[1] * step / 100),
                 round(color[2] * step / 100))
        if contrast(shade, ground) >= NIGHT_CONTRAST:
            return shade
    return color


# Preferred sizes (logical px); each text shrinks from here to the floor.
TITLE_PX = 26
BIG_PX = 80              # the timer: digits 58-61 px tall, as big as before the new font
VALUE_PX = 64            # a setting's value
DECK_PX = 30
NAME_PX = 30             # a setting's name
BODY_PX = 24             # captions, rules
SMALL_PX = 22            # notes, notices, status, footer, legend: the floor itself

# The frame (logical px).
MARGIN = 14
TITLE_BOX = (MARGIN, 4, 480 - 2 * MARGIN, 32)
TOP = 38                 # the content starts below the title bar ...
BOTTOM = 256             # ... and ends above the legend
# The legend (LEGEND_Y, LEGEND_H, BOX_W, BOX_GAP): wolfbox/legend.py.
BAR_H = 8
CAPTION_RESERVE = 3      # lines kept below the bar for a caption, so the timer stays put
SEAT_R = 17              # a seat's disc: "20" at the floor size fits inside
RING_BIG_PX = 44         # the value in the ring's middle (a seat, a role, the clock)

