"""w. The phones' networks on three simulated radios (issue 31), in
phases as the manual names them: its own Wi-Fi, its guests, a table of
nine, home, home gone. Each phase returns None or the FAIL's detail; the
phone's side of each is a step of systemd/wifi-check.sh, run in the twin."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from twin import IMAGE, REPO
from twin.context import GUEST_PYTHON, Check, Context, Outcome


def wifi_code(code: str) -> dict[str, str]:
    """The fields of a Wi-Fi QR code (`WIFI:T:WPA;S:name;P:pass;;`), its
    backslash escapes undone, as a phone's camera reads them."""
    fields: dict[str, str] = {}
    body, i = code.removeprefix("WIFI:"), 0
    while i < len(body):
        j, value = i, ""
        while j < len(body) and body[j] != ";":
            if body[j] == "\\" and j + 1 < len(body):
                j += 1
            value += body[j]
            j += 1
        key, colon, rest = value.partition(":")
        if colon:
            fields[key] = rest
        i = j + 1
    return fields


def read_codes(ctx: Context, want_wifi: bool, host: str, timeout: float = 300
               ) -> tuple[dict[str, str], str]:
    """The codes on the box's screen, read off qemu's screendumps with
    zbarimg as a phone's camera reads them: the Wi-Fi's (its name and
    passphrase, once `want_wifi`) and the page's address, once it is at
    `host` (where the phones are: the box is on qemu's cable too). The
    join card turns between the two every few seconds."""
    zbar = shutil.which("zbarimg")
    assert zbar
    wifi: dict[str, str] = {}
    url = ""
    deadline = time.monotonic() + timeout
    while (not url or (want_wifi and not wifi)) and time.monotonic() < deadline:
        shot = ctx.twin.screendump(ctx.twin.work / "twin-own-wifi.png")
        read = subprocess.run([zbar, "--quiet", "--raw", str(shot)], capture_output=True,
                              text=True, check=False).stdout
        for code in read.splitlines():
            if code.startswith("WIFI:"):
                wifi = wifi_code(code)
            elif code.startswith("http") and urlsplit(code).hostname == host:
                url = code
        time.sleep(2)
    return wifi, url


def wifi_step(ctx: Context, step: str, env: str = "", timeout: float = 900) -> tuple[int, str]:
    """One step of systemd/wifi-check.sh in the twin, its output kept."""
    code, out = ctx.sh.run(f"{env} WOLFBOX_WAIT=300 bash /run/wifi-check.sh {step}",
                           timeout=timeout)
    with open(ctx.twin.work / "wifi-check.log", "a") as log:
        log.write(f"$ wifi-check.sh {step}\n{out}\n(exit {code})\n")
    return code, out


def start_phones(ctx: Context, url: str, pin: str, seats: int, deal: bool) -> None:
    """image/phones_sim.py started in the phone's namespace, in the background."""
    ctx.sh.run(f"rm -f /run/phones-sim.log; (ip netns exec phone {GUEST_PYTHON} "
               f"/run/phones_sim.py {url!r} {pin} --seats {seats} --timeout 900 "
               f"{'--deal' if deal else ''} > /run/phones-sim.log 2>&1 &)")


def phones_say(ctx: Context, words: str, timeout: float) -> str:
    """The simulated phones' log once it holds `words` (or their end)."""
    deadline = time.monotonic() + timeout
    out = ""
    while time.monotonic() < deadline:
        out = ctx.sh.out("cat /run/phones-sim.log 2>/dev/null")
        if words in out or "OK:" in out or "FAIL:" in out:
            break
        time.sleep(3)
    return out


def room_pin(ctx: Context) -> str:
    """The PIN the box keeps for its room (seats.json)."""
    kept = json.loads(ctx.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
    return str(kept.get("room", {}).get("pin", ""))


def restart_box(ctx: Context, network: str) -> bool:
    """The box again with phones on `network` and the timed game, as a
    config file would set them (the twin's shell edits the box's own
    file), and no game or seat kept."""
    ctx.sh.run("systemctl stop wolfbox; cp -n /etc/wolfbox/wolfbox.toml "
               "/etc/wolfbox/wolfbox.toml.twin; cp /etc/wolfbox/wolfbox.toml.twin "
               "/etc/wolfbox/wolfbox.toml; rm -f /var/lib/wolfbox/state.json "
               "/var/lib/wolfbox/seats.json; printf '\\n[game]\\nmode = \"newd3\"\\n"
               f"\\n[phones]\\nenabled = true\\nnetwork = \"{network}\"\\n' "
               ">> /etc/wolfbox/wolfbox.toml && systemctl start wolfbox", timeout=300)
    return ctx.wait_active(600)


@dataclass
class Walk:
    """What one phase hands the next: the lines said so far (the check's
    detail), the phone's Wi-Fi settings and the page's address from the
    box's own Wi-Fi, the box's radio once home is up."""

    ctx: Context
    said: list[str] = field(default_factory=list)
    env: str = ""                  # WOLFBOX_SSID and WOLFBOX_PSK, as read off the screen
    url: str = ""                  # the page's code on the box's own Wi-Fi
    radio: str = ""                # the box's radio (its interface)

    def failed(self, *lines: str) -> str:
        """A FAIL's detail: what was said so far, then what went wrong."""
        return " / ".join([*self.said, *lines])


def radios(ctx: Context) -> str | None:
    """systemd/wifi-check.sh and image/phones_sim.py written into the twin
    through its shell, and three simulated radios (mac80211_hwsim)."""
    script = (REPO / "systemd/wifi-check.sh").read_text()
    sim = (IMAGE / "phones_sim.py").read_text()
    (ctx.twin.work / "wifi-check.log").write_text("")
    code, out = ctx.sh.run(
        f"cat > /run/wifi-check.sh <<'TWIN'\n{script}TWIN\n"
        f"cat > /run/phones_sim.py <<'TWIN'\n{sim}TWIN\n"
        "modprobe mac80211_hwsim radios=3 && sleep 2 && ls /sys/class/ieee80211")
    if code != 0 or len(out.split()) < 3:
        return f"no three simulated radios: {out.strip()[-300:]}"
    return None


def own(walk: Walk) -> str | None:
    """Its own Wi-Fi: the box on `network = "own"`; the Wi-Fi's code and the
    page's read off the screen; a phone joins with them (a wrong passphrase
    first) and gets its lease, DNS, the captive probes and the page."""
    ctx, said = walk.ctx, walk.said
    # The phone's radio and the home's are NetworkManager's no more (the
    # script moves them into namespaces of their own). qemu's cable is
    # unplugged: "auto" would count it as a network the box knows, and
    # the page's code would show its address, which no phone reaches.
    ctx.sh.run("nmcli device set eth0 managed no; ip link set eth0 down; "
               "ip -4 addr flush dev eth0")
    code, out = wifi_step(ctx, "clean")
    if not restart_box(ctx, "own"):
        return "the box did not come back with its own Wi-Fi"
    from wolfbox.device.hotspot import ADDRESS  # the box on its own Wi-Fi
    wifi, url = read_codes(ctx, want_wifi=True, host=ADDRESS)
    if not wifi or not url:
        return f"no Wi-Fi code and page code on the screen: {wifi} {url}"
    said.append(f"codes read off the screen: Wi-Fi {wifi['S']} ({wifi['T']}), "
                f"{urlsplit(url).netloc}")
    walk.url = url
    walk.env = env = f"WOLFBOX_SSID={wifi['S']!r} WOLFBOX_PSK={wifi['P']!r}"
    code, out = wifi_step(ctx, "own", env)
    if code != 0:
        return walk.failed(*out.splitlines()[-3:])
    said += [line.strip() for line in out.splitlines()
             if line.startswith(("a wrong", "OK")) or ": 302" in line][:6]
    return None


def guests(walk: Walk) -> str | None:
    """Its guests: a second phone (the third radio, the home's later):
    isolated from the first, and no phone reaches the box's cable."""
    code, out = wifi_step(walk.ctx, "guests")
    if code != 0:
        return walk.failed(*out.splitlines()[-3:])
    walk.said += [line.strip() for line in out.splitlines() if line.startswith("OK")]
    return None


def table_of_nine(walk: Walk) -> str | None:
    """A table of nine: nine phones on the box's own Wi-Fi take every seat,
    and are dealt the timed game, which goes on past the deal."""
    ctx = walk.ctx
    pin = room_pin(ctx)
    start_phones(ctx, walk.url, pin, 9, deal=True)
    log = phones_say(ctx, "joined 9", 900)
    if "joined 9" not in log:
        return walk.failed("nine phones: " + log[-300:])
    assert ctx.twin.qmp
    ctx.twin.qmp.key("spc")                       # START: deal
    # 900 s in all: a START lost on a busy twin is pressed again every 60 s
    # while the game stays at its setup, within the same 900 s (a box that
    # never deals fails here rather than keeping the twin waiting for ever).
    t0 = pressed = time.monotonic()
    stage = None
    while time.monotonic() - t0 < 900:
        stage = ctx.saved_stage()
        if stage and stage[0] not in ("", "setup", "deal"):
            break
        if time.monotonic() - pressed > 60 and (not stage or stage[0] in ("", "setup")):
            ctx.twin.qmp.key("spc")               # a START lost on a busy twin
            pressed = time.monotonic()
        time.sleep(5)
    log = phones_say(ctx, "OK:", 300)
    ctx.twin.screendump(ctx.twin.work / "twin-own-wifi-dealt.png")
    if "OK:" not in log:
        return walk.failed("the deal on nine phones: " + log[-300:])
    if not stage or stage[0] in ("", "setup", "deal"):
        return walk.failed(f"the deal never ended (saved: {stage})")
    walk.said.append(log.split("OK:", 1)[1].strip().splitlines()[0]
                     + f"; the game went on to its {stage[0]}")
    return None


def home(walk: Walk) -> str | None:
    """Home: a WPA2 network the box knows (`nmcli connection add`); on
    `network = "auto"` the box joins it and keeps its own Wi-Fi down, and a
    phone there reads the page's code at the box's home address and takes
    a seat."""
    ctx, said = walk.ctx, walk.said
    code, out = wifi_step(ctx, "home-up")
    if code != 0:
        return walk.failed(*out.splitlines()[-2:])
    radio = ctx.sh.out("ls /sys/class/ieee80211/*/device/net").split()
    if len(radio) != 1:
        return walk.failed(f"the box's radio is not alone: {radio}")
    walk.radio = radio[0]
    ctx.sh.run(f"nmcli connection add type wifi con-name twin-home ifname {radio[0]} "
               "ssid Twin-Home wifi-sec.key-mgmt wpa-psk "
               "wifi-sec.psk home-twin-passphrase >/dev/null")
    if not restart_box(ctx, "auto"):
        return "the box did not come back on auto"
    t0 = time.monotonic()
    box = ""
    while time.monotonic() - t0 < 300 and not box:
        active = ctx.sh.out("nmcli -t -f NAME connection show --active")
        if "twin-home" in active.split():
            box = ctx.sh.out(f"ip -4 -o addr show dev {radio[0]} | "
                             "sed -n 's/.*inet \\([0-9.]*\\).*/\\1/p'").strip()
        time.sleep(3)
    if not box:
        return walk.failed("the box never joined the home Wi-Fi")
    # What the box hears of home: its radio's count of home's beacons.
    beacons = [ctx.sh.out(f"iw dev {radio[0]} station dump | sed -n "
                          "'s/.*beacon rx:[[:space:]]*//p'").strip()]
    time.sleep(5)
    beacons.append(ctx.sh.out(f"iw dev {radio[0]} station dump | sed -n "
                              "'s/.*beacon rx:[[:space:]]*//p'").strip())
    ctx.figures["home's beacons counted by the box, 5 s apart"] = " -> ".join(beacons)
    code, out = wifi_step(ctx, f"join-home {box}")
    if code != 0:
        return walk.failed(*out.splitlines()[-2:])
    _wifi, url = read_codes(ctx, want_wifi=False, host=box, timeout=60)
    if not url:
        # No room for the page's code beside this start screen's
        # texts (the card shows the address in words): the phones'
        # screen, BACK held, as a table would open it.
        assert ctx.twin.qmp
        ctx.twin.qmp.key("backspace", hold=3.0)
        _wifi, url = read_codes(ctx, want_wifi=False, host=box, timeout=180)
        said.append("the page's code read off the phones' screen (BACK held)")
    if not url:
        return walk.failed(f"no page code at {box} on the screen")
    start_phones(ctx, url, room_pin(ctx), 1, deal=False)
    log = phones_say(ctx, "OK:", 600)
    hotspot = ctx.sh.out("systemctl is-active wolfbox-hotspot.service").strip()
    if "OK:" not in log or hotspot == "active":
        return walk.failed(f"a phone at home: {log[-200:]} "
                           f"(the box's own Wi-Fi: {hotspot})")
    said.append(f"on auto the box joined the home Wi-Fi ({box}) and kept its own "
                "down; a phone there took a seat")
    return None


def home_gone(walk: Walk) -> str | None:
    """Home gone: its access point's radio switched off; the box opens its
    own Wi-Fi again, and the phone joins it and loads the page."""
    ctx, radio = walk.ctx, walk.radio
    code, out = wifi_step(ctx, "home-down")
    t0 = time.monotonic()
    while time.monotonic() - t0 < 600:
        if ctx.sh.out("systemctl is-active wolfbox-hotspot.service").strip() == "active":
            break
        time.sleep(3)
    else:
        seen = ctx.sh.out("nmcli -t -f NAME,TYPE,DEVICE,STATE connection show --active; "
                          f"iw dev {radio} link; "
                          f"iw dev {radio} station dump | grep -i beacon; "
                          "journalctl -u wolfbox --no-pager -o cat -n 3")
        return walk.failed("home went away; no own Wi-Fi in 600 s: "
                           + seen.replace("\n", "; ")[-400:])
    fell = time.monotonic() - t0
    ctx.figures["home gone to own Wi-Fi up"] = f"{fell:.0f} s"
    code, out = wifi_step(ctx, "own", walk.env)
    if code != 0:
        return walk.failed("after home: " + out.splitlines()[-1])
    walk.said.append(f"home went away: the box's own Wi-Fi up {fell:.0f} s later, "
                     "the phone joined it again and loaded the page")
    ctx.twin.screendump(ctx.twin.work / "twin-own-wifi-fallback.png")
    return None


def clean_up(ctx: Context) -> None:
    """The radios' namespaces gone, the cable back, the box's own settings
    back and the box started on them with no game or seat kept."""
    wifi_step(ctx, "clean")
    ctx.sh.run("nmcli connection delete twin-home >/dev/null 2>&1; "
               "ip link set eth0 up; nmcli device set eth0 managed yes; "
               "systemctl stop wolfbox; "
               "mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml; "
               "rm -f /var/lib/wolfbox/state.json /var/lib/wolfbox/seats.json; "
               "systemctl start wolfbox", timeout=300)
    ctx.wait_active(600)


# The phases in their order, each on what the one before left.
PHASES = (own, guests, table_of_nine, home, home_gone)


def own_wifi(ctx: Context) -> Outcome:
    """Three simulated radios (the kernel's mac80211_hwsim): the box's
    own Wi-Fi on the first, a phone on the second in a network namespace
    of its own, a "home" access point on the third. The host reads the
    Wi-Fi's code and the page's off the screen; systemd/wifi-check.sh,
    written into the twin through its shell, joins with them as a phone
    would (a wrong passphrase first) and checks the lease, DNS, the
    captive probes and the page, then a second phone on the third
    radio, isolated from the first, neither reaching a machine on the
    box's cable (a veth); nine simulated phones
    (image/phones_sim.py) take every seat and are dealt a timed game.
    Then the box on "auto" joins the home Wi-Fi, a phone there takes a
    seat, home goes away and the box opens its own again."""
    if shutil.which("zbarimg") is None:
        return "cannot", "the host needs zbar-tools (boot-check.sh installs them)"
    failed = radios(ctx)
    if failed is not None:
        return "FAIL", failed
    walk = Walk(ctx)
    try:
        for phase in PHASES:
            failed = phase(walk)
            if failed is not None:
                return "FAIL", failed
        return "pass", " / ".join(walk.said)[:1500]
    finally:
        clean_up(ctx)


CHECK = Check("w. the box's own Wi-Fi on simulated radios: a phone joins it", own_wifi)
