"""Long sentences in pieces short enough to render in bounded memory.

A Piper voice renders a sentence in one inference whose working memory
grows with the audio it makes (about 19 MB a second of speech for
en_US-joe-medium, on top of the 137 MB of the loaded voice), and
onnxruntime keeps that memory for the next sentence. The renderer's peak
is therefore set by the longest sentence it has ever said: 560 MB over the
catalogue, whose longest sentence (the Doppelganger's list of roles) is
483 phoneme ids, 13 s of speech. A sentence longer than the cap is rendered
in pieces split where a speaker pauses anyway (after a comma, semicolon or
colon) and joined back into one sentence, normalised as one.

Only a clause that is itself longer than the cap is split between words,
at the word boundary nearest its middle: a pause there is a small seam,
while a piece cut mid-word would be a broken word.
"""

from __future__ import annotations

from collections.abc import Callable

# The clause marks after which a piece may end, as espeak-ng and piper's
# phonemisers keep them in the phonemes (Western and CJK punctuation).
CLAUSE_MARKS = frozenset({",", ";", ":", "，", "、", "；", "："})
WORD_GAP = " "
# Phoneme ids one inference may take at length scale 1 (about 4 s of
# speech): the catalogue's peak is 240 MB with it, 248 MB with 180 and 223
# with 120, which splits 215 of its 880 sentences instead of 115.
MAX_IDS = 120

Phonemes = list[str]


def cap_for(length_scale: float) -> int:
    """The cap at a speaking speed: the memory follows the audio's length,
    so slower speech (a larger scale) gets proportionally fewer ids."""
    return max(16, int(MAX_IDS / max(length_scale, 1e-3)))


def pieces(phonemes: Phonemes, count: Callable[[Phonemes], int], cap: int) -> list[Phonemes]:
    """`phonemes` (one sentence) in pieces of at most `cap` ids by `count`,
    split after clause marks where it can, else between words; a word longer
    than the cap stays whole. Each piece keeps its own marks; the spaces
    where it was cut go."""
    if count(phonemes) <= cap:
        return [phonemes]
    out: list[Phonemes] = []
    current: Phonemes = []
    for clause in _split_after(phonemes, CLAUSE_MARKS):
        joined = [*current, WORD_GAP, *clause] if current else clause
        if current and count(joined) > cap:
            out.append(current)
            joined = clause
        current = joined
    if current:
        out.append(current)
    return [short for piece in out for short in _halve(piece, count, cap)]


def _split_after(phonemes: Phonemes, marks: frozenset[str]) -> list[Phonemes]:
    """The runs of `phonemes` that end with one of `marks` (the last run may
    not), without the gap that follows a mark."""
    runs: list[Phonemes] = [[]]
    for p in phonemes:
        if p == WORD_GAP and not runs[-1]:
            continue
        runs[-1].append(p)
        if p in marks:
            runs.append([])
    return [run for run in runs if run]


def _halve(piece: Phonemes, count: Callable[[Phonemes], int], cap: int) -> list[Phonemes]:
    """A piece over the cap, split at the word gap nearest its middle (by ids)
    until every part fits."""
    if count(piece) <= cap:
        return [piece]
    gaps = [i for i, p in enumerate(piece) if p == WORD_GAP and 0 < i < len(piece) - 1]
    if not gaps:
        return [piece]                              # one long word: never cut inside it
    total = count(piece)
    cut = min(gaps, key=lambda i: abs(count(piece[:i]) - total / 2))
    return [*_halve(piece[:cut], count, cap), *_halve(piece[cut + 1:], count, cap)]
