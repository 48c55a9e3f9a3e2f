"""The SD-card image's recipe, checked without building it: the partition
table and the files it lays out (from `image/build.sh --plan`), its scripts
(shellcheck), and how the box reads the settings a user leaves on the card's
boot partition (image/overlay/.../bootfiles.py, run against a scratch root)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
IMAGE = REPO / "image"
BUILD = IMAGE / "build.sh"
LIB = IMAGE / "overlay/usr/local/lib/wolfbox-image"
COMMON = IMAGE / "lib/common.sh"


def _load_bootfiles():
    spec = importlib.util.spec_from_file_location("wolfbox_image_bootfiles", LIB / "bootfiles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bootfiles = _load_bootfiles()


@pytest.fixture(scope="module")
def plan() -> str:
    result = subprocess.run(["bash", str(BUILD), "--plan"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


# ------------------------------------------------------------------ the recipe
def _table(plan: str) -> str:
    table = []
    for line in plan.split("partition table", 1)[1].splitlines()[1:]:
        if line.strip() and not line.startswith("  "):
            break
        table.append(line[2:])
    return "\n".join(table) + "\n"


def test_the_plan_lays_out_a_fat_boot_and_a_linux_root_on_an_mbr(plan):
    table = _table(plan)
    assert "label: dos" in table                 # a Pi 3 boots no GPT
    boot = re.search(r"^start=(\d+), size=(\d+), type=c, bootable$", table, re.M)
    root = re.search(r"^start=(\d+), type=83$", table, re.M)
    assert boot and root, table
    boot_start, boot_size = int(boot.group(1)), int(boot.group(2))
    assert boot_start % 2048 == 0 and boot_size >= 256 * 2048    # MiB-aligned, room for kernels
    assert int(root.group(1)) == boot_start + boot_size


@pytest.mark.skipif(shutil.which("sfdisk") is None, reason="sfdisk (fdisk) is not installed")
def test_sfdisk_makes_the_planned_table_on_a_disk_file(plan, tmp_path):
    disk = tmp_path / "disk.img"
    with open(disk, "wb") as f:
        f.truncate(600 * 2**20)
    made = subprocess.run(["sfdisk", "--no-reread", "--no-tell-kernel", str(disk)],
                          input=_table(plan), capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    dump = subprocess.run(["sfdisk", "-d", str(disk)], capture_output=True, text=True).stdout
    parts = re.findall(r"start=\s*(\d+), size=\s*(\d+), type=(\w+)(, bootable)?", dump)
    assert [(p[2], bool(p[3])) for p in parts] == [("c", True), ("83", False)]
    assert int(parts[1][0]) + int(parts[1][1]) == 600 * 2048      # the root takes the rest


def test_the_plan_names_every_file_the_user_edits_and_the_first_boot_units(plan):
    for name in ("README.txt", "wpa_supplicant.conf.example", "custom.toml.example",
                 "wolfbox.toml"):                # the build's copy of /etc/wolfbox's
        assert re.search(rf"^  {re.escape(name)}$", plan, re.M), name
    for path in ("/etc/fstab", "/etc/systemd/system/wolfbox-bootfiles.service",
                 "/etc/systemd/system/wolfbox-grow-root.service",
                 "/usr/local/lib/wolfbox-image/grow-root",
                 "/usr/local/lib/wolfbox-image/bootfiles.py",
                 "/etc/ssh/sshd_config.d/wolfbox.conf"):           # keys only
        assert re.search(rf"^  {re.escape(path)}$", plan, re.M), path
    packages = re.search(r"^packages: (.*)$", plan, re.M).group(1).split()
    for pkg in ("linux-image-arm64", "raspi-firmware", "firmware-brcm80211",
                "systemd-timesyncd", "network-manager", "cloud-guest-utils", "polkitd",
                "dnsmasq-base", "nftables"):        # the own Wi-Fi's (install.sh --phones)
        assert pkg in packages, pkg


def test_the_units_run_the_scripts_the_overlay_holds():
    for unit in ("wolfbox-bootfiles.service", "wolfbox-grow-root.service"):
        text = (IMAGE / "overlay/etc/systemd/system" / unit).read_text()
        target = re.search(r"^ExecStart=(?:/usr/bin/python3 )?(\S+)$", text, re.M).group(1)
        assert (IMAGE / "overlay" / target.lstrip("/")).is_file(), target
        assert "Before=" in text and "wolfbox.service" in text   # settled before the box starts


def test_the_example_files_parse_as_the_box_reads_them():
    wpa = bootfiles.parse_wpa_supplicant((IMAGE / "boot/wpa_supplicant.conf.example").read_text())
    assert wpa.country == "GB" and [w.ssid for w in wpa.wifi] == ["your network's name"]
    custom = bootfiles.parse_custom_toml((IMAGE / "boot/custom.toml.example").read_text())
    assert custom.hostname == "wolfbox" and custom.ssh is False


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", [
    BUILD, COMMON, LIB / "grow-root", IMAGE / "debian-dtbs.sh", IMAGE / "overlays/build.sh",
    IMAGE / "image-container.sh", IMAGE / "overlay/etc/kernel/postinst.d/z51-wolfbox-dtb-symbols"])
def test_the_image_scripts_are_shellcheck_clean(script):
    result = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


# ------------------------------------------------- the shared shell library
SHARERS = [BUILD, IMAGE / "boot-check.sh", REPO / "systemd/pi-check.sh"]


def _shared(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A bash script run after sourcing image/lib/common.sh, as the three do."""
    return subprocess.run(["bash", "-c", f'set -euo pipefail; . "{COMMON}"; {script}'],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", **env})


@pytest.mark.parametrize("script", SHARERS, ids=lambda p: p.name)
def test_the_image_scripts_share_one_library_and_copy_none_of_it(script):
    """make image, make boot-check and make pi-check source one file for
    their host helpers (as pi-gen's stages share scripts/common): none
    defines one of its functions again."""
    shared = set(re.findall(r"^([a-z_0-9]+)\(\) \{", COMMON.read_text(), re.M))
    assert {"say", "fail", "host_missing", "host_needs", "step", "inroot"} <= shared
    text = script.read_text()
    assert '. "$SOURCE/image/lib/common.sh"' in text
    assert re.search(r"^# shellcheck source=(\.\./image/)?lib/common\.sh$", text, re.M)
    again = set(re.findall(r"^([a-z_0-9]+)\(\) \{", text, re.M)) & shared
    assert not again, again


def test_the_library_names_what_is_missing_on_the_host_with_its_package(tmp_path):
    """Each missing thing named with its package, status 1; called
    outside a condition (as boot-check.sh does), that stops the script."""
    got = _shared("""
        HOST_NEEDS=("sh dash" "/no/such/file some-package" "no-such-tool-x tool-package")
        host_needs || echo "status $?"; host_needs; echo never""", tmp_path, WHO="probe")
    assert (got.returncode, got.stdout) == (1, "status 1\n")
    assert got.stderr.splitlines() == 2 * [
        "probe: missing on the host: /no/such/file (Debian package some-package)",
        "probe: missing on the host: no-such-tool-x (Debian package tool-package)"]
    got = _shared('HOST_NEEDS=("sh dash" "/bin/sh dash"); host_needs; echo all there', tmp_path,
                  WHO="probe")
    assert got.returncode == 0 and got.stdout == "all there\n" and got.stderr == ""


def test_the_library_runs_steps_into_logs_and_remembers_the_first_failure(tmp_path):
    got = _shared("""LOGS=$PWD SOURCE=$PWD STEP_WIDTH=12 NAMES=() RESULTS=() TIMES=() FAILED=""
        step "one" echo fine || true
        step "two" sh -c 'echo broke; exit 3' || true
        step "three" sh -c 'exit 4' || true
        step_results; echo "$FAILED" """, tmp_path, WHO="probe")
    assert got.returncode == 0, got.stderr
    err = re.sub(r"\(\d+ s\)", "(N s)", got.stderr).splitlines()  # a step may cross a second
    assert err[:3] == ["one" + " " * 9 + "pass (N s)",
                       "two" + " " * 9 + "    | broke", "FAIL (N s)"]
    assert (tmp_path / "00-one.log").read_text() == "fine\n"
    assert (tmp_path / "01-two.log").read_text() == "broke\n"
    lines = got.stdout.splitlines()
    assert [re.sub(r"\d+", "N", line) for line in lines[:3]] == [
        "  pass      N s  one", "  FAIL      N s  two", "  FAIL      N s  three"]
    assert lines[3] == "two failed (exit 3; its log: 01-two.log)"


def test_the_library_will_not_be_sourced_without_a_name_for_its_messages(tmp_path):
    got = _shared("echo sourced", tmp_path)
    assert got.returncode != 0 and "set WHO" in got.stderr and "sourced" not in got.stdout


def test_make_images_copy_of_the_recipe_finds_the_library_in_the_checkout(tmp_path, plan):
    """make image runs a copy (build/image/build.run.sh) with WOLFBOX_SOURCE
    naming the checkout: the copy sources the checkout's library."""
    copy = tmp_path / "build.run.sh"
    shutil.copy(BUILD, copy)
    got = subprocess.run(["bash", str(copy), "--plan"], capture_output=True, text=True,
                         timeout=60, env={"PATH": "/usr/bin:/bin", "WOLFBOX_SOURCE": str(REPO)})
    assert got.returncode == 0, got.stderr
    assert got.stdout == plan


def _function(script: Path, name: str) -> str:
    """One shell function of a script, as its text (to run it alone)."""
    found = re.search(rf"^{name}\(\) \{{\n.*?^\}}\n", script.read_text(), re.M | re.S)
    assert found, name
    return found.group(0)


@pytest.mark.skipif(shutil.which("xz") is None, reason="needs xz")
def test_the_packed_image_gets_a_checksum_file_as_a_release_does(tmp_path):
    """flash.md has a self-builder check build/image/wolfbox.img.xz as a
    release's download: `sha256sum -c wolfbox.img.xz.sha256` beside it."""
    (tmp_path / "wolfbox.img").write_bytes(b"a disk image\n" * 1000)
    script = _function(BUILD, "compress") + 'OUT="$1/wolfbox.img"; DIR="$1"; compress\n'
    got = subprocess.run(["bash", "-euo", "pipefail", "-c", script, "compress", str(tmp_path)],
                         cwd="/", capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    check = subprocess.run(["sha256sum", "-c", "wolfbox.img.xz.sha256"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout == "wolfbox.img.xz: OK\n", check


@pytest.mark.parametrize("script, message", [
    (BUILD, "image: unknown argument '--bogus' (none, --plan or clean)"),
    (REPO / "systemd/pi-check.sh", "pi-check: unknown argument '--bogus' (none, or clean)"),
    (IMAGE / "boot-check.sh", "boot-check: unknown argument '--bogus' (--prepare-only, "
                              "--memory=MB, --only=b,c,f,g,w,r,d,e,h)")], ids=lambda p: str(p))
def test_each_script_says_what_is_wrong_through_the_library(script, message):
    got = subprocess.run(["bash", str(script), "--bogus"], capture_output=True, text=True,
                         timeout=60)
    assert (got.returncode, got.stderr, got.stdout) == (1, message + "\n", "")


# --------------------------------------------------- the boot partition's files
WPA = """# home
country=de
ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev

network={
    ssid="Küche"
    psk="correct horse"
    scan_ssid=1
}
network={
    ssid=636166c3a9
    key_mgmt=NONE
}
"""


def test_wpa_supplicant_conf_gives_each_network_and_the_country():
    settings = bootfiles.parse_wpa_supplicant(WPA)
    assert settings.country == "DE"
    assert settings.wifi == [bootfiles.Wifi("Küche", "correct horse", hidden=True),
                             bootfiles.Wifi("café", None)]


@pytest.mark.parametrize("text, words", [
    ('network={\n ssid="x"\n psk="short"\n}\n', "8 to 63"),
    ('network={\n psk="long enough"\n}\n', "no ssid"),
    ('network={\n ssid="x"\n}\n', "no psk"),
    ('network={\n ssid="x"\n psk="long enough"\n', "no closing"),
    ("country=Germany\n", "two letters"),
])
def test_a_wpa_file_the_box_cannot_use_is_one_line_that_says_why(text, words):
    with pytest.raises(bootfiles.BootFileError) as e:
        bootfiles.parse_wpa_supplicant(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_imagers_custom_toml_gives_name_wifi_and_ssh_keys():
    settings = bootfiles.parse_custom_toml(
        '[system]\nhostname = "Wolfbox-2"\n[wlan]\nssid = "home"\npassword = "12345678"\n'
        'country = "us"\nhidden = true\n[ssh]\nenabled = true\n'
        'authorized_keys = ["ssh-ed25519 AAAA me@laptop"]\n')
    assert settings.hostname == "wolfbox-2" and settings.country == "US" and settings.ssh
    assert settings.wifi == [bootfiles.Wifi("home", "12345678", hidden=True)]
    assert settings.authorized_keys == ["ssh-ed25519 AAAA me@laptop"]
    with pytest.raises(bootfiles.BootFileError, match="host name"):
        bootfiles.parse_custom_toml('[system]\nhostname = "my box!"\n')


def test_a_network_manager_connection_is_the_same_for_the_same_network():
    wifi = bootfiles.Wifi("home", "12345678")
    text = bootfiles.nm_connection(wifi)
    assert "ssid=home" in text and "psk=12345678" in text and "key-mgmt=wpa-psk" in text
    assert text == bootfiles.nm_connection(bootfiles.Wifi("home", "12345678"))
    assert "uuid=" in text and text != bootfiles.nm_connection(bootfiles.Wifi("other", "12345678"))
    assert "wifi-security" not in bootfiles.nm_connection(bootfiles.Wifi("open", None))


@pytest.fixture
def card(tmp_path):
    boot, root = tmp_path / "boot", tmp_path / "root"
    boot.mkdir()
    (root / "etc/wolfbox").mkdir(parents=True)
    (root / "etc/wolfbox/wolfbox.toml").write_text("[box]\nlang = \"en\"\n")
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\twolfbox\n")
    return boot, root


def test_wifi_becomes_a_private_connection_and_leaves_the_card(card):
    boot, root = card
    (boot / "wpa_supplicant.conf").write_text(WPA)
    done = bootfiles.apply(boot, root, live=False)
    conn = root / bootfiles.CONNECTION
    assert "psk=correct horse" in conn.read_text()
    assert stat.S_IMODE(conn.stat().st_mode) == 0o600
    assert (root / bootfiles.CONNECTION.replace("wifi", "wifi-2")).is_file()
    assert "ieee80211_regdom=DE" in (root / bootfiles.COUNTRY).read_text()
    assert not (boot / "wpa_supplicant.conf").exists()     # the password is off the card
    assert any("Küche" in line for line in done)


def test_wolfbox_toml_is_copied_when_it_changes_and_only_then(card):
    boot, root = card
    box = root / "etc/wolfbox/wolfbox.toml"
    (boot / "wolfbox.toml").write_text("[box]\nlang = \"de\"\n")
    bootfiles.apply(boot, root, live=False)
    assert box.read_text() == "[box]\nlang = \"de\"\n"
    box.write_text("[box]\nlang = \"zh\"\n")                 # changed on the box since
    assert bootfiles.apply(boot, root, live=False) == []
    assert "zh" in box.read_text()
    (boot / "wolfbox.toml").write_text("[box]\nlang = \"en\"\n")
    bootfiles.apply(boot, root, live=False)
    assert "en" in box.read_text()
    assert (boot / "wolfbox.toml").exists()                   # it stays for the next edit


def test_ssh_stays_off_unless_the_card_asks_and_then_wants_a_key(card):
    boot, root = card
    assert not any("ssh" in line for line in bootfiles.apply(boot, root, live=False))
    (boot / "ssh").write_text("")
    done = bootfiles.apply(boot, root, live=False)
    assert any("ssh: on, but no key" in line for line in done)
    assert not (boot / "ssh").exists()
    (boot / "ssh.txt").write_text("")
    (boot / "authorized_keys").write_text("ssh-ed25519 AAAA me@laptop\n")
    done = bootfiles.apply(boot, root, live=False)
    assert "ssh: on" in done
    assert (root / "root/.ssh/authorized_keys").read_text() == "ssh-ed25519 AAAA me@laptop\n"


def test_hostname_txt_renames_the_box_and_a_bad_file_spoils_nothing_else(card):
    boot, root = card
    (boot / "hostname.txt").write_text("Werewolf\n")
    (boot / "custom.toml").write_text("[wlan\n")
    (boot / "wolfbox.toml").write_text("[box]\nlang = \"de\"\n")
    done = bootfiles.apply(boot, root, live=False)
    assert (root / "etc/hostname").read_text() == "werewolf\n"
    assert "127.0.1.1\twerewolf" in (root / "etc/hosts").read_text()
    assert "127.0.1.1\twolfbox" not in (root / "etc/hosts").read_text()
    assert "lang = \"de\"" in (root / "etc/wolfbox/wolfbox.toml").read_text()
    assert any(line.startswith("custom.toml: ") for line in done)
    assert (boot / "custom.toml").exists()                  # kept, to be fixed


def test_the_image_is_installed_with_phones_ready():
    """A box on its card cannot run the installer again: the image's is run
    with --phones, so phones turned on in the settings are let in."""
    recipe = (IMAGE / "build.sh").read_text()
    assert "install.sh --no-prepare --phones'" in recipe


@pytest.mark.skipif(shutil.which("mke2fs") is None or shutil.which("debugfs") is None,
                    reason="needs e2fsprogs")
def test_every_inode_of_the_root_gets_the_commits_time(tmp_path):
    """mke2fs -d copies atime and ctime as the build left them (a ctime
    cannot be touched back); the image's debugfs pass sets both to
    SOURCE_DATE_EPOCH for every inode: folders, files, links."""
    spec = importlib.util.spec_from_file_location("epoch_times", IMAGE / "epoch_times.py")
    epoch_times = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(epoch_times)
    root = tmp_path / "root"
    (root / "etc/wolfbox").mkdir(parents=True)
    (root / "etc/wolfbox/wolfbox.toml").write_text("[box]\n")
    (root / "a file with spaces").write_text("x")
    (root / "etc/link").symlink_to("wolfbox/wolfbox.toml")
    (root / "dirlink").symlink_to("etc/wolfbox")
    image = tmp_path / "root.img"
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-d", str(root), str(image), "8M"], check=True)
    epoch = 1_700_000_000
    script = tmp_path / "times.debugfs"
    script.write_text("".join(line + "\n" for line in epoch_times.lines(str(root), epoch)))
    subprocess.run(["debugfs", "-w", "-f", str(script), str(image)], check=True,
                   capture_output=True)
    for path in ("/", "/etc", "/etc/wolfbox", "/etc/wolfbox/wolfbox.toml",
                 "/a file with spaces", "/etc/link", "/dirlink"):
        shown = subprocess.run(["debugfs", "-R", f'stat "{path}"', str(image)],
                               capture_output=True, text=True).stdout
        times = dict(re.findall(r"^\s*(atime|ctime): (0x[0-9a-f]+)", shown, re.M))
        assert {k: int(v, 16) for k, v in times.items()} == {"atime": epoch, "ctime": epoch}, \
            (path, shown[:300])


def test_ssh_on_the_image_takes_keys_only():
    """The README promises logins by key only once ssh is turned on."""
    conf = (IMAGE / "overlay/etc/ssh/sshd_config.d/wolfbox.conf").read_text().splitlines()
    for line in ("PasswordAuthentication no", "KbdInteractiveAuthentication no",
                 "PermitRootLogin prohibit-password"):
        assert line in conf, line
