#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetd: options, socket, pidfile, shutdown, permissions, many and hostile
# clients. Each test has its own lnetd (lnet_setup) in its own netns.

load helpers
# lnetd itself: the VM drives /dev/lnet instead.
# bats file_tags=lnetd-only

setup() {
	lnet_setup
}

teardown() {
	local f
	for f in "$T"/extra*.pid; do
		[ -f "$f" ] && lnetd_stop_pidfile "$f"
	done
	lnet_teardown
}

# Start one more daemon: lnetd_extra NAME [ARGS...] (pidfile $T/extraNAME.pid).
lnetd_extra() {
	local name=$1
	shift
	"$LNETD_BIN" --pidfile "$T/extra$name.pid" "$@"
}

# python3 raw client: raw_client SOCKET MODE
#   partial  send half a request and keep the connection open for 3 s
#   garbage  send random bytes, then a header with a huge ioc_len, and
#            print lnetd's answer to the latter ("rc len")
raw_client() {
	python3 - "$1" "$2" <<'PY'
import os, socket, struct, sys, time
path, mode = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
if mode == "partial":
    s.sendall(struct.pack("=III", 0xc0186556, 64, 0x00020001))
    print("sent", flush=True)
    time.sleep(3)
elif mode == "garbage":
    s.sendall(os.urandom(3))
    s.close()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(struct.pack("=III", 0xdeadbeef, 0x7fffffff, 0x41414141) + os.urandom(512))
    s.settimeout(5)
    rc, n = struct.unpack("=iI", s.recv(8))
    print(rc, n)
PY
}

@test "lnetd: socket is mode 0600 and the pidfile names the daemon" {
	[ "$(stat -c %a "$LNET_SOCKET")" = 600 ]
	pid=$(cat "$T/lnetd.pid")
	[ "$(cat /proc/"$pid"/comm)" = lnetd ]
	grep -q "lnetd: serving $LNET_SOCKET (pid $pid)" "$T/lnetd.log"
}

@test "lnetd: --help exits 0, an unknown option or argument exits 2" {
	run "$LNETD_BIN" --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: lnetd [--socket PATH] [--foreground] [--pidfile FILE] [--log FILE] [--verbose]" ]
	run "$LNETD_BIN" --bogus
	[ "$status" -eq 2 ]
	run "$LNETD_BIN" extra
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "lnetd: unexpected argument 'extra'" ]
}

@test "lnetd: debug lines only with --verbose" {
	lnetd_extra v --socket "$T/v.sock" --log "$T/v.log" --verbose
	LNET_SOCKET=$T/v.sock lnetctl lnet configure
	# lnetctl's one request (IOC_LIBCFS_CONFIGURE), served with status 0
	grep -Eq "^[0-9T:.-]+Z debug lnetd: request 0x[0-9a-f]{8} of pid [0-9]+: 0$" "$T/v.log"
	grep -q " info lnetd: serving $T/v.sock" "$T/v.log"
	# the test's own lnetd runs without it
	lnetctl lnet configure
	! grep -q " debug " "$T/lnetd.log"
}

@test "lnetd: a second lnetd on the same socket is refused" {
	run ip netns exec "$NS" "$LNETD_BIN" --socket "$LNET_SOCKET" --pidfile "$T/extra2.pid"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetd: another lnetd is already serving $LNET_SOCKET" ]
	[ ! -e "$T/extra2.pid" ]
	pid_running "$(cat "$T/lnetd.pid")"
	run lnetctl lnet configure
	[ "$status" -eq 0 ]
}

@test "lnetd: LNET_SOCKET sets the socket and --socket overrides it" {
	LNET_SOCKET=$T/env.sock lnetd_extra env
	[ -S "$T/env.sock" ]
	LNET_SOCKET=$T/env2.sock lnetd_extra opt --socket "$T/opt.sock"
	[ -S "$T/opt.sock" ]
	[ ! -e "$T/env2.sock" ]
	# three daemons at once, each its own instance
	LNET_SOCKET=$T/env.sock lnetctl lnet configure
	run env LNET_SOCKET="$T/opt.sock" "$LNETCTL_BIN" policy del --all
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl policy del: LNet is not configured: run 'lnetctl lnet configure'" ]
	LNET_SOCKET=$T/env.sock lnetctl policy del --all
}

@test "lnetd: creates the socket's directory, replaces a stale socket, refuses a non-socket" {
	lnetd_extra dir --socket "$T/a/b/lnetd.sock"
	[ -S "$T/a/b/lnetd.sock" ]
	[ "$(stat -c %a "$T/a/b")" = 755 ]
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/stale.sock"
	[ -S "$T/stale.sock" ]
	lnetd_extra stale --socket "$T/stale.sock" --log "$T/stale.log"
	LNET_SOCKET=$T/stale.sock lnetctl lnet configure
	grep -q "lnetd: removed stale socket $T/stale.sock" "$T/stale.log"
	touch "$T/file.sock"
	run "$LNETD_BIN" --socket "$T/file.sock"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetd: '$T/file.sock' exists and is not a socket: remove it or choose another --socket" ]
}

@test "lnetd: SIGTERM removes the socket and the pidfile" {
	pid=$(cat "$T/lnetd.pid")
	kill -TERM "$pid"
	for _ in $(seq 100); do pid_running "$pid" || break; sleep 0.05; done
	run pid_running "$pid"
	[ "$status" -ne 0 ]
	[ ! -e "$LNET_SOCKET" ]
	[ ! -e "$T/lnetd.pid" ]
	grep -q "lnetd: Terminated received, shutting down" "$T/lnetd.log"
	grep -q "lnetd: stopped, 0 objects left$" "$T/lnetd.log"
}

@test "lnetd: SIGTERM with LNet configured, NIs, peers, rules and traffic: 0 objects left" {
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.7@tcp --nid 10.11.0.8@tcp
	lnetctl policy add --src tcp --priority 1
	lnetctl route add --net tcp5 --gateway 10.11.0.9@tcp
	lnetctl selftest put 0@lo --count 5
	pid=$(cat "$T/lnetd.pid")
	kill -TERM "$pid"
	for _ in $(seq 100); do pid_running "$pid" || break; sleep 0.05; done
	run pid_running "$pid"
	[ "$status" -ne 0 ]
	grep -q "lnetd: stopped, 0 objects left$" "$T/lnetd.log"
	run grep -c "objects left" "$T/lnetd.log"
	[ "$output" = 1 ]
}

@test "lnetd: --foreground exits 0 on SIGTERM and SIGINT after cleaning up" {
	for sig in TERM INT; do
		"$LNETD_BIN" --foreground --socket "$T/fg.sock" --pidfile "$T/fg.pid" \
			2>"$T/fg.err" &
		pid=$!
		for _ in $(seq 100); do [ -s "$T/fg.pid" ] && break; sleep 0.05; done
		[ -S "$T/fg.sock" ]
		[ "$(cat "$T/fg.pid")" = "$pid" ]
		kill -"$sig" "$pid"
		st=0
		wait "$pid" || st=$?
		[ "$st" -eq 0 ]
		[ ! -e "$T/fg.sock" ]
		[ ! -e "$T/fg.pid" ]
		grep -q "lnetd: stopped" "$T/fg.err"
	done
}

@test "lnetd: a client that is neither root nor lnetd's uid gets EPERM" {
	lnetctl lnet configure
	chmod 0755 "$T"
	chmod 0666 "$LNET_SOCKET"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LNETCTL_BIN" lnet unconfigure
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl lnet unconfigure: cannot unconfigure LNet: lnetd at $LNET_SOCKET accepts requests from root and its own user only" ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$LNETCTL_BIN" net show
	[ "$status" -eq 1 ]
	[[ "$output" == *"Operation not permitted"* ]]
	grep -q "uid 65534: refused (only root and uid 0 may configure LNet)" "$T/lnetd.log"
	# nothing changed: LNet is still configured for root
	run lnetctl net show
	[ "$status" -eq 0 ]
	[[ "$output" == *"nid: 0@lo"* ]]
}

@test "lnetd: a stalled client does not block others, and ten clients at once" {
	lnetctl lnet configure
	raw_client "$LNET_SOCKET" partial >"$T/partial.out" &
	rawpid=$!
	for _ in $(seq 100); do [ -s "$T/partial.out" ] && break; sleep 0.05; done
	run timeout 2 "$LNETCTL_BIN" net show
	[ "$status" -eq 0 ]
	[[ "$output" == *"nid: 0@lo"* ]]
	for i in $(seq 10); do
		"$LNETCTL_BIN" net show >"$T/many.$i" 2>&1 &
	done
	wait_all=0
	for job in $(jobs -p); do
		[ "$job" = "$rawpid" ] && continue
		wait "$job" || wait_all=1
	done
	[ "$wait_all" -eq 0 ]
	for i in $(seq 10); do cmp "$T/many.1" "$T/many.$i"; done
	grep -q "nid: 0@lo" "$T/many.1"
	wait "$rawpid"
}

@test "lnetd: garbage on the socket is answered or dropped, lnetd keeps serving" {
	run raw_client "$LNET_SOCKET" garbage
	[ "$status" -eq 0 ]
	[ "$output" = "-22 0" ]
	run lnetctl lnet configure
	[ "$status" -eq 0 ]
	pid_running "$(cat "$T/lnetd.pid")"
	grep -q "ioc_len 2147483647 not in 8-131072, closing" "$T/lnetd.log"
}

@test "lnetd: out of file descriptors, new connections are dropped and lnetd recovers" {
	"$LNETD_BIN" --socket "$T/fd.sock" --pidfile "$T/extrafd.pid" --log "$T/fd.log"
	# room for two connections above what lnetd holds open once started
	pid=$(cat "$T/extrafd.pid")
	nfd=$(ls /proc/"$pid"/fd | wc -l)
	prlimit --pid "$pid" --nofile=$((nfd + 2))
	python3 - "$T/fd.sock" <<'PY'
import socket, sys, time
held = []
for _ in range(10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    held.append(s)
time.sleep(0.5)
PY
	LNET_SOCKET=$T/fd.sock lnetctl lnet configure
	grep -q "lnetd: out of file descriptors: dropping a new connection" "$T/fd.log"
	kill -0 "$(cat "$T/extrafd.pid")"
}

@test "libcfg over lnetd: a net add that fails part way leaves no NI behind" {
	lnetctl lnet configure
	lnetctl net add --net tcp5 --if veth1
	run lnetctl net add --net tcp --if veth0,nosuch0
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl net add: interface 'nosuch0' does not exist" ]
	run lnetctl net add --net tcp5 --if veth0,veth1
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl net add: net tcp5 already has an NI on interface 'veth1'" ]
	run lnetctl net show
	[ "$status" -eq 0 ]
	[[ "$output" != *"10.11.0.1@tcp"* ]]
	[[ "$output" == *"10.11.0.2@tcp5"* ]]
	[[ "$output" != *"10.11.0.1@tcp5"* ]]
}
