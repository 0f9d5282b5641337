/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the data path benchmarks (bench/lnet.c, bench/routing.c) share:
 * nodes (a network namespace with its own lnetd each) under one temp dir,
 * lnetctl against a node, `lnetctl selftest` runs, and raw TCP runs
 * (a receiver and a sender forked into their namespaces) to compare with.
 * Every failure to set up or to complete a run ends the program (exit 1)
 * after the nodes are cleaned up.
 */
#ifndef BENCH_BENCHLIB_H
#define BENCH_BENCHLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define MIB		(1024 * 1024)
#define REPEAT		3
#define SMALL		64
#define CONCURRENCY	8
#define BENCH_NODES	4

struct node {
	bool kernel;		/* the lnet module's instance of ns (no lnetd) */
	char ns[40];
	char sock[160];
	char pidfile[160];
	char log[160];
};

struct st_result {
	unsigned long long ok, failed, corrupt, elapsed_ns;
};

/* A raw TCP path: the receiver listens in rx_ns on rx_addr; the sender,
 * in tx_ns, connects to tx_addr (rx_addr, or a relay in between). */
struct tcp_path {
	const char *rx_ns, *rx_addr;
	const char *tx_ns, *tx_addr;
	int port;
};

extern struct node nodes[BENCH_NODES];

double now_s(void);
long env_long(const char *name, long def);
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int lnetctl(const struct node *n, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void die(const char *what, const char *detail) __attribute__((noreturn));
/* Root, programs from LNETD_BIN/LNETCTL_BIN, cleanup at exit and on
 * SIGINT/SIGTERM, the temp dir; false (after saying so) without root. */
bool bench_init(const char *name);
void start_node(int i);
/* Node @i's TCP congestion control (LNET_BENCH_CC sets it in every node). */
const char *bench_cc(int i);
/*
 * Node @i as the lnet module's instance of a new namespace (lnetctl in it
 * on /dev/lnet), LNet configured; or, start_node_in(), an lnetd in node
 * @ns's namespace (already made) with its acceptor on @port.
 */
void start_kernel_node(int i);
void start_node_in(int i, const struct node *ns, int port);
void cleanup(void);
void selftest(const struct node *from, const char *op, const char *nid, long size,
	      long count, int conc, struct st_result *r);
void enter_ns(const char *ns);
bool io_all(int fd, void *buf, size_t len, bool wr);
void nodelay(int fd);
bool child_ok(pid_t pid);
/*
 * What a raw TCP run does @amount times: TCP_STREAM sends 1 MiB (the
 * receiver confirms the last byte only), TCP_PINGPONG sends SMALL bytes and
 * waits for them back, TCP_MIB_ANSWERED sends 1 MiB and waits for a 1-byte
 * answer (one message in flight, as an LNet PUT waits for its ACK).
 */
enum tcp_mode { TCP_STREAM, TCP_PINGPONG, TCP_MIB_ANSWERED };

/* One raw TCP run along @path: the seconds it took. */
double tcp_run(const struct tcp_path *path, enum tcp_mode mode, long long amount);
/* The best MB/s of @runs raw TCP streams of @mib MiB over @tcp. */
double tcp_mbs(const struct tcp_path *tcp, long mib, int runs);
/*
 * The comparisons, each printed as one line with its ratio, @target and
 * PASS/MISS. bench_throughput: 1 MiB PUTs (@conc in flight) from @from to
 * @nid against @mib MiB streamed along @tcp; with one in flight, also
 * against 1 MiB answered one at a time (no target). bench_small: 0-byte PUT +
 * ACK one at a time against a SMALL-byte ping-pong, and the system calls
 * both lnetds (@from, @to) make per round trip (perf stat, in a run of its
 * own). bench_two_flows: PUTs to nid[0] from src[0] and to nid[1] from
 * src[1] at once against two raw streams along tcp[0] and tcp[1] at once.
 * @via names the LNet path ("" or e.g. " A -> R -> B"), @tcp_what the TCP one.
 */
void bench_throughput(const struct node *from, const char *nid, const struct tcp_path *tcp,
		      long mib, int conc, double target, const char *via, const char *tcp_what);
void bench_small(const struct node *from, const struct node *to, const char *nid,
		 const struct tcp_path *tcp, long msgs, double target, const char *via,
		 const char *tcp_what);
double bench_syscalls_per_msg(const struct node *from, const struct node *to,
			      const char *nid, long msgs);
void bench_two_flows(const struct node *from, const char *const nid[2], const char *const src[2],
		     const struct tcp_path *const tcp[2], long mib, double target);

#endif
