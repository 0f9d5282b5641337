#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: build-initramfs.sh KMODDIR OUT.cpio.gz
# A busybox initramfs with tests/kernel/init.sh as /init and the Debian
# modules the guest needs before it can reach the host's root over 9p
# (virtio_pci is no symbol dependency of 9pnet_virtio: named explicitly),
# plus veth and bridge for the tests' interface pairs and hubs: the host's
# /lib/modules, which the guest sees after chroot, holds no modules.
set -euo pipefail
kmoddir=$1
out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
KMODS="virtio_pci 9pnet_virtio 9p veth bridge"
kver=$(basename "$kmoddir")
base=$(dirname "$(dirname "$(dirname "$kmoddir")")")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,mnt/host,lib/modules}
cp /bin/busybox "$stage/bin/busybox"
for m in $KMODS; do
	modprobe -d "$base" -S "$kver" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	[ -e "$ko" ] || ko=$base$ko
	cp "$ko" "$stage/lib/modules/"
	basename "$ko" >>"$stage/lib/modules/load-order"
done
install -m 0755 "$here/init.sh" "$stage/init"
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$out"
