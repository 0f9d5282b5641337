// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ping, discovery and push between LNet instances joined by memlnd:
 * node0 and node1 each have two NIs on tcp (m<n>e0 = 10.21.0.<n+1>,
 * m<n>e1 = 10.22.0.<n+1>).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd.h"
#include "../../kernel/core/ping_priv.h"

struct pair {
	struct memlnd_node *n0, *n1;
	struct lnet_ping_result *res;
};

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	p->n0 = memlnd_node_new(0);
	p->n1 = memlnd_node_new(1);
	p->res = calloc(1, sizeof(*p->res));
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 1), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 1), 0);
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	memlnd_rules_clear();
	/* every object freed, every send finalized */
	assert_int_equal(memlnd_node_free(p->n0), 0);
	assert_int_equal(memlnd_node_free(p->n1), 0);
	free(p->res);
	free(p);
	return 0;
}

static int ping(struct memlnd_node *n, const char *dst, const char *src,
		u32 ms, struct lnet_ping_result *res)
{
	struct lnet_nid d = memlnd_nid(dst), s;
	int rc;

	if (src)
		s = memlnd_nid(src);
	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_ping(&n->ln, &d, src ? &s : NULL, ms, res);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return rc;
}

static int discover(struct memlnd_node *n, const char *dst,
		    struct lnet_ping_result *res)
{
	struct lnet_nid d = memlnd_nid(dst);
	int rc;

	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_discover(&n->ln, &d, 2000, res);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return rc;
}

static void assert_nid(const struct lnet_nid *nid, const char *want)
{
	char buf[LNET_NID_STR_MAX];

	assert_true(lnet_nid_print(nid, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

/* The NIDs of the peer of @nid on @n, in order, joined by spaces. */
static void peer_nids(struct memlnd_node *n, const char *nid, char *out,
		      size_t len)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	size_t off = 0;

	out[0] = 0;
	os_mutex_lock(&n->ln.ln_api_mutex);
	lp = lnet_peer_find(&n->ln, &id);
	if (lp) {
		off += lnet_nid_print(&lp->lp_primary_nid, out, len);
		off += snprintf(out + off, len - off, ":");
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				off += snprintf(out + off, len - off, " ");
				off += lnet_nid_print(&lpni->lpni_nid, out + off,
						      len - off);
			}
	}
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static u32 peer_state(struct memlnd_node *n, const char *nid)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer *lp;
	u32 st;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lp = lnet_peer_find(&n->ln, &id);
	st = lp ? lp->lp_state : 0xffffffffU;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return st;
}

static void test_ping_lo(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_result *r = p->res;

	assert_int_equal(ping(p->n0, "0@lo", NULL, 1000, r), 0);
	assert_nid(&r->primary, "0@lo");
	assert_false(r->multi_rail);
	assert_int_equal(r->nnids, 2);
	assert_nid(&r->nids[0], "10.21.0.1@tcp");
	assert_nid(&r->nids[1], "10.22.0.1@tcp");
}

static void test_ping_peer(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_result *r = p->res;
	char buf[256];

	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 1000, r), 0);
	assert_nid(&r->primary, "10.21.0.2@tcp");
	/* not discovered yet: Multi-Rail comes from our peer state */
	assert_false(r->multi_rail);
	assert_int_equal(r->nnids, 2);
	assert_nid(&r->nids[0], "10.21.0.2@tcp");
	assert_nid(&r->nids[1], "10.22.0.2@tcp");
	/* the traffic made a peer; a ping adds no NI to it */
	peer_nids(p->n0, "10.21.0.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.21.0.2@tcp: 10.21.0.2@tcp");
	assert_int_equal(peer_state(p->n0, "10.21.0.2@tcp") &
			 (LNET_PEER_S_CONFIGURED | LNET_PEER_S_DISCOVERED), 0);
	/* the other NID answers too, with the same list */
	assert_int_equal(ping(p->n0, "10.22.0.2@tcp", NULL, 1000, r), 0);
	assert_int_equal(r->nnids, 2);
}

static u64 ni_sends(struct memlnd_node *n, const char *nid)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_ni *ni;
	u64 v;

	os_mutex_lock(&n->ln.ln_api_mutex);
	ni = lnet_ni_find(&n->ln, &id);
	v = ni ? lnet_counters_total(&ni->ni_counters, LNET_STATS_SENT) : ~0ULL;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return v;
}

static bool both_idle(void *arg)
{
	struct pair *p = arg;

	return memlnd_node_idle(p->n0) && memlnd_node_idle(p->n1);
}

static void test_ping_source(void **state)
{
	struct pair *p = *state;
	u64 e0 = ni_sends(p->n0, "10.21.0.1@tcp");
	u64 e1 = ni_sends(p->n0, "10.22.0.1@tcp");
	int i;

	for (i = 0; i < 3; i++)
		assert_int_equal(ping(p->n0, "10.21.0.2@tcp", "10.22.0.1@tcp",
				      1000, p->res), 0);
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_int_equal(ni_sends(p->n0, "10.21.0.1@tcp") - e0, 0);
	assert_int_equal(ni_sends(p->n0, "10.22.0.1@tcp") - e1, 3);
}

struct peer_want {
	struct memlnd_node *n;
	const char *nid;
	const char *nids;
	u32 state;
};

static bool peer_is(void *arg)
{
	struct peer_want *w = arg;
	char buf[256];

	peer_nids(w->n, w->nid, buf, sizeof(buf));
	return !strcmp(buf, w->nids) &&
	       (peer_state(w->n, w->nid) & w->state) == w->state;
}

/* A u32 field of a peer NI (offsetof), read under the lock; 0xdead if none. */
static u32 lpni_u32(struct memlnd_node *n, const char *nid, size_t field)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer_ni *lpni;
	u32 v = 0xdead;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lpni = lnet_peer_ni_find(&n->ln, &id);
	if (lpni)
		memcpy(&v, (const char *)lpni + field, sizeof(v));
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return v;
}

static u32 lpni_prio(struct memlnd_node *n, const char *nid)
{
	return lpni_u32(n, nid, offsetof(struct lnet_peer_ni, lpni_sel_priority));
}

static u32 lpni_state(struct memlnd_node *n, const char *nid)
{
	return lpni_u32(n, nid, offsetof(struct lnet_peer_ni, lpni_state));
}

static u32 lpni_health(struct memlnd_node *n, const char *nid)
{
	return lpni_u32(n, nid, offsetof(struct lnet_peer_ni, lpni_health.lh_value));
}

static void udsp_dst_priority(struct memlnd_node *n, const char *dst, u32 prio)
{
	struct lnet_udsp_desc d;
	s32 idx;

	memset(&d, 0, sizeof(d));
	d.idx = -1;
	d.action = LNET_UDSP_ACTION_PRIORITY;
	d.priority = prio;
	assert_int_equal(lnet_nidexpr_parse(dst, &d.dst, NULL, 0), 0);
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_udsp_add(&n->ln, &d, &idx), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

/* The NIDs of @want (space separated) are exactly one peer's, in any order. */
struct peer_set {
	struct memlnd_node *n;
	const char *nids;
	u32 state;
};

static bool peer_holds(void *arg)
{
	struct peer_set *w = arg;
	struct lnet_peer *lp = NULL;
	char copy[256], *tok, *save;
	bool ok = true;
	u32 count = 0;

	snprintf(copy, sizeof(copy), "%s", w->nids);
	os_mutex_lock(&w->n->ln.ln_api_mutex);
	for (tok = strtok_r(copy, " ", &save); tok && ok;
	     tok = strtok_r(NULL, " ", &save)) {
		struct lnet_nid id = memlnd_nid(tok);
		struct lnet_peer *q = lnet_peer_find(&w->n->ln, &id);

		ok = q && (!lp || q == lp);
		lp = q;
		count++;
	}
	ok = ok && lp && lp->lp_nnis == count &&
	     (lp->lp_state & w->state) == w->state;
	os_mutex_unlock(&w->n->ln.ln_api_mutex);
	return ok;
}

static void test_discover(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_result *r = p->res;
	const u32 done = LNET_PEER_S_DISCOVERED | LNET_PEER_S_NIDS_UPTODATE |
			 LNET_PEER_S_MULTI_RAIL;
	/* the primary there is the NID our push came from: either */
	struct peer_set pushed = { p->n1, "10.21.0.1@tcp 10.22.0.1@tcp", done };
	char buf[256];

	/* a rule made before the peer NI exists applies when it is created */
	udsp_dst_priority(p->n0, "10.22.0.2@tcp", 3);
	assert_int_equal(discover(p->n0, "10.21.0.2@tcp", r), 0);
	assert_nid(&r->primary, "10.21.0.2@tcp");
	assert_true(r->multi_rail);
	assert_int_equal(r->nnids, 2);
	assert_nid(&r->nids[0], "10.21.0.2@tcp");
	assert_nid(&r->nids[1], "10.22.0.2@tcp");
	peer_nids(p->n0, "10.22.0.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.21.0.2@tcp: 10.21.0.2@tcp 10.22.0.2@tcp");
	assert_int_equal(peer_state(p->n0, "10.21.0.2@tcp") & done, done);
	assert_int_equal(lpni_prio(p->n0, "10.22.0.2@tcp"), 3);
	assert_int_equal(lpni_prio(p->n0, "10.21.0.2@tcp"), LNET_PRIORITY_UNSET);
	/* our push taught node1 both of our NIDs */
	assert_true(memlnd_wait(peer_holds, &pushed, 2000));
	/* a ping now reports Multi-Rail from the discovered state */
	assert_int_equal(ping(p->n0, "10.22.0.2@tcp", NULL, 1000, r), 0);
	assert_true(r->multi_rail);
	assert_nid(&r->primary, "10.21.0.2@tcp");
	/* discovering again changes nothing */
	assert_int_equal(discover(p->n0, "10.22.0.2@tcp", r), 0);
	peer_nids(p->n0, "10.22.0.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.21.0.2@tcp: 10.21.0.2@tcp 10.22.0.2@tcp");
}

/*
 * A discover or ping of one of our own NIDs makes this node its own peer
 * (as Lustre), holding our NIDs only, with the rules applied; nothing is
 * pushed to node1; 0@lo makes none; traffic to ourselves makes none.
 */
static void test_self_peer(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_result *r = p->res;
	struct lnet_nid me = memlnd_nid("10.21.0.1@tcp");
	struct lnet_nid other = memlnd_nid("10.21.0.2@tcp");
	char buf[256];

	udsp_dst_priority(p->n0, "10.22.0.1@tcp", 4);
	assert_int_equal(ping(p->n0, "0@lo", NULL, 1000, r), 0);
	assert_null(lnet_peer_find(&p->n0->ln, &me));
	/* this node as its own peer: known by the NID that made it */
	assert_int_equal(discover(p->n0, "10.22.0.1@tcp", r), 0);
	assert_nid(&r->primary, "10.22.0.1@tcp");
	assert_true(r->multi_rail);
	peer_nids(p->n0, "10.21.0.1@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.22.0.1@tcp: 10.22.0.1@tcp 10.21.0.1@tcp");
	assert_true(lnet_peer_find(&p->n0->ln, &me)->lp_self);
	assert_int_equal(lpni_prio(p->n0, "10.22.0.1@tcp"), 4);
	assert_int_equal(peer_state(p->n1, "10.21.0.1@tcp"), 0xffffffffU);
	/* it takes no other node's NID; then a ping makes it again */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &me, &other, 0), -EADDRINUSE);
	assert_int_equal(lnet_peer_ni_del(&p->n0->ln, &me, NULL, 0), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(ping(p->n0, "10.21.0.1@tcp", NULL, 1000, r), 0);
	assert_true(r->multi_rail);
	peer_nids(p->n0, "10.22.0.1@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.21.0.1@tcp: 10.21.0.1@tcp 10.22.0.1@tcp");
}

static void test_discover_merges_peers(void **state)
{
	struct pair *p = *state;
	struct lnet_nid a = memlnd_nid("10.21.0.2@tcp");
	struct lnet_nid b = memlnd_nid("10.22.0.2@tcp");
	struct lnet_nid stale = memlnd_nid("10.23.0.2@tcp");
	char buf[256];

	/* two peers for what is one node, one with a NID it no longer has */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &a, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &b, &stale, 0), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	/* one peer, under the node's own first NID */
	assert_int_equal(discover(p->n0, "10.22.0.2@tcp", p->res), 0);
	assert_nid(&p->res->primary, "10.21.0.2@tcp");
	peer_nids(p->n0, "10.22.0.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.21.0.2@tcp: 10.21.0.2@tcp 10.22.0.2@tcp");
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_null(lnet_peer_ni_find(&p->n0->ln, &stale));
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* Merge a ping info listing @a then @b, as learnt through @via. */
static int merge_two(struct memlnd_node *n, const char *via, const char *a,
		     const char *b)
{
	struct lnet_ping_info *pi = lnet_ping_info_alloc(2);
	struct lnet_nid v = memlnd_nid(via), prim;
	int rc;

	assert_non_null(pi);
	pi->pi_features = LNET_PING_FEAT_BASE | LNET_PING_FEAT_NI_STATUS |
			  LNET_PING_FEAT_MULTI_RAIL;
	pi->pi_nnis = 2;
	pi->pi_ni[0].ns_nid = memlnd_nid(a);
	pi->pi_ni[0].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[1].ns_nid = memlnd_nid(b);
	pi->pi_ni[1].ns_status = LNET_NI_STATUS_UP_WIRE;
	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_peer_merge_ping(&n->ln, &v, pi, &prim);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	os_free(pi);
	return rc;
}

/* Lower a peer NI as any caller must: health, then a recovery schedule. */
static void lpni_lower(struct memlnd_node *n, const char *nid, u32 health)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer_ni *lpni;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lpni = lnet_peer_ni_find(&n->ln, &id);
	assert_non_null(lpni);
	lpni->lpni_health.lh_value = health;
	lnet_recovery_schedule(&n->ln, &lpni->lpni_health);
	assert_false(list_empty(&lpni->lpni_health.lh_recovery_list));
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static bool lpni_recoveryq_empty(struct memlnd_node *n)
{
	const struct list_head *q = &n->ln.ln_recoveryq[LNET_KIND_PEER_NI];
	bool empty;

	os_mutex_lock(&n->ln.ln_api_mutex);
	empty = !q->next || list_empty(q);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return empty;
}

/*
 * The peer NIs a merge deletes leave the recovery queue with them (the
 * monitor walks it every tick: the sanitized build checks no freed one is
 * left); the NID merged into the other peer comes back healthy, unqueued.
 */
static void test_merge_unqueues(void **state)
{
	struct pair *p = *state;
	struct lnet_nid a = memlnd_nid("10.21.0.2@tcp");
	struct lnet_nid b = memlnd_nid("10.22.0.2@tcp");
	struct lnet_nid stale = memlnd_nid("10.23.0.2@tcp");

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &a, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &b, &stale, 0), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	lpni_lower(p->n0, "10.21.0.2@tcp", 500);
	lpni_lower(p->n0, "10.23.0.2@tcp", 400);
	assert_false(lpni_recoveryq_empty(p->n0));
	assert_int_equal(merge_two(p->n0, "10.22.0.2@tcp", "10.22.0.2@tcp",
				   "10.21.0.2@tcp"), 0);
	assert_true(lpni_recoveryq_empty(p->n0));
	assert_int_equal(lpni_health(p->n0, "10.21.0.2@tcp"), LNET_MAX_HEALTH);
	assert_int_equal(lpni_health(p->n0, "10.23.0.2@tcp"), 0xdead);
	/* a few monitor ticks over the queue */
	memlnd_sleep_ms(300);
	assert_true(lpni_recoveryq_empty(p->n0));
	assert_int_equal(lpni_health(p->n0, "10.21.0.2@tcp"), LNET_MAX_HEALTH);
}

/* Only the admin's peers are CONFIGURED; discovery keeps, never adds it. */
static void test_discovered_not_configured(void **state)
{
	struct pair *p = *state;
	struct lnet_nid c = memlnd_nid("10.31.0.2@tcp");
	char buf[256];

	/* unknown NIDs: the merge creates the peer with a new primary */
	assert_int_equal(merge_two(p->n0, "10.30.0.2@tcp", "10.30.0.2@tcp",
				   "10.30.1.2@tcp"), 0);
	peer_nids(p->n0, "10.30.1.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.30.0.2@tcp: 10.30.0.2@tcp 10.30.1.2@tcp");
	assert_int_equal(peer_state(p->n0, "10.30.0.2@tcp") &
			 (LNET_PEER_S_CONFIGURED | LNET_PEER_S_DISCOVERED),
			 LNET_PEER_S_DISCOVERED);
	/* a traffic peer whose primary is not listed is rebuilt, unconfigured */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_non_null(lnet_peer_ni_get_or_create(&p->n0->ln, &c));
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(merge_two(p->n0, "10.31.0.2@tcp", "10.31.1.2@tcp",
				   "10.31.2.2@tcp"), 0);
	assert_int_equal(peer_state(p->n0, "10.31.0.2@tcp"), 0xffffffffU);
	assert_int_equal(peer_state(p->n0, "10.31.1.2@tcp") &
			 LNET_PEER_S_CONFIGURED, 0);
	/* an admin's peer rebuilt under a new primary stays CONFIGURED */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	c = memlnd_nid("10.32.0.2@tcp");
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &c, NULL, 0), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(merge_two(p->n0, "10.32.0.2@tcp", "10.32.1.2@tcp",
				   "10.32.2.2@tcp"), 0);
	peer_nids(p->n0, "10.32.2.2@tcp", buf, sizeof(buf));
	assert_string_equal(buf, "10.32.1.2@tcp: 10.32.1.2@tcp 10.32.2.2@tcp");
	assert_int_equal(peer_state(p->n0, "10.32.1.2@tcp") &
			 (LNET_PEER_S_CONFIGURED | LNET_PEER_S_DISCOVERED),
			 LNET_PEER_S_CONFIGURED | LNET_PEER_S_DISCOVERED);
}

static void test_push_updates_other_side(void **state)
{
	struct pair *p = *state;
	const u32 disc = LNET_PEER_S_DISCOVERED | LNET_PEER_S_MULTI_RAIL;
	struct peer_want grown = { p->n0, "10.21.0.2@tcp",
		"10.21.0.2@tcp: 10.21.0.2@tcp 10.22.0.2@tcp 10.23.0.2@tcp", disc };
	struct peer_want shrunk = { p->n0, "10.21.0.2@tcp",
		"10.21.0.2@tcp: 10.21.0.2@tcp 10.23.0.2@tcp", disc };
	u32 tcp;

	assert_int_equal(discover(p->n0, "10.21.0.2@tcp", p->res), 0);
	/* node1 gets a third NI and pushes by discovering node0 */
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 2), 0);
	assert_int_equal(discover(p->n1, "10.21.0.1@tcp", p->res), 0);
	assert_true(memlnd_wait(peer_is, &grown, 2000));
	/* then loses one: the next push removes it on node0 */
	assert_int_equal(lnet_net_parse("tcp", &tcp, NULL, 0), 0);
	os_mutex_lock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(lnet_net_del(&p->n1->ln, tcp, "m1e1"), 0);
	os_mutex_unlock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(discover(p->n1, "10.21.0.1@tcp", p->res), 0);
	assert_true(memlnd_wait(peer_is, &shrunk, 2000));
}

static void test_ping_timeout(void **state)
{
	struct pair *p = *state;
	u64 t0, ms;

	memlnd_rule_set("10.21.0.2@tcp", true, LNET_MSG_STATUS_OK, -1);
	t0 = os_now_ns();
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 200, p->res),
			 -ETIMEDOUT);
	ms = (os_now_ns() - t0) / 1000000;
	assert_true(ms >= 200 && ms < 1000);
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp"), 1);
	/* nobody has this NID at all */
	assert_int_equal(ping(p->n0, "10.21.0.9@tcp", NULL, 100, p->res),
			 -ETIMEDOUT);
	/* the node still answers on its other NID */
	assert_int_equal(ping(p->n0, "10.22.0.2@tcp", NULL, 1000, p->res), 0);
}

/* Put @bytes up on node1 as a ping target hiding the real one. */
static struct lnet_handle_md fake_target(struct memlnd_node *n, void *bytes,
					 u32 len)
{
	static const struct lnet_nid any;
	struct lnet_md md = {
		.start = bytes, .length = len, .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_GET | LNET_MD_TRUNCATE,
	};
	struct lnet_handle_md h;

	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(&n->ln, LNET_RESERVED_PORTAL, &any,
					   LNET_PID_ANY, LNET_PROTO_PING_MATCHBITS,
					   0, false, &md, &h), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return h;
}

static void drop_target(struct memlnd_node *n, struct lnet_handle_md h)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_md_unlink(&n->ln, h), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static void test_bad_ping_reply(void **state)
{
	struct pair *p = *state;
	static u8 garbage[32] = "this is not a ping info at all";
	static u8 empty[16];
	struct lnet_handle_md h;

	h = fake_target(p->n1, garbage, sizeof(garbage));
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 1000, p->res), -EPROTO);
	drop_target(p->n1, h);
	/* right magic, no NI */
	lnet_put_le32(empty, LNET_PROTO_PING_MAGIC);
	lnet_put_le32(empty + 4, LNET_PING_FEAT_BASE);
	lnet_put_le32(empty + 8, LNET_PID_LUSTRE);
	h = fake_target(p->n1, empty, sizeof(empty));
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 1000, p->res), -EPROTO);
	/* a count of NIs the payload does not hold */
	lnet_put_le32(empty + 12, 3);
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 1000, p->res), -EPROTO);
	assert_int_equal(discover(p->n0, "10.21.0.2@tcp", p->res), -EPROTO);
	drop_target(p->n1, h);
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", NULL, 1000, p->res), 0);
	assert_int_equal(p->res->nnids, 2);
}

/* Our ping info as a peer reads it: 0@lo first, NI status from the link. */
static void test_ping_target_status(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_info *pi = NULL;
	struct lnet_nid d = memlnd_nid("10.21.0.2@tcp");
	int rc;

	memlnd_link_set(p->n1, 1, false);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	rc = lnet_ping_fetch(&p->n0->ln, &d, NULL, lnet_ping_deadline(1000), &pi);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	/* memlnd nodes run with discovery off: the bit says so */
	assert_int_equal(pi->pi_features, LNET_PING_FEAT_BASE |
			 LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL |
			 LNET_PING_FEAT_RTE_DISABLED);
	assert_int_equal(pi->pi_pid, LNET_PID_LUSTRE);
	assert_int_equal(pi->pi_nnis, 3);
	assert_nid(&pi->pi_ni[0].ns_nid, "0@lo");
	assert_int_equal(pi->pi_ni[0].ns_status, LNET_NI_STATUS_UP_WIRE);
	assert_nid(&pi->pi_ni[1].ns_nid, "10.21.0.2@tcp");
	assert_int_equal(pi->pi_ni[1].ns_status, LNET_NI_STATUS_UP_WIRE);
	assert_nid(&pi->pi_ni[2].ns_nid, "10.22.0.2@tcp");
	assert_int_equal(pi->pi_ni[2].ns_status, LNET_NI_STATUS_DOWN_WIRE);
	os_free(pi);
	/* discovery records the peer's view of its NIs */
	assert_int_equal(discover(p->n0, "10.21.0.2@tcp", p->res), 0);
	assert_int_equal(lpni_state(p->n0, "10.22.0.2@tcp"), LNET_NI_STATUS_DOWN);
	assert_int_equal(lpni_state(p->n0, "10.21.0.2@tcp"), LNET_NI_STATUS_UP);
	memlnd_link_set(p->n1, 1, true);
	assert_int_equal(discover(p->n0, "10.21.0.2@tcp", p->res), 0);
	assert_int_equal(lpni_state(p->n0, "10.22.0.2@tcp"), LNET_NI_STATUS_UP);
}

/* No local net reaches it, or the source is not ours: nothing is sent. */
static void test_ping_unreachable(void **state)
{
	struct pair *p = *state;
	struct lnet_dp *dp = &p->n0->ln.ln_dp;
	u64 sent;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	sent = dp->dp_count[LNET_STATS_SENT];
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp9", NULL, 1000, p->res),
			 -EHOSTUNREACH);
	assert_int_equal(discover(p->n0, "10.21.0.2@tcp9", p->res),
			 -EHOSTUNREACH);
	assert_int_equal(ping(p->n0, "10.21.0.2@tcp", "10.21.0.7@tcp", 1000,
			      p->res), -EINVAL);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(dp->dp_count[LNET_STATS_SENT], sent);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	/* no peer is made for a NID no net of ours reaches */
	assert_int_equal(peer_state(p->n0, "10.21.0.2@tcp9"), 0xffffffffU);
}

static void test_ping_not_configured(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct lnet_ping_result *r = calloc(1, sizeof(*r));
	struct lnet_nid d = memlnd_nid("10.21.0.2@tcp");

	(void)state;
	lnet_init(ln);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_ping(ln, &d, NULL, 100, r), -ENETDOWN);
	assert_int_equal(lnet_discover(ln, &d, 100, r), -ENETDOWN);
	os_mutex_unlock(&ln->ln_api_mutex);
	lnet_fini(ln);
	assert_int_equal(ln->ln_nobjects, 0);
	free(r);
	free(ln);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ping_lo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping_peer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping_source, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover, setup, teardown),
		cmocka_unit_test_setup_teardown(test_self_peer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover_merges_peers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discovered_not_configured,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_push_updates_other_side, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ping_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_ping_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping_target_status, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ping_unreachable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_unqueues, setup, teardown),
		cmocka_unit_test(test_ping_not_configured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
