#!/usr/bin/env bash
# A stand-in for the official Node 20 image, made offline for the image test: a minimal Debian 12
# (debootstrap, from the Debian mirror apt uses) with this machine's node binary. The rootfs tar is
# cached, so a machine builds it once:
#
#   scripts/test-node-base.sh CACHE_DIR     prints the path of the rootfs tar (for `docker import`)
set -euo pipefail
CACHE=${1:?usage: $0 CACHE_DIR}
die() { echo "test-node-base: $*" >&2; exit 1; }
NODE=$(command -v node) || die "no node on PATH"
key="bookworm-node$("$NODE" --version)"
tarball=$CACHE/$key.tar
if [ -s "$tarball" ]; then echo "$tarball"; exit 0; fi
[ "$(id -u)" = 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$CACHE"
root=$(mktemp -d "$CACHE/rootfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
echo "test-node-base: debootstrap bookworm from $mirror (once per machine)" >&2
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$CACHE/debootstrap.log" 2>&1 \
  || { tail -20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
install -m 0755 "$NODE" "$root/usr/local/bin/node"
tar -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
echo "$tarball"
