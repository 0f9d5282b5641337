#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl route add | del | show, routing show, router rules (policy --rte)
# on the routes' gateways, and the route section of import / export.

load helpers

bats_require_minimum_version 1.5.0

setup() {
	lnet_setup
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0
}

teardown() {
	lnet_teardown
}

# Everything a failed command must leave alone.
state() {
	lnetctl route show -v
	lnetctl peer show
	lnetctl routing show
}

@test "route show with no routes prints nothing" {
	run --separate-stderr lnetctl route show -v
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$stderr" = "" ]
}

@test "route add: a gateway range is one route per NID; show and show -v" {
	lnetctl route add --net o2ib --gateway '10.11.0.[10-11]@tcp' --hop 2 --priority 5
	lnetctl route add --net tcp1 --gateway 10.11.0.10@tcp
	run lnetctl route show
	[ "$status" -eq 0 ]
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp}
- {net: o2ib, gateway: 10.11.0.11@tcp}
- {net: tcp1, gateway: 10.11.0.10@tcp}'
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 2, priority: 5, state: down, type: multi-hop}
- {net: o2ib, gateway: 10.11.0.11@tcp, hop: 2, priority: 5, state: down, type: multi-hop}
- {net: tcp1, gateway: 10.11.0.10@tcp, hop: -1, priority: 0, state: down, type: multi-hop}'
	run lnetctl route show --net tcp1 -v
	yaml_is 'route:
- {net: tcp1, gateway: 10.11.0.10@tcp, hop: -1, priority: 0, state: down, type: multi-hop}'
	run lnetctl route show --gateway 10.11.0.10@tcp
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp}
- {net: tcp1, gateway: 10.11.0.10@tcp}'
	run lnetctl route show --net o2ib1
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	# the gateways are non-multi-rail peers (their NIs' states follow the
	# gateway checks: see the test of those)
	run lnetctl peer show
	[ "$(yaml_get "[(p['primary nid'], p['Multi-Rail'], [n['nid'] for n in p['peer ni']]) for p in d['peer']]")" = \
	  "[('10.11.0.10@tcp', False, ['10.11.0.10@tcp']), ('10.11.0.11@tcp', False, ['10.11.0.11@tcp'])]" ]
}

@test "route show -v: down and multi-hop until the gateway answers; a failed check takes its peer NI down" {
	lnetctl set alive_router_check_interval 1
	lnetctl set router_ping_timeout 1
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp --hop 1
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 1, priority: 0, state: down, type: multi-hop}'
	# nobody has 10.11.0.10: the check fails within interval + timeout
	for _ in 1 2 3 4 5 6; do
		run lnetctl peer show
		[ "$(yaml_get "d['peer'][0]['peer ni'][0]['state']")" = down ] && break
		sleep 1
	done
	yaml_is 'peer:
- primary nid: 10.11.0.10@tcp
  Multi-Rail: false
  peer ni: [{nid: 10.11.0.10@tcp, state: down}]'
	# with checks off the local view decides: up while the peer NI is; it is down now
	lnetctl set alive_router_check_interval 0
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 1, priority: 0, state: down, type: multi-hop}'
	lnetctl route add --net o2ib1 --gateway 10.11.0.11@tcp
	run lnetctl route show -v --net o2ib1
	yaml_is 'route:
- {net: o2ib1, gateway: 10.11.0.11@tcp, hop: -1, priority: 0, state: up, type: multi-hop}'
}

@test "route add: hop and priority limits; a gateway on no local net is refused" {
	# refused before any gateway exists whose checks could change the state
	fails 1 "lnetctl route add: no local NI on net tcp5 for gateway 10.99.0.1@tcp5" \
		route add -n o2ib -g 10.99.0.1@tcp5 -c -1
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp --hop 1 --priority 2147483647
	lnetctl route add --net o2ib --gateway 10.11.0.11@tcp --hop=255 -p 0
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 1, priority: 2147483647, state: down, type: multi-hop}
- {net: o2ib, gateway: 10.11.0.11@tcp, hop: 255, priority: 0, state: down, type: multi-hop}'
}

@test "route add: usage errors exit 2, change nothing" {
	# no gateway checks: on a slow node (the kernel suite under TCG) a
	# failed check would take the gateways' peer NIs down mid-test
	lnetctl set alive_router_check_interval 0
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp
	fails 2 "lnetctl route add: missing required option --net" route add --gateway 10.11.0.11@tcp
	fails 2 "lnetctl route add: missing required option --gateway" route add --net o2ib
	fails 2 "lnetctl route add: invalid --hop '0': expected -1 (unset) or an integer 1-255" \
		route add --net o2ib --gateway 10.11.0.11@tcp --hop 0
	fails 2 "lnetctl route add: invalid --hop '256': expected -1 (unset) or an integer 1-255" \
		route add --net o2ib --gateway 10.11.0.11@tcp --hop 256
	fails 2 "lnetctl route add: invalid --hop 'x': expected -1 (unset) or an integer 1-255" \
		route add --net o2ib --gateway 10.11.0.11@tcp --hop x
	fails 2 "lnetctl route add: invalid --priority '2147483648': expected an integer 0-2147483647" \
		route add --net o2ib --gateway 10.11.0.11@tcp --priority 2147483648
	fails 2 "lnetctl route add: invalid --priority '-1': expected an integer 0-2147483647" \
		route add --net o2ib --gateway 10.11.0.11@tcp --priority -1
	run --separate-stderr lnetctl route add --net bogus --gateway 10.11.0.11@tcp
	[ "$status" -eq 2 ]
	[[ "$stderr" == "lnetctl route add: invalid --net 'bogus': "* ]]
	run --separate-stderr lnetctl route add --net o2ib --gateway 10.11.0.300@tcp
	[ "$status" -eq 2 ]
	[[ "$stderr" == "lnetctl route add: invalid --gateway '10.11.0.300@tcp': "* ]]
}

@test "route add: refused routes exit 1 with the reason, change nothing" {
	# no gateway checks: on a slow node (the kernel suite under TCG) a
	# failed check would take the gateways' peer NIs down mid-test
	lnetctl set alive_router_check_interval 0
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp
	fails 1 "lnetctl route add: net tcp is a local net: it is reached directly, not through a gateway" \
		route add --net tcp --gateway 10.11.0.11@tcp
	fails 1 "lnetctl route add: a route to o2ib through gateway 10.11.0.10@tcp already exists" \
		route add --net o2ib --gateway 10.11.0.10@tcp --hop 3
	fails 1 "lnetctl route add: gateway 10.11.0.1@tcp is one of this node's own NIDs" \
		route add --net o2ib --gateway 10.11.0.1@tcp
	fails 1 "lnetctl route add: net lo cannot be routed: it is this node itself" \
		route add --net lo --gateway 10.11.0.11@tcp
	fails 1 "lnetctl route add: 0@lo cannot be a gateway" \
		route add --net o2ib --gateway 0@lo
	# one route per net and gateway peer, whichever of its NIDs names it
	lnetctl peer add --prim_nid 10.11.0.20@tcp --nid 10.11.0.21@tcp
	lnetctl route add --net o2ib --gateway 10.11.0.20@tcp
	fails 1 "lnetctl route add: a route to o2ib through gateway 10.11.0.21@tcp already exists" \
		route add --net o2ib --gateway 10.11.0.21@tcp
}

@test "route add of a range that fails half-way undoes the routes and gateway peers it added" {
	lnetctl route add --net o2ib --gateway 10.11.0.12@tcp
	fails 1 "lnetctl route add: a route to o2ib through gateway 10.11.0.12@tcp already exists" \
		route add --net o2ib --gateway '10.11.0.[10-12]@tcp'
	run lnetctl peer list
	yaml_is 'peer list: [{nid: 10.11.0.12@tcp}]'
}

@test "route del: the route goes, the gateway peer stays; errors" {
	# no gateway checks: on a slow node (the kernel suite under TCG) a
	# failed check would take the gateways' peer NIs down mid-test
	lnetctl set alive_router_check_interval 0
	lnetctl route add --net o2ib --gateway '10.11.0.[10-11]@tcp'
	lnetctl route del --net o2ib --gateway 10.11.0.10@tcp
	run lnetctl route show
	yaml_is 'route: [{net: o2ib, gateway: 10.11.0.11@tcp}]'
	run lnetctl peer list
	yaml_is 'peer list: [{nid: 10.11.0.10@tcp}, {nid: 10.11.0.11@tcp}]'
	fails 1 "lnetctl route del: no route to o2ib through gateway 10.11.0.10@tcp" \
		route del --net o2ib --gateway 10.11.0.10@tcp
	fails 1 "lnetctl route del: no route to tcp1 through gateway 10.11.0.11@tcp" \
		route del --net tcp1 --gateway 10.11.0.11@tcp
	fails 2 "lnetctl route del: missing required option --gateway" route del --net o2ib
	fails 2 "lnetctl route del: missing required option --net" route del --gateway 10.11.0.11@tcp
	# deleting the gateway peer drops its routes
	lnetctl peer del --prim_nid 10.11.0.11@tcp
	run lnetctl route show
	[ "$output" = "" ]
}

@test "route show: bad filters exit 2; LNet down exits 1" {
	run --separate-stderr lnetctl route show --gateway tcp
	[ "$status" -eq 2 ]
	[[ "$stderr" == "lnetctl route show: invalid --gateway 'tcp': "* ]]
	run --separate-stderr lnetctl route show -v 9
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl route show: invalid --verbose '9': expected an integer 0-5" ]
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl route show
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl route show: LNet is not configured: run 'lnetctl lnet configure'" ]
}

@test "peer show -v 4: a --dst/--rte rule prefers the route gateways it names" {
	lnetctl peer add --prim_nid 10.12.0.5@o2ib
	lnetctl policy add --dst 10.12.0.5@o2ib --rte '10.11.0.[250-254]@tcp'
	[ "$(pref_of 'Preferred gateway NIDs' 10.12.0.5@o2ib)" = "" ]
	lnetctl route add --net o2ib --gateway 10.11.0.250@tcp
	lnetctl route add --net o2ib --gateway 10.11.0.9@tcp
	[ "$(pref_of 'Preferred gateway NIDs' 10.12.0.5@o2ib)" = "10.11.0.250@tcp" ]
	run lnetctl peer show -v 4 --nid 10.12.0.5@o2ib
	[ "$(yaml_get "d['peer'][0]['peer ni'][0]['udsp info']")" = \
	  "{'net priority': -1, 'nid priority': -1, 'Preferred gateway NIDs': {'NID-0': '10.11.0.250@tcp'}}" ]
	lnetctl route add --net o2ib --gateway 10.11.0.251@tcp
	[ "$(pref_of 'Preferred gateway NIDs' 10.12.0.5@o2ib)" = "10.11.0.250@tcp 10.11.0.251@tcp" ]
	lnetctl route del --net o2ib --gateway 10.11.0.250@tcp
	lnetctl route del --net o2ib --gateway 10.11.0.251@tcp
	[ "$(pref_of 'Preferred gateway NIDs' 10.12.0.5@o2ib)" = "" ]
}

# enable: of `routing show`, and its pools as "nbuffers/credits" per kind.
routing_now() {
	run lnetctl routing show
	[ "$status" -eq 0 ] || return 1
	yaml_get "' '.join([str(d['routing'][-1]['enable'])] + ['%d/%d' % (p['nbuffers'], p['credits']) for p in d['routing'][0]['cpt[0]'].values()])"
}

@test "routing show and set routing 0|1; bad values exit 2" {
	run lnetctl routing show
	[ "$status" -eq 0 ]
	routing_is 'routing: {enable: 0}
buffers: {tiny: 2048, small: 16384, large: 1024}'
	[ "$(routing_now)" = "0 0/0 0/0 0/0" ]
	lnetctl set tiny_buffers 16
	lnetctl set small_buffers 8
	lnetctl set large_buffers 4
	lnetctl set routing 1
	run lnetctl routing show
	routing_is 'routing: {enable: 1}
buffers: {tiny: 16, small: 8, large: 4}'
	[ "$(routing_now)" = "1 16/16 8/8 4/4" ]
	# 1 again while starting changes nothing
	lnetctl set routing 1
	[ "$(routing_now)" = "1 16/16 8/8 4/4" ]
	fails 2 "lnetctl set routing: invalid routing '2': expected 0 (disable) or 1 (enable)" set routing 2
	fails 2 "lnetctl set routing: invalid routing '-1': expected 0 (disable) or 1 (enable)" set routing -1
	fails 2 "lnetctl set routing: invalid routing 'on': expected 0 (disable) or 1 (enable)" set routing on
	fails 2 "lnetctl set routing: missing argument 0|1" set routing
	fails 2 "lnetctl set routing: unexpected argument '1'" set routing 0 1
	# 0 stops: still forwarding (enable: 1) while it drains, and 1 is
	# refused until it is disabled; 0 again is accepted. The drain lasts
	# interval + timeout (8 s): long enough for the next calls even in a
	# VM without KVM
	lnetctl set alive_router_check_interval 0
	lnetctl set router_ping_timeout 8
	lnetctl set routing 0
	[ "$(routing_now)" = "1 16/16 8/8 4/4" ]
	fails 1 "lnetctl set routing: cannot enable routing while it is being stopped (routing state 'stopping'): try again once it is disabled" \
		set routing 1
	lnetctl set routing 0
	for _ in $(seq 200); do [ "$(routing_now)" = "0 0/0 0/0 0/0" ] && break; sleep 0.1; done
	[ "$(routing_now)" = "0 0/0 0/0 0/0" ]
	lnetctl set routing 1
	[ "$(routing_now)" = "1 16/16 8/8 4/4" ]
}

@test "import: route section (gateway range), show keys ignored; import --del removes" {
	cat >"$T/r.yaml" <<-'EOF'
	route:
	- net: o2ib
	  gateway: 10.11.0.[10-11]@tcp
	  hop: 3
	  priority: 1
	- net: tcp2
	  gateway: 10.11.0.12@tcp
	  hop: -1
	  state: up
	  type: single-hop
	EOF
	lnetctl import "$T/r.yaml"
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 3, priority: 1, state: down, type: multi-hop}
- {net: o2ib, gateway: 10.11.0.11@tcp, hop: 3, priority: 1, state: down, type: multi-hop}
- {net: tcp2, gateway: 10.11.0.12@tcp, hop: -1, priority: 0, state: down, type: multi-hop}'
	run lnetctl export --backup
	yaml_is 'net:
- net type: tcp
  local NI(s):
  - interfaces: {0: veth0}
    tunables: {peer_timeout: 180, peer_credits: 8, peer_buffer_credits: 0, credits: 256}
    lnd tunables: {conns_per_peer: 2, tos: -1}
    CPT: "[0]"
peer:
- {primary nid: 10.11.0.10@tcp, Multi-Rail: false, peer ni: [{nid: 10.11.0.10@tcp}]}
- {primary nid: 10.11.0.11@tcp, Multi-Rail: false, peer ni: [{nid: 10.11.0.11@tcp}]}
- {primary nid: 10.11.0.12@tcp, Multi-Rail: false, peer ni: [{nid: 10.11.0.12@tcp}]}
route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 3, priority: 1}
- {net: o2ib, gateway: 10.11.0.11@tcp, hop: 3, priority: 1}
- {net: tcp2, gateway: 10.11.0.12@tcp, hop: -1, priority: 0}'
	lnetctl import --del "$T/r.yaml"
	run lnetctl route show
	[ "$output" = "" ]
}

@test "import: route errors print FILE:LINE:COL, exit 1, change nothing" {
	# no gateway checks: on a slow node (the kernel suite under TCG) a
	# failed check would take the gateways' peer NIs down mid-test
	lnetctl set alive_router_check_interval 0
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp
	bad() {
		printf '%s\n' "$2" >"$T/bad.yaml"
		state >"$T/before"
		run --separate-stderr lnetctl import "$T/bad.yaml"
		[ "$status" -eq 1 ]
		[ "$stderr" = "$T/bad.yaml:$1" ] || { echo "got: $stderr"; return 1; }
		state >"$T/after"
		cmp "$T/before" "$T/after"
	}
	bad "3:8: invalid hop '0': expected an integer 1-255" 'route:
- net: o2ib1
  hop: 0
  gateway: 10.11.0.11@tcp'
	bad "2:3: a route needs 'gateway'" 'route:
- net: o2ib1'
	bad "3:3: unknown key 'gw' in a route: expected 'net', 'gateway', 'hop', 'priority'" 'route:
- net: o2ib1
  gw: 10.11.0.11@tcp'
	bad "4:13: invalid priority '-2': expected an integer 0-2147483647" 'route:
- net: o2ib1
  gateway: 10.11.0.11@tcp
  priority: -2'
	bad "4:3: the route through gateway 10.11.0.11@tcp is listed twice (first at 2:3)" 'route:
- net: o2ib1
  gateway: 10.11.0.[11-12]@tcp
- net: o2ib1
  gateway: 10.11.0.11@tcp'
	bad "1:8: 'route' must be a sequence, not a mapping" 'route: {net: o2ib1}'
	# refused while applying: the peers and routes added before are undone
	bad "6:3: net tcp is a local net: it is reached directly, not through a gateway" 'peer:
- primary nid: 10.11.0.50@tcp
route:
- net: o2ib1
  gateway: 10.11.0.11@tcp
- net: tcp
  gateway: 10.11.0.12@tcp'
	# the route in force: nothing to do
	printf '%s\n' 'route:' '- net: o2ib' '  gateway: 10.11.0.10@tcp' >"$T/same.yaml"
	state >"$T/before"
	run --separate-stderr lnetctl import "$T/same.yaml"
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	state >"$T/after"
	cmp "$T/before" "$T/after"
	run lnetctl peer list
	yaml_is 'peer list: [{nid: 10.11.0.10@tcp}]'
}
