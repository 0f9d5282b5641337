#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl debug nidlist EXPR [NID]: canonical form and matching, no LNet needed.

load helpers
# bats file_tags=parse-only

setup() {
	lnet_setup
}

teardown() {
	lnet_teardown
}

@test "debug nidlist prints the canonical expression" {
	run lnetctl debug nidlist '10.0.0.[1-3]@tcp'
	[ "$status" -eq 0 ]
	[ "$output" = "10.0.0.[1-3]@tcp" ]
	run lnetctl debug nidlist tcp0
	[ "$output" = "tcp" ]
	run lnetctl debug nidlist '192.168.[0-2].[1-254/2]@tcp1'
	[ "$output" = "192.168.[0-2].[1-254/2]@tcp1" ]
	run lnetctl debug nidlist '[1-3]@gni'
	[ "$output" = "[1-3]@gni" ]
	run lnetctl debug nidlist 'o2ib[1-3]'
	[ "$output" = "o2ib[1-3]" ]
}

@test "the canonical form parses back to itself" {
	for e in '10.10.10.[5-8]@o2ib' '*@tcp' 'tcp*' '10.10.10.[1,3,5-9]@tcp' \
		 '2001:db8::[1-ff]@tcp' '2001:db8::/64@tcp' '5@gni'; do
		run lnetctl debug nidlist "$e"
		[ "$status" -eq 0 ] || { echo "$e: $output"; return 1; }
		canon=$output
		run lnetctl debug nidlist "$canon"
		[ "$status" -eq 0 ]
		[ "$output" = "$canon" ] || { echo "$e -> $canon -> $output"; return 1; }
	done
}

@test "debug nidlist EXPR NID says match or no match" {
	run lnetctl debug nidlist '10.0.0.[1-3]@tcp' 10.0.0.2@tcp
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "10.0.0.[1-3]@tcp" ]
	[ "${lines[1]}" = "10.0.0.2@tcp: match" ]
	[ "${#lines[@]}" -eq 2 ]
	run lnetctl debug nidlist '10.0.0.[1-3]@tcp' 10.0.0.4@tcp
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "10.0.0.4@tcp: no match" ]
	run lnetctl debug nidlist '10.0.0.[1-3]@tcp' 10.0.0.2@tcp1
	[ "${lines[1]}" = "10.0.0.2@tcp1: no match" ]
	run lnetctl debug nidlist tcp 10.0.0.2@tcp0
	[ "${lines[1]}" = "10.0.0.2@tcp: match" ]
	run lnetctl debug nidlist 'tcp*' 10.0.0.2@tcp7
	[ "${lines[1]}" = "10.0.0.2@tcp7: match" ]
	run lnetctl debug nidlist '2001:db8::[1-ff]@tcp' 2001:db8::fe@tcp
	[ "${lines[1]}" = "2001:db8::fe@tcp: match" ]
	run lnetctl debug nidlist '2001:db8::/64@tcp' 2001:db9::1@tcp
	[ "${lines[1]}" = "2001:db9::1@tcp: no match" ]
	run lnetctl debug nidlist '[1-3]@gni' 2@gni
	[ "${lines[1]}" = "2@gni: match" ]
}

@test "bad expressions and NIDs: the reason on stderr, exit 1, nothing on stdout" {
	bats_require_minimum_version 1.5.0
	for e in '10.0.0.[1-3@tcp' '10.0.0.256@tcp' '10.0.0.[3-1]@tcp' \
		 '10.0.0.[1-4/0]@tcp' 'foo' '10.0.0.1@tcp junk' 'tcp[]' '*@bogus'; do
		run --separate-stderr lnetctl debug nidlist "$e"
		[ "$status" -eq 1 ] || { echo "$e: status $status"; return 1; }
		[ "$output" = "" ]
		[[ "$stderr" == "lnetctl debug nidlist: invalid expression '$e': "?* ]] ||
			{ echo "$e: $stderr"; return 1; }
	done
	# a NID without @net is on tcp; 10.0.0.300 is no NID on any net
	run --separate-stderr lnetctl debug nidlist tcp 10.0.0.300
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[[ "$stderr" == "lnetctl debug nidlist: invalid NID '10.0.0.300': "?* ]]
}

@test "debug nidlist needs no lnetd and no LNet" {
	run env LNET_SOCKET=/nonexistent "$LNETCTL_BIN" debug nidlist '10.0.0.[1-3]@tcp' 10.0.0.3@tcp
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "10.0.0.3@tcp: match" ]
}

@test "debug nidlist: argument count is a usage error (exit 2)" {
	run lnetctl debug nidlist
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl debug nidlist: missing argument EXPR [NID]" ]
	run lnetctl debug nidlist tcp 10.0.0.1@tcp extra
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl debug nidlist: unexpected argument 'extra'" ]
	run lnetctl debug nidlist --bogus tcp
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl debug nidlist: unknown option '--bogus'" ]
}
