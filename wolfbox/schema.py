"""Shapes of what the command line reads, checked by msgspec.

Each JSON input (`referee`'s game, `resolve`'s night, `replay`'s events)
is declared once as a msgspec Struct and converted with it, after
`wolfbox.jsontext` has parsed the text within its limits. msgspec names
the first thing that does not fit, in English and with a JSON path; this
module turns that into a `Misfit` (where, and what kind of problem) so
each command can say it in the table's language, with an example of what
it takes. The game's own rules (seats in range, known roles, the
cards that exist) are checked after the shape, by each command.
"""

from __future__ import annotations

import re
from typing import TypeVar

import msgspec

from .errors import Misfit as Misfit

T = TypeVar("T")

Path = tuple[str | int, ...]

# msgspec's ValidationError messages (0.18 and later), e.g.
#   Expected `int`, got `str` - at `$.players[0].vote`
#   Object missing required field `vote` - at `$.players[2]`
#   Object contains unknown field `voted` - at `$.players[0]`
#   Expected `int`, got `str` - at `key` in `$.actions`
_AT = re.compile(r" - at (`key` in )?`(\$[^`]*)`$")
_MISSING = re.compile(r"^Object missing required field `([^`]*)`")
_UNKNOWN = re.compile(r"^Object contains unknown field `([^`]*)`")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")


def convert(data: object, shape: type[T]) -> T:
    """`data` (parsed JSON) as `shape`; Misfit names what does not fit.

    Strict: a number in quotes is not a number, true is not 1 (so object
    keys, text in JSON, stay text: seats as keys are checked by the rules).
    """
    try:
        return msgspec.convert(data, shape, strict=True)
    except msgspec.ValidationError as e:
        raise misfit(str(e)) from None


def misfit(message: str) -> Misfit:
    """A msgspec ValidationError's message as a Misfit."""
    at = _AT.search(message)
    path = _path(at.group(2)) if at else ()
    head = message[:at.start()] if at else message
    if m := _MISSING.match(head):
        return Misfit(path, "missing", m.group(1))
    if m := _UNKNOWN.match(head):
        return Misfit(path, "unknown", m.group(1))
    return Misfit(path, "key" if at and at.group(1) else "value")


def _path(text: str) -> Path:
    steps: list[str | int] = []
    for name, index in _STEP.findall(text[1:]):
        if name:
            steps.append(name)
        else:
            steps.append(int(index) if index.isdigit() else index)
    return tuple(steps)


def at(data: object, path: Path) -> object:
    """The value at `path` in `data`, or None where the path leaves it."""
    for step in path:
        if isinstance(step, int) and isinstance(data, list) and 0 <= step < len(data):
            data = data[step]
        elif isinstance(step, str) and isinstance(data, dict) and step in data:
            data = data[step]
        else:
            return None
    return data
