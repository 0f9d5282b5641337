#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The data path in the lnet module, run inside the test VM by
# tests/kernel/guest.sh with lnet.ko loaded (see tests/kernel/run.sh): LNet
# ping of 0@lo through lolnd and of an absent tcp node, link state through the netdevice notifier,
# and the module unloading while link changes are still queued.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
LNETCTL=$TOP/build/lnetctl
KO=$TOP/build/kmod/lnet.ko

setup() {
	[ -c /dev/lnet ] || skip "lnet.ko is not loaded (these tests run in the VM: make check-kernel)"
	ip link add lnk0 type veth peer name lnk1
	ip addr add 10.14.0.1/24 dev lnk0
	ip link set lnk0 up
	ip link set lnk1 up
	"$LNETCTL" lnet unconfigure
	"$LNETCTL" lnet configure
}

teardown() {
	[ -c /dev/lnet ] || insmod "$KO" || true
	"$LNETCTL" lnet unconfigure || true
	ip link del lnk0 2>/dev/null || true
}

# wait_status STATUS: up to 2 s for the NI of net tcp to show STATUS.
wait_status() {
	local i
	for i in $(seq 40); do
		run "$LNETCTL" net show --net tcp
		[ "$status" -eq 0 ] || return 1
		[[ "$output" == *"status: $1"* ]] && return 0
		sleep 0.05
	done
	echo "after 2 s still: $output"
	return 1
}

net_show_is() {
	[ "$output" = "net:
-   net type: tcp
    local NI(s):
    -   nid: 10.14.0.1@tcp
        status: $1
        interfaces:
            0: lnk0" ]
}

@test "lnetctl ping 0@lo on /dev/lnet: our NIs come back through lolnd" {
	"$LNETCTL" net add --net tcp --if lnk0
	for _ in 1 2 3; do
		run "$LNETCTL" ping 0@lo
		[ "$status" -eq 0 ]
		[ "$output" = "ping:
-   primary nid: 0@lo
    Multi-Rail: false
    peer_ni:
    -   nid: 10.14.0.1@tcp" ]
	done
	# the socket LND tries 10.14.0.2, which nobody holds: the ping ends
	# at its --timeout, not later
	t0=$(date +%s)
	run "$LNETCTL" ping --timeout 2 10.14.0.2@tcp
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl ping: failed to ping 10.14.0.2@tcp: Connection timed out" ]
	[ $(($(date +%s) - t0)) -le 4 ]
	# and 0@lo still answers
	run "$LNETCTL" ping 0@lo
	[ "$status" -eq 0 ]
}

@test "netdevice notifier: link down -> NI status down, up -> up, carrier loss -> down" {
	"$LNETCTL" net add --net tcp --if lnk0
	run "$LNETCTL" net show --net tcp
	net_show_is up
	ip link set lnk0 down
	wait_status down
	net_show_is down
	ip link set lnk0 up
	wait_status up
	net_show_is up
	# the peer end going down takes lnk0's carrier
	ip link set lnk1 down
	wait_status down
	ip link set lnk1 up
	wait_status up
	net_show_is up
}

@test "netdevice notifier: a namespace going away with its own lnk0 leaves our lnk0's NI up" {
	"$LNETCTL" net add --net tcp --if lnk0
	ip netns add dp$$
	ip -n dp$$ link add lnk0 type veth peer name lnk9
	ip -n dp$$ link set lnk0 up
	ip -n dp$$ link set lnk9 up
	ip netns del dp$$
	# the other namespace's devices go asynchronously: give them time
	sleep 2
	run "$LNETCTL" net show --net tcp
	net_show_is up
}

@test "netdevice notifier: the interface removed -> down; unload with changes queued: 0 objects left" {
	"$LNETCTL" net add --net tcp --if lnk0
	ip link del lnk0
	wait_status down
	ip link add lnk0 type veth peer name lnk1
	for _ in $(seq 20); do
		ip link set lnk0 up
		ip link set lnk0 down
	done &
	flapper=$!
	sleep 0.2
	rmmod lnet
	wait "$flapper"
	run sh -c "dmesg --notime | grep '^lnet: unloaded' | tail -n1"
	[ "$output" = "lnet: unloaded, 0 objects left" ]
	insmod "$KO"
	[ -c /dev/lnet ]
}

@test "netdevice notifier: an NI follows its device renamed; once it is gone, the next device of its name" {
	"$LNETCTL" net add --net tcp --if lnk0
	ip link set lnk0 down
	wait_status down
	# renamed while down: the events of lnkr0 are the NI's (same ifindex)
	ip link set lnk0 name lnkr0
	ip link set lnkr0 up
	wait_status up
	ip link set lnkr0 down
	wait_status down
	# a new device takes the name: not the NI's while its own device lives
	ip link add lnk0 type veth peer name lnk2
	ip link set lnk0 up
	ip link set lnk2 up
	sleep 1
	wait_status down
	# the NI's device goes: the NI takes the next device named lnk0
	ip link del lnkr0
	ip link set lnk0 down
	ip link set lnk0 up
	wait_status up
	ip link del lnk0
}
