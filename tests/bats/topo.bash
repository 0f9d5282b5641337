# SPDX-License-Identifier: GPL-2.0-only
# Multi-node topologies for the bats suites (and scripts): each node is a
# network namespace with its own lnetd (own socket, log and pidfile in one
# temp dir), joined by veth links or a bridge. Load after helpers.bash.
# With LNET_TRANSPORT=dev (the test VM) a node is a namespace and the lnet
# module's instance of that namespace: no lnetd, lnetctl runs inside the
# namespace on /dev/lnet (LNET_NETNS, tests/kernel/lnetctl-netns). The
# nodes listed in TOPO_LNETD_NODES (e.g. "1") keep an lnetd all the same:
# mixed topologies, an lnetd node talking to lnet.ko nodes.
#
#   topo_init              temp dir $TD (also $T, for yaml_is); outside bats,
#                          a trap runs topo_teardown on exit
#   topo_node N            netns for node N + its lnetd, LNet configured
#   topo_link N IF ADDR M IF2 ADDR2   veth pair IF (node N) <-> IF2 (node M)
#   topo_hub_port N IF ADDR [BR]      IF in node N, its peer in hub bridge BR (br0)
#   topo_2x1               node1 a0 10.21.0.1 <-> node2 b0 10.21.0.2, tcp NIs
#   topo_2x2 mr|nets       + a1 10.22.0.1 <-> b1 10.22.0.2; "mr": both on
#                          tcp (--if a0,a1), "nets": tcp on a0/b0, tcp1 on a1/b1
#   topo_3                 a0, b0, c0 (node3, 10.21.0.3) on a bridge, a1 <-> b1
#                          direct; node1/node2 tcp on both, node3 tcp on c0
#   topo_routed [CMD...]   A (node1) - R1 (node2), R2 (node3) - B (node4):
#                          tcp and tcp1 on two bridges, routes both ways
#   wait_routed            until all four of topo_routed's routes are up
#   topo_chain             A - R - R' - C over tcp, tcp1, tcp2 (multi-hop)
#   topo_lnetd N / topo_kill N   (re)start / SIGKILL node N's lnetd
#   topo_stop N            node N leaves: its lnetd stops (dev: its instance
#                          is unconfigured); either way its connections close
#   route_field N NET GW KEY     state/type/hop/priority of a route
#   wait_route_state N NET GW S  wait (<= 10 s) until that state is S
#   topo_teardown          stop every lnetd, delete the netns, remove $TD
#   topo_test_teardown     bats teardown: node logs after a failure, topo_teardown
#   deltas / delta_is / moves  counter deltas around a command (see below)
#   st_is OP TARGET SIZE COUNT OK FAILED CORRUPT   $output is that selftest
#   on N lnetctl ARGS...   lnetctl against node N's lnetd
#   on N FUNCTION ARGS...  a shell function with LNET_SOCKET of node N
#   on N CMD ARGS...       CMD inside node N's netns (e.g. ip link set a1 down)
#   ni_count N KEY NID...  KEY (send_count, recv_count, drop_count, or by
#                          message type: sent_stats.put, received_stats.ack...)
#                          of node N's local NIs, from `net show -v`,
#                          space-separated
#   peer_ni_count N KEY NID...  the same for node N's peer NIs (`peer show -v`)
#   stats_count N KEY...   KEYs of node N's `stats show` (e.g. recv_length)
#   ni_status N NID        status (up/down) of node N's local NI
#   wait_ni_status N NID S wait (<= 10 s) until that status is S
#   peer_udsp N NID        "<net priority> <nid priority>" of node N's peer NI
#   node_log N             path of node N's lnetd log

TOPO_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LNETCTL_BIN=${LNETCTL_BIN:-$TOPO_TOP/build/lnetctl}
LNETD_BIN=${LNETD_BIN:-$TOPO_TOP/build/lnetd}
TOPO_NODES=()
# The counter readers run often: a python3 without a shim in front if it
# has yaml (the pyenv shim costs most of a second per call), as
# helpers.bash chose it (LNET_BATS_PY), else chosen here (the soak sources
# this file alone).
if [ -z "${LNET_BATS_PY:-}" ]; then
	LNET_BATS_PY=python3
	if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
		LNET_BATS_PY=/usr/bin/python3
	fi
	export LNET_BATS_PY
fi
TOPO_PY=$LNET_BATS_PY

topo_init() {
	TD=$(mktemp -d /tmp/lnet-topo.XXXXXX)
	T=$TD
	TOPO_TAG=$$-${BATS_TEST_NUMBER:-0}
	TOPO_NODES=()
	TOPO_HUB=
	# helpers.bash's yaml_is/yaml_get call python3 too: the same fast one
	if [ "$TOPO_PY" != python3 ]; then
		mkdir -p "$TD/bin" && ln -sf "$TOPO_PY" "$TD/bin/python3"
		PATH=$TD/bin:$PATH
	fi
	if [ -z "${BATS_TEST_DIRNAME:-}" ]; then
		trap topo_teardown EXIT
		trap 'exit 130' INT TERM
	fi
}

# topo_dev N: node N is an lnet.ko instance (else it has an lnetd).
topo_dev() {
	[ "${LNET_TRANSPORT:-}" = dev ] && [[ " ${TOPO_LNETD_NODES:-} " != *" $1 "* ]]
}

topo_ns() {
	echo "ln$1-$TOPO_TAG"
}

topo_sock() {
	echo "$TD/n$1.sock"
}

node_log() {
	echo "$TD/n$1.log"
}

topo_node() {
	local n=$1 ns
	ns=$(topo_ns "$n")
	ip netns add "$ns" || return 1
	TOPO_NODES+=("$n")
	ip -n "$ns" link set lo up
	topo_lnetd "$n"
}

# topo_lnetd N: start node N's lnetd (again, after topo_kill) and configure
# LNet; the log is appended to, so a restart keeps the first life's lines.
topo_lnetd() {
	local n=$1 sock
	if topo_dev "$n"; then
		LNET_NETNS=$(topo_ns "$n") "$LNETCTL_BIN" lnet configure
		return
	fi
	sock=$(topo_sock "$n")
	rm -f "$sock"
	ip netns exec "$(topo_ns "$n")" "$LNETD_BIN" --socket "$sock" \
		--pidfile "$TD/n$n.pid" --log "$(node_log "$n")" || return 1
	for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
	[ -S "$sock" ] || return 1
	topo_lnetctl "$n" lnet configure
}

# topo_kill N: SIGKILL node N's lnetd (a crashed node: no goodbye on the
# wire) and wait until it is gone.
topo_kill() {
	local pid
	pid=$(cat "$TD/n$1.pid") || return 1
	kill -KILL "$pid" || return 1
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
	echo "node $1: lnetd $pid still there 5 s after SIGKILL" >&2
	return 1
}

topo_stop() {
	if topo_dev "$1"; then
		LNET_NETNS=$(topo_ns "$1") "$LNETCTL_BIN" lnet unconfigure
		return
	fi
	lnetd_stop_pidfile "$TD/n$1.pid"
}

# topo_link N IF ADDR M IF2 ADDR2: a veth pair, ADDR/ADDR2 with prefix.
topo_link() {
	local a b
	a=$(topo_ns "$1")
	b=$(topo_ns "$4")
	ip link add "$2" netns "$a" type veth peer name "$5" netns "$b" || return 1
	ip -n "$a" addr add "$3" dev "$2"
	ip -n "$b" addr add "$6" dev "$5"
	ip -n "$a" link set "$2" up
	ip -n "$b" link set "$5" up
}

# topo_hub [BRIDGE]: the hub netns and BRIDGE (default br0) in it.
topo_hub() {
	local hub br=${1:-br0}
	if [ -z "${TOPO_HUB:-}" ]; then
		hub=lnh-$TOPO_TAG
		ip netns add "$hub" || return 1
		TOPO_HUB=$hub
	fi
	ip -n "$TOPO_HUB" link show "$br" >/dev/null 2>&1 && return 0
	ip -n "$TOPO_HUB" link add "$br" type bridge || return 1
	ip -n "$TOPO_HUB" link set "$br" up
}

# topo_hub_port N IF ADDR [BRIDGE]: IF in node N, bridged with every other
# port of BRIDGE (default br0; several bridges are separate segments).
topo_hub_port() {
	local ns port=h$1$2 br=${4:-br0}
	topo_hub "$br" || return 1
	ns=$(topo_ns "$1")
	ip link add "$2" netns "$ns" type veth peer name "$port" netns "$TOPO_HUB" ||
		return 1
	ip -n "$TOPO_HUB" link set "$port" master "$br"
	ip -n "$TOPO_HUB" link set "$port" up
	ip -n "$ns" addr add "$3" dev "$2"
	ip -n "$ns" link set "$2" up
}

topo_2x1() {
	topo_node 1 && topo_node 2 &&
	topo_link 1 a0 10.21.0.1/24 2 b0 10.21.0.2/24 &&
	on 1 lnetctl net add --net tcp --if a0 &&
	on 2 lnetctl net add --net tcp --if b0
}

# topo_2x2 mr|nets
topo_2x2() {
	topo_node 1 && topo_node 2 &&
	topo_link 1 a0 10.21.0.1/24 2 b0 10.21.0.2/24 &&
	topo_link 1 a1 10.22.0.1/24 2 b1 10.22.0.2/24 || return 1
	case $1 in
	mr)
		on 1 lnetctl net add --net tcp --if a0,a1 &&
		on 2 lnetctl net add --net tcp --if b0,b1
		;;
	nets)
		on 1 lnetctl net add --net tcp --if a0 &&
		on 1 lnetctl net add --net tcp1 --if a1 &&
		on 2 lnetctl net add --net tcp --if b0 &&
		on 2 lnetctl net add --net tcp1 --if b1
		;;
	*)
		echo "topo_2x2: expected mr or nets, got '$1'" >&2
		return 2
		;;
	esac
}

topo_3() {
	topo_node 1 && topo_node 2 && topo_node 3 &&
	topo_hub_port 1 a0 10.21.0.1/24 &&
	topo_hub_port 2 b0 10.21.0.2/24 &&
	topo_hub_port 3 c0 10.21.0.3/24 &&
	topo_link 1 a1 10.22.0.1/24 2 b1 10.22.0.2/24 &&
	on 1 lnetctl net add --net tcp --if a0,a1 &&
	on 2 lnetctl net add --net tcp --if b0,b1 &&
	on 3 lnetctl net add --net tcp --if c0
}

# --- counter deltas and selftest results (multinode.bats, routing.bats) --------
# deltas BEFORE AFTER: AFTER - BEFORE, element by element, space-separated.
deltas() {
	local -a b a
	local got=() i
	read -r -a b <<<"$1"
	read -r -a a <<<"$2"
	for i in "${!a[@]}"; do
		got+=("$((a[i] - b[i]))")
	done
	echo "${got[*]}"
}

# delta_is WANT BEFORE AFTER: AFTER - BEFORE, element by element, is WANT.
delta_is() {
	local got
	got=$(deltas "$2" "$3")
	if [ "$got" != "$1" ]; then
		echo "counter deltas: got '$got', want '$1' (before '$2', after '$3')"
		return 1
	fi
}

# moves WANT COUNTER [WANT COUNTER]... -- CMD [ARGS]: run CMD; each
# COUNTER (a command printing counters, split on spaces, e.g.
# "ni_count 1 send_count $A0 $A1") moved by its WANT (delta_is). No
# `|| return` here: CMD's own checks (put_n) must stop the test.
moves() {
	local -a want=() counter=() before=()
	local i after
	while [ "$1" != -- ]; do
		want+=("$1")
		counter+=("$2")
		shift 2
	done
	shift
	for i in "${!counter[@]}"; do
		before[i]=$(${counter[i]})
	done
	"$@"
	for i in "${!counter[@]}"; do
		after=$(${counter[i]})
		delta_is "${want[i]}" "${before[i]}" "$after"
	done
}

# The selftest document without elapsed_ns (checked > 0 here), failed_by
# (checked to add up to failed) and duplicate (checked 0), as a dict.
st_summary() {
	local ns chk
	ns=$(yaml_get "d['selftest']['elapsed_ns']")
	[ "$ns" -gt 0 ] || { echo "elapsed_ns '$ns' is not > 0"; return 1; }
	chk=$(yaml_get "sum(d['selftest']['failed_by'].values()) == d['selftest']['failed'] and d['selftest']['duplicate'] == 0")
	[ "$chk" = True ] || { echo "failed_by does not add up to failed, or duplicate is not 0"; return 1; }
	yaml_get "{k: v for k, v in d['selftest'].items() if k not in ('elapsed_ns', 'failed_by', 'duplicate')}"
}

# st_is OP TARGET SIZE COUNT OK FAILED CORRUPT: $output is that document (check full).
st_is() {
	local got want
	got=$(st_summary) || { echo "$got"; return 1; }
	want="{'op': '$1', 'target': '$2', 'size': $3, 'count': $4, 'check': 'full', 'ok': $5, 'failed': $6, 'corrupt': $7}"
	if [ "$got" != "$want" ]; then
		printf 'selftest: got  %s\n          want %s\n' "$got" "$want"
		return 1
	fi
}

# --- routed topologies ------------------------------------------------------
# Short router timers on node N: gateways checked every second, a ping
# answered within a second; set before `set routing 1`, so that a router
# goes STARTING -> ENABLED in 2 s.
topo_short_timers() {
	on "$1" lnetctl set alive_router_check_interval 1 &&
	on "$1" lnetctl set router_ping_timeout 1
}

# topo_router N CMD...: node N routes; each CMD (a string of lnetctl
# arguments, split on spaces, e.g. "set large_buffers 1") runs first.
topo_router() {
	local n=$1 c
	shift
	for c in "$@"; do
		# shellcheck disable=SC2086
		on "$n" lnetctl $c || return 1
	done
	on "$n" lnetctl set routing 1
}

# topo_routed [CMD...]: A (node1) - R1 (node2), R2 (node3) - B (node4).
#   tcp  (bridge br0): A a0 10.41.0.1, R1 r0 10.41.0.2, R2 s0 10.41.0.3
#   tcp1 (bridge br1): R1 r1 10.42.0.2, R2 s1 10.42.0.3, B b1 10.42.0.4
# Short timers everywhere, the routers route (each CMD runs on both first,
# see topo_router; $TOPO_RTR_NET_OPTS, split on spaces, goes to the
# routers' `net add`s, e.g. "--peer-buffer-credits 1"), A has routes to tcp1
# via R1 and R2, B to tcp via R1 and R2. Does not wait for the routes: see
# wait_routed.
topo_routed() {
	local n
	for n in 1 2 3 4; do
		topo_node "$n" || return 1
	done
	topo_short_timers 1 && topo_short_timers 4 &&
	topo_hub_port 1 a0 10.41.0.1/24 br0 &&
	topo_hub_port 2 r0 10.41.0.2/24 br0 &&
	topo_hub_port 3 s0 10.41.0.3/24 br0 &&
	topo_hub_port 2 r1 10.42.0.2/24 br1 &&
	topo_hub_port 3 s1 10.42.0.3/24 br1 &&
	topo_hub_port 4 b1 10.42.0.4/24 br1 || return 1
	# shellcheck disable=SC2086
	on 1 lnetctl net add --net tcp --if a0 &&
	on 4 lnetctl net add --net tcp1 --if b1 &&
	topo_routed_rtr 2 "$@" && topo_routed_rtr 3 "$@" &&
	on 1 lnetctl route add --net tcp1 --gateway 10.41.0.2@tcp &&
	on 1 lnetctl route add --net tcp1 --gateway 10.41.0.3@tcp &&
	on 4 lnetctl route add --net tcp --gateway 10.42.0.2@tcp1 &&
	on 4 lnetctl route add --net tcp --gateway 10.42.0.3@tcp1
}

# topo_routed_rtr N [CMD...]: router N (2: R1, 3: R2) of topo_routed, its
# nets and routing (again, after topo_kill N and topo_lnetd N).
topo_routed_rtr() {
	local n=$1 p
	shift
	case $n in
	2) p=r ;;
	3) p=s ;;
	*) echo "topo_routed_rtr: node 2 or 3, got '$n'" >&2; return 2 ;;
	esac
	# shellcheck disable=SC2086
	topo_short_timers "$n" &&
	on "$n" lnetctl net add --net tcp --if ${p}0 ${TOPO_RTR_NET_OPTS:-} &&
	on "$n" lnetctl net add --net tcp1 --if ${p}1 ${TOPO_RTR_NET_OPTS:-} &&
	topo_router "$n" "$@"
}

# wait_routed: every route of topo_routed is up (A's and B's).
wait_routed() {
	wait_route_state 1 tcp1 10.41.0.2@tcp up &&
	wait_route_state 1 tcp1 10.41.0.3@tcp up &&
	wait_route_state 4 tcp 10.42.0.2@tcp1 up &&
	wait_route_state 4 tcp 10.42.0.3@tcp1 up
}

# topo_chain: A (node1) - R (node2) - R' (node3) - C (node4), three nets on
# veth pairs: tcp A a0 10.51.0.1 - R r0 10.51.0.2, tcp1 R r1 10.52.0.2 -
# R' s1 10.52.0.3, tcp2 R' s2 10.53.0.3 - C c2 10.53.0.4. R and R' route;
# A reaches tcp1 via R and tcp2 via R (2 hops), C tcp1 via R' and tcp via
# R' (2 hops), R tcp2 via R', R' tcp via R.
topo_chain() {
	local n
	for n in 1 2 3 4; do
		topo_node "$n" && topo_short_timers "$n" || return 1
	done
	topo_link 1 a0 10.51.0.1/24 2 r0 10.51.0.2/24 &&
	topo_link 2 r1 10.52.0.2/24 3 s1 10.52.0.3/24 &&
	topo_link 3 s2 10.53.0.3/24 4 c2 10.53.0.4/24 &&
	on 1 lnetctl net add --net tcp --if a0 &&
	on 2 lnetctl net add --net tcp --if r0 &&
	on 2 lnetctl net add --net tcp1 --if r1 &&
	on 3 lnetctl net add --net tcp1 --if s1 &&
	on 3 lnetctl net add --net tcp2 --if s2 &&
	on 4 lnetctl net add --net tcp2 --if c2 &&
	topo_router 2 && topo_router 3 &&
	on 1 lnetctl route add --net tcp1 --gateway 10.51.0.2@tcp &&
	on 1 lnetctl route add --net tcp2 --gateway 10.51.0.2@tcp --hop 2 &&
	on 2 lnetctl route add --net tcp2 --gateway 10.52.0.3@tcp1 &&
	on 3 lnetctl route add --net tcp --gateway 10.52.0.2@tcp1 &&
	on 4 lnetctl route add --net tcp1 --gateway 10.53.0.3@tcp2 &&
	on 4 lnetctl route add --net tcp --gateway 10.53.0.3@tcp2 --hop 2
}

# route_field N NET GW KEY: KEY (state, type, hop, priority) of node N's
# route to NET through GW, from `route show -v`.
route_field() {
	on "$1" lnetctl route show -v --net "$2" --gateway "$3" \
		>"$TD/route.$1.yaml" || return 1
	"$TOPO_PY" - "$TD/route.$1.yaml" "$2" "$3" "$4" <<'PY'
import sys, yaml
path, net, gw, key = sys.argv[1:]
d = yaml.safe_load(open(path)) or {}
m = [r for r in d.get('route', []) if r['net'] == net and r['gateway'] == gw]
if len(m) != 1:
    sys.exit('route show -v: no single route to %s via %s' % (net, gw))
print(m[0][key])
PY
}

# wait_route_state N NET GW STATE: wait (<= 10 s) until node N's route to
# NET through GW is in STATE (up/down).
wait_route_state() {
	local s
	for _ in $(seq 50); do
		s=$(route_field "$1" "$2" "$3" state)
		[ "$s" = "$4" ] && return 0
		sleep 0.2
	done
	echo "node $1 route to $2 via $3: state '$s' after 10 s, expected '$4'" >&2
	return 1
}

# Every lnetd gets SIGTERM first, then we wait for all (each takes a while).
topo_teardown() {
	local n pid pids=()
	for n in "${TOPO_NODES[@]}"; do
		pid=$(cat "$TD/n$n.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null && pids+=("$pid")
	done
	for pid in "${pids[@]}"; do
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
	done
	for n in "${TOPO_NODES[@]}"; do
		ip netns del "$(topo_ns "$n")" 2>/dev/null
	done
	[ -n "${TOPO_HUB:-}" ] && ip netns del "$TOPO_HUB" 2>/dev/null
	TOPO_NODES=()
	TOPO_HUB=
	[ -n "${TD:-}" ] && rm -rf "$TD"
	return 0
}

# topo_test_teardown: a bats teardown: after a failed test, the end of each
# node's log (what the lead needs to see), then topo_teardown.
topo_test_teardown() {
	local f
	if [ -z "${BATS_TEST_COMPLETED:-}" ] && [ -n "${TD:-}" ]; then
		for f in "$TD"/n*.log; do
			[ -f "$f" ] || continue
			echo "--- $(basename "$f") (last 40 lines)"
			tail -n 40 "$f"
		done
	fi
	topo_teardown
}

on() {
	local n=$1 sock
	shift
	if topo_dev "$n"; then
		on_dev "$n" "$@"
		return
	fi
	sock=$(topo_sock "$n")
	if [ "$1" = lnetctl ]; then
		shift
		topo_lnetctl "$n" "$@"
	elif declare -F "$1" >/dev/null; then
		LNET_SOCKET=$sock "$@"
	else
		ip netns exec "$(topo_ns "$n")" "$@"
	fi
}

# topo_lnetctl N ARGS: lnetctl on node N's lnetd socket. In the VM
# $LNETCTL_BIN is the namespace wrapper: the real lnetctl, without it.
topo_lnetctl() {
	local n=$1
	shift
	"${LNET_LNETCTL_REAL:-$LNETCTL_BIN}" --socket "$(topo_sock "$n")" "$@"
}

# on_dev N ...: `on` for LNET_TRANSPORT=dev: lnetctl and the functions
# (which call lnetctl) with LNET_NETNS of node N, other commands in it.
on_dev() {
	local ns
	ns=$(topo_ns "$1")
	shift
	if [ "$1" = lnetctl ]; then
		shift
		LNET_NETNS=$ns "$LNETCTL_BIN" "$@"
	elif declare -F "$1" >/dev/null; then
		LNET_NETNS=$ns "$@"
	else
		ip netns exec "$ns" "$@"
	fi
}

# topo_counts net|peer N KEY NID...: the counters, in the order of the NIDs.
# KEY is a key of `statistics` (send_count, ...), or MAP.TYPE for the
# counts by message type at -v 2 (e.g. sent_stats.put, received_stats.ack).
topo_counts() {
	local kind=$1 n=$2 key=$3 f v=1
	shift 3
	f=$TD/counts.$n.yaml
	[[ $key == *.* ]] && v=2
	on "$n" lnetctl "$kind" show -v $v >"$f" || return 1
	"$TOPO_PY" - "$kind" "$key" "$f" "$@" <<'PY'
import sys, yaml
kind, key, path, nids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
d = yaml.safe_load(open(path)) or {}
if kind == 'net':
    nis = [ni for n in d.get('net', []) for ni in n['local NI(s)']]
else:
    nis = [ni for p in d.get('peer', []) for ni in p['peer ni']]
out = []
for nid in nids:
    m = [x for x in nis if x['nid'] == nid]
    if len(m) != 1:
        sys.exit('%s show -v: no single NI %s in %s' % (kind, nid, [x['nid'] for x in nis]))
    if '.' in key:
        group, typ = key.split('.', 1)
        out.append(str(m[0][group][typ]))
    else:
        out.append(str(m[0]['statistics'][key]))
print(' '.join(out))
PY
}

ni_count() {
	topo_counts net "$@"
}

peer_ni_count() {
	topo_counts peer "$@"
}

stats_count() {
	local n=$1
	shift
	on "$n" lnetctl stats show >"$TD/stats.$n.yaml" || return 1
	"$TOPO_PY" - "$TD/stats.$n.yaml" "$@" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1])) or {}
print(' '.join(str(d['statistics'][k]) for k in sys.argv[2:]))
PY
}

ni_status() {
	on "$1" lnetctl net show >"$TD/status.$1.yaml" || return 1
	"$TOPO_PY" - "$2" "$TD/status.$1.yaml" <<'PY'
import sys, yaml
nid, path = sys.argv[1:]
d = yaml.safe_load(open(path)) or {}
print(' '.join(ni['status'] for n in d['net'] for ni in n['local NI(s)']
               if ni['nid'] == nid))
PY
}

wait_ni_status() {
	local s
	for _ in $(seq 100); do
		s=$(ni_status "$1" "$2")
		[ "$s" = "$3" ] && return 0
		sleep 0.1
	done
	echo "node $1 NI $2: status '$s' after 10 s, expected '$3'" >&2
	return 1
}

peer_udsp() {
	on "$1" lnetctl peer show -v 4 >"$TD/udsp.$1.yaml" || return 1
	"$TOPO_PY" - "$2" "$TD/udsp.$1.yaml" <<'PY'
import sys, yaml
nid, path = sys.argv[1:]
d = yaml.safe_load(open(path)) or {}
m = [ni for p in d.get('peer', []) for ni in p['peer ni'] if ni['nid'] == nid]
if len(m) != 1:
    sys.exit('peer show -v 4: no single peer NI %s' % nid)
u = m[0]['udsp info']
print(u['net priority'], u['nid priority'])
PY
}
