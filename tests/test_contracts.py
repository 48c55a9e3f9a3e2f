"""The layer contracts hold by the tools, not by convention (issue 21): a
scratch copy of the package with one violation planted fails import-linter
as `make lint` runs it, naming the contract; the same copy without it
passes. So does a screen that reaches into its game's private names or
imports its game back (issue 32): ruff's SLF001 and the acyclic contract
as `make lint` runs them; an import circle anywhere, even one closed only
under TYPE_CHECKING (issue 45); and a game that lacks a member of the
box's protocol fails mypy (wolfbox.lineup lists each game's Kind as a
`Kind`, whose `new` makes a `Playable`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
RUFF = Path(sys.executable).parent / "ruff"
MYPY = Path(sys.executable).parent / "mypy"

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


CIRCLE = "No import circle in the package, type-only imports counted BROKEN"
TYPE_ONLY = "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"


def package_copy(tmp_path: Path) -> Path:
    """The package as it installs (wolfbox.device is device/, ...), copied
    so a planted file never touches the tree."""
    tree = tmp_path / "typed"
    shutil.copytree(ROOT / "wolfbox", tree / "wolfbox",
                    ignore=shutil.ignore_patterns("__pycache__", "locale", "fonts"))
    for adapter in ("device", "audio", "hardware", "phones"):
        shutil.copytree(ROOT / adapter, tree / "wolfbox" / adapter,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT / 'lint'}"}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", str(ROOT / ".importlinter")],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=300)


def plant(tree: Path, path: str, text: str, append: bool = False) -> None:
    target = tree / "wolfbox" / path
    before = target.read_text() if append else ""
    target.write_text(before + text)


def test_the_package_as_it_is_keeps_every_contract(tmp_path):
    result = lint_imports(package_copy(tmp_path))
    assert result.returncode == 0, result.stdout[-2000:]


@pytest.mark.parametrize("path, text, append, contract", [
    # A new module nobody listed anywhere is in the core from its first line.
    ("newthing.py", "import pygame\nimport threading\n", False,
     "The core imports no adapter and nothing that touches the world BROKEN"),
    # A clock read inside a game.
    ("darkarts/game.py", "\nimport time\n\n\ndef _now() -> float:\n    return time.monotonic()\n",
     True, "The core imports no adapter and nothing that touches the world BROKEN"),
    # One game reaching into another's rules.
    ("newd3/rules.py", "\nfrom ..onenight import roles as _one_night_roles\n", True,
     "The games know nothing of each other BROKEN"),
    # The core reaching for an adapter.
    ("games.py", "\nfrom .device import app as _app\n", True,
     "The core imports no adapter and nothing that touches the world BROKEN"),
    # The configuration checking a game's keys itself (the game's section does).
    ("config.py", "\nfrom .darkarts.night import CALLS as _CALLS\n", True,
     "What the games share imports no game BROKEN"),
    # A new shared module that knows a game.
    ("sharedthing.py", "from .onenight import roles\n", False,
     "What the games share imports no game BROKEN"),
    # A screen that imports its game back, if only for mypy: a circle.
    ("newd3/screen.py", "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
     "    from .game import Game as _Game\n", True,
     CIRCLE),
    # The engine knowing the game switch again, if only for mypy (issue 45).
    ("engine/actions.py", TYPE_ONLY + "    from ..games import Games as _Games\n", True, CIRCLE),
    # The settings screen knowing the game switch, which knows the games' protocol.
    ("settings_screen.py", TYPE_ONLY + "    from .games import Games as _Games\n", True, CIRCLE),
    # The device's canvas naming its painter, which imports the layouts over it.
    ("device/canvas.py", TYPE_ONLY + "    from .painter import Painter as _Painter\n", True,
     CIRCLE),
    # A shared module that reads the lineup, and so every game.
    ("sharedthing.py", "from . import lineup\n", False,
     "What the games share imports no game BROKEN"),
    # The screens' protocol reaching for the state machine it describes.
    ("onenight/seen.py", "\nfrom . import flow as _flow\n", True,
     CIRCLE),
    # The phones' gate learning of the seats, or of a game's events.
    ("phones/gate.py", "\nfrom . import room as _room\n", True,
     "The gate before the handshake knows nothing of the page, the seats or the games BROKEN"),
    ("phones/gate.py", "\nfrom wolfbox import events as _events\n", True,
     "The gate before the handshake knows nothing of the page, the seats or the games BROKEN"),
    # The phones' HTTP side opening sealed frames.
    ("phones/portal.py", "\nfrom . import seal as _seal\n", True,
     "The phones' HTTP side knows nothing of the seats, the messages or the games BROKEN"),
    # The bounded log reaching for the box's words.
    ("phones/bounded.py", "\nfrom wolfbox import i18n as _i18n\n", True,
     "The phones' bounded log imports nothing of the box BROKEN"),
    # A part of the phones' server naming the server, if only for mypy.
    ("phones/publish.py", TYPE_ONLY + "    from .server import PhoneServer as _PhoneServer\n",
     True, "The phones' server wires its parts, which never import it BROKEN"),
])
def test_a_planted_violation_breaks_its_contract(tmp_path, path, text, append, contract):
    tree = package_copy(tmp_path)
    plant(tree, path, text, append)
    result = lint_imports(tree)
    assert result.returncode != 0
    assert contract in result.stdout, result.stdout[-2000:]


def ruff(tree: Path) -> subprocess.CompletedProcess:
    """ruff over the copy, with the project's rules (as `make lint` runs it)."""
    return subprocess.run([str(RUFF), "check", "--no-cache", "--config",
                           str(ROOT / "pyproject.toml"), "--output-format", "concise",
                           str(tree / "wolfbox")],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not RUFF.exists(), reason="ruff not installed")
@pytest.mark.parametrize("path, text", [
    # The timed game's screen reading a private method of its game.
    ("newd3/screen.py", "\n\ndef _peek(game: Seen) -> object:\n    return game._turn()\n"),
    # The phones reading a private field of the game switch.
    ("phones/link.py", "\n\ndef _peek(game: Games) -> object:\n    return game._seated\n"),
])
def test_a_private_name_read_from_outside_fails_the_lint(tmp_path, path, text):
    tree = package_copy(tmp_path)
    assert ruff(tree).returncode == 0, ruff(tree).stdout[-2000:]
    plant(tree, path, text, append=True)
    result = ruff(tree)
    assert result.returncode != 0
    assert f"{path}:" in result.stdout and "SLF001" in result.stdout, result.stdout[-2000:]


def mypy(tree: Path) -> subprocess.CompletedProcess:
    """mypy over the games' typing module in the copy (as `make lint` runs
    it: the module beside the package it checks)."""
    for name in ("typing_games.py", "toygame.py"):
        shutil.copy(ROOT / "tests" / name, tree / name)
    # Not incremental: mypy's cache misses a protocol broken two modules
    # away (a game's class, through its kind's `new`, in lineup's Kinds).
    return subprocess.run([str(MYPY), "--config-file", str(ROOT / "pyproject.toml"),
                           "--no-incremental", "--cache-dir", os.devnull,
                           "-m", "typing_games", "-m", "toygame"],
                          cwd=tree, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(not MYPY.exists(), reason="mypy not installed")
@pytest.mark.parametrize("path, member", [
    ("darkarts/game.py", "lobby_note"),         # the Mayor's game without its seat list's note
    ("newd3/game.py", "table_seats"),           # the timed game without its seats
])
def test_a_game_without_a_member_of_the_protocol_fails_the_lint(tmp_path, path, member):
    tree = package_copy(tmp_path)
    assert mypy(tree).returncode == 0
    target = tree / "wolfbox" / path
    text = target.read_text()
    assert f"def {member}(self)" in text
    target.write_text(text.replace(f"def {member}(self)", f"def {member}_gone(self)"))
    result = mypy(tree)
    assert result.returncode != 0
    # Where the games are listed as Kinds: the kind's `new` no longer makes a Playable.
    assert "wolfbox/lineup.py" in result.stdout and "Kind" in result.stdout, result.stdout[-2000:]
