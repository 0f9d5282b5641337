#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Link state: an NI whose interface goes down shows `status: down` and comes
# back with the link (lnetd: rtnetlink monitor; /dev/lnet: netdevice
# notifier), other NIs are untouched; lnetd serves other clients while a
# ping waits for the network.

load helpers

setup() {
	lnet_setup
	# A second pair, so that one NI's link going down leaves the other's
	# carrier alone (veth1 loses its carrier with veth0).
	ip -n "$NS" link add veth2 type veth peer name veth3
	ip -n "$NS" addr add 10.12.0.1/24 dev veth2
	ip -n "$NS" addr add 10.12.0.2/24 dev veth3
	ip -n "$NS" link set veth2 up
	ip -n "$NS" link set veth3 up
	lnetctl lnet configure
}

teardown() {
	lnet_teardown
}

# ni_doc NID STATUS IF NET: the exact `net show --net NET` of a one-NI net.
ni_doc() {
	cat <<EOF
net:
-   net type: $4
    local NI(s):
    -   nid: $1
        status: $2
        interfaces:
            0: $3
EOF
}

# silent_peer: 10.11.0.99 resolves (a static neighbour entry) to a MAC
# nobody has, so a connection to it neither succeeds nor fails: a ping of
# 10.11.0.99@tcp waits for its own timeout.
silent_peer() {
	ip -n "$NS" neigh replace 10.11.0.99 lladdr 02:00:00:00:00:99 dev veth0 nud permanent
}

# waiting_ping TIMEOUT: (lnetd only) an NI on veth0 and, in the
# background, a ping of the silent peer that waits up to TIMEOUT s, its
# pid in $pingpid; half a second for the request to reach lnetd.
waiting_ping() {
	lnetd_only
	lnetctl net add --net tcp --if veth0
	silent_peer
	lnetctl ping --timeout "$1" 10.11.0.99@tcp >"$T/ping.out" 2>&1 &
	pingpid=$!
	sleep 0.5
}

# ping_failed: the background ping of waiting_ping ends with exit 1.
ping_failed() {
	local st=0
	wait "$pingpid" || st=$?
	[ "$st" -eq 1 ]
}

# wait_status NET STATUS: poll `net show --net NET` for up to 2 s until
# the NI shows STATUS; $output is the last answer.
wait_status() {
	local i
	for i in $(seq 40); do
		run lnetctl net show --net "$1"
		[ "$status" -eq 0 ] || return 1
		[[ "$output" == *"status: $2"* ]] && return 0
		sleep 0.05
	done
	echo "after 2 s still: $output"
	return 1
}

@test "link: interface down -> NI status down within 2 s, up again -> up; other NIs untouched" {
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp1 --if veth2
	run lnetctl net show --net tcp
	yaml_is "$(ni_doc 10.11.0.1@tcp up veth0 tcp)"
	ip -n "$NS" link set veth0 down
	wait_status tcp down
	yaml_is "$(ni_doc 10.11.0.1@tcp down veth0 tcp)"
	run lnetctl net show --net tcp1
	[ "$status" -eq 0 ]
	yaml_is "$(ni_doc 10.12.0.1@tcp1 up veth2 tcp1)"
	ip -n "$NS" link set veth0 up
	wait_status tcp up
	yaml_is "$(ni_doc 10.11.0.1@tcp up veth0 tcp)"
	run lnetctl net show --net tcp1
	yaml_is "$(ni_doc 10.12.0.1@tcp1 up veth2 tcp1)"
}

@test "link: losing the carrier (the veth peer goes down) is down too" {
	lnetctl net add --net tcp --if veth2
	ip -n "$NS" link set veth3 down
	wait_status tcp down
	yaml_is "$(ni_doc 10.12.0.1@tcp down veth2 tcp)"
	ip -n "$NS" link set veth3 up
	wait_status tcp up
	yaml_is "$(ni_doc 10.12.0.1@tcp up veth2 tcp)"
}

@test "link: an NI added while its interface is down starts down and comes up with it" {
	ip -n "$NS" link set veth2 down
	lnetctl net add --net tcp --if veth2
	run lnetctl net show --net tcp
	[ "$status" -eq 0 ]
	yaml_is "$(ni_doc 10.12.0.1@tcp down veth2 tcp)"
	ip -n "$NS" link set veth2 up
	wait_status tcp up
	yaml_is "$(ni_doc 10.12.0.1@tcp up veth2 tcp)"
}

@test "link: lnetd logs each change, follows the address going away, and keeps running" {
	lnetd_only
	lnetctl net add --net tcp --if veth2
	n0=$(wc -l <"$T/lnetd.log")
	for _ in 1 2 3; do
		ip -n "$NS" link set veth2 down
		wait_status tcp down
		ip -n "$NS" link set veth2 up
		wait_status tcp up
	done
	tail -n +$((n0 + 1)) "$T/lnetd.log" | grep -o 'lnetd: link veth2 .*' >"$T/changes"
	printf 'lnetd: link veth2 %s\n' down up down up down up | diff - "$T/changes"
	# no usable address: no traffic either
	ip -n "$NS" addr del 10.12.0.1/24 dev veth2
	wait_status tcp down
	ip -n "$NS" addr add 10.12.0.1/24 dev veth2
	wait_status tcp up
	yaml_is "$(ni_doc 10.12.0.1@tcp up veth2 tcp)"
	pid_running "$(cat "$T/lnetd.pid")"
	# an interface removed is down for good
	ip -n "$NS" link del veth2
	wait_status tcp down
	pid_running "$(cat "$T/lnetd.pid")"
}

@test "lnetd: a second client's net show answers while a ping waits for the network" {
	waiting_ping 4
	t0=$(date +%s%N)
	run timeout 2 "$LNETCTL_BIN" net show --net tcp
	t1=$(date +%s%N)
	[ "$status" -eq 0 ]
	yaml_is "$(ni_doc 10.11.0.1@tcp up veth0 tcp)"
	[ $(((t1 - t0) / 1000000)) -lt 1000 ]
	# the ping was still waiting when net show answered
	kill -0 "$pingpid" || { cat "$T/ping.out"; false; }
	ping_failed
	pid_running "$(cat "$T/lnetd.pid")"
}

@test "lnetd: SIGTERM while a ping waits: the ping ends at once, lnetd unconfigures and stops" {
	waiting_ping 30
	pid=$(cat "$T/lnetd.pid")
	kill -TERM "$pid"
	# well before the ping's 30 s
	for _ in $(seq 60); do pid_running "$pid" || break; sleep 0.05; done
	run pid_running "$pid"
	[ "$status" -ne 0 ]
	ping_failed
	grep -q "lnetd: unconfiguring to end 1 running request(s)" "$T/lnetd.log"
	grep -q "lnetd: stopped" "$T/lnetd.log"
	[ ! -e "$LNET_SOCKET" ]
}

@test "lnetd: lnet unconfigure from a second client while a ping waits: both return, lnetd serves on" {
	waiting_ping 30
	run timeout 5 "$LNETCTL_BIN" lnet unconfigure
	[ "$status" -eq 0 ]
	st=0
	timeout 5 tail --pid="$pingpid" -f /dev/null || st=$?
	[ "$st" -eq 0 ]
	ping_failed
	pid_running "$(cat "$T/lnetd.pid")"
	lnetctl lnet configure
	net_show_lo_only
}
