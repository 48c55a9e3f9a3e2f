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
@pytest.mark.parametrize("script", ["install.sh", "pi-check.sh"])
def test_the_installer_and_the_arm64_check_are_shellcheck_clean(script):
    result = subprocess.run(["shellcheck", str(Path(INSTALLER).parent / script)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def installer(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env})


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    before = {p: Path(p).exists() for p in ("/opt/wolfbox", "/etc/systemd/system/"
                                            "wolfbox.service", "/etc/polkit-1/rules.d/"
                                            "50-wolfbox.rules", "/etc/wolfbox/wolfbox.toml")}
    env, _ = fake_system(tmp_path, user=False)
    result = installer("--dry-run", **env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for step in ("packages", "user wolfbox", "/opt/wolfbox", "/etc/wolfbox/wolfbox.toml",
                 "/var/cache/wolfbox", "prepare", "50-wolfbox.rules", "wolfbox.service",
                 "enable"):
        assert step in out, step
    assert "dry run" in out.lower()
    after = {p: Path(p).exists() for p in before}
    assert after == before
    assert not (tmp_path / "root").exists()


def test_pip_is_held_to_the_pinned_versions(tmp_path):
    """In a scratch root: the machine's own install (an /opt/wolfbox already
    up to date) must not change what the test sees."""
    env, _ = fake_system(tmp_path, installed=listed_packages()[0] + ["python3-lgpio"])
    out = installer("--dry-run", **env).stdout
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
    assert "--no-prepare" in result.stderr and "--list-packages" in result.stderr
    help_text = installer("--help")
    assert help_text.returncode == 0 and "--list-packages" in help_text.stdout
    assert "set -euo" not in help_text.stdout                  # the header, not the code
    result = installer("--uninstall", "--dry-run")
    assert result.returncode == 0 and "Removing Wolfbox" in result.stdout


SHIMS = {
    # Debian's package database: everything is installed already.
    "dpkg-query": '#!/bin/sh\nprintf "install ok installed"\n',
    "apt-get": '#!/bin/sh\necho "apt-get must not run: $*" >&2\nexit 1\n',
    # systemd, remembered in files next to the shim.
    "systemctl": '#!/bin/sh\nd=$(dirname "$0")\necho "$*" >> "$d/systemctl.log"\n'
                 'case "$1" in --root=*) shift ;; esac\n'
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
    for name in ("wolfbox", "device", "audio", "hardware", "phones", "systemd"):
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
        # WOLFBOX_GROUPS="": no group to join, so none named.
        assert (root / "etc/systemd/system/wolfbox.service").read_text() == "".join(
            line for line in UNIT.read_text().splitlines(keepends=True)
            if not line.startswith("SupplementaryGroups="))
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
    tops = ("wolfbox", "device", "audio", "hardware", "phones")
    found = {init.parent.relative_to(ROOT) for top in tops
             for init in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, sorted(map(str, found - listed))


def test_the_installer_offers_german_and_chinese_voices(tmp_path):
    """Without --voices it says how to get them; with them it downloads each
    Piper voice (piper's own download command) where the service looks."""
    env, _ = fake_system(tmp_path)
    plain = installer("--dry-run", **env)
    assert plain.returncode == 0, plain.stderr
    assert "--voices=de,zh downloads Piper voices for German and Chinese" in plain.stdout
    result = installer("--dry-run", "--voices=de,zh", **env)
    assert result.returncode == 0, result.stderr
    voices = tmp_path / "root/var/lib/wolfbox/voices"
    for name in ("de_DE-thorsten-medium", "zh_CN-huayan-medium"):
        assert f"-m piper.download_voices --download-dir {voices} {name}" in result.stdout
    unit = (Path(INSTALLER).parent / "wolfbox.service").read_text()
    assert "Environment=WOLFBOX_VOICES=/var/lib/wolfbox/voices" in unit
    bad = installer("--dry-run", "--voices=fr", WOLFBOX_ARCH="aarch64")
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "install.sh: no Piper voice known for 'fr' (--voices takes de, zh or both)")


# --- Beyond Raspberry Pi OS: Debian, Ubuntu and Armbian arm64 -----------------

PACKAGE_LISTS = Path(__file__).parent / "packages"

FAKE_SYSTEM = {
    # dpkg's database: the names in `installed`.
    "dpkg-query": '#!/bin/sh\nfor p; do :; done\n'
                  'grep -qx "$p" "$(dirname "$0")/installed" && printf "install ok installed"\n',
    # apt's archive: the names in `archive` have a candidate.
    "apt-cache": '#!/bin/sh\n[ "$1" = policy ] || exit 1\n'
                 'if grep -qx "$2" "$(dirname "$0")/archive"; then\n'
                 '  printf "%s:\\n  Installed: (none)\\n  Candidate: 1.0-1\\n" "$2"; fi\n',
    # The system's groups, and those the box's user is in.
    "getent": '#!/bin/sh\ngrep -qx "$2" "$(dirname "$0")/groups"\n',
    "id": '#!/bin/sh\nd=$(dirname "$0")\ncase "$1" in\n  -u) echo 0 ;;\n'
          '  -nG) tr "\\n" " " < "$d/joined" ;;\n  *) test -f "$d/user" ;;\nesac\n',
    "useradd": '#!/bin/sh\nd=$(dirname "$0")\necho "useradd $*" >> "$d/log"\ntouch "$d/user"\n',
    "groupadd": '#!/bin/sh\nd=$(dirname "$0")\necho "groupadd $*" >> "$d/log"\n'
                'for g; do :; done\necho "$g" >> "$d/groups"\n',
    "usermod": '#!/bin/sh\nd=$(dirname "$0")\necho "usermod $*" >> "$d/log"\n'
               'echo "$2" >> "$d/joined"\n',
    "apt-get": '#!/bin/sh\necho "apt-get $*" >> "$(dirname "$0")/log"\n',
    "udevadm": '#!/bin/sh\necho "udevadm $*" >> "$(dirname "$0")/log"\n',
    "systemctl": '#!/bin/sh\nd=$(dirname "$0")\necho "systemctl $*" >> "$d/log"\n'
                 'case "$*" in\n  *is-enabled*) test -f "$d/enabled" ;;\n'
                 '  *enable*) touch "$d/enabled" ;;\nesac\n',
    # Runs the command after `--` as it is (the scratch root has no such user).
    "runuser": '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n',
}


def listed_packages() -> tuple[list[str], list[tuple[str, str]]]:
    """The installer's own list: apt-only packages, and (package, wheel)
    pairs taken from apt where the archive has them, else from PyPI."""
    result = installer("--list-packages")
    assert result.returncode == 0, result.stderr
    apt, either = [], []
    for line in result.stdout.splitlines():
        how, name, *wheel = line.split()
        if how == "apt":
            apt.append(name)
        elif how == "apt-phones":
            continue                    # the own Wi-Fi's (tests/test_install_phones.py)
        else:
            assert how == "apt-or-pypi", line
            either.append((name, wheel[0]))
    return apt, either


def names(listing: str) -> set[str]:
    lines = (PACKAGE_LISTS / listing).read_text().splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


def fake_system(tmp_path: Path, *, installed=(), archive=(), groups=(), joined=(),
                user: bool = True) -> tuple[dict[str, str], Path]:
    """A Debian-like system for the installer: its packages, archive, groups
    and user in files beside shims of the tools that read or change them."""
    shims = tmp_path / "shims"
    shims.mkdir()
    for name, body in FAKE_SYSTEM.items():
        (shims / name).write_text(body)
        (shims / name).chmod(0o755)
    for name, lines in (("installed", installed), ("archive", archive), ("groups", groups),
                        ("joined", joined)):
        (shims / name).write_text("".join(f"{line}\n" for line in lines))
    (shims / "log").write_text("")
    if user:
        (shims / "user").write_text("")
    (tmp_path / "dev").mkdir()
    return {"WOLFBOX_ROOT": str(tmp_path / "root"), "WOLFBOX_ARCH": "aarch64",
            "WOLFBOX_DEV": str(tmp_path / "dev"), "XDG_STATE_HOME": str(tmp_path / "state"),
            "PATH": f"{shims}:{os.environ['PATH']}"}, shims


def test_every_package_is_in_raspberry_pi_os_and_in_debian():
    """The installer's package names against the archives' own (the lists in
    tests/packages/ say where each came from): Raspberry Pi OS has every one,
    Debian every one the installer insists on, and what Debian lacks is one
    the installer can take from PyPI instead."""
    apt, either = listed_packages()
    raspios, debian = names("raspios-bookworm-arm64.txt"), names("debian-bookworm-arm64.txt")
    assert set(apt) <= raspios and set(apt) <= debian, (set(apt) - raspios, set(apt) - debian)
    assert {name for name, _ in either} <= raspios
    assert "python3-lgpio" not in debian                       # the case PyPI is there for
    assert dict(either)["python3-lgpio"].startswith("lgpio==")
    assert "polkitd" in apt                                    # the power button's rule needs it


def test_lgpio_comes_from_pypi_where_the_archive_has_none(tmp_path):
    """Debian, Armbian: no python3-lgpio in the archive; its wheel goes into
    the box's venv, a wheel or nothing (no compiler on the box)."""
    apt, _ = listed_packages()
    env, _ = fake_system(tmp_path, installed=apt, archive=names("debian-bookworm-arm64.txt"))
    result = installer("--dry-run", **env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "note: no python3-lgpio in this system's apt archive" in out
    assert "apt-get" not in out
    pip = [line for line in out.splitlines() if " -m pip install " in line]
    assert len(pip) == 2 and pip[1].endswith("--only-binary :all: lgpio==0.2.2.0"), pip


def test_lgpio_comes_from_apt_where_the_archive_has_it(tmp_path):
    """Raspberry Pi OS (and Ubuntu's universe): Debian's package, seen through
    the venv's system site-packages; nothing from PyPI."""
    apt, _ = listed_packages()
    env, _ = fake_system(tmp_path, installed=apt, archive=names("raspios-bookworm-arm64.txt"))
    out = installer("--dry-run", **env).stdout
    assert "would run: apt-get install -y --no-install-recommends python3-lgpio" in out
    assert "apt-get update" not in out                   # the lists already know it
    assert "lgpio==" not in out


def test_a_bare_system_updates_apt_first_then_installs_what_is_missing(tmp_path):
    apt, _ = listed_packages()
    env, _ = fake_system(tmp_path, archive=names("debian-bookworm-arm64.txt"))
    out = installer("--dry-run", **env).stdout
    update = out.index("would run: apt-get update")
    install = out.index("would run: apt-get install -y --no-install-recommends ")
    assert update < install
    line = out[install:].splitlines()[0]
    assert line.split("--no-install-recommends ")[1].split() == apt


def run_steps(env: dict[str, str], steps: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env, "WOLFBOX_STEPS": steps})


def written_groups(tmp_path: Path) -> list[str]:
    unit = (tmp_path / "root/etc/systemd/system/wolfbox.service").read_text()
    found = re.findall(r"^SupplementaryGroups=(.*)$", unit, flags=re.M)
    return found[0].split() if found else []


UDEV_RULE = "etc/udev/rules.d/60-wolfbox-gpio.rules"


def test_the_unit_joins_only_groups_the_system_has(tmp_path):
    """A minimal Debian: no gpio, render or input group. systemd refuses a
    unit naming a missing group, so the unit names only those there; the
    GPIO chips get a gpio group and a udev rule, as on Raspberry Pi OS."""
    env, shims = fake_system(tmp_path, groups=["audio", "video", "tty"])
    (tmp_path / "dev" / "gpiochip0").write_text("")          # root's, like Debian's
    result = run_steps(env, "user unit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert written_groups(tmp_path) == ["gpio", "audio", "video", "tty"]
    log = (shims / "log").read_text()
    assert "groupadd --system gpio" in log and "usermod -aG gpio wolfbox" in log
    rule = (tmp_path / "root" / UDEV_RULE).read_text()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rule
    assert 'KERNEL=="gpiomem*", GROUP="gpio", MODE="0660"' in rule
    assert "note: no group render on this system; skipped" in result.stdout
    again = run_steps(env, "user unit")                      # the group is there now
    assert "Nothing to change" in again.stdout, again.stdout


def test_on_raspberry_pi_os_the_unit_keeps_every_group_and_adds_no_rule(tmp_path):
    groups = ["gpio", "audio", "video", "render", "input", "tty"]
    env, shims = fake_system(tmp_path, groups=groups, joined=groups)
    result = run_steps(env, "user unit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert written_groups(tmp_path) == groups
    assert not (tmp_path / "root" / UDEV_RULE).exists()
    assert "groupadd" not in (shims / "log").read_text()


@pytest.mark.skipif(os.geteuid() != 0, reason="gives a file to another group: needs root")
def test_where_the_chips_belong_to_another_group_the_box_joins_it(tmp_path):
    """Where the system's own rule gives the GPIO chips to a group (dialout,
    say), the box joins that one and leaves the rule alone."""
    env, shims = fake_system(tmp_path, groups=["audio", "video", "tty", "dialout"])
    chip = tmp_path / "dev" / "gpiochip0"
    chip.write_text("")
    shutil.chown(chip, group="dialout")
    result = run_steps(env, "user unit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert written_groups(tmp_path) == ["dialout", "audio", "video", "tty"]
    assert "the GPIO chips belong to group dialout here" in result.stdout
    assert not (tmp_path / "root" / UDEV_RULE).exists()
    assert "groupadd" not in (shims / "log").read_text()


def test_a_failed_prepare_still_installs_the_service(tmp_path):
    """Rendering the voice fails (a full disk, a broken voice): the polkit
    rule and the unit are installed all the same, and the box renders the
    lines itself when it starts."""
    env, shims = fake_system(tmp_path)
    box = tmp_path / "root/opt/wolfbox/.venv/bin/wolfbox"
    box.parent.mkdir(parents=True)
    box.write_text("#!/bin/sh\necho 'no space left on device' >&2\nexit 1\n")
    box.chmod(0o755)
    result = run_steps(env, "prepare polkit unit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("note: rendering the voice failed (above); the box renders a game's lines in the "
            "background when it opens it") in result.stdout
    assert (tmp_path / "root/etc/polkit-1/rules.d/50-wolfbox.rules").exists()
    assert (tmp_path / "root/etc/systemd/system/wolfbox.service").exists()
    assert "enable wolfbox.service" in (shims / "log").read_text()


def test_no_prepare_leaves_the_voice_to_the_first_start(tmp_path):
    env, _ = fake_system(tmp_path)
    out = installer("--dry-run", "--no-prepare", **env).stdout
    assert "skip: rendering the voice (--no-prepare)" in out
    assert " prepare --config" not in out


def test_the_venvs_own_tools_are_not_pinned():
    """setuptools (which colorzero needs) and pip come with the venv or with
    Debian's python3-setuptools (66.1.1 on Bookworm, not the 65.5.0 a
    python.org build brings): a pin would fight them, and the pins' test
    would fail on any Debian-based machine."""
    import sys
    sys.path.insert(0, str(ROOT / "systemd"))
    try:
        import constraints
    finally:
        sys.path.remove(str(ROOT / "systemd"))
    generated = {pin.split("==")[0].lower() for pin in constraints.runtime_pins()}
    assert "colorzero" in generated
    for tool in ("setuptools", "pip", "wheel"):
        assert tool not in pins() and tool not in generated, tool
    apt, _ = listed_packages()
    assert "python3-setuptools" in apt


PHONES_DROPIN = "etc/systemd/system/wolfbox.service.d/phones.conf"


def test_phones_open_the_service_to_the_local_network_only_when_asked(tmp_path):
    """The service has no network; --phones adds a drop-in that opens it to
    the local network alone (and keeps every other hardening line), a run
    without the option keeps the choice, and --no-phones closes it again."""
    groups = ["gpio", "audio", "video", "render", "input", "tty"]
    env, _ = fake_system(tmp_path, groups=groups, joined=groups)
    dropin = tmp_path / "root" / PHONES_DROPIN
    assert run_steps(env, "user unit").returncode == 0
    assert not dropin.exists()
    unit = (tmp_path / "root/etc/systemd/system/wolfbox.service").read_text()
    assert "PrivateNetwork=yes" in unit and "IPAddressDeny=any" in unit
    opened = run_steps(env, "user unit", "--phones")
    assert opened.returncode == 0, opened.stdout + opened.stderr
    lines = dropin.read_text().splitlines()
    assert "PrivateNetwork=no" in lines and "IPAddressDeny=any" in lines
    allowed = next(x for x in lines if x.startswith("IPAddressAllow=")).split("=")[1].split()
    assert set(allowed) == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                            "192.168.0.0/16", "fc00::/7"}
    assert "Nothing to change" in run_steps(env, "user unit").stdout     # the choice is kept
    assert dropin.exists()
    closed = run_steps(env, "user unit", "--no-phones")
    assert closed.returncode == 0 and not dropin.exists()
    assert "--phones, --no-phones" in run_steps(env, "unit", "--phone").stderr
