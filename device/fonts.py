"""The typefaces: DejaVu Sans, shipped in wolfbox/fonts, and the system's
CJK face for Chinese, drawn in runs side by side (Type); where the CJK
face is looked for, and how a font file is judged usable."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from enum import StrEnum
from importlib import resources
from pathlib import Path

import pygame

from wolfbox import pages

from .style import Color


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

