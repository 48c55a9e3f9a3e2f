"""The command line as issue 19 found it: argparse's own words in the box's
language, Chinese help as wide as the terminal, global options before the
command, a mistyped command named, --players for the game in play, and bad
JSON of any size or depth as one line."""

from __future__ import annotations

import argparse
import inspect
import io
import json
import os
import pty
import select
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from wolfbox import argwords, cli
from wolfbox.i18n import pseudo_translation
from wolfbox.pages import width

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def wolfbox(*args: str, stdin: str | None = None, env: dict | None = None
            ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", *args], capture_output=True,
                          text=True, timeout=60, input=stdin, env=env or ENV)


def one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def parsed(argv: list[str]) -> tuple[int | None, str, str]:
    """(exit status or None, stdout, stderr) of reading `argv` in-process."""
    out, err = io.StringIO(), io.StringIO()
    status = None
    with redirect_stdout(out), redirect_stderr(err):
        try:
            cli._parse(cli._arranged(argv))
        except SystemExit as e:
            status = int(e.code or 0)
    return status, out.getvalue(), err.getvalue()


# ------------------------------------------------------- 10: argparse's words
def test_argparses_own_words_go_through_the_catalogue():
    """In the pseudo-language every message is ⟦wrapped⟧: one argparse
    words itself ("usage: ", "options", "unrecognized arguments") is too."""
    with pseudo_translation():
        status, out, _err = parsed(["run", "--help"])
        assert status == 0
        assert out.startswith("⟦usage: ⟧wolfbox run")
        assert "⟦options⟧:" in out and "⟦show this help message and exit⟧" in out
        status, _out, err = parsed(["run", "--frobnicate"])
        assert status == 2 and "⟦unrecognized arguments: --frobnicate⟧" in err
        status, _out, err = parsed(["run", "--display", "hologram"])
        assert "⟦argument --display: ⟦invalid choice: 'hologram'" in err
        # Only while the command line is read: argparse is left as it was.
        assert vars(argparse)["_"]("usage: ") == "usage: "


def test_argparses_msgids_are_its_own_and_collected_for_translators():
    """Each marked msgid is one argparse asks for, character for character,
    and `make pot`'s extraction finds them, the counted one with both forms."""
    from babel.messages.extract import extract_from_file
    source = inspect.getsource(argparse)
    for msgid in argwords.MESSAGES:
        assert repr(msgid) in source or f'"{msgid}"' in source, msgid
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    found = [m for _line, m, _c, _ctx in extract_from_file("python", argwords.__file__,
                                                           keywords=keywords)]
    assert "usage: " in found and "unrecognized arguments: %s" in found
    assert ("expected %s argument", "expected %s arguments") in found
    assert argwords.expected_arguments(2) == "expected 2 arguments"


def test_english_help_is_exactly_argparses():
    parser = cli._parser()
    run = parser._subparsers._group_actions[0].choices["run"]   # type: ignore[union-attr]
    ours = run.format_help()
    run.formatter_class = argparse.HelpFormatter
    assert ours == run.format_help()


def test_wide_text_wraps_by_display_width():
    text = "朗读、显示和输出所用的语言（box.lang；默认取配置文件中的设置，其次是本机上选择的语言）"
    # 30 columns are 15 Chinese characters; "（box.lang；" goes whole to the next line.
    assert argwords.wrap(text, 30) == ["朗读、显示和输出所用的语言",
                                       "（box.lang；默认取配置文件中的",
                                       "设置，其次是本机上选择的语言）"]
    assert argwords.wrap("werewolf,werewolf,seer 狼人", 10) == ["werewolf,w", "erewolf,se",
                                                               "er 狼人"]


def test_chinese_help_fits_the_terminal():
    result = wolfbox("run", "--lang", "zh", "--help", env={**ENV, "COLUMNS": "60"})
    assert result.returncode == 0, result.stderr
    wide = [line for line in result.stdout.splitlines()
            if any(width(c) == 2 for c in line)]
    assert len(wide) > 10
    assert max(width(line) for line in wide) <= 58, result.stdout


# --------------------------------------------- 17: options before the command
@pytest.mark.parametrize("argv, arranged", [
    (["--lang", "en", "script"], ["script", "--lang", "en"]),
    (["--config=box.toml", "--lang", "de", "decks", "--json"],
     ["decks", "--config=box.toml", "--lang", "de", "--json"]),
    (["script", "--lang", "en"], ["script", "--lang", "en"]),
    (["--lang", "en", "--help"], ["--help"]),
    (["--lang", "de"], ["run", "--lang", "de"]),
    (["--headless"], ["run", "--headless"]),
    ([], ["run"]),
])
def test_global_options_may_come_before_the_command(argv, arranged):
    assert cli._arranged(argv) == arranged


def test_lang_before_the_command_runs_the_command():
    result = wolfbox("--lang", "en", "script", "--deck", "classic_5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("One Night for 5 players")


def test_lang_before_help_lists_the_commands():
    result = wolfbox("--lang", "en", "--help")
    assert result.returncode == 0, result.stderr
    assert "COMMAND" in result.stdout and "referee" in result.stdout
    assert "--display" not in result.stdout                # not run's help


@pytest.mark.parametrize("word, fragments", [
    ("scirpt", ["unknown command 'scirpt'", "did you mean 'script'?"]),
    ("frobnicate", ["unknown command 'frobnicate'", "commands: run, screenshot"]),
])
def test_a_mistyped_command_is_named_with_the_nearest(word, fragments):
    line = one_line_error(wolfbox(word), *fragments)
    assert "unrecognized arguments" not in line


# ---------------------------------------------- 16: --players for every game
def test_players_for_the_mayors_game_is_not_checked_against_one_nights_deck(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = cli._load(cli._parse(["run", "--mode", "dark_arts", "--players", "7"]))
    assert config.mayor_players == 7
    config = cli._load(cli._parse(["run", "--mode", "newd3", "--players", "9"]))
    assert config.mayor_players is None


@pytest.mark.parametrize("args, fragments", [
    (["--mode", "dark_arts", "--players", "4"],
     ["--players 4: Werewolves of the Dark Arts takes 5 to 20 players"]),
    (["--mode", "newd3", "--players", "8"], ["--players 8: the timed game is for 9 players"]),
    (["--players", "9"], ["9 players need 12 cards"]),            # One Night's deck, as before
])
def test_players_is_checked_against_the_game_in_play(args, fragments):
    line = one_line_error(wolfbox("replay", *args, "-", stdin='{"at": 1}\n'), *fragments)
    assert ("deck" in line) == ("dark_arts" not in args and "newd3" not in args)


def test_the_mayors_replay_starts_at_players_and_names_its_setup():
    result = wolfbox("replay", "--mode", "dark_arts", "--players", "9", "-",
                     stdin='{"at": 0, "tap": "start"}\n{"at": 5}\n')
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0]["phase"] == "setup" and out[0]["big"] == "9"
    assert out[1]["phase"] == "night"
    timed = wolfbox("replay", "--mode", "newd3", "-", stdin='{"at": 0, "tap": "start"}\n')
    assert [json.loads(line)["phase"] for line in timed.stdout.splitlines()][:2] == \
        ["setup", "deal"]


def test_the_sheet_takes_the_villagers_its_json_names():
    result = wolfbox("script", "--mode", "dark_arts", "--players", "7", "--roles",
                     "werewolf", "villager", "villager", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["roles"] == {"werewolf": 1, "villager": 6}
    one_line_error(wolfbox("script", "--mode", "dark_arts", "--players", "5", "--roles",
                           "werewolf", *["villager"] * 5), "More roles than players")


def test_at_most_one_is_said_in_the_singular():
    line = one_line_error(wolfbox("script", "--mode", "dark_arts", "--roles", "seer", "seer"))
    assert "seer at most 1 time, not 2" in line


# ------------------------------------------------------- 18: JSON of any shape
DEEP = "[" * 2000 + "]" * 2000
HUGE = "1" + "0" * 5000                                   # past Python's int-string limit
LARGE = "1" + "0" * 400                                   # an int no float can hold


@pytest.mark.parametrize("command, text, fragment", [
    ("resolve", DEEP, "nested too deeply"),
    ("resolve", '{"players": [' + HUGE + "]}", "a number of more than 64 digits"),
    ("referee", DEEP, "nested too deeply"),
    ("referee", '{"players": [' + HUGE + "]}", "a number of more than 64 digits"),
    ("replay", '{"at": 0}\n' + DEEP, "nested too deeply"),
    ("replay", '{"at": ' + HUGE + "}", "a number of more than 64 digits"),
    ("replay", '{"at": ' + LARGE + "}", "a number of more than 64 digits"),
    ("resolve", " " * (1024 * 1024 + 1), "larger than 1024 KiB"),
])
def test_json_too_deep_or_too_large_is_one_line(tmp_path, command, text, fragment):
    path = tmp_path / "input.json"
    path.write_text(text)
    one_line_error(wolfbox(command, str(path)), str(path), fragment)


# ------------------------------------------------------------- 19: loose ends
def test_settings_reset_refuses_a_missing_config_like_settings_does(tmp_path):
    env = {**ENV, "XDG_STATE_HOME": str(tmp_path)}
    for args in (["settings"], ["settings", "--reset"]):
        one_line_error(wolfbox(*args, "--config", str(tmp_path / "missing.toml"), env=env),
                       "config file not found")


def test_a_bad_saved_state_is_warned_of_once(tmp_path):
    (tmp_path / "wolfbox").mkdir()
    (tmp_path / "wolfbox" / "state.json").write_text("{bad")
    result = wolfbox("settings", env={**ENV, "XDG_STATE_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("ignoring unreadable saved state") == 1, result.stderr


@pytest.mark.parametrize("command, what", [("referee", "game"), ("resolve", "night")])
def test_reading_from_a_terminal_says_what_it_waits_for(command, what):
    """A person who typed `wolfbox referee` and nothing else is told what
    the command reads; piped input (every other test) is read in silence."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", command], stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=ENV)
    os.close(follower)
    try:
        # Without the line the command would wait for input in silence: a
        # bound on the wait (not a sleep), so that fails instead of hanging.
        ready, _w, _x = select.select([proc.stderr], [], [], 30)
        assert ready, "nothing said before reading the terminal"
        first = proc.stderr.readline()                  # type: ignore[union-attr]
        assert first.strip() == \
            f"Reading the {what} from standard input (JSON); Ctrl-D to end."
        os.write(leader, b"\x04")                       # Ctrl-D: the end, nothing given
        assert proc.wait(timeout=60) == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)


def test_a_deck_on_the_command_line_plays_one_night_whatever_the_box_remembers(
        tmp_path, monkeypatch):
    """The README's `wolfbox --deck total_chaos` on a box last left in the
    timed game: the deck is One Night's, so One Night is played; --players
    alone for the remembered game says how to ask for One Night."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    (tmp_path / "wolfbox").mkdir()
    (tmp_path / "wolfbox" / "state.json").write_text(
        '{"settings": {"game.mode": "newd3"}}')
    config = cli._load(cli._parse(["run", "--deck", "total_chaos"]))
    assert config.game.mode == "one_night"
    assert cli._load(cli._parse(["run"])).game.mode == "newd3"      # remembered, as before
    with pytest.raises(cli.UserError, match=r"--players 10: .*--mode one_night plays One Night"):
        cli._load(cli._parse(["run", "--players", "10"]))


@pytest.mark.parametrize("text, fragment", [
    ('[game]\ndeck = "classic_9"\n', "classic_9"),
    ('[game]\ndeck = ["werewolf", "seer"]\n', "deck"),
    ('[keys]\nstart = ["space", "v"]\n', "key 'v' is given to both"),
])
def test_settings_refuses_the_config_files_run_refuses(tmp_path, text, fragment):
    """`wolfbox settings` shows what a box would run with: a file the box
    would refuse is refused here too, in the same words, not printed."""
    path = tmp_path / "box.toml"
    path.write_text(text)
    for command in ("settings", "script"):
        one_line_error(wolfbox(command, "--config", str(path)), fragment)


@pytest.mark.parametrize("command", ["resolve", "referee", "replay"])
def test_why_text_is_not_json_is_said_in_the_boxs_language(command):
    """Python's parser words its reasons in English ("Expecting value"): a
    German line stays German to its end."""
    args = [command, "--lang", "de", "-"] + (["--deck", "total_chaos"] if command == "replay"
                                             else [])
    line = one_line_error(wolfbox(*args, stdin="{\"at\": 1,}\n"), "Zeile 1")
    assert "Expecting" not in line and "line 1" not in line
