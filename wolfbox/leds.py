"""What the light in each arcade button shows, from what the screen shows.

Lit when the button does something now, pulsing for the one the table
should press next, off otherwise. Pure, so it is tested without pins.
"""

from __future__ import annotations

from enum import StrEnum

from .buttons import GAME_BUTTONS, Button
from .view import View


class Light(StrEnum):
    OFF = "off"
    DIM = "dim"          # at night: findable by feel and a glance, not a lamp
    ON = "on"
    PULSE = "pulse"


def lights(view: View) -> dict[Button, Light]:
    labels = dict(view.legend)
    out = {}
    for button in GAME_BUTTONS:
        if button == view.hint and button in labels:
            out[button] = Light.PULSE
        elif labels.get(button):
            out[button] = Light.ON
        else:
            out[button] = Light.OFF
    if view.dim:                        # at night only the pause button glows, dimly
        out = {b: (Light.DIM if b is Button.START and out[b] is not Light.OFF else Light.OFF)
               for b in out}
    return out
