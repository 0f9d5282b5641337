#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Run last in every test VM (tests/kernel/guest.sh), after the suites: the
# module unloads with nothing left, and the kernel log of the whole run has
# no BUG / Oops / WARNING / KASAN / UBSAN line.

setup() {
	[ -n "${RESULTS:-}" ] || skip "runs only inside the test VM (make check-kernel)"
}

@test "unload after the suites: the log says 0 objects left" {
	[ -c /dev/lnet ]
	rmmod lnet
	[ ! -e /dev/lnet ]
	run sh -c "dmesg --notime | grep '^lnet: unloaded' | tail -n1"
	[ "$output" = "lnet: unloaded, 0 objects left" ]
}

@test "the kernel log has no BUG, Oops, WARNING, KASAN or UBSAN line" {
	run sh -c "dmesg --notime | grep -E 'BUG|Oops|WARNING|KASAN|UBSAN|general protection|corruption|Redzone|Poison overwritten|refcount_t|scheduling while atomic|sleeping function called|hung_task|soft lockup'"
	echo "$output"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}
