"""The painter: keeps the fonts (each face at each size, the last used),
fits texts to their areas (wrapped at word boundaries, shrunk to the
floor, never cut), and draws a view: whole, or with the join card by the
first plan that fits (a draw per plan tried, quietly)."""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pygame

from wolfbox import pages
from wolfbox.i18n import N_, _
from wolfbox.view import Phase, View

from .cardplan import NO_CARD, CardPlan
from .fonts import (
    CJK_PROBE,
    FONT_DIR,
    FONT_ERRORS,
    Face,
    Type,
    cjk_font_files,
    covers,
    is_wide_text,
    open_font,
)
from .joincard import PLANS_KEPT, NoRoom, card_plans
from .layouts import Layout
from .style import CJK_BOLD_PX, FLOOR_CAP, SMALLEST_PX, TEXT
from .texts import Block, Drawn, Fit

log = logging.getLogger("wolfbox.device")

NO_CJK = N_("No Chinese font: install fonts-wqy-microhei")
# The fonts a painter keeps open, the last used: each face at each size
# holds a FreeType face and its glyph cache (a fifth of a MiB, half a MiB
# with the CJK face beside it), and fitting texts to every screen of three
# games at a few window sizes asks for some 150 of them: 75 MiB kept for
# good. Opening one again takes 0.04 ms, and a screen uses a dozen.
FONTS_KEPT = 64
# A draw may use more while it fits its texts: the seat ring of the Mayor's
# and the timed game tries some 90 sizes a frame, and an LRU of 64 under that
# scan missed every time (0.16 s a frame here reopening fonts). A draw keeps
# up to this many and trims back to FONTS_KEPT when done.
FONTS_IN_A_DRAW = 2 * FONTS_KEPT


@dataclass
class Painter:
    """Draws views onto a surface of any size; keeps fonts per face and size."""
    font_dir: Path | None = FONT_DIR
    # Where the CJK font may be (a path, paths best first, or None: there is
    # none); asked once, when Chinese is first drawn.
    cjk_font: Callable[[], str | Sequence[str] | None] = lambda: cjk_font_files()
    drawn: list[Drawn] = field(default_factory=list)   # every text of the last draw
    # The join card's code of the last draw: its square (quiet zone and all)
    # and a module's px; None without one.
    qr: tuple[pygame.Rect, int] | None = None
    _fonts: OrderedDict[tuple[Face, int], Type] = field(default_factory=OrderedDict)
    _caps: dict[tuple[Face, int], int] = field(default_factory=dict)
    _fits: dict[tuple, Fit | None] = field(default_factory=dict)
    _missing: bool = False
    _cjk_file: str | None = None
    _cjk_known: bool = False
    _warned: set[str] = field(default_factory=set)
    # A plan being tried: warn() raises NoRoom, but for the texts listed
    # (those below the floor without the card too: a long legend label).
    _trial: list[str] | None = None
    _collect: list[str] | None = None   # a draw without the card: what warn() says
    _plans: OrderedDict[tuple, CardPlan] = field(default_factory=OrderedDict)

    # ------------------------------------------------------------------ fonts
    def font(self, px: int, face: Face = Face.SANS) -> Type:
        px = max(SMALLEST_PX, px)
        t = self._fonts.get((face, px))
        if t is not None:
            self._fonts.move_to_end((face, px))
        else:
            t = Type(self._latin(face, px), lambda: self._cjk(face, px))
            self._fonts[(face, px)] = t
            self._trim_fonts(FONTS_IN_A_DRAW)
        return t

    def _trim_fonts(self, keep: int) -> None:
        """Close the least recently used fonts beyond `keep`."""
        while len(self._fonts) > keep:
            self._fonts.popitem(last=False)

    def _cjk(self, face: Face, px: int) -> pygame.font.Font | None:
        """The CJK font at `px` for `face`, if there is a usable one."""
        path = self.cjk_file()
        if path is None:
            return None
        try:
            cjk = open_font(path, px)
        except FONT_ERRORS as e:
            self._unusable_cjk(path, e)
            return None
        # The CJK faces have no bold of their own, and pygame's synthetic bold
        # runs dense characters (哪, 牌) into blobs below large sizes: bold
        # only for the big values.
        cjk.bold = face is Face.BOLD and px >= CJK_BOLD_PX
        return cjk

    def _latin(self, face: Face, px: int) -> pygame.font.Font:
        """The face's own font, or pygame's default if its file cannot be used."""
        path = self._font_file(face)
        if path is not None:
            try:
                return open_font(path, px)
            except FONT_ERRORS as e:
                self._missing = True          # every face alike: one look, not a mix
                log.warning(_("font {path} cannot be used ({why}): using pygame's default "
                              "font").format(path=path, why=e))
                self._forget_fonts()
        return pygame.font.Font(None, px)

    def _unusable_cjk(self, path: str, why: Exception) -> None:
        """A CJK file that failed after it was chosen: no Chinese face from
        now on (the notice says so), never a crash mid-frame."""
        log.warning(_("font {path} cannot be used ({why}): no Chinese font").format(
            path=path, why=why))
        self._cjk_file = None
        self._forget_fonts()

    def _forget_fonts(self) -> None:
        """Fonts and what was measured with them, after a font file failed."""
        self._fonts.clear()
        self._caps.clear()
        self._fits.clear()

    def cjk_file(self) -> str | None:
        """The CJK font: the first candidate that loads and draws Chinese
        (asked of the font itself: fontconfig offers its best match even
        without Chinese, and a file may be empty or corrupt)."""
        if not self._cjk_known:
            self._cjk_known = True
            found = self.cjk_font()
            candidates = [found] if isinstance(found, str) else list(found or ())
            self._cjk_file = None
            for path in candidates:
                try:
                    if covers(open_font(path, 24), CJK_PROBE):
                        self._cjk_file = path
                        break
                    log.warning(_("font {path} has no Chinese characters: install "
                                  "fonts-wqy-microhei (or fonts-noto-cjk)").format(path=path))
                except FONT_ERRORS as e:
                    log.warning(_("font {path} cannot be used ({why}): trying the next "
                                  "one").format(path=path, why=e))
            if not candidates:
                log.warning(_("no font with Chinese characters found: install "
                              "fonts-wqy-microhei (or fonts-noto-cjk)"))
        return self._cjk_file

    def notice(self, view: View) -> str:
        """The painter's own notice for the start screen: Chinese to show and
        no font to show it with. In the box's language where that can be
        drawn, else in English (a notice drawn as boxes says nothing)."""
        if not is_wide_text(_texts(view)) or self.cjk_file() is not None:
            return ""
        said = _(NO_CJK)
        return NO_CJK if is_wide_text((said,)) else said

    def _font_file(self, face: Face) -> str | None:
        if self.font_dir is None or self._missing:
            return None
        path = self.font_dir / face.value
        if path.is_file():
            return str(path)
        self._missing = True
        log.warning(_("font {path} is missing: using pygame's default font")
                    .format(path=path))
        return None

    def cap_height(self, px: int, face: Face = Face.SANS) -> int:
        """The height of an "H" at this size, in pixels, as drawn."""
        key = (face, max(SMALLEST_PX, px))
        cap = self._caps.get(key)
        if cap is None:
            cap = self.font(px, face).render("H", TEXT).get_bounding_rect().height
            self._caps[key] = cap
        return cap

    def floor_px(self, s: float, face: Face = Face.SANS) -> int:
        """The smallest pixel size whose capitals are FLOOR_CAP × s tall."""
        px = max(SMALLEST_PX, int(FLOOR_CAP * s))
        while self.cap_height(px, face) < FLOOR_CAP * s - 1e-6:
            px += 1
        return px

    # ---------------------------------------------------------------- drawing
    def draw(self, surface: pygame.Surface, view: View, notice: str = "") -> None:
        own = self.notice(view)
        if own and own not in notice.split("; "):
            notice = "; ".join(n for n in (notice, own) if n)
        if view.join is None:
            self._draw_with_notice(surface, view, notice)
        else:
            self._draw_with_card(surface, view, notice)
        self._trim_fonts(FONTS_KEPT)

    def _draw_with_notice(self, surface: pygame.Surface, view: View, notice: str) -> None:
        """A view drawn whole; a setup screen whose notice leaves its setting
        no room at the floor gives up its footer instead (the standing hint
        of what the holds do waits; the notice is why the table looks)."""
        if not (view.between and view.phase is not Phase.IDLE and notice and view.footer):
            Layout(self, surface, view, notice).all()
            return
        self._trial = []
        try:
            Layout(self, surface, view, notice).all()
            return
        except NoRoom:
            pass
        finally:
            self._trial = None
        Layout(self, surface, replace(view, footer=""), notice).all()

    def _draw_with_card(self, surface: pygame.Surface, view: View, notice: str) -> None:
        """The first plan (card_plans) that draws every text at the floor or
        above; the compact one if none does. Each is tried by drawing it
        whole, quietly; the one found is kept for the screen, so the next
        frame (a button held, the same view again) draws it at once."""
        key = (replace(view, held=None, held_progress=0.0), notice, surface.get_size())
        plan = self._plans.get(key)
        if plan is not None:
            self._plans.move_to_end(key)
            Layout(self, surface, view, notice, plan).all()
            return
        kept: CardPlan | None = None
        # What the screen sets below the floor without any card is not the
        # card's doing: it does not rule a plan out.
        self._collect = []
        try:
            Layout(self, surface, view, notice, None).all()
        finally:
            anyway, self._collect = self._collect, None
        for plan in card_plans(view):
            self._trial = anyway
            try:
                Layout(self, surface, view, notice, plan).all()
                kept = plan
                break
            except NoRoom:
                continue
            finally:
                self._trial = None
        if kept is None:
            # Not even a line for it: the screen's own words come first.
            if "join card" not in self._warned:
                self._warned.add("join card")
                log.warning(_("no room on the screen for the phones' join card: {title!r}")
                            .format(title=view.title))
            kept = NO_CARD
            Layout(self, surface, view, notice, kept).all()
        plan = kept
        self._plans[key] = plan
        while len(self._plans) > PLANS_KEPT:
            self._plans.popitem(last=False)

    # --------------------------------------------------------------- fitting
    def wrap(self, message: str, px: int, width: float, face: Face = Face.SANS) -> list[str]:
        """Greedy wrap for the font of `px` pixels within `width` pixels,
        between words, and between Chinese characters (wolfbox.pages.tokens).
        A word wider than `width` keeps a line of its own (never cut)."""
        font = self.font(px, face)
        lines: list[list[tuple[str, str]]] = []
        line: list[tuple[str, str]] = []
        for glue, unit in pages.tokens(message):
            if not line or font.size(pages.joined([*line, (glue, unit)]))[0] <= width:
                line.append((glue, unit))
            else:
                lines.append(line)
                line = [(glue, unit)]
        if line:
            lines.append(line)
        # Chinese: a paragraph's last character never alone on its line
        # ("狼/人杀"); the one before it goes down with it.
        if len(lines) > 1 and len(lines[-1]) == 1 and len(lines[-2]) > 1 \
                and lines[-1][0][0] == "" and pages.is_wide(lines[-1][0][1][0]) \
                and font.size(pages.joined([lines[-2][-1], *lines[-1]]))[0] <= width:
            lines[-1].insert(0, lines[-2].pop())
        return [pages.joined(units) for units in lines]

    def layout(self, block: Block, px: int, face: Face, width: int,
               gap: int) -> tuple[tuple[tuple[str, ...], ...], int, bool]:
        """(lines per paragraph, height, whether every line fits `width`)."""
        font = self.font(px, face)
        paras = tuple(tuple(self.wrap(p, px, width, face)) for p in block.paragraphs if p)
        lines = sum(len(p) for p in paras)
        height = lines * font.step(is_wide_text(block.paragraphs)) \
            + gap * max(0, len(paras) - 1)
        wide = all(font.size(line)[0] <= width for p in paras for line in p)
        return paras, height, wide

    def fit(self, block: Block, s: float, width: int, height: int,
            px: int | None = None, floor: bool = True, apart: bool = True) -> Fit | None:
        """The block at the largest size from its preferred one (or `px`)
        down to the floor that fits the area; None if none does. With
        floor=False, sizes below the floor are tried too (marked `under`);
        with apart=False, paragraphs are never set apart."""
        top = px if px is not None else max(1, round(block.pref * s))
        key = (block, s, width, height, top, floor, apart)
        if key in self._fits:
            return self._fits[key]
        found: Fit | None = None
        gap = max(1, round(block.gap * s))
        for face in block.faces:
            low = self.floor_px(s, face)
            sizes = range(max(top, low), low - 1, -1) if floor else range(low - 1,
                                                                            SMALLEST_PX - 1, -1)
            # Paragraphs apart at a smaller size before run together at a larger.
            for g in (gap, 0) if apart else (0,):
                for size in sizes:
                    paras, h, wide = self.layout(block, size, face, width, g)
                    lines = sum(len(p) for p in paras)
                    if wide and h <= height and (block.max_lines is None
                                                  or lines <= block.max_lines):
                        found = Fit(face, size, paras, h, under=not floor)
                        break
                if found:
                    break
            if found:
                break
        if len(self._fits) > 512:
            self._fits.clear()
        self._fits[key] = found
        return found

    def fit_or_shrink(self, block: Block, s: float, width: int, height: int,
                      px: int | None = None) -> Fit:
        """As fit(), but a block that does not fit at the floor is set smaller
        (never cut), with a warning logged once for its text."""
        got = self.fit(block, s, width, height, px)
        if got is not None:
            return got
        self.warn(" / ".join(block.paragraphs))
        got = self.fit(block, s, width, height, floor=False)
        if got is not None:
            return got
        face = block.faces[-1]
        paras, h, _wide = self.layout(block, SMALLEST_PX, face, width, 0)
        return Fit(face, SMALLEST_PX, paras, h, under=True)

    def warn(self, text: str) -> None:
        """Log a text drawn below the floor, once: a text that differs only in
        its figures (a clock running down, a count) is the same text, so a
        timer that does not fit says so once, not every second."""
        if self._collect is not None:
            self._collect.append(text)
            return
        if self._trial is not None and text not in self._trial:   # a plan that does not fit
            raise NoRoom(text)
        key = re.sub(r"\d+", "#", text)
        if key not in self._warned:
            self._warned.add(key)
            log.warning(_("text too long for its place on the screen, drawn below the "
                          "size floor: {text!r}").format(text=text))


def _texts(view: View) -> tuple[str, ...]:
    """Every text of a view that the screen may draw."""
    return (view.title, view.big, view.caption, *view.details,
            *(label for _b, label in view.legend), *(label for _b, label in view.holds),
            view.footer, view.status, view.alert)

