#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# import / export: examples/lnet.yaml in and out, export --backup round
# trips through a fresh lnetd (all six rule shapes, priority 0), errors as
# FILE:LINE:COL with nothing changed, rollback of a failed import,
# import --del, stdin.

load helpers
lnet_suite

# conns_per_peer 2: unset, the LND chooses by the link speed, 10 Gb/s on a veth
EXAMPLE_BACKUP='net:
-   net type: tcp
    local NI(s):
    -   interfaces:
            0: veth0
        tunables:
            peer_timeout: 180
            peer_credits: 16
            peer_buffer_credits: 0
            credits: 256
        lnd tunables:
            conns_per_peer: 2
            tos: -1
        CPT: "[0]"
-   net type: tcp1
    local NI(s):
    -   interfaces:
            0: veth1
        tunables:
            peer_timeout: 180
            peer_credits: 8
            peer_buffer_credits: 0
            credits: 256
        lnd tunables:
            conns_per_peer: 2
            tos: -1
        CPT: "[0]"
peer:
-   primary nid: 10.11.0.10@tcp
    Multi-Rail: true
    peer ni:
    -   nid: 10.11.0.10@tcp
    -   nid: 10.11.0.11@tcp1
-   primary nid: 10.11.0.20@tcp
    Multi-Rail: true
    peer ni:
    -   nid: 10.11.0.20@tcp
    -   nid: 10.11.0.21@tcp1
udsp:
-   idx: 0
    src: tcp1
    action:
        priority: 0
-   idx: 1
    src: 10.11.0.1@tcp
    action:
        priority: 1
-   idx: 2
    dst: tcp1
    action:
        priority: 1
-   idx: 3
    dst: 10.11.0.20@tcp
    action:
        priority: 0
-   idx: 4
    src: 10.11.0.2@tcp1
    dst: 10.11.0.[10-11]@tcp1
-   idx: 5
    dst: 10.11.0.21@tcp1
    rte: 10.11.0.[250-254]@tcp'

@test "import examples/lnet.yaml, export --backup gives it back" {
	run --separate-stderr lnetctl import "$TOP/examples/lnet.yaml"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$stderr" = "" ]
	run lnetctl export --backup
	[ "$status" -eq 0 ]
	yaml_is "$EXAMPLE_BACKUP"
	run lnetctl net show
	yaml_is 'net:
- net type: lo
  local NI(s):
  - {nid: 0@lo, status: up}
- net type: tcp
  local NI(s):
  - {nid: 10.11.0.1@tcp, status: up, interfaces: {0: veth0}}
- net type: tcp1
  local NI(s):
  - {nid: 10.11.0.2@tcp1, status: up, interfaces: {0: veth1}}'
}

@test "export --backup into a fresh lnetd and out again: identical, six rule shapes" {
	lnetctl import "$TOP/examples/lnet.yaml"
	# Both PRIORITY shapes with priority 0 and a non-MR, locked peer too.
	lnetctl policy add --dst 10.11.0.[10-11]@tcp --priority 0
	lnetctl peer add --prim_nid 10.11.0.30@tcp --non_mr --lock_prim
	lnetctl export --backup >"$T/a.yaml"
	fresh_lnetd
	lnetctl --socket "$B_SOCKET" import "$T/a.yaml"
	lnetctl --socket "$B_SOCKET" export --backup >"$T/b.yaml"
	cmp "$T/a.yaml" "$T/b.yaml"
	run lnetctl --socket "$B_SOCKET" policy show
	[ "$status" -eq 0 ]
	[ "$(yaml_get "len(d['udsp'])")" = 7 ]
	[ "$(yaml_get "[r.get('action') for r in d['udsp']]")" = \
	  "[{'priority': 0}, {'priority': 1}, {'priority': 1}, {'priority': 0}, None, None, {'priority': 0}]" ]
	run lnetctl --socket "$B_SOCKET" peer show
	[ "$(yaml_get "d['peer'][2]")" = \
	  "{'primary nid': '10.11.0.30@tcp', 'Multi-Rail': False, 'Lock Primary NID': True, 'peer ni': [{'nid': '10.11.0.30@tcp', 'state': 'up'}]}" ]
	# The effects are the same too.
	[ "$(udsp_of peer 10.11.0.11@tcp1)" = "1 -1" ]
	[ "$(LNET_SOCKET=$B_SOCKET udsp_of peer 10.11.0.11@tcp1)" = "1 -1" ]
	[ "$(LNET_SOCKET=$B_SOCKET pref_of 'Preferred source NIDs' 10.11.0.11@tcp1)" = "10.11.0.2@tcp1" ]
	[ "$(LNET_SOCKET=$B_SOCKET pref_of 'Preferred gateway NIDs' 10.11.0.21@tcp1)" = \
	  "$(pref_of 'Preferred gateway NIDs' 10.11.0.21@tcp1)" ]
}

@test "a full export (lo, status, statistics, udsp info) imports back" {
	lnetctl import "$TOP/examples/lnet.yaml"
	lnetctl export >"$T/full.yaml"
	grep -q 'net type: lo' "$T/full.yaml"
	grep -q 'udsp info:' "$T/full.yaml"
	fresh_lnetd
	lnetctl --socket "$B_SOCKET" import "$T/full.yaml"
	run lnetctl --socket "$B_SOCKET" export --backup
	[ "$status" -eq 0 ]
	yaml_is "$EXAMPLE_BACKUP"
}

@test "import - reads stdin; import with no FILE too" {
	run lnetctl import - <"$TOP/examples/lnet.yaml"
	[ "$status" -eq 0 ]
	run lnetctl export --backup
	yaml_is "$EXAMPLE_BACKUP"
	printf 'udsp:\n- dst: o2ib\n  priority: 7\n' | lnetctl import
	run lnetctl policy show --idx 6
	yaml_is 'udsp: [{idx: 6, dst: o2ib, action: {priority: 7}}]'
}

# check_error FILE_TEXT EXPECTED_STDERR: exit 1, that message, nothing changed.
check_error() {
	printf '%s' "$1" >"$T/bad.yaml"
	state >"$T/before"
	run --separate-stderr lnetctl import "$T/bad.yaml"
	[ "$status" -eq 1 ] || { echo "status $status"; return 1; }
	[ "$output" = "" ]
	[ "$stderr" = "$T/bad.yaml:$2" ] || { echo "got: $stderr"; return 1; }
	state >"$T/after"
	cmp "$T/before" "$T/after"
}

@test "errors are FILE:LINE:COL: message, exit 1, and change nothing" {
	lnetctl import "$TOP/examples/lnet.yaml"
	# A good first section does not get applied when a later one is bad.
	good='net:
- net type: tcp
  local NI(s):
  - interfaces: {0: veth1}
'
	check_error "${good}peer:
    - primary nid: 10.0.0.300@tcp
" "6:20: invalid primary nid '10.0.0.300@tcp': octet '300' is out of range 0-255"
	check_error "${good}udsp:
- src: tcp
  priority: high
" "7:13: invalid priority 'high': expected an integer 0-4294967294"
	check_error "${good}udsp:
- src: tcp
  action: {priority: 4294967295}
" "7:22: invalid priority '4294967295': expected an integer 0-4294967294"
	check_error "${good}routes:
- net: tcp2
" "5:1: unknown key 'routes' in the document: expected 'net', 'ip2nets', 'peer', 'udsp', 'route', 'routing', 'buffers', 'global', 'numa'"
	check_error "${good}udsp:
- src: tcp
  prio: 1
" "7:3: unknown key 'prio' in a udsp rule: expected 'idx', 'src', 'dst', 'rte', 'action', 'priority'"
	check_error "${good}peer:
    primary nid: 10.11.0.40@tcp
" "6:5: 'peer' must be a sequence, not a mapping"
	check_error "${good}udsp:
- src: tcp
  dst: o2ib
  src: tcp1
" "8:3: duplicate key 'src' (first at 6:3)"
	check_error "${good}udsp:
- src: tcp
   dst: o2ib
" "7:7: mapping values are not allowed in this context"
	check_error "${good}udsp:
- rte: tcp
" "6:3: invalid rule (rte): --rte needs --dst: a router rule is --dst with --rte"
}

@test "a failure while applying rolls back everything that import applied" {
	lnetctl import "$TOP/examples/lnet.yaml"
	state >"$T/before"
	# The first net is added, the second one's interface does not exist.
	printf 'net:\n- net type: o2ib\n  local NI(s):\n  - interfaces: {0: veth0}\n- net type: o2ib1\n  local NI(s):\n  - interfaces: {0: nope0}\n' >"$T/f1.yaml"
	run --separate-stderr lnetctl import "$T/f1.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/f1.yaml:7:5: interface 'nope0' does not exist" ]
	state >"$T/after"
	cmp "$T/before" "$T/after"
	# A net, a new peer and a peer NI added to an existing one, then a route
	# the core refuses: all of it undone (rules: test_yaml's t_rollback).
	printf '%s\n' 'net:' '- net type: o2ib' '  local NI(s):' '  - interfaces: {0: veth0}' \
		'peer:' '- primary nid: 10.11.0.40@tcp' '  peer ni:' '  - nid: 10.11.0.41@tcp1' \
		'- primary nid: 10.11.0.10@tcp' '  peer ni:' '  - nid: 10.11.0.12@tcp' \
		'route:' '- net: tcp' '  gateway: 10.11.0.50@tcp1' >"$T/f2.yaml"
	run --separate-stderr lnetctl import "$T/f2.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/f2.yaml:13:3: net tcp is a local net: it is reached directly, not through a gateway" ]
	state >"$T/after"
	cmp "$T/before" "$T/after"
}

@test "import --del removes what the file lists: rules by content, NIDs, nets" {
	lnetctl import "$TOP/examples/lnet.yaml"
	# Rules listed out of order and without idx; one secondary NID; one net.
	printf '%s\n' 'net:' '- net type: tcp1' \
		'peer:' '- primary nid: 10.11.0.20@tcp' '  peer ni:' '  - nid: 10.11.0.21@tcp1' \
		'udsp:' '- dst: 10.11.0.21@tcp1' '  rte: 10.11.0.[250-254]@tcp' \
		'- src: tcp1' '- dst: tcp1' >"$T/del.yaml"
	run --separate-stderr lnetctl import --del "$T/del.yaml"
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	run lnetctl export --backup
	yaml_is 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: veth0}
    tunables: {peer_timeout: 180, peer_credits: 16, peer_buffer_credits: 0, credits: 256}
    lnd tunables: {conns_per_peer: 2, tos: -1}
    CPT: "[0]"
peer:
- primary nid: 10.11.0.10@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.10@tcp}, {nid: 10.11.0.11@tcp1}]
- primary nid: 10.11.0.20@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.20@tcp}]
udsp:
- {idx: 0, src: 10.11.0.1@tcp, action: {priority: 1}}
- {idx: 1, dst: 10.11.0.20@tcp, action: {priority: 0}}
- {idx: 2, src: 10.11.0.2@tcp1, dst: "10.11.0.[10-11]@tcp1"}'
	# A rule that is not there is nothing to delete: the others go.
	printf 'udsp:\n- src: 10.11.0.1@tcp\n- dst: o2ib\n' >"$T/del2.yaml"
	run --separate-stderr lnetctl import --del "$T/del2.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	run lnetctl policy show
	yaml_is 'udsp:
- {idx: 0, dst: 10.11.0.20@tcp, action: {priority: 0}}
- {idx: 1, src: 10.11.0.2@tcp1, dst: "10.11.0.[10-11]@tcp1"}'
}

@test "import --del of its own export --backup empties LNet" {
	lnetctl import "$TOP/examples/lnet.yaml"
	lnetctl export --backup >"$T/all.yaml"
	run --separate-stderr lnetctl import --del "$T/all.yaml"
	[ "$status" -eq 0 ]
	run lnetctl export --backup
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl policy show
	[ "$output" = "" ]
	net_show_lo_only
}

@test "import of a missing file or without LNet fails with exit 1" {
	run --separate-stderr lnetctl import "$T/none.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl import: cannot open '$T/none.yaml': No such file or directory" ]
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl import "$TOP/examples/lnet.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$TOP/examples/lnet.yaml:21:11: LNet is not configured: run 'lnetctl lnet configure'" ]
}

@test "export --backup keeps the admin's peers and route gateways, not peers that traffic made" {
	lnetctl net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.7@tcp
	lnetctl route add --net o2ib --gateway 10.11.0.8@tcp
	# a ping of a silent NID makes a peer for it (and fails)
	run lnetctl ping --timeout 1 10.11.0.9@tcp
	[ "$status" -eq 1 ]
	run lnetctl peer list
	yaml_is 'peer list: [{nid: 10.11.0.7@tcp}, {nid: 10.11.0.8@tcp}, {nid: 10.11.0.9@tcp}]'
	run lnetctl export --backup
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[p['primary nid'] for p in d['peer']]")" = "['10.11.0.7@tcp', '10.11.0.8@tcp']" ]
}

@test "lnd tunables and CPT in Lustre's form: tcp kept and shown, o2ib's accepted and ignored, round trip" {
	lnetctl import "$TOP/tests/data/net/lnd-tunables.yaml"
	# again: in force already, nothing changes; an lnd tunable that differs is refused
	state >"$T/first"
	lnetctl import "$TOP/tests/data/net/lnd-tunables.yaml"
	diff "$T/first" <(state)
	# an lnd tunable that differs changes in place, all or nothing: a peer
	# that fails after it puts it back
	sed 's/tos: 104/tos: 8/; s/timeout: 30/timeout: 20/' "$TOP/tests/data/net/lnd-tunables.yaml" >"$T/tos.yaml"
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	state >"$T/first"
	{ cat "$T/tos.yaml"; printf '%s\n' 'peer:' '- primary nid: 10.11.0.9@tcp' '  peer ni: [{nid: 10.11.0.8@tcp}]'; } >"$T/bad.yaml"
	run --separate-stderr lnetctl import "$T/bad.yaml"
	[ "$status" -eq 1 ] && [ "$stderr" = "$T/bad.yaml:42:3: NID 10.11.0.8@tcp already belongs to peer 10.11.0.7@tcp" ] || { echo "$status $stderr"; return 1; }
	diff "$T/first" <(state)
	run --separate-stderr lnetctl import --dry-run "$T/tos.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "~ net tcp(veth0): timeout 30 -> 20, tos 104 -> 8" ] || { echo "$output $stderr"; return 1; }
	lnetctl import "$T/tos.yaml"
	run lnetctl net show -v --net tcp
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['lnd tunables']")" = "{'conns_per_peer': 4, 'timeout': 20, 'tos': 8}" ]
	# and back; a changed NI tunable is still refused
	lnetctl import "$TOP/tests/data/net/lnd-tunables.yaml"
	lnetctl peer del --prim_nid 10.11.0.7@tcp
	sed 's/peer_credits: 8/peer_credits: 16/; s/tos: 104/tos: 8/' "$TOP/tests/data/net/lnd-tunables.yaml" >"$T/pc.yaml"
	fails 1 "$T/pc.yaml:8:13: net tcp(veth0): tunables peer_credits 8 -> 16: an NI's tunables cannot change while it exists (delete it first: lnetctl net del --net tcp --if veth0)" \
		import "$T/pc.yaml"
	run lnetctl net show -v --net tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[(k, ni[k]) for ni in d['net'][0]['local NI(s)'] for k in ('lnd tunables', 'dev cpt', 'CPT')]")" = \
	  "[('lnd tunables', {'conns_per_peer': 4, 'timeout': 30, 'tos': 104}), ('dev cpt', -1), ('CPT', '[0]')]" ]
	run lnetctl net show -v --net o2ib
	[ "$(yaml_get "sorted(d['net'][0]['local NI(s)'][0])")" = \
	  "['CPT', 'dev cpt', 'interfaces', 'nid', 'statistics', 'status', 'status reason', 'tunables']" ]
	run lnetctl export --backup
	printf '%s\n' "$output" >"$T/backup.yaml"
	yaml_is 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: veth0}
    tunables: {peer_timeout: 180, peer_credits: 8, peer_buffer_credits: 0, credits: 256}
    lnd tunables: {conns_per_peer: 4, tos: 104}
    CPT: "[0]"
- net type: o2ib
  local NI(s):
  - interfaces: {0: veth1}
    tunables: {peer_timeout: 180, peer_credits: 32, peer_buffer_credits: 0, credits: 256}
    CPT: "[0]"'
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl import "$T/backup.yaml"
	run lnetctl export --backup
	yaml_is "$(cat "$T/backup.yaml")"
}

@test "lnd tunables and CPT: bad values and unknown keys are one line naming them; nothing changes" {
	state >"$T/before"
	local cases=(
		'tcp|conns_per_peer: 128|lnd tunables: {conns_per_peer: 128}|5:36: invalid conns_per_peer '\''128'\'': expected an integer 0-127'
		'tcp|tos: 256|lnd tunables: {tos: 256}|5:25: invalid tos '\''256'\'': expected an integer -1-255'
		'tcp|fmr_cache|lnd tunables: {fmr_cache: 1}|5:20: unknown key '\''fmr_cache'\'' in lnd tunables: expected '\''conns_per_peer'\'', '\''timeout'\'', '\''tos'\'''
		'o2ib|bogus|lnd tunables: {bogus: 1}|5:20: unknown key '\''bogus'\'' in lnd tunables: expected '\''peercredits_hiw'\'', '\''map_on_demand'\'', '\''concurrent_sends'\'', '\''fmr_pool_size'\'', '\''fmr_flush_trigger'\'', '\''fmr_cache'\'', '\''ntx'\'', '\''conns_per_peer'\'', '\''timeout'\'', '\''tos'\'''
		'efa|tos|lnd tunables: {tos: 1}|5:20: unknown key '\''tos'\'' in lnd tunables: only tcp and o2ib nets have lnd tunables'
		'tcp|CPT x|CPT: "[0,x]"|5:10: invalid CPT '\''[0,x]'\'': expected a list of partitions 0-1023 such as '\''[0,1]'\'' or '\''[0-3]'\'''
		'tcp|CPT 1024|CPT: "[1024]"|5:10: invalid CPT '\''[1024]'\'': expected a list of partitions 0-1023 such as '\''[0,1]'\'' or '\''[0-3]'\'''
	)
	local c net what line msg
	for c in "${cases[@]}"; do
		IFS='|' read -r net what line msg <<<"$c"
		printf 'net:\n- net type: %s\n  local NI(s):\n  - interfaces: {0: veth0}\n    %s\n' \
			"$net" "$line" >"$T/bad.yaml"
		run --separate-stderr lnetctl import "$T/bad.yaml"
		echo "$what: $status $stderr"
		[ "$status" -eq 1 ]
		[ "$stderr" = "$T/bad.yaml:$msg" ]
	done
	# one state check for the table: none of these reached LNet
	state >"$T/after"
	diff "$T/before" "$T/after"
}

@test "a local NI's nid: checked against its interface, alone it finds the interface; --del deletes only it" {
	lnetctl net add --net tcp --if veth0
	state >"$T/start"
	# the first net's NI is added, then deleted again when the second fails
	printf 'net:\n- net type: tcp1\n  local NI(s):\n  - interfaces: {0: veth1}\n    nid: 10.11.0.2@tcp1\n- net type: tcp\n  local NI(s):\n  - nid: 10.11.0.1@tcp\n    interfaces: {0: veth1}\n' >"$T/bad.yaml"
	fails 1 "$T/bad.yaml:8:5: NID '10.11.0.1@tcp' is not the address of interface 'veth1'" \
		import "$T/bad.yaml"
	printf 'net:\n- net type: tcp\n  local NI(s):\n  - nid: 10.11.0.1@tcp1\n' >"$T/bad2.yaml"
	fails 1 "$T/bad2.yaml:4:10: NID '10.11.0.1@tcp1' is not on net tcp" import "$T/bad2.yaml"
	# the NID alone: the interface that has its address
	printf 'net:\n- net type: tcp2\n  local NI(s):\n  - nid: 10.11.0.2@tcp2\n' >"$T/nid.yaml"
	lnetctl import "$T/nid.yaml"
	lnetctl net add --net tcp2 --if veth0
	run lnetctl net show --net tcp2
	yaml_is 'net:
- net type: tcp2
  local NI(s):
  - {nid: 10.11.0.2@tcp2, status: up, interfaces: {0: veth1}}
  - {nid: 10.11.0.1@tcp2, status: up, interfaces: {0: veth0}}'
	lnetctl import --del "$T/nid.yaml"
	run lnetctl net show --net tcp2
	yaml_is 'net:
- net type: tcp2
  local NI(s):
  - {nid: 10.11.0.1@tcp2, status: up, interfaces: {0: veth0}}'
	# a full export (every NI with its nid) imports back into a fresh node
	lnetctl net del --net tcp2
	lnetctl export >"$T/full.yaml"
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl import "$T/full.yaml"
	diff "$T/start" <(state)
}

@test "ip2nets in Lustre's form: rules against the interfaces, first match per net, --del; no match fails and changes nothing" {
	lnetctl import "$TOP/tests/data/net/ip2nets.yaml"
	run lnetctl net show -v
	[ "$(yaml_get "[(n['net type'], ni['nid'], ni.get('interfaces'), ni['tunables']['peer_credits'], ni.get('lnd tunables', {}).get('conns_per_peer')) for n in d['net'] for ni in n['local NI(s)']]")" = \
	  "[('lo', '0@lo', None, 0, None), ('tcp', '10.11.0.2@tcp', {0: 'veth1'}, 8, 2), ('tcp1', '10.11.0.2@tcp1', {0: 'veth1'}, 16, 2), ('tcp1', '10.11.0.1@tcp1', {0: 'veth0'}, 16, 2)]" ]
	state >"$T/first"
	lnetctl import "$TOP/tests/data/net/ip2nets.yaml"
	diff "$T/first" <(state)
	lnetctl import --del "$TOP/tests/data/net/ip2nets.yaml"
	net_show_lo_only
	# an interface that is down does not match; no rule applied is an error
	ip -n "$NS" link set veth1 down
	printf 'ip2nets:\n- net-spec: tcp\n  interfaces: {0: veth1}\n- net-spec: tcp2\n  ip-range: {0: 10.99.*.*}\n' >"$T/none.yaml"
	fails 1 "$T/none.yaml:2:3: no ip2nets rule matches an interface of this node" import "$T/none.yaml"
	# bad rules: one line naming the value
	printf 'ip2nets:\n- interfaces: {0: veth0}\n  net-spec: tcp\n' >"$T/order.yaml"
	fails 1 "$T/order.yaml:2:3: an ip2nets rule starts with 'net-spec' (e.g. 'net-spec: tcp')" \
		import "$T/order.yaml"
	printf 'ip2nets:\n- net-spec: tcp\n  ip-range: {0: 10.0.0}\n' >"$T/range.yaml"
	fails 1 "$T/range.yaml:3:17: invalid ip-range '10.0.0': expected an IPv4 pattern such as '192.168.1.[2-20/2]' or '10.*.*.*', or an IPv6 address[/prefix]" \
		import "$T/range.yaml"
}

# Peers on tcp and tcp1 for the rules below to set values on.
many_rule_peers() {
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp1 --if veth1
	for i in 100 110 120 130; do
		lnetctl peer add --prim_nid 10.11.0.$i@tcp --nid 10.11.0.$((i + 1))@tcp,10.11.1.$i@tcp1
	done
}

# Rule k of 1,500 as `policy add` options: peer NI ranges, NID pairs and
# router-free net rules, each one distinct.
many_rule_opts() {
	awk 'BEGIN { for (i = 0; i < 1500; i++) { k = int(i / 3); a = k % 100 + 100; b = a + int(k / 100) + 1
		if (i % 3 == 0) printf "--dst 10.11.0.[%d-%d]@tcp --priority %d\n", a, b, i
		else if (i % 3 == 1) printf "--src tcp --dst 10.11.[0-1].[%d-%d/2]@tcp*\n", a, b
		else printf "--dst tcp%d --priority %d\n", k + 10, i } }'
}

@test "an import of 1,500 rules (several requests, one re-flatten) leaves what 1,500 policy adds leave" {
	many_rule_peers
	many_rule_opts | awk '{ o = $0; printf "- " ; n = split(o, w, " ")
		for (j = 1; j < n; j += 2) { k = substr(w[j], 3); if (k == "priority") printf "  priority: %s\n", w[j + 1]
			else printf "%s%s: \"%s\"\n", (j == 1 ? "" : "  "), k, w[j + 1] } }' |
		{ echo udsp:; cat; } >"$T/many.yaml"
	[ "$(grep -c '^- ' "$T/many.yaml")" -eq 1500 ]
	# more than one request (128 KiB each) of records of at least 160 bytes
	lnetctl import "$T/many.yaml"
	state >"$T/imported"
	run lnetctl peer show --nid 10.11.0.101@tcp -v 4
	[[ "$output" == *"nid priority: 0"* ]]
	lnetctl policy del --all
	many_rule_opts | sed 's/^/policy add /' | lnetctl
	state >"$T/added"
	cmp "$T/imported" "$T/added"
	# imported again: nothing to do, and nothing changes
	lnetctl import "$T/many.yaml"
	state >"$T/again"
	cmp "$T/imported" "$T/again"
}

# 64,600 rules held in the kernel's VM would take its memory: lnetd only.
# bats test_tags=lnetd-only
@test "an import that fails in its second request puts every rule and value back" {
	many_rule_peers
	# 64,601 rules, then 1,500 more on single NIDs: the first request of
	# the second import (819 rules of 160 bytes) goes in deferred, its
	# 936th rule, in the second request, is one too many (65,536).
	awk 'BEGIN { print "udsp:"; for (i = 0; i < 64600; i++)
		printf "- dst: 10.%d.%d.%d@tcp\n  priority: %d\n", 100 + int(i / 65536), int(i / 256) % 256, i % 256, i % 7 }' >"$T/full.yaml"
	awk 'BEGIN { print "udsp:"; for (i = 0; i < 1500; i++)
		printf "- dst: 10.11.%d.%d@tcp\n  priority: 1\n", int(i / 250), i % 250 + 1 }' >"$T/more.yaml"
	printf '%s\n' '- dst: 10.11.0.[100-140]@tcp' '  priority: 3' >>"$T/full.yaml"
	lnetctl import "$T/full.yaml"
	state >"$T/before"
	run --separate-stderr lnetctl import "$T/more.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/more.yaml:1872:3: cannot add rule: there are 65536 rules already" ]
	state >"$T/after"
	cmp "$T/before" "$T/after"
	run lnetctl peer show --nid 10.11.0.101@tcp -v 4
	[[ "$output" == *"nid priority: 3"* ]]
}
