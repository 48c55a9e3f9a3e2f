"""The Raspberry Pi service: its unit file, the notify protocol, and a
config that breaks at boot."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
UNIT = ROOT / "systemd" / "wolfbox.service"
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


@needs_analyze
def test_the_unit_is_hardened_to_2_or_lower():
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found[1]) <= 2.0


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


def test_ready_and_watchdog_reach_systemd(tmp_path):
    """The box speaks the notify protocol to a socket standing in for systemd."""
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(20)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "--headless"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        messages, started = [], time.monotonic()
        while time.monotonic() - started < 20 and messages.count("WATCHDOG=1") < 3:
            messages.append(listener.recv(4096).decode())
        assert messages[0].startswith("READY=1")
        pings = messages.count("WATCHDOG=1")
        assert pings >= 3                                  # every second: half of 2 s
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        rest = []
        listener.settimeout(2)
        try:
            while True:
                rest.append(listener.recv(4096).decode())
        except TimeoutError:
            pass
        assert "STOPPING=1" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
        listener.close()


def test_a_broken_config_at_boot_starts_on_defaults_and_says_why(tmp_path):
    config = tmp_path / "wolfbox.toml"
    config.write_text("[game]\ndiscussion_seconds = 'long'\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "wolfbox", "run", "--headless",
                             "--config", str(config), "--safe-config"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0
        assert "game.discussion_seconds must be a number" in err
        assert "starting on the defaults" in err
        assert "config error, using defaults" in out               # on the screen too
        assert "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
    # Without --safe-config the same file is a one-line error.
    result = subprocess.run([sys.executable, "-m", "wolfbox", "--headless", "--config",
                             str(config)], env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2


INSTALLER = ROOT / "systemd" / "install.sh"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_installer_is_shellcheck_clean():
    result = subprocess.run(["shellcheck", str(INSTALLER)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def installer(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env})


def test_dry_run_prints_every_step_and_changes_nothing():
    before = {p: Path(p).exists() for p in ("/opt/wolfbox", "/etc/systemd/system/"
                                            "wolfbox.service", "/etc/polkit-1/rules.d/"
                                            "50-wolfbox.rules", "/etc/wolfbox/wolfbox.toml")}
    result = installer("--dry-run", WOLFBOX_ARCH="aarch64")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for step in ("packages", "user wolfbox", "/opt/wolfbox", "/etc/wolfbox/wolfbox.toml",
                 "/var/cache/wolfbox", "prepare", "50-wolfbox.rules", "wolfbox.service",
                 "enable"):
        assert step in out, step
    assert "dry run" in out.lower()
    after = {p: Path(p).exists() for p in before}
    assert after == before


def test_32_bit_pi_os_is_refused_with_a_reason():
    result = installer("--dry-run", WOLFBOX_ARCH="armv7l")
    assert result.returncode == 1
    assert "32-bit" in result.stderr and "onnxruntime" in result.stderr


def test_installer_options():
    result = installer("--frobnicate")
    assert result.returncode == 2 and "unknown option '--frobnicate'" in result.stderr
    assert installer("--help").returncode == 0
    result = installer("--uninstall", "--dry-run")
    assert result.returncode == 0 and "Removing Wolfbox" in result.stdout


SHIMS = {
    # Debian's package database: everything is installed already.
    "dpkg-query": '#!/bin/sh\nprintf "install ok installed"\n',
    "apt-get": '#!/bin/sh\necho "apt-get must not run: $*" >&2\nexit 1\n',
    # systemd, remembered in files next to the shim.
    "systemctl": '#!/bin/sh\nd=$(dirname "$0")\necho "$*" >> "$d/systemctl.log"\n'
                 'case "$1" in\n'
                 '  is-enabled) test -f "$d/enabled" ;;\n'
                 '  is-active) test -f "$d/active" ;;\n'
                 '  enable) touch "$d/enabled" ;;\n'
                 '  start|restart) touch "$d/active" ;;\n'
                 '  *) true ;;\nesac\n',
}


@pytest.mark.skipif(os.geteuid() != 0, reason="installs for real into a scratch root: needs root")
def test_a_real_install_into_a_scratch_root_is_idempotent(tmp_path):
    """Everything but apt and systemd for real: the program and its venv, the
    settings, the rendered lines, the polkit rule, the unit. Run twice: the
    second run changes nothing and says so."""
    shims = tmp_path / "shims"
    shims.mkdir()
    for name, body in SHIMS.items():
        (shims / name).write_text(body)
        (shims / name).chmod(0o755)
    root = tmp_path / "root"
    env = {**os.environ, "WOLFBOX_ROOT": str(root), "WOLFBOX_USER": "root",
           "WOLFBOX_GROUPS": "", "WOLFBOX_ARCH": "aarch64",
           "PATH": f"{shims}:{os.environ['PATH']}"}
    first = subprocess.run(["bash", str(INSTALLER)], env=env, capture_output=True, text=True,
                           timeout=1200)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Done." in first.stdout
    wolfbox = root / "opt/wolfbox/.venv/bin/wolfbox"
    assert wolfbox.exists()
    assert (root / "etc/wolfbox/wolfbox.toml").read_text().count('power_action = "poweroff"')
    assert 'subject.user == "root"' in (root / "etc/polkit-1/rules.d/50-wolfbox.rules")\
        .read_text()
    assert (root / "etc/systemd/system/wolfbox.service").read_text() == UNIT.read_text()
    assert len(list((root / "var/cache/wolfbox").rglob("*.wav"))) > 50      # prepared
    assert "enable wolfbox.service" in (shims / "systemctl.log").read_text()

    second = subprocess.run(["bash", str(INSTALLER)], env=env, capture_output=True,
                            text=True, timeout=600)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Nothing to change" in second.stdout
    assert "do:" not in second.stdout and "running:" not in second.stdout
