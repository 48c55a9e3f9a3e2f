"""Words espeak-ng reads wrongly, respelled for espeak-ng alone.

The catalogues hold what a table reads on the screen; what the fallback
voice hears may differ where espeak-ng's dictionary picks the wrong reading
of a character with two (镇长 is zhèn zhǎng, not zhèn cháng: 长 is read as
"long" by espeak-ng's pinyin lookup) or splits a German compound at the
wrong joint ("Unruhestifterin" as "Unru-es-tifterin"). Mandarin respellings
are tone-numbered pinyin, which the "cmn-latn-pinyin" voice reads as
Mandarin (in plain "cmn" Latin letters are English, so it gets none).
Piper's voices phonemize the text themselves and are never given these.

The table is part of the espeak voice's cache identity (`seed`), so a line
rendered before a respelling changed is rendered again.
"""

from __future__ import annotations

import hashlib
import json

# espeak-ng voice name -> {word as written: what espeak-ng is given}.
READINGS: dict[str, dict[str, str]] = {
    "cmn-latn-pinyin": {
        "镇长": "zhen4 zhang3",        # the Mayor: zhǎng (head), not cháng (long)
        "处决": "chu3 jue2",           # to execute: chǔ, not chù
        "倒数": "dao4 shu3",           # to count down: shǔ (to count), not shù (number)
        "重新": "chong2 xin1",         # again: chóng, not zhòng (heavy)
    },
    "de": {
        "Handys": "Händis",            # the phones: English y, said as "i"
        "Unruhestifterin": "Unruhe-Stifterin",   # the Troublemaker: Unruhe + Stifterin
    },
}


def respelled(text: str, voice: str) -> str:
    """`text` as espeak-ng's `voice` should be given it."""
    for word, reading in READINGS.get(voice, {}).items():
        text = text.replace(word, f" {reading} " if voice.startswith("cmn") else reading)
    return text


def seed(voice: str) -> str:
    """What the respellings add to `voice`'s cache identity ("" for none)."""
    table = READINGS.get(voice)
    if not table:
        return ""
    blob = json.dumps(table, sort_keys=True, ensure_ascii=False).encode()
    return ":readings-" + hashlib.sha256(blob).hexdigest()[:12]
