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
                             StopSpeech)
from wolfbox.flow import SpeechDone

from .cache import LineCache
from .cues import cue_pcm
from .renderer import Renderer

log = logging.getLogger("wolfbox.audio")

SPEECH_END = pygame.event.custom_type()


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
        if self.sound:
            pygame.mixer.set_reserved(2)
            self._voice = pygame.mixer.Channel(0)
            self._cue = pygame.mixer.Channel(1)
            self._voice.set_endevent(SPEECH_END)
            rate = pygame.mixer.get_init()[0]
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
            case PauseAudio():
                if self.sound:
                    pygame.mixer.pause()
            case ResumeAudio():
                if self.sound:
                    pygame.mixer.unpause()

    def speech_ended(self) -> SpeechDone | None:
        """Called on SPEECH_END: the flow's event, if the line really ended.

        An end event that arrives while the channel is busy belongs to a
        line that was replaced; it is ignored.
        """
        if self._token is None or (self.sound and self._voice.get_busy()):
            return None
        token, self._token = self._token, None
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
        self.played.append(Played(text, self.clock()))

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
        """Silence the voice without posting an end event for the old line."""
        self._token = None
        if self.sound and self._voice.get_busy():
            self._voice.set_endevent()
            self._voice.stop()
            self._voice.set_endevent(SPEECH_END)
