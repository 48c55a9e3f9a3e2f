#!/usr/bin/env bash
# The box as it ships, booted: the SD-card image's own kernel, initrd and
# root file system (build/image/wolfbox.img, from make image) under
# qemu-system-aarch64 -M virt (TCG), played through its screen, keyboard,
# sound card and power, and checked (image/twin.py).
#
#   make boot-check            (this script; an x86_64 Debian host; root only
#                               to install missing host tools)
#   image/boot-check.sh --prepare-only   make the twin's disk and stop
#   image/boot-check.sh --memory=512 --only=h   one run: its memory, its checks
#
# Two runs, each on a fresh copy: 1 GB (checks a, b, c, f, g, w, r, d, e), then
# 512 MB, a Pi Zero 2 W (a, h).
#
# The image is never changed: the twin boots a copy (build/boot-check/
# twin.img), into which goes the twin-only overlay, image/twin/root (a root
# shell on the virtio console, for the checks to read systemd and the
# journal); the box's GPIO settings for checks d and e (image/twin/gpio.toml)
# are written by that shell when those checks begin. What the Pi's firmware does the twin cannot: it reads the kernel
# and initramfs config.txt names and cmdline.txt from the copy's FAT
# partition and boots them with qemu's own device tree, adding
# console=ttyAMA0 (virt's serial port; the Pi's is ttyS1).
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE=${WOLFBOX_IMAGE:-$SOURCE/build/image/wolfbox.img}
WORK=${WOLFBOX_TWIN_DIR:-$SOURCE/build/boot-check}
TWIN=$SOURCE/image/twin
PYTHON=$SOURCE/.venv/bin/python
DISK=$WORK/twin.img
WHO="boot-check"
# The host helpers make image and make pi-check share (say, fail, host_needs...).
# shellcheck source=lib/common.sh
. "$SOURCE/image/lib/common.sh"

PREPARE_ONLY=0
MEMORY=""
ONLY=b,c,f,g,w,r,d,e,h
for arg in "$@"; do
    case $arg in
        --prepare-only) PREPARE_ONLY=1 ;;
        --memory=*) MEMORY=${arg#--memory=}
            case $MEMORY in ''|*[!0-9]*) fail "--memory=$MEMORY: a number of megabytes" ;; esac ;;
        --only=*) ONLY=${arg#--only=}
            case $ONLY in ''|*[!a-hrw,]*) fail "--only=$ONLY: checks among b,c,f,g,w,r,d,e,h" ;; esac ;;
        *) fail "unknown argument '$arg' (--prepare-only, --memory=MB, --only=b,c,f,g,w,r,d,e,h)" ;;
    esac
done
# --only alone: one run at 1 GB (h is the 512 MB run's, and fits either).
if [ "$ONLY" != b,c,f,g,w,r,d,e,h ] && [ -z "$MEMORY" ]; then
    MEMORY=1024
fi

# Each host tool with the Debian package that brings it (efi-virtio.rom: a
# -device virtio-*-pci stops without it).
HOST_NEEDS=(
    "mcopy mtools"
    "debugfs e2fsprogs"
    "sfdisk fdisk"
)
[ "$PREPARE_ONLY" = 1 ] || HOST_NEEDS+=(
    "qemu-system-aarch64 qemu-system-arm"
    "/usr/lib/ipxe/qemu/efi-virtio.rom ipxe-qemu"
    "fdtput device-tree-compiler"
    "zbarimg zbar-tools"
    "chromium chromium"
)

# Root only to install what is missing: anyone may run the twin.
host_tools() {
    local how=report
    if is_root && command -v apt-get >/dev/null; then how=install; fi
    host_needs "$how"                      # status 1 stops the script (set -e), as a failed apt-get does
    [ "$PREPARE_ONLY" = 1 ] || [ -x "$PYTHON" ] \
        || fail "no $SOURCE/.venv: run make install (the checks compare screens with it)"
}

# The start of partition N of a disk image, in bytes (sfdisk's dump).
part_offset() {
    sfdisk -d "$1" | awk -v n="$2" -F'[ ,=]+' '
        $1 ~ ("[^0-9]" n "$") { for (i = 2; i <= NF; i++) if ($i == "start") { print $(i + 1) * 512; exit } }'
}

# The twin-only overlay into the copy's root (ext4, written with debugfs
# without mounting it): image/twin/root's files, root's, and each unit in
# it enabled as its [Install] says (WantedBy=multi-user.target).
twin_overlay() {
    local root=$1 script=$WORK/overlay.debugfs path dir unit
    : > "$script"
    while IFS= read -r dir; do
        printf 'mkdir %s\n' "$dir" >> "$script"
    done < <(cd "$TWIN/root" && find . -mindepth 1 -type d | sed 's|^\.||' | LC_ALL=C sort)
    while IFS= read -r path; do
        printf 'rm %s\nwrite %s %s\nsif %s mode 0100644\nsif %s uid 0\nsif %s gid 0\n' \
            "$path" "$TWIN/root$path" "$path" "$path" "$path" "$path" >> "$script"
    done < <(cd "$TWIN/root" && find . -type f | sed 's|^\.||' | LC_ALL=C sort)
    while IFS= read -r unit; do
        printf 'rm /etc/systemd/system/multi-user.target.wants/%s\n' "$unit" >> "$script"
        printf 'symlink /etc/systemd/system/multi-user.target.wants/%s /etc/systemd/system/%s\n' \
            "$unit" "$unit" >> "$script"
    done < <(cd "$TWIN/root/etc/systemd/system" && grep -l '^WantedBy=multi-user.target' ./*.service \
             | sed 's|^\./||')
    # debugfs says so for each directory that exists and file not there yet.
    debugfs -w -f "$script" "$root" >"$WORK/overlay.log" 2>&1
    debugfs -R "ls -l /etc/systemd/system/multi-user.target.wants" "$root" 2>/dev/null \
        | grep -q wolfbox-twin-shell || fail "the twin's overlay did not go in (see $WORK/overlay.log)"
}

prepare() {
    [ -f "$IMAGE" ] || fail "no image at $IMAGE: run make image first"
    rm -rf "$WORK"
    mkdir -p "$WORK"
    cp --sparse=always "$IMAGE" "$DISK"
    local boot root
    boot=$(part_offset "$DISK" 1)
    root=$(part_offset "$DISK" 2)
    if [ -z "$boot" ] || [ -z "$root" ]; then fail "$IMAGE has no boot and root partition"; fi
    local name kernel initrd
    for name in config.txt cmdline.txt wolfbox.toml; do
        mcopy -n -i "$DISK@@$boot" "::/$name" "$WORK/$name" \
            || fail "the image's boot partition has no $name"
    done
    # The kernel and initramfs config.txt names, as the Pi's firmware reads
    # them (raspi-firmware writes kernel=vmlinuz-VERSION, initramfs NAME).
    kernel=$(sed -n 's/^kernel=[[:space:]]*//p' "$WORK/config.txt" | head -n 1 | tr -d '\r')
    initrd=$(awk '$1 == "initramfs" { print $2; exit }' "$WORK/config.txt" | tr -d '\r')
    if [ -z "$kernel" ] || [ -z "$initrd" ]; then
        fail "the image's config.txt names no kernel= or no initramfs"
    fi
    mcopy -n -i "$DISK@@$boot" "::/$kernel" "$WORK/vmlinuz" || fail "no $kernel on the boot partition"
    mcopy -n -i "$DISK@@$boot" "::/$initrd" "$WORK/initrd.img" || fail "no $initrd on the boot partition"
    twin_overlay "$DISK?offset=$root"
    # The Pi's command line, and virt's serial port as the console.
    CMDLINE="$(tr -s ' \n' ' ' < "$WORK/cmdline.txt" | sed 's/^ *//; s/ *$//') console=ttyAMA0,115200"
    printf '%s\n' "$CMDLINE" > "$WORK/cmdline.twin"
    say "boot-check: the twin's disk $DISK (root at byte $root), command line: $CMDLINE"
}

# One run of the twin on a fresh copy: its memory, its checks after a.
twin_run() {
    prepare
    "$PYTHON" "$SOURCE/image/twin.py" --work "$WORK" --kernel "$WORK/vmlinuz" \
        --initrd "$WORK/initrd.img" --disk "$DISK" --cmdline "$CMDLINE" \
        --config "$WORK/wolfbox.toml" --wolfbox "$SOURCE/.venv/bin/wolfbox" \
        --memory "$1" --only "$2"
}

host_tools
if [ "$PREPARE_ONLY" = 1 ]; then
    prepare
    exit 0
fi
if [ -n "$MEMORY" ]; then
    twin_run "$MEMORY" "$ONLY"
    exit
fi
rc=0
twin_run 1024 b,c,f,g,w,r,d,e || rc=$?
mv "$WORK" "$WORK-1024"
twin_run 512 h || rc=$?
say "boot-check: the 1 GB run's files in ${WORK#"$SOURCE"/}-1024, the 512 MB run's in ${WORK#"$SOURCE"/}"
exit "$rc"
