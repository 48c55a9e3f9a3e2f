"""The arcade buttons as gpiozero Buttons.

Callbacks run on gpiozero's threads; they only post a timestamped edge to
the main loop and never touch game state. On a PC the keyboard drives the
same mock pins, so a key press runs exactly the callbacks a button does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button as GpioButton
from gpiozero.pins.mock import MockFactory

from wolfbox.buttons import Button
from wolfbox.i18n import _

log = logging.getLogger("wolfbox.hardware")

Post = Callable[[Button, bool, float], None]


@dataclass
class ButtonBank:
    pins: dict[Button, int]
    factory: object
    post: Post
    clock: Callable[[], float]
    bounce_seconds: float | None = None

    def __post_init__(self) -> None:
        self.devices: dict[Button, GpioButton] = {}
        mock = isinstance(self.factory, MockFactory)
        for button, pin in self.pins.items():
            try:
                device = GpioButton(pin, pull_up=True, pin_factory=self.factory,
                                    bounce_time=None if mock else self.bounce_seconds)
            except Exception as e:        # one bad pin must not stop the box
                log.warning(_("button {button} on GPIO{pin} left out: {error}").format(
                    button=button.value, pin=pin, error=e))
                continue
            device.when_pressed = self._edge(button, True)
            device.when_released = self._edge(button, False)
            self.devices[button] = device

    def _edge(self, button: Button, down: bool) -> Callable[[], None]:
        def callback() -> None:
            self.post(button, down, self.clock())
        return callback

    @property
    def mock(self) -> bool:
        return isinstance(self.factory, MockFactory)

    def drive(self, button: Button, down: bool) -> None:
        """Act as if `button` went down or up (keyboard on a PC)."""
        device = self.devices.get(button)
        if self.mock and device is not None:
            pin = device.pin
            pin.drive_low() if down else pin.drive_high()
        else:
            self.post(button, down, self.clock())

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices.clear()
