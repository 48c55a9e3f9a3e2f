"""`make enclosure`: every file a maker needs, for each configuration:
STL per printed part (laid flat for the bed), the laser-cut panels (SVG),
the STEP of the assembly, and the pictures.

    python -m wolfbox.hardware.enclosure.build [--out build/enclosure]
        [--config pi4-35-30 ...] [--pictures docs/enclosure] [--legend docs/enclosure]
        [--screenshot shots/480x320/1-start.png --screenshot shots/800x480/1-start.png]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from build123d import Compound, Pos, Rot, Solid, export_step, export_stl

from wolfbox.buttons import BUTTON_COLORS

from . import model, panels
from .layout import BUTTON_ORDER, Layout, LegendTooNarrow, plan
from .parts import CONFIGS, Config

BED = (220.0, 220.0, 250.0)
# The caps in the pictures: the colours the legend on the screen uses.
COLORS = {b.name: c for b, c in BUTTON_COLORS.items()} | {"POWER": (60, 60, 60)}
SHELL = (225, 215, 190)
LID = (205, 195, 170)


def print_pose(name: str, solid: Solid, lay: Layout) -> Solid:
    """A part as it goes on the bed: the base on its floor, the lid upside
    down on its face (bezel and button holes need no support that way), a
    clip flat; each moved to stand on z = 0 at the bed's middle."""
    if name == "lid":
        solid = Rot(180, 0, 0) * solid
    bb = solid.bounding_box()
    return Pos(-(bb.min.X + bb.max.X) / 2, -(bb.min.Y + bb.max.Y) / 2, -bb.min.Z) * solid


def write_parts(lay: Layout, out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    parts = model.printed(lay)
    for name, solid in parts.items():
        if name == "clip-2":
            continue                     # the same clip twice: print clip.stl two times
        stem = "clip" if name == "clip-1" else name
        path = out / f"{stem}.stl"
        export_stl(print_pose(name, solid, lay), str(path), tolerance=0.05,
                   angular_tolerance=0.2)
        files[stem] = path
    export_step(model.assembly(lay), str(out / "assembly.step"))
    files["step"] = out / "assembly.step"
    for name, text in panels.svgs(lay).items():
        path = out / f"panel-{name}.svg"
        path.write_text(text)
        files[f"panel-{name}"] = path
    return files


# ---------------------------------------------------------------- pictures
def _looks(lay: Layout) -> list[tuple[str, Solid, tuple[int, int, int]]]:
    """The held parts as they look (the keep-outs are boxes of room)."""
    c = lay.config
    out: list[tuple[str, Solid, tuple[int, int, int]]] = []
    for name, (x, y) in zip(BUTTON_ORDER, lay.buttons, strict=True):
        out += _button_look(lay, name, x, y, c.button.bezel, c.button.hole)
    if lay.power and c.power:
        out += _button_look(lay, "POWER", *lay.power, c.power.bezel, c.power.hole)
    sx, sy = lay.screen
    w, h = c.screen.outline
    out.append(("screen", model.cuboid(sx - w / 2, sx + w / 2, sy - h / 2, sy + h / 2,
                                       lay.face_z - c.screen.thickness, lay.face_z),
                (25, 25, 30)))
    px, py = lay.pi_origin
    b = c.board
    out.append(("pi", model.cuboid(px - b.length, px, py - b.width, py, lay.board_z,
                                   lay.board_z + b.pcb), (30, 120, 60)))
    h0, h1, v0, v1 = b.header
    out.append(("pi-header", model.cuboid(px - h1, px - h0, py - v1, py - v0,
                                          lay.board_z + b.pcb, lay.board_z + b.pcb + 8.5),
                (30, 30, 30)))
    kx, ky = lay.speaker
    out.append(("speaker", model.cylinder(kx, ky, lay.lid_z - c.speaker.depth, lay.lid_z - 0.2,
                                          c.speaker.diameter), (60, 60, 70)))
    return out


def _button_look(lay: Layout, name: str, x: float, y: float, bezel: float,
                 hole: float) -> list[tuple[str, Solid, tuple[int, int, int]]]:
    col = COLORS[name]
    light = tuple(min(255, int(ch * 0.6 + 255 * 0.4)) for ch in col)
    return [(f"{name}-bezel", model.cylinder(x, y, lay.H, lay.H + 2.5, bezel), col),
            (f"{name}-cap", model.cylinder(x, y, lay.H + 2.5, lay.H + 5, hole - 6),
             light)]  # type: ignore[list-item]


def screenshot_for(lay: Layout, shots: list[Path]) -> Path | None:
    """The box's own screenshot at the resolution this box's screen is set
    for (`wolfbox screenshot --size WxH`): the picture in the window is
    the screen as it is drawn there, never one stretched from another size."""
    import pygame
    for shot in shots:
        if shot.exists() and pygame.image.load(str(shot)).get_size() == lay.config.screen.pixels:
            return shot
    return None


def _on_screen(lay: Layout, shot: Path | None) -> list:
    """The screenshot laid on the screen's visible area, its bottom row
    (the legend) at the front, toward the buttons."""
    from . import render
    if shot is None:
        return []
    x0, x1, y0, y1 = lay.visible()
    z = lay.face_z + 0.05
    return [render.Picture(shot, ((x0, y0, z), (x1, y0, z), (x0, y1, z)))]


def write_legend_picture(lay: Layout, out: Path, shot: Path | None) -> Path:
    """The lid seen from the player's side and above, the box's own screen
    in its window: each box of the legend straight above its button."""
    from . import render
    parts = model.printed(lay)
    items = [render.item(parts["base"], SHELL), render.item(parts["lid"], LID)]
    items += [render.item(s, col) for n, s, col in _looks(lay)
              if n.split("-")[0] in (*BUTTON_ORDER, "POWER", "screen")]
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{lay.config.name}-legend.png"
    render.render(items, path, size=(720, 620), azimuth=0, elevation=62,
                  pictures=_on_screen(lay, shot))
    return path


def write_pictures(lay: Layout, out: Path, screenshot: Path | None = None) -> list[Path]:
    from . import render
    out.mkdir(parents=True, exist_ok=True)
    parts = model.printed(lay)
    looks = _looks(lay)
    name = lay.config.name
    written = []
    pictures = _on_screen(lay, screenshot)
    items = [render.item(parts["base"], SHELL), render.item(parts["lid"], LID)]
    items += [render.item(s, col) for _, s, col in looks]
    path = out / f"{name}-assembled.png"
    render.render(items, path, size=(720, 520), azimuth=-20, elevation=38, pictures=pictures)
    written.append(path)
    # Exploded: the lid lifted, the screen and clips between.
    lift = lay.H * 0.9
    up = Pos(0, 0, lift)
    mid = Pos(0, 0, lift * 0.45)
    items = [render.item(parts["base"], SHELL), render.item(up * parts["lid"], LID)]
    items += [render.item(mid * parts[k], (150, 150, 150)) for k in ("clip-1", "clip-2")]
    for n, s, col in looks:
        lifted = up if any(n.startswith(b) for b in (*BUTTON_ORDER, "POWER")) else \
            mid if n in ("screen", "speaker") else Pos(0, 0, 0)
        items.append(render.item(lifted * s, col))
    path = out / f"{name}-exploded.png"
    render.render(items, path, size=(720, 520), azimuth=-30, elevation=28)
    written.append(path)
    for part in ("base", "lid", "clip-1"):
        stem = "clip" if part == "clip-1" else part
        path = out / f"{name}-part-{stem}.png"
        render.render([render.item(print_pose(part, parts[part], lay), SHELL)], path,
                      size=(420, 300), azimuth=-30, elevation=40)
        written.append(path)
    return written


def write_steps(lay: Layout, out: Path) -> list[Path]:
    """The assembly guide's pictures (docs/enclosure/ASSEMBLY.md)."""
    from . import render
    parts = model.printed(lay)
    looks = {n: (s, col) for n, s, col in _looks(lay)}
    under = [n for n in looks if n.split("-")[0] in (*BUTTON_ORDER, "POWER")]
    written = []

    def shot(stem: str, items: list, **view: float) -> None:
        path = out / f"step-{stem}.png"
        render.render(items, path, size=(560, 400), **view)  # type: ignore[arg-type]
        written.append(path)

    lid_items = [render.item(parts["lid"], LID)]
    buttons = [render.item(looks[n][0], looks[n][1]) for n in under]
    nuts = [render.item(model.cylinder(x, y, lay.lid_z - lay.config.button.depth, lay.lid_z - 0.2,
                                       lay.config.button.hole - 2), (90, 90, 90))
            for x, y in lay.buttons]
    if lay.power and lay.config.power:
        p = lay.config.power
        nuts.append(render.item(model.cylinder(*lay.power, lay.lid_z - p.depth, lay.lid_z - 0.2,
                                               p.hole - 2), (90, 90, 90)))
    shot("2-buttons", lid_items + buttons + nuts, azimuth=160, elevation=-45)
    base_items = [render.item(parts["base"], SHELL), render.item(*looks["pi"]),
                  render.item(*looks["pi-header"])]
    shot("4-pi", base_items, azimuth=-35, elevation=70)
    screen = [render.item(*looks["screen"]), render.item(*looks["speaker"])]
    clips = [render.item(parts[k], (120, 120, 120)) for k in ("clip-1", "clip-2")]
    shot("5-screen", lid_items + buttons + nuts + screen + clips, azimuth=160, elevation=-45)
    return written


def build(config: Config, out: Path, pictures: Path | None,
          screenshots: list[Path] | None = None, legend: Path | None = None) -> list[str]:
    lay = plan(config)
    where = out / config.name
    files = write_parts(lay, where)
    lines = [f"{config.name}: {lay.W:.0f} x {lay.D:.0f} x {lay.H:.0f} mm "
             f"({config.board.name}, {config.screen.name}, {config.button.name})"]
    lines += [f"  {p}" for p in files.values()]
    shot = screenshot_for(lay, screenshots or [])
    if (pictures is not None or legend is not None) and shot is None:
        w, h = config.screen.pixels
        lines.append(f"  no screenshot at {w}x{h} (wolfbox screenshot --size {w}x{h}): "
                     "the window is drawn dark")
    over_buttons = legend or pictures      # the screen over its buttons: docs/enclosure
    if over_buttons is not None:
        lines.append(f"  {write_legend_picture(lay, over_buttons, shot)}")
    if pictures is not None:
        lines += [f"  {p}" for p in write_pictures(lay, pictures, shot)]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="enclosure", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("build/enclosure"))
    ap.add_argument("--config", action="append", choices=sorted(CONFIGS))
    ap.add_argument("--pictures", type=Path, default=None,
                    help="also render PNGs into this folder")
    ap.add_argument("--steps", action="store_true",
                    help="also render the assembly guide's pictures (first config)")
    ap.add_argument("--legend", type=Path, default=None,
                    help="also render the screen over its buttons into this folder")
    ap.add_argument("--screenshot", type=Path, action="append", default=[],
                    help="the box's own screen (wolfbox screenshot) to show in the window; "
                         "one per resolution, each box takes the one of its screen's size")
    args = ap.parse_args(argv)
    names = args.config or ["pi4-35-30", "zero2w-5-24"]
    for name in names:
        try:
            lines = build(CONFIGS[name], args.out, args.pictures, args.screenshot, args.legend)
        except LegendTooNarrow as e:
            print(f"enclosure: {e}", file=sys.stderr)
            return 2
        for line in lines:
            print(line)
    if args.steps and args.pictures is not None:
        for path in write_steps(plan(CONFIGS[names[0]]), args.pictures):
            print(f"  {path}")
    _ = Compound
    return 0


if __name__ == "__main__":
    sys.exit(main())
