"""Issue 29.15: phones with a broken `websockets` (its import fails). On in
the config, the box exited 1 even with --safe-config; turned on from the
settings screen (and so remembered), every later boot crash-looped. The box
plays on its buttons with phones off, and says why in one line, once."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys

import pytest
from conftest import Lines, NotifySocket

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.device.notices import NO_PHONE_SERVER
from wolfbox.effects import ChangeSetting
from wolfbox.roster import setup_holds_note
from wolfbox.settings import apply_remembered

NOTICE = NO_PHONE_SERVER          # the box's language is English in these tests
LOGGED = "phones: off: their web server cannot be loaded"


@pytest.fixture
def broken_websockets(monkeypatch):
    """`import websockets` fails in this process, and the phones' server
    is imported afresh (as on a box that never loaded it)."""
    for name in list(sys.modules):
        if name == "websockets" or name.startswith(("websockets.", "wolfbox.phones")):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "websockets", None)


def shim(tmp_path) -> str:
    """A folder whose `websockets` raises on import, for a child's PYTHONPATH."""
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "websockets.py").write_text('raise ImportError("a broken websockets")\n')
    return str(folder)


def boot(tmp_path, notify: NotifySocket, *args: str) -> tuple[int, str, str]:
    """`wolfbox run` headless with the broken websockets and the state in
    tmp_path: the start screen up, then stopped as systemd stops it."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": shim(tmp_path),
           "NOTIFY_SOCKET": notify.address}
    env.pop("STATE_DIRECTORY", None)
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--headless", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        out = Lines(proc.stdout)
        notify.wait_for("READY=1")
        out.wait_for(NOTICE)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
        return code, out.rest(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def config_file(tmp_path, phones: bool) -> str:
    path = tmp_path / "box.toml"
    # Phones left out when off: a key the file sets wins over the box's memory.
    path.write_text('[voice]\nenabled = false\n[phones]\n' + ("enabled = true\n" if phones
                                                                else "")
                    + 'listen = ["127.0.0.1"]\nport = 0\n')
    return str(path)


@pytest.mark.parametrize("safe", [False, True])
def test_phones_on_in_the_config_boot_with_phones_off(tmp_path, safe):
    notify = NotifySocket(tmp_path / "notify")
    try:
        args = ["--config", config_file(tmp_path, phones=True)] + (["--safe-config"] if safe
                                                                   else [])
        code, out, err = boot(tmp_path, notify, *args)
    finally:
        notify.close()
    assert code == 0, err
    assert "Traceback" not in err
    assert err.count(LOGGED) == 1, err
    assert "a broken websockets" in err


def test_phones_turned_on_on_the_box_then_a_reboot(tmp_path, pilots, broken_websockets,
                                                   caplog):
    caplog.set_level(logging.WARNING, "wolfbox")
    config = phones_config(tmp_path, on=False)
    pilot = pilots.start(config)
    pilot.box._apply([ChangeSetting("phones.enabled", True)])      # the settings screen's
    pilot.settle()
    assert NOTICE in pilot.box.notice.split("; ")
    assert pilot.box.running and pilot.parts.phones.phones is None
    pilot.box._apply([ChangeSetting("phones.enabled", False)])
    pilot.box._apply([ChangeSetting("phones.enabled", True)])      # once more: said once
    assert pilot.box.notice.split("; ").count(NOTICE) == 1
    assert sum(LOGGED in r.getMessage() for r in caplog.records) == 1
    pilots.close()                                    # the box stops: its memory is written
    pilots.made.clear()

    from wolfbox.device.state import StateStore, state_path
    remembered = apply_remembered(phones_config(tmp_path, on=False),
                                  StateStore(state_path()).load())
    assert remembered.phones.enabled                  # what the next boot is asked for
    again = pilots.start(remembered)                  # the reboot: no exception
    again.settle()
    assert NOTICE in again.box.notice.split("; ")
    assert again.parts.phones.phones is None
    # Nothing offers phones that cannot come: no "Hold BACK: phones", and
    # the hold opens no join screen (its card would point at no page).
    start = again.view
    assert start.footer == setup_holds_note(again.box.flow.name), start.footer
    assert Button.BACK not in dict(start.holds)
    again.press(Button.BACK, hold=3.0)
    assert not again.box.flow.phones_screen_open
    assert again.view.join is None


def test_a_reboot_of_the_real_command_after_the_settings_turned_phones_on(tmp_path):
    """What the settings screen keeps (state.json), met by `wolfbox run`."""
    state = tmp_path / "state" / "wolfbox"
    state.mkdir(parents=True)
    (state / "state.json").write_text('{"settings": {"phones.enabled": true}}')
    notify = NotifySocket(tmp_path / "notify")
    try:
        code, out, err = boot(tmp_path, notify, "--config", config_file(tmp_path, False))
    finally:
        notify.close()
    assert code == 0, err
    assert err.count(LOGGED) == 1, err
