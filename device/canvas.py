"""One draw of a view: the surface and its scale, and what every layout
draws with (a fitted text in its area, the title, the footer, the setup
screens' notices, the progress bar, the big figure)."""

from __future__ import annotations

import math
from typing import Protocol

import pygame

from wolfbox.i18n import _
from wolfbox.legend import letterbox
from wolfbox.view import Phase, View

from .cardplan import CardPlan
from .fonts import Face, Type, is_wide_text
from .style import (
    ACCENT,
    BAR_BG,
    BAR_H,
    BIG_PX,
    BOTTOM,
    HURRY,
    MARGIN,
    MUTED,
    PAUSED,
    SMALL_PX,
    SMALLEST_PX,
    TEXT,
    TITLE_BOX,
    TITLE_PX,
    TOP,
    URGENT,
    Color,
    night_color,
)
from .texts import Block, Drawn, Fit


class Painting(Protocol):
    """What a draw asks of its painter (device.painter.Painter): fonts, the
    fitting of texts and the record of what was drawn. Said here, so the
    canvas and the layouts never import the painter that imports them."""
    drawn: list[Drawn]
    qr: tuple[pygame.Rect, int] | None

    def font(self, px: int, face: Face = Face.SANS) -> Type: ...

    def floor_px(self, s: float, face: Face = Face.SANS) -> int: ...

    def fit(self, block: Block, s: float, width: int, height: int,
            px: int | None = None, floor: bool = True, apart: bool = True) -> Fit | None: ...

    def fit_or_shrink(self, block: Block, s: float, width: int, height: int,
                      px: int | None = None) -> Fit: ...

    def warn(self, text: str) -> None: ...


class Canvas:
    """One draw of a view: the surface, its scale, and what every layout draws with."""

    def __init__(self, painter: Painting, surface: pygame.Surface, view: View,
                 notice: str, plan: CardPlan | None = None) -> None:
        self.p, self.surface, self.view, self.notice = painter, surface, view, notice
        w, h = surface.get_size()
        self.s, self.ox, self.oy = letterbox(w, h)   # shared with the enclosure
        self.layer = 0
        # A screen taller than 3:2 (320×240) has height to spare: the legend
        # sits on its lower edge and the middle takes the room between.
        self.drop = math.floor(self.oy)
        # The middle's lower edge: above the legend, and above the footer
        # once footer() has drawn it.
        self.bottom = self.y(BOTTOM) + self.drop
        # The middle's columns: the whole width, or what a join card leaves.
        self.full_left = self.rect(MARGIN, 0, 0, 0).left
        self.full_width = self.px(480 - 2 * MARGIN)
        self.left, self.width = self.full_left, self.full_width
        self.plan = plan                # None: no card (Layout chooses)
        self.title_cut = 0              # px the title's row keeps at its right (a card's hint)
        self.above_veil: list[tuple[pygame.Surface, tuple[int, int]]] = []
        painter.drawn = []
        painter.qr = None

    # ----------------------------------------------------------------- units
    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A logical rectangle on the surface (edges rounded, so neighbours meet)."""
        left, top = round(self.ox + x * self.s), round(self.oy + y * self.s)
        return pygame.Rect(left, top, round(self.ox + (x + w) * self.s) - left,
                           round(self.oy + (y + h) * self.s) - top)

    def y(self, logical: float) -> int:
        return round(self.oy + logical * self.s)

    def px(self, logical: float) -> int:
        return max(1, round(logical * self.s))

    def floor_linesize(self, face: Face = Face.SANS, wide: bool = False) -> int:
        """A line's height at the floor (`wide`: of a text with Chinese in it)."""
        return self.p.font(self.p.floor_px(self.s, face), face).step(wide)

    # --------------------------------------------------------------- drawing
    def text(self, fit: Fit, area: pygame.Rect, color: Color, align: str = "center",
             valign: str = "top") -> None:
        """Draw a fitted block in its area, line by line, recording each line."""
        font = self.p.font(fit.px, fit.face)
        step = font.step(is_wide_text([line for p in fit.paragraphs for line in p]))
        gap = (area.height - fit.height) if valign == "bottom" else \
            (area.height - fit.height) // 2 if valign == "center" else 0
        gaps = max(0, len(fit.paragraphs) - 1)
        para_gap = 0
        if gaps:
            bare = sum(len(p) for p in fit.paragraphs) * step
            para_gap = (fit.height - bare) // gaps
        y = area.top + max(0, gap)
        for para in fit.paragraphs:
            for line in para:
                img = font.render(line, self.shade(color))
                r = img.get_rect(top=y)
                if align == "left":
                    r.left = area.left
                elif align == "right":
                    r.right = area.right
                else:
                    r.centerx = area.centerx
                self.put(img, r.topleft)
                ink = img.get_bounding_rect().move(r.topleft)
                if ink.width and ink.height:
                    self.p.drawn.append(Drawn(line, fit.px, fit.face, ink, area.copy(),
                                              self.layer))
                y += step
            y += para_gap

    def shade(self, color: Color) -> Color:
        """A text's colour: at night the darkest that still reads (night_color)."""
        return night_color(color) if self.view.dim and not self.layer else color

    def put(self, img: pygame.Surface, pos: tuple[int, int]) -> None:
        """Blit a text; at night above the veil, which darkens the rest."""
        if self.view.dim and not self.layer:
            self.above_veil.append((img, pos))
        else:
            self.surface.blit(img, pos)

    def block(self, block: Block, area: pygame.Rect, valign: str = "top") -> Fit:
        fit = self.p.fit_or_shrink(block, self.s, area.width, area.height)
        self.text(fit, area, block.color, block.align, valign)
        return fit

    def title(self) -> None:
        view = self.view
        area = self.rect(*TITLE_BOX)
        if self.plan is None or not self.plan.under_title:
            area.width = min(area.width, self.left + self.width - area.left)   # beside a card
        area.width -= self.title_cut
        if view.paused:
            word = Block((_("PAUSED"),), SMALL_PX, PAUSED, (Face.BOLD, Face.CONDENSED),
                         "right", 1)
            fit = self.p.fit_or_shrink(word, self.s, area.width // 3, area.height)
            width = max(self.p.font(fit.px, fit.face).size(line)[0]
                        for p in fit.paragraphs for line in p)
            self.text(fit, pygame.Rect(area.right - width, area.top, width, area.height),
                      PAUSED, "right", "center")
            area.width -= width + self.px(12)
        if view.title:
            self.block(Block((view.title,), TITLE_PX, TEXT, (Face.BOLD, Face.CONDENSED),
                             "left", 1), area, "center")

    def footer(self) -> None:
        """The footer (what the holds do) at the foot of the middle, above the
        legend, in every layout but the start screen's (which stacks it with
        its notices): the rest of the layout keeps above it (self.bottom)."""
        top, bottom = self.y(TOP), self.bottom
        left, width = self.left, self.width
        block = Block((self.view.footer,), SMALL_PX, ACCENT)
        fit = self.p.fit_or_shrink(block, self.s, width, (bottom - top) // 2)
        area = pygame.Rect(left, bottom - fit.height, width, fit.height)
        self.text(fit, area, block.color, block.align)
        self.bottom = area.top - self.px(4)

    def setup_notices(self) -> None:
        """A setup screen's notices and the box's status (what the start
        screen stacks with its deck), above its footer: a box that boots
        into the timed or the Mayor's game says what is wrong there too. The
        setting above keeps what is left (self.bottom)."""
        notices = tuple(n.strip() for n in self.notice.split(";") if n.strip())
        blocks = [b for b in (Block(("; ".join(notices),) if notices else (), SMALL_PX, HURRY),
                              Block((self.view.status,) if self.view.status else (),
                                    SMALL_PX, MUTED)) if b.paragraphs]
        top = self.y(TOP)
        for block in reversed(blocks):
            fit = self.p.fit_or_shrink(block, self.s, self.width, (self.bottom - top) // 3)
            area = pygame.Rect(self.left, self.bottom - fit.height, self.width, fit.height)
            self.text(fit, area, block.color, block.align)
            self.bottom = area.top - self.px(4)

    def bar(self, top: int) -> pygame.Rect:
        """The progress bar with its top at `top`; returns its rectangle."""
        view = self.view
        r = self.rect(40, 0, 400, BAR_H)
        r.width = min(r.width, self.width - 2 * self.px(26))     # beside a join card: narrower
        r.left, r.top = self.left + (self.width - r.width) // 2, top
        if view.progress is None:
            return r
        radius = r.height // 2
        pygame.draw.rect(self.surface, BAR_BG, r, border_radius=radius)
        fill = max(0.0, min(1.0, view.progress))
        color = HURRY if view.phase is Phase.DISCUSSION and fill <= 0.2 else ACCENT
        if fill > 0:
            pygame.draw.rect(self.surface, color, (r.left, r.top, round(r.width * fill),
                                                   r.height), border_radius=radius)
        return r

    def big(self, area: pygame.Rect, pref: float = BIG_PX) -> None:
        """The timer or a setting's value, as large as fits (by its ink)."""
        view = self.view
        color = PAUSED if view.paused else URGENT if view.urgent else TEXT
        face = Face.BOLD
        top = self.px(pref)
        low = self.p.floor_px(self.s, face)
        size = top
        while True:
            img = self.p.font(size, face).render(view.big, self.shade(color))
            ink = img.get_bounding_rect()
            if ink.width <= area.width and ink.height <= area.height or size <= SMALLEST_PX:
                break
            # Ink grows in proportion to the size: jump close, then step.
            ratio = min(area.width / max(1, ink.width), area.height / max(1, ink.height))
            smaller = max(SMALLEST_PX, min(size - 1, math.floor(size * ratio)))
            if smaller < low and size <= low:     # the floor itself did not fit
                self.p.warn(view.big)
            size = smaller if smaller >= low or size <= low else low
        pos = (area.centerx - ink.centerx, area.centery - ink.centery)
        self.put(img, pos)
        self.p.drawn.append(Drawn(view.big, size, face, ink.move(pos), area.copy(), self.layer))
