// SPDX-License-Identifier: GPL-2.0-only
/*
 * UDSP benchmark (not a test: it prints PASS/MISS per target and always
 * exits 0). One core instance with 64 local NIs (8 tcp nets x 8 NIs, fake
 * interfaces), 4 routed nets behind 8 gateways, and 100,000 peer NIs;
 * 1,000 rules of all six shapes, most of them NID ranges on the busy nets.
 *
 *   1. full re-flatten (lnet_udsp_apply_all)            target < 25 ms
 *   2. one lnet_select_pathway(), 1,000 rules vs none   target <= 1.05x
 *   3. lnet_peer_ni_find() at 100k vs 1k peer NIs       target ~1x (<= 1.5x)
 *   4. adding the 1,000 rules through lnet_ioctl()      target < 0.5 s
 *   5. importing 1,000 .. 10,000 other rules as ADD_UDSP_BATCH requests
 *      (128 KiB each, all but the last deferring the re-flatten)
 *                                        10,000: target <= 2 s, and per
 *                                        rule <= 1.5x the 1,000's (linear)
 *   6. reading the 10,000 rules back with GET_UDSP_BATCH (what policy
 *      show fetches)                                   target <= 0.2 s
 *
 * Times are the CPU time of this thread (CLOCK_THREAD_CPUTIME_ID), so that
 * other jobs on the machine do not count; the code measured is single
 * threaded and does no I/O, so on an idle machine this is the wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kernel/udsp/udsp.h"
#include "../kernel/builtin/builtin.h"

#define NNETS		8		/* tcp0..tcp7, 8 NIs each */
#define NIS_PER_NET	8
#define NREMOTE		4		/* tcp100..tcp103, routed */
#define NGWS		8		/* 10.0.1.[1-8]@tcp */
#define MR_PEERS	24000		/* 4 NIs each on 4 local nets */
#define REMOTE_PEERS	3992		/* one NI each on a routed net */
#define NRULES		1000
#define BATCHES		11

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* "if<k>": 10.<k / 8>.0.<k % 8 + 1> */
static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	int k;

	if (sscanf(ifname, "if%d", &k) != 1 || k < 0 || k >= NNETS * NIS_PER_NET)
		return -ENODEV;
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	out->addr[0] = 10;
	out->addr[1] = k / NIS_PER_NET;
	out->addr[3] = k % NIS_PER_NET + 1;
	out->up = true;
	return 0;
}

static struct lnet_nid ip_nid(u32 net_id, int a, int b, int c, int d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid nid;

	lnet_nid_make(&nid, net_id, addr, 4);
	return nid;
}

static void die(const char *what, int rc)
{
	fprintf(stderr, "bench/udsp: %s: %s\n", what, strerror(-rc));
	exit(1);
}

static void setup_local(struct lnet *ln)
{
	char ifname[16];
	int k, rc;

	/* the NIs' lifecycle lines: not what is measured */
	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	lnet_init(ln);
	rc = lnet_builtin_register(ln);
	if (rc)
		die("builtin register", rc);
	ln->ln_if_lookup = fake_if_lookup;
	rc = lnet_configure(ln);
	if (rc)
		die("configure", rc);
	for (k = 0; k < NNETS * NIS_PER_NET; k++) {
		snprintf(ifname, sizeof(ifname), "if%d", k);
		rc = lnet_ni_add(ln, LNET_NET_ID(LNET_LND_TCP, k / NIS_PER_NET),
				 ifname, NULL);
		if (rc)
			die("net add", rc);
	}
}

/* Peer p's NI j: net (p + j) % 8, address 10.<net>.<p / 250 + 2>.<p % 250 + 1>. */
static struct lnet_nid mr_nid(int p, int j)
{
	int net = (p + j) % NNETS;

	return ip_nid(LNET_NET_ID(LNET_LND_TCP, net), 10, net, p / 250 + 2,
		      p % 250 + 1);
}

static struct lnet_nid remote_nid(int q)
{
	int net = 100 + q % NREMOTE;

	return ip_nid(LNET_NET_ID(LNET_LND_TCP, net), 10, net, q / 250 + 2,
		      q % 250 + 1);
}

static void add_peers(struct lnet *ln, int mr_peers, int nis, int remote)
{
	struct lnet_nid prim, nid;
	int p, j, rc;

	for (p = 0; p < mr_peers; p++) {
		prim = mr_nid(p, 0);
		for (j = 0; j < nis; j++) {
			nid = mr_nid(p, j);
			rc = lnet_peer_ni_add(ln, &prim, &nid, 0);
			if (rc)
				die("peer add", rc);
		}
	}
	for (p = 0; p < remote; p++) {
		prim = remote_nid(p);
		rc = lnet_peer_ni_add(ln, &prim, &prim, 0);
		if (rc)
			die("peer add", rc);
	}
}

static void add_routes(struct lnet *ln)
{
	struct lnet_nid gw;
	int r, g, rc;

	for (r = 0; r < NREMOTE; r++) {
		for (g = 0; g < NGWS; g++) {
			gw = ip_nid(LNET_NET_ID(LNET_LND_TCP, 0), 10, 0, 1, g + 1);
			rc = lnet_route_add(ln, LNET_NET_ID(LNET_LND_TCP, 100 + r),
					    &gw, 1, 0);
			if (rc)
				die("route add", rc);
		}
	}
}

struct rule_text {
	char src[64], dst[64], rte[64];
	u32 action, priority;
};

/* The i-th of the 1,000 rules (see the header comment for the mix). */
static void rule_text(int i, struct rule_text *t)
{
	int n = i % NNETS, k;

	memset(t, 0, sizeof(*t));
	t->action = LNET_UDSP_ACTION_PRIORITY;
	t->priority = i;
	if (i < 8) {
		snprintf(t->src, sizeof(t->src), "tcp%d", n);
	} else if (i < 64) {
		snprintf(t->src, sizeof(t->src), "10.%d.0.%d@tcp%d", n, i / 8, n);
	} else if (i < 72) {
		snprintf(t->dst, sizeof(t->dst), "tcp%d", n);
	} else if (i < 672) {
		k = (i - 72) / NNETS;	/* 0..74: one third octet each */
		snprintf(t->dst, sizeof(t->dst), "10.%d.%d.*@tcp%d", n, k + 2, n);
	} else if (i < 968) {
		k = (i - 672) / NNETS;	/* 0..36 */
		t->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		t->priority = 0;
		snprintf(t->src, sizeof(t->src), "10.%d.0.[%d-%d]@tcp%d",
			 n, k % 5 + 1, k % 5 + 4, n);
		snprintf(t->dst, sizeof(t->dst), "10.%d.%d.[1-250/2]@tcp%d",
			 n, 2 * k + 2, n);
	} else if (i < 972) {
		t->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		t->priority = 0;
		snprintf(t->src, sizeof(t->src), "tcp%d", i - 968);
		snprintf(t->dst, sizeof(t->dst), "tcp%d", i - 968);
	} else {
		k = i - 972;		/* 0..27 */
		t->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		t->priority = 0;
		snprintf(t->dst, sizeof(t->dst), "10.%d.[%d-%d].*@tcp%d",
			 100 + k % NREMOTE, k / NREMOTE * 3 + 2,
			 k / NREMOTE * 3 + 4, 100 + k % NREMOTE);
		snprintf(t->rte, sizeof(t->rte), "10.0.1.[%d-%d]@tcp",
			 k % 5 + 1, k % 5 + 3);
	}
}

static void parse(const char *s, struct lnet_nidexpr *e)
{
	char err[128];

	if (!s[0])
		return;
	if (lnet_nidexpr_parse(s, e, err, sizeof(err))) {
		fprintf(stderr, "bench/udsp: '%s': %s\n", s, err);
		exit(1);
	}
}

/* Marshal all rules first: only the ioctls are timed. */
static u8 **marshal_rules(void)
{
	u8 **bufs = calloc(NRULES, sizeof(*bufs));
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	struct rule_text t;
	int i, n;

	for (i = 0; i < NRULES; i++) {
		rule_text(i, &t);
		memset(d, 0, sizeof(*d));
		d->idx = -1;
		d->action = t.action;
		d->priority = t.priority;
		parse(t.src, &d->src);
		parse(t.dst, &d->dst);
		parse(t.rte, &d->rte);
		bufs[i] = malloc(LNET_UDSP_MAX_SIZE + sizeof(struct lnet_ioc_udsp));
		n = lnet_udsp_marshal(d, bufs[i], LNET_UDSP_MAX_SIZE +
				      sizeof(struct lnet_ioc_udsp));
		if (n < 0)
			die("marshal", n);
	}
	free(d);
	return bufs;
}

static double add_rules(struct lnet *ln, u8 **bufs)
{
	double t0 = now_ms();
	int i, rc;

	for (i = 0; i < NRULES; i++) {
		rc = lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, bufs[i],
				((struct lnet_ioc_hdr *)bufs[i])->ioc_len, true);
		if (rc)
			die("ADD_UDSP", rc);
	}
	return now_ms() - t0;
}

static const char *verdict(bool ok)
{
	return ok ? "PASS" : "MISS";
}

/* --- 5, 6: batches of many rules ------------------------------------------ */

#define BIG_RULES	10000

/*
 * Rule i of the import: the six shapes in turn, each one distinct, over
 * the peer NIs (10.<net>.<2-97>.<1-250>@tcp<net>) and the routed nets.
 */
static void big_rule_text(int i, struct rule_text *t)
{
	int q = i / 6, n = q % NNETS, k = q / NNETS % 96 + 2, s = q / (NNETS * 96);
	int r = q % NREMOTE;

	memset(t, 0, sizeof(*t));
	t->action = LNET_UDSP_ACTION_PRIORITY;
	t->priority = i;
	switch (i % 6) {
	case 0:
		snprintf(t->src, sizeof(t->src), "10.%d.%d.[%d-%d]@tcp%d", n, s + 1, k, k + 1, n);
		break;
	case 1:
		snprintf(t->dst, sizeof(t->dst), "10.%d.%d.[%d-250/2]@tcp%d", n, k, s + 1, n);
		break;
	case 2:
		t->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		t->priority = 0;
		snprintf(t->dst, sizeof(t->dst), "10.%d.%d.*@tcp%d", n, k, n);
		snprintf(t->src, sizeof(t->src), "10.%d.0.%d@tcp%d", n, s + 1, n);
		break;
	case 3:
		t->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		t->priority = 0;
		snprintf(t->dst, sizeof(t->dst), "10.%d.%d.[%d-%d]@tcp%d", 100 + r,
			 q / NREMOTE % 50 + 2, q / 200 + 1, q / 200 + 50, 100 + r);
		snprintf(t->rte, sizeof(t->rte), "10.0.1.[1-%d]@tcp", i % 8 + 1);
		break;
	case 4:
		snprintf(t->src, sizeof(t->src), "tcp%d", 200 + q);
		break;
	default:
		snprintf(t->dst, sizeof(t->dst), "tcp%d", 200 + q);
		break;
	}
}

struct requests {
	int n;
	u8 *buf[BIG_RULES];		/* far more than needed */
};

/* The first @nrules rules as ADD_UDSP_BATCH requests, marshalled in advance. */
static void batch_requests(int nrules, struct requests *rq)
{
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	struct lnet_ioc_udsp_batch *h = NULL;
	struct rule_text t;
	int i, n;

	rq->n = 0;
	for (i = 0; i < nrules; i++) {
		big_rule_text(i, &t);
		memset(d, 0, sizeof(*d));
		d->idx = -1;
		d->action = t.action;
		d->priority = t.priority;
		parse(t.src, &d->src);
		parse(t.dst, &d->dst);
		parse(t.rte, &d->rte);
		if (!h || h->iub_hdr.ioc_len + lnet_udsp_bulk_size(d) +
			  sizeof(struct lnet_ioc_udsp) > LNET_IOC_MAX_LEN) {
			h = calloc(1, LNET_IOC_MAX_LEN);
			rq->buf[rq->n++] = (u8 *)h;
			h->iub_hdr.ioc_len = sizeof(*h);
			h->iub_hdr.ioc_version = LNET_IOC_VERSION;
			h->iub_flags = LNET_UDSP_BATCH_F_DEFER;
		}
		n = lnet_udsp_marshal(d, (u8 *)h + h->iub_hdr.ioc_len,
				      LNET_IOC_MAX_LEN - h->iub_hdr.ioc_len);
		if (n < 0)
			die("marshal", n);
		h->iub_hdr.ioc_len += n;
		h->iub_count++;
	}
	h->iub_flags = 0;	/* the last one re-flattens */
	free(d);
}

static double import_batches(struct lnet *ln, const struct requests *rq)
{
	double t0 = now_ms();
	int i, rc;

	for (i = 0; i < rq->n; i++) {
		rc = lnet_ioctl(ln, IOC_LNET_ADD_UDSP_BATCH, rq->buf[i],
				((struct lnet_ioc_hdr *)rq->buf[i])->ioc_len, true);
		if (rc)
			die("ADD_UDSP_BATCH", rc);
	}
	return now_ms() - t0;
}

/* Every rule back, as policy show reads them; the time in ms. */
static double read_rules(struct lnet *ln, u32 *nread)
{
	struct lnet_ioc_udsp_batch *h = malloc(LNET_IOC_MAX_LEN);
	struct lnet_udsp_desc *d = malloc(sizeof(*d));
	double t0 = now_ms();
	u32 idx = 0, off, i;
	int rc;

	*nread = 0;
	do {
		memset(h, 0, sizeof(*h));
		h->iub_hdr.ioc_len = LNET_IOC_MAX_LEN;
		h->iub_hdr.ioc_version = LNET_IOC_VERSION;
		h->iub_idx = (s32)idx;
		rc = lnet_ioctl(ln, IOC_LNET_GET_UDSP_BATCH, h, LNET_IOC_MAX_LEN, false);
		if (rc)
			die("GET_UDSP_BATCH", rc);
		for (i = 0, off = sizeof(*h); i < h->iub_count; i++) {
			const struct lnet_ioc_udsp *u = (const void *)((u8 *)h + off);

			if (lnet_udsp_demarshal(u, u->iou_hdr.ioc_len, d, NULL, 0))
				die("demarshal", -EPROTO);
			off += u->iou_hdr.ioc_len;
		}
		idx += h->iub_count;
		*nread += h->iub_count;
	} while (h->iub_count && idx < h->iub_total);
	t0 = now_ms() - t0;
	free(d);
	free(h);
	return t0;
}

static void bench_batches(struct lnet *ln)
{
	static const int sizes[] = { 1000, 2000, 4000, 8000, BIG_RULES };
	static struct requests rq;
	double t[5], per1k, per10k, tread;
	u32 nread;
	int i, j;

	printf("5. import of other rules as ADD_UDSP_BATCH requests (marshalled in "
	       "advance), every rule deleted before each size:\n");
	for (i = 0; i < 5; i++) {
		lnet_udsp_del(ln, -1);
		batch_requests(sizes[i], &rq);
		t[i] = import_batches(ln, &rq);
		if (lnet_udsp_of(ln)->us_count != (u32)sizes[i])
			die("rule count after the import", -EPROTO);
		printf("   %5d rules: %7.1f ms in %d requests, %.4f ms per rule\n",
		       sizes[i], t[i], rq.n, t[i] / sizes[i]);
		for (j = 0; j < rq.n; j++)
			free(rq.buf[j]);
	}
	per1k = t[0] / sizes[0];
	per10k = t[4] / sizes[4];
	printf("   10,000 rules: %.1f ms (target <= 2000 ms)  %s\n", t[4],
	       verdict(t[4] <= 2000.0));
	printf("   per rule at 10,000 vs at 1,000: %.4f / %.4f ms: ratio %.2f "
	       "(target <= 1.5: linear)  %s\n", per10k, per1k, per10k / per1k,
	       verdict(per10k / per1k <= 1.5));
	tread = read_rules(ln, &nread);
	if (nread != BIG_RULES)
		die("rules read back", -EPROTO);
	printf("6. the 10,000 rules read back with GET_UDSP_BATCH (policy show's fetch): "
	       "%.1f ms (target <= 200 ms)  %s\n", tread, verdict(tread <= 200.0));
}

static double time_apply_all(struct lnet *ln)
{
	double v[BATCHES], t0;
	int b;

	for (b = 0; b < BATCHES; b++) {
		t0 = now_ms();
		lnet_udsp_apply_all(ln);
		v[b] = now_ms() - t0;
	}
	return median(v, BATCHES);
}

/* Every rule against every object (what an unindexed engine does). */
static double time_naive(struct lnet *ln, int nrules, u64 *matches)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	double t0 = now_ms();
	u32 i;

	*matches = 0;
	for (i = 0; i < us->us_count && i < (u32)nrules; i++) {
		const struct lnet_udsp *r = us->us_rules[i];
		const struct lnet_nidexpr *e = lnet_nidexpr_present(&r->udsp_desc.dst) ?
					       &r->udsp_desc.dst : &r->udsp_desc.src;

		list_for_each_entry(lp, &ln->ln_peers, lp_list)
			list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
				list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
					*matches += lnet_nidexpr_match_nid(e, &lpni->lpni_nid);
	}
	return now_ms() - t0;
}

#define SEL_CALLS	20000

/* Per-call time (ns) of one batch of lnet_select_pathway() calls. */
static double select_batch(struct lnet *ln, const struct lnet_nid *dsts, int ndsts)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	double t0 = now_ms();
	int i, rc;

	for (i = 0; i < SEL_CALLS; i++) {
		rc = lnet_select_pathway(ln, &dsts[i % ndsts], &ni, &lpni);
		if (rc)
			die("select", rc);
	}
	return (now_ms() - t0) * 1e6 / SEL_CALLS;
}

#define FIND_CALLS	200000

static double time_find(struct lnet *ln, const struct lnet_nid *nids, int n)
{
	double v[BATCHES], t0;
	int b, i;
	u64 found = 0;

	for (b = 0; b < BATCHES; b++) {
		t0 = now_ms();
		for (i = 0; i < FIND_CALLS; i++)
			found += lnet_peer_ni_find(ln, &nids[(i * 7919) % n]) != NULL;
		v[b] = (now_ms() - t0) * 1e6 / FIND_CALLS;
	}
	if (found != (u64)BATCHES * FIND_CALLS)
		die("find", -ENOENT);
	return median(v, BATCHES);
}

static u32 count_pref_lists(struct lnet *ln, u32 *rtr)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	u32 n = 0;

	*rtr = 0;
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				n += lpni->lpni_npref > 0;
				*rtr += lpni->lpni_nrtr > 0;
			}
	return n;
}

/*
 * Selection on the instance with the rules and on an identical one
 * without: batches alternate between the two so that a busy machine
 * slows both alike; the medians are compared.
 */
static void bench_select(struct lnet *with_rules, struct lnet *none)
{
	double with[3 * BATCHES], without[3 * BATCHES], w, n;
	struct lnet_nid dsts[1000];
	int i, b;

	for (i = 0; i < 1000; i++)
		dsts[i] = mr_nid((i * 97) % MR_PEERS, 0);
	select_batch(with_rules, dsts, 1000);	/* warm up */
	select_batch(none, dsts, 1000);
	for (b = 0; b < 3 * BATCHES; b++) {
		with[b] = select_batch(with_rules, dsts, 1000);
		without[b] = select_batch(none, dsts, 1000);
	}
	w = median(with, 3 * BATCHES);
	n = median(without, 3 * BATCHES);
	printf("2. select_pathway: %.0f ns with 1,000 rules, %.0f ns with none: "
	       "ratio %.3f (target <= 1.05)  %s\n", w, n, w / n,
	       verdict(w / n <= 1.05));
}

static void bench_find(struct lnet *big)
{
	struct lnet_nid *nids = malloc(1000 * sizeof(*nids));
	static struct lnet small;
	double t_big, t_small;
	int i;

	for (i = 0; i < 1000; i++)
		nids[i] = mr_nid((i * 31) % 250, i % 4);
	t_big = time_find(big, nids, 1000);
	setup_local(&small);
	add_peers(&small, 250, 4, 0);
	t_small = time_find(&small, nids, 1000);
	printf("3. peer NI lookup: %.1f ns at %u peer NIs, %.1f ns at %u: "
	       "ratio %.2f (target ~1, <= 1.5)  %s\n", t_big, big->ln_npeer_nis,
	       t_small, small.ln_npeer_nis, t_big / t_small,
	       verdict(t_big / t_small <= 1.5));
	lnet_fini(&small);
	free(nids);
}

static struct lnet *setup_big(void)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	setup_local(ln);
	add_routes(ln);
	add_peers(ln, MR_PEERS, 4, REMOTE_PEERS);
	return ln;
}

int main(void)
{
	struct lnet *ln = setup_big(), *none = setup_big();
	u8 **bufs = marshal_rules();
	double t_add, t_apply, t_naive;
	u32 npref, nrtr;
	u64 matches;
	int i;

	printf("bench/udsp: %u local NIs (incl. 0@lo), %u peer NIs, %d rules\n",
	       NNETS * NIS_PER_NET + 1, ln->ln_npeer_nis, NRULES);

	t_add = add_rules(ln, bufs);
	t_apply = time_apply_all(ln);
	t_naive = time_naive(ln, 100, &matches) * (NRULES / 100);
	npref = count_pref_lists(ln, &nrtr);
	printf("   after the rules: %u peer NIs with preferred NIDs, %u with "
	       "preferred routers\n", npref, nrtr);
	printf("1. full re-flatten: %.2f ms (target < 25 ms)  %s\n", t_apply,
	       verdict(t_apply < 25.0));
	printf("   every rule x every peer NI, unindexed (from 100 rules): "
	       "~%.0f ms: %.1fx the indexed re-flatten\n", t_naive,
	       t_naive / t_apply);
	bench_select(ln, none);
	lnet_fini(none);
	free(none);
	bench_find(ln);
	printf("4. YAML import of 1,000 rules: measured as 1,000 ADD_UDSP ioctls "
	       "(marshalled in advance) on this instance\n");
	printf("   %.1f ms in all, %.3f ms per rule (target < 500 ms)  %s\n",
	       t_add, t_add / NRULES, verdict(t_add < 500.0));
	bench_batches(ln);

	lnet_fini(ln);
	for (i = 0; i < NRULES; i++)
		free(bufs[i]);
	free(bufs);
	free(ln);
	return 0;
}
