#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Our wire, seen from outside: two nodes (tests/bats/topo.bash topo_2x1,
# node1 10.21.0.1@tcp on a0 <-> node2 10.21.0.2@tcp on b0) ping and
# discover each other while tshark captures a0 (tcp port 988). Wireshark's
# own LNET dissector must decode every message with our NIDs and pids and
# raise no complaint but the known one on PUTs (tests/data/wire/README.md);
# tests/tools/lnet_wire.py decodes the same bytes by our rules (acceptor
# request, hellos, headers, ping payloads). The first tests pin the two
# tools down on the capture of real Lustre nodes.

load helpers
load topo

DATA=$TOP/tests/data/wire/lnet-tcp-ping-discover.pcap
DATA6=$TOP/tests/data/wire/lnet-ipv6-ping-discover.pcap
TOOLS=$TOP/tests/tools
# Debian's python3 first (for helpers.bash's YAML checks too): a version
# manager's shim in front of it costs seconds per call on a loaded host
PATH=/usr/bin:$PATH
PY=python3

setup() {
	TSHARK_PID=
	# the capture checks run on the host, against lnetd
	if [ "$LNET_TRANSPORT" = dev ]; then
		skip "reads lnetd's log and captures (the kernel acceptor: tests/kernel/mixed.bats)"
	fi
}

teardown() {
	if [ -n "$TSHARK_PID" ]; then
		kill "$TSHARK_PID" 2>/dev/null
		wait "$TSHARK_PID" 2>/dev/null
	fi
	[ -n "${TD:-}" ] && topo_teardown
	return 0
}

# tshark's LNET messages in CAPTURE, one line each (tshark_lnet.py).
lnet_dissected() {
	tshark -r "$1" -Y lnet -V 2>/dev/null | "$PY" "$TOOLS/tshark_lnet.py"
}

# decode_patched CAPTURE FROM TO: our decoder on CAPTURE with the first
# FROM bytes (hex) replaced by TO.
decode_patched() {
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d.replace(bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4]), 1))' \
		"$1" "$BATS_TEST_TMPDIR/patched.pcap" "$2" "$3"
	"$PY" "$TOOLS/lnet_wire.py" decode "$BATS_TEST_TMPDIR/patched.pcap"
}

# capture_probe N: a UDP datagram to node 2's discard port (captured too,
# ignored by both decoders), then wait until the capture file holds N of
# them: the capture is running and has written all it saw before.
capture_probe() {
	local want=$1 got
	for _ in $(seq 100); do
		on 1 bash -c 'echo probe >/dev/udp/10.21.0.2/9'
		sleep 0.05
		got=$(tshark -r "$TD/cap.pcap" -Y udp 2>/dev/null | wc -l)
		[ "$got" -ge "$want" ] && return 0
	done
	echo "capture: $got probes of $want after 100 tries" >&2
	return 1
}

# Capture node 1's a0 (port 988 and the probes) as classic pcap; returns
# once the capture is known to run.
capture_start() {
	ip netns exec "$(topo_ns 1)" tshark -i a0 -f "tcp port 988 or udp port 9" \
		-B 64 -F pcap -w "$TD/cap.pcap" -q >/dev/null 2>"$TD/tshark.err" 3>&- &
	TSHARK_PID=$!
	for _ in $(seq 200); do
		grep -q "Capturing on 'a0'" "$TD/tshark.err" && break
		sleep 0.05
	done
	capture_probe 1
}

capture_stop() {
	local seen
	sleep 0.3	# the last TCP ACKs
	seen=$(tshark -r "$TD/cap.pcap" -Y udp 2>/dev/null | wc -l)
	capture_probe $((seen + 1))
	kill -INT "$TSHARK_PID"
	wait "$TSHARK_PID" || true
	TSHARK_PID=
}

@test "wire: tshark's dissector on the real Lustre capture (reference for our checks)" {
	run lnet_dissected "$DATA"
	[ "$status" -eq 0 ]
	[ "$output" = "GET 192.168.50.1@tcp0 -> 192.168.50.2@tcp0 pids 12345/12345 payload 0 match 0x8000000000000000 portal 0
REPLY 192.168.50.2@tcp0 -> 192.168.50.1@tcp0 pids 12345/12345 payload 48
GET 192.168.50.1@tcp0 -> 192.168.50.2@tcp0 pids 12345/12345 payload 0 match 0x8000000000000000 portal 0
REPLY 192.168.50.2@tcp0 -> 192.168.50.1@tcp0 pids 12345/12345 payload 48
PUT 192.168.50.1@tcp0 -> 192.168.50.2@tcp0 pids 12345/12345 payload 48 match 0x8000000000000000 portal 0 (known PUT mark)
PUT 192.168.50.2@tcp0 -> 192.168.50.1@tcp0 pids 12345/12345 payload 48 match 0x8000000000000000 portal 0 (known PUT mark)
ACK 192.168.50.2@tcp0 -> 192.168.50.1@tcp0 pids 12345/12345 payload 0
ACK 192.168.50.1@tcp0 -> 192.168.50.2@tcp0 pids 12345/12345 payload 0" ]
}

@test "wire: the dissector check refuses any other complaint" {
	run "$PY" "$TOOLS/tshark_lnet.py" <<'EOF'
Frame 1: 162 bytes on wire (1296 bits), 162 bytes captured (1296 bits)
Lustre Network GET, Unknown (0)
    Message type: GET (2)
    [Expert Info (Error/Malformed): Capture:96 offset:96 (length:0) msg_type:2 ib_type:00]
        [Severity level: Error]
        [Group: Malformed]
EOF
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "UNEXPECTED: [Expert Info (Error/Malformed): Capture:96 offset:96 (length:0) msg_type:2 ib_type:00]" ]
	run "$PY" "$TOOLS/tshark_lnet.py" <<'EOF'
Frame 1: 60 bytes on wire (480 bits), 60 bytes captured (480 bits)
[Malformed Packet: LNET]
EOF
	[ "$status" -eq 1 ]
	[ "$output" = "UNEXPECTED: [Malformed Packet: LNET]" ]
	# nothing decoded at all is a failure too
	run "$PY" "$TOOLS/tshark_lnet.py" </dev/null
	[ "$status" -eq 1 ]
}

@test "wire: our decoder on the real Lustre capture" {
	run "$PY" "$TOOLS/lnet_wire.py" decode "$DATA"
	[ "$status" -eq 0 ]
	[ "${lines[6]}" = "192.168.50.1:1023 acceptor 192.168.50.2@tcp" ]
	[ "${lines[7]}" = "192.168.50.1:1023 hello 192.168.50.1@tcp -> 192.168.50.2@tcp kind 1 pid 12345" ]
	[ "${lines[8]}" = "192.168.50.1:1023 > GET 192.168.50.1@tcp -> 192.168.50.2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=3960" ]
	[ "${lines[14]}" = "192.168.50.1:1023 < REPLY 192.168.50.2@tcp -> 192.168.50.1@tcp pids 12345/12345 payload 48" ]
	[ "${lines[15]}" = "192.168.50.1:1023 <   ping features 0x1e pid 12345 nis 0@lo:0x3,192.168.50.2@tcp:up" ]
	[ "${#lines[@]}" -eq 21 ]
	# a cut capture, a corrupted acceptor magic: refused with the reason
	head -c 4000 "$DATA" >"$BATS_TEST_TMPDIR/cut.pcap"
	run "$PY" "$TOOLS/lnet_wire.py" decode "$BATS_TEST_TMPDIR/cut.pcap"
	[ "$status" -eq 1 ]
	[ "$output" = "lnet_wire.py: pcap: frame 39 cut short (20 of 210 bytes)" ]
	run decode_patched "$DATA" 0071ceac 0171ceac
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "lnet_wire.py: acceptor request: bad magic 0xacce7101" ]
}

# bats test_tags=parse-only
@test "wire: our decoder on the real Lustre IPv6 capture (acceptor v2, hello V4, nid16, large ping entries)" {
	# Wireshark 4.0's dissector cannot read V4 frames: our rules alone.
	# As on IPv4: three connections, everything on the first; ping infos
	# of one nid4 entry (0@lo, its status the buffer's sequence number)
	# and the sender's IPv6 NID as its first large entry (PRIMARY_LARGE)
	run "$PY" "$TOOLS/lnet_wire.py" decode "$DATA6"
	[ "$status" -eq 0 ]
	[ "$output" = "[2001:db8:50::1]:1021 acceptor v2 2001:db8:50::2@tcp
[2001:db8:50::1]:1021 hello V4 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp kind 3 pid 12345
[2001:db8:50::1]:1021 hello V4 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp kind 2 pid 12345
[2001:db8:50::1]:1022 acceptor v2 2001:db8:50::2@tcp
[2001:db8:50::1]:1022 hello V4 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp kind 2 pid 12345
[2001:db8:50::1]:1022 hello V4 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp kind 3 pid 12345
[2001:db8:50::1]:1023 acceptor v2 2001:db8:50::2@tcp
[2001:db8:50::1]:1023 hello V4 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp kind 1 pid 12345
[2001:db8:50::1]:1023 > GET 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=3960
[2001:db8:50::1]:1023 > GET 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=272
[2001:db8:50::1]:1023 > PUT 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 56 match_bits=0x8000000000000000 portal=0
[2001:db8:50::1]:1023 >   ping features 0x7e pid 12345 nis 0@lo:0x3,2001:db8:50::1@tcp:up
[2001:db8:50::1]:1023 > ACK 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 mlength=56
[2001:db8:50::1]:1023 > GET 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=272
[2001:db8:50::1]:1023 > PUT 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 56 match_bits=0x8000000000000000 portal=0
[2001:db8:50::1]:1023 >   ping features 0x7e pid 12345 nis 0@lo:0x3,2001:db8:50::1@tcp:up
[2001:db8:50::1]:1023 > REPLY 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 56
[2001:db8:50::1]:1023 >   ping features 0x7e pid 12345 nis 0@lo:0x3,2001:db8:50::1@tcp:up
[2001:db8:50::1]:1023 > REPLY 2001:db8:50::1@tcp -> 2001:db8:50::2@tcp pids 12345/12345 payload 56
[2001:db8:50::1]:1023 >   ping features 0x7e pid 12345 nis 0@lo:0x3,2001:db8:50::1@tcp:up
[2001:db8:50::1]:1023 hello V4 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp kind 1 pid 12345
[2001:db8:50::1]:1023 < REPLY 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 56
[2001:db8:50::1]:1023 <   ping features 0x7e pid 12345 nis 0@lo:0x2,2001:db8:50::2@tcp:up
[2001:db8:50::1]:1023 < REPLY 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 56
[2001:db8:50::1]:1023 <   ping features 0x7e pid 12345 nis 0@lo:0x2,2001:db8:50::2@tcp:up
[2001:db8:50::1]:1023 < PUT 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 56 match_bits=0x8000000000000000 portal=0
[2001:db8:50::1]:1023 <   ping features 0x7e pid 12345 nis 0@lo:0x2,2001:db8:50::2@tcp:up
[2001:db8:50::1]:1023 < ACK 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 mlength=56
[2001:db8:50::1]:1023 < REPLY 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 56
[2001:db8:50::1]:1023 <   ping features 0x7e pid 12345 nis 0@lo:0x2,2001:db8:50::2@tcp:up
[2001:db8:50::1]:1023 < ACK 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 mlength=56
[2001:db8:50::1]:1023 < GET 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=3960
[2001:db8:50::1]:1023 < GET 2001:db8:50::2@tcp -> 2001:db8:50::1@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=272" ]
	# a 20-byte NID of an address size we do not know: refused, named
	run decode_patched "$DATA6" 020000000c020000 0200000005020000
	[ "$status" -eq 1 ]
	[ "$output" = "lnet_wire.py: NID: address size 9 on LND 2" ]
}

@test "wire: our ping and discover, decoded by tshark and by our rules" {
	topo_init
	topo_2x1
	capture_start
	run on 1 lnetctl ping 10.21.0.2@tcp
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: 10.21.0.2@tcp
  Multi-Rail: false
  peer_ni:
  - nid: 10.21.0.2@tcp"
	run on 1 lnetctl discover 10.21.0.2@tcp
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: 10.21.0.2@tcp
  Multi-Rail: true
  peer_ni:
  - nid: 10.21.0.2@tcp"
	capture_stop

	# Wireshark's dissector: ping = GET + REPLY; discover = GET + REPLY,
	# then the push of our NIs (PUT) and its ACK
	run lnet_dissected "$TD/cap.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "GET 10.21.0.1@tcp0 -> 10.21.0.2@tcp0 pids 12345/12345 payload 0 match 0x8000000000000000 portal 0
REPLY 10.21.0.2@tcp0 -> 10.21.0.1@tcp0 pids 12345/12345 payload 48
GET 10.21.0.1@tcp0 -> 10.21.0.2@tcp0 pids 12345/12345 payload 0 match 0x8000000000000000 portal 0
REPLY 10.21.0.2@tcp0 -> 10.21.0.1@tcp0 pids 12345/12345 payload 48
PUT 10.21.0.1@tcp0 -> 10.21.0.2@tcp0 pids 12345/12345 payload 48 match 0x8000000000000000 portal 0 (known PUT mark)
ACK 10.21.0.2@tcp0 -> 10.21.0.1@tcp0 pids 12345/12345 payload 0" ]

	# our rules: as between the real Lustre nodes, connections from
	# privileged ports counting down from 1023 with kinds 1/2/3 (mirrored
	# 1/3/2), every message on the first; ping payloads with 0@lo first.
	# The Lustre nodes' 1 Gb/s gave one BULK_IN and one BULK_OUT; a veth's
	# 10 Gb/s gives conns_per_peer 2: two of each
	run "$PY" "$TOOLS/lnet_wire.py" decode "$TD/cap.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "10.21.0.1:1019 acceptor 10.21.0.2@tcp
10.21.0.1:1019 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 3 pid 12345
10.21.0.1:1019 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 2 pid 12345
10.21.0.1:1020 acceptor 10.21.0.2@tcp
10.21.0.1:1020 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 3 pid 12345
10.21.0.1:1020 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 2 pid 12345
10.21.0.1:1021 acceptor 10.21.0.2@tcp
10.21.0.1:1021 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 2 pid 12345
10.21.0.1:1021 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 3 pid 12345
10.21.0.1:1022 acceptor 10.21.0.2@tcp
10.21.0.1:1022 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 2 pid 12345
10.21.0.1:1022 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 3 pid 12345
10.21.0.1:1023 acceptor 10.21.0.2@tcp
10.21.0.1:1023 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 1 pid 12345
10.21.0.1:1023 > GET 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=6160
10.21.0.1:1023 > GET 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=6160
10.21.0.1:1023 > PUT 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 48 match_bits=0x8000000000000000 portal=0
10.21.0.1:1023 >   ping features 0x1f pid 12345 nis 0@lo:up,10.21.0.1@tcp:up
10.21.0.1:1023 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 1 pid 12345
10.21.0.1:1023 < REPLY 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 48
10.21.0.1:1023 <   ping features 0x1f pid 12345 nis 0@lo:up,10.21.0.2@tcp:up
10.21.0.1:1023 < REPLY 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 48
10.21.0.1:1023 <   ping features 0x1f pid 12345 nis 0@lo:up,10.21.0.2@tcp:up
10.21.0.1:1023 < ACK 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 0 match_bits=0x8000000000000000 mlength=48" ]
}

@test "wire: 1 MiB selftest PUTs and GETs go on the bulk connections, decoded by our rules" {
	topo_init
	topo_2x1
	# one connection of each kind, as the Lustre capture's 1 Gb/s: which of
	# several of a kind carries a message depends on the queues (conns.bats)
	on 1 lnetctl net set --conns-per-peer 1
	on 2 lnetctl net set --conns-per-peer 1
	# the bulk alone: no discovery ping and push before the first PUT
	# (the test above decodes those)
	on 1 lnetctl set discovery 0
	capture_start
	run on 1 lnetctl selftest put 10.21.0.2@tcp --count 2 --size 1048576
	[ "$status" -eq 0 ]
	run on 1 lnetctl selftest get 10.21.0.2@tcp --count 2 --size 1048576
	[ "$status" -eq 0 ]
	capture_stop

	# tshark's dissector does not follow messages across TCP segments (it
	# reads a header where a segment starts), so it sees some of them: no
	# complaint, and what it reads is ours
	run lnet_dissected "$TD/cap.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	while read -r type src _ dst _ pids _ payload _; do
		case "$type $src $dst $payload" in
		"PUT 10.21.0.1@tcp0 10.21.0.2@tcp0 1048576"|"GET 10.21.0.1@tcp0 10.21.0.2@tcp0 0"|\
		"ACK 10.21.0.2@tcp0 10.21.0.1@tcp0 0"|"REPLY 10.21.0.2@tcp0 10.21.0.1@tcp0 1048576") ;;
		*) echo "unexpected: $type $src -> $dst payload $payload" >&2; return 1 ;;
		esac
		[ "$pids" = 12345/12345 ]
	done <<<"$output"

	# every byte by our rules: PUT payloads on BULK_OUT (kind 3), REPLYs on
	# BULK_IN (kind 2 from node 1), GETs and ACKs on CONTROL. A REPLY, which
	# nothing answers, asks for a zero-copy ACK (cookies 2, 3: node 2's
	# first to node 1); node 1 gives them back on that BULK_IN, in one NOOP
	# or two (as the REPLYs' reads fell). PUTs answered by an ACK ask none.
	run "$PY" "$TOOLS/lnet_wire.py" decode "$TD/cap.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(sed -n 's/^10\.21\.0\.1:1022 > NOOP zc_ack=//p' <<<"$output" | tr , '\n' | sort -n | xargs)" = "2 3" ]
	output=$(grep -v ' NOOP' <<<"$output")
	[ "$output" = "10.21.0.1:1021 acceptor 10.21.0.2@tcp
10.21.0.1:1021 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 3 pid 12345
10.21.0.1:1021 > PUT 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 1048576 match_bits=0x5e1f7e5700000001 portal=62
10.21.0.1:1021 > PUT 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 1048576 match_bits=0x5e1f7e5700000001 portal=62
10.21.0.1:1021 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 2 pid 12345
10.21.0.1:1022 acceptor 10.21.0.2@tcp
10.21.0.1:1022 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 2 pid 12345
10.21.0.1:1022 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 3 pid 12345
10.21.0.1:1022 < REPLY 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 1048576 zc_req=2
10.21.0.1:1022 < REPLY 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 1048576 zc_req=3
10.21.0.1:1023 acceptor 10.21.0.2@tcp
10.21.0.1:1023 hello 10.21.0.1@tcp -> 10.21.0.2@tcp kind 1 pid 12345
10.21.0.1:1023 > GET 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 0 match_bits=0x5e1f7e5700000002 portal=62 sink_length=1048576
10.21.0.1:1023 > GET 10.21.0.1@tcp -> 10.21.0.2@tcp pids 12345/12345 payload 0 match_bits=0x5e1f7e5700000002 portal=62 sink_length=1048576
10.21.0.1:1023 hello 10.21.0.2@tcp -> 10.21.0.1@tcp kind 1 pid 12345
10.21.0.1:1023 < ACK 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 0 match_bits=0x5e1f7e5700000001 mlength=1048576
10.21.0.1:1023 < ACK 10.21.0.2@tcp -> 10.21.0.1@tcp pids 12345/12345 payload 0 match_bits=0x5e1f7e5700000001 mlength=1048576" ]
}

@test "wire: our IPv6 ping and discover, decoded by our rules (acceptor v2, hello V4, 120-byte headers, large ping entries)" {
	topo_init
	topo_2x1
	# IPv6 beside the IPv4 of the probes; NIs of the IPv6 NIDs on a net of their own
	on 1 ip -6 addr add 2001:db8:21::1/64 dev a0 nodad
	on 2 ip -6 addr add 2001:db8:21::2/64 dev b0 nodad
	on 1 lnetctl net add --net tcp1 --if a0 --nid 2001:db8:21::1@tcp1
	on 2 lnetctl net add --net tcp1 --if b0 --nid 2001:db8:21::2@tcp1
	on 1 lnetctl net set --conns-per-peer 1
	on 2 lnetctl net set --conns-per-peer 1
	capture_start
	run on 1 lnetctl ping 2001:db8:21::2@tcp1
	[ "$status" -eq 0 ]
	run on 1 lnetctl discover 2001:db8:21::2@tcp1
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: 10.21.0.2@tcp
  Multi-Rail: true
  peer_ni:
  - nid: 10.21.0.2@tcp
  - nid: 2001:db8:21::2@tcp1"
	capture_stop
	run "$PY" "$TOOLS/lnet_wire.py" decode "$TD/cap.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	# the IPv6 connections, as between the two real Lustre nodes: v2
	# acceptor requests (20-byte NIDs), V4 hellos, 120-byte headers; the
	# ping info has the IPv6 NI in a large entry (LARGE_ADDR, 0x20), the
	# IPv4 one first as primary (so no PRIMARY_LARGE)
	[ "$(grep '^\[2001' <<<"$output")" = "[2001:db8:21::1]:1021 acceptor v2 2001:db8:21::2@tcp1
[2001:db8:21::1]:1021 hello V4 2001:db8:21::1@tcp1 -> 2001:db8:21::2@tcp1 kind 3 pid 12345
[2001:db8:21::1]:1021 hello V4 2001:db8:21::2@tcp1 -> 2001:db8:21::1@tcp1 kind 2 pid 12345
[2001:db8:21::1]:1022 acceptor v2 2001:db8:21::2@tcp1
[2001:db8:21::1]:1022 hello V4 2001:db8:21::1@tcp1 -> 2001:db8:21::2@tcp1 kind 2 pid 12345
[2001:db8:21::1]:1022 hello V4 2001:db8:21::2@tcp1 -> 2001:db8:21::1@tcp1 kind 3 pid 12345
[2001:db8:21::1]:1023 acceptor v2 2001:db8:21::2@tcp1
[2001:db8:21::1]:1023 hello V4 2001:db8:21::1@tcp1 -> 2001:db8:21::2@tcp1 kind 1 pid 12345
[2001:db8:21::1]:1023 > GET 2001:db8:21::1@tcp1 -> 2001:db8:21::2@tcp1 pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=6160
[2001:db8:21::1]:1023 > GET 2001:db8:21::1@tcp1 -> 2001:db8:21::2@tcp1 pids 12345/12345 payload 0 match_bits=0x8000000000000000 portal=0 sink_length=6160
[2001:db8:21::1]:1023 hello V4 2001:db8:21::2@tcp1 -> 2001:db8:21::1@tcp1 kind 1 pid 12345
[2001:db8:21::1]:1023 < REPLY 2001:db8:21::2@tcp1 -> 2001:db8:21::1@tcp1 pids 12345/12345 payload 72
[2001:db8:21::1]:1023 <   ping features 0x3f pid 12345 nis 0@lo:up,10.21.0.2@tcp:up,2001:db8:21::2@tcp1:up
[2001:db8:21::1]:1023 < REPLY 2001:db8:21::2@tcp1 -> 2001:db8:21::1@tcp1 pids 12345/12345 payload 72
[2001:db8:21::1]:1023 <   ping features 0x3f pid 12345 nis 0@lo:up,10.21.0.2@tcp:up,2001:db8:21::2@tcp1:up" ]
	# the push (on whichever net the selection took) carries the same form
	grep -q ">   ping features 0x3f pid 12345 nis 0@lo:up,10.21.0.1@tcp:up,2001:db8:21::1@tcp1:up" <<<"$output"
}
