#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Kernel-only tests of /dev/lnet, run inside the test VM by
# tests/kernel/guest.sh with lnet.ko loaded (see tests/kernel/run.sh).

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
FUZZ=$TOP/build/tests/kernel/ioctl-fuzz
FUZZ32=$TOP/build/tests/kernel/ioctl-fuzz32
LNETCTL=$TOP/build/lnetctl

# Still uid 0 (so the device opens read-write), without CAP_NET_ADMIN.
nocap() {
	setpriv --inh-caps=-net_admin --ambient-caps=-net_admin \
		--bounding-set=-net_admin "$@"
}

setup() {
	[ -c /dev/lnet ] || skip "lnet.ko is not loaded (these tests run in the VM: make check-kernel)"
	"$LNETCTL" lnet unconfigure
}

teardown() {
	"$LNETCTL" lnet unconfigure || true
}

@test "/dev/lnet is a misc character device, mode 0644, owned by root" {
	run stat -c '%F %a %U %t' /dev/lnet
	[ "$status" -eq 0 ]
	[ "$output" = "character special file 644 root a" ]
}

@test "framing: bad length, version, command, size, pointer, reserved field" {
	run "$FUZZ" frame
	[ "$status" -eq 0 ]
	[ "$output" = "len-4 EINVAL
len-8-below-struct EINVAL
len-max-plus-1 EINVAL
bad-version EPROTO
unknown-nr ENOTTY
other-type ENOTTY
size-not-struct ENOTTY
null-pointer EFAULT
past-mapping EFAULT
reserved-set EINVAL
unknown-flag EINVAL" ]
}

@test "without CAP_NET_ADMIN: every mutating command gets EPERM, show commands run" {
	"$LNETCTL" lnet configure
	run nocap "$FUZZ" perm
	[ "$status" -eq 0 ]
	[ "$output" = "CONFIGURE EPERM
UNCONFIGURE EPERM
ADD_NET EPERM
DEL_NET EPERM
GET_NET OK
ADD_PEER_NI EPERM
DEL_PEER_NI EPERM
GET_PEER_NI ENOENT
SET_PEER_STATE EPERM
ADD_ROUTE EPERM
DEL_ROUTE EPERM
GET_ROUTE ENOENT
CONFIG_RTR EPERM
ADD_BUF EPERM
GET_BUF OK
GET_LNET_STATS OK
RESET_LNET_STATS EPERM
SET_GLOBAL EPERM
GET_GLOBAL OK
SET_HEALTH EPERM
ADD_UDSP EPERM
DEL_UDSP EPERM
GET_UDSP_SIZE ENOENT
GET_UDSP ENOENT
GET_CONST_UDSP_INFO ENOENT
ADD_UDSP_BATCH EPERM
GET_UDSP_BATCH OK
DEL_UDSP_BATCH EPERM
PING_PEER EINVAL
DISCOVER EPERM
SELFTEST EPERM
LST EPERM
GET_IF OK
SET_NI_LND EPERM
GET_RTR_POOLS OK
EXPLAIN EINVAL
UDSP_MATCH EINVAL
FAULT_ADD EPERM
FAULT_DEL EPERM
FAULT_RESET EPERM
FAULT_GET EINVAL" ] || { echo "$output"; return 1; }
}

@test "with CAP_NET_ADMIN the same requests are not refused" {
	run "$FUZZ" perm
	[ "$status" -eq 0 ]
	[[ "$output" != *EPERM* ]]
	[ "${lines[0]}" = "CONFIGURE OK" ]
}

@test "lnetctl without CAP_NET_ADMIN: changes fail with EPERM and change nothing, show works" {
	"$LNETCTL" lnet configure
	run nocap "$LNETCTL" net add --net tcp --if lo
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "*": permission denied: configuring LNet needs CAP_NET_ADMIN" ]]
	run nocap "$LNETCTL" lnet unconfigure
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl lnet unconfigure: cannot unconfigure LNet: permission denied: configuring LNet needs CAP_NET_ADMIN" ]
	run nocap "$LNETCTL" net show
	[ "$status" -eq 0 ]
	[[ "$output" == *"nid: 0@lo"* ]]
	[ "$(grep -c 'nid:' <<<"$output")" -eq 1 ]
}

@test "10,000 random, truncated and mutated requests: errors only, module intact" {
	run "$FUZZ" fuzz 10000 1
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "calls 10000" ]
	[ "${lines[2]}" = "random-ok 0" ]
	[ "${lines[3]}" = "undocumented 0" ]
	"$LNETCTL" lnet configure
	run "$LNETCTL" net show
	[ "$status" -eq 0 ]
	[[ "$output" == *"nid: 0@lo"* ]]
}

@test "header rewritten between the kernel's two reads: refused or answered" {
	run "$FUZZ" race 20000
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "calls 20000" ]
	[ "${lines[3]}" = "other 0" ]
}

@test "a 32-bit client (compat_ioctl) gets the answers a 64-bit one gets" {
	run "$FUZZ" frame
	want_frame=$output
	run "$FUZZ32" frame
	[ "$status" -eq 0 ]
	[ "$output" = "$want_frame" ]
	"$LNETCTL" lnet configure
	run nocap "$FUZZ" perm
	want_perm=$output
	run nocap "$FUZZ32" perm
	[ "$status" -eq 0 ]
	[ "$output" = "$want_perm" ]
	[ "${lines[4]}" = "GET_NET OK" ]
	run "$FUZZ32" fuzz 2000 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "calls 2000" ]
	[ "${lines[2]}" = "random-ok 0" ]
	[ "${lines[3]}" = "undocumented 0" ]
}
