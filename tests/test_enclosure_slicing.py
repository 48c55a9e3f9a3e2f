"""Every printed part of the two required boxes slices in PrusaSlicer's
command line (Debian's prusa-slicer; CI installs it) for a 0.4 mm nozzle at
0.2 mm layers, without supports, into G-code with a print time and an
amount of filament: the numbers README's "The enclosure" quotes."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

pytest.importorskip("build123d", reason="the enclosure's extra: pip install -e '.[enclosure]'")
SLICER = shutil.which("prusa-slicer")
pytestmark = pytest.mark.skipif(SLICER is None, reason="no prusa-slicer (apt install prusa-slicer)")

from wolfbox.hardware.enclosure.build import write_parts  # noqa: E402
from wolfbox.hardware.enclosure.layout import plan  # noqa: E402
from wolfbox.hardware.enclosure.parts import CONFIGS  # noqa: E402

# The printer: a 220 x 220 mm bed (PrusaSlicer's own default is 200 x 200).
BED = "0x0,220x0,220x220,0x220"
SETTINGS = ["--nozzle-diameter", "0.4", "--layer-height", "0.2", "--perimeters", "3",
            "--fill-density", "15%", "--filament-diameter", "1.75",
            "--filament-density", "1.24", "--bed-shape", BED]  # supports: off, the default


def slice_stl(stl, out) -> tuple[int, float]:
    """Print time (s) and filament (g) of one part, from the G-code's footer."""
    assert SLICER is not None
    done = subprocess.run([SLICER, "--export-gcode", *SETTINGS, "--output", str(out), str(stl)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    text = out.read_text()
    assert text.count(";LAYER_CHANGE") >= 5
    m = re.search(r"estimated printing time \(normal mode\) = (.+)", text)
    g = re.search(r"total filament used \[g\] = ([\d.]+)", text)
    assert m and g
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    seconds = sum(int(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", m.group(1)))
    return seconds, float(g.group(1))


@pytest.mark.parametrize("name", ["pi4-35-30", "zero2w-5-24"])
def test_every_part_slices(name, tmp_path):
    files = write_parts(plan(CONFIGS[name]), tmp_path)
    for part in ("base", "lid", "clip"):
        seconds, grams = slice_stl(files[part], tmp_path / f"{part}.gcode")
        assert seconds > 60 and grams > 0.1, part
        print(f"{name} {part}: {seconds / 3600:.1f} h, {grams:.0f} g")


def test_a_part_that_cannot_print_is_refused(tmp_path):
    """An empty mesh does not slice: the check above can fail."""
    bad = tmp_path / "empty.stl"
    bad.write_text("solid empty\nendsolid empty\n")
    with pytest.raises(AssertionError):
        slice_stl(bad, tmp_path / "empty.gcode")
