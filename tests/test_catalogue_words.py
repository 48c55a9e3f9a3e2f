"""Issue 42.10: words a table reads twice must read the same. The Chinese
catalogue freed a seat with three verbs (释放, 让出, 移除) and named the
center cards in two forms; the German one said "Platz frei" on a button
(read as a state, not an action)."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from wolfbox.i18n import LOCALE_DIR


def catalogue(lang: str) -> dict[str, str]:
    with (LOCALE_DIR / f"{lang}.po").open("rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id and isinstance(m.id, str)}


def test_chinese_frees_a_seat_with_one_verb():
    zh = catalogue("zh")
    freeing = {k: v for k, v in zh.items() if re.search(r"\bfree(d)?\b", k) and "seat" in k}
    assert freeing                                       # the phones' screen has some
    for source, text in freeing.items():
        assert "释放" in text and not re.search("让出|移除", text), (source, text)


def test_chinese_names_the_center_cards_in_one_form():
    zh = catalogue("zh")
    cards = {k: v for k, v in zh.items() if re.search(r"Center cards? \{", k)}
    assert len(cards) >= 2
    for source, text in cards.items():
        assert re.search(r"第\{\w+\}(和第\{\w+\})?张中央牌", text), (source, text)


def test_the_german_hold_to_free_a_seat_reads_as_an_action():
    assert catalogue("de")["Hold: free seat"].endswith("freigeben")


def test_the_night_rule_of_one_night_on_phones_is_one_page_in_every_language():
    """Shown on the start screen and the phones as one note: a page holds
    three lines (German's took four, and split the rule in two)."""
    from wolfbox.i18n import LANGUAGES, _, speaking
    from wolfbox.onenight.night import PHONE_RULE
    from wolfbox.pages import group
    for lang in LANGUAGES:
        with speaking(lang):
            assert len(group([_(PHONE_RULE)], 3)) == 1, lang
