"""The join card (View.join): the phones' page as a QR code at the right of
the middle, its PIN under it, its address and who has joined beside the
content; the plans tried for it, best first; and how it is drawn."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import pygame
import segno

from wolfbox.i18n import N_, _, ngettext
from wolfbox.view import JoinCard, View, WifiCard

from .canvas import Canvas
from .cardplan import QR_WIDE, CardPlan
from .fonts import Face
from .style import ACCENT, NOTE, SMALL_PX, TEXT, TITLE_BOX, TOP
from .texts import Block

QUIET_ZONE = 4           # modules of light round the code, as ISO/IEC 18004 asks
# The least a module is drawn: QR_MIN_PX on the smallest screens (320×240
# and the box's 480×320: a 25-module code 15 mm wide on its 3.5" panel, read
# by a phone held out over the middle of the table), QR_MODULE logical px on
# larger ones. The code is drawn as large as the screen's own texts leave room
# for (4 or 5 px a module on most of the box's screens).
QR_MIN_PX = 3
QR_MODULE = 3.0
QR_TRIES = 3             # module sizes tried, from the largest, before notes give way
QR_LIGHT = (255, 255, 255)
QR_DARK = (0, 0, 0)
PIN_PX = 34
CARD_GAP = 10            # logical px between the card and the screen's own content
PLANS_KEPT = 32          # screens whose card plan the painter remembers


@functools.lru_cache(maxsize=8)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `url` as rows of modules, dark True, without its quiet
    zone. Error correction M (15 %): a smudge or a glare on the screen still
    scans. Never a Micro QR, which phone cameras do not read."""
    code = segno.make(url, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


# Where the screen has no room for the code: one line says how to reach it
# (wolfbox.games opens the phones' screen, code and all, with a hold of START).
HINT = N_("Hold START: phones' screen with the QR code")


class NoRoom(Exception):
    """A plan being tried does not fit: some text would go under the floor."""


def card_plans(view: View) -> list[CardPlan]:
    """The plans to try for a screen, best first: the largest code beside
    everything the screen shows; the compact lines last, the first of them
    saying how to reach the code. The deck's notes never give way to the
    code: where it has no room, the phones' own screen (a hold of START,
    wolfbox.join_screen) shows it."""
    sizes = [CardPlan(k, across) for k in range(QR_TRIES) for across in (False, True)]
    if view.join is not None and showing_wifi(view.join) is not None:
        sizes += [replace(plan, under_title=True) for plan in sizes]
    sizes += [replace(plan, share=QR_WIDE) for plan in sizes]
    return [*sizes, CardPlan(compact=True, hint=True),
            CardPlan(compact=True, hint=True, seats=False),
            CardPlan(compact=True, hint=True, address=False),
            CardPlan(compact=True, address=False, in_title=True),
            CardPlan(compact=True, hint=True, address=False, footer=False)]


def seats_taken(join: JoinCard) -> list[str]:
    """Who has joined, best first: each seat with its name, then the count."""
    if not join.seated:
        return [_("No seat taken yet")]
    count = len(join.seated)
    names = _("Seated: {names}").format(
        names=", ".join(f"{seat} {name}" for seat, name in join.seated))
    return [names, ngettext("{count} seat taken", "{count} seats taken", count).format(
        count=count)]



def showing_wifi(join: JoinCard) -> WifiCard | None:
    """The box's own Wi-Fi, when the card shows its code now."""
    return join.wifi if join.wifi_shown else None


def wifi_lines(wifi: WifiCard) -> tuple[str, str]:
    """The own Wi-Fi's name and passphrase, for a phone that joins by hand."""
    return (_("Wi-Fi {name}").format(name=wifi.ssid),
            _("Password {passphrase}").format(passphrase=wifi.passphrase))


class JoinCardDrawing(Canvas):
    """A draw with the join card: laid out by `self.plan`."""

    # The own Wi-Fi's name and passphrase went under its code: the foot
    # says the page's address, which the phone opens next.
    wifi_under_code = False

    def foot_wifi(self, join: JoinCard) -> WifiCard | None:
        """The own Wi-Fi, when the card's foot says its name and passphrase."""
        return None if self.wifi_under_code else showing_wifi(join)

    def address(self, join: JoinCard) -> str:
        """What the card's foot says: the page's address, or the own
        Wi-Fi's name and passphrase while its code shows (where they are
        not under the code)."""
        wifi = self.foot_wifi(join)
        return " · ".join(wifi_lines(wifi)) if wifi is not None else join.url

    def join_card(self, plan: CardPlan) -> None:
        """How phones join (View.join), laid out by `plan`: the code in a
        column at the right with the PIN under it (and who has joined, where
        that fits), the address at the foot of the content or across; the
        rest of the screen keeps what is left (self.left, self.width,
        self.bottom). Raises NoRoom while a plan is tried that leaves the
        code too small to scan."""
        join = self.view.join
        assert join is not None
        wifi = showing_wifi(join)
        label = _("Wi-Fi") if wifi else _("PIN {pin}").format(pin=join.pin)
        pin = Block((label,), PIN_PX, TEXT, (Face.BOLD, Face.CONDENSED), max_lines=1)
        if plan.compact:
            if plan.hint:
                self.hint_line()
            if plan.in_title:
                self.hint_in_title()
            if plan.address:
                self.card_texts(None if wifi else pin, plan.seats and wifi is None,
                                inline=True)
            if self.view.footer and plan.footer:
                self.footer()
            return
        if plan.across:                 # the foot first: the code keeps above it
            self.card_texts(None, wifi is None)
            if self.view.footer:
                self.footer()
        modules = qr_modules(wifi.qr_text() if wifi else join.qr or join.url)
        count = len(modules) + 2 * QUIET_ZONE
        top = self.y(TITLE_BOX[1] + (TITLE_BOX[3] if plan.under_title else 0)) + self.px(2)
        most = min(self.bottom - top, math.floor(self.full_width * plan.share)) // count
        least = max(QR_MIN_PX, math.floor(QR_MODULE * self.s))
        module = most - round(max(1, most - least) * plan.smaller / (QR_TRIES - 1))
        if module < least:
            self.p.warn(self.address(join))     # raises NoRoom: a plan kept never gets here
            module = max(1, module)
        side = count * module
        square = pygame.Rect(self.full_left + self.full_width - side, top, side, side)
        self.qr(square, module, modules)
        self.left, self.width = self.full_left, square.left - self.px(CARD_GAP) - self.full_left
        # Under the code: the PIN if it fits there, then the seats if they do too.
        below = pygame.Rect(square.left, square.bottom + self.px(6), side, 0)
        below.height = self.bottom - below.top
        fit = self.p.fit(pin, self.s, below.width, below.height)
        if fit is None and plan.across:         # no room beside the content for it
            fit = self.p.fit_or_shrink(pin, self.s, below.width, max(1, below.height))
        if fit is None:
            self.card_texts(pin, wifi is None)
            return
        self.text(fit, pygame.Rect(below.left, below.top, below.width, fit.height), TEXT)
        if plan.across:
            return
        below.top += fit.height + self.px(2)
        below.height -= fit.height + self.px(2)
        if wifi is not None:
            # The Wi-Fi's name and passphrase under its code, for a phone
            # that joins by hand; the page's address at the foot (who has
            # joined shows with the page's code).
            said = Block((wifi.ssid, wifi.passphrase), SMALL_PX, TEXT,
                         (Face.SANS, Face.CONDENSED), max_lines=2, gap=0)
            fit = self.p.fit(said, self.s, below.width, below.height)
            if fit is not None:
                self.text(fit, pygame.Rect(below.left, below.top, below.width, fit.height),
                          TEXT)
                self.wifi_under_code = True
            self.card_texts(None, False)
            return
        seats = self.seat_blocks(join, below.width, below.height, lines=2)
        fit = self.p.fit(seats, self.s, below.width, below.height)
        if fit is not None:
            self.text(fit, pygame.Rect(below.left, below.top, below.width, fit.height),
                      seats.color)
        self.card_texts(None, fit is None)

    def hint_line(self) -> None:
        """HINT on one line at the foot of the middle (never wrapped: the
        table reads it at a glance); NoRoom while a plan is tried where it
        does not fit at the floor."""
        block = Block((_(HINT),), SMALL_PX, ACCENT, (Face.SANS, Face.CONDENSED), max_lines=1)
        room = self.bottom - self.y(TOP)
        fit = self.p.fit(block, self.s, self.width, room)
        if fit is None:
            self.p.warn(_(HINT))
            fit = self.p.fit_or_shrink(block, self.s, self.width, room)
        y = self.bottom - fit.height
        self.text(fit, pygame.Rect(self.left, y, self.width, fit.height), ACCENT, "left")
        self.bottom = y - self.px(4)

    def hint_in_title(self) -> None:
        """HINT at the right of the title's row, on one line; the title
        keeps the rest of the row (self.title_cut). NoRoom where it does not
        fit beside the title at the floor."""
        block = Block((_(HINT),), SMALL_PX, ACCENT, (Face.SANS, Face.CONDENSED), "right",
                      max_lines=1)
        row = self.rect(*TITLE_BOX)
        fit = self.p.fit(block, self.s, row.width * 2 // 3, row.height,
                         px=self.p.floor_px(self.s))        # the title keeps the most
        if fit is None:
            self.p.warn(_(HINT))
            fit = self.p.fit_or_shrink(block, self.s, row.width * 2 // 3, row.height)
        width = max(self.p.font(fit.px, fit.face).size(line)[0]
                    for para in fit.paragraphs for line in para)
        self.text(fit, pygame.Rect(row.right - width, row.top, width, row.height), ACCENT,
                  "right", "center")
        self.title_cut = width + self.px(12)

    def seat_blocks(self, join: JoinCard, width: int, height: int, lines: int = 1) -> Block:
        """Who has joined: the names if they fit `width` in `lines`, else the count."""
        blocks = [Block((t,), SMALL_PX, NOTE, (Face.SANS, Face.CONDENSED), max_lines=lines)
                  for t in seats_taken(join)]
        return next((b for b in blocks if self.p.fit(b, self.s, width, height) is not None),
                    blocks[-1])

    def url_block(self, join: JoinCard, width: int, height: int) -> Block:
        """The page's address on a line, or on two cut before the port; the
        own Wi-Fi's name and passphrase on a line, or on two."""
        url = self.address(join)
        whole = Block((url,), SMALL_PX, TEXT, (Face.SANS, Face.CONDENSED), max_lines=1)
        wifi = self.foot_wifi(join)
        if wifi is not None:
            parts: tuple[str, ...] = wifi_lines(wifi)
            # Where the words do not fit a line, the name and passphrase
            # alone (the code's label says "Wi-Fi"), else two lines.
            bare = replace(whole, paragraphs=(f"{wifi.ssid} · {wifi.passphrase}",))
            labelled = self.plan is not None and self.plan.compact   # no code labels them
            if not labelled and self.p.fit(whole, self.s, width, height) is None and \
                    self.p.fit(bare, self.s, width, height) is not None:
                return bare
        else:
            port = url.rfind(":")
            parts = (url[:port], url[port:]) if port > url.find("//") else (url,)
        if self.p.fit(whole, self.s, width, height) is not None or len(parts) == 1:
            return whole
        return replace(whole, paragraphs=parts, max_lines=2, gap=0)

    def card_texts(self, pin: Block | None, seats: bool, inline: bool = False) -> None:
        """The card's address, with the PIN above it (when it is not under
        the code) and who has joined after it (`seats`), at the foot of the
        middle's column (self.left, self.width); the content keeps above.
        Texts share a line, " · " between, where they fit; `inline`: the PIN
        too, at the size of the rest."""
        left, width = self.left, self.width
        join = self.view.join
        assert join is not None
        room = self.bottom - self.y(TOP)
        url = self.url_block(join, width, room)
        shown_url = self.address(join)
        stack: list[Block] = []
        if pin is not None and not inline:
            stack.append(pin)
        texts = [*pin.paragraphs] if pin is not None and inline else []
        texts.append(shown_url)
        said = seats_taken(join)
        if seats:
            texts.append(said[0])
        line = replace(url, paragraphs=(texts[0],), max_lines=1)
        for text in texts[1:]:
            # Who has joined after the address: the names, else the count.
            for shown in [text, *said[1:]] if text == said[0] else [text]:
                joined = replace(line, paragraphs=(f"{line.paragraphs[0]} · {shown}",))
                if len(url.paragraphs) == 1 and \
                        self.p.fit(joined, self.s, width, room) is not None:
                    break
            else:
                joined = None
            if joined is not None:
                line = joined
                continue
            if text == said[0]:
                text = self.seat_blocks(join, width, room).paragraphs[0]
            stack.append(url if line.paragraphs[0] == shown_url else line)
            line = replace(line, paragraphs=(text,),
                           color=NOTE if text != shown_url else TEXT)
        stack.append(url if line.paragraphs[0] == shown_url else line)
        fits = [self.p.fit_or_shrink(b, self.s, width, room) for b in stack]
        gap = self.px(2)
        y = self.bottom - sum(f.height for f in fits) - gap * (len(fits) - 1)
        self.bottom = y - self.px(6)
        for b, f in zip(stack, fits, strict=True):
            self.text(f, pygame.Rect(left, y, width, f.height), b.color, "left")
            y += f.height + gap

    def qr(self, square: pygame.Rect, module: int,
           modules: tuple[tuple[bool, ...], ...]) -> None:
        """The code: dark modules on light, each `module` px square, inside
        `square`, whose light edge is the quiet zone."""
        pygame.draw.rect(self.surface, QR_LIGHT, square)
        x0 = y0 = QUIET_ZONE * module
        for row, line in enumerate(modules):
            for col, dark in enumerate(line):
                if dark:
                    self.surface.fill(QR_DARK, (square.left + x0 + col * module,
                                                square.top + y0 + row * module, module, module))
        self.p.qr = (square.copy(), module)
