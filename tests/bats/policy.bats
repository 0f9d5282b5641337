#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl policy (alias udsp) add | del | show, and the UDSP values they
# leave on local NIs and peer NIs (net show / peer show -v 4).

load helpers

setup() {
	lnet_setup
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0	# 10.11.0.1@tcp
	lnetctl net add --net tcp1 --if veth1	# 10.11.0.2@tcp1
}

teardown() {
	lnet_teardown
}

add_peers() {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	lnetctl peer add --prim_nid 10.11.0.200@tcp1
}

@test "policy show with no rules prints nothing" {
	run lnetctl policy show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "policy add --src tcp --priority 1: net priority 1 on the tcp NI only" {
	lnetctl policy add --src tcp --priority 1
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "1 -1" ]
	run udsp_of net 10.11.0.2@tcp1
	[ "$output" = "-1 -1" ]
	run udsp_of net 0@lo
	[ "$output" = "-1 -1" ]
	run lnetctl policy show
	[ "$status" -eq 0 ]
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 1"
}

@test "policy and udsp are the same command; --prio is --priority" {
	lnetctl udsp add --src tcp --prio 1
	run lnetctl policy show
	[ "$status" -eq 0 ]
	policy=$output
	run lnetctl udsp show
	[ "$status" -eq 0 ]
	[ "$output" = "$policy" ]
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 1"
	run lnetctl policy --help
	policy_help=$output
	run lnetctl udsp --help
	[ "$status" -eq 0 ]
	[ "$output" = "${policy_help//policy /udsp }" ]
}

@test "a single-descriptor rule without --priority gets priority 0" {
	lnetctl policy add --src 10.11.0.1@tcp
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "-1 0" ]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: 10.11.0.1@tcp
  action:
    priority: 0"
}

@test "local NID priority from a NID range; other NIs keep -1" {
	lnetctl policy add --src '10.11.0.[1-2]@tcp' --priority 3
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "-1 3" ]
	run udsp_of net 10.11.0.2@tcp1
	[ "$output" = "-1 -1" ]
}

@test "peer net and peer NID priorities show in peer show -v 4" {
	add_peers
	lnetctl policy add --dst tcp1 --priority 4
	lnetctl policy add --dst 10.11.0.101@tcp --priority 2
	run udsp_of peer 10.11.0.200@tcp1
	[ "$output" = "4 -1" ]
	run udsp_of peer 10.11.0.101@tcp
	[ "$output" = "-1 2" ]
	run udsp_of peer 10.11.0.100@tcp
	[ "$output" = "-1 -1" ]
}

@test "src+dst rule: preferred local NIDs on the matching peer NIs" {
	add_peers
	lnetctl policy add --src 10.11.0.1@tcp --dst '10.11.0.[100-101]@tcp'
	run pref_of "Preferred source NIDs" 10.11.0.100@tcp
	[ "$output" = "10.11.0.1@tcp" ]
	run pref_of "Preferred source NIDs" 10.11.0.101@tcp
	[ "$output" = "10.11.0.1@tcp" ]
	run pref_of "Preferred source NIDs" 10.11.0.200@tcp1
	[ "$output" = "" ]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: 10.11.0.1@tcp
  dst: 10.11.0.[100-101]@tcp"
}

@test "rules apply to NIs and peers created after them" {
	lnetctl policy add --src tcp2 --priority 6
	lnetctl policy add --dst 10.11.0.77@tcp --priority 8
	lnetctl net add --net tcp2 --if veth0
	lnetctl peer add --prim_nid 10.11.0.77@tcp
	run udsp_of net 10.11.0.1@tcp2
	[ "$output" = "6 -1" ]
	run udsp_of peer 10.11.0.77@tcp
	[ "$output" = "-1 8" ]
}

@test "--idx inserts; policy show lists the rules in idx order" {
	lnetctl policy add --src tcp --priority 5
	lnetctl policy add --src tcp1 --priority 6
	lnetctl policy add --dst tcp --priority 7 --idx 0
	lnetctl policy add --dst tcp1 --priority 8 --idx 99
	run lnetctl policy show
	[ "$status" -eq 0 ]
	yaml_is "udsp:
- idx: 0
  dst: tcp
  action:
    priority: 7
- idx: 1
  src: tcp
  action:
    priority: 5
- idx: 2
  src: tcp1
  action:
    priority: 6
- idx: 3
  dst: tcp1
  action:
    priority: 8"
	run lnetctl policy show --idx 2
	[ "$status" -eq 0 ]
	yaml_is "udsp:
- idx: 2
  src: tcp1
  action:
    priority: 6"
}

@test "the lower idx wins where two rules match" {
	lnetctl policy add --src tcp --priority 5
	lnetctl policy add --src 'tcp[0-1]' --priority 9
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "5 -1" ]
	run udsp_of net 10.11.0.2@tcp1
	[ "$output" = "9 -1" ]
	lnetctl policy add --src 'tcp*' --priority 2 --idx 0
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "2 -1" ]
	run udsp_of net 10.11.0.2@tcp1
	[ "$output" = "2 -1" ]
}

@test "deleting the winning rule falls back to the remaining rule, not to -1" {
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --src 'tcp*' --priority 7
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "1 -1" ]
	lnetctl policy del --idx 0
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "7 -1" ]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: tcp*
  action:
    priority: 7"
	lnetctl policy del --all
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "-1 -1" ]
	run lnetctl policy show
	[ "$output" = "" ]
}

@test "deleting a pair rule empties the preferred lists" {
	add_peers
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.100@tcp
	run pref_of "Preferred source NIDs" 10.11.0.100@tcp
	[ "$output" = "10.11.0.1@tcp" ]
	lnetctl policy del --idx 0
	run pref_of "Preferred source NIDs" 10.11.0.100@tcp
	[ "$output" = "" ]
}

@test "an identical rule is a no-op with status 0; the list is unchanged" {
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --dst tcp --priority 2
	run lnetctl policy show
	before=$output
	for idx in "" "--idx 0"; do
		# shellcheck disable=SC2086
		run lnetctl policy add --src tcp --priority 1 $idx
		[ "$status" -eq 0 ] && [ "$output" = "" ]
		run lnetctl policy show
		[ "$output" = "$before" ]
	done
}

@test "policy add --idx N of an existing rule moves it to N (past the end: last)" {
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --src tcp1 --priority 2
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.100@tcp
	# the last rule to the front, then the first to the end with a new priority
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.100@tcp --idx 0
	lnetctl policy add --src tcp --priority 3 --idx 9
	run lnetctl policy show
	yaml_is 'udsp:
- {idx: 0, src: 10.11.0.1@tcp, dst: 10.11.0.100@tcp}
- {idx: 1, src: tcp1, action: {priority: 2}}
- {idx: 2, src: tcp, action: {priority: 3}}'
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "3 -1" ]
}

@test "the same descriptors with a new priority update the rule in place" {
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --src tcp1 --priority 2
	lnetctl policy add --src tcp --priority 4
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 4
- idx: 1
  src: tcp1
  action:
    priority: 2"
	run udsp_of net 10.11.0.1@tcp
	[ "$output" = "4 -1" ]
}

@test "dst+rte router rule is accepted and shown without an action" {
	lnetctl policy add --dst tcp1 --rte 10.11.0.50@tcp
	run lnetctl policy show
	[ "$status" -eq 0 ]
	yaml_is "udsp:
- idx: 0
  dst: tcp1
  rte: 10.11.0.50@tcp"
}

@test "IPv6 NID descriptor gives a NID priority to an IPv6 NI" {
	ip -n "$NS" link add veth2 type veth peer name veth3
	ip -n "$NS" -6 addr add 2001:db8:12::1/64 dev veth2 nodad
	ip -n "$NS" link set veth2 up
	ip -n "$NS" link set veth3 up
	lnetctl net add --net tcp3 --if veth2
	lnetctl policy add --src '2001:db8:12::[1-ff]@tcp3' --priority 11
	run udsp_of net 2001:db8:12::1@tcp3
	[ "$output" = "-1 11" ]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: 2001:db8:12::[1-ff]@tcp3
  action:
    priority: 11"
}

# bats test_tags=parse-only
@test "policy add: bad values are usage errors (exit 2) and add nothing" {
	run lnetctl policy add --src tcp --priority abc
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy add: invalid --priority 'abc': expected an integer 0-4294967294" ]
	run lnetctl policy add --src tcp --prio 4294967295
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --priority '4294967295'"* ]]
	run lnetctl policy add --src tcp --priority -1
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --priority '-1'"* ]]
	run lnetctl policy add --src tcp --priority 1 --idx x
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --idx 'x'"* ]]
	run lnetctl policy add --src '10.0.0.[1-3@tcp' --priority 1
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl policy add: invalid --src '10.0.0.[1-3@tcp'"* ]]
	run lnetctl policy add --dst 'tcp[3-1]'
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl policy add: invalid --dst 'tcp[3-1]'"* ]]
	run lnetctl policy show
	[ "$output" = "" ]
}

# bats test_tags=parse-only
@test "policy add: useless shapes are rejected (exit 2)" {
	run lnetctl policy add --rte 10.11.0.50@tcp
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl policy add: "*"rte"* ]]
	run lnetctl policy add --src tcp --dst tcp1 --priority 1
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl policy add: "* ]]
	run lnetctl policy add --src tcp --rte 10.11.0.50@tcp
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl policy add: "* ]]
	run lnetctl policy add --src tcp --dst tcp1 --rte 10.11.0.50@tcp
	[ "$status" -eq 2 ]
	run lnetctl policy add --priority 1
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy add: missing --src, --dst or --rte: a rule needs at least one of them" ]
	run lnetctl policy show
	[ "$output" = "" ]
}

@test "policy del: --idx or --all, exactly one of them" {
	lnetctl policy add --src tcp --priority 1
	run lnetctl policy del
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy del: missing --idx N or --all" ]
	run lnetctl policy del --idx 0 --all
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy del: --idx and --all cannot be combined" ]
	run lnetctl policy del --idx -1
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy del: invalid --idx '-1': expected an integer 0-2147483647" ]
	run lnetctl policy del --idx 1
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl policy del: "* ]]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 1"
	run lnetctl udsp del --all
	[ "$status" -eq 0 ]
	run lnetctl policy del --all
	[ "$status" -eq 0 ]
	run lnetctl policy show
	[ "$output" = "" ]
}

@test "policy show --idx of a missing rule is an error" {
	lnetctl policy add --src tcp --priority 1
	run lnetctl policy show --idx 3
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl policy show: no rule with idx 3" ]
	run lnetctl policy show --idx abc
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl policy show: invalid --idx 'abc': expected an integer 0-2147483647" ]
}

@test "unconfigure frees every rule" {
	lnetctl policy add --src tcp --priority 1
	lnetctl lnet unconfigure
	lnetctl lnet configure
	run lnetctl policy show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}
