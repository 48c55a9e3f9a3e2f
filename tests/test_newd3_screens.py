"""The timed game's screens read from across the table (issue 19, item 13).

Each screen is drawn by the real painter at 480×320 and 320×240, in each of
the box's languages, and every line of text it drew is checked: capitals at
least 16 px tall at 480×320 (16 × scale at other sizes) and a contrast of at
least 4.5:1 (WCAG AA) against what is around it, measured on the pixels.
The screens are the README's pictures (device/screenshots.py) and the ones
those leave out: the setup with VOTE held (the legend shows the hold), the
vote as it opens (its long call), a refused seat, a tie in the kill.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator

import pygame
import pytest

from helpers import LANGS
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import timed_views
from wolfbox.i18n import speaking
from wolfbox.newd3.game import Game, Stage
from wolfbox.view import View

SIZES = [(480, 320), (320, 240)]
CAP = 16                     # px at 480×320: the smallest capitals the table reads
AA = 4.5                     # WCAG AA for text
A1 = ["wolf", "alchemist", "seer", "guard"] + ["sheep"] * 5


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    pygame.display.init()
    pygame.font.init()
    yield Painter()


def luminance(color: tuple[int, ...]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = color[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def problems(painter: Painter, view: View, size: tuple[int, int]) -> list[str]:
    """Every line drawn under the size floor or under AA contrast. A line's
    ground is the commonest colour in its ink's box; its ink, the colour
    there that stands out most from the ground."""
    surface = render_view(view, size, "", painter)
    s = min(size[0] / 480, size[1] / 320)
    # The alert is drawn in a box over the middle on purpose: what lies
    # under its box is hidden until the next press, not read.
    over = [d.rect for d in painter.drawn if d.layer == 1]
    box = over[0].unionall(over).inflate(2 * size[0], round(24 * s)) if over else None
    out = []
    for d in painter.drawn:
        if box is not None and d.layer == 0 and box.colliderect(d.rect):
            continue
        cap = painter.font(d.px, d.face).render("H", (255, 255, 255)) \
            .get_bounding_rect().height
        if cap < CAP * s:
            out.append(f"{d.text!r} at {size}: capitals {cap} px")
        colours = Counter(tuple(surface.get_at((x, y)))[:3]
                          for x in range(d.rect.left, d.rect.right)
                          for y in range(d.rect.top, d.rect.bottom))
        ground = colours.most_common(1)[0][0]
        ink = max(colours, key=lambda c: abs(luminance(c) - luminance(ground)))
        if contrast(ink, ground) < AA:
            out.append(f"{d.text!r} at {size}: contrast {contrast(ink, ground):.2f}")
    return out


def extra_views() -> Iterator[tuple[str, View]]:
    """The screens the README's pictures leave out."""
    game = Game(choice="A1", rng=random.Random(1))
    yield "setup, VOTE held", dataclasses.replace(game.view(0.0), held=Button.VOTE,
                                                  held_progress=0.5)
    game = Game.from_dict({"version": 1, "stage": "discussion", "choice": "", "setup": "A1",
                           "seats": A1, "dead": {"5": "sheep"}, "night": 1, "killed": None,
                           "winner": None}, rng=random.Random(1))
    game.handle(Tap(Button.START), 0.0)
    yield "discussion, its first line", game.view(0.5)
    game.handle(Hold(Button.VOTE), 1.0)
    yield "vote, its call", game.view(1.5)
    game = Game.from_dict({"version": 1, "stage": "night", "choice": "", "setup": "A1",
                           "seats": A1, "dead": {}, "night": 2, "killed": None,
                           "winner": None}, rng=random.Random(1))
    now = 0.0
    game.handle(Tap(Button.START), now)
    while not (game.turn_stage == "wait" and game.turns[game.turn_index].id == "kill"):
        next_change = game.next_change(now)
        assert next_change is not None
        now = next_change
        game.tick(now)
    game.handle(Tap(Button.NEXT), now)                 # seat 1, a Wolf: refused
    game.handle(Tap(Button.VOTE), now)
    yield "kill, a seat refused", game.view(now)
    game.handle(Tap(Button.NEXT), now)
    game.handle(Tap(Button.NEXT), now)
    game.handle(Tap(Button.VOTE), now)                 # Wolf 1: seat 3
    game.handle(Tap(Button.START), now)
    game.handle(Tap(Button.START), now)
    for _ in range(4):
        game.handle(Tap(Button.NEXT), now)
    game.handle(Tap(Button.VOTE), now)                 # Wolf 2: seat 5
    yield "kill, a tie", game.view(now)
    game.handle(Hold(Button.BACK), now)
    game.handle(Hold(Button.BACK), now)
    assert game.stage is Stage.END
    yield "ended early", game.view(now)


@pytest.mark.parametrize("lang", LANGS)
def test_every_timed_screen_reads_at_the_floor_and_aa_contrast(painter, lang):
    found = []
    with speaking(lang):
        shots = [(name, view) for name, view, _notice in timed_views()]
        shots += list(extra_views())
        for name, view in shots:
            for size in SIZES:
                found += [f"{name}: {p}" for p in problems(painter, view, size)]
    assert found == []


def test_the_deals_instructions_between_turns_read(painter):
    """Without sound the deal's instructions are only on the screen: they
    must read, not glow 1.2:1 through a veil."""
    views = dict((name, view) for name, view, _n in timed_views())
    view = views["d-timed-deal-dark"]
    assert view.caption.startswith("Seat 1 is the player facing the screen")
    for size in SIZES:
        assert problems(painter, view, size) == []
        assert any(d.text.startswith("Seat 1 is the player") for d in painter.drawn)


def test_the_votes_clock_is_the_big_timer_as_the_call_is_said(painter):
    """The vote's 0:45 is drawn large, as One Night's day timer is, not
    squeezed to small text beside its long call in the ring."""
    view = dict(extra_views())["vote, its call"]
    assert view.big == "0:45" and view.seats == () and view.progress == 1.0
    assert view.caption.startswith("Time to vote.")
    for size in SIZES:
        s = min(size[0] / 480, size[1] / 320)
        assert problems(painter, view, size) == []
        clock = next(d for d in painter.drawn if d.text == "0:45")
        assert clock.rect.height >= 3 * CAP * s, (size, clock.rect)


def test_the_hold_to_change_game_fits_its_box_at_the_floor(painter):
    view = dict(extra_views())["setup, VOTE held"]
    assert "Hold: next game" in dict(view.holds).values()
    for size in SIZES:
        assert problems(painter, view, size) == []
        assert {"Hold: next", "game"} <= {d.text for d in painter.drawn}
