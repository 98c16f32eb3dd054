#!/usr/bin/env bash
# Build the officesim image on a machine that cannot pull from an image registry.
#
# 1. A Debian bookworm base image (python3, venv, ca-certificates) is made with debootstrap and
#    imported as $BASE_IMAGE (default officesim-base:bookworm). It is built once and reused; set
#    REBUILD_BASE=1 to make it again. The root filesystem tarball is also kept in $CACHE_DIR so a
#    wiped Docker data directory does not cost another debootstrap.
# 2. This machine's CA bundle is put into the base, with PIP_CERT pointing at it, so that pip can
#    reach the package index from inside `docker build` (the network here goes through a proxy
#    whose certificate only that bundle trusts).
# 3. The project image $IMAGE (default officesim:latest) is built from the Dockerfile with
#    --build-arg BASE_IMAGE=$BASE_IMAGE.
#
# Needs root (debootstrap), debootstrap, and a running Docker engine. Extra arguments are passed
# to `docker build`.
set -euo pipefail

cd "$(dirname "$0")/.."
BASE_IMAGE=${BASE_IMAGE:-officesim-base:bookworm}
IMAGE=${IMAGE:-officesim:latest}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/officesim}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
TARBALL="$CACHE_DIR/base-bookworm.tar"

log() { printf '[build-local] %s\n' "$*" >&2; }

import_base() {
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["python3"]' \
    - "$BASE_IMAGE" < "$TARBALL" >/dev/null
}

if [ "${REBUILD_BASE:-0}" != 1 ] && docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  log "base image $BASE_IMAGE present, reusing it"
elif [ "${REBUILD_BASE:-0}" != 1 ] && [ -s "$TARBALL" ]; then
  log "importing the cached base $TARBALL as $BASE_IMAGE"
  import_base
else
  command -v debootstrap >/dev/null || { log "debootstrap is missing (apt-get install debootstrap)"; exit 1; }
  [ "$(id -u)" = 0 ] || { log "debootstrap needs root"; exit 1; }
  mkdir -p "$CACHE_DIR"
  rootfs=$(mktemp -d /tmp/officesim-rootfs.XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  log "debootstrap bookworm into $rootfs (about half a minute)"
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    bookworm "$rootfs" "$MIRROR" >"$rootfs.log" 2>&1 || { tail -n 30 "$rootfs.log" >&2; exit 1; }
  rm -f "$rootfs.log"
  if [ -s "$CA_BUNDLE" ]; then
    # Keep the machine's bundle both as the live bundle and as a local CA, so that a later
    # update-ca-certificates (run when apt touches ca-certificates) keeps it.
    cp "$CA_BUNDLE" "$rootfs/usr/local/share/ca-certificates/build-machine.crt"
    cp "$CA_BUNDLE" "$rootfs/etc/ssl/certs/ca-certificates.crt"
  fi
  # apt in the base: no recommends, no caches (the Dockerfile cleans its own lists too).
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$rootfs/etc/apt/apt.conf.d/90officesim"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
  tar -C "$rootfs" -cf "$TARBALL.part" . && mv "$TARBALL.part" "$TARBALL"
  import_base
  log "base image $BASE_IMAGE built"
fi

log "building $IMAGE on $BASE_IMAGE"
docker build --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$IMAGE" "$@" .
log "image $IMAGE: $(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1000000}')"
