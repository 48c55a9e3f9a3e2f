"""The table seen from above on the box's screen (wolfbox.tablemap): each
seat a box with its player's name (and its card) round the edge of the
middle, seat 1 at the bottom facing the screen and the others clockwise
(on to the left, as the seat ring), the center cards in the middle, the
arrows under them all, each move's number in a disc on its arrow, and a
key of what the colours mean at the foot.

Every text is set at the largest size from a little above the floor down
to it at which the whole picture fits; a picture that does not fit even
at the floor (a big table's longest names and cards on the smallest
screen) is set smaller, with one warning, and never cut.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import pygame

from wolfbox.tablemap import (
    BLOCK,
    COPY,
    DIED,
    JAIL,
    KILL,
    LOOK,
    PROTECT,
    REVEAL,
    SHIELD,
    SHIFT,
    SWAP,
    TAKE,
    TOKEN,
    VOTE,
    Arrow,
    MapPage,
    Spot,
)

from .canvas import Canvas
from .fonts import Face, is_wide_text
from .style import BAR_BG, BG, MUTED, TEXT, TOP, Color
from .texts import Fit

COLORS: dict[str, Color] = {
    LOOK: (88, 196, 220),
    COPY: (190, 150, 245),
    SWAP: (245, 150, 60),
    TAKE: (250, 210, 80),
    SHIELD: (110, 205, 120),
    TOKEN: (215, 175, 120),
    REVEAL: (236, 238, 242),
    SHIFT: (160, 200, 170),
    VOTE: (240, 90, 80),
    DIED: (240, 90, 80),
    KILL: (240, 90, 80),
    PROTECT: (110, 205, 120),
    BLOCK: (245, 150, 60),
    JAIL: (215, 175, 120),
}
DASHED = frozenset({LOOK, COPY, REVEAL})        # seen, not moved
BOTH_WAYS = frozenset({SWAP})
DEAD_FILL = (92, 28, 32)
PAD, GAP = 3, 3          # logical px: inside a box, between boxes
BADGE_R = 13             # logical px: a move's number in its disc
LIFT = (3, 1, 0)         # px above the floor tried, largest first
UNDER = (2, 4, 6, 8)     # px below it, if the floor does not fit
# How far an arrow's middle may be bent off the straight line, as shares of
# its length, tried in turn until it passes clear of the boxes between.
BENDS = (0.0, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5, 0.8, -0.8, 1.2, -1.2)
MIN_ARROW = 40           # logical px: an arrow shorter than this is bent out to be seen


@dataclass
class _Plan:
    """Where everything goes at one size."""
    name_px: int
    card_px: int
    boxes: dict[int, pygame.Rect]
    key_rows: list[list[tuple[str, str, int]]]     # (kind, words, width) a row
    key_top: int
    field: pygame.Rect                             # where the seats and arrows go


class TableMapDrawing(Canvas):
    """The picture part of a Layout (layouts.py draws the title and legend)."""

    def table_map(self) -> None:
        page = self.view.picture
        assert page is not None
        area = pygame.Rect(self.left, self.y(TOP) + self.px(4), self.width,
                           self.bottom - self.y(TOP) - self.px(4))
        floor_name, floor_card = self.p.floor_px(self.s, Face.BOLD), \
            self.p.floor_px(self.s, Face.CONDENSED)
        n = len(page.seats)
        # The table keeps its shape from one picture to the next (each seat
        # where it was): smaller text before another shape.
        shapes = [SHAPES.get(n) or _forced(n)]
        plan = None
        for lift in LIFT:
            plan = self._plan(page, area, floor_name + self.px(lift),
                              floor_card + self.px(lift), shapes)
            if plan is not None:
                break
        if plan is None:
            self.p.warn(" / ".join(s.name for s in page.seats))
            for under in UNDER:
                plan = self._plan(page, area, floor_name - self.px(under),
                                  floor_card - self.px(under), shapes)
                if plan is not None:
                    break
        if plan is None:
            plan = self._plan(page, area, floor_name - self.px(UNDER[-1]),
                              floor_card - self.px(UNDER[-1]), _splits(n), force=True)
        assert plan is not None
        self._draw(page, plan)

    # ----------------------------------------------------------------- plan
    def _lines(self, spot: Spot, center: bool) -> list[tuple[str, Face, Color]]:
        if center:
            return [(spot.label or spot.name, Face.CONDENSED, TEXT)]
        lines = [(spot.name, Face.BOLD, TEXT)]
        if spot.card:
            lines.append((spot.card, Face.CONDENSED, TEXT))
        return lines

    def _size(self, spot: Spot, center: bool, name_px: int, card_px: int) -> tuple[int, int]:
        w = h = 0
        for text, face, _c in self._lines(spot, center):
            font = self.p.font(name_px if face is Face.BOLD else card_px, face)
            w = max(w, font.size(text)[0])
            h += font.step(is_wide_text((text,)))
        return w + 2 * self.px(PAD), h + 2 * self.px(PAD)

    def _plan(self, page: MapPage, area: pygame.Rect, name_px: int, card_px: int,
              shapes: list[tuple[int, int, int, int]], force: bool = False) -> _Plan | None:
        gap = self.px(GAP)
        rows, key_h = self._key_rows(page, area.width, card_px)
        if rows is None:
            return None
        field = pygame.Rect(area.left, area.top, area.width, area.height - key_h)
        sizes = [self._size(s, False, name_px, card_px) for s in page.seats]
        w = max(x for x, _y in sizes)
        h = max(y for _x, y in sizes)
        centers = [self._size(c, True, name_px, card_px) for c in page.centers]
        n = len(page.seats)
        best: dict[int, pygame.Rect] | None = None
        for left, top, bottom, right in shapes:
            boxes = self._slots(field, w, h, gap, left, top, bottom, right)
            if boxes is None:
                continue
            middle = self._middle(field, boxes, centers, gap)
            if middle is None:
                continue
            boxes.update({c.place: r for c, r in zip(page.centers, middle, strict=True)})
            best = boxes
            for spot, (x, y) in zip(page.seats, sizes, strict=True):    # each its own size
                slot = best[spot.place]
                box = pygame.Rect(0, 0, x, y)
                box.midtop = slot.midtop
                if slot.left == field.left:                   # the sides keep to the edges
                    box.left = slot.left
                elif slot.right == field.right:
                    box.right = slot.right
                best[spot.place] = box
            break
        if best is None and force:        # the smallest size: as it comes, never off the screen
            best = self._slots(field, w, h, 0, *_forced(n), clamp=True) or {}
            best.update({c.place: pygame.Rect(field.centerx - x // 2, field.centery - y // 2
                                              + (i - 1) * y, x, y)
                         for i, (c, (x, y)) in enumerate(zip(page.centers, centers,
                                                             strict=True))})
        if best is None:
            return None
        return _Plan(name_px, card_px, best, rows, area.bottom - key_h + self.px(2), field)

    def _slots(self, field: pygame.Rect, w: int, h: int, gap: int, left: int, top: int,
               bottom: int, right: int, clamp: bool = False) -> dict[int, pygame.Rect] | None:
        """The seats' boxes: `bottom` along the foot, seat 1 in its middle,
        then clockwise (leftwards along the foot, up the left side, along
        the top, down the right); None if they do not fit."""
        row = max(top, bottom)
        if not clamp and (row * w + (row - 1) * gap > field.width
                          or 2 * h + 2 * gap > field.height):
            return None
        band_top, band_bottom = field.top + h + gap, field.bottom - h - gap
        column = max(left, right)
        if not clamp and column and column * h + (column - 1) * gap > band_bottom - band_top:
            return None
        w = min(w, field.width)

        def along(count: int, start: int, length: int, size: int) -> list[int]:
            """`count` starts of boxes of `size`, spread evenly over `length`."""
            if count <= 0:
                return []
            slot = length / count
            return [round(start + slot * (k + 0.5) - size / 2) for k in range(count)]

        foot = along(bottom, field.left, field.width, w)      # left to right
        head = along(top, field.left, field.width, w)
        lefts = along(left, band_top, band_bottom - band_top, h)
        rights = along(right, band_top, band_bottom - band_top, h)
        slots: list[tuple[int, int]] = []
        middle = bottom // 2                  # seat 1 at the middle of the foot
        slots += [(x, field.bottom - h) for x in reversed(foot[:middle + 1])]
        slots += [(field.left, y) for y in reversed(lefts)]
        slots += [(x, field.top) for x in head]
        slots += [(field.right - w, y) for y in rights]
        slots += [(x, field.bottom - h) for x in reversed(foot[middle + 1:])]
        return {seat: pygame.Rect(x, y, w, h) for seat, (x, y) in enumerate(slots, 1)}

    def _middle(self, field: pygame.Rect, boxes: dict[int, pygame.Rect],
                centers: list[tuple[int, int]], gap: int) -> list[pygame.Rect] | None:
        """The center cards in a row (else a column) in the middle, clear of
        every seat; None if there is no room."""
        if not centers:
            return []
        taken = list(boxes.values())
        cx, cy = field.center
        rw = sum(x for x, _y in centers) + gap * (len(centers) - 1)
        rh = max(y for _x, y in centers)
        ch = sum(y for _x, y in centers) + gap * (len(centers) - 1)
        cw = max(x for x, _y in centers)
        layouts = []
        x = cx - rw // 2
        row = []
        for cw_, chh in centers:
            row.append(pygame.Rect(x, cy - rh // 2, cw_, chh))
            x += cw_ + gap
        layouts.append(row)
        y = cy - ch // 2
        column = []
        for cw_, chh in centers:
            column.append(pygame.Rect(cx - cw // 2, y, cw_, chh))
            y += chh + gap
        layouts.append(column)
        for shape in layouts:
            for dy in (0, -1, 1, -2, 2, -3, 3):
                moved = [r.move(0, dy * gap) for r in shape]
                if all(field.contains(r) and r.inflate(gap, gap).collidelist(taken) < 0
                       for r in moved):
                    return moved
        return None

    def _key_rows(self, page: MapPage, width: int,
                  px: int) -> tuple[list[list[tuple[str, str, int]]] | None, int]:
        """The key's items in rows across `width` (two at most) and their height."""
        if not page.legend:
            return [], 0
        font = self.p.font(px, Face.CONDENSED)
        sample, space = self.px(22), self.px(14)
        rows: list[list[tuple[str, str, int]]] = [[]]
        used = 0
        for kind, words in page.legend:
            item = sample + self.px(4) + font.size(words)[0]
            if rows[-1] and used + space + item > width:
                rows.append([])
                used = 0
            if item > width:
                return None, 0
            used += (space if rows[-1] else 0) + item
            rows[-1].append((kind, words, item))
        if len(rows) > 2:
            return None, 0
        step = font.step(is_wide_text([w for _k, w in page.legend]))
        return rows, len(rows) * step + self.px(2)

    # ----------------------------------------------------------------- draw
    def _draw(self, page: MapPage, plan: _Plan) -> None:
        boxes = plan.boxes
        width = max(2, self.px(3))
        pairs: dict[frozenset[int], int] = {}
        badges: list[tuple[Arrow, _Curve]] = []
        for arrow in page.arrows:
            if arrow.source not in boxes or arrow.target not in boxes:
                continue
            pair = frozenset((arrow.source, arrow.target))
            k = pairs.get(pair, 0)
            pairs[pair] = k + 1
            curve = self._curve(boxes[arrow.source], boxes[arrow.target], k,
                                list(boxes.values()), plan.field)
            self._arrow(arrow.kind, curve, width)
            if arrow.number and (not badges or badges[-1][0].number != arrow.number):
                badges.append((arrow, curve))
        for spot in (*page.seats, *page.centers):
            if spot.place in boxes:
                self._box(spot, boxes[spot.place], spot in page.centers, plan)
        placed: list[pygame.Rect] = []
        for arrow, curve in badges:
            self._badge(arrow, curve, list(boxes.values()) + placed, placed, plan)
        self._key(page, plan)

    def _curve(self, a: pygame.Rect, b: pygame.Rect, k: int,
               boxes: list[pygame.Rect], field: pygame.Rect) -> _Curve:
        """From edge to edge of two boxes, bent (to one side or the other,
        the least that will do) round the boxes in between; the k-th arrow
        between the same two places bent apart from the ones before."""
        (x0, y0), (x1, y1) = a.center, b.center
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / d, (x1 - x0) / d
        others = [r for r in boxes if r != a and r != b]
        best: tuple[int, _Curve] | None = None
        for bend in BENDS[k % len(BENDS):] + BENDS[:k % len(BENDS)]:
            reach = bend * max(d, self.px(MIN_ARROW * 2))     # a neighbour bends past the boxes
            control = (mx + nx * reach, my + ny * reach)
            curve = _Curve(_leave(a, a.center, control), control, _leave(b, b.center, control))
            dots = [pygame.Rect(round(x) - 1, round(y) - 1, 3, 3)
                    for x, y in (curve.at(t / 20) for t in range(1, 20))]
            hits = sum(1 for dot in dots if dot.collidelist(others) >= 0) \
                + 5 * sum(1 for dot in dots if not field.contains(dot))
            # Neighbours' boxes nearly touch: an arrow too short to see bends out.
            length = sum(math.dist(p, q) for p, q in zip(
                [curve.at(t / 8) for t in range(9)], [curve.at(t / 8) for t in range(1, 9)],
                strict=False))
            hits += 4 if length < self.px(MIN_ARROW) else 0
            if best is None or hits < best[0]:
                best = (hits, curve)
            if hits == 0:
                break
        assert best is not None
        return best[1]

    def _arrow(self, kind: str, curve: _Curve, width: int) -> None:
        color = COLORS.get(kind, TEXT)
        head = self.px(11)
        both = kind in BOTH_WAYS
        points = curve.points(head if both else 0, head * 0.8)
        if len(points) < 2:
            return
        if kind in DASHED:
            for i in range(0, len(points) - 1, 2):
                pygame.draw.line(self.surface, color, points[i], points[i + 1], width)
        else:
            pygame.draw.lines(self.surface, color, False, points, width)
        self._head(curve.end, curve.direction(1.0), head, color)
        if both:
            ux, uy = curve.direction(0.0)
            self._head(curve.start, (-ux, -uy), head, color)

    def _head(self, tip: tuple[float, float], u: tuple[float, float], size: int,
              color: Color) -> None:
        ux, uy = u
        back = (tip[0] - ux * size, tip[1] - uy * size)
        side = (-uy * size * 0.55, ux * size * 0.55)
        pygame.draw.polygon(self.surface, color, [tip, (back[0] + side[0], back[1] + side[1]),
                                                  (back[0] - side[0], back[1] - side[1])])

    def _box(self, spot: Spot, r: pygame.Rect, center: bool, plan: _Plan) -> None:
        radius = self.px(6)
        edge = max(1, self.px(2))
        fill = DEAD_FILL if spot.dead else BG if not center else BAR_BG
        pygame.draw.rect(self.surface, fill, r, border_radius=radius)
        pygame.draw.rect(self.surface, COLORS[DIED] if spot.dead else MUTED, r, width=edge,
                         border_radius=radius)
        y = r.top + self.px(PAD)
        inner = r.inflate(-2 * self.px(PAD), 0)
        for text, face, color in self._lines(spot, center):
            px = plan.name_px if face is Face.BOLD else plan.card_px
            step = self.p.font(px, face).step(is_wide_text((text,)))
            fit = Fit(face, px, ((text,),), step, under=False)
            self.text(fit, pygame.Rect(inner.left, y, inner.width, step), color, "center")
            y += step

    def _badge(self, arrow: Arrow, curve: _Curve, avoid: list[pygame.Rect],
               placed: list[pygame.Rect], plan: _Plan) -> None:
        """The move's number in a disc on its arrow, where it covers no box."""
        r = self.px(BADGE_R)
        screen = self.surface.get_rect()
        spot = None
        for side, t in itertools.product((0, 1, -1), (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)):
            (x, y), (ux, uy) = curve.at(t), curve.direction(t)
            disc = pygame.Rect(0, 0, 2 * r, 2 * r)
            disc.center = (round(x - uy * side * r), round(y + ux * side * r))
            if disc.collidelist(avoid) < 0 and plan.field.contains(disc):
                spot = disc
                break
        if spot is None:                  # round the arrow's middle, nearest first
            mx, my = curve.at(0.5)
            for ring, k in itertools.product(range(1, 12), range(12)):
                disc = pygame.Rect(0, 0, 2 * r, 2 * r)
                angle = math.pi * k / 6
                disc.center = (round(mx + ring * r * math.cos(angle)),
                               round(my + ring * r * math.sin(angle)))
                if disc.collidelist(avoid) < 0 and plan.field.contains(disc):
                    spot = disc
                    break
        if spot is None:
            spot = pygame.Rect(0, 0, 2 * r, 2 * r)
            spot.center = tuple(round(v) for v in curve.at(0.5))
            spot.clamp_ip(screen)
        placed.append(spot)
        pygame.draw.circle(self.surface, COLORS.get(arrow.kind, TEXT), spot.center, r)
        pygame.draw.circle(self.surface, BG, spot.center, r, max(1, self.px(2)))
        text = str(arrow.number)
        px = plan.name_px
        font = self.p.font(px, Face.BOLD)
        while font.size(text)[0] > 2 * r - self.px(4) and px > 6:
            px -= 1
            font = self.p.font(px, Face.BOLD)
        step = font.step(False)
        fit = Fit(Face.BOLD, px, ((text,),), step)
        self.text(fit, pygame.Rect(spot.left, spot.centery - step // 2, spot.width, step),
                  BG, "center")

    def _key(self, page: MapPage, plan: _Plan) -> None:
        font = self.p.font(plan.card_px, Face.CONDENSED)
        step = font.step(is_wide_text([w for _k, w in page.legend]))
        space, sample = self.px(14), self.px(22)
        y = plan.key_top
        for row in plan.key_rows:
            total = sum(item for _k, _w, item in row) + space * (len(row) - 1)
            x = self.left + (self.width - total) // 2
            for kind, words, item in row:
                mid = y + step // 2
                if kind == DIED:
                    box = pygame.Rect(x, mid - self.px(8), sample, self.px(16))
                    pygame.draw.rect(self.surface, DEAD_FILL, box, border_radius=self.px(3))
                    pygame.draw.rect(self.surface, COLORS[DIED], box, width=max(1, self.px(2)),
                                     border_radius=self.px(3))
                else:
                    line = _Curve((x, mid), (x + sample / 2, mid), (x + sample, mid))
                    self._arrow(kind, line, max(2, self.px(3)))
                fit = Fit(Face.CONDENSED, plan.card_px, ((words,),), step)
                self.text(fit, pygame.Rect(x + sample + self.px(4), y, item - sample
                                           - self.px(4), step), TEXT, "left")
                x += item + space
            y += step


@dataclass(frozen=True)
class _Curve:
    """A quadratic Bezier curve from `start` to `end`, bent by `control`."""
    start: tuple[float, float]
    control: tuple[float, float]
    end: tuple[float, float]

    def at(self, t: float) -> tuple[float, float]:
        u = 1 - t
        return (u * u * self.start[0] + 2 * u * t * self.control[0] + t * t * self.end[0],
                u * u * self.start[1] + 2 * u * t * self.control[1] + t * t * self.end[1])

    def direction(self, t: float) -> tuple[float, float]:
        """The unit tangent at `t`."""
        dx = 2 * (1 - t) * (self.control[0] - self.start[0]) \
            + 2 * t * (self.end[0] - self.control[0])
        dy = 2 * (1 - t) * (self.control[1] - self.start[1]) \
            + 2 * t * (self.end[1] - self.control[1])
        d = math.hypot(dx, dy) or 1.0
        return dx / d, dy / d

    def points(self, trim_start: float, trim_end: float,
               steps: int = 32) -> list[tuple[float, float]]:
        """Points along the curve, `trim_*` pixels short of each end (room for a head)."""
        pts = [self.at(k / steps) for k in range(steps + 1)]
        lengths = [0.0]
        for p, q in zip(pts, pts[1:], strict=False):
            lengths.append(lengths[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))
        total = lengths[-1]
        return [p for p, s in zip(pts, lengths, strict=True)
                if trim_start <= s <= total - trim_end]


def _leave(box: pygame.Rect, inside: tuple[float, float],
           toward: tuple[float, float]) -> tuple[float, float]:
    """Where the line from `inside` to `toward` leaves `box`."""
    (x0, y0), (x1, y1) = inside, toward
    dx, dy = x1 - x0, y1 - y0
    ts = []
    if dx:
        ts += [(box.left - 1 - x0) / dx, (box.right + 1 - x0) / dx]
    if dy:
        ts += [(box.top - 1 - y0) / dy, (box.bottom + 1 - y0) / dy]
    t = min((t for t in ts if t > 0), default=0.0)
    t = min(t, 1.0)
    return x0 + dx * t, y0 + dy * t


# The table's shape for n seats, (left, top, bottom, right): seats on each
# side, seat 1 at the middle of the foot; the sides hold one seat with its
# card, the foot and the head up to three.
SHAPES = {3: (0, 2, 1, 0), 4: (1, 1, 1, 1), 5: (1, 2, 1, 1), 6: (1, 2, 2, 1),
          7: (1, 3, 2, 1), 8: (1, 3, 3, 1), 9: (2, 3, 2, 2), 10: (2, 3, 3, 2)}


def _splits(n: int) -> list[tuple[int, int, int, int]]:
    """(left, top, bottom, right) counts of seats, the most even first: the
    sides alike, the foot and the head as full as each other, the fewest on
    the sides (the middle keeps its width), seat 1 in the middle of the foot."""
    out = [(left, top, n - left - top - right, right)
           for left, top, right in itertools.product(range(n + 1), repeat=3)
           if n - left - top - right >= 1 and abs(left - right) <= 1]
    return sorted(out, key=lambda s: (abs(s[0] - s[3]), abs(s[1] - s[2]), s[0] + s[3],
                                      s[2] % 2 == 0))


def _forced(n: int) -> tuple[int, int, int, int]:
    side = max(0, (n - 4) // 4)
    top = (n - 2 * side) // 2
    return side, top, n - 2 * side - top, side
