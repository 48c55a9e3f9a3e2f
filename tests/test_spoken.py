"""What the voice hears (issue 19): German counts one of something with an
article, not "eins"; German and Chinese name a button by its colour; the
Chinese fallback voice reads Chinese, not pinyin spelled out in English.
The screen and the cache key keep every line as written."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wolfbox.audio.cache import LineCache, SynthSettings
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import choose_voice, find_voice
from wolfbox.buttons import BUTTON_COLORS, Button
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.i18n import speaking
from wolfbox.spoken import spoken

HERE = Path(__file__).parent
ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng not installed")


def lines_in(lang: str) -> list[str]:
    """Every line the box can say, in `lang`, as written."""
    with speaking(lang):
        config = Config()
        config.box.lang = lang
        return game_lines(config)


# ------------------------------------------------------------------ German
@pytest.mark.parametrize("written, said", [
    ("Noch 1 Minute.", "Noch eine Minute."),
    ("Noch 1 Sekunde.", "Noch eine Sekunde."),
    ("1 Minute mehr.", "Eine Minute mehr."),
    ("1 Stimme ist nötig.", "Eine Stimme ist nötig."),
    ("1 Stimme, nötig gewesen wären 3.", "Eine Stimme, nötig gewesen wären 3."),
    ("Platz 3 scheidet mit 1 Stimme aus.", "Platz 3 scheidet mit einer Stimme aus."),
    ("Noch 1 Werwolf lebt.", "Noch ein Werwolf lebt."),
    ("mit 1 Spieler", "mit einem Spieler"),
    ("für 1 Spieler", "für einen Spieler"),
    # Seat numbers and other numbers keep their digits.
    ("Platz 1 stirbt.", "Platz 1 stirbt."),
    ("Spieler 1 Stimme", "Spieler 1 Stimme"),
    ("Platz 1 scheidet mit 2 Stimmen aus.", "Platz 1 scheidet mit 2 Stimmen aus."),
    ("Tag 1. Die Diskussion beginnt.", "Tag 1. Die Diskussion beginnt."),
    ("0 Stimmen, nötig gewesen wären 1.", "0 Stimmen, nötig gewesen wären 1."),
    ("Noch 11 Minuten, 21 Stimmen, 1,5 Minuten.", "Noch 11 Minuten, 21 Stimmen, 1,5 Minuten."),
])
def test_german_says_one_of_something_with_its_article(written, said):
    assert spoken(written, "de") == said


@pytest.mark.parametrize("written, said", [
    ("Platz 1, öffne die Augen. Halte VOTE, um deine Karte zu sehen.",
     "Platz 1, öffne die Augen. Halte die rote Taste, um deine Karte zu sehen."),
    ("Markiert euer Opfer mit VOTE, drückt dann START und markiert, wer das Messer führt.",
     "Markiert euer Opfer mit der roten Taste, drückt dann die grüne Taste und markiert, "
     "wer das Messer führt."),
    ("VOTE: abstimmen.", "Die rote Taste: abstimmen."),
    ("Weiter mit NEXT oder BACK.", "Weiter mit der blauen Taste oder der gelben Taste."),
])
def test_german_names_a_button_by_its_colour_in_the_right_case(written, said):
    assert spoken(written, "de") == said


def test_the_spoken_colour_is_the_buttons_own(monkeypatch):
    """One source for a button's colour: recolour the cap and the voice
    follows (the legend and the wiring diagram draw the same table)."""
    monkeypatch.setitem(BUTTON_COLORS, Button.VOTE, (60, 190, 90))
    assert spoken("Halte VOTE.", "de") == "Halte die grüne Taste."
    assert spoken("按住 VOTE 键。", "zh") == "按住绿色键。"


def test_chinese_names_a_button_by_its_colour_and_english_keeps_the_name():
    assert spoken("按住 VOTE 键查看你的牌。", "zh") == "按住红色键查看你的牌。"
    assert spoken("请用 VOTE 键标记目标，然后按 START 键。", "zh") == \
        "请用红色键标记目标，然后按绿色键。"
    assert spoken("按NEXT", "zh") == "按蓝色键"
    english = "Mark your victim with VOTE, then press START. Noch 1 Minute."
    assert spoken(english, "en") == english


def test_no_german_or_chinese_line_says_eins_before_a_noun_or_a_button_name():
    """The whole catalogue, as the voice hears it: no count of one left as a
    digit before a noun (a seat number may be), and no button name."""
    count_of_one = re.compile(r"(?<![\d.,])(?<!Platz )(?<!Spieler )\b1 [A-ZÄÖÜ]")
    button = re.compile(r"(?<![A-Za-z])(VOTE|NEXT|BACK|START)(?![A-Za-z])")
    german = lines_in("de")
    said = [spoken(line, "de") for line in german]
    assert [s for s in said if count_of_one.search(s) or button.search(s)] == []
    assert "Noch eine Minute." in said and "Eine Stimme." in said
    # A seat keeps its number: no "Spieler eine", "Spieler eins" (a player
    # by number is "Spieler 3" in German; "Platz" only for a physical place).
    assert any(s.startswith("Spieler 1,") for s in said)
    assert not any(re.search(r"(Platz|Spieler) (eine|ein|eins)\b", s) for s in said)
    chinese = [spoken(line, "zh") for line in lines_in("zh")]
    assert [s for s in chinese if re.search(r"[A-Za-z]", s)] == []


def fake_worker(log: Path) -> list[str]:
    return [sys.executable, str(HERE / "fake_worker.py"), "ok", str(log)]


def test_the_voice_hears_the_spoken_form_and_the_cache_keeps_the_written_line(tmp_path):
    voice = find_voice("")
    cache = LineCache(tmp_path / "de", voice.identity, SynthSettings(), lang="de")
    log = tmp_path / "said.txt"
    renderer = Renderer(voice, cache, command=fake_worker(log), timeout=30, priority="normal")
    written = ["Noch 1 Minute.", "Halte VOTE, um deine Karte zu sehen."]
    renderer.request(written)
    assert renderer.wait_idle(60)
    renderer.close()
    assert log.read_text(encoding="utf-8").splitlines() == [
        "Noch eine Minute.", "Halte die rote Taste, um deine Karte zu sehen."]
    assert all(cache.get(line) is not None for line in written)
    assert cache.get("Noch eine Minute.") is None


# ----------------------------------------------------------------- Chinese
@needs_espeak
def test_the_chinese_fallback_voice_reads_chinese_not_english(tmp_path, monkeypatch):
    """Without a Piper voice in Chinese, espeak-ng speaks: every line of the
    catalogue, as the voice is given it, must be read as Mandarin. espeak-ng
    1.51's "cmn" (Debian 12, Raspberry Pi OS) reads each character's pinyin
    as English ("tian one"); its phonemes (-x) mark that switch "(en)"."""
    monkeypatch.setenv("WOLFBOX_VOICES", str(tmp_path / "none"))
    voice, notice = choose_voice("", "zh")
    assert voice is not None and voice.engine == "espeak"
    said = tmp_path / "said.txt"
    said.write_text("\n".join(spoken(line, "zh") for line in lines_in("zh")), encoding="utf-8")
    phonemes = subprocess.run([str(voice.model), "-q", "-x", "-v", voice.espeak, "-f", str(said)],
                              capture_output=True, text=True, check=True, timeout=120).stdout
    assert re.findall(r"\([a-z-]+\)", phonemes) == []
    # Mandarin's syllables carry tone numbers: one a character, near enough.
    hanzi = len(re.findall(r"[\u4e00-\u9fff]", said.read_text(encoding="utf-8")))
    assert len(re.findall(r"\d{2,3}", phonemes)) >= 0.9 * hanzi
    assert notice is not None and "reads" not in notice      # it reads Chinese: no warning


def fake_espeak(folder: Path, reading: dict[str, str]) -> Path:
    """An espeak-ng on PATH whose voices (`reading`: name -> its -x output)
    are the only ones it has; any other voice is an error, as espeak's."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "espeak-ng"
    program.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        reading = {reading!r}
        args = sys.argv[1:]
        if args == ["--version"]:
            print("eSpeak NG text-to-speech: 9.99  Data at: nowhere")
            sys.exit(0)
        voice = args[args.index("-v") + 1] if "-v" in args else "en"
        if voice not in reading:
            print("Error: The specified espeak-ng voice does not exist.", file=sys.stderr)
            sys.exit(1)
        print(reading[voice])
        """))
    program.chmod(0o755)
    return program


PINYIN_AS_ENGLISH = "(en)tja55nw'055n_| haI55w'055n_| kI55NTr'i:55_| bI55f'o@55_|(cmn)"
MANDARIN = "th'iE55n_| X'ei55_| tS;h'i21N_| p'i51_| j'iE214n_|"


def test_chinese_takes_the_first_espeak_voice_that_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("WOLFBOX_VOICES", str(tmp_path / "none"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    fake_espeak(tmp_path / "bin", {"cmn": MANDARIN, "cmn-latn-pinyin": PINYIN_AS_ENGLISH})
    voice, notice = choose_voice("", "zh")
    assert voice is not None and voice.espeak == "cmn"
    assert notice is not None and notice.endswith("; speaking with espeak-ng instead")


def test_with_no_espeak_voice_that_reads_chinese_the_box_says_so_and_still_speaks(
        tmp_path, monkeypatch):
    """Speech that sounds foreign beats silence with eyes closed; the table is
    told once (the notice is said when the voice is chosen)."""
    monkeypatch.setenv("WOLFBOX_VOICES", str(tmp_path / "none"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    fake_espeak(tmp_path / "bin", {"cmn": PINYIN_AS_ENGLISH})      # 1.51, no pinyin voice
    voice, notice = choose_voice("", "zh")
    assert voice is not None and (voice.engine, voice.espeak) == ("espeak", "cmn")
    assert notice == (f"no Piper voice for 中文 in {tmp_path / 'none'}; speaking with "
                      "espeak-ng instead, though none of its voices here (cmn-latn-pinyin, "
                      "cmn) reads 中文 well")
    german, notice = choose_voice("", "de")                # German is not probed
    assert german is not None and german.espeak == "de"
    assert notice is not None and notice.endswith("; speaking with espeak-ng instead")
