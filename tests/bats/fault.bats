#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl fault drop|delay (lnetctl-fault(8)): rules added, shown (exact
# YAML, Lustre's keys), reset and deleted; every bad argument refused with
# its own message, exit 2 and no rule changed (tests named "one:", one
# node, also on /dev/lnet). Then traffic between two nodes (topo_2x1;
# lnetd only in make check: they pass on /dev/lnet in a trial run, in
# three minutes of TCG): a drop rule fails pings and counts them; one in N drops exactly
# the expected share; --message and --portal filter; a drop on receive;
# --health_error lowers the health `net show -v` and `peer show -v` show;
# a delay rule holds (on send and on receive) and still delivers, a delete
# releases what it holds and an unconfigure fails it; rules come and go
# under load.

load helpers
load topo

A0=10.21.0.1@tcp
B0=10.21.0.2@tcp

one_node() {
	[[ $BATS_TEST_DESCRIPTION == one:* ]]
}

setup() {
	bats_require_minimum_version 1.5.0
	if one_node; then
		lnet_setup
		lnetctl lnet configure
		return
	fi
	topo_init
}

teardown() {
	if one_node; then
		lnet_teardown
	else
		topo_test_teardown
	fi
}

# What a failed fault command must leave as it was.
state() {
	lnetctl fault drop show
	lnetctl fault delay show
}

# show_is N TYPE YAML: node N's (0: this one's) `fault TYPE show` is YAML.
show_is() {
	if [ "$1" = 0 ]; then
		run lnetctl fault "$2" show
	else
		run on "$1" lnetctl fault "$2" show
	fi
	[ "$status" -eq 0 ]
	yaml_is "$3"
}

# fault_key N TYPE IDX KEY: KEY of rule IDX of node N's `fault TYPE show`.
fault_key() {
	run on "$1" lnetctl fault "$2" show
	[ "$status" -eq 0 ]
	yaml_get "d['fault'][$3]['$4']"
}

# health_of N net|peer NID: the health value node N shows for NID.
health_of() {
	run on "$1" lnetctl "$2" show -v 2
	[ "$status" -eq 0 ]
	if [ "$2" = net ]; then
		yaml_get "[ni['health stats']['health value'] for n in d['net'] for ni in n['local NI(s)'] if ni['nid'] == '$3'][0]"
	else
		yaml_get "[ni['health stats']['health value'] for p in d['peer'] for ni in p['peer ni'] if ni['nid'] == '$3'][0]"
	fi
}

# ---- one node --------------------------------------------------------------------

@test "one: add, show (Lustre's keys), reset and del of drop and delay rules" {
	lnetctl fault drop add --source '*' --dest 10.0.0.2@tcp --rate 4 --message PUT,get \
		--health_error local_error,remote_dropped
	lnetctl fault drop add -s '*@tcp1' -d '*' -i 5 -n -p 4,5 -o 0@lo
	lnetctl fault drop add -s 10.0.0.9@tcp -d '*' -x -e random -t drop
	lnetctl fault delay add -s 10.0.0.1 -d '*@o2ib2' -r 2 -l 3 -m ack,reply
	show_is 0 drop "fault:
- {rule_type: drop, fa_src: '*', fa_dst: 10.0.0.2@tcp, fa_ptl_mask: 0, fa_msg_mask: 6,
   da_rate: 4, da_interval: 0, da_health_error: 'local_error,remote_dropped',
   ds_dropped: 0, fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}
- {rule_type: drop, fa_src: '*@tcp1', fa_dst: '*', fa_local_nid: 0@lo, fa_ptl_mask: 48,
   fa_msg_mask: 0, da_rate: 0, da_interval: 5,
   ds_dropped: 0, fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}
- {rule_type: drop, fa_src: 10.0.0.9@tcp, fa_dst: '*', fa_ptl_mask: 0, fa_msg_mask: 0,
   da_rate: 1, da_interval: 0, da_health_error: random,
   ds_dropped: 0, fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}"
	show_is 0 delay "fault:
- {rule_type: delay, fa_src: 10.0.0.1@tcp, fa_dst: '*@o2ib2', fa_ptl_mask: 0,
   fa_msg_mask: 9, la_rate: 2, la_interval: 0, la_latency: 3,
   ls_delayed: 0, fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}"
	lnetctl fault drop reset
	lnetctl fault delay reset
	# del by --source and --dest takes the rule with exactly these patterns
	lnetctl fault drop del --source '*@tcp1' --dest '*'
	run lnetctl fault drop show
	[ "$(yaml_get "[r['fa_src'] for r in d['fault']]")" = "['*', '10.0.0.9@tcp']" ]
	lnetctl fault drop del --all
	run lnetctl fault drop show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	# delay rules were left alone
	run lnetctl fault delay show
	[ "$(yaml_get "len(d['fault'])")" = 1 ]
	lnetctl fault delay del -a
	run lnetctl fault delay show
	[ "$output" = "" ]
}

# bats test_tags=parse-only
@test "one: every bad argument of add has its own message, exit 2, no rule added" {
	lnetctl fault drop add -s '*' -d '*' -r 3
	local P="lnetctl fault drop add"
	fails 2 "$P: missing required option --source" fault drop add -d '*' -r 1
	fails 2 "$P: missing required option --dest" fault drop add -s '*' -r 1
	fails 2 "$P: give either --rate or --interval (or --drop_all), not neither" \
		fault drop add -s '*' -d '*'
	fails 2 "$P: give either --rate or --interval (or --drop_all), not both" \
		fault drop add -s '*' -d '*' -r 1 -i 2
	fails 2 "$P: --drop_all drops every message: not with --rate or --interval" \
		fault drop add -s '*' -d '*' -x -r 2
	fails 2 "$P: invalid --source 'x@@': expected a NID, '*' or '*@NET'" \
		fault drop add -s 'x@@' -d '*' -r 1
	fails 2 "$P: invalid --dest '*@foo': expected a NID, '*' or '*@NET'" \
		fault drop add -s '*' -d '*@foo' -r 1
	fails 2 "$P: invalid --rate '0': expected an integer 1-1000000000" \
		fault drop add -s '*' -d '*' -r 0
	fails 2 "$P: invalid --interval '86401': expected an integer 1-86400" \
		fault drop add -s '*' -d '*' -i 86401
	fails 2 "$P: --random needs --interval" fault drop add -s '*' -d '*' -r 1 -n
	fails 2 "$P: invalid --portal '64': expected a portal 0-63, or a list of them (4,12)" \
		fault drop add -s '*' -d '*' -r 1 -p 64
	fails 2 "$P: invalid --message 'PUT,,GET': expected PUT, ACK, GET or REPLY, or a list of them (PUT,GET)" \
		fault drop add -s '*' -d '*' -r 1 -m PUT,,GET
	fails 2 "$P: --portal with --message 'ACK': ACK and REPLY carry no portal" \
		fault drop add -s '*' -d '*' -r 1 -m ACK -p 3
	fails 2 "$P: invalid --health_error 'bogus': expected local_interrupt, local_dropped, local_aborted, local_no_route, local_error, local_timeout, remote_error, remote_dropped, remote_timeout, network_timeout or random, or a list of them" \
		fault drop add -s '*' -d '*' -x -e bogus
	fails 2 "$P: invalid --local_nid '1.1.1.1@foo': unknown LND 'foo': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" \
		fault drop add -s '*' -d '*' -r 1 -o 1.1.1.1@foo
	fails 2 "$P: invalid --rule_type 'delay': this command adds drop rules" \
		fault drop add -s '*' -d '*' -r 1 -t delay
	fails 2 "$P: option --rate given more than once" fault drop add -s '*' -d '*' -r 1 -r 2
	P="lnetctl fault delay add"
	fails 2 "$P: missing required option --latency" fault delay add -s '*' -d '*' -r 1
	fails 2 "$P: invalid --latency '0': expected an integer 1-3600" \
		fault delay add -s '*' -d '*' -r 1 -l 0
	fails 2 "$P: invalid --latency '3601': expected an integer 1-3600" \
		fault delay add -s '*' -d '*' -r 1 -l 3601
	fails 2 "$P: unknown option '-e'" \
		fault delay add -s '*' -d '*' -r 1 -l 1 -e local_error
}

# bats test_tags=parse-only
@test "one: del, reset and show: bad arguments exit 2, deleting nothing exits 1" {
	lnetctl fault drop add -s '*' -d '*' -r 3
	local P="lnetctl fault drop del"
	fails 2 "$P: give --all, or both --source and --dest" fault drop del -s '*'
	fails 2 "$P: give --all, or both --source and --dest" fault drop del
	fails 2 "$P: --all deletes every rule: not with --source or --dest" \
		fault drop del -a -s '*'
	fails 2 "$P: invalid --dest '1.2.3': expected a NID, '*' or '*@NET'" \
		fault drop del -s '*' -d 1.2.3
	fails 1 "$P: cannot delete drop rules: no drop rule has this --source and --dest" \
		fault drop del -s '*' -d '*@tcp'
	fails 1 "lnetctl fault delay del: cannot delete delay rules: no delay rule to delete" \
		fault delay del --all
	fails 2 "lnetctl fault drop show: unexpected argument 'x'" fault drop show x
	fails 2 "lnetctl fault: unknown command 'reset': expected one of drop, delay" fault reset ''
}

@test "one: LNet down: no rules, and adding one is an error; unconfigure deletes them" {
	lnetctl fault drop add -s '*' -d '*' -r 3
	lnetctl fault delay add -s '*' -d '*' -i 3 -l 1
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl fault drop add -s '*' -d '*' -r 3
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl fault drop add: LNet is not configured: run 'lnetctl lnet configure'" ]
	run --separate-stderr lnetctl fault drop show
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl fault drop show: LNet is not configured: run 'lnetctl lnet configure'" ]
	lnetctl lnet configure
	run lnetctl fault drop show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl fault delay show
	[ "$output" = "" ]
}

# ---- two nodes ---------------------------------------------------------------------

# bats test_tags=lnetd-only
@test "drop on send: pings fail and are counted; deleted, pings pass" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 1 lnetctl fault drop add -s '*' -d $B0 -r 1
	for _ in 1 2; do
		run on 1 lnetctl ping --timeout 1 $B0
		[ "$status" -ne 0 ]
	done
	show_is 1 drop "fault:
- {rule_type: drop, fa_src: '*', fa_dst: $B0, fa_ptl_mask: 0, fa_msg_mask: 0,
   da_rate: 1, da_interval: 0,
   ds_dropped: 2, fs_count: 2, fs_put: 0, fs_ack: 0, fs_get: 2, fs_reply: 0}"
	on 1 lnetctl fault drop reset
	[ "$(fault_key 1 drop 0 ds_dropped)" = 0 ]
	on 1 lnetctl fault drop del -s '*' -d $B0
	on 1 lnetctl ping $B0
}

# bats test_tags=lnetd-only
@test "drop on receive: node2 drops the GETs from node1, counted in its drop_count" {
	topo_2x1
	on 1 lnetctl ping $B0
	d0=$(stats_count 2 drop_count)
	on 2 lnetctl fault drop add -s $A0 -d '*@tcp' -m GET -r 1
	run on 1 lnetctl ping --timeout 1 $B0
	[ "$status" -ne 0 ]
	[ "$(fault_key 2 drop 0 fs_get)" = 1 ]
	[ "$(fault_key 2 drop 0 fs_count)" = 1 ]
	[ "$(stats_count 2 drop_count)" = $((d0 + 1)) ]
	on 2 lnetctl fault drop del --all
	on 1 lnetctl ping $B0
}

# bats test_tags=lnetd-only
@test "--rate 4 drops exactly 10 of 40 PUTs; --message and --portal leave the others alone" {
	topo_2x1
	on 1 lnetctl set retry_count 0
	on 1 lnetctl ping $B0
	# tried first, and never hit: REPLYs (node1 sends none), another portal
	on 1 lnetctl fault drop add -s '*' -d $B0 -m REPLY -r 1 -e local_error
	on 1 lnetctl fault drop add -s '*' -d $B0 -p 61 -r 1 -e local_error
	on 1 lnetctl fault drop add -s $A0 -d $B0 -m PUT -p 62 -r 4 -e local_error
	run on 1 lnetctl selftest put $B0 --count 40 --size 4096 --concurrency 1
	st_is put $B0 4096 40 30 10 0
	[ "$(fault_key 1 drop 0 fs_count)" = 0 ]
	[ "$(fault_key 1 drop 1 fs_count)" = 0 ]
	show_is 1 drop "$(on 1 lnetctl fault drop show | "$TOPO_PY" -c '
import sys, yaml
d = yaml.safe_load(sys.stdin)
r = d["fault"][2]
assert (r["ds_dropped"], r["fs_count"], r["fs_put"], r["fs_ack"], r["fs_get"]) == (10, 10, 10, 0, 0), r
assert (r["fa_msg_mask"], r["fa_ptl_mask"], r["da_rate"]) == (2, 1 << 62, 4), r
print(yaml.safe_dump(d))')"
}

# bats test_tags=lnetd-only
@test "--health_error: local_error lowers the local NI, remote_error the peer NI" {
	topo_2x1
	on 1 lnetctl set retry_count 0
	on 1 lnetctl set recovery_interval 60
	on 1 lnetctl ping $B0
	[ "$(health_of 1 net $A0)" = 1000 ]
	on 1 lnetctl fault drop add -s '*' -d $B0 -m GET -r 1 -e local_error
	run on 1 lnetctl ping --timeout 2 $B0
	[ "$status" -ne 0 ]
	h=$(health_of 1 net $A0)
	echo "local NI health: $h"
	[ "$h" -lt 1000 ]
	[ "$(health_of 1 peer $B0)" = 1000 ]
	on 1 lnetctl fault drop del --all
	on 1 lnetctl fault drop add -s '*' -d $B0 -m GET -r 1 -e remote_error
	run on 1 lnetctl ping --timeout 2 $B0
	[ "$status" -ne 0 ]
	h=$(health_of 1 peer $B0)
	echo "peer NI health: $h"
	[ "$h" -lt 1000 ]
	[ "$(fault_key 1 drop 0 da_health_error)" = remote_error ]
}

# bats test_tags=lnetd-only
@test "delay: a delayed ping still gets its reply, and the rule counts it" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 1 lnetctl fault delay add -s '*' -d $B0 -m GET -r 1 -l 1
	run on 1 lnetctl ping --timeout 10 $B0
	[ "$status" -eq 0 ]
	show_is 1 delay "fault:
- {rule_type: delay, fa_src: '*', fa_dst: $B0, fa_ptl_mask: 0, fa_msg_mask: 4,
   la_rate: 1, la_interval: 0, la_latency: 1,
   ls_delayed: 1, fs_count: 1, fs_put: 0, fs_ack: 0, fs_get: 1, fs_reply: 0}"
}

# wait_delayed N COUNT: until node N's first delay rule has delayed COUNT.
wait_delayed() {
	for _ in $(seq 100); do
		[ "$(fault_key "$1" delay 0 ls_delayed)" = "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

# bats test_tags=lnetd-only
@test "delay on receive: node2 holds node1's GET, then answers it; deleting releases at once" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 2 lnetctl fault delay add -s $A0 -d '*' -m GET -r 1 -l 1
	run on 1 lnetctl ping --timeout 10 $B0
	[ "$status" -eq 0 ]
	[ "$(fault_key 2 delay 0 ls_delayed)" = 1 ]
	[ "$(fault_key 2 delay 0 fs_get)" = 1 ]
	on 2 lnetctl fault delay del --all
	on 2 lnetctl fault delay add -s $A0 -d '*' -m GET -r 1 -l 3600
	on 1 lnetctl ping --timeout 30 $B0 >"$TD/ping.out" 2>&1 &
	p=$!
	wait_delayed 2 1
	on 2 lnetctl fault delay del -s $A0 -d '*'
	wait "$p"
	grep -q "primary nid: $B0" "$TD/ping.out"
}


# bats test_tags=lnetd-only
@test "delay: deleting the rule sends at once what it holds" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 1 lnetctl fault delay add -s '*' -d $B0 -m GET -r 1 -l 3600
	on 1 lnetctl ping --timeout 30 $B0 >"$TD/ping.out" 2>&1 &
	p=$!
	wait_delayed 1 1
	on 1 lnetctl fault delay del -s '*' -d $B0
	wait "$p"
	grep -q "primary nid: $B0" "$TD/ping.out"
}

# bats test_tags=lnetd-only
@test "delay: unconfigure fails what a rule holds, frees the rules; configure starts with none" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 1 lnetctl fault delay add -s '*' -d $B0 -r 1 -l 3600
	on 1 lnetctl ping --timeout 30 $B0 >"$TD/ping.out" 2>&1 &
	p=$!
	wait_delayed 1 1
	on 1 lnetctl lnet unconfigure
	run wait "$p"
	[ "$status" -ne 0 ]
	! grep -q "never finalized" "$(node_log 1)"
	on 1 lnetctl lnet configure
	run on 1 lnetctl fault delay show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

# bats test_tags=lnetd-only
@test "rules added and deleted under load: every message ends, nothing finalized twice or leaked" {
	topo_2x1
	on 1 lnetctl set retry_count 1
	on 1 lnetctl ping $B0
	on 1 lnetctl selftest put $B0 --count 3000 --size 4096 --concurrency 16 --timeout 20 \
		>"$TD/st.out" 2>&1 &
	st=$!
	for i in $(seq 30); do
		on 1 lnetctl fault drop add -s '*' -d $B0 -r 3 -e local_error
		on 1 lnetctl fault delay add -s '*' -d '*' -r 2 -l 1
		on 2 lnetctl fault drop add -s $A0 -d '*' -m ACK -r 50
		on 2 lnetctl fault delay add -s $A0 -d '*' -r 5 -l 1
		sleep 0.05
		on 1 lnetctl fault drop del --all
		[ $((i % 3)) = 0 ] && on 1 lnetctl fault delay del --all
		[ $((i % 2)) = 0 ] && on 2 lnetctl fault delay del --all
		on 2 lnetctl fault drop del -s $A0 -d '*'
	done
	on 1 lnetctl fault delay del --all || true
	on 2 lnetctl fault delay del --all || true
	wait "$st" || true
	cat "$TD/st.out"
	run "$TOPO_PY" -c '
import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))["selftest"]
print(s["ok"] + s["failed"], s["corrupt"])' "$TD/st.out"
	[ "$output" = "3000 0" ]
	# both nodes still answer, and said nothing of a message handled twice
	on 1 lnetctl ping $B0
	on 2 lnetctl ping $A0
	! grep -E "finalized twice|never finalized|neither sent" "$(node_log 1)" "$(node_log 2)"
	on 1 lnetctl lnet unconfigure
	! grep -E "never finalized" "$(node_log 1)"
}

# bats test_tags=lnetd-only
@test "delay on receive: unconfigure drops the held header; the node comes back clean" {
	topo_2x1
	on 1 lnetctl ping $B0
	on 2 lnetctl fault delay add -s $A0 -d '*' -r 1 -l 3600
	on 1 lnetctl ping --timeout 5 $B0 >"$TD/ping.out" 2>&1 &
	p=$!
	wait_delayed 2 1
	on 2 lnetctl lnet unconfigure
	run wait "$p"
	[ "$status" -ne 0 ]
	! grep -E "never finalized|finalized twice" "$(node_log 2)"
	on 2 lnetctl lnet configure
	on 2 lnetctl net add --net tcp --if b0
	run on 2 lnetctl fault delay show
	[ "$output" = "" ]
	on 1 lnetctl ping $B0
}
