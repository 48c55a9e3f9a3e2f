#!/usr/bin/env bash
# The box's own Wi-Fi, checked on simulated radios (mac80211_hwsim): for the
# twin (the image's qemu boot), run as root inside it, on a box installed
# with `systemd/install.sh --phones` and `[phones] enabled = true`,
# `network = "own"` (or "auto" with no known network) in its config.
#
#   systemd/wifi-check.sh            check, say each step, exit 1 at the first failure
#
# A "phone" is a second simulated radio in a network namespace of its own,
# joined with wpa_supplicant using the name and passphrase the box's Wi-Fi
# code carries (read from the box's state, where the code is made from).
# Needs: the kernel's mac80211_hwsim module, iw, wpasupplicant, python3,
# and a DHCP client (dhclient, busybox's udhcpc, or klibc's ipconfig, which
# the image has through initramfs-tools).
set -euo pipefail

STATE=${WOLFBOX_STATE:-/var/lib/wolfbox}
ADDRESS=10.42.0.1
PORT=${WOLFBOX_PORT:-8080}
NS=phone
WAIT=${WOLFBOX_WAIT:-120}

say() { printf '%s\n' "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
in_phone() { ip netns exec "$NS" "$@"; }

# Wait up to WAIT seconds for a command to succeed.
until_ok() {
    local what=$1 i
    shift
    for ((i = 0; i < WAIT; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 1
    done
    fail "$what (after ${WAIT} s)"
}

cleanup() {
    in_phone pkill -F "/run/wolfbox-check-wpa.pid" 2>/dev/null || true
    ip netns del "$NS" 2>/dev/null || true
}
trap cleanup EXIT

say "radios: two simulated ones, the box's and the phone's"
if [ ! -d /sys/module/mac80211_hwsim ]; then
    modprobe mac80211_hwsim radios=2 || fail "no mac80211_hwsim in this kernel"
fi
mapfile -t phys < <(ls /sys/class/ieee80211)
[ "${#phys[@]}" -ge 2 ] || fail "fewer than two radios: ${phys[*]}"
phone_phy=${phys[-1]}
phone_dev=$(ls "/sys/class/ieee80211/$phone_phy/device/net")
nmcli device set "$phone_dev" managed no || true
ip netns add "$NS"
iw phy "$phone_phy" set netns name "$NS"
in_phone ip link set lo up

say "the box's own Wi-Fi comes up (wolfbox-hotspot.service)"
until_ok "wolfbox-hotspot.service is not active" systemctl is-active --quiet wolfbox-hotspot.service
if [ ! -r "$STATE/wifi.env" ] || [ ! -r "$STATE/wifi.secrets" ]; then
    fail "no wifi.env/wifi.secrets in $STATE"
fi
ssid=$(sed -n 's/^WOLFBOX_SSID=//p' "$STATE/wifi.env")
psk=$(sed -n 's/^802-11-wireless-security.psk://p' "$STATE/wifi.secrets")
if [ -z "$ssid" ] || [ -z "$psk" ]; then fail "the box's Wi-Fi has no name or passphrase"; fi
say "  $ssid is up"
if journalctl -u wolfbox -u wolfbox-hotspot -u NetworkManager --no-pager | grep -qF "$psk"; then
    fail "the passphrase is in the journal"
fi

# Join with a passphrase; prints wpa_supplicant's state after WAIT s at most.
join() {
    local pass=$1 conf=/run/wolfbox-check-wpa.conf i state=""
    in_phone pkill -F /run/wolfbox-check-wpa.pid 2>/dev/null || true
    umask 077
    printf 'ctrl_interface=/run/wolfbox-check-wpa\nnetwork={\n ssid="%s"\n psk="%s"\n key_mgmt=WPA-PSK\n}\n' \
        "$ssid" "$pass" > "$conf"
    in_phone wpa_supplicant -B -P /run/wolfbox-check-wpa.pid -i "$phone_dev" -c "$conf" >/dev/null
    for ((i = 0; i < 30; i++)); do
        state=$(in_phone wpa_cli -p /run/wolfbox-check-wpa -i "$phone_dev" status 2>/dev/null \
                | sed -n 's/^wpa_state=//p')
        [ "$state" = COMPLETED ] && break
        sleep 1
    done
    printf '%s' "$state"
}

say "a wrong passphrase is refused"
state=$(join "not-${psk}")
[ "$state" != COMPLETED ] || fail "joined with a wrong passphrase"

say "the phone joins with the code's name and passphrase"
state=$(join "$psk")
[ "$state" = COMPLETED ] || fail "could not join $ssid (wpa_state=$state)"

say "it gets a lease on the box's network"
if command -v dhclient >/dev/null; then
    in_phone dhclient -1 "$phone_dev" || fail "no DHCP lease (dhclient)"
elif command -v udhcpc >/dev/null; then
    in_phone udhcpc -n -q -i "$phone_dev" || fail "no DHCP lease (udhcpc)"
elif [ -x /usr/lib/klibc/bin/ipconfig ]; then     # initramfs-tools' own (the image)
    in_phone /usr/lib/klibc/bin/ipconfig -t 30 "$phone_dev" || fail "no DHCP lease (ipconfig)"
else
    fail "no DHCP client (dhclient, udhcpc or klibc's ipconfig) to act as the phone"
fi
in_phone ip -4 addr show "$phone_dev" | grep -q "inet 10\.42\.0\." || fail "no 10.42.0.x address"

say "every name resolves to the box; each probe gets the page; the page loads"
install -d /etc/netns/"$NS"
printf 'nameserver %s\n' "$ADDRESS" > /etc/netns/"$NS"/resolv.conf
in_phone python3 - "$ADDRESS" "$PORT" <<'EOF' || fail "the captive portal (above)"
import http.client, socket, sys
address, port = sys.argv[1], int(sys.argv[2])
for name in ("example.com", "wolfbox.invalid", "connectivitycheck.gstatic.com"):
    got = socket.gethostbyname(name)
    assert got == address, f"{name} resolves to {got}"
page = f"http://{address}:{port}/"
probes = [("connectivitycheck.gstatic.com", "/generate_204"),       # Android
          ("captive.apple.com", "/hotspot-detect.html"),             # iOS, macOS
          ("www.msftconnecttest.com", "/connecttest.txt"),           # Windows
          ("www.msftncsi.com", "/ncsi.txt")]
for host, path in probes:
    c = http.client.HTTPConnection(host, 80, timeout=10)              # port 80: the redirect
    c.request("GET", path)
    r = c.getresponse()
    assert r.status == 302 and r.getheader("Location") == page, (host, r.status,
                                                                 r.getheader("Location"))
    print(f"  {host}{path}: 302 {page}")
c = http.client.HTTPConnection(address, port, timeout=10)
c.request("GET", "/")
r = c.getresponse()
assert r.status == 200 and b"<html" in r.read().lower(), r.status
print(f"  {page}: 200")
EOF
say "OK: the box's own Wi-Fi, its lease, its DNS, its probes and its page"
