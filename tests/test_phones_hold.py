"""The phones' screen on a hold of START (issue 40): in every phase of every
game, the Mayor's day included, a table with phones on reaches the screen
with the QR code, the address and the PIN, and comes back to the game as
it was. No game's own button tables hold START, so the hold collides with
nothing they do; over a night it frees no seat.

The games are walked through every screen the screenshots take
(device/screenshots.round_views: a whole game of each kind) and, at each
screen the game draws, a `Games` with phones on is put round the game as
it stands and the hold tried."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from helpers import phones_config
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as MayorGame
from wolfbox.darkarts.model import Stage as MayorStage
from wolfbox.device import screenshots
from wolfbox.effects import FreeSeat
from wolfbox.events import PhonesSeated
from wolfbox.games import Games
from wolfbox.newd3.game import Game as TimedGame
from wolfbox.newd3.model import Stage as TimedStage
from wolfbox.onenight.flow import Flow
from wolfbox.view import Phase, View

HOLD = 2.0           # longer than the box's hold time
SEATED = PhonesSeated(frozenset({1, 2}), ((1, "Ann"), (2, "Bo")))


def try_the_hold(game: object, now: float, own: View) -> None:
    """At this moment of `game`: START is free in its own tables, a hold of
    START opens the phones' screen, and START's tap there gives the game
    back untouched."""
    assert Button.START not in dict(own.holds), (own.title, own.holds)
    games = Games({"g": lambda: game}, "g", phones_on=True)   # type: ignore[arg-type,return-value]
    shown = games.view(now)
    assert dict(shown.holds).get(Button.START) == "Hold: phones", (own.title, shown.holds)
    # The legend says what START does: its tap, or the hold where it has none.
    assert Button.START in dict(shown.legend) or own.dim, (own.title, shown.legend)
    assert games.handle(Hold(Button.START), now) == []
    assert games.phones_screen_open, own.title
    phones = games.view(now)
    assert phones.details[0] == "Phones" and not phones.private, phones
    games.handle(Tap(Button.START), now)
    assert not games.phones_screen_open
    assert games.view(now) == shown, own.title


@pytest.fixture
def walked(monkeypatch) -> Iterator[dict[str, set[str]]]:
    """Every phase (One Night) or stage (the other two) at which a game
    drew a screen while the screenshots played it, each hold tried there."""
    seen: dict[str, set[str]] = {"one_night": set(), "dark_arts": set(), "newd3": set()}
    busy = [False]

    def watch(cls: type, name: str, where) -> None:
        original = cls.view

        def view(self, now: float) -> View:
            own = original(self, now)
            if not busy[0]:
                busy[0] = True
                try:
                    try_the_hold(self, now, own)
                    seen[name].add(where(self) + (" paused" if own.paused else ""))
                finally:
                    busy[0] = False
            return own
        monkeypatch.setattr(cls, "view", view)
        # Each press and tick looked at: a stage passed between two presses
        # of the screenshots' own is tried too.
        for method in ("handle", "tick"):
            monkeypatch.setattr(cls, method, looked_at(getattr(cls, method)))

    def looked_at(original):
        def run(self, *args):
            effects = original(self, *args)
            self.view(args[-1])
            return effects
        return run

    watch(Flow, "one_night", lambda flow: str(flow.phase))
    watch(MayorGame, "dark_arts", lambda game: str(game.stage))
    watch(TimedGame, "newd3", lambda game: str(game.stage))
    yield seen


def test_every_phase_of_every_game_opens_the_phones_screen_on_a_hold_of_start(walked):
    for _name, _view, _notice in screenshots.round_views(Config()):
        pass
    # A pause of the two games whose screenshots show none: the Mayor's
    # night, the timed game's day.
    mayor = screenshots._Drive(MayorGame(rng=random.Random(1)))
    mayor.tap(Button.START)
    mayor.run(lambda: Button.START in dict(mayor.view().legend))
    timed = screenshots._Drive(TimedGame(rng=random.Random(1)))
    timed.tap(Button.START)
    timed.run(lambda: timed.mode.stage is TimedStage.DISCUSSION)   # type: ignore[attr-defined]
    for drive in (mayor, timed):
        drive.tap(Button.START)
        assert drive.view().paused
    # The Mayor's deal to the phones (a phone at every seat): its look window.
    dealing = screenshots._Drive(MayorGame(rng=random.Random(1)))
    players = dealing.mode.players                      # type: ignore[attr-defined]
    dealing.mode.handle(PhonesSeated(frozenset(range(1, players + 2))), dealing.now)
    dealing.tap(Button.START)
    assert dealing.mode.stage is MayorStage.DEAL        # type: ignore[attr-defined]
    assert walked["one_night"] >= {str(p) for p in (
        Phase.IDLE, Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE, Phase.REVEAL, Phase.REFEREE,
        Phase.VERDICT, Phase.SETTINGS)} | {f"{Phase.DISCUSSION} paused"}
    # Every stage but a saved game's question (the same screen as a setup's).
    assert walked["dark_arts"] >= {str(s) for s in MayorStage if s is not MayorStage.RESUME}
    assert any(s.endswith("paused") for s in walked["dark_arts"])
    assert walked["newd3"] >= {str(s) for s in TimedStage if s is not TimedStage.RESUME}
    assert any(s.endswith("paused") for s in walked["newd3"])


def test_over_a_night_the_phones_screen_shows_the_card_but_frees_no_seat():
    """Eyes closed, whoever holds the buttons could free a sleeper's seat
    and read its card on a phone of their own: the screen opens (a dead
    phone joins again with the code) but frees seats only by day or in a
    pause, when the table stops for it."""
    games = Games({"dark_arts": lambda: MayorGame(rng=random.Random(1))}, "dark_arts",
                  phones_on=True)
    games.handle(SEATED, 0.0)
    games.handle(Tap(Button.START), 0.0)                     # night falls
    assert games.view(1.0).dim
    games.handle(Hold(Button.START), 1.0)
    night = games.view(1.0)
    assert night.details[0] == "Phones" and Button.VOTE not in dict(night.holds)
    assert games.handle(Hold(Button.VOTE), 1.0) == []
    assert games.handle(Hold(Button.VOTE), 1.0) == []         # twice: still nobody freed
    games.handle(Tap(Button.START), 1.0)
    games.handle(Tap(Button.START), 1.0)                      # paused: the table stops
    games.handle(Hold(Button.START), 1.0)
    assert Button.VOTE in dict(games.view(1.0).holds)
    games.handle(Hold(Button.VOTE), 1.0)
    assert games.handle(Hold(Button.VOTE), 1.0) == [FreeSeat(1)]


def test_phones_off_start_taps_as_it_goes_down(tmp_path, pilots):
    """Without phones nothing is offered on START's hold: START starts the
    game as it goes down, as quick as before, and a long press is a tap."""
    pilot = pilots.start(phones_config(tmp_path, "dark_arts", on=False))
    pilot.settle()
    assert Button.START not in dict(pilot.view.holds)
    pilot.bank.drive(Button.START, True)
    pilot.settle()
    assert not pilot.view.between                             # started, still down
    pilot.advance(HOLD)
    pilot.bank.drive(Button.START, False)
    pilot.advance(0.1)
    assert not pilot.view.between and not pilot.view.paused   # one tap, no hold


def test_on_the_box_a_hold_of_start_opens_the_phones_screen_and_a_tap_still_starts(
        tmp_path, pilots):
    """The real buttons (the classifier): START held opens the phones'
    screen with the join card; a short press starts the game as before."""
    pilot = pilots.start(phones_config(tmp_path, "dark_arts"))
    pilot.settle()
    pilot.press(Button.START, hold=HOLD)
    assert pilot.view.details[0] == "Phones" and pilot.view.join is not None
    pilot.press(Button.START)                                 # done
    assert pilot.view.between
    pilot.press(Button.START)                                 # a tap: the game begins
    assert not pilot.view.between
    assert dataclasses.replace(pilot.view).details[:1] != ("Phones",)
