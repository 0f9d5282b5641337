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

# lnetd only in make check: on /dev/lnet every test but the SIGKILL one
# passes (a trial run in the VM), in four minutes of TCG; the console's
# core code is the same (tests/unit/test_lst.c).
# bats file_tags=lnetd-only

load helpers
load topo

A=10.21.0.1@tcp
B=10.21.0.2@tcp
C=10.21.0.3@tcp

setup() {
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

# lst's off=: the client's buffer starts that far into its first page; the
# pattern of CHECK_SIMPLE is on the pages as the server sees them, so that
# neither side reports the data corrupt (Lustre's own client would)
@test "selftest run write and read at an offset: no errors, the offset in the document" {
	topo_2x1
	for op in write read; do
		run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T $op \
			-z 12K -k simple -o 4088 -c 10 -n 2
		[ "$status" -eq 0 ]
		yaml_valid selftest-run
		[ "$(yaml_get "d['selftest_run']['offset']")" = 4088 ]
		[ "$(field 0 errors)" = 0 ]
		[ "$(field 0 brw_errors)" = 0 ]
		[ "$(field 1 bulk_${op}_bytes)" = $((10 * 2 * 12288)) ]
	done
	# the largest bulk at the largest offset: 256 pages
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T write \
		-z $((1048576 - 4088)) -k full --offset 4088 -c 2
	[ "$status" -eq 0 ]
	[ "$(field 0 brw_errors)" = 0 ]
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
	# until stopped, 16 units to itself: their RPCs end inside their send,
	# and the node must still answer the console and node 3
	run --separate-stderr on 1 lnetctl selftest run -f "$B" -t "$B,$C" -T write -z 64K \
		-n 16 -c 0 -d 2
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[n['status'] for n in d['selftest_run']['nodes']]")" = "['ok', 'ok', 'ok']" ]
	[ "$(field 0 errors)" = 0 ]
	[ "$(yaml_get "d['selftest_run']['nodes'][2]['bulk_write_bytes'] > 0")" = True ]
}

# lnetd only: the node leaves by SIGKILL of its lnetd (topo_kill)
# bats test_tags=lnetd-only
@test "selftest run to a Multi-Rail peer (discovery on): replies from either NI are taken" {
	# two NIs on one net, then one NI on each of two nets: a server answers
	# from the NI its selection picks, which the client's MEs must accept
	for shape in mr nets; do
		topo_2x2 $shape
		for op in write read; do
			run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T $op \
				-z 64K -k simple -c 40 -n 4
			[ "$status" -eq 0 ]
			[ -z "$stderr" ]
			[ "$(yaml_get "[(n['status'], n['errors']) for n in d['selftest_run']['nodes']]")" = \
			  "[('ok', 0), ('ok', 0)]" ]
			[ "$(field 1 bulk_${op}_bytes)" = $((40 * 4 * 65536)) ]
		done
		run on 1 lnetctl peer show --nid "$B"
		[ "$status" -eq 0 ]
		[ "$(yaml_get "(d['peer'][0]['Multi-Rail'], len(d['peer'][0]['peer ni']))")" = "(True, 2)" ]
		topo_teardown
		topo_init
	done
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
	[[ "$stderr" == *"--size, --check and --offset are for --test read and write, not ping"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -o 8
	[[ "$stderr" == *"--size, --check and --offset are for --test read and write, not ping"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T read -o 8
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--offset: '8' with --size 1048576: offset and size must be at most 1048576 bytes in all (a bulk spans 256 pages at most)"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T read -z 4K -o 12
	[[ "$stderr" == *"--offset: '12' is not a multiple of 8 bytes"* ]]
	run --separate-stderr on 1 lnetctl selftest run -f "$A" -t "$B" -T read -z 4K -o 4096
	[[ "$stderr" == *"invalid --offset '4096': expected an integer 0-4088"* ]]
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

# --- lst's model: session, groups, batches, tests, stat ---------------------------------

# lst_state: what group show and batch show say on node 1 (compared around a refusal)
lst_state() {
	on 1 lnetctl selftest group show && on 1 lnetctl selftest batch show &&
		on 1 lnetctl selftest session show
}

# lst_refused STATUS MESSAGE ARGS...: on node 1, exit STATUS, exactly MESSAGE on
# stderr, nothing on stdout, and the session as it was
lst_refused() {
	local want_status=$1 want_msg=$2
	shift 2
	lst_state >"$TD/before" 2>&1
	run --separate-stderr on 1 lnetctl "$@"
	echo "status $status stderr: $stderr"
	[ "$status" -eq "$want_status" ]
	[ "$stderr" = "$want_msg" ]
	[ -z "$output" ]
	lst_state >"$TD/after" 2>&1
	cmp "$TD/before" "$TD/after" || { diff "$TD/before" "$TD/after"; return 1; }
}

@test "selftest session: two groups, a batch with ping and brw write, run, query, stat, stop, end" {
	topo_3hub
	on 1 lnetctl selftest session new s1 --rpc-timeout 5
	run on 1 lnetctl selftest session show
	[ "$status" -eq 0 ]
	yaml_is "selftest_session: {name: s1, timeout: 300, rpc_timeout: 5, groups: 0, batches: 0}"
	on 1 lnetctl selftest group add clients "$A"
	on 1 lnetctl selftest group add servers "$B,$C"
	run on 1 lnetctl selftest group show
	[ "$status" -eq 0 ]
	yaml_valid selftest-group
	yaml_is "selftest_group:
- name: clients
  nodes: [{nid: $A, state: active, status: ok}]
- name: servers
  nodes: [{nid: $B, state: active, status: ok}, {nid: $C, state: active, status: ok}]"
	on 1 lnetctl selftest batch add b1
	on 1 lnetctl selftest test add --batch b1 --from clients --to servers ping
	on 1 lnetctl selftest test add --batch b1 --from clients --to servers write \
		--size 64K --check full --offset 8 --concurrency 2
	run on 1 lnetctl selftest batch show b1
	[ "$status" -eq 0 ]
	yaml_valid selftest-batch
	yaml_is "selftest_batch:
- name: b1
  running: false
  tests:
  - {test: ping, from: clients, to: servers, concurrency: 1, loop: 0}
  - {test: write, from: clients, to: servers, size: 65536, check: full, offset: 8, concurrency: 2, loop: 0}"
	on 1 lnetctl selftest batch run b1
	run on 1 lnetctl selftest batch query b1
	[ "$status" -eq 0 ]
	yaml_is "selftest_query: {batch: b1, active: 2}"
	run on 1 lnetctl selftest batch show b1
	[ "$(yaml_get "d['selftest_batch'][0]['running']")" = True ]
	run --separate-stderr on 1 lnetctl selftest stat servers --delay 1
	[ "$status" -eq 0 ]
	yaml_valid selftest-stat
	[ "$(yaml_get "[n['nid'] for n in d['selftest_stat']['nodes']]")" = "['$B', '$C']" ]
	[ "$(yaml_get "all(n['msgs_r'] > 0 and n['mb_r'] > 0 and n['errors'] == 0 and n['seconds'] > 0.5 for n in d['selftest_stat']['nodes'])")" = True ]
	on 1 lnetctl selftest batch stop b1
	run on 1 lnetctl selftest batch query b1
	yaml_is "selftest_query: {batch: b1, active: 0}"
	run on 1 lnetctl selftest batch show b1
	[ "$(yaml_get "d['selftest_batch'][0]['running']")" = False ]
	run --separate-stderr on 1 lnetctl selftest session end
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run --separate-stderr on 1 lnetctl selftest session show
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl selftest session show: cannot read the session: no session (make one: lnetctl selftest session new NAME)" ]
	# the nodes' sessions are gone: a run starts at once without --force trouble
	run on 1 lnetctl selftest run -f "$A" -t "$B" -c 2
	[ "$status" -eq 0 ]
}

@test "selftest session: batch stop returns when no client test is active any more" {
	topo_3hub
	on 1 lnetctl selftest session new s1
	on 1 lnetctl selftest group add clients "$A"
	on 1 lnetctl selftest group add servers "$B,$C"
	on 1 lnetctl selftest batch add b1
	# 1 MiB writes, 64 units per server: RPCs are in flight whenever the stop comes
	on 1 lnetctl selftest test add --batch b1 --from clients --to servers write \
		--size 1M --concurrency 64
	for _ in 1 2 3; do
		on 1 lnetctl selftest batch run b1
		sleep 0.3
		on 1 lnetctl selftest batch stop b1
		run on 1 lnetctl selftest batch query b1
		[ "$status" -eq 0 ]
		yaml_is "selftest_query: {batch: b1, active: 0}"
	done
	on 1 lnetctl selftest session end
}

@test "selftest session: refusals name the object and change nothing" {
	topo_3hub
	on 1 lnetctl selftest session new s1 --rpc-timeout 1
	lst_refused 1 "lnetctl selftest session new: cannot make the session: this node's console has a session or a run already (end it, or --force a new session)" \
		selftest session new s2
	on 1 lnetctl selftest group add g1 "$A"
	on 1 lnetctl selftest group add g2 "$B"
	# a node that does not answer: no group
	lst_refused 1 "lnetctl selftest group add: no node added: 10.21.0.9@tcp: no answer (is lnet_selftest running there?)" \
		selftest group add g3 10.21.0.9@tcp
	on 1 lnetctl selftest batch add b1
	on 1 lnetctl selftest test add -b b1 -f g1 -t g2 ping --loop 0
	lst_refused 1 "lnetctl selftest group del: cannot delete the group: group 'g2' is used by a test of a batch" \
		selftest group del g2
	lst_refused 1 "lnetctl selftest batch add: cannot add the batch: batch 'b1' exists" \
		selftest batch add b1
	lst_refused 1 "lnetctl selftest test add: cannot add the test: no group 'nope'" \
		selftest test add -b b1 -f nope -t g2 ping
	lst_refused 1 "lnetctl selftest test add: cannot add the test: no batch 'b9'" \
		selftest test add -b b9 -f g1 -t g2 ping
	lst_refused 1 "lnetctl selftest batch run: cannot run the batch: no batch 'b9'" \
		selftest batch run b9
	on 1 lnetctl selftest batch run b1
	lst_refused 1 "lnetctl selftest test add: cannot add the test: batch 'b1' is running: stop it first" \
		selftest test add -b b1 -f g1 -t g2 write
	lst_refused 1 "lnetctl selftest group show: no group 'g3'" selftest group show g3
	on 1 lnetctl selftest batch stop b1
	# a group no test uses goes, and its node leaves the session
	on 1 lnetctl selftest group add g4 "$C"
	on 1 lnetctl selftest group del g4
	run on 1 lnetctl selftest group show
	[ "$(yaml_get "[g['name'] for g in d['selftest_group']]")" = "['g1', 'g2']" ]
	# --force replaces the session: the old one ends on its nodes
	on 1 lnetctl selftest session new s2 --force
	run on 1 lnetctl selftest session show
	yaml_is "selftest_session: {name: s2, timeout: 300, rpc_timeout: 30, groups: 0, batches: 0}"
	on 1 lnetctl selftest session end
	run --separate-stderr on 1 lnetctl selftest group show
	[ "$status" -eq 1 ]
}

@test "selftest session: usage errors, exit 2, exact messages, nothing changed" {
	topo_2x1
	on 1 lnetctl selftest session new s1 --rpc-timeout 2
	on 1 lnetctl selftest group add g1 "$A"
	on 1 lnetctl selftest batch add b1
	lst_refused 2 "lnetctl selftest session new: NAME: 'a b' is not a name: 1-31 characters of A-Z a-z 0-9 _ . -" \
		selftest session new "a b"
	lst_refused 2 "lnetctl selftest session new: invalid --timeout '0': expected an integer 1-86400" \
		selftest session new s2 --timeout 0
	lst_refused 2 "lnetctl selftest group add: NAME: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is not a name: 1-31 characters of A-Z a-z 0-9 _ . -" \
		selftest group add xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx "$A"
	lst_refused 2 "lnetctl selftest test add: missing required option --batch" \
		selftest test add -f g1 -t g1 ping
	lst_refused 2 "lnetctl selftest test add: --test: 'copy' is not one of ping, read, write" \
		selftest test add -b b1 -f g1 -t g1 copy
	lst_refused 2 "lnetctl selftest test add: --size, --check and --offset are for the test read and write, not ping" \
		selftest test add -b b1 -f g1 -t g1 ping --size 4K
	lst_refused 2 "lnetctl selftest test add: --size: '1001' is not a multiple of 8 bytes" \
		selftest test add -b b1 -f g1 -t g1 write --size 1001
	lst_refused 2 "lnetctl selftest test add: --check: 'most' is not one of none, simple, full" \
		selftest test add -b b1 -f g1 -t g1 read --check most
	lst_refused 2 "lnetctl selftest test add: --offset: '1024' with --size 1048576: offset and size must be at most 1048576 bytes in all (a bulk spans 256 pages at most)" \
		selftest test add -b b1 -f g1 -t g1 write --offset 1024
	lst_refused 2 "lnetctl selftest test add: invalid --offset '-8': expected an integer 0-4088" \
		selftest test add -b b1 -f g1 -t g1 write --size 4K --offset -8
	lst_refused 2 "lnetctl selftest stat: invalid --delay '0': expected an integer 1-3600" \
		selftest stat g1 --delay 0
}
