"""What the twin sees and hears, compared with what the box should show and
say: a screendump against the box's own screenshot (`same_screen`), a
cached line found in qemu's wav by its loudness over time (`find_line`).
Pure functions of files, run in the suite on the box's own pictures."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from twin.qemu import CHANNELS, RATE

# ------------------------------------------------------------ the screen
# Two pictures of one screen: a pixel differs when a channel differs by more
# than PIXEL_TOLERANCE (anti-aliasing, the display's colour conversion);
# they are the same screen when at most SCREEN_THRESHOLD of the pixels
# differ. Measured on the box's own screenshots (docs/screenshots, 480x320):
# the start screen with one notice line added differs in 0.9 % of them, with
# the voice's status and two notices in 5.4 %, another screen in 15 % and more.
PIXEL_TOLERANCE = 48
SCREEN_THRESHOLD = 0.004


def load_rgb(path: Path):
    """A picture as an H x W x 3 array of uint8 (pygame reads qemu's PNG and
    the box's own)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import numpy
    import pygame
    surface = pygame.image.load(str(path))
    return numpy.ascontiguousarray(pygame.surfarray.pixels3d(surface).swapaxes(0, 1))


def screen_difference(a: Path, b: Path) -> float:
    """The share of pixels of two pictures of one size that differ (1.0 when
    the sizes differ: a screen drawn at another size is not the same)."""
    import numpy
    one, two = load_rgb(a), load_rgb(b)
    if one.shape != two.shape:
        return 1.0
    diff = numpy.abs(one.astype(numpy.int16) - two.astype(numpy.int16)).max(axis=2)
    return float((diff > PIXEL_TOLERANCE).mean())


def same_screen(a: Path, b: Path) -> tuple[bool, float]:
    """Whether two pictures show the same screen, and their difference."""
    share = screen_difference(a, b)
    return share <= SCREEN_THRESHOLD, share


# ------------------------------------------------------------- the sound
FRAME = 2 * CHANNELS    # s16


def wav_frames(path: Path) -> int:
    """Frames written so far (qemu writes the header's sizes only at the end)."""
    try:
        return max(0, (path.stat().st_size - 44) // FRAME)
    except FileNotFoundError:
        return 0


# The cached line is found in qemu's wav by its loudness over time (RMS in
# ENVELOPE windows), not by its samples: on the way to the sound card SDL,
# ALSA and the emulated HDA resample it, and a drift of a fraction of a per
# cent puts the samples out of step within a second (measured: samples 0.48
# and 0.02 correlated in the line's two halves, the envelope 0.79 and
# 0.97), and the night's ambience runs quietly under the voice. Where the
# envelope correlates with the line's by LINE_MATCH over the whole line and
# by LINE_HALF in each half (neither cut short nor stretched), the line
# plays there. Measured in the twin: the first line 0.84 (halves 0.79,
# 0.97); the night's other lines against it at most 0.53.
ENVELOPE = 0.02
LINE_MATCH = 0.7
LINE_HALF = 0.6


@dataclass(frozen=True)
class Heard:
    """Where a line was found in qemu's wav: seconds after the given frame,
    and how its envelope correlated with the line's (whole, halves)."""
    begins: float
    match: float
    halves: tuple[float, float]

    @property
    def found(self) -> bool:
        return self.match >= LINE_MATCH and min(self.halves) >= LINE_HALF


def envelope(samples, rate: int):
    """RMS loudness in ENVELOPE-second windows of mono samples."""
    import numpy
    n = max(1, round(ENVELOPE * rate))
    m = len(samples) // n
    block = numpy.asarray(samples[: m * n], dtype=numpy.float64).reshape(m, n)
    return numpy.sqrt((block * block).mean(axis=1))


def _correlations(windows, want):
    """Pearson's r of each row of `windows` with `want` (0 where either is flat)."""
    import numpy
    rows = windows - windows.mean(axis=1, keepdims=True)
    w = want - want.mean()
    den = numpy.linalg.norm(rows, axis=1) * numpy.linalg.norm(w)
    num = rows @ w
    return numpy.divide(num, den, out=numpy.zeros_like(num), where=den > 0)


def find_line(path: Path, frame: int, line, line_rate: int, within: float) -> Heard | None:
    """The best place the line (mono samples at `line_rate`) starts in
    qemu's wav, within `within` seconds after `frame`; None when the wav
    holds less than that and the line after it."""
    import numpy
    from numpy.lib.stride_tricks import sliding_window_view
    want = envelope(line, line_rate)
    seconds = within + len(want) * ENVELOPE
    with open(path, "rb") as f:
        f.seek(44 + frame * FRAME)
        data = numpy.frombuffer(f.read(int(seconds * RATE) * FRAME), dtype="<i2")
    if data.size < int(seconds * RATE) * CHANNELS:
        return None
    mono = data.reshape(-1, CHANNELS).astype(numpy.float64).mean(axis=1)
    got = envelope(mono, RATE)
    windows = sliding_window_view(got, len(want))
    whole = _correlations(windows, want)
    k = int(whole.argmax())
    half = len(want) // 2
    first = _correlations(got[k:k + half][None, :], want[:half])[0]
    second = _correlations(got[k + half:k + len(want)][None, :], want[half:])[0]
    return Heard(k * ENVELOPE, float(whole[k]), (float(first), float(second)))


# A starved emulator (a host busy with other work) plays the guest's sound
# in pieces: between them qemu's wav holds runs of exact digital silence,
# which no line, no gap between lines and no ambience makes (the box's
# lines carry none as long as this; a quiet twin's first line has none).
# Measured beside the whole test suite: 26 such runs in 12 s, the line's
# envelope correlating 0.38; alone on the host at once after: none inside
# the sound, 0.80.
DROPOUT_S = 0.01
DROPOUTS_STARVED = 5


def dropouts(path: Path, frame: int, seconds: float) -> tuple[int, float]:
    """Runs of digital silence (every channel exactly 0) of DROPOUT_S or
    more with sound on both sides, within `seconds` after `frame`: how
    many, and how long together."""
    import numpy
    with open(path, "rb") as f:
        f.seek(44 + frame * FRAME)
        data = numpy.frombuffer(f.read(int(seconds * RATE) * FRAME), dtype="<i2")
    silent = (data[: data.size // CHANNELS * CHANNELS].reshape(-1, CHANNELS) == 0).all(axis=1)
    edges = numpy.flatnonzero(numpy.diff(numpy.r_[0, silent.astype(numpy.int8), 0]))
    starts, ends = edges[::2], edges[1::2]
    inside = (starts > 0) & (ends < silent.size) & (ends - starts >= DROPOUT_S * RATE)
    return int(inside.sum()), float((ends - starts)[inside].sum() / RATE)


def wav_seconds(path: Path) -> float:
    """A complete WAV's length (a cached line)."""
    import wave
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()

