#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl net add | del | show, with IPv4 and IPv6 NIs.

load helpers
lnet_suite

# veth2 with only an IPv6 address: its NI gets an IPv6 NID.
add_ipv6_if() {
	ip -n "$NS" link add veth2 type veth peer name veth3
	ip -n "$NS" -6 addr add 2001:db8:12::1/64 dev veth2 nodad
	ip -n "$NS" link set veth2 up
	ip -n "$NS" link set veth3 up
}

@test "net show after configure: only 0@lo" {
	net_show_lo_only
}

@test "net add --net tcp --if veth0,veth1: one NI per interface" {
	lnetctl net add --net tcp --if veth0,veth1
	run lnetctl net show --net tcp
	[ "$status" -eq 0 ]
	yaml_is "net:
- net type: tcp
  local NI(s):
  - nid: 10.11.0.1@tcp
    status: up
    interfaces:
      0: veth0
  - nid: 10.11.0.2@tcp
    status: up
    interfaces:
      0: veth1"
}

@test "net add's tunables and LND tunables, and -v LEVEL, take Lustre's number forms (0x10, 010)" {
	lnetctl net add --net tcp --if veth0 --peer-credits 0x10 --credits 0400 --peer-timeout 0 \
		--tos 0x8 --conns-per-peer 02 --lnd-timeout 0X1e
	run lnetctl net show --net tcp -v 01
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[(n['tunables'], n['lnd tunables']) for n in d['net'][0]['local NI(s)']]")" = \
	  "[({'peer_timeout': 0, 'peer_credits': 16, 'peer_buffer_credits': 0, 'credits': 256}, {'conns_per_peer': 2, 'timeout': 30, 'tos': 8})]" ]
	run --separate-stderr lnetctl net show -v 0x6
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl net show: invalid --verbose '0x6': expected an integer 0-5" ]
}

@test "net add prefers the IPv4 address; an IPv6-only interface gives an IPv6 NID" {
	add_ipv6_if
	lnetctl net add --net tcp1 --if veth0
	lnetctl net add --net=tcp2 --if=veth2
	# the IPv6 NI is up: the socket LND carries it (hello V4)
	run lnetctl net show
	[ "$status" -eq 0 ]
	yaml_is "net:
- net type: lo
  local NI(s):
  - nid: 0@lo
    status: up
- net type: tcp1
  local NI(s):
  - nid: 10.11.0.1@tcp1
    status: up
    interfaces:
      0: veth0
- net type: tcp2
  local NI(s):
  - nid: 2001:db8:12::1@tcp2
    status: up
    interfaces:
      0: veth2"
}

# dual0 with 10.11.4.1 and 2001:db8:14::1 (its peer end dual1 has none).
add_dual_if() {
	ip -n "$NS" link add dual0 type veth peer name dual1
	ip -n "$NS" addr add 10.11.4.1/24 dev dual0
	ip -n "$NS" -6 addr add 2001:db8:14::1/64 dev dual0 nodad
	ip -n "$NS" link set dual0 up
	ip -n "$NS" link set dual1 up
}

# net_tcp_is NID: `net show --net tcp` is one NI, NID on dual0. The status
# line is left out: whether the socket LND runs an IPv6 NI is not this
# test's business.
net_tcp_is() {
	run lnetctl net show --net tcp
	[ "$status" -eq 0 ]
	output=$(grep -v '^ *status: ' <<<"$output")
	[ "$output" = "net:
-   net type: tcp
    local NI(s):
    -   nid: $1
        interfaces:
            0: dual0" ] || { echo "got: $output"; return 1; }
}

@test "lnet configure --large: a dual-stack interface gives its IPv6 NID until unconfigure" {
	add_dual_if
	lnetctl net add --net tcp --if dual0
	net_tcp_is 10.11.4.1@tcp
	lnetctl lnet unconfigure
	lnetctl lnet configure --large
	lnetctl net add --net tcp --if dual0
	net_tcp_is 2001:db8:14::1@tcp
	# the IPv4-only and IPv6-only interfaces give their one address either way
	add_ipv6_if
	lnetctl net add --net tcp1 --if veth1
	lnetctl net add --net tcp2 --if veth2
	run lnetctl net show
	[ "$(yaml_get "[ni['nid'] for n in d['net'][2:] for ni in n['local NI(s)']]")" = \
	  "['10.11.0.2@tcp1', '2001:db8:12::1@tcp2']" ]
	# configure without -l while up keeps it
	lnetctl lnet configure
	lnetctl net del --net tcp
	lnetctl net add --net tcp --if dual0
	net_tcp_is 2001:db8:14::1@tcp
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl net add --net tcp --if dual0
	net_tcp_is 10.11.4.1@tcp
}

@test "lnet configure -l when up: large NIDs for the NIs added after; those there keep theirs" {
	add_dual_if
	lnetctl net add --net tcp --if dual0
	lnetctl lnet configure -l
	net_tcp_is 10.11.4.1@tcp
	lnetctl net add --net tcp1 --if dual0
	run lnetctl net show --net tcp1
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "2001:db8:14::1@tcp1" ]
	# an imported NI by interface alone too
	printf 'net:\n- net type: tcp2\n  local NI(s):\n  - interfaces: {0: dual0}\n' | lnetctl import
	run lnetctl net show --net tcp2
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "2001:db8:14::1@tcp2" ]
}

@test "a NID named on a dual-stack interface: either address, without --large" {
	add_dual_if
	lnetctl net add --net tcp --if dual0 --nid 2001:db8:14::1@tcp
	net_tcp_is 2001:db8:14::1@tcp
	lnetctl net del --net tcp
	# the NID alone finds the interface by either address
	lnetctl net add --nid 2001:db8:14::1@tcp
	net_tcp_is 2001:db8:14::1@tcp
	lnetctl net del --net tcp
	printf 'net:\n- net type: tcp\n  local NI(s):\n  - nid: 2001:db8:14::1@tcp\n    interfaces: {0: dual0}\n' \
		>"$T/dual.yaml"
	lnetctl import "$T/dual.yaml"
	net_tcp_is 2001:db8:14::1@tcp
	lnetctl import --del "$T/dual.yaml"
	printf 'net:\n- net type: tcp\n  local NI(s):\n  - nid: 2001:db8:14::1@tcp\n' >"$T/nid.yaml"
	lnetctl import "$T/nid.yaml"
	net_tcp_is 2001:db8:14::1@tcp
	lnetctl net del --net tcp
	# with --large the IPv4 NID named is taken just the same
	lnetctl lnet configure --large
	lnetctl net add --net tcp --if dual0 --nid 10.11.4.1@tcp
	net_tcp_is 10.11.4.1@tcp
	fails 1 "lnetctl net add: NID '2001:db8:14::2@tcp1' is not the address of interface 'dual0'" \
		net add --net tcp1 --if dual0 --nid 2001:db8:14::2@tcp1
}

@test "tcp0 is tcp; short options -n -i" {
	lnetctl net add -n tcp0 -i veth0
	run lnetctl net show -n tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['net'][0]['net type']")" = "tcp" ]
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.11.0.1@tcp" ]
}

@test "net add tunables show at -v 1; defaults otherwise" {
	lnetctl net add --net tcp --if veth0 --peer-timeout 60 --peer-credits 16 \
		--peer-buffer-credits 4 --credits 512
	lnetctl net add --net tcp1 --if veth1
	run lnetctl net show -v 1 --net tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['tunables']")" = \
	  "{'peer_timeout': 60, 'peer_credits': 16, 'peer_buffer_credits': 4, 'credits': 512}" ]
	run lnetctl net show -v --net tcp1
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['tunables']")" = \
	  "{'peer_timeout': 180, 'peer_credits': 8, 'peer_buffer_credits': 0, 'credits': 256}" ]
}

@test "net add --conns-per-peer --tos --lnd-timeout --cpt: lnd tunables, dev cpt and CPT at -v 1" {
	lnetctl net add --net tcp --if veth0 --conns-per-peer 2 --tos 16 --lnd-timeout 20 --cpt "[0,1]"
	lnetctl net add --net tcp1 --if "veth1[0,1]" -m 0 -s 0
	lnetctl set transaction_timeout 31
	run lnetctl net show -v
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[[ni.get('lnd tunables'), ni['dev cpt'], ni['CPT']] for n in d['net'] for ni in n['local NI(s)']]")" = \
	  "[[None, -1, '[0]'], [{'conns_per_peer': 2, 'timeout': 20, 'tos': 16}, -1, '[0]'], [{'conns_per_peer': 2, 'timeout': 10, 'tos': -1}, -1, '[0]']]" ]
	# Lustre's spelling: CPT double-quoted, the keys in Lustre's order
	[[ "$output" == *'        lnd tunables:
            conns_per_peer: 2
            timeout: 20
            tos: 16
        dev cpt: -1
        CPT: "[0]"'* ]]
	run lnetctl net show
	[[ "$output" != *"lnd tunables"* && "$output" != *CPT* ]]
	# o2ib: no LND here, so no lnd tunables; the options are accepted
	lnetctl net add --net o2ib --if veth1 --conns-per-peer 3
	run lnetctl net show -v --net o2ib
	[ "$(yaml_get "'lnd tunables' in d['net'][0]['local NI(s)'][0]")" = False ]
}

# bats test_tags=parse-only
@test "net add: bad lnd tunables and CPT lists are usage errors naming the value" {
	local cases=(
		"--conns-per-peer 128|invalid --conns-per-peer '128': expected an integer 0-127"
		"--tos -2|invalid --tos '-2': expected an integer -1-255"
		"--lnd-timeout 0|invalid --lnd-timeout '0': expected an integer 1-86400"
		"--cpt [1-0]|invalid --cpt '[1-0]': expected a list of partitions 0-1023 such as '[0,1]' or '[0-3]'"
		"--cpt [0,|invalid --cpt '[0,': expected a list of partitions 0-1023 such as '[0,1]' or '[0-3]'"
	)
	local c args msg
	for c in "${cases[@]}"; do
		IFS='|' read -r args msg <<<"$c"
		# shellcheck disable=SC2086
		run --separate-stderr lnetctl net add --net tcp --if veth0 $args
		echo "$args: $status $stderr"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl net add: $msg" ]
	done
}

@test "net add: lnd tunables on a net without an LND that takes them fail and change nothing" {
	fails 1 "lnetctl net add: net efa takes no LND tunables: only tcp nets have an LND here" \
		net add --net efa --if veth0 --tos 4
}

@test "net add --nid: checked against --if's address; alone it finds the interface" {
	fails 1 "lnetctl net add: NID '10.11.0.2@tcp' is not the address of interface 'veth0'" \
		net add --net tcp --if veth0 --nid 10.11.0.2@tcp
	fails 1 "lnetctl net add: no interface has the address of NID '10.11.0.9@tcp'" \
		net add --nid 10.11.0.9@tcp
	fails 1 "lnetctl net add: NID '10.11.0.1@tcp' is not on net tcp2" \
		net add --net tcp2 --nid 10.11.0.1@tcp
	fails 1 "lnetctl net add: NID '10.11.0.1@tcp' names one NI: give one interface, not 2" \
		net add --if veth0,veth1 --nid 10.11.0.1@tcp
	run --separate-stderr lnetctl net add --nid 10.11.0.2@tcp1
	[ "$status" -eq 0 ]
	lnetctl net add --if veth0 --nid 10.11.0.1@tcp
	run lnetctl net show
	yaml_is "net:
- net type: lo
  local NI(s):
  - {nid: 0@lo, status: up}
- net type: tcp1
  local NI(s):
  - {nid: 10.11.0.2@tcp1, status: up, interfaces: {0: veth1}}
- net type: tcp
  local NI(s):
  - {nid: 10.11.0.1@tcp, status: up, interfaces: {0: veth0}}"
}

@test "net add --ip2net: Lustre's rules string, with the tunables; all or nothing" {
	lnetctl net add --ip2net "tcp(veth1) 10.11.0.[2-9]; tcp 10.11.0.*; tcp1 10.11.0.[1,3]; o2ib(veth0) 10.20.0.*" \
		--peer-credits 32 --tos 8
	run lnetctl net show -v
	[ "$(yaml_get "[(n['net type'], ni['nid'], ni['tunables']['peer_credits'], ni.get('lnd tunables', {}).get('tos')) for n in d['net'][1:] for ni in n['local NI(s)']]")" = \
	  "[('tcp', '10.11.0.2@tcp', 32, 8), ('tcp1', '10.11.0.1@tcp1', 32, 8)]" ]
	fails 1 "lnetctl net add: no ip2nets rule matches an interface of this node" \
		net add --ip2net "tcp9 10.99.*.*"
	fails 1 "lnetctl net add: invalid ip2nets address range '10.99.*': expected an IPv4 pattern such as '192.168.1.[2-20/2]' or '10.*.*.*', or an IPv6 address[/prefix]" \
		net add --ip2net "tcp9 10.99.*"
	fails 1 "lnetctl net add: invalid ip2nets net 'tcp9(veth0': expected NET or NET(IF[,IF...])" \
		net add --ip2net "tcp9(veth0"
	# the second rule's NI cannot be added: the first rule's is deleted again
	fails 1 "lnetctl net add: net tcp already has an NI on interface 'veth1'" \
		net add --ip2net "tcp2 10.11.0.1; tcp 10.11.0.2"
	fails 2 "lnetctl net add: --ip2net names the nets and interfaces: no --net, --if or --nid with it" \
		net add --ip2net tcp3 --net tcp3
}

@test "net show: -v alone is -v 1; -v 0 is the plain show" {
	lnetctl net add --net tcp --if veth0
	run lnetctl net show -v 1
	v1=$output
	run lnetctl net show -v
	[ "$status" -eq 0 ]
	[ "$output" = "$v1" ]
	run lnetctl net show --verbose=1
	[ "$output" = "$v1" ]
	run lnetctl net show
	plain=$output
	run lnetctl net show -v 0
	[ "$output" = "$plain" ]
	[ "$plain" != "$v1" ]
}

@test "net show -v 4: udsp info -1 on every NI without rules" {
	lnetctl net add --net tcp --if veth0
	run lnetctl net show -v 4
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[ni['udsp info'] for n in d['net'] for ni in n['local NI(s)']]")" = \
	  "[{'net priority': -1, 'nid priority': -1}, {'net priority': -1, 'nid priority': -1}]" ]
	run lnetctl net show -v 3
	[ "$(yaml_get "[('udsp info' in ni) for n in d['net'] for ni in n['local NI(s)']]")" = \
	  "[False, False]" ]
}

@test "net del --if removes one NI; net del removes the net" {
	lnetctl net add --net tcp --if veth0,veth1
	lnetctl net del --net tcp --if veth1
	run lnetctl net show --net tcp
	yaml_is "net:
- net type: tcp
  local NI(s):
  - nid: 10.11.0.1@tcp
    status: up
    interfaces:
      0: veth0"
	lnetctl net del --net tcp
	net_show_lo_only
}

# bats test_tags=parse-only
@test "net add: missing options are usage errors (exit 2)" {
	run lnetctl net add --net tcp
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: missing required option --if" ]
	run lnetctl net add --if veth0
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: missing required option --net" ]
	run lnetctl net add --net --if veth0
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: option --net needs a value" ]
	run lnetctl net add --net tcp --if veth0 veth1
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: unexpected argument 'veth1'" ]
}

# bats test_tags=parse-only
@test "net add: bad values are usage errors (exit 2) and change nothing" {
	run lnetctl net show
	before=$output
	run lnetctl net add --net tcpx --if veth0
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl net add: invalid --net 'tcpx'"* ]]
	run lnetctl net add --net tcp --if veth0 --peer-credits 0
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: invalid --peer-credits '0': expected an integer 1-1024" ]
	run lnetctl net add --net tcp --if veth0 --credits 65537
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: invalid --credits '65537': expected an integer 1-65536" ]
	run lnetctl net add --net tcp --if veth0 --peer-timeout x
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl net add: invalid --peer-timeout 'x'"* ]]
	run lnetctl net add --net tcp --if veth0 --peer-buffer-credits 16385
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl net add: invalid --peer-buffer-credits '16385'"* ]]
	run lnetctl net add --net tcp --if 'a/b'
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl net add: invalid --if 'a/b'"* ]]
	run lnetctl net show
	[ "$output" = "$before" ]
}

@test "net add: operation errors exit 1 and change nothing" {
	lnetctl net add --net tcp --if veth0
	run lnetctl net show
	before=$output
	run lnetctl net add --net tcp1 --if nosuch0
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "*"nosuch0"* ]]
	run lnetctl net add --net tcp --if veth0
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "*"veth0"* ]]
	run lnetctl net add --net lo --if veth1
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "* ]]
	# veth1 would be fine, nosuch0 is not: the whole command is undone
	run lnetctl net add --net tcp2 --if veth1,nosuch0
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "*"nosuch0"* ]]
	run lnetctl net show
	[ "$output" = "$before" ]
}

@test "net add: the kernel tells a taken interface from a taken NID (EEXIST, EADDRINUSE)" {
	lnetctl net add --net tcp --if veth0
	fails 1 "lnetctl net add: net tcp already has an NI on interface 'veth0'" \
		net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.2@tcp
	fails 1 "lnetctl net add: the address of interface 'veth1' on net tcp is already a NID (of another NI or of a peer)" \
		net add --net tcp --if veth1
	# on another net the same address is another NID
	lnetctl net add --net tcp1 --if veth1
}

@test "net del: errors" {
	lnetctl net add --net tcp --if veth0
	run lnetctl net show
	before=$output
	run lnetctl net del --net tcp5
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net del: "*"tcp5"* ]]
	run lnetctl net del --net tcp --if veth1
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net del: "*"veth1"* ]]
	run lnetctl net del
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net del: missing required option --net" ]
	run lnetctl net show
	[ "$output" = "$before" ]
}

@test "net show --net of a net without NIs is an error; a bad net a usage error" {
	run lnetctl net show --net tcp7
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl net show: no NI in net 'tcp7'" ]
	run lnetctl net show --net 'bad!'
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl net show: invalid --net 'bad!'"* ]]
	run lnetctl net show -v 6
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net show: invalid --verbose '6': expected an integer 0-5" ]
}

@test "net commands before lnet configure fail with a hint" {
	lnetctl lnet unconfigure
	run lnetctl net add --net tcp --if veth0
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net add: "* ]]
	run lnetctl net show
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net show: "* ]]
}

@test "unconfigure removes every net; configure again gives only 0@lo" {
	lnetctl net add --net tcp --if veth0
	lnetctl lnet unconfigure
	run lnetctl lnet unconfigure
	[ "$status" -eq 0 ]
	lnetctl lnet configure
	run lnetctl lnet configure
	[ "$status" -eq 0 ]
	net_show_lo_only
}
