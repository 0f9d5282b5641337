#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the test VM. Mounts the host's / read-only over 9p (with the
# built tree, bash, bats, iproute2, python3), chroots into it and runs
# tests/kernel/guest.sh there. Results go to a second, writable 9p share
# mounted at the host's path $RESULTS. The exit status leaves through
# isa-debug-exit (QEMU then exits with status*2+1); a panic, or any end
# that skips that write, makes QEMU exit 0, which run.sh counts as failure.
# WORKDIR, SHARE (the host directory of the writable share, holding
# RESULTS and the QUEUE of suites) and the rest come from the kernel
# command line.
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
ln -sf /proc/self/fd /dev/fd
ln -sf fd/0 /dev/stdin
ln -sf fd/1 /dev/stdout
ln -sf fd/2 /dev/stderr

guest_exit() {
	printf "\\$(printf %o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

for m in $(cat /lib/modules/load-order); do
	insmod "/lib/modules/$m" || echo "GUEST: insmod $m failed"
done
H=/mnt/host
O=trans=virtio,version=9p2000.L,msize=262144
# cache=loose: the host tree does not change under a test run, and
# re-reading every executable over 9p is what makes a cold guest slow.
mount -t 9p -o "$O,ro,cache=loose" hostroot $H || { echo "GUEST: 9p root mount failed"; guest_exit 90; }
for d in proc sys dev; do mount --bind /$d $H/$d; done
# The guest gets its own /tmp and /run; a checkout that lives there (CI
# clones often do) is kept visible by binding it back over the tmpfs.
case "$WORKDIR" in
/tmp/*|/run/*)	mkdir -p /mnt/work && mount --bind "$H$WORKDIR" /mnt/work ;;
esac
mount -t tmpfs tmpfs $H/tmp
mount -t tmpfs tmpfs $H/run
if [ -d /mnt/work ]; then
	mkdir -p "$H$WORKDIR" && mount --bind /mnt/work "$H$WORKDIR" ||
		{ echo "GUEST: cannot keep $WORKDIR visible"; guest_exit 92; }
fi
mkdir -p "$H$SHARE" 2>/dev/null
mount -t 9p -o "$O,rw" results "$H$SHARE" || { echo "GUEST: 9p results mount failed"; guest_exit 91; }
mkdir -p $H/dev/pts $H/dev/shm
mount -t devpts devpts $H/dev/pts
mount -t tmpfs tmpfs $H/dev/shm
echo "GUEST: running tests, uptime $(cut -d' ' -f1 /proc/uptime)s"
chroot $H /usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM=dumb LANG=C.UTF-8 WORKDIR="$WORKDIR" RESULTS="$RESULTS" \
	SUITES="$SUITES" QUEUE="$QUEUE" BENCH="${BENCH:-}" \
	/bin/bash "$WORKDIR/tests/kernel/guest.sh"
rc=$?
echo "GUEST: guest.sh rc=$rc, uptime $(cut -d' ' -f1 /proc/uptime)s"
sync
umount "$H$SHARE"
guest_exit $rc
