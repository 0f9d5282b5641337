#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl ping and discover on one node: this node through 0@lo and its
# own NIDs, the errors (no route, no reply within --timeout, LNet down),
# bad input. Pings between nodes are in multinode.bats.

load helpers
lnet_suite

# The ping document of 0@lo on a node with no NI but 0@lo.
LO_ALONE='ping:
-   primary nid: 0@lo
    Multi-Rail: false
    peer_ni: []'

# gives STATUS STDOUT STDERR ARGS...: `lnetctl ARGS` exits STATUS and
# prints exactly STDOUT and STDERR.
gives() {
	local want_status=$1 want_out=$2 want_err=$3
	shift 3
	run --separate-stderr lnetctl "$@"
	[ "$status" -eq "$want_status" ]
	[ "$stderr" = "$want_err" ]
	[ "$output" = "$want_out" ]
}

@test "ping 0@lo with only 0@lo: this node, no NIDs to list" {
	gives 0 "$LO_ALONE" "" ping 0@lo
}

@test "ping 0@lo and this node's own NIDs list the NIs, 0@lo left out; an own NID makes the node its own peer" {
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp1 --if veth1
	gives 0 "ping:
-   primary nid: 0@lo
    Multi-Rail: false
    peer_ni:
    -   nid: 10.11.0.1@tcp
    -   nid: 10.11.0.2@tcp1
-   primary nid: 10.11.0.2@tcp1
    Multi-Rail: true
    peer_ni:
    -   nid: 10.11.0.1@tcp
    -   nid: 10.11.0.2@tcp1" "" ping 0@lo 10.11.0.2@tcp1
	# as in Lustre, the ping of an own NID made this node its own peer
	run lnetctl peer show
	yaml_is 'peer:
- primary nid: 10.11.0.2@tcp1
  Multi-Rail: true
  peer ni:
  - {nid: 10.11.0.2@tcp1, state: up}
  - {nid: 10.11.0.1@tcp, state: up}'
}

@test "ping --source: a local NID is used, another is refused" {
	lnetctl net add --net tcp --if veth0
	run --separate-stderr lnetctl ping --source 10.11.0.1@tcp 10.11.0.1@tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['ping'][0]['peer_ni']")" = "[{'nid': '10.11.0.1@tcp'}]" ]
	gives 1 "" "lnetctl ping: failed to ping 10.11.0.1@tcp: --source 10.11.0.7@tcp is not a NID of this node" \
		ping -s 10.11.0.7@tcp 10.11.0.1@tcp
}

@test "ping of a net this node has no NI or route to: the net named, the others still answer" {
	gives 1 "$LO_ALONE" "lnetctl ping: failed to ping 10.11.0.9@tcp1: no route to net tcp1 (no local NI and no route)" \
		ping 10.11.0.9@tcp1 0@lo
}

@test "ping of an absent node on a tcp net times out within --timeout" {
	lnetctl net add --net tcp --if veth0
	local t0=$SECONDS
	run --separate-stderr lnetctl ping --timeout 1 10.11.0.9@tcp
	local took=$((SECONDS - t0))
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl ping: failed to ping 10.11.0.9@tcp: Connection timed out" ]
	[ "$took" -le 2 ]
}

# bats test_tags=parse-only
@test "ping: bad NIDs and --timeout out of range are usage errors (exit 2)" {
	run --separate-stderr lnetctl ping
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl ping: missing argument NID [NID...]" ]
	gives 2 "" "lnetctl ping: invalid NID 'foo': IPv4 address 'foo' has 1 octets: expected 4 (a.b.c.d) (a NID without '@<net>' is on tcp)" \
		ping 0@lo foo
	run --separate-stderr lnetctl ping 10.11.0.300@tcp
	[ "$status" -eq 2 ]
	[[ $stderr == "lnetctl ping: invalid NID '10.11.0.300@tcp': "* ]]
	for t in 0 181 -1 1.5 abc; do
		run --separate-stderr lnetctl ping --timeout "$t" 0@lo
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl ping: invalid --timeout '$t': expected an integer 1-180" ]
	done
	run --separate-stderr lnetctl ping --source bar 0@lo
	[ "$status" -eq 2 ]
	[[ $stderr == "lnetctl ping: invalid --source 'bar': "* ]]
	run --separate-stderr lnetctl ping --timeout 180 --source 0@lo 0@lo
	[ "$status" -eq 0 ]
}

@test "ping and discover with LNet down: exit 1" {
	lnetctl lnet unconfigure
	# one message: every other target would fail the same way
	gives 1 "" "lnetctl ping: LNet is not configured: run 'lnetctl lnet configure'" ping 0@lo 0@lo
	run --separate-stderr lnetctl discover 10.11.0.1@tcp
	[ "$status" -eq 1 ]
	[ "$stderr" = "lnetctl discover: LNet is not configured: run 'lnetctl lnet configure'" ]
}

@test "discover: no route, bad NIDs, --force takes no value" {
	gives 1 "" "lnetctl discover: failed to discover 10.11.0.9@tcp1: no route to net tcp1 (no local NI and no route)" \
		discover 10.11.0.9@tcp1
	run --separate-stderr lnetctl discover
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl discover: missing argument NID [NID...]" ]
	# without @net a NID is on tcp: 10.11.0.300 is still no NID
	run --separate-stderr lnetctl discover 10.11.0.300
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl discover: invalid NID '10.11.0.300': octet '300' is out of range 0-255 (a NID without '@<net>' is on tcp)" ]
	run --separate-stderr lnetctl discover --force=yes 10.11.0.1@tcp
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl discover: option --force takes no value" ]
}

# bats test_tags=parse-only
@test "ping and discover --help: exit 0, every option" {
	run lnetctl ping --help
	[ "$status" -eq 0 ]
	[[ $output == "ping NID [NID...]: "* ]]
	[[ $output == *"--timeout: seconds to wait for each reply, 1-180 (default 5)"* ]]
	[[ $output == *"--source: "* ]]
	run lnetctl discover -h
	[ "$status" -eq 0 ]
	[[ $output == *"--force: "* ]]
}
