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
 *                                                        target >= 0.9
 *   2. 0-byte LNet PUTs with ACK, one at a time, vs a raw TCP 64-byte
 *      ping-pong (TCP_NODELAY): messages per second       target >= 0.7
 *
 * The raw TCP sender and receiver are this program, forked, each entering
 * its namespace with setns(2). Each figure is the best of REPEAT runs, so
 * that a busy machine disturbs it less.
 *
 * Usage: build/bench/lnet   (from the top of the tree; LNETD_BIN and
 * LNETCTL_BIN override build/lnetd and build/lnetctl; LNET_BENCH_MIB, the
 * MiB per throughput run (default 1024), LNET_BENCH_MSGS, the small
 * messages per run (default 10000)).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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

#define MIB		(1024 * 1024)
#define REPEAT		3
#define TCP_PORT	5988
#define SMALL		64
#define CONCURRENCY	8
#define ADDR1		"10.31.0.1"
#define ADDR2		"10.31.0.2"
#define NID2		ADDR2 "@tcp"

struct node {
	char ns[40];
	char sock[160];
	char pidfile[160];
	char log[160];
	char ifname[4];
	const char *addr;
};

static struct node nodes[2];
static char tmpdir[] = "/tmp/lnet-bench.XXXXXX";
static const char *lnetd_bin = "build/lnetd";
static const char *lnetctl_bin = "build/lnetctl";
static bool made_tmp;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	n = strtol(v, &end, 10);
	if (*end || n <= 0) {
		fprintf(stderr, "bench/lnet: %s='%s': expected a positive integer\n", name, v);
		exit(2);
	}
	return n;
}

/* A shell command built like printf; its exit status (-1: not run). */
static int sh(const char *fmt, ...)
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
static int lnetctl(const struct node *n, char *out, size_t len, const char *fmt, ...)
{
	char cmd[1024], args[512];
	size_t used = 0, got;
	va_list ap;
	FILE *p;
	int rc;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
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

static void cleanup(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (!nodes[i].ns[0])
			continue;
		stop_lnetd(&nodes[i]);
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

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "bench/lnet: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	cleanup();
	exit(1);
}

static void start_node(int i, const char *ifname, const char *addr)
{
	struct node *n = &nodes[i];
	char out[4096];
	struct stat st;
	int k;

	snprintf(n->ns, sizeof(n->ns), "lnbench%d-%d", i + 1, (int)getpid());
	snprintf(n->sock, sizeof(n->sock), "%s/n%d.sock", tmpdir, i + 1);
	snprintf(n->pidfile, sizeof(n->pidfile), "%s/n%d.pid", tmpdir, i + 1);
	snprintf(n->log, sizeof(n->log), "%s/n%d.log", tmpdir, i + 1);
	snprintf(n->ifname, sizeof(n->ifname), "%s", ifname);
	n->addr = addr;
	if (sh("ip netns add %s && ip -n %s link set lo up", n->ns, n->ns))
		die("cannot create the network namespace", n->ns);
	if (sh("ip netns exec %s %s --socket %s --pidfile %s --log %s", n->ns, lnetd_bin,
	       n->sock, n->pidfile, n->log))
		die("cannot start lnetd", lnetd_bin);
	for (k = 0; k < 100 && stat(n->sock, &st); k++)
		usleep(50000);
	if (lnetctl(n, out, sizeof(out), "lnet configure"))
		die("lnet configure", out);
}

static void add_ni(const struct node *n)
{
	char out[4096];

	if (lnetctl(n, out, sizeof(out), "net add --net tcp --if %s", n->ifname))
		die("net add", out);
}

static void setup(void)
{
	if (!mkdtemp(tmpdir))
		die("mkdtemp", strerror(errno));
	made_tmp = true;
	start_node(0, "a0", ADDR1);
	start_node(1, "b0", ADDR2);
	if (sh("ip link add a0 netns %s type veth peer name b0 netns %s",
	       nodes[0].ns, nodes[1].ns) ||
	    sh("ip -n %s addr add %s/24 dev a0 && ip -n %s link set a0 up",
	       nodes[0].ns, ADDR1, nodes[0].ns) ||
	    sh("ip -n %s addr add %s/24 dev b0 && ip -n %s link set b0 up",
	       nodes[1].ns, ADDR2, nodes[1].ns))
		die("cannot make the veth pair a0 <-> b0", NULL);
	add_ni(&nodes[0]);
	add_ni(&nodes[1]);
}

/* --- LNet: lnetctl selftest -------------------------------------------------- */

struct st_result {
	unsigned long long ok, failed, corrupt, elapsed_ns;
};

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

/* One selftest run; dies unless every message came back intact. */
static void selftest(const char *op, long size, long count, int conc, struct st_result *r)
{
	char out[8192];
	int rc;

	rc = lnetctl(&nodes[0], out, sizeof(out),
		     "selftest %s " NID2 " --size %ld --count %ld --concurrency %d --timeout 300",
		     op, size, count, conc);
	if (!st_field(out, "ok", &r->ok) || !st_field(out, "failed", &r->failed) ||
	    !st_field(out, "corrupt", &r->corrupt) ||
	    !st_field(out, "elapsed_ns", &r->elapsed_ns))
		die("lnetctl selftest printed no result", out);
	if (rc || r->ok != (unsigned long long)count || r->corrupt || !r->elapsed_ns)
		die("lnetctl selftest did not complete every message", out);
}

/* --- raw TCP between the two namespaces ---------------------------------------- */

static void enter_ns(const char *ns)
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

static struct sockaddr_in sin_of(const char *addr)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(TCP_PORT) };

	inet_pton(AF_INET, addr, &sa.sin_addr);
	return sa;
}

static bool io_all(int fd, void *buf, size_t len, bool wr)
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

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/*
 * The receiver, in node 2: @total bytes then a 1-byte confirmation
 * (stream), or SMALL-byte echoes until EOF (ping-pong). Writes one byte
 * to @ready once it listens.
 */
static void tcp_receiver(int ready, bool stream, long long total)
{
	struct sockaddr_in sa = sin_of(ADDR2);
	int one = 1, ls, fd;
	char *buf;
	ssize_t n;

	enter_ns(nodes[1].ns);
	buf = malloc(MIB);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!buf || ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	fd = accept(ls, NULL, NULL);
	if (fd < 0)
		_exit(1);
	nodelay(fd);
	if (stream) {
		for (; total > 0; total -= n) {
			n = read(fd, buf, total < MIB ? total : MIB);
			if (n <= 0)
				_exit(1);
		}
		_exit(io_all(fd, buf, 1, true) ? 0 : 1);
	}
	while (io_all(fd, buf, SMALL, false))
		if (!io_all(fd, buf, SMALL, true))
			_exit(1);
	_exit(0);
}

/* The sender, in node 1: the seconds it took, written to @result. */
static void tcp_sender(int result, bool stream, long long amount)
{
	struct sockaddr_in sa = sin_of(ADDR2);
	char *buf = malloc(MIB);
	double t0, dt;
	long long i;
	int fd;

	enter_ns(nodes[0].ns);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (!buf || fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		_exit(1);
	nodelay(fd);
	memset(buf, 0x5a, MIB);
	t0 = now_s();
	if (stream) {
		for (i = 0; i < amount; i++)
			if (!io_all(fd, buf, MIB, true))
				_exit(1);
		if (!io_all(fd, buf, 1, false))
			_exit(1);
	} else {
		for (i = 0; i < amount; i++)
			if (!io_all(fd, buf, SMALL, true) || !io_all(fd, buf, SMALL, false))
				_exit(1);
	}
	dt = now_s() - t0;
	close(fd);
	_exit(write(result, &dt, sizeof(dt)) == sizeof(dt) ? 0 : 1);
}

static bool child_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
}

/* Stream @amount MiB (stream) or do @amount ping-pongs; the seconds taken. */
static double tcp_run(bool stream, long long amount)
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
		tcp_receiver(ready[1], stream, amount * MIB);
	if (rx < 0 || read(ready[0], &c, 1) != 1)
		die("the raw TCP receiver did not start", NULL);
	tx = fork();
	if (tx == 0)
		tcp_sender(result[1], stream, amount);
	if (tx < 0 || read(result[0], &dt, sizeof(dt)) != sizeof(dt))
		dt = 0;
	ok = child_ok(tx);
	ok = child_ok(rx) && ok;	/* reap both */
	if (!ok || dt <= 0)
		die("raw TCP run failed", stream ? "stream" : "ping-pong");
	close(ready[0]);
	close(ready[1]);
	close(result[0]);
	close(result[1]);
	return dt;
}

/* --- the two comparisons ----------------------------------------------------------- */

static const char *verdict(double ratio, double target)
{
	return ratio >= target ? "PASS" : "MISS";
}

static void bench_throughput(long mib)
{
	double lnet_best = 0, tcp_best = 0, v, ratio;
	struct st_result r;
	int i;

	selftest("put", MIB, 16, CONCURRENCY, &r);	/* connections up, warm */
	for (i = 0; i < REPEAT; i++) {
		selftest("put", MIB, mib, CONCURRENCY, &r);
		v = (double)mib * MIB / (r.elapsed_ns / 1e9) / 1e6;
		lnet_best = v > lnet_best ? v : lnet_best;
		v = (double)mib * MIB / tcp_run(true, mib) / 1e6;
		tcp_best = v > tcp_best ? v : tcp_best;
	}
	ratio = lnet_best / tcp_best;
	printf("1. 1 MiB PUT, %d in flight: LNet %.0f MB/s, raw TCP stream %.0f MB/s "
	       "(%ld MiB, best of %d): ratio %.2f (target >= 0.9)  %s\n",
	       CONCURRENCY, lnet_best, tcp_best, mib, REPEAT, ratio, verdict(ratio, 0.9));
}

static void bench_small(long msgs)
{
	double lnet_best = 0, tcp_best = 0, v, ratio;
	struct st_result r;
	int i;

	selftest("put", 0, 100, 1, &r);
	for (i = 0; i < REPEAT; i++) {
		selftest("put", 0, msgs, 1, &r);
		v = msgs / (r.elapsed_ns / 1e9);
		lnet_best = v > lnet_best ? v : lnet_best;
		v = msgs / tcp_run(false, msgs);
		tcp_best = v > tcp_best ? v : tcp_best;
	}
	ratio = lnet_best / tcp_best;
	printf("2. 0-byte PUT + ACK, one at a time: LNet %.0f msg/s (%.1f us), raw TCP "
	       "64-byte ping-pong %.0f msg/s (%.1f us) (%ld messages, best of %d): "
	       "ratio %.2f (target >= 0.7)  %s\n",
	       lnet_best, 1e6 / lnet_best, tcp_best, 1e6 / tcp_best, msgs, REPEAT, ratio,
	       verdict(ratio, 0.7));
}

int main(void)
{
	long mib = env_long("LNET_BENCH_MIB", 1024);
	long msgs = env_long("LNET_BENCH_MSGS", 10000);

	if (getenv("LNETD_BIN"))
		lnetd_bin = getenv("LNETD_BIN");
	if (getenv("LNETCTL_BIN"))
		lnetctl_bin = getenv("LNETCTL_BIN");
	if (geteuid() != 0) {
		printf("bench/lnet: skipped (needs root for network namespaces)\n");
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	setup();
	printf("bench/lnet: two network namespaces, veth %s <-> %s, one lnetd each "
	       "(socket LND)\n", ADDR1, ADDR2);
	bench_throughput(mib);
	bench_small(msgs);
	cleanup();
	return 0;
}
