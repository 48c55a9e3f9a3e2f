"""How a line is said, where that differs from how it is written.

The screen shows a line as the catalogue writes it, and the cache keys it
so; the voice is handed its spoken form (audio/renderer.py). The rules are
small and per language, each for a case the catalogue has and a voice
reads wrongly:

- Chinese says two of something as 两 ("两票"), not 二; a seat or an
  ordinal keeps 二 ("2号玩家", "第2夜").
- German says one of something as an article that agrees with its noun
  ("Noch eine Minute", "mit einer Stimme", "ein Werwolf"), not "eins";
  a seat number keeps its digit ("Platz 1", "Spieler 1").
- German and Chinese name a button by its cap's colour ("Halte die rote
  Taste", "按住红色键"): both voices read "VOTE" and "START" as words of
  their own language ("Wote", "Schtart"), or, in Chinese, switch to an
  English voice for them. English keeps the names, which it reads well.

The colours are the buttons' own (wolfbox.buttons.BUTTON_COLORS, which the
legend and the wiring diagram draw): recolour a button there and the voice
follows.
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Callable

from .buttons import BUTTON_COLORS, GAME_BUTTONS

# ------------------------------------------------------------------ Chinese
# Chinese says 两, not 二, for two of something ("两票", two votes); an
# ordinal or a seat number keeps 二 ("2号玩家", "第2夜"). Voices read the
# digit as 二, so the spoken form of a line says it as a word.
_TWO_OF = re.compile(r"(?<![\d第.])2(?=(?:票|分钟|分|秒|名|张|人|个|位|次|晚|天|条|种))")

# ------------------------------------------------------------------- German
# The gender of the nouns "1" is said before, by how the word ends (so a
# compound, "Werwolf", takes its last part's: "Wolf"). Kept to nouns the
# catalogue counts, or plausibly will; a noun not here keeps its digit.
_GENDER = {
    "minute": "f", "sekunde": "f", "stimme": "f", "karte": "f", "runde": "f",
    "nacht": "f", "hand": "f",
    "wolf": "m", "spieler": "m", "tag": "m", "platz": "m",
    "spiel": "n", "leben": "n",
}
# "1" after these words is a number, not a count: "Platz 1", "Spieler 1".
_NUMBERED = frozenset({"platz", "spieler", "sitz", "nummer", "nr", "tag", "nacht",
                       "runde", "seite", "schritt"})
# Prepositions that take the dative ("mit einer Stimme") or the accusative
# ("für einen Spieler"); after any other word a count is the subject or a
# feminine or neuter object, where nominative and accusative agree.
_DATIVE = frozenset({"mit", "von", "bei", "nach", "aus", "zu", "seit", "in", "vor"})
_ACCUSATIVE = frozenset({"für", "um", "durch", "gegen", "ohne"})
_ONE = {  # case -> gender -> the article said for "1"
    "nom": {"f": "eine", "m": "ein", "n": "ein"},
    "acc": {"f": "eine", "m": "einen", "n": "ein"},
    "dat": {"f": "einer", "m": "einem", "n": "einem"},
}
_DE_ONE = re.compile(r"(?:\b(?P<before>[^\W\d]+)(?P<gap>\s+))?(?<![\d.,])\b1\s+"
                     r"(?P<noun>[A-ZÄÖÜ][^\W\d]*)\b")

# A button's colour, as a German adjective's stem and in Chinese.
_COLOUR_WORDS = {
    "red": ("rot", "红色"), "orange": ("orangefarben", "橙色"), "yellow": ("gelb", "黄色"),
    "green": ("grün", "绿色"), "blue": ("blau", "蓝色"), "purple": ("violett", "紫色"),
    "grey": ("grau", "灰色"), "white": ("weiß", "白色"),
}
# The buttons by the names on their caps, as the catalogue writes them.
# Latin letters around do not count as the name's edge; Chinese ones do.
_BUTTON = re.compile(r"(?<![A-Za-z])(?P<name>" + "|".join(b.value.upper() for b in GAME_BUTTONS)
                     + r")(?![A-Za-z])")
_DE_BUTTON = re.compile(r"(?:\b(?P<before>[^\W\d]+)(?P<gap>\s+))?" + _BUTTON.pattern)
# A button named just before "und"/"oder" (which shares its case).
_DE_BUTTON_BEFORE = re.compile(_DE_BUTTON.pattern + r"\s+(?:und|oder)\s+$")
_JOINS = frozenset({"und", "oder"})
_ZH_BUTTON = re.compile(r"\s*" + _BUTTON.pattern + r"\s*(?P<key>键|按钮)?")


def colour_name(rgb: tuple[int, int, int]) -> str:
    """The everyday name of a colour ("red"), from its hue, saturation and
    brightness: the words a table would use for the button's cap."""
    hue, saturation, value = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    if saturation < 0.25:
        return "white" if value > 0.9 else "grey"
    degrees = hue * 360
    for limit, name in ((15, "red"), (40, "orange"), (70, "yellow"), (170, "green"),
                        (260, "blue"), (335, "purple")):
        if degrees < limit:
            return name
    return "red"


def _button_colour(name: str) -> str:
    """The colour of the button whose cap says `name` ("VOTE")."""
    return colour_name(BUTTON_COLORS[next(b for b in GAME_BUTTONS if b.value.upper() == name)])


def _capital(word: str, text: str, start: int) -> str:
    """`word` capitalised where it begins a sentence (the line, or after . ! ?)."""
    before = text[:start].rstrip()
    return word[0].upper() + word[1:] if not before or before[-1] in ".!?" else word


def _case(before: str | None) -> str:
    word = (before or "").lower()
    return "dat" if word in _DATIVE else "acc" if word in _ACCUSATIVE else "nom"


def _gender(noun: str) -> str | None:
    word = noun.lower()
    ends = [end for end in _GENDER if word.endswith(end)]
    return _GENDER[max(ends, key=len)] if ends else None


def _german_one(match: re.Match[str]) -> str:
    before, gap, noun = match["before"], match["gap"] or "", match["noun"]
    gender = _gender(noun)
    if gender is None or (before or "").lower() in _NUMBERED:
        return match[0]
    lead = f"{before}{gap}" if before else ""
    start = match.start() + len(lead)
    article = _capital(_ONE[_case(before)][gender], match.string, start)
    return f"{lead}{article} {noun}"


def _button_case(before: str | None, text: str, name: int) -> str:
    """The case the button named at `name` is in: its preposition's, or,
    joined by "und"/"oder" to a button before it, that one's ("mit BACK
    oder NEXT")."""
    if (before or "").lower() in _JOINS:
        earlier = _DE_BUTTON_BEFORE.search(text, 0, name)
        if earlier is not None:
            return _button_case(earlier["before"], text, earlier.start("name"))
    return _case(before)


def _german_button(match: re.Match[str]) -> str:
    before, gap = match["before"], match["gap"] or ""
    stem = _COLOUR_WORDS[_button_colour(match["name"])][0]
    dative = _button_case(before, match.string, match.start("name")) == "dat"
    phrase = f"der {stem}en Taste" if dative else f"die {stem}e Taste"
    lead = f"{before}{gap}" if before else ""
    return lead + _capital(phrase, match.string, match.start() + len(lead))


def _chinese_button(match: re.Match[str]) -> str:
    return _COLOUR_WORDS[_button_colour(match["name"])][1] + (match["key"] or "键")


def _german(text: str) -> str:
    return _DE_BUTTON.sub(_german_button, _DE_ONE.sub(_german_one, text))


def _chinese(text: str) -> str:
    return _ZH_BUTTON.sub(_chinese_button, _TWO_OF.sub("两", text))


_RULES: dict[str, Callable[[str], str]] = {"de": _german, "zh": _chinese}


def spoken(text: str, lang: str) -> str:
    """`text` as the voice should read it in `lang`; the screen and the
    cache key keep `text` as written."""
    rule = _RULES.get(lang)
    return rule(text) if rule is not None else text
