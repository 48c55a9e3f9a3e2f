"""Choosing gpiozero's pin factory: real GPIO on a Raspberry Pi, mock pins
everywhere else. Platform detection lives here and nowhere else."""

from __future__ import annotations

import logging
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from wolfbox.errors import UserError, WolfboxError
from wolfbox.i18n import _
from wolfbox.recent import Recent

log = logging.getLogger("wolfbox.hardware")

# config name -> (module, class, how to get it)
DRIVERS = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory",
              "apt install python3-lgpio, or pip install lgpio where apt has none"),
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


class _MockPin(MockPWMPin):
    """A mock pin that can dim (PWM, for the LEDs) and remembers only its last
    changes: gpiozero's keeps every one, and a pulsing light writes ten a
    second for as long as a desktop box runs."""

    def clear_states(self) -> None:
        super().clear_states()
        recent: Recent[object] = Recent(PIN_HISTORY)
        recent.extend(self.states)  # type: ignore[has-type]  # gpiozero's is untyped
        self.states = recent


PIN_HISTORY = 200


def mock_factory() -> MockFactory:
    """Mock pins for a PC: the keyboard drives them, the LEDs dim on them."""
    return MockFactory(pin_class=_MockPin)


def _load(name: str):
    module, cls, how = DRIVERS[name]
    try:
        mod = __import__(module, fromlist=[cls])
        return getattr(mod, cls)()
    except Exception as e:            # ImportError, or the driver failing on this board
        raise UserError(_("hardware.pin_factory = {name}: cannot use it ({error}); install it "
                          "({how}) or choose auto").format(name=name, error=e, how=how)) from None


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
        except WolfboxError as e:
            problems.append(str(e))
    log.debug("no GPIO driver: %s", problems)
    return mock_factory(), _("no GPIO driver works here (install lgpio: systemd/install.sh does): "
                             "buttons off")
