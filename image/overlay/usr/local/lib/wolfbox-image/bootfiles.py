#!/usr/bin/python3
"""Settings a Pi user leaves on the card's FAT boot partition, applied at boot.

A card is set up from any computer that can write a FAT partition, in the
conventions Raspberry Pi OS taught its users:

- ``wolfbox.toml``: the box's settings. Copied to /etc/wolfbox when the boot
  partition's copy changed since it was last applied, so settings made on the
  box are not overwritten at every boot.
- ``wpa_supplicant.conf`` (``country=``, ``network={ ssid= psk= }``) or
  Raspberry Pi Imager's ``custom.toml`` (``[wlan] ssid, password, country``;
  ``[system] hostname``; ``[ssh] enabled, authorized_keys``): turned into a
  NetworkManager connection and deleted from the card, as Raspberry Pi OS does
  (they hold a password, on a partition any computer reads).
- ``ssh`` or ``ssh.txt`` (empty): ssh on. ssh is off unless asked for; logins
  are by key only (root has no password), from ``custom.toml``'s
  ``authorized_keys`` or an ``authorized_keys`` file beside it.
- ``hostname.txt``: the box's name on the network (else ``wolfbox``).

Every file is read whole and written atomically; a file that cannot be read
is reported in the journal in one line and the others are still applied.
Runs as root with the system's python3 (no venv): standard library only.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

BOOT = Path("/boot/firmware")
STAMPS = "var/lib/wolfbox-image"
CONNECTION = "etc/NetworkManager/system-connections/wolfbox-wifi.nmconnection"
COUNTRY = "etc/modprobe.d/wolfbox-wifi-country.conf"
HOSTNAME_RE = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
COUNTRY_RE = re.compile(r"^[A-Z]{2}$")


class BootFileError(ValueError):
    """A boot-partition file that says something the box cannot use."""


@dataclass(frozen=True)
class Wifi:
    """One Wi-Fi network: its name, its passphrase (8-63 characters) or raw
    key (64 hex digits), or none for an open network."""
    ssid: str
    psk: str | None = None
    hidden: bool = False

    def __post_init__(self) -> None:
        if not 1 <= len(self.ssid.encode()) <= 32:
            raise BootFileError(f"Wi-Fi name {self.ssid!r} must be 1 to 32 bytes")
        if self.psk is not None and not (8 <= len(self.psk) <= 63
                                         or re.fullmatch(r"[0-9a-fA-F]{64}", self.psk)):
            raise BootFileError(f"the Wi-Fi password for {self.ssid!r} must be 8 to 63 "
                                "characters (or a 64-digit hex key)")


@dataclass
class Settings:
    """What the boot partition asks for; None or empty: leave it as it is."""
    wifi: list[Wifi] = field(default_factory=list)
    country: str | None = None
    hostname: str | None = None
    ssh: bool = False
    authorized_keys: list[str] = field(default_factory=list)


def _country(value: str) -> str:
    value = value.strip().upper()
    if not COUNTRY_RE.match(value):
        raise BootFileError(f"Wi-Fi country {value!r} must be two letters (GB, DE, US, ...)")
    return value


def hostname(value: str) -> str:
    """A host name as the network wants it: lower-case letters, digits and
    inner hyphens, at most 63."""
    value = value.strip().lower()
    if not HOSTNAME_RE.match(value):
        raise BootFileError(f"host name {value!r}: use letters, digits and '-' (at most 63)")
    return value


def _unquote(value: str) -> tuple[str, bool]:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1], True
    return value, False


def parse_wpa_supplicant(text: str) -> Settings:
    """Raspberry Pi OS's old convention: a wpa_supplicant.conf on the boot
    partition. Only what a home network needs (ssid, psk, key_mgmt=NONE,
    scan_ssid, country)."""
    settings = Settings()
    block: dict[str, str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if block is None:
            if re.match(r"^network\s*=\s*\{$", line):
                block = {}
            elif line.startswith("country="):
                settings.country = _country(line.split("=", 1)[1])
            elif "=" not in line:
                raise BootFileError(f"wpa_supplicant.conf line {number}: {line!r} is not key=value")
            continue
        if line == "}":
            settings.wifi.append(_network(block))
            block = None
            continue
        if "=" not in line:
            raise BootFileError(f"wpa_supplicant.conf line {number}: {line!r} is not key=value")
        key, value = line.split("=", 1)
        block[key.strip()] = value
    if block is not None:
        raise BootFileError("wpa_supplicant.conf: a network={ block has no closing }")
    return settings


def _network(block: dict[str, str]) -> Wifi:
    if "ssid" not in block:
        raise BootFileError("wpa_supplicant.conf: a network={ block has no ssid")
    ssid, quoted = _unquote(block["ssid"])
    if not quoted:                               # wpa_supplicant: unquoted is hex
        try:
            ssid = bytes.fromhex(ssid).decode()
        except ValueError as e:
            raise BootFileError(f"wpa_supplicant.conf: ssid {ssid!r} needs quotes") from e
    psk: str | None = None
    if "psk" in block:
        psk, _quoted = _unquote(block["psk"])
    elif block.get("key_mgmt", "").strip() != "NONE":
        raise BootFileError(f"wpa_supplicant.conf: network {ssid!r} has no psk "
                            "(key_mgmt=NONE for an open network)")
    return Wifi(ssid=ssid, psk=psk, hidden=block.get("scan_ssid", "0").strip() == "1")


def parse_custom_toml(text: str) -> Settings:
    """Raspberry Pi Imager's custom.toml: [system] hostname, [wlan] ssid,
    password, hidden, country, [ssh] enabled, authorized_keys."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BootFileError(f"custom.toml is not valid TOML: {e}") from e
    settings = Settings()
    system, wlan, ssh = (data.get(k, {}) for k in ("system", "wlan", "ssh"))
    if system.get("hostname"):
        settings.hostname = hostname(str(system["hostname"]))
    if wlan.get("ssid"):
        settings.wifi.append(Wifi(ssid=str(wlan["ssid"]),
                                  psk=str(wlan["password"]) if wlan.get("password") else None,
                                  hidden=bool(wlan.get("hidden", False))))
    if wlan.get("country"):
        settings.country = _country(str(wlan["country"]))
    settings.ssh = bool(ssh.get("enabled", False))
    keys = ssh.get("authorized_keys", [])
    settings.authorized_keys = [keys] if isinstance(keys, str) else [str(k) for k in keys]
    return settings


def nm_connection(wifi: Wifi) -> str:
    """A NetworkManager keyfile for the network (its uuid from the name, so
    applying the same file twice writes the same connection)."""
    uuid = hashlib.sha256(b"wolfbox-wifi:" + wifi.ssid.encode()).hexdigest()
    uuid = f"{uuid[:8]}-{uuid[8:12]}-4{uuid[13:16]}-8{uuid[17:20]}-{uuid[20:32]}"
    lines = ["[connection]", f"id={wifi.ssid}", f"uuid={uuid}", "type=wifi",
             "autoconnect=true", "", "[wifi]", "mode=infrastructure", f"ssid={wifi.ssid}"]
    if wifi.hidden:
        lines.append("hidden=true")
    if wifi.psk is not None:
        lines += ["", "[wifi-security]", "key-mgmt=wpa-psk", f"psk={wifi.psk}"]
    lines += ["", "[ipv4]", "method=auto", "", "[ipv6]", "method=auto", ""]
    return "\n".join(lines)


def write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """The whole file or the old one after a power cut, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), mode)
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_settings(boot: Path) -> tuple[Settings, list[Path], list[str]]:
    """The settings the boot partition asks for, the files to remove from it
    once applied (they hold a password, or ask for something once), and one
    line for each file that could not be used."""
    settings = Settings()
    consumed: list[Path] = []
    problems: list[str] = []
    for name, parse in (("wpa_supplicant.conf", parse_wpa_supplicant),
                        ("custom.toml", parse_custom_toml)):
        path = boot / name
        if not path.is_file():
            continue
        try:
            found = parse(path.read_text(encoding="utf-8-sig"))
        except (BootFileError, OSError, UnicodeDecodeError) as e:
            problems.append(f"{name}: {e}")
            continue
        consumed.append(path)
        settings.wifi += found.wifi
        settings.country = found.country or settings.country
        settings.hostname = found.hostname or settings.hostname
        settings.ssh = settings.ssh or found.ssh
        settings.authorized_keys += found.authorized_keys
    for name in ("ssh", "ssh.txt"):
        if (boot / name).is_file():
            settings.ssh = True
            consumed.append(boot / name)
    keys = boot / "authorized_keys"
    if keys.is_file():
        settings.authorized_keys += [k for k in keys.read_text().splitlines() if k.strip()]
    name_file = boot / "hostname.txt"
    if name_file.is_file():
        try:
            settings.hostname = hostname(name_file.read_text().strip())
        except BootFileError as e:
            problems.append(f"hostname.txt: {e}")
    return settings, consumed, problems


def apply(boot: Path, root: Path, live: bool) -> list[str]:
    """Apply the boot partition's files to the system under `root`; `live`:
    also tell the running system (the host name now, ssh started). One line
    for each thing done or refused."""
    done: list[str] = []
    settings, consumed, problems = read_settings(boot)
    done += problems
    stamps = root / STAMPS
    box_toml = boot / "wolfbox.toml"
    if box_toml.is_file():
        text = box_toml.read_text(encoding="utf-8-sig")
        digest = hashlib.sha256(text.encode()).hexdigest()
        stamp = stamps / "wolfbox.toml.applied"
        if not stamp.is_file() or stamp.read_text().strip() != digest:
            write_atomic(root / "etc/wolfbox/wolfbox.toml", text)
            write_atomic(stamp, digest + "\n")
            done.append("wolfbox.toml: copied to /etc/wolfbox/wolfbox.toml")
    for index, wifi in enumerate(settings.wifi):
        name = CONNECTION if index == 0 else CONNECTION.replace("wifi", f"wifi-{index + 1}")
        write_atomic(root / name, nm_connection(wifi), 0o600)
        done.append(f"Wi-Fi: network {wifi.ssid!r} added")
    if settings.country:
        write_atomic(root / COUNTRY, f"options cfg80211 ieee80211_regdom={settings.country}\n")
        done.append(f"Wi-Fi: country {settings.country}")
        if live:
            subprocess.run(["iw", "reg", "set", settings.country], check=False,
                           stderr=subprocess.DEVNULL)
    if settings.hostname:
        write_atomic(root / "etc/hostname", settings.hostname + "\n")
        hosts = root / "etc/hosts"
        old = hosts.read_text() if hosts.is_file() else ""
        kept = [line for line in old.splitlines() if not line.startswith("127.0.1.1")]
        write_atomic(hosts, "\n".join(kept + [f"127.0.1.1\t{settings.hostname}"]) + "\n")
        done.append(f"host name: {settings.hostname}")
        if live:
            subprocess.run(["hostname", settings.hostname], check=False)
    if settings.authorized_keys:
        keys = root / "root/.ssh/authorized_keys"
        keys.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        old_keys = keys.read_text().splitlines() if keys.is_file() else []
        new = list(dict.fromkeys(old_keys + settings.authorized_keys))
        write_atomic(keys, "\n".join(new) + "\n", 0o600)
        done.append(f"ssh: {len(settings.authorized_keys)} key(s) for root")
    if settings.ssh:
        if not (root / "root/.ssh/authorized_keys").is_file():
            done.append("ssh: on, but no key to log in with (authorized_keys; root has "
                        "no password)")
        else:
            done.append("ssh: on")
        if live:
            subprocess.run(["ssh-keygen", "-A"], check=False)
            subprocess.run(["systemctl", "enable", "ssh.service"], check=False)
            subprocess.run(["systemctl", "start", "--no-block", "ssh.service"], check=False)
    for path in consumed:
        try:
            path.unlink()
        except OSError as e:
            done.append(f"{path.name}: applied but not removed from the card ({e.strerror})")
    return done


def main(argv: list[str]) -> int:
    boot = Path(argv[1]) if len(argv) > 1 else BOOT
    root = Path(argv[2]) if len(argv) > 2 else Path("/")
    if not boot.is_dir():
        print(f"wolfbox-bootfiles: no boot partition at {boot}; nothing applied")
        return 0
    for line in apply(boot, root, live=root == Path("/")):
        print(f"wolfbox-bootfiles: {line}")
    os.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
