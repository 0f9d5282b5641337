#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The key forms Lustre 2.17 writes (tests/data/lustre/): routing as a full
# export's cpt[N] sequence and as its states 2 and 3, numa: range, this
# node as its own peer (import, discover, ping), pair and router rules
# with a priority, the design document's action list. Each imports, shows
# as expected, exports, and round-trips through a reconfigured LNet; bad
# forms are one line FILE:LINE:COL, exit 1, nothing changed. Also the
# output keys scripts read: stats show and peer show -v.

load helpers
lnet_suite

D=$TOP/tests/data/lustre

# import_bad MESSAGE TEXT: importing TEXT fails with FILE:MESSAGE alone.
import_bad() {
	printf '%s\n' "$2" >"$T/bad.yaml"
	fails 1 "$T/bad.yaml:$1" import "$T/bad.yaml"
}

# self_peer PRIMARY OTHER: `peer show` of this node as its own peer, its
# NIDs 10.11.0.1@tcp and @tcp2 with PRIMARY first.
self_peer() {
	printf 'peer:\n- primary nid: %s\n  Multi-Rail: true\n  peer ni:\n' "$1"
	printf '  - {nid: %s, state: up}\n' "$1" "$2"
}

# self_reply KEY PRIMARY: the ping or discover (KEY) reply of this node.
self_reply() {
	printf '%s:\n- primary nid: %s\n  Multi-Rail: true\n' "$1" "$2"
	printf '  peer_ni: [{nid: 10.11.0.1@tcp}, {nid: 10.11.0.1@tcp2}]\n'
}

# fresh_nets: LNet reconfigured with tcp and tcp2 on veth0, nothing else.
fresh_nets() {
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp2 --if veth0
}

# round_trip: export --backup, reconfigure LNet, import it: the same export.
round_trip() {
	lnetctl export --backup >"$T/a.yaml"
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl import "$T/a.yaml"
	lnetctl export --backup >"$T/b.yaml"
	diff "$T/a.yaml" "$T/b.yaml"
}

@test "routing: a full export's cpt[N] sequence and Lustre's states 2 and 3 import; export writes 0 or 1" {
	# short router timers: a stop is over within a second or two. The
	# monitor that ends it starts with a node's first net.
	lnetctl set alive_router_check_interval 0
	# a drain of 8 s: long enough for the calls below even in a VM
	lnetctl set router_ping_timeout 8
	lnetctl net add --net tcp --if veth0
	lnetctl import "$D/routing-full.yaml"
	run lnetctl routing show
	routing_is 'routing: {enable: 1}
buffers: {tiny: 512, small: 4096, large: 256}'
	round_trip
	# stopping (2) is off, starting (3) is on; routing show says 1 while
	# it stops (it still forwards), the backup says what was asked for
	lnetctl import "$D/routing-stopping.yaml"
	run lnetctl routing show
	routing_is 'routing: {enable: 1}
buffers: {tiny: 1024, small: 8192, large: 512}'
	run lnetctl export --backup
	[ "$(yaml_get "[d.get('routing'), d['buffers']]")" = "[None, {'tiny': 1024, 'small': 8192, 'large': 512}]" ]
	printf 'routing:\n    enable: 3\n' >"$T/starting.yaml"
	run --separate-stderr lnetctl import "$T/starting.yaml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$T/starting.yaml:2:5: cannot enable routing while it is being stopped (routing state 'stopping'): try again once it is disabled" ] ||
		{ echo "$stderr"; return 1; }
	for _ in $(seq 200); do
		run lnetctl routing show
		[ "$(yaml_get "d['routing'][-1]['enable']")" = 0 ] && break
		sleep 0.1
	done
	lnetctl import "$T/starting.yaml"
	run lnetctl export --backup
	[ "$(yaml_get "[d['routing'], d['buffers']]")" = "[{'enable': 1}, {'tiny': 1024, 'small': 8192, 'large': 512}]" ]
	# pools alone, no enable item: routing stays as it is
	sed '/- enable:/d' "$D/routing-full.yaml" >"$T/pools.yaml"
	lnetctl import "$T/pools.yaml"
	run lnetctl routing show
	routing_is 'routing: {enable: 1}
buffers: {tiny: 512, small: 4096, large: 256}'
}

@test "routing: bad sequence items and states fail with FILE:LINE:COL, nothing changed" {
	import_bad "2:13: invalid enable '4': expected an integer 0-3" 'routing:
    enable: 4'
	import_bad "2:7: a routing item is 'cpt[N]: {tiny, small, large}' or 'enable: N'" 'routing:
    - cpu[0]: {tiny: {npages: 0}}'
	import_bad "2:7: a routing item is 'cpt[N]: {tiny, small, large}' or 'enable: N'" 'routing:
    - enable: 1
      cpt[0]: {}'
	import_bad "2:16: unknown key 'huge' in cpt[0]: expected 'tiny', 'small', 'large'" 'routing:
    - cpt[0]: {huge: {npages: 0}}'
	import_bad "2:23: unknown key 'pages' in tiny: expected 'npages', 'nbuffers', 'credits', 'mincredits'" 'routing:
    - cpt[0]: {tiny: {pages: 0}}'
	import_bad "3:15: routing: 'enable' given twice" 'routing:
    - enable: 1
    - enable: 0'
}

@test "numa: range sets numa_range, exported under global; disagreeing with global fails" {
	lnetctl import "$D/numa.yaml"
	run lnetctl global show
	[ "$(yaml_get "d['global']['numa_range']")" = 2 ]
	run lnetctl export --backup
	yaml_is 'global: {numa_range: 2}'
	round_trip
	printf 'numa:\n    range: 5\nglobal:\n    numa_range: 5\n' >"$T/both.yaml"
	lnetctl import "$T/both.yaml"
	run lnetctl global show
	[ "$(yaml_get "d['global']['numa_range']")" = 5 ]
	import_bad "2:15: numa range 3 differs from global numa_range 4" 'global: {numa_range: 4}
numa: {range: 3}'
	import_bad "4:17: global numa_range 4 differs from numa range 3" 'numa:
    range: 3
global:
    numa_range: 4'
	import_bad "2:12: invalid range 'x': expected an integer 0-2147483647" 'numa:
    range: x'
	import_bad "2:5: unknown key 'ranges' in numa: expected 'range'" 'numa:
    ranges: 1'
}

@test "udsp: pair and router rules with a priority (2.17) and the design document's action list import" {
	lnetctl net add --net tcp --if veth0
	lnetctl import "$D/udsp-2.17.yaml"
	# pair and router rules are preferred-NID rules: no priority
	want='udsp:
- {idx: 0, dst: "10.11.0.[1-100]@tcp", action: {priority: 2}}
- {idx: 1, src: tcp, action: {priority: 1}}
- {idx: 2, src: 10.11.0.1@tcp, dst: 10.11.0.2@tcp}
- {idx: 3, dst: 10.11.0.2@tcp, rte: 10.11.0.3@tcp}'
	run lnetctl udsp show
	yaml_is "$want"
	round_trip
	run lnetctl udsp show
	yaml_is "$want"
	lnetctl udsp del --all
	lnetctl import "$D/udsp-design.yaml"
	run lnetctl udsp show
	yaml_is 'udsp:
- {idx: 0, src: tcp, action: {priority: 3}}
- {idx: 1, dst: 10.11.0.2@tcp, action: {priority: 0}}'
	import_bad "5:23: priority given twice: in two 'action' items" 'udsp:
    - src: tcp2
      action:
          - priority: 3
          - priority: 4'
	import_bad "4:13: unknown key 'prio' in action: expected 'priority'" 'udsp:
    - src: tcp2
      action:
          - prio: 3'
	import_bad "4:13: 'action' must be a mapping, not a scalar" 'udsp:
    - src: tcp2
      action:
          - 3'
}

@test "self as a peer: an export's own-NID peer imports; discover and ping of an own NID make it" {
	lnetctl import "$D/self-peer.yaml"
	want=$(self_peer 10.11.0.1@tcp 10.11.0.1@tcp2)
	run lnetctl peer show
	yaml_is "$want"
	round_trip
	run lnetctl peer show
	yaml_is "$want"
	# its NIDs stay this node's: a net deleted can be added again
	lnetctl net del --net tcp2
	lnetctl net add --net tcp2 --if veth0
	run lnetctl peer show
	yaml_is "$want"
	# the node as its own peer takes only its own NIDs, no other peer any
	fails 1 "lnetctl peer add: NID 10.11.0.9@tcp2 is not one of this node's own NIDs: peer 10.11.0.1@tcp is this node" \
		peer add --prim_nid 10.11.0.1@tcp --nid 10.11.0.9@tcp2
	fails 1 "lnetctl peer add: NID 10.11.0.1@tcp2 is one of this node's own NIDs, not a peer's" \
		peer add --prim_nid 10.11.0.9@tcp --nid 10.11.0.1@tcp2
	# discover makes it, with every NID of this node; ping too
	lnetctl peer del --prim_nid 10.11.0.1@tcp
	run lnetctl discover 10.11.0.1@tcp2
	yaml_is "$(self_reply discover 10.11.0.1@tcp2)"
	run lnetctl peer show
	yaml_is "$(self_peer 10.11.0.1@tcp2 10.11.0.1@tcp)"
	lnetctl peer del --prim_nid 10.11.0.1@tcp2
	run lnetctl ping 10.11.0.1@tcp
	yaml_is "$(self_reply ping 10.11.0.1@tcp)"
	run lnetctl peer show
	yaml_is "$want"
	# 0@lo makes no peer
	lnetctl peer del --prim_nid 10.11.0.1@tcp
	lnetctl ping 0@lo
	run lnetctl peer show
	[ "$output" = "" ]
}

@test "self as a peer: the UDSP rules' values show on its peer NIs" {
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp2 --if veth0
	lnetctl udsp add --dst 10.11.0.1@tcp2 --priority 3
	lnetctl udsp add --dst tcp --priority 5
	lnetctl discover 10.11.0.1@tcp
	run lnetctl peer show -v 4 --nid 10.11.0.1@tcp
	[ "$(yaml_get "[(n['nid'], n['udsp info']['net priority'], n['udsp info']['nid priority']) for n in d['peer'][0]['peer ni']]")" = \
		"[('10.11.0.1@tcp', 5, -1), ('10.11.0.1@tcp2', -1, 3)]" ]
}

@test "stats show has rst_alloc, route_count, route_length; peer show -v the router credits and refcount" {
	lnetctl net add --net tcp --if veth0 --peer-credits 16 --peer-buffer-credits 4
	lnetctl net add --net tcp1 --if veth1
	lnetctl peer add --prim_nid 10.11.0.9@tcp --nid 10.11.0.9@tcp1
	run lnetctl stats show
	[ "$(yaml_get "[d['statistics'][k] for k in ('rst_alloc', 'route_count', 'route_length')]")" = "[0, 0, 0]" ]
	[ "$(yaml_get "list(d['statistics'])[:3]")" = "['msgs_alloc', 'msgs_max', 'rst_alloc']" ]
	[ "$(yaml_get "list(d['statistics'])[19:26]")" = \
		"['recv_count', 'route_count', 'drop_count', 'send_length', 'recv_length', 'route_length', 'drop_length']" ]
	run lnetctl peer show -v
	# peer_buffer_credits, else peer_credits (tcp1: 8)
	[ "$(yaml_get "[(n['available_rtr_credits'], n['min_rtr_credits'], n['refcount']) for n in d['peer'][0]['peer ni']]")" = \
		"[(4, 4, 1), (8, 8, 1)]" ]
	[ "$(yaml_get "list(d['peer'][0]['peer ni'][0])[:9]")" = \
		"['nid', 'state', 'max_ni_tx_credits', 'available_tx_credits', 'min_tx_credits', 'tx_q_num_of_buf', 'available_rtr_credits', 'min_rtr_credits', 'refcount']" ]
	run lnetctl peer show
	[ "$(yaml_get "sorted(d['peer'][0]['peer ni'][0])")" = "['nid', 'state']" ]
}

# convert_gives STATUS STDOUT STDERR ARGS...: `lnetctl convert ARGS` exits
# STATUS and prints exactly STDOUT and STDERR.
convert_gives() {
	local want_status=$1 want_out=$2 want_err=$3
	shift 3
	run --separate-stderr lnetctl convert "$@"
	[ "$status" -eq "$want_status" ] || { echo "status $status: $stderr"; return 1; }
	[ "$stderr" = "$want_err" ] || { echo "got: $stderr"; return 1; }
	[ "$output" = "$want_out" ] || { echo "got: $output"; return 1; }
}

# bats test_tags=parse-only
@test "convert: networks=, ip2nets= and routes= strings print as net, ip2nets and route" {
	convert_gives 0 'net:
-   net type: tcp
    local NI(s):
    -   interfaces:
            0: eth0
            1: eth1
-   net type: o2ib
    local NI(s):
    -   interfaces:
            0: ib0
        CPT: '"'"'[0,1]'"'"'
-   net type: o2ib2
route:
-   net: o2ib
    gateway: 10.0.0.[1-2]@tcp
    hop: 2
    priority: 1
-   net: o2ib
    gateway: 10.0.0.5@tcp
    hop: 2
    priority: 0
-   net: tcp1
    gateway: 10.1.0.1@o2ib
    hop: -1
    priority: 0' "" --networks 'tcp0(eth0,eth1), o2ib(ib0)[0,1],o2ib2' \
		--routes 'o2ib 2 10.0.0.[1-2]@tcp:1 10.0.0.5@tcp # two gateways
tcp1 10.1.0.1@o2ib;'
	convert_gives 0 'ip2nets:
-   net-spec: tcp
    interfaces:
        0: eth0
    ip-range:
        0: 192.168.0.*
        1: 10.0.[1-3].[2-20/2]
-   net-spec: o2ib1
    ip-range:
        0: 10.1.*.*' "" -i 'tcp(eth0) 192.168.0.* 10.0.[1-3].[2-20/2]; o2ib1 10.1.*.* # IB'
}

# bats test_tags=parse-only
@test "convert: a tcp net without interfaces gets the node's first one up with IPv4, as the module's" {
	# in the test's namespace veth0 and veth1 are up with IPv4 addresses;
	# the first in the kernel's order (ifindex, as `ip addr` lists them)
	local first second
	first=$(ip -n "$NS" -o -4 addr show up | awk '$2 != "lo" { print $2 }' | head -n 1)
	second=$([ "$first" = veth0 ] && echo veth1 || echo veth0)
	run --separate-stderr ip netns exec "$NS" "$LNETCTL_BIN" convert --networks tcp,tcp1
	[ "$status" -eq 0 ] && [ "$stderr" = "" ]
	yaml_is "net:
- {net type: tcp, local NI(s): [{interfaces: {0: $first}}]}
- {net type: tcp1, local NI(s): [{interfaces: {0: $first}}]}"
	ip -n "$NS" link set "$first" down
	run --separate-stderr ip netns exec "$NS" "$LNETCTL_BIN" convert --networks tcp
	yaml_is "net:
- {net type: tcp, local NI(s): [{interfaces: {0: $second}}]}"
	ip -n "$NS" link set "$second" down
	run --separate-stderr ip netns exec "$NS" "$LNETCTL_BIN" convert --networks 'o2ib(ib0),tcp'
	[ "$status" -eq 1 ] && [ "$output" = "" ]
	[ "$stderr" = "lnetctl convert: networks: tcp names no interface, and this node has none up with an IPv4 address (besides loopback): name one, e.g. tcp(eth0)" ]
}

# bats test_tags=parse-only
@test "convert: malformed strings name the parameter and the part; nothing printed, exit 1" {
	while IFS='|' read -r opt value msg; do
		convert_gives 1 "" "lnetctl convert: $msg" "$opt" "$value" || { echo "$opt $value"; return 1; }
	done <<'EOF_CASES'
--networks|tcp0(eth0|networks: in 'tcp0(eth0': '(' without ')': expected NET(IF[,IF...])
--networks|tcp(eth0)x|networks: in 'tcp(eth0)x': 'x' after ')': expected only a CPT list [N,...]
--networks|tcp[a]|networks: in 'tcp[a]': bad CPT list '[a]': expected [N,...] or [N-M]
--networks|tcp,,o2ib|networks: an empty item: expected NET[(IF,...)][CPT-LIST], comma-separated
--networks|tcpx(eth0)|networks: in 'tcpx(eth0)': invalid net 'tcpx': unknown LND 'tcpx': expected tcp, o2ib, efa, gni, ptlf, kfi or lo
--ip2nets|tcp|ip2nets: in 'tcp': expected NET[(IF,...)] and at least one address range
--ip2nets|tcp 10.0.0.x|ip2nets: in 'tcp 10.0.0.x': invalid address range '10.0.0.x': expected an IP address expression (10.0.0.*, 10.0.[1-3].[2-20/2])
--routes|o2ib|routes: in 'o2ib': expected NET [HOPS] GATEWAY[:PRIORITY]...
--routes|o2ib 0 10.0.0.1@tcp|routes: in 'o2ib 0 10.0.0.1@tcp': invalid hop '0': expected an integer 1-255
--routes|o2ib 2|routes: in 'o2ib 2': no gateway after the hop count
--routes|o2ib 10.0.0.1@tcp:x|routes: in 'o2ib 10.0.0.1@tcp:x': invalid priority 'x': expected an integer 0-2147483647
--routes|o2ib 10.0.0.999@tcp|routes: in 'o2ib 10.0.0.999@tcp': invalid gateway '10.0.0.999@tcp': octet '999' is out of range 0-255
--routes| ; # none|routes: no entry: the string is empty
--routes|o2ib 10.0.0.[1-2]@tcp; o2ib 2 10.0.0.2@tcp|routes: in 'o2ib 2 10.0.0.2@tcp': the route to o2ib through 10.0.0.2@tcp is given twice
--networks| # none|networks: no net: the string is empty
--networks|tcp(eth0[0],eth1[1])|networks: in 'tcp(eth0[0],eth1[1])': an interface with a CPT list (eth0[0]) or a '(': expected NET(IF[,IF...])[CPT-LIST]
EOF_CASES
	convert_gives 1 "" "lnetctl convert: networks and ip2nets both given: the lnet module takes one or the other" \
		--networks tcp --ip2nets 'tcp 10.*.*.*'
	convert_gives 2 "" "lnetctl convert: a FILE or --networks/--ip2nets/--routes, not both" \
		--networks tcp "$T/x.conf"
}

@test "convert: a modprobe.d file's options lnet lines; the result imports" {
	cat >"$T/lustre.conf" <<'EOF_CONF'
# LNet of this node
options ksocklnd credits=256
options lnet networks="tcp(veth0),tcp1(veth1)" \
	routes='o2ib 2 10.11.0.9@tcp:3' forwarding=enabled
EOF_CONF
	want='net:
-   net type: tcp
    local NI(s):
    -   interfaces:
            0: veth0
-   net type: tcp1
    local NI(s):
    -   interfaces:
            0: veth1
route:
-   net: o2ib
    gateway: 10.11.0.9@tcp
    hop: 2
    priority: 3'
	convert_gives 0 "$want" "" "$T/lustre.conf"
	run lnetctl convert <"$T/lustre.conf"
	[ "$output" = "$want" ]
	lnetctl convert "$T/lustre.conf" | lnetctl import
	run lnetctl route show -v
	[ "$(yaml_get "[(r['net'], r['gateway'], r['hop'], r['priority']) for r in d['route']]")" = \
		"[('o2ib', '10.11.0.9@tcp', 2, 3)]" ]
	run lnetctl net show
	[ "$(yaml_get "[n['local NI(s)'][0]['nid'] for n in d['net']]")" = "['0@lo', '10.11.0.1@tcp', '10.11.0.2@tcp1']" ]
	printf 'options lnet networks="tcp(veth0)\n' >"$T/bad.conf"
	convert_gives 1 "" "lnetctl convert: $T/bad.conf: line 1: unterminated quote in 'networks=tcp(veth0)'" "$T/bad.conf"
	printf 'options lnet routes="o2ib 1.2.3.4@tcp"\noptions lnet routes="o2ib 1.2.3.5@tcp"\n' >"$T/twice.conf"
	convert_gives 1 "" "lnetctl convert: $T/twice.conf: line 2: routes= given twice" "$T/twice.conf"
	printf 'options lnet forwarding=enabled\n' >"$T/none.conf"
	convert_gives 1 "" "lnetctl convert: nothing to convert: no networks, ip2nets or routes" "$T/none.conf"
	convert_gives 1 "" "lnetctl convert: cannot open '$T/absent.conf': No such file or directory" "$T/absent.conf"
}

# stock_validate FILE...: each FILE, as yaml.safe_load reads it (integer
# keys stay integers), with the sections of this suite only (net and
# global are checked with their own keys elsewhere), against
# lnet.schema.yaml with python3-jsonschema's own validator; "FILE: ok" each.
stock_validate() {
	/usr/bin/python3 - "$TOP/yaml-schemas" "$@" <<'EOF_PY'
import os, sys, warnings, yaml, jsonschema
warnings.simplefilter("ignore", DeprecationWarning)
d = sys.argv[1]
store = {}
for name in ("defs.schema.yaml", "lnet.schema.yaml"):
    with open(os.path.join(d, name)) as f:
        store[name] = yaml.safe_load(f)
top = store["lnet.schema.yaml"]
resolver = jsonschema.RefResolver("lnet.schema.yaml", top, store=store)
v = jsonschema.Draft202012Validator(top, resolver=resolver)
for path in sorted(sys.argv[2:]):
    with open(path) as f:
        doc = yaml.safe_load(f)
    doc = {k: doc[k] for k in doc if k not in ("net", "global")}
    errs = [e.message for e in v.iter_errors(doc)]
    print("%s: %s" % (os.path.basename(path), "; ".join(errs) if errs else "ok"))
EOF_PY
}

# bats test_tags=parse-only
@test "schema: Lustre's real exports and this suite's files validate with a stock validator" {
	run stock_validate "$D"/*.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "R02-backup.yaml: ok
R07-backup.yaml: ok
R20-export.yaml: ok
R21-backup.yaml: ok
numa.yaml: ok
routing-full.yaml: ok
routing-stopping.yaml: ok
self-peer.yaml: ok
udsp-2.17.yaml: ok
udsp-design.yaml: ok" ]
	# and a wrong value is found
	printf 'routing:\n    - enable: 5\n' >"$T/bad.yaml"
	run stock_validate "$T/bad.yaml"
	[[ "$output" == "bad.yaml: "*"is not valid under any of the given schemas" ]]
}

@test "Lustre's real exports: their peer, route, routing, buffers and udsp sections import; R21 round-trips" {
	local f
	for f in R02-backup R07-backup R20-export R21-backup; do
		# this node's address and interface for theirs; its nets for theirs
		# (the net and global keys of 2.17 are another suite's)
		sed 's/10\.0\.2\.15/10.11.0.1/g; s/10\.0\.2\./10.11.0./g' "$D/$f.yaml" |
			/usr/bin/python3 -c 'import sys, yaml
d = yaml.safe_load(sys.stdin)
for k in ("net", "global"):
    d.pop(k, None)
print(yaml.safe_dump(d, sort_keys=False), end="")' >"$T/$f.yaml"
		fresh_nets
		run lnetctl import "$T/$f.yaml"
		[ "$status" -eq 0 ] || { echo "$f: $output"; return 1; }
	done
	# R21: peers and every rule shape (a short loop above: slow on the VM)
	round_trip
	run lnetctl peer show
	[ "$(yaml_get "d['peer'][0]['primary nid']")" = "10.11.0.2@tcp" ]
	# R07: this node as its own peer, as Lustre exported it
	fresh_nets
	lnetctl import "$T/R07-backup.yaml"
	run lnetctl peer show
	yaml_is "$(self_peer 10.11.0.1@tcp 10.11.0.1@tcp2)"
}
