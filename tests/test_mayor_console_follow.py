"""Issue 42.4: the Mayor's console dropped its first tap when the book was
open across a change of stage (the night ending under it): the box's
screen (the book) looked the same, so the phones were not sent a new view,
the console kept the old step, and its tap was refused as one from a
console that has changed. Every phone's view follows the game, not only
the box's screen: a console whose step changed has it at once."""

from __future__ import annotations

import json

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts import console
from wolfbox.darkarts.game import Stage

MAYOR = 8                                   # the console: the seat after a table of seven


def published(pilot, seat: int) -> dict:
    """The view the box last gave the server for `seat` (before sealing)."""
    pilot.settle()
    link = pilot.parts.phones.phones
    views = link.server._views
    return json.loads(views[seat])


def test_the_console_has_the_new_step_when_the_night_ends_under_the_open_book(
        tmp_path, pilots):
    config = phones_config(tmp_path, "dark_arts")
    pilot = pilots.start(config)
    game = pilot.box.flow.active
    pilot.press(Button.START)                            # the Mayor deals by hand: night 1
    pilot.until(lambda: game.stage is Stage.NIGHT, limit=60)
    pilot.press(Button.NEXT, hold=config.buttons.hold_seconds + 0.1)
    assert game.reading                                  # the book, over the night
    shown = pilot.view
    pilot.until(lambda: game.stage is Stage.LOVERS, limit=600, step=1.0)
    assert game.reading and pilot.view.title == shown.title     # the box still shows the book
    task = published(pilot, MAYOR)["task"]
    assert task is not None and task["step"] == console.step(game)
