"""The start screen's notices: what a fault means for the game, in a few
words that fit the screen at the size floor. The detail (raw ALSA or GPIO
text, paths) goes to the log; these are the one place the short forms live.
"""

from __future__ import annotations

from wolfbox.audio.faults import SHORT_SOUND_TROUBLE, SHORT_STORAGE
from wolfbox.i18n import LANGUAGES, N_, _, speaking

VOICE_OFF = N_("Voice off: captions only")
ESPEAK = N_("Spoken by espeak-ng")
NO_VOICE = N_("No voice: captions only")
NO_SOUND = N_("No sound: captions only")
NO_GPIO = N_("No GPIO driver: buttons off")
VOICE_TROUBLE = N_("Voice trouble: some lines are captions")
CONFIG_ERROR = N_("Config error: playing on the defaults (see the log)")
# A saved game that is no checkpoint of its game (device.saves), and a state
# directory that takes no writes (read-only, full): the detail is in the log.
CANNOT_RESUME = N_("Saved game unreadable: a new game starts")
NO_SAVE = N_("Cannot save: games will not survive a power cut")
# The game being played raised (a bug): the box went back to its start
# screen, which offers its last checkpoint (device.loop).
GAME_BUG = N_("Game error: back to the start screen (see the log)")
# The phones' web server cannot be imported (a broken `websockets`): the
# box plays on its buttons (device.phonelink).
NO_PHONE_SERVER = N_("Phones off: their server cannot be loaded (see the log)")
# [phones] network auto or own, and the box cannot open its own Wi-Fi (no
# NetworkManager, no installer's unit): the phones join its known networks.
NO_OWN_WIFI = N_("No own Wi-Fi (see the log)")
# Phones on, no address yet, and the box opens a Wi-Fi of its own where it
# finds no known one ([phones] network auto or own): shown the few seconds
# until a network comes (device.phonelink). Not reworded with the others
# (ALL): the box takes it away by its words.
WAITING_FOR_NETWORK = N_("Phones: waiting for a network")

ALL = (NO_SOUND, VOICE_OFF, ESPEAK, NO_VOICE, NO_GPIO, VOICE_TROUBLE, CONFIG_ERROR,
       SHORT_STORAGE, SHORT_SOUND_TROUBLE, CANNOT_RESUME, NO_SAVE, NO_PHONE_SERVER,
       GAME_BUG, NO_OWN_WIFI)


def every_notice() -> list[str]:
    """Every notice, translated (screenshots and the size tests draw each)."""
    return [_(n) for n in ALL]


def reworded(shown: tuple[str, ...]) -> tuple[str, ...]:
    """The start screen's notices in the box's language now: each one of
    ALL, in whichever language it was put up, as `_()` words it now;
    anything else (a fault's own words) as it was. A language chosen on the
    box must not leave "No sound" in the one it started in."""
    wordings: dict[str, str] = {}
    for lang in LANGUAGES:
        with speaking(lang):
            wordings.update((_(notice), notice) for notice in ALL)
    out: list[str] = []
    for text in shown:
        now = _(wordings[text]) if text in wordings else text
        if now and now not in out:
            out.append(now)
    return tuple(out)
