# shellcheck shell=bash
# The host-side helpers of image/build.sh (make image), image/boot-check.sh
# (make boot-check) and systemd/pi-check.sh (make pi-check), written once and
# sourced by all three, as pi-gen's stages share its scripts/common. Sourced,
# never run; each script finds it from its checkout ($SOURCE/image/lib), so
# make image's copy of build.sh (build/image/build.run.sh) finds it too.
#
# What the sourcing script sets, and which helpers read it:
#   WHO         the word its messages start with (image, boot-check, pi-check)
#   HOST_NEEDS  host_missing, host_needs: "thing package" lines, a thing being
#               a command, or a file when it starts with /
#   DIR         unmount_all, mount_system, mount_pip_cache: its build folder
#   ROOTFS      inroot, mount_system, mount_pip_cache, copy_host_network,
#               copy_worktree: the arm64 system's root
#   INROOT_ENV  inroot: variables beside HOME, LANG, TERM and PATH (an array)
#   SOURCE      step, copy_worktree: the checkout
#   LOGS, STEP_WIDTH, and the arrays NAMES, RESULTS, TIMES and the string
#   FAILED (declared empty): step

: "${WHO:?set WHO (the word messages start with) before sourcing image/lib/common.sh}"

say() { printf '%s\n' "$*"; }
fail() { say "$WHO: $*" >&2; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

# Stop with MESSAGE unless run as root.
need_root() { is_root || fail "$1"; }

# Stop unless apt-get is here to bring the host's tools.
need_apt() { command -v apt-get >/dev/null || fail "needs a Debian or Ubuntu host (apt-get)"; }

# The things of HOST_NEEDS not on this host, as their packages.
host_missing() {
    local need what pkg
    for need in "${HOST_NEEDS[@]}"; do
        read -r what pkg <<< "$need"
        if [ "${what#/}" != "$what" ]; then
            [ -e "$what" ] || printf '%s %s\n' "$what" "$pkg"
        else
            command -v "$what" >/dev/null || printf '%s %s\n' "$what" "$pkg"
        fi
    done
}

# HOST_NEEDS on this host: with `install`, what is missing is installed
# first (apt-get, its Debian packages); then each thing still missing is
# named on stderr, and the status is 1. Run outside a condition, under
# set -e, a failed apt-get stops the script.
host_needs() {
    local missing pkgs
    missing=$(host_missing)
    if [ -n "$missing" ] && [ "${1:-}" = install ]; then
        pkgs=$(awk '{ print $2 }' <<< "$missing" | sort -u | tr '\n' ' ')
        say "installing: $pkgs"
        apt-get update -q
        # shellcheck disable=SC2086  # one word a package
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs
        missing=$(host_missing)
    fi
    if [ -n "$missing" ]; then
        while read -r what pkg; do
            say "$WHO: missing on the host: $what (Debian package $pkg)" >&2
        done <<< "$missing"
        return 1
    fi
}

# The kernel told to run arm64 programs through qemu-user (binfmt_misc),
# as binfmt-support registers it.
binfmt_arm64() {
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        update-binfmts --enable qemu-aarch64 || update-binfmts --import qemu-aarch64
    fi
}

# Everything mounted under $DIR, deepest first.
unmount_all() {
    local mounts
    mounts=$(awk -v d="$DIR/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r)
    [ -z "$mounts" ] || printf '%s\n' "$mounts" | xargs -r -n1 umount -l 2>/dev/null || true
}

# Run one step, its output in a log; record pass or fail and its time.
step() {
    local name=$1 log t0 rc=0
    shift
    log=$LOGS/$(printf '%02d' "${#NAMES[@]}")-${name//[^a-zA-Z0-9]/-}.log
    t0=$(date +%s)
    printf '%-*s' "$STEP_WIDTH" "$name" >&2
    "$@" >"$log" 2>&1 || rc=$?
    NAMES+=("$name")
    TIMES+=("$(( $(date +%s) - t0 ))")
    if [ "$rc" = 0 ]; then
        RESULTS+=(pass)
    else
        RESULTS+=(FAIL)
        tail -n 15 "$log" | sed 's/^/    | /' >&2
        FAILED=${FAILED:-"$name failed (exit $rc; its log: ${log#"$SOURCE"/})"}
    fi
    say "${RESULTS[-1]} (${TIMES[-1]} s)" >&2
    return "$rc"
}

# One line a step: its result, its time, its name (for the summary).
step_results() {
    local i
    for i in "${!NAMES[@]}"; do
        printf '  %-4s %6s s  %s\n' "${RESULTS[$i]}" "${TIMES[$i]}" "${NAMES[$i]}"
    done
}

# A shell command inside the arm64 system, with a clean environment.
inroot() {
    chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        "${INROOT_ENV[@]}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -euo pipefail -c "$1"
}

# A Raspberry Pi 4's four Cortex-A72 cores. Under qemu-user the emulated
# system reads the x86 host's /proc/cpuinfo, and onnxruntime (its cpuinfo
# library) crashes on it at import: an artifact of the emulation, not of a Pi.
CPUINFO_CORE='BogoMIPS	: 108.00
Features	: fp asimd evtstrm crc32 cpuid
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x0
CPU part	: 0xd08
CPU revision	: 3'

# What a system run in a chroot needs mounted: /proc (with a Pi 4's
# cpuinfo), /dev, /sys, and /run and /tmp empty (no systemd, no udev runs).
mount_system() {
    local n
    for n in 0 1 2 3; do printf 'processor\t: %s\n%s\n\n' "$n" "$CPUINFO_CORE"; done > "$DIR/cpuinfo"
    mount -t proc proc "$ROOTFS/proc"
    mount --bind "$DIR/cpuinfo" "$ROOTFS/proc/cpuinfo"
    mount --rbind /dev "$ROOTFS/dev"
    mount --make-rslave "$ROOTFS/dev"
    mount --bind /sys "$ROOTFS/sys"
    mount -t tmpfs tmpfs "$ROOTFS/run"
    mount -t tmpfs tmpfs "$ROOTFS/tmp"
}

# pip's downloads kept in $DIR/cache/pip from one run to the next.
mount_pip_cache() {
    mkdir -p "$DIR/cache/pip" "$ROOTFS/root/.cache/pip"
    mount --bind "$DIR/cache/pip" "$ROOTFS/root/.cache/pip"
}

# The host's name servers, and its own certificate authorities (a proxy
# that re-signs TLS needs them), so apt and pip inside trust what the host
# trusts.
copy_host_network() {
    cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
    local ca
    for ca in /usr/local/share/ca-certificates/*.crt; do
        [ -f "$ca" ] || continue
        install -D -m 0644 "$ca" "$ROOTFS/usr/local/share/ca-certificates/${ca##*/}"
        cat "$ca" >> "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
    done
}

# The working tree as git sees it (tracked and new files, nothing ignored)
# into the folder $1.
copy_worktree() {
    git -C "$SOURCE" ls-files -z --cached --others --exclude-standard \
        | (cd "$SOURCE" && xargs -0 tar -cf - --ignore-failed-read) \
        | tar -C "$1" -xf -
}
