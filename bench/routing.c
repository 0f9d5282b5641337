// SPDX-License-Identifier: GPL-2.0-only
/*
 * LNet routing benchmark (not a test: it prints the figures, the ratios and
 * PASS/MISS per target, and exits 0 once it could measure). Needs root: it
 * makes three network namespaces A - R - B joined by two veth pairs
 * (A a0 10.34.0.1/24 <-> R r0 10.34.0.2/24 on tcp, R r1 10.35.0.2/24 <->
 * B b1 10.35.0.3/24 on tcp1), one lnetd in each; R routes, A has a route to
 * tcp1 and B to tcp through R. It compares, between the same namespaces and
 * interfaces:
 *
 *   1. 1 MiB LNet PUTs A -> R -> B (`lnetctl selftest put`, 8 in flight,
 *      the core's elapsed_ns) vs raw TCP streaming of the same bytes from A
 *      to B through a relay in R (until B confirms the last byte)
 *                                                        target >= 0.9
 *   2. 0-byte LNet PUTs with ACK through R, one at a time, vs a raw TCP
 *      64-byte ping-pong through the relay (TCP_NODELAY)  target >= 0.7
 *
 * The relay is a plain forwarder: a process in R that accepts on
 * 10.34.0.2, connects to B and copies each direction, socket to socket, in
 * a process of its own. So both sides pay for the same extra hop: two
 * veth crossings and one user-space copy in R. Each figure is the best of
 * REPEAT runs.
 *
 * Usage: build/bench/routing   (from the top of the tree; LNETD_BIN,
 * LNETCTL_BIN, LNET_BENCH_MIB, LNET_BENCH_MSGS as for bench/lnet).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "benchlib.h"

#define RELAY_PORT	5989
#define ADDR_A		"10.34.0.1"
#define ADDR_RA		"10.34.0.2"
#define ADDR_RB		"10.35.0.2"
#define ADDR_B		"10.35.0.3"
#define NID_B		ADDR_B "@tcp1"
#define NODE_A		0
#define NODE_R		1
#define NODE_B		2
/* seconds to wait for the routes to come up (2 s routing start + checks) */
#define ROUTE_WAIT	20

static pid_t relay_pid;

static const struct tcp_path relayed = {
	.rx_ns = nodes[NODE_B].ns, .rx_addr = ADDR_B,
	.tx_ns = nodes[NODE_A].ns, .tx_addr = ADDR_RA,
	.port = RELAY_PORT,
};

/* --- the relay in R ------------------------------------------------------------ */

static struct sockaddr_in sin_of(const char *addr)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(RELAY_PORT) };

	inet_pton(AF_INET, addr, &sa.sin_addr);
	return sa;
}

/* Copy @from to @to until EOF, then pass the EOF on. */
static void copy_stream(int from, int to)
{
	char *buf = malloc(MIB);
	ssize_t n;

	if (!buf)
		_exit(1);
	while ((n = read(from, buf, MIB)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !io_all(to, buf, n, true))
			_exit(1);
	}
	shutdown(to, SHUT_WR);
	_exit(0);
}

/* One relayed connection: connect to B, then one process per direction. */
static void relay_conn(int in)
{
	struct sockaddr_in sa = sin_of(ADDR_B);
	int out = socket(AF_INET, SOCK_STREAM, 0);
	pid_t back;

	if (out < 0 || connect(out, (struct sockaddr *)&sa, sizeof(sa)))
		_exit(1);
	nodelay(in);
	nodelay(out);
	back = fork();
	if (back < 0)
		_exit(1);
	if (back == 0)
		copy_stream(out, in);
	copy_stream(in, out);
}

/* The relay server, in R: accepts on ADDR_RA until killed; one byte to
 * @ready once it listens. */
static void relay_server(int ready)
{
	struct sockaddr_in sa = sin_of(ADDR_RA);
	int one = 1, ls, fd;
	pid_t pid;

	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);	/* the connection processes reap themselves */
	enter_ns(nodes[NODE_R].ns);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 4))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;) {
		fd = accept(ls, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		pid = fork();
		if (pid == 0) {
			close(ls);
			relay_conn(fd);
		}
		close(fd);
	}
}

static void stop_relay(void)
{
	if (relay_pid <= 0)
		return;
	kill(-relay_pid, SIGKILL);
	waitpid(relay_pid, NULL, 0);
	relay_pid = 0;
}

static void start_relay(void)
{
	int ready[2];
	char c;

	if (pipe(ready))
		die("pipe", strerror(errno));
	relay_pid = fork();
	if (relay_pid == 0)
		relay_server(ready[1]);
	if (relay_pid < 0 || read(ready[0], &c, 1) != 1)
		die("the TCP relay in R did not start", NULL);
	/* also the process group, before any connection forks */
	setpgid(relay_pid, relay_pid);
	close(ready[0]);
	close(ready[1]);
}

/* --- the three nodes --------------------------------------------------------------- */

static void ctl(int node, const char *fmt, const char *arg)
{
	char out[4096], args[256];

	snprintf(args, sizeof(args), fmt, arg);
	if (lnetctl(&nodes[node], out, sizeof(out), "%s", args))
		die(args, out);
}

static void veth(int a, const char *if_a, const char *addr_a, int b, const char *if_b,
		 const char *addr_b)
{
	if (sh("ip link add %s netns %s type veth peer name %s netns %s",
	       if_a, nodes[a].ns, if_b, nodes[b].ns) ||
	    sh("ip -n %s addr add %s/24 dev %s && ip -n %s link set %s up",
	       nodes[a].ns, addr_a, if_a, nodes[a].ns, if_a) ||
	    sh("ip -n %s addr add %s/24 dev %s && ip -n %s link set %s up",
	       nodes[b].ns, addr_b, if_b, nodes[b].ns, if_b))
		die("cannot make a veth pair", if_a);
}

/* Wait until node @n's only route says state up. */
static void wait_route_up(int n)
{
	char out[4096];
	int i;

	for (i = 0; i < ROUTE_WAIT * 5; i++) {
		if (!lnetctl(&nodes[n], out, sizeof(out), "route show -v") &&
		    strstr(out, "state: up"))
			return;
		usleep(200000);
	}
	die("the route did not come up", out);
}

static void setup(void)
{
	char out[4096];
	int i;

	for (i = NODE_A; i <= NODE_B; i++) {
		start_node(i);
		/* short router checks: the routes are up seconds after start */
		ctl(i, "set alive_router_check_interval %s", "1");
		ctl(i, "set router_ping_timeout %s", "1");
	}
	veth(NODE_A, "a0", ADDR_A, NODE_R, "r0", ADDR_RA);
	veth(NODE_R, "r1", ADDR_RB, NODE_B, "b1", ADDR_B);
	ctl(NODE_A, "net add --net tcp --if %s", "a0");
	ctl(NODE_R, "net add --net tcp --if %s", "r0");
	ctl(NODE_R, "net add --net tcp1 --if %s", "r1");
	ctl(NODE_B, "net add --net tcp1 --if %s", "b1");
	ctl(NODE_R, "set routing %s", "1");
	ctl(NODE_A, "route add --net tcp1 --gateway %s", ADDR_RA "@tcp");
	ctl(NODE_B, "route add --net tcp --gateway %s", ADDR_RB "@tcp1");
	wait_route_up(NODE_A);
	wait_route_up(NODE_B);
	if (lnetctl(&nodes[NODE_A], out, sizeof(out), "ping %s", NID_B))
		die("ping of B from A through R", out);
	start_relay();
}

int main(void)
{
	long mib = env_long("LNET_BENCH_MIB", 1024);
	long msgs = env_long("LNET_BENCH_MSGS", 10000);

	if (!bench_init("bench/routing"))
		return 0;
	atexit(stop_relay);	/* runs before the nodes' cleanup */
	setup();
	printf("bench/routing: three network namespaces A %s - R %s, %s - B %s (veth), "
	       "one lnetd each, R routes; raw TCP through a relay process in R; "
	       "TCP congestion control %s\n", ADDR_A, ADDR_RA, ADDR_RB, ADDR_B, bench_cc(0));
	bench_throughput(&nodes[NODE_A], NID_B, &relayed, mib, CONCURRENCY, 0.9,
			 " A -> R -> B", "raw TCP stream via the relay");
	bench_small(&nodes[NODE_A], &nodes[NODE_B], NID_B, &relayed, msgs, 0.7, " through R",
		    "raw TCP 64-byte ping-pong via the relay");
	stop_relay();
	cleanup();
	return 0;
}
