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
from .deck import check_deck, parse_deck
from .errors import UserError

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
                        help="comma-separated role ids, e.g. werewolf,werewolf,seer,"
                             "robber,troublemaker,villager")

    run = sub.add_parser("run", help="run the box (the default command)")
    common(run)
    run.add_argument("--display", choices=("auto", "window", "fullscreen", "headless"),
                     help="where to draw (default: the config's screen.display, 'auto')")
    run.add_argument("--headless", dest="display", action="store_const", const="headless",
                     help="same as --display headless")
    run.add_argument("--fullscreen", dest="display", action="store_const", const="fullscreen",
                     help="same as --display fullscreen")

    shot = sub.add_parser("screenshot", help="render every screen to PNG files")
    common(shot)
    shot.add_argument("--out", type=Path, default=Path("screenshots"), metavar="DIR",
                      help="folder for the PNG files (default: screenshots)")
    shot.add_argument("--size", default="480x320", metavar="WxH",
                      help="image size in pixels (default: 480x320)")

    sub.add_parser("config", help="print the default configuration as TOML")
    return p


def _load(args: argparse.Namespace) -> Config:
    config = load(args.config)
    from wolfbox.device.keys import key_codes      # key names are pygame's to judge
    try:
        key_codes(config.keys.keys())
    except UserError as e:
        raise UserError(f"{args.config}: {e}" if args.config else str(e)) from None
    if getattr(args, "deck", None):
        config.game.deck = parse_deck(args.deck)
    for warning in check_deck(config.game.deck):
        logging.getLogger("wolfbox").warning("deck: %s", warning)
    return config


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(format="wolfbox: %(message)s", level=logging.INFO, stream=sys.stderr)
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"run", "screenshot", "config"}
    if not any(a in commands for a in argv) and not any(a in ("-h", "--help", "--version")
                                                        for a in argv):
        argv = ["run", *argv]
    args = _parser().parse_args(argv)
    try:
        if args.command == "config":
            print(defaults_toml(), end="")
            return 0
        config = _load(args)
        if args.command == "screenshot":
            from .screenshots import save_screenshots
            size = _size(args.size)
            for path in save_screenshots(config, args.out, size):
                print(path)
            return 0
        from wolfbox.device.app import run
        return run(config, args.display)
    except UserError as e:
        print(f"wolfbox: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


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
