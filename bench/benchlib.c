// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared by the data path benchmarks: nodes with their own lnetd, lnetctl
 * and selftest runs, raw TCP runs (see benchlib.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "benchlib.h"

struct node nodes[BENCH_NODES];
static char tmpdir[] = "/tmp/lnet-bench.XXXXXX";
static const char *lnetd_bin = "build/lnetd";
static const char *lnetctl_bin = "build/lnetctl";
static const char *bench_name = "bench";
static bool made_tmp;

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	n = strtol(v, &end, 10);
	if (*end || n <= 0) {
		fprintf(stderr, "%s: %s='%s': expected a positive integer\n", bench_name, name, v);
		exit(2);
	}
	return n;
}

/* A shell command built like printf; its exit status (-1: not run). */
int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc == -1 || !WIFEXITED(rc))
		return -1;
	return WEXITSTATUS(rc);
}

/* lnetctl against node @n: stdout+stderr into @out; its exit status. */
int lnetctl(const struct node *n, char *out, size_t len, const char *fmt, ...)
{
	char cmd[1024], args[512];
	size_t used = 0, got;
	va_list ap;
	FILE *p;
	int rc;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	if (n->kernel)
		snprintf(cmd, sizeof(cmd), "ip netns exec %s %s %s 2>&1", n->ns, lnetctl_bin, args);
	else
		snprintf(cmd, sizeof(cmd), "%s --socket %s %s 2>&1", lnetctl_bin, n->sock, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (used + 1 < len && (got = fread(out + used, 1, len - 1 - used, p)) > 0)
		used += got;
	out[used] = '\0';
	rc = pclose(p);
	if (rc == -1 || !WIFEXITED(rc))
		return -1;
	return WEXITSTATUS(rc);
}

static void stop_lnetd(const struct node *n)
{
	FILE *f = fopen(n->pidfile, "r");
	int pid = 0, i;

	if (!f)
		return;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 0 || kill(pid, SIGTERM))
		return;
	for (i = 0; i < 100 && kill(pid, 0) == 0; i++)
		usleep(50000);
}

void cleanup(void)
{
	int i;

	for (i = 0; i < BENCH_NODES; i++) {
		/* an lnetd of start_node_in() has no namespace of its own */
		if (!nodes[i].kernel && nodes[i].pidfile[0])
			stop_lnetd(&nodes[i]);
		nodes[i].pidfile[0] = '\0';
		if (!nodes[i].ns[0])
			continue;
		sh("ip netns del %s 2>/dev/null", nodes[i].ns);
		nodes[i].ns[0] = '\0';
	}
	if (made_tmp)
		sh("rm -rf %s", tmpdir);
	made_tmp = false;
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void die(const char *what, const char *detail)
{
	fprintf(stderr, "%s: %s%s%s\n", bench_name, what, detail ? ": " : "",
		detail ? detail : "");
	cleanup();
	exit(1);
}

bool bench_init(const char *name)
{
	bench_name = name;
	if (getenv("LNETD_BIN"))
		lnetd_bin = getenv("LNETD_BIN");
	if (getenv("LNETCTL_BIN"))
		lnetctl_bin = getenv("LNETCTL_BIN");
	if (geteuid() != 0) {
		printf("%s: skipped (needs root for network namespaces)\n", name);
		return false;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (!mkdtemp(tmpdir))
		die("mkdtemp", strerror(errno));
	made_tmp = true;
	return true;
}

/*
 * Node @i's namespace (named after it), made; with LNET_BENCH_CC, its TCP
 * congestion control set to that (a namespace may take the ones
 * net.ipv4.tcp_allowed_congestion_control lists, e.g. reno).
 */
static void make_ns(int i)
{
	struct node *n = &nodes[i];
	const char *cc = getenv("LNET_BENCH_CC");

	snprintf(n->ns, sizeof(n->ns), "lnbench%d-%d", i + 1, (int)getpid());
	if (sh("ip netns add %s && ip -n %s link set lo up", n->ns, n->ns))
		die("cannot create the network namespace", n->ns);
	if (cc && *cc && sh("ip netns exec %s sysctl -q -w net.ipv4.tcp_congestion_control=%s",
			    n->ns, cc))
		die("LNET_BENCH_CC: the namespace refused this congestion control "
		    "(allowed: net.ipv4.tcp_allowed_congestion_control)", cc);
}

/*
 * The TCP congestion control of node @i's namespace. It decides what one
 * stream over veth reaches: a pacing one (bbr) caps it well below what
 * the copies allow, so every figure says which one was in force.
 */
const char *bench_cc(int i)
{
	static char cc[32];
	char cmd[160];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ip netns exec %s cat /proc/sys/net/ipv4/tcp_congestion_control",
		 nodes[i].ns);
	strcpy(cc, "unknown");
	p = popen(cmd, "r");
	if (!p)
		return cc;
	if (!fgets(cc, sizeof(cc), p))
		strcpy(cc, "unknown");
	cc[strcspn(cc, "\n")] = '\0';
	pclose(p);
	return cc;
}

/* Node @i's lnetd in namespace @ns, its acceptor on @port (0: 988). */
static void start_lnetd(int i, const char *ns, int port)
{
	struct node *n = &nodes[i];
	char out[4096], env[40] = "";
	struct stat st;
	int k;

	if (port)
		snprintf(env, sizeof(env), "LNET_ACCEPT_PORT=%d", port);
	snprintf(n->sock, sizeof(n->sock), "%s/n%d.sock", tmpdir, i + 1);
	snprintf(n->pidfile, sizeof(n->pidfile), "%s/n%d.pid", tmpdir, i + 1);
	snprintf(n->log, sizeof(n->log), "%s/n%d.log", tmpdir, i + 1);
	if (sh("ip netns exec %s env %s %s --socket %s --pidfile %s --log %s", ns, env,
	       lnetd_bin, n->sock, n->pidfile, n->log))
		die("cannot start lnetd", lnetd_bin);
	for (k = 0; k < 100 && stat(n->sock, &st); k++)
		usleep(50000);
	if (lnetctl(n, out, sizeof(out), "lnet configure"))
		die("lnet configure", out);
}

/* Node @i: its namespace, its lnetd, LNet configured. */
void start_node(int i)
{
	make_ns(i);
	start_lnetd(i, nodes[i].ns, 0);
}

void start_node_in(int i, const struct node *ns, int port)
{
	start_lnetd(i, ns->ns, port);
}

void start_kernel_node(int i)
{
	char out[4096];

	make_ns(i);
	nodes[i].kernel = true;
	if (lnetctl(&nodes[i], out, sizeof(out), "lnet configure"))
		die("lnet configure (lnet.ko)", out);
}

/* --- LNet: lnetctl selftest -------------------------------------------------- */

static bool st_field(const char *doc, const char *key, unsigned long long *v)
{
	char pat[40];
	const char *p;

	/* the keys sit indented under "selftest:", each once */
	snprintf(pat, sizeof(pat), " %s: ", key);
	p = strstr(doc, pat);
	if (!p)
		return false;
	*v = strtoull(p + strlen(pat), NULL, 10);
	return true;
}

/*
 * One selftest run from @from to @nid; dies unless every message came
 * back. No data check: the raw TCP runs it is compared with look at no
 * byte either, and a full check is a pass over the data on the target
 * (lnet_selftest's throughput runs use check none too).
 */
void selftest(const struct node *from, const char *op, const char *nid, long size,
	      long count, int conc, struct st_result *r)
{
	char out[8192];
	int rc;

	rc = lnetctl(from, out, sizeof(out),
		     "selftest %s %s --size %ld --count %ld --concurrency %d --timeout 300 "
		     "--check none", op, nid, size, count, conc);
	if (!st_field(out, "ok", &r->ok) || !st_field(out, "failed", &r->failed) ||
	    !st_field(out, "corrupt", &r->corrupt) ||
	    !st_field(out, "elapsed_ns", &r->elapsed_ns))
		die("lnetctl selftest printed no result", out);
	if (rc || r->ok != (unsigned long long)count || r->corrupt || !r->elapsed_ns)
		die("lnetctl selftest did not complete every message", out);
}

/* --- raw TCP ------------------------------------------------------------------- */

void enter_ns(const char *ns)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		perror(path);
		_exit(1);
	}
	close(fd);
}

/* @addr (IPv4 or IPv6) and @port as a socket address; its length. */
static socklen_t sa_of(const char *addr, int port, struct sockaddr_in6 *sa)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)sa;

	memset(sa, 0, sizeof(*sa));
	if (strchr(addr, ':')) {
		sa->sin6_family = AF_INET6;
		sa->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &sa->sin6_addr);
		return sizeof(*sa);
	}
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, addr, &sin->sin_addr);
	return sizeof(*sin);
}

bool io_all(int fd, void *buf, size_t len, bool wr)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = wr ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/*
 * The receiver of @mode: @total bytes then a 1-byte confirmation (stream),
 * 1 MiB answered by a byte until EOF, or SMALL-byte echoes until EOF
 * (ping-pong). Writes one byte to @ready once it listens.
 */
static void tcp_receiver(const struct tcp_path *path, int ready, enum tcp_mode mode,
			 long long total)
{
	struct sockaddr_in6 sa;
	socklen_t salen = sa_of(path->rx_addr, path->port, &sa);
	int one = 1, ls, fd;
	char *buf;
	ssize_t n;

	enter_ns(path->rx_ns);
	buf = malloc(MIB);
	ls = socket(sa.sin6_family, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!buf || ls < 0 || bind(ls, (struct sockaddr *)&sa, salen) || listen(ls, 1))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	fd = accept(ls, NULL, NULL);
	if (fd < 0)
		_exit(1);
	nodelay(fd);
	if (mode == TCP_STREAM) {
		for (; total > 0; total -= n) {
			n = read(fd, buf, total < MIB ? total : MIB);
			if (n <= 0)
				_exit(1);
		}
		_exit(io_all(fd, buf, 1, true) ? 0 : 1);
	}
	while (io_all(fd, buf, mode == TCP_PINGPONG ? SMALL : MIB, false))
		if (!io_all(fd, buf, mode == TCP_PINGPONG ? SMALL : 1, true))
			_exit(1);
	_exit(0);
}

/* @amount exchanges of @mode on @fd from @buf: false when one failed. */
static bool tcp_send_all(int fd, char *buf, enum tcp_mode mode, long long amount)
{
	for (long long i = 0; i < amount; i++) {
		switch (mode) {
		case TCP_STREAM:
			if (!io_all(fd, buf, MIB, true))
				return false;
			break;
		case TCP_PINGPONG:
			if (!io_all(fd, buf, SMALL, true) || !io_all(fd, buf, SMALL, false))
				return false;
			break;
		case TCP_MIB_ANSWERED:
			if (!io_all(fd, buf, MIB, true) || !io_all(fd, buf, 1, false))
				return false;
			break;
		}
	}
	return mode != TCP_STREAM || io_all(fd, buf, 1, false);
}

/* The sender: the seconds it took, written to @result. */
static void tcp_sender(const struct tcp_path *path, int result, enum tcp_mode mode,
		       long long amount)
{
	struct sockaddr_in6 sa;
	socklen_t salen = sa_of(path->tx_addr, path->port, &sa);
	char *buf = malloc(MIB);
	double t0, dt;
	int fd;

	enter_ns(path->tx_ns);
	fd = socket(sa.sin6_family, SOCK_STREAM, 0);
	if (!buf || fd < 0 || connect(fd, (struct sockaddr *)&sa, salen))
		_exit(1);
	nodelay(fd);
	memset(buf, 0x5a, MIB);
	t0 = now_s();
	if (!tcp_send_all(fd, buf, mode, amount))
		_exit(1);
	dt = now_s() - t0;
	close(fd);
	_exit(write(result, &dt, sizeof(dt)) == sizeof(dt) ? 0 : 1);
}

bool child_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
}

double tcp_run(const struct tcp_path *path, enum tcp_mode mode, long long amount)
{
	int ready[2], result[2];
	pid_t rx, tx;
	double dt = 0;
	bool ok;
	char c;

	if (pipe(ready) || pipe(result))
		die("pipe", strerror(errno));
	rx = fork();
	if (rx == 0)
		tcp_receiver(path, ready[1], mode, amount * MIB);
	if (rx < 0 || read(ready[0], &c, 1) != 1)
		die("the raw TCP receiver did not start", NULL);
	tx = fork();
	if (tx == 0)
		tcp_sender(path, result[1], mode, amount);
	if (tx < 0 || read(result[0], &dt, sizeof(dt)) != sizeof(dt))
		dt = 0;
	ok = child_ok(tx);
	ok = child_ok(rx) && ok;	/* reap both */
	if (!ok || dt <= 0)
		die("raw TCP run failed", mode == TCP_STREAM ? "stream" :
			mode == TCP_PINGPONG ? "ping-pong" : "1 MiB answered");
	close(ready[0]);
	close(ready[1]);
	close(result[0]);
	close(result[1]);
	return dt;
}

static const char *verdict(double ratio, double target)
{
	return ratio >= target ? "PASS" : "MISS";
}

/* --- the comparisons (LNet against raw TCP) ----------------------------------------------------------- */

/* The best MB/s of @runs runs of @mib 1 MiB PUTs, @conc in flight. */
static double lnet_mbs(const struct node *from, const char *nid, long mib, int conc, int runs)
{
	double best = 0, v;
	struct st_result r;
	int i;

	for (i = 0; i < runs; i++) {
		selftest(from, "put", nid, MIB, mib, conc, &r);
		v = (double)mib * MIB / (r.elapsed_ns / 1e9) / 1e6;
		best = v > best ? v : best;
	}
	return best;
}

double tcp_mbs(const struct tcp_path *tcp, long mib, int runs)
{
	double best = 0, v;
	int i;

	for (i = 0; i < runs; i++) {
		v = (double)mib * MIB / tcp_run(tcp, TCP_STREAM, mib) / 1e6;
		best = v > best ? v : best;
	}
	return best;
}

void bench_throughput(const struct node *from, const char *nid, const struct tcp_path *tcp,
		      long mib, int conc, double target, const char *via, const char *tcp_what)
{
	double lnet_best = 0, tcp_best = 0, answered_best = 0, ratio;
	struct st_result r;

	selftest(from, "put", nid, MIB, 16, CONCURRENCY, &r);	/* connections up, warm */
	/* one of each in turn: a drift of the machine weighs on all alike */
	for (int i = 0; i < REPEAT; i++) {
		double l = lnet_mbs(from, nid, mib, conc, 1), t = tcp_mbs(tcp, mib, 1);

		lnet_best = l > lnet_best ? l : lnet_best;
		tcp_best = t > tcp_best ? t : tcp_best;
		if (conc == 1) {
			t = (double)mib * MIB / tcp_run(tcp, TCP_MIB_ANSWERED, mib) / 1e6;
			answered_best = t > answered_best ? t : answered_best;
		}
	}
	ratio = lnet_best / tcp_best;
	/* 1.: the stream's way (several in flight); 3.: one at a time */
	printf("%s 1 MiB PUT%s, %d in flight: LNet %.0f MB/s, %s %.0f MB/s "
	       "(%ld MiB, best of %d): ratio %.2f (target >= %.2g)  %s\n",
	       conc > 1 ? "1." : "3.", via, conc, lnet_best, tcp_what, tcp_best, mib, REPEAT, ratio, target,
	       verdict(ratio, target));
	/*
	 * One at a time, the answer's round trip is part of every message:
	 * raw TCP doing the same shows what that costs TCP itself (its ratio
	 * to the stream bounds any such protocol's) and what LNet adds.
	 */
	if (conc == 1)
		printf("   raw TCP, 1 MiB then a 1-byte answer, one at a time: %.0f MB/s, %.2f of the "
		       "stream; LNet against it: %.2f\n", answered_best, answered_best / tcp_best,
		       lnet_best / answered_best);
}

/* --- system calls per message (perf stat on the lnetds) ------------------------ */

static pid_t node_pid(const struct node *n)
{
	FILE *f = fopen(n->pidfile, "r");
	int pid = 0;

	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

/* perf stat counting the system calls of @a's and @b's lnetd into @out, or -1. */
static pid_t syscalls_start(const struct node *a, const struct node *b, const char *out)
{
	char pids[40];
	pid_t perf;

	snprintf(pids, sizeof(pids), "%d,%d", (int)node_pid(a), (int)node_pid(b));
	perf = fork();
	if (perf == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		dup2(devnull, 2);
		execlp("perf", "perf", "stat", "-x,", "-e", "raw_syscalls:sys_enter",
		       "-p", pids, "-o", out, (char *)NULL);
		_exit(127);
	}
	usleep(300000);		/* attached */
	return perf;
}

/* Stop @perf; the system calls it counted, or -1. */
static long syscalls_stop(pid_t perf, const char *out)
{
	char line[256];
	long n = -1;
	FILE *f;

	if (perf <= 0)
		return -1;
	kill(perf, SIGINT);
	/* perf stat ends by the signal: its exit status says nothing */
	if (waitpid(perf, NULL, 0) != perf)
		return -1;
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "raw_syscalls:sys_enter") && line[0] != '<')
			n = strtol(line, NULL, 10);
	if (f)
		fclose(f);
	return n;
}

double bench_syscalls_per_msg(const struct node *from, const struct node *to,
			      const char *nid, long msgs)
{
	char out[200];
	struct st_result r;
	pid_t perf;
	long n;

	snprintf(out, sizeof(out), "%s/perf.out", tmpdir);
	perf = syscalls_start(from, to, out);
	selftest(from, "put", nid, 0, msgs, 1, &r);
	n = syscalls_stop(perf, out);
	return n < 0 ? -1 : (double)n / msgs;
}

void bench_small(const struct node *from, const struct node *to, const char *nid,
		 const struct tcp_path *tcp, long msgs, double target, const char *via,
		 const char *tcp_what)
{
	double lnet_best = 0, tcp_best = 0, v, ratio, sc;
	struct st_result r;
	int i;

	selftest(from, "put", nid, 0, 100, 1, &r);
	for (i = 0; i < REPEAT; i++) {
		selftest(from, "put", nid, 0, msgs, 1, &r);
		v = msgs / (r.elapsed_ns / 1e9);
		lnet_best = v > lnet_best ? v : lnet_best;
		v = msgs / tcp_run(tcp, TCP_PINGPONG, msgs);
		tcp_best = v > tcp_best ? v : tcp_best;
	}
	ratio = lnet_best / tcp_best;
	/* counted in a run of its own: perf slows what it watches */
	sc = bench_syscalls_per_msg(from, to, nid, msgs);
	printf("2. 0-byte PUT + ACK%s, one at a time: LNet %.0f msg/s (%.1f us), %s "
	       "%.0f msg/s (%.1f us) (%ld messages, best of %d): "
	       "ratio %.2f (target >= %.2g)  %s\n",
	       via, lnet_best, 1e6 / lnet_best, tcp_what, tcp_best, 1e6 / tcp_best, msgs,
	       REPEAT, ratio, target, verdict(ratio, target));
	if (sc >= 0)
		printf("   system calls per round trip, both lnetds: %.1f (raw TCP: 4, a read "
		       "and a write on each side)\n", sc);
	else
		printf("   system calls per round trip: not counted (perf stat failed)\n");
}

/* --- two flows side by side -------------------------------------------------------- */

/* In a child: one selftest run, its elapsed seconds written to @fd. */
static pid_t flow_lnet(const struct node *from, const char *nid, const char *src, long mib,
		       int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		char out[8192], arg[160];
		unsigned long long ns = 0;
		double dt;

		snprintf(arg, sizeof(arg), "selftest put %s --source %s --size 1M --count %ld "
			 "--concurrency %d --timeout 300 --check none", nid, src, mib, CONCURRENCY);
		if (lnetctl(from, out, sizeof(out), "%s", arg) || !st_field(out, "elapsed_ns", &ns))
			_exit(1);
		dt = ns / 1e9;
		_exit(write(fd, &dt, sizeof(dt)) == sizeof(dt) ? 0 : 1);
	}
	return pid;
}

static pid_t flow_tcp(const struct tcp_path *tcp, long mib, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		double dt = tcp_run(tcp, TCP_STREAM, mib);

		_exit(write(fd, &dt, sizeof(dt)) == sizeof(dt) ? 0 : 1);
	}
	return pid;
}

/* Both children's seconds; the longer one (the pair's wall time), or die. */
static double flows_wait(pid_t a, pid_t b, int rfd)
{
	double d1 = 0, d2 = 0;
	bool ok;

	ok = read(rfd, &d1, sizeof(d1)) == sizeof(d1) && read(rfd, &d2, sizeof(d2)) == sizeof(d2);
	ok = child_ok(a) && ok;
	ok = child_ok(b) && ok;
	if (!ok)
		die("two flows: a run failed", NULL);
	return d1 > d2 ? d1 : d2;
}

void bench_two_flows(const struct node *from, const char *const nid[2], const char *const src[2],
		     const struct tcp_path *const tcp[2], long mib, double target)
{
	double lnet_best = 0, tcp_best = 0, v, ratio;
	int p[2], i;

	if (pipe(p))
		die("pipe", strerror(errno));
	for (i = 0; i < REPEAT; i++) {
		v = flows_wait(flow_lnet(from, nid[0], src[0], mib, p[1]),
			       flow_lnet(from, nid[1], src[1], mib, p[1]), p[0]);
		v = 2.0 * mib * MIB / v / 1e6;
		lnet_best = v > lnet_best ? v : lnet_best;
		v = flows_wait(flow_tcp(tcp[0], mib, p[1]), flow_tcp(tcp[1], mib, p[1]), p[0]);
		v = 2.0 * mib * MIB / v / 1e6;
		tcp_best = v > tcp_best ? v : tcp_best;
	}
	close(p[0]);
	close(p[1]);
	ratio = lnet_best / tcp_best;
	printf("4. two flows side by side, 1 MiB PUTs from both NIs at once (%d in flight each): "
	       "LNet %.0f MB/s, two raw TCP streams %.0f MB/s (%ld MiB each, best of %d): "
	       "ratio %.2f (target >= %.2g)  %s\n",
	       CONCURRENCY, lnet_best, tcp_best, mib, REPEAT, ratio, target,
	       verdict(ratio, target));
}
