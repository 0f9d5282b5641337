#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs inside the test VM (started by init.sh), as root, chrooted into the
# host's tree: loads build/kmod/lnet.ko, runs the bats files in SUITES
# (kernel command line) in order, the shared ones on /dev/lnet
# (LNET_TRANSPORT=dev, see tests/bats/helpers.bash), one TAP file per suite
# in $RESULTS, and marks the end with $RESULTS/finished.
set -u
cd "$WORKDIR" || exit 2
R=$RESULTS
exec >"$R/guest.log" 2>&1
echo "kernel $(uname -r), $(nproc) cpu(s)"

# SUITES from run.sh (all suites when empty), then final.bats, which
# unloads the module and reads the whole kernel log.
suites="${SUITES:-$(ls tests/bats/*.bats) tests/kernel/ioctl.bats tests/kernel/module.bats} tests/kernel/final.bats"

if ! insmod build/kmod/lnet.ko; then
	echo "insmod build/kmod/lnet.ko failed"
	dmesg >"$R/dmesg.txt"
	exit 2
fi
for b in $suites; do
	case $b in
	tests/kernel/*) name=kernel-$(basename "$b" .bats) ;;
	*) name=bats-$(basename "$b" .bats) ;;
	esac
	t0=$(date +%s)
	LNET_TRANSPORT=dev RESULTS=$R bats --tap "$b" >"$R/$name.tap" 2>&1
	echo "$b: rc $?, $(($(date +%s) - t0)) s"
done
dmesg >"$R/dmesg.txt"
echo finished >"$R/finished"
