#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# yaml-schemas/: every example, every show output (each -v level against
# its own schema, and not against its neighbours'), export and
# export --backup validate; a wrong key or type fails each schema; a
# document that breaks the import schema fails `lnetctl import` with
# FILE:LINE:COL before anything is applied; the NID patterns agree with
# the NID library. The validator runs on /usr/bin/python3 (Debian's
# python3-jsonschema and python3-yaml).

load helpers
lnet_suite
# What these tests check is lnetctl's: its rendering of show output and its
# import parser are one code for both transports, so they run on lnetd
# only; the other suites assert on /dev/lnet that the kernel's answers
# print exactly as lnetd's (under TCG this suite alone took 20 minutes).
# bats file_tags=lnetd-only

PY=/usr/bin/python3
SCHEMAS=$TOP/yaml-schemas

# validate SCHEMA FILE...: run the validator (SCHEMA without .schema.yaml).
validate() {
	run "$PY" "$TOP/tests/tools/yaml-validate.py" "$SCHEMAS/$1.schema.yaml" "${@:2}"
}

# valid SCHEMA FILE: FILE is valid, and not empty.
valid() {
	[ -s "$2" ] || { echo "$2 is empty"; return 1; }
	validate "$1" "$2"
	[ "$output" = "$2: ok" ] || { echo "$output"; return 1; }
	[ "$status" -eq 0 ]
}

# invalid SCHEMA TEXT MESSAGE: the document TEXT fails SCHEMA with exactly
# the one line "doc.yaml:MESSAGE".
invalid() {
	printf '%s\n' "$2" >"$T/doc.yaml"
	validate "$1" "$T/doc.yaml"
	[ "$output" = "$T/doc.yaml:$3" ] || { echo "got: $output"; echo "want: $T/doc.yaml:$3"; return 1; }
	[ "$status" -eq 1 ]
}

# Interfaces of the examples (eth0/eth1, ib0/ib1 as veth pairs) and one
# with only an IPv6 address (v6a), in the test's namespace.
add_ifs() {
	ip -n "$NS" link add eth0 type veth peer name eth1
	ip -n "$NS" link add ib0 type veth peer name ib1
	ip -n "$NS" link add v6a type veth peer name v6b
	ip -n "$NS" addr add 192.168.1.10/24 dev eth0
	ip -n "$NS" addr add 192.168.1.11/24 dev eth1
	ip -n "$NS" addr add 10.10.0.10/24 dev ib0
	ip -n "$NS" addr add 10.10.1.10/24 dev ib1
	ip -n "$NS" -6 addr add 2001:db8:12::1/64 dev v6a nodad
	for i in eth0 eth1 ib0 ib1 v6a v6b; do ip -n "$NS" link set "$i" up; done
}

# Nets (IPv4 and IPv6 NIs, tunables), peers (multi-rail, non-MR, locked,
# numeric, IPv6), all six rule shapes and an IPv6 descriptor.
configure_all() {
	add_ifs
	lnetctl net add --net tcp --if veth0 --peer-credits 16
	lnetctl net add --net tcp1 --if veth1
	lnetctl net add --net tcp2 --if v6a
	lnetctl net add --net o2ib --if ib0,ib1
	lnetctl peer add --prim_nid 10.11.0.10@tcp --nid 10.11.0.11@tcp1,10.10.0.21@o2ib
	lnetctl peer add --prim_nid 10.11.0.20@tcp --nid 10.11.0.21@tcp1
	lnetctl peer add --prim_nid 10.11.0.30@tcp --non_mr
	lnetctl peer add --prim_nid 10.11.0.40@tcp --lock_prim
	lnetctl peer add --prim_nid 5@gni
	lnetctl peer add --prim_nid 2001:db8:12::20@tcp2 --nid 2001:db8:12::21@tcp2
	lnetctl policy add --src tcp1 --priority 0
	lnetctl policy add --src 10.11.0.1@tcp --priority 1
	lnetctl policy add --dst tcp1 --priority 1
	lnetctl policy add --dst 10.11.0.20@tcp
	lnetctl policy add --src 10.11.0.2@tcp1 --dst '10.11.0.[10-11]@tcp1'
	lnetctl policy add --dst 10.11.0.21@tcp1 --rte '10.11.0.[250-254]@tcp'
	lnetctl policy add --src '2001:db8:12::[1-ff]@tcp2' --priority 2
	# a remote net through two routers, a peer there and a router rule
	# that prefers one of them for it
	lnetctl route add --net o2ib1 --gateway '10.11.0.[250-251]@tcp' --hop 2 --priority 5
	lnetctl route add --net tcp9 --gateway 10.11.0.252@tcp
	lnetctl peer add --prim_nid 10.12.0.5@o2ib1
	lnetctl policy add --dst 10.12.0.5@o2ib1 --rte 10.11.0.251@tcp
	# priorities above 2^31 print as themselves
	lnetctl policy add --src tcp2 --priority 4294967294
	lnetctl policy add --dst tcp2 --priority 3000000000
	lnetctl set routing 1
	lnetctl set small_buffers 8192
	lnetctl set retry_count 3
}

# bats test_tags=parse-only
@test "every schema is a draft 2020-12 JSON Schema whose references all resolve" {
	run "$PY" - "$SCHEMAS" <<'PY'
import os, sys, warnings, yaml, jsonschema
d = sys.argv[1]
names = sorted(n for n in os.listdir(d) if n.endswith('.schema.yaml'))
store = {'file://' + os.path.join(d, n): yaml.safe_load(open(os.path.join(d, n))) for n in names}
def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == '$ref':
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)
for n in names:
    uri = 'file://' + os.path.join(d, n)
    s = store[uri]
    assert s['$schema'] == 'https://json-schema.org/draft/2020-12/schema', n
    jsonschema.Draft202012Validator.check_schema(s)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        r = jsonschema.RefResolver(uri, s, store=store)
        for ref in refs(s):
            r.resolve(ref)
    print(n)
PY
	[ "$status" -eq 0 ]
	# Each schema file is listed here: a new one needs tests below.
	[ "$output" = "defs.schema.yaml
fault-show.schema.yaml
global-show.schema.yaml
lnet.schema.yaml
net-show-v1.schema.yaml
net-show-v2.schema.yaml
net-show-v4.schema.yaml
net-show.schema.yaml
peer-list.schema.yaml
peer-show-v1.schema.yaml
peer-show-v2.schema.yaml
peer-show-v4.schema.yaml
peer-show.schema.yaml
ping.schema.yaml
policy-explain.schema.yaml
policy-match.schema.yaml
policy-show.schema.yaml
route-show-v.schema.yaml
route-show.schema.yaml
routing-show.schema.yaml
selftest-batch.schema.yaml
selftest-group.schema.yaml
selftest-query.schema.yaml
selftest-run.schema.yaml
selftest-session.schema.yaml
selftest-stat.schema.yaml
selftest.schema.yaml
stats-show.schema.yaml" ]
}

# bats test_tags=parse-only
@test "every example validates against the import/export schema" {
	local f n=0
	for f in "$TOP"/examples/*.yaml "$TOP"/tests/data/net/*.yaml; do
		valid lnet "$f"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
	# an unknown LND tunable is refused
	invalid lnet 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: eth0}
    lnd tunables: {conns_per_peer: 1, nagle: 1}' \
		"5:39: Additional properties are not allowed ('nagle' was unexpected) (at net/0/local NI(s)/0/lnd tunables)"
}

@test "every example imports into an empty node, exports a valid backup, and import --del undoes it" {
	local f
	add_ifs
	# router.yaml turns routing on: short router timers, so that the stop
	# of its import --del drains at once
	lnetctl set alive_router_check_interval 0
	lnetctl set router_ping_timeout 1
	state >"$T/empty"
	for f in "$TOP"/examples/*.yaml; do
		run lnetctl import "$f"
		[ "$status" -eq 0 ] || { echo "$f: $output"; return 1; }
		lnetctl export --backup >"$T/backup.yaml"
		valid lnet "$T/backup.yaml"
		lnetctl export >"$T/export.yaml"
		valid lnet "$T/export.yaml"
		run lnetctl import --del "$f"
		[ "$status" -eq 0 ] || { echo "$f --del: $output"; return 1; }
		routing_off
		state >"$T/after"
		diff -u "$T/empty" "$T/after"
	done
}

@test "net show at every -v level validates against its level's schema only" {
	configure_all
	local v schema other
	for v in 0 1 2 3 4 5; do
		case $v in
		0) schema=net-show other=net-show-v1 ;;
		1) schema=net-show-v1 other=net-show-v2 ;;
		2|3) schema=net-show-v2 other=net-show-v4 ;;
		*) schema=net-show-v4 other=net-show-v2 ;;
		esac
		lnetctl net show -v "$v" >"$T/net$v.yaml"
		valid "$schema" "$T/net$v.yaml"
		validate "$other" "$T/net$v.yaml"
		[ "$status" -eq 1 ]
	done
	lnetctl net show >"$T/net.yaml"
	cmp "$T/net.yaml" "$T/net0.yaml"
	[ "$(udsp_of net 2001:db8:12::1@tcp2)" = "4294967294 2" ]
	[ "$(udsp_of peer 2001:db8:12::21@tcp2)" = "3000000000 -1" ]
	lnetctl net show --net tcp2 -v 4 >"$T/tcp2.yaml"
	valid net-show-v4 "$T/tcp2.yaml"
	grep -q '2001:db8:12::1@tcp2' "$T/tcp2.yaml"
}

@test "peer show at every -v level validates against its level's schema only" {
	configure_all
	local v schema other
	for v in 0 1 2 3 4 5; do
		case $v in
		0) schema=peer-show other=peer-show-v1 ;;
		1) schema=peer-show-v1 other=peer-show-v2 ;;
		2|3) schema=peer-show-v2 other=peer-show-v4 ;;
		*) schema=peer-show-v4 other=peer-show-v2 ;;
		esac
		lnetctl peer show -v "$v" >"$T/peer$v.yaml"
		valid "$schema" "$T/peer$v.yaml"
		validate "$other" "$T/peer$v.yaml"
		[ "$status" -eq 1 ]
	done
	# the preferred lists and the lock flag are in there
	grep -q 'Preferred source NIDs' "$T/peer4.yaml"
	grep -q 'Preferred gateway NIDs' "$T/peer4.yaml"
	grep -q 'Lock Primary NID: true' "$T/peer0.yaml"
	grep -q 'Multi-Rail: false' "$T/peer0.yaml"
	lnetctl peer show --nid 10.11.0.11@tcp1 -v 4 >"$T/one.yaml"
	valid peer-show-v4 "$T/one.yaml"
}

@test "peer list and policy show validate" {
	configure_all
	lnetctl peer list >"$T/list.yaml"
	valid peer-list "$T/list.yaml"
	lnetctl policy show >"$T/rules.yaml"
	valid policy-show "$T/rules.yaml"
	[ "$(grep -c '^-' "$T/rules.yaml")" -eq 10 ]
	lnetctl policy show --idx 5 >"$T/rule5.yaml"
	valid policy-show "$T/rule5.yaml"
	grep -q 'rte: 10.11.0.\[250-254\]@tcp' "$T/rule5.yaml"
}

@test "policy show --nid and --net validate against policy-match only; a wrong key or value fails" {
	configure_all
	local a
	for a in "--nid 10.11.0.1@tcp" "--nid 10.11.0.2@tcp1" "--nid 10.11.0.11@tcp1" \
		 "--nid 10.12.0.5@o2ib1" "--nid 10.12.0.9@o2ib1" "--nid 2001:db8:12::21@tcp2" \
		 "--nid 5@gni" "--net tcp1" "--net o2ib7"; do
		lnetctl policy show $a >"$T/match.yaml"
		valid policy-match "$T/match.yaml"
		validate policy-show "$T/match.yaml"
		[ "$status" -eq 1 ]
	done
	# every kind and every rule shape came by
	lnetctl policy show --nid 10.11.0.2@tcp1 >"$T/local.yaml"
	grep -q 'kind: local NI' "$T/local.yaml"
	grep -q 'sets: preferred source of' "$T/local.yaml"
	lnetctl policy show --nid 10.12.0.5@o2ib1 >"$T/peer.yaml"
	grep -q 'sets: preferred routers' "$T/peer.yaml"
	lnetctl policy show >"$T/rules.yaml"
	validate policy-match "$T/rules.yaml"
	[ "$status" -eq 1 ]
	invalid policy-match 'policy match:
  nid: 10.11.0.1@tcp
  kind: local NI
  rules: []
  effective: {peer net priority: -1, net priority: -1, NI priority: -1, preferred source of: []}' \
		"5:15: 'peer net priority' is not one of ['net priority', 'NI priority', 'preferred source of', 'preferred source of not shown'] (at policy match/effective)"
	invalid policy-match 'policy match:
  net: tcp
  kind: peer net
  rules:
  - {idx: 0, dst: tcp, action: {priority: 1}, sets: peer net priority, wins: true, overridden by: 0}
  effective: {peer net priority: 1}' \
		"5:5: {'idx': 0, 'dst': 'tcp', 'action': {'priority': 1}, 'sets': 'peer net priority', 'wins': True, 'overridden by': 0} should not be valid under {'required': ['overridden by']} (at policy match/rules/0)"
}

@test "route show, route show -v, routing show, global show and stats show validate" {
	configure_all
	lnetctl route show >"$T/routes.yaml"
	valid route-show "$T/routes.yaml"
	validate route-show-v "$T/routes.yaml"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^-' "$T/routes.yaml")" -eq 3 ]
	lnetctl route show -v >"$T/routes-v.yaml"
	valid route-show-v "$T/routes-v.yaml"
	validate route-show "$T/routes-v.yaml"
	[ "$status" -eq 1 ]
	# no gateway here answers a check: every route reads multi-hop (single-hop
	# is validated by the documents below)
	grep -q 'type: multi-hop' "$T/routes-v.yaml"
	lnetctl route show --net o2ib1 -v >"$T/o2ib1.yaml"
	valid route-show-v "$T/o2ib1.yaml"
	lnetctl routing show >"$T/routing.yaml"
	valid routing-show "$T/routing.yaml"
	lnetctl global show >"$T/global.yaml"
	valid global-show "$T/global.yaml"
	lnetctl stats show >"$T/stats.yaml"
	valid stats-show "$T/stats.yaml"
	# a fresh node: routing off, default buffers and settings
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl routing show >"$T/routing0.yaml"
	valid routing-show "$T/routing0.yaml"
	lnetctl global show >"$T/global0.yaml"
	valid global-show "$T/global0.yaml"
	run lnetctl route show
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "ping, discover and selftest outputs validate; a wrong key or value fails" {
	lnetctl net add --net tcp --if veth0
	lnetctl ping 0@lo 10.11.0.1@tcp >"$T/ping.yaml"
	valid ping "$T/ping.yaml"
	lnetctl selftest put 0@lo --count 3 >"$T/put.yaml"
	valid selftest "$T/put.yaml"
	lnetctl selftest get 10.11.0.1@tcp --count 3 --size 0 >"$T/get.yaml"
	valid selftest "$T/get.yaml"
	lnetctl stats show >"$T/stats.yaml"
	valid stats-show "$T/stats.yaml"
	# lnet_selftest from this node (0@lo) to itself (its tcp NID)
	lnetctl selftest run --from 0@lo --to 10.11.0.1@tcp -T write -z 8K -c 3 >"$T/run.yaml"
	valid selftest-run "$T/run.yaml"
	invalid selftest-run 'selftest_run:
  test: ping
  concurrency: 0
  count: 1
  nodes: []' \
		"3:16: 0 is less than the minimum of 1 (at selftest_run/concurrency)
$T/doc.yaml:5:10: [] is too short (at selftest_run/nodes)"
	invalid ping 'ping:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: false
  peer ni: [{nid: 10.0.0.2@tcp}]' \
		"4:3: Additional properties are not allowed ('peer ni' was unexpected) (at ping/0)
$T/doc.yaml:2:3: 'peer_ni' is a required property (at ping/0)"
	invalid ping 'discover:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: true
  peer_ni: [{nid: 0@lo}]' \
		"4:19: '0@lo' should not be valid under {'const': '0@lo'} (at discover/0/peer_ni/0/nid)"
	invalid selftest 'selftest:
  op: put
  target: 10.0.0.2@tcp
  size: 1048577
  count: 1
  check: full
  ok: 1
  failed: 0
  corrupt: 0
  failed_by: {timeout: 0, unreachable: 0, shutdown: 0, network: 0, start: 0, abandoned: 0}
  duplicate: 0
  elapsed_ns: 5' \
		"4:9: 1048577 is greater than the maximum of 1048576 (at selftest/size)"
	invalid selftest 'selftest:
  op: put
  target: 10.0.0.2@tcp
  size: 1
  count: 1
  check: every
  ok: 0
  failed: 1
  corrupt: 0
  failed_by: {timeout: 0, unreachable: 0, shutdown: 0, network: 0, start: 0, lost: 1}
  duplicate: 0
  elapsed_ns: 5' \
		"6:10: 'every' is not one of ['none', 'simple', 'full'] (at selftest/check)
$T/doc.yaml:10:78: Additional properties are not allowed ('lost' was unexpected) (at selftest/failed_by)
$T/doc.yaml:10:14: 'abandoned' is a required property (at selftest/failed_by)"
}

@test "export and export --backup of a configured node validate" {
	configure_all
	lnetctl export >"$T/export.yaml"
	valid lnet "$T/export.yaml"
	lnetctl export --backup >"$T/backup.yaml"
	valid lnet "$T/backup.yaml"
	# the backup is what the import schema says import takes: it imports
	# (once routing, turned off by the --del, has drained: short timers
	# for the wait, the defaults again after it)
	lnetctl import --del "$T/backup.yaml"
	lnetctl set alive_router_check_interval 0
	lnetctl set router_ping_timeout 1
	routing_off
	lnetctl set alive_router_check_interval 60
	lnetctl set router_ping_timeout 50
	run lnetctl export --backup
	[ -z "$output" ]
	lnetctl import "$T/backup.yaml"
	lnetctl export --backup >"$T/again.yaml"
	cmp "$T/backup.yaml" "$T/again.yaml"
}

# bats test_tags=parse-only
@test "import/export schema: a wrong key, type or value fails validation" {
	invalid lnet 'nets: []' \
		"1:1: Additional properties are not allowed ('nets' was unexpected) (at (document))"
	invalid lnet '- net type: tcp' \
		"1:1: [{'net type': 'tcp'}] is not of type 'object', 'null' (at (document))"
	invalid lnet 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: eth0}
    tunables: {credits: 0}' \
		"5:25: 0 is less than the minimum of 1 (at net/0/local NI(s)/0/tunables/credits)"
	invalid lnet 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: eth0/1}' \
		'4:21: '"'eth0/1' does not match '^(?!\\\\.\\\\.?\$)[^/,:\\\\s\\\\[]{1,15}(\\\\[[0-9][0-9,/ -]*\\\\])?\$' (at net/0/local NI(s)/0/interfaces/0)"
	invalid lnet 'net:
- net type: tcp
  local NI(s):
  - interfaces: [eth0, eth0]' \
		"4:17: ['eth0', 'eth0'] has non-unique elements (at net/0/local NI(s)/0/interfaces)"
	invalid lnet 'net:
- net type: tcp
  local NI(s): []' \
		"3:16: [] is too short (at net/0/local NI(s))"
	invalid lnet 'peer:
- primary nid: 10.0.0.1@tcp
  Multi-Rail: 1' \
		"3:15: 1 is not of type 'boolean' (at peer/0/Multi-Rail)"
	invalid lnet 'peer:
- primary nid: 10.0.0.1@tcp
  Multi-Rail: false
  peer ni: [{nid: 10.0.0.1@tcp}, {nid: 10.0.0.2@tcp}]' \
		"4:12: [{'nid': '10.0.0.1@tcp'}, {'nid': '10.0.0.2@tcp'}] is too long (at peer/0/peer ni)"
	invalid lnet 'udsp:
- src: tcp
  priority: "3"' \
		"3:13: '3' is not of type 'integer' (at udsp/0/priority)"
	invalid lnet 'udsp:
- src: tcp
  priority: 0x3' \
		"3:13: '0x3' is not of type 'integer' (at udsp/0/priority)"
	invalid lnet 'udsp:
- src: tcp
  action:
  - prio: 3' \
		"4:5: Additional properties are not allowed ('prio' was unexpected) (at udsp/0/action/0)"
	invalid lnet 'routing: {enable: 4}' \
		"1:19: 4 is not one of [0, 1, 2, 3] (at routing/enable)"
	invalid lnet 'routing:
- cpu[0]: {}' \
		"2:3: {'cpu[0]': {}} is not valid under any of the given schemas (at routing/0)"
	invalid lnet 'numa: {range: -1}' \
		"1:15: -1 is less than the minimum of 0 (at numa/range)"
	invalid lnet 'udsp:
- src: tcp
  priority: 1
  action: {priority: 2}' \
		"2:3: {'src': 'tcp', 'priority': 1, 'action': {'priority': 2}} should not be valid under {'description': 'a priority in the rule and in its action', 'required': ['priority', 'action'], 'properties': {'action': {'required': ['priority']}}} (at udsp/0)"
	invalid lnet 'route:
- net: o2ib
  gateway: 10.0.0.1@tcp
  hop: 0' \
		"4:8: 0 is not valid under any of the given schemas (at route/0/hop)"
	invalid lnet 'route:
- net: o2ib
  gateway: 10.0.0.[1-2]@tcp,10.0.1.1
  priority: 1' \
		"3:12: '10.0.0.[1-2]@tcp,10.0.1.1' does not match '^[0-9a-fA-FxX.:*\\\\[\\\\],/-]+@(tcp|o2ib|efa|gni|ptlf|kfi)[0-9]{0,5}(,[0-9a-fA-FxX.:*\\\\[\\\\],/-]+@(tcp|o2ib|efa|gni|ptlf|kfi)[0-9]{0,5})*\$' (at route/0/gateway)"
	invalid lnet 'routing:
  enable: true' \
		"2:11: True is not one of [0, 1, 2, 3] (at routing/enable)"
	invalid lnet 'buffers:
  large: 1048577' \
		"2:10: 1048577 is not valid under any of the given schemas (at buffers/large)"
	invalid lnet 'global:
  max_intf: 8' \
		"2:13: 8 is less than the minimum of 16 (at global/max_intf)"
	invalid lnet 'udsp:
- dst: tcp
  rte: 10.0.0.1@o2ib
  src: tcp1' \
		"3:8: False schema does not allow '10.0.0.1@o2ib' (at udsp/0/rte)
$T/doc.yaml:4:8: False schema does not allow 'tcp1' (at udsp/0/src)"
}

# bats test_tags=parse-only
@test "show schemas: a wrong key or type fails validation" {
	# the latencies every statistics block of show -v has, after the counts
	local lat='put_egress_samples: 0, put_egress_min_nsec: 0, put_egress_max_nsec: 0, put_egress_avg_nsec: 0, get_rtt_samples: 0, get_rtt_min_nsec: 0, get_rtt_max_nsec: 0, get_rtt_avg_nsec: 0, put_ack_samples: 0, put_ack_min_nsec: 0, put_ack_max_nsec: 0, put_ack_avg_nsec: 0'
	invalid net-show 'net:
- net type: tcp
  local NI(s):
  - nid: 10.0.0.1@tcp
    status: up
    statistics: {send_count: 0, recv_count: 0, drop_count: 0}' \
		"6:5: Additional properties are not allowed ('statistics' was unexpected) (at net/0/local NI(s)/0)"
	invalid net-show 'net:
- net type: tcp
  local NI(s):
  - {nid: 10.0.0.1@tcp, status: up, interfaces: {1: eth0}}' \
		"4:50: Additional properties are not allowed ('1' was unexpected) (at net/0/local NI(s)/0/interfaces)
$T/doc.yaml:4:49: '0' is a required property (at net/0/local NI(s)/0/interfaces)"
	invalid net-show 'net:
- net type: tcp0
  local NI(s):
  - {nid: 10.0.0.1@tcp, status: up}' \
		"2:13: 'tcp0' does not match '^(lo|(tcp|o2ib|efa|gni|ptlf|kfi)([1-9][0-9]{0,4})?)\$' (at net/0/net type)"
	invalid net-show-v1 'net:
- net type: tcp
  local NI(s):
  - nid: 10.0.0.1@tcp
    status: up
    statistics: {send_count: -1, recv_count: 0, drop_count: 0, '"$lat"'}
    dev cpt: -1
    CPT: "[0]"' \
		"6:30: -1 is less than the minimum of 0 (at net/0/local NI(s)/0/statistics/send_count)"
	# show -v always prints every latency key
	invalid net-show-v1 "net:
- net type: tcp
  local NI(s):
  - nid: 10.0.0.1@tcp
    status: up
    statistics: {send_count: 0, recv_count: 0, drop_count: 0, ${lat%, put_ack_avg_nsec: 0}}
    dev cpt: -1
    CPT: \"[0]\"" \
		"6:17: 'put_ack_avg_nsec' is a required property (at net/0/local NI(s)/0/statistics)"
	# the health stats and the counters after them of a -v 2 NI
	local health counters
	health='    health stats: {fatal_error: 0, health value: 1000, interrupts: 0, dropped: 0, aborted: 0, no route: 0, timeouts: 0, error: 0, ping_count: 0, next_ping: 0}'
	counters='    dev cpt: -1
    CPT: "[0]"
    sent_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}
    received_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}
    dropped_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}
    max_tx_credits: 256
    available_tx_credits: 256
    min_tx_credits: 256
    tx_q_num_of_buf: 0'
	invalid net-show-v2 "net:
- net type: tcp
  local NI(s):
  - nid: 10.0.0.1@tcp
    status: sideways
    statistics: {send_count: 0, recv_count: 0, drop_count: 0, $lat}
$health
$counters" \
		"5:13: 'sideways' is not one of ['up', 'down'] (at net/0/local NI(s)/0/status)"
	invalid net-show-v4 "net:
- net type: tcp
  local NI(s):
  - nid: 10.0.0.1@tcp
    status: up
    statistics: {send_count: 0, recv_count: 0, drop_count: 0, $lat}
$health
    udsp info: {net priority: -2, nid priority: -1}
$counters" \
		"8:31: -2 is less than the minimum of -1 (at net/0/local NI(s)/0/udsp info/net priority)"
	invalid peer-show 'peer:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: "true"
  peer ni: [{nid: 10.0.0.2@tcp, state: up}]' \
		"3:15: 'true' is not of type 'boolean' (at peer/0/Multi-Rail)"
	invalid peer-show-v1 'peer:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: true
  peer ni:
  - {nid: 10.0.0.2@tcp, state: up, max_ni_tx_credits: 8, min_tx_credits: 8, tx_q_num_of_buf: 0,
     available_rtr_credits: 8, min_rtr_credits: 8, refcount: 1,
     statistics: {send_count: 0, recv_count: 0, drop_count: 0, '"$lat"'}}' \
		"5:5: 'available_tx_credits' is a required property (at peer/0/peer ni/0)"
	invalid peer-show 'peer:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: true
  Lock Primary NID: false
  peer ni: [{nid: 10.0.0.2@tcp, state: up}]' \
		"4:21: True was expected (at peer/0/Lock Primary NID)"
	invalid peer-show-v2 'peer:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: true
  peer ni:
  - {nid: 10.0.0.2@tcp, state: up, max_ni_tx_credits: 8, available_tx_credits: 8,
     min_tx_credits: 8, tx_q_num_of_buf: 0, available_rtr_credits: 8, min_rtr_credits: 8, refcount: 1,
     statistics: {send_count: 0, recv_count: 0, drop_count: 0, '"$lat"'},
     sent_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}, received_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}, dropped_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}}' \
		"5:5: 'health stats' is a required property (at peer/0/peer ni/0)"
	invalid peer-show-v4 'peer:
- primary nid: 10.0.0.2@tcp
  Multi-Rail: true
  peer state: 8
  peer ni:
  - nid: 10.0.0.2@tcp
    state: up
    max_ni_tx_credits: 8
    available_tx_credits: 8
    statistics: {send_count: 0, recv_count: 0, drop_count: 0, '"$lat"'}
    health stats: {health value: 1000, dropped: 0, timeout: 0, error: 0, network timeout: 0, ping_count: 0, next_ping: 0}
    udsp info:
      net priority: -1
      nid priority: -1
      Preferred source NIDs: {NID-16: 10.0.0.1@tcp}
    min_tx_credits: 8
    tx_q_num_of_buf: 0
    available_rtr_credits: 8
    min_rtr_credits: 8
    refcount: 1
    sent_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}
    received_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}
    dropped_stats: {put: 0, get: 0, reply: 0, ack: 0, hello: 0}' \
		"15:31: 'NID-16' does not match '^NID-([0-9]|1[0-5])\$' (at peer/0/peer ni/0/udsp info/Preferred source NIDs)"
	invalid peer-list 'peer list:
- nid: 10.0.0.2@tcp
  primary nid: 10.0.0.2@tcp' \
		"3:3: Additional properties are not allowed ('primary nid' was unexpected) (at peer list/0)"
	invalid route-show 'route:
- net: o2ib
  gateway: 10.0.0.1@tcp
  hop: 1' \
		"4:3: Additional properties are not allowed ('hop' was unexpected) (at route/0)"
	invalid route-show-v 'route:
- net: o2ib
  gateway: 10.0.0.1@tcp
  hop: 3
  priority: 0
  state: up
  type: one-hop' \
		"7:9: 'one-hop' is not one of ['single-hop', 'multi-hop'] (at route/0/type)"
	# routing_doc LARGE_NPAGES BUFFERS: a routing show with those values
	routing_doc() {
		printf '%s\n' 'routing:' '- cpt[0]:' \
			'    tiny: {npages: 0, nbuffers: 0, credits: 0, mincredits: 0}' \
			'    small: {npages: 1, nbuffers: 0, credits: 0, mincredits: 0}' \
			"    large: {npages: $1, nbuffers: 0, credits: 0, mincredits: 0}" \
			'- enable: 0' "buffers: $2"
	}
	invalid routing-show "$(routing_doc 256 '{tiny: 0, small: 16384, large: 1024}')" \
		"7:17: 0 is less than the minimum of 1 (at buffers/tiny)"
	invalid routing-show 'routing:
  enable: 1
buffers: {tiny: 1, small: 1, large: 1}' \
		"2:3: {'enable': 1} is not of type 'array' (at routing)"
	invalid routing-show "$(routing_doc 1 '{tiny: 1, small: 1, large: 1}')" \
		"5:21: 256 was expected (at routing/0/cpt[0]/large/npages)"
	invalid global-show 'global:
  numa_range: 0
  max_interfaces: 4096
  discovery: 1
  drop_asym_route: 0
  retry_count: 2
  transaction_timeout: 150
  health_sensitivity: 100
  recovery_interval: 1
  router_sensitivity: 100
  response_tracking: 3
  recovery_limit: 0
  max_recovery_ping_interval: 900
  alive_router_check_interval: 60
  router_ping_timeout: 50
  avoid_asym_router_failure: 1' \
		"2:3: 'lnd_timeout' is a required property (at global)"
	# a key Lustre does not have
	invalid stats-show "$(stats_doc '  ' 0 0 0)
  rtr_alloc: 0" \
		"35:3: Additional properties are not allowed ('rtr_alloc' was unexpected) (at statistics)"
	invalid policy-show 'udsp:
- src: tcp
  action: {priority: 1}' \
		"2:3: 'idx' is a required property (at udsp/0)"
	invalid policy-show 'udsp:
- idx: 0
  dst: 10.0.0.1@tcp
  rte: 10.0.0.9@tcp
  action: {priority: 1}' \
		"2:3: {'idx': 0, 'dst': '10.0.0.1@tcp', 'rte': '10.0.0.9@tcp', 'action': {'priority': 1}} is not valid under any of the given schemas (at udsp/0)"
}

# bad_import NAME 'LINE:COL: message' DOC: the document (a valid tcp1
# section, then DOC) fails lnetctl import with exactly that message, exit 1
# and nothing applied; the schema rejects it too, at the same place unless
# a 4th argument says where.
bad_import() {
	local f=$T/$1.yaml pos
	printf 'net:\n- net type: tcp1\n  local NI(s):\n  - interfaces: [veth1]\n%s\n' "$3" >"$f"
	state >"$T/before"
	run lnetctl import "$f"
	[ "$status" -eq 1 ] || { echo "$1: status $status: $output"; return 1; }
	[ "$output" = "$f:$2" ] || { echo "$1: got: $output"; echo "want: $f:$2"; return 1; }
	state >"$T/after"
	diff -u "$T/before" "$T/after"
	validate lnet "$f"
	[ "$status" -eq 1 ] || { echo "$1: the schema takes it"; return 1; }
	pos=${output#"$f:"}
	pos=${pos%%: *}
	[ "$pos" = "${4:-${2%%: *}}" ] || { echo "$1: the schema says $output"; return 1; }
}

# bats test_tags=parse-only
@test "import of a document that breaks the schema: FILE:LINE:COL, exit 1, nothing applied" {
	bad_import wrong_type "7:12: 'peer ni' must be a sequence, not a scalar" 'peer:
- primary nid: 10.11.0.5@tcp
  peer ni: 10.11.0.5@tcp'
	bad_import unknown_key "6:3: unknown key 'interface' in a net: expected 'net type', 'local NI(s)', 'tunables', 'lnd tunables'" '- net type: tcp
  interface: veth0'
	bad_import unknown_top "5:1: unknown key 'routes' in the document: expected 'net', 'ip2nets', 'peer', 'udsp', 'route', 'routing', 'buffers', 'global', 'numa'" 'routes:
- net: o2ib'
	bad_import credits_range "8:30: invalid peer_credits '2000': expected an integer 1-1024" '- net type: tcp
  local NI(s):
  - interfaces: {0: veth0}
    tunables: {peer_credits: 2000}'
	bad_import timeout_range "7:19: invalid peer_timeout '-5': expected an integer 0-86400" '- net type: tcp
  tunables:
    peer_timeout: -5'
	bad_import if_index "7:18: invalid interfaces index '32': expected an integer 0-31" '- net type: tcp
  local NI(s):
  - interfaces: {32: veth0}'
	bad_import bad_bool "7:15: invalid Multi-Rail 'maybe': expected true/false, yes/no, on/off or 1/0" 'peer:
- primary nid: 10.11.0.5@tcp
  Multi-Rail: maybe'
	bad_import bad_nid "6:16: invalid primary nid '10.11.0.5@eth': unknown LND 'eth': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" 'peer:
- primary nid: 10.11.0.5@eth'
	bad_import prio_range "7:13: invalid priority '4294967295': expected an integer 0-4294967294" 'udsp:
- src: tcp
  priority: 4294967295'
	bad_import quoted_prio "7:13: invalid priority '3': expected a number, not a quoted string" 'udsp:
- src: tcp
  priority: "3"'
	bad_import idx_range "6:8: invalid idx '65536': expected an integer -1-65535" 'udsp:
- idx: 65536
  src: tcp'
	bad_import expr_type "6:8: 'src' must be a scalar, not a sequence" 'udsp:
- src: [tcp]'
	bad_import rte_alone "6:3: invalid rule (rte): --rte needs --dst: a router rule is --dst with --rte" 'udsp:
- rte: 10.11.0.9@tcp'
	bad_import action_list_key "8:5: unknown key 'prio' in action: expected 'priority'" 'udsp:
- src: tcp
  action:
  - prio: 3'
	bad_import no_nid "6:3: a peer needs 'primary nid' or 'peer ni'" 'peer:
- Multi-Rail: true'
	bad_import empty_ifs "7:17: 'interfaces' is empty: a local NI needs one (e.g. '0: eth0')" '- net type: tcp
  local NI(s):
  - interfaces: []'
	bad_import empty_nis "6:16: 'local NI(s)' is empty: list the NIs, or leave it out for the whole net" '- net type: tcp
  local NI(s): []'
	bad_import hop_range "8:8: invalid hop '0': expected an integer 1-255" 'route:
- net: o2ib
  gateway: 10.11.0.9@tcp
  hop: 0'
	bad_import route_key "8:3: unknown key 'hops' in a route: expected 'net', 'gateway', 'hop', 'priority'" 'route:
- net: o2ib
  gateway: 10.11.0.9@tcp
  hops: 1'
	bad_import route_prio "8:13: invalid priority '2147483648': expected an integer 0-2147483647" 'route:
- net: o2ib
  gateway: 10.11.0.9@tcp
  priority: 2147483648'
	bad_import gateway_type "7:12: 'gateway' must be a scalar, not a sequence" 'route:
- net: o2ib
  gateway: [10.11.0.9@tcp]'
	bad_import route_net "6:3: a route needs 'net'" 'route:
- gateway: 10.11.0.9@tcp'
	bad_import buffers_range "6:9: invalid tiny '1048577': expected 0 (the default) or an integer 1-1048576" 'buffers:
  tiny: 1048577'
	bad_import buffers_type "5:10: 'buffers' must be a mapping, not a sequence" 'buffers: [1]'
	bad_import routing_bool "6:11: invalid enable 'true': expected an integer 0-3" 'routing:
  enable: true'
	bad_import global_key "6:3: unknown key 'numa' in global: expected a key of 'lnetctl global show'" 'global:
  numa: 1'
	bad_import global_range "6:16: invalid retry_count '200': expected an integer 0-100" 'global:
  retry_count: 200'
}

@test "import --del of a local NI with no interfaces is an error, not the whole net" {
	lnetctl net add --net tcp --if veth0
	state >"$T/before"
	printf 'net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {}\n' >"$T/del.yaml"
	run lnetctl import --del "$T/del.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/del.yaml:4:17: 'interfaces' is empty: a local NI needs one (e.g. '0: eth0')" ]
	state >"$T/after"
	diff -u "$T/before" "$T/after"
	validate lnet "$T/del.yaml"
	[ "$output" = "$T/del.yaml:4:17: {} does not have enough properties (at net/0/local NI(s)/0/interfaces)" ]
}

@test "the NID, net and expression patterns agree with the NID library" {
	local e
	# accepted by lnetctl debug nidlist: the expression pattern matches
	# what was given and the canonical form printed
	printf '%s\n' tcp tcp0 'tcp*' 'o2ib[1-3]' '*@tcp' '10.0.0.[1-3]@tcp' \
		'192.168.[0-2].[1-254/2]@tcp1' '[1-3]@gni' '2001:db8::[1-ff]@tcp' \
		'2001:db8::/64@tcp' 0@lo lo 0x10@gni '*@gni' 'tcp[1,3,5-9]' \
		'10.0.0.*@o2ib*' '[1-3/1]@kfi' efa 1.2.3.4@efa65535 5@ptlf >"$T/good"
	while read -r e; do
		run lnetctl debug nidlist "$e"
		[ "$status" -eq 0 ] || { echo "nidlist $e: $output"; return 1; }
		printf 'udsp:\n- {idx: 0, src: "%s", action: {priority: 0}}\n- {idx: 1, src: "%s", action: {priority: 0}}\n' \
			"$e" "$output" >"$T/e.yaml"
		valid policy-show "$T/e.yaml"
	done <"$T/good"
	# rejected by both
	printf '%s\n' TCP 'lo*' '*' '*@*' 'tcp 1' 'tcp123456' '10.0.0.1@' '@tcp' >"$T/bad"
	while read -r e; do
		run lnetctl debug nidlist "$e"
		[ "$status" -eq 1 ] || { echo "nidlist took $e"; return 1; }
		printf 'udsp:\n- {src: "%s"}\n' "$e" >"$T/e.yaml"
		validate lnet "$T/e.yaml"
		[ "$status" -eq 1 ] || { echo "the schema took $e"; return 1; }
	done <"$T/bad"
	# NIDs: what peer add takes matches the nid pattern, the printed form
	# the canonical one
	for e in 10.11.0.50@tcp0 2001:DB8::51@tcp3 0x33@gni 7@kfi12 1.2.3.4@efa; do
		lnetctl peer add --prim_nid "$e"
		printf 'peer:\n- primary nid: "%s"\n' "$e" >"$T/p.yaml"
		valid lnet "$T/p.yaml"
	done
	lnetctl peer list >"$T/list.yaml"
	valid peer-list "$T/list.yaml"
	output=$(cat "$T/list.yaml")
	[ "$(yaml_get "' '.join(p['nid'] for p in d['peer list'])")" = \
		"10.11.0.50@tcp 2001:db8::51@tcp3 51@gni 7@kfi12 1.2.3.4@efa" ]
	for e in 10.11.0.50@tcp0 2001:DB8::51@tcp3 0x33@gni; do
		printf 'peer list:\n- nid: "%s"\n' "$e" >"$T/p.yaml"
		validate peer-list "$T/p.yaml"
		[ "$status" -eq 1 ] || { echo "canonical pattern took $e"; return 1; }
	done
}

# bats test_tags=parse-only
@test "yaml-validate.py: duplicate keys, aliases, decimal integers, one document, usage" {
	printf 'peer:\n- primary nid: 10.0.0.1@tcp\n  primary nid: 10.0.0.2@tcp\n' >"$T/dup.yaml"
	validate lnet "$T/dup.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/dup.yaml:3:3: duplicate key 'primary nid' (first at 2:3)" ]
	printf 'net:\n- &a {net type: tcp}\n- *a\n' >"$T/alias.yaml"
	validate lnet "$T/alias.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/alias.yaml:3:3: aliases (*name) are not supported" ]
	run lnetctl import "$T/alias.yaml"
	[ "$output" = "$T/alias.yaml:3:3: aliases (*name) are not supported" ]
	# 010 is ten, as lnetctl reads it (not YAML 1.1's octal 8)
	printf 'udsp:\n- {idx: 010, src: tcp, action: {priority: 1}}\n' >"$T/ten.yaml"
	valid policy-show "$T/ten.yaml"
	printf 'udsp:\n- {idx: 0010, src: tcp, action: {priority: 1_0}}\n' >"$T/under.yaml"
	validate policy-show "$T/under.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/under.yaml:2:44: '1_0' is not of type 'integer' (at udsp/0/action/priority)" ]
	printf 'net: []\n---\npeer: []\n' >"$T/two.yaml"
	validate lnet "$T/two.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/two.yaml:2:1: expected a single document in the stream, but found another document" ]
	printf 'net: [\n' >"$T/broken.yaml"
	validate lnet "$T/broken.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/broken.yaml:2:1: while parsing a flow node, expected the node content, but found '<stream end>'" ]
	validate lnet
	[ "$status" -eq 2 ]
	[ "$output" = 'usage: yaml-validate.py SCHEMA FILE... (FILE "-" = stdin)' ]
	validate lnet "$T/missing.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "yaml-validate.py: $T/missing.yaml: No such file or directory" ]
	run "$PY" "$TOP/tests/tools/yaml-validate.py" "$T/none.schema.yaml" "$T/ten.yaml"
	[ "$status" -eq 2 ]
	printf 'udsp: []\n' | { validate lnet -; [ "$output" = "-: ok" ]; }
}

@test "fault drop show and fault delay show validate; a wrong key or value fails" {
	lnetctl fault drop add -s '*' -d 10.11.0.9@tcp -r 4 -m PUT,GET -e local_error,remote_error
	lnetctl fault drop add -s '*@tcp1' -d '*' -i 5 -n -p 4,5 -o 10.11.0.1@tcp
	lnetctl fault drop add -s 10.11.0.8@tcp -d '*' -x -e random
	lnetctl fault delay add -s '*' -d '*@o2ib2' -r 2 -l 3 -m ACK
	lnetctl fault drop show >"$T/drop.yaml"
	valid fault-show "$T/drop.yaml"
	lnetctl fault delay show >"$T/delay.yaml"
	valid fault-show "$T/delay.yaml"
	invalid fault-show 'fault:
- {rule_type: delay, fa_src: "*", fa_dst: "*", fa_ptl_mask: 0, fa_msg_mask: 0,
   la_rate: 1, la_interval: 0, la_latency: 0, ls_delayed: 0,
   fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}' \
		"3:44: 0 is less than the minimum of 1 (at fault/0/la_latency)"
	invalid fault-show 'fault:
- {rule_type: drop, fa_src: "*@eth", fa_dst: "*", fa_ptl_mask: 0, fa_msg_mask: 0,
   da_rate: 1, da_interval: 0, ds_dropped: 0,
   fs_count: 0, fs_put: 0, fs_ack: 0, fs_get: 0, fs_reply: 0}' \
		"2:3: {'rule_type': 'drop', 'fa_src': '*@eth', 'fa_dst': '*', 'fa_ptl_mask': 0, 'fa_msg_mask': 0, 'da_rate': 1, 'da_interval': 0, 'ds_dropped': 0, 'fs_count': 0, 'fs_put': 0, 'fs_ack': 0, 'fs_get': 0, 'fs_reply': 0} is not valid under any of the given schemas (at fault/0)"
}
