"""The join card (issue 22): how phones join, on the screens between games.

The painter draws the phones' page as a QR code a phone reads from the
surface itself, beside the screen's own texts, which still fit whole at the
size floor; the terminal prints the join line once per change, never on a
private screen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pygame
import pytest
import segno
from test_device_render import CAP, SIZES, cap_height, check, expected, setup_screens, words

from wolfbox.config import Config
from wolfbox.darkarts.game import Game as MayorGame
from wolfbox.device.joincard import HINT
from wolfbox.device.render import Painter, render_view
from wolfbox.device.screen import TerminalScreen
from wolfbox.device.screenshots import JOIN, round_views
from wolfbox.events import PhonesSeated
from wolfbox.i18n import _, speaking
from wolfbox.join_screen import JoinScreen
from wolfbox.newd3.game import Game as TimedGame
from wolfbox.view import JoinCard, Phase, View, WifiCard

URL = "http://192.168.1.20:8080/"
CARD = JoinCard(URL, "4821", ((2, "Anna"), (5, "Bo")))
WHITE = (255, 255, 255)
QUIET = 4                    # modules of light round a code (ISO/IEC 18004)


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    pygame.display.init()
    pygame.font.init()
    yield Painter()


def phones_screen() -> View:
    """The phones' own screen (wolfbox.join_screen), two seats taken."""
    screen = JoinScreen()
    seated = PhonesSeated(frozenset({2, 5}), CARD.seated)
    screen.show(seated.seats)
    return screen.view(seated, "One Night")


def start_screen() -> View:
    return next(v for name, v, _n in round_views(Config()) if name == "1-start")


def white_square(surface: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pure white pixels: the code's light square
    (no text or frame of the box is pure white)."""
    mask = pygame.mask.from_threshold(surface, WHITE, (1, 1, 1, 255))
    rects = mask.get_bounding_rects()
    return rects[0].unionall(rects[1:]) if rects else None


def read_code(surface: pygame.Surface, modules: int) -> list[list[bool]]:
    """The code as drawn: the centre of every module square, dark or light,
    quiet zone included, the module's size found from the white square."""
    square = white_square(surface)
    assert square is not None, "no code drawn"
    assert square.width == square.height, square
    side = modules + 2 * QUIET
    assert square.width % side == 0, f"{square.width} px is not {side} whole modules"
    px = square.width // side
    return [[sum(surface.get_at((square.left + c * px + px // 2,
                                 square.top + r * px + px // 2))[:3]) < 3 * 128
             for c in range(side)] for r in range(side)]


def segno_code(url: str) -> list[list[bool]]:
    """The code segno makes of `url`, with its quiet zone: what a phone reads."""
    matrix = segno.make(url, error="m", micro=False).matrix
    side = len(matrix) + 2 * QUIET
    out = [[False] * side for _r in range(side)]
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            out[r + QUIET][c + QUIET] = bool(dark)
    return out


# ------------------------------------------------------------- the code

@pytest.mark.parametrize("size", [*SIZES, (800, 480)])
@pytest.mark.parametrize("url", [URL, "http://192.168.178.123:65535/"])
def test_the_code_drawn_is_the_pages_address_with_its_quiet_zone(painter, size, url):
    """Every module of the code, read back from the surface at the centre of
    its square, is segno's for the address: a phone that reads it opens the
    page. Each module is whole pixels, at least 3 of them."""
    join = dataclasses.replace(CARD, url=url)
    want = segno_code(url)
    # The phones' own screen has room for the code at every size. The
    # timed game's setup leaves room for a code of 25 modules, the address
    # of a box on a home network; a longer one may get the compact line
    # there, and on One Night's start screen at 320x240 (its deck's notes
    # never give way to the code).
    timed = list(setup_screens(TimedGame))[:1] if size in SIZES and url == URL else []
    start = [start_screen()] if url == URL or size != (320, 240) else []
    views = [phones_screen(), *start, *timed]
    for view in views:
        surface = render_view(dataclasses.replace(view, join=join), size, "", painter)
        square = white_square(surface)
        assert square is not None and square.width // len(want) >= 3, (size, square)
        assert read_code(surface, len(want) - 2 * QUIET) == want, (url, size)
        # Nothing written over the code, its quiet zone included.
        assert not any(d.rect.colliderect(square) for d in painter.drawn), size


def test_without_a_join_card_no_code_is_drawn(painter):
    surface = render_view(start_screen(), (480, 320), "", painter)
    assert white_square(surface) is None


# ------------------------------------------------- the screens still read

def between_games(lang: str) -> Iterator[tuple[str, View, str]]:
    """The start screen of One Night and every setup screen of the two
    other games, with the join card."""
    with speaking(lang):
        yield "1-start", start_screen(), ""
        for make in (MayorGame, TimedGame):
            for view in setup_screens(make):
                if view.held is None:
                    yield make.__module__, view, ""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES)
def test_the_start_and_setup_screens_still_draw_every_text_with_the_card(painter, size, lang):
    """With the card on, every text of each start and setup screen is drawn
    whole, inside its area, over the floor, apart and readable (the render
    tests' own checks), and so are the card's PIN and address; a code, where
    one is drawn, overlaps no text."""
    seen = 0
    with speaking(lang):
        for name, view, notice in between_games(lang):
            carded = dataclasses.replace(view, join=CARD)
            check(painter, carded, size, notice)
            shown = "".join("".join(d.text.split()) for d in painter.drawn)
            pin = "".join(_("PIN {pin}").format(pin=CARD.pin).split())   # in its language
            # The PIN and the address, or where they have no room, the line
            # that sends the table to the phones' screen, which has them.
            hinted = _(HINT) in [d.text for d in painter.drawn]
            assert hinted or pin in shown and "".join(URL.split()) in shown.replace("·", ""), \
                (name, shown)
            if painter.qr is not None:
                assert not any(d.rect.colliderect(painter.qr[0]) for d in painter.drawn)
            # The screen's own texts, each whole, as without the card.
            for text in expected(view, notice):
                assert "".join(text.split()) in shown, (name, text)
            seen += 1
    assert seen > 10


@pytest.mark.parametrize("size", SIZES)
def test_the_start_screen_shows_the_code_and_the_seats_taken(painter, size):
    """On One Night's start screen the code is there, at every supported
    size, with the PIN, the address and who sits where."""
    view = dataclasses.replace(start_screen(), join=CARD)
    surface = render_view(view, size, "", painter)
    assert white_square(surface) is not None
    shown = words(" ".join(d.text for d in painter.drawn))
    assert "PIN 4821" in shown and URL in shown
    assert "Anna" in shown or "2 seats taken" in shown, shown


# --------------------------------------------------------- the terminal

class Pipe:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        self.lines += text.splitlines()
        return len(text)

    def flush(self) -> None:
        pass


def join_lines(out: Pipe) -> list[str]:
    return [line for line in out.lines if URL in line]


def test_the_terminal_prints_the_join_line_once_per_change_never_on_a_private_screen():
    out = Pipe()
    screen = TerminalScreen(out)
    start = start_screen()
    carded = dataclasses.replace(start, join=CARD)
    screen.show(carded, "")
    screen.show(carded, "")
    preparing = dataclasses.replace(carded, status="Preparing the voice: 40 %")
    screen.show(preparing, "")
    assert len(join_lines(out)) == 1
    assert "4821" in join_lines(out)[0] and "Anna" in join_lines(out)[0]
    # A seat taken: one more line, not the whole screen again.
    more = dataclasses.replace(CARD, seated=(*CARD.seated, (7, "Cy")))
    before = len(out.lines)
    screen.show(dataclasses.replace(preparing, join=more), "")
    assert len(join_lines(out)) == 2 and "Cy" in join_lines(out)[1]
    assert len(out.lines) == before + 1
    # A private screen never prints it, even one that came with a card.
    secret = View(phase=Phase.REFEREE, title="Seat 3", big="Wolf", private=True, join=more)
    screen.show(secret, "")
    assert len(join_lines(out)) == 2
    # A game under way: no card; the next one's is printed when it comes.
    screen.show(dataclasses.replace(start, title="Night"), "")
    screen.show(carded, "")
    assert len(join_lines(out)) == 3


def test_the_terminal_prints_the_join_line_under_every_new_screen_between_games():
    """A headless table has no card to glance at: each new screen between
    games (the settings' pages, the phones screen) says how to join again,
    a clock's tick does not."""
    out = Pipe()
    screen = TerminalScreen(out)
    screen.show(dataclasses.replace(start_screen(), join=CARD), "")
    phones = dataclasses.replace(phones_screen(), join=CARD)
    screen.show(phones, "")
    assert len(join_lines(out)) == 2                       # the phones screen says it too
    screen.show(dataclasses.replace(phones, status="Preparing the voice: 40 %"), "")
    assert len(join_lines(out)) == 2


# ------------------------------------------------- the box's own Wi-Fi

WIFI = WifiCard("Wolfbox-3F7A", "k7mpx3qahw9e")
OWN = JoinCard("http://10.42.0.1:8080/", "4821", ((2, "Anna"), (5, "Bo")), wifi=WIFI,
               wifi_shown=True)


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("size", SIZES)
def test_on_its_own_wifi_the_box_shows_the_wifi_code_then_the_pages(painter, size, lang):
    """On the box's own Wi-Fi, the start screen and the phones' own screen
    draw, at every size and in every language, the code a phone camera
    joins the Wi-Fi with (segno's for the `WIFI:` text, module by module),
    its name and passphrase in words, every text of the screen whole and
    over the floor; then, the card turned, the page's code with its PIN."""
    want = segno_code(WIFI.qr_text())
    with speaking(lang):
        for view in (start_screen(), phones_screen()):
            carded = dataclasses.replace(view, join=OWN)
            check(painter, carded, size)
            surface = render_view(carded, size, "", painter)
            assert read_code(surface, len(want) - 2 * QUIET) == want, (lang, size)
            shown = "".join("".join(d.text.split()) for d in painter.drawn)
            assert WIFI.ssid in shown and WIFI.passphrase in shown, shown
            assert "4821" not in shown            # the PIN goes with the page's code
            for text in expected(view, ""):
                assert "".join(text.split()) in shown, (lang, text)
            page = dataclasses.replace(carded, join=dataclasses.replace(OWN, wifi_shown=False))
            surface = render_view(page, size, "", painter)
            url = segno_code(OWN.url)
            assert read_code(surface, len(url) - 2 * QUIET) == url, (lang, size)
            shown = "".join("".join(d.text.split()) for d in painter.drawn)
            assert "4821" in shown and WIFI.passphrase not in shown


class Tty(Pipe):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("out", [Tty(), Pipe()], ids=["terminal", "pipe"])
def test_the_terminal_says_the_wifi_once_not_at_each_turn_of_the_card(out):
    """Once, not at each turn of the card; its passphrase on a terminal
    alone, never into a pipe (the journal of a headless service)."""
    screen = TerminalScreen(out)
    start = start_screen()
    screen.show(dataclasses.replace(start, join=OWN), "")
    screen.show(dataclasses.replace(start, join=dataclasses.replace(OWN, wifi_shown=False)), "")
    lines = [line for line in out.lines if OWN.url in line]
    assert len(lines) == 1 and WIFI.ssid in lines[0]
    assert (WIFI.passphrase in "".join(out.lines)) == out.isatty()


KEYED = URL + "#k=Jq1xv0h2cWbqzDHBfM8tq8tN3pDkAoPB9M0XgM8Yd2A"


@pytest.mark.parametrize("out", [Tty(), Pipe()], ids=["terminal", "pipe"])
def test_a_headless_terminal_shows_the_keyed_address_and_its_code_never_a_pipe(out):
    """The QR code's address (the box's key in its fragment), as a line to
    copy and as a code to scan, once per key; on a terminal alone, never
    into a pipe (the journal of a headless service), as the passphrase."""
    screen = TerminalScreen(out)
    start = start_screen()
    keyed = dataclasses.replace(CARD, qr=KEYED)
    screen.show(dataclasses.replace(start, join=keyed), "")
    screen.show(dataclasses.replace(phones_screen(), join=keyed), "")
    text = "\n".join(out.lines)
    blocks = [line for line in out.lines if "\u2580" in line or "\u2584" in line]
    if out.isatty():
        assert KEYED in text
        modules = len(segno.make(KEYED, error="m", micro=False).matrix)
        assert len(blocks) >= modules // 2                 # one code (two modules a line)
        assert len(blocks) <= modules // 2 + 5             # once, not under every screen
    else:
        assert "#k=" not in text and not blocks
        assert URL in text                                 # the address to type stays


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("size", SIZES)
def test_the_setup_screens_still_draw_every_text_with_the_wifi_card(painter, size, lang):
    """The own Wi-Fi's code is four modules wider than the page's: every
    start and setup screen still draws each of its texts whole, over the
    floor, with the Wi-Fi's name and passphrase wherever the page's card
    has room (where it has none, the phones' own screen shows both), and
    nothing over a code."""
    carded_somewhere = 0
    with speaking(lang):
        for name, view, notice in between_games(lang):
            render_view(dataclasses.replace(view, join=CARD), size, notice, painter)
            page_card = "4821" in "".join(d.text for d in painter.drawn)
            carded = dataclasses.replace(view, join=OWN)
            check(painter, carded, size, notice)
            shown = "".join("".join(d.text.split()) for d in painter.drawn)
            if page_card:
                carded_somewhere += 1
                hinted = _(HINT) in [d.text for d in painter.drawn]
                assert hinted or WIFI.ssid in shown and WIFI.passphrase in shown, (name, shown)
            if painter.qr is not None:
                assert not any(d.rect.colliderect(painter.qr[0]) for d in painter.drawn)
            for text in expected(carded, notice):
                assert "".join(text.split()) in shown, (name, text)
    assert carded_somewhere > 10


# ------------------------------------- every screen that offers joining

# The box's panels (3.5" 480x320, 5" 800x480), the smallest it draws and
# the window's default.
EVERY_SIZE = [*SIZES, (800, 480), (960, 640)]


CARDED_TOO = ("1-start", "8-reveal", "9-reveal", "a-settings", "b-verdict", "c-mayor-end",
              "d-timed-end")


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_every_screen_that_offers_joining_shows_the_code_or_says_how_to_get_it(painter, lang):
    """Issue 40: every screenshot with a join card (each game's start or
    setup with phones on, the own Wi-Fi's, the phones' screen, the phones'
    settings page), at every size the box supports, in every language,
    draws the code a phone reads (segno's, module by module), or else one
    line, whole, saying how to reach it. The phones' own screen, which
    that line sends the table to, always has the code."""
    seen = 0
    with speaking(lang):
        hint = _(HINT)
        # The screenshots taken with a card, and those the box draws with
        # one when phones are on and no game is under way (the device adds
        # it, device.loop): the start's with its notices, the settings'
        # pages, One Night's rules and verdict, the other games' ends.
        views = [(name, view if view.join else dataclasses.replace(view, join=JOIN), notice)
                 for name, view, notice in round_views(Config())
                 if view.join is not None or name.startswith(CARDED_TOO)]
        assert {"1-start-phones", "1-start-wifi", "1-join-screen", "c-mayor-setup-phones",
                "d-timed-setup-phones"} <= {name for name, _v, _n in views}
        for size in EVERY_SIZE:
            for name, view, notice in views:
                join = view.join
                assert join is not None
                surface = render_view(view, size, notice, painter)
                lines = [d.text for d in painter.drawn]
                if painter.qr is not None:
                    text = join.wifi.qr_text() if join.wifi_shown and join.wifi else \
                        join.qr or join.url
                    want = segno_code(text)
                    assert read_code(surface, len(want) - 2 * QUIET) == want, (name, size)
                else:
                    assert "join-screen" not in name, (name, size, lines)
                    assert hint in lines, (name, size, lang, lines)
                    # Whole on its line, over the floor, clear of every other text.
                    said = next(d for d in painter.drawn if d.text == hint)
                    s = min(size[0] / 480, size[1] / 320)
                    assert cap_height(painter, said) >= CAP * s, (name, size, said.px)
                    assert surface.get_rect().contains(said.rect), (name, size)
                    assert not any(d.rect.colliderect(said.rect) for d in painter.drawn
                                   if d is not said), (name, size)
                    if size in SIZES:               # and the rest as the render tests ask
                        check(painter, view, size, notice)
                if view.footer and not notice and hint not in lines:
                    shown = "".join("".join(t.split()) for t in lines)
                    assert "".join(view.footer.split()) in shown, (name, size)
                seen += 1
    assert seen >= len(EVERY_SIZE) * 30
