"""No two buttons on one screen share a label (issue 19, item 14).

Four buttons under one screen: if two of them say the same ("Next" on the
language page's VOTE and on NEXT), or words that read alike ("Previous"
and "Back" in the referee), the table cannot tell which to press. Every
screen the screenshots show, in each language, and every screen a long
seeded walk through each game reaches, is checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.config import Config
from wolfbox.device.screenshots import round_views
from wolfbox.i18n import speaking
from wolfbox.mode import Mode
from wolfbox.onenight.flow import Flow
from wolfbox.view import View

# English words that a table reads as the same thing.
READ_ALIKE = ({"back", "previous"},)


def clashes(view: View) -> list[str]:
    """What two buttons of `view` say alike: a label both show (tapped or
    held), or two labels whose words read alike."""
    said: dict[Button, set[str]] = {}
    for button, label in (*view.legend, *view.holds):
        if button in GAME_BUTTONS and label.strip():
            said.setdefault(button, set()).add(" ".join(label.casefold().split()))
    out = []
    buttons = list(said)
    for i, a in enumerate(buttons):
        for b in buttons[i + 1:]:
            out += [f"{a.value} and {b.value} both say {label!r}" for label in said[a] & said[b]]
            for alike in READ_ALIKE:
                if said[a] & alike and said[b] & alike and said[a] & alike != said[b] & alike:
                    out.append(f"{a.value} {sorted(said[a])} reads like {b.value} "
                               f"{sorted(said[b])}")
    return out


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_no_screen_of_the_screenshots_has_two_buttons_alike(lang):
    with speaking(lang):
        found = [f"{name}: {c}" for name, view, _n in round_views(Config())
                 for c in clashes(view)]
    assert not found, found


def walk(mode: Mode, seed: int, steps: int = 1500) -> Iterator[View]:
    """Every screen of a seeded random walk through a game: its setup or
    settings first, item by item, then taps, holds and time."""
    rng = random.Random(seed)
    now = 0.0
    yield mode.view(now)
    for _i in range(30):                           # the start screen's pages or items
        mode.handle(Tap(Button.NEXT), now)
        yield mode.view(now)
    for _i in range(steps):
        roll = rng.random()
        if roll < 0.6:
            mode.handle(Tap(rng.choice(GAME_BUTTONS)), now)
        elif roll < 0.7:
            mode.handle(Hold(rng.choice((Button.NEXT, Button.VOTE))), now)
        else:
            due = mode.next_change(now)
            now = due if due is not None and rng.random() < 0.8 else now + rng.uniform(0, 20)
            mode.tick(now)
        yield mode.view(now)


def one_night_settings(seed: int) -> Flow:
    flow = Flow.from_config(Config(), has_brightness=bool(seed % 2))
    flow.handle(Hold(Button.NEXT), 0.0)            # the settings, item by item first
    return flow


def mayors_game(seed: int) -> Mode:
    from wolfbox.darkarts.game import Game, Options
    return Game(options=Options(scale=0.5), players=9,
                chosen={"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1})


def timed_game(seed: int) -> Mode:
    from wolfbox.newd3.game import Game
    return Game(choice="A1", rng=random.Random(seed))


GAMES: list = [
    pytest.param(lambda seed: Flow.from_config(Config()), id="one-night"),
    pytest.param(one_night_settings, id="one-night-settings"),
    pytest.param(mayors_game, id="mayor"),
    pytest.param(timed_game, id="timed"),
]


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("make", GAMES)
def test_no_screen_of_a_game_has_two_buttons_alike(make: Callable[[int], Mode], lang):
    found: dict[str, str] = {}
    with speaking(lang):
        for seed in range(3):
            for view in walk(make(seed), seed):
                for c in clashes(view):
                    found.setdefault(c, view.title)
    assert not found, found
