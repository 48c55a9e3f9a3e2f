"""`wolfbox settings`: every setting in effect and where it comes from.

The rule, highest first: the command line, a key the config file sets,
what the box remembers from its own screens, the built-in default. A value
the config file sets is fixed; the box remembers only what the file leaves
open, so editing the file always means what it says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .config import Config, ConfigError, check_value, games_settable, toml_value, values
from .i18n import _
from .menu import ITEMS, with_value

# The settings screen's values are kept under this key, by their config keys.
SETTINGS = "settings"
ON_THE_SETTINGS_SCREEN = frozenset(item.key for item in ITEMS if item.key)


def remembered_settings(state: dict[str, Any]) -> dict[str, Any]:
    """The settings made on the box, as {config key: value}, each checked
    like the config file's: a value that is no longer allowed (edited by
    hand, or from an older box) is left out, never trusted."""
    saved = state.get(SETTINGS)
    if not isinstance(saved, dict):
        return {}
    out = {}
    for key, value in saved.items():
        if key not in ON_THE_SETTINGS_SCREEN and key not in games_settable():
            continue
        try:
            out[key] = check_value(key, value)
        except ConfigError:
            continue
    return out


def apply_remembered(config: Config, state: dict[str, Any]) -> Config:
    """`config` with what the box remembers filled in where the config file
    is silent: the file always wins, so editing it means what it says."""
    for key, value in remembered_settings(state).items():
        if key not in config.from_file:
            config = with_value(config, key, value)     # keeps what the file set
    return config


def effective(config: Config, state: dict[str, Any],
              deck: list[str] | None = None) -> list[tuple[str, Any, str]]:
    """(key, value, source) for every setting: source is "config file",
    "remembered" or "default". `deck` is the deck `wolfbox run` plays from
    the box's memory (the command line works out which, if any): a deck
    the box remembers and sets aside is not called remembered."""
    remembered: dict[str, Any] = {"game.deck": deck} if deck else {}
    remembered.update(remembered_settings(state))
    out = []
    for key, value, _doc in values(config):
        if key in config.from_file:
            out.append((key, value, "config file"))
        elif key in remembered:
            out.append((key, remembered[key], "remembered"))
        else:
            out.append((key, value, "default"))
    return out


def describe_settings(config: Config, state: dict[str, Any], config_path: Path | None,
                      state_path: Path, deck: list[str] | None = None,
                      set_aside: str = "") -> str:
    """The settings as TOML-like lines, each with its source, and the rule;
    `set_aside`: why `run` does not play the deck the box remembers."""
    sources = {"config file": _("config file {path}").format(path=config_path),
               "remembered": _("remembered by the box"),
               "default": _("default")}
    rows = [(key, toml_value(value), sources[source])
            for key, value, source in effective(config, state, deck)]
    width = max(len(f"{k} = {v}") for k, v, _s in rows if len(f"{k} = {v}") <= 60)
    lines = [f"{f'{k} = {v}':<{width}}  # {s}" for k, v, s in rows]
    if set_aside:
        lines += ["", _("The deck the box remembers is not played: {why}.").format(why=set_aside)]
    lines += ["", _("Precedence: command line, then the config file, then what the box "
                    "remembers ({state}), then the defaults. 'wolfbox settings --reset' "
                    "forgets what the box remembers.").format(state=state_path)]
    return "\n".join(lines)
