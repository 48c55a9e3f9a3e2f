"""The wiring diagrams (hardware/wiring.svg: buttons and LEDs;
hardware/audio-wiring.svg: the I²S amplifier and speaker), drawn from the
default pin map and wolfbox/pinout.py, so the pictures and the pins the box
uses cannot disagree.

    python -m wolfbox.hardware.diagram > hardware/wiring.svg
    python -m wolfbox.hardware.diagram audio > hardware/audio-wiring.svg
"""

from __future__ import annotations

import sys

from wolfbox.buttons import BUTTON_COLORS, GAME_BUTTONS, Button
from wolfbox.config import Config
from wolfbox.pinout import GROUND_PINS, HEADER, I2S_SIGNALS

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
    height = top + 20 * row + 114
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
           f'<rect width="{w}" height="{height}" fill="#ffffff"/>',
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
    # The legend: what each colour of pin is for. The header has fewer
    # grounds than the parts (docs/build/wiring.md: one looped ground wire).
    legend = (f"Black: ground. The header has {len(GROUND_PINS)} GND pins for 9–11 ground "
              "wires: loop one wire through every button's",
              "and LED's ground and take it to pin 30 (or 34); the amplifier has pin 39.",
              "Red: power, only for the amplifier's Vin (pin 4, 5 V) and the screen's supply; "
              "never a button or LED.",
              "Gold: free GPIO. Avoid GPIO 2/3 (I²C) with an I²C board, 7–11, 17, 24, 25 with a "
              '3.5" SPI screen,',
              "18–21 with an I²S audio board; GPIO 3 is the one pin that also wakes a halted Pi.")
    legend_y = top + 20 * row + 30
    for i, line in enumerate(legend):
        out.append(f'<text x="20" y="{legend_y + 18 * i}" fill="#555">{line}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# The amplifier's power: a 5 V pin (louder than 3.3 V: about 3 W into 4 Ω)
# and the ground beside GPIO 21, both free whatever screen is fitted.
AMP_POWER_PIN, AMP_GROUND_PIN = 4, 39
# A MAX98357A breakout's pins, top to bottom, as printed on the board.
AMP_PINS = ("LRC", "BCLK", "DIN", "GAIN", "SD", "GND", "Vin")
AMP_NOTES = {"GAIN": "not connected: 9 dB", "SD": "not connected: on, (L+R)/2"}
WIRE_COLOURS = {"LRC": "#8e44ad", "BCLK": "#e67e22", "DIN": "#16a085", "GND": "#000000",
                "Vin": "#d33"}


def audio_svg(config: Config | None = None) -> str:
    """The amplifier and speaker beside the buttons: the header with the
    buttons' pins faded, the I²S wires to the amplifier, the speaker."""
    config = config or Config()
    faded: dict[int, str] = {}
    for b, pin in config.buttons.pins().items():
        faded[HEADER[pin]] = _hex(BUTTON_COLORS[b])
    for b, pin in config.leds.pins().items():
        faded[HEADER[pin]] = _hex(BUTTON_COLORS[b])
    signal_pin = {name: HEADER[bcm] for bcm, name in I2S_SIGNALS.items()}
    wires = {**signal_pin, "GND": AMP_GROUND_PIN, "Vin": AMP_POWER_PIN}
    w, row, top = 900, 26, 80
    height = top + 20 * row + 128
    hx = (160, 210)                                   # the header's two columns
    amp_x, amp_y, amp_row = 470, top + 120, 34
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
           f'<rect width="{w}" height="{height}" fill="#ffffff"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">Wolfbox sound: MAX98357A '
           'I²S amplifier and speaker</text>',
           '<text x="20" y="52" fill="#555">wolfbox.toml: [hardware] audio = "i2s" (the image '
           'then adds dtoverlay=wolfbox-max98357a to config.txt).</text>',
           f'<rect x="{hx[0] - 25}" y="{top - 12}" width="{hx[1] - hx[0] + 50}" '
           f'height="{20 * row + 4}" rx="8" fill="#1d5e2b"/>']
    pin_xy: dict[int, tuple[int, int]] = {}
    for r in range(20):
        for c in (0, 1):
            pin = 2 * r + 1 + c
            x, y = hx[c], top + r * row + 6
            pin_xy[pin] = (x, y)
            wire = next((n for n, p in wires.items() if p == pin), None)
            if wire:
                fill, opacity = WIRE_COLOURS[wire], "1"
            elif pin in faded:
                fill, opacity = faded[pin], "0.3"
            else:
                fill = ("#000000" if pin in GROUND_PINS else
                        "#d33" if pin in POWER_PINS else "#c8a13a")
                opacity = "0.3"
            out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" fill-opacity="{opacity}" '
                       'stroke="#222"/>')
            out.append(f'<text x="{x}" y="{y + 4}" font-size="9" text-anchor="middle" '
                       f'fill="#fff">{pin}</text>')
            if wire:
                bcm = PHYSICAL_TO_BCM.get(pin)
                name = (f"GPIO{bcm}" if bcm is not None else
                        "GND" if pin in GROUND_PINS else POWER_PINS[pin])
                tx, anchor = (x - 16, "end") if c == 0 else (x + 16, "start")
                out.append(f'<text x="{tx}" y="{y - 9}" font-size="11" text-anchor="{anchor}" '
                           f'fill="#111">{name}</text>')
    # The amplifier board, its pins on the left edge.
    out.append(f'<rect x="{amp_x}" y="{amp_y - 24}" width="150" '
               f'height="{len(AMP_PINS) * amp_row + 14}" rx="6" fill="#2c3e78"/>')
    out.append(f'<text x="{amp_x + 75}" y="{amp_y - 32}" text-anchor="middle" '
               'font-weight="bold">MAX98357A board</text>')
    amp_pin_y = {name: amp_y + i * amp_row for i, name in enumerate(AMP_PINS)}
    for name, y in amp_pin_y.items():
        out.append(f'<circle cx="{amp_x}" cy="{y}" r="6" fill="#c8a13a" stroke="#222"/>')
        out.append(f'<text x="{amp_x + 12}" y="{y + 4}" fill="#fff">{name}</text>')
        if name in AMP_NOTES:
            out.append(f'<text x="{amp_x + 160}" y="{y + 4}" fill="#555">{AMP_NOTES[name]}</text>')
    # Each wire: out of its pin sideways, down or up a lane of its own, into the board.
    for i, (name, pin) in enumerate(sorted(wires.items(), key=lambda kv: kv[1])):
        x, y = pin_xy[pin]
        lane = 300 + i * 28
        ty = amp_pin_y[name]
        if x == hx[1]:
            points = [(x + 8, y), (lane, y), (lane, ty), (amp_x - 6, ty)]
        else:                                      # the left column: round the header's foot
            foot = top + 20 * row + 12 + i * 10
            side = hx[0] - 40 - i * 8
            points = [(x - 8, y), (side, y), (side, foot), (lane, foot), (lane, ty),
                      (amp_x - 6, ty)]
        path = " ".join(f"{px},{py}" for px, py in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{WIRE_COLOURS[name]}" '
                   'stroke-width="3"/>')
    # The speaker on the board's output terminal.
    sx, sy = amp_x + 150, amp_y + len(AMP_PINS) * amp_row + 40
    out.append(f'<text x="{amp_x + 75}" y="{amp_y + len(AMP_PINS) * amp_row - 14}" '
               'text-anchor="middle" fill="#fff" font-size="12">+    −</text>')
    for dx, colour in ((60, "#d33"), (90, "#000000")):
        out.append(f'<polyline points="{amp_x + dx},{amp_y + len(AMP_PINS) * amp_row - 10} '
                   f'{amp_x + dx},{sy + 10 - (dx - 60)} {sx + 40},{sy + 10 - (dx - 60)}" '
                   f'fill="none" stroke="{colour}" stroke-width="3"/>')
    out.append(f'<polygon points="{sx + 40},{sy - 10} {sx + 58},{sy - 10} {sx + 84},{sy - 34} '
               f'{sx + 84},{sy + 34} {sx + 58},{sy + 10} {sx + 40},{sy + 10}" fill="#444" '
               'stroke="#111"/>')
    out.append(f'<text x="{sx + 96}" y="{sy + 4}">speaker, 4 Ω 3 W (40 mm)</text>')
    legend_y = top + 20 * row + 80
    out.append(f'<text x="20" y="{legend_y}" fill="#555">Faded: the buttons\' and LEDs\' pins '
               '(in their colours, see wiring.svg) and the pins left free.</text>')
    out.append(f'<text x="20" y="{legend_y + 18}" fill="#555">The amplifier takes GPIO '
               f'{", ".join(str(b) for b in sorted(I2S_SIGNALS))} (GPIO 20 stays free), a 5 V '
               'pin and a ground. Jumper wires 20 cm or shorter.</text>')
    out.append(f'<text x="20" y="{legend_y + 36}" fill="#555">The speaker\'s two wires go to '
               'the board\'s screw terminal, + to +.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    from wolfbox import lineup  # noqa: F401  (a Config has the games' sections too)
    if sys.argv[1:] == ["audio"]:
        sys.stdout.write(audio_svg())
    elif sys.argv[1:]:
        sys.exit("diagram: unknown argument (none: the buttons' wiring; audio: the amplifier's)")
    else:
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
