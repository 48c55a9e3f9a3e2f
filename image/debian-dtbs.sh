#!/usr/bin/env bash
# The Raspberry Pi device trees and the kernel's build config from the very
# package the image boots (Debian 12's linux-image-arm64, its current
# version), without installing it: apt-get downloads the .deb into a private
# apt state (no dpkg --add-architecture, no change to the host's apt, any
# user), and only what the checks use is taken out of it (dpkg-deb), into a
# cache keyed by the package's version. tests/test_overlays.py checks the
# image's overlays against the trees with fdtoverlay, and boots the kernel
# on qemu's Raspberry Pi 3 with them (its sound and SPI modules, and
# busybox-static for a tiny initramfs).
#
#   image/debian-dtbs.sh [CACHE]      prints the folder that holds
#                                     broadcom/*.dtb, config, modules (the
#                                     list), vmlinuz, lib/modules/VERSION/
#                                     kernel/{sound,drivers/spi}, busybox
# CACHE defaults to build/cache/debian-dtbs; IMAGE_MIRROR as image/build.sh.
set -euo pipefail
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(mkdir -p "${1:-$SOURCE/build/cache/debian-dtbs}" && cd "${1:-$SOURCE/build/cache/debian-dtbs}" && pwd)
MIRROR=${IMAGE_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

fail() { echo "debian-dtbs: $*" >&2; exit 1; }
command -v apt-get >/dev/null || fail "needs apt-get (a Debian or Ubuntu host)"
command -v dpkg-deb >/dev/null || fail "needs dpkg-deb"
[ -f "$KEYRING" ] || fail "needs $KEYRING (apt install debian-archive-keyring)"

# One fetch at a time (two test workers may ask at once).
exec 9>"$CACHE/.lock"
flock 9

APT=$CACHE/apt
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/debs"
printf 'deb [arch=arm64 signed-by=%s] %s %s main\n' "$KEYRING" "$MIRROR" "$SUITE" > "$APT/sources.list"
: > "$APT/status"
OPTS=(-o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/nonexistent
      -o "Dir::State::Lists=$APT/lists" -o "Dir::State::Status=$APT/status"
      -o "Dir::Cache=$APT/cache" -o APT::Architecture=arm64 -o APT::Architectures=arm64
      -o Debug::NoLocking=1 -o Acquire::Retries=3 -o APT::Sandbox::User="$(id -un)")

apt-get -qq "${OPTS[@]}" update >&2 || fail "apt-get update from $MIRROR failed (offline?)"
# The metapackage names the kernel package of the day.
PKG=$(apt-cache "${OPTS[@]}" depends linux-image-arm64 | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-arm64\)$/\1/p' | head -n 1)
[ -n "$PKG" ] || fail "linux-image-arm64 names no kernel package in $SUITE"
VERSION=$(apt-cache "${OPTS[@]}" show "$PKG" | sed -n 's/^Version: //p' | head -n 1)
OUT=$CACHE/$PKG-$VERSION
if [ ! -f "$OUT/busybox" ]; then
    (cd "$APT/debs" && apt-get -qq "${OPTS[@]}" download "$PKG" busybox-static >&2) \
        || fail "could not download $PKG and busybox-static"
    deb=$(find "$APT/debs" -name "${PKG}_*.deb" | head -n 1)
    rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp/x"
    dpkg-deb --fsys-tarfile "$deb" | tar -C "$OUT.tmp/x" -x --wildcards \
        './usr/lib/linux-image-*/broadcom/bcm2*.dtb' './boot/config-*' './boot/vmlinuz-*' \
        './lib/modules/*/kernel/sound/*' './lib/modules/*/kernel/drivers/spi/*'
    mv "$OUT.tmp"/x/usr/lib/linux-image-*/broadcom "$OUT.tmp/broadcom"
    mv "$OUT.tmp"/x/boot/config-* "$OUT.tmp/config"
    mv "$OUT.tmp"/x/boot/vmlinuz-* "$OUT.tmp/vmlinuz"
    mv "$OUT.tmp/x/lib" "$OUT.tmp/lib"
    dpkg-deb -c "$deb" | awk '{ print $6 }' | sed -n 's|.*/\([^/]*\)\.ko[^/]*$|\1|p' | sort > "$OUT.tmp/modules"
    bb=$(find "$APT/debs" -name 'busybox-static_*.deb' | head -n 1)
    dpkg-deb --fsys-tarfile "$bb" | tar -C "$OUT.tmp/x" -x ./bin/busybox
    mv "$OUT.tmp/x/bin/busybox" "$OUT.tmp/busybox"
    rm -rf "$OUT.tmp/x" "$deb" "$bb"
    rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
fi
echo "$OUT"
