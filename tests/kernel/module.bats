#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Module lifetime, run inside the test VM (see tests/kernel/run.sh): unload
# with every kind of object alive, reload, repeat.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
LNETCTL=$TOP/build/lnetctl
KO=$TOP/build/kmod/lnet.ko

setup() {
	[ -c /dev/lnet ] || skip "lnet.ko is not loaded (these tests run in the VM: make check-kernel)"
}

teardown() {
	ip link del lnk0 2>/dev/null || true
	[ -c /dev/lnet ] || insmod "$KO" || true
}

@test "unload with nets, peers and rules alive frees everything: 0 objects left" {
	ip link add lnk0 type veth peer name lnk1
	ip addr add 10.13.0.1/24 dev lnk0
	ip link set lnk0 up
	ip link set lnk1 up
	"$LNETCTL" lnet configure
	"$LNETCTL" net add --net tcp --if lnk0
	"$LNETCTL" peer add --prim_nid 10.13.0.2@tcp --nid 10.13.0.3@tcp,10.13.0.4@tcp
	"$LNETCTL" peer add --prim_nid 7@gni
	"$LNETCTL" policy add --src tcp --priority 1
	"$LNETCTL" policy add --dst 10.13.0.[2-3]@tcp --priority 2
	"$LNETCTL" policy add --src 10.13.0.1@tcp --dst 10.13.0.2@tcp
	run "$LNETCTL" policy show
	[ "$status" -eq 0 ]
	[[ "$output" == *"idx: 2"* ]]
	rmmod lnet
	[ ! -e /dev/lnet ]
	run sh -c "dmesg --notime | grep '^lnet: unloaded' | tail -n1"
	[ "$output" = "lnet: unloaded, 0 objects left" ]
	insmod "$KO"
	[ -c /dev/lnet ]
	run "$LNETCTL" net show
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net show: "*"Network is down"* ]]
	"$LNETCTL" lnet configure
	run "$LNETCTL" peer show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	"$LNETCTL" lnet unconfigure
}

@test "load and unload 20 times: 0 objects left each time" {
	for i in $(seq 20); do
		rmmod lnet
		insmod "$KO"
		"$LNETCTL" lnet configure
	done
	rmmod lnet
	run sh -c "dmesg --notime | grep -c '^lnet: unloaded, 0 objects left'"
	[ "$output" -ge 21 ]
	run sh -c "dmesg --notime | grep '^lnet: unloaded' | grep -vc ', 0 objects left'"
	[ "$output" = "0" ]
	insmod "$KO"
}

@test "module parameters accept and accept_*: Lustre's names, checked at load, the acceptor follows them" {
	rmmod lnet
	run insmod "$KO" accept=sometimes
	[ "$status" -ne 0 ]
	[ ! -e /dev/lnet ]
	run sh -c "dmesg --notime | grep '^lnet: accept' | tail -n1"
	[ "$output" = "lnet: accept=sometimes: expected secure, all or none" ]
	run insmod "$KO" accept_port=70000
	[ "$status" -ne 0 ]
	run sh -c "dmesg --notime | grep '^lnet: accept' | tail -n1"
	[ "$output" = "lnet: accept_port=70000: expected an integer 1-65535" ]
	run insmod "$KO" accept_timeout=0
	[ "$status" -ne 0 ]
	run sh -c "dmesg --notime | grep '^lnet: accept' | tail -n1"
	[ "$output" = "lnet: accept_timeout=0: expected an integer 1-3600" ]

	insmod "$KO" accept=all accept_port=1988 accept_backlog=16
	[ "$(cat /sys/module/lnet/parameters/accept)" = all ]
	[ "$(cat /sys/module/lnet/parameters/accept_port)" = 1988 ]
	[ "$(cat /sys/module/lnet/parameters/accept_backlog)" = 16 ]
	[ "$(cat /sys/module/lnet/parameters/accept_timeout)" = 5 ]
	ip link add lnk0 type veth peer name lnk1
	ip addr add 10.13.0.1/24 dev lnk0
	ip link set lnk0 up
	ip link set lnk1 up
	"$LNETCTL" lnet configure
	"$LNETCTL" net add --net tcp --if lnk0
	run ss -ltnH 'sport = :1988'
	[[ "$output" == *"10.13.0.1:1988"* ]]
	run ss -ltnH 'sport = :988'
	[ "$output" = "" ]
	"$LNETCTL" lnet unconfigure

	rmmod lnet
	insmod "$KO" accept=none
	"$LNETCTL" lnet configure
	"$LNETCTL" net add --net tcp --if lnk0
	run ss -ltnH
	[[ "$output" != *":988 "* ]]
	"$LNETCTL" lnet unconfigure
	rmmod lnet
	insmod "$KO"
	[ "$(cat /sys/module/lnet/parameters/accept)" = secure ]
	[ "$(cat /sys/module/lnet/parameters/accept_port)" = 988 ]
}
