"""Drawing a View with pygame, readable from across a table.

Layout is in logical 480×320 units and multiplied by the scale of the real
surface, so text is rendered at the screen's own resolution (crisp on an
800×480 panel or a desktop window) instead of being stretched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS
from wolfbox.i18n import _
from wolfbox.view import Phase, View

LOGICAL = (480, 320)

BG = (14, 20, 34)
BAR_BG = (40, 48, 66)
TEXT = (236, 238, 242)
MUTED = (150, 158, 176)
ACCENT = (88, 196, 220)
HURRY = (245, 150, 60)
URGENT = (240, 70, 60)   # the timer's last seconds
PAUSED = (250, 210, 80)
NIGHT_DIM = 232          # alpha of the black veil at night (0..255)


@dataclass
class Painter:
    """Draws views onto a surface of any size; keeps fonts per pixel size."""
    font_path: str | None = None
    _fonts: dict[int, pygame.font.Font] = field(default_factory=dict)

    def font(self, size: int) -> pygame.font.Font:
        f = self._fonts.get(size)
        if f is None:
            f = pygame.font.Font(self.font_path, max(6, size))
            self._fonts[size] = f
        return f

    def draw(self, surface: pygame.Surface, view: View, notice: str = "") -> None:
        w, h = surface.get_size()
        s = min(w / LOGICAL[0], h / LOGICAL[1])
        ox, oy = (w - LOGICAL[0] * s) / 2, (h - LOGICAL[1] * s) / 2
        surface.fill((0, 0, 0))
        pygame.draw.rect(surface, BG, (ox, oy, LOGICAL[0] * s, LOGICAL[1] * s))

        def at(x: float, y: float) -> tuple[int, int]:
            return int(ox + x * s), int(oy + y * s)

        def text(msg: str, size: int, color: tuple[int, int, int], x: float, y: float,
                 anchor: str = "topleft") -> pygame.Rect:
            img = self.font(int(size * s)).render(msg, True, color)
            rect = img.get_rect(**{anchor: at(x, y)})
            surface.blit(img, rect)
            return rect

        caption_fits = True

        # Title bar
        text(view.title, 26, TEXT, 14, 10)

        # Big figure and progress bar
        if view.big:
            size = 118 if len(view.big) <= 4 else 96
            color = PAUSED if view.paused else URGENT if view.urgent else TEXT
            text(view.big, size, color, 240, 112, "center")
        if view.progress is not None:
            x0, y0, bw, bh = 40, 182, 400, 10
            pygame.draw.rect(surface, BAR_BG, (*at(x0, y0), bw * s, bh * s),
                             border_radius=int(5 * s))
            fill = max(0.0, min(1.0, view.progress))
            color = HURRY if view.phase is Phase.DISCUSSION and fill <= 0.2 else ACCENT
            if fill > 0:
                pygame.draw.rect(surface, color, (*at(x0, y0), bw * s * fill, bh * s),
                                 border_radius=int(5 * s))

        # Details: the deck on the start screen, the rules on the reveal
        if view.details:
            if view.phase is Phase.IDLE:
                text(view.details[0], 38, TEXT, 240, 66, "center")
                y = 88.0
                if len(view.details) > 1:
                    text(view.details[1], 20, ACCENT, 240, y, "midtop")
                    y += 25
                for item in view.details[2:]:
                    for line in self.wrap(item, int(16 * s), 440 * s):
                        text(line, 16, MUTED, 240, y, "midtop")
                        y += 18
                    y += 2
                if notice:
                    for line in self.wrap(notice, int(16 * s), 440 * s)[:2]:
                        text(line, 16, HURRY, 240, y + 2, "midtop")
                        y += 19
                if view.status:
                    text(view.status, 16, MUTED, 240, 218, "midtop")
                text(_("Press START to begin"), 22, ACCENT, 240, 244, "center")
            else:
                caption_fits = self._rules(view, s, text)

        # Caption of the line being spoken
        if view.paused:
            text(_("PAUSED"), 22, PAUSED, 466, 12, "topright")
            text(_("Paused: press START to resume"), 21, PAUSED, 240, 204, "midtop")
        elif view.caption and (view.phase is not Phase.REVEAL or caption_fits):
            y = 204.0 if view.phase is not Phase.REVEAL else 220.0
            for line in self.wrap(view.caption, int(19 * s), 450 * s)[:3]:
                text(line, 19, TEXT, 240, y, "midtop")
                y += 21

        self._legend(surface, view, s, at)

        if view.dim:
            veil = pygame.Surface((w, h), pygame.SRCALPHA)
            veil.fill((0, 0, 0, NIGHT_DIM))
            surface.blit(veil, (0, 0))
        if view.alert:                          # above the night's veil: it is about the box
            lines = self.wrap(view.alert, int(19 * s), 440 * s)
            box_h = 14 + 22 * len(lines)
            pygame.draw.rect(surface, BG, (*at(16, 100), 448 * s, box_h * s),
                             border_radius=int(8 * s))
            pygame.draw.rect(surface, PAUSED, (*at(16, 100), 448 * s, box_h * s),
                             width=max(1, int(2 * s)), border_radius=int(8 * s))
            y = 107.0
            for line in lines:
                text(line, 19, PAUSED, 240, y, "midtop")
                y += 22

    def _rules(self, view: View, s: float, text) -> bool:
        """The reveal's list of rules, as large as fits; False if the caption
        had to give up its place for them."""
        for size, bottom in ((18, 212), (16, 212), (15, 260), (13, 260)):
            wrapped = [self.wrap(item, int(size * s), 440 * s) for item in view.details]
            height = sum(len(w) for w in wrapped) * (size + 3) + 3 * len(wrapped)
            if 48 + height <= bottom:
                break
        y = 48.0
        for lines in wrapped:
            for line in lines:
                text(line, size, TEXT, 20, y)
                y += size + 3
            y += 3
        return bottom == 212

    def _legend(self, surface: pygame.Surface, view: View, s: float,
                at: Callable[[float, float], tuple[int, int]]) -> None:
        labels = dict(view.legend)
        box_w, gap, y0, box_h = 114, 4, 266, 48
        for i, button in enumerate(GAME_BUTTONS):
            x0 = 6 + i * (box_w + gap)
            color = BUTTON_COLORS[button]
            label = labels.get(button, "")
            rect = pygame.Rect(*at(x0, y0), int(box_w * s), int(box_h * s))
            border = color if label else BAR_BG
            pygame.draw.rect(surface, BG, rect, border_radius=int(8 * s))
            pygame.draw.rect(surface, border, rect, width=max(1, int(2 * s)),
                             border_radius=int(8 * s))
            pygame.draw.circle(surface, color if label else BAR_BG,
                               at(x0 + 14, y0 + 16), int(7 * s))
            name = self.font(int(12 * s)).render(button.value.upper(), True,
                                                 MUTED if label else BAR_BG)
            surface.blit(name, name.get_rect(midleft=at(x0 + 26, y0 + 16)))
            if label:
                img = self.font(int(17 * s)).render(label, True, TEXT)
                if img.get_width() > (box_w - 10) * s:
                    img = self.font(int(14 * s)).render(label, True, TEXT)
                surface.blit(img, img.get_rect(midtop=at(x0 + box_w / 2, y0 + 27)))

    def wrap(self, message: str, px: int, width: float) -> list[str]:
        """Greedy word wrap for the font of `px` pixels within `width` pixels."""
        font = self.font(px)
        out: list[str] = []
        line = ""
        for word in message.split():
            trial = f"{line} {word}".strip()
            if not line or font.size(trial)[0] <= width:
                line = trial
            else:
                out.append(line)
                line = word
        if line:
            out.append(line)
        return out


def render_view(view: View, size: tuple[int, int], notice: str = "",
                painter: Painter | None = None) -> pygame.Surface:
    """A fresh surface with `view` drawn on it (screenshots, tests)."""
    surface = pygame.Surface(size)
    (painter or Painter()).draw(surface, view, notice)
    return surface
