#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl selftest put | get on one node (0@lo and its own NIDs): the
# counts, failures counted and not fatal, bad input. Runs between nodes
# are in multinode.bats.

load helpers
lnet_suite

# failed_by: the causes in their order, then duplicate, as "cause=N ..."
failed_by() {
	yaml_get "' '.join('%s=%d' % kv for kv in list(d['selftest']['failed_by'].items()) + [('duplicate', d['selftest']['duplicate'])])"
}

# counts: "op target size count ok failed corrupt" of the selftest document in $output
counts() {
	yaml_get "' '.join(str(d['selftest'][k]) for k in ('op', 'target', 'size', 'count', 'ok', 'failed', 'corrupt'))"
}

@test "selftest put 0@lo: ten 1 MiB PUTs, every one ACKed" {
	run --separate-stderr lnetctl selftest put 0@lo --count 10
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(counts)" = "put 0@lo 1048576 10 10 0 0" ]
	# the keys, in this order
	[ "$(yaml_get "list(d['selftest'])")" = \
	  "['op', 'target', 'size', 'count', 'check', 'ok', 'failed', 'corrupt', 'failed_by', 'duplicate', 'elapsed_ns']" ]
	[ "$(yaml_get "d['selftest']['check']")" = full ]
	[ "$(yaml_get "d['selftest']['elapsed_ns'] > 0")" = True ]
	[ "$(failed_by)" = "timeout=0 unreachable=0 shutdown=0 network=0 start=0 abandoned=0 duplicate=0" ]
	# the receiving side (this node) found every byte right
	run lnetctl stats show
	[ "$(yaml_get "d['statistics']['selftest_corrupt']")" = 0 ]
}

@test "selftest get 0@lo: every byte of every REPLY checked" {
	run --separate-stderr lnetctl selftest get 0@lo --count 25 --size 4K --concurrency 3
	[ "$status" -eq 0 ]
	[ "$(counts)" = "get 0@lo 4096 25 25 0 0" ]
	run --separate-stderr lnetctl selftest get 0@lo -c 7 -z 1M -n 64 -t 5
	[ "$status" -eq 0 ]
	[ "$(counts)" = "get 0@lo 1048576 7 7 0 0" ]
}

@test "selftest --check: none, simple and full, each shown; a bad mode named" {
	for m in none simple full; do
		run --separate-stderr lnetctl selftest put 0@lo --count 6 --size 10000 --check "$m"
		[ "$status" -eq 0 ]
		[ "$(counts)" = "put 0@lo 10000 6 6 0 0" ]
		[ "$(yaml_get "d['selftest']['check']")" = "$m" ]
		run --separate-stderr lnetctl selftest get 0@lo -c 4 -z 5000 -k "$m"
		[ "$status" -eq 0 ]
		[ "$(counts)" = "get 0@lo 5000 4 4 0 0" ]
		[ "$(yaml_get "d['selftest']['check']")" = "$m" ]
	done
	run lnetctl stats show
	[ "$(yaml_get "d['statistics']['selftest_corrupt']")" = 0 ]
	for v in partial FULL ""; do
		run --separate-stderr lnetctl selftest put 0@lo --check "$v"
		[ "$status" -eq 2 ]
		[ "$output" = "" ]
		[ "$stderr" = "lnetctl selftest put: --check: '$v' is not one of none, simple, full" ]
	done
}

@test "selftest: sizes 0 and odd, more messages than the concurrency" {
	run lnetctl selftest put 0@lo --size 0 --count 100 --concurrency 64
	[ "$status" -eq 0 ]
	[ "$(counts)" = "put 0@lo 0 100 100 0 0" ]
	run lnetctl selftest get 0@lo --size 0 --count 3
	[ "$(counts)" = "get 0@lo 0 3 3 0 0" ]
	run lnetctl selftest put 0@lo --size 1048575 --count 9 --concurrency 4
	[ "$(counts)" = "put 0@lo 1048575 9 9 0 0" ]
	run lnetctl selftest get 0@lo --size 333 --count 1000 --concurrency 1
	[ "$(counts)" = "get 0@lo 333 1000 1000 0 0" ]
	# Lustre's number forms, then the suffix
	run lnetctl selftest get 0@lo --size 0x10K --count 02
	[ "$(counts)" = "get 0@lo 16384 2 2 0 0" ]
}

@test "selftest to this node's own NID, and --source" {
	lnetctl net add --net tcp --if veth0
	run lnetctl selftest put 10.11.0.1@tcp --count 5 --source 10.11.0.1@tcp
	[ "$status" -eq 0 ]
	[ "$(counts)" = "put 10.11.0.1@tcp 1048576 5 5 0 0" ]
	run --separate-stderr lnetctl selftest get 10.11.0.1@tcp --source 10.11.0.8@tcp
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl selftest get: selftest get to 10.11.0.1@tcp failed: --source 10.11.0.8@tcp is not a NID of this node" ]
}

@test "selftest to a net without an NI or a route: one line naming the net, exit 1" {
	run --separate-stderr lnetctl selftest put 10.11.0.9@tcp1 --count 4 --size 10
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl selftest put: selftest put to 10.11.0.9@tcp1 failed: no route to net tcp1 (no local NI and no route)" ]
}

@test "selftest to an absent node on a tcp net: failed after --timeout" {
	lnetctl net add --net tcp --if veth0
	local t0=$SECONDS
	run --separate-stderr lnetctl selftest get 10.11.0.9@tcp --count 3 --concurrency 3 --timeout 1
	local took=$((SECONDS - t0))
	[ "$status" -eq 1 ]
	[ "$took" -le 3 ]
	[ "$(counts)" = "get 10.11.0.9@tcp 1048576 3 0 3 0" ]
	# LNet's own timeout (150 s) is longer than --timeout: given up on
	[ "$(failed_by)" = "timeout=0 unreachable=0 shutdown=0 network=0 start=0 abandoned=3 duplicate=0" ]
	# LNet is still fine
	run lnetctl selftest put 0@lo --count 2
	[ "$(counts)" = "put 0@lo 1048576 2 2 0 0" ]
}

@test "selftest to an absent node within LNet's timeout: each message ends once, by LNet's error" {
	lnetctl net add --net tcp --if veth0
	lnetctl set retry_count 0
	lnetctl set transaction_timeout 2
	run --separate-stderr lnetctl selftest put 10.11.0.9@tcp --count 4 --concurrency 2 --timeout 20
	[ "$status" -eq 1 ]
	[ "$(counts)" = "put 10.11.0.9@tcp 1048576 4 0 4 0" ]
	[ "$(failed_by)" = "timeout=4 unreachable=0 shutdown=0 network=0 start=0 abandoned=0 duplicate=0" ]
}

# bats test_tags=parse-only
@test "selftest: bad arguments are usage errors (exit 2) naming the value and the range" {
	run --separate-stderr lnetctl selftest put
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl selftest put: missing argument NID" ]
	run --separate-stderr lnetctl selftest put 0@lo 0@lo
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl selftest put: unexpected argument '0@lo'" ]
	run --separate-stderr lnetctl selftest get nid
	[ "$status" -eq 2 ]
	[[ $stderr == "lnetctl selftest get: invalid NID 'nid': "* ]]
	run --separate-stderr lnetctl selftest
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl selftest: missing command: one of put, get, run, session, group, batch, test, stat" ]
	local v
	for v in 0 1000001 x; do
		run --separate-stderr lnetctl selftest put 0@lo --count "$v"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl selftest put: invalid --count '$v': expected an integer 1-1000000" ]
	done
	for v in 1048577 2M 1x 1KK -1 "" 0x 08 0x100001; do
		run --separate-stderr lnetctl selftest put 0@lo --size="$v"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl selftest put: invalid --size '$v': expected bytes 0-1048576 (a K or M suffix counts 1024 or 1048576)" ]
	done
	for v in 0 65; do
		run --separate-stderr lnetctl selftest get 0@lo --concurrency "$v"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl selftest get: invalid --concurrency '$v': expected an integer 1-64" ]
	done
	for v in 0 3601; do
		run --separate-stderr lnetctl selftest get 0@lo --timeout "$v"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl selftest get: invalid --timeout '$v': expected an integer 1-3600" ]
	done
	run --separate-stderr lnetctl selftest get 0@lo --source 10.11.0.1@eth
	[ "$status" -eq 2 ]
	[[ $stderr == "lnetctl selftest get: invalid --source '10.11.0.1@eth': "* ]]
}

@test "selftest with LNet down: exit 1, no document" {
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl selftest put 0@lo
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl selftest put: LNet is not configured: run 'lnetctl lnet configure'" ]
}

@test "lnet unconfigure during a run: the run ends, LNet comes back clean" {
	lnetctl net add --net tcp --if veth0
	# messages to an absent node wait for their timeout
	lnetctl selftest get 10.11.0.9@tcp --count 2 --timeout 30 >"$T/run.out" 2>"$T/run.err" &
	local pid=$!
	sleep 0.5
	lnetctl lnet unconfigure
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 1 ]
	# Either the unconfigure aborted the run (or came before it started),
	# or both GETs had already failed (a connect to the absent node may
	# fail at once, as it did in a slow VM) and the run reported them.
	if [ -s "$T/run.out" ]; then
		[ ! -s "$T/run.err" ]
		output=$(cat "$T/run.out")
		[ "$(counts)" = "get 10.11.0.9@tcp 1048576 2 0 2 0" ]
	else
		[ "$(cat "$T/run.err")" = "lnetctl selftest get: LNet is not configured: run 'lnetctl lnet configure'" ]
	fi
	lnetctl lnet configure
	run lnetctl selftest put 0@lo --count 3
	[ "$status" -eq 0 ]
	[ "$(counts)" = "put 0@lo 1048576 3 3 0 0" ]
}
