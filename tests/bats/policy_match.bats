#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl policy show --nid NID | --net NET: every rule that can set a
# value of the NID or net, the one that wins each value, and the values;
# for a NID nobody has, what a peer NI with it would get. The values are
# the engine's (IOC_LNET_UDSP_MATCH runs the flattening's own code): they
# must be what net show -v 4 and peer show -v 4 say for the same NID.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	lnet_setup
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0	# 10.11.0.1@tcp
	lnetctl net add --net tcp1 --if veth1	# 10.11.0.2@tcp1
}

teardown() {
	lnet_teardown
}

add_peers() {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	lnetctl peer add --prim_nid 10.11.0.200@tcp1
}

# match ARGS...: policy show ARGS, which must succeed.
match() {
	run --separate-stderr lnetctl policy show "$@"
	[ "$status" -eq 0 ] || { echo "status $status: $stderr"; return 1; }
	[ "$stderr" = "" ]
}

@test "a peer NID two rules match: the first one wins, the second is overridden by it" {
	add_peers
	lnetctl policy add --dst '10.11.0.[100-101]@tcp' --priority 5
	lnetctl policy add --dst 10.11.0.101@tcp --priority 2
	match --nid 10.11.0.101@tcp
	yaml_is "policy match:
  nid: 10.11.0.101@tcp
  kind: peer NI
  rules:
  - idx: 0
    dst: 10.11.0.[100-101]@tcp
    action: {priority: 5}
    sets: peer NI priority
    wins: true
  - idx: 1
    dst: 10.11.0.101@tcp
    action: {priority: 2}
    sets: peer NI priority
    wins: false
    overridden by: 0
  effective:
    peer net priority: -1
    peer NI priority: 5
    preferred source NIDs: []
    preferred routers: []"
	[ "$(udsp_of peer 10.11.0.101@tcp)" = "-1 5" ]
	# the second rule moved first: now it wins
	lnetctl policy add --dst 10.11.0.101@tcp --priority 2 --idx 0
	match --nid 10.11.0.101@tcp
	[ "$(yaml_get "[(r['idx'], r['wins'], r.get('overridden by')) for r in d['policy match']['rules']]")" = \
	  "[(0, True, None), (1, False, 0)]" ]
	[ "$(yaml_get "d['policy match']['effective']['peer NI priority']")" = 2 ]
	[ "$(udsp_of peer 10.11.0.101@tcp)" = "-1 2" ]
}

@test "a local NID: its net and NI priorities, and the peer NIs it is a preferred source of" {
	add_peers
	lnetctl policy add --src tcp --priority 3
	lnetctl policy add --src '10.11.0.[1-2]@tcp' --priority 7
	lnetctl policy add --src 10.11.0.1@tcp --priority 1
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.100@tcp
	lnetctl policy add --dst tcp --priority 9
	match --nid 10.11.0.1@tcp
	yaml_is "policy match:
  nid: 10.11.0.1@tcp
  kind: local NI
  rules:
  - idx: 0
    src: tcp
    action: {priority: 3}
    sets: net priority
    wins: true
  - idx: 1
    src: 10.11.0.[1-2]@tcp
    action: {priority: 7}
    sets: NI priority
    wins: true
  - idx: 2
    src: 10.11.0.1@tcp
    action: {priority: 1}
    sets: NI priority
    wins: false
    overridden by: 1
  - idx: 3
    src: 10.11.0.1@tcp
    dst: 10.11.0.100@tcp
    sets: preferred source of
    peer NIs: 1
    wins: true
  effective:
    net priority: 3
    NI priority: 7
    preferred source of: [10.11.0.100@tcp]"
	[ "$(udsp_of net 10.11.0.1@tcp)" = "3 7" ]
	[ "$(pref_of "Preferred source NIDs" 10.11.0.100@tcp)" = 10.11.0.1@tcp ]
	# 0@lo is a local NI too, which no rule here matches
	match --nid 0@lo
	yaml_is "policy match:
  nid: 0@lo
  kind: local NI
  rules: []
  effective: {net priority: -1, NI priority: -1, preferred source of: []}"
}

@test "a NID not configured: what a peer NI with it would get; added, it gets exactly that" {
	lnetctl policy add --dst tcp1 --priority 4
	lnetctl policy add --dst '10.11.0.[50-59]@tcp1' --priority 6
	lnetctl policy add --src 10.11.0.2@tcp1 --dst '10.11.0.[50-54,55]@tcp1'
	match --nid 10.11.0.55@tcp1
	yaml_is "policy match:
  nid: 10.11.0.55@tcp1
  kind: unconfigured peer NI
  rules:
  - idx: 0
    dst: tcp1
    action: {priority: 4}
    sets: peer net priority
    wins: true
  - idx: 1
    dst: 10.11.0.[50-59]@tcp1
    action: {priority: 6}
    sets: peer NI priority
    wins: true
  - idx: 2
    src: 10.11.0.2@tcp1
    dst: 10.11.0.[50-54,55]@tcp1
    sets: preferred source NIDs
    picks: 1
    wins: true
  effective:
    peer net priority: 4
    peer NI priority: 6
    preferred source NIDs: [10.11.0.2@tcp1]
    preferred routers: []"
	effective=$(yaml_get "d['policy match']['effective']")
	lnetctl peer add --prim_nid 10.11.0.55@tcp1
	[ "$(udsp_of peer 10.11.0.55@tcp1)" = "4 6" ]
	[ "$(pref_of "Preferred source NIDs" 10.11.0.55@tcp1)" = 10.11.0.2@tcp1 ]
	match --nid 10.11.0.55@tcp1
	[ "$(yaml_get "d['policy match']['kind']")" = "peer NI" ]
	[ "$(yaml_get "d['policy match']['effective']")" = "$effective" ]
	# a NID without @net is on tcp, as everywhere
	match --nid 10.11.0.77
	[ "$(yaml_get "d['policy match']['nid'], d['policy match']['kind']")" = \
	  "('10.11.0.77@tcp', 'unconfigured peer NI')" ]
}

@test "--net: a local net's net and peer net priorities; a net without NI is a peer net" {
	lnetctl policy add --src tcp --priority 3
	lnetctl policy add --dst 'tcp*' --priority 8
	lnetctl policy add --dst tcp --priority 2
	lnetctl policy add --dst 10.11.0.9@tcp --priority 1	# a NID's, not the net's
	match --net tcp
	yaml_is "policy match:
  net: tcp
  kind: local net
  rules:
  - idx: 0
    src: tcp
    action: {priority: 3}
    sets: net priority
    wins: true
  - idx: 1
    dst: tcp*
    action: {priority: 8}
    sets: peer net priority
    wins: true
  - idx: 2
    dst: tcp
    action: {priority: 2}
    sets: peer net priority
    wins: false
    overridden by: 1
  effective:
    net priority: 3
    peer net priority: 8"
	match --net tcp7
	yaml_is "policy match:
  net: tcp7
  kind: peer net
  rules:
  - idx: 1
    dst: tcp*
    action: {priority: 8}
    sets: peer net priority
    wins: true
  effective:
    peer net priority: 8"
	match --net o2ib
	yaml_is "policy match:
  net: o2ib
  kind: peer net
  rules: []
  effective: {peer net priority: -1}"
}

@test "--src/--dst rules: the preferred source NIDs, and a rule that picks no local NI" {
	add_peers
	lnetctl policy add --src 10.11.0.9@tcp --dst 10.11.0.101@tcp	# no such NI
	lnetctl policy add --src tcp --dst '10.11.0.[100-101]@tcp'
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.101@tcp
	match --nid 10.11.0.101@tcp
	yaml_is "policy match:
  nid: 10.11.0.101@tcp
  kind: peer NI
  rules:
  - idx: 0
    src: 10.11.0.9@tcp
    dst: 10.11.0.101@tcp
    sets: preferred source NIDs
    picks: 0
    wins: false
    overridden by: 1
  - idx: 1
    src: tcp
    dst: 10.11.0.[100-101]@tcp
    sets: preferred source NIDs
    picks: 1
    wins: true
  - idx: 2
    src: 10.11.0.1@tcp
    dst: 10.11.0.101@tcp
    sets: preferred source NIDs
    picks: 1
    wins: false
    overridden by: 1
  effective:
    peer net priority: -1
    peer NI priority: -1
    preferred source NIDs: [10.11.0.1@tcp]
    preferred routers: []"
	[ "$(pref_of "Preferred source NIDs" 10.11.0.101@tcp)" = 10.11.0.1@tcp ]
	# the local NI's side: two peer NIs through rule 1
	match --nid 10.11.0.1@tcp
	[ "$(yaml_get "[(r['idx'], r.get('peer NIs'), r['wins']) for r in d['policy match']['rules']]")" = \
	  "[(1, 2, True), (2, 0, False)]" ]
	[ "$(yaml_get "d['policy match']['effective']['preferred source of']")" = \
	  "['10.11.0.100@tcp', '10.11.0.101@tcp']" ]
}

@test "--dst/--rte rules: the preferred routers of a peer behind gateways" {
	lnetctl route add --net o2ib1 --gateway '10.11.0.[250-251]@tcp'
	lnetctl peer add --prim_nid 10.12.0.5@o2ib1
	lnetctl policy add --dst o2ib1 --rte 10.11.0.99@tcp		# no such gateway
	lnetctl policy add --dst 10.12.0.5@o2ib1 --rte 10.11.0.251@tcp
	lnetctl policy add --dst o2ib1 --rte '10.11.0.[250-251]@tcp'
	match --nid 10.12.0.5@o2ib1
	yaml_is "policy match:
  nid: 10.12.0.5@o2ib1
  kind: peer NI
  rules:
  - idx: 0
    dst: o2ib1
    rte: 10.11.0.99@tcp
    sets: preferred routers
    picks: 0
    wins: false
    overridden by: 1
  - idx: 1
    dst: 10.12.0.5@o2ib1
    rte: 10.11.0.251@tcp
    sets: preferred routers
    picks: 1
    wins: true
  - idx: 2
    dst: o2ib1
    rte: 10.11.0.[250-251]@tcp
    sets: preferred routers
    picks: 2
    wins: false
    overridden by: 1
  effective:
    peer net priority: -1
    peer NI priority: -1
    preferred source NIDs: []
    preferred routers: [10.11.0.251@tcp]"
	[ "$(pref_of "Preferred gateway NIDs" 10.12.0.5@o2ib1)" = 10.11.0.251@tcp ]
	# another peer there would take both gateways from the net rule
	match --nid 10.12.0.6@o2ib1
	[ "$(yaml_get "d['policy match']['effective']['preferred routers']")" = \
	  "['10.11.0.250@tcp', '10.11.0.251@tcp']" ]
}

@test "no rule matches: no rules, every value at its default" {
	add_peers
	lnetctl policy add --dst tcp --priority 1
	lnetctl policy add --src 10.11.0.1@tcp --priority 2
	match --nid 10.11.0.200@tcp1
	yaml_is "policy match:
  nid: 10.11.0.200@tcp1
  kind: peer NI
  rules: []
  effective:
    peer net priority: -1
    peer NI priority: -1
    preferred source NIDs: []
    preferred routers: []"
	lnetctl policy del --all
	match --nid 10.11.0.2@tcp1
	yaml_is "policy match:
  nid: 10.11.0.2@tcp1
  kind: local NI
  rules: []
  effective: {net priority: -1, NI priority: -1, preferred source of: []}"
}

@test "no drift: what --nid says of every NI and peer NI is what net show and peer show -v 4 show" {
	add_peers
	lnetctl peer add --prim_nid 10.11.0.150@tcp --non_mr
	lnetctl route add --net o2ib1 --gateway '10.11.0.[250-251]@tcp'
	lnetctl peer add --prim_nid 10.12.0.5@o2ib1 --nid 10.12.0.6@o2ib1
	lnetctl policy add --src tcp1 --priority 4
	lnetctl policy add --src 'tcp*' --priority 6
	lnetctl policy add --src '10.11.0.[1-9]@tcp[0-1]' --priority 2
	lnetctl policy add --dst 'tcp[0-1]' --priority 5
	lnetctl policy add --dst '10.11.0.[100-149]@tcp' --priority 3
	lnetctl policy add --dst 10.11.0.101@tcp --priority 1
	lnetctl policy add --src tcp --dst '10.11.0.[100-199]@tcp'
	lnetctl policy add --src 10.11.0.2@tcp1 --dst tcp1
	lnetctl policy add --dst 10.12.0.6@o2ib1 --rte 10.11.0.250@tcp
	lnetctl policy add --dst 'o2ib*' --rte '10.11.0.*@tcp'
	lnetctl net show -v 4 >"$T/net.yaml"
	lnetctl peer show -v 4 >"$T/peer.yaml"
	local nid n=0
	for nid in $(sed -n 's/^ *- *nid: //p' "$T/net.yaml" "$T/peer.yaml"); do
		lnetctl policy show --nid "$nid" >"$T/match.yaml"
		python3 - "$nid" "$T/match.yaml" "$T/net.yaml" "$T/peer.yaml" <<-'PY'
		import sys, yaml
		nid, match, net, peer = sys.argv[1:]
		m = yaml.safe_load(open(match))['policy match']
		e = m['effective']
		def nids(d):
		    d = d or {}
		    return [d[k] for k in sorted(d, key=lambda k: int(k.split('-')[1]))]
		local = [ni for n in yaml.safe_load(open(net))['net'] for ni in n['local NI(s)']]
		peers = [ni for p in yaml.safe_load(open(peer))['peer'] for ni in p['peer ni']]
		ni = [x for x in local if x['nid'] == nid]
		if ni:
		    u = ni[0]['udsp info']
		    got = (m['kind'], e['net priority'], e['NI priority'])
		    want = ('local NI', u['net priority'], u['nid priority'])
		    # and every peer NI that prefers it says so
		    srcs = [x['nid'] for x in peers
		            if nid in nids(x['udsp info'].get('Preferred source NIDs'))]
		    got += (e['preferred source of'],)
		    want += (srcs,)
		else:
		    u = [x for x in peers if x['nid'] == nid][0]['udsp info']
		    got = (m['kind'], e['peer net priority'], e['peer NI priority'],
		           e['preferred source NIDs'], e['preferred routers'])
		    want = ('peer NI', u['net priority'], u['nid priority'],
		            nids(u.get('Preferred source NIDs')), nids(u.get('Preferred gateway NIDs')))
		if got != want:
		    sys.exit('%s: policy show --nid says %r, net/peer show %r' % (nid, got, want))
		PY
		n=$((n + 1))
	done
	# 0@lo, two NIs, eight peer NIs (the two gateways are peers too)
	[ "$n" -eq 11 ]
	# and the values are not all defaults
	[ "$(udsp_of net 10.11.0.2@tcp1)" = "4 2" ]
	[ "$(udsp_of peer 10.11.0.101@tcp)" = "5 3" ]
	[ "$(pref_of "Preferred gateway NIDs" 10.12.0.6@o2ib1)" = 10.11.0.250@tcp ]
	[ "$(pref_of "Preferred gateway NIDs" 10.12.0.5@o2ib1)" = "10.11.0.250@tcp 10.11.0.251@tcp" ]
}

@test "more rules than one request holds: every one is listed, in order" {
	local i
	{
		echo "udsp:"
		for i in $(seq 0 69); do
			printf -- '- dst: 10.11.0.[0-%d]@tcp\n  action: {priority: %d}\n' $((100 + i)) "$i"
		done
	} >"$T/rules.yaml"
	lnetctl import "$T/rules.yaml"
	match --nid 10.11.0.42@tcp
	[ "$(yaml_get "[r['idx'] for r in d['policy match']['rules']] == list(range(70))")" = True ]
	[ "$(yaml_get "[r['idx'] for r in d['policy match']['rules'] if r['wins']]")" = "[0]" ]
	[ "$(yaml_get "{r.get('overridden by') for r in d['policy match']['rules'][1:]}")" = "{0}" ]
	[ "$(yaml_get "d['policy match']['effective']['peer NI priority']")" = 0 ]
}

@test "bad --nid or --net, both, or with --idx: one message, exit 2, nothing shown or changed" {
	lnetctl policy add --src tcp --priority 1
	fails 2 "lnetctl policy show: invalid --nid '10.11.0.256@tcp': octet '256' is out of range 0-255" \
		policy show --nid 10.11.0.256@tcp
	fails 2 "lnetctl policy show: invalid --nid '10.11.0.[1-2]@tcp': octet '[1-2]' of '10.11.0.[1-2]' is not a decimal number 0-255" \
		policy show --nid '10.11.0.[1-2]@tcp'
	fails 2 "lnetctl policy show: invalid --net 'tcp*': trailing junk '*' after net 'tcp' (--net takes one net, e.g. tcp or o2ib1)" \
		policy show --net 'tcp*'
	fails 2 "lnetctl policy show: --nid and --net cannot be combined: a NID is on its net already" \
		policy show --nid 10.11.0.1@tcp --net tcp
	fails 2 "lnetctl policy show: --idx cannot be combined with --nid: every rule that matches is shown" \
		policy show --idx 0 --nid 10.11.0.1@tcp
	fails 2 "lnetctl policy show: --idx cannot be combined with --net: every rule that matches is shown" \
		policy show --net tcp --idx 0
	fails 2 "lnetctl policy show: option --nid needs a value" policy show --nid
}

@test "LNet down: an error, exit 1" {
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl policy show --nid 10.11.0.1@tcp
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl policy show: LNet is not configured: run 'lnetctl lnet configure'" ]
}
