"""The one door every user-visible word passes through.

Screen text, narration and error messages are written in English in the
code and handed to `_()` (or `ngettext()` where a number picks the form),
so a catalogue for another language can replace them without touching the
logic. Words with numbers or names in them use named `{placeholders}` and
`.format()` after `_()`, never f-strings, so a translator can move the
number. Module-level constants are marked with `N_()` where they are
defined and translated with `_()` where they are shown, so a change of
language takes effect without re-importing anything.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "wolfbox"
LOCALE_DIR = Path(__file__).with_name("locale")

_catalogue: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """`message` in the box's language (English if it has no translation)."""
    return _catalogue.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase that fits `n`, in the box's language."""
    return _catalogue.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a constant for translation; it is translated where it is used."""
    return message


def use_language(code: str) -> None:
    """Switch every later `_()` to `code`'s catalogue (English if there is none)."""
    global _catalogue
    _catalogue = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
