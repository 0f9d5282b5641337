// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import benchmark (not a test: prints the figures and PASS/MISS, exits 0).
 * The whole user path: a real lnetd on a private socket holding 100,000
 * peer NIs (25,000 multi-rail peers x 4 NIDs on tcp0..tcp3), then YAML
 * documents of 1,000, 2,000, 4,000, 8,000 and 10,000 rules of the six
 * shapes parsed and applied by libcfg, exactly what `lnetctl import FILE`
 * does (every rule deleted before each import; each size imported three
 * times, the fastest counted), then `lnetctl policy show` of the 10,000
 * rules:
 *
 *   1. import of 1,000 rules over 100k peer NIs        target < 0.5 s (wall)
 *   2. import of 10,000 rules over 100k peer NIs       target <= 2 s
 *   3. time per rule at 10,000 vs at 1,000 rules       target <= 1.5 (linear)
 *   4. policy show of 10,000 rules                      target <= 0.2 s
 *   5. import --del of those 10,000 rules               target <= 2 s
 *
 * Lustre re-applies every rule to every object after each add
 * (O(rules^2 x peer NIs)); our engine re-flattens only what a rule can
 * reach, through an index by net and address.
 *
 * Usage: build/bench/import [PATH-TO-LNETD]   (default build/lnetd)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../libcfg/cfg.h"
#include "../kernel/nid/nid.h"

#define NPEERS		25000
#define NIDS_PER_PEER	4
#define NRULES		10000

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what, int rc, const struct cfg_err *err)
{
	fprintf(stderr, "bench/import: %s: %s (%d)\n", what,
		err && err->msg[0] ? err->msg : strerror(-rc), rc);
	exit(1);
}

static pid_t start_lnetd(const char *lnetd, const char *sock)
{
	struct stat st;
	pid_t pid = fork();

	if (pid < 0)
		die("fork", -1, NULL);
	if (pid == 0) {
		execl(lnetd, lnetd, "--foreground", "--socket", sock,
		      "--log", "/dev/null", (char *)NULL);
		perror(lnetd);
		_exit(127);
	}
	for (int i = 0; i < 200 && stat(sock, &st); i++)
		usleep(10000);
	return pid;
}

/* Peer p: 10.<n>.<p / 250>.<p % 250 + 1>@tcp<n> for n = 0..3. */
static void peer_nid(int p, int n, struct lnet_nid *nid)
{
	u8 addr[4] = { 10, (u8)n, (u8)(p / 250), (u8)(p % 250 + 1) };

	lnet_nid_make(nid, LNET_NET_ID(LNET_LND_TCP, n), addr, 4);
}

static void add_peers(struct cfg_handle *h)
{
	struct cfg_peer *p = malloc(sizeof(*p));
	struct cfg_err err = { 0 };
	int rc;

	for (int i = 0; i < NPEERS; i++) {
		cfg_peer_init(p);
		peer_nid(i, 0, &p->prim);
		for (int n = 1; n < NIDS_PER_PEER; n++) {
			struct lnet_nid nid;

			peer_nid(i, n, &nid);
			rc = cfg_peer_append(p, &nid);
			if (rc)
				die("peer append", rc, NULL);
		}
		rc = cfg_peer_add(h, p, &err);
		if (rc)
			die("peer add", rc, &err);
		cfg_peer_fini(p);
	}
	free(p);
}

/*
 * Rule i as one YAML sequence item: the six shapes in turn, each rule a
 * distinct one (up to 16 x 6 x 2,500 rules), mostly NID ranges over the
 * peer NIs (10.<n>.<0-99>.<1-250>@tcp<n>).
 */
static int rule_yaml(int i, char *buf, size_t len)
{
	int q = i / 6, n = q % 4, k = q / 4 % 100, s = q / 400;

	switch (i % 6) {
	case 0:
		return snprintf(buf, len, "  - src: 10.%d.%d.[%d-%d]@tcp%d\n"
				"    action: { priority: %d }\n", n, s, k, k + 1, n, i);
	case 1:
		return snprintf(buf, len, "  - dst: 10.%d.%d.[%d-250/2]@tcp%d\n"
				"    action: { priority: %d }\n", n, k, s + 1, n, i);
	case 2:
		return snprintf(buf, len, "  - dst: 10.%d.%d.*@tcp%d\n"
				"    src: 10.%d.0.%d@tcp%d\n", n, k, n, n, s + 1, n);
	case 3:
		return snprintf(buf, len, "  - dst: 10.%d.%d.[%d-%d]@tcp%d\n"
				"    rte: 10.9.0.[1-%d]@tcp9\n", n, k, s + 1, s + 50, n,
				i % 8 + 1);
	case 4:
		return snprintf(buf, len, "  - src: tcp%d\n    action: { priority: %d }\n",
				10 + q, i);
	default:
		return snprintf(buf, len, "  - dst: tcp%d\n    action: { priority: %d }\n",
				10 + q, i);
	}
}

static char *make_yaml(int nrules, size_t *len)
{
	size_t cap = (size_t)nrules * 128 + 16, off;
	char *buf = malloc(cap);

	if (!buf)
		die("malloc", -ENOMEM, NULL);
	off = snprintf(buf, cap, "udsp:\n");
	for (int i = 0; i < nrules; i++)
		off += rule_yaml(i, buf + off, cap - off);
	*len = off;
	return buf;
}

/* Import @nrules rules into an lnetd holding none; the wall time in ms. */
static double import_rules(struct cfg_handle *h, int nrules, double *parse_ms)
{
	struct cfg_doc *doc;
	struct cfg_policy last;
	struct cfg_err err = { 0 };
	size_t len;
	char *text = make_yaml(nrules, &len);
	double t0, t1, t2;
	int rc;

	t0 = now_ms();
	rc = cfg_doc_parse(text, len, &doc, &err);
	if (rc)
		die("parse", rc, &err);
	t1 = now_ms();
	rc = cfg_doc_apply(h, doc, false, &err);
	if (rc)
		die("apply", rc, &err);
	t2 = now_ms();
	cfg_policy_init(&last);
	if (cfg_policy_get(h, nrules - 1, &last) || !cfg_policy_get(h, nrules, &last))
		die("rule count after import", -EPROTO, NULL);
	cfg_doc_free(doc);
	free(text);
	*parse_ms = t1 - t0;
	return t2 - t0;
}

static void del_all(struct cfg_handle *h)
{
	struct cfg_err err = { 0 };
	int rc = cfg_policy_del(h, -1, &err);

	if (rc)
		die("policy del --all", rc, &err);
}

/* `lnetctl import --del` of the @nrules-rule document: ms. */
static double del_rules(struct cfg_handle *h, int nrules)
{
	struct cfg_doc *doc;
	struct cfg_policy first;
	struct cfg_err err = { 0 };
	size_t len;
	char *text = make_yaml(nrules, &len);
	double t0;
	int rc;

	t0 = now_ms();
	rc = cfg_doc_parse(text, len, &doc, &err);
	if (!rc)
		rc = cfg_doc_apply(h, doc, true, &err);
	if (rc)
		die("import --del", rc, &err);
	t0 = now_ms() - t0;
	cfg_policy_init(&first);
	if (!cfg_policy_get(h, 0, &first))
		die("rules left after import --del", -EPROTO, NULL);
	cfg_doc_free(doc);
	free(text);
	return t0;
}

/* `lnetctl policy show` of the rules lnetd holds, to memory; ms. */
static double show_rules(struct cfg_handle *h, size_t *bytes)
{
	struct cfg_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	double t0;
	int rc;

	if (!out)
		die("open_memstream", -ENOMEM, NULL);
	t0 = now_ms();
	rc = cfg_show_policies(h, -1, out, &err);
	fflush(out);
	t0 = now_ms() - t0;
	fclose(out);
	if (rc)
		die("policy show", rc, &err);
	*bytes = len;
	free(text);
	return t0;
}

static const int sizes[] = { 1000, 2000, 4000, 8000, NRULES };
#define NSIZES	((int)(sizeof(sizes) / sizeof(sizes[0])))

/*
 * Each size imported REPEAT times into an lnetd holding no rule; the
 * fastest run counts (the machine may be busy: the others are noise).
 */
#define REPEAT	3

static void bench_import(struct cfg_handle *h)
{
	double t[NSIZES], parse[NSIZES], one, p, per1k, per10k, show;
	size_t bytes;
	int i, r;

	for (i = 0; i < NSIZES; i++) {
		for (r = 0; r < REPEAT; r++) {
			if (i || r)
				del_all(h);
			one = import_rules(h, sizes[i], &p);
			if (!r || one < t[i]) {
				t[i] = one;
				parse[i] = p;
			}
		}
		printf("  import of %5d rules: %8.1f ms (parse %.1f ms), %.3f ms per rule"
		       " (fastest of %d)\n", sizes[i], t[i], parse[i], t[i] / sizes[i], REPEAT);
	}
	printf("1. import of 1,000 rules over %d peer NIs: %.1f ms (target < 500 ms)  %s\n",
	       NPEERS * NIDS_PER_PEER, t[0], t[0] < 500 ? "PASS" : "MISS");
	printf("2. import of %d rules over %d peer NIs: %.1f ms (target <= 2000 ms)  %s\n",
	       NRULES, NPEERS * NIDS_PER_PEER, t[NSIZES - 1],
	       t[NSIZES - 1] <= 2000 ? "PASS" : "MISS");
	per1k = t[0] / sizes[0];
	per10k = t[NSIZES - 1] / sizes[NSIZES - 1];
	printf("3. growth: %.3f ms per rule at %d rules, %.3f at 1,000: ratio %.2f "
	       "(target <= 1.5: linear)  %s\n", per10k, NRULES, per1k, per10k / per1k,
	       per10k / per1k <= 1.5 ? "PASS" : "MISS");
	for (r = 0; r < REPEAT; r++) {
		one = show_rules(h, &bytes);
		if (!r || one < show)
			show = one;
	}
	printf("4. policy show of %d rules: %.1f ms, %zu bytes of YAML (target <= 200 ms)  %s\n",
	       NRULES, show, bytes, show <= 200 ? "PASS" : "MISS");
	one = del_rules(h, NRULES);
	printf("5. import --del of %d rules over %d peer NIs: %.1f ms (target <= 2000 ms)  %s\n",
	       NRULES, NPEERS * NIDS_PER_PEER, one, one <= 2000 ? "PASS" : "MISS");
}

int main(int argc, char **argv)
{
	const char *lnetd = argc > 1 ? argv[1] : "build/lnetd";
	char dir[] = "/tmp/lnet-bench.XXXXXX", sock[64];
	struct cfg_err err = { 0 };
	struct cfg_handle *h;
	double t0;
	pid_t pid;
	int rc;

	if (!mkdtemp(dir))
		die("mkdtemp", -1, NULL);
	snprintf(sock, sizeof(sock), "%s/lnetd.sock", dir);
	pid = start_lnetd(lnetd, sock);
	if (cfg_open(sock, &h))
		die("cfg_open", -ENOMEM, NULL);
	rc = cfg_lnet_configure(h, &err);
	if (rc)
		die("configure", rc, &err);
	t0 = now_ms();
	add_peers(h);
	printf("bench/import: lnetd with %d peer NIs (set up in %.0f ms)\n",
	       NPEERS * NIDS_PER_PEER, now_ms() - t0);
	bench_import(h);
	cfg_close(h);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	rmdir(dir);
	return 0;
}
