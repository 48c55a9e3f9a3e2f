"""The `wolfbox` command.

Bad input of any kind (options, config file, deck) ends in one line on
stderr naming the problem and what is allowed, and exit status 2; never a
traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from . import __version__
from .config import Config, defaults_toml, load
from .deck import check_deck
from .errors import UserError
from .presets import resolve_deck

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:   # one line, not argparse's usage block
        print(f"wolfbox: {message} (see 'wolfbox --help')", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def _parser() -> _Parser:
    p = _Parser(prog="wolfbox", description="A narrator box for werewolf party games.")
    p.add_argument("--version", action="version", version=f"wolfbox {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--config", type=Path, metavar="PATH",
                        help="TOML configuration file (defaults are built in)")
        sp.add_argument("--deck", metavar="ROLES",
                        help="a preset name (see 'wolfbox decks') or comma-separated role "
                             "ids, e.g. werewolf,werewolf,seer,robber,troublemaker,villager")
        sp.add_argument("--players", type=int, metavar="N",
                        help="players at the table (checked against the deck; fills a "
                             "scenario preset)")
        sp.add_argument("--lone-wolf", action="store_true",
                        help="a werewolf who wakes alone may look at a center card")

    run = sub.add_parser("run", help="run the box (the default command)")
    common(run)
    run.add_argument("--display", choices=("auto", "window", "fullscreen", "headless"),
                     help="where to draw (default: the config's screen.display, 'auto')")
    run.add_argument("--headless", dest="display", action="store_const", const="headless",
                     help="same as --display headless")
    run.add_argument("--fullscreen", dest="display", action="store_const", const="fullscreen",
                     help="same as --display fullscreen")
    run.add_argument("--safe-config", action="store_true",
                     help="if the config file cannot be used, start on the defaults and show "
                          "why (for the boot service: never a crash loop)")

    shot = sub.add_parser("screenshot", help="render every screen to PNG files")
    common(shot)
    shot.add_argument("--out", type=Path, default=Path("screenshots"), metavar="DIR",
                      help="folder for the PNG files (default: screenshots)")
    shot.add_argument("--size", default="480x320", metavar="WxH",
                      help="image size in pixels (default: 480x320)")

    script = sub.add_parser("script", help="print the night script for a deck")
    common(script)
    script.add_argument("--json", action="store_true", help="print JSON instead of text")

    prep = sub.add_parser("prepare", help="render every line ahead of time (run once after "
                                          "installing or changing the voice)")
    common(prep)
    prep.add_argument("--check", action="store_true",
                      help="only report which lines are missing (exit 1 if any)")

    test = sub.add_parser("selftest", help="check the screen, sound, voice and every button")
    test.add_argument("--config", type=Path, metavar="PATH",
                      help="TOML configuration file (defaults are built in)")
    test.add_argument("--display", choices=("auto", "window", "fullscreen", "headless"))
    test.add_argument("--auto", action="store_true",
                      help="press the (mock) buttons automatically, for a PC or CI")
    test.add_argument("--button-timeout", type=float, default=20.0, metavar="S",
                      help="seconds to wait for each button (default 20)")

    sub.add_parser("decks", help="list the preset decks and their player counts")
    voices = sub.add_parser("voices", help="list the voices found, with their licences")
    voices.add_argument("--config", type=Path, metavar="PATH",
                        help="TOML configuration file (for voice.model)")
    sub.add_parser("config", help="print the default configuration as TOML")
    return p


def _load(args: argparse.Namespace) -> Config:
    config = load(args.config)
    players = getattr(args, "players", None) or config.game.players or None
    text = args.deck if getattr(args, "deck", None) else ",".join(config.game.deck)
    if args.command == "run" and not getattr(args, "deck", None) and players is None:
        # The deck last chosen on the box's start screen outlives a restart.
        from wolfbox.device.state import StateStore, state_path
        remembered = StateStore(state_path()).remembered_deck()
        if remembered:
            try:
                check_deck(remembered)
                text = ",".join(remembered)
            except UserError:
                pass
    try:
        config.game.deck = resolve_deck(text, players)
    except UserError as e:
        where = "--deck" if getattr(args, "deck", None) else \
            f"{args.config}: game.deck" if args.config else "game.deck"
        raise UserError(f"{where}: {e}") from None
    if getattr(args, "lone_wolf", False):
        config.game.lone_wolf = True
    from wolfbox.device.keys import key_codes  # key names are pygame's to judge
    try:
        key_codes(config.keys.keys())
    except UserError as e:
        raise UserError(f"{args.config}: {e}" if args.config else str(e)) from None
    for warning in check_deck(config.game.deck):
        logging.getLogger("wolfbox").warning("deck: %s", warning)
    return config


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(format="wolfbox: %(message)s", level=logging.INFO, stream=sys.stderr)
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"run", "screenshot", "config", "script", "decks", "prepare", "voices",
                "selftest"}
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help", "--version")):
        argv = ["run", *argv]            # `wolfbox --headless` is `wolfbox run --headless`
    args = _parser().parse_args(argv)
    try:
        if args.command == "config":
            print(defaults_toml(), end="")
            return 0
        if args.command == "voices":
            from wolfbox.audio.voice import describe_voices
            print(describe_voices(load(args.config).voice.model))
            return 0
        if args.command == "selftest":
            from wolfbox.device.selftest import selftest
            config = load(args.config)
            config.game.deck = resolve_deck(",".join(config.game.deck), None)
            return selftest(config, args.display, auto=args.auto,
                            button_timeout=args.button_timeout)
        if args.command == "decks":
            from .script import decks_table
            print(decks_table())
            return 0
        config = _load(args)
        if args.command == "prepare":
            from wolfbox.audio.prepare import prepare
            return prepare(config, check=args.check)
        if args.command == "script":
            from .script import script_json, script_text
            print(script_json(config) if args.json else script_text(config))
            return 0
        if args.command == "screenshot":
            from .screenshots import save_screenshots
            size = _size(args.size)
            for path in save_screenshots(config, args.out, size):
                print(path)
            return 0
        from wolfbox.device.app import run
        return run(config, args.display)
    except UserError as e:
        if getattr(args, "safe_config", False) and args.command in (None, "run"):
            return _run_on_defaults(args, str(e))
        print(f"wolfbox: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _run_on_defaults(args: argparse.Namespace, problem: str) -> int:
    """A config that fails at boot must not crash-loop the service: play on
    the defaults and put the problem on the screen."""
    print(f"wolfbox: {problem}; starting on the defaults", file=sys.stderr)
    from wolfbox.device.app import run
    config = Config()
    config.game.deck = resolve_deck(",".join(config.game.deck), None)
    return run(config, args.display, notices=[f"config error, using defaults: {problem}"])


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
        if w < 120 or h < 80 or w > 7680 or h > 4320:
            raise ValueError
    except ValueError:
        raise UserError(f"--size must be WIDTHxHEIGHT between 120x80 and 7680x4320, "
                         f"got '{text}'") from None
    return w, h


if __name__ == "__main__":
    sys.exit(main())
