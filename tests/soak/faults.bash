# SPDX-License-Identifier: GPL-2.0-only
# The soak's faults, chosen by a generator seeded from --seed (the bash
# RANDOM of background jobs is not ours to rely on). Each fault is one
# function that injects it, holds it, and takes it away again, so that
# after every step the topology is whole; each writes one line to
# $TD/faults.log ("type detail") and counts in SOAK_FAULTS[type].

declare -A SOAK_FAULTS=()
SOAK_RNG=1
SOAK_FAULT_SKIPPED=

# soak_seed S: start the generator at S.
soak_seed() {
	SOAK_RNG=$(($1 % 2147483647))
	[ "$SOAK_RNG" = 0 ] && SOAK_RNG=1
	return 0
}

# soak_rnd N: R = the next number in 0..N-1 (Park-Miller; no subshell, so
# that the generator's state moves).
soak_rnd() {
	SOAK_RNG=$((SOAK_RNG * 48271 % 2147483647))
	R=$((SOAK_RNG % $1))
}

soak_fault_log() {
	SOAK_FAULTS[$1]=$((${SOAK_FAULTS[$1]:-0} + 1))
	echo "$*" >>"$TD/faults.log"
}

# soak_hold: 1-4 s with the fault in place.
soak_hold() {
	soak_rnd 4
	sleep $((R + 1))
}

# A link of a node or a router goes down, then up.
soak_fault_link() {
	local h ifn
	soak_rnd 10
	h=$((R + 1))
	soak_rnd 2
	if [ "$h" -le 8 ]; then
		ifn=e$R
	else
		ifn=r$(soak_net_of $((h - 8)))$R
	fi
	soak_fault_log link "host $h $ifn"
	on "$h" ip link set "$ifn" down
	soak_hold
	on "$h" ip link set "$ifn" up
}

# A node's link to a router black-holed (a permanent neighbour entry with
# a wrong MAC): its sends there vanish without an error.
soak_fault_blackhole() {
	local n k b r addr
	soak_rnd 8
	n=$((R + 1))
	soak_rnd 2
	b=$R
	soak_rnd 2
	r=$((R + 9))
	k=$(soak_net_of "$n")
	addr=$(soak_addr "$k" "$b" "$r")
	soak_fault_log blackhole "node $n e$b -> $addr"
	on "$n" ip neigh replace "$addr" lladdr 02:00:00:00:00:09 dev "e$b" nud permanent
	soak_hold
	on "$n" ip neigh del "$addr" dev "e$b"
}

# A router dies (SIGKILL) and comes back with the configuration it had
# (its export --backup, imported).
soak_fault_router() {
	local r
	soak_rnd 2
	r=$((R + 9))
	soak_fault_log router "router $r"
	if ! kill -0 "$(soak_pid "$r")" 2>/dev/null; then
		echo "router $r: lnetd died on its own" >>"$TD/crashes"
		return 0
	fi
	topo_kill "$r" || echo "router $r: SIGKILL failed" >>"$TD/crashes"
	soak_hold
	topo_lnetd "$r" && on "$r" lnetctl import "$TD/router.$r.yaml" ||
		echo "router $r: restart or import failed" >>"$TD/crashes"
}

# A rule that turns a node to the other router for a net, then deleted.
soak_fault_policy() {
	local n k j
	soak_rnd 8
	n=$((R + 1))
	k=$(soak_net_of "$n")
	soak_rnd 2
	j=$(((k + 1 + R) % 3))
	soak_fault_log policy "node $n --dst *@${SOAK_NETS[j]} --rte router $((9 + (n + 1) % 2))"
	on "$n" lnetctl policy add --dst "*@${SOAK_NETS[j]}" \
		--rte "$(soak_gw $((9 + (n + 1) % 2)) "$k")" --idx 0 &&
	soak_hold &&
	on "$n" lnetctl policy del --idx 0 ||
		echo "node $n: policy add or del failed" >>"$TD/errors"
}

# A configuration (a multi-rail peer that does not exist, a route to a
# net that does not exist) imported, then deleted with import --del.
soak_fault_import() {
	local n k f
	soak_rnd 8
	n=$((R + 1))
	k=$(soak_net_of "$n")
	f=$TD/import.$n.yaml
	cat >"$f" <<-EOF
	peer:
	  - primary nid: 10.99.$k.1@${SOAK_NETS[k]}
	    peer ni:
	      - nid: 10.99.$k.1@${SOAK_NETS[k]}
	      - nid: 10.99.$k.2@${SOAK_NETS[k]}
	route:
	  - net: tcp9
	    gateway: $(soak_gw 9 "$k")
	EOF
	soak_fault_log import "node $n"
	on "$n" lnetctl import "$f" &&
	soak_hold &&
	on "$n" lnetctl import --del "$f" ||
		echo "node $n: import or import --del failed" >>"$TD/errors"
}

# A drop rule (one in 5, 10 or 20 messages to a net, lost on the wire or
# failed with a health status) or a delay rule (one in 5 held 1-2 s) on a
# node or a router, then deleted.
soak_fault_drop_delay() {
	local h net rate how
	soak_rnd 10
	h=$((R + 1))
	soak_rnd 3
	net=${SOAK_NETS[R]}
	soak_rnd 3
	rate=$((5 << R))
	soak_rnd 3
	case $R in
	0) how=(drop add --rate "$rate") ;;
	1) how=(drop add --rate "$rate" --health_error random) ;;
	*) soak_rnd 2; how=(delay add --rate 5 --latency $((R + 1))) ;;
	esac
	soak_fault_log rules "host $h fault ${how[*]} --dest *@$net"
	on "$h" lnetctl fault "${how[@]}" --source '*' --dest "*@$net" &&
	soak_hold &&
	on "$h" lnetctl fault "${how[0]}" del --all ||
		echo "host $h: fault ${how[*]} or its del failed" >>"$TD/errors"
}

# Drop and delay rules (lnetctl fault, issue 18 item 1), when this lnetctl
# has them.
soak_fault_rules() {
	if ! "$LNETCTL_BIN" help 2>/dev/null | grep -q '^[[:space:]]*fault '; then
		if [ -z "$SOAK_FAULT_SKIPPED" ]; then
			echo "# skip: drop/delay rules: this lnetctl has no 'fault' command yet"
			SOAK_FAULT_SKIPPED=1
		fi
		return 0
	fi
	soak_fault_drop_delay
}

SOAK_FAULT_KINDS=(link blackhole router policy import rules)

# soak_fault: one fault, its kind chosen by the generator.
soak_fault() {
	soak_rnd ${#SOAK_FAULT_KINDS[@]}
	"soak_fault_${SOAK_FAULT_KINDS[R]}"
}
