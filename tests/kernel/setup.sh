#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fetch Debian's kernel image for the ABI of the installed linux-headers-*-amd64
# (the one lnet.ko is built against) and unpack it under build/kernel-x: no
# install into /boot, no initramfs-tools run. Idempotent; prints KVER=...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
X=$top/build/kernel-x

for tool in qemu-system-x86_64 busybox cpio depmod modprobe dpkg-deb; do
	command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
	command -v "$tool" >/dev/null || {
		echo "setup: $tool is missing (run scripts/install-deps.sh as root)" >&2
		exit 1
	}
done
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null |
	sed 's|.*/linux-headers-||' | sort -V | tail -n1)
[ -n "$KVER" ] || { echo "setup: no linux-headers-*-amd64 installed" >&2; exit 1; }

if [ ! -e "$X/root/boot/vmlinuz-$KVER" ] ||
   [ ! -e "$X/root/lib/modules/$KVER/modules.dep" ]; then
	rm -rf "$X"
	mkdir -p "$X"
	cd "$X"
	# apt-get download needs current lists; a fresh machine may have none.
	apt-get download -q "linux-image-$KVER" >/dev/null 2>&1 || {
		apt-get -o DPkg::Lock::Timeout=600 update -qq
		apt-get download -q "linux-image-$KVER" >/dev/null 2>&1
	} || { echo "setup: cannot download linux-image-$KVER" >&2; exit 1; }
	dpkg-deb -x linux-image-"$KVER"_*.deb root
	depmod -b root "$KVER"
	rm -f linux-image-"$KVER"_*.deb
fi
echo "KVER=$KVER"
