"""The twin's checks, one module each, by the letter `--only` names them
with (docs/develop/twin.md lists them). Check a boots the twin and always
runs first; the others run after it, in the order `--only` gives (e powers
the twin off, so it comes last)."""

from twin.checks import (
    boot,
    lights,
    own_wifi,
    phones,
    power_button,
    power_cut,
    press,
    root_trick,
    screen,
    small_memory,
)
from twin.context import Check

CHECKS: dict[str, Check] = {
    "a": boot.CHECK,
    "b": screen.CHECK,
    "c": press.CHECK,
    "d": lights.CHECK,
    "e": power_button.CHECK,
    "f": power_cut.CHECK,
    "g": phones.CHECK,
    "h": small_memory.CHECK,
    "w": own_wifi.CHECK,
    "r": root_trick.CHECK,
}
