"""The screen's brightness, where its driver offers a backlight control.

Official Raspberry Pi touch screens (DSI) and many SPI panels appear in
/sys/class/backlight with `brightness` and `max_brightness`; HDMI monitors
do not, and then the settings screen has no brightness page.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from wolfbox.i18n import _

log = logging.getLogger("wolfbox.device")

SYS_BACKLIGHT = Path("/sys/class/backlight")


@dataclass
class Backlight:
    folder: Path
    maximum: int

    @classmethod
    def find(cls, root: Path = SYS_BACKLIGHT) -> Backlight | None:
        """The first backlight the box may set, or None."""
        try:
            folders = sorted(root.iterdir())
        except OSError:
            return None
        for folder in folders:
            try:
                maximum = int((folder / "max_brightness").read_text().strip())
            except (OSError, ValueError):
                continue
            if maximum > 0 and os.access(folder / "brightness", os.W_OK):
                return cls(folder, maximum)
        return None

    def set(self, share: float) -> None:
        """Brightness as a share of the panel's maximum, never fully dark
        (a black screen looks like a dead box)."""
        level = max(1, round(self.maximum * max(0.0, min(1.0, share))))
        try:
            (self.folder / "brightness").write_text(str(level))
        except OSError as e:
            log.warning(_("cannot set the screen's brightness ({error})").format(error=e))
