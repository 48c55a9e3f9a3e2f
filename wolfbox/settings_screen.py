"""The settings screen every game opens from its setup (hold NEXT).

Written once and used by composition: a game keeps a `SettingsScreen` and,
while it is open, hands it its buttons and its view. The box makes one and
gives the same one to every game, so a setting changed from the Mayor's
setup is the value One Night's screen shows (the configuration is shared,
not copied).

What a change means to a game (a round's times, caption speed) stays with
the game: the screen only returns the `ChangeSetting` effects, the chime for
a new volume, and switches the core's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from . import menu
from .buttons import Button
from .config import Config
from .effects import ChangeSetting, Cue, Effect, PlayCue
from .engine.actions import Action, Actions, power_hold, start_holds
from .i18n import LANGUAGE_KEY, _, speaking
from .roster import MODE_KEY, switch
from .view import View

Run = Callable[[float], list[Effect]]
ANY = ""        # what `changed` is told after a reset: any key may have changed



@dataclass
class SettingsScreen:
    """The settings pages, where the table stands in them, and the box's
    configuration as the table has changed it."""
    config: Config = field(default_factory=Config)
    has_brightness: bool = False       # the screen has a backlight control
    index: int = 0                     # the page shown
    armed: bool = False                # "Reset" pressed once: the next press resets
    game: str = ""                     # the game whose setup opened it ("" shows every page)
    showing: bool = False              # open over that game's setup

    def open(self, game: str = "") -> list[Effect]:
        """Open on the first page (the language: a table that cannot read
        the box finds it at once). The game that opens it is the one being
        played: its Game page says so, however the table got there."""
        self.game, self.index, self.armed, self.showing = game, 0, False, True
        if game:
            self.config = menu.with_value(self.config, MODE_KEY, game)
        return []

    def close(self, now: float) -> list[Effect]:
        """Back to the setup it was opened from (a `done` for `taps`)."""
        self.showing = False
        return []

    def shown_over(self, game: str) -> bool:
        """Open over `game`'s setup: that game hands it its buttons and view."""
        return self.showing and self.game == game

    def holds(self, game: str, at_setup: bool) -> Actions:
        """The holds of `game`'s screens: power off on every one, and on its
        setup (this screen not open over it) the box's settings and its
        next game, as on every game's start screen."""
        holds = power_hold()
        if at_setup and not self.shown_over(game):
            holds |= start_holds(lambda now: self.open(game), lambda now: switch(game))
        return holds

    def items(self) -> tuple[menu.Item, ...]:
        return menu.items(self.has_brightness, self.game)

    def item(self) -> menu.Item:
        shown = self.items()
        return shown[self.index % len(shown)]

    def fixed(self) -> set[str]:
        """Keys the config file sets: shown, not changed on the box."""
        return self.config.from_file

    def taps(self, done: Run, changed: Callable[[str], list[Effect]]) -> dict[Button, Action]:
        """The buttons on the page shown. `done` closes the screen; `changed`
        is the game's answer to a key that changed (its own times, lines),
        told ANY after a reset."""
        item = self.item()
        taps = {Button.START: Action(_("Done"), done),
                Button.NEXT: Action(_("Next"), self._next_item)}
        if not item.key:
            label = _("Yes, reset") if self.armed else _("Reset")
            taps[Button.VOTE] = Action(label, lambda now: self._reset(changed))
        elif item.key not in self.fixed():
            taps[Button.VOTE] = Action(_(item.more),
                                       lambda now: self._change(+1, changed, done, now))
            taps[Button.BACK] = Action(_(item.less),
                                       lambda now: self._change(-1, changed, done, now))
        return taps

    def view(self, base: View) -> View:
        """`base` (the legend, the phase) with the page shown."""
        item = self.item()
        shown = self.items()
        title = _("Settings · {page}/{pages}").format(page=self.index % len(shown) + 1,
                                                       pages=len(shown))
        notes = [_(item.note)] if item.note else []
        if not item.key:
            if self.armed:
                notes = [_("Press VOTE again to reset every setting.")]
            return replace(base, title=title, details=(_(item.name), *notes))
        value = menu.get(self.config, item.key)
        if item.key in self.fixed():
            notes = [_("Set in the config file: change it there.")]
        return replace(base, title=title, details=(_(item.name), *notes),
                       big=item.show(value), progress=item.position(value))

    def _next_item(self, now: float) -> list[Effect]:
        self.index = (self.index + 1) % len(self.items())
        self.armed = False
        return []

    def _change(self, direction: int, changed: Callable[[str], list[Effect]], done: Run,
                now: float) -> list[Effect]:
        item = self.item()
        value = menu.get(self.config, item.key)
        new = menu.step(item, value, direction)
        if new == value:
            return []
        effects = self.set(item.key, new, changed)
        if item.key == MODE_KEY:
            # Another game opens its own start screen; this one is left at its
            # setup, as a table coming back expects it.
            effects += done(now)
        return effects

    def set(self, key: str, value: object, changed: Callable[[str], list[Effect]]
            ) -> list[Effect]:
        """Take `value` for `key`: the device applies and remembers it, the
        game follows (`changed`); a new volume is heard at once."""
        self.config = menu.with_value(self.config, key, value)
        effects: list[Effect] = [ChangeSetting(key, value)]
        if key == "sound.volume":
            effects.append(PlayCue(Cue.CHIME))
        if key == LANGUAGE_KEY:
            # The game answers in the new language (its lines, to render);
            # whoever calls the games (wolfbox.games) follows the change.
            with speaking(str(value)):
                return effects + changed(key)
        return effects + changed(key)

    def _reset(self, changed: Callable[[str], list[Effect]]) -> list[Effect]:
        """Every page shown back to its default, on the second press, with
        one chime (not one per setting)."""
        if not self.armed:
            self.armed = True
            return []
        self.armed = False
        effects: list[Effect] = []
        for item in self.items():
            if item.key and item.key not in self.fixed() \
                    and menu.get(self.config, item.key) != menu.default(item.key):
                effects += [e for e in self.set(item.key, menu.default(item.key), _unchanged)
                            if not isinstance(e, PlayCue)]
        if effects:
            effects += [PlayCue(Cue.CHIME), *changed(ANY)]
        return effects


def _unchanged(key: str) -> list[Effect]:
    return []
