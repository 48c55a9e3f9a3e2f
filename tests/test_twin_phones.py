"""The twin's simulated phones (image/phones_sim.py, run by make
boot-check's check w inside the twin) against the real box and server on
loopback: they pin the key from the QR code's address, take every seat
with the PIN, and each is shown its own card of a timed deal; a key other
than the code's, or a wrong PIN, is a failure they report."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path

import pytest
from test_phones_box import box_hears, join_details

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.newd3 import said
from wolfbox.newd3.roles import role_name
from wolfbox.phones.seal import BoxKey

SIM_PATH = Path(__file__).resolve().parent.parent / "image/phones_sim.py"


def _load():
    spec = importlib.util.spec_from_file_location("wolfbox_image_phones_sim", SIM_PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sim = _load()


def run(sim_args: dict, told: list[str]) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def go() -> None:
        try:
            out["end"] = sim.play(**sim_args, tell=told.append)
        except Exception as e:                    # the test reads it
            out["error"] = e
    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    return thread, out


def test_nine_simulated_phones_join_by_the_qr_code_and_each_sees_its_card(tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    _url, pin = join_details(pilot)
    qr = pilot.view.join.qr
    told: list[str] = []
    thread, out = run(dict(url=qr, pin=pin, seats=9, timeout=60, deal=True), told)
    game = pilot.box.flow.active
    box_hears(pilot, lambda: game.phones == frozenset(range(1, 10)) and "joined 9" in told)
    pilot.press(Button.START)
    pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
    thread.join(60)
    assert "error" not in out, out
    assert sorted(told[1:]) == sorted(f"dealt {s}" for s in range(1, 10))
    assert "9 seats joined" in out["end"]
    # Each phone's card is its seat's: held by the box, read from the game.
    names = {role_name(card) for card in game.seats}
    assert f"({len(names)} different ones)" in out["end"]


def test_a_key_other_than_the_qr_codes_is_refused(tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    url, pin = join_details(pilot)
    told: list[str] = []
    with pytest.raises(sim.SimFailed, match="not the QR code's"):
        sim.play(f"{url}#k={BoxKey().public}", pin, 1, 10, False, told.append)
    assert told == []


def test_a_wrong_pin_is_a_failure_the_sim_reports(tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    _url, pin = join_details(pilot)
    wrong = f"{(int(pin) + 1) % 10000:04d}"
    told: list[str] = []
    thread, out = run(dict(url=pilot.view.join.qr, pin=wrong, seats=1, timeout=10,
                           deal=False), told)
    for _ in range(40):                          # the box acts on what the phone posts
        if not thread.is_alive():
            break
        pilot.box.act(pilot.box.inbox.wait(0.5))
    thread.join(30)
    assert isinstance(out.get("error"), sim.SimFailed) and "not joined" in str(out["error"])
    assert told == []
