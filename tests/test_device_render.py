"""The screen reads from a metre away and never cuts a word (issue 9).

Every screen is drawn by the real painter at 480×320 and at 320×240 and
checked against what it recorded: each line of text inside its area and
the screen, capitals at least 16 px tall at 480×320 (16 × scale at other
sizes), no two lines on top of each other, and every word of the view
drawn. The texts are the longest the core can give: every narration line,
rule and deck note, paged by wolfbox.pages at its budget.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import logging
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from helpers import LANGS
from wolfbox import pages
from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS, Button
from wolfbox.config import Config
from wolfbox.darkarts.game import Game as MayorGame
from wolfbox.device import painter as painting
from wolfbox.device import style
from wolfbox.device.fonts import CJK_FONTS, FONT_DIR
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screenshots import SPECIAL_DECK, _Drive, notices, round_views
from wolfbox.i18n import _, speaking
from wolfbox.newd3.game import Game as TimedGame
from wolfbox.onenight import lines
from wolfbox.onenight.night import NightOptions, all_lines, setup_notes
from wolfbox.onenight.presets import PRESETS, describe
from wolfbox.onenight.roles import ROLES
from wolfbox.view import Phase, Seat, View

SIZES = [(480, 320), (320, 240)]
CAP = 16                     # px at 480×320: the smallest capitals the table reads
EVERY_ROLE = [r for r in ROLES for _copy in range(ROLES[r].copies)]

START_LEGEND = ((Button.START, "Start"), (Button.VOTE, "Players +1"),
                (Button.NEXT, "Next deck"), (Button.BACK, "Players −1"))
ROUND_LEGEND = ((Button.START, "Pause"), (Button.VOTE, "Vote now"), (Button.NEXT, "+1 min"),
                (Button.BACK, "Hold: end round"))
ROUND_HOLDS = ((Button.BACK, "Hold: end round"),)
REVEAL_LEGEND = ((Button.START, "Done"), (Button.NEXT, "More rules"))
SETTINGS_LEGEND = ((Button.START, "Done"), (Button.VOTE, "Faster"), (Button.NEXT, "Next"),
                   (Button.BACK, "Slower"))
LONG_NOTICES = ["; ".join(pair) for pair in itertools.combinations(notices(), 2)]


@pytest.fixture(params=["en", "de", "zh"])
def language(request) -> Iterator[str]:
    """The test in each of the box's languages: every text drawn in it."""
    with speaking(request.param):
        yield request.param


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    pygame.display.init()
    pygame.font.init()
    yield Painter()


# --------------------------------------------------------------- the checks

def cap_height(painter: Painter, d) -> int:
    """An "H" at the line's font and size, measured by its ink; with Chinese
    in the line, the smaller of that and a "中"."""
    font = painter.font(d.px, d.face)
    probes = ("H", "中") if pages.width(d.text) > len(d.text) else ("H",)
    return min(font.render(c, (255, 255, 255)).get_bounding_rect().height for c in probes)


def relative_luminance(color) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(color[0]) + 0.7152 * linear(color[1]) + 0.0722 * linear(color[2])


def measured_contrast(surface: pygame.Surface, ink: pygame.Rect) -> tuple[float, tuple, tuple]:
    """A line's contrast as it landed on the surface: its ground is the most
    common colour just around its ink, its colour the pixel inside the ink
    that differs most from the ground in brightness (an antialiased edge
    only lowers it)."""
    screen = surface.get_rect()
    around = ink.inflate(4, 4).clip(screen)
    strips = [pygame.Rect(around.left, around.top, around.width, 2),
              pygame.Rect(around.left, around.bottom - 2, around.width, 2),
              pygame.Rect(around.left, around.top, 2, around.height),
              pygame.Rect(around.right - 2, around.top, 2, around.height)]
    ring: collections.Counter = collections.Counter()
    for strip in strips:
        b = pygame.image.tobytes(surface.subsurface(strip.clip(screen)), "RGB")
        ring.update(zip(b[0::3], b[1::3], b[2::3], strict=True))
    ground = ring.most_common(1)[0][0]
    inside = surface.subsurface(ink).copy()   # (grayscale() misreads a subsurface)
    gray = pygame.image.tobytes(pygame.transform.grayscale(inside), "RGB")[0::3]
    g = relative_luminance(ground)
    level = 0.299 * ground[0] + 0.587 * ground[1] + 0.114 * ground[2]
    lighter = max(gray) - level > level - min(gray)
    at = gray.index(max(gray) if lighter else min(gray))
    ink_color = tuple(inside.get_at((at % ink.width, at // ink.width)))[:3]
    light, dark = sorted((relative_luminance(ink_color), g), reverse=True)
    return (light + 0.05) / (dark + 0.05), ink_color, ground


AA = 4.5                     # WCAG AA: the least contrast a text may have


def words(text: str) -> str:
    return " ".join(text.split())


def expected(view: View, notice: str) -> list[str]:
    """Every text of the view the screen must show whole."""
    taps, holds = dict(view.legend), dict(view.holds)
    out = [view.title, view.big, view.alert]
    if not gives_up_footer(view, notice):
        out.append(view.footer)
    for b in GAME_BUTTONS:
        label = taps.get(b) or holds.get(b, "")
        out.append(holds.get(b) or label if view.held is b else label)
    if view.between or view.phase is Phase.IDLE:
        # A start or setup screen says what is wrong with the box (device.notices).
        out += [view.status, *notice.split(";")]
    if view.phase is Phase.IDLE:
        out += view.details
    elif view.phase in (Phase.REVEAL, Phase.SETTINGS, Phase.REFEREE) and not view.seats:
        out += view.details                      # the reveal's caption may give way
    else:
        out.append(_("Paused: press START to resume") if view.paused else view.caption)
    return [words(t) for t in out if t.strip()]


def gives_up_footer(view: View, notice: str) -> bool:
    """A setup screen with a notice may draw it in its footer's place; one
    with a join card, the line saying how to reach the code (where even
    that has no other room: tests/test_join_card.py checks it is there)."""
    return view.between and view.phase is not Phase.IDLE and bool(notice) or \
        view.join is not None


def check(painter: Painter, view: View, size: tuple[int, int], notice: str = "") -> None:
    surface = render_view(view, size, notice, painter)
    screen = surface.get_rect()
    s = min(size[0] / 480, size[1] / 320)
    drawn = painter.drawn
    assert drawn, view
    for d in drawn:
        where = f"{d.text!r} at {size} in {view.phase}"
        assert d.area.contains(d.rect), f"{where}: outside its area {d.area}: {d.rect}"
        assert screen.contains(d.rect), f"{where}: off the screen: {d.rect}"
        assert cap_height(painter, d) >= CAP * s, f"{where}: {d.px} px is under the floor"
    # The alert is drawn over the rest on purpose: what it covers is not read.
    alert = [d.area.inflate(round(24 * s), round(24 * s)) for d in drawn if d.layer]
    for d in drawn:
        if not d.layer and d.rect.collidelist(alert) >= 0:
            continue
        ratio, ink, ground = measured_contrast(surface, d.rect)
        assert ratio >= AA, f"{d.text!r} at {size} in {view.phase}: {ink} on {ground} is " \
            f"{ratio:.2f}:1, under {AA}:1"
    for a, b in itertools.combinations(drawn, 2):
        if a.layer == b.layer:
            assert not a.rect.colliderect(b.rect), f"{a.text!r} overlaps {b.text!r} at {size}"
    # Whole, in order: compared without spaces, since Chinese lines break
    # between characters where the text has no space.
    shown = "".join("".join(d.text.split()) for d in drawn)
    for text in expected(view, notice):
        assert "".join(text.split()) in shown, \
            f"{text!r} is not drawn whole at {size}: {shown!r}"
    if gives_up_footer(view, notice):              # whole, or not at all
        footer = [d for d in drawn if d.text.strip() and d.text.strip() in view.footer]
        assert not footer or "".join(view.footer.split()) in shown, (view.footer, shown)


# ------------------------------------------------------------ a played round

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_every_screen_of_a_round_reads_from_across_the_table(painter, size, lang):
    """Every screen of every game, in each of the box's languages: nothing
    cut, off the screen, overlapping or under the size floor (German's long
    words and Chinese included)."""
    names = []
    with speaking(lang):
        for name, view, notice in round_views(Config()):
            check(painter, view, size, notice)
            names.append(name)
    assert {"1-start", "2-night", "3-discussion", "4-paused", "5-last-seconds", "7-vote",
            "8-reveal", "9-reveal-paged", "9-night-call-paged",
            # The timed game's: the deal, a night turn, the dawn, the vote, the tracker.
            "d-timed-deal-card", "d-timed-night-kill", "d-timed-message-blocked",
            "d-timed-dawn", "d-timed-vote", "d-timed-tally", "d-timed-tracker"} <= set(names)


def setup_screens(make) -> Iterator[View]:
    """Every item of a game's setup screen (NEXT steps through them), each
    at its first few values (VOTE), the held buttons' boxes filled too."""
    drive = _Drive(make())
    first = drive.view().details[0]
    for _item in range(20):
        for _value in range(4):
            view = drive.view()
            yield view
            yield dataclasses.replace(view, held=Button.NEXT, held_progress=0.5)
            drive.tap(Button.VOTE)
        drive.tap(Button.NEXT)
        if drive.view().details[0] == first:
            return
    raise AssertionError("the setup's items never came round")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("make", [MayorGame, TimedGame], ids=["mayor", "timed"])
def test_the_setup_screens_show_what_the_holds_do_in_the_window(painter, make, size,
                                                                  language):
    """The Mayor's and the timed game's setups (REFEREE's layout, not the
    start screen's) show their footer whole, with the rest above it: nothing
    overlapping, cut or under the floor, in every language, at both sizes."""
    views = list(setup_screens(make))
    assert len({v.details[0] for v in views}) > 1
    for view in views:
        assert view.phase is Phase.REFEREE and view.footer
        check(painter, view, size)
        shown = "".join("".join(d.text.split()) for d in painter.drawn)
        assert "".join(view.footer.split()) in shown, (view.footer, shown)


@pytest.mark.parametrize("size", SIZES)
def test_a_footer_shows_in_every_layout(painter, size, language):
    """A view's footer is drawn whole in every phase's layout (the middle,
    the reveal, the settings, the seat ring), above the legend and clear of
    the rest."""
    footer = _("Hold NEXT: settings. Hold VOTE: {game}.").format(game=_("One Night"))
    seats = tuple(Seat(n, cursor=n == 3) for n in range(1, 10))
    views = [
        View(phase=Phase.NIGHT, title="Night", big="0:10", progress=0.5,
             caption=pages.split_text(every_caption()[0], pages.CAPTION_LINES)[0],
             legend=ROUND_LEGEND),
        View(phase=Phase.REVEAL, title="Who won?", details=(_(lines.REVEAL_RULES[0]),),
             caption=_(lines.REVEAL), legend=REVEAL_LEGEND),
        View(phase=Phase.SETTINGS, title="Settings · 3/10",
             details=("Speech speed", "Set by the config file; change it there"),
             big="110 %", progress=0.6, legend=SETTINGS_LEGEND),
        View(phase=Phase.DISCUSSION, title="Day 2", big="4:43", caption="Seat 3 speaks.",
             seats=seats, legend=ROUND_LEGEND),
    ]
    for view in views:
        view = dataclasses.replace(view, footer=footer)
        check(painter, view, size)
        legend_top = min(d.area.top for d in painter.drawn
                         if d.text in dict(view.legend).values())
        lines_of_footer = [d for d in painter.drawn if d.text in footer]
        assert lines_of_footer and all(d.rect.bottom <= legend_top for d in lines_of_footer)


def test_the_timed_games_pictures_show_what_their_names_say():
    """The README's pictures of the timed game are generated by playing it:
    a change to the game must not leave a picture of the wrong screen."""
    from wolfbox.device.screenshots import timed_views
    titles = {name: (view.title, view.big) for name, view, _n in timed_views()}
    assert titles["d-timed-deal-card"][1] == "Wolf"
    assert titles["d-timed-night-kill"][0].startswith("Wolves ·")
    assert titles["d-timed-message-blocked"][1] == "No result"
    assert titles["d-timed-message"][1] == "Wolf"
    assert titles["d-timed-vote"][0] == "Day 2 · Vote"
    assert titles["d-timed-tracker"][0].startswith("Setups still possible")
    assert titles["d-timed-result"][1] == "Out"
    assert titles["d-timed-end"][0].startswith("The Town wins")


@pytest.mark.parametrize("size", SIZES)
def test_the_start_screen_holds_every_notice_with_the_status_and_footer(painter, size, language):
    """Room for: the deck's title, IDLE_LINES of notes, two notices, the
    footer; or one notice and the voice's status. (Two notices and the status
    at once, with a full page of notes, are drawn below the floor: the status
    shows only while the voice is being prepared, so sound works.)"""
    start = next(v for name, v, _n in round_views(Config()) if name == "1-start")
    longest = max(pages.group([describe(EVERY_ROLE), *setup_notes(EVERY_ROLE)],
                              pages.IDLE_LINES), key=lambda p: sum(map(pages.lines_needed, p)))
    assert sum(map(pages.lines_needed, longest)) == pages.IDLE_LINES
    status = _("Preparing the voice: {percent} %").format(percent=40)
    full = (start.details[0], *longest)
    for details in (start.details, full):
        for notice in ["", *notices(), *LONG_NOTICES]:
            for shown in ("", status):
                if shown and ";" in notice and details == full:
                    continue
                view = dataclasses.replace(start, details=details, status=shown,
                                           footer=_("Hold NEXT: settings"))
                check(painter, view, size, notice)


@pytest.mark.parametrize("size", SIZES)
def test_a_held_button_shows_its_hold_and_fills_its_box(painter, size):
    view = View(phase=Phase.IDLE, title="5 players", details=("Classic, 5 players",),
                legend=START_LEGEND, holds=((Button.NEXT, "Hold: settings"),),
                held=Button.NEXT, held_progress=0.5)
    check(painter, view, size)
    surface = render_view(view, size, "", painter)
    texts = " ".join(d.text for d in painter.drawn)
    assert "Hold: settings" in texts and "Next deck" not in texts
    box = next(d.area for d in painter.drawn if d.text.startswith("Hold"))
    filled = surface.get_at((box.left + box.width // 8, box.bottom - 2))[:3]
    empty = surface.get_at((box.right - box.width // 8, box.bottom - 2))[:3]
    assert filled != empty
    check(painter, dataclasses.replace(view, held=None), size)
    assert "Next deck" in " ".join(d.text for d in painter.drawn)


def test_the_legend_is_four_boxes_in_the_buttons_order_and_colours(painter):
    view = View(phase=Phase.REVEAL, title="Who won?", details=("Most votes dies.",),
                legend=((Button.START, "Done"), (Button.NEXT, "Done")))
    surface = render_view(view, (480, 320), "", painter)
    for i, button in enumerate(GAME_BUTTONS):
        x = 4 + i * 119 + 57                   # the middle of its box, on its top edge
        edge = [surface.get_at((x, y))[:3] for y in range(256, 264)]
        lit = BUTTON_COLORS[button] in edge
        assert lit == (button in (Button.START, Button.NEXT)), button
    texts = [d.text for d in painter.drawn]
    assert not any(b.value.upper() in texts for b in GAME_BUTTONS)   # no small names
    assert _("Press START to begin") not in " ".join(texts)


@pytest.mark.parametrize("size", SIZES)
def test_a_hold_with_no_tap_shows_in_its_box_and_labels_wrap_on_two_lines(painter, size):
    view = View(phase=Phase.DISCUSSION, title="Discussion", big="4:43", progress=0.9,
                legend=ROUND_LEGEND[:3], holds=ROUND_HOLDS)
    check(painter, view, size)
    back = [d for d in painter.drawn if d.text in ("Hold: end", "round")]
    assert len(back) == 2 and back[0].rect.bottom <= back[1].rect.top
    check(painter, View(phase=Phase.IDLE, title="5 players", details=("Classic",),
                        legend=START_LEGEND), size)
    players = [d.text for d in painter.drawn if d.text in ("Players", "+1")]
    assert players[:2] == ["Players", "+1"]          # VOTE's box: two lines


@pytest.mark.parametrize("size", SIZES)
def test_paused_urgent_and_the_alert_over_the_nights_veil(painter, size):
    base = View(phase=Phase.NIGHT, title=_("Night · {step}").format(
                    step="Paranormal Investigator"),
                big="0:09", progress=0.3, caption="x", legend=ROUND_LEGEND, holds=ROUND_HOLDS,
                dim=True)
    for view in (base, dataclasses.replace(base, paused=True),
                 dataclasses.replace(base, big="", paused=True),
                 dataclasses.replace(base, urgent=True),
                 dataclasses.replace(base, alert="Press Esc again to end the round")):
        check(painter, view, size)
    paused = dataclasses.replace(base, paused=True, dim=False)
    check(painter, paused, size)
    assert _("PAUSED") in [d.text for d in painter.drawn]


# ------------------------------------------------------------------ budgets

def every_caption() -> list[str]:
    said: set[str] = set()
    for lone in (False, True):
        said |= set(all_lines(NightOptions(lone_wolf=lone)))
    for seconds in (30, 90, 300, 600, 1230):
        said |= {lines.discussion_start(seconds), lines.warning(seconds),
                 lines.added(seconds)}
    said |= {_(lines.REVEAL), *(_(c) for c in lines.COUNTDOWN)}
    return sorted(said, key=len, reverse=True)


def test_the_longest_caption_is_the_doppelgangers_call_with_every_daybreak_role():
    assert every_caption()[0].startswith("Doppelganger")
    assert len(pages.split_text(every_caption()[0], pages.CAPTION_LINES)) > 1


@pytest.mark.parametrize("size", SIZES)
def test_every_caption_page_fits_the_night_with_and_without_the_timer(painter, size, language):
    for text in every_caption():
        for page in pages.split_text(text, pages.CAPTION_LINES):
            view = View(phase=Phase.NIGHT, title=_("Night · {step}").format(
                            step="Paranormal Investigator"),
                        caption=page, progress=0.5, legend=ROUND_LEGEND, holds=ROUND_HOLDS,
                        dim=True)
            check(painter, view, size)
            check(painter, dataclasses.replace(view, big="0:10"), size)


@pytest.mark.parametrize("size", SIZES)
def test_discussion_lines_fit_under_the_timer_which_stays_put(painter, size):
    view = View(phase=Phase.DISCUSSION, title=_("Discussion"), big="1:30", progress=1.0,
                caption=lines.discussion_start(90), legend=ROUND_LEGEND, holds=ROUND_HOLDS)
    check(painter, view, size)
    timer = next(d for d in painter.drawn if d.text == "1:30")
    assert timer.rect.height >= 55 * min(size[0] / 480, size[1] / 320)   # as big as ever
    for caption in ("", lines.warning(60), _("Three.")):
        check(painter, dataclasses.replace(view, caption=caption), size)
        assert next(d for d in painter.drawn if d.text == "1:30").rect == timer.rect


@pytest.mark.parametrize("size", SIZES)
def test_every_reveal_page_fits(painter, size, language):
    rules = lines.reveal_rules(list(SPECIAL_DECK))
    assert set(rules) >= {_(r) for r in lines.REVEAL_RULES} | \
        {_(r) for r in lines.REVEAL_CARD_RULES.values()}      # every rule there is
    shown = pages.group(rules, pages.RULES_LINES)
    for i, page in enumerate(shown):
        view = View(phase=Phase.REVEAL, title=_("Who won? · {page}/{pages}").format(
                        page=i + 1, pages=len(shown)),
                    details=page, caption=_(lines.REVEAL), legend=REVEAL_LEGEND)
        check(painter, view, size)


def deck_pages() -> set[tuple[str, tuple[str, ...]]]:
    """(deck title, page of notes) for every preset at every player count,
    and every card at once (every setup note)."""
    out = set()
    decks = [(_("Your deck"), EVERY_ROLE)]
    for preset in PRESETS.values():
        decks += [(_(preset.title), preset.deck(n)) for n in preset.players()]
    for title, deck in decks:
        for page in pages.group([describe(deck), *setup_notes(deck)], pages.IDLE_LINES):
            out.add((title, page))
    return out


@pytest.mark.parametrize("size", SIZES)
def test_every_deck_and_setup_note_page_fits_the_start_screen(painter, size, language):
    for title, page in sorted(deck_pages()):
        view = View(phase=Phase.IDLE, title="10 players", details=(title, *page),
                    legend=START_LEGEND, holds=((Button.NEXT, "Hold: settings"),),
                    footer=_("Hold NEXT: settings"))
        check(painter, view, size, LONG_NOTICES[0])
        check(painter, dataclasses.replace(
            view, status=_("Preparing the voice: {percent} %").format(percent=40)), size,
            notices()[0])


@pytest.mark.parametrize("size", SIZES)
def test_settings_pages_fit(painter, size):
    speed = View(phase=Phase.SETTINGS, title="Settings · 3/10",
                 details=("Speech speed", "Set by the config file; change it there"),
                 big="110 %", progress=0.6, legend=SETTINGS_LEGEND)
    toggle = dataclasses.replace(speed, title="Settings · 10/10",
                                 details=("Ambience at night",), big="On", progress=None)
    reset = View(phase=Phase.SETTINGS, title="Settings · 10/10",
                 details=("Reset to defaults", "Press VOTE again to reset every setting."),
                 legend=((Button.START, "Done"), (Button.VOTE, "Yes, reset"),
                         (Button.NEXT, "Next")))
    most = dataclasses.replace(speed, details=(
        "Warnings before the end of the discussion",
        *pages.split_text("Set by the config file; change it there. " * 4,
                          pages.SETTING_LINES)[:1]), big="2:00, 1:00, 0:10")
    for view in (speed, toggle, reset, most):
        check(painter, view, size)
    check(painter, speed, size)
    value = next(d for d in painter.drawn if d.text == "110 %")
    check(painter, dataclasses.replace(speed, details=("Volume",), big="70 %"), size)
    assert next(d for d in painter.drawn if d.text == "70 %").area == value.area


# ------------------------------------------------------------------ failures

def test_a_text_too_long_for_its_place_is_drawn_smaller_never_cut_and_said_once(
        painter, caplog):
    text = "A very long line that no budget would let through. " * 12
    view = View(phase=Phase.NIGHT, title="Night", caption=text, legend=ROUND_LEGEND)
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        for _i in range(2):
            render_view(view, (480, 320), "", painter)
    assert words(text) in " ".join(d.text for d in painter.drawn)
    assert all(d.area.contains(d.rect) for d in painter.drawn)
    assert len([r for r in caplog.records if "size floor" in r.getMessage()]) == 1


def test_without_its_font_files_the_painter_uses_pygames_font_and_says_so_once(
        tmp_path, caplog):
    pygame.display.init()
    pygame.font.init()
    painter = Painter(font_dir=tmp_path)
    view = View(phase=Phase.DISCUSSION, title="Discussion", big="4:43", progress=0.5,
                caption="Go!", legend=ROUND_LEGEND)
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        render_view(view, (480, 320), "", painter)
        render_view(view, (480, 320), "", painter)
    assert len([r for r in caplog.records if "font" in r.getMessage()]) == 1
    assert {d.text for d in painter.drawn} >= {"Discussion", "4:43", "Go!", "Pause"}
    for d in painter.drawn:
        assert cap_height(painter, d) >= CAP


# ------------------------------------------------------------ Chinese faces

def installed_cjk_fonts() -> list:
    """Each CJK face on the painter's list, skipped where it is not installed."""
    return [pytest.param(path, id=Path(path).stem,
                         marks=pytest.mark.skipif(not Path(path).is_file(),
                                                  reason=f"{path} is not installed"))
            for path in CJK_FONTS]


def picture(painter: Painter, view: View, size=(480, 320)) -> bytes:
    return pygame.image.tobytes(render_view(view, size, "", painter), "RGB")


@pytest.mark.parametrize("path", installed_cjk_fonts())
def test_chinese_lines_show_real_digits_and_characters_in_every_cjk_face(path):
    """Droid Sans Fallback has no digits: a line set wholly in it shows every
    seat number and clock as the same box. Two texts that differ in one
    character must draw differently, Latin, digit or Chinese."""
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: path)
    base = View(phase=Phase.DISCUSSION, title="第2天 · 座位 3", big="2:30",
                caption="还剩2:30分钟。座位 3 先说。", legend=ROUND_LEGEND)
    first = picture(painter, base)
    for changed in (dataclasses.replace(base, title="第2天 · 座位 8"),
                    dataclasses.replace(base, title="第5天 · 座位 3"),
                    dataclasses.replace(base, title="第2天 · 坐位 3"),
                    dataclasses.replace(base, caption="还剩2:40分钟。座位 3 先说。"),
                    dataclasses.replace(base, caption="还剩2:30分钟。座位 7 先说。"),
                    dataclasses.replace(base, caption="还剩2:30分钟。座位 3 后说。"),
                    dataclasses.replace(base, big="2:31")):
        assert picture(painter, changed) != first, changed
    render_view(base, (480, 320), "", painter)
    assert "No Chinese font" not in " ".join(d.text for d in painter.drawn)


@pytest.mark.parametrize("path", installed_cjk_fonts())
@pytest.mark.parametrize("size", SIZES)
def test_every_chinese_screen_reads_in_every_cjk_face(path, size):
    """Every screen of every game in Chinese, set in each CJK face: nothing
    cut, overlapping, under the floor or the contrast (the runs of Latin and
    Chinese are measured as they are drawn)."""
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: path)
    with speaking("zh"):
        for _name, view, notice in round_views(Config()):
            check(painter, view, size, notice)


def start_in_chinese() -> View:
    with speaking("zh"):
        return next(v for name, v, _n in round_views(Config()) if name == "1-start")


@pytest.mark.parametrize("found", [None, str(FONT_DIR / "DejaVuSans.ttf")],
                         ids=["no-cjk-font", "a-font-without-chinese"])
def test_without_a_usable_cjk_font_the_start_screen_says_so(found, caplog):
    """With no CJK face (or one fontconfig offers that has no Chinese in it),
    every Chinese character is a box: the screen says why, once, beside the
    box's other notices, and the log says it once."""
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: found)
    start = start_in_chinese()
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        for notice in ("", notices()[0], ""):
            render_view(start, (480, 320), notice, painter)
            shown = " ".join(d.text for d in painter.drawn)
            assert words(shown).count("No Chinese font") == 1, shown
            assert notice in shown
    assert len([r for r in caplog.records if "Chinese" in r.getMessage()]) == 1
    # An English screen with no Chinese on it has nothing to say about it.
    english = next(v for name, v, _n in round_views(Config()) if name == "1-start")
    render_view(english, (480, 320), "", painter)
    assert "Chinese" not in " ".join(d.text for d in painter.drawn)


def test_the_no_cjk_font_notice_stays_readable_when_its_translation_is_chinese(monkeypatch):
    """Its Chinese translation could not be drawn either: the notice then
    shows in English."""
    pygame.display.init()
    pygame.font.init()
    monkeypatch.setattr(painting, "_",
                        lambda text: "没有中文字体" if text == painting.NO_CJK else text)
    painter = Painter(cjk_font=lambda: None)
    render_view(start_in_chinese(), (480, 320), "", painter)
    shown = words(" ".join(d.text for d in painter.drawn))
    assert "No Chinese font" in shown and "没有" not in shown


# ------------------------------------------------------------------ the log

def test_a_timer_under_the_floor_is_logged_once_not_every_second(caplog):
    """A clock that does not fit at the floor changes every second: the
    box's log says so once, not once a second."""
    pygame.display.init()
    pygame.font.init()
    painter = Painter()
    seats = tuple(Seat(n) for n in range(1, 21))
    caption = "A very long line that keeps the middle of the ring busy. " * 3
    said = []
    with caplog.at_level(logging.WARNING, logger="wolfbox.device"):
        for left in range(59, 40, -1):
            view = View(phase=Phase.DISCUSSION, title="Day 2 · Vote", big=f"0:{left:02d}",
                        caption=caption, seats=seats, legend=ROUND_LEGEND)
            render_view(view, (480, 320), "", painter)
            said.append(len([r for r in caplog.records if "size floor" in r.getMessage()]))
    assert said[0] >= 1 and said[-1] == said[0], said      # the first second, then never


def test_chinese_titles_are_not_run_into_blobs_by_a_synthetic_bold(painter):
    """The CJK faces have no bold: pygame thickens each stroke, and at a
    title's size 哪 and 牌 fill in. Titles keep the regular strokes; only
    the big values, where strokes have room, are thickened."""
    from wolfbox.device.fonts import Face
    if painter.cjk_file() is None:
        pytest.skip("no CJK font here")
    title = painter.font(22, Face.BOLD).cjk
    big = painter.font(72, Face.BOLD).cjk
    assert title is not None and not title.bold
    assert big is not None and big.bold


# ------------------------------------------------ names and Chinese lines
def test_a_glyph_no_font_has_is_left_out_not_drawn_as_a_box(painter):
    """A player's name with an emoji in it: the box has no font for it."""
    font = painter.font(30)
    assert font.size("Ann 🐺") == font.size("Ann ")
    assert pygame.image.tobytes(font.render("Ann 🐺·", style.TEXT), "RGBA") == \
        pygame.image.tobytes(font.render("Ann ·", style.TEXT), "RGBA")
    assert font.size("Zoë · 3") > font.size("Zo · 3")    # what the font has stays
    assert font.size("Zoë 🐺 · 3") == font.size("Zoë · 3")  # and no gap where it was


@pytest.mark.parametrize("path", installed_cjk_fonts())
def test_a_chinese_paragraphs_last_character_never_stands_alone(path):
    pygame.display.init()
    pygame.font.init()
    painter = Painter(cjk_font=lambda: path)
    text = "限时狼人杀"
    one = painter.font(30).size("狼")[0]
    for width in range(2 * one, 6 * one):
        lines = painter.wrap(text, 30, width)
        assert "".join(lines) == text
        if len(lines) > 1:
            assert len(lines[-1]) >= 2, (width, lines)
