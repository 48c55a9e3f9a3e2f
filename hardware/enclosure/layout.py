"""Where every part sits, and so how big the box is: pure arithmetic from
parts.py, shared by the printed model, the laser panels and the tests.

The box's frame: x across the table-side face (left to right as the player
in front sees it), y away from that player (front face at -D/2), z up from
the table (the box's underside at 0, the lid's top face at H). The screen's
foot, where the legend is drawn, faces the front; the buttons are in front
of it, each straight below its own box of the legend (wolfbox/legend.py, the
fact the painter draws the boxes from). The boxes are closer together than
arcade buttons can be, so the buttons stand in two staggered rows: START and
NEXT in front, VOTE and BACK behind, between them. The Pi lies in the back
right corner, its SD card at the right wall and its power socket at the
back wall."""

from __future__ import annotations

import math
from dataclasses import dataclass

from wolfbox import legend

from .parts import Board, Config, Screen

BUTTON_ORDER = ("START", "VOTE", "NEXT", "BACK")
# The Pi's port edge stands this far from the back wall's inner face: close,
# so the power plug reaches through the wall; with an HDMI screen far enough
# for the HDMI adapter's plug and the bend of its flat cable.
PORT_GAP = 1.0
HDMI_ROOM = 22.0
# Above the GPIO header: a jumper's housing (14 mm) on the 8.5 mm pins.
HEADER_ROOM = 22.5
SPEAKER_RING = 1.6
FRAME = 2.0              # the screen pocket's wall under the lid
CLIP = (12.0, 2.5, 2.0)  # a screen clip: width, thickness, overlap onto the board
CLIP_BLOCK = 8.0         # the frame's block a clip screws into, out from the frame
# Between the nuts of two buttons in neighbouring rows: room for the fingers
# that turn them. (Two buttons in the same row are as far apart as every
# other box of the legend: on the 3.5" screen that leaves 0.4 mm between
# 36 mm nuts, which turn freely.)
NUT_GAP = 3.0


class LegendTooNarrow(ValueError):
    """The screen's legend puts every other box closer than the buttons' nuts."""


@dataclass(frozen=True)
class Layout:
    config: Config
    W: float
    D: float
    H: float
    buttons: tuple[tuple[float, float], ...]   # centres, in BUTTON_ORDER
    screen: tuple[float, float]                # the module's centre
    window: tuple[float, float, float, float]  # x0, x1, y0, y1 of the lid's opening
    speaker: tuple[float, float]
    power: tuple[float, float] | None
    bosses: tuple[tuple[float, float], ...]    # the lid's screw posts
    pi_origin: tuple[float, float]             # the board's (u, v) = (0, 0) corner
    clip_shift: float = 0.0                    # the front clip, along x from the middle

    @property
    def port_gap(self) -> float:
        return HDMI_ROOM if self.config.screen.hdmi else PORT_GAP

    # ----------------------------------------------------------- the Pi
    def pi_xy(self, u: float, v: float) -> tuple[float, float]:
        """A point of the board (its drawing's u, v) in the box: the board
        lies turned half round, port edge to the back, SD end to the right."""
        x0, y0 = self.pi_origin
        return x0 - u, y0 - v

    @property
    def board_z(self) -> float:
        """The board's underside."""
        b = self.config.box
        return b.floor + b.standoff

    def pi_holes(self) -> list[tuple[float, float]]:
        return [self.pi_xy(u, v) for u, v in self.config.board.holes]

    def ports(self) -> list[tuple[str, float, float, float, float]]:
        """Each port's opening in the back wall: name, x, z, width, height."""
        b = self.config.board
        top = self.board_z + b.pcb
        return [(p.name, self.pi_xy(p.u, 0)[0], top + p.z, p.width, p.height) for p in b.ports]

    def sd_slot(self) -> tuple[float, float, float, float]:
        """The slot in the right wall the card is reached through: y, z, width, height."""
        b = self.config.board
        return self.pi_xy(0, b.sd_v)[1], self.board_z - b.under / 2, 15.0, 5.0

    # -------------------------------------------------------- the screen
    @property
    def face_z(self) -> float:
        """The screen's glass, pressed against the lid's bezel."""
        return self.H - self.config.box.bezel

    @property
    def lid_z(self) -> float:
        """The lid's underside: the walls' and posts' top."""
        return self.H - self.config.box.lid

    def visible(self) -> tuple[float, float, float, float]:
        s = self.config.screen
        cx, cy = self.screen[0] + s.visible_offset[0], self.screen[1] + s.visible_offset[1]
        return cx - s.visible[0] / 2, cx + s.visible[0] / 2, cy - s.visible[1] / 2, \
            cy + s.visible[1] / 2

    def clips(self) -> list[tuple[float, float, str]]:
        """The two clips that hold the screen: their middle on the board's edge,
        on the two edges that the connector leaves free."""
        s = self.config.screen
        cx, cy = self.screen
        w, h = s.outline
        if _clips_on_short_edges(s):
            return [(cx - w / 2, cy, "x-"), (cx + w / 2, cy, "x+")]
        return [(cx + self.clip_shift, cy - h / 2, "y-"), (cx, cy + h / 2, "y+")]


def _clips_on_short_edges(s: Screen) -> bool:
    """Whether the connector is on a long edge, leaving the clips the short ones."""
    h = s.outline[1]
    _, _, y0, y1, _ = s.connector
    return y1 > h / 2 - 1 or y0 < -h / 2 + 1


def _foot(config: Config) -> float:
    return max(config.button.bezel, config.button.nut)


def _pi_extent(board: Board) -> tuple[float, float]:
    """How much room the board takes along x (with the card and the sockets
    standing out) and along y."""
    return board.sd_out + board.length + board.overhang, board.width


def button_axes(config: Config) -> tuple[tuple[float, ...], float]:
    """Each button's x (from the screen's middle), straight below its box
    of the legend, and how far behind the front row the back row stands
    (0: one row, where the boxes are far enough apart)."""
    s, btn = config.screen, config.button
    xs = tuple(s.visible_offset[0] + c for c in legend.centres_mm(s.pixels, s.visible))
    step = min(b - a for a, b in zip(xs, xs[1:], strict=False))
    if 2 * step < btn.nut:
        raise LegendTooNarrow(
            f"{config.name}: every other box of the {s.name} screen's legend is "
            f"{2 * step:.1f} mm apart, closer than the {btn.nut:.0f} mm nuts of "
            f"{btn.name} buttons: choose smaller buttons or a larger screen")
    reach = btn.nut + NUT_GAP
    return xs, math.sqrt(reach ** 2 - step ** 2) if step < reach else 0.0


def _front_clip(config: Config, buttons: tuple[tuple[float, float], ...],
                edge: float) -> float | None:
    """Where along the screen's front edge its clip's block (out to `edge`
    from the frame) clears every button's nut by a millimetre: the place
    nearest the middle, or None if there is none."""
    half = CLIP[0] / 2
    reach = config.button.nut / 2 + 1.0
    y0, y1 = edge - CLIP_BLOCK, edge
    room = config.screen.outline[0] / 2 - half
    for step in range(int(room * 2) + 1):
        for shift in ((step / 2, -step / 2) if step else (0.0,)):
            x0, x1 = shift - half, shift + half
            if all(math.hypot(max(x0 - bx, 0, bx - x1), max(y0 - by, 0, by - y1)) >= reach
                   for bx, by in buttons):
                return shift
    return None


def plan(config: Config) -> Layout:
    """The box for one set of parts."""
    b, s, k = config.box, config.screen, config.speaker
    t, m = b.wall, b.margin
    foot = _foot(config)
    xs, rows = button_axes(config)
    row = 2 * max(abs(x) for x in xs) + foot
    cx0, cx1, _, _, conn_depth = s.connector
    screen_half = max(s.outline[0] / 2 + FRAME + b.clearance, cx1, -cx0)
    power = config.power
    back_row = k.diameter + 2 * SPEAKER_RING + (m + max(power.bezel, power.nut) if power else 0)
    pi_len, pi_wid = _pi_extent(config.board)
    inner_w = max(row + 2 * (m + b.boss_d), 2 * (screen_half + m),
                  back_row + 2 * (m + b.boss_d),
                  pi_len + b.sd_gap + m + b.boss_d)
    W = math.ceil(inner_w + 2 * t)
    # Front to back: the buttons, the screen with its pocket's frame, the speaker.
    frame_y = FRAME + b.clearance
    # A clip on the screen's front edge goes where the back row leaves it
    # room, else the screen moves back by its block.
    clip_shift: float | None = 0.0
    if not _clips_on_short_edges(s):
        rel = tuple((x, rows if i % 2 else 0.0) for i, x in enumerate(xs))
        clip_shift = _front_clip(config, rel, rows + foot / 2 + m)
    clip_room = CLIP_BLOCK if clip_shift is None else 0.0
    inner_d = m + foot + rows + m + clip_room + frame_y + s.outline[1] + frame_y + m \
        + k.diameter + 2 * SPEAKER_RING + m
    port_gap = HDMI_ROOM if s.hdmi else PORT_GAP
    inner_d = max(inner_d, m + foot + rows + m + b.boss_d + m + pi_wid + port_gap)
    D = math.ceil(inner_d + 2 * t)
    # Height: the buttons and their wires, or the Pi's header and jumpers
    # under the screen's connector and its cable, whichever is taller.
    pi_top = b.floor + b.standoff + config.board.pcb + max(config.board.tallest, HEADER_ROOM)
    btn = config.button
    H = math.ceil(max(b.floor + m / 2 + b.lid + btn.depth + btn.wires,
                      pi_top + m / 2 + b.bezel + max(conn_depth, s.thickness),
                      b.floor + m / 2 + b.lid + k.depth))
    front, back = -D / 2 + t, D / 2 - t
    left, right = -W / 2 + t, W / 2 - t
    by = front + m + foot / 2
    buttons = tuple((x, by + (rows if i % 2 else 0.0)) for i, x in enumerate(xs))
    sy = by + rows + foot / 2 + m + clip_room + frame_y + s.outline[1] / 2
    ky = sy + s.outline[1] / 2 + frame_y + m + SPEAKER_RING + k.diameter / 2
    kx = left + b.boss_d + m + SPEAKER_RING + k.diameter / 2
    px = kx + k.diameter / 2 + SPEAKER_RING + m + (max(power.bezel, power.nut) / 2 if power else 0)
    pi_origin = (right - b.sd_gap, back - port_gap)
    r = b.boss_d / 2 - 1.0            # posts sunk 1 mm into the walls: merged, not tangent
    pi_front = pi_origin[1] - config.board.width
    bosses = ((left + r, front + r), (right - r, front + r), (left + r, back - r),
              (right - r, pi_front - m - r))
    vis = Layout(config, W, D, H, buttons, (0.0, sy), (0, 0, 0, 0), (kx, ky),
                 (px, ky) if power else None, bosses, pi_origin).visible()
    edge = 0.5               # a little black border shows round the picture
    window = (vis[0] - edge, vis[1] + edge, vis[2] - edge, vis[3] + edge)
    return Layout(config, W, D, H, buttons, (0.0, sy), window, (kx, ky),
                  (px, ky) if power else None, bosses, pi_origin, clip_shift or 0.0)
