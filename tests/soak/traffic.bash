# SPDX-License-Identifier: GPL-2.0-only
# The soak's traffic: every node runs selftest put and get to every other
# node in turn until $TD/stop exists. Each run leaves three files under
# $TD/runs/: N.I.yaml (the selftest document), N.I.err (stderr) and
# N.I.meta ("rc op target count"); tests/soak/report.py adds them up.

SOAK_SIZES=(0 4096 65536 262144)

# soak_worker N: node N's traffic loop (run in the background).
soak_worker() {
	local n=$1 i=0 t op size target rc
	local -a others=()
	for t in "${SOAK_NODES[@]}"; do
		[ "$t" != "$n" ] && others+=("$t")
	done
	while [ ! -e "$TD/stop" ]; do
		target=$(soak_nid "${others[i % ${#others[@]}]}")
		op=put
		[ $((i / ${#others[@]} % 2)) = 1 ] && op=get
		size=${SOAK_SIZES[(i + n) % ${#SOAK_SIZES[@]}]}
		rc=0
		on "$n" lnetctl selftest "$op" "$target" --count "$SOAK_COUNT" --size "$size" \
			--concurrency 4 --timeout "$SOAK_ST_TIMEOUT" \
			>"$TD/runs/$n.$i.yaml" 2>"$TD/runs/$n.$i.err" || rc=$?
		echo "$rc $op $target $SOAK_COUNT" >"$TD/runs/$n.$i.meta"
		i=$((i + 1))
	done
}

SOAK_WORKERS=()

soak_traffic_start() {
	local n
	mkdir -p "$TD/runs"
	rm -f "$TD/stop"
	for n in "${SOAK_NODES[@]}"; do
		soak_worker "$n" &
		SOAK_WORKERS+=("$!")
	done
}

# Each worker finishes the run it is in (at most --timeout plus LNet's).
soak_traffic_stop() {
	local pid
	touch "$TD/stop"
	for pid in "${SOAK_WORKERS[@]}"; do
		wait "$pid"
	done
	SOAK_WORKERS=()
}
