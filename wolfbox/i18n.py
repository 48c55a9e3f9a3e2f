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
import logging
import string
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "wolfbox"
LOCALE_DIR = Path(__file__).with_name("locale")
# The box's languages, each by its own name (a German table looks for
# "Deutsch", whatever language the box is in): the setting's choices.
LANGUAGES = {"en": "English", "de": "Deutsch", "zh": "中文"}
SOURCE = "en"                       # the language the code is written in
LANGUAGE_KEY = "box.lang"           # the config key that holds the box's language

# The language of the process (a command's --lang, the box's own words,
# every thread), and a scoped one on top (`speaking`): the games are called
# in the language they render with, which switching does not assign here.
_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE
_scoped: ContextVar[tuple[gettext.NullTranslations, str] | None] = \
    ContextVar("wolfbox_language", default=None)
_loaded: dict[str, gettext.NullTranslations] = {}
_gaps: dict[str, str] = {}           # a catalogue loaded but far from complete: why
_said: set[str] = set()              # the problems already logged (each once a run)
log = logging.getLogger("wolfbox")
# A catalogue that translates less than this share of the template's
# messages is cut short or out of date: said once, and the box speaks it
# with English where it is silent. New messages wait for the translator
# between releases, so a few missing are no news.
COMPLETE_ENOUGH = 0.9


def _current() -> tuple[gettext.NullTranslations, str]:
    scoped = _scoped.get()
    return scoped if scoped is not None else (_catalogue, _language)


def _(message: str) -> str:
    """`message` in the box's language (English if it has no translation)."""
    # gettext("") is a catalogue's header, never a line of ours.
    return _current()[0].gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase that fits `n`, in the box's language."""
    return _current()[0].ngettext(singular, plural, n)


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
    return _current()[1]


def placeholders(text: str) -> frozenset[str] | None:
    """The `{names}` `.format()` fills in `text`, or None when `.format()`
    cannot read it at all (an unclosed `{seat`, a lone `}`)."""
    try:
        return frozenset(name for _text, name, _spec, _conversion
                         in string.Formatter().parse(text) if name is not None)
    except ValueError:
        return None


def fits_english(english: Sequence[str], forms: Sequence[str]) -> bool:
    """Whether translated `forms` fill the same placeholders as the English
    (`english`: the msgid, and its plural if any). A form that names one the
    code does not pass (`{0}` for `{n}`, `{seat` unclosed) would crash
    `.format()`; a message that drops one would leave a number out. A
    plural's form may leave one out ("one player" needs no {count}). English
    that is no format string is never `.format()`ted: anything fits it."""
    wanted = [placeholders(text) for text in english]
    if any(fields is None for fields in wanted):
        return True
    allowed = frozenset().union(*(f for f in wanted if f is not None))
    for form in forms:
        fields = placeholders(form)
        if fields is None or not fields <= allowed or (len(english) == 1 and fields != allowed):
            return False
    return True


def load_catalogue(code: str) -> gettext.NullTranslations:
    """`code`'s catalogue, read from its `.po` file. OSError or ValueError
    when the file is missing or broken; messages it leaves untranslated (or
    marks fuzzy) come back in English, and so does a message whose
    placeholders differ from the English (logged once: a translator's slip
    must not crash a screen). A catalogue much less complete than the
    template is noted in `_gaps` for `use_language` to say."""
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
    mismatched: list[str] = []
    for message in list(catalogue):
        forms = message.string if isinstance(message.string, (list, tuple)) \
            else (message.string,)
        english = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        if not message.id:
            continue
        if not all(forms) or message.fuzzy:
            catalogue.delete(message.id, context=message.context)
        elif not fits_english(english, [form or "" for form in forms]):
            mismatched.append(english[0])
            catalogue.delete(message.id, context=message.context)
    if mismatched:
        log.warning("%s", _("{path}: {count} messages whose placeholders differ from the "
                            "English are shown in English: {messages}").format(
            path=path, count=len(mismatched),
            messages="; ".join(repr(m[:60]) for m in mismatched[:5])))
    translated = sum(1 for message in catalogue if message.id)
    expected = _template_size()
    if expected and translated < COMPLETE_ENOUGH * expected:
        _gaps[code] = _("the {code} catalogue translates only {count} of {total} messages: "
                        "the rest is in English").format(code=code, count=translated,
                                                          total=expected)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _template_size() -> int:
    """How many messages the template (wolfbox.pot) has; 0 if it cannot be read."""
    from babel.messages.pofile import read_po
    try:
        with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as f:
            return sum(1 for message in read_po(f) if message.id)
    except (OSError, ValueError, SyntaxError):      # no template: nothing to compare with
        return 0


def _catalogue_for(code: str) -> tuple[gettext.NullTranslations, str, str | None]:
    """The catalogue of `code`, the code it really is (English when the
    catalogue cannot be read) and why, if it is not all it should be."""
    problem = None
    if code == PSEUDO:
        return PseudoTranslations(), code, None
    if code == SOURCE:
        return gettext.NullTranslations(), code, None
    if code not in _loaded:
        try:
            _loaded[code] = load_catalogue(code)
        except (OSError, ValueError) as e:
            problem = f"no usable {code} catalogue ({e}): the box speaks English"
            code = SOURCE
    catalogue = _loaded.get(code, gettext.NullTranslations())
    problem = problem or _gaps.get(code)
    if problem and problem not in _said:
        _said.add(problem)
        log.warning("%s", problem)
    return catalogue, code, problem


def use_language(code: str) -> str | None:
    """The process's language from now on: a command's `--lang`, the box's
    own words (its notices, its terminal) and every thread's. The games are
    not switched by it: they are called in their own (`speaking`).
    Returns None, or one line saying why the box speaks English instead (the
    catalogue is missing or broken: the box goes on, in English) or in part
    (a catalogue far from complete), for the caller's notice; the line is
    logged here, once a run."""
    global _catalogue, _language
    _catalogue, _language, problem = _catalogue_for(code)
    return problem


@contextmanager
def pseudo_translation() -> Iterator[None]:
    """The pseudo-language for the length of a `with`, then the language before."""
    with speaking(PSEUDO):
        yield


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """`code` for the length of a `with` (a game's turn, a screenshot run),
    then the language before: scoped to this thread and this `with`, never
    left behind."""
    catalogue, real, _problem = _catalogue_for(code)
    token = _scoped.set((catalogue, real))
    try:
        yield
    finally:
        _scoped.reset(token)


# Languages whose sentences follow each other with no space between them.
_NO_SPACE = frozenset({"zh"})


def sentences(texts: Sequence[str]) -> str:
    """Whole sentences, each translated on its own, one after another: with
    a space between them, or none in Chinese."""
    return ("" if language() in _NO_SPACE else " ").join(t for t in texts if t)


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
