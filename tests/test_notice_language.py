"""The start screen's notices follow a language chosen on the box (issue
19.12), and `wolfbox run --mode dark_arts --players N` starts the Mayor's
setup at N (19.16): the real box on a fake clock."""

from __future__ import annotations

import pytest
from pilot import Pilot

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.device import notices
from wolfbox.i18n import speaking
from wolfbox.view import Phase


@pytest.fixture
def box_for(tmp_path, pilots):
    def make(config: Config) -> Pilot:
        config.voice.cache_dir = str(tmp_path / "cache")
        return pilots.start(config, fill=False, warm=False)
    return make


def to_language_page(pilot: Pilot) -> None:
    pilot.press(Button.NEXT, hold=2.1)
    assert pilot.box.flow.active.phase is Phase.SETTINGS
    for _ in range(15):
        if pilot.view.details[0] in ("Language", "Sprache", "语言"):
            return
        pilot.press(Button.NEXT)
    raise AssertionError("no language page")


def test_no_sound_is_said_in_the_language_chosen_on_the_box(box_for, monkeypatch):
    """A box with no sound card starts in English; the table picks German,
    then Chinese, on the settings screen: the notice follows each time."""
    monkeypatch.setattr("wolfbox.device.app.open_mixer", lambda rate: "no sound card here")
    pilot = box_for(Config())
    assert pilot.box.notice == "No sound: captions only"
    to_language_page(pilot)
    pilot.press(Button.VOTE)                          # English -> Deutsch
    assert pilot.view.big == "Deutsch"
    assert pilot.box.notice == "Kein Ton: nur Text"
    pilot.press(Button.VOTE)                          # Deutsch -> 中文
    assert pilot.box.notice == "没有声音：仅显示字幕"
    pilot.press(Button.VOTE)                          # back to English
    assert pilot.box.notice == "No sound: captions only"


def test_a_notice_not_of_the_box_keeps_its_words():
    with speaking("de"):
        assert notices.reworded(("No sound: captions only", "disk /x; is odd")) == \
            ("Kein Ton: nur Text", "disk /x; is odd")
        assert notices.reworded(()) == ()


def test_the_mayors_setup_starts_at_the_players_asked_for(box_for):
    config = Config()
    config.game.mode = "dark_arts"
    config.mayor_players = 11
    pilot = box_for(config)
    assert pilot.view.big == "11" and pilot.view.details[0] == "Players"
    assert "3× Werewolf" in pilot.view.details[1]       # a first setup for eleven
    plain = box_for(Config())
    assert plain.box.flow.name == "one_night"
