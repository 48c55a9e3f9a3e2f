"""The enclosure (hardware/enclosure/) is checked, not just drawn: every STL
closed and inside the bed, no held part entering the shell, holes and posts
where the parts' own drawings put them, walls thick enough to print, the
laser panels' fingers filling each other's slots. Each check also runs on a
deliberately wrong box and must catch it. The numbers the box is held to
(bed, hole diameters, hole spacings, screen areas) are written here from the
makers' drawings, not read from the code under test."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("build123d", reason="the enclosure's extra: pip install -e '.[enclosure]'")
trimesh = pytest.importorskip("trimesh")

from build123d import Vector  # noqa: E402

from wolfbox.buttons import GAME_BUTTONS  # noqa: E402
from wolfbox.hardware.enclosure import model, panels  # noqa: E402
from wolfbox.hardware.enclosure.build import write_parts  # noqa: E402
from wolfbox.hardware.enclosure.layout import BUTTON_ORDER, Layout, plan  # noqa: E402
from wolfbox.hardware.enclosure.parts import CONFIGS  # noqa: E402

BED = (220.0, 220.0, 250.0)           # a common 220 x 220 x 250 printer
MIN_WALL = 1.2                        # three lines of a 0.4 mm nozzle
# From the makers' drawings: (Pi holes' spacing along, across), the screen's
# active area (mm) and pixels, the arcade button's panel hole.
DRAWINGS = {
    "pi4-35-30": dict(holes=(58.0, 49.0), power_u=3.5 + 7.7, area=(73.44, 48.96),
                      pixels=(480, 320), button_hole=30.0),
    "zero2w-5-24": dict(holes=(58.0, 23.0), power_u=54.0, area=(108.0, 64.8),
                        pixels=(800, 480), button_hole=24.0),
}
REQUIRED = sorted(DRAWINGS)


@pytest.fixture(scope="module", params=REQUIRED)
def box(request, tmp_path_factory):
    lay = plan(CONFIGS[request.param])
    out = tmp_path_factory.mktemp(request.param)
    files = write_parts(lay, out)
    return lay, model.printed(lay), files


def inside(solid, x: float, y: float, z: float) -> bool:
    return solid.is_inside(Vector(x, y, z))


# ------------------------------------------------------------ STL and bed
def stl_faults(path) -> list[str]:
    mesh = trimesh.load(path, force="mesh")
    faults = []
    if not mesh.is_watertight:
        faults.append("not watertight")
    if not mesh.is_winding_consistent:
        faults.append("winding inconsistent")
    if not mesh.is_volume or mesh.volume <= 0:
        faults.append("not a volume")
    for size, limit in zip(mesh.extents, BED, strict=True):
        if size > limit:
            faults.append(f"{size:.1f} mm > the bed's {limit:.0f} mm")
    if mesh.bounds[0][2] < -1e-6 or abs(mesh.bounds[0][2]) > 1e-3:
        faults.append("does not stand on the bed")
    return faults


def test_every_stl_is_closed_and_fits_the_bed(box):
    _, _, files = box
    stls = [p for k, p in files.items() if p.suffix == ".stl"]
    assert {p.stem for p in stls} == {"base", "lid", "clip"}
    for path in stls:
        assert stl_faults(path) == [], path.name
        import manifold3d
        import numpy as np
        mesh = trimesh.load(path, force="mesh")
        m = manifold3d.Manifold(manifold3d.Mesh(
            vert_properties=np.asarray(mesh.vertices, dtype=np.float32),
            tri_verts=np.asarray(mesh.faces, dtype=np.uint32)))
        assert m.status() == manifold3d.Error.NoError, path.name


def test_the_step_holds_the_box_and_its_parts(box):
    from build123d import import_step
    lay, printed, files = box
    step = import_step(str(files["step"]))
    solids = step.solids()
    assert len(solids) == len(printed) + len(model.components(lay))
    volume = sum(s.volume for s in solids)
    expected = sum(s.volume for s in printed.values()) + sum(
        s.volume for s in model.components(lay).values())
    assert volume == pytest.approx(expected, rel=1e-3)


def test_the_stl_check_catches_a_box_too_big_and_an_open_mesh(tmp_path):
    big = trimesh.creation.box(extents=(230.0, 100.0, 50.0))
    big.apply_translation((0, 0, 25))
    big.export(tmp_path / "big.stl")
    assert any("bed" in f for f in stl_faults(tmp_path / "big.stl"))
    holed = trimesh.creation.box(extents=(20.0, 20.0, 20.0))
    holed.apply_translation((0, 0, 10))
    holed.update_faces(list(range(1, len(holed.faces))))
    holed.export(tmp_path / "open.stl")
    assert "not watertight" in stl_faults(tmp_path / "open.stl")


# ----------------------------------------------------- parts vs the shell
def collisions(printed: dict, held: dict) -> list[tuple[str, str, float]]:
    hits = []
    for pname, part in printed.items():
        for cname, comp in held.items():
            common = part & comp
            volume = sum(s.volume for s in common.solids()) if common is not None else 0.0
            if volume > 1e-3:
                hits.append((pname, cname, round(volume, 2)))
    return hits


def test_no_held_part_enters_the_shell(box):
    lay, printed, _ = box
    held = model.components(lay)
    assert {"pi", "pi-header-jumpers", "screen", "screen-connector", "speaker",
            "button-START", "button-VOTE", "button-NEXT", "button-BACK"} <= set(held)
    assert collisions(printed, held) == []
    # ... nor another part (the Pi under the screen, the buttons' switches).
    names = sorted(held)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a.startswith("pi") and b.startswith("pi"):
                continue
            if a.startswith("screen") and b.startswith("screen"):
                continue
            common = held[a] & held[b]
            volume = sum(s.volume for s in common.solids()) if common is not None else 0.0
            assert volume < 1e-3, (a, b, volume)


def test_the_collision_check_catches_parts_out_of_place(box):
    lay, printed, _ = box
    x, y = lay.pi_origin
    moved = dataclasses.replace(lay, pi_origin=(x + 3.0, y))          # into the right wall
    hits = collisions(printed, model.components(moved))
    assert any(c == "pi" and p == "base" for p, c, _ in hits)
    shifted = dataclasses.replace(lay, buttons=tuple((bx + 2.0, by) for bx, by in lay.buttons))
    hits = collisions({"lid": printed["lid"]}, model.components(shifted))
    assert {c for _, c, _ in hits} >= {"button-START", "button-BACK"}


# -------------------------------------------- holes where the drawings say
def hole_radius(solid, x: float, y: float, z: float) -> float:
    """The radius of a round hole at (x, y) in a plate at height z, to 0.05 mm."""
    r = 0.0
    while r < 40:
        r += 0.05
        if any(inside(solid, x + r * dx, y + r * dy, z)
               for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            return r
    return r


def test_button_holes_in_the_legends_order_and_the_drawings_size(box):
    lay, printed, _ = box
    d = DRAWINGS[lay.config.name]
    lid, c = printed["lid"], lay.config.box.clearance
    # The legend's order on the screen, left to right, is the buttons' order.
    assert BUTTON_ORDER == tuple(b.name for b in GAME_BUTTONS)
    xs = [x for x, _ in lay.buttons]
    assert xs == sorted(xs)
    assert abs(sum(xs) / 4 - lay.screen[0]) < 0.5        # centred under the screen, like the legend
    z = lay.H - lay.config.box.lid / 2
    for x, y in lay.buttons:
        r = hole_radius(lid, x, y, z)
        assert d["button_hole"] / 2 + c - 0.1 <= r <= d["button_hole"] / 2 + c + 0.15
        # Under the nut, nothing but air for the switch and its wires.
        assert not inside(printed["base"], x, y, lay.config.box.floor + 12)


def test_screen_window_shows_the_active_area_at_the_screens_aspect(box):
    lay, printed, _ = box
    d = DRAWINGS[lay.config.name]
    lid = printed["lid"]
    x0, x1, y0, y1 = lay.window
    w, h = x1 - x0, y1 - y0
    assert d["area"][0] <= w <= d["area"][0] + 1.5
    assert d["area"][1] <= h <= d["area"][1] + 1.5
    assert abs(d["area"][0] / d["area"][1] - d["pixels"][0] / d["pixels"][1]) < 0.02
    z = lay.H - 0.3
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    assert not inside(lid, cx, cy, z)
    for px, py in ((x0 + 0.2, cy), (x1 - 0.2, cy), (cx, y0 + 0.2), (cx, y1 - 0.2)):
        assert not inside(lid, px, py, z)
    for px, py in ((x0 - 0.3, cy), (x1 + 0.3, cy), (cx, y0 - 0.3), (cx, y1 + 0.3)):
        assert inside(lid, px, py, z)
    # The visible area centred on the module's pocket.
    sx, sy = lay.screen
    assert abs(cx - sx) < 0.01 and abs(cy - sy) < 0.01


def test_pi_posts_and_openings_where_the_board_has_them(box):
    lay, printed, _ = box
    d = DRAWINGS[lay.config.name]
    base = printed["base"]
    z = lay.board_z - 1.0
    holes = []
    for x, y in lay.pi_holes():
        assert not inside(base, x, y, z)                     # the pilot hole
        assert inside(base, x + 2.2, y, z)                   # the post round it
        assert not inside(base, x, y, lay.board_z + 0.5)     # the board lies on it
        holes.append((x, y))
    xs = sorted({round(x, 3) for x, _ in holes})
    ys = sorted({round(y, 3) for _, y in holes})
    assert (round(xs[-1] - xs[0], 3), round(ys[-1] - ys[0], 3)) == d["holes"]
    # The power socket opens through the back wall, where the drawing puts it.
    px = lay.pi_origin[0] - d["power_u"]
    pz = lay.board_z + lay.config.board.pcb + 1.6
    assert not inside(base, px, lay.D / 2 - lay.config.box.wall / 2, pz)
    assert inside(base, px - 9.0, lay.D / 2 - lay.config.box.wall / 2, pz)
    # The SD card can be reached through the right wall.
    sy, sz, _, _ = lay.sd_slot()
    assert not inside(base, lay.W / 2 - lay.config.box.wall / 2, sy, sz)
    assert inside(base, lay.W / 2 - lay.config.box.wall / 2, sy + 12, sz)


# ------------------------------------------------------------- thickness
def thinnest(path, samples: int = 1500) -> float:
    """The smallest wall: from points spread over the surface, the largest
    ball inside the part touching each point (its diameter)."""
    mesh = trimesh.load(path, force="mesh")
    import numpy as np
    pts, faces = trimesh.sample.sample_surface_even(mesh, samples, seed=43)
    normals = mesh.face_normals[faces]
    t = trimesh.proximity.thickness(mesh, pts, exterior=False, normals=normals,
                                    method="ray")
    t = t[np.isfinite(t)]
    return float(np.percentile(t, 0.5))


def test_walls_are_thick_enough_to_print(box):
    lay, _, files = box
    for name in ("base", "lid", "clip"):
        assert thinnest(files[name]) >= MIN_WALL - 0.05, name


def test_the_thickness_check_catches_a_thin_wall(tmp_path):
    lay = plan(CONFIGS["pi4-35-30"].but(wall=0.8))
    path = tmp_path / "base.stl"
    from build123d import export_stl
    export_stl(model.base(lay), str(path))
    assert thinnest(path) < MIN_WALL - 0.05


# ------------------------------------------------------------ laser panels
def mating_faults(pieces: dict, lay: Layout) -> list[str]:
    W, D, H, T = lay.W, lay.D, lay.H, panels.SHEET
    faults = []
    shell = W * D * H - (W - 2 * T) * (D - 2 * T) * (H - 2 * T)
    total = sum(s.volume for s in pieces.values())
    if abs(total - shell) > 1e-3 * shell:
        faults.append(f"panels fill {total:.0f} of the shell's {shell:.0f} mm³")
    names = sorted(pieces)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = pieces[a] & pieces[b]
            v = sum(s.volume for s in common.solids()) if common is not None else 0.0
            if v > 1e-3:
                faults.append(f"{a} and {b} overlap by {v:.1f} mm³")
    return faults


@pytest.mark.parametrize("name", REQUIRED)
def test_finger_joints_mate(name):
    lay = plan(CONFIGS[name])
    laser = panels.laser_layout(lay)
    ps = panels.panels(lay)
    assert sorted(p.name for p in ps) == ["back", "bottom", "front", "left", "right", "top"]
    solids = {p.name: panels.placed(p, laser) for p in ps}
    assert mating_faults(solids, laser) == []
    # A front panel cut with the wrong fingers: its tabs hit the sides' tabs.
    front = next(p for p in ps if p.name == "front")
    W, H = front.size
    wrong = panels._outline(W, H, {"bottom": 1, "right": 1, "top": 1, "left": 1}, False)
    solids["front"] = panels.placed(dataclasses.replace(front, outline=tuple(wrong)), laser)
    assert any("overlap" in f for f in mating_faults(solids, laser))


def test_panels_are_svg_in_millimetres_with_the_tops_holes():
    lay = plan(CONFIGS["pi4-35-30"])
    svgs = panels.svgs(lay)
    top = ET.fromstring(svgs["top"])
    assert re.fullmatch(r"[\d.]+mm", top.get("width") or "")
    ns = "{http://www.w3.org/2000/svg}"
    circles = [float(c.get("r") or 0) * 2 for c in top.iter(ns + "circle")]
    big = sorted(d for d in circles if d > 10)
    c = lay.config.box.clearance
    assert big == pytest.approx([16.0 + 2 * c] + [30.0 + 2 * c] * 4)
    assert len(list(top.iter(ns + "rect"))) == 1             # the screen's window


def test_the_legend_on_the_real_screen_names_the_buttons_left_to_right():
    """The start screen's legend (docs/screenshots, as the box draws it) has
    its boxes outlined in the colours of the buttons that sit below it on
    the box, in the same order from the left."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from pathlib import Path

    import pygame

    from wolfbox.buttons import BUTTON_COLORS, Button
    from wolfbox.device.style import BOX_GAP, BOX_W, LEGEND_H, LEGEND_Y
    from wolfbox.hardware.enclosure.build import COLORS
    shot = pygame.image.load(str(Path(__file__).parent.parent / "docs/screenshots/1-start.png"))
    assert shot.get_size() == (480, 320)
    seen = []
    for i in range(4):
        x, y = 4 + i * (BOX_W + BOX_GAP) + 1, LEGEND_Y + LEGEND_H // 2
        rgb = tuple(shot.get_at((x, y)))[:3]
        seen.append(min(BUTTON_COLORS, key=lambda b: sum(
            (a - c) ** 2 for a, c in zip(BUTTON_COLORS[b], rgb, strict=True))))
    for name in REQUIRED:
        lay = plan(CONFIGS[name])
        left_to_right = [n for _, n in sorted(zip((x for x, _ in lay.buttons), BUTTON_ORDER,
                                                  strict=True))]
        assert [Button[n] for n in left_to_right] == seen
        assert [COLORS[n] for n in left_to_right] == [BUTTON_COLORS[b] for b in seen]


def test_the_window_shows_a_screenshot_only_at_its_screens_resolution(tmp_path):
    """Each box's window shows the box's own screen at the resolution that
    screen is set for; a screenshot of another size is never stretched in."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from wolfbox.hardware.enclosure.build import screenshot_for
    shots = []
    for w, h in ((480, 320), (800, 480)):
        path = tmp_path / f"{w}x{h}.png"
        pygame.image.save(pygame.Surface((w, h)), str(path))
        shots.append(path)
    for name in REQUIRED:
        lay = plan(CONFIGS[name])
        got = screenshot_for(lay, shots)
        assert got is not None and got.stem == "x".join(map(str, DRAWINGS[name]["pixels"]))
    assert screenshot_for(plan(CONFIGS["zero2w-5-24"]), shots[:1]) is None
