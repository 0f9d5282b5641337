// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state a local NI and a peer NI share (struct lnet_health, struct
 * lnet_counters) and the one set of functions for both kinds: counting,
 * the totals, the walk, the GET_NET / GET_PEER_NI fill, the reset, and
 * recovery scheduling on the kind's queue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/ping_priv.h"
#include "fake_if.h"

static const struct fake_if shared_ifs[] = {
	FAKE_IF4("eth0", 10, 9, 0, 1),
};

static int shared_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(shared_ifs, FAKE_IF_COUNT(shared_ifs), ifname, out);
}

/* One local NI (10.9.0.1@tcp, after 0@lo) and one peer NI (10.9.0.2@tcp). */
struct shared {
	struct lnet ln;
	struct lnet_ni *ni;
	struct lnet_peer_ni *lpni;
	struct lnet_nid peer;
};

static struct lnet_nid nid_of(const char *s)
{
	struct lnet_nid nid;
	char err[128];

	assert_int_equal(lnet_nid_parse(s, &nid, err, sizeof(err)), 0);
	return nid;
}

static int shared_setup(void **state)
{
	struct shared *s = calloc(1, sizeof(*s));
	struct lnet_nid local = nid_of("10.9.0.1@tcp");

	assert_non_null(s);
	fake_lnet_up(&s->ln, shared_lookup);
	assert_int_equal(lnet_ni_add(&s->ln, LNET_NET_ID(LNET_LND_TCP, 0), "eth0",
				     NULL), 0);
	s->peer = nid_of("10.9.0.2@tcp");
	assert_int_equal(lnet_peer_ni_add(&s->ln, &s->peer, NULL, 0), 0);
	s->ni = lnet_ni_find(&s->ln, &local);
	s->lpni = lnet_peer_ni_find(&s->ln, &s->peer);
	assert_non_null(s->ni);
	assert_non_null(s->lpni);
	*state = s;
	return 0;
}

static int shared_teardown(void **state)
{
	struct shared *s = *state;

	fake_lnet_down(&s->ln);
	free(s);
	return 0;
}

static bool counters_zero(const struct lnet_counters *c)
{
	static const struct lnet_counters zero;

	return !memcmp(c, &zero, sizeof(zero));
}

/* ---- counting ---------------------------------------------------------------- */

static void test_count_goes_to_both(void **state)
{
	struct shared *s = *state;
	struct lnet_dp *dp = &s->ln.ln_dp;
	struct lnet_counters *nc = &s->ni->ni_counters;
	struct lnet_counters *pc = &s->lpni->lpni_counters;

	lnet_count(&s->ln, LNET_STATS_SENT, s->ni, s->lpni, LNET_MSG_PUT, 100);
	lnet_count(&s->ln, LNET_STATS_SENT, s->ni, s->lpni, LNET_MSG_GET, 0);
	assert_int_equal(nc->lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT], 1);
	assert_int_equal(pc->lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT], 1);
	assert_int_equal(lnet_counters_total(nc, LNET_STATS_SENT), 2);
	assert_int_equal(lnet_counters_total(pc, LNET_STATS_SENT), 2);
	assert_int_equal(dp->dp_count[LNET_STATS_SENT], 2);
	assert_int_equal(dp->dp_length[LNET_STATS_SENT], 100);

	/* only the one given; a type off the wire counts as HELLO */
	lnet_count(&s->ln, LNET_STATS_DROP, NULL, s->lpni, 77, 8);
	lnet_count(&s->ln, LNET_STATS_RECV, s->ni, NULL, LNET_MSG_ACK, 0);
	assert_int_equal(pc->lc_msgs[LNET_STATS_DROP][LNET_MSG_HELLO], 1);
	assert_int_equal(lnet_counters_total(nc, LNET_STATS_DROP), 0);
	assert_int_equal(lnet_counters_total(nc, LNET_STATS_RECV), 1);
	assert_int_equal(lnet_counters_total(pc, LNET_STATS_RECV), 0);
	assert_int_equal(dp->dp_count[LNET_STATS_DROP], 1);
	assert_int_equal(dp->dp_length[LNET_STATS_DROP], 8);
	assert_int_equal(dp->dp_count[LNET_STATS_RECV], 1);

	/* nothing to count on: the data path still counts */
	lnet_count(&s->ln, LNET_STATS_DROP, NULL, NULL, LNET_MSG_PUT, 4);
	assert_int_equal(dp->dp_count[LNET_STATS_DROP], 2);
	assert_int_equal(dp->dp_length[LNET_STATS_DROP], 12);
	assert_int_equal(lnet_counters_total(pc, LNET_STATS_DROP), 1);
}

struct walk_seen {
	struct lnet_counters *c[4];
	u32 kind[4];
	u32 n;
};

static void walk_record(struct lnet_counters *c, u32 kind, void *arg)
{
	struct walk_seen *w = arg;

	assert_true(w->n < 4);
	w->c[w->n] = c;
	w->kind[w->n++] = kind;
}

static void test_walk_nis_then_peer_nis(void **state)
{
	struct shared *s = *state;
	struct walk_seen w = { .n = 0 };

	lnet_counters_walk(&s->ln, walk_record, &w);
	assert_int_equal(w.n, 3);
	assert_ptr_equal(w.c[0], &lnet_lo_ni(&s->ln)->ni_counters);
	assert_int_equal(w.kind[0], LNET_KIND_NI);
	assert_ptr_equal(w.c[1], &s->ni->ni_counters);
	assert_int_equal(w.kind[1], LNET_KIND_NI);
	assert_ptr_equal(w.c[2], &s->lpni->lpni_counters);
	assert_int_equal(w.kind[2], LNET_KIND_PEER_NI);
}

/* ---- the ioctl fill and the reset ------------------------------------------------ */

/* The same values in both blocks, as no real traffic would leave them. */
static void shared_fill_both(struct shared *s, u64 next_ping_ns)
{
	struct lnet_health *hs[] = { &s->ni->ni_health, &s->lpni->lpni_health };
	struct lnet_counters *cs[] = { &s->ni->ni_counters, &s->lpni->lpni_counters };
	u32 i, k, t;

	for (i = 0; i < 2; i++) {
		hs[i]->lh_value = 700;
		hs[i]->lh_ping_count = 3;
		hs[i]->lh_next_ping_ns = next_ping_ns;
		hs[i]->lh_fail[LNET_MSG_STATUS_OK] = 9;	/* never reported */
		hs[i]->lh_fail[LNET_MSG_STATUS_LOCAL_ERROR] = 2;
		hs[i]->lh_fail[LNET_MSG_STATUS_NETWORK_TIMEOUT] = 5;
		for (k = 0; k < LNET_STATS_KINDS; k++)
			for (t = 0; t <= LNET_MSG_HELLO; t++)
				cs[i]->lc_msgs[k][t] = 10 * k + t + 1;
		/* latency k: 3 samples of 100k+1, 100k+2, 100k+6 ns */
		for (k = 0; k < LNET_LAT_KINDS; k++)
			cs[i]->lc_lat[k] = (struct lnet_latency) {
				.ll_samples = 3, .ll_min_ns = 100 * k + 1,
				.ll_max_ns = 100 * k + 6, .ll_total_ns = 300 * k + 9,
			};
	}
}

/* The latencies of shared_fill_both(): the mean rounded down. */
static void assert_latencies(const struct lnet_ioc_latency lat[__LNET_IOC_LAT_MAX])
{
	u32 k;

	for (k = 0; k < __LNET_IOC_LAT_MAX; k++) {
		assert_int_equal(lat[k].lat_samples, 3);
		assert_int_equal(lat[k].lat_min_ns, 100 * k + 1);
		assert_int_equal(lat[k].lat_max_ns, 100 * k + 6);
		assert_int_equal(lat[k].lat_avg_ns, 100 * k + 3);
	}
}

static void ioc_hdr_init(struct lnet_ioc_hdr *h, u32 len)
{
	memset(h, 0, sizeof(*h));
	h->ioc_len = len;
	h->ioc_version = LNET_IOC_VERSION;
}

/* What GET_NET and GET_PEER_NI both report after shared_fill_both(). */
static void assert_shared(u32 health, u32 ping_count, u32 next_ping_s,
			  const u64 count[LNET_STATS_KINDS])
{
	/* the totals are the sums of 10 * kind + type + 1 over the types */
	static const u64 want[LNET_STATS_KINDS] = { 15, 65, 115 };

	assert_int_equal(health, 700);
	assert_int_equal(ping_count, 3);
	assert_int_equal(next_ping_s, 6);	/* 5.5 s, rounded up */
	assert_memory_equal(count, want, sizeof(want));
}

static void test_fill_same_for_both(void **state)
{
	struct shared *s = *state;
	struct lnet_ioc_peer pr;
	struct lnet_ioc_ni n;

	/* 5.5 s ahead: reported as 6 s (rounded up) */
	shared_fill_both(s, os_now_ns() + 5500000000ULL);
	memset(&n, 0, sizeof(n));
	ioc_hdr_init(&n.ni_hdr, sizeof(n));
	n.ni_index = 1;			/* 0@lo first */
	assert_int_equal(lnet_ioctl(&s->ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	memset(&pr, 0, sizeof(pr));
	ioc_hdr_init(&pr.pr_hdr, sizeof(pr));
	pr.pr_prim_nid = s->peer;
	assert_int_equal(lnet_ioctl(&s->ln, IOC_LIBCFS_GET_PEER_NI, &pr, sizeof(pr), false), 0);

	assert_shared(n.ni_health, n.ni_ping_count, n.ni_next_ping_s,
		      (u64 []){ n.ni_send_count, n.ni_recv_count, n.ni_drop_count });
	assert_shared(pr.pr_health, pr.pr_ping_count, pr.pr_next_ping_s,
		      (u64 []){ pr.pr_send_count, pr.pr_recv_count, pr.pr_drop_count });
	assert_int_equal(n.ni_stats[LNET_IOC_STATS_DROP][LNET_IOC_MSG_HELLO], 25);
	assert_memory_equal(n.ni_stats, s->ni->ni_counters.lc_msgs, sizeof(n.ni_stats));
	assert_memory_equal(pr.pr_stats, n.ni_stats, sizeof(pr.pr_stats));
	assert_int_equal(n.ni_hstatus[LNET_IOC_HS_OK], 0);
	assert_int_equal(n.ni_hstatus[LNET_IOC_HS_LOCAL_ERROR], 2);
	assert_int_equal(n.ni_hstatus[LNET_IOC_HS_NETWORK_TIMEOUT], 5);
	assert_memory_equal(pr.pr_hstatus, n.ni_hstatus, sizeof(pr.pr_hstatus));
	assert_latencies(n.ni_lat);
	assert_latencies(pr.pr_lat);

	/* a ping time already past (or none) reads 0 */
	shared_fill_both(s, os_now_ns() - 1);
	n.ni_index = 0;			/* the reply set ni_net: the first of tcp */
	n.ni_flags = 0;			/* and output flags, which a request may not carry */
	assert_int_equal(lnet_ioctl(&s->ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_true(lnet_nid_equal(&n.ni_nid, &s->ni->ni_nid));
	assert_int_equal(n.ni_next_ping_s, 0);
}

static void test_reset_clears_both_kinds(void **state)
{
	struct shared *s = *state;
	struct lnet_ioc_stats st;

	shared_fill_both(s, 0);
	lnet_count(&s->ln, LNET_STATS_SENT, s->ni, s->lpni, LNET_MSG_PUT, 7);
	memset(&st, 0, sizeof(st));
	ioc_hdr_init(&st.st_hdr, sizeof(st));
	assert_int_equal(lnet_ioctl(&s->ln, IOC_LIBCFS_GET_LNET_STATS, &st, sizeof(st),
				    false), 0);
	/* 0@lo counts nothing: the sums are eth0's and the peer NI's */
	assert_int_equal(st.st_send_count, 16);
	assert_int_equal(st.st_peer_send_count, 16);
	assert_int_equal(st.st_peer_drop_count, 115);
	assert_int_equal(st.st_nis, 2);
	assert_int_equal(st.st_peer_nis, 1);

	assert_int_equal(lnet_ioctl(&s->ln, IOC_LIBCFS_RESET_LNET_STATS, &st, sizeof(st),
				    true), 0);
	assert_true(counters_zero(&s->ni->ni_counters));
	assert_true(counters_zero(&s->lpni->lpni_counters));
	assert_int_equal(s->ln.ln_dp.dp_count[LNET_STATS_SENT], 0);
	assert_int_equal(s->ln.ln_dp.dp_length[LNET_STATS_SENT], 0);
	/* health and its failure counts stay, in both kinds */
	assert_int_equal(s->ni->ni_health.lh_value, 700);
	assert_int_equal(s->lpni->lpni_health.lh_value, 700);
	assert_int_equal(s->ni->ni_health.lh_fail[LNET_MSG_STATUS_NETWORK_TIMEOUT], 5);
	assert_int_equal(s->lpni->lpni_health.lh_fail[LNET_MSG_STATUS_LOCAL_ERROR], 2);
}

/* ---- recovery scheduling ------------------------------------------------------------- */

/* @h is the one entry of the recovery queue @q. */
static bool queued_alone(const struct list_head *q, const struct lnet_health *h)
{
	return q->next == &h->lh_recovery_list && q->prev == &h->lh_recovery_list;
}

static void test_schedule_own_queue_once(void **state)
{
	struct shared *s = *state;
	struct lnet_health *nh = &s->ni->ni_health, *ph = &s->lpni->lpni_health;
	u64 interval = lnet_recovery_interval_ns(&s->ln, 0);
	u64 before = os_now_ns(), after, first;

	assert_int_equal(nh->lh_kind, LNET_KIND_NI);
	assert_int_equal(ph->lh_kind, LNET_KIND_PEER_NI);
	assert_int_equal(nh->lh_value, LNET_MAX_HEALTH);
	nh->lh_value = ph->lh_value = 500;
	lnet_recovery_schedule(&s->ln, nh);
	lnet_recovery_schedule(&s->ln, ph);
	after = os_now_ns();
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_NI], nh));
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_PEER_NI], ph));
	assert_true(nh->lh_next_ping_ns >= before + interval);
	assert_true(ph->lh_next_ping_ns <= after + interval);

	/* again: still once on the queue, the ping time kept */
	first = ph->lh_next_ping_ns;
	lnet_recovery_schedule(&s->ln, ph);
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_PEER_NI], ph));
	assert_int_equal(ph->lh_next_ping_ns, first);

	/* a ping in flight: no ping time until it is answered */
	lnet_health_recovered(nh);
	assert_true(list_empty(&s->ln.ln_recoveryq[LNET_KIND_NI]));
	assert_int_equal(nh->lh_value, LNET_MAX_HEALTH);
	assert_int_equal(nh->lh_next_ping_ns, 0);
	nh->lh_value = 10;
	nh->lh_recovery_pending = true;
	lnet_recovery_schedule(&s->ln, nh);
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_NI], nh));
	assert_int_equal(nh->lh_next_ping_ns, 0);
}

static void test_recovery_now_and_recovered(void **state)
{
	struct shared *s = *state;
	struct lnet_health *ph = &s->lpni->lpni_health;
	u64 before;

	/* healthy: nothing to hurry */
	lnet_recovery_now(ph);
	assert_int_equal(ph->lh_next_ping_ns, 0);
	ph->lh_value = 100;
	ph->lh_ping_count = 4;
	lnet_recovery_schedule(&s->ln, ph);
	before = os_now_ns();
	lnet_recovery_now(ph);
	assert_int_equal(ph->lh_ping_count, 0);
	assert_true(ph->lh_next_ping_ns >= before && ph->lh_next_ping_ns <= os_now_ns());

	ph->lh_ping_count = 2;
	ph->lh_recovery_pending = true;
	lnet_health_recovered(ph);
	assert_int_equal(ph->lh_value, LNET_MAX_HEALTH);
	assert_int_equal(ph->lh_ping_count, 0);
	assert_int_equal(ph->lh_next_ping_ns, 0);
	assert_false(ph->lh_recovery_pending);
	assert_true(list_empty(&s->ln.ln_recoveryq[LNET_KIND_PEER_NI]));
}

/* Deleting a queued peer NI takes it off its queue (lnet_health_fini). */
static void test_deleted_leaves_queue(void **state)
{
	struct shared *s = *state;

	s->lpni->lpni_health.lh_value = 1;
	lnet_recovery_schedule(&s->ln, &s->lpni->lpni_health);
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_PEER_NI],
				 &s->lpni->lpni_health));
	assert_int_equal(lnet_peer_ni_del(&s->ln, &s->peer, NULL, 0), 0);
	s->lpni = NULL;
	assert_true(list_empty(&s->ln.ln_recoveryq[LNET_KIND_PEER_NI]));
}

/*
 * The wait before a recovery ping doubles per ping already sent, up to
 * max_recovery_ping_interval; a recovery_interval longer than that wins.
 */
static void test_recovery_backoff_cap(void **state)
{
	struct shared *s = *state;
	const u64 sec = 1000000000ULL;

	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 0), 1 * sec);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 3), 8 * sec);
	/* the default cap, 900 s: 2^10 = 1024 is past it */
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 9), 512 * sec);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 10), 900 * sec);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 1000), 900 * sec);
	assert_int_equal(lnet_global_set(&s->ln, LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL, 5), 0);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 2), 4 * sec);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 3), 5 * sec);
	assert_int_equal(lnet_global_set(&s->ln, LNET_GLOBAL_RECOVERY_INTERVAL, 7), 0);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 0), 7 * sec);
	assert_int_equal(lnet_recovery_interval_ns(&s->ln, 4), 7 * sec);
	assert_int_equal(lnet_global_set(&s->ln, LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL, 0),
			 -EINVAL);
}

static int set_health(struct shared *s, u32 kind, u32 flags, const struct lnet_nid *nid,
		      u32 value)
{
	struct lnet_ioc_health hl = { .hl_hdr = { sizeof(hl), LNET_IOC_VERSION },
				      .hl_kind = kind, .hl_flags = flags, .hl_value = value };

	if (nid)
		hl.hl_nid = *nid;
	return lnet_ioctl(&s->ln, IOC_LIBCFS_SET_HEALTH, &hl, sizeof(hl), true);
}

/* SET_HEALTH: one NI or all of a kind; below the maximum it is queued for recovery. */
static void test_set_health_ioctl(void **state)
{
	struct shared *s = *state;
	struct lnet_nid local = nid_of("10.9.0.1@tcp"), lo = nid_of("0@lo");
	struct lnet_nid other = nid_of("10.9.0.3@tcp"), zero = { 0 };

	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 0, &local, 300), 0);
	assert_int_equal(s->ni->ni_health.lh_value, 300);
	assert_true(queued_alone(&s->ln.ln_recoveryq[LNET_KIND_NI], &s->ni->ni_health));
	assert_int_equal(s->lpni->lpni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(set_health(s, LNET_HEALTH_PEER_NI, LNET_HEALTH_F_ALL, NULL, 0), 0);
	assert_int_equal(s->lpni->lpni_health.lh_value, 0);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, LNET_HEALTH_F_ALL, NULL,
				    LNET_HEALTH_MAX), 0);
	assert_int_equal(s->ni->ni_health.lh_value, LNET_MAX_HEALTH);
	assert_true(list_empty(&s->ln.ln_recoveryq[LNET_KIND_NI]));
	assert_int_equal(lnet_lo_ni(&s->ln)->ni_health.lh_value, LNET_MAX_HEALTH);

	/* refused: nothing changes */
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 0, &lo, 0), -ENOENT);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 0, &other, 0), -ENOENT);
	assert_int_equal(set_health(s, LNET_HEALTH_PEER_NI, 0, &local, 0), -ENOENT);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 0, &local, 1001), -EINVAL);
	assert_int_equal(set_health(s, 2, 0, &local, 0), -EINVAL);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 2, &local, 0), -EINVAL);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, LNET_HEALTH_F_ALL, &local, 0),
			 -EINVAL);
	assert_int_equal(set_health(s, LNET_HEALTH_LOCAL_NI, 0, &zero, 0), -EINVAL);
	assert_int_equal(s->ni->ni_health.lh_value, LNET_MAX_HEALTH);
}

static int set_state(struct shared *s, const struct lnet_nid *nid, u32 state)
{
	struct lnet_ioc_peer pr = { .pr_hdr = { sizeof(pr), LNET_IOC_VERSION },
				    .pr_prim_nid = *nid, .pr_peer_state = state };

	return lnet_ioctl(&s->ln, IOC_LIBCFS_SET_PEER_STATE, &pr, sizeof(pr), true);
}

/* SET_PEER_STATE: the settable bits replace the state; bit 20 is the lock. */
static void test_set_peer_state_ioctl(void **state)
{
	struct shared *s = *state;
	struct lnet_peer *lp = lnet_peer_find(&s->ln, &s->peer);
	struct lnet_nid other = nid_of("10.9.0.3@tcp");

	assert_non_null(lp);
	assert_int_equal(set_state(s, &s->peer, LNET_PEER_STATE_DISCOVERED |
				   LNET_PEER_STATE_LOCK_PRIMARY), 0);
	assert_int_equal(lp->lp_state, LNET_PEER_S_DISCOVERED);
	assert_true(lp->lp_flags & LNET_PEER_F_LOCK_PRIM);
	assert_int_equal(set_state(s, &s->peer, LNET_PEER_STATE_CONFIGURED), 0);
	assert_int_equal(lp->lp_state, LNET_PEER_S_CONFIGURED);
	assert_false(lp->lp_flags & LNET_PEER_F_LOCK_PRIM);
	assert_int_equal(set_state(s, &s->peer, 1U << 2), -EINVAL);
	assert_int_equal(set_state(s, &other, 0), -ENOENT);
	assert_int_equal(lp->lp_state, LNET_PEER_S_CONFIGURED);
}

#define SHARED_TEST(t) cmocka_unit_test_setup_teardown(t, shared_setup, shared_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		SHARED_TEST(test_count_goes_to_both),
		SHARED_TEST(test_walk_nis_then_peer_nis),
		SHARED_TEST(test_fill_same_for_both),
		SHARED_TEST(test_reset_clears_both_kinds),
		SHARED_TEST(test_schedule_own_queue_once),
		SHARED_TEST(test_recovery_now_and_recovered),
		SHARED_TEST(test_deleted_leaves_queue),
		SHARED_TEST(test_recovery_backoff_cap),
		SHARED_TEST(test_set_health_ioctl),
		SHARED_TEST(test_set_peer_state_ioctl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
