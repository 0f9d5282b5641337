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

# state_is FILE: the node runs FILE's configuration. `export --backup`
# has FILE's net, peer, route and udsp sections (a backup leaves out what
# is at its default, where Lustre writes every key), `global show` has
# FILE's values of every global key, `routing show` its buffers, and the
# backup its routing setting (Lustre's 2, stopping, is off; 3, starting,
# on; `routing show` says 1 while it stops).
state_is() {
	lnetctl export --backup >"$T/backup.yaml"
	lnetctl global show >"$T/global.yaml"
	lnetctl routing show >"$T/routing.yaml"
	python3 - "$1" "$T/backup.yaml" "$T/global.yaml" "$T/routing.yaml" <<-'PY'
	import sys, yaml
	want, backup, glob, routing = (yaml.safe_load(open(f)) or {} for f in sys.argv[1:])
	bad = []
	for sec in ("net", "peer", "route", "udsp"):
	    if want.get(sec) != backup.get(sec):
	        bad.append("%s: got %s, want %s" % (sec, backup.get(sec), want.get(sec)))
	for k, v in want.get("global", {}).items():
	    if glob["global"].get(k) != v:
	        bad.append("global %s: got %s, want %s" % (k, glob["global"].get(k), v))
	if "buffers" in want and routing["buffers"] != want["buffers"]:
	    bad.append("buffers: got %s, want %s" % (routing["buffers"], want["buffers"]))
	if "routing" in want:
	    on = {0: 0, 1: 1, 2: 0, 3: 1}[want["routing"]["enable"]]
	    got = backup.get("routing", {"enable": 0})["enable"]
	    if got != on:
	        bad.append("routing: got %s, want %s" % (got, on))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# import_twice FILE: FILE imports (status 0, nothing printed), and again
# as a no-op: the second import changes nothing a user can see.
import_twice() {
	# no gateway of these files answers here: a failed check would change
	# health between the two states (on /dev/lnet its send fails at once)
	lnetctl set alive_router_check_interval 0
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
	state_is "$DATA/R02-backup.yaml"
}

@test "R07: two nets on one interface and the node itself as a Multi-Rail peer" {
	eth0_up
	import_twice "$DATA/R07-backup.yaml"
	state_is "$DATA/R07-backup.yaml"
}

@test "R21: net, NID, pair and router rules as 2.17 writes them (action: priority: N)" {
	eth0_up
	import_twice "$DATA/R21-backup.yaml"
	# A pair or router rule's priority does nothing on Lustre (its kernel
	# refuses to apply it); we import such a rule as the preferred-NID rule
	# it is, so the backup writes it without one, as Lustre's full export
	# (R20) does.
	python3 - "$DATA/R21-backup.yaml" >"$T/want.yaml" <<-'PY'
	import sys, yaml
	d = yaml.safe_load(open(sys.argv[1]))
	for r in d["udsp"]:
	    if "rte" in r or ("src" in r and "dst" in r):
	        del r["action"]
	print(yaml.safe_dump(d))
	PY
	state_is "$T/want.yaml"
	run lnetctl policy show
	[ "$(yaml_get "[(r['idx'], r.get('action')) for r in d['udsp']]")" = \
	  "[(0, {'priority': 2}), (1, {'priority': 1}), (2, None), (3, None)]" ]
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
		state_is "$T/$f.yaml"
		lnetctl import --del "$T/$f.yaml"
	done
}
