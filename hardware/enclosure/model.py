"""The printed box as solids (build123d), and the parts it holds as the
room each needs (keep-outs: the tests check the box never enters them).

build123d rather than CadQuery: the same OpenCascade kernel (OCP wheels), but
plain Python objects and operators (`Pos(...) * Box(...) - hole`) instead of
a fluent chain with a hidden stack, which keeps every feature a named value
the tests can reach; it also exports STL, STEP, SVG and DXF itself."""

from __future__ import annotations

from build123d import Axis, Box, Compound, Cylinder, Pos, Solid, fillet

from .layout import CLIP, CLIP_BLOCK, FRAME, SPEAKER_RING, Layout

CORNER_R = 4.0           # the box's vertical edges, rounded
PILOT_PI = 2.2           # M2.5 self-tapping into plastic
PILOT_DEPTH = 12.0


def cuboid(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Solid:
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2) * Box(x1 - x0, y1 - y0, z1 - z0)


def cylinder(x: float, y: float, z0: float, z1: float, d: float) -> Solid:
    return Pos(x, y, (z0 + z1) / 2) * Cylinder(d / 2, z1 - z0)


def _rounded(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Solid:
    block = cuboid(x0, x1, y0, y1, z0, z1)
    return fillet(block.edges().filter_by(Axis.Z), CORNER_R)


def _union(shapes: list[Solid]) -> Solid:
    out = shapes[0]
    for s in shapes[1:]:
        out = out + s
    return out


def base(lay: Layout) -> Solid:
    """The tray: floor, four walls, the lid's screw posts and the Pi's standoffs,
    with the openings for power, sound, the SD card and air."""
    c = lay.config
    b, t = c.box, c.box.wall
    W, D, top = lay.W, lay.D, lay.lid_z
    left, right, front, back = -W / 2 + t, W / 2 - t, -D / 2 + t, D / 2 - t
    shell = _rounded(-W / 2, W / 2, -D / 2, D / 2, 0, top) - cuboid(left, right, front, back,
                                                                    b.floor, top + 1)
    posts = [cylinder(x, y, b.floor - 0.1, top, b.boss_d) for x, y in lay.bosses]
    standoffs = [cylinder(x, y, b.floor - 0.1, lay.board_z, 6.0) for x, y in lay.pi_holes()]
    body = _union([shell, *posts, *standoffs])
    cuts: list[Solid] = []
    cuts += [cylinder(x, y, top - PILOT_DEPTH, top + 1, b.boss_hole) for x, y in lay.bosses]
    cuts += [cylinder(x, y, lay.board_z - 5, lay.board_z + 1, PILOT_PI) for x, y in lay.pi_holes()]
    for _, x, z, w, h in lay.ports():
        w, h = w + 2 * b.clearance, h + 2 * b.clearance
        cuts.append(cuboid(x - w / 2, x + w / 2, back - 1, D / 2 + 1, z - h / 2, z + h / 2))
    y, z, w, h = lay.sd_slot()
    cuts.append(cuboid(right - 1, W / 2 + 1, y - w / 2, y + w / 2, z - h / 2, z + h / 2))
    cuts += vents(lay)
    return body - _union(cuts)


def vents(lay: Layout) -> list[Solid]:
    """Cool air in through slots in the floor under the Pi (the feet lift it
    3 mm), warm air out high in the back wall. For a Pi 4 (3–6 W of heat):
    10 cm² in, 5 cm² out; a Zero 2 W (1–3 W) gets 2.4 cm² in, 5 cm² out."""
    c = lay.config
    b, board = c.box, c.board
    out: list[Solid] = []
    v0, v1 = 9.0, board.width - 9.0
    u = 10.0
    while u <= board.length - 12:
        x = lay.pi_xy(u, 0)[0]
        y0, y1 = lay.pi_xy(0, v1)[1], lay.pi_xy(0, v0)[1]
        out.append(cuboid(x - 1.25, x + 1.25, y0, y1, -1, b.floor + 1))
        u += 6.0
    back = lay.D / 2 - c.box.wall
    x = -lay.W / 2 + b.wall + b.boss_d + b.margin + 2
    top = lay.lid_z - 8
    for _ in range(8):
        out.append(cuboid(x, x + 2.5, back - 1, lay.D / 2 + 1, top - 24, top))
        x += 6.0
    return out


def grille(lay: Layout) -> list[Solid]:
    """2.5 mm holes on a 4 mm hexagonal grid over the speaker's cone."""
    kx, ky = lay.speaker
    r = lay.config.speaker.grille / 2
    holes: list[Solid] = []
    step, row = 4.0, 0
    y = -r
    while y <= r:
        x = -r + (step / 2 if row % 2 else 0)
        while x <= r:
            if (x * x + y * y) ** 0.5 <= r - 1.25:
                holes.append(cylinder(kx + x, ky + y, lay.lid_z - 1, lay.H + 1, 2.5))
            x += step
        y += step * 0.866
        row += 1
    return holes


def lid(lay: Layout) -> Solid:
    """The top: the screen's window in its bezel, the four buttons, the
    speaker's grille and the power button; under it the screen's pocket and
    frame (with blocks for its two clips) and the speaker's ring."""
    c = lay.config
    b, s = c.box, c.screen
    cl = b.clearance
    plate = _rounded(-lay.W / 2, lay.W / 2, -lay.D / 2, lay.D / 2, lay.lid_z, lay.H)
    sx, sy = lay.screen
    hw, hh = s.outline[0] / 2 + cl, s.outline[1] / 2 + cl
    bottom = lay.face_z - s.thickness
    frame = cuboid(sx - hw - FRAME, sx + hw + FRAME, sy - hh - FRAME, sy + hh + FRAME,
                   bottom, lay.lid_z + 0.1)
    blocks: list[Solid] = []
    holes: list[Solid] = []
    for x, y, side, (bx, by) in _clip_blocks(lay):
        blocks.append(cuboid(bx[0], bx[1], by[0], by[1], bottom, lay.lid_z + 0.1))
        # 6 mm deep for the screw, but never closer than 1.5 mm to the lid's face.
        holes.append(cylinder(x, y, bottom - 1, min(bottom + 6, lay.H - 1.5), PILOT_PI))
        del side
    kx, ky = lay.speaker
    ring = cylinder(kx, ky, lay.lid_z - 4, lay.lid_z + 0.1,
                    c.speaker.diameter + 2 * cl + 2 * SPEAKER_RING)
    body = _union([plate, frame, ring, *blocks])
    cuts = [cuboid(sx - hw, sx + hw, sy - hh, sy + hh, bottom - 1, lay.face_z),
            cuboid(*lay.window, lay.lid_z - 1, lay.H + 1),
            cylinder(kx, ky, lay.lid_z - 5, lay.lid_z, c.speaker.diameter + 2 * cl),
            _connector(lay, grow=cl)]
    cuts += [cylinder(x, y, lay.lid_z - 1, lay.H + 1, c.button.hole + 2 * cl)
             for x, y in lay.buttons]
    if lay.power and c.power:
        cuts.append(cylinder(*lay.power, lay.lid_z - 1, lay.H + 1, c.power.hole + 2 * cl))
    cuts += [cylinder(x, y, lay.lid_z - 1, lay.H + 1, 3.4) for x, y in lay.bosses]
    cuts += grille(lay) + holes
    return body - _union(cuts)


def _clip_blocks(lay: Layout) -> list[tuple[float, float, str,
                                            tuple[tuple[float, float], tuple[float, float]]]]:
    """Each clip's screw (x, y) and the frame's block it screws into."""
    s, cl = lay.config.screen, lay.config.box.clearance
    out = []
    half_w = CLIP[0] / 2
    for x, y, side in lay.clips():
        sign = -1 if side.endswith("-") else 1
        if side[0] == "x":
            edge = x + sign * (cl + FRAME)
            far = edge + sign * CLIP_BLOCK
            out.append(((edge + far) / 2, y, side,
                        ((min(edge, far), max(edge, far)), (y - half_w, y + half_w))))
        else:
            edge = y + sign * (cl + FRAME)
            far = edge + sign * CLIP_BLOCK
            out.append((x, (edge + far) / 2, side,
                        ((x - half_w, x + half_w), (min(edge, far), max(edge, far)))))
    del s
    return out


def clip(lay: Layout, which: int = 0) -> Solid:
    """A screen clip, in place: from the frame's block over the board's edge."""
    s = lay.config.screen
    bottom = lay.face_z - s.thickness
    x, y, side, (bx, by) = _clip_blocks(lay)[which]
    _, thick, overlap = CLIP
    sign = -1 if side.endswith("-") else 1
    mx, my, _ = lay.clips()[which]
    if side[0] == "x":
        inner = mx - sign * overlap
        xs = (min(bx[0], inner), max(bx[1], inner))
        body = cuboid(xs[0], xs[1], by[0], by[1], bottom - thick, bottom)
    else:
        inner = my - sign * overlap
        ys = (min(by[0], inner), max(by[1], inner))
        body = cuboid(bx[0], bx[1], ys[0], ys[1], bottom - thick, bottom)
    return body - cylinder(x, y, bottom - thick - 1, bottom + 1, 2.8)


def _connector(lay: Layout, grow: float = 0.0) -> Solid:
    s = lay.config.screen
    x0, x1, y0, y1, depth = s.connector
    sx, sy = lay.screen
    return cuboid(sx + x0 - grow, sx + x1 + grow, sy + y0 - grow, sy + y1 + grow,
                  lay.face_z - depth - grow, lay.lid_z + grow)


def printed(lay: Layout) -> dict[str, Solid]:
    """Every printed part in its place in the assembled box."""
    return {"base": base(lay), "lid": lid(lay), "clip-1": clip(lay, 0), "clip-2": clip(lay, 1)}


def components(lay: Layout) -> dict[str, Solid]:
    """The room each held part needs: its body, and the space its plugs,
    wires and cables take."""
    c = lay.config
    board, s = c.board, c.screen
    z0 = lay.board_z
    top = z0 + board.pcb
    px0, py0 = lay.pi_origin
    out: dict[str, Solid] = {}
    # The board turned half round: u runs to -x, v to -y.
    out["pi"] = _union([
        cuboid(px0 - board.length - board.overhang, px0, py0 - board.width, py0, z0,
               top + board.tallest),
        cuboid(px0 - 15, px0 + board.sd_out, lay.pi_xy(0, board.sd_v + 6)[1],
               lay.pi_xy(0, board.sd_v - 6)[1], z0 - board.under, z0),
    ])
    h0, h1, hv0, hv1 = board.header
    out["pi-header-jumpers"] = cuboid(px0 - h1, px0 - h0, py0 - hv1, py0 - hv0, top,
                                      top + 22.5)
    if s.hdmi:
        # A flat (FPC) HDMI adapter's plug, 14 x 8 mm, from its socket to the wall.
        x = lay.pi_xy(board.hdmi_u, 0)[0]
        out["pi-hdmi-plug"] = cuboid(x - 7, x + 7, py0, lay.D / 2 - c.box.wall, top,
                                     top + 8)
    sx, sy = lay.screen
    w, h = s.outline
    out["screen"] = cuboid(sx - w / 2, sx + w / 2, sy - h / 2, sy + h / 2,
                           lay.face_z - s.thickness, lay.face_z)
    out["screen-connector"] = _connector(lay)
    for name, (x, y) in zip(("START", "VOTE", "NEXT", "BACK"), lay.buttons, strict=True):
        out[f"button-{name}"] = _button(lay, x, y, c.button)
    if lay.power and c.power:
        out["button-POWER"] = _button(lay, *lay.power, c.power)
    kx, ky = lay.speaker
    out["speaker"] = cylinder(kx, ky, lay.lid_z - c.speaker.depth, lay.lid_z, c.speaker.diameter)
    return out


def _button(lay: Layout, x: float, y: float, btn: object) -> Solid:
    from .parts import Button
    assert isinstance(btn, Button)
    return _union([
        cylinder(x, y, lay.H, lay.H + btn.bezel_h, btn.bezel),
        cylinder(x, y, lay.lid_z - 0.01, lay.H + 0.01, btn.hole),
        cylinder(x, y, lay.lid_z - btn.depth - btn.wires, lay.lid_z, btn.nut),
    ])


def assembly(lay: Layout) -> Compound:
    parts = []
    for name, solid in {**printed(lay), **components(lay)}.items():
        solid.label = name
        parts.append(solid)
    return Compound(children=parts, label=lay.config.name)
