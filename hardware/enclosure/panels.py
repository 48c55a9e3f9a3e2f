"""The same box as six flat panels for a laser cutter (3 mm plywood or
acrylic), finger-jointed: every edge of the box is a strip one sheet thick,
cut into an odd number of fingers that belong in turn to the two panels
meeting there, and the eight corner cubes belong to the top and the bottom.
So the panels tile the box's shell exactly: each tab fills the other's slot
(the tests check that in 3D). Pure Python; the SVG is written by hand."""

from __future__ import annotations

from dataclasses import dataclass

from .layout import Layout, plan

SHEET = 3.0
FINGER = 3 * SHEET       # about three sheets wide
KERF_NOTE = "cut lines 0.1 mm red; no kerf compensation (add it in the cutter's software)"


@dataclass(frozen=True)
class Panel:
    name: str
    size: tuple[float, float]              # local a x b
    outline: tuple[tuple[float, float], ...]
    circles: tuple[tuple[float, float, float], ...]          # x, y, diameter
    rects: tuple[tuple[float, float, float, float], ...]     # x0, y0, x1, y1


def segments(length: float) -> list[tuple[float, float]]:
    """The fingers along an edge between its two corner cubes."""
    inner = length - 2 * SHEET
    n = max(3, int(inner / FINGER))
    if n % 2 == 0:
        n -= 1
    step = inner / n
    return [(SHEET + i * step, SHEET + (i + 1) * step) for i in range(n)]


def _outline(a: float, b: float, owns: dict[str, int], corners: bool) -> list[tuple[float, float]]:
    """Walk round a panel a x b. owns[side] = which fingers it keeps (0: the
    even ones, 1: the odd); a finger kept reaches the edge, one given away
    leaves a notch one sheet deep."""
    pts: list[tuple[float, float]] = []

    def put(p: tuple[float, float]) -> None:
        if not pts or abs(pts[-1][0] - p[0]) > 1e-9 or abs(pts[-1][1] - p[1]) > 1e-9:
            pts.append(p)

    T = SHEET
    sides = (("bottom", a, lambda s, d: (s, d)),
             ("right", b, lambda s, d: (a - d, s)),
             ("top", a, lambda s, d: (a - s, b - d)),
             ("left", b, lambda s, d: (d, b - s)))
    for name, length, at in sides:
        if corners:
            put(at(0, 0))
            put(at(T, 0))
        else:
            put(at(T, T))
        for i, (s0, s1) in enumerate(segments(length)):
            d = 0.0 if i % 2 == owns[name] else T
            put(at(s0, d))
            put(at(s1, d))
        if corners:
            put(at(length - T, 0))
            put(at(length, 0))
    return pts


def _panels(lay: Layout) -> list[Panel]:
    W, D, H = lay.W, lay.D, lay.H
    c = lay.config
    cl = c.box.clearance
    # The top and the bottom keep the fingers at both ends of their edges,
    # next to the corner cubes they own; the walls keep the others.
    flat = {"bottom": 0, "right": 0, "top": 0, "left": 0}
    wall_fb = {"bottom": 1, "right": 0, "top": 1, "left": 0}
    wall_lr = {"bottom": 1, "right": 1, "top": 1, "left": 1}
    # The top: holes as the printed lid has them (frame (x, y) -> local (x + W/2, y + D/2)).
    top_c = [(x + W / 2, y + D / 2, c.button.hole + 2 * cl) for x, y in lay.buttons]
    if lay.power and c.power:
        top_c.append((lay.power[0] + W / 2, lay.power[1] + D / 2, c.power.hole + 2 * cl))
    kx, ky = lay.speaker
    r = c.speaker.grille / 2
    y = -r
    row = 0
    while y <= r:
        x = -r + (2.0 if row % 2 else 0)
        while x <= r:
            if (x * x + y * y) ** 0.5 <= r - 1.25:
                top_c.append((kx + x + W / 2, ky + y + D / 2, 2.5))
            x += 4.0
        y += 3.464
        row += 1
    x0, x1, y0, y1 = lay.window
    top_r = [(x0 + W / 2, y0 + D / 2, x1 + W / 2, y1 + D / 2)]
    bottom_c = [(x + W / 2, y + D / 2, 2.8) for x, y in lay.pi_holes()]
    back_r = []
    for _, x, z, w, h in lay.ports():
        w, h = w + 2 * cl, h + 2 * cl
        back_r.append((x + W / 2 - w / 2, z - h / 2, x + W / 2 + w / 2, z + h / 2))
    sy, sz, sw, sh = lay.sd_slot()
    right_r = [(sy + D / 2 - sw / 2, sz - sh / 2, sy + D / 2 + sw / 2, sz + sh / 2)]
    return [
        Panel("bottom", (W, D), tuple(_outline(W, D, flat, True)), tuple(bottom_c), ()),
        Panel("top", (W, D), tuple(_outline(W, D, flat, True)), tuple(top_c), tuple(top_r)),
        Panel("front", (W, H), tuple(_outline(W, H, wall_fb, False)), (), ()),
        Panel("back", (W, H), tuple(_outline(W, H, wall_fb, False)), (), tuple(back_r)),
        Panel("left", (D, H), tuple(_outline(D, H, wall_lr, False)), (), ()),
        Panel("right", (D, H), tuple(_outline(D, H, wall_lr, False)), (), tuple(right_r)),
    ]


def laser_layout(lay: Layout) -> Layout:
    """The printed box's parts in a box of 3 mm sheet."""
    c = lay.config.but(wall=SHEET, floor=SHEET, lid=SHEET)
    return plan(c)


def panels(lay: Layout) -> list[Panel]:
    return _panels(laser_layout(lay))


def svg(panel: Panel) -> str:
    a, b = panel.size
    m = 2.0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{a + 2 * m:.2f}mm" '
           f'height="{b + 2 * m:.2f}mm" '
           f'viewBox="{-m:.2f} {-m:.2f} {a + 2 * m:.2f} {b + 2 * m:.2f}">',
           f"<!-- {panel.name}: {a:.1f} x {b:.1f} mm, {SHEET:.0f} mm sheet; {KERF_NOTE} -->",
           '<g fill="none" stroke="#ff0000" stroke-width="0.1">']
    # SVG's y runs down: flip so the drawing reads as the panel from outside.
    def p(x: float, y: float) -> str:
        return f"{x:.3f},{b - y:.3f}"
    out.append('<polygon points="' + " ".join(p(x, y) for x, y in panel.outline) + '"/>')
    for x, y, d in panel.circles:
        out.append(f'<circle cx="{x:.3f}" cy="{b - y:.3f}" r="{d / 2:.3f}"/>')
    for x0, y0, x1, y1 in panel.rects:
        out.append(f'<rect x="{x0:.3f}" y="{b - y1:.3f}" width="{x1 - x0:.3f}" '
                   f'height="{y1 - y0:.3f}"/>')
    out += ["</g>", "</svg>", ""]
    return "\n".join(out)


def svgs(lay: Layout) -> dict[str, str]:
    return {p.name: svg(p) for p in panels(lay)}


def placed(panel: Panel, lay: Layout) -> object:
    """A panel as a solid in its place in the box (for the tests)."""
    from build123d import Plane, Polyline, extrude, make_face
    W, D, H = lay.W, lay.D, lay.H
    pts = list(panel.outline)
    if abs(pts[0][0] - pts[-1][0]) < 1e-9 and abs(pts[0][1] - pts[-1][1]) < 1e-9:
        pts.pop()
    planes = {
        "bottom": (Plane.XY.offset(0), lambda x, y: (x - W / 2, y - D / 2)),
        "top": (Plane.XY.offset(H - SHEET), lambda x, y: (x - W / 2, y - D / 2)),
        "front": (Plane.XZ.offset(D / 2 - SHEET), lambda x, y: (x - W / 2, y)),
        "back": (Plane.XZ.offset(-D / 2), lambda x, y: (x - W / 2, y)),
        "left": (Plane.YZ.offset(-W / 2), lambda x, y: (x - D / 2, y)),
        "right": (Plane.YZ.offset(W / 2 - SHEET), lambda x, y: (x - D / 2, y)),
    }
    plane, to = planes[panel.name]
    face = make_face(Polyline(*[to(x, y) for x, y in pts], close=True))
    return extrude(plane * face, SHEET)
