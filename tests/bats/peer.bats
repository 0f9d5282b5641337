#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl peer add | del | show | list.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	lnet_setup
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0
}

teardown() {
	lnet_teardown
}

@test "peer show and peer list with no peers print nothing" {
	run lnetctl peer show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl peer list
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "peer add --prim_nid with a NID list; show and list" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid '10.11.0.[101-102]@tcp,2001:db8:11::100@tcp1'
	lnetctl peer add --prim 10.11.0.200@tcp
	run lnetctl peer show
	[ "$status" -eq 0 ]
	yaml_is "peer:
- primary nid: 10.11.0.100@tcp
  Multi-Rail: true
  peer ni:
  - nid: 10.11.0.100@tcp
    state: $(yaml_get "d['peer'][0]['peer ni'][0]['state']")
  - nid: 10.11.0.101@tcp
    state: $(yaml_get "d['peer'][0]['peer ni'][1]['state']")
  - nid: 10.11.0.102@tcp
    state: $(yaml_get "d['peer'][0]['peer ni'][2]['state']")
  - nid: 2001:db8:11::100@tcp1
    state: $(yaml_get "d['peer'][0]['peer ni'][3]['state']")
- primary nid: 10.11.0.200@tcp
  Multi-Rail: true
  peer ni:
  - nid: 10.11.0.200@tcp
    state: $(yaml_get "d['peer'][1]['peer ni'][0]['state']")"
	run lnetctl peer list
	[ "$status" -eq 0 ]
	yaml_is "peer list:
- nid: 10.11.0.100@tcp
- nid: 10.11.0.200@tcp"
}

@test "peer show --nid selects the peer owning any of its NIDs" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	lnetctl peer add --prim_nid 10.11.0.200@tcp
	run lnetctl peer show --nid 10.11.0.101@tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[p['primary nid'] for p in d['peer']]")" = "['10.11.0.100@tcp']" ]
	[ "$(yaml_get "[n['nid'] for n in d['peer'][0]['peer ni']]")" = \
	  "['10.11.0.100@tcp', '10.11.0.101@tcp']" ]
	run lnetctl peer show --nid 10.11.0.99@tcp
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl peer show: no peer has nid '10.11.0.99@tcp'" ]
}

@test "peer add to an existing peer adds NIDs" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	run lnetctl peer show
	[ "$(yaml_get "[n['nid'] for n in d['peer'][0]['peer ni']]")" = \
	  "['10.11.0.100@tcp', '10.11.0.101@tcp']" ]
}

@test "--non_mr makes a non-Multi-Rail peer that takes no second NID" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --non_mr
	run lnetctl peer show
	[ "$(yaml_get "d['peer'][0]['Multi-Rail']")" = "False" ]
	run lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl peer add: "* ]]
	run lnetctl peer show
	[ "$(yaml_get "[n['nid'] for n in d['peer'][0]['peer ni']]")" = "['10.11.0.100@tcp']" ]
}

@test "--lock_prim: peer del needs --force" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --lock_prim
	run lnetctl peer show
	[ "$(yaml_get "d['peer'][0].get('Lock Primary NID')")" = "True" ]
	run lnetctl peer del --prim_nid 10.11.0.100@tcp
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl peer del: "* ]]
	run lnetctl peer list
	yaml_is "peer list:
- nid: 10.11.0.100@tcp"
	lnetctl peer del --prim_nid 10.11.0.100@tcp --force
	run lnetctl peer list
	[ "$output" = "" ]
}

@test "peer del --nid removes those NIDs; peer del removes the peer" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid '10.11.0.[101-103]@tcp'
	lnetctl peer del --prim_nid 10.11.0.100@tcp --nid '10.11.0.101@tcp,10.11.0.103@tcp'
	run lnetctl peer show
	[ "$(yaml_get "[n['nid'] for n in d['peer'][0]['peer ni']]")" = \
	  "['10.11.0.100@tcp', '10.11.0.102@tcp']" ]
	lnetctl peer del --prim_nid 10.11.0.100@tcp
	run lnetctl peer show
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

# bats test_tags=parse-only
@test "peer add: usage errors (exit 2) change nothing" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp
	run lnetctl peer show
	before=$output
	run lnetctl peer add --nid 10.11.0.101@tcp
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer add: missing required option --prim_nid" ]
	run lnetctl peer add --prim_nid 10.11.0.300@tcp
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl peer add: invalid --prim_nid '10.11.0.300@tcp'"* ]]
	run lnetctl peer add --prim_nid 10.11.0.100@tcp --nid '10.11.0.[5-1]@tcp'
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl peer add: invalid --nid '10.11.0.[5-1]@tcp'"* ]]
	run lnetctl peer add --prim_nid 10.11.0.100@tcp --n 10.11.0.101@tcp
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer add: ambiguous option '--n': could be --nid, --non_mr" ]
	run lnetctl peer add --prim_nid 10.11.0.100@tcp --non_mr=yes
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer add: option --non_mr takes no value" ]
	run lnetctl peer show
	[ "$output" = "$before" ]
}

@test "peer add: a NID of another peer is an error and the command is undone" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	run lnetctl peer show
	before=$output
	run lnetctl peer add --prim_nid 10.11.0.200@tcp --nid 10.11.0.101@tcp
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl peer add: "*"10.11.0.101@tcp"* ]]
	run lnetctl peer show
	[ "$output" = "$before" ]
}

@test "peer add: lo NIDs are refused" {
	run lnetctl peer add --prim_nid 0@lo
	[ "$status" -ne 0 ]
	[[ "$output" == "lnetctl peer add: "* ]]
	run lnetctl peer show
	[ "$output" = "" ]
}

@test "peer del: errors" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp
	run lnetctl peer del --prim_nid 10.11.0.200@tcp
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl peer del: "* ]]
	run lnetctl peer del --prim_nid 10.11.0.100@tcp --nid 10.11.0.150@tcp
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl peer del: "*"10.11.0.150@tcp"* ]]
	run lnetctl peer del
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer del: missing required option --prim_nid" ]
	run lnetctl peer list
	yaml_is "peer list:
- nid: 10.11.0.100@tcp"
}

@test "peer show -v 4: udsp info on every peer NI" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	run udsp_of peer 10.11.0.100@tcp
	[ "$output" = "-1 -1" ]
	run udsp_of peer 10.11.0.101@tcp
	[ "$output" = "-1 -1" ]
	run lnetctl peer show -v 4
	[ "$(yaml_get "sum(1 for p in d['peer'] for n in p['peer ni'] if 'udsp info' in n)")" = 2 ]
	run lnetctl peer show -v 3
	[ "$(yaml_get "sum(1 for p in d['peer'] for n in p['peer ni'] if 'udsp info' in n)")" = 0 ]
}

@test "peer add | del: each cause LNet reports has its own message, exit 1" {
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp --lock_prim
	lnetctl peer add --prim_nid 10.11.0.200@tcp --non_mr
	run lnetctl peer show
	before=$output
	fails 1 "lnetctl peer add: NID 10.11.0.150@tcp is not one of this node's own NIDs: peer 10.11.0.1@tcp is this node" \
		peer add --prim_nid 10.11.0.1@tcp --nid 10.11.0.150@tcp
	fails 1 "lnetctl peer add: NID 10.11.0.1@tcp is one of this node's own NIDs, not a peer's" \
		peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.1@tcp
	fails 1 "lnetctl peer add: peer 10.11.0.200@tcp is not multi-rail (non_mr): it has its primary NID only" \
		peer add --prim_nid 10.11.0.200@tcp --nid 10.11.0.201@tcp
	fails 1 "lnetctl peer add: NID 10.11.0.101@tcp already belongs to peer 10.11.0.100@tcp" \
		peer add --prim_nid 10.11.0.200@tcp --nid 10.11.0.101@tcp
	fails 1 "lnetctl peer del: no peer has NID 10.11.0.150@tcp" \
		peer del --prim_nid 10.11.0.150@tcp
	fails 1 "lnetctl peer del: NID 10.11.0.150@tcp is not a NID of peer 10.11.0.100@tcp" \
		peer del --prim_nid 10.11.0.100@tcp --nid 10.11.0.150@tcp
	fails 1 "lnetctl peer del: the primary NID of peer 10.11.0.100@tcp is locked (lock_prim): force deletes it" \
		peer del --prim_nid 10.11.0.100@tcp
	run lnetctl peer show
	[ "$output" = "$before" ]
}
