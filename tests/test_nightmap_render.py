"""The night's pictures on the box's screen (issue 40, item 6), drawn by
the real painter at 320×240, 480×320 and 800×480 in every language: every
seat's name and card, every center card and every move's number drawn
whole, inside the screen and clear of each other, the title and legend
too. A five-seat table reads at the size floor; a full table of ten may
go below it (said once in the log) but is never cut."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import pygame
import pytest
from test_device_render import check, language, painter  # noqa: F401 (fixtures)
from test_nightmap import named, vote
from test_onenight_phones import NEXT, START, Table

from wolfbox.device.render import render_view
from wolfbox.device.style import LEGEND_Y
from wolfbox.onenight.phones import CENTER, PAIR
from wolfbox.view import View

SIZES = [(320, 240), (480, 320), (800, 480)]


def five() -> Table:
    t = Table(["werewolf", "seer", "robber", "troublemaker", "werewolf"],
              ["villager", "villager", "drunk"])
    named(t, {1: "Ann", 2: "Bo", 4: "Dee", 5: "Eve"})
    t.press(START)
    t.call("seer")
    t.choose(2, PAIR + 12)
    t.call("robber")
    t.choose(3, 5)
    t.call("troublemaker")
    t.choose(4, 1, 2)
    vote(t, {1: 3, 2: 3, 3: 1, 4: 3, 5: 3})
    return t


def ten() -> Table:
    t = Table(["werewolf", "witch", "village_idiot", "villager", "seer", "werewolf",
               "villager", "troublemaker", "robber", "mason"], ["tanner", "hunter", "mason"])
    named(t, {1: "Maximilian", 2: "Bo", 3: "Charlotte", 4: "Dee", 5: "Eve", 6: "Friederike",
              7: "Gus", 8: "Hanna", 9: "Ivo", 10: "Jo"})
    t.press(START)
    t.call("seer")
    t.choose(5, 1)
    t.call("robber")
    t.choose(9, 2)
    t.call("witch")
    t.choose(2, CENTER + 1)
    t.choose(2, 4)
    t.call("troublemaker")
    t.choose(8, 6, 7)
    t.call("village_idiot")
    t.choose(3, 301)
    vote(t, {s: 5 if s != 5 else 1 for s in range(1, 11)})
    return t


def pictures(t: Table) -> Iterator[View]:
    """Every screen of the verdict that holds a picture, NEXT after NEXT."""
    seen = []
    for _page in range(40):
        view = t.f.view(t.now)
        if view.picture is not None:
            seen.append(view)
        t.press(NEXT)
        if t.f.verdict_page == 0:
            break
    assert seen
    return iter(seen)


def words(view: View) -> list[str]:
    """What the picture must show whole: names, cards, center cards, the
    moves' numbers and the key."""
    page = view.picture
    assert page is not None
    out = [s.name for s in page.seats] + [s.card for s in page.seats if s.card]
    out += [c.label for c in page.centers]
    out += sorted({str(a.number) for a in page.arrows if a.number})
    out += [w for _k, w in page.legend]
    return out


def drawn_whole(painter, view: View, size: tuple[int, int]) -> None:  # noqa: F811
    surface = render_view(view, size, "", painter)
    screen = surface.get_rect()
    drawn = painter.drawn
    for d in drawn:
        assert screen.contains(d.rect), f"{d.text!r} at {size}: off the screen"
        assert d.area.contains(d.rect), f"{d.text!r} at {size}: outside its box"
    for a, b in itertools.combinations(drawn, 2):
        assert not a.rect.colliderect(b.rect), f"{a.text!r} overlaps {b.text!r} at {size}"
    shown = [d.text for d in drawn]
    for text in words(view):
        assert any(text in line for line in shown), f"{text!r} not drawn at {size}: {shown}"
    title = [d for d in drawn if d.text == view.title]
    scale = min(size[0] / 480, size[1] / 320)
    above = (size[1] - 320 * scale) / 2
    legend_top = round(above + LEGEND_Y * scale) + math.floor(above)   # as the canvas sets it
    legend = [d for d in drawn if d.area.top >= legend_top - 1]
    assert title and legend
    top, bottom = max(d.rect.bottom for d in title), min(d.area.top for d in legend)
    for d in drawn:
        if d not in title and d not in legend:
            assert top <= d.rect.top and d.rect.bottom <= bottom, \
                f"{d.text!r} at {size} leaves the middle"


@pytest.mark.parametrize("size", SIZES)
def test_five_seats_pictures_read_at_the_floor(painter, size, language):  # noqa: F811
    views = list(pictures(five()))
    assert len(views) == 4
    for view in views:
        check(painter, view, size)           # at the floor, legible, nothing cut
        drawn_whole(painter, view, size)


@pytest.mark.parametrize("size", SIZES)
def test_ten_seats_pictures_are_drawn_whole(painter, size, language):  # noqa: F811
    views = list(pictures(ten()))
    assert len(views) == 4
    for view in views:
        drawn_whole(painter, view, size)


def test_a_picture_is_a_picture(painter):  # noqa: F811
    """Seats round the table: seat 1 at the foot, the boxes apart, arrows
    drawn between them in their colours (not only words on a screen)."""
    view = next(v for v in pictures(five()) if v.picture.arrows and v.picture.centers)
    surface = render_view(view, (480, 320), "", painter)
    names = {d.text: d.rect for d in painter.drawn}
    seat1 = names["Ann"]
    assert all(seat1.centery >= names[n].centery for n in ("Bo", "Seat 3", "Dee", "Eve"))
    swap_orange = (245, 150, 60)
    pixels = pygame.PixelArray(surface)
    orange = sum(1 for x in range(surface.get_width()) for y in range(surface.get_height())
                 if surface.unmap_rgb(pixels[x, y])[:3] == swap_orange)
    del pixels
    assert orange > 50                       # the Troublemaker's swap, drawn


@pytest.mark.parametrize("make", [five, ten], ids=["five", "ten"])
def test_each_seat_keeps_its_place_from_picture_to_picture(painter, make):  # noqa: F811
    """The table keeps its shape: a seat's name is drawn in (nearly) the
    same place on every picture, so a table follows a player from the deal
    to the vote."""
    places: dict[str, list[pygame.Rect]] = {}
    for view in pictures(make()):
        render_view(view, (480, 320), "", painter)
        names = {s.name for s in view.picture.seats}
        for d in painter.drawn:
            if d.text in names:
                places.setdefault(d.text, []).append(d.area)    # its line in its box
    assert len(places) >= 5 and all(len(r) == 4 for r in places.values())

    def same(values: list[int], by: int = 2) -> bool:
        return max(values) - min(values) <= by

    # Each box keeps its outer edge at a side, or its middle in the head
    # and the foot (a box is as wide as its words), and its height to a
    # line (a box of a name alone is a line shorter than one with a card).
    moved = {name: areas for name, areas in places.items()
             if not same([a.top for a in areas], 30)
             or not any(same([edge(a) for a in areas]) for edge in (
                 lambda a: a.left, lambda a: a.right, lambda a: a.centerx))}
    assert not moved, moved


@pytest.mark.parametrize("size", SIZES)
def test_the_timed_games_night_is_drawn_whole_at_its_end(painter, size, language):  # noqa: F811
    from test_newd3_game import A1, finish_night, play_night, resumed

    from wolfbox.buttons import Button
    from wolfbox.newd3.model import Stage
    table = resumed("night", A1, dead=(5, 6, 7, 8), night=2)
    play_night(table, {"alchemist": 3, "seer": 1, "guard": 3}, victims=[9], knives=[1])
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.END)
    drawn = []
    for _page in range(4):
        view = table.view()
        if view.picture is not None:
            drawn.append(view)
            check(painter, view, size)
            drawn_whole(painter, view, size)
        table.tap(Button.NEXT)
    assert drawn
