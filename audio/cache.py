"""Rendered lines on disk: one WAV per (voice, text, synthesis settings).

Files are written atomically (temp file, fsync, rename), so a power cut
leaves either the old state or the whole new file, never half a WAV. A file
that does not parse as a complete WAV is treated as missing and removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SynthSettings:
    length_scale: float = 1.0
    volume: float = 1.0


@dataclass(frozen=True)
class LineCache:
    root: Path
    voice_identity: str
    settings: SynthSettings

    def key(self, text: str) -> str:
        blob = json.dumps({"voice": self.voice_identity, "text": text,
                           "length_scale": self.settings.length_scale,
                           "volume": self.settings.volume}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def path(self, text: str) -> Path:
        return self.root / f"{self.key(text)}.wav"

    def get(self, text: str) -> Path | None:
        """The WAV for `text` if a complete one is cached."""
        path = self.path(text)
        if not path.exists():
            return None
        if wav_ok(path):
            return path
        path.unlink(missing_ok=True)
        return None

    def missing(self, texts: list[str]) -> list[str]:
        seen: set[str] = set()
        out = []
        for t in texts:
            if t not in seen and self.get(t) is None:
                out.append(t)
            seen.add(t)
        return out


def wav_ok(path: Path) -> bool:
    """A readable WAV whose data is as long as its header says."""
    try:
        with wave.open(str(path), "rb") as w:
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
                     SynthSettings(config.voice.length_scale, config.voice.volume))


def cache_size(root: Path) -> tuple[int, int]:
    """(files, bytes) of the rendered lines under `root`."""
    files = [p for p in root.rglob("*.wav")] if root.exists() else []
    return len(files), sum(p.stat().st_size for p in files)
