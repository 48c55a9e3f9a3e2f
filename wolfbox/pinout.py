"""Facts about the Raspberry Pi's 40-pin header that the pin map is checked
against: which BCM pins exist, where they are on the header, and which ones
a screen or audio board already uses."""

from __future__ import annotations

# BCM GPIO number -> physical header pin (1..40)
HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)

# The I²S pins (the PCM block's ALT0), by the names a MAX98357A amplifier
# board prints beside its own pins. GPIO 20, the Pi's I²S input, is kept
# free as well (a DAC or microphone board's). image/overlays/wolfbox-max98357a.dts
# and hardware/audio-wiring.svg use these.
I2S_SIGNALS: dict[int, str] = {18: "BCLK", 19: "LRC", 21: "DIN"}

# What boards take, by the config's hardware.screen and hardware.audio.
RESERVED: dict[str, dict[str, frozenset[int]]] = {
    "screen": {
        "hdmi": frozenset(),
        "dsi": frozenset(),
        # 3.5" SPI TFTs (ili9486 family): SPI0, data/command, reset, touch IRQ
        "spi": frozenset({7, 8, 9, 10, 11, 17, 24, 25}),
    },
    "audio": {
        "jack": frozenset(),
        "usb": frozenset(),
        "hdmi": frozenset(),
        "i2s": frozenset({*I2S_SIGNALS, 20}),    # I²S amplifier or DAC board
    },
}
ALWAYS_AVOID = frozenset({0, 1})                  # the HAT ID EEPROM bus


def reserved_by(screen: str, audio: str) -> dict[int, str]:
    """Pins taken by the configured boards, with what takes them."""
    from .i18n import _
    out: dict[int, str] = {p: _("the HAT EEPROM (ID_SD/ID_SC)") for p in ALWAYS_AVOID}
    out.update({p: _("the {board} screen").format(board=screen.upper())
                for p in RESERVED["screen"][screen]})
    out.update({p: _("the {board} audio board").format(board=audio.upper())
                for p in RESERVED["audio"][audio]})
    return out
