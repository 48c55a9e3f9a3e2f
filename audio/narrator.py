"""Playback: carries out the flow's audio effects with one open mixer.

The mixer is opened once at the voice's sample rate and kept open (the
Pi's 3.5 mm jack pops on every open and close).

The lines a game may say are read ahead on a background thread (each WAV
is read whole to check it), which leaves them in the system's file cache,
not in the box's own memory: a game can say some 270 lines, tens of MiB,
and a 512 MB Pi must be able to take that memory back under pressure. A
due line is then opened from the file cache on the main loop (a fraction
of a millisecond for a few seconds of sound) and the last few said are
kept decoded. A line that is not in the
cache is not waited for: the screen already shows it as a caption, the
renderer is asked for it, and the flow moves on on its own clock.

A cache the box cannot use (read-only card, a folder it may not enter or
write) means captions only for the lines it lacks, said once by the
renderer. We chose that over rendering into memory: a worn SD card is
something the owner must hear about, and rendering every line again at
each start would load the CPU through every game.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from wolfbox.effects import (
    Ambience,
    Cue,
    Effect,
    PauseAudio,
    PlayCue,
    ResumeAudio,
    Say,
    StopSpeech,
    Warm,
)
from wolfbox.events import SpeechDone
from wolfbox.i18n import _
from wolfbox.recent import Recent

from .cache import LineCache
from .cues import ambience_pcm, cue_pcm
from .faults import SHORT_SOUND_TROUBLE, Fault, log_once
from .renderer import Renderer

log = logging.getLogger("wolfbox.audio")


@dataclass
class Played:
    text: str
    at: float          # clock time the samples were handed to the mixer


MIXER_BUFFER = 1024     # samples: 46 ms at 22 050 Hz; SDL wakes half as often as at 512
# Lines kept decoded after they are said: the calls a night repeats ("close
# your eyes") stay in memory, a game's whole script does not (a few seconds
# of sound each, ~0.1 MiB).
SOUNDS_KEPT = 8


def open_mixer(rate: int) -> str | None:
    """Open the mixer once; return None, or why there is no sound."""
    try:
        pygame.mixer.init(frequency=rate, size=-16, channels=1, buffer=MIXER_BUFFER)
    except pygame.error as e:
        return _("no sound device ({error}): captions only").format(error=e)
    if pygame.mixer.get_init() is None:
        return _("no sound device: captions only")
    return None


@dataclass(frozen=True)
class Mix:
    """Levels of the box's sounds; `volume` is the master over all of them
    (the voice plays at the master volume itself)."""
    volume: float = 1.0
    cue_volume: float = 0.8
    ambience: bool = True
    ambience_volume: float = 0.35
    duck: float = 0.3                       # ambience under narration, share of its level


@dataclass
class Narrator:
    """Carries out the flow's audio effects; never raises into the main loop."""
    cache: LineCache | None
    renderer: Renderer | None
    clock: Callable[[], float]
    sound: bool = True                      # False: the mixer is not open
    mix: Mix = field(default_factory=Mix)
    played: list[Played] = field(default_factory=Recent)
    missed: list[str] = field(default_factory=Recent)
    cues: list[tuple[Cue, float]] = field(default_factory=Recent)
    report: Callable[[str], None] = field(default_factory=log_once)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()           # guards _round and _ready
        self._round: tuple[str, ...] = ()       # the lines the current round needs
        self._ready: set[str] = set()           # lines in memory, ready to play
        self._said: set[str] = set()
        if self.renderer is not None:
            self.renderer.subscribe(self._rendered)
        self._sounds: OrderedDict[str, pygame.mixer.Sound] = OrderedDict()   # last said
        self._cues: dict[Cue, pygame.mixer.Sound] = {}
        self._token: int | None = None
        self._files: dict[str, Path] = {}         # checked (and so file-cached) by the reader
        self._reader: ThreadPoolExecutor | None = None
        self._reads: list[Future[None]] = []
        self._ends_at: float | None = None       # when the current line ends
        self._left_when_paused: float | None = None
        self.ambience_on = False
        if self.sound:
            pygame.mixer.set_reserved(3)
            self._voice = pygame.mixer.Channel(0)
            self._cue = pygame.mixer.Channel(1)
            self._bed = pygame.mixer.Channel(2)
            rate = (pygame.mixer.get_init() or (22050, -16, 1))[0]
            self._latency = MIXER_BUFFER / rate  # the mixer buffer still to be heard
            for cue in Cue:
                self._cues[cue] = pygame.mixer.Sound(buffer=cue_pcm(cue, rate))
            # Made at start even when off: turning it on from the settings screen
            # must not synthesise seconds of noise on the main loop.
            self._ambience = pygame.mixer.Sound(buffer=ambience_pcm(rate))
            self.set_mix(self.mix)
        # Lines at the speed before the last change, played until the new ones are ready.
        self._previous: dict[str, pygame.mixer.Sound | Path] = {}

    def set_mix(self, mix: Mix) -> None:
        """New levels (the settings screen): heard from the next sample on."""
        self.mix = mix
        if not self.sound:
            return
        self._voice.set_volume(mix.volume)
        self._cue.set_volume(mix.cue_volume * mix.volume)
        if not mix.ambience and self.ambience_on:
            self._bed.fadeout(1500)
            self.ambience_on = False
        self._duck(self._token is not None)

    def retarget(self, cache: LineCache) -> None:
        """Speak from `cache` from now on (a new speech speed). Its lines are
        rendered in the background; until each is ready, the line at the old
        speed plays, so a change never leaves the table with captions."""
        if self.cache is None:
            return
        self._previous.update(self._files)
        self._previous.update(self._sounds)
        self.cache = cache
        self._sounds, self._files = OrderedDict(), {}
        with self._lock:
            self._ready = set()
            wanted = self._round
        if self.renderer is not None:
            self.renderer.retarget(cache)
        self.warm(list(wanted))

    def apply(self, effect: Effect) -> None:
        """Carry out one effect. Whatever goes wrong with sound is said once and
        swallowed: the round goes on with captions, never stops on audio."""
        try:
            self._apply(effect)
        except Exception as e:
            log.debug("narrator failed on %r", effect, exc_info=True)
            self._say_once(Fault(_("sound trouble ({error}): the round goes on with captions")
                                 .format(error=f"{type(e).__name__}: {e}"),
                                 _(SHORT_SOUND_TROUBLE)))

    def readiness(self) -> tuple[int, int]:
        """(lines of the current round ready to play, lines it needs), for the
        start screen's "Preparing the voice: 12 of 40". Cheap and safe to call
        on every frame from the main loop: no disk, only counting in memory
        what the background threads have found. (0, 0) without a voice."""
        with self._lock:
            return sum(1 for t in self._round if t in self._ready), len(self._round)

    def _say_once(self, message: str) -> None:
        if message in self._said:
            return
        self._said.add(message)
        try:
            self.report(message)
        except Exception:
            log.exception("report failed")

    def _apply(self, effect: Effect) -> None:
        match effect:
            case Say(text=text, token=token):
                self._say(text, token)
            case PlayCue(cue=cue):
                self._play_cue(cue)
            case Ambience(on=on):
                self._set_ambience(on)
            case StopSpeech():
                self._stop()
            case Warm(lines=texts):
                self.warm(list(texts))
            case PauseAudio():
                if self.sound:
                    pygame.mixer.pause()
                if self._ends_at is not None:
                    self._left_when_paused = max(0.0, self._ends_at - self.clock())
                    self._ends_at = None
            case ResumeAudio():
                if self.sound:
                    pygame.mixer.unpause()
                if self._left_when_paused is not None:
                    self._ends_at = self.clock() + self._left_when_paused
                    self._left_when_paused = None

    def speech_deadline(self) -> float | None:
        """When the line being spoken ends, so the loop can wake for it."""
        return self._ends_at

    def speech_poll(self, now: float) -> SpeechDone | None:
        """The flow's SpeechDone once the current line has been heard out.

        Worked out from the sound's length rather than SDL's end events,
        which arrive through SDL's queue and race with a replaced line.
        """
        if self._ends_at is None or now < self._ends_at or self._token is None:
            return None
        token, self._token, self._ends_at = self._token, None, None
        self._duck(False)
        return SpeechDone(token)

    def ambience_level(self) -> float:
        """The ambience's level now (0 when off), fades aside."""
        if not (self.sound and self.ambience_on and self._ambience is not None):
            return 0.0
        return self._ambience.get_volume()

    def warm(self, texts: list[str]) -> None:
        """Get the lines a round will need ready: those cached are read into
        memory on a background thread (no disk read on the main loop, none
        when a line is due), the rest are asked of the renderer in the order
        the round needs them."""
        if not self.sound or self.cache is None:
            return
        wanted = tuple(dict.fromkeys(texts))
        with self._lock:
            self._round = wanted
            self._ready &= set(wanted)
        self._forget_all_but(set(wanted))
        self._submit(list(wanted))
        if self.renderer is not None:
            # This round's lines before any older round's, first lines first.
            self.renderer.request(wanted, urgent=True)

    def held_bytes(self) -> int:
        """The sound the narrator holds in its own memory (cues and ambience
        aside): what `SOUNDS_KEPT` bounds, and what the memory test reads."""
        sounds = list(self._sounds.values()) + \
            [s for s in self._previous.values() if not isinstance(s, Path)]
        return sum(len(s.get_raw()) for s in sounds)

    def _forget_all_but(self, keep: set[str]) -> None:
        """Let go of every line the new round does not need. Kept, each deck,
        game and speed would add its lines for good (a box that played all
        three games held some 420); a line needed again is read again. A
        line playing now plays on: its channel holds it."""
        for store in (self._sounds, self._files, self._previous):
            for text in [t for t in list(store) if t not in keep]:
                store.pop(text, None)           # the reader thread may add to _files

    def _submit(self, texts: list[str]) -> None:
        if self._reader is None:
            self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wolfbox-read")
        self._reads = [f for f in self._reads if not f.done()]
        self._reads.append(self._reader.submit(self._read, texts))

    def _rendered(self, text: str) -> None:
        """A line the renderer has just stored: read it ahead (render thread)."""
        try:
            self._submit([text])
        except RuntimeError:                    # closing: the reader is shut down
            pass

    def wait_warm(self, timeout: float | None = None) -> None:
        """Block until the lines asked for so far are read (tests, the bench)."""
        for future in list(self._reads):
            future.result(timeout)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.shutdown(wait=True, cancel_futures=True)
        if self.renderer is not None:
            self.renderer.close()

    def _read(self, texts: list[str]) -> None:
        """Check cached lines (reader thread): the disk is read here, never on
        the main loop, which leaves each line in the system's file cache, and
        readiness is counted from what is found."""
        assert self.cache is not None
        for text in texts:
            if text in self._sounds or text in self._files:
                with self._lock:
                    self._ready.add(text)
                continue
            path = self.cache.get(text)             # reads the whole WAV to check it
            if path is not None:
                self._files[text] = path
                with self._lock:
                    self._ready.add(text)

    # ---------------------------------------------------------------------
    def _say(self, text: str, token: int) -> None:
        self._stop()
        if not self.sound or self.cache is None:
            return
        sound = self._load(text)
        if sound is None:
            with self._lock:
                self._ready.discard(text)
            self.missed.append(text)
            self._play_cue(Cue.CHIME)            # "read the screen": the line is a caption
            if self.renderer is not None:
                self.renderer.request([text], urgent=True)
            return
        self._token = token
        self._voice.play(sound)
        self._duck(True)
        now = self.clock()
        self._ends_at = now + sound.get_length() + self._latency
        self.played.append(Played(text, now))

    def _load(self, text: str) -> pygame.mixer.Sound | None:
        sound = self._sounds.get(text)
        if sound is not None:
            self._sounds.move_to_end(text)
            return sound
        sound = self._load_new(text)
        if sound is not None:
            self._keep(text, sound)
            return sound
        old = self._previous.get(text)
        if isinstance(old, Path):
            try:
                old = self._previous[text] = pygame.mixer.Sound(file=str(old))
            except (pygame.error, OSError):
                return None
        return old

    def _keep(self, text: str, sound: pygame.mixer.Sound) -> None:
        self._sounds[text] = sound
        while len(self._sounds) > SOUNDS_KEPT:
            self._sounds.popitem(last=False)

    def _load_new(self, text: str) -> pygame.mixer.Sound | None:
        """The line from the cache: checked ahead, so opened from the file
        cache; a line the reader has not reached is checked here."""
        assert self.cache is not None
        path: Path | None = self._files.get(text)
        if path is not None:
            try:
                return pygame.mixer.Sound(file=str(path))
            except (pygame.error, OSError):
                self._files.pop(text, None)           # gone or spoilt since: check again
        path = self.cache.get(text)
        if path is None:
            return None
        try:
            sound = pygame.mixer.Sound(file=str(path))
        except (pygame.error, OSError) as e:
            log.warning("%s", _("unplayable cached line {name} ({error}): rendering it again")
                        .format(name=path.name, error=e))
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass
            return None
        self._files[text] = path
        return sound

    def _stop(self) -> None:
        self._token = self._ends_at = self._left_when_paused = None
        if self.sound:
            self._voice.stop()
            self._duck(False)

    def _play_cue(self, cue: Cue) -> None:
        if self.sound:
            self._cue.play(self._cues[cue])
            self.cues.append((cue, self.clock()))

    def _set_ambience(self, on: bool) -> None:
        on = on and self.mix.ambience
        if not self.sound or self._ambience is None or on == self.ambience_on:
            return
        self.ambience_on = on
        if on:
            # The channel's volume carries the fade in and out; the sound's carries
            # the level and the ducking, so neither overrides the other.
            self._duck(self._token is not None)
            self._bed.play(self._ambience, loops=-1, fade_ms=1500)
        else:
            self._bed.fadeout(1500)

    def _duck(self, under_speech: bool) -> None:
        """Lower the ambience while a line is spoken, so every word is heard."""
        if self.sound and self.ambience_on and self._ambience is not None:
            level = self.mix.ambience_volume * self.mix.volume \
                * (self.mix.duck if under_speech else 1.0)
            self._ambience.set_volume(level)
