# SPDX-License-Identifier: GPL-2.0-only
# The soak's topology (scripts/soak.sh), on tests/bats/topo.bash:
#
#   net k (0: tcp, 1: tcp1, 2: tcp2) has two bridges, bk0 10.(70+2k).0.0/24
#   and bk1 10.(71+2k).0.0/24. Nodes 1-3 are on tcp, 4-6 on tcp1, 7-8 on
#   tcp2, each with two links (e0 on bk0, e1 on bk1) and one multi-rail NI
#   per link on its net. The routers 9 and 10 have two links on every net
#   (rk0, rk1) and route between all three. Every node has a route to
#   each other net through both routers; odd nodes prefer router 9 for
#   them, even nodes router 10 (UDSP router rules), and every node
#   prefers its e0 NI (a local NI priority rule).

SOAK_NODES=(1 2 3 4 5 6 7 8)
SOAK_ROUTERS=(9 10)
SOAK_NETS=(tcp tcp1 tcp2)

# soak_net_of N: net index of node N (routers: none).
soak_net_of() {
	case $1 in
	1 | 2 | 3) echo 0 ;;
	4 | 5 | 6) echo 1 ;;
	*) echo 2 ;;
	esac
}

# soak_addr K B N: address of host N on bridge B of net K.
soak_addr() {
	echo "10.$((70 + 2 * $1 + $2)).0.$3"
}

# soak_nid N: node N's primary NID (its e0 address on its net).
soak_nid() {
	local k
	k=$(soak_net_of "$1")
	echo "$(soak_addr "$k" 0 "$1")@${SOAK_NETS[k]}"
}

# soak_gw R K: router R's NID on net K (its rk0 address).
soak_gw() {
	echo "$(soak_addr "$2" 0 "$1")@${SOAK_NETS[$2]}"
}

# Short timers and a transaction timeout well under selftest's --timeout,
# so that LNet itself ends every message (abandoned stays 0); recovery
# pings at most SOAK_PING_MAX s apart, so that the time to recover
# measures the system, not how far the back-off had gone (900 s).
soak_timers() {
	topo_short_timers "$1" &&
	on "$1" lnetctl set max_recovery_ping_interval "$SOAK_PING_MAX" &&
	on "$1" lnetctl set retry_count 2 &&
	on "$1" lnetctl set transaction_timeout "$SOAK_TX_TIMEOUT"
}

soak_node_setup() {
	local n=$1 k j
	k=$(soak_net_of "$n")
	topo_node "$n" && soak_timers "$n" &&
	topo_hub_port "$n" e0 "$(soak_addr "$k" 0 "$n")/24" "b${k}0" &&
	topo_hub_port "$n" e1 "$(soak_addr "$k" 1 "$n")/24" "b${k}1" &&
	on "$n" lnetctl net add --net "${SOAK_NETS[k]}" --if e0,e1 || return 1
	for j in 0 1 2; do
		[ "$j" = "$k" ] && continue
		on "$n" lnetctl route add --net "${SOAK_NETS[j]}" --gateway "$(soak_gw 9 "$k")" &&
		on "$n" lnetctl route add --net "${SOAK_NETS[j]}" --gateway "$(soak_gw 10 "$k")" &&
		on "$n" lnetctl policy add --dst "*@${SOAK_NETS[j]}" \
			--rte "$(soak_gw $((9 + n % 2)) "$k")" || return 1
	done
	on "$n" lnetctl policy add --src "$(soak_addr "$k" 0 '*')@${SOAK_NETS[k]}" --priority 0
}

# soak_router_links R: router R's six links (before its lnetd is configured).
soak_router_links() {
	local r=$1 k b
	for k in 0 1 2; do
		for b in 0 1; do
			topo_hub_port "$r" "r$k$b" "$(soak_addr "$k" "$b" "$r")/24" "b$k$b" || return 1
		done
	done
}

# soak_router_config R: nets, timers and routing of router R (again after
# a restart, from its exported configuration: see soak_router_restart).
soak_router_config() {
	local r=$1 k
	soak_timers "$r" || return 1
	for k in 0 1 2; do
		on "$r" lnetctl net add --net "${SOAK_NETS[k]}" --if "r${k}0,r${k}1" || return 1
	done
	on "$r" lnetctl set routing 1
}

soak_topology() {
	local n
	for n in "${SOAK_ROUTERS[@]}"; do
		topo_node "$n" && soak_router_links "$n" && soak_router_config "$n" || return 1
		on "$n" lnetctl export --backup >"$TD/router.$n.yaml" || return 1
	done
	for n in "${SOAK_NODES[@]}"; do
		soak_node_setup "$n" || return 1
	done
}

# soak_routes_up: every route of every node is up (<= 30 s).
soak_routes_up() {
	local n down
	for _ in $(seq 150); do
		down=0
		for n in "${SOAK_NODES[@]}"; do
			on "$n" lnetctl route show -v >"$TD/routes.$n.yaml" || return 1
			grep -q 'state: down' "$TD/routes.$n.yaml" && down=1 && break
		done
		[ "$down" = 0 ] && return 0
		sleep 0.2
	done
	echo "soak: routes still down after 30 s (node $n)" >&2
	return 1
}

# soak_pid N: the pid of node N's lnetd now.
soak_pid() {
	cat "$TD/n$1.pid"
}

# soak_rss_kib N: VmRSS of node N's lnetd, in KiB.
soak_rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$(soak_pid "$1")/status"
}
