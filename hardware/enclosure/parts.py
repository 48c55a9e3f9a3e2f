"""The parts the box holds, as their makers draw them, and the box's own
choices (walls, clearance). Everything else (where each part sits, how big
the box is) is computed from these in layout.py, so a new screen or board is
one entry here. Millimetres throughout; pure Python, no CAD library."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Port:
    """A connector on the board's port edge (the long edge at v = 0), with
    the opening its plug needs in the wall (plug bodies are wider than the
    sockets)."""
    name: str
    u: float                 # centre along the board's long edge, from its SD-card end
    width: float             # the wall opening for the plug
    height: float            # ditto, centred on the socket
    z: float                 # socket centre above the board's top face


@dataclass(frozen=True)
class Board:
    """A Raspberry Pi from its official mechanical drawing. u runs along the
    long edge from the SD card's end, v across from the port edge."""
    name: str
    length: float
    width: float
    holes: tuple[tuple[float, float], ...]
    ports: tuple[Port, ...]
    sd_v: float              # the SD card's centre along the u = 0 edge
    tallest: float           # highest part above the board's top face
    overhang: float          # how far sockets stand past the far short edge (USB, Ethernet)
    header: tuple[float, float, float, float]   # GPIO header: u0, u1, v0, v1
    hdmi_u: float = 0.0      # the (first) HDMI socket on the port edge
    hole_d: float = 2.7      # M2.5
    pcb: float = 1.4
    under: float = 1.6       # the SD socket under the board
    sd_out: float = 2.5      # a card stands this far past the u = 0 edge


_PI_HOLES = ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5))
# The header's pins stand 8.5 mm over the board; a jumper's housing 14 mm.
_HEADER_85 = (7.0, 58.0, 49.5, 55.5)

PI4 = Board("Raspberry Pi 4 B", 85.0, 56.0, _PI_HOLES,
            (Port("USB-C power", 11.2, 13.0, 7.5, 1.6),
             Port("audio", 54.0, 9.0, 9.0, 3.0)),
            sd_v=28.0, tallest=16.0, overhang=2.5, header=_HEADER_85, hdmi_u=26.0)
PI3 = Board("Raspberry Pi 3 B/B+", 85.0, 56.0, _PI_HOLES,
            (Port("micro-USB power", 10.6, 12.0, 7.5, 1.5),
             Port("audio", 53.5, 9.0, 9.0, 3.0)),
            sd_v=28.0, tallest=17.0, overhang=2.5, header=_HEADER_85, hdmi_u=32.0)
ZERO2W = Board("Raspberry Pi Zero 2 W", 65.0, 30.0,
               ((3.5, 3.5), (61.5, 3.5), (3.5, 26.5), (61.5, 26.5)),
               (Port("micro-USB power", 54.0, 12.0, 7.5, 1.5),),
               sd_v=16.9, tallest=8.5, overhang=0.0, header=(7.0, 58.0, 23.5, 29.5),
               hdmi_u=12.4)


@dataclass(frozen=True)
class Screen:
    """A screen module seen from its face: the outline, the visible area
    (offset from the module's centre, +x toward the connector side) and the
    room its connector and cable need behind or beside it."""
    name: str
    pixels: tuple[int, int]
    outline: tuple[float, float]
    thickness: float         # glass and board, without the connector
    visible: tuple[float, float]
    visible_offset: tuple[float, float]
    # The connector's keep-out, in the module's frame: x0, x1, y0, y1 (from
    # the module's centre), and how far below the module's face it reaches
    # (the plug and the cable's bend).
    connector: tuple[float, float, float, float, float]
    hdmi: bool = False       # fed from the Pi's HDMI socket: a plug and its cable there


# 3.5" 480x320 SPI (ili9486 family, e.g. Waveshare 3.5" RPi LCD (A)):
# 85.4 x 56 board, 73.44 x 48.96 active area; its 2x13 socket on the back
# along one long edge, a jumper plug and 20 mm for the wires to bend.
SCREEN35 = Screen('3.5" 480x320 SPI', (480, 320), (85.4, 56.0), 5.0,
                  (73.44, 48.96), (0.0, 0.0), (-40.0, -4.0, 17.0, 28.0, 40.0))
# 5" 800x480 HDMI (e.g. Waveshare 5" HDMI LCD): 121.1 x 77.9 board,
# 108 x 64.8 active area; the HDMI socket on the right edge, with a 90°
# flat (FPC) HDMI adapter: 22 mm beside the board, 16 mm down.
SCREEN5 = Screen('5" 800x480 HDMI', (800, 480), (121.1, 77.9), 6.0,
                 (108.0, 64.8), (0.0, 0.0), (60.55, 82.0, -15.0, 15.0, 16.0), hdmi=True)


@dataclass(frozen=True)
class Button:
    """A round panel button: the hole it wants, its bezel over the panel,
    the nut and body under it, and the microswitch's depth."""
    name: str
    hole: float
    bezel: float
    bezel_h: float           # bezel and plunger above the panel
    nut: float
    depth: float             # under the panel, switch included
    wires: float = 10.0      # spade terminals and their wires' bend, below the switch


ARCADE30 = Button("30 mm arcade, LED, microswitch", 30.0, 34.0, 6.0, 36.0, 40.0)
ARCADE24 = Button("24 mm arcade, LED, microswitch", 24.0, 28.0, 6.0, 30.0, 34.0)
POWER16 = Button("16 mm momentary", 16.0, 19.0, 3.0, 20.0, 22.0, wires=8.0)


@dataclass(frozen=True)
class Speaker:
    name: str
    diameter: float
    depth: float
    grille: float            # diameter of the perforated area


SPEAKER40 = Speaker("40 mm 4 Ω 3 W", 40.0, 20.0, 32.0)


@dataclass(frozen=True)
class Box:
    """The enclosure's own choices."""
    wall: float = 2.4        # 6 lines of a 0.4 mm nozzle
    floor: float = 2.4
    lid: float = 3.0         # thin enough for snap-in arcade buttons (their limit: 3.5–4)
    bezel: float = 1.2       # plate left in front of the screen's glass
    clearance: float = 0.3   # printer tolerance: added to every hole and pocket
    margin: float = 6.0      # between parts, and from the inner wall
    standoff: float = 5.0    # the Pi's board above the floor
    sd_gap: float = 1.0      # the Pi's SD end to the inner wall
    boss_d: float = 8.0      # the lid's screw posts (M3 self-tapping)
    boss_hole: float = 2.6
    min_wall: float = 1.2    # the thinnest printed wall we accept (3 lines)


@dataclass(frozen=True)
class Config:
    name: str
    board: Board
    screen: Screen
    button: Button
    speaker: Speaker = SPEAKER40
    power: Button | None = POWER16
    box: Box = field(default_factory=Box)

    def but(self, **changes: object) -> Config:
        """The same config with some box choices changed (a wrong box, in tests)."""
        return replace(self, box=replace(self.box, **changes))  # type: ignore[arg-type]


CONFIGS = {
    "pi4-35-30": Config("pi4-35-30", PI4, SCREEN35, ARCADE30),
    "zero2w-5-24": Config("zero2w-5-24", ZERO2W, SCREEN5, ARCADE24),
    "pi3-35-24": Config("pi3-35-24", PI3, SCREEN35, ARCADE24),
    "pi4-5-30": Config("pi4-5-30", PI4, SCREEN5, ARCADE30),
}
