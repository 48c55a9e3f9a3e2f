"""Buttons, LEDs and the pin map on gpiozero's mock pins."""

from __future__ import annotations

import time

import pytest
from conftest import make_flow
from gpiozero.pins.mock import MockFactory, MockPWMPin

from wolfbox.buttons import Button, Hold, Tap
from wolfbox.config import Config, from_dict
from wolfbox.device.app import build
from wolfbox.effects import Shutdown
from wolfbox.errors import UserError
from wolfbox.hardware.buttons import ButtonBank
from wolfbox.hardware.factory import make_factory, mock_factory
from wolfbox.hardware.leds import DIM_LEVEL, LedBank
from wolfbox.leds import Light, lights
from wolfbox.pinout import GROUND_PINS, HEADER
from wolfbox.view import Phase

START, VOTE, NEXT, BACK = (Tap(b) for b in (Button.START, Button.VOTE, Button.NEXT,
                                            Button.BACK))


def test_lights_follow_what_the_buttons_do():
    flow = make_flow(discussion_seconds=120)
    assert lights(flow.view(0)) == {Button.START: Light.PULSE, Button.VOTE: Light.ON,
                                    Button.NEXT: Light.ON, Button.BACK: Light.ON}
    flow.handle(START, 0.0)
    night = lights(flow.view(0))
    assert night == {Button.START: Light.DIM, Button.VOTE: Light.OFF, Button.NEXT: Light.OFF,
                     Button.BACK: Light.OFF}
    flow.tick(400.0 - 300)   # well into the night
    while flow.phase is Phase.NIGHT:
        flow.handle(NEXT, 100.0)
    assert flow.phase is Phase.DISCUSSION
    assert lights(flow.view(100.0))[Button.VOTE] is Light.ON
    assert lights(flow.view(100.0 + 61))[Button.VOTE] is Light.PULSE    # the last minute
    flow.handle(START, 170.0)                                          # paused
    assert lights(flow.view(170.0)) == {Button.START: Light.PULSE, Button.VOTE: Light.OFF,
                                        Button.NEXT: Light.OFF, Button.BACK: Light.ON}


def test_led_bank_drives_pwm_pins_and_only_on_change():
    factory = MockFactory(pin_class=MockPWMPin)
    bank = LedBank({Button.START: 12, Button.VOTE: 16, Button.NEXT: 22, Button.BACK: 23},
                   factory, brightness=0.5)
    flow = make_flow()
    bank.show(flow.view(0))
    start = bank.devices[Button.START]
    deadline = time.monotonic() + 60            # an upper bound: it pulses at once
    while not 0 < start.value < 1:              # part way up or down: pulsing
        assert time.monotonic() < deadline, "START does not pulse"
        time.sleep(0.01)
    assert bank.devices[Button.VOTE].value == 0.5              # lit at the set brightness
    flow.handle(START, 0.0)
    bank.show(flow.view(0))
    assert bank.devices[Button.START].value == pytest.approx(DIM_LEVEL * 0.5)
    assert bank.devices[Button.VOTE].value == 0
    pin = factory.pin(16)
    changes = len(pin.states)
    bank.show(flow.view(0.5))                                  # same lights: no pin writes
    assert len(pin.states) == changes
    bank.close()


def test_a_broken_led_is_left_out_and_the_rest_work(caplog):
    factory = MockFactory()                   # plain pins cannot do PWM: every LED fails
    bank = LedBank({Button.START: 12}, factory)
    assert bank.devices == {}
    assert "LED of start on GPIO12 left out" in caplog.text
    pwm = MockFactory(pin_class=MockPWMPin)
    pwm.pin(16)
    bank = LedBank({Button.START: 12, Button.VOTE: 99}, pwm)    # 99 is no pin
    assert set(bank.devices) == {Button.START}
    bank.close()


def test_a_broken_button_is_left_out(caplog):
    edges = []
    bank = ButtonBank({Button.START: 5, Button.VOTE: 99}, mock_factory(),
                      lambda *a: edges.append(a), time.monotonic)
    assert set(bank.devices) == {Button.START}
    assert "button vote on GPIO99 left out" in caplog.text
    bank.drive(Button.START, True)
    assert edges and edges[0][:2] == (Button.START, True)
    bank.close()


def test_pin_factory_choice():
    factory, notice = make_factory("mock")
    assert isinstance(factory, MockFactory) and notice is None
    factory, notice = make_factory("auto")          # not a Pi: mock pins, quietly
    assert isinstance(factory, MockFactory) and notice is None
    with pytest.raises(UserError, match="hardware.pin_factory = lgpio: cannot use it"):
        make_factory("lgpio")


def test_default_pin_map_is_free_of_screens_and_audio_boards():
    for screen in ("hdmi", "dsi", "spi"):
        for audio in ("jack", "usb", "hdmi", "i2s"):
            from_dict({"hardware": {"screen": screen, "audio": audio}})
    c = Config()
    used = list(c.buttons.pins().values()) + list(c.leds.pins().values())
    assert len(set(used)) == len(used)
    assert all(p in HEADER for p in used)
    assert not set(HEADER[p] for p in used) & set(GROUND_PINS)


class Clock:
    """Time that moves only when the test says: a hold is exactly as long as
    written, however busy the machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_power_button_hold_shuts_down_only_when_held(tmp_path):
    config = Config()
    config.voice.enabled = False
    config.buttons.power = 3
    config.buttons.power_hold_seconds = 0.5
    clock = Clock()
    parts = build(config, "headless", clock=clock, pin_factory=mock_factory(),
                  stdin_keys=False)

    def hold(seconds: float) -> None:
        parts.bank.drive(Button.POWER, True)
        parts.box.step(max_sleep=0)
        clock.now += seconds
        parts.box.step(max_sleep=0)
        parts.bank.drive(Button.POWER, False)
        parts.box.step(max_sleep=0)
        clock.now += 1                               # past the debounce

    try:
        assert Button.POWER in parts.bank.devices
        hold(0.49)
        assert parts.box.running
        hold(0.5)
        assert not parts.box.running                  # power_action "quit" on a PC
    finally:
        parts.close()


def test_the_flow_asks_for_shutdown_on_a_power_hold_in_any_phase():
    flow = make_flow()
    assert Shutdown() in flow.handle(Hold(Button.POWER), 0.0)
    flow.handle(START, 0.0)
    assert Shutdown() in flow.handle(Hold(Button.POWER), 1.0)
    assert Button.POWER not in dict(flow.view(1.0).legend)   # not a game button


def test_selftest_on_a_pc_with_mock_pins(tmp_path):
    import os
    import subprocess
    import sys
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CACHE_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "wolfbox", "selftest", "--auto",
                             "--display", "headless"], env=env, capture_output=True,
                            text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for line in ("pin driver    MockFactory", "sound         mixer 22050 Hz",
                 "voice         en_US-joe-medium (piper): real-time factor",
                 "cache space", "watchdog", "test line     played",
                 "start button  pressed", "back button   pressed"):
        assert line in out, line
    assert "0 failed" in out
    # Nobody presses anything: each button is a failure, and so is the run.
    env["SDL_AUDIODRIVER"] = "no_such_driver"
    result = subprocess.run([sys.executable, "-m", "wolfbox", "selftest", "--display",
                             "headless", "--button-timeout", "0.3"], env=env,
                            capture_output=True, text=True, timeout=300,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert "[FAIL] sound" in result.stdout
    assert "[FAIL] vote button   not pressed within 0.3 s" in result.stdout


def test_wiring_docs_are_drawn_from_the_pin_map():
    from pathlib import Path

    from wolfbox.hardware.diagram import wiring_svg, wiring_table
    here = Path(__file__).parent.parent / "hardware"
    assert (here / "wiring.svg").read_text() == wiring_svg()
    assert wiring_table() in (here / "README.md").read_text()


def test_a_mock_pin_remembers_only_its_last_changes():
    from wolfbox.hardware.factory import PIN_HISTORY, mock_factory
    pin = mock_factory().pin(17)
    pin.function = "output"
    for i in range(3 * PIN_HISTORY):
        pin.state = i % 2
    assert len(pin.states) == PIN_HISTORY
    assert [s.state for s in pin.states[-2:]] == [False, True]
