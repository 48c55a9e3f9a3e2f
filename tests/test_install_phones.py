"""systemd/install.sh --phones: what the box's own Wi-Fi needs (packages,
NetworkManager's connection, the captive portal's DNS and port 80, the root
unit that brings it up) and the polkit rule that lets the service start and
stop that unit alone, checked by running the rule's JavaScript under node
as polkitd would."""

from __future__ import annotations

import configparser
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_install import fake_system, installer, listed_packages, run_steps

ROOT = Path(__file__).parent.parent
RULE = "etc/polkit-1/rules.d/50-wolfbox.rules"
HOTSPOT_FILES = {
    "etc/systemd/system/wolfbox-hotspot.service": 0o644,
    "etc/NetworkManager/system-connections/wolfbox-hotspot.nmconnection": 0o600,
    "etc/NetworkManager/dnsmasq-shared.d/wolfbox-captive.conf": 0o644,
    "etc/wolfbox/captive.nft": 0o644,
    "usr/local/lib/wolfbox/wolfbox-wifi": 0o755,
}
PHONE_PACKAGES = ["network-manager", "dnsmasq-base", "wpasupplicant", "nftables", "iw"]

# polkitd's JavaScript world, as far as a rules file reaches it: addRule, the
# action's id and lookup(), the subject's user, the Result constants.
HARNESS = r"""
const fs = require("fs");
const rules = [];
const polkit = {addRule: (f) => rules.push(f), Result: {YES: "yes", NO: "no",
                AUTH_ADMIN: "auth_admin"}, log: () => {}};
new Function("polkit", fs.readFileSync(process.argv[1], "utf8"))(polkit);
const asked = JSON.parse(process.argv[2]);
const out = asked.map(([id, details, user]) => {
    const action = {id: id, lookup: (k) => details[k]};
    for (const rule of rules) {
        const said = rule(action, {user: user});
        if (said !== undefined) return said;
    }
    return null;
});
console.log(JSON.stringify(out));
"""


def decide(rule: Path, asked: list[tuple[str, dict[str, str], str]]) -> list[str | None]:
    """What polkitd would answer for each (action, details, user): the first
    rule's answer, None where no rule answers (polkit's defaults then)."""
    result = subprocess.run(["node", "-e", HARNESS, str(rule), json.dumps(asked)],
                            capture_output=True, text=True, timeout=60, check=True)
    return json.loads(result.stdout)


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
MANAGE = "org.freedesktop.systemd1.manage-units"
HOTSPOT = "wolfbox-hotspot.service"


@needs_node
def test_the_polkit_rule_lets_the_box_start_and_stop_its_own_wifi_and_nothing_else(tmp_path):
    env, _ = fake_system(tmp_path)
    assert run_steps(env, "polkit", "--phones").returncode == 0
    asked = [
        (MANAGE, {"unit": HOTSPOT, "verb": "start"}, "wolfbox"),
        (MANAGE, {"unit": HOTSPOT, "verb": "stop"}, "wolfbox"),
        ("org.freedesktop.login1.power-off", {}, "wolfbox"),          # as before
        (MANAGE, {"unit": HOTSPOT, "verb": "start"}, "pi"),            # another user
        (MANAGE, {"unit": HOTSPOT, "verb": "enable"}, "wolfbox"),
        (MANAGE, {"unit": HOTSPOT, "verb": "restart"}, "wolfbox"),
        (MANAGE, {"unit": "ssh.service", "verb": "start"}, "wolfbox"),
        (MANAGE, {"unit": "NetworkManager.service", "verb": "stop"}, "wolfbox"),
        (MANAGE, {}, "wolfbox"),
        ("org.freedesktop.systemd1.manage-unit-files", {}, "wolfbox"),
        ("org.freedesktop.NetworkManager.network-control", {}, "wolfbox"),
        ("org.freedesktop.NetworkManager.settings.modify.system", {}, "wolfbox"),
        ("org.freedesktop.NetworkManager.wifi.share.protected", {}, "wolfbox"),
    ]
    assert decide(tmp_path / "root" / RULE, asked) == ["yes", "yes", "yes"] + [None] * 10


@needs_node
def test_without_phones_the_rule_allows_only_the_power_button(tmp_path):
    env, _ = fake_system(tmp_path)
    assert run_steps(env, "polkit").returncode == 0
    rule = tmp_path / "root" / RULE
    asked = [(MANAGE, {"unit": HOTSPOT, "verb": "start"}, "wolfbox"),
             ("org.freedesktop.login1.power-off", {}, "wolfbox")]
    assert decide(rule, asked) == [None, "yes"]
    assert run_steps(env, "user polkit unit", "--phones").returncode == 0
    assert decide(rule, asked) == ["yes", "yes"]
    assert run_steps(env, "user polkit unit", "--no-phones").returncode == 0
    assert decide(rule, asked) == [None, "yes"]


def test_phones_install_the_own_wifi_and_no_phones_removes_it(tmp_path):
    env, _ = fake_system(tmp_path)
    root = tmp_path / "root"
    assert run_steps(env, "hotspot").returncode == 0
    assert not any((root / path).exists() for path in HOTSPOT_FILES)
    done = run_steps(env, "hotspot unit", "--phones")
    assert done.returncode == 0, done.stdout + done.stderr
    for path, mode in HOTSPOT_FILES.items():
        assert (root / path).stat().st_mode & 0o777 == mode, path
    assert (root / "etc/NetworkManager/dnsmasq-shared.d/wolfbox-captive.conf").read_text() \
        .splitlines()[-1] == "address=/#/10.42.0.1"
    # A run without the option keeps the choice; a second changes nothing.
    assert "Nothing to change" in run_steps(env, "hotspot unit").stdout
    assert all((root / path).exists() for path in HOTSPOT_FILES)
    assert run_steps(env, "hotspot unit", "--no-phones").returncode == 0
    assert not any((root / path).exists() for path in HOTSPOT_FILES)


def test_the_own_wifi_is_one_address_one_connection_one_port():
    """The address the DNS answers with, the connection's, the redirect's;
    the connection's name, the unit's and device/hotspot.py's; the page's
    default port and the redirect's."""
    from wolfbox.config import PhonesConfig
    from wolfbox.device.hotspot import (
        ADDRESS,
        CONNECTION,
        ENV_FILE,
        PSK_KEY,
        SECRETS_FILE,
        UNIT,
        WIFI_DIR,
    )
    profile = (ROOT / "systemd/wolfbox-hotspot.nmconnection").read_text()
    unit = (ROOT / "systemd" / UNIT).read_text()
    nft = (ROOT / "systemd/captive.nft").read_text()
    installer_text = (ROOT / "systemd/install.sh").read_text()
    assert f"address1={ADDRESS}/24" in profile and f"ip daddr {ADDRESS} " in nft
    assert f"address=/#/{ADDRESS}" in installer_text
    assert f"redirect to :{PhonesConfig().port}" in nft
    assert f"id={CONNECTION}\n" in profile and "mode=ap" in profile
    assert "key-mgmt=wpa-psk" in profile and "psk-flags=2" in profile
    # A channel an access point may use under the world's rules (a box told
    # no country): 1 to 9 of the 2.4 GHz band, never 10 to 14 (no-IR there).
    channel = int(next(line for line in profile.splitlines()
                       if line.startswith("channel=")).split("=")[1])
    assert "band=bg" in profile and 1 <= channel <= 9
    # The name and passphrase: the unit's own (root's) state, where the box reads them.
    helper = (ROOT / "systemd/wolfbox-wifi").read_text()
    assert f"StateDirectory={WIFI_DIR.name}\n" in unit and WIFI_DIR.parent == Path("/var/lib")
    assert "ExecStart=/usr/local/lib/wolfbox/wolfbox-wifi up\n" in unit
    assert f"NAME_FILE=$DIR/{ENV_FILE} " in helper
    assert f"SECRETS_FILE=$DIR/{SECRETS_FILE} " in helper
    assert f"CONNECTION={CONNECTION}\n" in helper and f"PSK_KEY={PSK_KEY}\n" in helper
    assert PSK_KEY == "802-11-wireless-security.psk"
    assert f'action.lookup("unit") == "{UNIT}"' in installer_text


def test_phones_on_a_bare_system_install_network_manager_and_say_why(tmp_path):
    apt, _ = listed_packages()
    env, _ = fake_system(tmp_path, installed=apt)
    out = installer("--dry-run", "--phones", **env).stdout
    assert "note: the box's own Wi-Fi for the phones needs network-manager" in out
    line = next(x for x in out.splitlines() if "would run: apt-get install" in x)
    assert line.split("--no-install-recommends ")[1].split() == PHONE_PACKAGES
    for path in HOTSPOT_FILES:
        assert f"would write {tmp_path / 'root' / path}" in out, path
    plain = installer("--dry-run", **env).stdout
    assert "network-manager" not in plain and "wolfbox-hotspot" not in plain


def test_the_phones_packages_are_listed():
    result = installer("--list-packages")
    listed = [line.split()[1] for line in result.stdout.splitlines()
              if line.startswith("apt-phones ")]
    assert listed == PHONE_PACKAGES


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_the_hotspot_unit_is_root_with_one_capability_and_hardened():
    """Root for nmcli (D-Bus) and nft (CAP_NET_ADMIN) alone. The box's own
    service needs nothing new for it: it asks systemd and NetworkManager on
    the system bus, which its sandbox already reaches (AF_UNIX, for logind),
    so its exposure figure (tests/test_systemd.py) stays as it was."""
    from test_systemd import UNIT as BOX_UNIT
    from test_systemd import exposure
    unit = ROOT / "systemd/wolfbox-hotspot.service"
    text = unit.read_text()
    assert "CapabilityBoundingSet=CAP_NET_ADMIN\n" in text and "User=" not in text
    assert exposure(unit) <= 2.0
    assert "AF_UNIX" in next(line for line in BOX_UNIT.read_text().splitlines()
                             if line.startswith("RestrictAddressFamilies="))


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_twins_wifi_check_is_shellcheck_clean():
    """systemd/wifi-check.sh runs in the twin on simulated radios; here it is
    only checked as a script (this machine has no mac80211_hwsim)."""
    result = subprocess.run(["shellcheck", str(ROOT / "systemd/wifi-check.sh"),
                             str(ROOT / "systemd/wolfbox-wifi")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def _own_netns_nft() -> bool:
    if shutil.which("nft") is None or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-n", "nft", "list", "ruleset"], capture_output=True,
                          timeout=30).returncode == 0


@pytest.mark.skipif(not _own_netns_nft(), reason="needs nft and root (a network namespace)")
def test_the_port_80_rule_loads_twice_and_goes_away(tmp_path):
    """The unit loads captive.nft at every start (a restart too) and deletes
    its table when it stops: in a network namespace of its own, as root."""
    nft = ROOT / "systemd/captive.nft"
    script = (f"nft -f {nft} && nft -f {nft} && nft list ruleset && echo '--' && "
              "nft delete table inet wolfbox_captive && nft list ruleset")
    result = subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    loaded, after = result.stdout.split("--\n")
    assert loaded.count("table inet wolfbox_captive") == 1
    assert "ip daddr 10.42.0.1 tcp dport 80 redirect to :8080" in loaded
    assert after.strip() == ""


def _profile() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string((ROOT / "systemd/wolfbox-hotspot.nmconnection").read_text())
    return parser


def test_the_own_wifi_isolates_its_guests_and_shares_no_ipv6():
    """ap-isolation (NetworkManager 1.28 on; Debian 12 has 1.42): the radio
    passes no frame from one phone to another, so a phone reaches the box
    alone (what the box itself would route between them, captive.nft drops:
    tests/test_own_wifi_netns.py)."""
    profile = _profile()
    assert profile["wifi"]["mode"] == "ap" and profile["wifi"]["ap-isolation"] == "1"
    assert profile["ipv6"]["method"] == "disabled"


def _offline_nmcli() -> bool:
    """A real nmcli that reads a profile without NetworkManager (1.40 on)."""
    if shutil.which("nmcli") is None:
        return False
    return subprocess.run(["nmcli", "--offline", "connection", "add", "type", "dummy",
                           "ifname", "x"], capture_output=True, timeout=30).returncode == 0


@pytest.mark.skipif(not _offline_nmcli(), reason="needs nmcli 1.40 or later (--offline)")
def test_network_manager_reads_the_profile_with_its_isolation():
    """NetworkManager's own keyfile reader, as the box's will read it: a key
    it does not know is dropped without a word, so this is where a misspelt
    one shows."""
    text = "\n".join(line for line in
                     (ROOT / "systemd/wolfbox-hotspot.nmconnection").read_text().splitlines()
                     if not line.startswith("#"))
    done = subprocess.run(["nmcli", "--offline", "connection", "modify",
                           "802-11-wireless.ssid", "Wolfbox-AB12"], input=text,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    read = configparser.ConfigParser(interpolation=None)
    read.read_string(done.stdout)
    assert read["wifi"]["ap-isolation"] == "1" and read["wifi"]["mode"] == "ap"
    assert read["ipv4"]["method"] == "shared" and read["ipv4"]["address1"] == "10.42.0.1/24"
