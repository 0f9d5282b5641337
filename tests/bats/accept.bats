#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The socket LND's acceptor under lnetd's --accept* options (Lustre's lnet
# module parameters accept, accept_port, accept_backlog, accept_timeout):
# which source ports it takes, no listener at all, and what a peer that
# never finishes its handshake, or floods connections, costs: a slot for
# accept_timeout at most, never more than 256 slots, memory and
# descriptors back to where they were. The scripted peer is
# tests/tools/lnet_client.py, from 10.11.0.2 to 10.11.0.1.

load helpers
# the socket LND is lnetd's (lnet.ko has no tcp LND yet)
# bats file_tags=lnetd-only

CLIENT=$TOP/tests/tools/lnet_client.py
PATH=/usr/bin:$PATH
PEER=10.11.0.2

setup() {
	lnet_setup
	lnetctl lnet configure
}

teardown() {
	[ -f "$T/c.pid" ] && kill "$(cat "$T/c.pid")" 2>/dev/null
	lnet_teardown
}

client() {
	ip netns exec "$NS" python3 "$CLIENT" "$@"
}

# listening ADDR PORT: an acceptor listens there (waits up to 5 s).
listening() {
	for _ in $(seq 100); do
		ip netns exec "$NS" ss -Hltn "sport = :$2" | grep -q "$1:$2" && return 0
		sleep 0.05
	done
	return 1
}

# lnetd_c ARGS...: one more lnetd in the namespace (socket $T/c.sock,
# log $T/c.log), configured, with its tcp NI on veth0 (the NI of the
# first lnetd, 10.11.0.1, is on veth0 too, on port 988: this one's ARGS
# name another port).
lnetd_c() {
	ip netns exec "$NS" "$LNETD_BIN" --socket "$T/c.sock" --pidfile "$T/c.pid" \
		--log "$T/c.log" "$@"
	"$LNETCTL_BIN" --socket "$T/c.sock" lnet configure
	"$LNETCTL_BIN" --socket "$T/c.sock" net add --net tcp --if veth0
}

# The client's local port ("local 10.11.0.2:PORT").
client_port() {
	sed -n "s/^local $PEER:\([0-9]*\)\$/\1/p" <<<"$output"
}

# log_has FILE LINE: FILE gets LINE (without time and level) within 3 s.
log_has() {
	for _ in $(seq 60); do
		sed 's/^[^ ]* [^ ]* //' "$1" | grep -qxF "$2" && return 0
		sleep 0.05
	done
	printf 'no line "%s" in %s:\n' "$2" "$1" >&2
	cat "$1" >&2
	return 1
}

# rss_kb PID, fds PID: lnetd's resident memory and its open descriptors.
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}
fds() {
	ls "/proc/$1/fd" | wc -l
}

@test "accept: the defaults are Lustre's, logged when lnetd starts" {
	log_has "$T/lnetd.log" \
		"lnetd: socket LND acceptor: accept=secure accept_port=988 accept_backlog=127 accept_timeout=5"
	lnetctl net add --net tcp --if veth0
	listening 10.11.0.1 988
	# the listen backlog is accept_backlog (ss shows it as Send-Q)
	run ip netns exec "$NS" ss -Hltn "sport = :988"
	[ "$(awk '{ print $3 }' <<<"$output")" = 127 ]
}

@test "accept=secure: a connection from an unprivileged port is refused before a byte is read" {
	lnetctl net add --net tcp --if veth0
	listening 10.11.0.1 988
	# a bad acceptor request that is not even looked at
	run client --insecure --timeout 3 bad-acceptor-magic
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = closed ]
	port=$(client_port)
	[ "$port" -gt 1023 ]
	log_has "$T/lnetd.log" \
		"socklnd: $PEER:$port: refusing the connection: insecure port $port (accept=secure takes ports up to 1023 only)"
	[ "$(grep -c "$PEER:$port" "$T/lnetd.log")" -eq 1 ]
	# the same peer from a privileged port is served
	run client ping
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "hello 10.11.0.1@tcp -> $PEER@tcp kind 1" ]
	[ "$(client_port)" -le 1023 ]
	run client --insecure ping
	[ "$status" -eq 1 ]
}

@test "accept=all (option or LNET_ACCEPT): any port is served" {
	LNET_ACCEPT=none lnetd_c --accept all --accept-port 1988 --accept-backlog 9
	log_has "$T/c.log" \
		"lnetd: socket LND acceptor: accept=all accept_port=1988 accept_backlog=9 accept_timeout=5"
	listening 10.11.0.1 1988
	run ip netns exec "$NS" ss -Hltn "sport = :1988"
	[ "$(awk '{ print $3 }' <<<"$output")" = 9 ]
	run client --insecure --port 1988 ping
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "hello 10.11.0.1@tcp -> $PEER@tcp kind 1" ]
	[ "$(client_port)" -gt 1023 ]
}

@test "accept=none: no listener; our own connections still carry traffic both ways" {
	# node C: accept=none, NI 10.11.0.2@tcp; the first lnetd (secure) has 10.11.0.1@tcp
	lnetctl net add --net tcp --if veth0
	listening 10.11.0.1 988
	ip netns exec "$NS" env LNET_ACCEPT=none "$LNETD_BIN" --socket "$T/c.sock" \
		--pidfile "$T/c.pid" --log "$T/c.log"
	"$LNETCTL_BIN" --socket "$T/c.sock" lnet configure
	"$LNETCTL_BIN" --socket "$T/c.sock" net add --net tcp --if veth1
	log_has "$T/c.log" \
		"lnetd: socket LND acceptor: accept=none accept_port=988 accept_backlog=127 accept_timeout=5"
	run "$LNETCTL_BIN" --socket "$T/c.sock" net show
	[[ "$output" == *"nid: 10.11.0.2@tcp"* ]]
	sleep 0.3
	run ip netns exec "$NS" ss -Hltn "sport = :988"
	[[ "$output" == *"10.11.0.1:988"* ]]
	[[ "$output" != *"10.11.0.2:988"* ]]
	# C connects out (from a privileged port, which secure takes)...
	run "$LNETCTL_BIN" --socket "$T/c.sock" ping 10.11.0.1@tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['ping'][0]['primary nid']")" = 10.11.0.1@tcp ]
	run ip netns exec "$NS" ss -Htn state established "( src 10.11.0.2 and dport = :988 )"
	[ -n "$output" ]
	[ "$(awk '{ split($3, a, ":"); print (a[2] <= 1023) }' <<<"${lines[0]}")" = 1 ]
	# ...and the other node answers it over C's connection
	run lnetctl ping 10.11.0.2@tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['ping'][0]['primary nid']")" = 10.11.0.2@tcp ]
}

@test "accept settings: a bad value is refused with the allowed form, nothing starts" {
	run "$LNETD_BIN" --socket "$T/x.sock" --accept secure,all
	[ "$status" -eq 2 ]
	[ "$output" = "lnetd: invalid --accept 'secure,all': expected secure, all or none" ]
	run "$LNETD_BIN" --socket "$T/x.sock" --accept-port 65536
	[ "$status" -eq 2 ]
	[ "$output" = "lnetd: invalid --accept-port '65536': expected an integer 1-65535" ]
	run "$LNETD_BIN" --socket "$T/x.sock" --accept-timeout ''
	[ "$status" -eq 2 ]
	[ "$output" = "lnetd: invalid --accept-timeout '': expected an integer 1-3600" ]
	run env LNET_ACCEPT=Secure "$LNETD_BIN" --socket "$T/x.sock"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetd: invalid LNET_ACCEPT 'Secure': expected secure, all or none" ]
	run env LNET_ACCEPT_BACKLOG=0x10 "$LNETD_BIN" --socket "$T/x.sock"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetd: invalid LNET_ACCEPT_BACKLOG '0x10': expected an integer 1-65535" ]
	[ ! -e "$T/x.sock" ]
}

@test "accept_timeout: a peer that never finishes its handshake is dropped at its deadline" {
	lnetd_c --accept-port 1988 --accept-timeout 1
	listening 10.11.0.1 1988
	for c in silent drip half-hello; do
		run client --port 1988 --timeout 5 "$c"
		[ "$status" -eq 0 ]
		[ "${lines[-1]}" = closed ]
		secs=${lines[-2]#open }
		secs=${secs% s}
		# 1 s, and the acceptor's wake-ups are at most a second apart
		awk -v s="$secs" 'BEGIN { exit !(s >= 0.9 && s <= 2.2) }'
		port=$(client_port)
		case $c in
		silent | drip) why="no acceptor request: error -110" ;;
		half-hello) why="hello cut short: error -110" ;;
		esac
		log_has "$T/c.log" "socklnd: $PEER:$port: refusing the connection: $why"
	done
}

@test "flood: 300 silent connections take at most 256 handshake slots, each until accept_timeout; memory and descriptors come back" {
	lnetd_c --accept all --accept-port 1988 --accept-timeout 2 --accept-backlog 1024
	listening 10.11.0.1 1988
	pid=$(cat "$T/c.pid")
	fd0=$(fds "$pid")
	rss0=$(rss_kb "$pid")
	client --insecure --port 1988 --count 300 --timeout 6 flood >"$T/flood.out" &
	fpid=$!
	for _ in $(seq 100); do grep -q '^flood' "$T/flood.out" && break; sleep 0.05; done
	# while they are held: 256 in their handshake
	rss1=$(rss_kb "$pid")
	fd1=$(fds "$pid")
	wait "$fpid"
	cat "$T/flood.out"
	[ "$(cat "$T/flood.out")" = "flood 300
closed at once 44
closed later 256
still open 0" ]
	[ "$fd1" -le $((fd0 + 256)) ]
	[ $((rss1 - rss0)) -lt 4096 ]
	grep -q "refusing the connection: 256 handshakes are in progress already" "$T/c.log"
	# every slot freed: the descriptors lnetd had, and a good peer is served
	for _ in $(seq 40); do [ "$(fds "$pid")" -eq "$fd0" ] && break; sleep 0.05; done
	[ "$(fds "$pid")" -eq "$fd0" ]
	[ $(($(rss_kb "$pid") - rss0)) -lt 4096 ]
	run client --port 1988 ping
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "hello 10.11.0.1@tcp -> $PEER@tcp kind 1" ]
}

@test "flood: under accept=secure, connections from unprivileged ports take no slot at all" {
	lnetctl net add --net tcp --if veth0
	listening 10.11.0.1 988
	pid=$(cat "$T/lnetd.pid")
	fd0=$(fds "$pid")
	run client --insecure --count 300 --send-request --timeout 3 flood
	[ "$status" -eq 0 ]
	[ "$output" = "flood 300
closed at once 300
closed later 0
still open 0" ]
	[ "$(fds "$pid")" -eq "$fd0" ]
	run client ping
	[ "$status" -eq 0 ]
}

@test "accept settings: lnetd --help (made from lnet_tunables.h) and lnetd(8) state the same options, ranges and defaults" {
	run "$LNETD_BIN" --help
	[ "$status" -eq 0 ]
	local n=0 opt range env def
	# "  --accept-port N     ...:" then "      1-65535, default $LNET_ACCEPT_PORT, else 988"
	while read -r opt range env def; do
		grep -qx ".It Fl ${opt#-} Ar .*" "$TOP/man/lnetd.8"
		grep -A1 -x ".Ev ${env#\$} ;" "$TOP/man/lnetd.8" | grep -q "^$range default $def"
		n=$((n + 1))
	done < <(awk '/^  --accept-/ { opt = $1; next }
		opt && /default \$/ { sub(",", "", $3); print opt, $1, $3, $5; opt = "" }' <<<"$output")
	[ "$n" -eq 3 ]
	# the modes, secure first (the default)
	[[ "$output" == *"default \$LNET_ACCEPT, else secure:"* ]]
	for mode in secure all none; do
		grep -q "^\.Cm $mode" "$TOP/man/lnetd.8"
		[[ "$output" == *"  $mode "* ]]
	done
}
