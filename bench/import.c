// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import benchmark (not a test: prints the figures and PASS/MISS, exits 0).
 * The whole user path: a real lnetd on a private socket holding 100,000
 * peer NIs (25,000 multi-rail peers x 4 NIDs on tcp0..tcp3), then a YAML
 * document of 1,000 rules of the six shapes parsed and applied by libcfg,
 * exactly what `lnetctl import FILE` does.
 *
 *   import of 1,000 rules over 100k peer NIs     target < 0.5 s (wall)
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
#define NRULES		1000

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

/* Rule i as one YAML sequence item; the six shapes, mostly NID ranges. */
static int rule_yaml(int i, char *buf, size_t len)
{
	int n = i % 4, k = i / 4 % 100;

	switch (i % 6) {
	case 0:
		return snprintf(buf, len, "  - src: 10.%d.0.[%d-%d]@tcp%d\n"
				"    action: { priority: %d }\n", n, k, k + 1, n, i);
	case 1:
		return snprintf(buf, len, "  - dst: 10.%d.%d.[1-250/2]@tcp%d\n"
				"    action: { priority: %d }\n", n, k, n, i);
	case 2:
		return snprintf(buf, len, "  - dst: 10.%d.%d.*@tcp%d\n"
				"    src: 10.%d.0.%d@tcp%d\n", n, k, n, n, k % 250 + 1, n);
	case 3:
		return snprintf(buf, len, "  - dst: 10.%d.%d.[%d-%d]@tcp%d\n"
				"    rte: 10.9.0.[1-%d]@tcp9\n", n, k, k % 200 + 1,
				k % 200 + 50, n, i % 8 + 1);
	case 4:
		return snprintf(buf, len, "  - src: tcp%d\n    action: { priority: %d }\n",
				10 + i, i);
	default:
		return snprintf(buf, len, "  - dst: tcp%d\n    action: { priority: %d }\n",
				10 + i, i);
	}
}

static char *make_yaml(size_t *len)
{
	size_t cap = NRULES * 128 + 16, off;
	char *buf = malloc(cap);

	off = snprintf(buf, cap, "udsp:\n");
	for (int i = 0; i < NRULES; i++)
		off += rule_yaml(i, buf + off, cap - off);
	*len = off;
	return buf;
}

static void bench_import(struct cfg_handle *h)
{
	struct cfg_doc *doc;
	struct cfg_policy last;
	struct cfg_err err = { 0 };
	size_t len;
	char *text = make_yaml(&len);
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
	if (cfg_policy_get(h, NRULES - 1, &last) || !cfg_policy_get(h, NRULES, &last))
		die("rule count after import", -EPROTO, NULL);
	printf("import of %d rules over %d peer NIs: parse %.1f ms + apply %.1f ms = "
	       "%.1f ms, %.3f ms per rule (target < 500 ms)  %s\n", NRULES,
	       NPEERS * NIDS_PER_PEER, t1 - t0, t2 - t1, t2 - t0, (t2 - t0) / NRULES,
	       t2 - t0 < 500 ? "PASS" : "MISS");
	cfg_doc_free(doc);
	free(text);
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
