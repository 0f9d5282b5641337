#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every suite and print one summary line: "N passed, N failed".
# Unit tests run twice (plain, ASan+UBSan); fuzz corpora are replayed under
# the sanitizers; bats suites drive lnetctl against a private lnetd; a
# short soak (scripts/soak.sh) runs 10 of them under faults; then
# tests/kernel/run.sh runs the bats suites again on the lnet module under QEMU.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
# seconds per phase, printed before the total (where the 45 minutes go)
phases=""
t_phase=$(date +%s)
phase_done() {
	local now
	now=$(date +%s)
	phases="$phases $1 $((now - t_phase)) s,"
	t_phase=$now
}

# One cmocka binary: its summary line, and its output when it failed.
run_cmocka() {	# $1 = label, $2 = binary, $3 = a scratch file
	local p f rc
	"$2" >"$3" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$3" | tail -n1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$3" | tail -n1)
	p=${p:-0}; f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi	# crashed
	[ "$f" -ne 0 ] && { echo "--- $1 failed:"; cat "$3"; }
	echo "unit $1: $p passed, $f failed"
}

unit_lane() {	# $1 = lane number, then test names: each plain, then sanitized
	local n=$1 t
	shift
	for t in "$@"; do
		run_cmocka "$t" "build/tests/$t" "$log/unit$n.out"
		run_cmocka "$t (asan+ubsan)" "build/san/tests/$t" "$log/unit$n.out"
	done >"$log/unit$n.log"
}

# Two lanes side by side: the unit tests mostly wait (timeouts, recovery
# intervals), so this halves the phase. The tests on real sockets (port 988
# on loopback) and the longest one share lane 0, one at a time.
lane0=() lane1=()
for t in build/tests/test_*; do
	t=$(basename "$t")
	case " test_os_sock test_socklnd test_transport test_wire test_route_alive test_fault " in
	*" $t "*) lane0+=("$t") ;;
	*) lane1+=("$t") ;;
	esac
done
unit_lane 0 "${lane0[@]}" &
unit_lane 1 "${lane1[@]}"
wait
cat "$log/unit0.log" "$log/unit1.log"
while read -r p f; do
	pass=$((pass + p)); fail=$((fail + f))
done < <(sed -n 's/^unit .*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
	"$log/unit0.log" "$log/unit1.log")

phase_done unit
for f in build/san/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	dir=tests/fuzz/corpus/${name#fuzz_}
	if "$f" "$dir" >"$log/out" 2>&1; then
		n=$(find "$dir" -type f | wc -l)
		echo "fuzz replay $name: $n inputs ok"
		pass=$((pass + 1))
	else
		echo "--- fuzz replay $name failed:"; cat "$log/out"
		fail=$((fail + 1))
	fi
done

phase_done fuzz-replay
# One bats suite: its TAP in $log/bats/NAME.tap, its line in NAME.sum.
bats_suite() {	# $1 = suite
	local b=$1 n p f plan t0
	n=$(basename "$b")
	t0=$(date +%s)
	bats --tap "$b" >"$log/bats/$n.tap" 2>&1
	p=$(grep -c '^ok ' "$log/bats/$n.tap")
	f=$(grep -c '^not ok ' "$log/bats/$n.tap")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)/\1/p' "$log/bats/$n.tap" | head -n1)
	if [ -n "$plan" ] && [ $((p + f)) -lt "$plan" ]; then f=$((plan - p)); fi
	[ -z "$plan" ] && f=$((f + 1))
	{
		[ "$f" -ne 0 ] && { echo "--- $b:"; grep -v '^ok ' "$log/bats/$n.tap"; }
		echo "bats $n: $p passed, $f failed ($(($(date +%s) - t0)) s)"
	} >"$log/bats/$n.sum"
}

# Two lanes side by side, as for the unit tests: a suite mostly waits
# (daemons starting, timeouts running out) and each test has its own
# namespace, temporary directory and sockets. Both lanes walk one list,
# the long suites first; a lane takes a suite by making its claim
# directory (mkdir is atomic), so each suite runs once.
bats_lane() {
	local b
	for b in "${bats_order[@]}"; do
		mkdir "$log/bats/claim-$(basename "$b")" 2>/dev/null || continue
		bats_suite "$b"
	done
}
mkdir -p "$log/bats"
bats_long="routing schema lst multinode fault explain conns accept hostile discovery lnetd"
bats_order=()
for n in $bats_long; do [ -f "tests/bats/$n.bats" ] && bats_order+=("tests/bats/$n.bats"); done
for b in tests/bats/*.bats; do
	case " $bats_long " in *" $(basename "$b" .bats) "*) continue ;; esac
	bats_order+=("$b")
done
bats_lane &
bats_lane
wait
for b in tests/bats/*.bats; do
	sum=$log/bats/$(basename "$b").sum
	[ -f "$sum" ] || echo "bats $(basename "$b"): 0 passed, 1 failed (did not run)" >"$sum"
	cat "$sum"
done
while read -r p f; do
	pass=$((pass + p)); fail=$((fail + f))
done < <(sed -n 's/^bats .*: \([0-9]*\) passed, \([0-9]*\) failed (.*$/\1 \2/p' "$log"/bats/*.sum)

phase_done bats
# The soak, short (about 2 minutes; `make soak` runs the long one): each
# of its checks counts, as a bats test does. SKIP_SOAK=1 skips it.
if [ "${SKIP_SOAK:-0}" != 1 ]; then
	scripts/soak.sh --duration "${SOAK_CHECK_SECONDS:-50}" --cycles 2 >"$log/out" 2>&1
	src=$?
	p=$(grep -c '^ok ' "$log/out")
	f=$(grep -c '^not ok ' "$log/out")
	if [ "$src" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	# its seed (to run it again), the figures, and what failed
	sed -n -e '/^# soak: /p' -e '/^not ok /p' -e '/^# seed /,/^1\.\./{/^1\.\./!p}' "$log/out"
	[ "$f" -ne 0 ] && { echo "--- soak:"; cat "$log/out"; }
	echo "soak: $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
fi

phase_done soak
# The lnet module under QEMU (tests/kernel/run.sh, about 10 minutes): its
# per-suite lines are shown and its total is added. SKIP_KERNEL=1 skips it.
if [ "${SKIP_KERNEL:-0}" != 1 ]; then
	tests/kernel/run.sh >"$log/kernel" 2>&1
	krc=$?
	grep -v '^[0-9]* passed, [0-9]* failed$' "$log/kernel"
	total=$(grep '^[0-9]* passed, [0-9]* failed$' "$log/kernel" | tail -n1)
	p=$(echo "$total" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$total" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
	p=${p:-0}; f=${f:-0}
	if [ "$krc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
fi

phase_done kernel
echo "check: seconds per phase:${phases%,}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
