#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnet.ko on TCP against lnetd (run by tests/kernel/guest.sh in the test VM):
# node1 is an lnetd in its namespace, node2 the lnet module's instance of
# its own (topo.bash, TOPO_LNETD_NODES=1), one veth link. They ping,
# discover and move 1 MiB messages both ways (IPv4 and IPv6), every byte
# checked; the kernel's acceptor survives a port scan and handshakes that
# stall (silent, or cut in the acceptor request); a namespace dies with
# connections up and traffic flowing, and the module unloads the same way,
# leaving 0 objects.

load ../bats/helpers
load ../bats/topo

A0=10.21.0.1@tcp
B0=10.21.0.2@tcp

setup() {
	[ -c /dev/lnet ] || skip "lnet.ko is not loaded (these tests run in the VM: make check-kernel)"
	TOPO_LNETD_NODES=1
	topo_init
	topo_2x1
}

teardown() {
	topo_test_teardown
}

@test "mixed pair: lnetd pings lnet.ko and lnet.ko pings lnetd" {
	run on 1 lnetctl ping $B0
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $B0
  Multi-Rail: false
  peer_ni:
  - nid: $B0"
	run on 2 lnetctl ping $A0
	[ "$status" -eq 0 ]
	yaml_is "ping:
- primary nid: $A0
  Multi-Rail: false
  peer_ni:
  - nid: $A0"
}

@test "mixed pair: each discovers the other" {
	run on 1 lnetctl discover $B0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $B0
  Multi-Rail: true
  peer_ni:
  - nid: $B0"
	run on 2 lnetctl discover $A0
	[ "$status" -eq 0 ]
	yaml_is "discover:
- primary nid: $A0
  Multi-Rail: true
  peer_ni:
  - nid: $A0"
}

# st_both FROM TO NID: 1 MiB x 10 PUT then GET from node FROM to NID, all
# ok, and node TO received 10 MiB of payload with no byte corrupt.
st_both() {
	local before
	# discovered first: its ping and push payloads are not the PUTs'
	on "$1" lnetctl discover "$3"
	before=$(stats_count "$2" recv_length selftest_corrupt)
	run on "$1" lnetctl selftest put "$3" --size 1048576 --count 10
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put "$3" 1048576 10 10 0 0
	delta_is "10485760 0" "$before" "$(stats_count "$2" recv_length selftest_corrupt)"
	run on "$1" lnetctl selftest get "$3" --size 1048576 --count 10
	echo "$output"
	[ "$status" -eq 0 ]
	st_is get "$3" 1048576 10 10 0 0
}

@test "mixed pair: 1 MiB PUTs and GETs lnetd -> lnet.ko, every byte checked" {
	st_both 1 2 $B0
}

@test "mixed pair: 1 MiB PUTs and GETs lnet.ko -> lnetd, every byte checked" {
	st_both 2 1 $A0
}

@test "mixed pair over IPv6 (hello V4, 120-byte headers): ping and 1 MiB PUTs both ways" {
	on 1 ip -6 addr add 2001:db8:21::1/64 dev a0 nodad
	on 2 ip -6 addr add 2001:db8:21::2/64 dev b0 nodad
	on 1 lnetctl net add --net tcp1 --if a0 --nid 2001:db8:21::1@tcp1
	on 2 lnetctl net add --net tcp1 --if b0 --nid 2001:db8:21::2@tcp1
	run on 1 lnetctl ping 2001:db8:21::2@tcp1
	[ "$status" -eq 0 ]
	[[ $output == *"nid: 2001:db8:21::2@tcp1"* ]]
	run on 2 lnetctl ping 2001:db8:21::1@tcp1
	[ "$status" -eq 0 ]
	[[ $output == *"nid: 2001:db8:21::1@tcp1"* ]]
	run on 1 lnetctl selftest put 2001:db8:21::2@tcp1 --size 1048576 --count 10
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put 2001:db8:21::2@tcp1 1048576 10 10 0 0
	run on 2 lnetctl selftest put 2001:db8:21::1@tcp1 --size 1048576 --count 10
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put 2001:db8:21::1@tcp1 1048576 10 10 0 0
}

# kernel_acceptor_ok: node2's acceptor still takes a well-behaved peer.
kernel_acceptor_ok() {
	run on 1 lnetctl ping $B0
	[ "$status" -eq 0 ]
}

@test "kernel acceptor: a port scan (connect, close; connect, reset) changes nothing" {
	# a connect and a close at once, as a scanner does; then a SYN scan's
	# reset (SO_LINGER 0): 50 of each ("on 1 python3" would be helpers'
	# function, outside the namespace)
	on 1 /usr/bin/python3 -c '
import socket, struct
for linger in (False, True):
    for _ in range(50):
        s = socket.create_connection(("10.21.0.2", 988), timeout=5)
        if linger:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
'
	kernel_acceptor_ok
	run on 2 lnetctl ping $A0
	[ "$status" -eq 0 ]
}

@test "kernel acceptor: 20 stalled handshakes (10 silent, 10 cut in the acceptor request) are dropped after the handshake timeout; the rest is served meanwhile" {
	on 1 /usr/bin/python3 -c '
import socket, struct, time
socks = [socket.create_connection(("10.21.0.2", 988), timeout=5) for _ in range(20)]
# half of them stop after 6 of the request'"'"'s 16 bytes: its magic, part of its version
for s in socks[10:]:
    s.sendall(struct.pack("<IH", 0xacce7100, 1))
open("'"$TD"'/stalled", "w").write("up\n")
# the acceptor must close every one within its 5 s handshake timeout
deadline = time.time() + 30
for s in socks:
    s.settimeout(max(0.1, deadline - time.time()))
    assert s.recv(1) == b"", "the acceptor sent something"
' &
	local py=$!
	for _ in $(seq 100); do [ -f "$TD/stalled" ] && break; sleep 0.1; done
	# served while they hang: the acceptor does not wait on them
	kernel_acceptor_ok
	wait "$py"
	kernel_acceptor_ok
}

@test "namespace deleted with 1 MiB PUTs in flight: its instance goes, the lnetd peer carries on" {
	on 1 lnetctl discover $B0
	on 1 lnetctl selftest put $B0 --size 1048576 --count 200 --concurrency 8 --timeout 30 \
		>"$TD/st.out" 2>&1 &
	local st=$!
	sleep 2
	ip netns del "$(topo_ns 2)"
	wait "$st" || true
	# node1's lnetd still works
	run on 1 lnetctl ping 0@lo
	[ "$status" -eq 0 ]
	run sh -c "dmesg --notime | grep 'namespace instance gone'"
	[ "$status" -eq 1 ]
}

@test "unload with connections up and 1 MiB PUTs flowing into lnet.ko: 0 objects left" {
	on 1 lnetctl discover $B0
	on 2 lnetctl discover $A0
	# connections both ways: node2's own PUTs first (its lnetctl holds
	# /dev/lnet while they run, so they end before the unload)
	run on 2 lnetctl selftest put $A0 --size 1048576 --count 10
	[ "$status" -eq 0 ]
	on 1 lnetctl selftest put $B0 --size 1048576 --count 2000 --concurrency 8 --timeout 20 \
		>"$TD/st1.out" 2>&1 &
	local st1=$!
	sleep 3
	rmmod lnet
	[ ! -e /dev/lnet ]
	wait "$st1" || true
	insmod "$TOP/build/kmod/lnet.ko"
	run sh -c "dmesg --notime | grep '^lnet: unloaded' | tail -n1"
	[ "$output" = "lnet: unloaded, 0 objects left" ]
	# lnetd lost its peer and carries on
	run on 1 lnetctl ping 0@lo
	[ "$status" -eq 0 ]
}
