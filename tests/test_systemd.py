"""The Raspberry Pi service: its unit file, the notify protocol, and a
config that breaks at boot."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NotifySocket

ROOT = Path(__file__).parent.parent
UNIT = ROOT / "systemd" / "wolfbox.service"
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


PHONES = ROOT / "systemd" / "phones.conf"


def exposure(unit: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                            capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found[1])


def with_phones(tmp_path: Path) -> Path:
    """The unit with the phones' drop-in, as systemd merges it (its lines
    after the unit's own [Service] lines)."""
    extra = [line for line in PHONES.read_text().splitlines()
             if line and not line.startswith(("#", "["))]
    text = UNIT.read_text().replace("\n[Install]", "\n" + "\n".join(extra) + "\n\n[Install]")
    unit = tmp_path / "wolfbox.service"
    unit.write_text(text)
    return unit


@needs_analyze
def test_the_unit_is_hardened_to_2_or_lower_with_phones_or_without(tmp_path):
    alone, phones = exposure(UNIT), exposure(with_phones(tmp_path))
    assert alone <= 1.0 and phones <= 2.0
    assert phones > alone                            # the network is the difference


def test_the_phones_drop_in_opens_the_local_network_and_nothing_else():
    lines = [x for x in PHONES.read_text().splitlines() if x and not x.startswith("#")]
    assert lines[0] == "[Service]"
    settings = dict(x.split("=", 1) for x in lines[1:])
    assert set(settings) == {"PrivateNetwork", "RestrictAddressFamilies", "IPAddressDeny",
                             "IPAddressAllow"}
    assert settings["IPAddressDeny"] == "any" and settings["PrivateNetwork"] == "no"
    assert "0.0.0.0/0" not in settings["IPAddressAllow"] and "any" not in \
        settings["IPAddressAllow"]


@needs_analyze
def test_the_unit_verifies_with_a_real_interpreter(tmp_path):
    unit = tmp_path / "wolfbox.service"
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={Path(sys.executable).resolve()} -m wolfbox",
                  UNIT.read_text(), flags=re.M)
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "wolfbox.service" not in result.stderr, result.stderr   # no warning about it


def test_the_unit_keeps_exactly_the_device_access_the_box_needs():
    text = UNIT.read_text()
    allowed = set(re.findall(r"^DeviceAllow=(\S+) (\w+)$", text, flags=re.M))
    assert allowed == {("char-drm", "rw"), ("char-input", "r"), ("char-alsa", "rw"),
                       ("char-gpiochip", "rw"), ("/dev/gpiomem", "rw"), ("/dev/tty1", "rw")}
    for line in ("DevicePolicy=closed", "Type=notify", "Restart=on-failure",
                 "TTYPath=/dev/tty1", "StandardInput=tty", "Conflicts=getty@tty1.service",
                 "StateDirectory=wolfbox", "CacheDirectory=wolfbox", "PrivateNetwork=yes",
                 "Environment=SDL_VIDEODRIVER=kmsdrm", "WorkingDirectory=/var/lib/wolfbox",
                 "User=wolfbox"):
        assert re.search(rf"^{re.escape(line)}$", text, flags=re.M), line
    groups = re.search(r"^SupplementaryGroups=(.*)$", text, flags=re.M)[1].split()
    assert set(groups) >= {"gpio", "audio", "video", "render", "input"}
    assert re.search(r"^WatchdogSec=\d+", text, flags=re.M)


def box_env(tmp_path: Path, notify: NotifySocket, **extra: str) -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
            "NOTIFY_SOCKET": notify.address, "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_STATE_HOME": str(tmp_path / "state"), **extra}


def test_ready_and_watchdog_reach_systemd(tmp_path):
    """The box speaks the notify protocol to a socket standing in for systemd."""
    notify = NotifySocket(tmp_path / "notify")
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless"],
                            env=box_env(tmp_path, notify, WATCHDOG_USEC="2000000"),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        assert notify.next().startswith("READY=1")           # nothing before it
        for _ in range(3):                                     # every second: half of 2 s
            assert notify.next(timeout=60) == "WATCHDOG=1"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        assert notify.queued()[-1:] == ["STOPPING=1"]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stderr.close()
        notify.close()


def test_a_broken_config_at_boot_starts_on_defaults_and_says_why(tmp_path):
    config = tmp_path / "wolfbox.toml"
    config.write_text("[game]\ndiscussion_seconds = 'long'\n")
    notify = NotifySocket(tmp_path / "notify")
    env = box_env(tmp_path, notify)
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--headless",
                             "--config", str(config), "--safe-config"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        notify.wait_for("READY=1")                            # up, on the defaults
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "game.discussion_seconds must be a number" in err
        assert "starting on the defaults" in err
        assert "Config error: playing on the defaults" in out               # on the screen too
        assert "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
        notify.close()
    # Without --safe-config the same file is a one-line error.
    result = subprocess.run([sys.executable, "-m", "wolfbox", "--headless", "--config",
                             str(config)], env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2
