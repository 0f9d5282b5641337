#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl selftest run: Lustre's lnet_selftest protocol (kernel/selftest/)
# between two and three of our nodes (topo.bash: node1 10.21.0.1, node2
# 10.21.0.2, node3 10.21.0.3 on tcp). Node 1 is the console; the --from
# nodes run the client tests, the --to nodes serve them. Checked: the
# selftest_run document (schema, every node, exact bulk bytes), ping,
# read and write with each check mode, a node that leaves mid-run, bad
# arguments with one clear message each and nothing left behind.

bats_require_minimum_version 1.5.0

load helpers
load topo

A=10.21.0.1@tcp
B=10.21.0.2@tcp
C=10.21.0.3@tcp

setup() {
	if [ "$LNET_TRANSPORT" = dev ]; then
		skip "one /dev/lnet per host: several nodes need one lnetd each"
	fi
	topo_init
}

teardown() {
	topo_test_teardown
}

# Three nodes with one NI each on one bridge (topo_3's nodes 1 and 2 also
# have a direct link, which node 3 cannot reach).
topo_3hub() {
	topo_node 1 && topo_node 2 && topo_node 3 &&
	topo_hub_port 1 a0 10.21.0.1/24 &&
	topo_hub_port 2 b0 10.21.0.2/24 &&
	topo_hub_port 3 c0 10.21.0.3/24 &&
	on 1 lnetctl net add --net tcp --if a0 &&
	on 2 lnetctl net add --net tcp --if b0 &&
	on 3 lnetctl net add --net tcp --if c0
}

# yaml_valid SCHEMA: $output is valid under yaml-schemas/SCHEMA.schema.yaml
yaml_valid() {
	printf '%s\n' "$output" >"$TD/doc.yaml"
	/usr/bin/python3 "$TOP/tests/tools/yaml-validate.py" \
		"$TOP/yaml-schemas/$1.schema.yaml" "$TD/doc.yaml" | grep -qx "$TD/doc.yaml: ok"
}

# field I KEY: KEY of node I of the selftest_run document in $output
field() {
	yaml_get "d['selftest_run']['nodes'][$1]['$2']"
}

@test "selftest run ping: two nodes, every node in the document" {
	topo_2x1
	run --separate-stderr on 1 lnetctl selftest run --from "$A" --to "$B" --count 20 \
		--concurrency 2
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	yaml_valid selftest-run
	[ "$(yaml_get "[(n['nid'], n['role'], n['status'], n['errors']) for n in d['selftest_run']['nodes']]")" = \
	  "[('$A', 'client', 'ok', 0), ('$B', 'server', 'ok', 0)]" ]
	[ "$(yaml_get "(d['selftest_run']['test'], d['selftest_run']['count'], d['selftest_run']['concurrency'])")" = \
	  "('ping', 20, 2)" ]
	[ "$(yaml_get "'size' in d['selftest_run']")" = False ]
}

@test "selftest run write and read: exact bulk bytes on the server, every check mode" {
	topo_2x1
	for check in none simple full; do
		run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T write \
			-z 64K -k $check -c 10 -n 2
		[ "$status" -eq 0 ]
		yaml_valid selftest-run
		[ "$(field 1 bulk_write_bytes)" = $((10 * 2 * 65536)) ]
		[ "$(field 1 bulk_read_bytes)" = 0 ]
		[ "$(yaml_get "d['selftest_run']['check']")" = $check ]
		run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T read \
			-z 1M -k $check -c 3
		[ "$status" -eq 0 ]
		[ "$(field 1 bulk_read_bytes)" = $((3 * 1048576)) ]
		[ "$(field 0 errors)" = 0 ]
	done
}

@test "selftest run from two clients to one server, and from a node to itself" {
	topo_3hub
	run --separate-stderr on 1 lnetctl selftest run -f "$A,$B" -t "$C" -T write -z 4K -c 7
	[ "$status" -eq 0 ]
	[ "$(field 2 bulk_write_bytes)" = $((2 * 7 * 4096)) ]
	[ "$(yaml_get "[n['role'] for n in d['selftest_run']['nodes']]")" = \
	  "['client', 'client', 'server']" ]
	# node 2 drives nodes 2 and 3, its own NID among them
	run --separate-stderr on 2 lnetctl selftest run -f "$B" -t "$B,$C" -c 5
	[ "$status" -eq 0 ]
	[ "$(field 0 errors)" = 0 ]
}

@test "selftest run: a server that leaves mid-run is reported, exit 1" {
	topo_3hub
	on 1 lnetctl selftest run -f "$A" -t "$B,$C" --count 0 --duration 4 --timeout 1 \
		>"$TD/out" 2>"$TD/err" &
	local pid=$!
	sleep 1.5
	topo_kill 3
	wait $pid && false
	output=$(cat "$TD/out")
	echo "$output"
	# the client's RPC in flight to node 3 waits for its 64 s timeout, as
	# Lustre's does; what fails at once is reading node 3's counters
	[ "$(field 0 role)" = client ]
	[ "$(yaml_get "d['selftest_run']['nodes'][0]['errors'] > 0")" = True ]
	[ "$(field 1 errors)" = 0 ]
	[ "$(field 2 status)" = "Connection refused" ]
}

@test "selftest run: a node with no lnet_selftest answering: named, nothing started" {
	topo_2x1
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t 10.21.0.9@tcp --timeout 1
	[ "$status" -eq 1 ]
	echo "stderr: $stderr"
	[ "$stderr" = "lnetctl selftest run: selftest run failed: 10.21.0.9@tcp did not take part: no answer (is lnet_selftest running there?)" ]
	# node 1's session was ended again: a new run starts at once
	run on 1 lnetctl selftest run -f "$A" -t "$B" -c 2
	[ "$status" -eq 0 ]
}

@test "selftest run: bad arguments, one message each" {
	topo_2x1
	run --separate-stderr on 1 lnetctl selftest run -t "$B"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--from and --to are both needed"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T copy
	[[ "$stderr" == *"--test: 'copy' is not one of ping, read, write"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T read -k most
	[[ "$stderr" == *"--check: 'most' is not one of none, simple, full"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T write -z 1001
	[[ "$stderr" == *"--size: '1001' is not a multiple of 8 bytes"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -z 4K
	[[ "$stderr" == *"--size and --check are for --test read and write, not ping"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -c 0
	[[ "$stderr" == *"--count 0 runs until --duration: give one"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -n 1025
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--concurrency"*"1025"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B,$B"
	echo "stderr: $stderr"
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl selftest run: selftest run failed: Invalid argument" ]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t 2001:db8::2@tcp
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl selftest run: selftest run failed: lnet_selftest has no large NIDs: every NID must be IPv4 or numeric" ]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T ping -c 1
	[ "$status" -eq 0 ]
}
