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


def lines_needed(text: str, per_line: int = CHARS_PER_LINE) -> int:
    """Lines `text` takes when wrapped at word boundaries, `per_line` chars each."""
    lines, used = 1, 0
    for word in text.split():
        # A word longer than a line takes as many lines as it needs.
        if used and used + 1 + len(word) > per_line:
            lines, used = lines + 1, 0
        if used:
            used += 1
        used += len(word)
        while used > per_line:
            lines, used = lines + 1, used - per_line
    return lines


def split_text(text: str, max_lines: int, per_line: int = CHARS_PER_LINE) -> tuple[str, ...]:
    """`text` in pages of at most `max_lines` lines, broken after a sentence
    where one fits, else between words; every page but the last ends in …"""
    if lines_needed(text, per_line) <= max_lines:
        return (text,)
    room = max_lines - 1 if max_lines > 1 else max_lines   # the last line keeps room for …
    pages: list[str] = []
    rest = text.split()
    while rest:
        take = _fit(rest, max_lines if _all_fit(rest, max_lines, per_line) else room, per_line)
        words, rest = rest[:take], rest[take:]
        pages.append(" ".join(words) + (f" {MORE}" if rest else ""))
    return tuple(pages)


def _all_fit(words: list[str], max_lines: int, per_line: int) -> bool:
    return lines_needed(" ".join(words), per_line) <= max_lines


def _fit(words: list[str], max_lines: int, per_line: int) -> int:
    """How many of `words` start this page: up to a sentence end if one is
    at least half way, else as many as fit (always at least one)."""
    fit = 1
    while fit < len(words) and lines_needed(" ".join(words[:fit + 1]), per_line) <= max_lines:
        fit += 1
    if fit == len(words):
        return fit
    ends = [i + 1 for i in range(fit) if re.search(r"[.!?:;。！？]$", words[i])]
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
    return sum(1 for start in page_starts(pages, total) if elapsed >= start)


def page_starts(pages: tuple[str, ...], total: float) -> list[float]:
    """Seconds into the line at which each page after the first begins."""
    weights = [max(1, len(p)) for p in pages]
    whole = sum(weights)
    out, t = [], 0.0
    for w in weights[:-1]:
        t += total * w / whole
        out.append(t)
    return out


PER_WORD = 0.42     # seconds a word on screen, at speech speed 1


def caption_seconds(text: str, per_word: float = PER_WORD) -> float:
    """How long a line holds the flow when no voice reports its end.

    A little longer than the voice takes (the bundled voice speaks about
    0.32 s a word), so a spoken line normally ends first and its end event
    moves the flow on; captions-only, it is about the time to read it.
    A pure function of the text: every role call gets the same time
    whether its card is in play or in the center.
    """
    return 0.6 + per_word * len(text.split())
