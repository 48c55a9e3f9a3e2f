"""Cue sounds, generated in code: no copied sound files.

Returned as 16-bit mono PCM bytes at the mixer's rate so they can be
checked with numbers (duration, peak) and handed straight to the mixer.
"""

from __future__ import annotations

import math
from array import array

from wolfbox.effects import Cue

# (frequency Hz, start s, length s, relative level) partials of each cue
_SHAPES: dict[Cue, list[tuple[float, float, float, float]]] = {
    Cue.CHIME: [(880.0, 0.0, 0.6, 0.35), (1318.5, 0.12, 0.6, 0.3)],
    Cue.TICK: [(1500.0, 0.0, 0.04, 0.3)],
    Cue.VOTE: [(660.0, 0.0, 0.15, 0.4), (880.0, 0.15, 0.15, 0.4), (1320.0, 0.3, 0.35, 0.45)],
    Cue.TIME_UP: [(440.0, 0.0, 0.25, 0.45), (440.0, 0.35, 0.45, 0.45)],
    Cue.ABANDON: [(660.0, 0.0, 0.2, 0.35), (440.0, 0.2, 0.35, 0.35)],
}


# Peak level of each cue, as a fraction of full scale: below the voice,
# which piper normalises to full scale, so cues never drown a line.
LOUDNESS: dict[Cue, float] = {
    Cue.CHIME: 0.5, Cue.TICK: 0.35, Cue.VOTE: 0.7, Cue.TIME_UP: 0.7, Cue.ABANDON: 0.5,
}


def cue_pcm(cue: Cue, rate: int) -> bytes:
    """The cue as signed 16-bit mono samples at `rate`."""
    parts = _SHAPES[cue]
    length = max(start + dur for _, start, dur, _ in parts)
    n = int(length * rate)
    mix = [0.0] * n
    for freq, start, dur, level in parts:
        first, count = int(start * rate), int(dur * rate)
        attack = max(1, int(0.005 * rate))
        for i in range(count):
            env = min(1.0, i / attack) * math.exp(-4.0 * i / count)
            mix[first + i] += level * env * math.sin(2 * math.pi * freq * i / rate)
    scale = 32767 * LOUDNESS[cue] / max(abs(x) for x in mix)
    return array("h", (int(x * scale) for x in mix)).tobytes()


def ambience_pcm(rate: int, seconds: float = 8.0, seed: int = 7) -> bytes:
    """A soft, seamless loop of brown noise with a slow swell, like wind or a
    room at night: enough to cover the sound of cards being moved.

    Peak at about a quarter of full scale before the channel's own volume.
    """
    import random
    rng = random.Random(seed)
    fade = int(0.5 * rate)
    n = int(seconds * rate) + fade
    out, level = [0.0] * n, 0.0
    for i in range(n):
        level = 0.985 * level + 0.06 * (rng.random() - 0.5)     # leaky integral: brown noise
        swell = 0.75 + 0.25 * math.sin(2 * math.pi * i / (seconds * rate))
        out[i] = level * swell
    # Cross-fade the tail into the head so the loop has no seam.
    body = out[:n - fade]
    for i in range(fade):
        w = i / fade
        body[i] = body[i] * w + out[n - fade + i] * (1 - w)
    peak = max(abs(x) for x in body) or 1.0
    scale = 0.25 * 32767 / peak
    return array("h", (int(x * scale) for x in body)).tobytes()
