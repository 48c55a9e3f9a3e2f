"""The wiring diagram (hardware/wiring.svg), drawn from the default pin map,
so the picture and the pins the box uses cannot disagree.

    python -m wolfbox.hardware.diagram > hardware/wiring.svg
"""

from __future__ import annotations

import sys

from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS, Button
from wolfbox.config import Config
from wolfbox.pinout import GROUND_PINS, HEADER

PHYSICAL_TO_BCM = {v: k for k, v in HEADER.items()}
POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def wiring_svg(config: Config | None = None) -> str:
    config = config or Config()
    buttons = config.buttons.pins()
    leds = config.leds.pins()
    used: dict[int, tuple[str, str]] = {}          # physical pin -> (label, colour)
    for b in GAME_BUTTONS:
        if b in buttons:
            used[HEADER[buttons[b]]] = (f"{b.value.upper()} button", _hex(BUTTON_COLORS[b]))
        if b in leds:
            used[HEADER[leds[b]]] = (f"{b.value.upper()} LED +", _hex(BUTTON_COLORS[b]))
    power = config.buttons.power if config.buttons.power >= 0 else 3
    used[HEADER[power]] = ("POWER button (optional)", _hex(BUTTON_COLORS[Button.POWER]))

    w, row, top = 820, 26, 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{top + 20 * row + 90}" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
           f'<rect width="{w}" height="{top + 20 * row + 90}" fill="#ffffff"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">Wolfbox wiring: '
           'Raspberry Pi 40-pin header (pin 1 top left)</text>',
           '<text x="20" y="52" fill="#555">Button: one leg to its GPIO, the other to any GND. '
           'LED: GPIO → 220 Ω resistor → LED +, LED − → GND.</text>',
           f'<rect x="350" y="{top - 12}" width="120" height="{20 * row + 4}" rx="8" '
           'fill="#1d5e2b"/>']
    for r in range(20):
        for c in (0, 1):
            pin = 2 * r + 1 + c
            x, y = 385 + c * 50, top + r * row + 6
            bcm = PHYSICAL_TO_BCM.get(pin)
            label, colour = used.get(pin, ("", ""))
            fill = colour or ("#000000" if pin in GROUND_PINS else
                              "#d33" if pin in POWER_PINS else "#c8a13a")
            out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#222"/>')
            out.append(f'<text x="{x}" y="{y + 4}" font-size="9" text-anchor="middle" '
                       f'fill="#fff">{pin}</text>')
            name = ("GND" if pin in GROUND_PINS else POWER_PINS.get(pin)
                    or (f"GPIO{bcm}" if bcm is not None else ""))
            tx = x - 45 if c == 0 else x + 45
            anchor = "end" if c == 0 else "start"
            out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" fill="#333">'
                       f'{name}</text>')
            if label:
                x1, x2 = (205, 285) if c == 0 else (535, 615)
                out.append(f'<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="{colour}" '
                           'stroke-width="4"/>')
                lx, anchor = (200, "end") if c == 0 else (620, "start")
                out.append(f'<text x="{lx}" y="{y + 4}" text-anchor="{anchor}" '
                           f'font-weight="bold" fill="#111">{label}</text>')
    legend_y = top + 20 * row + 30
    out.append(f'<text x="20" y="{legend_y}" fill="#555">Black: ground. Red: power (do not '
               'connect). Gold: free GPIO. Avoid GPIO 2/3 (I²C) with an I²C board, 7–11, 17, '
               '24, 25</text>')
    out.append(f'<text x="20" y="{legend_y + 18}" fill="#555">with a 3.5" SPI screen, '
               '18–21 with an I²S audio board; GPIO 3 is the one pin that also wakes a halted '
               'Pi.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    from wolfbox import lineup  # noqa: F401  (a Config has the games' sections too)
    sys.stdout.write(wiring_svg())


def wiring_table(config: Config | None = None) -> str:
    """The pin table of hardware/README.md, from the same pin map."""
    config = config or Config()
    rows = ["| part | BCM GPIO | header pin | other side |", "|---|---|---|---|"]
    for b in GAME_BUTTONS:
        pin = config.buttons.pins()[b]
        rows.append(f"| {b.value.upper()} button | {pin} | {HEADER[pin]} | any GND |")
    for b, pin in config.leds.pins().items():
        rows.append(f"| {b.value.upper()} LED (+, through 220 Ω) | {pin} | {HEADER[pin]} | "
                    "LED − to GND |")
    rows.append("| POWER button (optional, `buttons.power = 3`) | 3 | 5 | any GND |")
    return "\n".join(rows)
