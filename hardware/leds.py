"""The lights inside the arcade buttons, as gpiozero PWMLEDs.

Only changes are sent to the pins: a pulsing LED keeps its own background
thread in gpiozero, and restarting it every frame would make it stutter.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from gpiozero import PWMLED

from wolfbox.buttons import Button
from wolfbox.leds import Light, lights
from wolfbox.view import View

log = logging.getLogger("wolfbox.hardware")

DIM_LEVEL = 0.08


@dataclass
class LedBank:
    pins: dict[Button, int]
    factory: object
    brightness: float = 1.0
    devices: dict[Button, PWMLED] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.shown: dict[Button, Light] = {}
        for button, pin in self.pins.items():
            try:
                self.devices[button] = PWMLED(pin, pin_factory=self.factory)
            except Exception as e:             # one bad LED must not stop the box
                log.warning("LED of %s on GPIO%s left out: %s", button.value, pin, e)

    def show(self, view: View) -> None:
        for button, light in lights(view).items():
            led = self.devices.get(button)
            if led is None or self.shown.get(button) is light:
                continue
            self.shown[button] = light
            if light is Light.PULSE:
                led.pulse(fade_in_time=0.6, fade_out_time=0.6)
            elif light is Light.ON:
                led.value = self.brightness
            elif light is Light.DIM:
                led.value = DIM_LEVEL * self.brightness
            else:
                led.off()

    def close(self) -> None:
        for led in self.devices.values():
            led.close()
        self.devices.clear()
