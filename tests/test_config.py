"""Configuration: defaults, every kind of bad input, one line each."""

from __future__ import annotations

import math
import os
import tomllib

import pytest

from wolfbox.config import Config, ConfigError, defaults_toml, from_dict, load
from wolfbox.onenight.deck import DeckError, check_deck, parse_deck


def test_no_file_means_the_built_in_defaults():
    c = load(None)
    assert c == Config()
    assert c.game.discussion_seconds == 300 and c.game.warnings == [60, 10]
    assert c.buttons.hold_seconds == 2.0


def test_a_file_overrides_only_what_it_names(tmp_path):
    p = tmp_path / "box.toml"
    p.write_text('[game]\ndiscussion_seconds = 240\n[keys]\nvote = "return"\n'
                 '[night.action_seconds]\nseer = 15\n')
    c = load(p)
    assert c.game.discussion_seconds == 240.0
    assert c.keys.vote == ["return"]
    assert c.night.action_seconds == {"seer": 15.0}
    assert c.game.warnings == [60, 10]


def test_the_printed_defaults_load_back_to_the_defaults(tmp_path):
    p = tmp_path / "defaults.toml"
    p.write_text(defaults_toml())
    assert load(p) == Config()
    assert set(tomllib.loads(defaults_toml())) == {"box", "game", "night", "mayor", "timed",
                                                   "buttons", "leds", "hardware", "keys",
                                                   "screen", "voice", "sound", "phones"}


@pytest.mark.parametrize("data, message", [
    ({"gme": {}}, "unknown key 'gme' (allowed: box, game, mayor, timed, night, buttons, "
                  "leds, hardware, keys, screen, voice, sound, phones)"),
    ({"phones": {"listen": ["8.8.8.8"]}}, 'phones.listen: "8.8.8.8" is not an address of the '
                                          "local network (allowed: private, link-local or "
                                          "loopback IP addresses, such as 192.168.1.20)"),
    ({"phones": {"listen": ["0.0.0.0"]}}, 'phones.listen: "0.0.0.0" is not an address'),
    ({"phones": {"listen": ["wolfbox.local"]}}, 'phones.listen: "wolfbox.local" is not an '),
    ({"phones": {"port": 70000}}, "phones.port must be between 0 and 65535, got 70000"),
    ({"lang": "fr"}, 'box.lang must be one of en, de, zh; got "fr"'),
    ({"box": {"lang": 3}}, "box.lang must be"),
    ({"timed": {"kill_seconds": 2}}, "timed.kill_seconds must be between 5 and 120, got 2"),
    ({"mayor": {"hands_seconds": 9}}, "mayor.hands_seconds must be between 3 and 5, got 9"),
    ({"mayor": {"action_seconds": {"robber": 5}}}, "mayor.action_seconds: unknown call "
                                                   "'robber' (allowed: matchmaker, lovers"),
    ({"game": {"discusion_seconds": 3}}, "unknown key 'game.discusion_seconds'"),
    ({"game": {"discussion_seconds": "five"}}, "game.discussion_seconds must be a number, "
                                               'got "five"'),
    ({"game": {"discussion_seconds": True}}, "game.discussion_seconds must be a number"),
    ({"game": {"discussion_seconds": 0}}, "game.discussion_seconds must be between 1 and 3600"),
    ({"game": {"warnings": 60}}, "game.warnings must be a list of whole numbers"),
    ({"game": {"warnings": [60, 1.5]}}, "game.warnings[1] must be a whole number"),
    ({"game": 5}, "'game' must be a table ([game])"),
    ({"buttons": {"start": 40}}, "buttons.start must be between 0 and 27, got 40"),
    ({"buttons": {"start": 13}}, "buttons.next and buttons.start both use pin 13"),
    ({"leds": {"vote": 5}}, "leds.vote and buttons.start both use pin 5"),
    ({"buttons": {"power": 28}}, "buttons.power must be between -1 and 27"),
    ({"hardware": {"screen": "spi"}, "buttons": {"start": 17}},
     "buttons.start = 17: that pin is used by the SPI screen"),
    ({"hardware": {"audio": "i2s"}, "leds": {"next": 18}},
     "leds.next = 18: that pin is used by the I2S audio board"),
    ({"buttons": {"back": 0}}, "buttons.back = 0: that pin is used by the HAT EEPROM"),
    ({"hardware": {"pin_factory": "wiringpi"}}, "hardware.pin_factory must be one of auto, "
                                                "lgpio, rpigpio, native, mock"),
    ({"screen": {"display": "tv"}}, "screen.display must be one of auto, window, fullscreen, "
                                    "headless; got \"tv\""),
    ({"phones": {"network": "hotspot"}}, 'phones.network must be one of auto, own, home; '
                                         'got "hotspot"'),
    ({"night": {"action_seconds": {"ser": 5}}}, "unknown role 'ser' (did you mean 'seer'?)"),
    ({"night": {"action_seconds": {"seer": "x"}}}, "night.action_seconds.seer must be a number"),
    ({"voice": {"enabled": "yes"}}, 'voice.enabled must be true or false, got "yes"'),
    # nan and inf pass every range check unless refused outright
    ({"game": {"discussion_seconds": math.nan}},
     "game.discussion_seconds must be a finite number, got nan"),
    ({"leds": {"brightness": math.nan}}, "leds.brightness must be a finite number, got nan"),
    ({"night": {"scale": math.inf}}, "night.scale must be a finite number, got inf"),
    ({"voice": {"volume": -math.inf}}, "voice.volume must be a finite number, got -inf"),
    ({"night": {"action_seconds": {"seer": math.nan}}},
     "night.action_seconds.seer must be a finite number, got nan"),
    # values are quoted as the file spells them
    ({"sound": {"ambience": "True"}}, 'sound.ambience must be true or false, got "True"'),
    ({"game": {"players": True}}, "game.players must be a whole number, got true"),
    ({"game": {"warnings": [60, 400]}},
     "game.warnings: 400 seconds left is not within a discussion of 300.0 seconds"),
])
def test_bad_values_name_the_key_and_what_is_allowed(data, message):
    with pytest.raises(ConfigError) as e:
        from_dict(data)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_file_problems_are_one_line_errors(tmp_path):
    with pytest.raises(ConfigError, match="config file not found: .*nope.toml"):
        load(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(bad)
    with pytest.raises(ConfigError, match="is a directory"):
        load(tmp_path)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError):
        load(binary)


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Issue 29.16: Notepad's "UTF-8" starts the file with a BOM, which
    TOML called an "Invalid statement": the mark is no part of the text."""
    path = tmp_path / "box.toml"
    path.write_bytes("\ufeff[box]\nlang = \"de\"\n[game]\ndiscussion_seconds = 240\n"
                     .encode("utf-8"))
    config = load(path)
    assert config.box.lang == "de"
    assert config.game.discussion_seconds == 240
    assert "game.discussion_seconds" in config.from_file
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf[box]\n")      # one mark, not any number
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(path)


def test_parse_deck_is_forgiving_about_spacing_and_case():
    assert parse_deck(" Werewolf, werewolf ,SEER,robber,,troublemaker,villager ") == \
        ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]
    with pytest.raises(DeckError, match="the deck is empty"):
        parse_deck(" , ")


@pytest.mark.parametrize("deck, message", [
    ("werewolf,werewolf,seer,robber,troublemaker,villagr",
     "unknown role 'villagr' (did you mean 'villager'?)"),
    ("werewolf,werewolf,werewolf,seer,robber,troublemaker", "3 × werewolf: the game has only 2"),
    ("werewolf,seer,robber,villager,villager", "a deck needs at least 6 cards"),
])
def test_deck_errors(deck, message):
    with pytest.raises(DeckError) as e:
        check_deck(parse_deck(deck))
    assert message in str(e.value)


def test_deck_with_player_count():
    deck = parse_deck("werewolf,werewolf,seer,robber,troublemaker,villager")
    assert check_deck(deck, players=3) == []
    with pytest.raises(DeckError, match="4 players need 7 cards"):
        check_deck(deck, players=4)
    assert "no werewolf" in check_deck(["seer", "robber", "troublemaker", "villager",
                                        "villager", "villager"])[0]


def test_a_huge_bad_value_is_not_echoed_whole():
    with pytest.raises(ConfigError) as e:
        from_dict({"screen": {"display": "x" * 100_000}})
    message = str(e.value)
    assert message.startswith("screen.display must be one of auto, window, fullscreen")
    assert len(message) < 200


def test_nan_in_a_real_toml_file_is_refused(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text("[game]\ndiscussion_seconds = nan\n")
    with pytest.raises(ConfigError, match="finite number, got nan"):
        load(path)


def test_a_short_discussion_drops_default_warnings_it_has_no_room_for():
    config = from_dict({"game": {"discussion_seconds": 30}})
    assert config.game.warnings == [10]


@pytest.mark.parametrize("make, fragment", [
    (lambda p: os.mkfifo(p), "not a regular file"),
    (lambda p: p.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n"), "nested too deeply"),
    (lambda p: p.write_text("#" * 300_000), "larger than 256 KiB"),
    (lambda p: p.write_bytes(b"\xff\xfe[game]\n"), "not a UTF-8 text file"),
])
def test_a_config_path_that_is_no_config_file_is_one_line(tmp_path, make, fragment):
    path = tmp_path / "box.toml"
    make(path)
    with pytest.raises(ConfigError, match=fragment):
        load(path)


def test_a_game_brings_its_own_section_with_its_defaults_and_checks(monkeypatch):
    """The configuration knows no game: a game registers its table, whose
    keys are checked like the box's own and whose checks run on loading
    (a fourth game needs no change to wolfbox.config)."""
    from dataclasses import dataclass

    from wolfbox import config as configuration

    @dataclass
    class FourthConfig:
        rounds: int = configuration._c(3, "rounds to play", min=1, max=9)
        fast: bool = configuration._c(False, "shorter nights")

    def check(config) -> None:
        if config.part(FourthConfig).fast and config.part(FourthConfig).rounds > 5:
            raise ConfigError("fourth.fast: at most 5 rounds")

    monkeypatch.setattr(configuration, "_SECTIONS", dict(configuration._SECTIONS))
    configuration.register(configuration.Section("fourth", FourthConfig, check))
    assert Config().fourth.rounds == 3                       # its default
    loaded = from_dict({"fourth": {"rounds": 5, "fast": True}})
    assert loaded.part(FourthConfig) == FourthConfig(5, True)
    assert "fourth.rounds" in loaded.from_file
    with pytest.raises(ConfigError, match=r"fourth.rounds must be between 1 and 9, got 10"):
        from_dict({"fourth": {"rounds": 10}})
    with pytest.raises(ConfigError, match="fourth.fast: at most 5 rounds"):
        from_dict({"fourth": {"rounds": 6, "fast": True}})
    assert "[fourth]\n# rounds to play\nrounds = 3" in defaults_toml()
