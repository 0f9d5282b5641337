#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Discovery on send (two nodes, two links each, topo.bash): the first
# message to a peer discovers it, with no `lnetctl discover`; the peer is
# then known by its own first NID whichever NID traffic used; `set
# discovery 0` leaves peers as traffic made them.
# On lnetd and on /dev/lnet (each node a namespace of the VM).

load helpers
load topo

A0=10.21.0.1@tcp
A1=10.22.0.1@tcp
B0=10.21.0.2@tcp
B1=10.22.0.2@tcp

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# sent N NID...: "<GETs> <PUTs>" node N sent from those NIs together.
sent() {
	local n=$1 g p x sg=0 sp=0
	shift
	g=$(ni_count "$n" sent_stats.get "$@") && p=$(ni_count "$n" sent_stats.put "$@") || return 1
	for x in $g; do sg=$((sg + x)); done
	for x in $p; do sp=$((sp + x)); done
	echo "$sg $sp"
}

@test "a send discovers its peer: Multi-Rail, both NIs, primary its first NID; the peer learnt ours" {
	topo_2x2 mr
	# to B's second NID: the peer is still known by B's first
	run on 1 lnetctl selftest put $B1 --count 2 --size 4096
	[ "$status" -eq 0 ]
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
	# B learnt A's NIs from the push that ended the discovery
	run on 2 lnetctl peer show
	[ "$status" -eq 0 ]
	yaml_is "peer:
- primary nid: $A0
  Multi-Rail: true
  peer ni:
  - nid: $A0
    state: up
  - nid: $A1
    state: up"
	# one ping (GET) and one push (PUT) before the two PUTs, no more
	[ "$(sent 1 $A0 $A1)" = "1 3" ]
	run on 1 lnetctl selftest put $B1 --count 2 --size 4096
	[ "$status" -eq 0 ]
	[ "$(sent 1 $A0 $A1)" = "1 5" ]
}

# backup_peers N: "<primary>:<NID>,<NID>..." of each peer in node N's export --backup
backup_peers() {
	on "$1" lnetctl export --backup >"$TD/backup.yaml" || return 1
	"$TOPO_PY" - "$TD/backup.yaml" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1])) or {}
print(' '.join('%s:%s' % (p['primary nid'], ','.join(n['nid'] for n in p['peer ni']))
               for p in d.get('peer', [])))
PY
}

@test "a peer first reached from its second NID is known by its first NID once discovered; export --backup records that" {
	topo_2x2 mr
	# B sends first, from its second NID: A's peer of B is made by that
	# traffic (and B's own discovery of A pushes B's NIs to A)
	run on 2 lnetctl selftest put $A1 --source $B1 --count 1 --size 4096
	[ "$status" -eq 0 ]
	run on 1 lnetctl selftest put $B1 --count 1 --size 4096
	[ "$status" -eq 0 ]
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
	# an admin's peer named by its second NID, primary not locked: the
	# discovery a send starts makes it the node's first NID, and adds B0
	on 1 lnetctl peer del --prim_nid $B0
	on 1 lnetctl peer add --prim_nid $B1
	[ "$(backup_peers 1)" = "$B1:$B1" ]
	run on 1 lnetctl selftest put $B1 --count 1 --size 4096
	[ "$status" -eq 0 ]
	[ "$(backup_peers 1)" = "$B0:$B0,$B1" ]
	# locked (--lock_prim): the admin's primary stays
	on 1 lnetctl peer del --prim_nid $B0
	on 1 lnetctl peer add --prim_nid $B1 --lock_prim
	run on 1 lnetctl selftest put $B0 --count 1 --size 4096
	[ "$status" -eq 0 ]
	[ "$(backup_peers 1)" = "$B1:$B1,$B0" ]
}

@test "set discovery 0: a send leaves the peer single-NID and not Multi-Rail; no ping, no push" {
	topo_2x2 mr
	on 1 lnetctl set discovery 0
	run on 1 lnetctl selftest put $B1 --count 2 --size 4096
	[ "$status" -eq 0 ]
	run on 1 lnetctl peer show
	[ "$status" -eq 0 ]
	yaml_is "peer:
- primary nid: $B1
  Multi-Rail: false
  peer ni:
  - nid: $B1
    state: up"
	[ "$(sent 1 $A0 $A1)" = "0 2" ]
}

@test "a send to a peer that does not answer fails after the discovery's timeout, and says so" {
	topo_2x1
	on 1 lnetctl set retry_count 0
	on 1 lnetctl set transaction_timeout 2
	# nobody has this NID on the link: the discovery ping gets no answer
	run on 1 lnetctl selftest put 10.21.0.9@tcp --count 1 --size 4096 --timeout 10
	[ "$status" -eq 1 ]
	[[ "$output" == *"10.21.0.9@tcp"* ]]
	run on 1 lnetctl peer show
	[[ "$output" != *"Multi-Rail: true"* ]]
}

@test "rules apply to the peer NIs a send's discovery adds: --dst B1 --priority 0 takes every PUT after it" {
	topo_2x2 mr
	on 1 lnetctl policy add --dst $B1 --priority 0
	run on 1 lnetctl selftest put $B0 --count 10 --size 4096
	[ "$status" -eq 0 ]
	# the ping went to the NID asked for (no peer NI to choose from yet);
	# the push and the 10 PUTs to B1, which the rule prefers
	[ "$(ni_count 2 received_stats.get $B0 $B1)" = "1 0" ]
	[ "$(ni_count 2 received_stats.put $B0 $B1)" = "0 11" ]
}
