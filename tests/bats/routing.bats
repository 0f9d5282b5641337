#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Routing on real traffic (topo.bash): A - R1/R2 - B over tcp and tcp1, and
# the chain A - R - R' - C over three nets. Pings and byte-checked 1 MiB
# selftests through the routers, which router carries them (its counters)
# under UDSP --rte rules and route priorities, failover when a router dies
# or stops routing, queueing when router buffers and credits run out, and
# what a send with no route leaves behind. Timers are short (checks every
# second, 1 s ping timeout), so a router is up 2 s after `set routing 1`.

load helpers
load topo
# several nodes need several lnetds: the VM has one /dev/lnet
# bats file_tags=lnetd-only

A=10.41.0.1@tcp
R1A=10.41.0.2@tcp
R2A=10.41.0.3@tcp
R1B=10.42.0.2@tcp1
R2B=10.42.0.3@tcp1
B=10.42.0.4@tcp1
MIB=1048576

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# routed [CMD...]: topo_routed (CMDs for the routers), all routes up, and A
# and B discovered each other (so that what a first contact brings, the
# discovery a first send would start, is over before a test counts).
routed() {
	topo_routed "$@"
	wait_routed
	on 1 lnetctl discover $B >/dev/null
	on 4 lnetctl discover $A >/dev/null
}

# st_ok NODE OP TARGET COUNT SIZE [ARGS]: a selftest, every message ok.
st_ok() {
	local node=$1 op=$2 target=$3 count=$4 size=$5
	shift 5
	run on "$node" lnetctl selftest "$op" "$target" --count "$count" --size "$size" "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	st_is "$op" "$target" "$size" "$count" "$count" 0 0
}

# puts_via: how many PUTs each router (R1 R2) sent on tcp1, i.e. forwarded
# from A towards B.
puts_via() {
	echo "$(ni_count 2 sent_stats.put $R1B) $(ni_count 3 sent_stats.put $R2B)"
}

# forwarded: route_count of R1 and R2.
forwarded() {
	echo "$(stats_count 2 route_count) $(stats_count 3 route_count)"
}

# wait_peer_health N NID VALUE: wait (<= 20 s) until node N's peer NI NID
# has that health value.
wait_peer_health() {
	local h
	for _ in $(seq 100); do
		h=$(peer_ni_count "$1" "health stats.health value" "$2")
		[ "$h" = "$3" ] && return 0
		sleep 0.2
	done
	echo "node $1 peer NI $2: health $h after 20 s, expected $3" >&2
	return 1
}

# both_carry BEFORE AFTER TOTAL: each router's count moved, TOTAL together.
both_carry() {
	local x y
	read -r x y <<<"$(deltas "$1" "$2")"
	echo "R1 $x, R2 $y"
	[ "$x" -gt 0 ] && [ "$y" -gt 0 ] && [ $((x + y)) -eq "$3" ]
}

# wait_routing_enable N E: wait (<= 10 s) until node N's `routing show`
# says enable: E.
wait_routing_enable() {
	local e
	for _ in $(seq 50); do
		run on "$1" lnetctl routing show
		e=$(yaml_get "[p['enable'] for p in d['routing'] if 'enable' in p]")
		[ "$e" = "[$2]" ] && return 0
		sleep 0.2
	done
	echo "node $1: routing enable '$e' after 10 s, expected [$2]"
	return 1
}

# pin_r2: both ends prefer R2 (A for B, B for A).
pin_r2() {
	on 1 lnetctl policy add --dst $B --rte $R2A
	on 4 lnetctl policy add --dst $A --rte $R2B
}

# --- A - R1/R2 - B -------------------------------------------------------------

@test "routed: routes are down until the gateway answered a check; then route show -v on A and B: both gateways up, single-hop" {
	topo_routed
	# the routers start routing 2 s after `set routing 1`: until then their
	# ping replies say they do not forward (R2, set up last, is sure to be
	# starting still)
	[ "$(route_field 1 tcp1 $R2A state)" = down ]
	[ "$(route_field 4 tcp $R2B state)" = down ]
	wait_routed
	run on 1 lnetctl route show -v
	[ "$status" -eq 0 ]
	yaml_is "route:
- net: tcp1
  gateway: $R1A
  hop: -1
  priority: 0
  state: up
  type: single-hop
- net: tcp1
  gateway: $R2A
  hop: -1
  priority: 0
  state: up
  type: single-hop"
	run on 4 lnetctl route show -v
	[ "$status" -eq 0 ]
	yaml_is "route:
- net: tcp
  gateway: $R1B
  hop: -1
  priority: 0
  state: up
  type: single-hop
- net: tcp
  gateway: $R2B
  hop: -1
  priority: 0
  state: up
  type: single-hop"
}

@test "routed: ping B from A and A from B through the routers" {
	topo_routed
	wait_routed
	run on 1 lnetctl ping $B
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $B
  Multi-Rail: false
  peer_ni:
  - nid: $B"
	run on 4 lnetctl ping $A
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $A
  Multi-Rail: false
  peer_ni:
  - nid: $A"
}

@test "routed: 1 MiB selftest put and get, every byte checked, both ways; the routers forward each message and its answer" {
	routed
	# 4 PUTs + 4 ACKs + 4 GETs + 4 REPLYs per direction, each forwarded once
	moves "32" "sum_forwarded" -- routed_selftests
}

sum_forwarded() {
	local x y
	read -r x y <<<"$(forwarded)"
	echo $((x + y))
}

routed_selftests() {
	st_ok 1 put $B 4 $MIB
	st_ok 1 get $B 4 $MIB
	st_ok 4 put $A 4 $MIB
	st_ok 4 get $A 4 $MIB
}

@test "routed: --dst B --rte R2 sends 20 of 20 PUTs through R2; deleting the rule spreads them over both" {
	routed
	pin_r2
	moves "0 20" puts_via "0 40" forwarded -- st_ok 1 put $B 20 4096
	on 1 lnetctl policy del --idx 0
	on 4 lnetctl policy del --idx 0
	local before
	before=$(puts_via)
	st_ok 1 put $B 20 4096
	both_carry "$before" "$(puts_via)" 20
}

@test "routed: route priority: the route with the lower number carries every PUT" {
	routed
	on 1 lnetctl route del --net tcp1 --gateway $R1A
	on 1 lnetctl route add --net tcp1 --gateway $R1A --priority 1
	wait_route_state 1 tcp1 $R1A up
	[ "$(route_field 1 tcp1 $R1A priority)" = 1 ]
	[ "$(route_field 1 tcp1 $R2A priority)" = 0 ]
	moves "0 20" puts_via -- st_ok 1 put $B 20 4096
	# and the other way round
	on 1 lnetctl route del --net tcp1 --gateway $R2A
	on 1 lnetctl route add --net tcp1 --gateway $R2A --priority 2
	wait_route_state 1 tcp1 $R2A up
	moves "20 0" puts_via -- st_ok 1 put $B 20 4096
}

@test "routed: R1 killed: its routes go down within two check intervals, traffic flows via R2 with nothing lost; R1 back: up again" {
	routed
	local t0 t1
	t0=$(date +%s%N)
	topo_kill 2
	wait_route_state 1 tcp1 $R1A down
	t1=$(date +%s%N)
	wait_route_state 4 tcp $R1B down
	# two check intervals (2 s), and 1 s for the polling and lnetctl calls
	echo "A's route via R1 down after $(((t1 - t0) / 1000000)) ms"
	[ $(((t1 - t0) / 1000000)) -le 3000 ]
	[ "$(route_field 1 tcp1 $R2A state)" = up ]
	local r2 before
	r2=$(ni_count 3 sent_stats.put $R2B)
	st_ok 1 put $B 20 4096
	st_ok 1 get $B 2 $MIB
	st_ok 4 put $A 2 $MIB
	[ $(($(ni_count 3 sent_stats.put $R2B) - r2)) -eq 20 ]
	# R1 comes back: the same routes go up again and carry traffic again
	topo_lnetd 2
	topo_routed_rtr 2
	wait_route_state 1 tcp1 $R1A up
	wait_route_state 4 tcp $R1B up
	# health ranks the gateways (as Lustre's): R1's peer NI on A is back
	# to full health at its next recovery ping, whose interval doubled
	# while R1 was dead (1, 2, 4... s)
	wait_peer_health 1 $R1A 1000
	before=$(puts_via)
	st_ok 1 put $B 20 4096
	both_carry "$before" "$(puts_via)" 20
}

@test "routed: set routing 0 on R2 during traffic: what is in flight completes, then A's route via R2 is down and sends go via R1; with no other route they fail at once" {
	routed
	pin_r2
	# 2000 x 1 MiB, 8 in flight, through R2 (seconds even on a fast
	# machine: 500 could end before the poll below saw R2 forward); routing
	# stops under it, once R2 has forwarded some
	local r0 bg
	r0=$(stats_count 3 route_count)
	on 1 lnetctl selftest put $B --count 2000 --size 1M >"$TD/bg.yaml" 2>&1 &
	bg=$!
	for _ in $(seq 50); do
		[ "$(stats_count 3 route_count)" -gt "$r0" ] && break
		sleep 0.1
	done
	on 3 lnetctl set routing 0
	kill -0 $bg 2>/dev/null ||
		{ echo "the selftest ended before routing stopped: nothing was in flight"; false; }
	# R2 is stopping now (it forwards what arrives for 2 to 6 s): asking
	# it to route again is refused with the state (asked at once: later,
	# on a loaded machine, it may have stopped already)
	run on 3 lnetctl set routing 1
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *stopping* ]]
	local rc=0
	timeout 60 tail --pid=$bg -f /dev/null || rc=$?
	[ "$rc" -eq 0 ] || { echo "the selftest did not end within 60 s"; kill $bg; false; }
	wait $bg
	output=$(cat "$TD/bg.yaml")
	echo "$output"
	st_is put $B $MIB 2000 2000 0 0
	wait_route_state 1 tcp1 $R2A down
	wait_route_state 4 tcp $R2B down
	[ "$(route_field 1 tcp1 $R1A state)" = up ]
	# the rule prefers R2, but only alive routes are used
	moves "20 0" puts_via -- st_ok 1 put $B 20 4096
	# without R1's route nothing leads to tcp1: a clear error, not a hang
	on 1 lnetctl route del --net tcp1 --gateway $R1A
	run timeout 10 "$LNETCTL_BIN" --socket "$(topo_sock 1)" ping $B --timeout 5
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$B"* ]]
	# once disabled it may route again
	wait_routing_enable 3 0
	on 3 lnetctl set routing 1
	wait_route_state 1 tcp1 $R2A up
	st_ok 1 put $B 4 4096
}

# buffers_then_check: 8 in flight 1 MiB PUTs and GETs both ways through R2,
# every one ok (R2 forwards each message and its answer).
buffers_then_check() {
	pin_r2
	moves "0 64" forwarded -- buffer_selftests
}

buffer_selftests() {
	st_ok 1 put $B 16 $MIB --concurrency 8
	st_ok 1 get $B 8 $MIB --concurrency 8
	st_ok 4 put $A 8 $MIB --concurrency 8
}

# large_pool KEY: KEY of router R2's large buffer pool (`routing show`).
large_pool() {
	run on 3 lnetctl routing show
	[ "$status" -eq 0 ] || return 1
	yaml_get "[p['cpt[0]']['large']['$1'] for p in d['routing'] if 'cpt[0]' in p]"
}

# r2_peer KEY NID: KEY of R2's peer NI NID (`peer show -v`).
r2_peer() {
	run on 3 lnetctl peer show -v
	[ "$status" -eq 0 ] || return 1
	yaml_get "[ni['$1'] for p in d['peer'] for ni in p['peer ni'] if ni['nid'] == '$2']"
}

@test "routed: one large router buffer: 8 in flight 1 MiB PUTs and GETs wait for it, all complete" {
	routed "set large_buffers 1"
	buffers_then_check
	# the pool has its one buffer back, and messages waited for it
	[ "$(large_pool nbuffers)" = "[1]" ]
	[ "$(large_pool credits)" = "[1]" ]
	local min
	min=$(large_pool mincredits)
	echo "large pool mincredits: $min"
	[ "$(yaml_get "[m < 0 for m in $min]")" = "[True]" ]
}

@test "routed: 1 router credit per peer (--peer-buffer-credits 1): 8 in flight 1 MiB PUTs and GETs queue on it, all complete" {
	TOPO_RTR_NET_OPTS="--peer-buffer-credits 1" routed
	buffers_then_check
	# A's credit at R2 is back, and messages from A waited for it
	[ "$(r2_peer available_rtr_credits $A)" = "[1]" ]
	local min
	min=$(r2_peer min_rtr_credits $A)
	echo "R2's min_rtr_credits for A: $min"
	[ "$(yaml_get "[m < 0 for m in $min]")" = "[True]" ]
}

# --- multi-hop: A - R - R' - C -------------------------------------------------

@test "multi-hop A - R - R' - C: routes up (tcp2 multi-hop), ping and 1 MiB selftest both ways, R and R' forward each message" {
	local C=10.53.0.4@tcp2
	topo_chain
	wait_route_state 1 tcp1 10.51.0.2@tcp up
	wait_route_state 1 tcp2 10.51.0.2@tcp up
	wait_route_state 4 tcp 10.53.0.3@tcp2 up
	[ "$(route_field 1 tcp1 10.51.0.2@tcp type)" = single-hop ]
	[ "$(route_field 1 tcp2 10.51.0.2@tcp type)" = multi-hop ]
	[ "$(route_field 1 tcp2 10.51.0.2@tcp hop)" = 2 ]
	[ "$(route_field 4 tcp 10.53.0.3@tcp2 type)" = multi-hop ]
	run on 1 lnetctl ping $C
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $C
  Multi-Rail: false
  peer_ni:
  - nid: $C"
	run on 4 lnetctl ping 10.51.0.1@tcp
	[ "$status" -eq 0 ]
	# 2 PUTs + 2 ACKs + 2 GETs + 2 REPLYs each way, and A's first send
	# discovers C (a ping: GET, REPLY; a push: PUT, ACK) through the routers
	# too; C knows A from that push: 20 through each router
	moves "20" "stats_count 2 route_count" "20" "stats_count 3 route_count" -- chain_selftests $C
}

chain_selftests() {
	st_ok 1 put "$1" 2 $MIB
	st_ok 1 get "$1" 2 $MIB
	st_ok 4 put 10.51.0.1@tcp 2 $MIB
	st_ok 4 get 10.51.0.1@tcp 2 $MIB
}

# --- no route -------------------------------------------------------------------

@test "route add through a gateway on a net with no local NI fails with the gateway in the error; nothing added" {
	topo_2x1
	run on 1 lnetctl route add --net tcp7 --gateway 1@gni
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"1@gni"* ]]
	run on 1 lnetctl route show
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(stats_count 1 routes)" = 0 ]
}

@test "a send to a net with no route fails at once naming the NID; local_no_route_count and drop_count count it" {
	topo_2x1
	local before after
	before=$(stats_count 1 local_no_route_count drop_count)
	run timeout 10 "$LNETCTL_BIN" --socket "$(topo_sock 1)" ping 10.99.0.1@tcp9 --timeout 5
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"10.99.0.1@tcp9"* ]]
	after=$(stats_count 1 local_no_route_count drop_count)
	[ "$(deltas "$before" "$after")" = "1 1" ]
}
