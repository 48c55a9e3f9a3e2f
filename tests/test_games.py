"""Switching between the box's games: pure, with stand-in modes."""

from __future__ import annotations

from dataclasses import dataclass, field

from wolfbox.buttons import Button, Tap
from wolfbox.effects import ChangeSetting, Effect
from wolfbox.games import Games
from wolfbox.roster import game_name, names
from wolfbox.view import Phase, View


@dataclass
class Stub:
    name: str
    out: list[Effect] = field(default_factory=list)
    taps: int = 0
    changed: list[str] = field(default_factory=list)

    def setting_changed(self, key):
        self.changed.append(key)
        return []

    def handle(self, event, now):
        self.taps += 1
        return list(self.out)

    def tick(self, now):
        return []

    def next_change(self, now):
        return None

    def view(self, now):
        return View(phase=Phase.IDLE, title=self.name)

    def busy(self):
        return False


def test_a_change_of_game_switches_and_a_game_left_is_found_as_it_was():
    made: list[str] = []
    one, two = Stub("one"), Stub("two")

    def maker(stub):
        def make():
            made.append(stub.name)
            return stub
        return make
    games = Games({"one_night": maker(one), "dark_arts": maker(two)}, "one_night")
    assert games.view(0).title == "one"
    one.out = [ChangeSetting("game.mode", "dark_arts")]
    games.handle(Tap(Button.VOTE), 0)
    assert games.name == "dark_arts" and games.view(0).title == "two"
    two.out = [ChangeSetting("game.mode", "one_night")]
    games.handle(Tap(Button.VOTE), 0)
    assert games.view(0).title == "one" and one.taps == 1
    assert made == ["one", "two"]                       # each built once


def test_an_unknown_game_falls_back_to_the_first_and_names_are_translated():
    games = Games({"one_night": lambda: Stub("one")}, "chess")
    assert games.name == "one_night"
    assert names() == ("one_night", "dark_arts", "newd3")
    assert game_name("dark_arts") == "Werewolf with a Mayor"


def test_a_setting_changed_in_one_game_reaches_the_others_already_built():
    """The games share the box's settings: one changed from the timed game's
    setup is followed by One Night (built, left) at once, not by the game
    that changed it twice."""
    one, two = Stub("one"), Stub("two")
    games = Games({"one_night": lambda: one, "dark_arts": lambda: two}, "one_night")
    games.view(0)
    one.out = [ChangeSetting("game.mode", "dark_arts")]
    games.handle(Tap(Button.VOTE), 0)
    two.out = [ChangeSetting("voice.length_scale", 0.9)]
    games.handle(Tap(Button.VOTE), 0)
    assert one.changed == ["voice.length_scale"]
    assert two.changed == []                          # it followed its own change itself
