"""The screen model's page sizes: how much text one screen may carry.

The flow splits long captions, rule lists and deck notes into pages by
these budgets, so every page fits the painter's text areas at the size
floor; the painter's tests check each budget against the real font at
480×320 and 320×240. Counting characters, not pixels, keeps the core free
of fonts; the budgets are set for wide text (capitals, German words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

CHARS_PER_LINE = 36     # a line of text at the floor size across the screen, with slack
CAPTION_LINES = 4       # a caption page: the night screen's middle holds this many lines
RULES_LINES = 7         # a reveal page
IDLE_LINES = 3          # the start screen's deck and setup notes
SETTING_LINES = 3       # the notes under a setting's value
IDLE_PAGE_SECONDS = 6.0  # how long a start-screen page stays before the next
MORE = "…"              # ends a page that continues on the next


# ---------------------------------------------------------------- text units
# Chinese is written without spaces: a line may break between any two of
# its characters, except before closing punctuation or after an opening
# one. Its characters are also twice as wide as a Latin letter, so the
# budgets count them twice.
_WIDE = re.compile(r"[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF"
                   r"\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF"
                   r"\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]")
CLOSING = frozenset("，。、：；！？）」』】》〉…,.:;!?)%")
OPENING = frozenset("（「『【《〈(")


_WIDE_RUNS = re.compile(f"((?:{_WIDE.pattern})+)")


def is_wide(char: str) -> bool:
    return bool(_WIDE.match(char))


def has_wide(text: str) -> bool:
    """Whether `text` has a Chinese (wide) character in it."""
    return _WIDE.search(text) is not None


def wide_runs(text: str) -> list[tuple[str, bool]]:
    """`text` cut where it changes between wide characters and the rest:
    (run, wide) in order, none empty."""
    return [(run, i % 2 == 1) for i, run in enumerate(_WIDE_RUNS.split(text)) if run]


def width(text: str) -> int:
    """`text`'s width in Latin letters: a Chinese character counts two."""
    return sum(2 if is_wide(c) else 1 for c in text)


def tokens(text: str) -> list[tuple[str, str]]:
    """`text` as the units a line may break between, each with what joins it
    to the one before (" " where the text had a space, "" within Chinese):
    words, and each Chinese character with its punctuation."""
    out: list[tuple[str, str]] = []
    for word in text.split():
        glue, unit, wide = " " if out else "", "", False
        for char in word:
            starts = unit and not all(c in OPENING for c in unit) and char not in CLOSING \
                and (is_wide(char) or wide)
            if starts:
                out.append((glue, unit))
                glue, unit = "", ""
            unit += char
            if char not in CLOSING:
                wide = is_wide(char)
        out.append((glue, unit))
    return out


def joined(units: list[tuple[str, str]]) -> str:
    """Units back as text (the first one's glue dropped)."""
    return "".join(glue + unit for glue, unit in units).lstrip(" ")


def lines_needed(text: str, per_line: int = CHARS_PER_LINE) -> int:
    """Lines `text` takes when wrapped between its units, `per_line` letters
    wide each (a Chinese character is two)."""
    lines, used = 1, 0
    for glue, unit in tokens(text):
        need = width(unit)
        # A unit longer than a line takes as many lines as it needs.
        if used and used + len(glue) + need > per_line:
            lines, used = lines + 1, 0
        if used:
            used += len(glue)
        used += need
        while used > per_line:
            lines, used = lines + 1, used - per_line
    return lines


def split_text(text: str, max_lines: int, per_line: int = CHARS_PER_LINE) -> tuple[str, ...]:
    """`text` in pages of at most `max_lines` lines, broken after a sentence
    where one fits, else between units; every page but the last ends in …"""
    if lines_needed(text, per_line) <= max_lines:
        return (text,)
    room = max_lines - 1 if max_lines > 1 else max_lines   # the last line keeps room for …
    pages: list[str] = []
    rest = tokens(text)
    while rest:
        take = _fit(rest, max_lines if _all_fit(rest, max_lines, per_line) else room, per_line)
        units, rest = rest[:take], rest[take:]
        wide_end = is_wide(units[-1][1][-1])
        pages.append(joined(units) + (("" if wide_end else " ") + MORE if rest else ""))
    return tuple(pages)


def _all_fit(units: list[tuple[str, str]], max_lines: int, per_line: int) -> bool:
    return lines_needed(joined(units), per_line) <= max_lines


def _fit(units: list[tuple[str, str]], max_lines: int, per_line: int) -> int:
    """How many of `units` start this page: up to a sentence end if one is
    at least half way, else as many as fit (always at least one)."""
    fit = 1
    while fit < len(units) and lines_needed(joined(units[:fit + 1]), per_line) <= max_lines:
        fit += 1
    if fit == len(units):
        return fit
    ends = [i + 1 for i in range(fit) if re.search(r"[.!?:;。！？：；]$", units[i][1])]
    return ends[-1] if ends and ends[-1] * 2 >= fit else fit


def group(items: Iterable[str], max_lines: int,
          per_line: int = CHARS_PER_LINE) -> tuple[tuple[str, ...], ...]:
    """Items (rules, notes) in pages of at most `max_lines` lines; an item
    too long for one page is split across pages of its own."""
    pages: list[tuple[str, ...]] = []
    page: list[str] = []
    used = 0
    for item in items:
        need = lines_needed(item, per_line)
        if need > max_lines:
            if page:
                pages.append(tuple(page))
                page, used = [], 0
            pages += [(part,) for part in split_text(item, max_lines, per_line)]
            continue
        if page and used + need > max_lines:
            pages.append(tuple(page))
            page, used = [], 0
        page.append(item)
        used += need
    if page:
        pages.append(tuple(page))
    return tuple(pages) or ((),)


def page_at(pages: tuple[str, ...], elapsed: float, total: float) -> int:
    """Which page of a spoken line shows `elapsed` seconds into its `total`:
    each page's share of the time is its share of the characters."""
    if total <= 0:
        return 0
    return sum(1 for start in page_starts(pages, total) if elapsed >= start - EPSILON)


def page_starts(pages: tuple[str, ...], total: float) -> list[float]:
    """Seconds into the line at which each page after the first begins."""
    weights = [max(1, len(p)) for p in pages]
    whole = sum(weights)
    out, t = [], 0.0
    for w in weights[:-1]:
        t += total * w / whole
        out.append(t)
    return out


# Below this, a difference of times is rounding (as in wolfbox.timer): a
# page due now has turned.
EPSILON = 1e-6

PER_WORD = 0.42     # seconds a word on screen, at speech speed 1


def caption_seconds(text: str, per_word: float = PER_WORD) -> float:
    """How long a line holds the flow when no voice reports its end.

    A little longer than the voice takes (the bundled voice speaks about
    0.32 s a word), so a spoken line normally ends first and its end event
    moves the flow on; captions-only, it is about the time to read it.
    A pure function of the text: every role call gets the same time
    whether its card is in play or in the center. Chinese has no words to
    count: a character counts as a word (espeak-ng's Mandarin says about
    2.5 a second, measured; a Piper voice is faster and ends the line by
    its own report). A word longer than twelve letters (German's
    compounds; English has none in its lines) counts for more.
    """
    units = 0.0
    for _glue, unit in tokens(text):
        wide = sum(1 for c in unit if is_wide(c) and c not in CLOSING)
        letters = sum(1 for c in unit if c.isalpha())
        units += wide if wide else 1 + max(0, letters - LONG_WORD) / 8
    return 0.6 + per_word * units


LONG_WORD = 12      # letters: a word beyond this takes longer to say
