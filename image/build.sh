#!/usr/bin/env bash
# The steps hand shell code to the arm64 system in single quotes, on purpose.
# shellcheck disable=SC2016
#
# The box as it ships: a bootable 64-bit SD-card image for the Raspberry Pi
# 3, 4 and Zero 2 W, built on an x86_64 Debian host from Debian's own arm64
# packages (linux-image-arm64 and raspi-firmware, as Debian's Raspberry Pi
# images are built; Raspberry Pi's own archive is not used).
#
#   sudo make image            (this script; root, an x86_64 Debian host)
#   sudo make image-clean      remove build/image but its cache/
#   image/build.sh --plan      print the partition table and the boot
#                              partition's files, build nothing (any user)
#
# Out: build/image/wolfbox.img, wolfbox.img.xz and wolfbox.img.xz.sha256
# (`sha256sum -c` checks it, as a release's own .sha256).
#
# Steps: an arm64 Debian 12 system with mmdebstrap (cached by its package
# list), the real systemd/install.sh run inside it under qemu-user (as
# `make pi-check` does), every line of the voice rendered natively on this
# host into the image's cache folder (the cache is keyed by voice and text,
# the same on every machine) and then checked by the box's own
# `wolfbox prepare --check` under emulation, the first-boot overlay, then a
# FAT boot partition and an ext4 root packed into build/image/wolfbox.img
# and wolfbox.img.xz. SOURCE_DATE_EPOCH is the commit's time.
set -euo pipefail

# WOLFBOX_SOURCE: the checkout, when this script is run from a copy (make image
# does, so editing the recipe mid-build cannot change the running build).
SOURCE=${WOLFBOX_SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
HERE=$SOURCE/image
DIR=${WOLFBOX_IMAGE_DIR:-$SOURCE/build/image}
ROOTFS=$DIR/rootfs
LOGS=$DIR/logs
MIRROR=${IMAGE_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
OUT=$DIR/wolfbox.img

WHO=image
STEP_WIDTH=48
# The host helpers make pi-check and make boot-check share (say, fail,
# host_needs, step, inroot...), from the checkout even when this is a copy.
# shellcheck source=lib/common.sh
. "$SOURCE/image/lib/common.sh"

# The partition table (MBR: a Pi 3 boots no GPT), in MiB. The root partition
# is the root file system's size plus ROOT_SPARE; it grows to the card on the
# first boot. Fixed ids and labels: fstab and cmdline.txt name the labels,
# and two builds give the same table.
BOOT_START=4
BOOT_SIZE=256
ROOT_SPARE=${IMAGE_ROOT_SPARE:-256}
DISK_ID=0x77b0b0c5
BOOT_LABEL=WOLFBOOT
BOOT_VOLID=77B0B0C5
ROOT_LABEL=WOLFROOT
ROOT_UUID=77b0b0c5-0b0c-4c5e-9f00-000000000002
HASH_SEED=77b0b0c5-0b0c-4c5e-9f00-000000000003

# The image's Debian packages beyond the installer's own list (which
# `install.sh --list-packages` gives, so the installer finds them installed):
# the kernel and the Pi's boot firmware, Wi-Fi firmware for the Pi 3, 4 and
# Zero 2 W, NetworkManager, the clock (no RTC on a Pi), ssh (off unless the
# boot partition asks for it), growing the root partition, mDNS for phones
# (wolfbox.local), gpiod for reading the pins, iw for the radio (what a Wi-Fi
# card can do; the twin's Wi-Fi check moves a simulated phone radio with it). (Mesa's DRI drivers, which
# SDL's KMSDRM needs, vc4 and v3d on a Pi and kms_swrast on the twin's
# virtio-gpu, are in the installer's list.)
PACKAGES=(linux-image-arm64 raspi-firmware firmware-brcm80211 wireless-regdb
          initramfs-tools systemd-sysv systemd-timesyncd udev kmod
          network-manager wpasupplicant openssh-server avahi-daemon libnss-mdns
          cloud-guest-utils fdisk e2fsprogs dosfstools ca-certificates
          iproute2 iw alsa-utils gpiod python3-minimal
          device-tree-compiler)  # fdtput: the trees' labels for dtoverlay= (z51-wolfbox-dtb-symbols)

# The box's settings, also on the boot partition, where the user edits them
# (a copy of the installed /etc/wolfbox/wolfbox.toml).
BOOT_SETTINGS=wolfbox.toml

# The boot partition's files the builder adds beside raspi-firmware's.
boot_extras() {
    { (cd "$HERE/boot" && find . -type f | sed 's|^\./||'); echo "$BOOT_SETTINGS"; } | LC_ALL=C sort
}

# The partition table as sfdisk reads it (the root partition takes the rest
# of the image, and of the card once grown).
partition_table() {
    cat <<EOF
label: dos
label-id: $DISK_ID
unit: sectors

start=$(( BOOT_START * 2048 )), size=$(( BOOT_SIZE * 2048 )), type=c, bootable
start=$(( (BOOT_START + BOOT_SIZE) * 2048 )), type=83
EOF
}

plan() {
    say "partition table (sfdisk; MBR: a Pi 3 boots no GPT):"
    partition_table | sed 's/^/  /'
    say "partition 1: FAT32 label $BOOT_LABEL; partition 2: ext4 label $ROOT_LABEL, root + ${ROOT_SPARE} MiB, grown on first boot"
    say "boot partition: raspi-firmware's files (bootcode.bin start*.elf fixup*.dat), vmlinuz-VERSION and initrd.img-VERSION (config.txt names them), bcm27*/bcm28*.dtb, config.txt, cmdline.txt, overlays/ (image/overlays: $(cd "$HERE/overlays" && printf '%s\n' *.dts | sed 's/\.dts$/.dtbo/' | paste -sd' ')), and:"
    boot_extras | sed 's/^/  /'
    say "($BOOT_SETTINGS: a copy of the installed /etc/wolfbox/$BOOT_SETTINGS; the user may add hostname.txt, ssh, authorized_keys, wpa_supplicant.conf, custom.toml)"
    say "root overlay:"
    (cd "$HERE/overlay" && find . -type f | sed 's|^\.||' | LC_ALL=C sort | sed 's/^/  /')
    say "packages: ${PACKAGES[*]} + $(bash "$SOURCE/systemd/install.sh" --list-packages \
        | awk '$1 == "apt" || $1 == "apt-phones" { printf "%s ", $2 }')"
}

case ${1:-} in
    --plan) plan; exit 0 ;;
    clean)
        need_root "run it as root (sudo make image-clean)"
        unmount_all
        # Kept: cache/ (the rendered voice and pip's wheels, named by what
        # they hold, never stale).
        [ ! -d "$DIR" ] || find "$DIR" -mindepth 1 -maxdepth 1 ! -name cache -exec rm -rf --one-file-system {} +
        say "image: removed $DIR but its cache/ (the voice's lines, pip's wheels)"
        exit 0 ;;
    "") ;;
    *) fail "unknown argument '$1' (none, --plan or clean)" ;;
esac

need_root "run it as root: it installs mmdebstrap and qemu, chroots and packs an image (sudo make image)"
need_apt

if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
    SOURCE_DATE_EPOCH=$(git -C "$SOURCE" log -1 --format=%ct)
    COMMIT=$(git -C "$SOURCE" describe --always --dirty)
else
    SOURCE_DATE_EPOCH=$(date +%s)
    COMMIT=unknown
fi
export SOURCE_DATE_EPOCH
INROOT_ENV=(SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH")

NAMES=()
RESULTS=()
TIMES=()
FAILED=""
START=$(date +%s)

# As pi-check: each host tool named with the Debian package that brings it.
HOST_NEEDS=(
    "mmdebstrap mmdebstrap"
    "arch-test arch-test"
    "/usr/bin/qemu-aarch64-static qemu-user-static"
    "update-binfmts binfmt-support"
    "/usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring"
    "chroot coreutils"
    "mount mount"
    "sfdisk fdisk"
    "mkfs.vfat dosfstools"
    "mcopy mtools"
    "mke2fs e2fsprogs"
    "faketime faketime"
    "xz xz-utils"
    "dtc device-tree-compiler"
)

host_tools() {
    host_needs install || return 1
    binfmt_arm64
    arch-test arm64 || { say "image: arch-test says this host cannot run arm64 programs" >&2; return 1; }
}

all_packages() {
    printf '%s\n' "${PACKAGES[@]}"
    bash "$SOURCE/systemd/install.sh" --list-packages \
        | awk '$1 == "apt" || $1 == "apt-phones" { print $2 }'
}

# update-initramfs held while the system is built: the kernel's postinst,
# firmware-brcm80211's and udev's triggers and install.sh's packages would
# each build an initramfs (each run took minutes under qemu-user), all but
# the last one thrown away. A stub stands in for it (dpkg-divert, so dpkg
# installs the real one beside it); step initramfs puts the real one back
# and runs it once, on the finished system.
HOLD_INITRAMFS='chroot "$1" dpkg-divert --local --rename --divert /usr/sbin/update-initramfs.held --add /usr/sbin/update-initramfs
printf "#!/bin/sh\n# Held by image/build.sh: run once when the image is built.\nexit 0\n" > "$1/usr/sbin/update-initramfs"
chmod 0755 "$1/usr/sbin/update-initramfs"'

BASE=""
base_system() {
    local list
    list=$(all_packages | LC_ALL=C sort -u | paste -sd, -)
    BASE=$DIR/base-$SUITE-$(printf '%s\n%s' "$list" "$HOLD_INITRAMFS" | sha256sum | cut -c1-12).tar
    if [ -f "$BASE" ]; then
        say "cached: $BASE"
        return
    fi
    # /boot/firmware exists before raspi-firmware's kernel hook runs; the
    # hook writes config.txt and cmdline.txt from /etc/default/raspi-firmware,
    # which the first-boot overlay's settings replace once all is installed.
    mmdebstrap --arch=arm64 --variant=minbase --components=main,non-free-firmware \
        --include="$list" \
        --setup-hook='mkdir -p "$1/boot/firmware"' \
        --essential-hook="$HOLD_INITRAMFS" \
        --aptopt='Acquire::Retries "5"' \
        "$SUITE" "$DIR/base.tmp.tar" "$MIRROR"
    mv "$DIR/base.tmp.tar" "$BASE"
}

unpack() {
    unmount_all
    rm -rf --one-file-system "$ROOTFS"
    mkdir -p "$ROOTFS"
    tar -C "$ROOTFS" --numeric-owner -xf "$BASE"
    mount_system
    mount_pip_cache
    copy_host_network
    # The working tree as git sees it, as pi-check copies it.
    mkdir -p "$ROOTFS/root/wolfbox"
    copy_worktree "$ROOTFS/root/wolfbox"
    inroot 'uname -m; dpkg-query -W linux-image-arm64 raspi-firmware; ls /boot /boot/firmware'
}

install_box() {
    # The voice is rendered on this host next (step voice), not on the box.
    # With --phones: phones are off until the settings say so, but a box on
    # its card cannot run the installer again to let them in (the sandbox's
    # network, the own Wi-Fi's unit, captive portal and polkit rule).
    inroot 'bash /root/wolfbox/systemd/install.sh --no-prepare --phones'
}

# The one initramfs run (update-initramfs was held while packages were
# installed, see HOLD_INITRAMFS): the real update-initramfs back in place,
# with MODULES=list and the image's own hook (image/overlay/etc/
# initramfs-tools), which name the modules that find and mount the root on a
# Pi's SD card and on the twin's virtio disk. MODULES=most copies some
# thousands of modules, a process or more each under qemu-user.
initramfs() {
    cp -a "$HERE/overlay/etc/initramfs-tools/." "$ROOTFS/etc/initramfs-tools/"
    chmod 0755 "$ROOTFS/etc/initramfs-tools/hooks/wolfbox-image"
    inroot '
        rm -f /usr/sbin/update-initramfs
        dpkg-divert --local --rename --divert /usr/sbin/update-initramfs.held --remove /usr/sbin/update-initramfs
        version=$(linux-version list | linux-version sort | tail -n 1)
        start=$(date +%s)
        update-initramfs -c -k "$version"
        echo "update-initramfs: $(( $(date +%s) - start )) s"
        ls -l "/boot/initrd.img-$version"
        echo "modules: $(lsinitramfs "/boot/initrd.img-$version" | grep -c "\.ko")"
        lsinitramfs "/boot/initrd.img-$version" | grep "\.ko" | sed "s|.*/||" | sort | paste -sd" "'
}

# Every line of the voice, rendered here with the host's venv into the
# image's cache folder, for the config the image ships. The key is the
# voice's identity and the text (audio/cache.py), not the machine. Lines
# rendered by an earlier build (build/image/cache/voice) are reused.
render_voice() {
    local home seed=$DIR/cache/voice
    mkdir -p "$seed" "$ROOTFS/var/cache/wolfbox"
    cp -a "$seed/." "$ROOTFS/var/cache/wolfbox/"
    [ -x "$SOURCE/.venv/bin/wolfbox" ] || { say "image: no $SOURCE/.venv: run make install (the voice is rendered with it)"; return 1; }
    home=$(mktemp -d)
    env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 \
        CACHE_DIRECTORY="$ROOTFS/var/cache/wolfbox" WOLFBOX_VOICES="$ROOTFS/var/lib/wolfbox/voices" \
        SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
        "$SOURCE/.venv/bin/wolfbox" prepare --config "$ROOTFS/etc/wolfbox/wolfbox.toml"
    rm -rf "$home"
    cp -a "$ROOTFS/var/cache/wolfbox/." "$seed/"
    inroot 'chown -R wolfbox:wolfbox /var/cache/wolfbox; du -sh /var/cache/wolfbox'
}

# The box itself, under emulation, finds every line cached: the proof that
# the host's keys are the box's.
voice_checked() {
    inroot 'runuser -u wolfbox -- env CACHE_DIRECTORY=/var/cache/wolfbox STATE_DIRECTORY=/var/lib/wolfbox \
        HOME=/var/lib/wolfbox WOLFBOX_VOICES=/var/lib/wolfbox/voices SDL_VIDEODRIVER=dummy \
        SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
        /opt/wolfbox/.venv/bin/wolfbox prepare --check --config /etc/wolfbox/wolfbox.toml'
}

overlay() {
    cp -a "$HERE/overlay/." "$ROOTFS/"
    chmod 0755 "$ROOTFS/usr/local/lib/wolfbox-image/"*
    inroot '
        systemctl enable wolfbox-bootfiles.service wolfbox-grow-root.service \
            NetworkManager.service systemd-timesyncd.service avahi-daemon.service
        systemctl disable ssh.service ssh.socket 2>/dev/null || systemctl disable ssh.service
        rm -f /etc/ssh/ssh_host_*                  # made on the box when ssh is asked for
        printf "wolfbox\n" > /etc/hostname
        printf "127.0.0.1\tlocalhost\n127.0.1.1\twolfbox\n::1\tlocalhost ip6-localhost ip6-loopback\n" > /etc/hosts
        sed -i "s/^#\?ROOTPART=.*/ROOTPART=\"LABEL='"$ROOT_LABEL"'\"/; s/^#\?CONSOLES=.*/CONSOLES=\"ttyS1,115200 tty0\"/" \
            /etc/default/raspi-firmware
        grep -E "^(ROOTPART|CONSOLES)=" /etc/default/raspi-firmware
        # config.txt and cmdline.txt written again from these settings.
        DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
        /etc/kernel/postinst.d/z51-wolfbox-dtb-symbols
        cat /boot/firmware/config.txt | grep -v "^#" | grep . ; cat /boot/firmware/cmdline.txt'
    cp -a "$HERE/boot/." "$ROOTFS/boot/firmware/"
    # The SPI screen's and the I²S amplifier's overlays (dtoverlays.py adds
    # their lines when wolfbox.toml names those parts).
    bash "$HERE/overlays/build.sh" "$ROOTFS/boot/firmware/overlays"
    # The settings the box ships with, on the card where the user edits them;
    # marked applied, so the first boot keeps /etc's copy as it is.
    cp "$ROOTFS/etc/wolfbox/wolfbox.toml" "$ROOTFS/boot/firmware/$BOOT_SETTINGS"
    install -d "$ROOTFS/var/lib/wolfbox-image"
    sha256sum < "$ROOTFS/boot/firmware/$BOOT_SETTINGS" | cut -d' ' -f1 \
        > "$ROOTFS/var/lib/wolfbox-image/wolfbox.toml.applied"
    # What a build leaves behind that a card must not hold.
    inroot '
        rm -rf /root/wolfbox /root/.cache /var/lib/apt/lists/* /var/cache/apt/*.bin \
            /var/cache/apt/archives/*.deb /var/log/*.log /var/log/apt/* /etc/resolv.conf
        : > /etc/machine-id                         # systemd makes one at first boot
        rm -f /var/lib/dbus/machine-id /etc/ssl/certs/*.pem.tmp
        ln -sf ../run/NetworkManager/resolv.conf /etc/resolv.conf'
    printf '%s\n' "$COMMIT" > "$ROOTFS/etc/wolfbox-image"
}

# Partitions as files: the FAT with mtools, the ext4 with mke2fs -d (no
# loop devices), then both written into the disk image at their offsets.
pack() {
    unmount_all
    local used root_mib boot_img=$DIR/boot.img root_img=$DIR/root.img
    rm -f "$OUT" "$OUT.xz" "$OUT.xz.sha256" "$boot_img" "$root_img"
    # Nothing newer than the commit (install.sh's files, the rendered voice):
    # the same times in two builds. Python's .pyc are hash-checked (pip and
    # py3compile ran with SOURCE_DATE_EPOCH set), so they stay valid.
    find "$ROOTFS" -xdev -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    used=$(du -s --block-size=1M --exclude="$ROOTFS/boot/firmware" "$ROOTFS" | cut -f1)
    root_mib=$(( used + used / 10 + ROOT_SPARE ))
    say "root file system: $used MiB used; partition $root_mib MiB"
    # --invariant: the volume label's time is not the build's (then -i: ours).
    mkfs.vfat --invariant -F 32 -n "$BOOT_LABEL" -i "$BOOT_VOLID" -C "$boot_img" $(( BOOT_SIZE * 1024 ))
    # In one order, their times kept (mtools stamps what it is not given).
    local files=() file
    while IFS= read -r -d '' file; do files+=("$file"); done \
        < <(cd "$ROOTFS/boot/firmware" && find . -mindepth 1 -maxdepth 1 -print0 | LC_ALL=C sort -z)
    (cd "$ROOTFS/boot/firmware" && mcopy -s -m -p -i "$boot_img" "${files[@]}" ::/)
    mdir -/ -i "$boot_img" ::/ | head -60
    local fw
    fw=$(mktemp -d)
    mv "$ROOTFS/boot/firmware" "$fw/firmware"
    mkdir "$ROOTFS/boot/firmware"
    touch -h -d "@$SOURCE_DATE_EPOCH" "$ROOTFS/boot/firmware" "$ROOTFS/boot"
    E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH mke2fs -q -t ext4 -L "$ROOT_LABEL" -U "$ROOT_UUID" -E "root_owner=0:0,hash_seed=$HASH_SEED" \
        -d "$ROOTFS" "$root_img" "${root_mib}M"
    # mke2fs -d keeps each file's atime and ctime as the build left them:
    # both set to SOURCE_DATE_EPOCH (image/epoch_times.py says why).
    python3 "$HERE/epoch_times.py" "$ROOTFS" "$SOURCE_DATE_EPOCH" > "$DIR/epoch-times.debugfs"
    # debugfs stamps the superblock's write time with the clock (it reads
    # no E2FSPROGS_FAKE_TIME): the clock stopped at the commit's time.
    TZ=UTC faketime "$(date -u -d "@$SOURCE_DATE_EPOCH" '+%Y-%m-%d %H:%M:%S')" \
        debugfs -w -f "$DIR/epoch-times.debugfs" "$root_img" > "$LOGS/epoch-times.log" 2>&1
    rmdir "$ROOTFS/boot/firmware"
    mv "$fw/firmware" "$ROOTFS/boot/firmware"
    rmdir "$fw"
    e2fsck -fn "$root_img"
    truncate -s $(( (BOOT_START + BOOT_SIZE + root_mib) * 1024 * 1024 )) "$OUT"
    partition_table | sfdisk --no-reread "$OUT"
    dd if="$boot_img" of="$OUT" bs=1M seek="$BOOT_START" conv=notrunc,fsync status=none
    dd if="$root_img" of="$OUT" bs=1M seek=$(( BOOT_START + BOOT_SIZE )) conv=notrunc,fsync status=none
    rm -f "$boot_img" "$root_img"
    sfdisk -d "$OUT"
    touch -d "@$SOURCE_DATE_EPOCH" "$OUT"
}

compress() {
    xz -T2 -6 -k -f "$OUT"
    ls -l "$OUT" "$OUT.xz"
    sha256sum "$OUT" "$OUT.xz" | tee "$DIR/SHA256SUMS"
    # Beside the image, as a release's: `sha256sum -c wolfbox.img.xz.sha256`.
    (cd "$(dirname "$OUT")" && sha256sum "$(basename "$OUT").xz" > "$(basename "$OUT").xz.sha256")
}

summary() {
    local total=$(( $(date +%s) - START ))
    say ""
    say "image: Debian 12 $SUITE arm64 for Raspberry Pi 3, 4, Zero 2 W (commit $COMMIT, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH)"
    step_results
    if [ -f "$OUT.xz" ]; then
        printf '  size: %s MiB raw, %s MiB xz\n' $(( $(stat -c %s "$OUT") / 1048576 )) \
            $(( $(stat -c %s "$OUT.xz") / 1048576 ))
    fi
    printf '  total %5s s (%d min)\n' "$total" $(( (total + 30) / 60 ))
}

mkdir -p "$DIR"
rm -rf "$LOGS"
mkdir -p "$LOGS"
trap unmount_all EXIT
say "image: logs in ${LOGS#"$SOURCE"/}" >&2
if step "host tools (mmdebstrap, arch-test, qemu, mtools)" host_tools &&
   step "arm64 system (mmdebstrap, or its cache)" base_system &&
   step "unpack it, copy the working tree in" unpack &&
   step "systemd/install.sh --no-prepare --phones" install_box &&
   step "initramfs, once (MODULES=list)" initramfs &&
   step "voice rendered on this host into the image" render_voice &&
   step "the box finds every line (prepare --check)" voice_checked &&
   step "first-boot overlay, boot files, clean up" overlay &&
   step "partitions and disk image" pack; then
    step "xz" compress || true
fi
summary
[ -z "$FAILED" ] || fail "FAILED: $FAILED"
say "image: $OUT and $OUT.xz (checksum: $OUT.xz.sha256)"
