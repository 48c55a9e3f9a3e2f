"""c. SPACE on the USB keyboard (through the kernel's evdev and SDL) starts
a round: the screen changes, and qemu's wav holds the image's cached first
line starting within 2 s of the key."""

from __future__ import annotations

import base64
import io
import time
import wave

from twin.context import FIRST_LINE, Check, Context, Outcome, cached_line
from twin.media import (
    DROPOUTS_STARVED,
    LINE_HALF,
    LINE_MATCH,
    dropouts,
    find_line,
    same_screen,
    wav_frames,
)


def press(ctx: Context) -> Outcome:
    twin = ctx.twin
    assert twin.qmp
    before = wav_frames(twin.wav)
    if before == 0:
        return "FAIL", "qemu's wav holds nothing: the box never opened the sound card"
    start = twin.screendump(twin.work / "twin-before-press.png")
    twin.qmp.key("spc")
    pressed = time.monotonic()
    left = None
    while time.monotonic() - pressed < 30:
        shot = twin.screendump(twin.work / "twin-after-press.png")
        if not same_screen(shot, start)[0]:
            left = time.monotonic() - pressed
            break
        time.sleep(0.5)
    if left is None:
        return "FAIL", "the start screen stayed 30 s after SPACE on the USB keyboard"
    line = "/var/cache/wolfbox/" + str(cached_line(ctx.config, FIRST_LINE))
    # 165 KB through the virtio console: seconds on a quiet host, a minute
    # and more on a busy one (c once timed out at 60 s beside an xz).
    out = ctx.sh.out(f"base64 -w0 < {line}", timeout=600)
    try:
        with wave.open(io.BytesIO(base64.b64decode(out.strip(), validate=True))) as w:
            rate, frames = w.getframerate(), w.readframes(w.getnframes())
    except (ValueError, EOFError, wave.Error):
        return "FAIL", f"the image has no cached {FIRST_LINE!r} ({line}): {out[-120:]}"
    import numpy
    samples = numpy.frombuffer(frames, dtype="<i2")
    expected = len(samples) / rate
    within = 2.0 + 1.0                        # the line must start within 2 s of the key
    heard = None
    deadline = time.monotonic() + 60 + 2 * expected
    while heard is None and time.monotonic() < deadline:
        heard = find_line(twin.wav, before, samples, rate, within)
        if heard is None:
            time.sleep(1)
    if heard is None:
        return "FAIL", f"the screen changed {left:.1f} s after the key; qemu's wav stopped"
    ctx.figures["key to the first line"] = f"{heard.begins:.2f} s"
    detail = (f"SPACE (usb-kbd, evdev, SDL): the screen changed within {left:.1f} s; "
              f"{FIRST_LINE!r} ({expected:.2f} s cached) found {heard.begins:.2f} s after "
              f"the key, its loudness correlated {heard.match:.2f} with the cached line's "
              f"(halves {heard.halves[0]:.2f}, {heard.halves[1]:.2f}; needed {LINE_MATCH}, "
              f"{LINE_HALF})")
    problems = []
    if not heard.found:
        problems.append("the first line is not in the sound")
        gaps, silent = dropouts(twin.wav, before, within + expected)
        if gaps >= DROPOUTS_STARVED:
            problems.append(f"qemu's sound broke up: {gaps} runs of digital silence "
                            f"({silent:.1f} s) inside it, as when the host starves the "
                            "emulator (run c again on a quieter host)")
    elif heard.begins > 2.0:
        problems.append("the first line over 2 s after the key")
    return ("FAIL" if problems else "pass"), detail + "".join(f"; {p}" for p in problems)


CHECK = Check("c. a key on the USB keyboard starts a round; the box speaks", press)
