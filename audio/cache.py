"""Rendered lines on disk: one WAV per (voice, text, synthesis settings).

Files are written atomically (temp file, fsync, rename), so a power cut
leaves either the old state or the whole new file, never half a WAV. A file
that does not parse as a complete WAV in the voice's format is treated as
missing and removed (if the disk lets us). Nothing here raises for a cache
the box cannot use: a line that cannot be read is a missing line, and the
renderer says why once (see `probe`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

from .faults import describe_storage, os_error_kind


@dataclass(frozen=True)
class SynthSettings:
    """Synthesis settings that change the sound, and so the cache key.

    A non-finite or non-positive value (nan from a hand-edited file) would make
    piper write silence, or nothing; it falls back to the default instead, so
    no silent WAV is ever cached under a key that looks fine.
    """
    length_scale: float = 1.0
    volume: float = 1.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.length_scale) and self.length_scale > 0):
            object.__setattr__(self, "length_scale", 1.0)
        if not (math.isfinite(self.volume) and self.volume > 0):
            object.__setattr__(self, "volume", 1.0)


@dataclass(frozen=True)
class WavFormat:
    """The sample format every cached line of a voice must have: a WAV at
    another rate or width parses fine but would play as noise or chipmunks."""
    rate: int
    width: int = 2          # bytes a sample: piper and espeak-ng write 16-bit
    channels: int = 1


@dataclass(frozen=True)
class LineCache:
    """The WAVs of one voice and one set of synthesis settings."""
    root: Path
    voice_identity: str
    settings: SynthSettings
    format: WavFormat | None = None     # None: any complete WAV will do
    lang: str = "en"                    # the language the lines are in

    def key(self, text: str) -> str:
        fields: dict[str, object] = {"voice": self.voice_identity, "text": text,
                                     "length_scale": self.settings.length_scale,
                                     "volume": self.settings.volume}
        if self.lang != "en":
            # English keys stay as they were, so a box's rendered lines stay valid.
            fields["lang"] = self.lang
        blob = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def path(self, text: str) -> Path:
        return self.root / f"{self.key(text)}.wav"

    def get(self, text: str) -> Path | None:
        """The WAV for `text` if a complete one in the voice's format is cached.
        A bad file is removed so it is rendered again; never raises."""
        path = self.path(text)
        try:
            if not path.is_file():
                return None
        except OSError:                    # a folder the box cannot enter
            return None
        if wav_ok(path, self.format):
            return path
        try:
            path.unlink(missing_ok=True)
        except OSError:                    # read-only: the renderer will say so
            pass
        return None

    def missing(self, texts: list[str]) -> list[str]:
        seen: set[str] = set()
        out = []
        for t in texts:
            if t not in seen and self.get(t) is None:
                out.append(t)
            seen.add(t)
        return out

    def probe(self) -> str | None:
        """Why new lines cannot be stored here, in words for the table, or None.

        Tried by writing and removing a small file, the only test that tells
        a read-only card or a full disk from a good one, root or not.
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".probe.", suffix=".tmp")
            try:
                os.write(fd, b"\0" * 4096)
                os.fsync(fd)
            finally:
                os.close(fd)
                os.unlink(tmp)
        except OSError as e:
            return describe_storage(os_error_kind(e), self.root, e.strerror or str(e))
        return None


def wav_ok(path: Path, fmt: WavFormat | None = None) -> bool:
    """A readable WAV whose data is as long as its header says (and, given a
    format, in that format)."""
    try:
        with wave.open(str(path), "rb") as w:
            if fmt is not None and (w.getframerate(), w.getsampwidth(), w.getnchannels()) \
                    != (fmt.rate, fmt.width, fmt.channels):
                return False
            frames = w.getnframes()
            expected = frames * w.getsampwidth() * w.getnchannels()
            data = w.readframes(frames)
            return frames > 0 and len(data) == expected
    except (OSError, EOFError, wave.Error):
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see all of it or none of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def cache_for(config, voice) -> LineCache:
    """The cache a configuration and voice use (one place builds it)."""
    return LineCache(config.cache_dir() / voice.name, voice.identity,
                     SynthSettings(config.voice.length_scale, config.voice.volume),
                     WavFormat(voice.sample_rate), lang=config.box.lang)


def cache_size(root: Path) -> tuple[int, int]:
    """(files, bytes) of the rendered lines under `root`."""
    try:
        files = [p for p in root.rglob("*.wav")] if root.is_dir() else []
        return len(files), sum(p.stat().st_size for p in files)
    except OSError:
        return 0, 0
