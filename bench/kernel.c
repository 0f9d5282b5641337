// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket LND in lnet.ko against lnetd's and against raw TCP (`make
 * bench-kernel` runs it inside the test VM with the module loaded; without
 * /dev/lnet it says it is skipped). Two network namespaces joined by a
 * veth pair (a0 10.33.0.1/24, b0 10.33.0.2/24); in each, the lnet
 * module's instance with a tcp NI on its end (acceptor port 988) and an
 * lnetd with a tcp NI on the same interface (acceptor port 1988). Between
 * the same two namespaces, in one run, with the targets of bench/lnet:
 *
 *   1. 1 MiB PUTs, 8 in flight, vs raw TCP streaming     target >= 0.95
 *   2. 0-byte PUT + ACK one at a time vs a raw TCP 64-byte
 *      ping-pong: messages per second                     target >= 0.8
 *   3. as 1, one message in flight                        target >= 0.9
 *
 * each for lnet.ko and for lnetd, and the ratio lnet.ko / lnetd of each
 * figure. Every figure is the best of REPEAT runs. LNET_BENCH_MIB (MiB
 * per throughput run, default 256) and LNET_BENCH_MSGS (small messages
 * per run, default 2000): a TCG guest is slow.
 */
#include <stdio.h>
#include <unistd.h>
#include "benchlib.h"

#define TCP_PORT	5988
#define ADDR2		"10.33.0.2"
#define NID2		ADDR2 "@tcp"

/* nodes[0], nodes[1]: lnet.ko; nodes[2], nodes[3]: lnetd in their namespaces */
static const struct tcp_path direct = {
	.rx_ns = nodes[1].ns, .rx_addr = ADDR2,
	.tx_ns = nodes[0].ns, .tx_addr = ADDR2,
	.port = TCP_PORT,
};

static void setup(void)
{
	char out[4096];
	int i;

	start_kernel_node(0);
	start_kernel_node(1);
	if (sh("ip link add a0 netns %s type veth peer name b0 netns %s",
	       nodes[0].ns, nodes[1].ns) ||
	    sh("ip -n %s addr add 10.33.0.1/24 dev a0 && ip -n %s link set a0 up",
	       nodes[0].ns, nodes[0].ns) ||
	    sh("ip -n %s addr add %s/24 dev b0 && ip -n %s link set b0 up",
	       nodes[1].ns, ADDR2, nodes[1].ns))
		die("cannot make the veth pair a0 <-> b0", NULL);
	start_node_in(2, &nodes[0], 1988);
	start_node_in(3, &nodes[1], 1988);
	for (i = 0; i < 4; i++) {
		if (lnetctl(&nodes[i], out, sizeof(out), "net add --net tcp --if %s",
			    i % 2 ? "b0" : "a0"))
			die("net add", out);
		/* one NID per peer, as bench/lnet: no Multi-Rail discovery */
		if (lnetctl(&nodes[i], out, sizeof(out), "set discovery 0"))
			die("set discovery 0", out);
	}
}

/* The best MB/s of REPEAT runs of @mib 1 MiB PUTs from @from, @conc in flight. */
static double put_mbs(const struct node *from, long mib, int conc)
{
	double best = 0, v;
	struct st_result r;
	int i;

	for (i = 0; i < REPEAT; i++) {
		selftest(from, "put", NID2, MIB, mib, conc, &r);
		v = (double)mib * MIB / (r.elapsed_ns / 1e9) / 1e6;
		best = v > best ? v : best;
	}
	return best;
}

/* The best messages per second of REPEAT runs of @msgs 0-byte PUTs, one at a time. */
static double put_rate(const struct node *from, long msgs)
{
	double best = 0, v;
	struct st_result r;
	int i;

	for (i = 0; i < REPEAT; i++) {
		selftest(from, "put", NID2, 0, msgs, 1, &r);
		v = msgs / (r.elapsed_ns / 1e9);
		best = v > best ? v : best;
	}
	return best;
}

static double tcp_best(bool stream, long amount)
{
	double best = 0, v;
	int i;

	for (i = 0; i < REPEAT; i++) {
		v = amount / tcp_run(&direct, stream ? TCP_STREAM : TCP_PINGPONG, amount);
		best = v > best ? v : best;
	}
	return stream ? best * MIB / 1e6 : best;
}

/* One figure: lnet.ko @k and lnetd @u against raw TCP @t, and @k / @u. */
static void report(const char *what, const char *unit, double k, double u, double t,
		   double target)
{
	printf("%s: lnet.ko %.0f %s, lnetd %.0f %s, raw TCP %.0f %s\n", what, k, unit, u,
	       unit, t, unit);
	printf("   lnet.ko / raw TCP %.2f (target >= %.2g)  %s\n", k / t, target,
	       k / t >= target ? "PASS" : "MISS");
	printf("   lnetd / raw TCP %.2f (target >= %.2g)  %s\n", u / t, target,
	       u / t >= target ? "PASS" : "MISS");
	printf("   lnet.ko / lnetd %.2f\n", k / u);
}

int main(void)
{
	long mib = env_long("LNET_BENCH_MIB", 256);
	long msgs = env_long("LNET_BENCH_MSGS", 2000);
	struct st_result r;

	if (!bench_init("bench/kernel"))
		return 0;
	if (access("/dev/lnet", F_OK)) {
		printf("bench/kernel: skipped (no /dev/lnet: `make bench-kernel` runs it in the test VM)\n");
		return 0;
	}
	setup();
	printf("bench/kernel: two network namespaces, veth 10.33.0.1 <-> %s; in each lnet.ko "
	       "(port 988) and an lnetd (port 1988) with a tcp NI (%ld MiB, %ld messages, "
	       "best of %d), TCP congestion control %s\n", ADDR2, mib, msgs, REPEAT, bench_cc(0));
	/* connections up and warm */
	selftest(&nodes[0], "put", NID2, MIB, 16, CONCURRENCY, &r);
	selftest(&nodes[2], "put", NID2, MIB, 16, CONCURRENCY, &r);
	report("1. 1 MiB PUT, 8 in flight", "MB/s", put_mbs(&nodes[0], mib, CONCURRENCY),
	       put_mbs(&nodes[2], mib, CONCURRENCY), tcp_best(true, mib), 0.95);
	report("2. 0-byte PUT + ACK, one at a time", "msg/s", put_rate(&nodes[0], msgs),
	       put_rate(&nodes[2], msgs), tcp_best(false, msgs), 0.8);
	report("3. 1 MiB PUT, 1 in flight", "MB/s", put_mbs(&nodes[0], mib, 1),
	       put_mbs(&nodes[2], mib, 1), tcp_best(true, mib), 0.9);
	cleanup();
	return 0;
}
