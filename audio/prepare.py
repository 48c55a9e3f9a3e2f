"""`wolfbox prepare`: render every line the box can need, before game night.

Meant to run once at install time (on a Pi a line takes about as long to
render as to say) and after a voice or text change. Lines already cached
are skipped; `--check` only reports what is missing.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from wolfbox.catalogue import game_lines
from wolfbox.config import Config
from wolfbox.i18n import _

from .cache import cache_for, cache_size
from .renderer import Renderer
from .voice import VoiceError, choose_voice


class Progress:
    """A progress bar on a terminal; a line every tenth of the way elsewhere."""

    def __init__(self, total: int, out: TextIO, width: int = 30) -> None:
        self.total, self.out, self.width = total, out, width
        self.done = 0
        self.started = time.monotonic()
        self._tty = out.isatty()
        self._lock = threading.Lock()
        self._last_tenth = -1

    def step(self, text: str) -> None:
        with self._lock:
            self.done += 1
            fraction = self.done / self.total if self.total else 1.0
            if self._tty:
                filled = int(self.width * fraction)
                bar = "#" * filled + "." * (self.width - filled)
                label = text if len(text) <= 40 else text[:37] + "..."
                self.out.write(f"\r[{bar}] {self.done}/{self.total}  {label:<40}")
                if self.done == self.total:
                    self.out.write("\n")
            elif int(fraction * 10) != self._last_tenth:
                self._last_tenth = int(fraction * 10)
                self.out.write(_("rendered {done}/{total} lines").format(
                    done=self.done, total=self.total) + "\n")
            self.out.flush()


def prepare(config: Config, check: bool = False, out: TextIO = sys.stderr,
            command: list[str] | None = None) -> int:
    voice, problem = choose_voice(config.voice.model, config.box.lang)
    if voice is None:
        raise VoiceError(problem or _("no voice"))
    if problem:
        print(problem, file=out)                   # which voice speaks, once
    cache = cache_for(config, voice)
    lines = game_lines(config)
    missing = cache.missing(lines)
    files, size = cache_size(cache.root)
    if check:
        print(_("{cached} of {total} lines are cached for voice {voice} in {root} "
                "({mb:.1f} MB)").format(cached=len(lines) - len(missing), total=len(lines),
                                         voice=voice.name, root=cache.root, mb=size / 2**20),
              file=out)
        for text in missing[:10]:
            print("  " + _("missing: {line}").format(line=text), file=out)
        if len(missing) > 10:
            print("  " + _("... and {n} more").format(n=len(missing) - 10), file=out)
        return 1 if missing else 0
    if not missing:
        print(_("all {total} lines are already cached for voice {voice} ({mb:.1f} MB in "
                "{root}); nothing to render").format(total=len(lines), voice=voice.name,
                                                      mb=size / 2**20, root=cache.root),
              file=out)
        return 0
    print(_("rendering {missing} of {total} lines with voice {voice} ...").format(
        missing=len(missing), total=len(lines), voice=voice.name), file=out, flush=True)
    progress = Progress(len(missing), out)
    # A fault that outlasts a few tries (a full disk, a read-only card) ends
    # the run with its reason rather than waiting for it forever.
    renderer = Renderer(voice, cache, on_ready=progress.step, timeout=300, command=command,
                        priority="normal",
                        max_failures=4, report=lambda message: print(message, file=out))
    started = time.monotonic()
    renderer.request(missing)
    renderer.wait_idle()
    renderer.close()
    elapsed = time.monotonic() - started
    files, size = cache_size(cache.root)
    stats = renderer.stats
    print(_("rendered {rendered} lines ({speech:.0f} s of speech) in {elapsed:.1f} s; "
            "cache: {files} lines, {mb:.1f} MB in {root}").format(
        rendered=stats.rendered, speech=stats.audio_seconds, elapsed=elapsed, files=files,
        mb=size / 2**20, root=cache.root), file=out)
    left = cache.missing(lines)
    if left:
        print(_("{n} lines could not be rendered; they will show as captions (run again, "
                "or see the voice path)").format(n=len(left)), file=out)
        return 1
    return 0
