"""systemd/install.sh: its options, its dry run, the versions it pins, and a
real install into a scratch root, run twice."""

from __future__ import annotations

import importlib.metadata as md
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import fill_cache
from wolfbox.catalogue import game_lines
from wolfbox.config import Config

ROOT = Path(__file__).parent.parent
UNIT = ROOT / "systemd" / "wolfbox.service"
INSTALLER = ROOT / "systemd" / "install.sh"
CONSTRAINTS = ROOT / "systemd" / "constraints.txt"


def pins() -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9._-]+)==(\S+)$", CONSTRAINTS.read_text(), flags=re.M)
    return {name.lower(): version for name, version in found}


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


def test_pip_is_held_to_the_pinned_versions():
    out = installer("--dry-run", WOLFBOX_ARCH="aarch64").stdout
    pip = [line for line in out.splitlines() if " -m pip install " in line]
    assert len(pip) == 1, out
    assert f"--constraint {CONSTRAINTS}" in pip[0]


def test_the_pins_are_the_versions_the_tests_run_with():
    """Every runtime dependency, and each of theirs, pinned at the version in
    this environment; no dev tool among them."""
    pinned = pins()
    for name, version in pinned.items():
        assert md.version(name) == version, name
    for requirement in md.requires("wolfbox") or []:
        if "extra ==" not in requirement:
            name = re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower()
            assert name in pinned, name
    assert {"onnxruntime", "numpy"} <= set(pinned)            # dependencies of dependencies
    assert not {"pytest", "hypothesis", "mypy", "ruff", "psutil"} & set(pinned)


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
def test_a_real_install_into_a_scratch_root_is_idempotent(tmp_path, monkeypatch):
    """Everything but apt and systemd for real: the program and its venv, the
    settings, rendering lines, the polkit rule, the unit. An older install
    is replaced whole. Run twice: the second run changes nothing and says so.

    Rendering the voice is `wolfbox prepare`'s test, not this one (its
    worker runs at the lowest priority, and on a machine whose cores are
    busy it all but stops): tones stand in for every line, and the install's
    `wolfbox prepare --check`, run from the new venv, must find them all."""
    shims = tmp_path / "shims"
    shims.mkdir()
    for name, body in SHIMS.items():
        (shims / name).write_text(body)
        (shims / name).chmod(0o755)
    root = tmp_path / "root"
    # An older install: a plain folder with a module since removed...
    older = root / "opt" / "wolfbox"
    (older / "wolfbox").mkdir(parents=True)
    (older / "wolfbox" / "removed_since.py").write_text("")
    (older / ".installed").write_text("an older version\n")
    # ... and an older release of the folder-per-version layout.
    old_release = root / "opt" / "wolfbox-0123456789ab"
    old_release.mkdir()
    (old_release / "stale.py").write_text("")

    monkeypatch.setenv("CACHE_DIRECTORY", str(root / "var/cache/wolfbox"))
    config = Config()
    lines = game_lines(config)
    fill_cache(config, lines)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"),   # nothing remembered
           "WOLFBOX_ROOT": str(root), "WOLFBOX_USER": "root",
           "WOLFBOX_GROUPS": "", "WOLFBOX_ARCH": "aarch64",
           "PATH": f"{shims}:{os.environ['PATH']}"}
    # The source as it is now: an edit in the working tree between the two
    # runs would rightly be a new version to install.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("wolfbox", "device", "audio", "hardware", "systemd"):
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    install = ["bash", str(source / "systemd" / "install.sh")]
    try:
        first = subprocess.run(install, env=env, capture_output=True, text=True, timeout=600)
        assert first.returncode == 0, first.stdout + first.stderr
        assert "Done." in first.stdout
        prefix = root / "opt/wolfbox"
        assert prefix.is_symlink()
        assert not (prefix / "wolfbox" / "removed_since.py").exists()
        assert not old_release.exists()
        assert [p.name for p in (root / "opt").iterdir() if p.name != "wolfbox"] \
            == [os.readlink(prefix)]                        # just the one release
        wolfbox = prefix / ".venv/bin/wolfbox"
        assert wolfbox.exists()
        installed = subprocess.run(
            [str(prefix / ".venv/bin/python"), "-c",
             "import importlib.metadata as m, sys\n"
             "for n in sys.argv[1:]: print(n, m.version(n))", *pins()],
            capture_output=True, text=True, timeout=60)
        assert installed.returncode == 0, installed.stderr
        assert dict(line.split() for line in installed.stdout.splitlines()) == pins()
        assert (root / "etc/wolfbox/wolfbox.toml").read_text().count('power_action = "poweroff"')
        assert 'subject.user == "root"' in (root / "etc/polkit-1/rules.d/50-wolfbox.rules")\
            .read_text()
        assert (root / "etc/systemd/system/wolfbox.service").read_text() == UNIT.read_text()
        assert "ok: every line is rendered" in first.stdout
        assert "enable wolfbox.service" in (shims / "systemctl.log").read_text()

        second = subprocess.run(install, env=env, capture_output=True, text=True,
                                timeout=600)
        assert second.returncode == 0, second.stdout + second.stderr
        assert "Nothing to change" in second.stdout
        assert "do:" not in second.stdout and "running:" not in second.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)     # a whole venv: not left for pytest to keep
        shutil.rmtree(source, ignore_errors=True)


def test_every_python_package_in_the_source_is_installed():
    """A subpackage missing from pyproject's list runs from the source tree
    and fails on the box (the Mayor's game did, once)."""
    import tomllib

    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = {Path(path) for path in tool["package-dir"].values()}
    assert set(tool["packages"]) == set(tool["package-dir"])
    found = {init.parent.relative_to(ROOT) for top in ("wolfbox", "device", "audio", "hardware")
             for init in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, sorted(map(str, found - listed))


def test_the_installer_offers_german_and_chinese_voices():
    """Without --voices it says how to get them; with them it downloads each
    Piper voice (piper's own download command) where the service looks."""
    plain = installer("--dry-run", WOLFBOX_ARCH="aarch64")
    assert plain.returncode == 0, plain.stderr
    assert "--voices=de,zh downloads Piper voices for German and Chinese" in plain.stdout
    result = installer("--dry-run", "--voices=de,zh", WOLFBOX_ARCH="aarch64")
    assert result.returncode == 0, result.stderr
    for name in ("de_DE-thorsten-medium", "zh_CN-huayan-medium"):
        assert f"-m piper.download_voices --download-dir /var/lib/wolfbox/voices {name}" \
            in result.stdout
    unit = (Path(INSTALLER).parent / "wolfbox.service").read_text()
    assert "Environment=WOLFBOX_VOICES=/var/lib/wolfbox/voices" in unit
    bad = installer("--dry-run", "--voices=fr", WOLFBOX_ARCH="aarch64")
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "install.sh: no Piper voice known for 'fr' (--voices takes de, zh or both)")
