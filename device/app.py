"""Putting the box together: configuration in, a running loop out.

Every adapter is built here and handed to the loop; nothing below reads
configuration or chooses hardware on its own. Anything missing (screen,
sound card, voice) degrades to what is left, with one line saying so.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pygame

from wolfbox import lineup
from wolfbox.audio.cache import LineCache, SynthSettings, cache_for
from wolfbox.audio.narrator import Mix, Narrator, open_mixer
from wolfbox.audio.renderer import Renderer
from wolfbox.audio.voice import choose_voice
from wolfbox.buttons import Button, Classifier
from wolfbox.config import Config
from wolfbox.effects import ChangeSetting, Checkpoint, Effect, Remember, Say, Shutdown
from wolfbox.errors import WolfboxError
from wolfbox.games import Games
from wolfbox.hardware.buttons import ButtonBank
from wolfbox.hardware.factory import make_factory
from wolfbox.hardware.leds import LedBank
from wolfbox.i18n import LANGUAGE_KEY, LANGUAGES, _, language, speaking, use_language
from wolfbox.menu import default
from wolfbox.mode import Kind, Playable
from wolfbox.roster import MODE_KEY
from wolfbox.settings import SETTINGS
from wolfbox.settings_screen import SettingsScreen

from . import notices as notice_texts
from . import signals
from .backlight import Backlight
from .fonts import cjk_font_file
from .keys import TerminalKeys, key_codes, key_labels, terminal_chars
from .loop import RECOVERIES, Box, Inbox
from .notify import Notifier
from .phonelink import SEATS_FILE, PhoneLink
from .saves import Saves
from .screen import TerminalScreen, WindowScreen, init_video
from .state import StateStore, state_path

log = logging.getLogger("wolfbox")


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence C libraries (ALSA) that print to fd 2 while probing devices;
    the box reports what it found in one line of its own."""
    try:
        saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        sys.stderr.flush()
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


@dataclass
class Parts:
    """A built box and everything that must be closed after it."""
    box: Box
    narrator: Narrator
    bank: ButtonBank
    display: str
    notices: list[str] = field(default_factory=list)
    keys: TerminalKeys | None = None
    leds: LedBank | None = None
    phones: PhoneLink | None = None
    closers: ExitStack = field(default_factory=ExitStack)

    def close(self) -> None:
        """Close everything build() opened, last opened first."""
        self.closers.close()


def _shutdown_sink(box: Box, action: str) -> Callable[[Effect], None]:
    """A held power button: quit, or (on the Pi, as the service) power off
    through logind, which the installed polkit rule allows the wolfbox user."""
    def sink(effect: Effect) -> None:
        if not isinstance(effect, Shutdown):
            return
        if action == "poweroff":
            log.warning(_("power button held: powering off"))
            try:
                subprocess.Popen(["systemctl", "poweroff"], stdin=subprocess.DEVNULL)
            except OSError as e:
                log.warning(_("cannot power off ({error}): quitting instead").format(error=e))
        else:
            log.warning(_("power button held: quitting"))
        box.stop()
    return sink


def json_copy(data: dict) -> dict:
    """A snapshot for the saver thread, which must not see later changes."""
    import copy
    return copy.deepcopy(data)


def _live_settings(narrator: Narrator,
                   backlight: Backlight | None) -> Callable[[Effect], None]:
    """Apply a change made on the settings screen to what is running now;
    the flow itself takes the ones that shape a round (times, warnings)."""
    def sink(effect: Effect) -> None:
        if not isinstance(effect, ChangeSetting):
            return
        key, value = effect.key, effect.value
        changes: dict[str, Any] = {}
        if key.startswith("sound."):
            changes[key.split(".")[1]] = value
            narrator.set_mix(dataclasses.replace(narrator.mix, **changes))
        elif key == "voice.length_scale" and narrator.cache is not None:
            now = narrator.cache
            narrator.retarget(dataclasses.replace(
                now, settings=SynthSettings(float(value), now.settings.volume)))  # type: ignore[arg-type]
        elif key == "screen.brightness" and backlight is not None:
            backlight.set(float(value))  # type: ignore[arg-type]
    return sink


def _language_sink(config: Config, narrator: Narrator, renderer: Renderer | None,
                   warm: Callable[[], None],
                   notice: Callable[[str, tuple[str, ...]], None]) -> Callable[[Effect], None]:
    """Another language chosen on the box: the games speak it from now on
    (wolfbox.games); here the voice follows, and the game's lines are
    rendered in it (the table sees captions until each is ready)."""
    # The voice's notices as every language words them: a new one takes
    # their place (no German notice left on a Chinese screen).
    voice_notices = _voice_notices()

    def sink(effect: Effect) -> None:
        if not isinstance(effect, ChangeSetting) or effect.key != LANGUAGE_KEY:
            return
        lang = str(effect.value)
        if narrator.cache is None or renderer is None:
            return
        voice, problem = choose_voice(config.voice.model, lang)
        if voice is None or voice.sample_rate != renderer.voice.sample_rate:
            log.warning("%s", problem or _("the voice for {language} needs another sample "
                                           "rate: captions until the box restarts").format(
                language=lang))
            notice(_(notice_texts.NO_VOICE), voice_notices)
            return
        if problem:
            log.warning("%s", problem)            # said once, in full, in the journal
        notice(_(notice_texts.ESPEAK) if problem else "", voice_notices)
        changed = dataclasses.replace(config, box=dataclasses.replace(config.box, lang=lang))
        cache = cache_for(changed, voice)
        renderer.retarget(cache, voice)
        narrator.retarget(cache)
        warm()
    return sink


def _follow_language(effect: Effect) -> None:
    """Another language chosen on the box: the box's own words (notices,
    the terminal, the log) follow the games', before any other sink says
    something."""
    if isinstance(effect, ChangeSetting) and effect.key == LANGUAGE_KEY:
        use_language(str(effect.value))


def _notices_sink(box: Box) -> Callable[[Effect], None]:
    """Another language chosen on the box: the notices on the start screen
    (no sound, no GPIO, a config error) said in it at once. The voice's own
    notice then follows from `_language_sink`, which knows the new voice."""
    def sink(effect: Effect) -> None:
        if isinstance(effect, ChangeSetting) and effect.key == LANGUAGE_KEY:
            box.notices = notice_texts.reworded(box.notices)
    return sink


def _voice_notices() -> tuple[str, ...]:
    """The start screen's notices about the voice, in every language."""
    out: list[str] = []
    for lang in LANGUAGES:
        with speaking(lang):
            out += [_(notice_texts.ESPEAK), _(notice_texts.NO_VOICE)]
    return tuple(out)


def _game(config: Config, saves: Saves, has_brightness: bool) -> Games:
    """The games the box plays, starting with the one the configuration
    names (the table switches on the box)."""
    # One settings screen for every game: a setting changed from one game's
    # setup is the value the others show and build from.
    screen = SettingsScreen(config, has_brightness)
    return Games({name: functools.partial(_made, kind, screen, saves)
                  for name, kind in lineup.KINDS.items()},
                 config.game.mode, config.box.lang, phones_on=config.phones.enabled)


def _made(kind: Kind, screen: SettingsScreen, saves: Saves) -> Playable:
    """A game of `kind`, from the box's settings as they stand; a game saved
    before a power cut is offered for resuming, and one that cannot be
    resumed is said so once (device.saves) and a new game starts."""
    saved = saves.saved(kind.name)
    if saved is not None:
        try:
            return kind.resume(saved, screen)
        except WolfboxError as e:             # not a checkpoint of this game
            saves.refused(kind.name, e)
    return kind.new(screen)


# Set (to 1) by the test suite: a game's exception is raised, never caught
# (device.loop), so that no test passes over a bug the box would survive.
STRICT_ENV = "WOLFBOX_STRICT"


def _recover(games: Games, saves: Saves) -> Callable[[int], list[Effect] | None]:
    """How the box goes back from a game that raised (device.loop), by the
    failures since the table's last input (`strike`): the game built again,
    which resumes from its last checkpoint on its start screen; the second
    time, that checkpoint is what fails, so it is forgotten and the game
    starts anew; failing even anew, the game cannot be played now, and the
    next game is chosen as the table chooses one (a `ChangeSetting`: its
    lines warmed, the choice remembered), and gets as many tries. None once
    every game has failed: nothing is left."""
    def recover(strike: int) -> list[Effect] | None:
        given_up, tries = divmod(strike - 1, RECOVERIES)
        names = list(games.make)
        if given_up >= len(names):
            return None
        then: list[Effect] = []
        if tries:
            saves.keep(games.name, None)
            saves.persist()
        elif given_up:
            games.name = names[(names.index(games.name) + 1) % len(names)]
            then.append(ChangeSetting(MODE_KEY, games.name))
        games.restart()
        return then
    return recover


def build(config: Config, display: str | None = None,
          clock: Callable[[], float] = time.monotonic,
          pin_factory: object | None = None, stdin_keys: bool = True,
          renderer_command: list[str] | None = None,
          notices: list[str] | None = None, render_priority: str = "idle",
          strict: bool | None = None) -> Parts:
    """Build a ready-to-run box. Raises UserError (one line) on bad key names.
    `strict`: a game's exception ends the box (tests); None: as $WOLFBOX_STRICT says.

    Everything opened is registered with an ExitStack first, so a build that
    fails halfway (or is interrupted by a stop signal) closes what it had
    opened: no renderer process, pins or mixer are left behind.
    """
    strict = os.environ.get(STRICT_ENV) == "1" if strict is None else strict
    with ExitStack() as opened:
        parts = _build(opened, config, display, clock, pin_factory, stdin_keys,
                       renderer_command, list(notices or []), render_priority, strict)
        parts.closers = opened.pop_all()
        return parts


def _build(opened: ExitStack, config: Config, display: str | None,
           clock: Callable[[], float], pin_factory: object | None, stdin_keys: bool,
           renderer_command: list[str] | None, notices: list[str],
           render_priority: str, strict: bool = False) -> Parts:
    """The box put together, step by step, each step's closing registered
    with `opened` as it opens (closed last opened first)."""
    codes = key_codes(config.keys.keys())
    shown = _language_and_video(opened, config, display, notices)
    inbox = Inbox()          # what other threads tell the loop
    said = _Faults(inbox, notices)
    narrator, renderer = _voice(opened, config, clock, said, renderer_command, render_priority)
    bank, leds, classifier = _buttons(opened, config, clock, inbox, pin_factory, said)
    sinks: list[Callable[[Effect], None]] = [_follow_language, narrator.apply]
    screen = _screen(opened, config, shown, sinks)
    backlight = Backlight.find()
    if backlight is not None:
        backlight.set(config.screen.brightness)
    memory, persist, saves = _memory(opened, inbox)
    flow = _game(config, saves, has_brightness=backlight is not None)

    def warm() -> None:
        """The game's lines rendered ahead: asking for them builds the game
        (resumed from its save), so behind the barrier, at startup too."""
        box.in_game(lambda: narrator.warm(flow.lines()))
    sinks.append(_remember_sink(memory, saves, persist))
    sinks.append(_switched_sink(warm))
    sinks.append(_live_settings(narrator, backlight))
    sinks.append(_language_sink(config, narrator, renderer, warm, inbox.notice))
    box = Box(flow=flow, classifier=classifier, screen=screen, clock=clock,
              inbox=inbox, effect_sinks=sinks, speech_poll=narrator.speech_poll,
              speech_deadline=narrator.speech_deadline, key_codes=codes, drive=bank.drive,
              sdl_poll=None if shown == "headless" else 1 / config.screen.input_hz,
              notices=tuple(n for n in notices if n), notifier=Notifier.from_env(),
              view_sinks=[leds.show], readiness=narrator.readiness,
              recover=_recover(flow, saves))
    box.strict = strict         # before the first call into the game (the phones' views)
    sinks.append(_shutdown_sink(box, config.hardware.power_action))   # it stops the box
    phones = _phones(opened, config, box, flow, clock, inbox, sinks)
    sinks.append(_notices_sink(box))                # they follow the language
    parts = Parts(box, narrator, bank, shown, notices, leds=leds, phones=phones)
    if isinstance(screen, TerminalScreen) and stdin_keys:
        _terminal_keys(opened, config, bank, inbox, screen, parts)
    warm()
    return parts


def _language_and_video(opened: ExitStack, config: Config, display: str | None,
                        notices: list[str]) -> str:
    """The box's own words (notices, the terminal, the log) in its language,
    as it was once closed; the games are called in theirs (wolfbox.games).
    Then the display: how the box is shown (init_video)."""
    before = language()
    problem = use_language(config.box.lang)
    opened.callback(use_language, before)
    if problem:
        notices.append(problem)
    shown = init_video(display or config.screen.display)
    if config.box.lang == "zh":
        cjk_font_file()            # found now (it may ask fontconfig), not in the first frame
    opened.callback(pygame.quit)
    return shown


@dataclass
class _Faults:
    """How the build and the adapters say a fault: the short meaning on the
    start screen, the detail in the log (the journal)."""
    inbox: Inbox
    notices: list[str]

    def tell(self, message: str) -> None:
        """A fault found by an adapter: the detail in the log (the journal),
        its short meaning on the start screen, once each."""
        log.warning("%s", message)
        self.inbox.notice(getattr(message, "short", "") or _(notice_texts.VOICE_TROUBLE))

    def notice(self, short: str, detail: str | None = None) -> None:
        """A fault found while building: the short form on the screen, the
        detail (raw ALSA or GPIO text) in the log."""
        self.notices.append(short)
        log.warning("%s", detail or short)      # said once, in full, in the journal


def _voice(opened: ExitStack, config: Config, clock: Callable[[], float], said: _Faults,
           renderer_command: list[str] | None,
           render_priority: str) -> tuple[Narrator, Renderer | None]:
    """The voice and the sound: the narrator, with the renderer that speaks
    its lines where a voice and a mixer are there (else it is silent and the
    screen says why)."""
    narrator_cache: LineCache | None = None
    renderer: Renderer | None = None
    sound = False
    if not config.voice.enabled:
        said.notice(_(notice_texts.VOICE_OFF))
    else:
        voice, voice_problem = choose_voice(config.voice.model, config.box.lang)
        if voice is None:
            said.notice(_(notice_texts.NO_VOICE), voice_problem)
        else:
            with _quiet_stderr():
                problem = open_mixer(voice.sample_rate)
            if problem:
                # No sound at all: which voice would have spoken is beside
                # the point on the screen (the log still says).
                if voice_problem:
                    log.warning("%s", voice_problem)
                said.notice(_(notice_texts.NO_SOUND), problem)
            else:
                if voice_problem:
                    said.notice(_(notice_texts.ESPEAK), voice_problem)
                sound = True
                narrator_cache = cache_for(config, voice)
                renderer = Renderer(voice, narrator_cache, command=renderer_command,
                                    on_ready=said.inbox.wake, report=said.tell,
                                    priority=render_priority)
    mix = Mix(volume=config.sound.volume, cue_volume=config.sound.cue_volume,
              ambience=config.sound.ambience, ambience_volume=config.sound.ambience_volume,
              duck=config.sound.duck)
    narrator = Narrator(narrator_cache, renderer, clock, sound=sound, mix=mix,
                        report=said.tell)
    opened.callback(narrator.close)
    return narrator, renderer


def _buttons(opened: ExitStack, config: Config, clock: Callable[[], float], inbox: Inbox,
             pin_factory: object | None,
             said: _Faults) -> tuple[ButtonBank, LedBank, Classifier]:
    """The buttons and their LEDs on the pins (mock pins where there are no
    GPIO: the keyboard drives them), and what makes taps and holds of them."""
    if pin_factory is not None:
        factory = pin_factory
    else:
        factory, problem = make_factory(config.hardware.pin_factory)
        if problem:
            said.notice(_(notice_texts.NO_GPIO), problem)
    bank = ButtonBank(config.buttons.pins(), factory, inbox.edge, clock,
                      bounce_seconds=config.buttons.debounce_ms / 1000)
    opened.callback(bank.close)
    leds = LedBank(config.leds.pins(), factory, brightness=config.leds.brightness)
    opened.callback(leds.close)
    # START holds too where the screen offers it (the phones' screen: Box.refresh).
    classifier = Classifier(hold_seconds={Button.START: config.buttons.hold_seconds,
                                          Button.BACK: config.buttons.hold_seconds,
                                          Button.NEXT: config.buttons.hold_seconds,
                                          Button.VOTE: config.buttons.hold_seconds,
                                          Button.POWER: config.buttons.power_hold_seconds},
                            debounce=config.buttons.debounce_ms / 1000)
    return bank, leds, classifier


def _screen(opened: ExitStack, config: Config, shown: str,
            sinks: list[Callable[[Effect], None]]) -> WindowScreen | TerminalScreen:
    """The window (or the whole screen); headless, the terminal, which also
    prints what the box says."""
    if shown != "headless":
        return WindowScreen((config.screen.width, config.screen.height),
                            fullscreen=shown == "fullscreen")
    terminal = TerminalScreen()
    opened.callback(terminal.close)     # no private screen left behind at exit

    def echo(effect: Effect) -> None:
        if isinstance(effect, Say):
            terminal.say(effect.text)
    sinks.append(echo)
    return terminal


def _memory(opened: ExitStack, inbox: Inbox) -> tuple[dict, Callable[[], None], Saves]:
    """What the box remembers (its state file), how it is written (whole, on
    a thread of its own, in order) and the games' saves kept in it."""
    store = StateStore(state_path())
    memory = store.load()                  # what the box remembers; _remember_sink keeps it
    saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wolfbox-save")
    opened.callback(saver.shutdown, wait=True)      # the last choice reaches the disk
    cannot_save: list[OSError] = []

    def save(data: dict) -> None:
        """On the saver thread: a state directory that takes no writes
        (read-only, full) is said once on the screen, and the game goes on."""
        problem = store.save(data)
        if problem is not None and not cannot_save:
            cannot_save.append(problem)
            inbox.notice(_(notice_texts.NO_SAVE))

    def persist() -> None:
        # The whole state at once, atomically; fsync can take a while on an
        # SD card, so not on the main loop. Saves run in order on one thread.
        saver.submit(save, json_copy(memory))

    saves = Saves(memory, persist=persist, notice=inbox.notice, unreadable=store.unreadable)
    return memory, persist, saves


def _remember_sink(memory: dict, saves: Saves,
                   persist: Callable[[], None]) -> Callable[[Effect], None]:
    """What the box remembers as the games say it: the deck, a game's
    checkpoint, a setting made on the box (none kept at its default)."""
    def remember(effect: Effect) -> None:
        if isinstance(effect, Remember):
            memory.update(deck=list(effect.deck), players=effect.players)
        elif isinstance(effect, Checkpoint):
            # A game of many nights resumes after a power cut from its last
            # phase; each game in its own slot (device.saves).
            saves.keep(effect.mode, effect.state)
        elif isinstance(effect, ChangeSetting):
            made = memory.get(SETTINGS)
            made = dict(made) if isinstance(made, dict) else {}
            if effect.value == default(effect.key):
                made.pop(effect.key, None)         # back at the default: nothing to keep
            else:
                made[effect.key] = effect.value
            memory[SETTINGS] = made
        else:
            return
        persist()
    return remember


def _switched_sink(warm: Callable[[], None]) -> Callable[[Effect], None]:
    def switched(effect: Effect) -> None:
        """Another game chosen: its lines, as the start did for the first."""
        if isinstance(effect, ChangeSetting) and effect.key == MODE_KEY:
            warm()
    return switched


def _phones(opened: ExitStack, config: Config, box: Box, flow: Games,
            clock: Callable[[], float], inbox: Inbox,
            sinks: list[Callable[[Effect], None]]) -> PhoneLink:
    """The phones, on or off as the config says, following the box's screen."""
    phones = PhoneLink(config.phones, lambda: box.flow, clock, inbox.phoned, inbox.wake,
                       inbox.notice, seats_file=state_path().with_name(SEATS_FILE),
                       serving=lambda up: setattr(flow, "phones_up", up),
                       barrier=box.in_game)
    opened.callback(phones.close)
    sinks.append(phones.effect)
    box.join_card = phones.join_card
    box.phones_follow = phones.follow
    phones.turn(config.phones.enabled)
    return phones


def _terminal_keys(opened: ExitStack, config: Config, bank: ButtonBank, inbox: Inbox,
                   terminal: TerminalScreen, parts: Parts) -> None:
    """Headless: the terminal's keys press the buttons (a capital holds)."""
    keys = TerminalKeys(terminal_chars(config.keys.keys()), bank.drive,
                        config.buttons.hold_seconds, on_quit=inbox.quit_key,
                        gap=max(0.06, 2 * config.buttons.debounce_ms / 1000))
    if keys.start():
        parts.keys = keys
        opened.callback(keys.stop)
        terminal.keys = key_labels(terminal_chars(config.keys.keys()))


def run(config: Config, display: str | None = None, notices: list[str] | None = None) -> int:
    """Build the box, run it until it is stopped, close it. The caller has
    installed the stop signals (wolfbox.device.signals.install)."""
    parts = build(config, display, notices=notices)
    try:
        for given in notices or []:               # the caller's (a config error at boot)
            log.warning("%s", given)
        if parts.display == "headless" and parts.keys is not None:
            chars = terminal_chars(config.keys.keys())
            names = ", ".join(f"'{'space' if c == ' ' else c}' {b.value}"
                              for c, b in chars.items())
            print(_("wolfbox: headless. Keys: {keys}; a capital letter holds its button; "
                    "q quits.").format(keys=names), flush=True)
        with signals.running(parts.box.stop):
            try:
                parts.box.run()
            except KeyboardInterrupt:
                pass
    finally:
        parts.close()
    return 0
