"""The renderer fits a 512 MB Pi Zero 2 W: a long sentence reaches the voice
in bounded pieces, joined back without a seam, and the worker's peak stays
under 250 MB on the catalogue's longest lines (the whole catalogue's figure
is in `make bench`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import wave

import numpy as np
import pytest

from wolfbox.audio.pieces import cap_for, pieces
from wolfbox.audio.render_worker import join, load_piper, sentences
from wolfbox.audio.voice import find_voice
from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.spoken import spoken

# Phoneme ids in one inference that keep the voice's working memory near
# 75 MB (about 0.5 MB an id for en_US-joe-medium, measured).
IDS_BOUND = 150


def ids(phonemes: list[str]) -> int:
    return 2 * len(phonemes) + 1          # piper's BOS, a pad after each, EOS


def test_a_long_sentence_is_cut_after_its_clauses():
    clause = list("abcdefghij") + [","]
    sentence = [*clause, " ", *clause, " ", *clause, " ", *list("klmnop"), "."]
    out = pieces(sentence, ids, cap=30)
    assert all(ids(p) <= 30 for p in out)
    assert [p[-1] for p in out] == [",", ",", ",", "."]      # each ends where a pause is
    assert [x for p in out for x in p] == [x for x in sentence if x != " "]


def test_clauses_that_fit_together_stay_together():
    sentence = [*"ab,", " ", *"cd,", " ", *"ef."]
    assert pieces(sentence, ids, cap=100) == [sentence]
    assert pieces(sentence, ids, cap=15) == [[*"ab,", " ", *"cd,"], [*"ef."]]


def test_a_clause_longer_than_the_cap_is_cut_between_words_never_inside_one():
    words = ["abcd", "efgh", "ijkl", "mnop"]
    sentence = [x for w in words for x in [*w, " "]][:-1] + ["."]
    out = pieces(sentence, ids, cap=21)
    assert all(ids(p) <= 21 for p in out)
    assert [" ".join("".join(p).split()) for p in out] == ["abcd efgh", "ijkl mnop."]
    one_word = list("abcdefghijklmnopqrstuvwxyz")
    assert pieces(one_word, ids, cap=20) == [one_word]         # never half a word


def test_slower_speech_gets_fewer_ids_a_piece():
    assert cap_for(2.0) < cap_for(1.0) < cap_for(0.5)


def test_a_join_leaves_no_pause_longer_than_the_voice_makes():
    """Each piece ends and starts in silence of its own: together up to 0.8 s
    over the catalogue, where the voice pauses up to 0.5 s after a comma
    said whole. A join keeps a comma's pause, a shorter one between words,
    and every sound of both pieces."""
    rate = 1000
    tone = np.sin(np.arange(300, dtype=np.float32))        # 0.3 s of sound
    hush = np.zeros(400, np.float32)                        # 0.4 s of silence
    first, second = np.concatenate([tone, hush]), np.concatenate([hush, tone])
    for after_clause, longest in ((True, 0.4), (False, 0.15)):
        out = join([first, second], [after_clause], rate)
        pauses = silences(out, rate)
        assert len(pauses) == 1 and 0.1 <= pauses[0] <= longest
        assert np.count_nonzero(np.abs(out) > 0.02) == 2 * np.count_nonzero(np.abs(tone) > 0.02)
    short = np.concatenate([tone, np.zeros(50, np.float32)])
    assert join([short, tone], [True], rate).size == short.size + tone.size   # kept as made


def longest_lines(n: int) -> list[str]:
    lines = sorted({spoken(t, "en") for t in game_lines(Config())}, key=len, reverse=True)
    return lines[:n]


def silences(audio: np.ndarray, rate: int) -> list[float]:
    """Lengths (s) of the pauses inside `audio`: runs of 10 ms windows under
    -40 dB of its peak, leading and trailing silence aside."""
    window = rate // 100
    n = audio.size // window
    rms = np.sqrt(np.mean(audio[:n * window].astype(np.float64).reshape(n, window) ** 2, 1))
    quiet = rms < 0.01 * np.max(np.abs(audio))
    loud = np.flatnonzero(~quiet)
    runs, run = [], 0
    for q in quiet[loud[0]:loud[-1] + 1]:
        if q:
            run += 1
        elif run:
            runs.append(run / 100)
            run = 0
    return runs


@pytest.fixture(scope="module")
def joe():
    voice = find_voice("")
    assert voice.config is not None
    return load_piper(voice.model, json.loads(voice.config.read_text()), threads=2)


def test_the_longest_line_reaches_the_voice_in_bounded_pieces_and_sounds_whole(joe):
    from piper import SynthesisConfig
    seen: list[int] = []
    real = joe.session

    class Spy:
        def run(self, names, feed, *args):
            seen.append(int(feed["input"].shape[1]))
            return real.run(names, feed, *args)

    text = longest_lines(1)[0]
    syn = SynthesisConfig()
    rate = joe.config.sample_rate
    joe.session = Spy()
    try:
        split = np.frombuffer(b"".join(sentences(joe, text, syn, cap_for(1.0))), np.int16)
    finally:
        joe.session = real
    whole = np.frombuffer(b"".join(sentences(joe, text, syn, cap=10**6)), np.int16)
    assert max(seen) <= IDS_BOUND
    assert len(seen) > len(joe.phonemize(text))         # it was cut
    # No seam: no pause longer than the voice's own after a comma (up to
    # 0.59 s over the catalogue), and the line lasts as long as said whole
    # (each render varies by a few per cent: the voice is stochastic).
    assert max(silences(split, rate)) <= 0.6
    assert split.size == pytest.approx(whole.size, rel=0.12)
    # As loud as the line said whole: each sentence is normalised as one.
    assert np.max(np.abs(split)) == pytest.approx(np.max(np.abs(whole)), rel=0.02)


def test_the_worker_stays_under_250_mb_on_the_longest_lines(tmp_path):
    """The peak follows the longest inputs the process has seen: the
    catalogue's longest lines, rendered by the real worker, are the worst
    case (560 MB over the catalogue before pieces, 470 MB on these)."""
    voice = find_voice("")
    proc = subprocess.Popen([sys.executable, "-I", "-m", "wolfbox.audio.render_worker",
                             str(voice.model), "--threads", "2", "--priority", "normal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        def reply() -> dict:
            while True:
                message = json.loads(proc.stdout.readline())
                if not message.get("alive"):
                    return message

        assert reply()["ready"]
        for i, text in enumerate(longest_lines(6)):
            proc.stdin.write(json.dumps({"text": text, "path": str(tmp_path / f"{i}.wav")})
                             + "\n")
            proc.stdin.flush()
            assert reply()["ok"]
        with open(f"/proc/{proc.pid}/status") as f:
            peak_kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    finally:
        proc.kill()
        proc.wait()
    assert peak_kb / 1024 < 250
    with wave.open(io.BytesIO((tmp_path / "0.wav").read_bytes())) as w:
        assert w.getframerate() == voice.sample_rate and w.getsampwidth() == 2
