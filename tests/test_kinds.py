"""Every game the box has is one `Kind` in wolfbox.lineup, and that is the
whole of adding one (issue 45): each is held here to the protocol, at run
time as mypy holds it statically (lineup.SHIPPED is typed `Kind`), and
asked for what the box derives from it: its name on the settings screen's
Game page and in `game.mode`'s choices, its config section, its lines, a
game made new that is a `Playable`, a checkpoint not its own refused, its
package under the lint's contracts, and a golden walk that holds what a
table sees and hears. The tests' fourth game is held to the same, but
the golden walk, which only a shipped game has."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from test_golden import GOLDEN
from toygame import KIND as TOY_KIND

from wolfbox import lineup, menu, roster
from wolfbox.config import Config
from wolfbox.errors import CannotResume
from wolfbox.mode import Kind, Playable
from wolfbox.settings_screen import SettingsScreen

ROOT = Path(__file__).resolve().parent.parent


def members(protocol: type) -> set[str]:
    """What a protocol asks for: its public members."""
    return {name for name in dir(protocol) if not name.startswith("_")}


def test_the_lineup_is_the_three_games_in_the_order_offered():
    assert list(lineup.KINDS) == ["one_night", "dark_arts", "newd3"]
    assert roster.names() == tuple(lineup.KINDS)


@pytest.fixture(params=[*lineup.SHIPPED, TOY_KIND], ids=lambda kind: kind.name)
def kind(request):
    """Each shipped game's Kind, and the fourth game's, registered as the
    lineup registers them."""
    kind: Kind = request.param
    added = kind.name not in lineup.KINDS
    if added:
        lineup.register(kind)
    yield kind
    if added:
        lineup.withdraw(kind.name)


def test_a_kind_has_every_member_of_the_protocol(kind):
    assert members(Kind) == {"name", "title", "section", "pages", "lines", "new", "resume"}
    assert all(hasattr(kind, name) for name in members(Kind))
    assert kind.name.isidentifier() and kind.title


def test_the_box_offers_a_kind_everywhere_a_game_is_chosen(kind):
    config = Config()
    game_page = next(i for i in menu.items(False) if i.key == roster.MODE_KEY)
    assert kind.name in game_page.steps
    assert roster.game_name(kind.name) == kind.title
    config.game.mode = kind.name                   # game.mode's choices: checked on load
    assert kind.section.name in config.parts
    pages = {i.key for i in menu.items(False, kind.name)}
    shared = {i.key for i in menu.ITEMS if not i.own}
    assert pages == (shared | kind.pages) - {menu.BRIGHTNESS}


def test_a_kind_makes_a_playable_game_and_refuses_a_checkpoint_not_its_own(kind):
    screen = SettingsScreen(Config())
    game = kind.new(screen)
    missing = {name for name in members(Playable) if not hasattr(game, name)}
    assert not missing
    assert game.view(0.0).between                  # a new game stands at its start
    with pytest.raises(CannotResume):
        kind.resume({"rounds": "many", "stage": 12, "players": "x"}, screen)


def test_a_kind_says_its_lines_for_the_catalogue(kind):
    lines = kind.lines(Config())
    assert lines and all(isinstance(line, str) and line for line in lines)


@pytest.mark.parametrize("shipped", lineup.SHIPPED, ids=lambda kind: kind.name)
def test_a_shipped_kind_has_a_golden_walk_and_its_package_is_under_the_contracts(shipped):
    walks = [name for name, (_events, options) in GOLDEN.items()
             if options[options.index("--mode") + 1] == shipped.name]
    assert walks, f"record a golden walk of {shipped.name} (tests/replays/walk.py)"
    package = type(shipped).__module__.rpartition(".")[0]
    assert package.startswith("wolfbox.") and importlib.import_module(package)
    sys.path.insert(0, str(ROOT / "lint"))
    try:
        from importrules import game_packages
    finally:
        sys.path.remove(str(ROOT / "lint"))
    assert package in game_packages()
