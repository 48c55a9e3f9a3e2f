"""The one door every user-visible word passes through.

Screen text, narration and error messages are written in English in the
code and handed to `_()` (or `ngettext()` where a number picks the form),
so a catalogue for another language can replace them without touching the
logic. Words with numbers or names in them use named `{placeholders}` and
`.format()` after `_()`, never f-strings, so a translator can move the
number. Module-level constants are marked with `N_()` where they are
defined and translated with `_()` where they are shown, so a change of
language takes effect without re-importing anything.

The catalogues are the gettext `.po` files in wolfbox/locale/ (one per
language, English the source, edited with Poedit, Weblate or Babel). They
are read as they are, through Babel, when a language is chosen: a fresh
clone has nothing to compile, and an edited `.po` takes effect at the next
start.

For tests there is a pseudo-language, "pseudo": every message comes back
wrapped as "⟦...⟧" (its `{placeholders}` untouched, so `.format()` still
works). Any text on screen or in the narration that is not wrapped never
went through `_()`, and a real translation would miss it too.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "wolfbox"
LOCALE_DIR = Path(__file__).with_name("locale")
# The box's languages, each by its own name (a German table looks for
# "Deutsch", whatever language the box is in): the setting's choices.
LANGUAGES = {"en": "English", "de": "Deutsch", "zh": "中文"}
SOURCE = "en"                       # the language the code is written in
LANGUAGE_KEY = "box.lang"           # the config key that holds the box's language

_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE
_loaded: dict[str, gettext.NullTranslations] = {}


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


def language() -> str:
    """The code of the language `_()` speaks now."""
    return _language


def load_catalogue(code: str) -> gettext.NullTranslations:
    """`code`'s catalogue, read from its `.po` file. OSError or ValueError
    when the file is missing or broken; messages it leaves untranslated (or
    marks fuzzy) come back in English."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po

    path = LOCALE_DIR / f"{code}.po"
    try:
        with path.open("rb") as f:
            catalogue = read_po(f, locale=code, abort_invalid=True)
    except (PoFileError, UnicodeDecodeError, SyntaxError) as e:
        raise ValueError(f"{path}: {e}") from None
    # A message not (wholly) translated is left out, so it falls back to
    # English: a plural with an empty form would otherwise come back empty.
    for message in list(catalogue):
        forms = message.string if isinstance(message.string, (list, tuple)) \
            else (message.string,)
        if message.id and (not all(forms) or message.fuzzy):
            catalogue.delete(message.id, context=message.context)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def use_language(code: str) -> str | None:
    """Switch every later `_()` to `code` ("pseudo": the test pseudo-language).
    Returns None, or one line saying why the box speaks English instead (the
    catalogue is missing or broken: the box goes on, in English)."""
    global _catalogue, _language
    problem = None
    if code == PSEUDO:
        _catalogue = PseudoTranslations()
    elif code == SOURCE:
        _catalogue = gettext.NullTranslations()
    else:
        if code not in _loaded:
            try:
                _loaded[code] = load_catalogue(code)
            except (OSError, ValueError) as e:
                problem = f"no usable {code} catalogue ({e}): the box speaks English"
                code = SOURCE
        _catalogue = _loaded.get(code, gettext.NullTranslations())
    _language = code
    return problem


@contextmanager
def pseudo_translation() -> Iterator[None]:
    """The pseudo-language for the length of a `with`, then the language before."""
    global _catalogue, _language
    before = _catalogue, _language
    use_language(PSEUDO)
    try:
        yield
    finally:
        _catalogue, _language = before


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """`code` for the length of a `with` (a test, a screenshot run), then the
    language before."""
    global _catalogue, _language
    before = _catalogue, _language
    use_language(code)
    try:
        yield
    finally:
        _catalogue, _language = before


# Languages whose sentences follow each other with no space between them.
_NO_SPACE = frozenset({"zh"})


def sentences(texts: Sequence[str]) -> str:
    """Whole sentences, each translated on its own, one after another: with
    a space between them, or none in Chinese."""
    return ("" if _language in _NO_SPACE else " ").join(t for t in texts if t)


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
