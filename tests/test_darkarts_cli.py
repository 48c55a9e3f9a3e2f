"""`wolfbox script --mode dark_arts`: the Mayor's sheet, as JSON and as text."""

from __future__ import annotations

import json
import subprocess
import sys


def wolfbox(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", *args], capture_output=True,
                          text=True, timeout=60)


def test_the_sheet_as_json_has_every_threshold_from_the_table_down_to_two():
    result = wolfbox("script", "--mode", "dark_arts", "--players", "10",
                     "--roles", "werewolf,werewolf,hunter,matchmaker,seer", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"mode", "players", "roles", "night", "thresholds"}
    assert data["mode"] == "dark_arts" and data["players"] == 10
    assert data["roles"] == {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1,
                             "villager": 5}
    # 003: at least half of the living, rounded up (10 living: 5; 9 living: 5).
    assert data["thresholds"] == {"10": 5, "9": 5, "8": 4, "7": 4, "6": 3, "5": 3, "4": 2,
                                  "3": 2, "2": 1}
    night = data["night"]
    assert night[0]["id"] == "close_eyes" and night[-1]["id"] == "wake_up"
    assert {c["id"] for c in night if c["first_night_only"]} >= {"matchmaker"}
    assert all(set(c) >= {"id", "text", "seconds", "first_night_only"} for c in night)


def test_the_sheet_as_text_for_a_mayor_without_a_box():
    result = wolfbox("script", "--mode", "dark_arts", "--players", "7")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Werewolves of the Dark Arts, 7 players:")
    assert "  7 living: 4" in result.stdout and "(first night only)" in result.stdout


def test_a_bad_sheet_request_is_one_line_and_exit_2():
    for args, fragment in ((["--roles", "werewolf,wizard"], "unknown role 'wizard'"),
                           (["--roles", "werewolf,werewolf,werewolf", "--players", "5"],
                            "Too many werewolves"),
                           (["--players", "4"], "takes 5 to 20 players"),
                           (["--roles", "werewolf", "noble"], "Nobles come in pairs")):
        result = wolfbox("script", "--mode", "dark_arts", *args)
        assert result.returncode == 2
        assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_roles_may_be_listed_with_spaces_or_commas():
    spaced = wolfbox("script", "--mode", "dark_arts", "--players", "9", "--json",
                     "--roles", "werewolf", "werewolf", "hunter,seer")
    assert spaced.returncode == 0, spaced.stderr
    assert json.loads(spaced.stdout)["roles"] == {"werewolf": 2, "hunter": 1, "seer": 1,
                                                  "villager": 5}


def test_each_game_takes_its_own_options():
    deck = wolfbox("script", "--mode", "dark_arts", "--deck", "classic")
    roles = wolfbox("script", "--roles", "hunter")
    for result, fragment in ((deck, "--deck is One Night's"), (roles, "--roles is for")):
        assert result.returncode == 2 and fragment in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_the_sheets_read_the_config_file(tmp_path):
    """The Mayor's sheet gives the times the box would (night.scale and the
    Mayor's per-call times from --config); both games' sheets refuse a bad file."""
    good = tmp_path / "box.toml"
    good.write_text('[night]\nscale = 2.0\n[mayor]\naction_seconds = { werewolf = 40 }\n')
    plain = json.loads(wolfbox("script", "--mode", "dark_arts", "--json").stdout)
    scaled = json.loads(wolfbox("script", "--mode", "dark_arts", "--json", "--config",
                                str(good)).stdout)
    seconds = {c["id"]: c["seconds"] for c in plain["night"]}
    changed = {c["id"]: c["seconds"] for c in scaled["night"]}
    assert changed["werewolf"] == 80 and changed["matchmaker"] == 2 * seconds["matchmaker"]
    bad = tmp_path / "bad.toml"
    bad.write_text("[timed]\nbogus = 1\n")
    for mode in ("dark_arts", "newd3"):
        result = wolfbox("script", "--mode", mode, "--config", str(bad))
        assert result.returncode == 2 and "unknown key 'timed.bogus'" in result.stderr
