#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# A Lustre site's files move over unchanged: what a real Lustre 2.17 node
# exported (tests/data/lustre/R*.yaml) imports into a node of ours with
# the same interface (eth0, 10.0.2.15/24), imports again as a no-op, and
# comes back out of `export --backup` as Lustre wrote it.

load helpers
lnet_suite

DATA=$TOP/tests/data/lustre

# The Lustre node's link: eth0 with 10.0.2.15/24 in the test's namespace.
eth0_up() {
	ip -n "$NS" link add eth0 type veth peer name eth0p
	ip -n "$NS" addr add 10.0.2.15/24 dev eth0
	ip -n "$NS" link set eth0 up
	ip -n "$NS" link set eth0p up
}

# backup_is FILE: `export --backup` loads to the same data as FILE.
backup_is() {
	lnetctl export --backup >"$T/backup.yaml"
	yaml_eq "$T/backup.yaml" "$1"
}

# import_twice FILE: FILE imports (status 0, nothing printed), and again
# as a no-op: the second import changes nothing a user can see.
import_twice() {
	run lnetctl import "$1"
	[ "$status" -eq 0 ] || { echo "import $1: $output"; return 1; }
	[ "$output" = "" ]
	state >"$T/once"
	run lnetctl import "$1"
	[ "$status" -eq 0 ] || { echo "import again $1: $output"; return 1; }
	[ "$output" = "" ]
	state >"$T/twice"
	diff -u "$T/once" "$T/twice"
}

@test "R02: a backup with lnd tunables, CPT, a route, peers, routing enable 2, buffers, every global" {
	eth0_up
	import_twice "$DATA/R02-backup.yaml"
	backup_is "$DATA/R02-backup.yaml"
}

@test "R07: two nets on one interface and the node itself as a Multi-Rail peer" {
	eth0_up
	import_twice "$DATA/R07-backup.yaml"
	backup_is "$DATA/R07-backup.yaml"
}

@test "R21: net, NID, pair and router rules as 2.17 writes them (action: priority: N)" {
	eth0_up
	import_twice "$DATA/R21-backup.yaml"
	backup_is "$DATA/R21-backup.yaml"
	run lnetctl policy show
	[ "$(yaml_get "[(r['idx'], r['action']) for r in d['udsp']]")" = \
	  "[(0, {'priority': 2}), (1, {'priority': 1}), (2, {'priority': 1}), (3, {'priority': 1})]" ]
}

@test "R20: a full export (statistics, health, latency keys) imports its configuration only" {
	eth0_up
	import_twice "$DATA/R20-export.yaml"
	run lnetctl net show --net tcp
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.0.2.15@tcp" ]
	run lnetctl peer show --nid 10.0.2.2@tcp
	[ "$(yaml_get "[n['nid'] for n in d['peer'][0]['peer ni']]")" = "['10.0.2.2@tcp', '10.0.2.5@tcp']" ]
	run lnetctl policy show
	[ "$(yaml_get "len(d['udsp'])")" = 4 ]
}

@test "each file's backup re-imports into a fresh node to the same backup; import --del empties it" {
	eth0_up
	local f
	for f in R02-backup R07-backup R21-backup; do
		lnetctl import "$DATA/$f.yaml"
		lnetctl export --backup >"$T/$f.yaml"
		lnetctl import --del "$T/$f.yaml"
		run lnetctl net show
		[ "$(yaml_get "[n['net type'] for n in d['net']]")" = "['lo']" ] ||
			{ echo "$f: import --del left: $output"; return 1; }
		run lnetctl peer list
		[ "$output" = "" ] || { echo "$f: import --del left peers: $output"; return 1; }
		run lnetctl policy show
		[ "$output" = "" ] || { echo "$f: import --del left rules: $output"; return 1; }
		lnetctl import "$T/$f.yaml"
		backup_is "$T/$f.yaml"
		lnetctl import --del "$T/$f.yaml"
	done
}
