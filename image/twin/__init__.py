"""The image's twin, as a package (the entry point is image/twin.py, which
make boot-check runs): `qemu` the machine, `media` the screen and sound
comparisons, `context` what each check is given, `checks` one module per
check (`checks.CHECKS` maps each letter to it), `run` the command line. This
folder also holds what goes into the twin's copy of the image (`root/`, the
twin-only overlay) and the box's GPIO settings for the twin (`gpio.toml`)."""

from pathlib import Path

HERE = Path(__file__).resolve().parent          # image/twin
IMAGE = HERE.parent                             # image
REPO = IMAGE.parent
