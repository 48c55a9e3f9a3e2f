"""d. The lights on the twin's one kernel GPIO chip (qemu virt's PL061):
the box, given the twin's GPIO settings, claims the lines from inside its
sandbox, and the chip's data register (read by the host) shows VOTE, NEXT
and BACK lit on the start screen and off at night, as the legend says.
The box's own settings are kept in wolfbox.toml.twin until check e puts
them back after its power-off."""

from __future__ import annotations

import re
import time
import tomllib

from twin import HERE
from twin.context import Check, Context, Outcome
from twin.qemu import POWER_LINE

# The box's pins on the twin's chip (the LEDs on lines 4 to 7, the power
# button on line 3, lgpio).
GPIO_SETTINGS = HERE / "gpio.toml"


def use_gpio(ctx: Context) -> bool:
    """The box restarted on the twin's GPIO settings (image/twin/gpio.toml)
    with no game saved: the start screen of a fresh box."""
    settings = GPIO_SETTINGS.read_text()
    ctx.sh.run("systemctl stop wolfbox; cp -n /etc/wolfbox/wolfbox.toml "
               "/etc/wolfbox/wolfbox.toml.twin; rm -f /var/lib/wolfbox/state.json; "
               f"cat > /etc/wolfbox/wolfbox.toml <<'TWIN'\n{settings}TWIN\n"
               "systemctl start wolfbox")
    return ctx.wait_active(ctx.boot_timeout)


def sample_lines(ctx: Context, lines: list[int], seconds: float = 3) -> dict[int, set[int]]:
    """The levels each line took over `seconds`, as the chip reads them."""
    assert ctx.twin.qmp
    seen: dict[int, set[int]] = {line: set() for line in lines}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = ctx.twin.qmp.gpio_data()
        for line in lines:
            seen[line].add((data >> line) & 1)
        time.sleep(0.1)
    return seen


def lights(ctx: Context) -> Outcome:
    twin = ctx.twin
    assert twin.qmp
    if not use_gpio(ctx):
        return "FAIL", "the box did not start on the twin's GPIO settings"
    info = ctx.sh.out("gpioinfo gpiochip0")
    claimed = {int(m.group(1)): m.group(2) for m in
               re.finditer(r"line\s+(\d+):\s+\S+\s+\"?([^\"\s]*)\"?\s+(\S+)", info)
               if m.group(2) != "unused"}
    outputs = {int(m.group(1)) for m in re.finditer(r"line\s+(\d+):.*\soutput\s", info)}
    problems = []
    if not {4, 5, 6, 7} <= outputs or not {POWER_LINE, 4, 5, 6, 7} <= set(claimed):
        problems.append(f"gpioinfo: {info!r}")
    # The start screen: START pulses (the one to press), VOTE, NEXT and
    # BACK lit (each does something); at night all off but START, dim.
    leds = tomllib.loads(GPIO_SETTINGS.read_text())["leds"]
    lit = [leds["vote"], leds["next"], leds["back"]]
    start = sample_lines(ctx, lit)
    twin.qmp.key("spc")
    time.sleep(8)
    night = sample_lines(ctx, lit)
    if any(start[line] != {1} for line in lit):
        problems.append(f"start screen: VOTE, NEXT, BACK lines took {start}, not all lit")
    if any(night[line] != {0} for line in lit):
        problems.append(f"night: VOTE, NEXT, BACK lines took {night}, not all off")
    detail = (f"lines claimed in the guest: {claimed}; outputs {sorted(outputs)}; "
              f"VOTE, NEXT, BACK (lines {lit}) lit on the start screen, off at night "
              "(PL061's data register read by the host)")
    return ("FAIL" if problems else "pass"), "; ".join(problems) if problems else detail


CHECK = Check("d. the lights: the box's LED lines on PL061, as the legend says", lights)
