"""The `wolfbox` command as a person (or systemd) runs it: a real process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pygame
import pytest
from conftest import Lines, NotifySocket

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def wolfbox(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", *args], capture_output=True,
                          text=True, timeout=60, env=kw.pop("env", ENV), **kw)


def one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize("content, fragments", [
    ("[game]\nspeed = 3\n", ["unknown key 'game.speed'",
                              "allowed: mode, deck, players, lone_wolf, discussion_seconds"]),
    ("[game]\ndiscussion_seconds = 'long'\n", ["game.discussion_seconds must be a number"]),
    ("[buttons]\nvote = 99\n", ["buttons.vote must be between 0 and 27"]),
    ("[keys]\nvote = 'nosuchkey'\n", ["keys.vote: unknown key name 'nosuchkey'"]),
    ("not toml at all [\n", ["not valid TOML"]),
])
def test_bad_config_files(tmp_path, content, fragments):
    path = tmp_path / "box.toml"
    path.write_text(content)
    one_line_error(wolfbox("--config", str(path), "--headless"), str(path), *fragments)


@pytest.mark.parametrize("content, fragments", [
    ('lang = "de"\n[game]\nspeed = 3\n', ["unbekannter Schlüssel 'game.speed'"]),
    ('[box]\nlang = "zh"\n[buttons]\nvote = 99\n', ["buttons.vote 必须介于 0 和 27 之间"]),
    ('[box]\nlang = "fr"\n[game]\nspeed = 3\n', ["box.lang must be one of"]),
])
def test_a_broken_config_speaks_its_own_language(tmp_path, content, fragments):
    """The config's errors are in the language it asks for (English where
    that language is itself the error): its reader chose it."""
    path = tmp_path / "box.toml"
    path.write_text(content)
    state = {**ENV, "XDG_STATE_HOME": str(tmp_path)}     # no language chosen on the box
    one_line_error(wolfbox("--config", str(path), "--headless", env=state), str(path),
                   *fragments)


def test_missing_config_file(tmp_path):
    one_line_error(wolfbox("--config", str(tmp_path / "gone.toml")),
                   "config file not found", "gone.toml")


def test_unknown_deck_role():
    one_line_error(wolfbox("--deck", "werewolf,werewolf,seer,robber,trublemaker,villager"),
                   "unknown role 'trublemaker'", "did you mean 'troublemaker'?")


def test_bad_options():
    one_line_error(wolfbox("--display", "hologram"), "invalid choice: 'hologram'")
    one_line_error(wolfbox("--frobnicate"), "unrecognized arguments: --frobnicate")
    one_line_error(wolfbox("screenshot", "--size", "big"), "--size must be WIDTHxHEIGHT")


@pytest.mark.parametrize("args, fragments", [
    (["script", "--players", "99"], ["--players 99", "3 to 30 players"]),
    (["script", "--players", "2"], ["--players 2", "3 to 30 players"]),
    (["script", "--deck", ""], ["--deck is empty"]),
    (["script", "--deck", "  "], ["--deck is empty"]),
    (["script", "--deck", "total_chaos", "--players", "9"],
     ["--deck: preset 'total_chaos' is for 5 to 8 players, not 9", "(--players 9)"]),
    (["selftest", "--button-timeout", "-1"], ["--button-timeout", "above 0"]),
    (["selftest", "--button-timeout", "nan"], ["--button-timeout", "above 0"]),
    (["screenshot", "--out", "/proc/nope"], ["cannot write screenshots to /proc/nope"]),
])
def test_bad_values_say_where_they_came_from_and_what_is_allowed(args, fragments):
    one_line_error(wolfbox(*args), *fragments)


def test_players_from_the_config_file_are_named_as_such(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text("[game]\nplayers = 2\n")
    one_line_error(wolfbox("script", "--config", str(path)), "game.players = 2",
                   "3 to 30 players")


def test_a_closed_pipe_ends_quietly():
    for args in (["decks"], ["config"], ["script", "--deck", "total_chaos"]):
        proc = subprocess.Popen([sys.executable, "-m", "wolfbox", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        proc.stdout.readline()
        proc.stdout.close()                    # `| head -1`
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, err
        assert "Traceback" not in err and "Broken pipe" not in err, err


def test_settings_show_sources_and_reset_forgets_the_remembered_deck(tmp_path):
    env = {**ENV, "XDG_STATE_HOME": str(tmp_path / "state")}
    state = tmp_path / "state" / "wolfbox" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text('{"deck": ["werewolf", "werewolf", "seer", "robber", "troublemaker", '
                     '"villager", "villager"], "players": 4}')
    config = tmp_path / "box.toml"
    config.write_text("[game]\ndiscussion_seconds = 240\n")
    shown = wolfbox("settings", "--config", str(config), env=env)
    assert shown.returncode == 0, shown.stderr
    lines = {line.split(" = ")[0]: line for line in shown.stdout.splitlines() if " = " in line}
    assert "remembered by the box" in lines["game.deck"] and '"villager", "villager"' in \
        lines["game.deck"]
    assert f"config file {config}" in lines["game.discussion_seconds"]
    assert "240.0" in lines["game.discussion_seconds"]
    assert lines["game.add_seconds"].endswith("# default")
    assert "Precedence: command line, then the config file" in shown.stdout

    reset = wolfbox("settings", "--reset", env=env)
    assert reset.returncode == 0 and "forgotten" in reset.stdout
    assert not state.exists()
    shown = wolfbox("settings", env=env)
    assert "remembered" not in shown.stdout.split("Precedence")[0]


def test_the_config_file_deck_beats_the_remembered_one_and_says_so(tmp_path, notify):
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "NOTIFY_SOCKET": notify.address}
    state = tmp_path / "state" / "wolfbox" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text('{"deck": ["werewolf", "werewolf", "seer", "robber", "troublemaker", '
                     '"villager", "villager"], "players": 4}')
    proc = start_box(tmp_path, env=env)       # its config file sets no deck
    notify.wait_for("READY=1")
    proc.lines.wait_for("4 players")           # the remembered deck
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert "remembered by the box" in proc.stderr.read()

    config = tmp_path / "box.toml"
    config.write_text(f'[voice]\ncache_dir = "{tmp_path / "cache"}"\n'
                      '[game]\ndeck = "classic_5"\n')
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless", "--config",
                             str(config)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**ENV, **env})
    _STARTED[-1].append(proc)
    lines = Lines(proc.stdout)
    notify.wait_for("READY=1")
    lines.wait_for("5 players")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert "(the config file)" in proc.stderr.read()


def test_config_prints_loadable_defaults(tmp_path):
    result = wolfbox("config")
    assert result.returncode == 0
    path = tmp_path / "defaults.toml"
    path.write_text(result.stdout)
    assert wolfbox("screenshot", "--config", str(path), "--out",
                   str(tmp_path / "shots")).returncode == 0


@pytest.fixture(autouse=True)
def _no_stray_boxes():
    """A failed test must not leave a box running."""
    started: list[subprocess.Popen] = []
    _STARTED.append(started)
    yield
    _STARTED.pop()
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


_STARTED: list[list[subprocess.Popen]] = []


def start_box(tmp_path, stdin=subprocess.PIPE, env: dict | None = None) -> subprocess.Popen:
    config = tmp_path / "box.toml"
    config.write_text(f'[voice]\ncache_dir = "{tmp_path / "cache"}"\n'
                      '[game]\ndiscussion_seconds = 30\n')
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless",
                             "--config", str(config)],
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**ENV, **(env or {})})
    _STARTED[-1].append(proc)
    proc.lines = Lines(proc.stdout)
    return proc


def type_keys(proc: subprocess.Popen, keys: str) -> None:
    proc.stdin.write(keys)
    proc.stdin.flush()


@pytest.fixture
def notify(tmp_path):
    sock = NotifySocket(tmp_path / "notify")
    yield sock
    sock.close()


def test_ctrl_c_mid_round_exits_cleanly(tmp_path, notify):
    proc = start_box(tmp_path, env={"NOTIFY_SOCKET": notify.address})
    notify.wait_for("READY=1")                 # the start screen is up, keys are read
    type_keys(proc, "s")
    proc.lines.wait_for("Night")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0              # a stop the user asked for
    assert "Traceback" not in proc.stderr.read()


def test_sigterm_exits_cleanly_and_closed_stdin_does_not_stop_the_box(tmp_path, notify):
    proc = start_box(tmp_path, env={"NOTIFY_SOCKET": notify.address,
                                    "WATCHDOG_USEC": "200000"})
    notify.wait_for("READY=1")
    proc.stdin.close()                         # the terminal's input ends
    notify.wait_for("WATCHDOG=1")              # the loop goes on after it...
    notify.wait_for("WATCHDOG=1")
    assert proc.poll() is None, "the box stopped when its input closed"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert "STOPPING=1" in notify.queued()
    assert "Traceback" not in proc.stderr.read()


def test_terminal_keys_play_a_round_in_a_real_process(tmp_path, notify):
    proc = start_box(tmp_path, env={"NOTIFY_SOCKET": notify.address})
    notify.wait_for("READY=1")
    type_keys(proc, "s")
    proc.lines.wait_for("Night falls")
    type_keys(proc, "v")
    proc.lines.wait_for("== Vote")
    type_keys(proc, "B")                  # capital: hold BACK
    proc.lines.wait_for("== One Night · 3 players")
    assert "Hold: end round" in "".join(proc.lines.seen)
    type_keys(proc, "q")
    assert proc.wait(timeout=60) == 0


def test_screenshot_renders_every_screen(tmp_path):
    result = wolfbox("screenshot", "--out", str(tmp_path), "--size", "480x320")
    assert result.returncode == 0, result.stderr
    names = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert {"1-start", "1-start-no-sound", "2-night", "3-discussion", "4-paused",
            "5-last-seconds", "6-vote-3", "7-vote", "8-reveal", "9-reveal-paged",
            "a-settings-01-lang", "a-settings-02-volume", "a-settings-fixed",
            "a-settings-reset-ask"} <= set(names)
    assert len([n for n in names if re.match(r"a-settings-\d\d-", n)]) == 13  # every setting
    pygame.init()
    images = {n: pygame.image.load(str(tmp_path / f"{n}.png")) for n in names}
    assert all(img.get_size() == (480, 320) for img in images.values())

    def brightness(img) -> float:
        small = pygame.transform.smoothscale(img, (1, 1))
        return sum(small.get_at((0, 0))[:3]) / 3

    # Near black at night: only the words are lit, in the darkest shade that
    # still reads (4.5:1); the day screen is three times as bright.
    assert brightness(images["2-night"]) < 16
    assert brightness(images["3-discussion"]) > 3 * brightness(images["2-night"])
    raw = {n: pygame.image.tobytes(img, "RGB") for n, img in images.items()}
    assert len(set(raw.values())) == len(raw)                     # every screen differs


@pytest.mark.parametrize("args", [
    ["script", "--deck", "x" * 100_000],
    ["script", "--deck", "werewolf," + "y" * 100_000 + ",seer"],
    ["--frobnicate" + "z" * 100_000],
])
def test_a_huge_bad_value_is_quoted_not_echoed_whole(args):
    result = wolfbox(*args)
    one_line_error(result)
    assert len(result.stderr) < 1000


def test_a_setting_made_on_the_box_survives_a_restart(tmp_path, notify):
    """German, and the volume down one step, with the buttons alone (hold
    NEXT, VOTE on the language page, NEXT, BACK), quit, start again: the
    box starts in German, still at 90 %, and says where each comes from."""
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "NOTIFY_SOCKET": notify.address}
    proc = start_box(tmp_path, env=env)
    notify.wait_for("READY=1")
    type_keys(proc, "N")                     # capital: hold NEXT
    proc.lines.wait_for("== Settings · 1/13  English")
    type_keys(proc, "v")                     # VOTE: the next language
    proc.lines.wait_for("== Optionen · 1/13  Deutsch")
    type_keys(proc, "n")                     # NEXT: the volume
    proc.lines.wait_for("== Optionen · 2/13  100 %")
    type_keys(proc, "b")                     # BACK: quieter
    proc.lines.wait_for("90 %")
    type_keys(proc, "s")                     # START: done
    proc.lines.wait_for("== Vollmondnacht · 3 Spieler")
    type_keys(proc, "q")
    assert proc.wait(timeout=60) == 0
    state = json.loads((tmp_path / "state" / "wolfbox" / "state.json").read_text())
    assert state["settings"] == {"box.lang": "de", "sound.volume": 0.9}

    shown = wolfbox("settings", "--lang", "en", env={**ENV, **env})
    assert shown.returncode == 0, shown.stderr
    line = next(x for x in shown.stdout.splitlines() if x.startswith("sound.volume"))
    assert "0.9" in line and "remembered by the box" in line

    again = start_box(tmp_path, env=env)
    again.lines.wait_for("== Vollmondnacht · 3 Spieler")         # German from the start
    type_keys(again, "N")
    again.lines.wait_for("== Optionen · 1/13  Deutsch")
    type_keys(again, "n")
    assert "90 %" in again.lines.wait_for("== Optionen · 2/13")
    type_keys(again, "sq")
    assert again.wait(timeout=60) == 0


def test_killing_the_box_while_it_saves_a_setting_leaves_a_valid_file(tmp_path, notify):
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "NOTIFY_SOCKET": notify.address}
    state = tmp_path / "state" / "wolfbox" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text('{"settings": {"sound.volume": 0.5}}')
    for round_ in range(3):
        proc = start_box(tmp_path, env=env)
        notify.wait_for("READY=1")
        type_keys(proc, "N")
        proc.lines.wait_for("== Settings")
        type_keys(proc, "n")                   # from the language to the volume
        proc.lines.wait_for("== Settings · 2/")
        start = json.loads(state.read_text())["settings"]["sound.volume"]
        for _ in range(round_ + 1):            # louder, quieter: a save each
            type_keys(proc, "v")
            proc.lines.wait_for("   = ")
            type_keys(proc, "b")
            proc.lines.wait_for("   = ")
        proc.send_signal(signal.SIGKILL)       # the last save is under way or just done
        proc.wait()
        data = json.loads(state.read_text())  # always whole, always valid: old or new
        assert round(data["settings"]["sound.volume"] - start, 1) in (0.0, 0.1), round_
        notify.queued()


def test_a_game_of_many_nights_killed_mid_game_is_offered_for_resuming(tmp_path, notify):
    """Werewolves of the Dark Arts on the box: the Mayor starts a game, the power
    goes at dawn; after a restart the box offers the saved game, at the start
    of that phase."""
    config = tmp_path / "box.toml"
    config.write_text('[game]\nmode = "dark_arts"\n[night]\nscale = 0.1\nline_gap = 0.05\n'
                      '[voice]\nenabled = false\n')
    env = {**ENV, "XDG_STATE_HOME": str(tmp_path / "state"), "NOTIFY_SOCKET": notify.address}

    def box() -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless", "--config",
                                 str(config)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        _STARTED[-1].append(proc)
        proc.lines = Lines(proc.stdout)
        return proc

    first = box()
    first.lines.wait_for("== Werewolf with a Mayor")
    for key, shown in (("n", "   Werewolf"), ("n", "   Hunter"), ("n", "   Matchmaker"),
                       ("b", "Deal: 2× Werewolf, Hunter, 4× Villager")):
        type_keys(first, key)                      # no Matchmaker: the night runs alone
        first.lines.wait_for(shown)
    type_keys(first, "s")                          # START: deal and play
    first.lines.wait_for("== Dawn 1")
    first.send_signal(signal.SIGKILL)              # the power goes, at dawn
    first.wait()

    # The state on disk is whole: the dawn, or (killed within the instant of its
    # save) the night before it; the game resumes at the start of that phase.
    state = json.loads((tmp_path / "state" / "wolfbox" / "state.json").read_text())
    saved = state["games"]["dark_arts"]["stage"]
    assert saved in ("night", "dawn")
    second = box()
    second.lines.wait_for("== Resume the saved game?")
    type_keys(second, "s")                         # START: resume
    second.lines.wait_for("== Dawn 1" if saved == "dawn" else "== Night 1")
    type_keys(second, "qq")                        # mid-game, q asks twice
    assert second.wait(timeout=60) == 0


def test_the_boxs_notify_socket_is_its_own_and_not_its_childrens(monkeypatch, notify):
    """systemd takes notifications from the box's main process only: a
    program the box starts (nmcli, systemctl, the renderer) is not handed
    the socket, and the box still speaks on it."""
    from wolfbox.device.notify import Notifier
    monkeypatch.setenv("NOTIFY_SOCKET", notify.address)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_env()
    child = subprocess.run([sys.executable, "-c", "import os; print(sorted(k for k in os.environ "
                            "if k in ('NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID')))"],
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "[]"
    assert notifier.watchdog_seconds == 0.2
    notifier.ready()
    notify.wait_for("READY=1")
