"""No unit that runs as root reads anything the box's user can write.

The box's service runs as its own user; a few units run as root (the own
Wi-Fi's, the image's first-boot ones), and the box may start one of them
(polkit). A root unit that read a file of that user's (an EnvironmentFile:
one line of LD_PRELOAD=...; a script; a credential's source; a directory it
binds) would run that user's choice as root. Every unit shipped here
(systemd/, the image's overlay) is parsed as systemd reads it; what the
box's user can write is taken from its own unit (its state, cache, logs
and runtime directories) and from what the installer really gives it (its
home, the folders it makes for it, seen in a dry run), with the folders
anyone may write."""

from __future__ import annotations

import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from test_install import fake_system, installer, run_steps

ROOT = Path(__file__).parent.parent
OVERLAY = ROOT / "image" / "overlay"
UNIT_DIRS = (ROOT / "systemd", OVERLAY / "etc/systemd/system")
# Anyone may write these (sticky, world-writable), the box's user too.
EVERYONES = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/run/user")
# The directories systemd makes for a unit, by the setting that names them.
EXEC_DIRS = {"StateDirectory": "/var/lib", "CacheDirectory": "/var/cache",
             "LogsDirectory": "/var/log", "RuntimeDirectory": "/run",
             "ConfigurationDirectory": "/etc"}
# Settings naming a tree the unit reads (or binds, or works in).
TREES = ("ReadWritePaths", "ReadOnlyPaths", "BindPaths", "BindReadOnlyPaths",
         "RootDirectory", "RootImage", "WorkingDirectory", "ExecSearchPath")
# Settings naming one file or path the unit (or systemd for it) reads.
FILES = ("EnvironmentFile", "ConditionPathExists", "ConditionPathIsDirectory",
         "ConditionFileNotEmpty", "ConditionPathExistsGlob", "AssertPathExists",
         "AssertPathIsDirectory", "AssertFileNotEmpty", "TTYPath", "PIDFile")
ABSOLUTE = re.compile(r"(?<![\w.$%{}-])/(?:[\w.@+-]+/?)+")


@dataclass
class Unit:
    path: Path
    settings: dict[str, list[str]] = field(default_factory=dict)

    def all(self, key: str) -> list[str]:
        return self.settings.get(key, [])

    def last(self, key: str, default: str = "") -> str:
        values = self.all(key)
        return values[-1] if values else default

    @property
    def name(self) -> str:
        return self.path.name

    def runs_as_root(self) -> bool:
        return self.last("User", "root") in ("root", "0") and \
            self.last("DynamicUser", "no") not in ("yes", "true", "1", "on")


def parse(path: Path, into: Unit | None = None) -> Unit:
    """A unit file (or a drop-in onto `into`) as systemd reads it: sections
    ignored, comments dropped, backslash-continued lines joined, an empty
    assignment resetting the list."""
    unit = into or Unit(path)
    text = re.sub(r"\\\n", " ", path.read_text())
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if value == "":
            unit.settings[key] = []
        else:
            unit.settings.setdefault(key, []).append(value)
    return unit


def shipped_units() -> list[Unit]:
    units = {}
    for folder in UNIT_DIRS:
        for path in sorted(folder.glob("*.service")):
            units[path.name] = parse(path)
        for dropin in sorted(folder.glob("*.service.d/*.conf")):
            parse(dropin, units[dropin.parent.name[:-2]])
    # systemd/phones.conf: the installer's drop-in for the box's own unit.
    parse(ROOT / "systemd/phones.conf", units["wolfbox.service"])
    return list(units.values())


def exec_dirs(unit: Unit) -> list[tuple[str, str]]:
    """(setting, path) of each directory systemd makes for the unit."""
    return [(key, f"{base}/{name}") for key, base in EXEC_DIRS.items()
            for value in unit.all(key) for name in value.split()]


def box_writes(tmp_path: Path) -> list[str]:
    """Every path the box's user can write: its unit's own directories and
    what the installer gives it (a dry run: its home, the folders it makes
    for it), and the folders anyone may write."""
    box = next(u for u in shipped_units() if not u.runs_as_root())
    user = box.last("User")
    paths = [path for key, path in exec_dirs(box) if key != "ConfigurationDirectory"]
    paths += [p for v in box.all("ReadWritePaths") for p in v.split()]
    env, _ = fake_system(tmp_path, user=False)
    out = installer("--dry-run", "--phones", **env).stdout
    scratch = env["WOLFBOX_ROOT"]
    for line in out.splitlines():
        if "would run: useradd" in line:
            paths.append(line.split("--home-dir ")[1].split()[0])
        elif re.search(rf"would run: install -d -o {user}\b", line):
            paths.append(line.split()[-1])
    paths = list(dict.fromkeys(p.removeprefix(scratch) for p in paths))
    assert "/var/lib/wolfbox" in paths and "/var/cache/wolfbox" in paths, (paths, out)
    return [*paths, *EVERYONES]


def shipped_file(installed: Path, path: str) -> Path | None:
    """Where a path a unit names comes from, if it is one of ours: the
    image's overlay, or what the installer puts there."""
    for base in (OVERLAY, installed):
        candidate = base / path.lstrip("/")
        if candidate.is_file():
            return candidate
    return None


def reads(unit: Unit, installed: Path) -> list[tuple[str, str, bool]]:
    """(setting, path, whole tree) of everything the unit reads or runs; for
    the programs of our own it runs, every absolute path in their text too."""
    found: list[tuple[str, str, bool]] = []
    for key, values in unit.settings.items():
        for value in values:
            if key.startswith("Exec") and key != "ExecSearchPath":
                words = value.split()
                words[0] = words[0].lstrip("@-:+!|")
                for word in words:
                    for path in ABSOLUTE.findall(word):
                        found.append((key, path, False))
                        ours = shipped_file(installed, path)
                        if ours is not None:
                            found += [(f"{key} {path}", inner, False)
                                      for inner in ABSOLUTE.findall(ours.read_text())]
            elif key in ("LoadCredential", "LoadCredentialEncrypted"):
                found.append((key, value.split(":", 1)[1], True))
            elif key in TREES:
                found += [(key, p.lstrip("-").split(":")[0], True) for p in value.split()]
            elif key in FILES:
                found.append((key, value.lstrip("-!|"), False))
            elif key == "Environment":
                found += [(key, p, False) for p in ABSOLUTE.findall(value)]
    found += [(key, path, True) for key, path in exec_dirs(unit)]
    return found


def within(path: str, folder: str) -> bool:
    return PurePosixPath(path).is_relative_to(PurePosixPath(folder))


def trespasses(tmp_path: Path) -> list[str]:
    """Each thing a root unit reads that the box's user can write."""
    for folder in ("dry", "real"):
        (tmp_path / folder).mkdir()
    writable = box_writes(tmp_path / "dry")
    env, _ = fake_system(tmp_path / "real")
    done = run_steps(env, "hotspot unit", "--phones")
    assert done.returncode == 0, done.stdout + done.stderr
    installed = Path(env["WOLFBOX_ROOT"])
    found = []
    for unit in shipped_units():
        if not unit.runs_as_root():
            continue
        for key, path, tree in reads(unit, installed):
            mine = next((m for m in writable if within(path, m) or (tree and within(m, path))),
                        None)
            if mine is not None:
                found.append(f"{unit.name}: {key}={path} (the box's user writes {mine})")
    return found


def test_there_are_root_units_and_the_box_is_not_one():
    units = {u.name: u.runs_as_root() for u in shipped_units()}
    assert units["wolfbox.service"] is False
    assert units["wolfbox-hotspot.service"] is True
    assert units["wolfbox-bootfiles.service"] is True


def test_no_root_unit_reads_what_the_boxs_user_can_write(tmp_path):
    assert trespasses(tmp_path) == []


def test_the_check_finds_the_root_unit_of_before(tmp_path, monkeypatch):
    """The own Wi-Fi's unit as it was (its EnvironmentFile and credential in
    the box's state: LD_PRELOAD=... there ran as root) is caught."""
    old = tmp_path / "old"
    old.mkdir()
    (old / "wolfbox-hotspot.service").write_text(
        "[Service]\nEnvironmentFile=/var/lib/wolfbox/wifi.env\n"
        "ExecStart=/usr/bin/nmcli connection modify id wolfbox-hotspot "
        "802-11-wireless.ssid ${WOLFBOX_SSID}\n"
        "LoadCredential=wifi.secrets:/var/lib/wolfbox/wifi.secrets\n"
        "ExecStart=/usr/bin/nmcli connection up id wolfbox-hotspot passwd-file "
        "%d/wifi.secrets\n")
    (old / "wolfbox.service").symlink_to(ROOT / "systemd/wolfbox.service")
    monkeypatch.setattr(sys.modules[__name__], "UNIT_DIRS", (old,))
    found = trespasses(tmp_path)
    assert found == [
        "wolfbox-hotspot.service: EnvironmentFile=/var/lib/wolfbox/wifi.env "
        "(the box's user writes /var/lib/wolfbox)",
        "wolfbox-hotspot.service: LoadCredential=/var/lib/wolfbox/wifi.secrets "
        "(the box's user writes /var/lib/wolfbox)"]


@pytest.mark.parametrize("setting", [
    "ExecStart=/var/lib/wolfbox/run.sh",
    "ExecStartPre=-/usr/bin/python3 /tmp/x.py",
    "WorkingDirectory=/var/lib/wolfbox",
    "ReadOnlyPaths=/var/lib",
    "BindReadOnlyPaths=/var/cache/wolfbox:/srv",
    "StateDirectory=wolfbox",
    "Environment=PYTHONPATH=/var/lib/wolfbox/voices",
    "ConditionPathExists=!/var/tmp/flag",
])
def test_the_check_finds_each_way_of_reading(tmp_path, monkeypatch, setting):
    units = tmp_path / "units"
    units.mkdir()
    (units / "x.service").write_text(f"[Service]\n{setting}\n")
    (units / "wolfbox.service").symlink_to(ROOT / "systemd/wolfbox.service")
    monkeypatch.setattr(sys.modules[__name__], "UNIT_DIRS", (units,))
    assert len(trespasses(tmp_path)) == 1


def test_what_a_root_unit_runs_or_keeps_is_roots_alone(tmp_path):
    """Its programs of ours installed root's and not writable by others; its
    own state, readable by the box's group where it joins it, never
    writable by that group."""
    env, _ = fake_system(tmp_path)
    assert run_steps(env, "hotspot unit", "--phones").returncode == 0
    installed = Path(env["WOLFBOX_ROOT"])
    box = next(u for u in shipped_units() if not u.runs_as_root())
    for unit in shipped_units():
        if not unit.runs_as_root():
            continue
        for key, path, _tree in reads(unit, installed):
            ours = shipped_file(installed, path)
            if key.startswith("Exec") and " " not in key and ours is not None:
                assert stat.S_IMODE(ours.stat().st_mode) & 0o022 == 0, (unit.name, path)
        if unit.last("Group") == box.last("Group"):
            for key, _path in exec_dirs(unit):
                mode = int(unit.last(f"{key}Mode", "0755"), 8)
                assert mode & 0o022 == 0, (unit.name, key, oct(mode))
