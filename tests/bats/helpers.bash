# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bats suites: a private lnetd per test, in its own network
# namespace with a veth pair, everything removed by teardown.
#
#   lnet_setup            start lnetd (netns + veth0 10.11.0.1/24, veth1
#                         10.11.0.2/24, and 2001:db8:11::1/64 on veth0)
#   lnet_teardown         stop it, remove the netns and temp dir
#   lnetctl ARGS...       the built lnetctl against the private lnetd
#   yaml_eq FILE_A FILE_B YAML semantic equality (python3-yaml)

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
LNETCTL_BIN=${LNETCTL_BIN:-$TOP/build/lnetctl}
LNETD_BIN=${LNETD_BIN:-$TOP/build/lnetd}

lnet_setup() {
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
	export LNET_SOCKET=$T/lnetd.sock
	ip netns exec "$NS" "$LNETD_BIN" --socket "$LNET_SOCKET" \
		--pidfile "$T/lnetd.pid" --log "$T/lnetd.log"
	for _ in $(seq 100); do [ -S "$LNET_SOCKET" ] && break; sleep 0.05; done
	[ -S "$LNET_SOCKET" ]
}

lnet_teardown() {
	if [ -f "$T/lnetd.pid" ]; then
		kill "$(cat "$T/lnetd.pid")" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 "$(cat "$T/lnetd.pid")" 2>/dev/null || break
			sleep 0.05
		done
	fi
	ip netns del "$NS" 2>/dev/null || true
	rm -rf "$T"
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
