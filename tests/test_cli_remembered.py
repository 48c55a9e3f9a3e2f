"""Issue 29.16: `wolfbox settings` called the deck the box remembers
"remembered" where `wolfbox run` sets it aside (the config file's table
size chooses the deck, or the box could not deal it). What `settings`
calls remembered is what `run` plays, and a deck set aside is said so."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from wolfbox import cli

EIGHT = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
         "drunk"]


def remember(tmp_path, monkeypatch, deck: list[str]) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    (tmp_path / "state" / "wolfbox").mkdir(parents=True)
    (tmp_path / "state" / "wolfbox" / "state.json").write_text(
        json.dumps({"deck": deck, "players": 5}))


def settings(*args: str) -> dict[str, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["settings", *args]) == 0
    text = out.getvalue()
    lines = {line.split(" = ")[0]: line for line in text.splitlines() if " = " in line}
    lines["note"] = text.split("Precedence")[0]
    return lines


def test_a_remembered_deck_that_run_plays_is_called_remembered(tmp_path, monkeypatch):
    remember(tmp_path, monkeypatch, EIGHT)
    assert cli._load(cli._parse(["run"])).game.deck == EIGHT
    shown = settings()
    assert shown["game.deck"].endswith("# remembered by the box")
    assert '"drunk"' in shown["game.deck"]
    # The table's size follows the deck: run never reads a remembered count.
    assert shown["game.players"].endswith("# default")
    assert "not played" not in shown["note"]


@pytest.mark.parametrize("config, deck, why", [
    ("[game]\nplayers = 3\n", EIGHT, "game.players = 3 chooses the deck"),
    ('[game]\ndeck = "werewolf,werewolf,seer,robber,troublemaker,villager"\n', EIGHT,
     "the config file's game.deck is played"),
    ("", ["werewolf", "werewolf", "seer", "mason", "villager", "villager", "villager"],
     "the box cannot deal it"),
])
def test_a_deck_run_sets_aside_is_not_called_remembered(tmp_path, monkeypatch, config, deck,
                                                        why):
    remember(tmp_path, monkeypatch, deck)
    path = tmp_path / "box.toml"
    path.write_text(config)
    played = cli._load(cli._parse(["run", "--config", str(path)])).game.deck
    assert played != deck
    shown = settings("--config", str(path))
    assert "remembered" not in shown["game.deck"]
    assert f"The deck the box remembers is not played: {why}" in shown["note"]
