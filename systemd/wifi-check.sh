#!/usr/bin/env bash
# The box's own Wi-Fi, checked on simulated radios (mac80211_hwsim): for the
# twin (the image's qemu boot), run as root inside it, on a box installed
# with `systemd/install.sh --phones` and phones on in its config.
#
#   systemd/wifi-check.sh [own]      the phone joins the box's own Wi-Fi (up,
#                                    as network = "own" or "auto" opens it): a
#                                    wrong passphrase refused, the lease, DNS,
#                                    the captive probes and the page
#   systemd/wifi-check.sh guests     after own: a second phone (the third
#                                    radio) reaches neither the first nor
#                                    a machine on the box's cable, nor can
#                                    it answer for the box's address
#   systemd/wifi-check.sh home-up    a "home" Wi-Fi (WOLFBOX_HOME_SSID/_PSK) on
#                                    a third radio, with its own DHCP server
#   systemd/wifi-check.sh join-home BOX   the phone joins it, gets a lease and
#                                    loads the page at the box's address BOX
#   systemd/wifi-check.sh home-down  the home Wi-Fi goes away
#   systemd/wifi-check.sh clean      the namespaces and their programs gone
#
# Each says its steps and exits 1 at the first failure. The radios stay
# where they are between calls: the phone's in a network namespace of its
# own ("phone"), the home access point's in another ("home"); the box keeps
# the first radio, which NetworkManager runs. The phone joins with the name
# and passphrase the box's QR code holds (WOLFBOX_SSID and WOLFBOX_PSK, as
# the host read them off the screen), else the ones the hotspot unit keeps
# in /var/lib/wolfbox-wifi, where the code is made from; given both, they
# must agree.
# Needs: the kernel's mac80211_hwsim module, iw, wpasupplicant (station and
# access point), dnsmasq (NetworkManager's), python3, and a DHCP client
# (dhclient, busybox's udhcpc, or klibc's ipconfig, which the image has
# through initramfs-tools).
set -euo pipefail

STATE=${WOLFBOX_WIFI_DIR:-/var/lib/wolfbox-wifi}      # the hotspot unit's, root's
ADDRESS=10.42.0.1
PORT=${WOLFBOX_PORT:-8080}
NS=phone
HOME_NS=home
HOME_SSID=${WOLFBOX_HOME_SSID:-Twin-Home}
HOME_PSK=${WOLFBOX_HOME_PSK:-home-twin-passphrase}
HOME_NET=192.168.77
CABLE_NS=cable
CABLE_NET=192.168.88
WAIT=${WOLFBOX_WAIT:-120}
RUN=/run/wolfbox-check

say() { printf '%s\n' "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
in_phone() { ip netns exec "$NS" "$@"; }
in_home() { ip netns exec "$HOME_NS" "$@"; }
has_ns() { ip netns list | grep -qw "^$1"; }

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

# The radios the root namespace still holds, in order.
radios() { ls /sys/class/ieee80211; }

# A radio of the root namespace's last into namespace $1 (made here), taken
# from NetworkManager first; its interface's name on stdout.
take_radio() {
    local ns=$1 phys phy dev
    mapfile -t phys < <(radios)
    [ "${#phys[@]}" -ge 2 ] || fail "fewer than two radios left for the $ns: ${phys[*]}"
    phy=${phys[-1]}
    dev=$(ls "/sys/class/ieee80211/$phy/device/net")
    nmcli device set "$dev" managed no >/dev/null 2>&1 || true
    ip netns add "$ns"
    iw phy "$phy" set netns name "$ns"
    ip netns exec "$ns" ip link set lo up
    printf '%s' "$dev"
}

# The interface of the radio in namespace $1.
radio_in() { ip netns exec "$1" ls /sys/class/net | grep -v '^lo$' | head -n 1; }

setup() {
    mkdir -p "$RUN"
    if [ ! -d /sys/module/mac80211_hwsim ]; then
        modprobe mac80211_hwsim radios=3 || fail "no mac80211_hwsim in this kernel"
    fi
    if ! has_ns "$NS"; then
        say "radios: the box's, and the phone's in a namespace of its own"
        take_radio "$NS" >/dev/null
    fi
    phone_dev=$(radio_in "$NS")
    [ -n "$phone_dev" ] || fail "the phone's namespace holds no radio"
}

# Join network $1 with passphrase $2; prints wpa_supplicant's state after
# 30 s at most (COMPLETED: joined).
join() {
    local ssid=$1 pass=$2 conf=$RUN/phone-wpa.conf i state=""
    in_phone pkill -F "$RUN/phone-wpa.pid" 2>/dev/null || true
    for ((i = 0; i < 10; i++)); do      # its control socket gone with it
        [ -e "$RUN/phone-wpa/$phone_dev" ] || break
        sleep 0.5
    done
    in_phone ip -4 addr flush dev "$phone_dev" 2>/dev/null || true
    umask 077
    printf 'ctrl_interface=%s/phone-wpa\nnetwork={\n ssid="%s"\n psk="%s"\n key_mgmt=WPA-PSK\n}\n' \
        "$RUN" "$ssid" "$pass" > "$conf"
    in_phone wpa_supplicant -B -P "$RUN/phone-wpa.pid" -i "$phone_dev" -c "$conf" >/dev/null
    for ((i = 0; i < 30; i++)); do
        state=$(in_phone wpa_cli -p "$RUN/phone-wpa" -i "$phone_dev" status 2>/dev/null \
                | sed -n 's/^wpa_state=//p')
        [ "$state" = COMPLETED ] && break
        sleep 1
    done
    printf '%s' "$state"
}

# A DHCP lease on network $1 (10.42.0: its first three numbers) for the
# radio $3 in namespace $2 (the phone's, unless given).
lease() {
    local net=$1 ns=${2:-$NS} dev=${3:-$phone_dev}
    local in=(ip netns exec "$ns")
    if command -v dhclient >/dev/null; then
        "${in[@]}" dhclient -1 "$dev" || fail "no DHCP lease (dhclient)"
    elif command -v udhcpc >/dev/null; then
        "${in[@]}" udhcpc -n -q -i "$dev" || fail "no DHCP lease (udhcpc)"
    elif [ -x /usr/lib/klibc/bin/ipconfig ]; then     # initramfs-tools' own (the image)
        "${in[@]}" /usr/lib/klibc/bin/ipconfig -t 30 "$dev" || fail "no DHCP lease (ipconfig)"
    else
        fail "no DHCP client (dhclient, udhcpc or klibc's ipconfig) to act as the phone"
    fi
    "${in[@]}" ip -4 addr show "$dev" | grep -q "inet ${net//./\\.}\." \
        || fail "no $net.x address"
}

# The IPv4 address of interface $2 in namespace $1.
address_in() {
    ip netns exec "$1" ip -4 -o addr show dev "$2" | sed -n 's/.* inet \([0-9.]*\)\/.*/\1/p' \
        | head -n 1
}

own() {
    setup
    say "the box's own Wi-Fi comes up (wolfbox-hotspot.service)"
    until_ok "wolfbox-hotspot.service is not active" systemctl is-active --quiet wolfbox-hotspot.service
    if [ ! -r "$STATE/wifi.env" ] || [ ! -r "$STATE/wifi.secrets" ]; then
        fail "no wifi.env/wifi.secrets in $STATE"
    fi
    local ssid psk kept_ssid kept_psk state
    kept_ssid=$(sed -n 's/^WOLFBOX_SSID=//p' "$STATE/wifi.env")
    kept_psk=$(sed -n 's/^802-11-wireless-security.psk://p' "$STATE/wifi.secrets")
    ssid=${WOLFBOX_SSID:-$kept_ssid}
    psk=${WOLFBOX_PSK:-$kept_psk}
    if [ -z "$ssid" ] || [ -z "$psk" ]; then fail "the box's Wi-Fi has no name or passphrase"; fi
    if [ "$ssid" != "$kept_ssid" ] || [ "$psk" != "$kept_psk" ]; then
        fail "the code's name or passphrase is not the box's"
    fi
    say "  $ssid is up"
    if journalctl -u wolfbox -u wolfbox-hotspot -u NetworkManager --no-pager | grep -qF "$psk"; then
        fail "the passphrase is in the journal"
    fi

    say "a wrong passphrase is refused"
    state=$(join "$ssid" "not-${psk}")
    [ "$state" != COMPLETED ] || fail "joined with a wrong passphrase"

    say "the phone joins with the code's name and passphrase"
    state=$(join "$ssid" "$psk")
    [ "$state" = COMPLETED ] || fail "could not join $ssid (wpa_state=$state)"

    say "it gets a lease on the box's network"
    lease 10.42.0

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
}

# A guest on the own Wi-Fi reaches the box alone. A second phone (the
# third radio, in the home's namespace until home-up makes it the home's
# access point) joins: it cannot reach the first phone, nor make the first
# take it for the box (ARP: the radio's client isolation); and a machine on
# a cable of the box's (a veth into a namespace of its own) is out of every
# phone's reach (the box forwards nothing: captive.nft), though the box
# itself reaches it. Run after `own`.
guests() {
    setup
    local ssid psk dev state mine other phone_mac box_mac seen i
    local conf=$RUN/guest-wpa.conf
    ssid=$(sed -n 's/^WOLFBOX_SSID=//p' "$STATE/wifi.env")
    psk=$(sed -n 's/^802-11-wireless-security.psk://p' "$STATE/wifi.secrets")
    mine=$(address_in "$NS" "$phone_dev")
    [ -n "$mine" ] || fail "the first phone has no address (run the own step first)"
    if ! has_ns "$HOME_NS"; then
        say "a second phone, on the third radio"
        take_radio "$HOME_NS" >/dev/null
    fi
    dev=$(radio_in "$HOME_NS")
    [ -n "$dev" ] || fail "the second phone's namespace holds no radio"

    say "a second phone joins the box's own Wi-Fi"
    umask 077
    printf 'ctrl_interface=%s/guest-wpa\nnetwork={\n ssid="%s"\n psk="%s"\n key_mgmt=WPA-PSK\n}\n' \
        "$RUN" "$ssid" "$psk" > "$conf"
    in_home wpa_supplicant -B -P "$RUN/guest-wpa.pid" -i "$dev" -c "$conf" >/dev/null
    state=""
    for ((i = 0; i < 30; i++)); do
        state=$(in_home wpa_cli -p "$RUN/guest-wpa" -i "$dev" status 2>/dev/null \
                | sed -n 's/^wpa_state=//p')
        [ "$state" = COMPLETED ] && break
        sleep 1
    done
    [ "$state" = COMPLETED ] || fail "the second phone could not join (wpa_state=$state)"
    lease 10.42.0 "$HOME_NS" "$dev"
    other=$(address_in "$HOME_NS" "$dev")
    say "  the first phone is $mine, the second $other"

    say "the second phone cannot reach the first"
    ip netns exec "$NS" python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 8080))
s.listen()
while True:
    s.accept()[0].close()
' "$mine" &
    local listener=$!
    until_ok "the first phone's listener did not start" \
        in_phone python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' "$mine"
    if in_home python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' \
            "$mine" 2>/dev/null; then
        kill "$listener" 2>/dev/null || true
        fail "the second phone reached the first"
    fi
    kill "$listener" 2>/dev/null || true

    say "the second phone claims the box's address; the first still finds the box"
    in_phone python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 10)' \
        "$ADDRESS" || fail "the first phone cannot reach the box"
    box_mac=$(in_phone ip neigh show "$ADDRESS" dev "$phone_dev" | sed -n 's/.* lladdr \([0-9a-f:]*\).*/\1/p')
    [ -n "$box_mac" ] || fail "the first phone knows no address for the box"
    phone_mac=$(in_phone cat "/sys/class/net/$phone_dev/address")
    sleep 2           # past the kernel's ARP locktime (1 s), which would ignore a lie too
    # Gratuitous ARP replies, "10.42.0.1 is at the second phone", to everyone
    # and to the first phone's own address, five of each.
    in_home python3 -c '
import socket, sys, time
dev, box, phone_mac, phone = sys.argv[1:5]
mine = bytes.fromhex(open(f"/sys/class/net/{dev}/address").read().strip().replace(":", ""))
them = bytes.fromhex(phone_mac.replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for to, target, target_ip in ((b"\xff" * 6, b"\xff" * 6, box), (them, them, phone)):
    arp = (b"\x00\x01\x08\x00\x06\x04\x00\x02" + mine + socket.inet_aton(box)
           + target + socket.inet_aton(target_ip))
    for _ in range(5):
        s.send(to + mine + b"\x08\x06" + arp)
        time.sleep(0.2)
' "$dev" "$ADDRESS" "$phone_mac" "$mine" || fail "the second phone could not send its ARP"
    seen=$(in_phone ip neigh show "$ADDRESS" dev "$phone_dev" | sed -n 's/.* lladdr \([0-9a-f:]*\).*/\1/p')
    [ "$seen" = "$box_mac" ] || fail "the first phone took the second for the box ($seen, not $box_mac)"

    say "the box forwards nothing: a machine on its cable is out of the phones' reach"
    nft list table inet wolfbox_captive | grep -q "hook forward" \
        || fail "no forward rule of the box's own Wi-Fi (captive.nft)"
    ip netns add "$CABLE_NS"
    ip link add twcable type veth peer name eth0 netns "$CABLE_NS"
    nmcli device set twcable managed no >/dev/null 2>&1 || true
    ip addr add "$CABLE_NET.1/24" dev twcable
    ip link set twcable up
    ip netns exec "$CABLE_NS" ip addr add "$CABLE_NET.2/24" dev eth0
    ip netns exec "$CABLE_NS" ip link set eth0 up
    ip netns exec "$CABLE_NS" ip link set lo up
    ip netns exec "$CABLE_NS" python3 -m http.server --bind "$CABLE_NET.2" 8080 \
        >/dev/null 2>&1 &
    local machine=$!
    until_ok "the box cannot reach the machine on its cable" \
        python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' \
        "$CABLE_NET.2"
    # Each phone sends for the cable's network through the box, as a phone
    # would for any address once the box is its gateway (the lease's router
    # or not), and the machine answers through the box.
    in_phone ip route replace "$CABLE_NET.0/24" via "$ADDRESS" dev "$phone_dev"
    in_home ip route replace "$CABLE_NET.0/24" via "$ADDRESS" dev "$dev"
    ip netns exec "$CABLE_NS" ip route replace default via "$CABLE_NET.1"
    # That this can fail: without captive.nft's forward chain, NetworkManager's
    # shared method routes the first phone to the machine.
    nft flush chain inet wolfbox_captive forward
    local control=unreached
    for ((i = 0; i < 5; i++)); do
        if in_phone python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' \
                "$CABLE_NET.2" 2>/dev/null; then
            control=reached
            break
        fi
        sleep 1
    done
    nft -f /etc/wolfbox/captive.nft || fail "captive.nft could not be loaded again"
    nft list table inet wolfbox_captive | grep -q "hook forward" || fail "captive.nft not back"
    [ "$control" = reached ] \
        || fail "even without captive.nft's forward chain no phone reaches $CABLE_NET.2: the check could not fail"
    say "  (without captive.nft's forward chain, the first phone reached $CABLE_NET.2)"
    local reached=""
    if in_phone python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' \
            "$CABLE_NET.2" 2>/dev/null; then
        reached="the first phone"
    elif in_home python3 -c 'import socket, sys; socket.create_connection((sys.argv[1], 8080), 5)' \
            "$CABLE_NET.2" 2>/dev/null; then
        reached="the second phone"
    fi
    kill "$machine" 2>/dev/null || true
    ip netns del "$CABLE_NS"
    [ -z "$reached" ] || fail "$reached reached $CABLE_NET.2 on the box's cable"
    say "OK: with captive.nft, neither phone reaches $CABLE_NET.2 on the box's cable"

    say "the second phone leaves (its radio is the home's next)"
    in_home pkill -F "$RUN/guest-wpa.pid" 2>/dev/null || true
    for ((i = 0; i < 10; i++)); do
        [ -e "$RUN/guest-wpa/$dev" ] || break
        sleep 0.5
    done
    in_home ip -4 addr flush dev "$dev"
    say "OK: the own Wi-Fi's guests reach the box alone (isolated, nothing forwarded)"
}

home_up() {
    setup
    local dev conf=$RUN/home-wpa.conf
    if ! has_ns "$HOME_NS"; then
        say "a third radio for the home Wi-Fi, in a namespace of its own"
        take_radio "$HOME_NS" >/dev/null
    fi
    dev=$(radio_in "$HOME_NS")
    [ -n "$dev" ] || fail "the home namespace holds no radio"
    say "the home Wi-Fi $HOME_SSID comes up (WPA2, its own DHCP server)"
    in_home ip -4 addr flush dev "$dev"
    in_home ip addr add "$HOME_NET.1/24" dev "$dev"
    umask 077
    # wpa_supplicant as the access point: NetworkManager's own hotspot runs so.
    printf 'ctrl_interface=%s/home-wpa\nnetwork={\n ssid="%s"\n mode=2\n frequency=2437\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n psk="%s"\n}\n' \
        "$RUN" "$HOME_SSID" "$HOME_PSK" > "$conf"
    in_home wpa_supplicant -B -P "$RUN/home-wpa.pid" -i "$dev" -c "$conf" >/dev/null \
        || fail "the home access point would not start"
    in_home dnsmasq --conf-file=/dev/null --pid-file="$RUN/home-dns.pid" --user=root \
        --interface="$dev" --bind-interfaces --port=0 --dhcp-authoritative \
        --dhcp-range="$HOME_NET.10,$HOME_NET.60,1h" --dhcp-leasefile="$RUN/home.leases" \
        || fail "the home DHCP server would not start"
    until_ok "the home access point is not up" \
        in_home wpa_cli -p "$RUN/home-wpa" -i "$dev" status
    say "OK: $HOME_SSID is up on $dev"
}

join_home() {
    local box=$1 state
    setup
    say "the phone joins the home Wi-Fi $HOME_SSID"
    state=$(join "$HOME_SSID" "$HOME_PSK")
    [ "$state" = COMPLETED ] || fail "could not join $HOME_SSID (wpa_state=$state)"
    say "it gets a lease from home"
    lease "$HOME_NET"
    say "the box's page loads at $box"
    in_phone python3 - "$box" "$PORT" <<'EOF' || fail "the page on the home Wi-Fi (above)"
import http.client, sys
c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=10)
c.request("GET", "/")
r = c.getresponse()
assert r.status == 200 and b"<html" in r.read().lower(), r.status
print(f"  http://{sys.argv[1]}:{sys.argv[2]}/: 200")
EOF
    say "OK: the phone on the home Wi-Fi, with its lease and the box's page"
}

home_down() {
    local dev i
    say "the home Wi-Fi goes away (its radio off, as a router switched off)"
    local pid
    pid=$(cat "$RUN/home-wpa.pid" 2>/dev/null || true)
    in_home pkill -F "$RUN/home-dns.pid" 2>/dev/null || true
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null || true
        # Gone for good before the radio goes down: an access point still
        # tearing down on a busy twin could take the interface up again.
        for ((i = 0; i < 60; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 1
        done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    # Down, so that nothing on the air answers for it any more.
    dev=$(radio_in "$HOME_NS" 2>/dev/null || true)
    if [ -n "$dev" ]; then
        in_home ip link set "$dev" down
        ! in_home ip link show "$dev" | grep -q "state UP" || fail "the home radio $dev is still up"
    fi
    say "OK: $HOME_SSID is down"
}

clean() {
    in_phone pkill -F "$RUN/phone-wpa.pid" 2>/dev/null || true
    home_down >/dev/null
    ip netns del "$NS" 2>/dev/null || true
    ip netns del "$HOME_NS" 2>/dev/null || true
    ip netns del "$CABLE_NS" 2>/dev/null || true
    rm -rf "$RUN" /etc/netns/"$NS"
}

case ${1:-own} in
    own) own ;;
    guests) guests ;;
    home-up) home_up ;;
    join-home) [ -n "${2:-}" ] || fail "join-home needs the box's address"; join_home "$2" ;;
    home-down) home_down ;;
    clean) clean ;;
    *) fail "unknown step '$1' (own, guests, home-up, join-home BOX, home-down, clean)" ;;
esac
