// SPDX-License-Identifier: GPL-2.0-only
/*
 * Health, resends, timeouts, recovery pings and link state, between two
 * LNet instances joined by memlnd. node0: 10.21.0.1@tcp (m0e0) and
 * 10.22.0.1@tcp (m0e1); node1: 10.21.0.2@tcp and 10.22.0.2@tcp, known to
 * node0 as one peer. node1 has a sink for PUTs on portal 5.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd_op.h"
#include "../../kernel/core/ping_priv.h"

#define SINK_PORTAL	5
#define SINK_BITS	0x77ULL

struct pair {
	struct memlnd_node *n0, *n1;
	struct lnet_handle_md sink;
	u8 sink_buf[4096];
};

static int setup(void **state)
{
	static const struct lnet_nid any;
	struct pair *p = calloc(1, sizeof(*p));
	struct lnet_nid a = memlnd_nid("10.21.0.2@tcp");
	struct lnet_nid b = memlnd_nid("10.22.0.2@tcp");
	struct lnet_md md = {
		.length = sizeof(p->sink_buf), .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE |
			   LNET_MD_TRUNCATE,
	};

	p->n0 = memlnd_node_new(0);
	p->n1 = memlnd_node_new(1);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 1), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 1), 0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_peer_ni_add(&p->n0->ln, &a, &b, 0), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	md.start = p->sink_buf;
	os_mutex_lock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(&p->n1->ln, SINK_PORTAL, &any,
					   LNET_PID_ANY, SINK_BITS, 0, true,
					   &md, &p->sink), 0);
	os_mutex_unlock(&p->n1->ln.ln_api_mutex);
	*state = p;
	return 0;
}

static bool both_idle(void *arg)
{
	struct pair *p = arg;

	return memlnd_node_idle(p->n0) && memlnd_node_idle(p->n1);
}

/* Every message finalized exactly once: none left, every object freed. */
static int teardown(void **state)
{
	struct pair *p = *state;

	memlnd_rules_clear();
	assert_int_equal(memlnd_node_free(p->n0), 0);
	assert_int_equal(memlnd_node_free(p->n1), 0);
	free(p);
	return 0;
}

static void set_global(struct memlnd_node *n, u32 id, u32 v)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_global_set(&n->ln, id, v), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

/* ---- a PUT and its events ------------------------------------------------------- */

static void put_start(struct memlnd_op *op, struct memlnd_node *n, const char *dst)
{
	int rc;

	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = memlnd_op_put_locked(op, n, dst, SINK_PORTAL, SINK_BITS);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
}

/* Wait for the final event, and for the MD to go: its status. */
static int put_wait(struct memlnd_op *op, long ms)
{
	assert_true(memlnd_op_wait(op, ms));
	assert_int_equal(op->nfinal, 1);
	return op->status;
}

static int put(struct memlnd_node *n, const char *dst)
{
	struct memlnd_op *op = calloc(1, sizeof(*op));
	int rc;

	put_start(op, n, dst);
	rc = put_wait(op, 3000);
	if (!rc) {
		assert_int_equal(op->nsend, 1);
		assert_int_equal(op->nack, 1);
		assert_int_equal(op->nerr, 0);
	}
	free(op);
	return rc;
}

/* ---- looking at objects ---------------------------------------------------------- */

static struct lnet_ni *ni_of(struct memlnd_node *n, const char *nid)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_ni *ni = lnet_ni_find(&n->ln, &id);

	assert_non_null(ni);
	return ni;
}

static struct lnet_peer_ni *lpni_of(struct memlnd_node *n, const char *nid)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(&n->ln, &id);

	assert_non_null(lpni);
	return lpni;
}

struct health_want {
	struct memlnd_node *n;
	const char *nid;
	bool local;
	u32 health;
};

static u32 health_of(struct health_want *w)
{
	u32 h;

	os_mutex_lock(&w->n->ln.ln_api_mutex);
	h = w->local ? ni_of(w->n, w->nid)->ni_health.lh_value :
		lpni_of(w->n, w->nid)->lpni_health.lh_value;
	os_mutex_unlock(&w->n->ln.ln_api_mutex);
	return h;
}

static bool health_is(void *arg)
{
	struct health_want *w = arg;

	return health_of(w) == w->health;
}

/* The messages an NI sent (or received), read under the lock. */
static u64 ni_count(struct memlnd_node *n, const char *nid, bool recv)
{
	const struct lnet_ni *ni;
	u64 v;

	os_mutex_lock(&n->ln.ln_api_mutex);
	ni = ni_of(n, nid);
	v = lnet_counters_total(&ni->ni_counters,
				recv ? LNET_STATS_RECV : LNET_STATS_SENT);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return v;
}

static u64 sends(struct memlnd_node *n, const char *nid)
{
	return ni_count(n, nid, false);
}

static u64 recvs(struct memlnd_node *n, const char *nid)
{
	return ni_count(n, nid, true);
}

/* The NIDs on @n's NI (@local) or peer NI recovery queue, in its order. */
static void recoveryq(struct memlnd_node *n, bool local, char *out, size_t len)
{
	struct lnet *ln = &n->ln;
	struct list_head *q = &ln->ln_recoveryq[local ? LNET_KIND_NI :
						       LNET_KIND_PEER_NI];
	const struct lnet_nid *nid;
	struct lnet_health *h;
	struct list_head *e;
	size_t off = 0;

	out[0] = '\0';
	os_mutex_lock(&ln->ln_api_mutex);
	for (e = q->next; e && e != q && off < len; e = e->next) {
		h = list_entry(e, struct lnet_health, lh_recovery_list);
		assert_int_equal(h->lh_kind, local ? LNET_KIND_NI : LNET_KIND_PEER_NI);
		if (local)
			nid = &container_of(h, struct lnet_ni, ni_health)->ni_nid;
		else
			nid = &container_of(h, struct lnet_peer_ni,
					    lpni_health)->lpni_nid;
		off += snprintf(out + off, len - off, "%s", off ? " " : "");
		off += lnet_nid_print(nid, out + off, len - off);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}

/* Exactly these NIs and peer NIs wait for recovery (space separated). */
static void assert_queues(struct memlnd_node *n, const char *nis,
			  const char *lpnis)
{
	char buf[256];

	recoveryq(n, true, buf, sizeof(buf));
	assert_string_equal(buf, nis);
	recoveryq(n, false, buf, sizeof(buf));
	assert_string_equal(buf, lpnis);
}

struct queue_want {
	struct memlnd_node *n;
	const char *lpnis;
};

static bool lpni_queue_is(void *arg)
{
	struct queue_want *w = arg;
	char buf[256];

	recoveryq(w->n, false, buf, sizeof(buf));
	return !strcmp(buf, w->lpnis);
}

/* Lower a peer NI as any caller must: health, then a recovery schedule. */
static void lpni_lower(struct memlnd_node *n, const char *nid, u32 health)
{
	struct lnet_peer_ni *lpni;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lpni = lpni_of(n, nid);
	lpni->lpni_health.lh_value = health;
	lnet_recovery_schedule(&n->ln, &lpni->lpni_health);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static void set_prio(struct memlnd_node *n, const char *nid, bool local)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	if (local)
		ni_of(n, nid)->ni_sel_priority = 0;
	else
		lpni_of(n, nid)->lpni_sel_priority = 0;
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

/*
 * The first try of a PUT to @dst goes by @nid (our NI when @local, else
 * the peer NI), preferred by UDSP priority, and fails once with @hs; the
 * resend gets through. Returns with both nodes idle.
 */
static void fail_once(struct pair *p, const char *nid, bool local,
		      enum lnet_msg_hstatus hs, const char *dst)
{
	set_prio(p->n0, nid, local);
	memlnd_rule_set(nid, false, hs, 1);
	assert_int_equal(put(p->n0, dst), 0);
	assert_true(memlnd_wait(both_idle, p, 1000));
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_lnd_timeout(void **state)
{
	struct pair *p = *state;

	u32 shown;

	/* (150 - 1) / (2 + 1) */
	assert_int_equal(lnet_lnd_timeout_ns(&p->n0->ln), 49000000000ULL);
	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 10);
	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 4);
	assert_int_equal(lnet_lnd_timeout_ns(&p->n0->ln), 1000000000ULL);
	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 0);
	assert_int_equal(lnet_lnd_timeout_ns(&p->n0->ln), 9000000000ULL);
	/* never 0 */
	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1);
	assert_int_equal(lnet_lnd_timeout_ns(&p->n0->ln), 1000000000ULL);
	/* what `global show` reports */
	assert_int_equal(lnet_global_get(&p->n0->ln, LNET_GLOBAL_LND_TIMEOUT,
					 &shown), 0);
	assert_int_equal(shown, 1);
}

/* A local failure lowers that NI by exactly the sensitivity; the resend
 * leaves by the other NI. */
static void test_local_failure_resends(void **state)
{
	struct pair *p = *state;
	struct lnet_dp *dp = &p->n0->ln.ln_dp;
	struct lnet_ni *e0, *e1;

	set_global(p->n0, LNET_GLOBAL_HEALTH_SENSITIVITY, 150);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	e1 = ni_of(p->n0, "10.22.0.1@tcp");
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	/* the first try goes by e0 */
	fail_once(p, "10.21.0.1@tcp", true, LNET_MSG_STATUS_LOCAL_ERROR,
		  "10.21.0.2@tcp");
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(e0->ni_health.lh_value, LNET_MAX_HEALTH - 150);
	assert_int_equal(e1->ni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(e0->ni_health.lh_fail[LNET_MSG_STATUS_LOCAL_ERROR], 1);
	assert_int_equal(dp->dp_hstatus_count[LNET_MSG_STATUS_LOCAL_ERROR], 1);
	assert_int_equal(dp->dp_resend_count, 1);
	assert_int_equal(dp->dp_failed_resends, 0);
	assert_int_equal(dp->dp_successful_resends, 1);
	assert_int_equal(lnet_counters_total(&e0->ni_counters, LNET_STATS_SENT), 0);
	assert_int_equal(lnet_counters_total(&e1->ni_counters, LNET_STATS_SENT), 1);
	/* a recovery ping is due about a recovery_interval from now */
	assert_true(e0->ni_health.lh_next_ping_ns > os_now_ns());
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(memlnd_rule_hits("10.21.0.1@tcp"), 1);
}

/* A remote failure lowers the peer NI; the resend goes to the other one. */
static void test_remote_failure_resends(void **state)
{
	struct pair *p = *state;
	struct lnet_peer_ni *a, *b;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	a = lpni_of(p->n0, "10.21.0.2@tcp");
	b = lpni_of(p->n0, "10.22.0.2@tcp");
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	fail_once(p, "10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_ERROR,
		  "10.21.0.2@tcp");
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(a->lpni_health.lh_value, LNET_MAX_HEALTH - 100);
	assert_int_equal(b->lpni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(a->lpni_health.lh_fail[LNET_MSG_STATUS_REMOTE_ERROR], 1);
	assert_int_equal(lnet_counters_total(&b->lpni_counters, LNET_STATS_SENT), 1);
	assert_int_equal(p->n0->ln.ln_dp.dp_resend_count, 1);
	assert_int_equal(p->n0->ln.ln_dp.dp_successful_resends, 1);
	assert_int_equal(p->n0->ln.ln_dp.dp_failed_resends, 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/*
 * The peer NI is unreachable but the LND blames our NI (as a failed
 * connect does): the resend still takes the other peer NI, even though
 * the failed one is preferred.
 */
static void test_resend_other_path(void **state)
{
	struct pair *p = *state;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	lpni_of(p->n0, "10.21.0.2@tcp")->lpni_sel_priority = 0;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_rule_set_dir("10.21.0.2@tcp", MEMLND_TO, false,
			    LNET_MSG_STATUS_LOCAL_ERROR, -1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp"), 1);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(p->n0->ln.ln_dp.dp_resend_count, 1);
	assert_int_equal(lnet_counters_total(&lpni_of(p->n0, "10.22.0.2@tcp")->lpni_counters,
					     LNET_STATS_SENT), 1);
	/* the blame went where the status points: one NI, not the peer NI */
	assert_int_equal(lpni_of(p->n0, "10.21.0.2@tcp")->lpni_health.lh_value,
			 LNET_MAX_HEALTH);
	assert_int_equal(ni_of(p->n0, "10.21.0.1@tcp")->ni_health.lh_value +
			 ni_of(p->n0, "10.22.0.1@tcp")->ni_health.lh_value,
			 2 * LNET_MAX_HEALTH - 100);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* Every path fails: retry_count resends, then one failure event. */
static void test_retries_bounded(void **state)
{
	struct pair *p = *state;
	struct lnet_dp *dp = &p->n0->ln.ln_dp;
	u32 ha, hb;

	memlnd_rule_set("10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_DROPPED, -1);
	memlnd_rule_set("10.22.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_DROPPED, -1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), -EIO);
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp") +
			 memlnd_rule_hits("10.22.0.2@tcp"), 3);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(dp->dp_resend_count, 2);
	assert_int_equal(dp->dp_failed_resends, 1);
	assert_int_equal(dp->dp_successful_resends, 0);
	assert_int_equal(dp->dp_hstatus_count[LNET_MSG_STATUS_REMOTE_DROPPED], 3);
	ha = lpni_of(p->n0, "10.21.0.2@tcp")->lpni_health.lh_value;
	hb = lpni_of(p->n0, "10.22.0.2@tcp")->lpni_health.lh_value;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(ha + hb, 2 * LNET_MAX_HEALTH - 3 * 100);

	/* no retries: one try */
	memlnd_rules_clear();
	memlnd_rule_set("10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_DROPPED, -1);
	memlnd_rule_set("10.22.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_DROPPED, -1);
	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 0);
	assert_int_equal(put(p->n0, "10.22.0.2@tcp"), -EIO);
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp") +
			 memlnd_rule_hits("10.22.0.2@tcp"), 1);
	assert_int_equal(dp->dp_resend_count, 2);
}

/* A failure reported after the transaction deadline is not resent. */
static void test_no_resend_after_deadline(void **state)
{
	struct pair *p = *state;
	struct lnet_dp *dp = &p->n0->ln.ln_dp;

	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 1);
	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 2);
	memlnd_rule_set_delayed("10.21.0.2@tcp", LNET_MSG_STATUS_REMOTE_ERROR, 2100);
	memlnd_rule_set_delayed("10.22.0.2@tcp", LNET_MSG_STATUS_REMOTE_ERROR, 2100);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), -EIO);
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp") +
			 memlnd_rule_hits("10.22.0.2@tcp"), 1);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(dp->dp_resend_count, 0);
	assert_int_equal(dp->dp_successful_resends, 0);
	assert_int_equal(dp->dp_hstatus_count[LNET_MSG_STATUS_REMOTE_ERROR], 1);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* The ACK never comes: the monitor fails the PUT at its deadline. */
static void test_transaction_timeout(void **state)
{
	struct pair *p = *state;
	struct lnet_dp *dp = &p->n0->ln.ln_dp;
	struct memlnd_op *op = calloc(1, sizeof(*op));
	struct lnet_peer_ni *a, *b;
	u64 t0, ms;

	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 0);
	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1);
	memlnd_rule_set("10.21.0.2@tcp", true, LNET_MSG_STATUS_OK, -1);
	memlnd_rule_set("10.22.0.2@tcp", true, LNET_MSG_STATUS_OK, -1);
	t0 = os_now_ns();
	put_start(op, p->n0, "10.21.0.2@tcp");
	assert_int_equal(put_wait(op, 3000), -ETIMEDOUT);
	ms = (os_now_ns() - t0) / 1000000;
	assert_true(ms >= 1000 && ms < 1800);
	assert_int_equal(op->nsend, 1);
	assert_int_equal(op->nack, 1);
	free(op);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(dp->dp_response_timeout_count, 1);
	assert_int_equal(dp->dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT], 1);
	a = lpni_of(p->n0, "10.21.0.2@tcp");
	b = lpni_of(p->n0, "10.22.0.2@tcp");
	assert_int_equal(a->lpni_health.lh_value + b->lpni_health.lh_value,
			 2 * LNET_MAX_HEALTH - 100);
	assert_int_equal(a->lpni_health.lh_fail[LNET_MSG_STATUS_NETWORK_TIMEOUT] +
			 b->lpni_health.lh_fail[LNET_MSG_STATUS_NETWORK_TIMEOUT], 1);
	assert_int_equal(dp->dp_resend_count, 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* A recovery ping a recovery_interval later raises the NI back to max. */
static void test_recovery_local(void **state)
{
	struct pair *p = *state;
	struct health_want w = { p->n0, "10.21.0.1@tcp", true, LNET_MAX_HEALTH };
	u64 got = recvs(p->n1, "10.21.0.2@tcp") + recvs(p->n1, "10.22.0.2@tcp");
	struct lnet_ni *e0;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	ni_of(p->n0, "10.21.0.1@tcp")->ni_sel_priority = 0;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_rule_set("10.21.0.1@tcp", false, LNET_MSG_STATUS_LOCAL_DROPPED, 1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	assert_int_equal(health_of(&w), LNET_MAX_HEALTH - 100);
	memlnd_sleep_ms(500);
	assert_int_equal(health_of(&w), LNET_MAX_HEALTH - 100);
	assert_true(memlnd_wait(health_is, &w, 2500));
	assert_true(memlnd_wait(both_idle, p, 1000));
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	assert_int_equal(e0->ni_health.lh_ping_count, 0);
	assert_int_equal(e0->ni_health.lh_next_ping_ns, 0);
	assert_false(e0->ni_health.lh_recovery_pending);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	/* node1 got the PUT and the recovery GET */
	assert_int_equal(recvs(p->n1, "10.21.0.2@tcp") +
			 recvs(p->n1, "10.22.0.2@tcp") - got, 2);
}

/* A peer NI is pinged itself, not whichever NI of the peer is healthiest. */
static void test_recovery_peer(void **state)
{
	struct pair *p = *state;
	struct health_want w = { p->n0, "10.21.0.2@tcp", false, LNET_MAX_HEALTH };
	u64 a0, b0;

	fail_once(p, "10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_ERROR,
		  "10.22.0.2@tcp");
	assert_int_equal(health_of(&w), LNET_MAX_HEALTH - 100);
	a0 = recvs(p->n1, "10.21.0.2@tcp");
	b0 = recvs(p->n1, "10.22.0.2@tcp");
	assert_true(memlnd_wait(health_is, &w, 3000));
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_int_equal(recvs(p->n1, "10.21.0.2@tcp") - a0, 1);
	assert_int_equal(recvs(p->n1, "10.22.0.2@tcp") - b0, 0);
}

/* A recovery ping that fails is not resent to another peer NI. */
static void test_recovery_not_resent(void **state)
{
	struct pair *p = *state;
	struct lnet_peer_ni *a;
	u64 b0;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	lpni_of(p->n0, "10.21.0.2@tcp")->lpni_sel_priority = 0;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_rule_set_dir("10.21.0.2@tcp", MEMLND_TO, false,
			    LNET_MSG_STATUS_REMOTE_ERROR, -1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	assert_true(memlnd_wait(both_idle, p, 1000));
	b0 = recvs(p->n1, "10.22.0.2@tcp");
	/* the first recovery ping is due a second after the failure */
	memlnd_sleep_ms(1600);
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_int_equal(memlnd_rule_hits("10.21.0.2@tcp"), 2);
	assert_int_equal(recvs(p->n1, "10.22.0.2@tcp"), b0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	a = lpni_of(p->n0, "10.21.0.2@tcp");
	assert_int_equal(p->n0->ln.ln_dp.dp_resend_count, 1);
	assert_int_equal(a->lpni_health.lh_ping_count, 1);
	assert_int_equal(a->lpni_health.lh_value, LNET_MAX_HEALTH - 200);
	assert_false(a->lpni_health.lh_recovery_pending);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* Failing recovery pings wait twice as long each time. */
static void test_recovery_backoff(void **state)
{
	struct pair *p = *state;
	struct lnet_ni *e0;
	u32 count;

	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	ni_of(p->n0, "10.21.0.1@tcp")->ni_sel_priority = 0;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_rule_set("10.21.0.1@tcp", false, LNET_MSG_STATUS_LOCAL_ERROR, -1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), -EIO);
	/* t=0: failed; ping 1 at ~1 s fails; ping 2 at ~1 + 2 s */
	memlnd_sleep_ms(1600);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	count = e0->ni_health.lh_ping_count;
	assert_true(e0->ni_health.lh_value < LNET_MAX_HEALTH - 100);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(count, 1);
	memlnd_sleep_ms(1000);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	count = e0->ni_health.lh_ping_count;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(count, 1);
	memlnd_sleep_ms(1000);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	count = e0->ni_health.lh_ping_count;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(count, 2);
}

/* A down NI is not selected; back up it is, with the health it had. */
static void test_link_down_up(void **state)
{
	struct pair *p = *state;
	u64 s0 = sends(p->n0, "10.21.0.1@tcp"), s1 = sends(p->n0, "10.22.0.1@tcp");
	struct lnet_ni *e0;
	int i;

	memlnd_link_set(p->n0, 0, false);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_DOWN);
	assert_int_equal(e0->ni_health.lh_value, LNET_MAX_HEALTH);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	for (i = 0; i < 4; i++)
		assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	assert_int_equal(sends(p->n0, "10.21.0.1@tcp") - s0, 0);
	assert_int_equal(sends(p->n0, "10.22.0.1@tcp") - s1, 4);

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0->ni_health.lh_value = 700;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_link_set(p->n0, 0, true);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_UP);
	assert_int_equal(e0->ni_health.lh_value, 700);
	e0->ni_health.lh_value = LNET_MAX_HEALTH;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	s0 = sends(p->n0, "10.21.0.1@tcp");
	s1 = sends(p->n0, "10.22.0.1@tcp");
	for (i = 0; i < 4; i++)
		assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	/* selected again: round robin lets it catch up on the 4 it missed */
	assert_int_equal(sends(p->n0, "10.21.0.1@tcp") - s0, 4);
	assert_int_equal(sends(p->n0, "10.22.0.1@tcp") - s1, 0);
	/* an unknown interface changes nothing */
	lnet_link_event(&p->n0->ln, "nosuchif", false);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_UP);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* NI e0 of node 0 after a link event of device @ifindex named @name. */
static struct lnet_ni *link_dev(struct pair *p, int ifindex, const char *name, bool up,
				bool gone)
{
	lnet_link_event_dev(&p->n0->ln, ifindex, name, up, gone);
	return ni_of(p->n0, "10.21.0.1@tcp");
}

/*
 * An NI follows its device by index: another device of its name does not
 * touch it, its own device renamed does; once its device is gone, the
 * next device of its name is taken and its index learnt.
 */
static void test_link_by_ifindex(void **state)
{
	struct pair *p = *state;
	struct lnet_ni *e0;
	char name[LNET_IFNAME_LEN];

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	e0->ni_ifindex = 7;
	memcpy(name, e0->ni_ifname, sizeof(name));
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_UP);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	e0 = link_dev(p, 8, name, false, false);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_UP);
	e0 = link_dev(p, 7, "renamed0", false, false);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_DOWN);
	assert_int_equal(e0->ni_ifindex, 7);
	e0 = link_dev(p, 7, "renamed0", false, true);
	assert_int_equal(e0->ni_ifindex, 0);
	e0 = link_dev(p, 9, "other0", true, false);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_DOWN);
	e0 = link_dev(p, 9, name, true, false);
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_UP);
	assert_int_equal(e0->ni_ifindex, 9);
	/* lnetd's events name no index: by name, the index kept */
	lnet_link_event(&p->n0->ln, name, false);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	assert_int_equal(e0->ni_status, LNET_NI_STATUS_DOWN);
	assert_int_equal(e0->ni_ifindex, 9);
}

/* No recovery ping through a down link; the link coming up sends one. */
static void test_link_up_recovers(void **state)
{
	struct pair *p = *state;
	struct health_want w = { p->n0, "10.21.0.1@tcp", true, LNET_MAX_HEALTH };
	struct lnet_ni *e0;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	e0 = ni_of(p->n0, "10.21.0.1@tcp");
	e0->ni_sel_priority = 0;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_rule_set_dir("10.21.0.1@tcp", MEMLND_FROM, false,
			    LNET_MSG_STATUS_LOCAL_ERROR, 1);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp"), 0);
	assert_int_equal(health_of(&w), LNET_MAX_HEALTH - 100);
	memlnd_link_set(p->n0, 0, false);
	/* past the first recovery time: nothing was sent while down */
	memlnd_sleep_ms(1500);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(e0->ni_health.lh_ping_count, 0);
	assert_int_equal(e0->ni_health.lh_value, LNET_MAX_HEALTH - 100);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	memlnd_link_set(p->n0, 0, true);
	assert_int_equal(health_of(&w), LNET_MAX_HEALTH - 100);
	assert_true(memlnd_wait(health_is, &w, 500));
}

/* Many sends, some failing: each op gets exactly one final event. */
static void test_finalized_once(void **state)
{
	struct pair *p = *state;
	struct memlnd_op *ops = calloc(20, sizeof(*ops));
	int i, ok = 0, failed = 0;

	/* only node0's sends: node1's ACKs all come back */
	memlnd_rule_set_dir("10.21.0.1@tcp", MEMLND_FROM, false,
			    LNET_MSG_STATUS_LOCAL_ERROR, 5);
	memlnd_rule_set_dir("10.22.0.2@tcp", MEMLND_TO, true,
			    LNET_MSG_STATUS_OK, 3);
	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 3);
	for (i = 0; i < 20; i++)
		put_start(&ops[i], p->n0, i % 2 ? "10.21.0.2@tcp" : "10.22.0.2@tcp");
	for (i = 0; i < 20; i++) {
		int rc = put_wait(&ops[i], 5000);

		if (rc)
			failed++;
		else
			ok++;
	}
	assert_int_equal(ok + failed, 20);
	/* the 3 dropped ones time out; resends rescue the local failures */
	assert_int_equal(failed, 3);
	assert_true(memlnd_wait(both_idle, p, 1000));
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_true(list_empty(&p->n0->ln.ln_dp.dp_active));
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	free(ops);
}

/*
 * The recovery queues hold exactly the NIs and peer NIs whose health is
 * below the max: joined on a failure, left on the recovery ping's reply.
 */
static void test_recoveryq_unhealthy(void **state)
{
	struct pair *p = *state;
	struct health_want we0 = { p->n0, "10.21.0.1@tcp", true, LNET_MAX_HEALTH };
	struct health_want wa = { p->n0, "10.21.0.2@tcp", false, LNET_MAX_HEALTH };

	assert_queues(p->n0, "", "");
	fail_once(p, "10.21.0.1@tcp", true, LNET_MSG_STATUS_LOCAL_ERROR,
		  "10.21.0.2@tcp");
	assert_queues(p->n0, "10.21.0.1@tcp", "");
	fail_once(p, "10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_ERROR,
		  "10.21.0.2@tcp");
	assert_queues(p->n0, "10.21.0.1@tcp", "10.21.0.2@tcp");
	assert_int_equal(health_of(&we0), LNET_MAX_HEALTH - 100);
	assert_int_equal(health_of(&wa), LNET_MAX_HEALTH - 100);
	/* both recovery pings answered: both back at the max, both queues empty */
	assert_true(memlnd_wait(health_is, &we0, 3000));
	assert_true(memlnd_wait(health_is, &wa, 3000));
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_queues(p->n0, "", "");
	assert_queues(p->n1, "", "");
}

/*
 * A queued peer NI gets its recovery ping (to it alone); one raised to
 * the max by someone else leaves the queue at the next tick, unpinged.
 */
static void test_recoveryq_ping_sent(void **state)
{
	struct pair *p = *state;
	struct health_want wb = { p->n0, "10.22.0.2@tcp", false, LNET_MAX_HEALTH };
	struct queue_want q = { p->n0, "10.22.0.2@tcp" };
	u64 a0 = recvs(p->n1, "10.21.0.2@tcp"), b0 = recvs(p->n1, "10.22.0.2@tcp");

	lpni_lower(p->n0, "10.21.0.2@tcp", 500);
	lpni_lower(p->n0, "10.22.0.2@tcp", 500);
	assert_queues(p->n0, "", "10.21.0.2@tcp 10.22.0.2@tcp");
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	lpni_of(p->n0, "10.21.0.2@tcp")->lpni_health.lh_value = LNET_MAX_HEALTH;
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	/* the first ping is due a recovery_interval (1 s) after the lowering */
	assert_true(memlnd_wait(lpni_queue_is, &q, 500));
	assert_int_equal(health_of(&wb), 500);
	assert_true(memlnd_wait(health_is, &wb, 2500));
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_queues(p->n0, "", "");
	assert_int_equal(recvs(p->n1, "10.22.0.2@tcp") - b0, 1);
	assert_int_equal(recvs(p->n1, "10.21.0.2@tcp") - a0, 0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lpni_of(p->n0, "10.22.0.2@tcp")->lpni_health.lh_ping_count, 0);
	assert_int_equal(lpni_of(p->n0, "10.21.0.2@tcp")->lpni_health.lh_ping_count, 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

static int del_peer_ni(struct memlnd_node *n, const char *prim, const char *nid)
{
	struct lnet_nid a = memlnd_nid(prim), b;
	int rc;

	if (nid)
		b = memlnd_nid(nid);
	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_peer_ni_del(&n->ln, &a, nid ? &b : NULL, 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return rc;
}

/*
 * Deleting an unhealthy peer NI, NI or whole peer takes it off its queue:
 * the monitor's walks after that (past the recovery time) must not touch
 * freed memory (the sanitized build checks) nor ping anything.
 */
static void test_recoveryq_deleted(void **state)
{
	struct pair *p = *state;
	struct lnet_nid e1 = memlnd_nid("10.22.0.1@tcp");
	u64 got;
	int rc;

	fail_once(p, "10.22.0.1@tcp", true, LNET_MSG_STATUS_LOCAL_ERROR,
		  "10.21.0.2@tcp");
	fail_once(p, "10.22.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_ERROR,
		  "10.22.0.2@tcp");
	assert_queues(p->n0, "10.22.0.1@tcp", "10.22.0.2@tcp");

	assert_int_equal(del_peer_ni(p->n0, "10.21.0.2@tcp", "10.22.0.2@tcp"), 0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	rc = lnet_net_del(&p->n0->ln, lnet_nid_net(&e1), "m0e1");
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	assert_queues(p->n0, "", "");

	/* the primary, unhealthy, goes with its whole peer */
	fail_once(p, "10.21.0.2@tcp", false, LNET_MSG_STATUS_REMOTE_ERROR,
		  "10.21.0.2@tcp");
	assert_queues(p->n0, "", "10.21.0.2@tcp");
	assert_int_equal(del_peer_ni(p->n0, "10.21.0.2@tcp", NULL), 0);
	assert_queues(p->n0, "", "");
	got = recvs(p->n1, "10.21.0.2@tcp") + recvs(p->n1, "10.22.0.2@tcp");
	memlnd_sleep_ms(1500);
	assert_true(memlnd_wait(both_idle, p, 1000));
	assert_queues(p->n0, "", "");
	assert_int_equal(recvs(p->n1, "10.21.0.2@tcp") +
			 recvs(p->n1, "10.22.0.2@tcp"), got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lnd_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local_failure_resends, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_remote_failure_resends, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_resend_other_path, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_retries_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_resend_after_deadline, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_transaction_timeout, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_recovery_local, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recovery_peer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recovery_not_resent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_recovery_backoff, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_link_down_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_by_ifindex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_up_recovers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_finalized_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recoveryq_unhealthy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_recoveryq_ping_sent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_recoveryq_deleted, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
