"""The settings screen's list: which settings the box can change with its
own buttons, the steps each moves by, and how a value is shown.

Pure data and arithmetic: the flow drives it, the device applies and
saves what changes. Every value is a config key's value (wolfbox.config
holds the defaults and limits), so a setting made on the box and one made
in the config file mean the same thing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .config import Config
from .i18n import LANGUAGES, N_, _
from .roster import MODE_KEY, PHONES_KEY, game_name, names, own_pages
from .timer import clock_text


@dataclass(frozen=True)
class Item:
    """One page of the settings screen."""
    key: str                          # dotted config key; "" for "reset to defaults"
    name: str                         # N_ message: the page's heading
    steps: tuple[Any, ...] = ()       # the values VOTE and BACK move between, in order
    show: Callable[[Any], str] = str
    note: str = ""                    # N_ message: what the setting does, if not obvious
    toggle: bool = False              # on/off: VOTE turns it on, BACK off
    inverted: bool = False            # VOTE moves down the steps (speed: a shorter length)
    cycle: bool = False               # the steps are names: VOTE and BACK go round them
    more: str = N_("More")            # VOTE's label
    less: str = N_("Less")            # BACK's label
    # Some games' own: shown from the setup of a game whose Kind lists its
    # key among its `pages` (wolfbox.roster), else every game's.
    own: bool = False

    def up(self, value: Any) -> Any:
        """The next step above `value` (a value between steps goes to the next one)."""
        return next((s for s in self.steps if s > value), value)

    def down(self, value: Any) -> Any:
        return next((s for s in reversed(self.steps) if s < value), value)

    def position(self, value: Any) -> float | None:
        """Where `value` lies in the steps, 0..1, for the bar; None for a toggle."""
        if self.toggle or self.cycle or not self.steps or isinstance(self.steps[0], list):
            return None
        lo, hi = self.steps[0], self.steps[-1]
        if hi <= lo:
            return None
        share = max(0.0, min(1.0, (value - lo) / (hi - lo)))
        return 1.0 - share if self.inverted else share


def _percent(v: float) -> str:
    return _("{percent} %").format(percent=round(v * 100))


def _speed(length_scale: float) -> str:
    # Piper's length scale is time per sound: speed is its inverse.
    return _("{percent} %").format(percent=round(100 / length_scale))


def _on_off(v: bool) -> str:
    return _("On") if v else _("Off")


def _warnings(ws: list[int]) -> str:
    return ", ".join(clock_text(w) for w in sorted(ws, reverse=True)) if ws else _("Off")


def _scale(v: float) -> str:
    return _("{percent} %").format(percent=round(v * 100))


SPEEDS = (70, 80, 90, 100, 110, 120, 130, 140)        # percent of the voice's own pace
WARNING_CHOICES: tuple[list[int], ...] = ([], [10], [60], [60, 10], [60, 30, 10],
                                          [120, 60, 10])

def _language(code: str) -> str:
    """A language by its own name, whatever the box's language is."""
    return LANGUAGES.get(code, code)


ITEMS: tuple[Item, ...] = (
    # First: a table that cannot read the box's language finds it at once.
    Item("box.lang", N_("Language"), tuple(LANGUAGES), _language,
         N_("Everything the box says and shows. The voice may take a while to prepare."),
         cycle=True, more=N_("Next language"), less=N_("Previous language")),
    Item("sound.volume", N_("Volume"), tuple(i / 10 for i in range(11)), _percent,
         N_("A chime plays at the new volume."), more=N_("Louder"), less=N_("Quieter")),
    Item("voice.length_scale", N_("Speech speed"),
         tuple(round(100 / s, 3) for s in reversed(SPEEDS)), _speed,
         N_("The lines are spoken again at the new speed, in the background."),
         inverted=True, more=N_("Faster"), less=N_("Slower")),
    Item("night.scale", N_("Action time"), (0.5, 0.75, 1.0, 1.25, 1.5, 2.0), _scale,
         N_("Each role's time to act at night, against the usual."),
         own=True),
    Item("game.discussion_seconds", N_("Discussion"),
         tuple(float(s) for s in range(60, 901, 30)), clock_text, own=True),
    Item("game.warnings", N_("Warnings"), WARNING_CHOICES, _warnings,
         N_("Spoken when this much discussion time is left."), own=True),
    Item("game.lone_wolf", N_("Lone wolf"), (False, True), _on_off,
         N_("A werewolf who wakes alone may look at a center card."), toggle=True,
         more=N_("On"), less=N_("Off"), own=True),
    Item("sound.ambience", N_("Night ambience"), (False, True), _on_off,
         N_("A quiet sound at night that covers the small noises of the table."), toggle=True,
         more=N_("On"), less=N_("Off")),
    Item("sound.ambience_volume", N_("Ambience volume"), tuple(i / 10 for i in range(11)),
         _percent, more=N_("Louder"), less=N_("Quieter")),
    Item("screen.brightness", N_("Brightness"), tuple(i / 10 for i in range(1, 11)), _percent,
         more=N_("Brighter"), less=N_("Dimmer")),
    Item(PHONES_KEY, N_("Phones"), (False, True), _on_off,
         N_("Players join on their own phones over the box's network; when on, this page "
            "shows how."), toggle=True, more=N_("On"), less=N_("Off")),
    Item("game.cards_on_phones", N_("Cards on phones"), (False, True), _on_off,
         N_("With a phone at every seat: on, the box deals the cards to the phones; off, the "
            "table plays its own cards and enters them on the phones at the end."),
         toggle=True, more=N_("On"), less=N_("Off"), own=True),
    # Its steps are the games on offer as the box runs (`items`).
    Item(MODE_KEY, N_("Game"), (), game_name,
         N_("Another game opens its own start screen."), cycle=True, more=N_("Next game"),
         less=N_("Previous game")),
    Item("", N_("Reset to defaults"), note=N_("Every setting made on the box goes back to "
                                              "its default.")),
)

BRIGHTNESS = "screen.brightness"


def get(config: Config, key: str) -> Any:
    section, name = key.split(".")
    return getattr(getattr(config, section), name)


def with_value(config: Config, key: str, value: Any) -> Config:
    """A copy of `config` with `key` set to `value` (what it was loaded
    from stays as it was)."""
    out = copy.deepcopy(config)
    section, name = key.split(".")
    setattr(getattr(out, section), name, copy.deepcopy(value))
    return out


def default(key: str) -> Any:
    return get(Config(), key)


def _list_step(item: Item, value: Any, direction: int) -> Any:
    """Warnings: choices are lists, ordered by how much they warn."""
    choices = list(item.steps)
    i = choices.index(value) if value in choices else -1
    if i < 0:
        return choices[0] if direction < 0 else choices[-1]
    return choices[max(0, min(len(choices) - 1, i + direction))]


def step(item: Item, value: Any, direction: int) -> Any:
    """`value` moved one step up (+1, VOTE) or down (-1, BACK) as the table sees it."""
    if item.inverted:
        direction = -direction
    if item.steps and isinstance(item.steps[0], list):
        return _list_step(item, value, direction)
    if item.toggle:
        return direction > 0
    if item.cycle:
        i = item.steps.index(value) if value in item.steps else 0
        return item.steps[(i + direction) % len(item.steps)]
    return item.up(value) if direction > 0 else item.down(value)


def items(has_brightness: bool, game: str = "") -> tuple[Item, ...]:
    """The pages this box shows from `game`'s setup ("": every page):
    brightness only where the screen has a control, a game's own pages
    only from that game (its Kind's `pages`), and the Game page offering
    every game on offer (wolfbox.roster)."""
    return tuple(replace(i, steps=names()) if i.key == MODE_KEY else i for i in ITEMS
                 if (i.key != BRIGHTNESS or has_brightness)
                 and (not game or not i.own or i.key in own_pages(game)))
