"""argparse's own words in the box's language, wrapped to the terminal's width.

argparse words its messages ("usage: ", "options", "unrecognized
arguments: %s") through `gettext` from its own module namespace, which knows
nothing of the box's catalogues. `in_our_language()` points those names at
wolfbox.i18n while the command line is read, so a German help says so in
German. The msgids below are argparse's exactly (Python 3.11's, those a
person can meet), marked here so `make pot` gives them to translators; one
the catalogue lacks stays English, as before.

argparse also wraps help with textwrap, which counts characters: a line of
Chinese, each character two columns wide, came out twice as wide as the
terminal. `Formatter` wraps such text by display width (wolfbox.pages), and
leaves text with no wide character to textwrap, so English and German read
exactly as argparse prints them.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from contextlib import contextmanager

from .i18n import N_, _, ngettext
from .pages import is_wide, joined, tokens, width

MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def expected_arguments(count: int) -> str:
    """argparse's one counted message, "expected 2 arguments", in the box's
    language: written out here so `make pot` collects both its forms."""
    return ngettext("expected %s argument", "expected %s arguments", count) % count


@contextmanager
def in_our_language() -> Iterator[None]:
    """argparse's words through the box's catalogue while inside (the
    parser is built and reads the command line in here), then its own."""
    names = vars(argparse)
    before = names["_"], names["ngettext"]
    names["_"], names["ngettext"] = _, ngettext
    try:
        yield
    finally:
        names["_"], names["ngettext"] = before


# Chinese punctuation after which a line may break, Latin text following or not.
_BREAK_AFTER = re.compile(r"(?<=[，。、：；！？）」』】》〉])(?=.)")


def _units(text: str, columns: int) -> list[tuple[str, str]]:
    """wolfbox.pages' units, broken further after Chinese punctuation, and a
    unit still wider than a line cut to the line, as textwrap cuts a word."""
    out: list[tuple[str, str]] = []
    for glue, unit in tokens(text):
        for part in _BREAK_AFTER.split(unit):
            while width(part) > columns:
                cut = 1
                while width(part[:cut + 1]) <= columns:
                    cut += 1
                out.append((glue, part[:cut]))
                glue, part = "", part[cut:]
            out.append((glue, part))
            glue = ""
    return out


def wrap(text: str, columns: int) -> list[str]:
    """`text` in lines of at most `columns` display columns (a Chinese
    character takes two), broken between words, between Chinese characters
    or after Chinese punctuation."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for glue, unit in _units(text, max(columns, 2)):
        need = width(unit)
        if lines[-1] and used + len(glue) + need > columns:
            lines.append([])
            used = 0
        used += (len(glue) if lines[-1] else 0) + need
        lines[-1].append((glue, unit))
    return [joined(line) for line in lines if line]


def _has_wide(text: str) -> bool:
    return any(is_wide(c) for c in text)


class Formatter(argparse.HelpFormatter):
    """argparse's help, with wide text wrapped by display width."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _has_wide(text):
            return super()._split_lines(text, width)
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _has_wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))
