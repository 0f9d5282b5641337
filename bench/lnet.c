// SPDX-License-Identifier: GPL-2.0-only
/*
 * LNet data path benchmark (not a test: it prints the figures, the ratios
 * and PASS/MISS per target, and exits 0 once it could measure). Needs root:
 * it makes two network namespaces joined by a veth pair (a0 10.31.0.1/24,
 * b0 10.31.0.2/24), one lnetd in each with a tcp NI on its end, and
 * compares, between the same two namespaces:
 *
 *   1. LNet PUT throughput, 1 MiB messages (`lnetctl selftest put`, 8 in
 *      flight, the core's elapsed_ns) vs raw TCP streaming of the same
 *      bytes on one connection (until the receiver confirms the last byte)
 *                                                        target >= 0.95
 *   2. 0-byte LNet PUTs with ACK, one at a time, vs a raw TCP 64-byte
 *      ping-pong (TCP_NODELAY): messages per second       target >= 0.8
 *      and the system calls both lnetds make per round trip (perf stat)
 *   3. as 1, one message in flight                        target >= 0.9
 *      and, without a target, raw TCP sending 1 MiB and waiting for a
 *      1-byte answer, one at a time: what the round trip costs TCP itself
 *   4. two flows side by side: a second veth pair (a1 10.32.0.1 <-> b1
 *      10.32.0.2) with a tcp1 NI at each end; 1 MiB PUTs from both NIs
 *      at once (8 in flight each) vs two raw TCP streams at once, one per
 *      pair: MB/s of the pair                             target >= 0.9
 *   5. Lustre's lnet_selftest protocol (`lnetctl selftest run`, brw write
 *      and read of 1 MiB, check none, 8 RPCs in flight): the client's
 *      LNet MB/s, beside the raw TCP stream of 1. (no target: SRPC adds a
 *      request and a reply per MiB, and the server moves the bulk)
 *
 * The raw TCP sender and receiver are this program, forked, each entering
 * its namespace with setns(2). Each figure is the best of REPEAT runs, so
 * that a busy machine disturbs it less; LNet and raw TCP runs take turns.
 * The selftest runs check no byte (`--check none`): the raw TCP receiver
 * does not look at its bytes either.
 *
 * Usage: build/bench/lnet   (from the top of the tree; LNETD_BIN and
 * LNETCTL_BIN override build/lnetd and build/lnetctl; LNET_BENCH_MIB, the
 * MiB per throughput run (default 1024), LNET_BENCH_MSGS, the small
 * messages per run (default 10000); LNET_BENCH_CC, the TCP congestion
 * control of both namespaces, e.g. reno; LNET_BENCH_ONLY, the numbers of
 * the comparisons to run, e.g. 3 or 14: all by default, IPv6 as 6).
 *
 * The congestion control decides the raw figures. Debian's default here,
 * bbr, paces each stream: one TCP stream over veth reaches 1.5-2.2 GB/s
 * on this machine kind, about 10 GB/s under reno (no pacing). Both sides
 * of each comparison run under the one in force, which the first line
 * names. With one message in flight, a message ends with the ACK's round
 * trip: where the link is not paced (reno) the ratio cannot pass
 * T / (T + RTT), T the raw time of 1 MiB and RTT the raw ping-pong of 2.,
 * about 0.7 at 10 GB/s. Under bbr the sender's CPU decides instead, and
 * LNet can pass the stream there: its receiver busy-polls while a large
 * payload comes in (socklnd_sched.c), which spares the sender a wake-up
 * of the receiver per burst that the raw stream's reader costs it.
 *
 * Both comparisons run twice: over IPv4 (tcp NIs on 10.31.0.1/2) and over
 * IPv6 (tcp1 NIs on fd00:31::1/2 of the same veth pair: hello V4 and
 * 120-byte headers), each against raw TCP of its own family.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "benchlib.h"

#define TCP_PORT	5988
#define ADDR1		"10.31.0.1"
#define ADDR2		"10.31.0.2"
#define NID2		ADDR2 "@tcp"
#define ADDR6_1		"fd00:31::1"
#define ADDR6_2		"fd00:31::2"
#define NID6_2		ADDR6_2 "@tcp1"

static const char *const ifname[2] = { "a0", "b0" };
static const char *const ifname1[2] = { "a1", "b1" };
static const char *const addr1[2] = { "10.32.0.1", "10.32.0.2" };

static const struct tcp_path direct = {
	.rx_ns = nodes[1].ns, .rx_addr = ADDR2,
	.tx_ns = nodes[0].ns, .tx_addr = ADDR2,
	.port = TCP_PORT,
};

static const struct tcp_path second = {
	.rx_ns = nodes[1].ns, .rx_addr = "10.32.0.2",
	.tx_ns = nodes[0].ns, .tx_addr = "10.32.0.2",
	.port = TCP_PORT + 1,
};

static const struct tcp_path direct6 = {
	.rx_ns = nodes[1].ns, .rx_addr = ADDR6_2,
	.tx_ns = nodes[0].ns, .tx_addr = ADDR6_2,
	.port = TCP_PORT,
};

/* Node @i's IPv4 NI on tcp, and its IPv6 one (@addr6) on tcp1. */
static void add_nis(int i, const char *addr6)
{
	char out[4096];

	if (lnetctl(&nodes[i], out, sizeof(out), "net add --net tcp --if %s", ifname[i]))
		die("net add", out);
	if (lnetctl(&nodes[i], out, sizeof(out), "net add --net tcp1 --if %s --nid %s@tcp1",
		    ifname[i], addr6))
		die("net add (IPv6)", out);
	if (sh("ip -n %s addr add %s/24 dev %s && ip -n %s link set %s up", nodes[i].ns,
	       addr1[i], ifname1[i], nodes[i].ns, ifname1[i]))
		die("cannot set up", ifname1[i]);
	if (lnetctl(&nodes[i], out, sizeof(out), "net add --net tcp2 --if %s", ifname1[i]))
		die("net add (second pair)", out);
}

static void setup(void)
{
	start_node(0);
	start_node(1);
	if (sh("ip link add a0 netns %s type veth peer name b0 netns %s",
	       nodes[0].ns, nodes[1].ns) ||
	    sh("ip -n %s addr add %s/24 dev a0 && ip -n %s link set a0 up",
	       nodes[0].ns, ADDR1, nodes[0].ns) ||
	    sh("ip -n %s addr add %s/24 dev b0 && ip -n %s link set b0 up",
	       nodes[1].ns, ADDR2, nodes[1].ns) ||
	    sh("ip -n %s -6 addr add %s/64 dev a0 nodad", nodes[0].ns, ADDR6_1) ||
	    sh("ip -n %s -6 addr add %s/64 dev b0 nodad", nodes[1].ns, ADDR6_2))
		die("cannot make the veth pair a0 <-> b0", NULL);
	if (sh("ip link add a1 netns %s type veth peer name b1 netns %s",
	       nodes[0].ns, nodes[1].ns))
		die("cannot make the veth pair a1 <-> b1", NULL);
	add_nis(0, ADDR6_1);
	add_nis(1, ADDR6_2);
	/*
	 * No discovery: a peer stays the one NID each run names, so the IPv6
	 * run's messages do not spread onto the IPv4 NI (one Multi-Rail peer).
	 */
	for (int i = 0; i < 2; i++) {
		char out[4096];

		if (lnetctl(&nodes[i], out, sizeof(out), "set discovery 0"))
			die("set discovery 0", out);
	}
}

/*
 * 5.: brw @op of @mib MiB by lnet_selftest from node 0 to node 1, best of
 * REPEAT: the client's write_mb_s (write) or read_mb_s (read).
 */
static double lst_mbs(const char *op, long mib)
{
	const char *key = op[0] == 'w' ? "write_mb_s: " : "read_mb_s: ";
	double best = 0, v;
	char out[8192], *p;

	for (int k = 0; k < REPEAT; k++) {
		if (lnetctl(&nodes[0], out, sizeof(out), "selftest run --from %s@tcp --to %s "
			    "-T %s -z 1M -k none -n %d -c %ld -y", ADDR1, NID2, op, CONCURRENCY,
			    mib / CONCURRENCY > 0 ? mib / CONCURRENCY : 1))
			die("selftest run", out);
		p = strstr(out, key);	/* the client, first in the document */
		v = p ? strtod(p + strlen(key), NULL) : 0;
		if (v > best)
			best = v;
	}
	return best;
}

static void bench_lst(long mib)
{
	double tcp = tcp_mbs(&direct, mib, REPEAT), wr = lst_mbs("write", mib), rd = lst_mbs("read", mib);

	printf("5. lnet_selftest brw 1 MiB, %d in flight: write %.0f MB/s, read %.0f MB/s, "
	       "raw TCP stream %.0f MB/s (%ld MiB, best of %d): ratios %.2f, %.2f\n",
	       CONCURRENCY, wr, rd, tcp, mib, REPEAT, wr / tcp, rd / tcp);
}

static const char *const flow_nid[2] = { NID2, "10.32.0.2@tcp2" };
static const char *const flow_src[2] = { ADDR1 "@tcp", "10.32.0.1@tcp2" };
static const struct tcp_path *const flow_tcp[2] = { &direct, &second };

/* Is comparison @n (a digit; '6' the IPv6 ones) asked for by LNET_BENCH_ONLY? */
static bool wanted(char n)
{
	const char *only = getenv("LNET_BENCH_ONLY");

	return !only || !*only || strchr(only, n);
}

int main(void)
{
	long mib = env_long("LNET_BENCH_MIB", 1024);
	long msgs = env_long("LNET_BENCH_MSGS", 10000);

	if (!bench_init("bench/lnet"))
		return 0;
	setup();
	printf("bench/lnet: two network namespaces, veth %s <-> %s, one lnetd each "
	       "(socket LND), TCP congestion control %s\n", ADDR1, ADDR2, bench_cc(0));
	if (wanted('1'))
		bench_throughput(&nodes[0], NID2, &direct, mib, CONCURRENCY, 0.95, "",
				 "raw TCP stream");
	if (wanted('2'))
		bench_small(&nodes[0], &nodes[1], NID2, &direct, msgs, 0.8, "",
			    "raw TCP 64-byte ping-pong");
	if (wanted('3'))
		bench_throughput(&nodes[0], NID2, &direct, mib, 1, 0.9, "", "raw TCP stream");
	if (wanted('4'))
		bench_two_flows(&nodes[0], flow_nid, flow_src, flow_tcp, mib, 0.9);
	if (wanted('5'))
		bench_lst(mib);
	if (!wanted('6')) {
		cleanup();
		return 0;
	}
	printf("bench/lnet: the same over IPv6, %s <-> %s (hello V4, 120-byte headers)\n",
	       ADDR6_1, ADDR6_2);
	bench_throughput(&nodes[0], NID6_2, &direct6, mib, CONCURRENCY, 0.95, " (IPv6)",
			 "raw TCP/IPv6 stream");
	bench_small(&nodes[0], &nodes[1], NID6_2, &direct6, msgs, 0.8, " (IPv6)",
		    "raw TCP/IPv6 64-byte ping-pong");
	cleanup();
	return 0;
}
