"""The German and Chinese catalogues (issue 13): complete, faithful to
their placeholders, never English left standing, role names as the source
documents give them, and every line of every game in the table's language.
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
import wave
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.i18n import LANGUAGES, LOCALE_DIR, SOURCE, speaking

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
TRANSLATED = [code for code in LANGUAGES if code != SOURCE]

# Words that are the same in a language on purpose (a name that needs no
# translation). Everything else the same as its English is a miss.
# Chinese writes Wi-Fi in Latin letters, as its phones' settings do.
SAME_ON_PURPOSE = {"de": {"Wolf", "PIN {pin}"}, "zh": {"Wi-Fi", "Wi-Fi {name}"}}


def catalogue(name: str) -> Catalog:
    with (LOCALE_DIR / name).open("rb") as f:
        return read_po(f)


def forms(message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) \
        else (message.string,)


def sources(message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def fields(text: str) -> set[str]:
    """The `{placeholders}` of a message (`{{` and `}}` are literal braces)."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text)
            if name is not None}


def formats(text: str) -> bool:
    """Whether `text` is a format string (a few help texts show JSON braces
    as they are and are never formatted)."""
    try:
        text.format(**{name: 1 for name in fields(text)})
    except (ValueError, IndexError, KeyError):
        return False
    return True


def words_left(text: str) -> str:
    """What of a message is words: placeholders, option names and symbols out."""
    text = re.sub(r"\{[^{}]*\}", "", text)
    text = re.sub(r"--[a-z-]+", "", text)
    return "".join(c for c in text if c.isalpha())


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogue("wolfbox.pot")


def test_the_template_holds_every_message_of_the_code(tmp_path, template):
    """`make pot` was run: a message added to the code is in the template,
    so the checks below see it and a translator gets it."""
    out = tmp_path / "fresh.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "extract", "-k", "_", "-k", "N_", "-k",
                    "ngettext:1,2", "-k", "_c:2", "--no-wrap", "-o", str(out), "wolfbox",
                    "device", "audio", "hardware", "phones"], cwd=ROOT, check=True, timeout=120)
    with out.open("rb") as f:
        fresh = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    held = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert fresh - held == set(), "run `make pot`: new messages are missing from the template"
    assert held - fresh == set(), "run `make pot`: the template holds messages the code dropped"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang, template):
    po = catalogue(f"{lang}.po")
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in po if m.id}
    missing = [m.id for m in template if m.id and (
        (m.id if isinstance(m.id, str) else m.id[0]) not in translated)]
    assert missing == []
    empty = [m.id for m in po if m.id and (not all(forms(m)) or m.fuzzy)]
    assert empty == [], f"{lang}: untranslated or fuzzy"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plural_forms_are_the_languages(lang):
    po = catalogue(f"{lang}.po")
    assert po.num_plurals == {"de": 2, "zh": 1}[lang]
    for m in po:
        if m.id and m.pluralizable:
            assert len(forms(m)) == po.num_plurals, m.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translation_drops_or_adds_a_placeholder(lang):
    bad = []
    for m in catalogue(f"{lang}.po"):
        if not m.id or not all(formats(s) for s in sources(m)):
            continue
        wanted = [fields(s) for s in sources(m)]
        allowed = set().union(*wanted)
        needed = set.intersection(*wanted)
        for text in forms(m):
            got = fields(text)
            if not needed <= got <= allowed:
                bad.append((m.id, text))
            if not formats(text):           # a stray brace .format() would choke on
                bad.append((m.id, text))
    assert bad == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translation_is_left_in_english(lang):
    same = [m.id for m in catalogue(f"{lang}.po") if m.id
            and any(text == source for text, source in zip(forms(m), sources(m), strict=False))
            and words_left(sources(m)[0]) and sources(m)[0] not in SAME_ON_PURPOSE[lang]]
    assert same == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_line_breaks_of_their_source(lang):
    """A message that ends a line ends it in every language (a printed list,
    a log line); Chinese may drop the space after a comma."""
    bad = []
    for m in catalogue(f"{lang}.po"):
        if not m.id:
            continue
        source = sources(m)[0]
        for text in forms(m):
            if source.endswith("\n") != text.endswith("\n") or \
                    source.startswith("\n") != text.startswith("\n"):
                bad.append(m.id)
    assert bad == []


# Role names as the source documents print them: 002 (German) and 001
# (Chinese). The test first finds each name in its source, then on the box.
SOURCE_NAMES = {
    "de": ("002", {"werewolf": "Werwolf", "seer": "Seherin", "robber": "Räuber",
                   "troublemaker": "Unruhestifterin", "minion": "Günstling",
                   "insomniac": "Schlaflose", "tanner": "Gerber", "hunter": "Jäger",
                   "villager": "Dorfbewohner", "doppelganger": "Doppelgängerin"}),
    "zh": ("001", {"werewolf": "狼人", "seer": "预言家", "robber": "强盗",
                   "troublemaker": "捣蛋鬼", "doppelganger": "化身幽灵", "minion": "爪牙",
                   "mason": "守夜人", "drunk": "酒鬼", "insomniac": "失眠者", "hunter": "猎人",
                   "tanner": "皮匠", "villager": "村民", "sentinel": "哨兵",
                   "alpha_wolf": "始祖狼", "mystic_wolf": "狼先知",
                   "apprentice_seer": "见习预言家", "aura_seer": "先知", "prince": "王子",
                   "cursed": "被诅咒者"}),
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_role_names_are_the_source_documents(lang):
    from wolfbox.onenight.roles import ROLES
    seed, names = SOURCE_NAMES[lang]
    text = next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8") \
        if SEEDS.is_dir() else None
    with speaking(lang):
        for role_id, name in names.items():
            if text is not None:
                assert name in text, f"{name} is not in source {seed}"
            assert str(ROLES[role_id].name) and _shown(ROLES[role_id].name) == name, role_id


def _shown(name: str) -> str:
    from wolfbox.i18n import _
    return _(name)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_line_of_every_game_is_said_in_the_language(lang):
    """The catalogue `wolfbox prepare` renders, every game's lines: as many
    in German or Chinese as in English (two English lines may share one
    translation: German points with "Zeigt!" for One Night's "Vote!" and
    the timed game's "Point!"), and none of them English."""
    english = game_lines(Config())
    with speaking(lang):
        spoken = game_lines(Config())
    assert len(english) - 2 <= len(spoken) <= len(english)
    left = [line for line in spoken if line in set(english) and words_left(line)]
    assert left == []


def test_the_language_leaves_the_rules_alone():
    """Languages do not leak into logic: the same deck deals the same night
    (the same calls, the same times) in every language."""
    from wolfbox.onenight.flow import RoundSettings
    timings = {}
    for lang in LANGUAGES:
        with speaking(lang):
            settings = RoundSettings.for_deck(["werewolf", "werewolf", "seer", "robber",
                                               "troublemaker", "villager"])
            timings[lang] = [(s.id, s.seconds) for s in settings.night]
    assert timings["de"] == timings["en"] == timings["zh"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_script_prints_the_whole_night_in_the_language(lang):
    import json
    out = subprocess.run([sys.executable, "-m", "wolfbox", "script", "--lang", lang, "--deck",
                          "classic_5", "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    night = json.loads(out.stdout)
    with speaking("en"):
        english = subprocess.run([sys.executable, "-m", "wolfbox", "script", "--lang", "en",
                                  "--deck", "classic_5", "--json"], capture_output=True,
                                 text=True, timeout=60)
    lines = json.dumps(night, ensure_ascii=False)
    assert "Everyone, close your eyes" not in lines
    assert json.loads(english.stdout).keys() == night.keys()
    expected = {"de": "Alle schließen die Augen", "zh": "天黑请闭眼"}[lang]
    assert expected in lines


@pytest.mark.skipif(subprocess.run(["sh", "-c", "command -v espeak-ng"],
                                   capture_output=True).returncode != 0,
                    reason="espeak-ng not installed")
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_line_is_rendered_in_the_language_by_the_real_pipeline(lang, tmp_path):
    """One line through the real renderer and its worker: without a Piper
    voice for the language, espeak-ng in it. Its length is plausible for
    the text: about a second for every 2-3 words or 4-6 characters."""
    from wolfbox.audio.cache import LineCache, SynthSettings
    from wolfbox.audio.renderer import Renderer
    from wolfbox.audio.voice import choose_voice
    voice, _problem = choose_voice("", lang)
    assert voice is not None and voice.lang == lang
    with speaking(lang):
        from wolfbox.i18n import _
        line = _("Night falls. Everyone, close your eyes.")
    cache = LineCache(tmp_path, voice.identity, SynthSettings(), lang=lang)
    renderer = Renderer(voice, cache, timeout=60, priority="normal")
    renderer.request([line])
    assert renderer.wait_idle(180)
    renderer.close()
    path = cache.get(line)
    assert path is not None
    with wave.open(str(path)) as w:
        seconds = w.getnframes() / w.getframerate()
    units = len(line.split()) if lang == "de" else len([c for c in line if c.isalpha()])
    per_unit = {"de": (0.15, 0.9), "zh": (0.1, 0.6)}[lang]
    assert per_unit[0] * units <= seconds <= per_unit[1] * units + 1.0, (line, seconds)


def test_the_cache_keeps_each_language_apart(tmp_path):
    from wolfbox.audio.cache import LineCache, SynthSettings
    en = LineCache(tmp_path, "voice", SynthSettings())
    de = LineCache(tmp_path, "voice", SynthSettings(), lang="de")
    assert en.key("OK") != de.key("OK")
    # English keys are as they were before languages (pinned: the sha256 of
    # the sorted JSON of voice, text and settings): a box keeps its cache.
    assert en.key("OK") == "89d179e62616e7937914c53a5d4c20f1"


@pytest.mark.skipif(subprocess.run(["sh", "-c", "command -v espeak-ng"],
                                   capture_output=True).returncode != 0,
                    reason="espeak-ng not installed")
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_caption_lasts_as_long_as_espeak_says_the_line(lang):
    """Where no voice reports a line's end, its caption time holds the game:
    it must not run out before espeak-ng (the German and Chinese fallback)
    has said it, or the next line would cut it. The longest lines of every
    game, measured."""
    import array
    import io

    from wolfbox.pages import caption_seconds
    with speaking(lang):
        lines = sorted(game_lines(Config()), key=len, reverse=True)[:8]
    # The voice the box falls back to, given what it says: the spoken form.
    from wolfbox.audio.voice import espeak_voice
    from wolfbox.spoken import spoken as said
    fallback = espeak_voice(lang)
    assert fallback is not None
    for line in lines:
        raw = subprocess.run(["espeak-ng", "--stdout", "-s", "165", "-v", fallback.espeak,
                              said(line, lang)],
                             capture_output=True, check=True, timeout=60).stdout
        with wave.open(io.BytesIO(raw)) as w:
            rate = w.getframerate()
            samples = array.array("h", raw[44:44 + (len(raw) - 44) // 2 * 2])
        # Up to its last sound: the silence espeak-ng adds after may be cut.
        last = max((i for i, s in enumerate(samples) if abs(s) > 300), default=0)
        spoken = last / rate
        assert spoken <= caption_seconds(line), (line, spoken, caption_seconds(line))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_command_speaks_the_language(lang):
    """`--lang` is on every command, and what it prints for people is in
    that language: the printed configuration's descriptions, for one."""
    from wolfbox.cli import COMMANDS
    for command in COMMANDS:
        shown = subprocess.run([sys.executable, "-m", "wolfbox", command, "--lang", lang,
                                "--help"], capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0, (command, shown.stderr)
    printed = subprocess.run([sys.executable, "-m", "wolfbox", "config", "--lang", lang],
                             capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    with speaking(lang):
        from wolfbox.i18n import _
        described = _("the box's language, for everything it says and shows: en (English), "
                      "de (Deutsch), zh (中文)")
    assert described != "the box's language, for everything it says and shows: en " \
        "(English), de (Deutsch), zh (中文)"
    assert f"# {described}" in printed.stdout
