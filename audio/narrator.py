"""Playback: carries out the flow's audio effects with one open mixer.

The mixer is opened once at the voice's sample rate and kept open (the
Pi's 3.5 mm jack pops on every open and close). A line that is not in the
cache is not waited for: the screen already shows it as a caption, the
renderer is asked for it, and the flow moves on on its own clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from wolfbox.effects import (Cue, Effect, PauseAudio, PlayCue, ResumeAudio, Say,
                             StopSpeech, Warm)
from wolfbox.flow import SpeechDone

from .cache import LineCache
from .cues import cue_pcm
from .renderer import Renderer

log = logging.getLogger("wolfbox.audio")


@dataclass
class Played:
    text: str
    at: float          # clock time the samples were handed to the mixer


def open_mixer(rate: int) -> str | None:
    """Open the mixer once; return None, or why there is no sound."""
    try:
        pygame.mixer.init(frequency=rate, size=-16, channels=1, buffer=512)
    except pygame.error as e:
        return f"no sound device ({e}): captions only"
    if pygame.mixer.get_init() is None:
        return "no sound device: captions only"
    return None


@dataclass
class Narrator:
    cache: LineCache | None
    renderer: Renderer | None
    clock: Callable[[], float]
    sound: bool = True                      # False: the mixer is not open
    played: list[Played] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._cues: dict[Cue, pygame.mixer.Sound] = {}
        self._token: int | None = None
        self._ends_at: float | None = None       # when the current line ends
        self._left_when_paused: float | None = None
        if self.sound:
            pygame.mixer.set_reserved(2)
            self._voice = pygame.mixer.Channel(0)
            self._cue = pygame.mixer.Channel(1)
            rate, _, _ = pygame.mixer.get_init()
            self._latency = 512 / rate           # the mixer buffer still to be heard
            for cue in Cue:
                self._cues[cue] = pygame.mixer.Sound(buffer=cue_pcm(cue, rate))

    def apply(self, effect: Effect) -> None:
        match effect:
            case Say(text=text, token=token):
                self._say(text, token)
            case PlayCue(cue=cue):
                if self.sound:
                    self._cue.play(self._cues[cue])
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
        return SpeechDone(token)

    def warm(self, texts: list[str]) -> None:
        """Ask for the lines a round will need, in the order it needs them."""
        if self.renderer is not None and self.sound:
            self.renderer.request(texts)

    def close(self) -> None:
        if self.renderer is not None:
            self.renderer.close()

    # ---------------------------------------------------------------------
    def _say(self, text: str, token: int) -> None:
        self._stop()
        if not self.sound or self.cache is None:
            return
        sound = self._load(text)
        if sound is None:
            self.missed.append(text)
            if self.renderer is not None:
                self.renderer.request([text], urgent=True)
            return
        self._token = token
        self._voice.play(sound)
        now = self.clock()
        self._ends_at = now + sound.get_length() + self._latency
        self.played.append(Played(text, now))

    def _load(self, text: str) -> pygame.mixer.Sound | None:
        sound = self._sounds.get(text)
        if sound is not None:
            return sound
        assert self.cache is not None
        path: Path | None = self.cache.get(text)
        if path is None:
            return None
        try:
            sound = pygame.mixer.Sound(file=str(path))
        except pygame.error as e:
            log.warning("unplayable cached line %s (%s): rendering it again", path.name, e)
            path.unlink(missing_ok=True)
            return None
        self._sounds[text] = sound
        return sound

    def _stop(self) -> None:
        self._token = self._ends_at = self._left_when_paused = None
        if self.sound:
            self._voice.stop()
