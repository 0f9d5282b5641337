# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bats suites: a private lnetd per test, in its own network
# namespace with a veth pair, everything removed by teardown.
#
#   lnet_setup            start lnetd (netns + veth0 10.11.0.1/24, veth1
#                         10.11.0.2/24, and 2001:db8:11::1/64 on veth0)
#   lnet_teardown         stop it, remove the netns and temp dir
#   lnet_suite            setup/teardown of a suite that starts each test
#                         with LNet configured and nothing else
#   state                 everything a user can see (net, peer, policy,
#                         route, routing, global show)
#   fails STATUS MSG ARGS lnetctl ARGS fails exactly so and changes nothing
#   net_show_lo_only      net show answers with 0@lo alone
#   stats_doc INDENT ...  the stats show document with no message passed
#   lnetctl ARGS...       the built lnetctl against the private lnetd
#   yaml_eq FILE_A FILE_B YAML semantic equality (python3-yaml)

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
LNETCTL_BIN=${LNETCTL_BIN:-$TOP/build/lnetctl}
LNETD_BIN=${LNETD_BIN:-$TOP/build/lnetd}

# Debian's python3 when it has yaml: a version-manager shim in front of
# python3 (seen on developer machines) costs most of a second per call.
# The answer is exported (topo.bash shares it): bats sources this file
# again for every test, and in the kernel VM (TCG) a python start takes
# seconds.
if [ -z "${LNET_BATS_PY:-}" ]; then
	LNET_BATS_PY=python3
	if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
		LNET_BATS_PY=/usr/bin/python3
	fi
	export LNET_BATS_PY
fi
if [ "$LNET_BATS_PY" = /usr/bin/python3 ]; then
	python3() { /usr/bin/python3 "$@"; }
fi

# LNET_TRANSPORT=dev (set by tests/kernel/guest.sh inside the test VM): the
# same tests drive the lnet module through /dev/lnet instead of a private
# lnetd. lnet_setup makes the same netns and veth pair but starts no lnetd;
# lnetctl runs inside the netns (the module looks interfaces up in the
# caller's namespace) and picks /dev/lnet itself; lnet_setup and
# lnet_teardown unconfigure, so every test starts with LNet down.
# A test whose commands all stop before any request (help, argv and YAML
# errors, lnetctl's own tables) carries "# bats test_tags=parse-only" (a
# suite of them "# bats file_tags=parse-only"); one that checks what is
# lnetctl's whatever the transport, "lnetd-only". The VM leaves both out,
# since /dev/lnet would add nothing but minutes of TCG.
LNET_TRANSPORT=${LNET_TRANSPORT:-lnetd}
if [ "$LNET_TRANSPORT" = dev ]; then
	export LNET_LNETCTL_REAL=$LNETCTL_BIN
	LNETCTL_BIN=$TOP/build/tests/kernel/lnetctl-netns
fi

lnet_setup() {
	if [ "$LNET_TRANSPORT" = dev ]; then
		case $BATS_TEST_FILENAME in
		*/lnetd.bats) skip "lnetd.bats tests lnetd itself; LNET_TRANSPORT=dev drives /dev/lnet" ;;
		esac
	fi
	T=$(mktemp -d /tmp/lnet-bats.XXXXXX)
	NS=lnb$$_${BATS_TEST_NUMBER:-0}_$RANDOM
	ip netns add "$NS"
	ip -n "$NS" link set lo up
	ip -n "$NS" link add veth0 type veth peer name veth1
	ip -n "$NS" addr add 10.11.0.1/24 dev veth0
	ip -n "$NS" addr add 10.11.0.2/24 dev veth1
	ip -n "$NS" -6 addr add 2001:db8:11::1/64 dev veth0 nodad
	ip -n "$NS" link set veth0 up
	ip -n "$NS" link set veth1 up
	if [ "$LNET_TRANSPORT" = dev ]; then
		lnet_setup_dev
		return
	fi
	export LNET_SOCKET=$T/lnetd.sock
	ip netns exec "$NS" "$LNETD_BIN" --socket "$LNET_SOCKET" \
		--pidfile "$T/lnetd.pid" --log "$T/lnetd.log"
	for _ in $(seq 100); do [ -S "$LNET_SOCKET" ] && break; sleep 0.05; done
	[ -S "$LNET_SOCKET" ]
}

# fresh_lnetd: a second, fresh lnetd in the test's namespace (same
# interfaces), configured, at $B_SOCKET; lnet_teardown stops it. Its
# socket LND listens on another port: the first lnetd holds 988 on the
# same addresses.
fresh_lnetd() {
	B_SOCKET=$T/b.sock
	ip netns exec "$NS" env LNET_ACCEPT_PORT=1988 "$LNETD_BIN" --socket "$B_SOCKET" --pidfile "$T/b.pid" \
		--log "$T/b.log"
	for _ in $(seq 100); do [ -S "$B_SOCKET" ] && break; sleep 0.05; done
	[ -S "$B_SOCKET" ]
	"$LNETCTL_BIN" --socket "$B_SOCKET" lnet configure
}

# pid_running PID: true while PID exists and has not exited. A daemonized
# lnetd that exited is a zombie until PID 1 reaps it, which here can take
# seconds; kill -0 succeeds on a zombie, so look at its state instead.
pid_running() {
	local state
	state=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

lnet_teardown() {
	local bpid
	bpid=$(cat "$T/b.pid" 2>/dev/null) && kill "$bpid" 2>/dev/null
	if [ "$LNET_TRANSPORT" = dev ] && [ -n "${LNET_NETNS:-}" ]; then
		"$LNETCTL_BIN" lnet unconfigure || true
	fi
	local pid
	pid=$(cat "$T/lnetd.pid" 2>/dev/null) || pid=
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		for _ in $(seq 100); do
			pid_running "$pid" || break
			sleep 0.05
		done
	fi
	ip netns del "$NS" 2>/dev/null || true
	rm -rf "$T"
}

# lnet_suite: the header of a suite whose every test starts on a fresh
# lnetd with LNet configured and nothing else, and ends with it stopped.
# Call it right after `load helpers`: it defines setup and teardown.
lnet_suite() {
	bats_require_minimum_version 1.5.0
	setup() {
		lnet_setup
		lnetctl lnet configure
	}
	teardown() {
		lnet_teardown
	}
}

# state: everything a user can see, to compare before and after a command
# that must change nothing (a failed import, `fails`). A suite that looks
# at less (route.bats, global.bats) defines its own state after `load
# helpers`.
state() {
	lnetctl net show -v 4
	lnetctl peer show -v 4
	lnetctl policy show
	lnetctl route show -v
	lnetctl routing show
	lnetctl global show
}

# fails STATUS MESSAGE ARGS...: `lnetctl ARGS` exits STATUS with exactly
# MESSAGE on stderr, prints nothing on stdout and changes nothing: the
# output of `state` is the same before and after.
fails() {
	local want_status=$1 want_msg=$2
	shift 2
	state >"$T/before"
	run --separate-stderr lnetctl "$@"
	[ "$status" -eq "$want_status" ] || { echo "status $status: $stderr"; return 1; }
	[ "$output" = "" ]
	[ "$stderr" = "$want_msg" ] || { echo "got: $stderr"; return 1; }
	state >"$T/after"
	cmp "$T/before" "$T/after" || { diff "$T/before" "$T/after"; return 1; }
}

# net_show_lo_only: `lnetctl net show` answers with 0@lo alone (LNet
# configured, no NI added or every one deleted).
net_show_lo_only() {
	run lnetctl net show
	[ "$status" -eq 0 ]
	yaml_is "net:
- net type: lo
  local NI(s):
  - nid: 0@lo
    status: up"
}

# The message counters of `stats show` in Lustre's order, then every key.
STATS_COUNTERS="msgs_alloc msgs_max rst_alloc errors send_count resend_count
response_timeout_count local_interrupt_count local_dropped_count
local_aborted_count local_no_route_count local_timeout_count
local_error_count remote_dropped_count remote_error_count
remote_timeout_count network_timeout_count failed_resends
successful_resends recv_count route_count drop_count send_length recv_length
route_length drop_length peer_send_count peer_recv_count peer_drop_count"
STATS_KEYS="${STATS_COUNTERS//$'\n'/ } local_nis peer_nis routes selftest_corrupt"

# stats_doc INDENT LOCAL_NIS PEER_NIS ROUTES: the `stats show` document of
# a node that has passed no message since the last reset, indented by
# INDENT.
stats_doc() {
	local k
	echo "statistics:"
	for k in $STATS_COUNTERS; do
		echo "$1$k: 0"
	done
	echo "${1}local_nis: $2"
	echo "${1}peer_nis: $3"
	echo "${1}routes: $4"
	echo "${1}selftest_corrupt: 0"
}

# lnetd_only: call first in a test that is about the socket transport or
# lnetd itself (e.g. --socket against the same instance): skipped, with the
# reason, when the suite runs on /dev/lnet.
lnetd_only() {
	if [ "$LNET_TRANSPORT" = dev ]; then
		skip "tests the lnetd socket transport; LNET_TRANSPORT=dev drives /dev/lnet"
	fi
}

# The dev half of lnet_setup: no lnetd, no socket; LNet down to start with.
lnet_setup_dev() {
	unset LNET_SOCKET
	export LNET_NETNS=$NS
	[ -c /dev/lnet ]
	"$LNETCTL_BIN" lnet unconfigure
}

lnetctl() {
	"$LNETCTL_BIN" "$@"
}

# yaml_eq A B: 0 when the two YAML files load to equal data.
yaml_eq() {
	python3 - "$1" "$2" <<'PY'
import sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
b = yaml.safe_load(open(sys.argv[2]))
if a != b:
    print("YAML differs:\n--- got\n%s\n--- want\n%s" % (yaml.safe_dump(a), yaml.safe_dump(b)))
    sys.exit(1)
PY
}

# yaml_is TEXT: $output loads to the same data as TEXT.
yaml_is() {
	printf '%s\n' "$output" >"$T/got.yaml"
	printf '%s\n' "$1" >"$T/want.yaml"
	yaml_eq "$T/got.yaml" "$T/want.yaml"
}

# routing_is TEXT: $output is `routing show` in Lustre's layout (a cpt[N]
# item per partition whose pools have npages 0, 1 and 256, then an enable
# item, then buffers:) and, its pools left out, loads to the same data as
# TEXT ("routing: {enable: N}" and "buffers: {...}").
routing_is() {
	python3 - "$output" "$1" <<-'PY'
	import sys, yaml
	got, want = yaml.safe_load(sys.argv[1]), yaml.safe_load(sys.argv[2])
	items = got['routing']
	pools = [list(i.values())[0] for i in items[:-1]]
	ok = (len(items) >= 2 and list(items[-1]) == ['enable'] and
	      all([p[k]['npages'] for k in ('tiny', 'small', 'large')] == [0, 1, 256] for p in pools))
	got['routing'] = items[-1]
	if not ok or got != want:
	    sys.exit('routing show: got %r, want %r' % (got, want))
	PY
}

# routing_off: wait (5 s at most) until `routing show` says enable: 0,
# that is until a stop has drained (short with alive_router_check_interval
# 0 and router_ping_timeout 1).
routing_off() {
	local _
	for _ in $(seq 50); do
		[ "$("$LNETCTL_BIN" routing show | sed -n 's/^- *enable: //p')" = 0 ] && return 0
		sleep 0.1
	done
	echo "routing did not stop"
	return 1
}

# yaml_get EXPR: print the Python expression EXPR evaluated on $output
# loaded as YAML (bound to d), e.g. yaml_get "d['net'][1]['net type']".
yaml_get() {
	python3 -c 'import sys, yaml
d = yaml.safe_load(sys.stdin.read())
print(eval(sys.argv[1]))' "$1" <<<"$output"
}

# udsp_of net|peer NID: "<net priority> <nid priority>" of the local NI
# (net) or peer NI (peer) NID, from `lnetctl net|peer show -v 4`.
udsp_of() {
	"$LNETCTL_BIN" "$1" show -v 4 >"$T/v4.yaml" || return 1
	python3 - "$1" "$2" "$T/v4.yaml" <<'PY'
import sys, yaml
kind, nid, path = sys.argv[1:]
d = yaml.safe_load(open(path)) or {}
if kind == 'net':
    nis = [ni for n in d['net'] for ni in n['local NI(s)']]
else:
    nis = [ni for p in d['peer'] for ni in p['peer ni']]
ni = [x for x in nis if x['nid'] == nid]
if len(ni) != 1:
    sys.exit('no single NI %s in %s' % (nid, nis))
u = ni[0]['udsp info']
print(u['net priority'], u['nid priority'])
PY
}

# pref_of KEY NID: the list KEY ("Preferred source NIDs" or "Preferred
# gateway NIDs") of peer NI NID from `lnetctl peer show -v 4`, in order,
# space-separated; empty when the list is absent.
pref_of() {
	"$LNETCTL_BIN" peer show -v 4 >"$T/v4.yaml" || return 1
	python3 - "$1" "$2" "$T/v4.yaml" <<'PY'
import sys, yaml
key, nid, path = sys.argv[1:]
d = yaml.safe_load(open(path)) or {}
nis = [ni for p in d['peer'] for ni in p['peer ni'] if ni['nid'] == nid]
if len(nis) != 1:
    sys.exit('no single peer NI %s' % nid)
lst = nis[0]['udsp info'].get(key) or {}
print(' '.join(lst[k] for k in sorted(lst, key=lambda k: int(k.split('-')[1]))))
PY
}

# lnetd_stop_pidfile FILE: SIGTERM the lnetd whose pid FILE holds and wait
# until it is gone (tests that start more than one lnetd).
lnetd_stop_pidfile() {
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do
		pid_running "$pid" || return 0
		sleep 0.05
	done
}
