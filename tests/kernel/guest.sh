#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs inside the test VM (started by init.sh), as root, chrooted into the
# host's tree: loads build/kmod/lnet.ko, runs bats files, the shared ones
# on /dev/lnet (LNET_TRANSPORT=dev, see tests/bats/helpers.bash), one TAP
# file per suite in $RESULTS, and marks the end with $RESULTS/finished.
# The files come from $QUEUE/list, shared by every VM of the run: a VM
# takes the next file nobody has claimed (mkdir on the host is atomic), so
# the VMs stay busy until the list is empty. Without QUEUE: $SUITES.
set -u
cd "$WORKDIR" || exit 2
R=$RESULTS
exec >"$R/guest.log" 2>&1
echo "kernel $(uname -r), $(nproc) cpu(s)"

if [ -n "${QUEUE:-}" ]; then
	suites=$(cat "$QUEUE/list")
else
	suites=${SUITES:-$(ls tests/bats/*.bats) tests/kernel/ioctl.bats tests/kernel/mixed.bats tests/kernel/datapath.bats tests/kernel/module.bats}
fi

if ! insmod build/kmod/lnet.ko; then
	echo "insmod build/kmod/lnet.ko failed"
	dmesg >"$R/dmesg.txt"
	exit 2
fi
# helpers.bash's python choice, made once here: bats sources it for every
# test, and a python start costs seconds under TCG
LNET_BATS_PY=python3
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	LNET_BATS_PY=/usr/bin/python3
fi
export LNET_BATS_PY

run_suite() {
	local b=$1 name t0
	case $b in
	tests/kernel/*) name=kernel-$(basename "$b" .bats) ;;
	*) name=bats-$(basename "$b" .bats) ;;
	esac
	t0=$(date +%s)
	# parse-only tests never reach LNet (help, argv and YAML errors, tables)
	# and lnetd-only ones check what is lnetctl's whatever the transport:
	# both run on lnetd only. --timing puts each test's time in the TAP file.
	LNET_TRANSPORT=dev RESULTS=$R bats --tap --timing --filter-tags '!parse-only,!lnetd-only' \
		"$b" >"$R/$name.tap" 2>&1
	echo "$b: rc $?, $(($(date +%s) - t0)) s"
}

if [ -n "${BENCH:-}" ]; then
	# make bench-kernel: the benchmark instead of the suites
	build/bench/kernel >"$R/bench.txt" 2>&1
	echo "build/bench/kernel: rc $?"
	suites=
fi
for b in $suites; do
	if [ -n "${QUEUE:-}" ]; then
		mkdir "$QUEUE/claimed-$(basename "$b")" 2>/dev/null || continue
	fi
	run_suite "$b"
done
# Last, in every VM: unload (0 objects left) and the whole kernel log.
run_suite tests/kernel/final.bats
dmesg >"$R/dmesg.txt"
echo finished >"$R/finished"
