#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-kernel: build lnet.ko against Debian's headers, boot Debian's
# kernel of the same ABI under QEMU (TCG: no KVM needed), run the shared bats
# suites on /dev/lnet and the kernel-only suites inside the guest, and print
# one line per suite plus the total:
#   bats (kernel) net.bats: 12 passed, 0 failed
#   kernel ioctl.bats: 6 passed, 0 failed
#   18 passed, 0 failed
# JOBS VMs run at once, one kernel each (so the single LNet instance of a
# VM never serves two suites at a time), taking suites from one queue
# until it is empty; each VM ends with tests/kernel/final.bats (unload: 0
# objects left; a kernel log without BUG/Oops/WARNING). Results come back
# through a writable 9p share (never the console); a VM that panics or
# does not finish counts as one failure ("kernel vm N").
# env: SUITES="tests/bats/net.bats ..." (run only these; one VM unless
#      JOBS says otherwise), JOBS (VMs at once, default 2),
#      BENCH=1 (make bench-kernel: one VM runs build/bench/kernel and
#      final.bats instead of the suites, and its output is printed),
#      TIMEOUT (s per VM, default 2400),
#      SMP (vCPUs per VM, default 1), MEM (MiB per VM, default 1024)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=$top/build/kernel-test
t_start=$(date +%s)

die() {
	echo "check-kernel: $*" >&2
	echo "kernel vm: 0 passed, 1 failed"
	echo "0 passed, 1 failed"
	exit 1
}

# One run at a time on a machine: runs share build/kmod and build/kernel-test.
mkdir -p "$top/build"
exec 9>"$top/build/kernel-test.lock"
flock 9

setup=$(tests/kernel/setup.sh) || die "setup failed"
KVER=${setup#KVER=}
kernel=$top/build/kernel-x/root/boot/vmlinuz-$KVER
kmoddir=$top/build/kernel-x/root/lib/modules/$KVER
rm -rf "$out"
mkdir -p "$out"
make -s kmod KERNELDIR="/usr/src/linux-headers-$KVER" >"$out/kmod.log" 2>&1 ||
	{ cat "$out/kmod.log"; die "make kmod failed"; }
make -s build/lnetctl build/lnetd build/tests/kernel/ioctl-fuzz build/tests/kernel/ioctl-fuzz32 \
	build/tests/kernel/lnetctl-netns ${BENCH:+build/bench/kernel} \
	>"$out/make.log" 2>&1 ||
	{ cat "$out/make.log"; die "building lnetctl and the test programs failed"; }
tests/kernel/build-initramfs.sh "$kmoddir" "$out/initrd.cpio.gz" || die "initramfs failed"

# The queue the VMs take their suites from (see guest.sh), biggest first so
# that the last ones to start are short; the kernel-only suites last but
# mixed.bats, which is long for its few tests.
ntests() {	# lnetd.bats, parse-only and lnetd-only tests are skipped on /dev/lnet
	case $1 in */lnetd.bats) echo 0 ; return ;; esac
	grep -Eq '^# bats file_tags=.*(parse|lnetd)-only' "$1" && { echo 0; return; }
	echo $(($(grep -c '^@test' "$1") - $(grep -Ec '^# bats test_tags=.*(parse|lnetd)-only' "$1")))
}
mkdir -p "$out/queue"
if [ -n "${BENCH:-}" ]; then
	jobs=1
	: >"$out/queue/list"
elif [ -n "${SUITES:-}" ]; then
	jobs=${JOBS:-1}
	echo "$SUITES" | tr ' ' '\n' | grep . >"$out/queue/list"
else
	jobs=${JOBS:-2}
	{
		# the mixed pair: few tests, minutes of traffic; start it early
		echo tests/kernel/mixed.bats
		for f in tests/bats/*.bats; do echo "$(ntests "$f") $f"; done |
			sort -rn | cut -d' ' -f2
		echo tests/kernel/ioctl.bats
		echo tests/kernel/datapath.bats
		echo tests/kernel/module.bats
	} >"$out/queue/list"
fi

# One VM: $1 = index. isa-debug-exit: guest status 0 -> qemu exit 1.
run_vm() {
	local res=$out/vm$1/results
	mkdir -p "$res"
	# slub_debug (red zones, poisoning, consistency checks) and init_on_free
	# make slab misuse show in the log: Debian's kernel has no KASAN.
	timeout --foreground -k 10 "${TIMEOUT:-2400}" \
		qemu-system-x86_64 -accel tcg -m "${MEM:-1024}" -smp "${SMP:-1}" \
		-nographic -no-reboot -nic none \
		-kernel "$kernel" -initrd "$out/initrd.cpio.gz" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=5 slub_debug=FZPU init_on_free=1 WORKDIR=$top SHARE=$out RESULTS=$res QUEUE=$out/queue BENCH=${BENCH:-}" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$out",mount_tag=results,security_model=none \
		</dev/null >"$out/vm$1/console.log" 2>&1
	echo $? >"$out/vm$1/qemu.rc"
}

t_boot=$(date +%s)
for ((i = 0; i < jobs; i++)); do
	mkdir -p "$out/vm$i"
	run_vm "$i" &
done
wait
t_end=$(date +%s)

pass=0
fail=0
count_tap() {	# $1 = label, $2 = TAP file (same rules as scripts/run-tests.sh)
	local p f plan
	p=$(grep -c '^ok ' "$2")
	f=$(grep -c '^not ok ' "$2")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)/\1/p' "$2" | head -n1)
	if [ -n "$plan" ] && [ $((p + f)) -lt "$plan" ]; then f=$((plan - p)); fi
	[ -z "$plan" ] && f=$((f + 1))
	[ "$f" -ne 0 ] && { echo "--- $1:"; grep -v '^ok ' "$2"; }
	echo "$1: $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
}
for ((i = 0; i < jobs; i++)); do
	res=$out/vm$i/results
	for t in "$res"/bats-*.tap; do
		[ -f "$t" ] || continue
		n=$(basename "$t" .tap)
		count_tap "bats (kernel) ${n#bats-}.bats" "$t"
	done
	for t in "$res"/kernel-*.tap; do
		[ -f "$t" ] || continue
		n=$(basename "$t" .tap)
		n=${n#kernel-}.bats
		[ "$n" = final.bats ] && n="$n (vm $i)"
		count_tap "kernel $n" "$t"
	done
	qrc=$(cat "$out/vm$i/qemu.rc")
	# 1: guest wrote 0; 0: panic or no clean end; 124: timeout
	if [ "$qrc" -ne 1 ] || [ ! -f "$res/finished" ]; then
		echo "--- kernel vm $i: qemu exit $qrc, guest $([ -f "$res/finished" ] && echo finished || echo did not finish); console tail:"
		tail -n 40 "$out/vm$i/console.log"
		[ -f "$res/guest.log" ] && { echo "--- vm $i guest.log:"; tail -n 20 "$res/guest.log"; }
		echo "kernel vm $i: 0 passed, 1 failed"
		fail=$((fail + 1))
	fi
done
if [ -n "${BENCH:-}" ]; then
	cat "$out/vm0/results/bench.txt" 2>/dev/null || echo "bench-kernel: no output (see $out/vm0)"
fi
echo "check-kernel: build and setup $((t_boot - t_start)) s, $jobs VM(s) $((t_end - t_boot)) s (logs in build/kernel-test)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
