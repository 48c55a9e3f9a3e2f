"""Issue 20.7: a catalogue is checked when it loads. A message whose
placeholders differ from the English (`{seat}` renamed, `{seat` unclosed,
`{0}` for `{n}`) is shown in English instead of crashing `.format()`, and
logged once; a catalogue that is missing, broken, empty or cut short is
said once (a log line, and the line `use_language` returns for the box's
notice)."""

from __future__ import annotations

import logging
import re
import shutil

import pytest

from wolfbox import i18n
from wolfbox.i18n import _, ngettext, placeholders, use_language

REAL = i18n.LOCALE_DIR


@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    """A locale folder of this test's own, with the real template; nothing loaded yet."""
    shutil.copy(REAL / "wolfbox.pot", tmp_path / "wolfbox.pot")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    monkeypatch.setattr(i18n, "_gaps", {})
    monkeypatch.setattr(i18n, "_said", set())
    yield tmp_path
    use_language("en")


def _entries(po: str) -> list[str]:
    return po.split("\n\n")


def _spoil(po: str, how) -> tuple[str, list[tuple[str, str]]]:
    """Every fifth single (not plural) translation with a placeholder spoiled
    by `how` (the catalogue stays complete enough to say nothing of it);
    the English and the spoiled translation of each."""
    spoiled = []
    out = []
    seen = 0
    for entry in _entries(po):
        m = re.search(r'^msgid "(.*)"\nmsgstr "(.*\{\w+\}.*)"$', entry, re.M)
        if m and "msgid_plural" not in entry and "fuzzy" not in entry \
                and '\\"' not in m.group(1) and "\\" not in m.group(2):
            seen += 1
        if m and seen % 5 == 1 and "msgid_plural" not in entry and "fuzzy" not in entry \
                and '\\"' not in m.group(1) and "\\" not in m.group(2):
            bad = how(m.group(2))
            entry = entry.replace(f'msgstr "{m.group(2)}"', f'msgstr "{bad}"')
            spoiled.append((m.group(1), bad))
        out.append(entry)
    return "\n\n".join(out), spoiled


@pytest.mark.parametrize("how", [
    lambda t: re.sub(r"\{(\w+)\}", r"{\1_x}", t, count=1),      # renamed
    lambda t: re.sub(r"\{(\w+)\}", r"{\1", t, count=1),         # unclosed
    lambda t: re.sub(r"\{(\w+)\}", "{0}", t, count=1),          # positional
    lambda t: re.sub(r"\{(\w+)\}", "", t, count=1),             # dropped
], ids=["renamed", "unclosed", "positional", "dropped"])
def test_a_translation_whose_placeholders_differ_is_shown_in_english(locale_dir, how, caplog):
    po, spoiled = _spoil((REAL / "de.po").read_text(encoding="utf-8"), how)
    assert len(spoiled) > 40
    (locale_dir / "de.po").write_text(po, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="wolfbox"):
        assert use_language("de") is None          # the catalogue is whole: no notice
        use_language("en")
        use_language("de")
    for english, _bad in spoiled:
        assert _(english) == english
        names = placeholders(english) or frozenset()
        _(english).format(**{name: 1 for name in names})        # never a KeyError/ValueError
    assert _("Night falls. Everyone, close your eyes.") != \
        "Night falls. Everyone, close your eyes."                # and is still German
    said = [r for r in caplog.records if "placeholders differ" in r.getMessage()]
    assert len(said) == 1 and f"{len(spoiled)} messages" in said[0].getMessage()


def test_a_plural_form_may_leave_the_number_out_but_not_name_another(locale_dir):
    po = (REAL / "de.po").read_text(encoding="utf-8")
    entry = next(e for e in _entries(po) if 'msgid_plural "{count} players' in e)
    english = re.search(r'^msgid "(.*)"$', entry, re.M).group(1)
    plural = re.search(r'^msgid_plural "(.*)"$', entry, re.M).group(1)
    one = re.sub(r'msgstr\[0\] ".*"', 'msgstr[0] "Ein Spieler"', entry)
    (locale_dir / "de.po").write_text(po.replace(entry, one), encoding="utf-8")
    use_language("de")
    assert ngettext(english, plural, 1) == "Ein Spieler"
    use_language("en")
    bad = re.sub(r'msgstr\[1\] "(.*)"', r'msgstr[1] "{n} Spieler"', entry)
    i18n._loaded.clear()
    (locale_dir / "de.po").write_text(po.replace(entry, bad), encoding="utf-8")
    use_language("de")
    assert ngettext(english, plural, 5) == plural         # English, not a KeyError later
    plural.format(count=5, least=3, players=5, n=5)


@pytest.mark.parametrize("content, fragment", [
    (None, "no usable de catalogue"),
    ('msgid "x\nbroken', "no usable de catalogue"),
    ("", "translates only 0 of"),
], ids=["missing", "broken", "empty"])
def test_a_catalogue_missing_broken_or_empty_is_said_once(locale_dir, content, fragment,
                                                        caplog):
    if content is not None:
        (locale_dir / "de.po").write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="wolfbox"):
        first = use_language("de")
        use_language("en")
        again = use_language("de")        # the box's start, after the command line's
    assert first and fragment in first and again == first      # each caller's notice
    assert len([r for r in caplog.records if fragment in r.getMessage()]) == 1


def test_a_catalogue_cut_in_half_is_said_once_and_speaks_what_it_has(locale_dir, caplog):
    entries = _entries((REAL / "de.po").read_text(encoding="utf-8"))
    (locale_dir / "de.po").write_text("\n\n".join(entries[:len(entries) // 2]) + "\n",
                                      encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="wolfbox"):
        problem = use_language("de")
        assert use_language("de") == problem
    assert problem and re.search(r"the de catalogue translates only \d+ of \d+ messages",
                                 problem)
    assert len([r for r in caplog.records if "translates only" in r.getMessage()]) == 1
    kept = next(m.group(1) for e in entries[1:len(entries) // 2]
                if (m := re.search(r'^msgid "(.+)"\nmsgstr ".+"$', e, re.M)))
    assert _(kept) != kept                       # what it has, it still says


def test_the_shipped_catalogues_load_whole_and_without_a_word(caplog, monkeypatch):
    monkeypatch.setattr(i18n, "_loaded", {})
    monkeypatch.setattr(i18n, "_gaps", {})
    with caplog.at_level(logging.WARNING, logger="wolfbox"):
        for code in ("de", "zh"):
            assert use_language(code) is None
    use_language("en")
    assert not [r for r in caplog.records if "catalogue" in r.getMessage()
                or "placeholders" in r.getMessage()]


def test_placeholders_reads_what_format_fills():
    assert placeholders("{seat} votes for {target}") == {"seat", "target"}
    assert placeholders("{seat") is None and placeholders("a } b") is None
    assert placeholders("{{literal}} {n}") == {"n"}



def test_the_box_started_after_the_command_line_still_shows_the_notice(locale_dir, tmp_path,
                                                                       monkeypatch):
    """`wolfbox run` loads the language for its own messages first; the box's
    start screen must still say the catalogue is cut short (once in the log)."""
    from pilot import FakeClock

    from helpers import fill_cache
    from wolfbox.config import Config
    from wolfbox.device.app import build
    from wolfbox.hardware.factory import mock_factory
    from wolfbox.onenight.flow import RoundSettings

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    entries = _entries((REAL / "de.po").read_text(encoding="utf-8"))
    (locale_dir / "de.po").write_text("\n\n".join(entries[:len(entries) // 3]) + "\n",
                                      encoding="utf-8")
    assert use_language("de")                    # the command line, before the box
    config = Config()
    config.box.lang = "de"
    config.voice.cache_dir = str(tmp_path / "cache")
    fill_cache(config, RoundSettings.from_config(config).lines())
    parts = build(config, "headless", clock=FakeClock(), pin_factory=mock_factory(),
                  stdin_keys=False, renderer_command=["false"])
    try:
        assert "the de catalogue translates only" in parts.box.notice
    finally:
        parts.close()
