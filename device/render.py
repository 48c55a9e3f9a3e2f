"""Drawing a View with pygame, readable from across a table.

Layout is in logical 480×320 units and multiplied by the scale of the real
surface, so text is rendered at the screen's own resolution (crisp on an
800×480 panel or a desktop window) instead of being stretched.

Typography: DejaVu Sans, shipped in wolfbox/fonts (pygame's own font has
broken letter spacing at small sizes). Nothing the table reads has a cap
height under FLOOR_CAP logical pixels (DejaVu Sans at 22 px at 480×320).
Every text has an area; it is drawn at its preferred size if it fits
there, else smaller down to the floor, wrapped at word boundaries, and
never cut. The core pages long texts (wolfbox.pages) so that a page always
fits at the floor; a text that still does not is drawn below the floor
rather than cut, and a warning is logged once. Chinese is drawn in runs
from the system's CJK face, everything else from DejaVu (Type). Every
text reads at 4.5:1 or more (WCAG AA) on what it is drawn on; at night
the words are drawn above the veil in the darkest shade that still does.

The painter records every text of its last draw (`Painter.drawn`): what,
at which size, where its ink landed and in which area, for the tests.

The parts, each in a module of its own: style.py (the frame, colours and
sizes), fonts.py (the faces and Type), texts.py (Block, Fit, Drawn),
painter.py (fonts kept, fitting, a draw with or without the join card),
canvas.py (what every layout draws with), joincard.py (the join card, its
plans and its drawing) and layouts.py (each phase's layout, the legend and
the alert). Here: a view drawn on a fresh surface.
"""

from __future__ import annotations

import pygame

from wolfbox.view import View

from .painter import Painter as Painter


def render_view(view: View, size: tuple[int, int], notice: str = "",
                painter: Painter | None = None) -> pygame.Surface:
    """A fresh surface with `view` drawn on it (screenshots, tests)."""
    surface = pygame.Surface(size)
    (painter or Painter()).draw(surface, view, notice)
    return surface
