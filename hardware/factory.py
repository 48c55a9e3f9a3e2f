"""Choosing gpiozero's pin factory: real GPIO on a Raspberry Pi, mock pins
everywhere else. Platform detection lives here and nowhere else."""

from __future__ import annotations

import os
from pathlib import Path

from gpiozero.pins.mock import MockFactory


def is_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(
            errors="ignore").lower()
    except OSError:
        return False


def make_factory(choice: str = "auto"):
    """A pin factory; "auto" means the platform's own on a Pi, else mock."""
    if choice == "mock" or (choice == "auto" and not is_raspberry_pi()
                            and not os.environ.get("GPIOZERO_PIN_FACTORY")):
        return MockFactory()
    from gpiozero import Device
    if choice not in ("auto", "mock"):
        os.environ["GPIOZERO_PIN_FACTORY"] = choice
    return Device._default_pin_factory()
