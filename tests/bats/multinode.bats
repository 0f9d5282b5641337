#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Several nodes (a network namespace and an lnetd each, topo.bash; in the
# test VM a namespace and the lnet module's instance of it): ping and
# discovery, 1 MiB PUT/GET with every byte checked, and UDSP rules deciding
# which interfaces carry real traffic, read from the per-NI counters.

load helpers
load topo

A0=10.21.0.1@tcp
A1=10.22.0.1@tcp
B0=10.21.0.2@tcp
B1=10.22.0.2@tcp
N=50

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# sum_delta_is WANT BEFORE AFTER: two counters moved by WANT together.
sum_delta_is() {
	local x y
	read -r x y <<<"$(deltas "$2" "$3")"
	if [ $((x + y)) -ne "$1" ]; then
		echo "counter deltas: got '$x $y', want $1 together"
		return 1
	fi
}

# round_robin WHAT BEFORE AFTER: each of two counters moved, N together
# (the traffic took turns over both).
round_robin() {
	local x y
	read -r x y <<<"$(deltas "$2" "$3")"
	echo "$1: $x $y"
	[ "$x" -gt 0 ]
	[ "$y" -gt 0 ]
	[ $((x + y)) -eq "$N" ]
}

# put_n NODE TARGET [ARGS]: N 4 KiB PUTs, all of them ok.
put_n() {
	local node=$1 target=$2
	shift 2
	run on "$node" lnetctl selftest put "$target" --count "$N" --size 4096 "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put "$target" 4096 "$N" "$N" 0 0
}

# discovered_2x2 mr|nets [RULE...]: topo_2x2, node1 has discovered node2
# and, given RULE, has that rule (lnetctl policy add RULE).
discovered_2x2() {
	topo_2x2 "$1"
	shift
	on 1 lnetctl discover $B0
	if [ $# -gt 0 ]; then
		on 1 lnetctl policy add "$@"
	fi
}

# puts_take_tcp1 (topo_2x2 nets): all N PUTs from node1 to B0 leave by
# node1's tcp1 NI and arrive on node2's.
puts_take_tcp1() {
	moves "0 $N" "ni_count 1 send_count $A0 10.22.0.1@tcp1" \
	      "0 $N" "ni_count 2 recv_count $B0 10.22.0.2@tcp1" -- put_n 1 $B0
}

# --- two nodes, one NI each ---------------------------------------------------

@test "2 nodes, one NI each: ping both ways" {
	topo_2x1
	run on 1 lnetctl ping $B0
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $B0
  Multi-Rail: false
  peer_ni:
  - nid: $B0"
	run on 2 lnetctl ping $A0
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $A0
  Multi-Rail: false
  peer_ni:
  - nid: $A0"
}

@test "2 nodes, one NI each: discover, then peer show lists the discovered NI" {
	topo_2x1
	run on 1 lnetctl discover $B0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0"
	run on 1 lnetctl peer show
	[ "$status" -eq 0 ]
	yaml_is "peer:
- primary nid: $B0
  Multi-Rail: true
  peer ni:
  - nid: $B0
    state: up"
	# node2 learnt node1 from the traffic (and the push)
	run on 2 lnetctl peer show
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[[n['nid'] for n in p['peer ni']] for p in d['peer']]")" = \
	  "[['$A0']]" ]
}

@test "one ping: one GET out and one REPLY back, on both nodes' counters" {
	topo_2x1
	on 1 lnetctl ping $B0
	[ "$(ni_count 1 send_count $A0)" = 1 ]
	[ "$(ni_count 1 recv_count $A0)" = 1 ]
	[ "$(peer_ni_count 1 send_count $B0)" = 1 ]
	[ "$(peer_ni_count 1 recv_count $B0)" = 1 ]
	[ "$(ni_count 2 recv_count $B0)" = 1 ]
	[ "$(ni_count 2 send_count $B0)" = 1 ]
	[ "$(peer_ni_count 2 recv_count $A0)" = 1 ]
	[ "$(peer_ni_count 2 send_count $A0)" = 1 ]
}

# latencies N KIND NID: "<samples> <min<=avg<=max and min>0>" for put_egress,
# get_rtt and put_ack of node N's local NI (net) or peer NI (peer) NID,
# after checking that statistics has Lustre's keys in Lustre's order.
latencies() {
	on "$1" lnetctl "$2" show -v >"$TD/lat.$1.yaml" || return 1
	"$TOPO_PY" - "$2" "$3" "$TD/lat.$1.yaml" <<'PY'
import sys, yaml
kind, nid, path = sys.argv[1:]
d = yaml.safe_load(open(path))
if kind == 'net':
    nis = [ni for n in d['net'] for ni in n['local NI(s)']]
else:
    nis = [ni for p in d['peer'] for ni in p['peer ni']]
st = [ni for ni in nis if ni['nid'] == nid][0]['statistics']
lats = ['put_egress', 'get_rtt', 'put_ack']
want = ['send_count', 'recv_count', 'drop_count'] + \
       ['%s_%s' % (l, s) for l in lats for s in ('samples', 'min_nsec', 'max_nsec', 'avg_nsec')]
assert list(st) == want, list(st)
out = []
for l in lats:
    n, lo, hi, avg = (st['%s_%s' % (l, s)] for s in ('samples', 'min_nsec', 'max_nsec', 'avg_nsec'))
    ok = 0 < lo <= avg <= hi if n else lo == hi == avg == 0
    out.append('%d:%s' % (n, 'ok' if ok else 'bad(%d,%d,%d)' % (lo, avg, hi)))
print(' '.join(out))
PY
}

@test "latencies: 3 pings, a discovery and 4 selftest PUTs counted on the sender's NI and peer NI" {
	topo_2x1
	for _ in 1 2 3; do on 1 lnetctl ping $B0 >/dev/null; done
	# the first PUT to an undiscovered peer discovers it: a ping and a push
	on 1 lnetctl selftest put $B0 --count 4 --size 4096 >/dev/null
	# every PUT asked for an ACK; every ping is a GET and its REPLY
	[ "$(latencies 1 net $A0)" = "5:ok 4:ok 5:ok" ]
	[ "$(latencies 1 peer $B0)" = "5:ok 4:ok 5:ok" ]
	# node 2 only answered: ACKs and REPLYs are measured by no one
	[ "$(latencies 2 net $B0)" = "0:ok 0:ok 0:ok" ]
	[ "$(latencies 2 peer $A0)" = "0:ok 0:ok 0:ok" ]
	on 1 lnetctl stats reset
	[ "$(latencies 1 net $A0)" = "0:ok 0:ok 0:ok" ]
	[ "$(latencies 1 peer $B0)" = "0:ok 0:ok 0:ok" ]
}

@test "ping of a NID nobody has fails with exit 1 and the NID in the error" {
	topo_2x1
	run on 1 lnetctl ping 10.21.0.9@tcp --timeout 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"10.21.0.9@tcp"* ]]
}

# --- two nodes, two NIs each (multi-rail) --------------------------------------

@test "multi-rail: discover shows both peer NIs; peer show lists them" {
	topo_2x2 mr
	run on 1 lnetctl discover $B0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0
  - nid: $B1"
	run on 1 lnetctl peer show
	[ "$status" -eq 0 ]
	yaml_is "peer:
- primary nid: $B0
  Multi-Rail: true
  peer ni:
  - nid: $B0
    state: up
  - nid: $B1
    state: up"
}

@test "multi-rail: selftest put 1 MiB x 20, every byte checked; counters add up" {
	discovered_2x2 mr
	s1=$(ni_count 1 send_count $A0 $A1)
	r1=$(ni_count 1 recv_count $A0 $A1)
	r2=$(ni_count 2 recv_count $B0 $B1)
	st2=$(stats_count 2 recv_length selftest_corrupt)
	run on 1 lnetctl selftest put $B0 --size 1048576 --count 20
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put $B0 1048576 20 20 0 0
	# node2 took 20 MiB of payload and found every byte as sent
	delta_is "20971520 0" "$st2" "$(stats_count 2 recv_length selftest_corrupt)"
	[ "$(stats_count 2 selftest_corrupt)" = 0 ]
	# 20 PUTs leave node1 and reach node2, 20 ACKs come back
	sum_delta_is 20 "$s1" "$(ni_count 1 send_count $A0 $A1)"
	sum_delta_is 20 "$r1" "$(ni_count 1 recv_count $A0 $A1)"
	sum_delta_is 20 "$r2" "$(ni_count 2 recv_count $B0 $B1)"
}

@test "multi-rail: selftest get 1 MiB x 20, every byte checked" {
	discovered_2x2 mr
	run on 1 lnetctl selftest get $B0 --size 1048576 --count 20
	echo "$output"
	[ "$status" -eq 0 ]
	st_is get $B0 1048576 20 20 0 0
}

@test "multi-rail: selftest put and get at 8 in flight, 1 MiB x 40" {
	discovered_2x2 mr
	run on 1 lnetctl selftest put $B0 --size 1048576 --count 40 --concurrency 8
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put $B0 1048576 40 40 0 0
	run on 1 lnetctl selftest get $B0 --size 1048576 --count 40 --concurrency 8
	echo "$output"
	[ "$status" -eq 0 ]
	st_is get $B0 1048576 40 40 0 0
}

@test "multi-rail: --source pins the local NI of selftest and ping" {
	discovered_2x2 mr
	moves "0 $N" "ni_count 1 send_count $A0 $A1" -- put_n 1 $B0 --source $A1
	moves "1 0" "ni_count 1 send_count $A0 $A1" -- run on 1 lnetctl ping $B0 --source $A0
	[ "$status" -eq 0 ]
}

# --- UDSP on real traffic --------------------------------------------------------

@test "udsp --src <NID of a1> --priority 0: all N PUTs leave by a1" {
	discovered_2x2 mr --src $A1 --priority 0
	moves "0 $N" "ni_count 1 send_count $A0 $A1" -- put_n 1 $B0
}

@test "udsp --src tcp1 (net priority, two nets): all N PUTs leave by tcp1" {
	topo_2x2 nets
	run on 1 lnetctl discover $B0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0
  - nid: 10.22.0.2@tcp1"
	on 1 lnetctl policy add --src tcp1 --priority 0
	puts_take_tcp1
}

@test "udsp --dst tcp1 (peer net priority, two nets): all N PUTs go to tcp1" {
	discovered_2x2 nets --dst tcp1 --priority 0
	[ "$(peer_udsp 1 10.22.0.2@tcp1)" = "0 -1" ]
	[ "$(peer_udsp 1 $B0)" = "-1 -1" ]
	puts_take_tcp1
}

@test "udsp --dst <NID of b1> --priority 0: all N PUTs arrive at b1" {
	discovered_2x2 mr --dst $B1 --priority 0
	[ "$(peer_udsp 1 $B1)" = "-1 0" ]
	[ "$(peer_udsp 1 $B0)" = "-1 -1" ]
	moves "0 $N" "ni_count 2 recv_count $B0 $B1" \
	      "0 $N" "peer_ni_count 1 send_count $B0 $B1" -- put_n 1 $B0
}

@test "udsp pair --src <a0> --dst <b1>: a0 sends to b1 (with a0 preferred)" {
	discovered_2x2 mr --src $A0 --priority 0
	# a0 alone: the peer NIs take turns
	before=$(ni_count 2 recv_count $B0 $B1)
	put_n 1 $B0
	round_robin "round robin over b0, b1" "$before" "$(ni_count 2 recv_count $B0 $B1)"
	# the pair rule: every message from a0 goes to b1
	on 1 lnetctl policy add --src $A0 --dst $B1
	[ "$(on 1 pref_of "Preferred source NIDs" $B1)" = "$A0" ]
	moves "$N 0" "ni_count 1 send_count $A0 $A1" \
	      "0 $N" "ni_count 2 recv_count $B0 $B1" -- put_n 1 $B0
}

@test "policy del: round robin again, both NIs used" {
	discovered_2x2 mr --src $A1 --priority 0
	moves "0 $N" "ni_count 1 send_count $A0 $A1" -- put_n 1 $B0
	on 1 lnetctl policy del --idx 0
	before=$(ni_count 1 send_count $A0 $A1)
	put_n 1 $B0
	round_robin "after policy del: a0 a1" "$before" "$(ni_count 1 send_count $A0 $A1)"
}

@test "preferred link down (multi-rail): traffic moves to a0, every send completes" {
	# PUTs by type (sent_stats.put), not send_count: a0's health drops here
	# and its recovery pings (GETs) may go out during a run
	discovered_2x2 mr --src $A1 --priority 0
	on 1 ip link set a1 down
	wait_ni_status 1 $A1 down
	[ "$(ni_status 1 $A0)" = up ]
	before=$(ni_count 1 sent_stats.put $A0 $A1)
	run on 1 lnetctl selftest put $B0 --count $N --size 4096 --timeout 60
	echo "$output"
	after=$(ni_count 1 sent_stats.put $A0 $A1)
	ok=$(yaml_get "d['selftest']['ok']")
	failed=$(yaml_get "d['selftest']['failed']")
	[ "$(yaml_get "d['selftest']['corrupt']")" -eq 0 ]
	[ $((ok + failed)) -eq $N ]
	if [ "$failed" -eq 0 ]; then [ "$status" -eq 0 ]; else [ "$status" -eq 1 ]; fi
	delta_is "$ok 0" "$before" "$after"
	# nothing lost: b1 is unreachable from a0 (its route went with a1), so
	# each try on b1 fails and is resent on b0 within the timeout
	[ "$ok" -eq $N ]
	# the link comes back: a1 carries everything again
	on 1 ip link set a1 up
	wait_ni_status 1 $A1 up
	moves "0 $N" "ni_count 1 sent_stats.put $A0 $A1" -- put_n 1 $B0
}

@test "preferred link down (two nets): tcp carries all, back to tcp1 when a1 is up" {
	A1=10.22.0.1@tcp1
	discovered_2x2 nets --src tcp1 --priority 0
	on 1 ip link set a1 down
	wait_ni_status 1 $A1 down
	moves "$N 0" "ni_count 1 sent_stats.put $A0 $A1" -- put_n 1 $B0 --timeout 60
	on 1 ip link set a1 up
	wait_ni_status 1 $A1 up
	moves "0 $N" "ni_count 1 sent_stats.put $A0 $A1" -- put_n 1 $B0
}

@test "node2 gone: every PUT ends as failed within --timeout; exit 1" {
	topo_2x1
	on 1 lnetctl discover $B0
	topo_stop 2
	run on 1 lnetctl selftest put $B0 --count 10 --size 4096 --timeout 5
	echo "$output"
	[ "$status" -eq 1 ]
	st_is put $B0 4096 10 0 10 0
	# and the node still works: a ping of itself
	run on 1 lnetctl ping 0@lo
	[ "$status" -eq 0 ]
}

# --- three nodes -----------------------------------------------------------------

@test "3 nodes: node3 pings and discovers node1 and node2" {
	topo_3
	run on 3 lnetctl ping $A0
	[ "$status" -eq 0 ]
	run on 3 lnetctl ping $B0
	[ "$status" -eq 0 ]
	run on 3 lnetctl discover $A0 $B0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $A0
  Multi-Rail: true
  peer_ni:
  - nid: $A0
  - nid: $A1
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0
  - nid: $B1"
	run on 3 lnetctl peer show
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[(p['primary nid'], [n['nid'] for n in p['peer ni']]) for p in d['peer']]")" = \
	  "[('$A0', ['$A0', '$A1']), ('$B0', ['$B0', '$B1'])]" ]
}

@test "3 nodes: rules apply to discovered peer NIs and steer node3's traffic" {
	topo_3
	# before discovery: applies to the peer NIs discovery creates
	on 3 lnetctl policy add --dst '10.21.0.[1-2]@tcp' --priority 1
	on 3 lnetctl discover $A0
	on 3 lnetctl discover $B0
	[ "$(peer_udsp 3 $A0)" = "-1 1" ]
	[ "$(peer_udsp 3 $B0)" = "-1 1" ]
	[ "$(peer_udsp 3 $A1)" = "-1 -1" ]
	[ "$(peer_udsp 3 $B1)" = "-1 -1" ]
	# after discovery: applies to the existing peer NIs
	on 3 lnetctl policy add --dst tcp --priority 4
	[ "$(peer_udsp 3 $A1)" = "4 -1" ]
	[ "$(peer_udsp 3 $B0)" = "4 1" ]
	run on 3 lnetctl policy show
	yaml_is "udsp:
- idx: 0
  dst: 10.21.0.[1-2]@tcp
  action:
    priority: 1
- idx: 1
  dst: tcp
  action:
    priority: 4"
	# node3 reaches only the 10.21 NIs: the rule keeps every PUT on them
	for node in 1 2; do
		nid=$([ $node = 1 ] && echo $A0 || echo $B0)
		other=$([ $node = 1 ] && echo $A1 || echo $B1)
		moves "$N 0" "peer_ni_count 3 send_count $nid $other" \
		      "$N 0" "ni_count $node recv_count $nid $other" -- put_n 3 $nid
	done
}
