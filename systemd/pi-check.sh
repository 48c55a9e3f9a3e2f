#!/usr/bin/env bash
# The steps hand shell code to the arm64 system in single quotes, on purpose.
# shellcheck disable=SC2016
#
# The box on a 64-bit Pi's software, checked on an x86_64 Debian machine:
# a Debian 12 (bookworm) arm64 system built with mmdebstrap and run under
# qemu-user, the real systemd/install.sh installed into it, then the box's
# own checks, its command-line tools and a part of the test suite.
#
#   sudo make pi-check          (this script; root, an x86_64 Debian host)
#   sudo make pi-check clean    remove build/pi-check (the cached system too)
#
# The arm64 system is cached in build/pi-check/bookworm-arm64.tar with the
# .debs and wheels it downloaded, so a second run downloads nothing. Each
# run starts from the cached system as mmdebstrap made it.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=$SOURCE/build/pi-check
IMAGE=$DIR/bookworm-arm64.tar
ROOTFS=$DIR/rootfs
LOGS=$DIR/logs
WHO="pi-check"
STEP_WIDTH=44
INROOT_ENV=()
# The host helpers make image and make boot-check share (say, fail,
# host_needs, step, inroot...).
# shellcheck source=../image/lib/common.sh
. "$SOURCE/image/lib/common.sh"
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
# The part of the suite run under emulation: the installer and the unit, the
# pin drivers, the voice (onnxruntime, Piper), the command line and a game's
# rules (the installer's real install into a scratch root is left out: the
# check has just installed it for real).
# Left out too: the selftest's own test (the selftest step runs it; past its
# 300 s limit under emulation) and the hung renderer's, whose 1.5 s limit per
# line is shorter than a worker's start under emulation (both pass natively).
# PI_CHECK_TESTS: other files, space-separated.
read -r -a TESTS <<< "${PI_CHECK_TESTS:-tests/test_install.py tests/test_systemd.py \
tests/test_hardware.py tests/test_audio.py tests/test_cli.py tests/test_referee.py \
tests/test_newd3_resolve.py}"
SKIP_TESTS="not a_real_install and not selftest_on_a_pc and not a_hung_renderer"
# The service's environment, for the box's own commands run as its user.
BOX_ENV=(CACHE_DIRECTORY=/var/cache/wolfbox STATE_DIRECTORY=/var/lib/wolfbox
         HOME=/var/lib/wolfbox WOLFBOX_VOICES=/var/lib/wolfbox/voices
         SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1)
WOLFBOX=(runuser -u wolfbox -- env "${BOX_ENV[@]}" /opt/wolfbox/.venv/bin/wolfbox)

if [ "${1:-}" = clean ]; then
    need_root "run it as root (sudo make pi-check clean)"
    unmount_all
    rm -rf --one-file-system "$DIR"
    say "pi-check: removed $DIR"
    exit 0
elif [ $# -gt 0 ]; then
    fail "unknown argument '$1' (none, or clean)"
fi

need_root "run it as root: it installs mmdebstrap and qemu, and chroots (sudo make pi-check)"
need_apt

NAMES=()
RESULTS=()
TIMES=()
FAILED=""
START=$(date +%s)

# Each thing the check relies on on the host (a command, or a file), and the
# Debian package that brings it. mmdebstrap only recommends arch-test, yet
# needs it for a foreign architecture: every one is named, none assumed.
HOST_NEEDS=(
    "mmdebstrap mmdebstrap"
    "arch-test arch-test"
    "/usr/bin/qemu-aarch64-static qemu-user-static"
    "update-binfmts binfmt-support"
    "/usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring"
    "chroot coreutils"
    "mount mount"
)

host_tools() {
    host_needs install || return 1
    binfmt_arm64
    grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 \
        || { say "pi-check: the kernel runs no arm64 programs through qemu (binfmt_misc)" >&2; return 1; }
    arch-test arm64 \
        || { say "pi-check: arch-test says this host cannot run arm64 programs" >&2; return 1; }
}

build_image() {
    if [ -f "$IMAGE" ]; then
        say "cached: $IMAGE"
        return
    fi
    # systemd for systemd-analyze and systemctl enable, udev as on any Pi.
    mmdebstrap --arch=arm64 --variant=minbase --include=systemd,udev,ca-certificates \
        bookworm "$DIR/image.tmp.tar" "$MIRROR"
    mv "$DIR/image.tmp.tar" "$IMAGE"
}

unpack() {
    unmount_all
    rm -rf --one-file-system "$ROOTFS"
    mkdir -p "$ROOTFS" "$DIR/cache/apt" "$DIR/cache/pip"
    tar -C "$ROOTFS" -xf "$IMAGE"
    mount_system
    mount --bind "$DIR/cache/apt" "$ROOTFS/var/cache/apt/archives"
    mount_pip_cache
    copy_host_network
    # The working tree as git sees it (tracked and new files, nothing ignored).
    mkdir -p "$ROOTFS/root/wolfbox"
    if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
        copy_worktree "$ROOTFS/root/wolfbox"
    else
        tar -C "$SOURCE" --exclude=./build --exclude=./.venv -cf - . \
            | tar -C "$ROOTFS/root/wolfbox" -xf -
    fi
    inroot 'uname -m; python3 --version 2>/dev/null || true; grep -m1 "CPU part" /proc/cpuinfo'
}

install_box() {
    inroot 'bash /root/wolfbox/systemd/install.sh --no-prepare'
}

install_again() {
    local out
    out=$(inroot 'bash /root/wolfbox/systemd/install.sh --no-prepare')
    say "$out"
    grep -q "Nothing to change" <<< "$out"
}

# Every package of the installer's list is in Debian's arm64 archive, but
# python3-lgpio (Raspberry Pi's), whose wheel from PyPI the box's venv holds.
# The phones' own Wi-Fi's packages (apt-phones) are installed with --phones
# only: here they are only looked up in the archive.
packages_resolve() {
    inroot '
        bash /root/wolfbox/systemd/install.sh --list-packages | while read -r how pkg _; do
            if [ "$how" = apt ]; then
                apt-cache show "$pkg" >/dev/null
                dpkg-query -W -f="\${Package} \${Version} \${Status}\n" "$pkg" | grep "ok installed"
            elif [ "$how" = apt-phones ]; then
                apt-cache show "$pkg" >/dev/null
                echo "$pkg: in the archive, for --phones"
            elif apt-cache show "$pkg" >/dev/null 2>&1; then
                echo "$pkg: in the archive"; dpkg-query -W "$pkg"
            else
                echo "$pkg: not in the archive: from PyPI"
                /opt/wolfbox/.venv/bin/python -c "import lgpio, sys; print(\"lgpio\", lgpio.LGPIO_PY_VERSION, sys.prefix)"
            fi
        done'
}

unit_verifies() {
    # systemd-analyze checks the unit as written (its paths, its groups and
    # every setting), without starting it: no systemd runs in a chroot.
    inroot '
        unit=/etc/systemd/system/wolfbox.service
        grep "^SupplementaryGroups=" $unit
        for g in $(sed -n "s/^SupplementaryGroups=//p" $unit); do getent group "$g"; done
        id wolfbox
        test -L /etc/systemd/system/multi-user.target.wants/wolfbox.service
        systemd-analyze verify $unit 2>&1 | tee /tmp/verify.log
        ! grep -i "wolfbox" /tmp/verify.log
        cat /etc/udev/rules.d/60-wolfbox-gpio.rules
        udevadm test /sys/class/mem/null 2>&1 | grep -i -e "60-wolfbox" -e invalid -e error | tee /tmp/udev.log
        grep -q "60-wolfbox-gpio.rules" /tmp/udev.log && ! grep -qi -e invalid -e error /tmp/udev.log'
}

# The power button: logind asks polkit whether the wolfbox user may power
# off; the installer's rule says yes to it and to no one else. The subject is
# a process of that user, asked about by root: a process asking about itself
# reads its start time from qemu's stand-in for /proc/self/stat, which polkitd
# (reading the real one) takes for a replaced process.
power_off_allowed() {
    inroot '
        mkdir -p /run/dbus
        [ -s /etc/machine-id ] || dbus-uuidgen > /etc/machine-id    # mmdebstrap leaves it empty
        dbus=$(dbus-daemon --system --fork --nopidfile --print-pid)
        /usr/lib/polkit-1/polkitd --no-debug >/tmp/polkitd.log 2>&1 &
        polkitd=$!
        pids="$dbus $polkitd"
        trap "kill \$pids 2>/dev/null || true" EXIT
        for _ in $(seq 120); do
            dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.PolicyKit1 \
                2>/dev/null | grep -q "boolean true" && break
            sleep 0.5
        done
        may_power_off() {
            local uid pid
            uid=$(id -u "$1")
            setpriv --reuid="$1" --regid="$(id -g "$1")" --init-groups sleep 300 &
            pid=$!
            pids="$pids $pid"
            until grep -qE "^Uid:\s+$uid\s" /proc/$pid/status; do sleep 0.1; done  # its own yet?
            pkcheck --action-id org.freedesktop.login1.power-off --process $pid
        }
        if may_power_off wolfbox; then echo "wolfbox: may power off"; else exit 1; fi
        if may_power_off nobody; then echo "nobody may power off too"; exit 1; fi
        echo "nobody: refused"'
}

selftest() {
    inroot "$(printf '%q ' "${WOLFBOX[@]}") selftest --auto --config /etc/wolfbox/wolfbox.toml"
}

cli_tools() {
    local box
    box=$(printf '%q ' "${WOLFBOX[@]}")
    inroot "
        $box script | head -5
        $box voices
        $box script --mode newd3 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d))'
        echo '{\"players\": [{\"card\": \"werewolf\", \"vote\": 2}, {\"card\": \"villager\", \"vote\": 1},
               {\"card\": \"villager\", \"vote\": 1}]}' | $box referee | tee /tmp/referee.json
        python3 -c 'import json; d=json.load(open(\"/tmp/referee.json\")); assert d[\"dead\"] == [1], d'
        echo '{\"players\": [\"wolf\", \"alchemist\", \"seer\", \"guard\", \"sheep\", \"sheep\", \"sheep\",
               \"sheep\", \"sheep\"], \"dead\": [], \"actions\": {\"2\": 4, \"3\": 2, \"4\": 5},
               \"kill\": {\"target\": 5, \"knife\": 1}}' | $box resolve | tee /tmp/resolve.json
        python3 -c 'import json; d=json.load(open(\"/tmp/resolve.json\")); assert d[\"killed\"] == 5, d'"
}

test_suite() {
    inroot "
        cd /root/wolfbox
        python3 -m venv /root/test-venv
        export PIP_CERT=/etc/ssl/certs/ca-certificates.crt     # its own pip: no Debian patches
        # A download the network cut off (seen here: a reset, five retries in
        # a row) is tried again a while later, twice.
        for attempt in 1 2 3; do
            /root/test-venv/bin/python -m pip install --quiet --disable-pip-version-check \
                --retries 10 --constraint systemd/constraints.txt \
                -e . pytest hypothesis psutil pytest-xdist && break
            [ \$attempt = 3 ] && exit 1
            echo \"pip failed (attempt \$attempt of 3): again in 30 s\"; sleep 30
        done
        /root/test-venv/bin/python -m pytest -q -p no:cacheprovider -n 2 \
            -k '$SKIP_TESTS' ${TESTS[*]}"
}

summary() {
    local total=$(( $(date +%s) - START ))
    say ""
    say "pi-check: Debian 12 bookworm arm64 under qemu-user ($(uname -m) host)"
    say "  (a Cortex-A72 /proc/cpuinfo is mounted in: onnxruntime crashes on the host's under qemu)"
    step_results
    printf '  total %5s s (%d min)\n' "$total" $(( (total + 30) / 60 ))
}

mkdir -p "$DIR"
rm -rf "$LOGS"
mkdir -p "$LOGS"
trap unmount_all EXIT
say "pi-check: logs in ${LOGS#"$SOURCE"/}" >&2
if step "host tools (mmdebstrap, arch-test, qemu, binfmt)" host_tools &&
   step "arm64 system (mmdebstrap, or its cache)" build_image &&
   step "unpack it, copy the working tree in" unpack &&
   step "systemd/install.sh --no-prepare" install_box; then
    step "install.sh again changes nothing" install_again || true
    step "apt packages resolve, lgpio from PyPI" packages_resolve || true
    step "unit: systemd-analyze verify, groups, udev" unit_verifies || true
    step "polkit lets wolfbox power off" power_off_allowed || true
    step "wolfbox selftest --auto" selftest || true
    step "script, voices, referee, resolve" cli_tools || true
    step "tests under emulation" test_suite || true
fi
summary
if [ -n "$FAILED" ]; then
    say "pi-check: FAILED: $FAILED" >&2
    exit 1
fi
say "pi-check: every step passed"
