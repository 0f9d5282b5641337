#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make demo: a private lnetd in its own network namespace (veth0 10.11.0.1,
# veth1 10.11.0.2), examples/lnet.yaml imported, nets, peers and policies
# shown. Everything is removed at the end.
set -eu
cd "$(dirname "$0")/.."
T=$(mktemp -d /tmp/lnet-demo.XXXXXX)
NS=lnetdemo$$
cleanup() {
	[ -f "$T/lnetd.pid" ] && kill "$(cat "$T/lnetd.pid")" 2>/dev/null || true
	ip netns del "$NS" 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT

ip netns add "$NS"
ip -n "$NS" link set lo up
ip -n "$NS" link add veth0 type veth peer name veth1
ip -n "$NS" addr add 10.11.0.1/24 dev veth0
ip -n "$NS" addr add 10.11.0.2/24 dev veth1
ip -n "$NS" link set veth0 up
ip -n "$NS" link set veth1 up
export LNET_SOCKET=$T/lnetd.sock
ip netns exec "$NS" build/lnetd --socket "$LNET_SOCKET" --pidfile "$T/lnetd.pid" \
	--log "$T/lnetd.log"

run() {
	echo "\$ lnetctl $*"
	build/lnetctl "$@"
	echo
}
run lnet configure
run import examples/lnet.yaml
run net show
run peer show
run policy show
run net show -v 4
run peer show -v 4
run export --backup
