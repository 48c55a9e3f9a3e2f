"""The `wolfbox` command.

Bad input of any kind (options, config file, deck, events) ends in one line
on stderr naming the problem and what is allowed, and exit status 2; never a
traceback. The stop signals are taken before anything else happens, so a
SIGTERM during start-up stops the box instead of vanishing into SDL.

Text-only commands (script, decks, config, replay, settings) import no
pygame, gpiozero or piper: the adapters are imported where a command needs
them, and import-linter checks that nothing else does.

Why this file is long: it is every command's options, help and one-line
errors in one parser (their words are checked against each other); each
command's work is elsewhere.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import logging
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from wolfbox.device import signals

from . import __version__, lineup
from .argwords import Formatter, in_our_language
from .config import Config, defaults_toml, limits, load, stated_language
from .errors import UserError, WolfboxError
from .games import Games
from .i18n import LANGUAGES, _, language, use_language
from .jsontext import MAX_CHARS, NotJson, loads
from .mode import Playable
from .onenight.deck import check_deck
from .onenight.flow import Flow, RoundSettings
from .onenight.picker import Picker
from .onenight.presets import resolve_deck

EXIT_USAGE = 2
log = logging.getLogger("wolfbox")

COMMANDS = ("run", "screenshot", "config", "script", "decks", "prepare", "voices", "selftest",
            "replay", "settings", "referee", "resolve")


LONGEST_WORD = 200     # longer than any path a person means to name


def _one_line(message: str) -> str:
    """A message as one line, each word cut short if it is long: whatever a
    person typed (a 100 KB deck, a pasted file) is quoted, not echoed whole."""
    words = message.split()
    return " ".join(w if len(w) <= LONGEST_WORD else w[:LONGEST_WORD - 1] + "…"
                    for w in words)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)      # Chinese wrapped by its width
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:   # type: ignore[override]  # one line, not a usage block
        _usage_error(message)


def _usage_error(problem: str) -> NoReturn:
    print(_one_line(_("wolfbox: {problem} (see 'wolfbox --help')").format(
        problem=problem)), file=sys.stderr)
    sys.exit(EXIT_USAGE)


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value <= 3600):
        raise argparse.ArgumentTypeError(
            _("must be a number of seconds above 0 and at most 3600, got '{text}'").format(
                text=text[:40]))
    return value


def _parser() -> _Parser:
    p = _Parser(prog="wolfbox", description=_("A narrator box for werewolf party games."),
                epilog=_("Without a command, wolfbox runs the box (wolfbox run). --lang and "
                         "--config may come before the command or after it."))
    p.add_argument("--version", action="version", version=f"wolfbox {__version__}",
                   help=_("show program's version number and exit"))
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    def with_config(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--config", type=Path, metavar="PATH",
                        help=_("TOML configuration file (defaults are built in)"))
        sp.add_argument("--lang", choices=tuple(LANGUAGES),
                        help=_("the language of everything said, shown and printed (box.lang; "
                               "default: the config file's, else the one chosen on the box, "
                               "else en)"))

    def common(sp: argparse.ArgumentParser) -> None:
        with_config(sp)
        sp.add_argument("--deck", metavar="ROLES",
                        help=_("a preset name (see 'wolfbox decks') or comma-separated role "
                               "ids, e.g. werewolf,werewolf,seer,robber,troublemaker,villager"))
        sp.add_argument("--players", type=int, metavar="N",
                        help=_("players at the table (checked against the deck; fills a "
                               "scenario preset)"))
        sp.add_argument("--lone-wolf", action=argparse.BooleanOptionalAction, default=None,
                        help=_("a werewolf who wakes alone may look at a center card (on "
                               "unless the config file or --no-lone-wolf turns it off)"))

    run = sub.add_parser("run", help=_("run the box (the default command)"))
    common(run)
    run.add_argument("--mode", choices=tuple(lineup.KINDS),
                     help=_("the game (game.mode): one_night; dark_arts, with a moderator; "
                            "newd3, the timed game of nine with none"))
    run.add_argument("--display", choices=("auto", "window", "fullscreen", "headless"),
                     help=_("where to draw (default: the config's screen.display, 'auto')"))
    run.add_argument("--headless", dest="display", action="store_const", const="headless",
                     help=_("same as --display headless"))
    run.add_argument("--fullscreen", dest="display", action="store_const", const="fullscreen",
                     help=_("same as --display fullscreen"))
    run.add_argument("--safe-config", action="store_true",
                     help=_("if the config file cannot be used, start on the defaults and "
                            "show why (for the boot service: never a crash loop)"))

    shot = sub.add_parser("screenshot", help=_("render every screen to PNG files"))
    common(shot)
    shot.add_argument("--out", type=Path, default=Path("screenshots"), metavar="DIR",
                      help=_("folder for the PNG files (default: screenshots)"))
    shot.add_argument("--size", default="480x320", metavar="WxH",
                      help=_("image size in pixels (default: 480x320)"))

    script = sub.add_parser("script", help=_("print the night script for a deck"))
    common(script)
    script.add_argument("--json", action="store_true", help=_("print JSON instead of text"))
    script.add_argument("--mode", choices=tuple(lineup.KINDS),
                        default="one_night",
                        help=_("the game: One Night (default), Werewolves of the Dark Arts "
                               "with a moderator (the Mayor's sheet), or newd3, the timed "
                               "nine-player game of 004"))
    script.add_argument("--roles", nargs="+", default=[], metavar="ROLE",
                        help=_("dark_arts: the roles dealt, a role once a copy (werewolf "
                               "werewolf hunter, or werewolf,werewolf,hunter); villagers "
                               "fill the other seats"))

    replay = sub.add_parser("replay", help=_("play a round from a file of timed button events "
                                             "and print each change as a JSON line"))
    common(replay)
    replay.add_argument("events", metavar="EVENTS",
                        help=_('a file of JSON lines such as {"at": 0.0, "tap": "start"}, '
                               '{"at": 12.5, "hold": "back"}, {"at": 300}; - reads '
                               'standard input'))
    replay.add_argument("--mode", choices=tuple(lineup.KINDS), default="one_night",
                        help=_("the game to replay: one_night (default), dark_arts or newd3"))
    replay.add_argument("--seed", type=int, default=0, metavar="N",
                        help=_("seed for random decks and deals (default 0): the same seed, "
                               "the same game"))

    prep = sub.add_parser("prepare", help=_("render every line ahead of time (run once after "
                                            "installing or changing the voice)"))
    common(prep)
    prep.add_argument("--check", action="store_true",
                      help=_("only report which lines are missing (exit 1 if any)"))

    test = sub.add_parser("selftest", help=_("check the screen, sound, voice and every button"))
    with_config(test)
    test.add_argument("--display", choices=("auto", "window", "fullscreen", "headless"))
    test.add_argument("--auto", action="store_true",
                      help=_("press the (mock) buttons automatically, for a PC or CI"))
    test.add_argument("--button-timeout", type=_seconds, default=20.0, metavar="S",
                      help=_("seconds to wait for each button (default 20)"))

    decks = sub.add_parser("decks", help=_("list the preset decks and their player counts"))
    decks.add_argument("--json", action="store_true",
                       help=_("print JSON: name, title, players [min, max] and deck"))
    voices = sub.add_parser("voices", help=_("list the voices found, with their licences"))
    with_config(voices)
    settings = sub.add_parser("settings", help=_("print the settings in effect and where each "
                                                 "comes from"))
    with_config(settings)
    settings.add_argument("--reset", action="store_true",
                          help=_("forget what the box remembers (the deck chosen on it)"))
    sub.add_parser("config", help=_("print the default configuration as TOML"))
    referee = sub.add_parser("referee", help=_("say who died and who won a finished One Night "
                                               "game, from JSON"))
    referee.add_argument("file", nargs="?", default="-", metavar="FILE",
                         help=_('the game as JSON, such as {"players": [{"card": "werewolf", '
                                '"vote": 2}, ...], "artifacts": {"3": "claw"}}; without FILE, '
                                'or with -, standard input'))
    resolve = sub.add_parser("resolve", help=_("resolve one night of the timed nine-player "
                                               "game (004), from JSON"))
    resolve.add_argument("file", nargs="?", default="-", metavar="FILE",
                         help=_('the night as JSON: {"players": [9 role ids], "dead": [], '
                                '"actions": {"2": 4}, "kill": {"target": 5, "knife": 1}}; '
                                'without FILE, or with -, standard input'))
    for command in sub.choices.values():          # every command speaks the language
        with contextlib.suppress(argparse.ArgumentError):    # one that has its own --lang
            command.add_argument("--lang", choices=tuple(LANGUAGES),
                                 help=_("the language of what is printed (box.lang)"))
    return p


# ------------------------------------------------------------------ the deck
def _game_in_play(args: argparse.Namespace, config: Config) -> str:
    """The game a command plays: its --mode; `run`'s, else the config's."""
    mode = getattr(args, "mode", None)
    if args.command == "run" and getattr(args, "deck", None) is None:
        return mode or config.game.mode
    return mode or "one_night"            # a deck is One Night's: --deck plays it


def _check_table(game: str, players: int) -> None:
    """--players for the Mayor's or the timed game, checked against that
    game's table (One Night's deck is not what it plays with)."""
    if game == "dark_arts":
        from .darkarts.seats import MAX_PLAYERS, MIN_PLAYERS
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UserError(_("--players {players}: Werewolves of the Dark Arts takes {least} "
                              "to {most} players").format(players=players, least=MIN_PLAYERS,
                                                          most=MAX_PLAYERS))
    elif game == "newd3":
        from .newd3.setups import PLAYERS
        if players != PLAYERS:
            raise UserError(_("--players {players}: the timed game is for {count} players, "
                              "no more, no fewer").format(players=players, count=PLAYERS))


def _players(args: argparse.Namespace, config: Config) -> tuple[int | None, str]:
    """One Night's player count asked for, and where it was asked for (for
    messages). --players for another game is that game's (`_check_table`)."""
    lo, hi = 3, limits("game.players")[1]
    if getattr(args, "players", None) is not None \
            and _game_in_play(args, config) == "one_night":
        players, where = args.players, "--players"
    elif config.game.players:
        players, where = config.game.players, "game.players ="
    else:
        return None, ""
    if not lo <= players <= hi:
        raise UserError(_("{where} {players}: the box plays with {lo} to {hi} players").format(
            where=where, players=players, lo=lo, hi=hi))
    return players, where


def _remembered_deck(config: Config, state: dict[str, Any]) -> tuple[list[str] | None, str]:
    """The deck `run` plays from what the box remembers (its start screen's
    last choice), or None and why it is set aside: the config file's deck
    or table size chooses, or the box could not deal it. One answer for
    `run` and for what `wolfbox settings` calls remembered."""
    deck = state.get("deck")
    if not isinstance(deck, list) or not deck or not all(isinstance(r, str) for r in deck):
        return None, ""
    if "game.deck" in config.from_file:
        return None, _("the config file's game.deck is played")
    if config.game.players:
        return None, _("game.players = {players} chooses the deck").format(
            players=config.game.players)
    try:
        check_deck(deck)
    except WolfboxError as e:
        return None, _("the box cannot deal it ({why})").format(why=e)
    return deck, ""


def _with_remembered(config: Config) -> Config:
    """The settings made on the box's own settings screen, where the config
    file leaves them open (the box plays and prepares its lines with them)."""
    from wolfbox.device.state import StateStore, state_path

    from .settings import apply_remembered
    return apply_remembered(config, StateStore(state_path()).load())


def _load(args: argparse.Namespace, rng: random.Random | None = None) -> Config:
    """The configuration for a command, with its deck resolved.

    Precedence, highest first: the command line; a key the config file sets;
    what the box remembers from its start screen (deck); the built-in
    defaults. A value the config file sets is fixed: the box remembers only
    what the file leaves open.
    """
    config = load(args.config)
    if args.command in ("run", "prepare"):
        config = _with_remembered(config)
    if getattr(args, "lang", None):
        config.box.lang = args.lang
    game = _game_in_play(args, config)
    if game != "one_night" and getattr(args, "players", None) is not None:
        try:
            _check_table(game, args.players)
        except WolfboxError as e:
            if getattr(args, "mode", None):
                raise
            # The game came from the box's memory or the config, not from
            # this command line: say how to ask for another.
            raise UserError(_("{problem} (the box's game now; --mode one_night plays One "
                              "Night)").format(problem=e)) from None
        if game == "dark_arts":
            config.mayor_players = args.players
    players, players_from = _players(args, config)
    deck_arg = getattr(args, "deck", None)
    if deck_arg is not None:
        text, where = deck_arg, "--deck"
        if not deck_arg.strip():
            raise UserError(_("--deck is empty: give a preset name (see 'wolfbox decks') or "
                              "role ids separated by commas"))
    else:
        text = ",".join(config.game.deck)
        where = f"{args.config}: game.deck" if "game.deck" in config.from_file else "game.deck"
    config.deck_source = "--deck" if deck_arg is not None else \
        _("the config file") if "game.deck" in config.from_file else _("the built-in default")
    if args.command == "run" and deck_arg is None and players is None:
        from wolfbox.device.state import StateStore, state_path
        remembered, _why = _remembered_deck(config, StateStore(state_path()).load())
        if remembered:
            text = ",".join(remembered)
            config.deck_source = _("remembered by the box")
    try:
        config.game.deck = resolve_deck(text, players, rng)
    except WolfboxError as e:
        given = f" ({players_from} {players})" if players_from else ""
        raise UserError(f"{where}: {e}{given}") from None
    if args.command == "run":
        config.game.mode = game
    if getattr(args, "lone_wolf", None) is not None:
        config.game.lone_wolf = args.lone_wolf
    for warning in check_deck(config.game.deck):
        log.warning(_("deck: {warning}").format(warning=warning))
    return config


def _check_keys(args: argparse.Namespace, config: Config) -> None:
    """Key names are pygame's to judge, so only commands that open a window check them."""
    from wolfbox.device.keys import key_codes
    try:
        key_codes(config.keys.keys())
    except WolfboxError as e:
        raise UserError(f"{args.config}: {e}" if args.config else str(e)) from None


# --------------------------------------------------------------- commands
def _replay(args: argparse.Namespace) -> int:
    import json

    from .replay import parse_events, replay
    rng = random.Random(args.seed)
    config = _load(args, rng)
    source = "<stdin>" if args.events == "-" else args.events
    try:                 # a file or a pipe of bytes that are not UTF-8 is one line too
        if args.events == "-":
            events = parse_events(sys.stdin, source)
        else:
            with Path(args.events).open(encoding="utf-8-sig") as f:
                events = parse_events(f, source)
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(_("cannot read events from {path}: {why}").format(
            path=source, why=getattr(e, "strerror", None) or e)) from None
    played, stage = replay_game(args, config, rng)
    for record in replay(played, events, stage):
        print(json.dumps(record, ensure_ascii=False))
    return 0


def replay_game(args: argparse.Namespace, config: Config, rng: random.Random
                ) -> tuple[Games, Callable[[], str] | None]:
    """The game `wolfbox replay` plays (its --mode, built from `config`,
    dealt from `rng`) behind the game switch, and what names its records'
    phase; tests/replays/phone_walk.py plays the same to write its walks."""
    # One seeded randomness for every deal, the phones' too: a replay of a
    # game on phones deals the same cards each time.
    flow: Playable = Flow(RoundSettings.from_config(config),
                      picker=Picker(tuple(config.game.deck), rng), rng=rng)
    stage: Callable[[], str] | None = None       # the game's own stage names its records
    if args.mode == "dark_arts":
        from .darkarts import section as mayor
        from .darkarts.game import Game
        from .darkarts.rules import default_roles
        from .darkarts.seats import DEFAULT_PLAYERS
        table = config.mayor_players or DEFAULT_PLAYERS      # the setup starts at --players
        mayors = Game(options=mayor.options(config), players=table, chosen=default_roles(table),
                      rng=rng)
        flow, stage = mayors, lambda: mayors.stage.value
    elif args.mode == "newd3":
        from .newd3 import section as timed_section
        from .newd3.game import Game as Timed
        timed = Timed(options=timed_section.options(config), rng=rng)
        flow, stage = timed, lambda: timed.stage.value
    elif args.mode != "one_night":
        # Any other game the box has (a fourth): made from its Kind as the
        # box makes it, so a replay never plays One Night in its place.
        from .settings_screen import SettingsScreen
        flow = lineup.KINDS[args.mode].new(SettingsScreen(config))
    # Through the game switch, as on the box: the language a replay's
    # settings choose is the one the game is called in from then on.
    return Games({args.mode: lambda: flow}, args.mode, language()), stage


def _settings(args: argparse.Namespace) -> int:
    from wolfbox.device.state import StateStore, state_path

    from .settings import apply_remembered, describe_settings
    config = load(args.config)          # a --config that cannot be read is refused, --reset too
    _load(args, random.Random(0))       # and one whose deck `run` would refuse
    store = StateStore(state_path())
    if args.reset:
        try:
            store.path.unlink(missing_ok=True)
        except OSError as e:
            raise UserError(_("cannot forget the saved state {path}: {why}").format(
                path=store.path, why=e.strerror or e)) from None
        print(_("The box has forgotten what was chosen on it ({path}).").format(
            path=store.path))
        return 0
    state = store.load()
    deck, set_aside = _remembered_deck(apply_remembered(config, state), state)
    print(describe_settings(config, state, args.config, store.path, deck, set_aside))
    return 0


def _read_input(file: str, what: str) -> tuple[str, str]:
    """(its name, the text) of FILE or standard input ("-"); one line if
    unreadable or larger than any JSON the commands read (jsontext)."""
    source = "<stdin>" if file == "-" else file
    if file == "-" and sys.stdin.isatty():
        # Nothing piped in: say what the command waits for, not wait in silence.
        print(_("Reading the {what} from standard input (JSON); Ctrl-D to end.").format(
            what=what), file=sys.stderr, flush=True)
    limit = MAX_CHARS                    # bytes: as many characters at most, jsontext's limit
    try:
        if file == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            raw = stdin.read(limit + 1) if stdin else sys.stdin.read(limit + 1).encode()
        else:
            with open(file, "rb") as f:
                raw = f.read(limit + 1)
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(_("cannot read the {what} from {path}: {why}").format(
            what=what, path=source, why=getattr(e, "strerror", None) or e)) from None
    if len(raw) > limit:
        raise UserError(_("{path}: larger than {size} KiB: not a {what}").format(
            path=source, size=limit // 1024, what=what))
    return source, text


def _resolve(args: argparse.Namespace) -> int:
    """One night of the timed game (004), resolved (issue 12)."""
    import json

    from .newd3.resolve import read_night, resolve
    source, text = _read_input(args.file, _("night"))
    try:
        # Parsed once, with jsontext's limits (too deep, too long, a number
        # or a key too large, not finite: one line), then read for its shape.
        night = resolve(*read_night(loads(text)))
    except NotJson as e:
        raise UserError(_("{path}: not JSON ({why})").format(path=source, why=e)) from None
    except WolfboxError as e:
        raise UserError(f"{source}: {e}") from None
    print(json.dumps(night.to_json()))
    return 0


def _referee(args: argparse.Namespace) -> int:
    from .onenight.referee import judge, read_game
    source, text = _read_input(args.file, _("game"))
    try:
        verdict = judge(read_game(text))
    except WolfboxError as e:
        raise UserError(f"{source}: {e}") from None
    print(verdict.json_text())
    return 0


def _dark_arts_sheet(args: argparse.Namespace) -> int:
    """The Mayor's sheet for Werewolves of the Dark Arts (`script --mode dark_arts`)."""
    import json

    from .darkarts.seats import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
    from .darkarts.sheet import parse_roles, sheet, sheet_text
    if args.deck is not None:
        raise UserError(_("--deck is One Night's; Werewolves of the Dark Arts takes --roles"))
    players = args.players if args.players is not None else DEFAULT_PLAYERS
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserError(_("--players {players}: Werewolves of the Dark Arts takes {least} to "
                          "{most} players").format(players=players, least=MIN_PLAYERS,
                                                   most=MAX_PLAYERS))
    # The times the box would give: the config's night.scale and the
    # Mayor's own per-call times (a bad config file is refused here too).
    config = load(args.config)
    data = sheet(parse_roles(",".join(args.roles), players), config.night.scale,
                 dict(config.mayor.action_seconds))
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else sheet_text(data))
    return 0


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "referee":
        return _referee(args)
    if args.command == "resolve":
        return _resolve(args)
    if args.command == "config":
        print(defaults_toml(), end="")
        return 0
    if args.command == "decks":
        from .onenight.script import decks_json, decks_table
        print(decks_json() if args.json else decks_table())
        return 0
    if args.command == "settings":
        return _settings(args)
    if args.command == "replay":
        return _replay(args)
    if args.command == "voices":
        from wolfbox.audio.voice import describe_voices
        print(describe_voices(load(args.config).voice.model))
        return 0
    if args.command == "selftest":
        from wolfbox.device.selftest import selftest
        config = load(args.config)
        config.game.deck = resolve_deck(",".join(config.game.deck), None)
        _check_keys(args, config)
        return selftest(config, args.display, auto=args.auto,
                        button_timeout=args.button_timeout)
    if args.command == "script" and args.mode == "dark_arts":
        return _dark_arts_sheet(args)
    if args.command == "script" and args.mode == "newd3":
        import json

        from .newd3.sheet import sheet, sheet_text
        if args.deck is not None or args.roles or args.players not in (None, 9):
            raise UserError(_("--mode newd3 is nine players and its own setups: no --deck, "
                              "--roles or --players"))
        load(args.config)                 # 004's numbers are fixed; a bad file is still refused
        data = sheet()
        print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else sheet_text(data))
        return 0
    if args.command == "script" and args.roles:
        raise UserError(_("--roles is for --mode dark_arts; One Night takes --deck"))
    config = _load(args)
    if args.command == "prepare":
        from wolfbox.audio.prepare import prepare
        return prepare(config, check=args.check)
    if args.command == "script":
        from .onenight.script import script_json, script_text
        print(script_json(config) if args.json else script_text(config))
        return 0
    if args.command == "screenshot":
        from wolfbox.device.screenshots import save_screenshots
        size = _size(args.size)
        try:
            for path in save_screenshots(config, args.out, size):
                print(path)
        except OSError as e:
            raise UserError(_("cannot write screenshots to {out}: {why}").format(
                out=args.out, why=e.strerror or e)) from None
        return 0
    _check_keys(args, config)
    if config.game.mode == "one_night":        # the other games are dealt on the box
        log.info(_("deck: {deck} ({source})").format(
            deck=", ".join(config.game.deck), source=config.deck_source))
    from wolfbox.device.app import run
    return run(config, args.display)


def main(argv: list[str] | None = None) -> int:
    signals.install()                  # first: a stop during start-up must stop the box
    logging.basicConfig(format="wolfbox: %(message)s", level=logging.INFO, stream=sys.stderr)
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        _early_language(argv)
        args = _parse(_arranged(argv))
        try:
            return _dispatch(args)
        except WolfboxError as e:
            if getattr(args, "safe_config", False) and args.command == "run":
                return _run_on_defaults(args, str(e))
            print(_one_line(f"wolfbox: {e}"), file=sys.stderr)
            return EXIT_USAGE
    except signals.Stopped as stop:
        return stop.exit_status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `wolfbox decks | head -1`: the reader has all it wanted. Point stdout
        # at nothing so the interpreter's final flush is quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


GLOBAL_OPTIONS = ("--lang", "--config")     # each takes a value
TOP_LEVEL = ("-h", "--help", "--version")


def _arranged(argv: list[str]) -> list[str]:
    """The command line with its command first, as argparse wants it.

    --lang and --config may come before the command (`wolfbox --lang de
    script`): they move after it. No command is `run` (`wolfbox --headless`);
    a word that is no command is one line naming the nearest one, not
    run's "unrecognized arguments"."""
    lead: list[str] = []
    rest = list(argv)
    while rest:
        if rest[0] in GLOBAL_OPTIONS and len(rest) > 1:
            lead, rest = lead + rest[:2], rest[2:]
        elif rest[0].split("=", 1)[0] in GLOBAL_OPTIONS and "=" in rest[0]:
            lead, rest = lead + rest[:1], rest[1:]
        else:
            break
    if rest and rest[0] in TOP_LEVEL:
        return rest                      # the commands' list, or the version
    if rest and rest[0] in COMMANDS:
        return [rest[0], *lead, *rest[1:]]
    if rest and not rest[0].startswith("-"):
        near = difflib.get_close_matches(rest[0], COMMANDS, n=1)
        word = _one_line(rest[0])
        commands = ", ".join(COMMANDS)
        _usage_error(_("unknown command '{command}' (did you mean '{near}'?); commands: "
                       "{commands}").format(command=word, near=near[0], commands=commands)
                     if near else _("unknown command '{command}'; commands: {commands}")
                     .format(command=word, commands=commands))
    return ["run", *lead, *rest]         # `wolfbox --headless` is `wolfbox run --headless`


def _parse(argv: list[str]) -> argparse.Namespace:
    """The command line read by argparse speaking the box's language."""
    with in_our_language():
        return _parser().parse_args(argv)


def _early_language(argv: list[str]) -> None:
    """The language, before anything is printed (the help too): --lang, else
    the config file's box.lang, else the one chosen on the box, else English.
    A config file that fails its checks is left for the command to report,
    in the language it asks for."""
    lang: object = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    if lang is None:
        path = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--config"),
                    next((a.split("=", 1)[1] for a in argv if a.startswith("--config=")), None))
        try:
            config = load(Path(path)) if path else Config()
            if "box.lang" in config.from_file:
                lang = config.box.lang
            else:
                lang = _with_remembered(config).box.lang
        except (WolfboxError, OSError, ValueError):
            lang = stated_language(Path(path)) if path else None
    if isinstance(lang, str) and lang in LANGUAGES:
        use_language(lang)            # a catalogue's problem is logged there, once


def _run_on_defaults(args: argparse.Namespace, problem: str) -> int:
    """A config that fails at boot must not crash-loop the service: play on
    the defaults and put the problem on the screen."""
    print(_("wolfbox: {problem}; starting on the defaults").format(problem=problem),
          file=sys.stderr)
    from wolfbox.device.app import run
    config = Config()
    config.game.deck = resolve_deck(",".join(config.game.deck), None)
    from wolfbox.device.notices import CONFIG_ERROR
    return run(config, args.display, notices=[_(CONFIG_ERROR)])


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
        if w < 120 or h < 80 or w > 7680 or h > 4320:
            raise ValueError
    except ValueError:
        raise UserError(_("--size must be WIDTHxHEIGHT between 120x80 and 7680x4320, "
                          "got '{text}'").format(text=text[:40])) from None
    return w, h


if __name__ == "__main__":
    sys.exit(main())
