# SPDX-License-Identifier: GPL-2.0-only
# The soak's cycles, checks and figures (scripts/soak.sh).

SOAK_NCHECK=0
SOAK_NFAIL=0
SOAK_RECOVER_LONGEST=0
SOAK_HEALTH_BAD=
declare -A SOAK_RSS_FIRST=() SOAK_RSS_LAST=() SOAK_RSS_START=()

soak_hosts() {
	echo "${SOAK_NODES[@]}" "${SOAK_ROUTERS[@]}"
}

# soak_check DESC CMD...: one TAP line; CMD's output shown when it fails.
soak_check() {
	local desc=$1 out
	shift
	SOAK_NCHECK=$((SOAK_NCHECK + 1))
	if out=$("$@" 2>&1); then
		echo "ok $SOAK_NCHECK - $desc"
	else
		echo "not ok $SOAK_NCHECK - $desc"
		SOAK_NFAIL=$((SOAK_NFAIL + 1))
	fi
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
	return 0
}

# soak_health_low: the NIs and peer NIs below full health, on every host.
soak_health_low() {
	local h files=()
	for h in $(soak_hosts); do
		on "$h" lnetctl net show -v 2 >"$TD/health.net.$h" 2>/dev/null &&
		on "$h" lnetctl peer show -v 2 >"$TD/health.peer.$h" 2>/dev/null || {
			echo "host $h: net/peer show failed"
			return 1
		}
		files+=("$TD/health.net.$h" "$TD/health.peer.$h")
	done
	# awk, not a YAML parser: this runs every second on a loaded machine
	awk -v max=1000 '
		FNR == 1 { f = FILENAME; sub(/.*\//, "", f) }
		$1 == "-" && $2 == "nid:" { nid = $3 }
		$1 == "health" && $2 == "value:" && $3 < max { print f ": " nid " health " $3; bad = 1 }
		END { exit bad }' "${files[@]}"
}

# soak_recover C: wait for full health after cycle C's faults; the time.
soak_recover() {
	local t0=$SECONDS took
	until soak_health_low >"$TD/health.low"; do
		sed "s/^/$((SECONDS - t0)) s: /" "$TD/health.low" >>"$TD/recovery.log"
		if [ $((SECONDS - t0)) -ge "$SOAK_RECOVER_MAX" ]; then
			SOAK_HEALTH_BAD+="cycle $1: after $SOAK_RECOVER_MAX s: $(head -n 5 "$TD/health.low" | tr '\n' ';') "
			return
		fi
		sleep 1
	done
	took=$((SECONDS - t0))
	[ "$took" -gt "$SOAK_RECOVER_LONGEST" ] && SOAK_RECOVER_LONGEST=$took
	echo "# cycle $1: health back to $((1000)) everywhere after $took s"
}

# soak_alive: every lnetd is running now, or a line in $TD/crashes.
soak_alive() {
	local h
	for h in $(soak_hosts); do
		kill -0 "$(soak_pid "$h")" 2>/dev/null ||
			echo "host $h: lnetd $(soak_pid "$h") is gone" >>"$TD/crashes"
	done
	return 0
}

soak_rss_sample() {
	local -n into=$1
	local n
	for n in "${SOAK_NODES[@]}"; do
		into[$n]=$(soak_rss_kib "$n")
	done
}

# soak_cycle C: faults for two thirds of the cycle, then quiet.
soak_cycle() {
	local c=$1 phase end stop
	phase=$((DURATION / CYCLES))
	stop=$((SECONDS + phase))
	end=$((SECONDS + phase * 2 / 3))
	echo "# cycle $c: faults for $((phase * 2 / 3)) s (at $((SECONDS - SOAK_T0)) s)"
	while [ "$SECONDS" -lt "$end" ]; do
		soak_fault
		soak_rnd 3
		sleep "$R"
	done
	soak_recover "$c"
	soak_alive
	while [ "$SECONDS" -lt "$stop" ]; do sleep 1; done
	if [ "$c" = 1 ]; then
		soak_rss_sample SOAK_RSS_FIRST
	fi
	soak_rss_sample SOAK_RSS_LAST
}

# --- the checks ------------------------------------------------------------------
soak_check_runs() {
	"$SOAK_PY" "$TOP/tests/soak/report.py" runs "$TD/runs" >"$TD/totals" 2>"$TD/bad" || {
		head -n 20 "$TD/bad"
		return 1
	}
}

soak_total() {
	awk -v k="$1" '$1 == k { print $2 }' "$TD/totals"
}

soak_check_corrupt() {
	local n c sum=0
	for n in "${SOAK_NODES[@]}"; do
		c=$(stats_count "$n" selftest_corrupt) || return 1
		sum=$((sum + c))
	done
	echo "corrupt at the senders (GET): $(soak_total corrupt), at the receivers (PUT): $sum"
	[ "$(soak_total corrupt)" = 0 ] && [ "$sum" = 0 ]
}

soak_check_health() {
	[ -z "$SOAK_HEALTH_BAD" ] || { echo "$SOAK_HEALTH_BAD"; return 1; }
}

soak_check_crashes() {
	soak_alive
	[ ! -s "$TD/crashes" ] || { cat "$TD/crashes"; return 1; }
}

soak_check_commands() {
	[ ! -s "$TD/errors" ] || { cat "$TD/errors"; return 1; }
}

# Each node's RSS at the end of the last cycle against the end of the first.
soak_check_rss() {
	local n a b bad=0
	for n in "${SOAK_NODES[@]}"; do
		a=${SOAK_RSS_FIRST[$n]}
		b=${SOAK_RSS_LAST[$n]}
		if [ $((b - a)) -gt $((RSS_TOLERANCE_KIB + a * RSS_TOLERANCE_PCT / 100)) ]; then
			echo "node $n: $a KiB after cycle 1, $b KiB after cycle $CYCLES"
			bad=1
		fi
	done
	return "$bad"
}

# Unconfigure, then stop every lnetd: each says how many objects it had left.
soak_check_unconfigure() {
	local h pid bad=0
	for h in $(soak_hosts); do
		on "$h" lnetctl lnet unconfigure || { echo "host $h: unconfigure failed"; bad=1; }
		pid=$(soak_pid "$h") && kill -TERM "$pid"
		for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
		if ! tail -n 1 "$(node_log "$h")" | grep -q 'lnetd: stopped, 0 objects left$'; then
			echo "host $h: $(tail -n 1 "$(node_log "$h")")"
			bad=1
		fi
	done
	return "$bad"
}

soak_check_sanitizers() {
	local f bad=0
	for f in "$TD"/san/*; do
		[ -s "$f" ] || continue
		echo "$(basename "$f"):"
		head -n 30 "$f"
		bad=1
	done
	return "$bad"
}

soak_checks() {
	local metas=("$TD"/runs/*.meta)
	soak_check "exactly once: every message ended in one event on its sender (${#metas[@]} runs)" soak_check_runs
	soak_check "no byte corrupted" soak_check_corrupt
	soak_check "health back to its maximum after every cycle's faults (<= $SOAK_RECOVER_MAX s)" soak_check_health
	soak_check "no lnetd crashed" soak_check_crashes
	soak_check "every configuration change applied (policy, import, fault rules, router restart)" soak_check_commands
	soak_check "RSS grew by at most $RSS_TOLERANCE_KIB KiB + $RSS_TOLERANCE_PCT% from cycle 1 to cycle $CYCLES" soak_check_rss
	soak_figures_stats
	soak_check "unconfigure left 0 objects (every lnetd)" soak_check_unconfigure
	soak_check "ASan and UBSan reported nothing" soak_check_sanitizers
}

# --- the figures --------------------------------------------------------------------
# Resends (a failed send tried again on another path) on the nodes: the
# failovers. Read before the unconfigure.
soak_figures_stats() {
	local n r s
	SOAK_RESENDS=0
	SOAK_RESENDS_OK=0
	for n in "${SOAK_NODES[@]}"; do
		read -r r s <<<"$(stats_count "$n" resend_count successful_resends)"
		SOAK_RESENDS=$((SOAK_RESENDS + ${r:-0}))
		SOAK_RESENDS_OK=$((SOAK_RESENDS_OK + ${s:-0}))
	done
}

soak_figures() {
	local k n rss0=0 rss1=0 c
	echo "# seed $SEED, $DURATION s, $CYCLES cycles"
	echo "# messages sent $(soak_total sent), delivered $(soak_total ok), failed $(soak_total failed), corrupt $(soak_total corrupt) ($(soak_total runs) selftest runs)"
	c=""
	for k in timeout unreachable shutdown network start abandoned no_route; do
		c+=" $k $(soak_total "$k"),"
	done
	echo "# failed by cause:${c%,}"
	c=""
	for k in "${SOAK_FAULT_KINDS[@]}"; do
		c+=" $k ${SOAK_FAULTS[$k]:-0},"
	done
	echo "# faults injected:${c%,}"
	echo "# failovers (resends on another path): $SOAK_RESENDS, $SOAK_RESENDS_OK of them delivered"
	echo "# longest time to recover full health: $SOAK_RECOVER_LONGEST s"
	for n in "${SOAK_NODES[@]}"; do
		rss0=$((rss0 + SOAK_RSS_START[$n]))
		rss1=$((rss1 + SOAK_RSS_LAST[$n]))
	done
	echo "# RSS of the 8 nodes' lnetd: $((rss0 / 1024)) MiB at start, $((rss1 / 1024)) MiB at the end"
}

soak_main() {
	local c
	topo_init
	mkdir -p "$TD/san"
	# a small quarantine: full within the first cycle even in make check's
	# 2-minute soak, so that the RSS check compares warmed-up nodes (16 MiB
	# filled only during the second cycle there: 15 MiB of "growth")
	export ASAN_OPTIONS="log_path=$TD/san/asan:detect_leaks=1:quarantine_size_mb=4"
	export UBSAN_OPTIONS="log_path=$TD/san/ubsan:print_stacktrace=1"
	: >"$TD/crashes"
	: >"$TD/errors"
	echo "# soak: seed $SEED, $DURATION s, $CYCLES cycles (scripts/soak.sh --seed $SEED --duration $DURATION --cycles $CYCLES)"
	soak_seed "$SEED"
	if ! soak_topology || ! soak_routes_up; then
		echo "not ok 1 - the topology came up"
		echo "1..1"
		return 1
	fi
	soak_rss_sample SOAK_RSS_START
	echo "# topology up after $SECONDS s"
	SOAK_T0=$SECONDS
	soak_traffic_start
	for c in $(seq "$CYCLES"); do
		soak_cycle "$c"
	done
	soak_traffic_stop
	echo "# traffic stopped at $((SECONDS - SOAK_T0)) s"
	soak_checks
	soak_figures
	echo "# done after $SECONDS s in all"
	echo "1..$SOAK_NCHECK"
	[ "$SOAK_NFAIL" = 0 ] || soak_keep_logs
	[ "$SOAK_NFAIL" = 0 ]
}

# After a failed check: the node logs, the faults, the sanitizers' reports
# and the runs that broke the accounting outlive the temp dir.
soak_keep_logs() {
	local keep=$TOP/build/soak-failed.$SEED
	rm -rf "$keep" && mkdir -p "$keep" || return 0
	cp -r "$TD"/n*.log "$TD/faults.log" "$TD/san" "$keep/" 2>/dev/null
	cp "$TD/bad" "$TD/crashes" "$TD/errors" "$TD/recovery.log" "$keep/" 2>/dev/null
	echo "# logs kept in $keep"
}
