#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Idempotent import: a configuration in force imports again as a no-op;
# an edited one applies exactly the difference (import --dry-run lists it
# first), all or nothing; import --del of what is absent is no error.

load helpers
lnet_suite

# The tcp1 NI of examples/lnet.yaml as export --backup writes it.
TCP1_NET='- net type: tcp1
  local NI(s):
  - interfaces: {0: veth1}
    tunables: {peer_timeout: 180, peer_credits: 8, peer_buffer_credits: 0, credits: 256}
    lnd tunables: {conns_per_peer: 2, tos: -1}
    CPT: "[0]"'

# examples/lnet.yaml plus a route, routing, buffers and global settings.
base() {
	cat "$TOP/examples/lnet.yaml"
	printf '%s\n' 'route:' '- net: o2ib' '  gateway: 10.11.0.30@tcp' '  hop: 2' \
		'routing: {enable: 1}' 'buffers: {tiny: 1024}' 'global: {drop_asym_route: 1, retry_count: 3}'
}

# Import base.yaml. No gateway checks: base's gateway 10.11.0.30@tcp does
# not exist, and a failed check would turn its peer NI down at a moment of
# its own, between two exports that must be the same.
import_base() {
	base >"$T/base.yaml"
	lnetctl set alive_router_check_interval 0
	lnetctl import "$T/base.yaml"
}

# The same, edited: a peer NI more, a tunable and a route priority changed,
# a rule moved and one given a new priority, a new peer, a global value.
edited() {
	cat <<-'EOF'
	net:
	- net type: tcp
	  local NI(s):
	  - interfaces: {0: veth0}
	    tunables: {peer_timeout: 180, peer_credits: 16}
	- net type: tcp1
	  local NI(s):
	  - interfaces: {0: veth1}
	peer:
	- primary nid: 10.11.0.10@tcp
	  peer ni: [{nid: 10.11.0.10@tcp}, {nid: 10.11.0.11@tcp1}, {nid: 10.11.0.12@tcp1}]
	- primary nid: 10.11.0.20@tcp
	  peer ni: [{nid: 10.11.0.20@tcp}, {nid: 10.11.0.21@tcp1}]
	- primary nid: 10.11.0.40@tcp
	udsp:
	- {idx: 0, dst: 10.11.0.20@tcp, action: {priority: 0}}
	- {src: tcp1, action: {priority: 3}}
	route:
	- {net: o2ib, gateway: 10.11.0.30@tcp, hop: 2, priority: 5}
	routing: {enable: 1}
	buffers: {tiny: 1024}
	global: {drop_asym_route: 1, retry_count: 4}
	EOF
}

@test "importing what is in force changes nothing, twice and from export --backup" {
	import_base
	lnetctl export >"$T/before"
	run --separate-stderr lnetctl import --dry-run "$T/base.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "" ] && [ "$stderr" = "" ]
	run --separate-stderr lnetctl import "$T/base.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "" ] && [ "$stderr" = "" ]
	lnetctl export --backup >"$T/backup.yaml"
	run --separate-stderr lnetctl import --add "$T/backup.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	run --separate-stderr lnetctl import --dry-run "$T/backup.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "" ]
	lnetctl export >"$T/after"
	cmp "$T/before" "$T/after"
}

@test "an edited file: --dry-run lists the difference and changes nothing, import applies it" {
	import_base
	edited >"$T/edited.yaml"
	lnetctl export >"$T/before"
	run --separate-stderr lnetctl import --dry-run "$T/edited.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	[ "$output" = "+ peer 10.11.0.10@tcp: nid 10.11.0.12@tcp1
+ peer 10.11.0.40@tcp
~ route o2ib via 10.11.0.30@tcp: priority 0 -> 5
~ global: retry_count 3 -> 4
~ udsp idx 3: idx 3 -> 0
~ udsp idx 1: priority 0 -> 3" ] || { echo "$output"; return 1; }
	lnetctl export >"$T/after"
	cmp "$T/before" "$T/after"
	lnetctl import "$T/edited.yaml"
	run lnetctl export --backup
	yaml_is "net:
- net type: tcp
  local NI(s):
  - interfaces: {0: veth0}
    tunables: {peer_timeout: 180, peer_credits: 16, peer_buffer_credits: 0, credits: 256}
    lnd tunables: {conns_per_peer: 2, tos: -1}
    CPT: '[0]'
$TCP1_NET
"'peer:
- primary nid: 10.11.0.10@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.10@tcp}, {nid: 10.11.0.11@tcp1}, {nid: 10.11.0.12@tcp1}]
- primary nid: 10.11.0.20@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.20@tcp}, {nid: 10.11.0.21@tcp1}]
- primary nid: 10.11.0.30@tcp
  Multi-Rail: false
  peer ni: [{nid: 10.11.0.30@tcp}]
- primary nid: 10.11.0.40@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.40@tcp}]
route:
- {net: o2ib, gateway: 10.11.0.30@tcp, hop: 2, priority: 5}
routing: {enable: 1}
buffers: {tiny: 1024}
global: {alive_router_check_interval: 0, drop_asym_route: 1, retry_count: 4}
udsp:
- {idx: 0, dst: 10.11.0.20@tcp, action: {priority: 0}}
- {idx: 1, src: tcp1, action: {priority: 3}}
- {idx: 2, src: 10.11.0.1@tcp, action: {priority: 1}}
- {idx: 3, dst: tcp1, action: {priority: 1}}
- {idx: 4, src: 10.11.0.2@tcp1, dst: "10.11.0.[10-11]@tcp1"}
- {idx: 5, dst: 10.11.0.21@tcp1, rte: "10.11.0.[250-254]@tcp"}'
	run lnetctl import --dry-run "$T/edited.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "" ]
}

@test "a failing edited import leaves the state exactly as it was" {
	import_base
	# the edit, with a NID of another peer given to the new peer (applied
	# after the NI replaced and the peer NI added, before the rules), and
	# lnd tunables of the running tcp NI changed in place first
	edited | sed 's/^- primary nid: 10.11.0.40@tcp$/&\n  peer ni: [{nid: 10.11.0.21@tcp1}]/
		s/^    tunables: {peer_timeout: 180, peer_credits: 16}$/&\n    lnd tunables: {timeout: 20, tos: 4}/' >"$T/bad.yaml"
	lnetctl export >"$T/before"
	run --separate-stderr lnetctl import "$T/bad.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/bad.yaml:15:3: NID 10.11.0.21@tcp1 already belongs to peer 10.11.0.20@tcp" ] || { echo "$stderr"; return 1; }
	lnetctl export >"$T/after"
	cmp "$T/before" "$T/after"
	# a tunable of an NI in force: refused, naming both values; --dry-run too
	edited | sed 's/peer_credits: 16/peer_credits: 32/' >"$T/tun.yaml"
	msg="$T/tun.yaml:4:5: net tcp(veth0): tunables peer_credits 16 -> 32: an NI's tunables cannot change while it exists (delete it first: lnetctl net del --net tcp --if veth0)"
	run --separate-stderr lnetctl import --dry-run "$T/tun.yaml"
	[ "$status" -eq 1 ] && [ "$output" = "" ]
	[ "$stderr" = "$msg" ] || { echo "$stderr"; return 1; }
	run --separate-stderr lnetctl import "$T/tun.yaml"
	[ "$status" -eq 1 ] && [ "$stderr" = "$msg" ]
	# nor can a peer's Multi-Rail
	printf '%s\n' 'peer:' '- primary nid: 10.11.0.10@tcp' '  Multi-Rail: false' >"$T/mr.yaml"
	run --separate-stderr lnetctl import "$T/mr.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/mr.yaml:2:3: peer 10.11.0.10@tcp: 'Multi-Rail' is true, the file says false: it cannot change on a peer that exists (delete the peer first)" ] || { echo "$stderr"; return 1; }
	lnetctl export >"$T/after"
	cmp "$T/before" "$T/after"
	# the rolled back timeout is the default again: it follows the global one
	lnetctl set transaction_timeout 41
	run lnetctl net show -v --net tcp
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['lnd tunables']")" = "{'conns_per_peer': 2, 'timeout': 10, 'tos': -1}" ]
}

@test "import --del removes what the file names; again, or of what is absent, is no error" {
	import_base
	printf '%s\n' 'net:' '- net type: tcp1' '- net type: o2ib' \
		'peer:' '- primary nid: 10.11.0.20@tcp' '  peer ni: [{nid: 10.11.0.21@tcp1}, {nid: 10.11.0.29@tcp1}]' \
		'- primary nid: 10.11.0.99@tcp' \
		'route:' '- {net: o2ib, gateway: 10.11.0.30@tcp}' '- {net: o2ib, gateway: 10.11.0.31@tcp}' \
		'udsp:' '- {src: tcp1, action: {priority: 0}}' '- {dst: o2ib, action: {priority: 0}}' \
		'global: {drop_asym_route: 1}' >"$T/del.yaml"
	run --separate-stderr lnetctl import --del --dry-run "$T/del.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	[ "$output" = "- udsp idx 0
~ global: drop_asym_route 1 -> 0
- route o2ib via 10.11.0.30@tcp
- peer 10.11.0.20@tcp: nid 10.11.0.21@tcp1
- net tcp1" ] || { echo "$output"; return 1; }
	lnetctl import --del "$T/del.yaml"
	lnetctl export >"$T/once"
	run --separate-stderr lnetctl import --del "$T/del.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	run lnetctl import --del --dry-run "$T/del.yaml"
	[ "$status" -eq 0 ] && [ "$output" = "" ]
	lnetctl export >"$T/twice"
	cmp "$T/once" "$T/twice"
	run lnetctl policy show
	[ "$(grep -c 'idx:' <<<"$output")" -eq 5 ]
	run lnetctl route show
	[ "$output" = "" ]
}

# bats test_tags=parse-only
@test "import of a directory says so; --add with --del is refused" {
	run --separate-stderr lnetctl import "$T"
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl import: cannot read '$T': it is a directory: import takes a YAML file" ]
	run --separate-stderr lnetctl import --add --del "$TOP/examples/lnet.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--add and --del cannot be combined"* ]]
}

@test "import --show prints what the file names as it runs now; --exec pings and discovers" {
	import_base
	printf '%s\n' 'net:' '- net type: tcp1' 'peer:' '- primary nid: 10.11.0.20@tcp' \
		'- primary nid: 10.11.0.99@tcp' 'udsp:' '- dst: tcp1' '- dst: o2ib' \
		'global: {retry_count: 0, numa_range: 0}' >"$T/names.yaml"
	lnetctl export >"$T/before"
	run --separate-stderr lnetctl import --show "$T/names.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	yaml_is "net:
$TCP1_NET
"'peer:
- primary nid: 10.11.0.20@tcp
  Multi-Rail: true
  peer ni: [{nid: 10.11.0.20@tcp}, {nid: 10.11.0.21@tcp1}]
global: {numa_range: 0, retry_count: 3}
udsp:
- {idx: 2, dst: tcp1, action: {priority: 1}}'
	lnetctl export >"$T/after"
	cmp "$T/before" "$T/after"
	printf '%s\n' 'ping:' '  nids: {0: 0@lo}' '  timeout: 2000' \
		'discover:' '  nids: [10.11.0.2@tcp1]' >"$T/exec.yaml"
	run --separate-stderr lnetctl import --exec "$T/exec.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	yaml_is 'ping:
- primary nid: 0@lo
  Multi-Rail: false
  peer_ni: [{nid: 10.11.0.1@tcp}, {nid: 10.11.0.2@tcp1}]
discover:
- primary nid: 10.11.0.2@tcp1
  Multi-Rail: true
  peer_ni: [{nid: 10.11.0.1@tcp}, {nid: 10.11.0.2@tcp1}]'
	# checked whole before anything is sent; a failure names the NID's place
	printf '%s\n' 'ping:' '  nids: {0: 0@lo, 1: 10.11.0.9@tcp7}' >"$T/exec2.yaml"
	run --separate-stderr lnetctl import --exec "$T/exec2.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/exec2.yaml:2:22: failed to ping 10.11.0.9@tcp7: no route to net tcp7 (no local NI and no route)" ] || { echo "$stderr"; return 1; }
	printf '%s\n' 'ping:' '  nids: {0: 0@lo}' 'net: []' >"$T/exec3.yaml"
	run --separate-stderr lnetctl import --exec "$T/exec3.yaml"
	[ "$status" -eq 1 ] && [ "$output" = "" ]
	[ "$stderr" = "$T/exec3.yaml:3:1: unknown key 'net' in an import --exec document: expected 'ping', 'discover'" ]
}
