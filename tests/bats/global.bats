#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl set (router buffers, global settings), global show, stats
# show | reset, the routing, buffers and global sections of import /
# export, and export --backup of a fully configured node re-imported into
# a fresh lnetd.

load helpers
lnet_suite

DEFAULTS='global:
    numa_range: 0
    max_interfaces: 4096
    discovery: 1
    drop_asym_route: 0
    retry_count: 2
    transaction_timeout: 150
    health_sensitivity: 100
    recovery_interval: 1
    router_sensitivity: 100
    lnd_timeout: 49
    response_tracking: 3
    recovery_limit: 0
    max_recovery_ping_interval: 900
    alive_router_check_interval: 60
    router_ping_timeout: 50
    avoid_asym_router_failure: 1'

state() {
	lnetctl global show
	lnetctl routing show
}

@test "global show: the defaults, in Lustre's key order" {
	run --separate-stderr lnetctl global show
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$DEFAULTS" ]
}

# name min max: both ends are accepted, one past each end is refused.
SETTINGS="numa_range 0 2147483647
max_interfaces 16 16384
discovery 0 1
drop_asym_route 0 1
retry_count 0 100
transaction_timeout 101 86400
health_sensitivity 0 1000
recovery_interval 1 86400
router_sensitivity 0 100
response_tracking 0 3
recovery_limit 0 2147483647
max_recovery_ping_interval 1 2147483647
alive_router_check_interval 0 86400
router_ping_timeout 1 86400
avoid_asym_router_failure 0 1"

@test "set: every global setting, both ends of its range, and one past each end" {
	lnetctl set transaction_timeout 200
	while read -r name min max; do
		lnetctl set "$name" "$min"
		run lnetctl global show
		[ "$(yaml_get "d['global']['$name']")" = "$min" ] || { echo "$name $min"; return 1; }
		lnetctl set "$name" "$max"
		run lnetctl global show
		[ "$(yaml_get "d['global']['$name']")" = "$max" ] || { echo "$name $max"; return 1; }
		[ "$name" = transaction_timeout ] && range="1-86400" || range="$min-$max"
		[ "$name" = transaction_timeout ] || fails 2 \
			"lnetctl set $name: invalid $name '$((min - 1))': expected an integer $range" \
			set "$name" "$((min - 1))"
		fails 2 "lnetctl set $name: invalid $name '$((max + 1))': expected an integer $range" \
			set "$name" "$((max + 1))"
		fails 2 "lnetctl set $name: invalid $name 'x': expected an integer $range" set "$name" x
		fails 2 "lnetctl set $name: missing argument N" set "$name"
		fails 2 "lnetctl set $name: unexpected argument '1'" set "$name" 1 1
	done <<<"$SETTINGS"
}

@test "set: cross-checks of retry_count, transaction_timeout, health_sensitivity" {
	lnetctl set transaction_timeout 10
	fails 1 "lnetctl set retry_count: invalid retry_count '10': must be smaller than transaction_timeout (10)" \
		set retry_count 10
	lnetctl set retry_count 9
	run lnetctl global show
	[ "$(yaml_get "d['global']['lnd_timeout']")" = 1 ]
	fails 1 "lnetctl set transaction_timeout: invalid transaction_timeout '9': must be greater than retry_count (9)" \
		set transaction_timeout 9
	lnetctl set retry_count 2
	lnetctl set transaction_timeout 31
	run lnetctl global show
	[ "$(yaml_get "d['global']['lnd_timeout']")" = 10 ]
	# no health, no retries
	lnetctl set health_sensitivity 0
	run lnetctl global show
	[ "$(yaml_get "d['global']['retry_count']")" = 0 ]
	fails 1 "lnetctl set retry_count: invalid retry_count '1': must be 0 while health_sensitivity is 0" \
		set retry_count 1
	fails 2 "lnetctl set: unknown command 'lnd_timeout': expected one of routing, tiny_buffers, small_buffers, large_buffers, numa_range, max_interfaces, discovery, drop_asym_route, retry_count, transaction_timeout, health_sensitivity, recovery_interval, router_sensitivity, response_tracking, recovery_limit, max_recovery_ping_interval, alive_router_check_interval, router_ping_timeout, avoid_asym_router_failure" \
		set lnd_timeout 5
}

@test "set tiny_buffers|small_buffers|large_buffers: ranges, 0 = default" {
	lnetctl set tiny_buffers 1
	lnetctl set small_buffers 1048576
	lnetctl set large_buffers 1
	run lnetctl routing show
	routing_is 'routing: {enable: 0}
buffers: {tiny: 1, small: 1048576, large: 1}'
	# Lustre's number forms on the command line
	lnetctl set tiny_buffers 01000
	lnetctl set small_buffers 0x1000
	run lnetctl routing show
	routing_is 'routing: {enable: 0}
buffers: {tiny: 512, small: 4096, large: 1}'
	fails 2 "lnetctl set tiny_buffers: invalid tiny_buffers '1048577': expected 0 (the default) or an integer 1-1048576" \
		set tiny_buffers 1048577
	fails 2 "lnetctl set small_buffers: invalid small_buffers '-2': expected 0 (the default) or an integer 1-1048576" \
		set small_buffers -2
	fails 2 "lnetctl set large_buffers: invalid large_buffers '1048577': expected 0 (the default) or an integer 1-1048576" \
		set large_buffers 1048577
	fails 2 "lnetctl set large_buffers: invalid large_buffers '-1': expected 0 (the default) or an integer 1-1048576" \
		set large_buffers -1
	lnetctl set small_buffers 0
	run lnetctl routing show
	routing_is 'routing: {enable: 0}
buffers: {tiny: 512, small: 16384, large: 1}'
}

@test "set, global show, stats with LNet down: exit 1" {
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl set discovery 0
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl set discovery: LNet is not configured: run 'lnetctl lnet configure'" ]
	lnetctl lnet configure
	[ "$(lnetctl global show)" = "$DEFAULTS" ]
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl global show
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl global show: LNet is not configured: run 'lnetctl lnet configure'" ]
	run --separate-stderr lnetctl stats show
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl stats show: LNet is not configured: run 'lnetctl lnet configure'" ]
}

@test "stats show and stats reset" {
	lnetctl net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.5@tcp
	# no gateway check: its failed ping would count (at once on /dev/lnet)
	lnetctl set alive_router_check_interval 0
	lnetctl route add --net o2ib --gateway 10.11.0.6@tcp
	run --separate-stderr lnetctl stats show
	[ "$status" -eq 0 ]
	[ "$output" = "$(stats_doc '    ' 2 2 1)" ]
	run --separate-stderr lnetctl stats reset
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl stats show
	[ "$(yaml_get "d['statistics']['local_nis']")" = 2 ]
	run --separate-stderr lnetctl stats reset now
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl stats reset: unexpected argument 'now'" ]
}

@test "import: routing, buffers and global sections; export --backup keeps what differs from the defaults" {
	cat >"$T/g.yaml" <<-'EOF'
	routing:
	  enable: 1
	buffers:
	  tiny: 1024
	  small: 0
	global:
	  transaction_timeout: 300
	  retry_count: 120
	  discovery: 0
	  lnd_timeout: 7
	EOF
	# retry_count 120 is out of range: nothing is applied
	run --separate-stderr lnetctl import "$T/g.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/g.yaml:8:16: invalid retry_count '120': expected an integer 0-100" ]
	[ "$(lnetctl global show)" = "$DEFAULTS" ]
	sed -i 's/retry_count: 120/retry_count: 100/' "$T/g.yaml"
	lnetctl import "$T/g.yaml"
	run lnetctl routing show
	routing_is 'routing: {enable: 1}
buffers: {tiny: 1024, small: 16384, large: 1024}'
	run lnetctl global show
	[ "$(yaml_get "[d['global'][k] for k in ('transaction_timeout', 'retry_count', 'discovery', 'lnd_timeout')]")" = "[300, 100, 0, 2]" ]
	run lnetctl export --backup
	yaml_is 'routing: {enable: 1}
buffers: {tiny: 1024}
global: {discovery: 0, retry_count: 100, transaction_timeout: 300}'
	# import --del puts the keys it lists back to their defaults
	lnetctl import --del "$T/g.yaml"
	[ "$(lnetctl global show)" = "$DEFAULTS" ]
	run lnetctl export --backup
	[ "$output" = "" ]
}

@test "import: global and routing errors print FILE:LINE:COL, exit 1, change nothing" {
	lnetctl set discovery 0
	bad() {
		printf '%s\n' "$2" >"$T/bad.yaml"
		state >"$T/before"
		run --separate-stderr lnetctl import "$T/bad.yaml"
		[ "$status" -eq 1 ]
		[ "$stderr" = "$T/bad.yaml:$1" ] || { echo "got: $stderr"; return 1; }
		state >"$T/after"
		cmp "$T/before" "$T/after"
	}
	bad "2:3: unknown key 'numa' in global: expected a key of 'lnetctl global show'" 'global:
  numa: 1'
	bad "3:16: invalid retry_count '10': must be smaller than transaction_timeout (10)" 'global:
  transaction_timeout: 10
  retry_count: 10'
	bad "2:16: invalid retry_count '1': must be 0 while health_sensitivity is 0" 'global:
  retry_count: 1
  health_sensitivity: 0'
	bad "2:11: invalid enable '4': expected an integer 0-3" 'routing:
  enable: 4'
	bad "2:3: unknown key 'enabled' in routing: expected 'enable'" 'routing:
  enabled: 1'
	bad "3:10: invalid large '1048577': expected 0 (the default) or an integer 1-1048576" 'buffers:
  tiny: 600
  large: 1048577'
	bad "1:9: 'global' must be a mapping, not a sequence" 'global: [1]'
	# refused while applying (retry_count against the running
	# transaction_timeout): the buffers set before are undone. Routing is
	# on already: turning it on or off drains, so an undo of it could not
	# put the state back at once
	lnetctl set transaction_timeout 20
	lnetctl set routing 1
	bad "5:16: invalid retry_count '30': must be smaller than transaction_timeout (20)" 'routing:
  enable: 1
buffers: {tiny: 600}
global:
  retry_count: 30
  discovery: 1'
}

@test "import: max_intf (Lustre 2.10-2.12) is max_interfaces; max_recovery_ping_interval; both names refused" {
	printf 'global:\n  max_intf: 32\n  max_recovery_ping_interval: 60\n' >"$T/old.yaml"
	lnetctl import "$T/old.yaml"
	run lnetctl export --backup
	yaml_is 'global: {max_interfaces: 32, max_recovery_ping_interval: 60}'
	lnetctl import --del "$T/old.yaml"
	[ "$(lnetctl global show)" = "$DEFAULTS" ]
	printf 'global:\n  max_interfaces: 32\n  max_intf: 64\n' >"$T/both.yaml"
	run --separate-stderr lnetctl import "$T/both.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/both.yaml:3:3: 'max_intf' in global: max_interfaces is already given (max_intf is its old name)" ]
	printf 'global:\n  max_recovery_ping_interval: 0\n' >"$T/zero.yaml"
	run --separate-stderr lnetctl import "$T/zero.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/zero.yaml:2:31: invalid max_recovery_ping_interval '0': expected an integer 1-2147483647" ]
	[ "$(lnetctl global show)" = "$DEFAULTS" ]
}

@test "import: transaction_timeout and retry_count apply in whichever order works" {
	lnetctl set transaction_timeout 5
	lnetctl set retry_count 4
	printf 'global:\n  retry_count: 50\n  transaction_timeout: 100\n' | lnetctl import
	run lnetctl global show
	[ "$(yaml_get "[d['global']['retry_count'], d['global']['transaction_timeout']]")" = "[50, 100]" ]
	printf 'global:\n  transaction_timeout: 8\n  retry_count: 7\n' | lnetctl import
	run lnetctl global show
	[ "$(yaml_get "[d['global']['retry_count'], d['global']['transaction_timeout']]")" = "[7, 8]" ]
}

@test "a full export imports back: route state, lnd_timeout, the pools are ignored" {
	lnetctl net add --net tcp --if veth0
	lnetctl route add --net o2ib --gateway 10.11.0.6@tcp --hop 4
	lnetctl set numa_range 3
	lnetctl set large_buffers 4
	lnetctl set routing 1
	lnetctl export >"$T/full.yaml"
	grep -q 'type: multi-hop' "$T/full.yaml"
	grep -q 'lnd_timeout: 49' "$T/full.yaml"
	# routing as routing show has it: the pools, then enable
	run cat "$T/full.yaml"
	[ "$(yaml_get "[list(i) for i in d['routing']]")" = "[['cpt[0]'], ['enable']]" ]
	[ "$(yaml_get "[d['routing'][0]['cpt[0]']['large'][k] for k in ('npages', 'nbuffers', 'credits')]")" = "[256, 4, 4]" ]
	[ "$(yaml_get "d['buffers']['large']")" = 4 ]
	[ "$(yaml_get "d['routing'][1]")" = "{'enable': 1}" ]
	fresh_lnetd
	lnetctl --socket "$B_SOCKET" import "$T/full.yaml"
	lnetctl export --backup >"$T/a.yaml"
	lnetctl --socket "$B_SOCKET" export --backup >"$T/b.yaml"
	cmp "$T/a.yaml" "$T/b.yaml"
}

@test "export --backup of a configured node into a fresh lnetd: the same export again" {
	# no gateway here answers: without checks both nodes show the same
	# peer states (a failed check's timing differs between them). Set
	# first: an import adds routes before it applies its global section
	lnetctl set alive_router_check_interval 0
	lnetctl import "$TOP/examples/lnet.yaml"
	lnetctl policy add --dst 10.11.0.[10-11]@tcp --priority 0
	lnetctl peer add --prim_nid 10.11.0.30@tcp --non_mr --lock_prim
	lnetctl peer add --prim_nid 10.12.0.5@o2ib
	lnetctl route add --net o2ib --gateway '10.11.0.[250-251]@tcp' --hop 2 --priority 3
	lnetctl route add --net tcp9 --gateway 10.11.0.22@tcp1
	lnetctl policy add --dst 10.12.0.5@o2ib --rte 10.11.0.250@tcp
	lnetctl set routing 1
	lnetctl set large_buffers 512
	lnetctl set transaction_timeout 60
	lnetctl set retry_count 5
	lnetctl set response_tracking 1
	lnetctl set max_interfaces 64
	lnetctl export --backup >"$T/a.yaml"
	run cat "$T/a.yaml"
	[ "$(yaml_get "len(d['udsp'])")" = 8 ]
	[ "$(yaml_get "sorted(d)")" = "['buffers', 'global', 'net', 'peer', 'route', 'routing', 'udsp']" ]
	[ "$(yaml_get "d['route']")" = "[{'net': 'o2ib', 'gateway': '10.11.0.250@tcp', 'hop': 2, 'priority': 3}, {'net': 'o2ib', 'gateway': '10.11.0.251@tcp', 'hop': 2, 'priority': 3}, {'net': 'tcp9', 'gateway': '10.11.0.22@tcp1', 'hop': -1, 'priority': 0}]" ]
	[ "$(yaml_get "d['global']")" = "{'max_interfaces': 64, 'retry_count': 5, 'transaction_timeout': 60, 'response_tracking': 1, 'alive_router_check_interval': 0}" ]
	[ "$(yaml_get "[d['routing'], d['buffers']]")" = "[{'enable': 1}, {'large': 512}]" ]
	fresh_lnetd
	lnetctl --socket "$B_SOCKET" set alive_router_check_interval 0
	lnetctl --socket "$B_SOCKET" import "$T/a.yaml"
	lnetctl --socket "$B_SOCKET" export --backup >"$T/b.yaml"
	cmp "$T/a.yaml" "$T/b.yaml"
	run lnetctl --socket "$B_SOCKET" export --backup
	yaml_is "$(cat "$T/a.yaml")"
	# the same effects: router preferences and every show
	[ "$(LNET_SOCKET=$B_SOCKET pref_of 'Preferred gateway NIDs' 10.12.0.5@o2ib)" = "10.11.0.250@tcp" ]
	for show in "route show -v" "global show" "routing show" "peer show -v 4" "net show"; do
		# shellcheck disable=SC2086
		[ "$(lnetctl $show)" = "$(lnetctl --socket "$B_SOCKET" $show)" ] || { echo "$show"; return 1; }
	done
	# and import --del of the backup empties the fresh node
	lnetctl --socket "$B_SOCKET" import --del "$T/b.yaml"
	run lnetctl --socket "$B_SOCKET" export --backup
	[ "$output" = "" ]
}
