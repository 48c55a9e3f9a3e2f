"""The one door every user-visible word passes through.

Screen text, narration and error messages are written in English in the
code and handed to `_()` (or `ngettext()` where a number picks the form),
so a catalogue for another language can replace them without touching the
logic. Words with numbers or names in them use named `{placeholders}` and
`.format()` after `_()`, never f-strings, so a translator can move the
number. Module-level constants are marked with `N_()` where they are
defined and translated with `_()` where they are shown, so a change of
language takes effect without re-importing anything.

For tests there is a pseudo-language, "pseudo": every message comes back
wrapped as "⟦...⟧" (its `{placeholders}` untouched, so `.format()` still
works). Any text on screen or in the narration that is not wrapped never
went through `_()`, and a real translation would miss it too.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "wolfbox"
LOCALE_DIR = Path(__file__).with_name("locale")

_catalogue: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """`message` in the box's language (English if it has no translation)."""
    # gettext("") is a catalogue's header, never a line of ours.
    return _catalogue.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase that fits `n`, in the box's language."""
    return _catalogue.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a constant for translation; it is translated where it is used."""
    return message


PSEUDO = "pseudo"


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-language: each message as "⟦message⟧", placeholders kept."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧" if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)


def use_language(code: str) -> None:
    """Switch every later `_()` to `code`'s catalogue (English if there is
    none; "pseudo" for the test pseudo-language)."""
    global _catalogue
    if code == PSEUDO:
        _catalogue = PseudoTranslations()
    else:
        _catalogue = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


@contextmanager
def pseudo_translation() -> Iterator[None]:
    """The pseudo-language for the length of a `with`, then the language before."""
    global _catalogue
    before = _catalogue
    use_language(PSEUDO)
    try:
        yield
    finally:
        _catalogue = before


def listed(items: Sequence[str]) -> str:
    """Names in a list, in the box's language: "Seer, Robber"."""
    text = items[0] if items else ""
    for item in items[1:]:
        # TRANSLATORS: a list being built, one more added: "Seer, Robber".
        text = _("{names}, {name}").format(names=text, name=item)
    return text


def copies(name: str, count: int) -> str:
    """A card or role with its copies: "2× Werewolf", or the name alone for one."""
    # TRANSLATORS: {count} copies of a card or role: "2× Werewolf".
    return _("{count}× {role}").format(count=count, role=name) if count > 1 else name
