"""The box's own Wi-Fi routes its guests nowhere, tried for real in network
namespaces (as root; skipped elsewhere).

A "phone" namespace on a veth stands for the own Wi-Fi, a "box" namespace
routes as NetworkManager's `ipv4.method=shared` makes it (forwarding on,
its NAT and forward rules as NetworkManager 1.42 writes them for the
shared interface), a "home" namespace on another veth stands for the
network behind the box's cable, and a second phone on a veth of its own
for another guest (the radio isolates the guests, ap-isolation; what the
box would route back between them is the box's to stop). First without
the box's rule file: the phone reaches the home machine and the other
phone (the stand-in routes, so the rest means something). Then with
systemd/captive.nft loaded as the unit loads it: the phone still reaches
the box's page (port 8080, and port 80 through the captive redirect), and
reaches neither the home machine nor the other phone, not even with a home
address forged as its source. Only the namespaces made here carry traffic.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
RULES = ROOT / "systemd" / "captive.nft"
BOX, PHONE, OTHER, HOME = "10.42.0.1", "10.42.0.2", "10.42.0.3", "192.168.77.2"
FORGED = "192.168.77.50"                     # a home address a guest pretends to be
NO_ANSWER_S = 2.0                            # how long a dropped packet is waited for


def _can_make_namespaces() -> bool:
    if os.geteuid() != 0 or not all(shutil.which(t) for t in ("ip", "nft")):
        return False
    name = f"w41probe{secrets.token_hex(3)}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True).returncode == 0
    if made:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return made


pytestmark = pytest.mark.skipif(not _can_make_namespaces(),
                                reason="needs root, ip and nft (network namespaces)")

# NetworkManager 1.42's own rules for a shared connection on `wlan0`
# (src/core/nm-firewall-utils.c: _fw_nft_set_shared), here on the box's
# side of the phones' veths: NAT out, and forwarding accepted from the
# shared subnet, back to it, and between its own clients.
NM_SHARED = """
table ip nm-shared-own {
    chain nat_postrouting {
        type nat hook postrouting priority srcnat; policy accept;
        ip saddr 10.42.0.0/24 ip daddr != 10.42.0.0/24 masquerade
    }
    chain filter_forward {
        type filter hook forward priority filter; policy accept;
        ip daddr 10.42.0.0/24 oifname { "own", "own2" } ct state { established, related } accept
        ip saddr 10.42.0.0/24 iifname { "own", "own2" } accept
        iifname { "own", "own2" } oifname { "own", "own2" } accept
        iifname { "own", "own2" } reject
        oifname { "own", "own2" } reject
    }
}
"""

# A listener: says "ready" once it listens; an HTTP page on TCP, or on UDP
# the first datagram it gets, printed.
SERVE = r"""
import socket, sys, http.server, socketserver
address, port, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "udp":
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((address, port))
    print("ready", flush=True)
    data, peer = s.recvfrom(100)
    print(data.decode(), peer[0], flush=True)
else:
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = f"<html>{kind}</html>".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *a):
            pass
    socketserver.TCPServer.allow_reuse_address = True
    with socketserver.TCPServer((address, port), Page) as server:
        print("ready", flush=True)
        server.serve_forever()
"""

# From a namespace: GET a page, its body or "no answer"; "sent" a datagram.
ASK = r"""
import socket, sys, http.client
what = sys.argv[1]
if what == "udp":
    source, address, port = sys.argv[2], sys.argv[3], int(sys.argv[4])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((source, 0))
    s.sendto(b"hello", (address, port))
    print("sent")
else:
    address, port, timeout = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    try:
        c = http.client.HTTPConnection(address, port, timeout=timeout)
        c.request("GET", "/")
        print(c.getresponse().read().decode())
    except OSError:
        print("no answer")
"""


class Net:
    """The namespaces, their links and their listeners; all gone after."""

    def __init__(self) -> None:
        tag = secrets.token_hex(3)
        self.ns = {n: f"w41{n}{tag}" for n in ("box", "phone", "other", "home")}
        self.servers: list[subprocess.Popen[str]] = []

    def run(self, ns: str, *argv: str) -> str:
        done = subprocess.run(["ip", "netns", "exec", self.ns[ns], *argv], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, (argv, done.stderr)
        return done.stdout

    def up(self) -> None:
        for name in self.ns.values():
            subprocess.run(["ip", "netns", "add", name], check=True)
        # The phones' links ("own", "own2": the own Wi-Fi's side on the box)
        # and the cable ("cable").
        for box_end, far, far_end in (("own", "phone", "wlan"), ("own2", "other", "wlan"),
                                      ("cable", "home", "eth")):
            subprocess.run(["ip", "link", "add", box_end, "netns", self.ns["box"], "type",
                            "veth", "peer", "name", far_end, "netns", self.ns[far]], check=True)
        for ns in self.ns:
            self.run(ns, "ip", "link", "set", "lo", "up")
        box = [("ip", "addr", "add", f"{BOX}/24", "dev", "own"),
               ("ip", "addr", "add", f"{BOX}/32", "dev", "own2"),
               ("ip", "addr", "add", "192.168.77.1/24", "dev", "cable"),
               *[("ip", "link", "set", d, "up") for d in ("own", "own2", "cable")],
               ("ip", "route", "add", f"{OTHER}/32", "dev", "own2"),
               ("ip", "route", "add", "default", "via", HOME),
               ("sysctl", "-qw", "net.ipv4.ip_forward=1")]
        for argv in box:
            self.run("box", *argv)
        for ns, me in (("phone", PHONE), ("other", OTHER)):
            for argv in (("ip", "addr", "add", f"{me}/24", "dev", "wlan"),
                         ("ip", "link", "set", "wlan", "up"),
                         ("ip", "route", "add", "default", "via", BOX)):
                self.run(ns, *argv)
        # A guest that asks the box to carry its packets to another guest,
        # and pretends to be at home: both are its own choice.
        self.run("phone", "ip", "route", "add", f"{OTHER}/32", "via", BOX)
        self.run("phone", "ip", "addr", "add", f"{FORGED}/32", "dev", "wlan")
        self.run("other", "ip", "route", "add", f"{PHONE}/32", "via", BOX)
        for argv in (("ip", "addr", "add", f"{HOME}/24", "dev", "eth"),
                     ("ip", "link", "set", "eth", "up")):
            self.run("home", *argv)

    def nft(self, rules: str) -> None:
        done = subprocess.run(["ip", "netns", "exec", self.ns["box"], "nft", "-f", "-"],
                              input=rules, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr

    def serve(self, ns: str, address: str, port: int, kind: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen(["ip", "netns", "exec", self.ns[ns], sys.executable, "-c",
                                 SERVE, address, str(port), kind], stdout=subprocess.PIPE,
                                text=True)
        self.servers.append(proc)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        return proc

    def get(self, ns: str, address: str, port: int, timeout: float = 10.0) -> str:
        return self.run(ns, sys.executable, "-c", ASK, "get", address, str(port),
                        str(timeout)).strip()

    def datagram_arrives(self, sender: str, source: str, to: str, address: str) -> bool:
        """One datagram, from `source` in namespace `sender` to `address` in
        `to`: does it get there (within NO_ANSWER_S)? One way: no answer
        needed, so neither NAT nor a route back matters."""
        listener = self.serve(to, address, 9999, "udp")
        self.run(sender, sys.executable, "-c", ASK, "udp", source, address, "9999")
        try:
            out, _ = listener.communicate(timeout=NO_ANSWER_S)
        except subprocess.TimeoutExpired:
            listener.kill()
            listener.communicate()
            return False
        assert out.split() == ["hello", source]
        return True

    def down(self) -> None:
        for proc in self.servers:
            proc.kill()
            proc.communicate()
        for name in self.ns.values():
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


@pytest.fixture
def net() -> Iterator[Net]:
    made = Net()
    try:
        made.up()
        yield made
    finally:
        made.down()


def test_a_guest_on_the_own_wifi_reaches_the_boxs_page_and_nothing_behind_it(net: Net):
    net.serve("box", "0.0.0.0", 8080, "page")
    net.serve("home", HOME, 8080, "home")
    net.serve("other", OTHER, 8080, "other phone")
    # Forwarding alone (as NetworkManager's shared method with its
    # firewall-backend=none) carries datagrams out from a phone, with its
    # own address or a forged home one, and in from a home machine that
    # routes 10.42.0.0/24 through the box; the box's rule file, loaded as
    # wolfbox-hotspot.service loads it, stops each.
    net.run("home", "ip", "route", "add", "10.42.0.0/24", "via", "192.168.77.1")
    ways = [("phone", PHONE, "home", HOME), ("phone", FORGED, "home", HOME),
            ("home", HOME, "phone", PHONE)]
    assert [net.datagram_arrives(*way) for way in ways] == [True, True, True]
    net.run("box", "nft", "-f", str(RULES))
    assert [net.datagram_arrives(*way) for way in ways] == [False, False, False]
    net.run("box", "nft", "delete", "table", "inet", "wolfbox_captive")
    # NetworkManager's shared rules: routed to home and to the other phone
    # (the stand-in works, and this is the box before its rule).
    net.nft(NM_SHARED)
    assert net.get("phone", HOME, 8080) == "<html>home</html>"
    assert net.get("phone", OTHER, 8080) == "<html>other phone</html>"
    # With the box's rule: its page, and nothing else.
    net.run("box", "nft", "-f", str(RULES))
    assert net.get("phone", BOX, 8080) == "<html>page</html>"
    assert net.get("phone", BOX, 80) == "<html>page</html>"         # the captive redirect
    assert net.get("phone", HOME, 8080, timeout=NO_ANSWER_S) == "no answer"
    assert net.get("phone", OTHER, 8080, timeout=NO_ANSWER_S) == "no answer"
    assert net.get("other", PHONE, 8080, timeout=NO_ANSWER_S) == "no answer"
    # The unit's stop takes the table away, and shared routes again.
    net.run("box", "nft", "delete", "table", "inet", "wolfbox_captive")
    assert net.get("phone", HOME, 8080) == "<html>home</html>"
