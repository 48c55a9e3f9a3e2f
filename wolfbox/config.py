"""Configuration: one TOML file over built-in defaults.

The dataclass defaults are the only place a default lives: the box's own
sections are below; each game's section (its table in the file, its
defaults and the checks its rules make across keys) is the game's, in its
package's `section.py`, registered here by wolfbox.lineup, so this module
knows no game. Loading checks every key and value and raises ConfigError
with one line naming the key and what is allowed; nothing half-loaded ever
reaches the box.

Why this file is long: the box's own sections are its pins, keys, screen,
voice and sound, each key with its limits and words for `wolfbox config`;
the loader and its messages sit beside what they check.
"""

from __future__ import annotations

import copy
import dataclasses
import ipaddress
import math
import os
import stat
import tomllib
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .buttons import GAME_BUTTONS, Button
from .errors import ConfigError as ConfigError
from .i18n import LANGUAGES, _
from .pinout import reserved_by


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


@dataclass
class BoxConfig:
    lang: str = _c("en", "the box's language, for everything it says and shows: en "
                         "(English), de (Deutsch), zh (中文)", choices=tuple(LANGUAGES))


@dataclass
class NightConfig:
    """The narration's pace, in every game (`action_seconds` is One Night's:
    its check is the game's)."""
    scale: float = _c(1.0, "multiplies every role's action time", min=0.1, max=10)
    action_seconds: dict[str, float] = _c({}, "per-role action time, e.g. seer = 12",
                                          min=0, max=300)
    line_gap: float = _c(0.6, "silence after each spoken line, in seconds", min=0, max=10)


@dataclass(frozen=True)
class Section:
    """A game's part of the config file: its table's name, the dataclass
    of its keys (made with `_c`, like the box's own), the checks its rules
    make across keys (ConfigError, one line), and the keys its own setup
    screen changes (the box remembers them, as the settings screen's)."""
    name: str
    keys: type[Any]
    check: Callable[[Config], None] = lambda config: None
    settable: frozenset[str] = frozenset()


# The games' sections, in the order the file lists them (after [box]);
# filled by wolfbox.lineup, the one module that names every game.
_SECTIONS: dict[str, Section] = {}

Part = TypeVar("Part")


def register(section: Section) -> None:
    """Add a game's section; registering one name again replaces it."""
    _SECTIONS[section.name] = section


def withdraw(name: str) -> None:
    """Take a game's section away again (wolfbox.lineup.withdraw)."""
    _SECTIONS.pop(name, None)


def games_settable() -> frozenset[str]:
    """The keys the games' own setup screens change."""
    return frozenset().union(*(s.settable for s in _SECTIONS.values()))


def _game_parts() -> dict[str, Any]:
    if not _SECTIONS:
        raise RuntimeError("no game has registered its config section: import "
                           "wolfbox.lineup before making a Config")
    return {name: section.keys() for name, section in _SECTIONS.items()}


@dataclass
class ButtonsConfig:
    start: int = _c(5, "BCM pin of START/PAUSE (header pin 29)", min=0, max=27)
    vote: int = _c(6, "BCM pin of VOTE (header pin 31)", min=0, max=27)
    next: int = _c(13, "BCM pin of NEXT (header pin 33)", min=0, max=27)
    back: int = _c(26, "BCM pin of BACK (header pin 37)", min=0, max=27)
    power: int = _c(-1, "BCM pin of the optional power button; -1: none (3 wakes a halted Pi)",
                    min=-1, max=27)
    hold_seconds: float = _c(2.0, "how long a button is held for its hold action "
                             "(end a game; settings or the Mayor's book; the other game; "
                             "START: the phones' screen)",
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
class PhonesConfig:
    """Phones at the table (wolfbox.phones): off unless the table turns
    them on; the page is served on the local network only."""
    enabled: bool = _c(False, "players join on their own phones over the box's local network; "
                              "false: the box plays on its buttons alone")
    listen: list[str] = _c([], "the addresses the phones' page is served on; empty: the box's "
                               "local-network addresses (private, link-local or loopback only)")
    port: int = _c(8080, "the port of the phones' page; 0: any free port (the start screen "
                          "says which)", min=0, max=65535)
    network: str = _c("auto", "which Wi-Fi the phones join: auto (a network the box knows "
                              "when one is in reach, else its own), own (always the box's own "
                              "Wi-Fi, named after it) or home (only the networks it knows)",
                      choices=("auto", "own", "home"))


@dataclass
class Config:
    """The box's configuration: its own sections, and the games' (`parts`,
    read as attributes too: `config.mayor`, or typed with `part`)."""
    box: BoxConfig = field(default_factory=BoxConfig)
    parts: dict[str, Any] = field(default_factory=_game_parts)
    night: NightConfig = field(default_factory=NightConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    keys: KeysConfig = field(default_factory=KeysConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    phones: PhonesConfig = field(default_factory=PhonesConfig)

    def __post_init__(self) -> None:
        # The dotted keys the config file set (e.g. "game.deck"): a value the
        # file sets is fixed; what the box remembers only fills what it leaves open.
        self.from_file: set[str] = set()
        # Where the deck in game.deck came from, for the line printed at start.
        self.deck_source = ""
        # --players for Werewolf with a Mayor: its setup starts at this count
        # (game.players is One Night's, checked against its deck).
        self.mayor_players: int | None = None

    def __getattr__(self, name: str) -> Any:
        """A game's section by its table's name (`config.game.deck`)."""
        parts = self.__dict__.get("parts")
        if parts is None or name not in parts:
            raise AttributeError(name)
        return parts[name]

    def part(self, keys: type[Part]) -> Part:
        """A game's section, typed: `config.part(MayorConfig)`."""
        for part in self.parts.values():
            if isinstance(part, keys):
                return part
        raise KeyError(f"no config section of type {keys.__name__}")

    def sections(self) -> Iterator[tuple[str, Any]]:
        """Every section with its table's name, in the file's order."""
        for f in dataclasses.fields(self):
            if f.name == "parts":
                yield from self.parts.items()
            else:
                yield f.name, getattr(self, f.name)

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
    if callable(choices):                # known as the box runs (wolfbox.roster.names)
        choices = choices()
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


def _fill_sections(config: Config, data: dict[str, Any]) -> None:
    sections = dict(config.sections())
    for key, value in data.items():
        obj = sections.get(key)
        if obj is None:
            raise ConfigError(_("unknown key '{name}' (allowed: {allowed})").format(
                name=shown_key(key), allowed=", ".join(sections)))
        if not isinstance(value, dict):
            raise ConfigError(_("'{name}' must be a table ([{name}])").format(name=key))
        _fill(obj, value, f"{key}.", config.from_file)


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
    _fill_sections(config, data)
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
    for address in config.phones.listen:
        if not local_address(address):
            raise ConfigError(_("phones.listen: {address} is not an address of the local "
                                "network (allowed: private, link-local or loopback IP "
                                "addresses, such as 192.168.1.20)").format(
                address=shown(address)))
    for section in _SECTIONS.values():
        section.check(config)
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


def local_address(text: str) -> bool:
    """An IP address of this network alone: private, link-local or loopback
    (the phones' page is never served to the internet)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return not address.is_unspecified and (
        address.is_private or address.is_link_local or address.is_loopback)


def check_value(key: str, value: Any) -> Any:
    """`value` for the dotted `key`, checked as the config file's would be;
    ConfigError (one line) if it is not allowed."""
    section, name = key.split(".")
    obj = dict(Config().sections()).get(section)
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
    obj = dict(Config().sections())[section]
    meta = {f.name: f.metadata for f in dataclasses.fields(obj)}[name]
    return meta.get("min"), meta.get("max")


def values(config: Config) -> list[tuple[str, Any, str]]:
    """(dotted key, value, description) for every setting, in file order."""
    out = []
    for name, obj in config.sections():
        for f in dataclasses.fields(obj):
            out.append((f"{name}.{f.name}", getattr(obj, f.name), _(f.metadata["doc"])))
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
        data = tomllib.loads(raw.decode("utf-8-sig"))    # a BOM (Notepad) is no statement
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


def stated_language(path: Path) -> str | None:
    """The language a config file asks for (`lang` at the top or in
    [box]), read even from a file that fails its checks, so that what is
    wrong with it is said in the language its writer reads; None where the
    file cannot be read as TOML or the language is itself the error (then
    English)."""
    try:
        with open(path, "rb", opener=_regular_file) as f:
            data = tomllib.loads(f.read(MAX_CONFIG_BYTES + 1).decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    box = data.get("box")
    lang = data.get("lang", box.get("lang") if isinstance(box, dict) else None)
    return lang if isinstance(lang, str) and lang in LANGUAGES else None


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

