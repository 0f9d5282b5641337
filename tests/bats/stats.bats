#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# stats show | reset and the per-NI counters of net show -v, counted on
# known traffic: selftest runs to 0@lo (each PUT and its ACK, each GET
# and its REPLY, is sent once and received once by this node).

load helpers

bats_require_minimum_version 1.5.0

setup() {
	lnet_setup
	lnetctl lnet configure
	lnetctl stats reset
}

teardown() {
	lnet_teardown
}

# stat KEY...: the values of the statistics keys, space-separated
stat() {
	lnetctl stats show >"$T/stats.yaml"
	python3 - "$T/stats.yaml" "$@" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))['statistics']
print(' '.join(str(d[k]) for k in sys.argv[2:]))
PY
}

# lo_stats LEVEL EXPR: EXPR on the 0@lo NI of `net show -v LEVEL` (bound to ni)
lo_stats() {
	lnetctl net show -v "$1" >"$T/net.yaml"
	python3 - "$T/net.yaml" "$2" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
ni = d['net'][0]['local NI(s)'][0]
assert ni['nid'] == '0@lo'
print(eval(sys.argv[2]))
PY
}

@test "stats show: Lustre's keys in Lustre's order, then ours" {
	run lnetctl stats show
	[ "$status" -eq 0 ]
	[ "$(yaml_get "' '.join(d['statistics'])")" = "$STATS_KEYS" ]
}

@test "after ten 1 MiB PUTs to 0@lo: 20 sends and 20 receives of 10 MiB" {
	lnetctl selftest put 0@lo --count 10 --concurrency 2 >/dev/null
	[ "$(stat send_count recv_count drop_count send_length recv_length drop_length)" = \
	  "20 20 0 10485760 10485760 0" ]
	[ "$(stat msgs_alloc errors resend_count response_timeout_count selftest_corrupt)" = "0 0 0 0 0" ]
	# at most two PUTs and their ACKs were alive at once
	[ "$(stat msgs_max)" -ge 2 ]
	[ "$(stat msgs_max)" -le 4 ]
	[ "$(lo_stats 1 "[(k, v) for k, v in ni['statistics'].items() if not k.endswith('sec')]")" = \
	  "[('send_count', 20), ('recv_count', 20), ('drop_count', 0), ('put_egress_samples', 10), ('get_rtt_samples', 0), ('put_ack_samples', 10)]" ]
	[ "$(lo_stats 1 "[ni['statistics']['%s_%s' % (l, s)] > 0 for l in ('put_egress', 'put_ack') for s in ('min_nsec', 'avg_nsec', 'max_nsec')]")" = \
	  "[True, True, True, True, True, True]" ]
	[ "$(lo_stats 2 "[ni['sent_stats'], ni['received_stats'], ni['dropped_stats']]")" = \
	  "[{'put': 10, 'get': 0, 'reply': 0, 'ack': 10, 'hello': 0}, {'put': 10, 'get': 0, 'reply': 0, 'ack': 10, 'hello': 0}, {'put': 0, 'get': 0, 'reply': 0, 'ack': 0, 'hello': 0}]" ]
}

@test "after GETs of 1000 bytes: the REPLYs carry the bytes" {
	lnetctl selftest get 0@lo --count 6 --size 1000 >/dev/null
	[ "$(stat send_count recv_count send_length recv_length)" = "12 12 6000 6000" ]
	[ "$(lo_stats 2 "[ni['sent_stats']['get'], ni['sent_stats']['reply'], ni['received_stats']['get'], ni['received_stats']['reply']]")" = \
	  "[6, 6, 6, 6]" ]
}

@test "stats reset zeroes every message counter; the object counts stay" {
	lnetctl net add --net tcp --if veth0
	lnetctl selftest put 0@lo --count 3 --size 100 >/dev/null
	lnetctl selftest get 10.11.0.9@tcp1 --count 2 >/dev/null || true	# no route: errors
	[ "$(stat send_count)" = 6 ]
	run --separate-stderr lnetctl stats reset
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$stderr" = "" ]
	run lnetctl stats show
	[ "$(yaml_get "sorted(set(v for k, v in d['statistics'].items() if k != 'local_nis'))")" = "[0]" ]
	[ "$(yaml_get "d['statistics']['local_nis']")" = 2 ]
	[ "$(lo_stats 2 "[ni['sent_stats'], ni['received_stats']]")" = \
	  "[{'put': 0, 'get': 0, 'reply': 0, 'ack': 0, 'hello': 0}, {'put': 0, 'get': 0, 'reply': 0, 'ack': 0, 'hello': 0}]" ]
	# the latencies too, all 15 statistics keys
	[ "$(lo_stats 1 "(len(ni['statistics']), set(ni['statistics'].values()))")" = "(15, {0})" ]
	# counting goes on from 0
	lnetctl selftest put 0@lo --count 1 --size 7 >/dev/null
	[ "$(stat send_count recv_count send_length)" = "2 2 7" ]
}

# bats test_tags=parse-only
@test "stats show and reset: usage errors exit 2" {
	run --separate-stderr lnetctl stats show -v
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl stats show: unknown option '-v'" ]
	run --separate-stderr lnetctl stats reset now
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl stats reset: unexpected argument 'now'" ]
}
