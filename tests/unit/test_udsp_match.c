// SPDX-License-Identifier: GPL-2.0-only
/*
 * IOC_LNET_UDSP_MATCH (kernel/udsp/udsp_explain.c): which rules decide a
 * NID or a net. Exact answers for each kind of object and rule shape,
 * paging, the request's checks; and, on random rule lists and objects,
 * that what it says is what the flattening does: the values of every
 * configured NI and peer NI, of a peer NI created after it was asked
 * about, and a winner that is always the first rule able to decide.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fake_if.h"

#define PRIO	LNET_UDSP_ACTION_PRIORITY
#define PREF	LNET_UDSP_ACTION_PREFERRED_LIST
#define UNSET	LNET_PRIORITY_UNSET
#define NELEMS(a)	(sizeof(a) / sizeof((a)[0]))

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	FAKE_IF4("eth1", 10, 0, 0, 2),
	FAKE_IF4("eth2", 10, 0, 1, 1),
	FAKE_IF4("ib0", 192, 168, 0, 1),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

static struct lnet_nid nid_of(const char *s)
{
	struct lnet_nid nid;

	assert_int_equal(lnet_nid_parse(s, &nid, NULL, 0), 0);
	return nid;
}

static u32 net_of(const char *s)
{
	u32 id;

	assert_int_equal(lnet_net_parse(s, &id, NULL, 0), 0);
	return id;
}

static void add_peer_ni(struct lnet *ln, const char *prim, const char *nid)
{
	struct lnet_nid p = nid_of(prim), n = nid_of(nid ? nid : prim);

	assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
}

/*
 * Local: tcp (10.0.0.1, 10.0.0.2), tcp1 (10.0.1.1), o2ib (192.168.0.1).
 * Peers: 10.0.0.10@tcp with 10.0.0.11@tcp, 10.0.1.20@tcp1, and 10.5.0.1@tcp5
 * behind the gateways 10.0.0.100@tcp and 10.0.0.101@tcp.
 */
static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct lnet_nid gw;

	fake_lnet_up(ln, fake_lookup);
	assert_int_equal(lnet_ni_add(ln, net_of("tcp"), "eth0", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, net_of("tcp"), "eth1", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, net_of("tcp1"), "eth2", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, net_of("o2ib"), "ib0", NULL), 0);
	add_peer_ni(ln, "10.0.0.10@tcp", NULL);
	add_peer_ni(ln, "10.0.0.10@tcp", "10.0.0.11@tcp");
	add_peer_ni(ln, "10.0.1.20@tcp1", NULL);
	gw = nid_of("10.0.0.100@tcp");
	assert_int_equal(lnet_route_add(ln, net_of("tcp5"), &gw, 1, 0), 0);
	gw = nid_of("10.0.0.101@tcp");
	assert_int_equal(lnet_route_add(ln, net_of("tcp5"), &gw, 1, 0), 0);
	add_peer_ni(ln, "10.5.0.1@tcp5", NULL);
	*state = ln;
	return 0;
}

static int teardown(void **state)
{
	struct lnet *ln = *state;

	fake_lnet_down(ln);
	free(ln);
	return 0;
}

/* --- requests ------------------------------------------------------------------- */

static int add_rule(struct lnet *ln, const char *src, const char *dst,
		    const char *rte, u32 prio)
{
	struct lnet_udsp_desc d = { .idx = -1, .priority = prio };
	const char *in[3] = { src, dst, rte };
	struct lnet_nidexpr *e[3] = { &d.src, &d.dst, &d.rte };
	u8 buf[LNET_UDSP_MAX_SIZE + 64];
	int i, n;

	d.action = (src && dst) || rte ? PREF : PRIO;
	if (d.action == PREF)
		d.priority = 0;
	for (i = 0; i < 3; i++)
		if (in[i])
			assert_int_equal(lnet_nidexpr_parse(in[i], e[i], NULL, 0), 0);
	n = lnet_udsp_marshal(&d, buf, sizeof(buf));
	assert_true(n > 0);
	return lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, buf, (u32)n, true);
}

static void add_ok(struct lnet *ln, const char *src, const char *dst,
		   const char *rte, u32 prio)
{
	assert_int_equal(add_rule(ln, src, dst, rte, prio), 0);
}

static void match_req(struct lnet_ioc_udsp_match *m, const char *nid, const char *net,
		      u32 first)
{
	memset(m, 0, sizeof(*m));
	m->um_hdr.ioc_len = sizeof(*m);
	m->um_hdr.ioc_version = LNET_IOC_VERSION;
	if (nid) {
		m->um_nid = nid_of(nid);
	} else {
		m->um_flags = LNET_UDSP_MATCH_F_NET;
		m->um_net = net_of(net);
	}
	m->um_first = first;
}

/* One request for NID @nid (or net @net), from rule @first; a caller that may not modify. */
static struct lnet_ioc_udsp_match *match(struct lnet *ln, const char *nid, const char *net,
					 u32 first)
{
	static struct lnet_ioc_udsp_match m;

	match_req(&m, nid, net, first);
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), 0);
	return &m;
}

/* "idx:value:W|-:count" for each hit, space-separated. */
static const char *hits_text(const struct lnet_ioc_udsp_match *m)
{
	static char out[4096];
	size_t used = 0;
	u32 i;

	out[0] = '\0';
	for (i = 0; i < m->um_nhits; i++) {
		const struct lnet_ioc_udsp_hit *h = &m->um_hits[i];

		used += snprintf(out + used, sizeof(out) - used, "%s%u:%u:%s:%u", i ? " " : "",
				 h->uh_idx, h->uh_value,
				 h->uh_flags & LNET_UDSP_HIT_F_WINS ? "W" : "-", h->uh_count);
	}
	return out;
}

/* The winners, one per value, -1 when none: "w0 w1 w2 w3 w4 w5". */
static const char *winners_text(const struct lnet_ioc_udsp_match *m)
{
	static char out[128];

	snprintf(out, sizeof(out), "%d %d %d %d %d %d", m->um_winner[0], m->um_winner[1],
		 m->um_winner[2], m->um_winner[3], m->um_winner[4], m->um_winner[5]);
	return out;
}

/* The values, -1 for LNET_PRIORITY_UNSET. */
static const char *values_text(const struct lnet_ioc_udsp_match *m)
{
	static char out[128];
	size_t used = 0;
	int v;

	for (v = 0; v < __LNET_UDSP_VAL_MAX; v++)
		used += snprintf(out + used, sizeof(out) - used, "%s%d", v ? " " : "",
				 m->um_value[v] == UNSET ? -1 : (int)m->um_value[v]);
	return out;
}

static const char *nids_text(const struct lnet_nid *nids, u32 n)
{
	static char out[1024];
	char one[LNET_NID_STR_MAX];
	u32 i;

	out[0] = '\0';
	for (i = 0; i < n && i < LNET_PREF_MAX; i++) {
		assert_true(lnet_nid_print(&nids[i], one, sizeof(one)) > 0);
		if (i)
			strcat(out, ",");
		strcat(out, one);
	}
	return out;
}

/* --- exact answers ----------------------------------------------------------------- */

/* Two rules set one peer NI's priority: the lower idx wins, the other is listed too. */
static void test_peer_ni(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match *m;

	add_ok(ln, NULL, "tcp", NULL, 4);				/* 0 */
	add_ok(ln, NULL, "10.0.0.[10-11]@tcp", NULL, 5);		/* 1 */
	add_ok(ln, NULL, "10.0.0.11@tcp", NULL, 2);			/* 2 */
	add_ok(ln, "10.0.0.9@tcp", "10.0.0.11@tcp", NULL, 0);		/* 3: picks none */
	add_ok(ln, "10.0.0.1@tcp", "10.0.0.[10-11]@tcp", NULL, 0);	/* 4 */
	add_ok(ln, NULL, "10.0.0.11@tcp", "10.0.0.101@tcp", 0);		/* 5 */
	add_ok(ln, "tcp", NULL, NULL, 3);				/* 6: local only */
	m = match(ln, "10.0.0.11@tcp", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_PEER_NI);
	assert_string_equal(hits_text(m), "0:2:W:0 1:3:W:0 2:3:-:0 3:4:-:0 4:4:W:1 5:5:W:1");
	assert_string_equal(winners_text(m), "-1 -1 0 1 4 5");
	assert_string_equal(values_text(m), "-1 -1 4 5 1 1");
	assert_string_equal(nids_text(m->um_pref, 1), "10.0.0.1@tcp");
	assert_string_equal(nids_text(m->um_rtr, 1), "10.0.0.101@tcp");
	assert_int_equal(m->um_total, 7);
	assert_int_equal(m->um_next, 7);
	/* the engine's values on the peer NI itself */
	{
		struct lnet_nid n = nid_of("10.0.0.11@tcp");
		struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &n);

		assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, 4);
		assert_int_equal(lpni->lpni_sel_priority, 5);
		assert_string_equal(nids_text(lpni->lpni_pref_nids, lpni->lpni_npref),
				    "10.0.0.1@tcp");
	}
	/* no rule: nothing, every value at its default */
	m = match(ln, "10.0.1.20@tcp1", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_PEER_NI);
	assert_int_equal(m->um_nhits, 0);
	assert_string_equal(winners_text(m), "-1 -1 -1 -1 -1 -1");
	assert_string_equal(values_text(m), "-1 -1 -1 -1 0 0");
}

/* A NID nobody has: what a peer NI would get; then one is made and gets it. */
static void test_new_peer_ni(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match *m;
	struct lnet_peer_ni *lpni;
	struct lnet_nid n;

	add_ok(ln, NULL, "tcp5", NULL, 6);
	add_ok(ln, NULL, "10.5.0.[1-9]@tcp5", "10.0.0.[100-101]@tcp", 0);
	add_ok(ln, NULL, "10.5.0.7@tcp5", NULL, 1);
	m = match(ln, "10.5.0.7@tcp5", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_NEW_PEER_NI);
	assert_string_equal(hits_text(m), "0:2:W:0 1:5:W:2 2:3:W:0");
	assert_string_equal(values_text(m), "-1 -1 6 1 0 2");
	assert_string_equal(nids_text(m->um_rtr, 2), "10.0.0.100@tcp,10.0.0.101@tcp");
	add_peer_ni(ln, "10.5.0.7@tcp5", NULL);
	n = nid_of("10.5.0.7@tcp5");
	lpni = lnet_peer_ni_find(ln, &n);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, 6);
	assert_int_equal(lpni->lpni_sel_priority, 1);
	assert_string_equal(nids_text(lpni->lpni_rtr_nids, lpni->lpni_nrtr),
			    "10.0.0.100@tcp,10.0.0.101@tcp");
	m = match(ln, "10.5.0.7@tcp5", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_PEER_NI);
}

/* A local NI: its net and NI priorities, and the peer NIs that prefer it. */
static void test_local_ni(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match *m;

	add_ok(ln, "tcp", NULL, NULL, 3);				/* 0 */
	add_ok(ln, "10.0.0.[1-2]@tcp", NULL, NULL, 7);			/* 1 */
	add_ok(ln, "10.0.0.1@tcp", NULL, NULL, 1);			/* 2 */
	add_ok(ln, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0);		/* 3 */
	add_ok(ln, "tcp", "10.0.0.[10-11]@tcp", NULL, 0);		/* 4 */
	add_ok(ln, "10.0.0.2@tcp", "10.0.0.[10-11]@tcp", NULL, 0);	/* 5: after 4 */
	add_ok(ln, NULL, "10.0.0.1@tcp", NULL, 9);			/* 6: a peer rule */
	m = match(ln, "10.0.0.1@tcp", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_LOCAL_NI);
	assert_string_equal(hits_text(m), "0:0:W:0 1:1:W:0 2:1:-:0 3:4:W:1 4:4:W:1");
	assert_string_equal(winners_text(m), "0 1 -1 -1 -1 -1");
	assert_string_equal(values_text(m), "3 7 -1 -1 2 -1");
	assert_string_equal(nids_text(m->um_pref, 2), "10.0.0.10@tcp,10.0.0.11@tcp");
	/* 10.0.0.2 is preferred through rule 4 only: rule 5 comes after it */
	m = match(ln, "10.0.0.2@tcp", NULL, 0);
	assert_string_equal(hits_text(m), "0:0:W:0 1:1:W:0 4:4:W:1 5:4:-:0");
	assert_string_equal(nids_text(m->um_pref, m->um_value[4]), "10.0.0.11@tcp");
	m = match(ln, "192.168.0.1@o2ib", NULL, 0);
	assert_int_equal(m->um_nhits, 0);
	assert_string_equal(values_text(m), "-1 -1 -1 -1 0 -1");
	m = match(ln, "0@lo", NULL, 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_LOCAL_NI);
}

static void test_nets(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match *m;

	add_ok(ln, "tcp", NULL, NULL, 3);
	add_ok(ln, NULL, "tcp*", NULL, 8);
	add_ok(ln, NULL, "tcp", NULL, 2);
	add_ok(ln, NULL, "10.0.0.10@tcp", NULL, 1);	/* a NID rule: not the net's */
	m = match(ln, NULL, "tcp", 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_LOCAL_NET);
	assert_string_equal(hits_text(m), "0:0:W:0 1:2:W:0 2:2:-:0");
	assert_string_equal(values_text(m), "3 -1 8 -1 -1 -1");
	m = match(ln, NULL, "tcp7", 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_PEER_NET);
	assert_string_equal(hits_text(m), "1:2:W:0");
	assert_string_equal(winners_text(m), "-1 -1 1 -1 -1 -1");
	m = match(ln, NULL, "o2ib", 0);
	assert_int_equal(m->um_kind, LNET_UDSP_MATCH_LOCAL_NET);
	assert_int_equal(m->um_nhits, 0);
}

/* More rules than one reply holds: pages from um_next, up to um_total. */
static void test_paging(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match *m;
	char expr[64];
	u32 i;

	for (i = 0; i < 100; i++) {
		snprintf(expr, sizeof(expr), "10.0.0.[0-%u]@tcp", 100 + i);
		add_ok(ln, NULL, expr, NULL, i);
		add_ok(ln, "10.0.1.1@tcp1", NULL, NULL, i + 1);	/* updates rule 1 */
	}
	m = match(ln, "10.0.0.11@tcp", NULL, 0);
	assert_int_equal(m->um_total, 101);
	assert_int_equal(m->um_nhits, LNET_UDSP_MATCH_HITS);
	assert_int_equal(m->um_hits[0].uh_idx, 0);
	assert_int_equal(m->um_hits[1].uh_idx, 2);
	assert_int_equal(m->um_next, LNET_UDSP_MATCH_HITS + 1);
	assert_int_equal(m->um_hits[0].uh_flags, LNET_UDSP_HIT_F_WINS);
	m = match(ln, "10.0.0.11@tcp", NULL, LNET_UDSP_MATCH_HITS + 1);
	assert_int_equal(m->um_nhits, 100 - LNET_UDSP_MATCH_HITS);
	assert_int_equal(m->um_hits[0].uh_idx, LNET_UDSP_MATCH_HITS + 1);
	assert_int_equal(m->um_hits[0].uh_flags, 0);
	assert_int_equal(m->um_next, 101);
	assert_int_equal(m->um_winner[LNET_UDSP_VAL_PEER_NI_PRIO], 0);
	m = match(ln, "10.0.0.11@tcp", NULL, 101);
	assert_int_equal(m->um_nhits, 0);
	assert_int_equal(m->um_next, 101);
	m = match(ln, "10.0.0.11@tcp", NULL, 5000);
	assert_int_equal(m->um_nhits, 0);
	assert_int_equal(m->um_next, 101);
}

/* A rule added to the list but not flattened (a deferred batch). */
static void add_pending(struct lnet *ln, const char *dst, u32 prio)
{
	struct lnet_udsp_desc d = { .idx = -1, .action = PRIO, .priority = prio };
	struct lnet_udsp_batch *b;
	s32 idx;

	assert_int_equal(lnet_nidexpr_parse(dst, &d.dst, NULL, 0), 0);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_udsp_batch_begin(ln, 1, &b), 0);
	assert_int_equal(lnet_udsp_batch_add(ln, b, &d, &idx), 0);
	assert_int_equal(lnet_udsp_batch_commit(ln, b, true), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
}

/*
 * Rule changes pending: the answer is what the rules in the list give (and
 * says so), the objects keep their values until the flush gives them that.
 */
static void test_pending(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid n = nid_of("10.0.0.11@tcp");
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &n);
	struct lnet_ioc_udsp_match *m;
	u64 nobjects;

	add_ok(ln, NULL, "tcp", NULL, 4);
	add_pending(ln, "10.0.0.[10-11]@tcp", 2);
	add_pending(ln, "tcp", 9);			/* the same rule: priority 9 */
	assert_true(lnet_udsp_of(ln)->us_pending);
	nobjects = ln->ln_nobjects;
	m = match(ln, "10.0.0.11@tcp", NULL, 0);
	assert_int_equal(m->um_state, LNET_UDSP_MATCH_S_PENDING);
	assert_string_equal(hits_text(m), "0:2:W:0 1:3:W:0");
	assert_string_equal(values_text(m), "-1 -1 9 2 0 0");
	/* nothing changed: still pending, no index, every object as it was */
	assert_true(lnet_udsp_of(ln)->us_pending);
	assert_null(lnet_udsp_of(ln)->us_index);
	assert_int_equal(ln->ln_nobjects, nobjects);
	assert_int_equal(lpni->lpni_sel_priority, UNSET);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, 4);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_udsp_flush(ln), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_int_equal(lpni->lpni_sel_priority, 2);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, 9);
	m = match(ln, "10.0.0.11@tcp", NULL, 0);
	assert_int_equal(m->um_state, 0);
	assert_string_equal(values_text(m), "-1 -1 9 2 0 0");
}

static void test_errors(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_match m;

	/* the zero NID, as a zeroed request has it */
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	memset(&m.um_nid, 0, sizeof(m.um_nid));
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	m.um_nid.nid_addr[5] = 1;		/* past the address */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	m.um_nid.nid_addr[0] = 127;		/* loopback: no NID */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	m.um_net = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	m.um_flags = 2;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, "10.0.0.1@tcp", NULL, 0);
	m.um_reserved = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, NULL, "tcp", 0);
	m.um_nid = nid_of("10.0.0.1@tcp");
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, NULL, "tcp", 0);
	m.um_net = LNET_NET_ID(200, 0);		/* no such LND */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -EINVAL);
	match_req(&m, NULL, "tcp", 0);
	m.um_hdr.ioc_len = sizeof(m) + 4;
	{
		u8 big[sizeof(m) + 4] = { 0 };

		memcpy(big, &m, sizeof(m));
		assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, big, sizeof(big), false),
				 -EINVAL);
	}
	/* the out fields are not read */
	match_req(&m, NULL, "tcp", 0);
	memset(m.um_hits, 0xff, sizeof(m.um_hits));
	m.um_nhits = 12345;
	m.um_kind = 99;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), 0);
	assert_int_equal(m.um_nhits, 0);
	assert_int_equal(m.um_kind, LNET_UDSP_MATCH_LOCAL_NET);
	assert_int_equal(m.um_hits[0].uh_idx, 0);
	/* read-only, and down it is not served */
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_unconfigure(ln), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	match_req(&m, NULL, "tcp", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_UDSP_MATCH, &m, sizeof(m), false), -ENETDOWN);
	assert_int_equal(lnet_configure(ln), 0);
}

/* --- no drift: random rules and objects ------------------------------------------------ */

static u32 rnd_state = 4242;

static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 1103515245U + 12345U;
	return (rnd_state >> 8) % n;
}

static void rnd_expr(char *buf, size_t len)
{
	static const char *const nets[] = { "tcp", "tcp1", "tcp*", "o2ib", "tcp5", "tcp[0-1]" };
	u32 a = rnd(24), b = a + rnd(12);

	switch (rnd(7)) {
	case 0:
	case 1:
		snprintf(buf, len, "%s", nets[rnd(NELEMS(nets))]);
		break;
	case 2:
		snprintf(buf, len, "10.0.0.[%u-%u]@tcp", a, b);
		break;
	case 3:
		snprintf(buf, len, "10.0.[0-1].*@tcp[0-1]");
		break;
	case 4:
		snprintf(buf, len, "10.0.0.%u@tcp", a);
		break;
	case 5:
		snprintf(buf, len, "10.5.0.[%u-%u]@tcp5", a, b);
		break;
	default:
		snprintf(buf, len, "10.0.0.[%u-%u/2]@tcp", 90 + a % 8, 100 + b);
		break;
	}
}

static void rnd_rule(struct lnet *ln)
{
	char x[64], y[64];
	int rc;

	rnd_expr(x, sizeof(x));
	rnd_expr(y, sizeof(y));
	switch (rnd(4)) {
	case 0:
		rc = add_rule(ln, x, NULL, NULL, rnd(20));
		break;
	case 1:
		rc = add_rule(ln, NULL, x, NULL, rnd(20));
		break;
	case 2:
		rc = add_rule(ln, x, y, NULL, 0);
		break;
	default:
		rc = add_rule(ln, NULL, x, y, 0);
		break;
	}
	assert_true(rc == 0 || rc == -EALREADY);
}

/* Every hit of the object, through as many requests as it takes. */
static u32 all_hits(struct lnet *ln, const char *nid, struct lnet_ioc_udsp_match *head,
		    struct lnet_ioc_udsp_hit *hits, u32 room)
{
	u32 n = 0, first = 0, i;

	do {
		struct lnet_ioc_udsp_match *m = match(ln, nid, NULL, first);

		if (!first)
			*head = *m;
		for (i = 0; i < m->um_nhits; i++) {
			assert_true(n < room);
			hits[n++] = m->um_hits[i];
		}
		assert_true(m->um_next > first || m->um_next == m->um_total);
		first = m->um_next;
	} while (first < head->um_total);
	return n;
}

/*
 * A winner is the first hit of its value that can decide (a list rule
 * must pick something), every hit marked WINS is a winner, and a value
 * with no such hit has no winner and its default.
 */
static void check_winners(const struct lnet_ioc_udsp_match *m,
			  const struct lnet_ioc_udsp_hit *hits, u32 n)
{
	bool local = m->um_kind == LNET_UDSP_MATCH_LOCAL_NI;
	s32 first[__LNET_UDSP_VAL_MAX];
	u32 i, v, sources = 0;

	for (v = 0; v < __LNET_UDSP_VAL_MAX; v++)
		first[v] = -1;
	for (i = 0; i < n; i++) {
		const struct lnet_ioc_udsp_hit *h = &hits[i];
		bool list = h->uh_value >= LNET_UDSP_VAL_PREF_NIDS;

		if (local && list) {
			sources += h->uh_count;
			assert_int_equal(!!(h->uh_flags & LNET_UDSP_HIT_F_WINS), h->uh_count > 0);
			continue;
		}
		if (first[h->uh_value] < 0 && (!list || h->uh_count))
			first[h->uh_value] = (s32)h->uh_idx;
		assert_int_equal(!!(h->uh_flags & LNET_UDSP_HIT_F_WINS),
				 first[h->uh_value] == (s32)h->uh_idx);
	}
	for (v = 0; v < __LNET_UDSP_VAL_MAX; v++) {
		if (local && v == LNET_UDSP_VAL_PREF_NIDS)
			continue;
		assert_int_equal(m->um_winner[v], first[v]);
		if (first[v] < 0 && v < LNET_UDSP_VAL_PREF_NIDS)
			assert_int_equal(m->um_value[v], UNSET);
	}
	if (local)
		assert_int_equal(m->um_value[LNET_UDSP_VAL_PREF_NIDS], sources);
}

static void check_nids(const struct lnet_nid *got, u32 ngot, const struct lnet_nid *want,
		       u32 nwant)
{
	assert_int_equal(ngot, nwant);
	if (nwant > LNET_PREF_MAX)
		nwant = LNET_PREF_MAX;
	assert_memory_equal(got, want, nwant * sizeof(*want));
}

static void check_peer_ni(struct lnet *ln, const struct lnet_peer_ni *lpni, const char *s)
{
	static struct lnet_ioc_udsp_hit hits[1024];
	struct lnet_ioc_udsp_match m;
	u32 n = all_hits(ln, s, &m, hits, NELEMS(hits));

	assert_int_equal(m.um_kind, LNET_UDSP_MATCH_PEER_NI);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_PEER_NET_PRIO],
			 lpni->lpni_peer_net->lpn_sel_priority);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_PEER_NI_PRIO], lpni->lpni_sel_priority);
	check_nids(m.um_pref, m.um_value[LNET_UDSP_VAL_PREF_NIDS], lpni->lpni_pref_nids,
		   lpni->lpni_npref);
	check_nids(m.um_rtr, m.um_value[LNET_UDSP_VAL_PREF_RTRS], lpni->lpni_rtr_nids,
		   lpni->lpni_nrtr);
	check_winners(&m, hits, n);
}

/* The peer NIs whose preferred sources hold @nid, as the engine set them. */
static u32 sources_of(struct lnet *ln, const struct lnet_nid *nid, struct lnet_nid *out)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	u32 n = 0, i;

	list_for_each_entry(lp, &ln->ln_peers, lp_list)
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
		for (i = 0; i < lpni->lpni_npref; i++) {
			if (!lnet_nid_equal(&lpni->lpni_pref_nids[i], nid))
				continue;
			if (n < LNET_PREF_MAX)
				out[n] = lpni->lpni_nid;
			n++;
		}
	}
	return n;
}

static void check_local_ni(struct lnet *ln, const struct lnet_ni *ni, const char *s)
{
	static struct lnet_ioc_udsp_hit hits[1024];
	struct lnet_nid want[LNET_PREF_MAX];
	struct lnet_ioc_udsp_match m;
	u32 n = all_hits(ln, s, &m, hits, NELEMS(hits)), nwant;

	assert_int_equal(m.um_kind, LNET_UDSP_MATCH_LOCAL_NI);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_NET_PRIO], ni->ni_net->net_sel_priority);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_NI_PRIO], ni->ni_sel_priority);
	nwant = sources_of(ln, &ni->ni_nid, want);
	check_nids(m.um_pref, m.um_value[LNET_UDSP_VAL_PREF_NIDS], want, nwant);
	check_winners(&m, hits, n);
}

static void check_everything(struct lnet *ln)
{
	char s[LNET_NID_STR_MAX];
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &ln->ln_nets, net_list)
	list_for_each_entry(ni, &net->net_nis, ni_list) {
		assert_true(lnet_nid_print(&ni->ni_nid, s, sizeof(s)) > 0);
		check_local_ni(ln, ni, s);
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
		assert_true(lnet_nid_print(&lpni->lpni_nid, s, sizeof(s)) > 0);
		check_peer_ni(ln, lpni, s);
	}
}

/* A NID nobody has: asked about, then made a peer NI, it gets what was said. */
static void check_prediction(struct lnet *ln)
{
	static const char *const fmt[] = { "10.0.0.%u@tcp", "10.5.0.%u@tcp5", "10.0.1.%u@tcp1" };
	struct lnet_ioc_udsp_match m;
	struct lnet_peer_ni *lpni;
	struct lnet_nid n;
	char s[64];

	snprintf(s, sizeof(s), fmt[rnd(NELEMS(fmt))], 30 + rnd(80));
	n = nid_of(s);
	if (lnet_peer_ni_find(ln, &n))
		return;
	m = *match(ln, s, NULL, 0);
	assert_int_equal(m.um_kind, LNET_UDSP_MATCH_NEW_PEER_NI);
	assert_int_equal(lnet_peer_ni_add(ln, &n, &n, 0), 0);
	lpni = lnet_peer_ni_find(ln, &n);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_PEER_NI_PRIO], lpni->lpni_sel_priority);
	assert_int_equal(m.um_value[LNET_UDSP_VAL_PEER_NET_PRIO],
			 lpni->lpni_peer_net->lpn_sel_priority);
	check_nids(m.um_pref, m.um_value[LNET_UDSP_VAL_PREF_NIDS], lpni->lpni_pref_nids,
		   lpni->lpni_npref);
	check_nids(m.um_rtr, m.um_value[LNET_UDSP_VAL_PREF_RTRS], lpni->lpni_rtr_nids,
		   lpni->lpni_nrtr);
	assert_int_equal(lnet_peer_ni_del(ln, &n, NULL, 0), 0);
}

static void test_random_no_drift(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid_of("10.0.0.10@tcp"), n;
	char s[64];
	int step;

	for (step = 0; step < 300; step++) {
		switch (rnd(5)) {
		case 0:
		case 1:
		case 2:
			rnd_rule(ln);
			break;
		case 3:
			snprintf(s, sizeof(s), "10.0.0.%u@tcp", 12 + rnd(10));
			n = nid_of(s);
			if (lnet_peer_ni_find(ln, &n))
				assert_int_equal(lnet_peer_ni_del(ln, &p, &n, 0), 0);
			else
				assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
			break;
		default:
			check_prediction(ln);
			break;
		}
		check_everything(ln);
	}
	assert_true(lnet_udsp_of(ln)->us_count >= 40);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_peer_ni),
		T(test_new_peer_ni),
		T(test_local_ni),
		T(test_nets),
		T(test_paging),
		T(test_pending),
		T(test_errors),
		T(test_random_no_drift),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
