#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# IPv6 NIs on the wire (two nodes, two IPv6 links each, topo.bash): the
# socket LND speaks Lustre's IPv6 forms (acceptor request v2, hello V4,
# 120-byte headers, large-address ping entries), so IPv6 NIs ping,
# discover, push, carry selftest traffic and obey UDSP rules written with
# IPv6 NID expressions; and IPv4 and IPv6 NIs live side by side.
# On lnetd and on /dev/lnet, but for the two tests tagged lnetd-only.

load helpers
load topo

A0=2001:db8:21::1@tcp
A1=2001:db8:22::1@tcp
B0=2001:db8:21::2@tcp
B1=2001:db8:22::2@tcp
N=20
PY=python3

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# link6 N IF ADDR M IF2 ADDR2: a veth pair with IPv6 addresses only (no
# duplicate address detection: usable at once).
link6() {
	local a b
	a=$(topo_ns "$1")
	b=$(topo_ns "$4")
	ip link add "$2" netns "$a" type veth peer name "$5" netns "$b" || return 1
	ip -n "$a" link set "$2" up
	ip -n "$b" link set "$5" up
	ip -n "$a" -6 addr add "$3" dev "$2" nodad
	ip -n "$b" -6 addr add "$6" dev "$5" nodad
}

# two nodes, two IPv6 links; one tcp NI per link (Multi-Rail)
topo6_2x2() {
	topo_node 1 && topo_node 2 &&
	link6 1 a0 2001:db8:21::1/64 2 b0 2001:db8:21::2/64 &&
	link6 1 a1 2001:db8:22::1/64 2 b1 2001:db8:22::2/64 &&
	on 1 lnetctl net add --net tcp --if a0,a1 &&
	on 2 lnetctl net add --net tcp --if b0,b1
}

put_n() {
	local node=$1 target=$2
	shift 2
	run on "$node" lnetctl selftest put "$target" --count "$N" --size 4096 "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put "$target" 4096 "$N" "$N" 0 0
}

@test "ipv6: NIs come up with their IPv6 NIDs, status up" {
	topo6_2x2
	run on 1 lnetctl net show --net tcp
	[ "$status" -eq 0 ]
	yaml_is "net:
- net type: tcp
  local NI(s):
  - nid: $A0
    status: up
    interfaces:
      0: a0
  - nid: $A1
    status: up
    interfaces:
      0: a1"
}

@test "ipv6: ping both ways over IPv6 connections" {
	topo6_2x2
	run on 1 lnetctl ping $B0
	[ "$status" -eq 0 ]
	# as on IPv4: a ping discovers nothing, the peer is not Multi-Rail yet
	yaml_is "ping:
- primary nid: $B0
  Multi-Rail: false
  peer_ni:
  - nid: $B0
  - nid: $B1"
	run on 2 lnetctl ping $A1
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $A1
  Multi-Rail: false
  peer_ni:
  - nid: $A0
  - nid: $A1"
	# an established TCP connection between the two IPv6 addresses, port 988
	run ip netns exec "$(topo_ns 1)" ss -Htn state established dst "[2001:db8:21::2]:988"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
}

@test "ipv6: discover makes a Multi-Rail peer of both IPv6 NIDs, primary its first; the push taught the peer ours" {
	topo6_2x2
	run on 1 lnetctl discover $B1
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0
  - nid: $B1"
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
}

@test "ipv6: a send discovers its peer (discovery on send), and selftest put and get move checked bytes" {
	topo6_2x2
	run on 1 lnetctl selftest put $B0 --count 8 --size 1048576
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put "$B0" 1048576 8 8 0 0
	run on 1 lnetctl selftest get $B1 --count 8 --size 65536
	echo "$output"
	[ "$status" -eq 0 ]
	st_is get "$B1" 65536 8 8 0 0
	run on 1 lnetctl peer show
	[ "$(yaml_get "[[n['nid'] for n in p['peer ni']] for p in d['peer']]")" = \
	  "[['$B0', '$B1']]" ]
}

@test "ipv6: UDSP rules on IPv6 NID expressions steer the traffic (local NI, then peer NI)" {
	topo6_2x2
	on 1 lnetctl discover $B0
	# every PUT leaves by A1: a rule on the CIDR form
	on 1 lnetctl policy add --src 2001:db8:22::/64@tcp --priority 0
	moves "0 $N" "ni_count 1 send_count $A0 $A1" -- put_n 1 $B0
	on 1 lnetctl policy del --idx 0
	# every PUT goes to B0: a rule on the range form
	on 1 lnetctl policy add --dst "2001:db8:21::[1-2]@tcp" --priority 0
	moves "$N 0" "peer_ni_count 1 send_count $B0 $B1" \
	      "$N 0" "ni_count 2 recv_count $B0 $B1" -- put_n 1 $B1
}

@test "ipv6: an IPv4 and an IPv6 NI on one node, each reaching the peer's NI of its family" {
	topo_node 1 && topo_node 2
	topo_link 1 v0 10.21.0.1/24 2 w0 10.21.0.2/24
	link6 1 a0 2001:db8:21::1/64 2 b0 2001:db8:21::2/64
	on 1 lnetctl net add --net tcp --if v0,a0
	on 2 lnetctl net add --net tcp --if w0,b0
	run on 1 lnetctl ping 10.21.0.2@tcp
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: 10.21.0.2@tcp
  Multi-Rail: false
  peer_ni:
  - nid: 10.21.0.2@tcp
  - nid: $B0"
	run on 1 lnetctl discover 10.21.0.2@tcp
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: 10.21.0.2@tcp
  Multi-Rail: true
  peer_ni:
  - nid: 10.21.0.2@tcp
  - nid: $B0"
	# one Multi-Rail peer of two families: each local NI sends to the peer
	# NI of its own family (a socket joins two addresses of one family),
	# whichever NID the send named
	moves "$N 0" "ni_count 1 send_count $A0 10.21.0.1@tcp" \
	      "$N 0" "peer_ni_count 1 send_count $B0 10.21.0.2@tcp" -- \
		put_n 1 10.21.0.2@tcp --source $A0
	moves "0 $N" "ni_count 1 send_count $A0 10.21.0.1@tcp" \
	      "0 $N" "peer_ni_count 1 send_count $B0 10.21.0.2@tcp" -- \
		put_n 1 $B0 --source 10.21.0.1@tcp
	# without a source both families carry the traffic, nothing fails
	put_n 1 $B0
}

@test "ipv6: the wire: a raw Lustre-style IPv6 peer (acceptor v2, hello V4, 120-byte header) pings lnetd" {
	topo_node 1 && topo_node 2
	link6 1 a0 2001:db8:21::1/64 2 b0 2001:db8:21::2/64
	on 1 lnetctl net add --net tcp --if a0
	run ip netns exec "$(topo_ns 2)" "$PY" "$TOPO_TOP/tests/tools/lnet_client.py" \
		--src 2001:db8:21::2 --dst 2001:db8:21::1 ping
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "hello $A0 -> $B0 kind 1" ]
	[ "${lines[2]}" = "reply $A0 -> $B0 pids 12345/12345 payload 56" ]
	# features: NI_STATUS, MULTI_RAIL, DISCOVERY, RTE_DISABLED, LARGE_ADDR,
	# PRIMARY_LARGE and BASE: 0x7f
	[ "${lines[3]}" = "ping features 0x7f pid 12345" ]
	[ "${lines[4]}" = "ni 0@lo up" ]
	[ "${lines[5]}" = "ni $A0 up" ]
	[ "${#lines[@]}" -eq 6 ]
}

# lnetd only: reads the node's log (the kernel acceptor: tests/kernel/mixed.bats)
# bats test_tags=lnetd-only
@test "ipv6: a hello of the other version is answered with ours (V4) and refused, as Lustre does" {
	topo_node 1 && topo_node 2
	link6 1 a0 2001:db8:21::1/64 2 b0 2001:db8:21::2/64
	on 1 lnetctl net add --net tcp --if a0
	run ip netns exec "$(topo_ns 2)" "$PY" "$TOPO_TOP/tests/tools/lnet_client.py" \
		--src 2001:db8:21::2 --dst 2001:db8:21::1 hello-other-version
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "answer version 4 from $A0 kind -1" ]
	[ "${lines[2]}" = closed ]
	port=$(sed -n 's/^local \[2001:db8:21::2\]:\([0-9]*\)$/\1/p' <<<"${lines[0]}")
	grep -F "socklnd: [2001:db8:21::2]:$port: refusing the connection: bad hello: magic 0x45726963 version 3 (expected 0x45726963 version 4); answered with our hello for a retry" "$(node_log 1)"
}

# tx_bytes N IF: bytes sent by interface IF of node N (ip -s link).
tx_bytes() {
	on "$1" ip -s -j link show "$2" | "$TOPO_PY" -c 'import json, sys; print(json.load(sys.stdin)[0]["stats64"]["tx"]["bytes"])'
}

# lnetd only: lnet.ko has no source routing (os_sock_route_source: EOPNOTSUPP)
# bats test_tags=lnetd-only
@test "ipv6: two IPv6 NIs on one subnet: the NI a rule chooses sends by its own interface; tos is the traffic class" {
	topo_node 1 && topo_node 2
	link6 1 a0 2001:db8:31::1/64 2 b0 2001:db8:31::2/64
	link6 1 a1 2001:db8:31::11/64 2 b1 2001:db8:31::12/64
	on 1 lnetctl net add --net tcp --if a0,a1 --tos 72
	on 2 lnetctl net add --net tcp --if b0,b1
	on 1 lnetctl discover 2001:db8:31::2@tcp
	on 1 lnetctl policy add --src 2001:db8:31::11@tcp --priority 0
	on 1 lnetctl policy add --src 2001:db8:31::11@tcp --dst 2001:db8:31::12@tcp
	# the source rule of each NI's address, to the table of its interface
	[ "$(on 1 ip -6 rule show from 2001:db8:31::11 | grep -c 'lookup')" = 1 ]
	a0=$(tx_bytes 1 a0)
	a1=$(tx_bytes 1 a1)
	run on 1 lnetctl selftest put 2001:db8:31::2@tcp --size 1M --count 20 --concurrency 8
	[ "$status" -eq 0 ]
	st_is put 2001:db8:31::2@tcp 1048576 20 20 0 0
	read -r d0 d1 <<<"$(deltas "$a0 $a1" "$(tx_bytes 1 a0) $(tx_bytes 1 a1)")"
	echo "a0 sent $d0 bytes, a1 $d1"
	[ "$d1" -ge $((20 << 20)) ]
	[ "$d0" -lt $((1 << 20)) ]
	# every connection node 1 opened carries tos 72 (0x48) as its traffic class
	run on 1 ss -Htn --tos state established '( dport = :988 )'
	echo "$output"
	[ "${#lines[@]}" -gt 0 ]
	[ "$(grep -c 'tclass:0x48' <<<"$output")" = "${#lines[@]}" ]
	# the NI's deletion takes its rule away
	on 1 lnetctl net del --net tcp --if a1
	[ "$(on 1 ip -6 rule show from 2001:db8:31::11 | grep -c 'lookup')" = 0 ]
}
