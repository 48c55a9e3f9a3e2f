#!/usr/bin/python3
"""The Pi firmware's ``dtoverlay=`` lines for the parts the box's settings name.

``hardware.screen = "spi"`` in wolfbox.toml wants the 3.5" SPI screen's
overlay, ``hardware.audio = "i2s"`` the I²S amplifier's (both built into
/boot/firmware/overlays by ``make image``). The firmware reads config.txt at
power-on, before Linux, and Debian's raspi-firmware writes config.txt anew at
every kernel update from /etc/default/raspi-firmware-custom: so the lines go
into that file (between two marker lines, the rest of it untouched), the hook
writes config.txt from it, and the box restarts once so the firmware reads
it. The trees' labels the overlays need are checked at every boot too
(z51-wolfbox-dtb-symbols: raspi-firmware's own updates copy the trees afresh).

With the amplifier, ALSA's default device is its card (/etc/asound.conf,
written and removed only by this script): the Pi's HDMI or jack may come
first among the cards, and the box plays on the default one.

Runs as root after bootfiles.py (which brings the card's wolfbox.toml in),
with the system's python3: standard library only. Nothing changed: nothing
written, no restart.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

OVERLAYS = {("screen", "spi"): "wolfbox-ili9486", ("audio", "i2s"): "wolfbox-max98357a"}
CUSTOM = "etc/default/raspi-firmware-custom"
CONFIG = "etc/wolfbox/wolfbox.toml"
Z50 = "etc/kernel/postinst.d/z50-raspi-firmware"
Z51 = "etc/kernel/postinst.d/z51-wolfbox-dtb-symbols"
BEGIN = "# wolfbox-dtoverlays: the parts wolfbox.toml's [hardware] names (written at boot)"
END = "# wolfbox-dtoverlays: end"
ASOUND = "etc/asound.conf"
AMP_CARD = "MAX98357A"          # the overlay's simple-audio-card,name: the card's ALSA id
ASOUND_TEXT = f"""{BEGIN.replace("parts", "amplifier")}
# hardware.audio = "i2s": the box's sound goes to the amplifier's card.
pcm.!default {{
    type plug
    slave.pcm "hw:{AMP_CARD}"
}}
ctl.!default {{
    type hw
    card {AMP_CARD}
}}
"""


def wanted(config_text: str) -> list[str]:
    """The overlays the settings ask for, in a fixed order."""
    hardware = tomllib.loads(config_text).get("hardware", {})
    return [name for (key, value), name in OVERLAYS.items() if hardware.get(key) == value]


def with_lines(custom: str, overlays: list[str]) -> str:
    """raspi-firmware-custom with its marked block holding exactly these
    overlays (none: no block); everything outside the block kept as it was."""
    lines = custom.splitlines()
    if BEGIN in lines and END in lines[lines.index(BEGIN):]:
        start = lines.index(BEGIN)
        end = lines.index(END, start)
        del lines[start:end + 1]
    if overlays:
        lines += [BEGIN, "[all]", *(f"dtoverlay={name}" for name in overlays), END]
    return "\n".join(lines) + "\n"


def apply(root: Path, boot: Path, live: bool = True) -> list[str]:
    """Bring the overlay lines in step with the settings; what was done, one
    line each. ``live``: restart the box when config.txt changed."""
    done: list[str] = []
    try:
        overlays = wanted((root / CONFIG).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        return [f"{CONFIG}: cannot be read ({e}); dtoverlay lines left as they are"]
    missing = [name for name in overlays if not (boot / "overlays" / f"{name}.dtbo").is_file()]
    for name in missing:
        done.append(f"overlays/{name}.dtbo is not on the boot partition; its line is left out")
    overlays = [name for name in overlays if name not in missing]
    env = dict(os.environ, WOLFBOX_DTB_DIR=str(boot), DEB_MAINT_PARAMS="configure")
    trees = subprocess.run([str(root / Z51)], env=env, capture_output=True, text=True, check=False)
    if trees.stdout.strip():
        done.append("labels added to " + " ".join(trees.stdout.split()))
    custom_path = root / CUSTOM
    custom = custom_path.read_text(encoding="utf-8") if custom_path.exists() else ""
    new = with_lines(custom, overlays)
    config_txt = boot / "config.txt"
    before = config_txt.read_bytes() if config_txt.exists() else b""
    if new != custom:
        tmp = custom_path.with_suffix(".tmp")
        tmp.write_text(new, encoding="utf-8")
        os.replace(tmp, custom_path)
        hook = subprocess.run([str(root / Z50)], env=env, capture_output=True, text=True,
                              check=False)
        if hook.returncode != 0:
            last = (hook.stderr.strip().splitlines() or ["no message"])[-1]
            return done + [f"raspi-firmware's hook did not write config.txt ({last}); "
                           "the lines take effect after the next kernel update"]
        done.append("dtoverlay lines now: " + (" ".join(overlays) or "none"))
    done += _asound(root, "wolfbox-max98357a" in overlays)
    after = config_txt.read_bytes() if config_txt.exists() else b""
    if after != before or (trees.stdout.strip() and overlays):
        done.append("config.txt or the device trees changed: "
                    "restarting once so the firmware reads them")
        if live:
            subprocess.run(["systemctl", "--no-block", "reboot"], check=False)
    return done


def _asound(root: Path, amplifier: bool) -> list[str]:
    """ALSA's default on the amplifier's card, or no longer; a file this
    script did not write is left alone."""
    path = root / ASOUND
    ours = path.exists() and path.read_text(encoding="utf-8").startswith(ASOUND_TEXT[:40])
    if amplifier and not (ours and path.read_text(encoding="utf-8") == ASOUND_TEXT):
        if path.exists() and not ours:
            return [f"{ASOUND} is not this script's: the amplifier may not be ALSA's default"]
        tmp = path.with_suffix(".tmp")
        tmp.write_text(ASOUND_TEXT, encoding="utf-8")
        os.replace(tmp, path)
        return [f"ALSA's default device: the {AMP_CARD} card"]
    if not amplifier and ours:
        path.unlink()
        return ["ALSA's default device: the kernel's first card again"]
    return []


if __name__ == "__main__":
    for line in apply(Path("/"), Path("/boot/firmware")):
        print(line, file=sys.stderr)
