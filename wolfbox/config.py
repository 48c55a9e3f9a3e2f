"""Configuration: one TOML file over built-in defaults.

The dataclass defaults below are the only place a default lives. Loading
checks every key and value and raises ConfigError with one line naming the
key and what is allowed; nothing half-loaded ever reaches the box.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
import stat
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .buttons import GAME_BUTTONS, Button
from .darkarts.night import CALLS
from .errors import UserError
from .games import GAMES
from .i18n import LANGUAGES, _
from .newd3.turns import TIME_KEYS, Times
from .onenight.roles import UnknownRole, role
from .pinout import reserved_by


class ConfigError(UserError):
    pass


def _c(default: Any, doc: str, **rules: Any) -> Any:
    """A config field: its default, a one-line description, and its limits.
    The description is a message for translators (`make pot` collects the
    second argument of `_c`), shown in the box's language by `values`."""
    factory = (lambda: list(default)) if isinstance(default, list) else \
        (lambda: dict(default)) if isinstance(default, dict) else None
    meta = {"doc": doc, **rules}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


STARTER_DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]


@dataclass
class BoxConfig:
    lang: str = _c("en", "the box's language, for everything it says and shows: en "
                         "(English), de (Deutsch), zh (中文)", choices=tuple(LANGUAGES))


@dataclass
class GameConfig:
    mode: str = _c("one_night", "the game: one_night; dark_arts (Werewolves of the Dark "
                   "Arts, many nights, run with a moderator); newd3 (the timed game of "
                   "nine, no moderator)",
                   choices=tuple(GAMES))
    deck: list[str] = _c(STARTER_DECK, "the cards in play: role ids (players + 3 cards), "
                                       "or one preset name (see: wolfbox decks)")
    players: int = _c(0, "players at the table; 0: as many as the deck is for", min=0, max=30)
    lone_wolf: bool = _c(True, "a werewolf who wakes alone (and sees no Dream Wolf thumb) may "
                               "look at a center card; false: the table plays without it")
    discussion_seconds: float = _c(300.0, "length of the discussion timer", min=1, max=3600)
    warnings: list[int] = _c([60, 10], "spoken warnings, in seconds left", min=1, max=3600)
    add_seconds: int = _c(60, "what NEXT adds to the discussion", min=5, max=600)


@dataclass
class NightConfig:
    scale: float = _c(1.0, "multiplies every role's action time", min=0.1, max=10)
    action_seconds: dict[str, float] = _c({}, "per-role action time, e.g. seer = 12",
                                          min=0, max=300)
    line_gap: float = _c(0.6, "silence after each spoken line, in seconds", min=0, max=10)


@dataclass
class MayorConfig:
    """Werewolf with a Mayor (game.mode = "dark_arts"): the day's optional
    limits. 003 sets none; a table that wants one sets it here or on the
    Mayor's setup screen."""
    discussion_seconds: float = _c(0.0, "a limit on each open discussion; 0: none (003)",
                                   min=0, max=3600)
    defence_seconds: float = _c(0.0, "a limit on the accused's defence; 0: none", min=0,
                                max=600)
    hands_seconds: float = _c(4.0, "the beat for raising hands before the count (003: "
                                   "3 to 5 seconds)", min=3, max=5)
    action_seconds: dict[str, float] = _c({}, "per-call action time at night, e.g. "
                                              "werewolf = 40 (night.scale applies too)",
                                          min=0, max=300)


@dataclass
class TimedConfig:
    """The timed game of 004 (game.mode = "newd3"): the windows of the
    deal's and the nights' turns (wolfbox/newd3/turns.py says where the
    defaults come from). 004's day lengths are the game's and stay fixed."""
    card_seconds: float = _c(Times.card, "the deal: each seat's time to see its card",
                             min=3, max=60)
    plan_seconds: float = _c(Times.plan, "the Wolves' and the Nobles' planning turns (004: 30)",
                             min=5, max=120)
    action_seconds: float = _c(Times.action, "each role's turn to choose a seat on the ring",
                               min=5, max=120)
    kill_seconds: float = _c(Times.kill, "the Wolves' turn to choose the victim and the knife",
                             min=5, max=120)
    look_seconds: float = _c(Times.look, "each seat's turn to read its message of the night",
                             min=3, max=60)

    def times(self) -> Times:
        """The windows as the game takes them."""
        return Times(**{attr: float(getattr(self, key)) for key, attr in TIME_KEYS.items()})


@dataclass
class ButtonsConfig:
    start: int = _c(5, "BCM pin of START/PAUSE (header pin 29)", min=0, max=27)
    vote: int = _c(6, "BCM pin of VOTE (header pin 31)", min=0, max=27)
    next: int = _c(13, "BCM pin of NEXT (header pin 33)", min=0, max=27)
    back: int = _c(26, "BCM pin of BACK (header pin 37)", min=0, max=27)
    power: int = _c(-1, "BCM pin of the optional power button; -1: none (3 wakes a halted Pi)",
                    min=-1, max=27)
    hold_seconds: float = _c(2.0, "how long BACK, NEXT or VOTE is held for its hold action "
                             "(end a game; settings or the Mayor's book; the other game)",
                             min=0.5, max=10)
    power_hold_seconds: float = _c(3.0, "how long the power button is held to shut down",
                                   min=0.5, max=10)
    debounce_ms: float = _c(30.0, "presses closer than this are contact bounce", min=0, max=500)

    def pins(self) -> dict[Button, int]:
        pins = {b: getattr(self, b.value) for b in GAME_BUTTONS}
        if self.power >= 0:
            pins[Button.POWER] = self.power
        return pins


@dataclass
class LedsConfig:
    start: int = _c(12, "BCM pin of the LED in START (header pin 32); -1: none", min=-1, max=27)
    vote: int = _c(16, "BCM pin of the LED in VOTE (header pin 36); -1: none", min=-1, max=27)
    next: int = _c(22, "BCM pin of the LED in NEXT (header pin 15); -1: none", min=-1, max=27)
    back: int = _c(23, "BCM pin of the LED in BACK (header pin 16); -1: none", min=-1, max=27)
    brightness: float = _c(1.0, "LED brightness when lit", min=0.05, max=1)

    def pins(self) -> dict[Button, int]:
        return {b: getattr(self, b.value) for b in GAME_BUTTONS if getattr(self, b.value) >= 0}


@dataclass
class HardwareConfig:
    pin_factory: str = _c("auto", "gpiozero pin driver: auto (lgpio on a Pi), lgpio, rpigpio, "
                          "native or mock", choices=("auto", "lgpio", "rpigpio", "native",
                                                     "mock"))
    screen: str = _c("hdmi", "the screen's connection: its pins are kept free",
                     choices=("hdmi", "dsi", "spi"))
    audio: str = _c("jack", "the sound output: its pins are kept free",
                    choices=("jack", "usb", "hdmi", "i2s"))
    power_action: str = _c("quit", "what a held power button does: quit the box, or power "
                           "the Pi off (the installer sets poweroff)",
                           choices=("quit", "poweroff"))


@dataclass
class KeysConfig:
    start: list[str] = _c(["space", "s"], "keys for START/PAUSE")
    vote: list[str] = _c(["v"], "keys for VOTE")
    next: list[str] = _c(["n", "right"], "keys for NEXT")
    back: list[str] = _c(["b", "backspace"], "keys for BACK (hold it, like the button)")

    def keys(self) -> dict[Button, list[str]]:
        return {b: getattr(self, b.value) for b in GAME_BUTTONS}


@dataclass
class ScreenConfig:
    display: str = _c("auto", "where the box draws", choices=("auto", "window", "fullscreen",
                                                               "headless"))
    width: int = _c(960, "window width in pixels", min=240, max=7680)
    height: int = _c(640, "window height in pixels", min=160, max=4320)
    input_hz: float = _c(10.0, "how often window/console keys are read (buttons are instant)",
                         min=1, max=200)
    brightness: float = _c(1.0, "backlight brightness, where the screen has a backlight "
                           "control (/sys/class/backlight)", min=0.1, max=1)


@dataclass
class VoiceConfig:
    model: str = _c("", "path to a Piper voice (.onnx); empty: the bundled en_US joe voice")
    length_scale: float = _c(1.0, "speech speed: above 1 is slower", min=0.3, max=3)
    volume: float = _c(1.0, "voice volume", min=0, max=1)
    cache_dir: str = _c("", "where rendered lines are kept; empty: the user's cache directory")
    enabled: bool = _c(True, "false: captions only, no sound")


@dataclass
class SoundConfig:
    volume: float = _c(1.0, "the box's master volume: voice, cues and ambience", min=0, max=1)
    cue_volume: float = _c(0.8, "volume of the chimes, ticks and vote sound", min=0, max=1)
    ambience: bool = _c(True, "a quiet sound bed at night that masks moving cards")
    ambience_volume: float = _c(0.35, "volume of the night ambience", min=0, max=1)
    duck: float = _c(0.3, "ambience level under narration, as a share of its volume",
                     min=0, max=1)


@dataclass
class Config:
    box: BoxConfig = field(default_factory=BoxConfig)
    game: GameConfig = field(default_factory=GameConfig)
    night: NightConfig = field(default_factory=NightConfig)
    mayor: MayorConfig = field(default_factory=MayorConfig)
    timed: TimedConfig = field(default_factory=TimedConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    keys: KeysConfig = field(default_factory=KeysConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)

    def __post_init__(self) -> None:
        # The dotted keys the config file set (e.g. "game.deck"): a value the
        # file sets is fixed; what the box remembers only fills what it leaves open.
        self.from_file: set[str] = set()
        # Where the deck in game.deck came from, for the line printed at start.
        self.deck_source = ""
        # --players for Werewolf with a Mayor: its setup starts at this count
        # (game.players is One Night's, checked against its deck).
        self.mayor_players: int | None = None

    def cache_dir(self) -> Path:
        if self.voice.cache_dir:
            return Path(self.voice.cache_dir).expanduser()
        if os.environ.get("CACHE_DIRECTORY"):          # systemd's CacheDirectory=
            return Path(os.environ["CACHE_DIRECTORY"].split(":")[0])
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        return Path(base) / "wolfbox"


# ------------------------------------------------------------------ loading
def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is list:
        return _("a list of {kind}").format(kind=_plural_kind(typing.get_args(tp)[0]))
    if origin is dict:
        return _("a table of {kind}").format(kind=_plural_kind(typing.get_args(tp)[1]))
    return {int: _("a whole number"), float: _("a number"), bool: _("true or false"),
            str: _("text")}.get(tp, str(tp))


def _plural_kind(tp: Any) -> str:
    return {int: _("whole numbers"), float: _("numbers"), bool: _("true or false values"),
            str: _("texts")}.get(tp, str(tp))


SHOWN_CHARS = 40     # a bad value is quoted up to this long in a message


def shown(value: Any) -> str:
    """A value as the TOML file spells it, cut short if it is long: a 100 KB
    mistake must not fill the screen."""
    text = _toml_value(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _check_scalar(name: str, tp: Any, value: Any, rules: dict[str, Any]) -> Any:
    ok = {bool: lambda v: isinstance(v, bool),
          int: lambda v: isinstance(v, int) and not isinstance(v, bool),
          float: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          str: lambda v: isinstance(v, str)}[tp](value)
    if not ok:
        raise ConfigError(_("{name} must be {kind}, got {value}").format(
            name=name, kind=_type_name(tp), value=shown(value)))
    if tp is float:
        value = float(value)
        if not math.isfinite(value):     # nan slips through every comparison below
            raise ConfigError(_("{name} must be a finite number, got {value}").format(
                name=name, value=shown(value)))
    lo, hi = rules.get("min"), rules.get("max")
    if tp in (int, float) and ((lo is not None and value < lo) or (hi is not None and value > hi)):
        raise ConfigError(_("{name} must be between {lo} and {hi}, got {value}").format(
            name=name, lo=shown(lo), hi=shown(hi), value=shown(value)))
    choices = rules.get("choices")
    if choices and value not in choices:
        raise ConfigError(_("{name} must be one of {choices}; got {value}").format(
            name=name, choices=", ".join(choices), value=shown(value)))
    return value


def _check(name: str, tp: Any, value: Any, rules: dict[str, Any]) -> Any:
    origin = typing.get_origin(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        if isinstance(value, str) and item is str:
            value = [value]                      # keys: "space" is as good as ["space"]
        if not isinstance(value, list):
            raise ConfigError(_("{name} must be {kind}, got {value}").format(
                name=name, kind=_type_name(tp), value=shown(value)))
        return [_check_scalar(f"{name}[{i}]", item, v, rules) for i, v in enumerate(value)]
    if origin is dict:
        _key, item = typing.get_args(tp)
        if not isinstance(value, dict):
            raise ConfigError(_("{name} must be {kind}, got {value}").format(
                name=name, kind=_type_name(tp), value=shown(value)))
        return {k: _check_scalar(f"{name}.{k}", item, v, rules) for k, v in value.items()}
    return _check_scalar(name, tp, value, rules)


def shown_key(name: str) -> str:
    """A key from the file as it may be quoted in a message: cut if long."""
    return name if len(name) <= SHOWN_CHARS else name[:SHOWN_CHARS - 1] + "…"


def _fill(obj: Any, data: dict[str, Any], prefix: str, set_keys: set[str]) -> None:
    hints = typing.get_type_hints(type(obj))
    fields = {f.name: f for f in dataclasses.fields(obj)}
    for key, value in data.items():
        name = f"{prefix}{key}"
        f = fields.get(key)
        if f is None:
            raise ConfigError(_("unknown key '{name}' (allowed: {allowed})").format(
                name=shown_key(name), allowed=", ".join(fields)))
        tp = hints[key]
        if dataclasses.is_dataclass(tp):
            if not isinstance(value, dict):
                raise ConfigError(_("'{name}' must be a table ([{name}])").format(name=name))
            _fill(getattr(obj, key), value, f"{name}.", set_keys)
        else:
            setattr(obj, key, _check(name, tp, value, dict(f.metadata)))
            set_keys.add(name)


def from_dict(data: dict[str, Any]) -> Config:
    if "lang" in data:
        # `lang = "de"` at the top of the file, as most people write it, is
        # the box section's language.
        data = dict(data)
        box = data.get("box", {})
        data["box"] = {**box, "lang": data.pop("lang")} if isinstance(box, dict) else box
    config = Config()
    _fill(config, data, "", config.from_file)
    _cross_checks(config)
    return config


def _cross_checks(config: Config) -> None:
    owner: dict[str, str] = {}
    for button, names in config.keys.keys().items():
        for name in names:
            first = owner.setdefault(name.lower(), button.value)
            if first != button.value:
                raise ConfigError(_("key '{name}' is given to both {first} and {second}")
                                  .format(name=name, first=first, second=button.value))
    game = config.game
    too_long = [w for w in game.warnings if w >= game.discussion_seconds]
    if too_long and "game.warnings" not in config.from_file:
        # Default warnings that a short discussion leaves no room for are dropped.
        game.warnings = [w for w in game.warnings if w < game.discussion_seconds]
    elif too_long:
        raise ConfigError(_("game.warnings: {warning} seconds left is not within a discussion "
                            "of {length} seconds (game.discussion_seconds); every warning "
                            "must be shorter than the discussion").format(
            warning=too_long[0], length=shown(game.discussion_seconds)))
    for rid in config.night.action_seconds:
        try:
            role(rid)
        except UnknownRole as e:
            raise ConfigError(f"night.action_seconds: {e}") from None
    timed = [c.id for c in CALLS if c.seconds > 0]
    for cid in config.mayor.action_seconds:
        if cid not in timed:
            raise ConfigError(_("mayor.action_seconds: unknown call {call} (allowed: "
                                "{allowed})").format(call=repr(cid), allowed=", ".join(timed)))
    taken = reserved_by(config.hardware.screen, config.hardware.audio)
    seen: dict[int, str] = {}
    uses = [(f"buttons.{b.value}", p) for b, p in config.buttons.pins().items()]
    uses += [(f"leds.{b.value}", p) for b, p in config.leds.pins().items()]
    for name, pin in uses:
        if pin in seen:
            raise ConfigError(_("{name} and {other} both use pin {pin}; each needs its own "
                                "pin").format(name=name, other=seen[pin], pin=pin))
        if pin in taken:
            raise ConfigError(_("{name} = {pin}: that pin is used by {user} (hardware.screen = "
                                "{screen}, hardware.audio = {audio}); choose a free pin").format(
                name=name, pin=pin, user=taken[pin], screen=repr(config.hardware.screen),
                audio=repr(config.hardware.audio)))
        seen[pin] = name


def check_value(key: str, value: Any) -> Any:
    """`value` for the dotted `key`, checked as the config file's would be;
    ConfigError (one line) if it is not allowed."""
    section, name = key.split(".")
    obj = getattr(Config(), section, None)
    fields = {f.name: f for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) \
        else {}
    if name not in fields:
        raise ConfigError(_("unknown key '{name}'").format(name=shown_key(key)))
    tp = typing.get_type_hints(type(obj))[name]
    checked = _check(key, tp, value, dict(fields[name].metadata))
    probe = copy.deepcopy(Config())
    setattr(getattr(probe, section), name, checked)
    probe.from_file.add(key)
    _cross_checks(probe)
    return checked


def limits(key: str) -> tuple[Any, Any]:
    """(min, max) of a dotted key such as "game.players", from its field."""
    section, name = key.split(".")
    obj = getattr(Config(), section)
    meta = {f.name: f.metadata for f in dataclasses.fields(obj)}[name]
    return meta.get("min"), meta.get("max")


def values(config: Config) -> list[tuple[str, Any, str]]:
    """(dotted key, value, description) for every setting, in file order."""
    out = []
    for section in dataclasses.fields(config):
        obj = getattr(config, section.name)
        for f in dataclasses.fields(obj):
            out.append((f"{section.name}.{f.name}", getattr(obj, f.name),
                        _(f.metadata["doc"])))
    return out


def toml_value(v: Any) -> str:
    """A value as a TOML file spells it."""
    return _toml_value(v)


MAX_CONFIG_BYTES = 256 * 1024


def _regular_file(path: str, flags: int) -> int:
    """Open only a regular file: a FIFO or a device would hang or never end."""
    fd = os.open(path, flags | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise IsADirectoryError(path) if os.path.isdir(path) else _NotRegular(path)
    os.set_blocking(fd, True)
    return fd


class _NotRegular(OSError):
    pass


def load(path: Path | None) -> Config:
    """The built-in defaults, overlaid with the TOML file at `path` if given."""
    if path is None:
        return Config()
    try:
        with open(path, "rb", opener=_regular_file) as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(_("{path}: larger than {size} KiB: not a config file").format(
                path=path, size=MAX_CONFIG_BYTES // 1024))
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(_("config file not found: {path}").format(path=path)) from None
    except _NotRegular:
        raise ConfigError(_("config path is not a regular file: {path}").format(
            path=path)) from None
    except IsADirectoryError:
        raise ConfigError(_("config path is a directory, not a file: {path}").format(
            path=path)) from None
    except PermissionError:
        raise ConfigError(_("config file not readable (permission denied): {path}").format(
            path=path)) from None
    except OSError as e:
        raise ConfigError(_("cannot read config file {path}: {why}").format(
            path=path, why=e.strerror or e)) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(_("{path}: not valid TOML: {why}").format(path=path, why=e)) from None
    except UnicodeDecodeError:
        raise ConfigError(_("{path}: not a UTF-8 text file").format(path=path)) from None
    except RecursionError:
        raise ConfigError(_("{path}: nested too deeply to be a config file").format(
            path=path)) from None
    try:
        return from_dict(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def defaults_toml() -> str:
    """The default configuration as a commented TOML file (`wolfbox config`)."""
    out: list[str] = ["# " + _("Wolfbox configuration: every key, at its default."), ""]
    section = ""
    for key, value, doc in values(Config()):
        head, name = key.split(".")
        if head != section:
            out += [""] if section else []
            out.append(f"[{head}]")
            section = head
        out.append(f"# {doc}")
        out.append(f"{name} = {_toml_value(value)}")
    out.append("")
    return "\n".join(out)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        inner = ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    return repr(v)

