"""Issue 42.8 and 42.9: espeak-ng, the voice a box without a Piper voice
for German or Chinese speaks with, read words with two readings wrongly
(镇长 as zhèn cháng in every line of the Mayor, 处决 as chù jué in every
vote) and German "Handys" as "Handüs". It is given a respelling of those
words alone; the screen keeps the catalogue's words."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from wolfbox.audio.readings import READINGS, respelled, seed
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.i18n import speaking

ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="no espeak-ng")

# What each word must sound like, as espeak-ng's phonemes (-x) write the
# syllable that went wrong: the tone is the digits after it (214: the third
# tone, 35: the second), and German's "y" must be an i, not a ü ("y:").
RIGHT = {
    ("cmn-latn-pinyin", "镇长"): r"ts\.'?a214N",      # zhǎng
    ("cmn-latn-pinyin", "处决"): r"ts\.h'?u21",       # chǔ
    ("cmn-latn-pinyin", "倒数"): r"s\.'?u214",        # shǔ
    ("cmn-latn-pinyin", "重新"): r"ts\.h'?ong35",     # chóng
    ("de", "Handys"): r"h'EndIs",
    ("de", "Unruhestifterin"): r"St'Ift",             # Unruhe|stifterin, not Unru|es|tifterin
}


def phonemes(text: str, voice: str) -> str:
    return subprocess.run([ESPEAK, "-q", "-x", "-v", voice, text], capture_output=True,
                          text=True, check=True, timeout=30).stdout


@needs_espeak
@pytest.mark.parametrize(("voice", "word"), sorted(RIGHT))
def test_each_respelled_word_sounds_right_and_was_wrong_as_written(voice, word):
    assert re.search(RIGHT[voice, word], phonemes(respelled(word, voice), voice))
    assert not re.search(RIGHT[voice, word], phonemes(word, voice))    # why it is here


def test_every_word_of_the_table_has_its_check():
    assert {(v, w) for v, table in READINGS.items() for w in table} == set(RIGHT)


@pytest.mark.parametrize(("lang", "voice"), [("zh", "cmn-latn-pinyin"), ("de", "de")])
def test_no_spoken_line_keeps_a_word_espeak_misreads(lang, voice):
    """Every line the box can say in the language, as espeak-ng is given it."""
    with speaking(lang):
        lines = game_lines(Config())
    used = {word for word in READINGS[voice] if any(word in line for line in lines)}
    assert used == set(READINGS[voice])                 # each fix is for a line the box says
    for line in lines:
        given = respelled(line, voice)
        assert not any(word in given for word in READINGS[voice]), line


def test_other_voices_and_the_screen_keep_the_words():
    assert respelled("镇长说", "cmn") == "镇长说"        # plain cmn reads Latin as English
    assert respelled("Handys", "en") == "Handys"
    assert seed("en") == "" and seed("de") != seed("cmn-latn-pinyin") != ""


def test_the_render_worker_gives_espeak_the_respelling(tmp_path):
    """The worker that renders the cache hands espeak-ng the respelled line
    (a stand-in program records what it was given and writes a short WAV)."""
    import argparse
    import io
    import sys
    import wave

    from wolfbox.audio.render_worker import _espeak
    given = tmp_path / "given.txt"
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(b"\0\0" * 100)
    (tmp_path / "out.wav").write_bytes(buf.getvalue())
    program = tmp_path / "espeak-ng"
    program.write_text(f"#!{sys.executable}\nimport sys, pathlib\n"
                       f"pathlib.Path({str(given)!r}).write_text(sys.argv[-1])\n"
                       f"sys.stdout.buffer.write(pathlib.Path({str(tmp_path / 'out.wav')!r})"
                       ".read_bytes())\n")
    program.chmod(0o755)
    render = _espeak(argparse.Namespace(model=program, length_scale=1.0, volume=1.0,
                                        espeak_voice="cmn-latn-pinyin"))
    render("镇长，请睁眼。")
    assert "zhen4 zhang3" in given.read_text() and "镇长" not in given.read_text()
