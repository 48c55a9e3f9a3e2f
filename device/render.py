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
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import pygame
import segno

from wolfbox import pages
from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS, Button
from wolfbox.i18n import N_, _, ngettext
from wolfbox.view import JoinCard, Phase, Seat, View

log = logging.getLogger("wolfbox.device")

LOGICAL = (480, 320)
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


class Face(StrEnum):
    """The typefaces, by file name in FONT_DIR. Chinese characters in any
    of them are drawn from the system's CJK font (cjk_font_file): see Type."""
    SANS = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed.ttf"


FONT_DIR = Path(str(resources.files("wolfbox") / "fonts"))
# Where Debian and its derivatives put a CJK face (fonts-wqy-microhei,
# fonts-noto-cjk, fonts-droid-fallback), best first.
CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
             "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


@functools.cache
def cjk_font_files() -> tuple[str, ...]:
    """The fonts that may have Chinese in them, best first: each known file
    there is, then fontconfig's choice. The painter takes the first that
    loads and draws Chinese (a file may be empty or corrupt)."""
    found = [path for path in CJK_FONTS if Path(path).is_file()]
    import shutil
    import subprocess
    program = shutil.which("fc-match")
    if program is None:
        return tuple(found)
    try:
        matched = subprocess.run([program, "-f", "%{file}", "sans-serif:lang=zh-cn"],
                                 capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return tuple(found)
    # fontconfig answers with its best match even without Chinese: DejaVu is no answer.
    if matched and Path(matched).is_file() and "DejaVu" not in matched \
            and matched not in found:
        found.append(matched)
    return tuple(found)


def cjk_font_file() -> str | None:
    """The first font that may have Chinese in it (found once: it may ask fontconfig)."""
    files = cjk_font_files()
    return files[0] if files else None


# What loading or drawing with a font file that is not one raises: an empty
# file is a ValueError, a corrupt one loads and then fails to draw
# (pygame.error "Passed a NULL pointer"), a vanished one an OSError.
FONT_ERRORS = (pygame.error, ValueError, OSError, RuntimeError)


def open_font(path: str | None, px: int) -> pygame.font.Font:
    """The font at `path` (None: pygame's own) at `px`, tried on a line of
    text, so a file that loads but cannot draw fails here, not mid-frame.
    Raises one of FONT_ERRORS."""
    font = pygame.font.Font(path, px)
    font.render("Hg", True, (255, 255, 255))
    return font


def covers(font: pygame.font.Font, chars: str) -> bool:
    """Whether `font` has a glyph of its own for each of `chars`, asked of
    the font itself: a missing glyph draws as the font's box (.notdef), the
    same box as a code point no font has."""
    def ink(char: str) -> bytes:     # may raise FONT_ERRORS: the caller judges the file
        return pygame.image.tobytes(font.render(char, True, (255, 255, 255), (0, 0, 0)), "RGB")
    box = ink("\uffff")
    return all(ink(c) != box for c in chars if not c.isspace())


CJK_PROBE = "中文座位"      # a CJK face is usable when it draws these


class Type:
    """A face at one size, drawn in runs: Chinese characters from the CJK
    font, everything else (digits, Latin, punctuation) from the face itself,
    on one baseline. A single font seldom has both: Droid Sans Fallback
    draws every digit as a box, DejaVu every Chinese character. Measuring
    goes through the same runs, so wrapping and paging see what is drawn."""

    def __init__(self, latin: pygame.font.Font,
                 cjk: pygame.font.Font | None | Callable[[], pygame.font.Font | None]) -> None:
        self.latin = latin
        # The CJK font is opened when Chinese is first measured or drawn: an
        # English or German box never holds it (a third of a MiB a size).
        self._cjk = cjk
        self._cjk_open = not callable(cjk)
        self._glyphs: dict[str, bool] = {}      # a character: whether its font has it

    @property
    def cjk(self) -> pygame.font.Font | None:
        if not self._cjk_open:
            self._cjk_open = True
            opener = self._cjk
            assert callable(opener)
            self._cjk = opener()
        assert not callable(self._cjk)
        return self._cjk

    def drawable(self, text: str) -> str:
        """`text` without the characters its font has no glyph for (an
        emoji in a player's name), which would be drawn as boxes."""
        if text.isascii():
            return text
        kept = "".join(c for c in text if self._has(c))
        return kept if len(kept) == len(text) else re.sub(r"  +", " ", kept)

    def _has(self, char: str) -> bool:
        known = self._glyphs.get(char)
        if known is None:
            wide = pages.is_wide(char)
            if char.isspace() or ord(char) < 0x250 or wide and self.cjk is None:
                known = True        # Latin is the face's own; no Chinese font is said apart
            else:
                try:
                    known = covers(self.cjk if wide and self.cjk is not None else self.latin,
                                   char)
                except FONT_ERRORS:
                    known = True
            self._glyphs[char] = known
        return known

    def runs(self, text: str) -> list[tuple[str, pygame.font.Font]]:
        """`text` cut where it changes between Chinese and the rest (what
        no font draws left out)."""
        text = self.drawable(text)
        if not pages.has_wide(text) or self.cjk is None:
            return [(text, self.latin)]
        cjk = self.cjk
        return [(run, cjk if wide else self.latin) for run, wide in pages.wide_runs(text)]

    def _fonts(self, wide: bool) -> list[pygame.font.Font]:
        return [self.latin, self.cjk] if wide and self.cjk is not None else [self.latin]

    def step(self, wide: bool = False) -> int:
        """The height of one line (with Chinese in the text: of either font's),
        or the height a line renders at where that is more."""
        return max(max(f.get_linesize(), f.size("Ég中")[1]) for f in self._fonts(wide))

    def size(self, text: str) -> tuple[int, int]:
        runs = self.runs(text)
        if len(runs) == 1:
            return runs[0][1].size(runs[0][0])
        return sum(f.size(run)[0] for run, f in runs), \
            max(self._ascent(runs) - f.get_ascent() + f.size(run)[1] for run, f in runs)

    @staticmethod
    def _ascent(runs: list[tuple[str, pygame.font.Font]]) -> int:
        return max(f.get_ascent() for _run, f in runs)

    def render(self, text: str, color: Color) -> pygame.Surface:
        """`text` in `color` on a transparent surface, each run on the baseline."""
        runs = self.runs(text)
        if len(runs) == 1:
            return runs[0][1].render(runs[0][0], True, color)
        base = self._ascent(runs)
        images = [(f.render(run, True, color), base - f.get_ascent()) for run, f in runs]
        out = pygame.Surface((sum(img.get_width() for img, _y in images),
                              max(y + img.get_height() for img, y in images)), pygame.SRCALPHA)
        x = 0
        for img, y in images:
            # The runs do not overlap: the larger alpha is the run's own.
            out.blit(img, (x, y), special_flags=pygame.BLEND_RGBA_MAX)
            x += img.get_width()
        return out


def is_wide_text(paragraphs: Sequence[str]) -> bool:
    return any(pages.has_wide(p) for p in paragraphs)


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
LEGEND_Y, LEGEND_H = 258, 60
BOX_W, BOX_GAP = 115, 4  # four boxes: 4 + 4 × 115 + 3 × 4 = 476
BAR_H = 8
CAPTION_RESERVE = 3      # lines kept below the bar for a caption, so the timer stays put
SEAT_R = 17              # a seat's disc: "20" at the floor size fits inside
RING_BIG_PX = 44         # the value in the ring's middle (a seat, a role, the clock)

# The join card (View.join): the phones' page as a QR code at the right of
# the middle, its PIN under it, its address and who sits beside the content.
QUIET_ZONE = 4           # modules of light round the code, as ISO/IEC 18004 asks
# The least a module is drawn: QR_MIN_PX on the smallest screens (320×240
# and the box's 480×320: a 25-module code 15 mm wide on its 3.5" panel, read
# by a phone held out over the middle of the table), QR_MODULE logical px on
# larger ones. The code is drawn as large as the screen's own texts leave room
# for (4 or 5 px a module on most of the box's screens).
QR_MIN_PX = 3
QR_MODULE = 3.0
QR_SHARE = 0.42          # of the middle's width, at most, for the code
QR_TRIES = 3             # module sizes tried, from the largest, before notes give way
QR_LIGHT = (255, 255, 255)
QR_DARK = (0, 0, 0)
PIN_PX = 34
CARD_GAP = 10            # logical px between the card and the screen's own content
PLANS_KEPT = 32          # screens whose card plan the painter remembers


@functools.lru_cache(maxsize=8)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `url` as rows of modules, dark True, without its quiet
    zone. Error correction M (15 %): a smudge or a glare on the screen still
    scans. Never a Micro QR, which phone cameras do not read."""
    code = segno.make(url, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


@dataclass(frozen=True)
class CardPlan:
    """Where a join card goes on one screen. The code `smaller` steps (of
    QR_TRIES) from the largest module that fits to the least, in a column
    at the right: from the title's
    top to the legend, the address and who has joined at the foot of the
    content beside it; or (`across`) above them and the footer, which then
    run across the whole width. Without `notes` (NO_CARD, where nothing
    else fits), the start screen's deck notes give way. Compact: no code, the PIN and the
    address across the foot of the middle, with who has joined if `seats`
    (a screen whose own text fills it)."""
    smaller: int = 0
    across: bool = False
    notes: bool = True
    compact: bool = False
    seats: bool = True


NO_CARD = CardPlan(compact=True, seats=False, notes=False)   # drawn without the card


class NoRoom(Exception):
    """A plan being tried does not fit: some text would go under the floor."""


def card_plans(view: View) -> list[CardPlan]:
    """The plans to try for a screen, best first: the largest code beside
    everything the screen shows; the compact line last. The deck's notes
    never give way to the code: where it has no room, the phones' own
    screen (a hold of BACK, wolfbox.join_screen) shows it."""
    sizes = [CardPlan(k, across) for k in range(QR_TRIES) for across in (False, True)]
    return [*sizes, CardPlan(compact=True), CardPlan(compact=True, seats=False)]


def seats_taken(join: JoinCard) -> list[str]:
    """Who has joined, best first: each seat with its name, then the count."""
    if not join.seated:
        return [_("No seat taken yet")]
    count = len(join.seated)
    names = _("Seated: {names}").format(
        names=", ".join(f"{seat} {name}" for seat, name in join.seated))
    return [names, ngettext("{count} seat taken", "{count} seats taken", count).format(
        count=count)]


class Drawn(NamedTuple):
    """One line of text of the last draw."""
    text: str
    px: int                  # the font's pixel size, as given to pygame
    face: Face
    rect: pygame.Rect        # its ink, on the surface
    area: pygame.Rect        # the area it was laid out in, on the surface
    layer: int = 0           # 1: the alert, drawn over the rest on purpose


@dataclass(frozen=True)
class Fit:
    """A text laid out in an area: one list of lines per paragraph."""
    face: Face
    px: int
    paragraphs: tuple[tuple[str, ...], ...]
    height: int
    under: bool = False      # drawn below the floor: it did not fit at the floor


@dataclass(frozen=True)
class Block:
    """A text for an area: paragraphs (each starts a new line), its preferred
    size and the faces to try, widest last."""
    paragraphs: tuple[str, ...]
    pref: float
    color: Color
    faces: tuple[Face, ...] = (Face.SANS,)
    align: str = "center"
    max_lines: int | None = None
    gap: float = 4           # logical px between paragraphs, when there is room


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
    _trial: list[str] | None = None     # a plan being tried: warn() raises NoRoom
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
            _Draw(self, surface, view, notice).all()
            return
        self._trial = []
        try:
            _Draw(self, surface, view, notice).all()
            return
        except NoRoom:
            pass
        finally:
            self._trial = None
        _Draw(self, surface, replace(view, footer=""), notice).all()

    def _draw_with_card(self, surface: pygame.Surface, view: View, notice: str) -> None:
        """The first plan (card_plans) that draws every text at the floor or
        above; the compact one if none does. Each is tried by drawing it
        whole, quietly; the one found is kept for the screen, so the next
        frame (a button held, the same view again) draws it at once."""
        key = (replace(view, held=None, held_progress=0.0), notice, surface.get_size())
        plan = self._plans.get(key)
        if plan is not None:
            self._plans.move_to_end(key)
            _Draw(self, surface, view, notice, plan).all()
            return
        kept: CardPlan | None = None
        for plan in card_plans(view):
            self._trial = []
            try:
                _Draw(self, surface, view, notice, plan).all()
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
            _Draw(self, surface, view, notice, kept).all()
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
        if self._trial is not None:         # a plan being tried: it does not fit
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


class _Draw:
    """One draw of a view: the surface, its scale, and the layout per phase."""

    def __init__(self, painter: Painter, surface: pygame.Surface, view: View,
                 notice: str, plan: CardPlan | None = None) -> None:
        self.p, self.surface, self.view, self.notice = painter, surface, view, notice
        w, h = surface.get_size()
        self.s = min(w / LOGICAL[0], h / LOGICAL[1])
        self.ox, self.oy = (w - LOGICAL[0] * self.s) / 2, (h - LOGICAL[1] * self.s) / 2
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
        self.plan = plan if view.join is not None and plan is not NO_CARD else None
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
        area.width = min(area.width, self.left + self.width - area.left)   # beside a card
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

    def join_card(self, plan: CardPlan) -> None:
        """How phones join (View.join), laid out by `plan`: the code in a
        column at the right with the PIN under it (and who has joined, where
        that fits), the address at the foot of the content or across; the
        rest of the screen keeps what is left (self.left, self.width,
        self.bottom). Raises NoRoom while a plan is tried that leaves the
        code too small to scan."""
        join = self.view.join
        assert join is not None
        pin = Block((_("PIN {pin}").format(pin=join.pin),), PIN_PX, TEXT,
                    (Face.BOLD, Face.CONDENSED), max_lines=1)
        if plan.compact:
            self.card_texts(pin, plan.seats, inline=True)
            if self.view.footer:
                self.footer()
            return
        if plan.across:                 # the foot first: the code keeps above it
            self.card_texts(None, True)
            if self.view.footer:
                self.footer()
        modules = qr_modules(join.url)
        count = len(modules) + 2 * QUIET_ZONE
        top = self.y(TITLE_BOX[1]) + self.px(2)
        most = min(self.bottom - top, math.floor(self.full_width * QR_SHARE)) // count
        least = max(QR_MIN_PX, math.floor(QR_MODULE * self.s))
        module = most - round(max(1, most - least) * plan.smaller / (QR_TRIES - 1))
        if module < least:
            self.p.warn(join.url)       # raises NoRoom: a plan kept never gets here
            module = max(1, module)
        side = count * module
        square = pygame.Rect(self.full_left + self.full_width - side, top, side, side)
        self.qr(square, module, modules)
        self.left, self.width = self.full_left, square.left - self.px(CARD_GAP) - self.full_left
        # Under the code: the PIN if it fits there, then the seats if they do too.
        below = pygame.Rect(square.left, square.bottom + self.px(6), side, 0)
        below.height = self.bottom - below.top
        fit = self.p.fit(pin, self.s, below.width, below.height)
        if fit is None and plan.across:         # no room beside the content for it
            fit = self.p.fit_or_shrink(pin, self.s, below.width, max(1, below.height))
        if fit is None:
            self.card_texts(pin, True)
            return
        self.text(fit, pygame.Rect(below.left, below.top, below.width, fit.height), TEXT)
        if plan.across:
            return
        below.top += fit.height + self.px(2)
        below.height -= fit.height + self.px(2)
        seats = self.seat_blocks(join, below.width, below.height, lines=2)
        fit = self.p.fit(seats, self.s, below.width, below.height)
        if fit is not None:
            self.text(fit, pygame.Rect(below.left, below.top, below.width, fit.height),
                      seats.color)
        self.card_texts(None, fit is None)

    def seat_blocks(self, join: JoinCard, width: int, height: int, lines: int = 1) -> Block:
        """Who has joined: the names if they fit `width` in `lines`, else the count."""
        blocks = [Block((t,), SMALL_PX, NOTE, (Face.SANS, Face.CONDENSED), max_lines=lines)
                  for t in seats_taken(join)]
        return next((b for b in blocks if self.p.fit(b, self.s, width, height) is not None),
                    blocks[-1])

    def url_block(self, url: str, width: int, height: int) -> Block:
        """The page's address on a line, or on two cut before the port."""
        whole = Block((url,), SMALL_PX, TEXT, (Face.SANS, Face.CONDENSED), max_lines=1)
        port = url.rfind(":")
        if self.p.fit(whole, self.s, width, height) is not None or port <= url.find("//"):
            return whole
        return replace(whole, paragraphs=(url[:port], url[port:]), max_lines=2, gap=0)

    def card_texts(self, pin: Block | None, seats: bool, inline: bool = False) -> None:
        """The card's address, with the PIN above it (when it is not under
        the code) and who has joined after it (`seats`), at the foot of the
        middle's column (self.left, self.width); the content keeps above.
        Texts share a line, " · " between, where they fit; `inline`: the PIN
        too, at the size of the rest."""
        left, width = self.left, self.width
        join = self.view.join
        assert join is not None
        room = self.bottom - self.y(TOP)
        url = self.url_block(join.url, width, room)
        stack: list[Block] = []
        if pin is not None and not inline:
            stack.append(pin)
        texts = [*pin.paragraphs] if pin is not None and inline else []
        texts.append(join.url)
        said = seats_taken(join)
        if seats:
            texts.append(said[0])
        line = replace(url, paragraphs=(texts[0],), max_lines=1)
        for text in texts[1:]:
            # Who has joined after the address: the names, else the count.
            for shown in [text, *said[1:]] if text == said[0] else [text]:
                joined = replace(line, paragraphs=(f"{line.paragraphs[0]} · {shown}",))
                if len(url.paragraphs) == 1 and \
                        self.p.fit(joined, self.s, width, room) is not None:
                    break
            else:
                joined = None
            if joined is not None:
                line = joined
                continue
            if text == said[0]:
                text = self.seat_blocks(join, width, room).paragraphs[0]
            stack.append(url if line.paragraphs[0] == join.url else line)
            line = replace(line, paragraphs=(text,),
                           color=NOTE if text != join.url else TEXT)
        stack.append(url if line.paragraphs[0] == join.url else line)
        fits = [self.p.fit_or_shrink(b, self.s, width, room) for b in stack]
        gap = self.px(2)
        y = self.bottom - sum(f.height for f in fits) - gap * (len(fits) - 1)
        self.bottom = y - self.px(6)
        for b, f in zip(stack, fits, strict=True):
            self.text(f, pygame.Rect(left, y, width, f.height), b.color, "left")
            y += f.height + gap

    def qr(self, square: pygame.Rect, module: int,
           modules: tuple[tuple[bool, ...], ...]) -> None:
        """The code: dark modules on light, each `module` px square, inside
        `square`, whose light edge is the quiet zone."""
        pygame.draw.rect(self.surface, QR_LIGHT, square)
        x0 = y0 = QUIET_ZONE * module
        for row, line in enumerate(modules):
            for col, dark in enumerate(line):
                if dark:
                    self.surface.fill(QR_DARK, (square.left + x0 + col * module,
                                                square.top + y0 + row * module, module, module))
        self.p.qr = (square.copy(), module)

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
        in its colour; a hold in progress fills it."""
        view, s = self.view, self.s
        taps, holds = dict(view.legend), dict(view.holds)
        labels: dict[Button, str] = {}
        for button in GAME_BUTTONS:
            label = taps.get(button) or holds.get(button, "")
            if view.held is button:
                label = holds.get(button) or label
            labels[button] = label
        boxes = {b: self.rect(4 + i * (BOX_W + BOX_GAP), LEGEND_Y, BOX_W, LEGEND_H)
                 .move(0, self.drop) for i, b in enumerate(GAME_BUTTONS)}
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


def render_view(view: View, size: tuple[int, int], notice: str = "",
                painter: Painter | None = None) -> pygame.Surface:
    """A fresh surface with `view` drawn on it (screenshots, tests)."""
    surface = pygame.Surface(size)
    (painter or Painter()).draw(surface, view, notice)
    return surface
