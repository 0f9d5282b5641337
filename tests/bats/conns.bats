#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The socket LND's connections between two nodes (topo.bash), read from the
# kernel's sockets with ss: conns_per_peer (the link speed's default, `net
# set`), the bulk traffic spread over them, tos on the packets, and the
# interface that carries an NI's bytes when two NIs share a subnet, and the
# scheduler threads two NIs' bulk connections go to (/proc's epoll fdinfo).
# bats file_tags=lnetd-only

load helpers
load topo

A0=10.31.0.1@tcp
A1=10.31.0.11@tcp
B0=10.31.0.2@tcp
B1=10.31.0.12@tcp

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# one_link: node1 a0 <-> node2 b0, a tcp NI each.
one_link() {
	topo_node 1 && topo_node 2 &&
	topo_link 1 a0 10.31.0.1/24 2 b0 10.31.0.2/24 &&
	on 1 lnetctl net add --net tcp --if a0 "$@" &&
	on 2 lnetctl net add --net tcp --if b0
}

# cpp N: conns_per_peer of node N's first tcp NI, as net show -v says.
cpp() {
	run on "$1" lnetctl net show -v --net tcp
	yaml_get "d['net'][0]['local NI(s)'][0]['lnd tunables']['conns_per_peer']"
}

# estab N: node N's established LNet connections (either end on port 988).
estab() {
	on "$1" ss -Htn state established '( sport = :988 or dport = :988 )' | wc -l
}

# heavy N BYTES: how many of the connections node N opened (to port 988)
# have had more than BYTES of theirs acknowledged.
heavy() {
	on "$1" ss -Htin state established '( dport = :988 )' |
		grep -o 'bytes_acked:[0-9]*' | awk -F: -v min="$2" '$2 > min { n++ } END { print n + 0 }'
}

# wait_estab N CONNS: wait (<= 10 s) until node N holds CONNS connections.
wait_estab() {
	for _ in $(seq 100); do
		[ "$(estab "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	echo "node $1: $(estab "$1") connections after 10 s, expected $2"
	return 1
}

# put_mib N: N selftest PUTs of 1 MiB from node1 to B0, all ok.
put_mib() {
	run on 1 lnetctl selftest put $B0 --size 1M --count "$1" --concurrency 8
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put $B0 1048576 "$1" "$1" 0 0
}

# cpp_round CPP MIB CONNS HEAVY: node1's conns_per_peer is CPP; after MIB
# MiB of PUTs both nodes hold CONNS connections, and HEAVY of node1's carried
# more than 8 MiB each (its BULK_OUT ones: the bulk is spread over them).
cpp_round() {
	[ "$(cpp 1)" = "$1" ] || { echo "conns_per_peer $(cpp 1), want $1"; return 1; }
	put_mib "$2" || return 1
	echo "connections: $(estab 1) $(estab 2), heavy: $(heavy 1 $((8 << 20)))"
	[ "$(estab 1)" = "$3" ] && [ "$(estab 2)" = "$3" ] &&
		[ "$(heavy 1 $((8 << 20)))" = "$4" ]
}

@test "conns_per_peer: a veth's 10 Gb/s gives 2 (1 CONTROL + 2 BULK_IN + 2 BULK_OUT), bulk spread over both BULK_OUT; net set 3 opens more, the passive side takes them all" {
	one_link
	[ "$(cpp 2)" = 2 ]
	cpp_round 2 40 5 2
	on 1 lnetctl net set --conns-per-peer 3
	# the next send opens the new one; up before the bulk, it takes its share
	put_mib 1
	wait_estab 1 7
	cpp_round 3 40 7 3
	# 0: the link speed's choice again; the connections there stay
	on 1 lnetctl net set --conns-per-peer 0
	cpp_round 2 4 7 3
}

@test "tos: every connection of the NI carries it from its first packet, the peer's side keeps its own" {
	one_link --tos 72
	run on 1 lnetctl ping $B0
	[ "$status" -eq 0 ]
	put_mib 2
	run on 1 ss -Htn --tos state established '( dport = :988 )'
	echo "$output"
	[ "${#lines[@]}" = 5 ]
	[ "$(grep -c 'tos:0x48' <<<"$output")" = 5 ]
	run on 2 ss -Htn --tos state established '( sport = :988 )'
	echo "$output"
	[ "${#lines[@]}" = 5 ]
	[ "$(grep -c 'tos:0x48' <<<"$output")" = 0 ]
}

# tx_bytes N IF: bytes sent by interface IF of node N (ip -s link).
tx_bytes() {
	on "$1" ip -s -j link show "$2" | "$TOPO_PY" -c 'import json, sys; print(json.load(sys.stdin)[0]["stats64"]["tx"]["bytes"])'
}

@test "two NIs on one subnet: the NI a rule chooses sends by its own interface (a1's bytes leave by a1, not by a0)" {
	topo_node 1 && topo_node 2
	topo_link 1 a0 10.31.0.1/24 2 b0 10.31.0.2/24
	topo_link 1 a1 10.31.0.11/24 2 b1 10.31.0.12/24
	on 1 lnetctl net add --net tcp --if a0,a1
	on 2 lnetctl net add --net tcp --if b0,b1
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --src $A1 --priority 0
	on 1 lnetctl policy add --src $A1 --dst $B1
	# the source rule of each NI's address, to the table of its interface
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 1 ]
	a0=$(tx_bytes 1 a0)
	a1=$(tx_bytes 1 a1)
	before=$(ni_count 1 send_count $A0 $A1)
	put_mib 20
	delta_is "0 20" "$before" "$(ni_count 1 send_count $A0 $A1)"
	read -r d0 d1 <<<"$(deltas "$a0 $a1" "$(tx_bytes 1 a0) $(tx_bytes 1 a1)")"
	echo "a0 sent $d0 bytes, a1 $d1"
	[ "$d1" -ge $((20 << 20)) ]
	[ "$d0" -lt $((1 << 20)) ]
	# the NI's deletion takes its rule away
	on 1 lnetctl net del --net tcp --if a1
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 0 ]
}

@test "an lnetd killed with SIGKILL leaves its source rule; the next one takes it over and removes it with the NI" {
	topo_node 1 && topo_node 2
	topo_link 1 a0 10.31.0.1/24 2 b0 10.31.0.2/24
	topo_link 1 a1 10.31.0.11/24 2 b1 10.31.0.12/24
	on 1 lnetctl net add --net tcp --if a0,a1
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 1 ]
	topo_kill 1
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 1 ]
	topo_lnetd 1
	on 1 lnetctl net add --net tcp --if a0,a1
	# no warning: the rule in place is the one the NI needs
	run grep -c "cannot route its packets" "$(node_log 1)"
	[ "$output" = 0 ]
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 1 ]
	on 2 lnetctl net add --net tcp --if b0,b1
	on 1 lnetctl selftest put 10.31.0.2@tcp --count 4 --size 64K >/dev/null
	on 1 lnetctl net del --net tcp --if a1
	[ "$(on 1 ip -4 rule show from 10.31.0.11 | grep -c 'lookup')" = 0 ]
	[ "$(on 1 ip -4 rule show from 10.31.0.1 | grep -c 'lookup')" = 1 ]
	on 1 lnetctl net del --net tcp
	[ "$(on 1 ip -4 rule show | grep -c 'from 10.31.0')" = 0 ]
}

# ni_states N: "NID STATUS REASON" of each of node N's NIs but lo, from net show -v.
ni_states() {
	run on "$1" lnetctl net show -v
	yaml_get "'; '.join('%s %s %s' % (ni['nid'], ni['status'], ni.get('status reason')) for n in d['net'] for ni in n['local NI(s)'] if ni['nid'] != '0@lo')"
}

@test "net show: an NI whose LND cannot carry traffic is down with its reason (o2ib: no LND); tcp on IPv6 is up; a link down says so" {
	topo_node 1
	on 1 ip link add a0 type veth peer name a9
	on 1 ip link add a1 type veth peer name a8
	on 1 ip addr add 10.31.0.1/24 dev a0
	on 1 ip -6 addr add fd00:31::1/64 dev a1 nodad
	for i in a0 a9 a1 a8; do on 1 ip link set "$i" up; done
	on 1 lnetctl net add --net o2ib --if a0
	on 1 lnetctl net add --net tcp --if a1
	on 1 lnetctl net add --net tcp1 --if a0
	[ "$(ni_states 1)" = "10.31.0.1@o2ib down no LND; fd00:31::1@tcp up None; 10.31.0.1@tcp1 up None" ]
	# level 0: the status alone, as Lustre
	run on 1 lnetctl net show --net o2ib
	yaml_is 'net:
- net type: o2ib
  local NI(s):
  - {nid: 10.31.0.1@o2ib, status: down, interfaces: {0: a0}}'
	on 1 ip link set a9 down
	wait_ni_status 1 10.31.0.1@tcp1 down
	[ "$(ni_states 1)" = "10.31.0.1@o2ib down no LND; fd00:31::1@tcp up None; 10.31.0.1@tcp1 down link down" ]
	# a full export carries the key, and imports back (it is read-only)
	on 1 lnetctl export >"$TD/full.yaml"
	grep -q 'status reason: no LND' "$TD/full.yaml"
	on 1 lnetctl lnet unconfigure
	on 1 lnetctl lnet configure
	on 1 lnetctl import "$TD/full.yaml"
	[ "$(ni_states 1)" = "10.31.0.1@o2ib down no LND; fd00:31::1@tcp up None; 10.31.0.1@tcp1 down link down" ]
}

# epoll_of N INO: the descriptor of the epoll set (a scheduler thread's)
# that holds node N's socket of inode INO, from /proc (fdinfo's tfd lines).
epoll_of() {
	local pid fd tfd
	pid=$(cat "$TD/n$1.pid") || return 1
	for fd in /proc/"$pid"/fd/*; do
		[ "$(readlink "$fd")" = "anon_inode:[eventpoll]" ] || continue
		for tfd in $(sed -n 's/^tfd: *\([0-9]*\) .*/\1/p' "/proc/$pid/fdinfo/${fd##*/}"); do
			[ "$(readlink "/proc/$pid/fd/$tfd")" = "socket:[$2]" ] &&
				{ echo "${fd##*/}"; return 0; }
		done
	done
	echo "node $1: no epoll set holds socket $2" >&2
	return 1
}

@test "two NIs to two NIs: the two bulk connections, one per NI, are served by two scheduler threads" {
	topo_node 1 && topo_node 2
	topo_link 1 a0 10.31.0.1/24 2 b0 10.31.0.2/24
	topo_link 1 a1 10.32.0.1/24 2 b1 10.32.0.2/24
	on 1 lnetctl net add --net tcp --if a0,a1 --conns-per-peer 1
	on 2 lnetctl net add --net tcp --if b0,b1
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --src 10.31.0.1@tcp --dst 10.31.0.2@tcp
	on 1 lnetctl policy add --src 10.32.0.1@tcp --dst 10.32.0.2@tcp
	run on 1 lnetctl selftest put $B0 --size 1M --count 40 --concurrency 8
	echo "$output"
	[ "$status" -eq 0 ]
	# node1's connections that carried more than 4 MiB: its BULK_OUT ones
	output=$(on 1 ss -HtinOe state established '( dport = :988 )' 2>/dev/null)
	echo "$output"
	inos=$(awk '{ a = 0; i = ""
		for (f = 1; f <= NF; f++) {
			if ($f ~ /^ino:/) i = substr($f, 5)
			if ($f ~ /^bytes_acked:/) a = substr($f, 13)
		}
		if (a > 4194304) print i }' <<<"$output")
	[ "$(wc -w <<<"$inos")" = 2 ]
	sets=$(for i in $inos; do epoll_of 1 "$i" || echo none; done | sort -u)
	echo "epoll sets: $sets"
	[ "$(wc -w <<<"$sets")" = 2 ]
	[[ "$sets" != *none* ]]
}
