"""The layout of each phase: the start screen, the reveal and the verdict,
a setting, the seat ring, the big figure with its bar and caption; over
them the legend of the buttons and the alert."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import replace

import pygame

from wolfbox import pages
from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS, Button
from wolfbox.i18n import _
from wolfbox.legend import boxes as legend_boxes
from wolfbox.view import Phase, Seat, View

from .canvas import Painting
from .cardplan import NO_CARD, CardPlan
from .fonts import Face, is_wide_text
from .joincard import JoinCardDrawing
from .style import (
    ACCENT,
    BAR_BG,
    BAR_H,
    BG,
    BIG_PX,
    BODY_PX,
    BOTTOM,
    CAPTION_RESERVE,
    DECK_PX,
    HURRY,
    LOGICAL,
    LOVER,
    MUTED,
    NAME_PX,
    NIGHT_DIM,
    NOTE,
    PAUSED,
    RING_BIG_PX,
    SEAT_R,
    SMALL_PX,
    TEXT,
    TOP,
    URGENT,
    VALUE_PX,
)
from .tablemap import TableMapDrawing
from .texts import Block, Fit


class Layout(JoinCardDrawing, TableMapDrawing):
    """One draw of a view, laid out by its phase (and its join card by `plan`)."""

    def __init__(self, painter: Painting, surface: pygame.Surface, view: View,
                 notice: str, plan: CardPlan | None = None) -> None:
        super().__init__(painter, surface, view, notice,
                         plan if view.join is not None and plan is not NO_CARD else None)

    def all(self) -> None:
        view, surface = self.view, self.surface
        surface.fill((0, 0, 0))
        frame = self.rect(0, 0, *LOGICAL)
        frame.height += self.drop
        pygame.draw.rect(surface, BG, frame)
        # A card across the foot draws the footer above it (join_card).
        across = self.plan is not None and (self.plan.across or self.plan.compact)
        if self.plan is not None:
            self.join_card(self.plan)
        self.title()
        if view.footer and view.phase is not Phase.IDLE and not across:
            self.footer()                   # the start screen stacks its own
        if view.between and view.phase is not Phase.IDLE:
            self.setup_notices()            # the start screen stacks its own
        match view.phase:
            case _ if view.picture is not None:
                self.table_map()
            case _ if view.seats:
                self.seat_ring()
            case Phase.IDLE:
                self.start_screen()
            case Phase.REVEAL | Phase.VERDICT:
                self.reveal()
            case Phase.SETTINGS | Phase.REFEREE:
                self.settings()
            case _:
                self.middle(self.y(TOP), self.caption_block(), CAPTION_RESERVE)
        self.legend()
        if view.dim:
            veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            veil.fill((0, 0, 0, NIGHT_DIM))
            surface.blit(veil, (0, 0))
            for img, pos in self.above_veil:
                surface.blit(img, pos)
        if view.alert:                          # above the night's veil: it is about the box
            self.alert()

    # ----------------------------------------------------------------- phases
    def caption_block(self) -> Block:
        view = self.view
        if view.paused:
            return Block((_("Paused: press START to resume"),), BODY_PX, PAUSED)
        return Block((view.caption,) if view.caption else (), BODY_PX, TEXT)

    def middle(self, top: int, below: Block, reserve: int, big: float = BIG_PX) -> None:
        """The big figure, the bar under it and a text under the bar; with
        no big figure, the bar at the top and the text in all the rest."""
        view = self.view
        bottom = self.bottom
        left, width = self.left, self.width
        if not view.big:
            if view.progress is not None:
                bar = self.bar(top + self.px(4))
                top = bar.bottom + self.px(8)
            if below.paragraphs:
                self.block(below, pygame.Rect(left, top, width, bottom - top), "center")
            return
        # The text under the bar keeps `reserve` lines at the floor (the timer
        # does not move as captions come and go); a longer one takes more.
        need = reserve * self.floor_linesize()
        if below.paragraphs:
            at_floor = self.p.fit_or_shrink(below, self.s, width, bottom - top,
                                            px=self.p.floor_px(self.s))
            need = max(need, at_floor.height)
        text_area = pygame.Rect(left, bottom - need, width, need)
        big_bottom = text_area.top - self.px(8)
        if view.progress is not None:
            bar = self.bar(text_area.top - self.px(8 + BAR_H))
            big_bottom = bar.top - self.px(8)
        self.big(pygame.Rect(left, top, width, big_bottom - top), big)
        if below.paragraphs:
            self.block(below, text_area)

    def start_screen(self) -> None:
        """The deck and its notes from the top; the box's notice, its status
        and the footer from the bottom."""
        view = self.view
        details = view.details
        notices = tuple(n.strip() for n in self.notice.split(";") if n.strip())
        notes = details[1:] if self.plan is None or self.plan.notes else ()
        tops = [Block(details[:1], DECK_PX, TEXT, (Face.BOLD, Face.CONDENSED)),
                Block(notes, SMALL_PX, NOTE)]
        footer = "" if self.plan is not None and (self.plan.across or self.plan.compact) \
            else view.footer
        bottoms = [Block((view.status,) if view.status else (), SMALL_PX, MUTED),
                   Block((footer,) if footer else (), SMALL_PX, ACCENT)]
        top, bottom = self.y(TOP), self.bottom
        left, width = self.left, self.width
        # Each notice on a line of its own if there is room, else run together.
        variants = [notices] + ([("; ".join(notices),)] if len(notices) > 1 else [])
        for i, shown in enumerate(variants):
            blocks = tops + [Block(shown, SMALL_PX, HURRY)] + bottoms
            stacked = self.stack(blocks, width, bottom - top, last=i == len(variants) - 1)
            if stacked is not None:
                break
        assert stacked is not None
        fits, gap = stacked
        y = top
        for b, f in zip(blocks[:2], fits[:2], strict=True):
            if b.paragraphs:
                area = pygame.Rect(left, y, width, f.height)
                self.text(f, area, b.color, b.align)
                y = area.bottom + gap
        y = bottom
        for b, f in reversed(list(zip(blocks[2:], fits[2:], strict=True))):
            if b.paragraphs:
                area = pygame.Rect(left, y - f.height, width, f.height)
                self.text(f, area, b.color, b.align)
                y = area.top - gap

    def stack(self, blocks: Sequence[Block], width: int, height: int,
              last: bool) -> tuple[list[Fit], int] | None:
        """Fits for blocks stacked in `height`, and the gap between them: all
        shrink together from their preferred sizes to the floor, then the gaps
        narrow. None if they do not fit at the floor (unless `last`: then
        they are set smaller)."""
        s = self.s
        tops = [max(self.p.floor_px(s, b.faces[0]), round(b.pref * s)) for b in blocks]
        used = [b for b in blocks if b.paragraphs]
        for gap in (self.px(6), self.px(2), 0):
            for k in range(0, max(tops) + 1):
                fits = []
                for b, t in zip(blocks, tops, strict=True):
                    f = self.p.fit(b, s, width, height, px=max(1, t - k), apart=gap > 0)
                    if f is None:
                        break
                    fits.append(f)
                else:
                    total = sum(f.height for b, f in zip(blocks, fits, strict=True)
                                if b.paragraphs) + gap * max(0, len(used) - 1)
                    if total <= height:
                        return fits, gap
                if all(t - k <= self.p.floor_px(s, b.faces[-1])
                       for b, t in zip(blocks, tops, strict=True)):
                    break
        if not last:
            return None
        # Below the floor: every block smaller by the same share, said once.
        self.p.warn(" / ".join(p for b in blocks for p in b.paragraphs))
        floor = [self.p.fit_or_shrink(b, s, width, height, px=self.p.floor_px(s))
                 for b in blocks]
        total = sum(f.height for f in floor) or 1
        fits = []
        for b, f in zip(blocks, floor, strict=True):
            share = max(1, f.height * height // total)
            fits.append(self.p.fit_or_shrink(b, s, width, share, px=f.px))
        return fits, 0

    def reveal(self) -> None:
        """This page of the rules; the caption under them if there is room."""
        view = self.view
        top, bottom = self.y(TOP) + self.px(4), self.bottom
        left, width = self.left + self.px(6), self.width - self.px(6)
        rules = Block(view.details, BODY_PX, TEXT, align="left", gap=8)
        caption = Block((view.caption,) if view.caption else (), BODY_PX, MUTED)
        full = pygame.Rect(left, top, width, bottom - top)
        if caption.paragraphs:
            under = self.p.fit(caption, self.s, full.width, full.height,
                               px=self.p.floor_px(self.s))
            if under is not None:
                room = full.height - under.height - self.px(10)
                if self.p.fit(rules, self.s, width, room) is not None:
                    self.block(rules, pygame.Rect(left, top, width, room))
                    self.block(caption, pygame.Rect(self.left, bottom - under.height,
                                                    self.width, under.height))
                    return
        self.block(rules, full)

    def settings(self) -> None:
        """The setting's name, its value large with the bar under it, notes."""
        view = self.view
        top = self.y(TOP) + self.px(6)
        left, width = self.left, self.width
        notes = Block(view.details[1:], SMALL_PX, NOTE)
        # The name on a line (two for a long one), the notes in SETTING_LINES'
        # room: the value stays in one place from one setting to the next.
        # Where that leaves the value no room (long notes over a footer), the
        # notes keep only their own lines, then the name drops to the floor,
        # then the name and the value share a row.
        reserve = pages.SETTING_LINES
        if view.details:
            name = Block(view.details[:1], NAME_PX, TEXT, (Face.BOLD, Face.CONDENSED))
            room = 2 * self.floor_linesize(Face.BOLD, is_wide_text(name.paragraphs))
            fit = self.p.fit_or_shrink(name, self.s, width, room)
            if view.big and not self.value_fits(top + fit.height, notes, reserve):
                reserve = 0
                if not self.value_fits(top + fit.height, notes, reserve):
                    fit = self.p.fit_or_shrink(name, self.s, width, room,
                                               px=self.p.floor_px(self.s, Face.BOLD))
                    if not self.value_fits(top + fit.height, notes, reserve) and \
                            self.name_and_value(name, room, notes):
                        return
            self.text(fit, pygame.Rect(left, top, width, fit.height), TEXT)
            top += fit.height
        self.middle(top + self.px(4), notes, reserve, VALUE_PX)

    def notes_height(self, notes: Block, reserve: int) -> int:
        """What middle() keeps under the value for the notes, at the floor."""
        need = reserve * self.floor_linesize()
        if notes.paragraphs:
            width = self.width
            at_floor = self.p.fit_or_shrink(notes, self.s, width, self.bottom,
                                            px=self.p.floor_px(self.s))
            need = max(need, at_floor.height)
        return need

    def value_fits(self, top: int, notes: Block, reserve: int) -> bool:
        """Whether the value, at the floor, fits between `top` and the notes."""
        font = self.p.font(self.p.floor_px(self.s, Face.BOLD), Face.BOLD)
        ink = font.render(self.view.big, TEXT).get_bounding_rect()
        bar = self.px(8 + BAR_H) if self.view.progress is not None else 0
        return top + self.px(4) + ink.height + self.px(8) + bar + \
            self.notes_height(notes, reserve) <= self.bottom

    def name_and_value(self, name: Block, room: int, notes: Block) -> bool:
        """The name at the left and the value at the right of one row at the
        floor, the bar and the notes under them, with the least room between;
        False (nothing drawn) if the row cannot hold both."""
        view = self.view
        top = self.y(TOP) + self.px(2)
        left, width = self.left, self.width
        value = self.p.font(self.p.floor_px(self.s, Face.BOLD), Face.BOLD).size(view.big)[0]
        gap = self.px(12)
        name = replace(name, align="left")
        fit = self.p.fit(name, self.s, width - value - gap, room,
                         px=self.p.floor_px(self.s, Face.BOLD))
        if fit is None:
            return False
        self.text(fit, pygame.Rect(left, top, width - value - gap, fit.height), TEXT, "left")
        self.big(pygame.Rect(left + width - value, top, value, fit.height), SMALL_PX)
        y = top + fit.height + self.px(2)
        if view.progress is not None:
            y = self.bar(y).bottom + self.px(8)
        if notes.paragraphs:        # in the narrower face before below the floor
            notes = replace(notes, faces=(*notes.faces, Face.CONDENSED))
            self.block(notes, pygame.Rect(left, y, width, self.bottom - y))
        return True

    def seat_ring(self) -> None:
        """The seats round an oval that fills the middle: seat 1 at the
        bottom (it faces the screen), then clockwise as seen from above the
        table, which runs on to the left. The value and the question, or the
        line being said, in the middle, clear of every seat."""
        view = self.view
        area = pygame.Rect(self.left, self.y(TOP), self.width, self.bottom - self.y(TOP))
        r, pad = self.px(SEAT_R), self.px(6)
        centres = _oval_points(len(view.seats), area.width / 2 - r, area.height / 2 - r,
                               area.centerx, area.centery)
        for seat, (x, y) in zip(view.seats, centres, strict=True):
            self.seat(seat, x, y, r)
        if view.paused:
            words = self.caption_block()
        else:
            words = Block((view.caption,) if view.caption else view.details, SMALL_PX,
                          TEXT if view.caption else NOTE)
        color = PAUSED if view.paused else URGENT if view.urgent else TEXT
        blocks = [Block((view.big,) if view.big else (), RING_BIG_PX, color,
                        (Face.BOLD, Face.CONDENSED), max_lines=1), words]
        # The widest middle first: each width has the tallest band free of seats.
        cx, cy = area.center
        offsets = [(x - cx, y - cy) for x, y in centres]

        def free_width(half_height: float) -> float:
            room = [abs(dx) - r - pad for dx, dy in offsets if abs(dy) < half_height + r + pad]
            return min([area.width / 2 - 2 * r - pad, *room])

        def free_half_height(width: int) -> int:
            """The tallest band of this width clear of the seats, halved."""
            return next((h for h in range(area.height // 2, 0, -2)
                         if free_width(h) * 2 >= width), 0)

        # Widest first; the narrowest is the last resort: set below the floor
        # if it must be (stack warns once), never cut.
        widths = [round(2 * free_width(0) * share) for share in (1.0, 0.92, 0.84, 0.76, 0.68,
                                                                 0.6)]
        for width in widths:
            last = width == widths[-1]
            half = max(free_half_height(width), self.px(20) if last else 0)
            stacked = self.stack(blocks, width, 2 * half, last=last) if half > 0 else None
            if stacked is not None:
                break
        assert stacked is not None
        fits, gap = stacked
        used = [(b, f) for b, f in zip(blocks, fits, strict=True) if b.paragraphs]
        total = sum(f.height for _b, f in used) + gap * max(0, len(used) - 1)
        y = cy - total // 2
        for b, f in used:
            self.text(f, pygame.Rect(cx - width // 2, y, width, f.height), b.color)
            y += f.height + gap

    def seat(self, seat: Seat, x: float, y: float, r: int) -> None:
        """One seat's disc and number: filled where the buttons point (or a
        Lover being marked), dark once dead, outlined red where refused."""
        centre = (round(x), round(y))
        edge = max(1, self.px(2))
        if seat.cursor or seat.marked:
            fill = LOVER if seat.marked else URGENT if seat.refused else ACCENT
            ink = BG
            pygame.draw.circle(self.surface, fill, centre, r)
            if seat.cursor and seat.marked:
                pygame.draw.circle(self.surface, ACCENT, centre, r + self.px(4), edge)
        elif not seat.alive:
            ink = MUTED
            pygame.draw.circle(self.surface, BAR_BG, centre, r)
        else:
            ink = URGENT if seat.refused else TEXT
            pygame.draw.circle(self.surface, ink if seat.refused else MUTED, centre, r,
                               edge * (2 if seat.refused else 1))
        box = pygame.Rect(0, 0, 2 * r, 2 * r)
        box.center = centre
        number = Block((str(seat.seat),), SMALL_PX, ink, (Face.BOLD, Face.CONDENSED),
                       max_lines=1)
        self.text(self.p.fit_or_shrink(number, self.s, box.width, box.height), box, ink,
                  "center", "center")

    # ------------------------------------------------------------- overlays
    def legend(self) -> None:
        """A box per button, in the order of the buttons on the box, outlined
        in its colour; a hold in progress fills it. Where the boxes are is
        shared with the enclosure (wolfbox/legend.py): each button is built
        straight below its box."""
        view, s = self.view, self.s
        taps, holds = dict(view.legend), dict(view.holds)
        labels: dict[Button, str] = {}
        for button in GAME_BUTTONS:
            label = taps.get(button) or holds.get(button, "")
            if view.held is button:
                label = holds.get(button) or label
            labels[button] = label
        boxes = {b: self.rect(*box).move(0, self.drop)
                 for b, box in zip(GAME_BUTTONS, legend_boxes(), strict=True)}
        edge = max(1, round(3 * s))
        inner = {b: r.inflate(-2 * edge - 2 * self.px(3), -2 * edge) for b, r in boxes.items()}
        # One size for every label: the largest that lets each fit (two lines at most).
        blocks = {b: Block((label,), SMALL_PX, TEXT, (Face.CONDENSED,), max_lines=2)
                  for b, label in labels.items() if label}
        sizes = [f.px for b, blk in blocks.items()
                 if (f := self.p.fit(blk, s, inner[b].width, inner[b].height)) is not None]
        px = min(sizes, default=None)
        radius = self.px(8)
        for button, r in boxes.items():
            color = BUTTON_COLORS[button]
            label = labels[button]
            pygame.draw.rect(self.surface, BG, r, border_radius=radius)
            if view.held is button:
                done = max(0.0, min(1.0, view.held_progress))
                fill = pygame.Rect(r.left, r.top, round(r.width * done), r.height)
                if fill.width:
                    shade = tuple(round(c * 0.45 + b * 0.55)
                                  for c, b in zip(color, BG, strict=True))
                    pygame.draw.rect(self.surface, shade, fill, border_radius=radius)
            pygame.draw.rect(self.surface, color if label else BAR_BG, r, width=edge,
                             border_radius=radius)
            if label:
                blk = blocks[button]
                fit = self.p.fit_or_shrink(blk, s, inner[button].width, inner[button].height,
                                           px=px)
                self.text(fit, inner[button], TEXT, "center", "center")

    def alert(self) -> None:
        """A passing word from the box, in a box over the middle of the screen."""
        self.layer = 1
        width = self.px(420)
        block = Block((self.view.alert,), BODY_PX, PAUSED)
        fit = self.p.fit_or_shrink(block, self.s, width, self.y(BOTTOM) - self.y(TOP))
        pad = self.px(10)
        box = pygame.Rect(0, 0, width + 2 * pad, fit.height + 2 * pad)
        box.center = self.rect(0, TOP, 480, BOTTOM - TOP).center
        radius = self.px(8)
        pygame.draw.rect(self.surface, BG, box, border_radius=radius)
        pygame.draw.rect(self.surface, PAUSED, box, width=max(1, round(2 * self.s)),
                         border_radius=radius)
        self.text(fit, box.inflate(-2 * pad, -2 * pad), PAUSED)
        self.layer = 0


@functools.lru_cache(maxsize=64)
def _oval_points(count: int, a: float, b: float, cx: float, cy: float,
                 samples: int = 720) -> list[tuple[float, float]]:
    """`count` points equally spaced along an oval (semi-axes a, b), the
    first at the bottom, then on to the left (clockwise seen from above,
    with the screen's viewer at the bottom)."""
    if count <= 0:
        return []
    pts = [(cx - a * math.sin(2 * math.pi * k / samples),
            cy + b * math.cos(2 * math.pi * k / samples)) for k in range(samples + 1)]
    lengths = [0.0]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    out, k = [], 0
    for i in range(count):
        target = lengths[-1] * i / count
        while lengths[k + 1] < target:
            k += 1
        part = (target - lengths[k]) / max(1e-9, lengths[k + 1] - lengths[k])
        (x0, y0), (x1, y1) = pts[k], pts[k + 1]
        out.append((x0 + (x1 - x0) * part, y0 + (y1 - y0) * part))
    return out

