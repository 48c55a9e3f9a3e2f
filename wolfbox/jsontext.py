"""Reading JSON a person hands the box: `wolfbox referee`, `resolve` and
`replay`, and the state the box saved.

Python's parser fails on some text in ways no caller expects: nesting a few
thousand deep raises RecursionError (and code walking the result recurses
too), a number of more than 4300 digits raises a bare ValueError, and a
smaller one still overflows the moment it meets a float (an event's time
checked with math.isfinite), 1e400 parses as inf and NaN/Infinity are taken
as numbers, and an object's keys are text of any length (a seat number of
4,300 digits breaks int()). Every command reads its
JSON here, so each of these is one ValueError with one line saying why
(`NotJson`), which the caller words as its own "not JSON" message.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from .errors import NotJson as NotJson
from .i18n import N_, _

MAX_CHARS = 1024 * 1024     # far more than any game, night or line of events
MAX_DEPTH = 64              # a game or a night is three deep
MAX_DIGITS = 64             # a seat, a vote, a time: none needs more
MAX_KEY = 64                # a key names a field or a seat: none needs more


# Python's parser says why in English; these are its words (json.decoder),
# translated, so a German line is German to its end. Words not here stay
# as Python wrote them.
DECODER_WORDS = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes":
        N_("a key in double quotes was expected"),
    "Expecting ',' delimiter": N_("a comma was expected"),
    "Expecting ':' delimiter": N_("a colon was expected"),
    "Extra data": N_("more text after the JSON"),
    "Unterminated string starting at": N_("a string is not closed"),
    "Invalid control character at": N_("a control character inside a string"),
    "Invalid \\escape": N_("a backslash escape JSON does not know"),
    "Invalid \\uXXXX escape": N_("a \\u escape that is not four hex digits"),
    "Illegal trailing comma before end of object": N_("a comma before the closing brace"),
    "Illegal trailing comma before end of array": N_("a comma before the closing bracket"),
}


def decoder_words(e: json.JSONDecodeError) -> str:
    """Why the text is not JSON, in the box's language, with where."""
    why = DECODER_WORDS.get(e.msg)
    return _("{why} (line {line}, column {column})").format(
        why=_(why) if why else e.msg, line=e.lineno, column=e.colno)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def depth(text: str) -> int:
    """How deep `text`'s brackets nest, outside its strings (a quick look,
    before the parser recurses into them)."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise NotJson(_("a number of more than {limit} digits").format(limit=MAX_DIGITS))
    return int(digits)


def _float(text: str) -> float:
    if not math.isfinite(value := float(text)):
        raise NotJson(_("a number too large ({number}); numbers must be finite").format(
            number=text[:20] + ("…" if len(text) > 20 else "")))
    return value


def _constant(name: str) -> Any:
    raise NotJson(_("{name} is not a number JSON allows").format(name=name))


def _keys_bounded(hook: Callable[[list[tuple[str, Any]]], Any] | None
                  ) -> Callable[[list[tuple[str, Any]]], Any]:
    def checked(pairs: list[tuple[str, Any]]) -> Any:
        for key, _value in pairs:
            if len(key) > MAX_KEY:
                raise NotJson(_("a key of more than {limit} characters ({key}…)").format(
                    limit=MAX_KEY, key=key[:20]))
        return hook(pairs) if hook is not None else dict(pairs)
    return checked


def loads(text: str, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None
          ) -> Any:
    """`text` parsed, or NotJson (one line) for text too long, too deep, with
    a number too large or not finite (1e400, NaN, Infinity), a key too long,
    or not JSON at all. What the hook raises (a caller's own UserError)
    passes through as it is."""
    if len(text) > MAX_CHARS:
        raise NotJson(_("more than {limit} KiB").format(limit=MAX_CHARS // 1024))
    if depth(text) > MAX_DEPTH:
        raise _too_deep()
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float,
                          parse_constant=_constant,
                          object_pairs_hook=_keys_bounded(object_pairs_hook))
    except json.JSONDecodeError as e:
        raise NotJson(decoder_words(e)) from None
    except RecursionError:                       # not reached below MAX_DEPTH; never a traceback
        raise _too_deep() from None


def _too_deep() -> NotJson:
    return NotJson(_("nested too deeply (more than {limit} levels)").format(limit=MAX_DEPTH))
