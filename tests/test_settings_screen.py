"""The settings screen opens from every game's setup (hold NEXT), and the
box's games share it: a table in the Mayor's or the timed game changes the
language or the volume without switching games."""

from __future__ import annotations

import pytest

from wolfbox import pages
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as Mayor
from wolfbox.effects import ChangeSetting, Cue, PlayCue, Warm
from wolfbox.games import Games
from wolfbox.i18n import language
from wolfbox.newd3.game import Game as Timed
from wolfbox.onenight.flow import Flow
from wolfbox.settings_screen import SettingsScreen
from wolfbox.view import Phase

START, VOTE, NEXT, BACK = (Tap(b) for b in (Button.START, Button.VOTE, Button.NEXT,
                                            Button.BACK))
ONE_NIGHT_ONLY = {"Action time", "Discussion", "Warnings", "Lone wolf"}


def pages_shown(game, now: float = 0.0) -> list[str]:
    """The settings pages' headings, walked once round with NEXT."""
    names = [game.view(now).details[0]]
    for _ in range(20):
        game.handle(NEXT, now)
        name = game.view(now).details[0]
        if name == names[0]:
            return names
        names.append(name)
    raise AssertionError("the pages never came round")


def to_page(game, name: str) -> None:
    for _ in range(20):
        if game.view(0.0).details[0] == name:
            return
        game.handle(NEXT, 0.0)
    raise AssertionError(f"no settings page {name!r}")


@pytest.fixture(params=["dark_arts", "newd3"])
def setup(request):
    """A game at its setup screen, on a box whose settings it shares."""
    screen = SettingsScreen(Config())
    game = Mayor(settings=screen) if request.param == "dark_arts" else Timed(settings=screen)
    return game, screen


def test_holding_next_on_any_setup_opens_the_settings_and_start_comes_back(setup):
    game, _screen = setup
    before = game.view(0.0)
    assert dict(before.holds)[Button.NEXT] == "Hold: settings"
    assert before.footer.startswith("Hold NEXT: settings. Hold VOTE: ")
    game.handle(Hold(Button.NEXT), 0.0)
    view = game.view(0.0)
    assert view.phase is Phase.SETTINGS
    assert view.details[0] == "Language" and view.big == "English"
    assert view.label(Button.START) == "Done"
    assert Button.VOTE not in dict(view.holds)       # no switching games from here
    game.handle(START, 0.0)
    after = game.view(0.0)
    assert (after.phase, after.title, after.big) == (before.phase, before.title, before.big)


def test_a_setup_switches_the_language_from_its_settings(setup):
    """Through the game switch, as on the box: the language is the one the
    games are called in, which the table's choice changes (no global)."""
    mode, screen = setup
    game = Games({"this": lambda: mode}, "this")
    game.handle(Hold(Button.NEXT), 0.0)
    effects = game.handle(VOTE, 0.0)                 # English -> Deutsch
    assert effects[0] == ChangeSetting("box.lang", "de")
    assert screen.config.box.lang == "de"
    assert game.view(0.0).details[0] == "Sprache"
    game.handle(START, 0.0)
    assert game.view(0.0).footer.startswith("Halten: NEXT Optionen")   # the setup too
    assert language() == "en" and mode.view(0.0).footer.startswith("Hold NEXT")  # nothing leaks


def test_a_setup_offers_the_boxs_pages_not_one_nights_times(setup):
    game, _screen = setup
    game.handle(Hold(Button.NEXT), 0.0)
    shown = pages_shown(game)
    assert shown[:3] == ["Language", "Volume", "Speech speed"]
    assert "Night ambience" in shown and shown[-1] == "Reset to defaults"
    assert "Lone wolf" not in shown and "Warnings" not in shown and "Discussion" not in shown


def test_volume_from_a_setup_chimes_at_the_new_level(setup):
    game, screen = setup
    game.handle(Hold(Button.NEXT), 0.0)
    to_page(game, "Volume")
    assert game.handle(BACK, 0.0) == [ChangeSetting("sound.volume", 0.9), PlayCue(Cue.CHIME)]
    assert screen.config.sound.volume == 0.9


def test_speech_speed_from_a_setup_times_that_games_captions_and_renders_again(setup):
    game, _screen = setup
    game.handle(Hold(Button.NEXT), 0.0)
    to_page(game, "Speech speed")
    effects = game.handle(BACK, 0.0)                     # Slower: a longer length scale
    assert effects[0] == ChangeSetting("voice.length_scale", round(100 / 90, 3))
    assert game.options.per_word == pytest.approx(pages.PER_WORD * round(100 / 90, 3))
    warm = next(e for e in effects if isinstance(e, Warm))
    assert set(warm.lines) == set(game.lines())


def test_one_settings_screen_for_every_game_of_the_box():
    """Volume set from the timed game's setup is what One Night's settings
    show, and One Night (built, then left) times its captions at the speed
    set there."""
    screen = SettingsScreen(Config())
    games = Games({"one_night": lambda: Flow.from_config(screen.config, screen=screen),
                   "dark_arts": lambda: Mayor(settings=screen),
                   "newd3": lambda: Timed(settings=screen)}, "one_night")
    one_night = games.active
    assert isinstance(one_night, Flow)
    per_word = one_night.settings.per_word
    games.handle(Hold(Button.VOTE), 0.0)                  # the Mayor's game
    games.handle(Hold(Button.VOTE), 0.0)                  # the timed one
    assert games.name == "newd3"
    games.handle(Hold(Button.NEXT), 0.0)
    to_page(games, "Volume")
    games.handle(BACK, 0.0)
    to_page(games, "Speech speed")
    games.handle(BACK, 0.0)                               # slower
    assert one_night.settings.per_word > per_word
    games.handle(START, 0.0)
    games.handle(Hold(Button.VOTE), 0.0)                  # round to One Night
    assert games.name == "one_night"
    games.handle(Hold(Button.NEXT), 0.0)
    to_page(games, "Volume")
    assert games.view(0.0).big == "90 %"


def test_the_box_gives_its_three_games_one_settings_screen():
    """As the device builds them: a game built after a change (here the
    Mayor's, after the speech speed changed in One Night) starts from the
    changed settings, not from the configuration the box started with."""
    from wolfbox.device.app import _game
    from wolfbox.device.saves import Saves
    games = _game(Config(), Saves({}), has_brightness=False)
    one_night = games.active
    games.handle(Hold(Button.NEXT), 0.0)
    to_page(games, "Speech speed")
    games.handle(VOTE, 0.0)                               # faster
    games.handle(START, 0.0)
    games.handle(Hold(Button.VOTE), 0.0)                  # the Mayor's game, built now
    mayor = games.active
    assert isinstance(mayor, Mayor)
    assert mayor.options.per_word == pytest.approx(pages.PER_WORD * round(100 / 110, 3))
    games.handle(Hold(Button.VOTE), 0.0)                  # the timed game
    timed = games.active
    assert isinstance(timed, Timed)
    assert one_night.screen is mayor.settings is timed.settings


def test_the_game_page_names_the_game_it_was_opened_from():
    """A table that came to the Mayor's game by holding VOTE (not through
    the settings) finds it named on the Game page, and "Next game" leads on
    from it, not back to it."""
    screen = SettingsScreen(Config())
    games = Games({"one_night": lambda: Flow.from_config(screen.config, screen=screen),
                   "dark_arts": lambda: Mayor(settings=screen),
                   "newd3": lambda: Timed(settings=screen)}, "one_night")
    games.handle(Hold(Button.VOTE), 0.0)                  # the Mayor's game
    games.handle(Hold(Button.NEXT), 0.0)
    to_page(games, "Game")
    assert games.view(0.0).big == "Werewolf with a Mayor"
    effects = games.handle(VOTE, 0.0)
    assert ChangeSetting("game.mode", "newd3") in effects


def test_choosing_another_game_in_the_settings_leaves_this_one_at_its_setup():
    screen = SettingsScreen(Config())
    games = Games({"one_night": lambda: Flow.from_config(screen.config, screen=screen),
                   "dark_arts": lambda: Mayor(settings=screen),
                   "newd3": lambda: Timed(settings=screen)}, "dark_arts")
    games.handle(Hold(Button.NEXT), 0.0)
    to_page(games, "Game")
    games.handle(VOTE, 0.0)                               # the timed game
    assert games.name == "newd3" and games.view(0.0).phase is not Phase.SETTINGS
    games.handle(Hold(Button.VOTE), 0.0)                  # round to One Night
    games.handle(Hold(Button.VOTE), 0.0)                  # and to the Mayor's game
    assert games.name == "dark_arts"
    assert games.view(0.0).title == "Werewolf with a Mayor"   # its setup, not its settings
