"""What the screen shows, as plain data.

The flow computes a View; the pygame screen and the terminal both draw it.
Equal views draw the same, so the loop redraws only when the view changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .buttons import Button
from .tablemap import MapPage


class Phase(StrEnum):
    IDLE = "idle"
    NIGHT = "night"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVEAL = "reveal"
    SETTINGS = "settings"
    REFEREE = "referee"                # the table enters the finished game, seat by seat
    VERDICT = "verdict"                # who died and who won, and why


@dataclass(frozen=True)
class Seat:
    """One seat of the table as the seat ring shows it (seat 1 faces the
    screen; the others follow clockwise)."""
    seat: int
    alive: bool = True
    role: str = ""            # the card turned up, once dead (the book and terminal show it)
    cursor: bool = False      # the seat the buttons point at, or the one the screen is about
    marked: bool = False      # chosen in this entry (a Lover)
    refused: bool = False     # may not be chosen now (accused just before)


@dataclass(frozen=True)
class WifiCard:
    """The box's own Wi-Fi, while it is up: its name and passphrase, shown
    as text and as the QR code phone cameras join without typing."""
    ssid: str
    passphrase: str

    def qr_text(self) -> str:
        """The Wi-Fi QR code's text (the `WIFI:` form of the ZXing spec that
        iOS and Android cameras read), WPA covering WPA2; a backslash, `;`,
        `,`, `"` and `:` in a value are escaped with a backslash."""
        return f"WIFI:T:WPA;S:{_wifi_escaped(self.ssid)};P:{_wifi_escaped(self.passphrase)};;"


def _wifi_escaped(text: str) -> str:
    return "".join("\\" + c if c in '\\;,":' else c for c in text)


@dataclass(frozen=True)
class JoinCard:
    """How the table's phones join, shown on a screen between games while
    phones are on: the page's address (also drawn as a QR code), the PIN,
    and the names of the seats taken, by seat. The QR code holds `qr`
    where given: the address with the box's key in its fragment, which a
    phone scans but nobody types. On the box's own Wi-Fi (`wifi`), the
    screen shows in turn the code that joins it (`wifi_shown`) and the
    page's."""
    url: str
    pin: str
    seated: tuple[tuple[int, str], ...] = ()
    qr: str = ""
    wifi: WifiCard | None = None
    wifi_shown: bool = False


@dataclass(frozen=True)
class View:
    """One screen. Long texts arrive already paged (wolfbox.pages): each
    field holds what fits its area at the size floor.

    What `details` holds depends on the phase:
    IDLE: (deck title, *this page of the deck's description and setup notes);
    REVEAL: this page of the rules; SETTINGS: (setting name, *notes);
    REFEREE: (the question, *notes), its answer in `big`; VERDICT: this page
    of the reasons.
    """
    phase: Phase
    title: str
    big: str = ""                      # the large timer or countdown figure; a setting's value
    progress: float | None = None      # 1.0 full .. 0.0 empty; None hides the bar
    caption: str = ""                  # this page of the line being spoken
    details: tuple[str, ...] = ()      # see above
    legend: tuple[tuple[Button, str], ...] = field(default_factory=tuple)
    holds: tuple[tuple[Button, str], ...] = field(default_factory=tuple)  # what holding does
    footer: str = ""                   # a standing hint at the bottom ("Hold NEXT: settings")
    paused: bool = False
    dim: bool = False                  # night: the screen goes near black
    hint: Button | None = None         # the button the table should press next
    status: str = ""                   # the box's own state on the start screen (voice)
    alert: str = ""                    # a passing word from the box, in any phase
    urgent: bool = False               # the last seconds: the timer itself turns red
    held: Button | None = None         # a button being held for its hold action
    held_progress: float = 0.0         # 0..1 of that hold's time
    # The seat ring, where the screen is about the seats: drawn as a ring
    # with `big`, `details` and the caption in its middle.
    seats: tuple[Seat, ...] = ()
    # For some eyes only: a seat's card or partner, a night's choice, a
    # message, the Lovers being marked. The screen shows it as any other;
    # a terminal (headless) draws it where it leaves no trace once the
    # window ends, and never into a pipe or a log (device/screen.py).
    private: bool = False
    # Phones on, and no game under way: how they join (set by the device).
    join: JoinCard | None = None
    # A screen between games (a start or setup screen, the one whose footer
    # says what its holds do): where the box's notices and status show,
    # and where a hold of BACK opens the phones' screen.
    between: bool = False
    # A picture of the table (wolfbox.tablemap), drawn in the middle with
    # the title above it (One Night's night, after the verdict).
    picture: MapPage | None = None

    def label(self, button: Button) -> str:
        return dict(self.legend).get(button, "")
