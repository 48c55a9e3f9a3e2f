"""The box's own Wi-Fi (device.hotspot) against fake `nmcli` and `systemctl`
on PATH: scripts that record their argv and answer as the real ones do
(nmcli's terse `-t` output and its "Error: ..." lines and exit codes from
its man page; systemctl's "Failed to start ..." for a unit it lacks),
including nmcli failing, hanging and missing. Starting the unit runs its
real root helper (systemd/wolfbox-wifi), which makes the name and
passphrase the box then reads."""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import segno

from helpers import phones_config
from wolfbox.device.hotspot import (
    ADDRESS,
    CONNECTION,
    HOME_GONE_S,
    LENGTH,
    LOOK_S,
    RETRY_S,
    SETTLE_S,
    SSID_PREFIX,
    UNIT,
    UP_TRIES,
    Hotspot,
    HotspotThread,
    Tools,
    Where,
    credentials,
    terse_fields,
)
from wolfbox.device.phonelink import PhoneLink
from wolfbox.games import Games
from wolfbox.onenight.flow import Flow
from wolfbox.view import JoinCard, WifiCard

HELPER = Path(__file__).parent.parent / "systemd" / "wolfbox-wifi"

FAKE = '''#!{python}
import json, os, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
name = os.path.basename(sys.argv[0])
with open(os.path.join(here, "calls.jsonl"), "a") as f:
    f.write(json.dumps([name, *sys.argv[1:]]) + "\\n")
with open(os.path.join(here, "world.json")) as f:
    world = json.load(f)
args = sys.argv[1:]
if name == "nmcli":
    if world.get("hang"):
        time.sleep(600)
    if not world.get("running", True):
        sys.stderr.write("Error: NetworkManager is not running.\\n")
        sys.exit(8)
    if args[:4] == ["-t", "-f", "RUNNING", "general"]:
        print("running")
    elif args[:3] == ["-t", "-f", "NAME,TYPE,DEVICE,STATE"] and args[3:] == [
            "connection", "show", "--active"]:
        for line in world.get("active", []):
            print(line if line.count(":") - line.count("\\\\:") >= 3 else line + ":activated")
    else:
        sys.stderr.write("Error: argument '%s' not understood.\\n" % args[0])
        sys.exit(2)
elif name == "iw":
    # iw dev DEVICE station dump: a station's lines, with the beacons it
    # counted where the world's driver counts them.
    beacons = world.get("beacons", {{}})
    if args[:1] != ["dev"] or args[2:] != ["station", "dump"]:
        sys.stderr.write("Invalid command\\n")
        sys.exit(1)
    if args[1] not in world.get("unlinked", []):
        print("Station 02:00:00:00:01:00 (on %s)\\n\\tinactive time:\\t20 ms" % args[1])
        if args[1] in beacons:
            print("\\tbeacon loss:\\t0\\n\\tbeacon rx:\\t%d" % beacons[args[1]])
        print("\\tsignal:  \\t-30 dBm")
elif name == "systemctl":
    args = [a for a in args if a != "--no-ask-password"]
    if world.get("hang_stop") and args[0] == "stop":
        time.sleep(600)
    if world.get("no_unit"):
        sys.stderr.write("Failed to %s %s: Unit %s not found.\\n" % (args[0], args[1], args[1]))
        sys.exit(5)
    if args[0] == "start" and world.get("fail_starts", 0) > 0:
        world["fail_starts"] -= 1
        with open(os.path.join(here, "world.json"), "w") as f:
            json.dump(world, f)
        sys.stderr.write("Job for %s failed.\\n" % args[1])
        sys.exit(1)
    if args[0] == "start":
        # The unit's root helper, as the unit runs it (its state directory).
        os.makedirs(world["wifi_dir"], exist_ok=True)
        if not world.get("no_keys"):
            subprocess.run(["sh", "{helper}", "keys"], check=True,
                           env={{**os.environ, "STATE_DIRECTORY": world["wifi_dir"]}})
        world["active"] = world.get("active", []) + ["{own}:802-11-wireless:wlan0"]
    elif args[0] == "stop":
        world["active"] = [a for a in world.get("active", []) if not a.startswith("{own}:")]
    with open(os.path.join(here, "world.json"), "w") as f:
        json.dump(world, f)
'''

START = ["systemctl", "--no-ask-password", "start", UNIT]
STOP = ["systemctl", "--no-ask-password", "stop", UNIT]
HOME = r"Home\:Net:802-11-wireless:wlan0"       # nmcli -t escapes a colon in a name
LO = "lo:loopback:lo"


class Fakes:
    """The fake programs' folder, the world they answer from, their calls."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def world(self, **world: Any) -> None:
        world.setdefault("wifi_dir", str(self.folder.parent / "wifi"))
        (self.folder / "world.json").write_text(json.dumps(world))

    def calls(self) -> list[list[str]]:
        path = self.folder / "calls.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines()]

    def starts(self) -> list[list[str]]:
        return [c for c in self.calls() if c[0] == "systemctl"]


@pytest.fixture
def fakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Fakes:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("nmcli", "systemctl", "iw"):
        path = folder / name
        path.write_text(FAKE.format(python=sys.executable, own=CONNECTION, helper=HELPER))
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("wolfbox.device.hotspot.WIFI_DIR", tmp_path / "wifi")
    made = Fakes(folder)
    made.world(active=[LO])
    return made


class Said(list[str]):
    def __call__(self, why: str) -> None:
        self.append(why)


def hotspot(network: str, tmp_path: Path, said: Said, **tools: Any) -> Hotspot:
    return Hotspot(network, said, Tools(**tools), wifi_dir=tmp_path / "wifi")


def keys(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The unit's root helper making (or checking) the name and passphrase
    (in its state directory, which systemd makes)."""
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["sh", str(HELPER), "keys"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "STATE_DIRECTORY": str(folder), **env})


def test_the_units_helper_makes_them_once_for_the_box_group_readable(tmp_path: Path) -> None:
    assert keys(tmp_path).returncode == 0
    first = credentials(tmp_path)
    assert first is not None
    assert first.ssid.startswith(SSID_PREFIX) and len(first.ssid) == len(SSID_PREFIX) + 4
    assert len(first.passphrase) == LENGTH == 12 and first.passphrase.isalnum()
    assert not set(first.passphrase) & set("0o1li")
    # The Wi-Fi code stays a version 3 code (29 modules), which fits the
    # box's smallest screens beside their texts.
    assert segno.make(first.qr_text(), error="m", micro=False).version == 3
    assert keys(tmp_path).returncode == 0 and credentials(tmp_path) == first
    assert keys(tmp_path / "other").returncode == 0
    other = credentials(tmp_path / "other")
    assert other is not None and other.passphrase != first.passphrase
    for name in ("wifi.env", "wifi.secrets"):       # root's; the box's group reads
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o640
    # nmcli's passwd-file line, and the name's.
    assert (tmp_path / "wifi.env").read_text() == f"WOLFBOX_SSID={first.ssid}\n"
    assert (tmp_path / "wifi.secrets").read_text() == \
        f"802-11-wireless-security.psk:{first.passphrase}\n"
    # The name is this box's: four hex digits of its machine id's SHA-256.
    machine = Path("/etc/machine-id").read_text().strip() if Path("/etc/machine-id").exists() \
        else ""
    if machine and machine != "uninitialized":
        import hashlib
        assert first.ssid == SSID_PREFIX + hashlib.sha256(machine.encode()).hexdigest()[:4] \
            .upper()


@pytest.mark.parametrize("name, secret, kept", [
    ("WOLFBOX_SSID=Wolfbox-AB12\n", "802-11-wireless-security.psk:short\n", False),
    ("WOLFBOX_SSID=Wolfbox-AB12\n", "802-11-wireless-security.psk:$(id>/tmp/x)abcdefgh\n",
     False),
    ("WOLFBOX_SSID=Wolfbox-AB12\n",
     "802-11-wireless-security.psk:abcdefghjkmn\n802-1x.password:x\n", True),
    ("WOLFBOX_SSID=a b;c\nLD_PRELOAD=/tmp/evil.so\n", "802-11-wireless-security.psk:ab\n",
     False),
])
def test_a_damaged_file_is_made_anew_and_only_the_checked_values_go_on(
        tmp_path: Path, name: str, secret: str, kept: bool) -> None:
    (tmp_path / "wifi.env").write_text(name)
    (tmp_path / "wifi.secrets").write_text(secret)
    assert keys(tmp_path).returncode == 0
    again = credentials(tmp_path)
    assert again is not None and again.ssid.startswith("Wolfbox-") and " " not in again.ssid
    assert len(again.passphrase) == 12 and (again.passphrase in secret) == kept
    assert (tmp_path / "wifi.env").read_text().count("\n") == 1
    assert (tmp_path / "wifi.secrets").read_text() == \
        f"802-11-wireless-security.psk:{again.passphrase}\n"


@pytest.mark.parametrize("name, secret", [
    ("", ""),
    ("WOLFBOX_SSID=Wolfbox-AB12\n", "802-11-wireless-security.psk:short\n"),
    ("WOLFBOX_SSID=Wolf box\n", "802-11-wireless-security.psk:abcdefghjkmn\n"),
    ("WOLFBOX_SSID=Wolfbox-AB12\n", "802-11-wireless-security.psk:ABCDEFGHJKMN\n"),
])
def test_the_box_shows_nothing_it_would_not_have_made(tmp_path: Path, name: str,
                                                      secret: str) -> None:
    (tmp_path / "wifi.env").write_text(name)
    (tmp_path / "wifi.secrets").write_text(secret)
    assert credentials(tmp_path) is None


def test_the_helper_brings_the_connection_up_with_the_checked_name_and_passphrase_file(
        tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    nmcli = folder / "nmcli"
    nmcli.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> {tmp_path}/calls\n")
    nmcli.chmod(0o755)
    (tmp_path / "wifi").mkdir()
    up = subprocess.run(["sh", str(HELPER), "up"], capture_output=True, text=True, timeout=60,
                        env={**os.environ, "STATE_DIRECTORY": str(tmp_path / "wifi"),
                             "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"})
    assert up.returncode == 0, up.stderr
    wifi = credentials(tmp_path / "wifi")
    assert wifi is not None and wifi.passphrase not in up.stdout + up.stderr
    assert (tmp_path / "calls").read_text().splitlines() == [
        f"connection modify id {CONNECTION} 802-11-wireless.ssid {wifi.ssid}",
        f"--wait 45 connection up id {CONNECTION} passwd-file {tmp_path}/wifi/wifi.secrets"]


def test_own_opens_the_access_point_through_the_unit_and_never_shows_the_passphrase(
        fakes: Fakes, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    said = Said()
    spot = hotspot("own", tmp_path, said)
    with caplog.at_level(logging.DEBUG):
        spot.step(0.0, idle=True)
    assert spot.where is Where.OWN and said == []
    assert spot.wifi is not None and spot.wifi == credentials(tmp_path / "wifi")
    assert fakes.starts() == [START]
    passphrase = spot.wifi.passphrase
    assert all(passphrase not in " ".join(c) for c in fakes.calls())
    assert passphrase not in caplog.text and spot.wifi.ssid in caplog.text
    spot.step(LOOK_S, idle=True)                        # up: nothing more to do
    assert fakes.starts() == [START]
    spot.close()
    assert fakes.starts()[-1] == STOP and spot.wifi is None


def test_a_wifi_up_with_nothing_to_show_goes_down_again(fakes: Fakes, tmp_path: Path) -> None:
    """The unit came up but left no name and passphrase the box can read
    (a box not in the unit's group): no Wi-Fi the table cannot join."""
    fakes.world(active=[LO], no_keys=True)
    spot = hotspot("own", tmp_path, Said())
    spot.step(0.0, idle=True)
    assert spot.where is not Where.OWN and spot.wifi is None
    assert fakes.starts() == [START, STOP]


def test_auto_stays_home_while_a_known_network_is_up(fakes: Fakes, tmp_path: Path) -> None:
    fakes.world(active=[LO, HOME])
    spot = hotspot("auto", tmp_path, Said())
    for look in range(5):
        spot.step(look * LOOK_S, idle=True)
    assert spot.where is Where.HOME and fakes.starts() == []


def test_auto_waits_for_a_known_network_then_opens_its_own(fakes: Fakes, tmp_path: Path) -> None:
    spot = hotspot("auto", tmp_path, Said())
    now = 0.0
    while now < SETTLE_S:
        spot.step(now, idle=True)
        assert spot.where is Where.SETTLING and fakes.starts() == []
        now += LOOK_S
    spot.step(now, idle=True)
    assert spot.where is Where.OWN and fakes.starts() == [START]
    assert spot.wifi is not None


def test_auto_looks_for_home_again_only_between_games_with_no_seat_taken(
        fakes: Fakes, tmp_path: Path) -> None:
    spot = hotspot("auto", tmp_path, Said())
    spot.step(0.0, idle=True)
    spot.step(SETTLE_S, idle=True)
    assert spot.where is Where.OWN
    later = SETTLE_S + RETRY_S
    spot.step(later, idle=False)                     # a game: the phones keep their Wi-Fi
    assert spot.where is Where.OWN and len(fakes.starts()) == 1
    spot.step(later + LOOK_S, idle=True)
    assert fakes.starts()[-1] == STOP
    assert spot.where is Where.SETTLING and spot.wifi is None
    fakes.world(active=[LO, HOME])                  # NetworkManager joined a known one
    spot.step(later + 2 * LOOK_S, idle=True)
    assert spot.where is Where.HOME and len(fakes.starts()) == 2


def test_auto_opens_its_own_when_home_is_gone_two_looks_in_a_row(
        fakes: Fakes, tmp_path: Path) -> None:
    fakes.world(active=[LO, HOME])
    spot = hotspot("auto", tmp_path, Said())
    spot.step(0.0, idle=True)
    assert spot.where is Where.HOME
    fakes.world(active=[LO])
    spot.step(LOOK_S, idle=True)
    assert spot.where is Where.HOME                  # one miss: a roaming blip
    spot.step(2 * LOOK_S, idle=True)
    assert spot.where is Where.OWN and fakes.starts() == [START]


def looks_until_own(spot: Hotspot, fakes: Fakes, start: float, beacons: Any = None,
                    limit: float = 20 * HOME_GONE_S) -> float | None:
    """Looks every LOOK_S from `start` (each with the beacons `beacons(now)`
    gives, if any) until the box opens its own Wi-Fi: when, or None."""
    now = start
    while now < start + limit:
        if beacons is not None:
            fakes.world(active=[LO, HOME], beacons={"wlan0": beacons(now)})
        spot.step(now, idle=True)
        if spot.where is Where.OWN:
            return now
        now += LOOK_S
    return None


def test_a_home_wifi_whose_access_point_is_no_longer_heard_counts_as_gone(
        fakes: Fakes, tmp_path: Path) -> None:
    """A router switched off, NetworkManager still saying "activated" (seen
    in the twin for ten minutes): its beacons stop, and HOME_GONE_S later
    the box opens its own Wi-Fi, after the two looks any loss takes."""
    fakes.world(active=[LO, HOME], beacons={"wlan0": 40})
    spot = hotspot("auto", tmp_path, Said())
    spot.step(0.0, idle=True)
    assert spot.where is Where.HOME
    gone = LOOK_S                                    # the last beacon counted before this look
    opened = looks_until_own(spot, fakes, gone, beacons=lambda now: 41)
    assert opened is not None and fakes.starts() == [START]
    assert gone + HOME_GONE_S <= opened <= gone + HOME_GONE_S + 2 * LOOK_S


def test_a_radio_linked_to_no_access_point_counts_as_gone_whatever_networkmanager_says(
        fakes: Fakes, tmp_path: Path) -> None:
    """The twin's home gone (issue 42.7): `iw dev wlan0 link` said "Not
    connected." and the station dump held no station, while NetworkManager
    kept the home connection "activated" for ten minutes."""
    fakes.world(active=[LO, HOME], beacons={"wlan0": 40})
    spot = hotspot("auto", tmp_path, Said())
    spot.step(0.0, idle=True)
    assert spot.where is Where.HOME
    fakes.world(active=[LO, HOME], unlinked=["wlan0"])
    opened = looks_until_own(spot, fakes, LOOK_S)
    assert opened is not None and fakes.starts() == [START]
    assert LOOK_S + HOME_GONE_S <= opened <= LOOK_S + HOME_GONE_S + 2 * LOOK_S


def test_a_home_wifi_heard_stays_home_however_long(fakes: Fakes, tmp_path: Path) -> None:
    spot = hotspot("auto", tmp_path, Said())
    assert looks_until_own(spot, fakes, 0.0, beacons=lambda now: int(now // LOOK_S)) is None
    assert spot.where is Where.HOME and fakes.starts() == []


def test_a_driver_that_counts_no_beacons_leaves_it_to_networkmanager(
        fakes: Fakes, tmp_path: Path) -> None:
    """The Pi's brcmfmac keeps its link in firmware and may give no count:
    activated is up, however long."""
    fakes.world(active=[LO, HOME])
    spot = hotspot("auto", tmp_path, Said())
    assert looks_until_own(spot, fakes, 0.0) is None
    assert any(c[0] == "iw" for c in fakes.calls()) and fakes.starts() == []


def test_a_cable_is_not_asked_for_beacons(fakes: Fakes, tmp_path: Path) -> None:
    fakes.world(active=[LO, "Wired:802-3-ethernet:eth0"])
    spot = hotspot("auto", tmp_path, Said())
    assert looks_until_own(spot, fakes, 0.0) is None
    assert not any(c[0] == "iw" for c in fakes.calls())


def test_a_home_network_activating_too_long_counts_as_gone(
        fakes: Fakes, tmp_path: Path) -> None:
    """NetworkManager trying a known network again and again (its access
    point gone from the air, still in its list): up while it might still
    come, gone HOME_GONE_S after it began."""
    fakes.world(active=[LO, HOME + ":activating"])
    spot = hotspot("auto", tmp_path, Said())
    opened = looks_until_own(spot, fakes, 0.0)
    assert opened is not None and HOME_GONE_S <= opened <= HOME_GONE_S + 2 * LOOK_S
    assert fakes.starts() == [START]


def test_looks_are_spaced(fakes: Fakes, tmp_path: Path) -> None:
    spot = hotspot("auto", tmp_path, Said())
    spot.step(0.0, idle=True)
    count = len(fakes.calls())
    spot.step(LOOK_S / 2, idle=True)
    assert len(fakes.calls()) == count


def test_home_never_runs_anything(fakes: Fakes, tmp_path: Path) -> None:
    spot = hotspot("home", tmp_path, Said())
    spot.step(0.0, idle=True)
    spot.step(SETTLE_S * 10, idle=True)
    assert fakes.calls() == [] and spot.where is Where.HOME


@pytest.mark.parametrize("network", ["own", "auto"])
@pytest.mark.parametrize("world, words", [
    ({"running": False}, "nmcli -t -f RUNNING general failed (8): "
                         "Error: NetworkManager is not running."),
    ({"no_unit": True}, f"systemctl --no-ask-password start {UNIT} failed (5): "
                        f"Failed to start {UNIT}: Unit {UNIT} not found."),
])
def test_a_failing_tool_is_said_once_and_the_phones_stay_home(
        fakes: Fakes, tmp_path: Path, world: dict[str, Any], words: str, network: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """Said on the screen where the table needs the box's own Wi-Fi; "auto"
    on a system with no NetworkManager only says so in the log."""
    fakes.world(active=[LO], **world)
    said = Said()
    spot = hotspot(network, tmp_path, said)
    with caplog.at_level(logging.INFO):
        for look in range(4):
            spot.step(look * SETTLE_S, idle=True)
    quiet = network == "auto" and "running" in world
    assert said == ([] if quiet else [words])
    assert [(r.levelno, r.getMessage()) for r in caplog.records
            if "no own Wi-Fi" in r.getMessage()] == [
        (logging.INFO if quiet else logging.WARNING,
         f"phones: no own Wi-Fi, the phones join the box's known networks ({words})")]
    assert spot.where is Where.HOME and spot.wifi is None


@pytest.mark.parametrize("network", ["own", "auto"])
def test_missing_nmcli_is_said_once(tmp_path: Path, network: str) -> None:
    said = Said()
    spot = hotspot(network, tmp_path, said, nmcli=str(tmp_path / "no-such-nmcli"))
    spot.step(0.0, idle=True)
    spot.step(LOOK_S, idle=True)
    if network == "own":
        assert len(said) == 1 and said[0].endswith("no-such-nmcli is not installed")
    else:
        assert said == []
    assert spot.where is Where.HOME


def test_a_hanging_nmcli_is_cut_off_and_said_once(fakes: Fakes, tmp_path: Path) -> None:
    fakes.world(hang=True)
    said = Said()
    spot = hotspot("own", tmp_path, said, timeout=0.5)
    spot.step(0.0, idle=True)
    spot.step(LOOK_S, idle=True)
    assert said == ["nmcli -t -f RUNNING general did not answer in 0.5 s"]
    assert spot.where is Where.HOME


def test_the_box_opens_its_own_wifi_with_its_phones_and_closes_it_with_them(
        fakes: Fakes, tmp_path: Path) -> None:
    """PhoneLink with `network = "own"`: the join card carries the Wi-Fi
    once the unit is up, its code and the page's in turn; phones turned off
    stop the unit."""
    config = phones_config(tmp_path)
    config.phones.network = "own"
    game = Games({"one_night": lambda: Flow.from_config(config)}, "one_night", phones_on=True)
    woken = threading.Event()
    link = PhoneLink(config.phones, lambda: game, lambda: 0.0, lambda e: None, woken.set,
                     lambda text, lines: None, addresses=["127.0.0.1"], port=0,
                     seats_file=tmp_path / "state" / "seats.json")
    link.turn(True)
    try:
        deadline = time.monotonic() + 30
        while (card := link.join_card()) is None or card.wifi is None:
            assert time.monotonic() < deadline, "the own Wi-Fi never came up"
            woken.wait(1)
            woken.clear()
        assert card.wifi is not None and card.wifi == credentials(tmp_path / "wifi")
        assert fakes.starts() == [START]
    finally:
        link.turn(False)
    assert fakes.starts()[-1] == STOP
    assert link.join_card() is None


def test_terse_fields_unescape_colons_and_backslashes() -> None:
    assert terse_fields(HOME) == ["Home:Net", "802-11-wireless", "wlan0"]
    assert terse_fields(r"a\\b:c") == ["a\\b", "c"]
    assert terse_fields("") == [""]


@pytest.mark.parametrize("ssid, passphrase, text", [
    ("Wolfbox-AB12", "abcd-efgh-jkmn", "WIFI:T:WPA;S:Wolfbox-AB12;P:abcd-efgh-jkmn;;"),
    ('a;b,c"d:e\\f', "p;w", r'WIFI:T:WPA;S:a\;b\,c\"d\:e\\f;P:p\;w;;'),
])
def test_the_wifi_code_escapes_as_the_spec_says(ssid: str, passphrase: str, text: str) -> None:
    assert WifiCard(ssid, passphrase).qr_text() == text


def test_the_card_turns_from_the_wifis_code_to_the_pages_and_back(
        fakes: Fakes, tmp_path: Path) -> None:
    """The Wi-Fi's code first, when it has just come up; then in turn."""
    now = [0.0]
    woken: list[bool] = []
    turns = HotspotThread(hotspot("own", tmp_path, Said()), lambda: now[0], lambda: True,
                          lambda: woken.append(True))
    shown = []
    for _turn in range(4):
        turns.turn()
        shown.append(turns.wifi_shown)
        now[0] += HotspotThread.FLIP_S
    assert turns.hotspot.wifi is not None
    assert shown == [True, False, True, False] and len(woken) == 4
    turns.close()                                       # never started: closes the Wi-Fi
    assert fakes.starts()[-1] == STOP


class _Seated:
    pin, names = "4821", {2: "Anna"}


class _Server:
    @staticmethod
    def pinned(url: str) -> str:
        return url + "#k=KEY"


class _Phones:
    urls = ["http://192.168.1.20:8080/", f"http://{ADDRESS}:8080/"]
    seated = _Seated()
    server = _Server()


def test_on_its_own_wifi_the_card_gives_the_page_at_the_boxs_address_there(
        fakes: Fakes, tmp_path: Path) -> None:
    """A box on a cable too serves the page at both addresses: the card
    on its own Wi-Fi gives the one the phones there can reach."""
    config = phones_config(tmp_path)
    link = PhoneLink(config.phones, lambda: None, lambda: 0.0, lambda e: None,  # type: ignore
                     lambda: None, lambda text, lines: None)
    link.phones = _Phones()  # type: ignore[assignment]
    assert link.join_card() == JoinCard("http://192.168.1.20:8080/", "4821", ((2, "Anna"),),
                                        qr="http://192.168.1.20:8080/#k=KEY")
    link.hotspot = HotspotThread(hotspot("own", tmp_path, Said()), lambda: 0.0, lambda: True,
                                 lambda: None)
    link.hotspot.turn()
    card = link.join_card()
    assert card is not None and card.url == f"http://{ADDRESS}:8080/"
    assert card.qr == f"http://{ADDRESS}:8080/#k=KEY"          # the code holds the key there too
    assert card.wifi is not None and card.wifi == credentials(tmp_path / "wifi")
    assert card.wifi_shown
    link.hotspot.close()


def test_phones_off_never_hold_the_box_while_the_wifi_goes_down(
        fakes: Fakes, tmp_path: Path) -> None:
    """A unit that hangs going down holds the box's loop `wait` s at most
    (its watchdog bites at 30 s); the thread ends it on its own."""
    woken = threading.Event()
    spot = hotspot("own", tmp_path, Said(), up_timeout=8.0)
    turns = HotspotThread(spot, lambda: 0.0, lambda: True, woken.set)
    turns.start()
    assert woken.wait(30) and spot.wifi is not None
    fakes.world(active=[LO], hang_stop=True)
    began = time.monotonic()
    turns.close(wait=0.2)
    assert time.monotonic() - began < 4
    turns._thread.join(30)                 # the stop, cut off at up_timeout
    assert not turns._thread.is_alive() and fakes.starts()[-1] == STOP


def test_the_manual_gives_the_own_wifis_times_as_they_are() -> None:
    section = (Path(__file__).parent.parent / "docs/play/own-wifi.md").read_text()
    assert f"join card every {HotspotThread.FLIP_S:g} s" in " ".join(section.split())
    assert f"looks every {LOOK_S:g} s" in section
    assert f"if none has come {SETTLE_S:g} s after phones are turned on" in section
    assert f"every {RETRY_S / 60:g} minutes" in section
    assert f"goes down for at most {SETTLE_S:g} s" in section


def test_a_failed_look_keeps_the_own_wifi_and_looks_again(
        fakes: Fakes, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """On its own Wi-Fi, nmcli failing at a look (busy, hung) neither takes
    the Wi-Fi off the screen nor ends the looking: said once, tried again."""
    said = Said()
    # nmcli's time limit: a hung one is waited for this long, and a stand-in
    # that answers must answer within it on a machine whose cores are busy.
    spot = hotspot("auto", tmp_path, said, timeout=2.0)
    spot.step(0.0, idle=True)
    spot.step(SETTLE_S, idle=True)
    assert spot.where is Where.OWN
    fakes.world(hang=True)
    caplog.clear()                                    # what the hung looks say, alone
    with caplog.at_level(logging.WARNING):
        spot.step(SETTLE_S + LOOK_S, idle=True)
        spot.step(SETTLE_S + 2 * LOOK_S, idle=True)
    assert spot.where is Where.OWN and spot.wifi is not None and said == []
    assert len([r for r in caplog.records if "cannot look" in r.getMessage()]) == 1
    fakes.world(active=[LO, f"{CONNECTION}:802-11-wireless:wlan0"])
    spot.step(SETTLE_S + RETRY_S, idle=True)          # looks again: time to try home
    assert fakes.starts()[-1] == STOP and spot.where is Where.SETTLING


def test_a_wifi_slow_to_come_up_is_tried_again_before_giving_up(
        fakes: Fakes, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """NetworkManager may time out starting the access point on a busy box
    (the twin saw "supplicant took too long"): the box tries UP_TRIES times,
    a look apart, before it says it has no own Wi-Fi."""
    fakes.world(active=[LO], fail_starts=UP_TRIES - 1)
    said = Said()
    spot = hotspot("own", tmp_path, said)
    with caplog.at_level(logging.INFO):
        for look in range(UP_TRIES):
            spot.step(look * LOOK_S, idle=True)
    assert spot.where is Where.OWN and spot.wifi is not None and said == []
    assert fakes.starts().count(START) == UP_TRIES
    assert len([r for r in caplog.records if "trying again" in r.getMessage()]) == UP_TRIES - 1
    fakes.world(active=[LO], fail_starts=UP_TRIES)              # and one that never comes
    again = hotspot("own", tmp_path / "again", said)
    for look in range(UP_TRIES + 2):
        again.step(look * LOOK_S, idle=True)
    assert again.where is Where.HOME and len(said) == 1


class _Game:
    """A game that notes which thread calls into it."""

    def __init__(self) -> None:
        self.callers: list[threading.Thread] = []
        self.running = False

    def busy(self) -> bool:
        self.callers.append(threading.current_thread())
        return self.running


class _Following(_Phones):
    seated = type("Seated", (), {"pin": "4821", "names": {}})()

    def follow(self, game: object, now: float) -> None:
        pass


def test_the_wifis_thread_never_calls_into_the_game(fakes: Fakes, tmp_path: Path) -> None:
    """Whether the table is idle (nobody holds a phone, no game under way)
    is worked out on the box's loop as its screen changes; the own Wi-Fi's
    thread reads that value, and never calls into the game, which the game
    switch may be building on the loop at that moment (Games.restart)."""
    config = phones_config(tmp_path)
    config.phones.network = "own"
    game = _Game()
    link = PhoneLink(config.phones, lambda: game, lambda: 0.0,  # type: ignore[arg-type,return-value]
                     lambda e: None, lambda: None, lambda text, lines: None,
                     seats_file=tmp_path / "seats.json")
    link.phones = _Following()  # type: ignore[assignment]
    link.follow()                                       # the loop, after a screen change
    link._own_wifi()
    turns = link.hotspot
    assert turns is not None
    seen: list[bool] = []

    def looks() -> None:
        seen.append(turns.idle())
        turns.turn()
    for running in (False, True):
        game.running = running
        link.follow()                                   # on the loop
        looker = threading.Thread(target=looks)
        looker.start()
        looker.join(30)
    assert seen == [True, False]                        # what the loop worked out
    assert game.callers and set(game.callers) == {threading.main_thread()}
    turns.close()
