"""Where views are shown: a pygame window or console, or a terminal.

Both kinds have the same two methods, so the loop does not care which it
has. Choosing the display (window, full screen, console, headless) lives
here too.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Protocol, TextIO

import pygame
import segno

from wolfbox.buttons import GAME_BUTTONS, Button
from wolfbox.i18n import _
from wolfbox.view import JoinCard, Phase, Seat, View

from .render import Painter

_CLOCK = re.compile(r"\b\d{1,3}:\d\d\b")     # a clock as timer.clock_text writes it

log = logging.getLogger("wolfbox.device")

# SDL's drivers that draw into memory: nobody sees what they show.
INVISIBLE_DRIVERS = ("dummy", "offscreen")

# On the console (KMSDRM) the box's picture reaches the screen through one of
# SDL's renderers, and only OpenGL ES 2 is there on every Pi's Mesa (vc4/v3d)
# and on the twin's virtio-gpu (kms_swrast). Left to choose, SDL 2.32 took one
# that showed a black screen on the twin while the box ran and flipped
# (make boot-check, check b); a user's own SDL_RENDER_DRIVER is kept.
KMSDRM_RENDERER = "opengles2"


class Screen(Protocol):
    def show(self, view: View, notice: str) -> None: ...
    def resized(self) -> None: ...


def has_display() -> bool:
    """A desktop session, or an SDL video driver chosen on purpose."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("SDL_VIDEODRIVER", "") not in ("", "dummy", "offscreen"))


def init_video(display: str) -> str:
    """Start SDL's video (always needed: it owns the event queue).

    Returns the display actually used: "window", "fullscreen" or "headless".
    A box with no screen falls back to headless and says so once. That
    includes SDL settling on a driver that draws into memory when the one
    it was meant to use fails (a stale DISPLAY=:99 ends in "offscreen"):
    that box would be invisible, its window's keys unreachable, and only
    Ctrl-C would end it. An invisible driver asked for by name
    (SDL_VIDEODRIVER=dummy, as the tests do) is taken at its word.
    """
    want = display
    if display == "auto":
        want = "window" if has_display() else "headless"
    if want == "headless":
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    elif os.environ.get("SDL_VIDEODRIVER") == "kmsdrm":
        os.environ.setdefault("SDL_RENDER_DRIVER", KMSDRM_RENDERER)
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if want != "headless" and driver in INVISIBLE_DRIVERS \
                and os.environ.get("SDL_VIDEODRIVER") != driver:
            raise pygame.error(_("no display could be opened; SDL fell back to its "
                                 "'{driver}' driver, which shows nothing")
                               .format(driver=driver))
    except pygame.error as e:
        if want == "headless":
            raise
        log.warning(_("no screen ({problem}): running headless in this terminal")
                    .format(problem=e))
        pygame.display.quit()
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        want = "headless"
    pygame.font.init()
    return want


def window_size(wanted: tuple[int, int],
                desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window's size: `wanted`, scaled down to fit the display with its
    shape kept, so a 960×640 window on a 480×320 display is not cropped on
    every side. Unchanged where it fits, or where the display's size is
    not known."""
    if not desktop or desktop[0] <= 0 or desktop[1] <= 0:
        return wanted
    scale = min(1.0, desktop[0] / wanted[0], desktop[1] / wanted[1])
    return max(1, math.floor(wanted[0] * scale)), max(1, math.floor(wanted[1] * scale))


def desktop_size() -> tuple[int, int] | None:
    """The display's size, read before a window is opened (None if SDL
    cannot say)."""
    try:
        sizes = pygame.display.get_desktop_sizes()
        if sizes:
            return sizes[0]
        info = pygame.display.Info()
    except pygame.error:
        return None
    return (info.current_w, info.current_h) if info.current_w > 0 else None


@dataclass
class WindowScreen:
    """A desktop window (resizable) or the whole screen (a Pi console)."""
    size: tuple[int, int]
    fullscreen: bool = False
    painter: Painter = field(default_factory=Painter)

    def __post_init__(self) -> None:
        pygame.display.set_caption("Wolfbox")
        if self.fullscreen:
            self.surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            desktop = desktop_size()
            size = window_size(self.size, desktop)
            if size != self.size and desktop is not None:
                log.warning(_("the window's size {wanted} is larger than the display "
                              "({display}): opened at {size}").format(
                    wanted="×".join(map(str, self.size)),
                    display="×".join(map(str, desktop)), size="×".join(map(str, size))))
            self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.flips = 0

    def show(self, view: View, notice: str) -> None:
        self.resized()
        self.painter.draw(self.surface, view, notice)
        pygame.display.flip()
        self.flips += 1

    def resized(self) -> None:
        # set_mode() made the surface in __post_init__; SDL may replace it on
        # a resize, but never takes it away while the display is open.
        surface = pygame.display.get_surface()
        if surface is not None:
            self.surface = surface


# The terminal's alternate screen (xterm, VT220 and after; every terminal
# emulator in use): what is drawn there is gone from the terminal, with no
# trace in its scrollback, once it is left.
ALT_SCREEN_ON = "\x1b[?1049h"
ALT_SCREEN_OFF = "\x1b[?1049l"
CLEAR = "\x1b[H\x1b[2J"


@dataclass
class TerminalScreen:
    """Headless: the screen's state as text lines in the terminal.

    A new line whenever anything but the running timer changes; the timer
    itself is rewritten in place when the output is a terminal.

    A private view (View.private: a seat's card, a night's choice) must not
    stay in the terminal: on a terminal it is drawn on the alternate screen,
    redrawn in place, and gone when its window ends (the public lines come
    back as they were); into a pipe or a log, one placeholder line stands
    for the whole window, whatever it showed.
    """
    out: TextIO = field(default_factory=lambda: sys.stdout)
    # The key that presses each button, once the terminal's keys are read:
    # the legend then says "[s] START: Pause".
    keys: dict[Button, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._last: View | None = None
        self._tty = self.out.isatty()
        self._status_open = False
        self._noticed = ""
        self._private = False              # a private window is open
        self._said: list[str] = []         # spoken in it: public, printed again after it
        self._joined = ""                  # the join line last printed ("" : none shown)
        self._coded = ""                   # the keyed address last drawn as a code
        self.flips = 0

    def show(self, view: View, notice: str) -> None:
        self.flips += 1
        if view.private:
            self._show_private(view, notice)
            return
        if self._private:
            self._end_private()
        last, self._last = self._last, view
        # A hold in progress fills a box on the screen; here it changes nothing.
        # A clock in the title ("Seat 3 · 0:12") runs like the big timer: a
        # window's every second is not a new screen.
        same_title = last is not None and _CLOCK.sub("", last.title) == _CLOCK.sub("", view.title)
        timer_only = last is not None and notice == self._noticed and same_title and \
            dataclasses.replace(last, big=view.big, progress=view.progress,
                                caption=view.caption, status=view.status,
                                alert=view.alert, held=view.held,
                                held_progress=view.held_progress, seats=view.seats,
                                title=view.title, join=view.join) == view
        self._show_public(view, notice, last, timer_only)
        # How to join under every new screen between games (a terminal has
        # no card beside it to glance at), and again when a seat is taken or
        # the PIN changes; not at every tick of a clock.
        joined = join_line(view.join, secrets=self._tty)
        if joined != self._joined or (joined and not timer_only):
            self._joined = joined
            if joined and view.join is not None:
                self._write_code(view.join)
                self._write(f"   {joined}")

    def _write_code(self, join: JoinCard) -> None:
        """The screen's QR code, in the terminal's block characters: once a
        key (it is long), and only on a terminal, as the passphrase is: a
        pipe may be a journal kept for weeks."""
        if not self._tty or not join.qr or join.qr == self._coded:
            return
        self._coded = join.qr
        drawn = io.StringIO()
        segno.make(join.qr, error="m", micro=False).terminal(out=drawn, compact=True)
        self._write(drawn.getvalue().rstrip("\n"))

    def _show_public(self, view: View, notice: str, last: View | None,
                     timer_only: bool) -> None:
        if timer_only and last is not None:
            if view.alert != last.alert:            # a passing word: said when it comes
                if view.alert:
                    self._write(f"   ! {view.alert}")
            elif view.status != last.status:        # the voice's progress: one short line
                self._write("   ~ " + (view.status or _("The voice is ready.")))
            elif view.seats != last.seats:          # the Mayor moved along the ring
                value = f"= {view.big}  " if view.big else ""
                self._write(f"   {value}{ring_line(view.seats)}")
            elif view.phase in (Phase.SETTINGS, Phase.REFEREE) and view.big != last.big:
                self._write(f"   = {view.big}")    # a setting's new value, not a timer
            elif self._tty and view.big != last.big:   # a timer, rewritten in place
                self._write(f"\r  {view.big:>6}", newline=False)
            elif self._tty and view.title != last.title:
                clocks = _CLOCK.findall(view.title)
                if clocks:
                    self._write(f"\r  {clocks[-1]:>6}", newline=False)
            return
        self._write("\n".join(self._block(view, notice)))

    def _block(self, view: View, notice: str) -> list[str]:
        """The view as lines: the title, the ring, the texts, the legend."""
        legend = "  ".join(
            f"[{self.keys[b]}] {b.value.upper()}: {label}" if b in self.keys
            else f"[{b.value.upper()}] {label}" for b, label in self._labels(view))
        head = f"== {view.title}" + (" " + _("(PAUSED)") if view.paused else "") \
            + (f"  {view.big}" if view.big else "")
        lines = [head]
        if view.seats:
            lines.append("   " + ring_line(view.seats))
        if view.caption and view.seats:         # the ring's middle: the line being said
            lines.append(f"   {view.caption}")
        lines += [f"   {d}" for d in view.details]
        if view.status:
            lines.append(f"   ~ {view.status}")
        if notice and notice != self._noticed:
            lines.append(f"   ! {notice}")
            self._noticed = notice
        lines.append(f"   {legend}" if legend else "   " + _("(no buttons active)"))
        if view.footer:
            lines.append(f"   {view.footer}")
        return lines

    def _show_private(self, view: View, notice: str) -> None:
        """A private view: on the alternate screen, redrawn whole at each
        change; into a pipe, the placeholder once for the window."""
        if not self._private:
            self._private, self._said = True, []
            if not self._tty:
                self._write("   " + _("[a private screen: not printed where it would stay "
                                      "(run in a terminal to see it)]"))
                return
            # A timer being rewritten in place leaves the cursor mid-line,
            # where the terminal puts it back on leaving: end that line first.
            self._write(("\n" if self._status_open else "") + ALT_SCREEN_ON, newline=False)
            self._status_open = False
            self._last = None
        if not self._tty or view == self._last:
            return
        self._last = view
        self._write(CLEAR + "\n".join(self._block(view, notice) + self._said))

    def _end_private(self) -> None:
        """The private window is over: the secret leaves the terminal; the
        public screen is drawn again in full."""
        self._private, self._last = False, None
        if self._tty:
            self._write(ALT_SCREEN_OFF, newline=False)
            self._status_open = False
            for line in self._said:                 # what was said aloud stays on record
                self._write(line)
        self._said = []

    def close(self) -> None:
        """Leave the alternate screen if a private window is open: a box
        stopped in the middle of a seat's turn leaves no card behind."""
        if self._private:
            self._end_private()

    @staticmethod
    def _labels(view: View) -> list[tuple[Button, str]]:
        """What each button does, tapped and held: "Next deck / Hold: settings"."""
        taps, holds = dict(view.legend), dict(view.holds)
        out = []
        for b in GAME_BUTTONS:
            said = [label for label in (taps.get(b, ""), holds.get(b, "")) if label]
            if said:
                out.append((b, " / ".join(dict.fromkeys(said))))
        return out

    def say(self, text: str) -> None:
        line = f'   >> "{text}"'
        if self._private and self._tty:
            self._said.append(line)
        self._write(line)

    def resized(self) -> None:
        pass

    def _write(self, text: str, newline: bool = True) -> None:
        if self._status_open and newline:
            text = "\n" + text
        self._status_open = not newline
        try:
            self.out.write(text + ("\n" if newline else ""))
            self.out.flush()
        except (OSError, ValueError):   # a closed stdout must not stop the box
            pass


def join_line(join: JoinCard | None, secrets: bool = True) -> str:
    """How phones join, on one line: the page, the PIN, the box's own
    Wi-Fi, who has joined. Its passphrase, and the page's address with the
    box's key (the QR code's, to copy), only on a terminal (`secrets`):
    never into a pipe, which a service's journal keeps for weeks."""
    if join is None:
        return ""
    url = join.qr if secrets and join.qr else join.url
    seated = ", ".join(f"{seat} {name}" for seat, name in join.seated)
    wifi = "" if join.wifi is None else "  " + _("Wi-Fi {name}").format(name=join.wifi.ssid)
    if join.wifi is not None and secrets:
        wifi += "  " + _("Password {passphrase}").format(passphrase=join.wifi.passphrase)
    return _("Phones: {url}  PIN {pin}").format(url=url, pin=join.pin) + wifi + \
        ("  " + _("Seated: {names}").format(names=seated) if seated
         else "  " + _("No seat taken yet"))


def ring_line(seats: tuple[Seat, ...]) -> str:
    """The seat ring on one line: "Seats: 1 2† [3] 4♥ 5×" (dead, the
    buttons' seat, marked, refused)."""
    words = []
    for seat in seats:
        word = str(seat.seat) + ("" if seat.alive else "†") + ("♥" if seat.marked else "") \
            + ("×" if seat.refused else "")
        words.append(f"[{word}]" if seat.cursor else word)
    return _("Seats: {seats}").format(seats=" ".join(words))
