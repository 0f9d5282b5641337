// SPDX-License-Identifier: GPL-2.0-only
/*
 * Should lnetd send its large messages with MSG_ZEROCOPY? (not a test: it
 * prints both figures and the decision, and exits 0 once it could measure).
 * Needs root: two network namespaces joined by a veth pair (the path lnetd
 * nodes use in the bats suites and bench/lnet), one TCP stream of 1 MiB
 * sends each way of sending, in one run, best of REPEAT:
 *
 *   copy       send(2) as the socket LND does today
 *   zerocopy   SO_ZEROCOPY + MSG_ZEROCOPY from a ring of 8 buffers, each
 *              reused only after its completion came from the error queue
 *              (as the LND would have to: a message is finalized then)
 *
 * The receiver confirms the last byte. It also counts the completions the
 * kernel flagged SO_EE_CODE_ZEROCOPY_COPIED (it copied after all: a local
 * or veth receiver always does).
 *
 * Usage: build/bench/zerocopy (LNET_BENCH_MIB: MiB per run, default 1024).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "benchlib.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY	60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY	0x4000000
#endif

#define PORT	5989
#define RING	8
#define RX_ADDR	"10.33.0.2"

static char ns_tx[40], ns_rx[40];

static void zc_cleanup(void)
{
	if (ns_tx[0])
		sh("ip netns del %s 2>/dev/null; ip netns del %s 2>/dev/null", ns_tx, ns_rx);
	ns_tx[0] = '\0';
}

static void receiver(int ready, long long total)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	char *buf = malloc(MIB);
	int one = 1, ls, fd;
	ssize_t n;

	enter_ns(ns_rx);
	inet_pton(AF_INET, RX_ADDR, &sa.sin_addr);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!buf || ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1) ||
	    write(ready, "r", 1) != 1)
		_exit(1);
	fd = accept(ls, NULL, NULL);
	for (; fd >= 0 && total > 0; total -= n) {
		n = read(fd, buf, total < MIB ? total : MIB);
		if (n <= 0)
			_exit(1);
	}
	_exit(fd >= 0 && io_all(fd, buf, 1, true) ? 0 : 1);
}

/* Reap zero-copy completions: *@done = the next send id not completed. */
static bool reap(int fd, unsigned int *done, long long *copied, bool wait)
{
	char control[128];
	struct msghdr mh = { .msg_control = control, .msg_controllen = sizeof(control) };
	struct pollfd p = { .fd = fd, .events = 0 };
	struct sock_extended_err *ee;
	struct cmsghdr *cm;

	if (wait && poll(&p, 1, 5000) != 1)
		return false;
	while (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			ee = (struct sock_extended_err *)CMSG_DATA(cm);
			if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				*copied += ee->ee_data - ee->ee_info + 1;
			*done = ee->ee_data + 1;
		}
		mh.msg_controllen = sizeof(control);
	}
	return errno == EAGAIN;
}

static void sender(int result, bool zc, long long mib)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	char *ring = malloc((size_t)RING * MIB), c;
	unsigned int id = 0, done = 0;
	long long copied = 0, i;
	double r[2];
	int one = 1, fd;

	enter_ns(ns_tx);
	inet_pton(AF_INET, RX_ADDR, &sa.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (!ring || fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		_exit(1);
	if (zc && setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		_exit(2);
	memset(ring, 0x5a, (size_t)RING * MIB);
	r[0] = now_s();
	for (i = 0; i < mib; i++) {
		char *buf = ring + (size_t)(i % RING) * MIB;

		while (zc && id - done >= RING)
			if (!reap(fd, &done, &copied, true))
				_exit(1);
		if (send(fd, buf, MIB, zc ? MSG_ZEROCOPY : 0) != MIB)
			_exit(1);
		id++;
	}
	while (zc && done != id)
		if (!reap(fd, &done, &copied, true))
			_exit(1);
	if (read(fd, &c, 1) != 1)
		_exit(1);
	r[0] = now_s() - r[0];
	r[1] = (double)copied;
	_exit(write(result, r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

/* One run: MB/s, and in *@copied the sends the kernel copied after all. */
static double run(bool zc, long long mib, double *copied)
{
	int ready[2], result[2];
	double r[2] = { 0, 0 };
	pid_t rx, tx;
	char c;

	if (pipe(ready) || pipe(result))
		die("pipe", strerror(errno));
	rx = fork();
	if (rx == 0)
		receiver(ready[1], mib * MIB);
	if (rx < 0 || read(ready[0], &c, 1) != 1)
		die("the receiver did not start", NULL);
	tx = fork();
	if (tx == 0)
		sender(result[1], zc, mib);
	if (read(result[0], r, sizeof(r)) != sizeof(r) || !child_ok(tx) || !child_ok(rx) ||
	    r[0] <= 0)
		die("a run failed", zc ? "zerocopy" : "copy");
	close(ready[0]);
	close(ready[1]);
	close(result[0]);
	close(result[1]);
	*copied = r[1];
	return (double)mib * MIB / r[0] / 1e6;
}

int main(void)
{
	long mib = env_long("LNET_BENCH_MIB", 1024);
	double best[2] = { 0, 0 }, copied = 0, v;
	int k, z;

	if (!bench_init("bench/zerocopy"))
		return 0;
	snprintf(ns_tx, sizeof(ns_tx), "lnzc1-%d", (int)getpid());
	snprintf(ns_rx, sizeof(ns_rx), "lnzc2-%d", (int)getpid());
	atexit(zc_cleanup);
	if (sh("ip netns add %s && ip netns add %s", ns_tx, ns_rx) ||
	    sh("ip link add z0 netns %s type veth peer name z1 netns %s", ns_tx, ns_rx) ||
	    sh("ip -n %s addr add 10.33.0.1/24 dev z0 && ip -n %s link set z0 up", ns_tx, ns_tx) ||
	    sh("ip -n %s addr add %s/24 dev z1 && ip -n %s link set z1 up", ns_rx, RX_ADDR, ns_rx))
		die("cannot make the veth pair z0 <-> z1", NULL);
	for (k = 0; k < REPEAT; k++)
		for (z = 0; z < 2; z++) {
			v = run(z, mib, &copied);
			if (v > best[z])
				best[z] = v;
		}
	printf("bench/zerocopy: 1 MiB sends over veth, %ld MiB per run, best of %d\n",
	       mib, REPEAT);
	printf("  copy (today) %.0f MB/s, MSG_ZEROCOPY %.0f MB/s: ratio %.2f; the kernel copied %.0f of %ld zero-copy sends anyway\n",
	       best[0], best[1], best[1] / best[0], copied, mib);
	printf("  decision: %s\n", best[1] > best[0] * 1.1 ?
	       "zero-copy wins by more than 10%: worth sending large messages with it" :
	       "keep the copy path: zero-copy does not win here (completions cost, and a veth or local receiver makes the kernel copy anyway)");
	zc_cleanup();
	return 0;
}
