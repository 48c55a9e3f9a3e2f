#!/usr/bin/env bash
# `make image` in a container (image/Containerfile), for a maker whose
# computer is not an x86_64 Debian: macOS or Windows with Docker Desktop or
# Podman (on Windows, from a WSL 2 shell). As pi-gen's build-docker.sh: the
# container runs privileged (chroot, bind mounts, qemu-user through
# binfmt_misc), the checkout is bind-mounted, and the image comes out in
# build/image/ on the host:
#   build/image/wolfbox.img.xz and wolfbox.img.xz.sha256
# The arm64 system, the unpacked root and the venv live in the engine's own
# volumes (wolfbox-image-work, wolfbox-image-venv): a macOS or Windows
# folder cannot hold device nodes or root-owned files, and they are kept
# for the next build.
#
#   image/image-container.sh [--dry-run]    --dry-run: print the commands
#   CONTAINER_ENGINE=podman|docker          (default: podman, else docker)
set -euo pipefail
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TAG=${WOLFBOX_BUILDER_TAG:-wolfbox-image-builder:bookworm}
WORK_VOLUME=wolfbox-image-work
VENV_VOLUME=wolfbox-image-venv

fail() { printf 'image-container: %s\n' "$*" >&2; exit 1; }

# Inside the container: the real build in the work volume, then the
# compressed image and its checksum out to the checkout's build/image.
if [ "${1:-}" = --inside ]; then
    make image          # WOLFBOX_IMAGE_DIR=/work, from the run's environment
    mkdir -p /src/build/image
    cp /work/wolfbox.img.xz /src/build/image/wolfbox.img.xz
    (cd /src/build/image && sha256sum wolfbox.img.xz > wolfbox.img.xz.sha256)
    echo "image-container: build/image/wolfbox.img.xz"
    exit 0
fi

DRY=0
case ${1:-} in
    "") ;;
    --dry-run) DRY=1 ;;
    *) fail "unknown argument '$1' (none or --dry-run)" ;;
esac

ENGINE=${CONTAINER_ENGINE:-}
if [ -z "$ENGINE" ]; then
    if command -v podman >/dev/null; then ENGINE=podman
    elif command -v docker >/dev/null; then ENGINE=docker
    elif [ "$DRY" = 1 ]; then ENGINE=docker
    else fail "no container engine: install Docker Desktop or Podman (or set CONTAINER_ENGINE)"
    fi
fi
case $ENGINE in
    podman|docker) ;;
    *) fail "CONTAINER_ENGINE=$ENGINE: podman or docker" ;;
esac

BUILD=("$ENGINE" build --platform linux/amd64 -t "$TAG" -f "$SOURCE/image/Containerfile" "$SOURCE/image")
RUN=("$ENGINE" run --rm --privileged --platform linux/amd64
     -v "$SOURCE:/src"
     -v "$WORK_VOLUME:/work"
     -v "$VENV_VOLUME:/src/.venv"
     -e WOLFBOX_IMAGE_DIR=/work
     "$TAG")

if [ "$DRY" = 1 ]; then
    printf '%q ' "${BUILD[@]}"; echo
    printf '%q ' "${RUN[@]}"; echo
    exit 0
fi
"${BUILD[@]}"
"${RUN[@]}"
