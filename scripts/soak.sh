#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The soak (issue 18): 8 lnetd nodes and 2 routers in network namespaces
# on three LNet nets (tests/soak/topo.bash), every node sending selftest
# traffic to every other one (tests/soak/traffic.bash), while faults
# chosen from --seed come and go (tests/soak/faults.bash). --cycles
# cycles share --duration seconds; each is a fault window (two thirds of
# it) and then a quiet time in which health must come back to its
# maximum, and after which the RSS of every node's lnetd is taken.
# Then the checks, one "ok N - ..." or "not ok N - ..." line each (as
# TAP, which scripts/run-tests.sh counts), and the figures.
#
#   scripts/soak.sh [--seed S] [--duration SECONDS] [--cycles N]
#
# Runs build/san/bin/lnetd (ASan + UBSan; `make build/san/bin/lnetd`) and
# build/lnetctl, as root. Exit status: 0 every check passed, 1 a check
# failed, 2 usage error.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
LNETD_BIN=${LNETD_BIN:-$TOP/build/san/bin/lnetd}
LNETCTL_BIN=${LNETCTL_BIN:-$TOP/build/lnetctl}
SOAK_PY=python3
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import yaml' 2>/dev/null && SOAK_PY=/usr/bin/python3

# The tolerance of the RSS check: an lnetd may grow by this much between
# the end of the first cycle (buffers, pools and the sanitizers'
# quarantine warmed up) and the end of the last one.
RSS_TOLERANCE_KIB=8192
RSS_TOLERANCE_PCT=10
SOAK_TX_TIMEOUT=10		# LNet's transaction_timeout on every node
SOAK_ST_TIMEOUT=60		# selftest --timeout: above LNet's own
SOAK_COUNT=8			# messages per selftest run
SOAK_RECOVER_MAX=120		# seconds health may take to come back
SOAK_PING_MAX=4			# max_recovery_ping_interval on every node

usage() {
	echo "usage: soak.sh [--seed S] [--duration SECONDS] [--cycles N]" >&2
	exit 2
}

# soak_arg NAME VALUE MIN MAX: VALUE is an integer MIN-MAX, else exit 2.
soak_arg() {
	if ! [[ $2 =~ ^[0-9]+$ ]] || [ "${#2}" -gt 10 ] || [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		echo "soak.sh: invalid $1 '$2': expected an integer $3-$4" >&2
		exit 2
	fi
}

SEED=$(( (RANDOM << 15 | RANDOM) % 2147483646 + 1 ))
DURATION=1500
CYCLES=6
while [ $# -gt 0 ]; do
	case $1 in
	--seed) [ $# -ge 2 ] || usage; soak_arg --seed "$2" 1 2147483646; SEED=$2; shift 2 ;;
	--duration) [ $# -ge 2 ] || usage; soak_arg --duration "$2" 30 86400; DURATION=$2; shift 2 ;;
	--cycles) [ $# -ge 2 ] || usage; soak_arg --cycles "$2" 2 1000; CYCLES=$2; shift 2 ;;
	-h | --help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "soak.sh: unexpected argument '$1'" >&2; usage ;;
	esac
done
for b in "$LNETD_BIN" "$LNETCTL_BIN"; do
	[ -x "$b" ] || { echo "soak.sh: $b is not built (make all build/san/bin/lnetd)" >&2; exit 1; }
done

. "$TOP/tests/bats/topo.bash"
. "$TOP/tests/soak/topo.bash"
. "$TOP/tests/soak/traffic.bash"
. "$TOP/tests/soak/faults.bash"
. "$TOP/tests/soak/checks.bash"

soak_main
