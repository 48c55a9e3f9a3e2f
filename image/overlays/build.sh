#!/usr/bin/env bash
# The image's device-tree overlays, compiled: each image/overlays/NAME.dts
# into OUT/NAME.dtbo with `dtc -@` (the labels it defines and the ones it
# names go into __symbols__ and __fixups__, which the Pi firmware resolves
# against the board's tree). Used by image/build.sh (OUT: the boot
# partition's overlays/) and tests/test_overlays.py.
#
#   image/overlays/build.sh OUT
set -euo pipefail
OUT=${1:?usage: image/overlays/build.sh OUT}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v dtc >/dev/null || { echo "overlays: no dtc (apt install device-tree-compiler)" >&2; exit 1; }
mkdir -p "$OUT"
for dts in "$HERE"/*.dts; do
    name=$(basename "$dts" .dts)
    dtc -@ -I dts -O dtb -o "$OUT/$name.dtbo" "$dts"
    echo "overlays/$name.dtbo"
done
