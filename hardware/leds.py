"""The lights inside the arcade buttons, as gpiozero PWMLEDs.

Only changes are sent to the pins: a pulsing LED keeps its own background
thread in gpiozero, and restarting it every frame would make it stutter.

The pulse is fed through gpiozero's own `source` at PULSE_STEPS_PER_SECOND
rather than `PWMLED.pulse`, whose thread writes the pin 25 times a second:
that thread was a third of the box's idle CPU in the discussion's last
minute. Ten steps a second along a sine still reads as a smooth breath on
an arcade button; the PWM itself is the pin driver's, at full rate.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import cycle

from gpiozero import PWMLED

from wolfbox.buttons import Button
from wolfbox.i18n import _
from wolfbox.leds import Light, lights
from wolfbox.view import View

log = logging.getLogger("wolfbox.hardware")

DIM_LEVEL = 0.08
PULSE_SECONDS = 1.2                # one breath: in and out
PULSE_STEPS_PER_SECOND = 10


def pulse_levels(peak: float = 1.0, seconds: float = PULSE_SECONDS,
                 steps_per_second: int = PULSE_STEPS_PER_SECOND) -> Iterator[float]:
    """Brightness levels of one breath after another, from off to `peak` and
    back along a raised cosine (gentle at both ends, where steps show most)."""
    steps = max(2, round(seconds * steps_per_second))
    return cycle([peak * (1 - math.cos(2 * math.pi * i / steps)) / 2 for i in range(steps)])


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
                log.warning(_("LED of {button} on GPIO{pin} left out: {error}").format(
                    button=button.value, pin=pin, error=e))

    def show(self, view: View) -> None:
        for button, light in lights(view).items():
            led = self.devices.get(button)
            if led is None or self.shown.get(button) is light:
                continue
            self.shown[button] = light
            led.source = None                  # stops a pulse's thread, if any
            if light is Light.PULSE:
                led.source_delay = 1 / PULSE_STEPS_PER_SECOND
                led.source = pulse_levels(self.brightness)
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
