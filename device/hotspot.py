"""The box's own Wi-Fi ([phones] network): an access point named after the
box, for a table where no network the box knows is in reach.

NetworkManager runs it. The service may not change NetworkManager's
settings or start any connection (polkit cannot tell NetworkManager's
connections apart: its actions carry no connection), so the installer
(`systemd/install.sh --phones`) puts a root unit, wolfbox-hotspot.service,
beside the box's, with a polkit rule that lets the box start and stop that
one unit and nothing else. The unit's root helper (systemd/wolfbox-wifi)
makes the Wi-Fi's name and passphrase in the unit's own state directory,
root's, and brings the `wolfbox-hotspot` connection up with them (the
passphrase in a `passwd-file` for nmcli: never on a command line, never in
NetworkManager's files, never in the log). The box only reads them there,
through its group, to show them: a root unit that read a file of the box's
own (an EnvironmentFile could carry LD_PRELOAD) would let the box's user
run code as root. What the box only reads (whether NetworkManager runs,
which connections are up) it asks `nmcli`.

"auto" leaves the choice of a network to NetworkManager, which joins the
networks it knows on its own: home while one of them is up; the box's own
Wi-Fi when none has come SETTLE_S after phones were turned on, or none has
been up for two looks in a row (LOOK_S apart). A known network counts as up
while NetworkManager has it activated and, on Wi-Fi, its access point was
heard within HOME_GONE_S (the radio's count of its beacons, where the
driver keeps one: a router switched off was once left "activated" for ten
minutes and more), or while it has been activating for less than that. A Pi has one radio, and an
access point cannot look for other networks, so on its own Wi-Fi the box
lets NetworkManager look every RETRY_S, only between games with no seat
taken: the access point goes down for at most SETTLE_S, and comes back if
no known network came.
"""

from __future__ import annotations

import enum
import logging
import os
import re
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wolfbox.view import WifiCard

log = logging.getLogger("wolfbox.device")

CONNECTION = "wolfbox-hotspot"          # the installer's NetworkManager connection
ADDRESS = "10.42.0.1"                   # the box on its own Wi-Fi (the connection's)
UNIT = "wolfbox-hotspot.service"        # the installer's root unit that starts it
WIFI_DIR = Path("/var/lib/wolfbox-wifi")  # the unit's StateDirectory: root's, the box's group reads
ENV_FILE = "wifi.env"                   # WOLFBOX_SSID=..., made by the unit's helper
SECRETS_FILE = "wifi.secrets"           # nmcli's passwd-file, made by the unit's helper
PSK_KEY = "802-11-wireless-security.psk"
SSID_PREFIX = "Wolfbox-"
# The passphrase the unit's helper makes (systemd/wolfbox-wifi: the same,
# tested), and the only one the box shows. No 0/o, 1/l/i: read off a small
# screen and typed on a phone without doubt. Twelve of them, 31^12 (about 59
# bits: years of a GPU's guessing at a captured handshake), and no
# separator: with the name, the Wi-Fi code's text is then 42 bytes, a
# version 3 code (29 modules) at error correction M, which the box's
# smallest screens still draw at 3 px a module.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LENGTH = 12
TIMEOUT_S = 10.0                        # nmcli's own reading of NetworkManager
UP_TIMEOUT_S = 60.0                     # the unit: NetworkManager's `--wait 45` and more
CLOSE_WAIT_S = 5.0                      # the box's loop waits this long for it to go down
LOOK_S = 15.0
# A known network with no access point heard (no beacon counted) or still
# activating for this long counts as gone.
HOME_GONE_S = 30.0
SETTLE_S = 30.0
RETRY_S = 300.0
UP_TRIES = 3                            # starts of the own Wi-Fi before giving up on it
HOME_TYPES = ("802-11-wireless", "802-3-ethernet", "wifi", "ethernet")
WIFI_TYPES = ("802-11-wireless", "wifi")


class Where(enum.Enum):
    """Which network the phones are on now."""
    HOME = "home"             # a network the box knows (or NetworkManager is not there)
    OWN = "own"               # the box's own Wi-Fi is up
    SETTLING = "settling"     # auto: waiting for NetworkManager to join a known one


class _ToolFailed(Exception):
    """nmcli or systemctl failed, hung or is missing: one line, for the log."""


class _NoManager(Exception):
    """No NetworkManager to ask (nmcli missing, failing, or saying so)."""


class _UpFailed(Exception):
    """The unit would not bring the box's own Wi-Fi up (not installed,
    NetworkManager refused): said, and the phones stay on known networks."""


@dataclass(frozen=True)
class Tools:
    """How the box runs the programs it drives (a test puts fakes on PATH)."""
    nmcli: str = "nmcli"
    systemctl: str = "systemctl"
    iw: str = "iw"
    timeout: float = TIMEOUT_S
    up_timeout: float = UP_TIMEOUT_S

    def run(self, argv: list[str], long: bool = False) -> str:
        """The program's output; _ToolFailed with one line if it cannot say
        (`long`: starting or stopping the unit, which waits for the radio)."""
        timeout = self.up_timeout if long else self.timeout
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL, check=False,
                                  env={**os.environ, "LC_ALL": "C"})
        except FileNotFoundError as e:
            raise _ToolFailed(f"{argv[0]} is not installed") from e
        except subprocess.TimeoutExpired as e:
            raise _ToolFailed(f"{' '.join(argv)} did not answer in {timeout:g} s") from e
        except OSError as e:
            raise _ToolFailed(f"{argv[0]}: {e.strerror or e}") from e
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()
            # The whole command: none carries a secret (the passphrase goes
            # by file, read by the unit).
            raise _ToolFailed(f"{' '.join(argv)} failed ({done.returncode})"
                             + (f": {said[-1][:200]}" if said else ""))
        return done.stdout


def terse_fields(line: str) -> list[str]:
    """One line of `nmcli -t` output, split at its unescaped colons."""
    fields, field, escaped = [], "", False
    for c in line:
        if escaped:
            field, escaped = field + c, False
        elif c == "\\":
            escaped = True
        elif c == ":":
            fields.append(field)
            field = ""
        else:
            field += c
    return [*fields, field]


def credentials(wifi_dir: Path) -> WifiCard | None:
    """The box's Wi-Fi name and passphrase, as the unit's root helper made
    them (once for this box, the same ever after); None while there are
    none of their shapes to show."""
    ssid = _kept(wifi_dir / ENV_FILE, "WOLFBOX_SSID=")
    passphrase = _kept(wifi_dir / SECRETS_FILE, PSK_KEY + ":")
    if ssid is None or not (0 < len(ssid) <= 32
                            and all(c.isascii() and (c.isalnum() or c == "-") for c in ssid)):
        return None
    if passphrase is None or not (8 <= len(passphrase) <= 63
                                  and set(passphrase) <= set(ALPHABET)):
        return None
    return WifiCard(ssid, passphrase)


def _kept(path: Path, key: str) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return None
    return next((line[len(key):] for line in lines if line.startswith(key)), None)


class Hotspot:
    """Chooses the phones' network as `network` says and keeps it so, a
    look at a time (`step`, with the time now and whether the box is idle:
    between games, no seat taken). No NetworkManager, or a Wi-Fi that will
    not come up, is said once and leaves the phones on the box's known
    networks; a look that fails is said once and made again."""

    def __init__(self, network: str, say: Callable[[str], None],
                 tools: Tools | None = None, wifi_dir: Path | None = None) -> None:
        self.network, self.say = network, say
        self.wifi_dir = WIFI_DIR if wifi_dir is None else wifi_dir
        self.tools = tools or Tools()
        self.where = Where.HOME if network == "home" else Where.SETTLING
        self.wifi: WifiCard | None = None     # shown on the screens while OWN
        self._since: float | None = None      # when SETTLING began
        self._next = 0.0                      # when to look next
        self._misses = 0                      # looks in a row with no known network up
        self._broken = network == "home"      # said why, and stays home
        self._look_failed = False             # a failed look said (once)
        self._up_fails = 0                    # starts of the own Wi-Fi that failed in a row
        self._beacons: dict[str, tuple[int, float]] = {}   # device: (count, when it changed)
        self._activating: dict[str, float] = {}           # connection: since when

    def step(self, now: float, idle: bool) -> None:
        """One look, when it is due."""
        if self._broken or now < self._next:
            return
        self._next = now + LOOK_S
        try:
            self._step(now, idle)
            self._look_failed = False
        except _NoManager as e:
            self._give_up(str(e), aloud=self.network == "own")
        except _UpFailed as e:
            # NetworkManager may time out bringing the access point up on a
            # busy box ("supplicant took too long"): tried again a look later.
            self._up_fails += 1
            if self._up_fails < UP_TRIES:
                log.warning("phones: the box's own Wi-Fi did not come up (%s); trying again",
                            e)
            else:
                self._give_up(str(e))
        except _ToolFailed as e:
            # A look that failed (nmcli busy, hung): the same look again
            # next time; the Wi-Fi stays as it is. Said once in a row.
            if not self._look_failed:
                log.warning("phones: cannot look at the box's networks (%s)", e)
            self._look_failed = True

    def _step(self, now: float, idle: bool) -> None:
        if self._since is None and self.where is Where.SETTLING:
            self._check_manager()
            self._since = now
        if self.network == "own":
            if self.where is not Where.OWN:
                self._up(now)
            return
        home = self._home_up(now)
        if self.where is Where.SETTLING:
            if home:
                self.where, self._since = Where.HOME, None
                log.info("phones: on a network the box knows")
            elif self._since is not None and now - self._since >= SETTLE_S:
                self._up(now)
        elif self.where is Where.HOME:
            self._misses = 0 if home else self._misses + 1
            if self._misses >= 2:
                self._misses = 0
                self._up(now)
        elif self.where is Where.OWN and idle and self._since is not None \
                and now - self._since >= RETRY_S:
            # One radio: down, for NetworkManager to look for a known network.
            wifi, self._since = self.wifi, now
            try:
                self._down()
            except _ToolFailed:
                self.wifi = wifi                  # still up, as far as the box knows
                raise
            self.where = Where.SETTLING

    def _check_manager(self) -> None:
        """NetworkManager is there. "auto" on a box without it (a desktop,
        a hand-made system) says so in the log alone: the table's network
        is whatever that system joins, as with "home"."""
        try:
            running = self.tools.run([self.tools.nmcli, "-t", "-f", "RUNNING",
                                      "general"]).strip()
        except _ToolFailed as e:
            raise _NoManager(str(e)) from e
        if running != "running":
            raise _NoManager(f"NetworkManager is not running ({running or 'no answer'})")

    def _home_up(self, now: float) -> bool:
        """Whether a connection other than the box's own is up on Wi-Fi or a
        cable: activated, with its access point heard within HOME_GONE_S on
        Wi-Fi, or activating for less than HOME_GONE_S."""
        out = self.tools.run([self.tools.nmcli, "-t", "-f", "NAME,TYPE,DEVICE,STATE",
                              "connection", "show", "--active"])
        up, activating = False, set()
        for line in out.splitlines():
            name, kind, device, state, *_rest = [*terse_fields(line), "", "", ""]
            if name == CONNECTION or kind not in HOME_TYPES:
                continue
            if state == "activated":
                if kind not in WIFI_TYPES or not device or self._heard(device, now):
                    up = True
            elif state == "activating":
                activating.add(name)
                if now - self._activating.setdefault(name, now) < HOME_GONE_S:
                    up = True
        self._activating = {k: v for k, v in self._activating.items() if k in activating}
        return up

    def _heard(self, device: str, now: float) -> bool:
        """Whether the radio `device` counted a beacon of its access point
        within HOME_GONE_S (`iw dev DEVICE station dump`, "beacon rx"); a
        radio linked to no access point (no station) for that long is not
        heard either. A driver that keeps no count, or no iw, leaves it to
        NetworkManager: heard."""
        try:
            out = self.tools.run([self.tools.iw, "dev", device, "station", "dump"])
        except _ToolFailed:
            return True
        counts = [int(n) for n in re.findall(r"^\s*beacon rx:\s*(\d+)", out, re.MULTILINE)]
        if not out.strip():
            # No station at all: the radio is linked to no access point,
            # whatever NetworkManager says (seen in the twin: "activated"
            # for ten minutes after the kernel's "Not connected").
            count = -1
        elif not counts:
            self._beacons.pop(device, None)
            return True
        else:
            count = sum(counts)
        kept = self._beacons.get(device)
        if kept is None or kept[0] != count:
            self._beacons[device] = (count, now)
            return True
        if now - kept[1] < HOME_GONE_S:
            return True
        log.info("phones: no beacon from the access point on %s for %.0f s", device, now - kept[1])
        return False

    def _up(self, now: float) -> None:
        try:
            self.tools.run([self.tools.systemctl, "--no-ask-password", "start", UNIT],
                           long=True)
        except _ToolFailed as e:
            raise _UpFailed(str(e)) from e
        wifi = credentials(self.wifi_dir)
        if wifi is None:
            # Up, but nothing to show the table: down again, said as a failure.
            try:
                self._down()
            except _ToolFailed:
                pass
            raise _UpFailed(f"no Wi-Fi name and passphrase to show in {self.wifi_dir}")
        self.where, self.wifi, self._since = Where.OWN, wifi, now
        self._beacons.clear()
        self._activating.clear()
        self._up_fails = 0
        log.info("phones: the box's own Wi-Fi %s is up", wifi.ssid)

    def _down(self) -> None:
        self.wifi = None
        self.tools.run([self.tools.systemctl, "--no-ask-password", "stop", UNIT], long=True)
        log.info("phones: the box's own Wi-Fi is down")

    def _give_up(self, why: str, aloud: bool = True) -> None:
        """Said once: in the log, and on the screen (`say`) where the table
        needed the box's own Wi-Fi."""
        self._broken, self.where, self.wifi = True, Where.HOME, None
        log.log(logging.WARNING if aloud else logging.INFO,
                "phones: no own Wi-Fi, the phones join the box's known networks (%s)", why)
        if aloud:
            self.say(why)

    def close(self) -> None:
        """Phones off: the box's own Wi-Fi goes down with them."""
        if self.where is Where.OWN:
            try:
                self._down()
            except _ToolFailed as e:
                log.warning("phones: the box's own Wi-Fi did not go down (%s)", e)
        self.where, self.wifi, self._broken = Where.HOME, None, True


class HotspotThread:
    """Runs a Hotspot's looks off the box's loop (nmcli and the unit take
    seconds), and turns the join card's code between the Wi-Fi's and the
    page's every FLIP_S while the own Wi-Fi is up; `wake` redraws."""

    FLIP_S = 8.0

    def __init__(self, hotspot: Hotspot, clock: Callable[[], float],
                 idle: Callable[[], bool], wake: Callable[[], None]) -> None:
        self.hotspot, self.clock, self.idle, self.wake = hotspot, clock, idle, wake
        self.wifi_shown = True
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wolfbox-hotspot", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.turn()
            self._stop.wait(self.FLIP_S)
        self.hotspot.close()

    def turn(self) -> None:
        """A look when one is due, and the card's next turn: the Wi-Fi's
        code first when it has just come up, then the page's, in turn."""
        before = self.hotspot.wifi
        self.hotspot.step(self.clock(), self.idle())
        now = self.hotspot.wifi
        self.wifi_shown = not self.wifi_shown if now is not None and before is not None \
            else True
        if now is not None or before is not None:
            self.wake()

    def close(self, wait: float = CLOSE_WAIT_S) -> None:
        """Phones off: the own Wi-Fi goes down on this thread, which the
        box's loop waits for `wait` s at most (its watchdog bites at 30 s;
        the unit also goes down with the box's service)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=wait)
        elif self._thread.ident is None:           # never started: nothing runs it
            self.hotspot.close()
