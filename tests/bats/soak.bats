#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The soak's own parts that can be checked without running it (the short
# soak itself runs in make check, from scripts/run-tests.sh): its
# arguments, and the exactly-once accounting of tests/soak/report.py on
# runs made up to break each rule.
# bats file_tags=parse-only

bats_require_minimum_version 1.5.0

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	T=$(mktemp -d /tmp/lnet-bats.XXXXXX)
	mkdir "$T/runs"
}

teardown() {
	rm -rf "$T"
}

# run_file I RC COUNT OK FAILED CORRUPT TIMEOUT ABANDONED DUPLICATE: run I of node 1.
run_file() {
	local b=$T/runs/1.$1
	echo "$2 put 10.70.0.2@tcp $3" >"$b.meta"
	: >"$b.err"
	cat >"$b.yaml" <<-EOF
	selftest:
	    op: put
	    target: 10.70.0.2@tcp
	    size: 4096
	    count: $3
	    ok: $4
	    failed: $5
	    corrupt: $6
	    failed_by:
	        timeout: $7
	        unreachable: 0
	        shutdown: 0
	        network: 0
	        start: 0
	        abandoned: $8
	    duplicate: $9
	    elapsed_ns: 1000
	EOF
}

report() {
	run --separate-stderr python3 "$TOP/tests/soak/report.py" runs "$T/runs"
}

@test "soak report: runs that keep exactly-once add up, by cause" {
	run_file 0 0 8 8 0 0 0 0 0
	run_file 1 1 8 6 2 0 2 0 0
	# no document: no route to the target's net, every message failed
	echo "1 get 10.74.0.7@tcp2 8" >"$T/runs/1.2.meta"
	: >"$T/runs/1.2.yaml"
	echo "lnetctl selftest get: selftest get to 10.74.0.7@tcp2 failed: no route to net tcp2 (no local NI and no route)" >"$T/runs/1.2.err"
	report
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "runs 3
sent 24
ok 14
failed 10
corrupt 0
duplicate 0
no_route 8
timeout 2
unreachable 0
shutdown 0
network 0
start 0
abandoned 0" ]
}

@test "soak report: each broken rule fails the check, naming the run" {
	local b=$T/runs/1.0
	run_file 0 1 8 6 1 0 1 0 0
	report
	[ "$status" -eq 1 ]
	[[ $stderr == "$b: ok + failed + corrupt != count: "* ]]
	run_file 0 1 8 6 2 0 1 0 0
	report
	[ "$status" -eq 1 ]
	[[ $stderr == "$b: failed_by does not add up to failed: "* ]]
	run_file 0 1 8 7 1 0 1 0 1
	report
	[ "$status" -eq 1 ]
	[[ $stderr == "$b: duplicate 1, abandoned 0: "* ]]
	run_file 0 1 8 7 1 0 0 1 0
	report
	[ "$status" -eq 1 ]
	[[ $stderr == "$b: duplicate 0, abandoned 1: "* ]]
	run_file 0 0 8 7 1 0 1 0 0
	report
	[ "$status" -eq 1 ]
	[[ $stderr == "$b: exit 0: "* ]]
	# no document and not the no-route case: lnetctl or lnetd broke
	: >"$b.yaml"
	echo "lnetctl selftest put: cannot reach lnetd" >"$b.err"
	report
	[ "$status" -eq 1 ]
	[ "$stderr" = "$b: exit 0, no document: lnetctl selftest put: cannot reach lnetd" ]
}

@test "soak.sh: bad arguments exit 2 naming the value and the range" {
	run --separate-stderr "$TOP/scripts/soak.sh" --seed x
	[ "$status" -eq 2 ]
	[ "$stderr" = "soak.sh: invalid --seed 'x': expected an integer 1-2147483646" ]
	run --separate-stderr "$TOP/scripts/soak.sh" --cycles 1
	[ "$status" -eq 2 ]
	[ "$stderr" = "soak.sh: invalid --cycles '1': expected an integer 2-1000" ]
	run --separate-stderr "$TOP/scripts/soak.sh" --duration 29
	[ "$status" -eq 2 ]
	[ "$stderr" = "soak.sh: invalid --duration '29': expected an integer 30-86400" ]
	run --separate-stderr "$TOP/scripts/soak.sh" --cycles
	[ "$status" -eq 2 ]
	[ "$stderr" = "usage: soak.sh [--seed S] [--duration SECONDS] [--cycles N]" ]
	run --separate-stderr "$TOP/scripts/soak.sh" extra
	[ "$status" -eq 2 ]
	[ "$stderr" = "soak.sh: unexpected argument 'extra'
usage: soak.sh [--seed S] [--duration SECONDS] [--cycles N]" ]
}
