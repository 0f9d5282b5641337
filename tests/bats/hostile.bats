#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Bad and hostile input on the wire: a scripted peer (tests/tools/
# lnet_client.py) connects from 10.11.0.2, from a privileged port as
# accept=secure asks (accept.bats has the rules, the deadlines and the
# floods), to lnetd's tcp NI 10.11.0.1@tcp (port 988) and sends a bad acceptor request, a bad hello, a truncated or
# oversized message header, or garbage. Each time lnetd must log exactly one
# line about that connection naming the reason, close it, and go on
# serving: lnetctl still answers, 0@lo still pings, and a well-behaved
# peer still gets its LNet ping answered over the wire.
# lnetd only: the checks read lnetd's log (the kernel acceptor's bad peers
# are in tests/kernel/mixed.bats); a file tag, as a skip in setup() costs
# the VM seconds per test.
# bats file_tags=lnetd-only

load helpers

CLIENT=$TOP/tests/tools/lnet_client.py
# Debian's python3 first (for helpers.bash's YAML checks too): a version
# manager's shim in front of it costs seconds per call on a loaded host
PATH=/usr/bin:$PATH
PY=python3
PEER=10.11.0.2

# One lnetd for the file (each test looks only at its own connections'
# log lines): starting and stopping one per test would be most of the time.
setup_file() {
	lnet_setup
	export T NS
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0
	# the acceptor listens once the NI is up
	for _ in $(seq 100); do
		ip netns exec "$NS" ss -Hltn "sport = :988" | grep -q 10.11.0.1 && break
		sleep 0.05
	done
	ip netns exec "$NS" ss -Hltn "sport = :988" | grep -q 10.11.0.1
}

teardown_file() {
	[ -n "${T:-}" ] && lnet_teardown
	return 0
}

setup() {
	# this test reads only what lnetd logged after this point
	LOG_MARK=$(stat -c %s "$T/lnetd.log")
}

client() {
	ip netns exec "$NS" "$PY" "$CLIENT" "$@"
}

# The local port the client printed ("local 10.11.0.2:PORT").
client_port() {
	sed -n "s/^local $PEER:\([0-9]*\)\$/\1/p" <<<"$output"
}

# log_lines PORT: lnetd's log lines about our connection since this test
# began, without the time and the level. The port must end where the name
# does (a space or a colon follows it).
log_lines() {
	tail -c +$((LOG_MARK + 1)) "$T/lnetd.log" |
		grep -E "socklnd: ${PEER//./\\.}:$1[ :]" | sed 's/^[^ ]* [^ ]* //'
}

# expect_log PORT LINE: exactly that one line (waits up to 2 s for it).
expect_log() {
	local got
	for _ in $(seq 40); do
		got=$(log_lines "$1")
		[ -n "$got" ] && break
		sleep 0.05
	done
	if [ "$got" != "$2" ]; then
		printf 'log lines for port %s:\n%s\nexpected:\n%s\n' "$1" "$got" "$2" >&2
		return 1
	fi
}

# lnetd is alive and serving: the control socket, 0@lo, and the wire.
lnetd_serves() {
	pid_running "$(cat "$T/lnetd.pid")"
	run lnetctl net show
	[ "$status" -eq 0 ]
	[ "$(yaml_get "[ni['nid'] for n in d['net'] for ni in n['local NI(s)']]")" = \
		"['0@lo', '10.11.0.1@tcp']" ]
	run lnetctl ping 0@lo
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['ping'][0]['primary nid']")" = 0@lo ]
	good_peer_pings
}

# A well-behaved peer (ARGS: more lnet_client.py options): handshake, GET
# on the ping portal, REPLY decoded.
good_peer_pings() {
	run client "$@" ping
	if [ "$status" -ne 0 ]; then
		echo "$output" >&2
		return 1
	fi
	[ "${lines[1]}" = "hello 10.11.0.1@tcp -> $PEER@tcp kind 1" ]
	[ "${lines[2]}" = "reply 10.11.0.1@tcp -> $PEER@tcp pids 12345/12345 payload 48" ]
	[ "${lines[3]}" = "ping features 0x1f pid 12345" ]
	[ "${lines[4]}" = "ni 0@lo up" ]
	[ "${lines[5]}" = "ni 10.11.0.1@tcp up" ]
	[ "${#lines[@]}" -eq 6 ]
}

# hostile CASE REASON [refused|closed]: run CASE, expect lnetd to close
# the connection and log REASON once (a refusal during the handshake, or a
# close of an established connection), then to serve on.
hostile() {
	local port line
	run client "$1"
	if [ "$status" -ne 0 ] || [ "${lines[-1]}" != closed ]; then
		echo "$output" >&2
		return 1
	fi
	port=$(client_port)
	[ -n "$port" ]
	if [ "${3:-refused}" = refused ]; then
		line="socklnd: $PEER:$port: refusing the connection: $2"
	else
		line="socklnd: $PEER:$port ($PEER@tcp): closing the connection: $2"
	fi
	expect_log "$port" "$line"
	lnetd_serves
}

@test "hostile: a well-behaved peer's ping is answered (the baseline)" {
	good_peer_pings
	# its leaving is the only thing logged about it
	expect_log "$(client_port)" \
		"socklnd: $PEER:$(client_port) ($PEER@tcp): closing the connection: the peer closed the connection"
}

@test "hostile: bad acceptor magic" {
	hostile bad-acceptor-magic \
		"bad acceptor request: magic 0x12345678 version 1 (expected 0xacce7100 version 1)"
}

@test "hostile: bad acceptor version" {
	hostile bad-acceptor-version \
		"bad acceptor request: magic 0xacce7100 version 3 (expected 0xacce7100 version 1)"
}

@test "hostile: acceptor request v2 (20-byte NID, as Lustre sends for IPv6) for our IPv4 NID, and a bad one" {
	# the 28-byte form names our NI as well: the handshake goes on
	run client --acceptor-version 2 ping
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "hello 10.11.0.1@tcp -> $PEER@tcp kind 1" ]
	[ "${lines[5]}" = "ni 10.11.0.1@tcp up" ]
	hostile bad-acceptor-v2-nid \
		"bad acceptor request v2: NID of address length 9 on LND 2"
}

@test "hostile: acceptor request for a NID that is not ours" {
	hostile wrong-nid "it is for 10.11.0.9@tcp, not for our 10.11.0.1@tcp"
}

@test "hostile: good acceptor request, then a v1 hello magic" {
	hostile bad-hello-magic \
		"bad hello: magic 0xeebc0ded version 3 (expected 0x45726963 version 3)"
}

@test "hostile: hello of version 2 (answered with our V3 hello for a retry, as Lustre does)" {
	hostile bad-hello-version \
		"bad hello: magic 0x45726963 version 2 (expected 0x45726963 version 3); answered with our hello for a retry"
}

@test "hostile: hello V4 on an IPv4 NI: our V3 hello answers it, then the refusal" {
	run client hello-other-version
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "answer version 3 from 10.11.0.1@tcp kind -1" ]
	[ "${lines[2]}" = closed ]
	expect_log "$(client_port)" \
		"socklnd: $PEER:$(client_port): refusing the connection: bad hello: magic 0x45726963 version 4 (expected 0x45726963 version 3); answered with our hello for a retry"
	lnetd_serves
}

@test "hostile: hello announcing 17 IPs" {
	hostile bad-hello-nips "bad hello: 17 IPs (at most 16)"
}

@test "hostile: hello of connection kind 7" {
	hostile bad-hello-kind "bad hello: connection kind 7 (expected 0, 1, 2 or 3)"
}

@test "hostile: good handshake, then a truncated message header and close" {
	hostile truncated-header \
		"the peer closed the connection in a message header (40 of 96 bytes)" closed
}

@test "hostile: message header with a 16 MiB payload" {
	hostile oversized-payload \
		"payload length 16777216 is over the 1048576-byte maximum" closed
}

@test "hostile: good handshake, then an unknown socket message type" {
	hostile bad-msg-type "bad socket message type 0xc7" closed
}

@test "hostile: random garbage instead of an acceptor request" {
	run client --seed 1 garbage
	[ "$status" -eq 0 ]
	# the client tells what the garbage's first 8 bytes read as
	read -r _ _ magic _ version <<<"${lines[1]}"
	[ "${lines[1]}" = "garbage magic $magic version $version" ]
	[ "$magic" != 0xacce7100 ]
	hostile garbage \
		"bad acceptor request: magic $magic version $version (expected 0xacce7100 version 1)"
}

@test "hostile: random garbage after a good handshake" {
	run client --seed 1 garbage-after-hello
	[ "$status" -eq 0 ]
	type=${lines[2]#garbage type }
	[ "${lines[2]}" = "garbage type $type" ]
	[ "$type" != 0xc0 ] && [ "$type" != 0xc1 ]
	hostile garbage-after-hello "bad socket message type $type" closed
}

@test "hostile: every case in a row leaves lnetd with the descriptors it had" {
	local pid before after
	pid=$(cat "$T/lnetd.pid")
	# from a port none of the cases below starts from
	good_peer_pings --sport 1010
	expect_log "$(client_port)" \
		"socklnd: $PEER:$(client_port) ($PEER@tcp): closing the connection: the peer closed the connection"
	before=$(ls /proc/"$pid"/fd | wc -l)
	ports=()
	local sport=1000
	# a port each, tried from 1000, 980...: twelve random ones would meet
	# (the log lines are told apart by port)
	for c in bad-acceptor-magic bad-acceptor-version wrong-nid bad-hello-magic \
		bad-hello-version bad-hello-nips bad-hello-kind truncated-header \
		oversized-payload bad-msg-type garbage garbage-after-hello; do
		run client --sport $sport "$c"
		sport=$((sport - 20))
		[ "$status" -eq 0 ]
		[ "${lines[-1]}" = closed ]
		ports+=("$(client_port)")
	done
	for _ in $(seq 40); do
		after=$(ls /proc/"$pid"/fd | wc -l)
		[ "$after" -eq "$before" ] && break
		sleep 0.05
	done
	[ "$after" -eq "$before" ]
	# one line about each hostile connection
	[ "${#ports[@]}" -eq 12 ]
	for port in "${ports[@]}"; do
		for _ in $(seq 40); do
			[ -n "$(log_lines "$port")" ] && break
			sleep 0.05
		done
		if [ "$(log_lines "$port" | wc -l)" -ne 1 ]; then
			printf 'log lines for port %s:\n%s\n' "$port" "$(log_lines "$port")" >&2
			return 1
		fi
	done
	lnetd_serves
}
