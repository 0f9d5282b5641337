#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The commands and options of Lustre 2.17 that came with issue 11: net set
# and peer set --health, net del --nid, lnet configure --all|--large,
# version, list-commands, cpt-of-nid, debug recovery, debug peer.

load helpers
lnet_suite

# health KIND: the health value of each NI of `KIND show -v 2`, "nid=value" in order.
health() {
	run lnetctl "$1" show -v 2
	if [ "$1" = net ]; then
		yaml_get "' '.join('%s=%s' % (n['nid'], n['health stats']['health value']) for e in d['net'] for n in e['local NI(s)'] if n['nid'] != '0@lo')"
	else
		yaml_get "' '.join('%s=%s' % (n['nid'], n['health stats']['health value']) for p in d['peer'] for n in p['peer ni'])"
	fi
}

# sets KIND WANT ARGS...: `lnetctl KIND set ARGS` leaves the health values WANT (see health).
sets() {
	lnetctl "$1" set "${@:3}"
	[ "$(health "$1")" = "$2" ] || { echo "$1 set ${*:3}: $(health "$1")"; return 1; }
}

@test "net set --health: one NI (--nid), every NI (--all or no --nid); 1000 ends the recovery" {
	# no recovery ping brings an NI back during the test
	lnetctl set recovery_interval 3600
	lnetctl net add --net tcp --if veth0,veth1
	sets net "10.11.0.1@tcp=0 10.11.0.2@tcp=1000" --nid 10.11.0.1@tcp --health 0
	sets net "10.11.0.1@tcp=500 10.11.0.2@tcp=500" --all --health 500
	# Lustre's scripts put NIs back without --nid or --all
	sets net "10.11.0.1@tcp=1000 10.11.0.2@tcp=1000" --health 1000
	sets net "10.11.0.1@tcp=1000 10.11.0.2@tcp=16" -n 10.11.0.2 -t 0x10
}

# lnd: "nid=conns_per_peer/timeout/tos" of each tcp NI of `net show -v`, in order.
lnd() {
	run lnetctl net show -v
	yaml_get "' '.join('%s=%s/%s/%s' % (n['nid'], t['conns_per_peer'], t['timeout'], t['tos']) for e in d['net'] for n in e['local NI(s)'] for t in [n.get('lnd tunables')] if t)"
}

# lnd_sets WANT ARGS...: `lnetctl net set ARGS` leaves the LND tunables WANT (see lnd).
lnd_sets() {
	lnetctl net set "${@:2}"
	[ "$(lnd)" = "$1" ] || { echo "net set ${*:2}: $(lnd)"; return 1; }
}

@test "net set --conns-per-peer, --lnd-timeout, --tos: in place on one NI (--nid), a net's (--net) or every tcp NI" {
	lnetctl net add --net tcp --if veth0,veth1
	lnetctl net add --net tcp1 --if veth0
	lnd_sets "10.11.0.1@tcp=4/49/-1 10.11.0.2@tcp=2/49/-1 10.11.0.1@tcp1=2/49/-1" \
		--nid 10.11.0.1@tcp --conns-per-peer 4
	# Lustre's letters and number forms: -i NET, -l, 0x1e is 30
	lnd_sets "10.11.0.1@tcp=4/30/-1 10.11.0.2@tcp=4/30/-1 10.11.0.1@tcp1=2/49/-1" \
		-i tcp -l 0x1e -m 4
	lnd_sets "10.11.0.1@tcp=4/30/8 10.11.0.2@tcp=4/30/8 10.11.0.1@tcp1=2/49/8" --tos 010
	# -1: the default again (the timeout follows the global lnd_timeout); 0 conns: the LND chooses by link speed, 2 on a veth (10 Gb/s)
	lnd_sets "10.11.0.1@tcp=4/30/8 10.11.0.2@tcp=4/49/8 10.11.0.1@tcp1=2/49/8" \
		--nid 10.11.0.2@tcp --lnd-timeout -1
	lnd_sets "10.11.0.1@tcp=2/30/8 10.11.0.2@tcp=4/49/8 10.11.0.1@tcp1=2/49/8" \
		-n 10.11.0.1@tcp --conns-per-peer 0
	lnetctl set transaction_timeout 40
	[ "$(lnd)" = "10.11.0.1@tcp=2/30/8 10.11.0.2@tcp=4/13/8 10.11.0.1@tcp1=2/13/8" ]
	# with --health, on the same NI
	lnetctl set recovery_interval 3600
	lnd_sets "10.11.0.1@tcp=2/30/8 10.11.0.2@tcp=4/5/8 10.11.0.1@tcp1=2/13/8" \
		--nid 10.11.0.2@tcp --lnd-timeout 5 --health 0
	[ "$(health net)" = "10.11.0.1@tcp=1000 10.11.0.2@tcp=0 10.11.0.1@tcp1=1000" ]
}

@test "peer set --health: one peer NI (--nid), every peer NI (--all or no --nid)" {
	lnetctl set recovery_interval 3600
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	lnetctl peer add --prim_nid 10.11.0.9@tcp
	sets peer "10.11.0.7@tcp=1000 10.11.0.8@tcp=0 10.11.0.9@tcp=1000" --nid 10.11.0.8@tcp --health 0
	sets peer "10.11.0.7@tcp=500 10.11.0.8@tcp=500 10.11.0.9@tcp=500" --all --health 500
	sets peer "10.11.0.7@tcp=1000 10.11.0.8@tcp=1000 10.11.0.9@tcp=1000" --health 01750
}

@test "net set, peer set: bad input is one line naming it, exit 2 (1 for an NI that is not there), nothing changes" {
	lnetctl net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.7@tcp
	fails 2 "lnetctl net set: invalid --health '1001': expected an integer 0-1000" \
		net set --health 1001
	fails 2 "lnetctl peer set: invalid --nid '10.11.0.300@tcp': octet '300' is out of range 0-255" \
		peer set --nid 10.11.0.300@tcp --health 0
	fails 1 "lnetctl net set: cannot set the health of local NI 10.11.0.9@tcp: not a NID of this node (0@lo included)" \
		net set --nid 10.11.0.9@tcp --health 0
	fails 1 "lnetctl net set: cannot set the health of local NI 0@lo: not a NID of this node (0@lo included)" \
		net set --nid 0@lo --health 0
	fails 1 "lnetctl peer set: cannot set the health of peer NI 10.11.0.8@tcp: no peer has this NID" \
		peer set --nid 10.11.0.8@tcp --health 0
	# LND tunables: refused before the health changes, on every NI named or none
	lnetctl net add --net o2ib --if veth1
	fails 1 "lnetctl net set: net o2ib takes no LND tunables: only tcp nets have an LND here" \
		net set --net o2ib --tos 1
	fails 1 "lnetctl net set: cannot change the LND tunables of NI 10.11.0.9@tcp: not a NID of this node" \
		net set --nid 10.11.0.9@tcp --tos 1 --health 0
	fails 1 "lnetctl net set: cannot change the LND tunables of the NIs of net tcp5: the net has no NI" \
		net set --net tcp5 --lnd-timeout 9
}

# bats test_tags=parse-only
@test "net set: bad options are one line naming them, exit 2" {
	while IFS='|' read -r msg args; do
		read -ra argv <<<"$args"
		run --separate-stderr lnetctl net set "${argv[@]}"
		[ "$status" -eq 2 ] && [ "$output" = "" ] &&
			[ "$stderr" = "lnetctl net set: $msg" ] || { echo "$args: $status $stderr"; return 1; }
	done <<'EOF'
missing option: --health, --conns-per-peer, --lnd-timeout or --tos|--nid 10.11.0.1@tcp
invalid --health '-1': expected an integer 0-1000|--health=-1
--nid, --net and --all: give one (without any: every NI)|--nid 10.11.0.1@tcp --all --health 0
--nid, --net and --all: give one (without any: every NI)|-i tcp --all --tos 1
--net selects the NIs of the LND tunables: --health takes --nid or none (every NI)|--net tcp --health 0 --tos 1
invalid --conns-per-peer '128': expected an integer 0-127|--conns-per-peer 128
invalid --lnd-timeout '0': expected an integer 1-86400|-l 0
invalid --tos '0x100': expected an integer -1-255|--tos 0x100
invalid --tos '-2': expected an integer -1-255|--tos=-2
invalid --net 'tcp!': trailing junk '!' after net 'tcp'|--net tcp! --tos 1
EOF
}

@test "net del --nid: the NIs of those NIDs only; --net may be left out" {
	lnetctl net add --net tcp --if veth0,veth1
	lnetctl net add --net tcp1 --if veth0
	lnetctl net del --nid 10.11.0.2@tcp
	run lnetctl net show
	yaml_is 'net:
- net type: lo
  local NI(s):
  - {nid: 0@lo, status: up}
- net type: tcp
  local NI(s):
  - {nid: 10.11.0.1@tcp, status: up, interfaces: {0: veth0}}
- net type: tcp1
  local NI(s):
  - {nid: 10.11.0.1@tcp1, status: up, interfaces: {0: veth0}}'
	lnetctl net del --net tcp1 --nid 10.11.0.1@tcp1
	lnetctl net del --nid 10.11.0.1
	net_show_lo_only
}

@test "net del --nid: bad input is one line naming it, nothing changes" {
	lnetctl net add --net tcp --if veth0,veth1
	lnetctl net add --net tcp1 --if veth0
	fails 1 "lnetctl net del: cannot delete NI 10.11.0.9@tcp: not a NID of this node" \
		net del --nid 10.11.0.1@tcp,10.11.0.9@tcp
	fails 2 "lnetctl net del: invalid --nid '10.11.0.1@tcp,10.11.0.1@tcp1': NIDs of net tcp1, not only of tcp" \
		net del --nid 10.11.0.1@tcp,10.11.0.1@tcp1
	fails 2 "lnetctl net del: invalid --nid '10.11.0.1@tcp': NIDs of net tcp, not only of tcp1 (--net)" \
		net del --net tcp1 --nid 10.11.0.1@tcp
	fails 2 "lnetctl net del: --if and --nid: give one (each names the NIs to delete)" \
		net del --net tcp --if veth0 --nid 10.11.0.1@tcp
	fails 1 "lnetctl net del: net lo cannot be deleted: 'lnetctl lnet unconfigure' removes 0@lo" \
		net del --nid 0@lo
}

@test "lnet configure --all --large (-a -l, as sanity-lnet runs it): LNet up as without them" {
	lnetctl lnet unconfigure
	lnetctl lnet configure -a -l
	net_show_lo_only
	lnetctl lnet configure --all --large
	net_show_lo_only
	fails 2 "lnetctl lnet configure: option --all takes no value" lnet configure --all=1
}

# bats test_tags=parse-only
@test "version and --version; list-commands and --list-commands: Lustre's four columns of 20" {
	run --separate-stderr lnetctl version
	[ "$status" -eq 0 ]
	[[ $output == "lnetctl "[0-9]*" (ioctl ABI "* ]]
	[ "$output" = "$(lnetctl --version)" ]
	run --separate-stderr lnetctl --list-commands
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "lnet                net                 peer                policy
udsp                route               routing             set
global              stats               ping                discover
selftest            debug               fault               cpt-of-nid
import              export              convert             help
version             list-commands       " ]
	[ "$output" = "$(lnetctl list-commands)" ]
	run --separate-stderr lnetctl --list-commands net
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl: --list-commands takes no command ('net')" ]
	run --separate-stderr lnetctl version 1
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl version: unexpected argument '1'" ]
}

# bats test_tags=parse-only
@test "cpt-of-nid: every NID (ranges expanded, @tcp by default) in CPT 0; a bad NID is a usage error" {
	run --separate-stderr lnetctl cpt-of-nid 10.11.0.[1-2] 5@gni
	[ "$status" -eq 0 ]
	[ "$output" = "cpt-of-nid:
- nid: 10.11.0.1@tcp
  cpt: 0
- nid: 10.11.0.2@tcp
  cpt: 0
- nid: 5@gni
  cpt: 0" ]
	run --separate-stderr lnetctl cpt-of-nid 10.11.0.1@tcp 10.11.0.256@tcp
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl cpt-of-nid: invalid NID '10.11.0.256@tcp': octet '256' is out of range 0-255" ]
	run --separate-stderr lnetctl cpt-of-nid
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl cpt-of-nid: missing argument NID [NID...]" ]
}

@test "debug recovery --local|--peer: the NIs below health 1000, Lustre's keys; none: no output" {
	lnetctl set recovery_interval 3600
	lnetctl net add --net tcp --if veth0,veth1
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	run --separate-stderr lnetctl debug recovery --local --peer
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	lnetctl net set --nid 10.11.0.2@tcp --health 10
	lnetctl peer set --health 999
	run --separate-stderr lnetctl debug recovery --local
	[ "$status" -eq 0 ]
	[ "$output" = "Local NI recovery:
      nid-0: 10.11.0.2@tcp" ]
	run --separate-stderr lnetctl debug recovery -p
	[ "$output" = "Peer NI recovery:
      nid-0: 10.11.0.7@tcp
      nid-1: 10.11.0.8@tcp" ]
	# (not `fails`: NIs in recovery change their counters between two states)
	run --separate-stderr lnetctl debug recovery
	[ "$status" -eq 2 ] && [ "$output" = "" ]
	[ "$stderr" = "lnetctl debug recovery: missing option: --local, --peer or both" ]
	lnetctl lnet unconfigure
	run --separate-stderr lnetctl debug recovery --local
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl debug recovery: LNet is not configured (run 'lnetctl lnet configure')" ]
}

@test "debug peer --nid: the peer in full, as peer show -v 5" {
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	run --separate-stderr lnetctl debug peer --nid 10.11.0.8
	[ "$status" -eq 0 ]
	[ "$output" = "$(lnetctl peer show --nid 10.11.0.7@tcp -v 5)" ]
	[[ $output == *"primary nid: 10.11.0.7@tcp"* ]]
	fails 2 "lnetctl debug peer: missing required option --nid" debug peer
	run --separate-stderr lnetctl debug peer --nid 10.11.0.9@tcp
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "$(lnetctl peer show --nid 10.11.0.9@tcp 2>&1 >/dev/null | sed 's/peer show/debug peer/')" ]
}

@test "NID expressions take IPv4 CIDR as Lustre does: the rule holds the same octet ranges" {
	lnetctl policy add --dst 10.11.0.0/24@tcp --priority 1
	printf 'udsp:\n- src: 10.11.16.9/20@tcp1\n  action: {priority: 2}\n' | lnetctl import
	run lnetctl policy show
	[ "$(yaml_get "[(r.get('src'), r.get('dst')) for r in d['udsp']]")" = "[(None, '10.11.0.*@tcp'), ('10.11.[16-31].*@tcp1', None)]" ]
	fails 2 "lnetctl policy add: invalid --dst '10.11.0.0/33@tcp': an IPv4 CIDR is four octets 0-255, '/' and a prefix length 0-32, e.g. '10.0.0.0/24@tcp'" \
		policy add --dst 10.11.0.0/33@tcp
	run --separate-stderr lnetctl debug nidlist 192.168.1.130/25@o2ib 192.168.1.200@o2ib
	[ "$status" -eq 0 ]
	[ "$output" = "192.168.1.[128-255]@o2ib
192.168.1.200@o2ib: match" ]
}

@test "peer set --state: a peer's state bits as Lustre numbers them; bit 20 locks the primary NID" {
	lnetctl set recovery_interval 3600
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	run lnetctl peer show -v 3
	[ "$(yaml_get "d['peer'][0]['peer state']")" = 8 ]
	# by any NID of the peer; 0x111 = multi-rail, discovered, NIDs up to date
	lnetctl peer set --nid 10.11.0.8@tcp --state 0x111
	run lnetctl peer show -v 3
	[ "$(yaml_get "d['peer'][0]['peer state']")" = 273 ]
	# locked: deleting it needs --force
	lnetctl peer set --nid 10.11.0.7 --state 1048577 --health 500
	[ "$(health peer)" = "10.11.0.7@tcp=500 10.11.0.8@tcp=1000" ]
	run --separate-stderr lnetctl peer del --prim_nid 10.11.0.7@tcp
	[ "$status" -eq 1 ]
	lnetctl peer set --nid 10.11.0.7 --state 1
	lnetctl peer del --prim_nid 10.11.0.7@tcp
	fails 2 "lnetctl peer set: invalid --state '4': bits 0x4 are not state bits a peer keeps (settable: 0x100119)" \
		peer set --nid 10.11.0.9@tcp --state 4
	fails 2 "lnetctl peer set: --state needs --nid: it sets one peer's state" peer set --state 1
	fails 2 "lnetctl peer set: missing option: --health, --state or both" peer set --nid 10.11.0.9@tcp
	fails 1 "lnetctl peer set: cannot set the state of peer 10.11.0.9@tcp: no peer has this NID" \
		peer set --nid 10.11.0.9@tcp --state 1
}
