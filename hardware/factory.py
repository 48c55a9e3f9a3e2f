"""Choosing gpiozero's pin factory: real GPIO on a Raspberry Pi, mock pins
everywhere else. Platform detection lives here and nowhere else."""

from __future__ import annotations

import logging
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from wolfbox.errors import UserError

log = logging.getLogger("wolfbox.hardware")

# config name -> (module, class, how to get it on Raspberry Pi OS)
DRIVERS = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "apt install python3-lgpio"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "apt install python3-rpi.gpio"),
    "native": ("gpiozero.pins.native", "NativeFactory", "part of gpiozero"),
}
AUTO_ORDER = ("lgpio", "rpigpio", "native")   # lgpio: Bookworm and later, and the Pi 5


def pi_model() -> str | None:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="ignore").strip("\x00\n ")
    except OSError:
        return None
    return model if "raspberry pi" in model.lower() else None


def mock_factory() -> MockFactory:
    """Mock pins that can also dim (PWM), for the LEDs."""
    return MockFactory(pin_class=MockPWMPin)


def _load(name: str):
    module, cls, how = DRIVERS[name]
    try:
        mod = __import__(module, fromlist=[cls])
        return getattr(mod, cls)()
    except Exception as e:            # ImportError, or the driver failing on this board
        raise UserError(f"hardware.pin_factory = {name}: cannot use it ({e}); "
                        f"install it ({how}) or choose auto") from None


def make_factory(choice: str = "auto") -> tuple[object, str | None]:
    """The pin factory, and a notice if the box had to fall back to mock pins."""
    if choice == "mock":
        return mock_factory(), None
    if choice != "auto":
        return _load(choice), None
    if pi_model() is None:
        return mock_factory(), None
    problems = []
    for name in AUTO_ORDER:
        try:
            return _load(name), None
        except UserError as e:
            problems.append(str(e))
    log.debug("no GPIO driver: %s", problems)
    return mock_factory(), "no GPIO driver works here (install python3-lgpio): buttons off"
