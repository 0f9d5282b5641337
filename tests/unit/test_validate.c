// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of kernel/core/validate.c, the checks the core and libcfg
 * share: which field and which reason each refusal reports, the tables
 * made into arrays, and the -1 = default of the NI tunables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/validate.h"

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)

static void assert_bad(const struct lnet_bad *bad, u32 why, u32 field, u32 other)
{
	assert_int_equal(bad->why, why);
	assert_int_equal(bad->field, field);
	assert_int_equal(bad->other, other);
}

static void defaults(u32 cur[__LNET_GLOBAL_MAX])
{
	u32 i;

	for (i = 0; i < __LNET_GLOBAL_MAX; i++)
		cur[i] = lnet_global_ranges[i].def;
}

static void test_tables(void **state)
{
	const struct lnet_range *r = &lnet_ni_tun_ranges[LNET_TUN_PEER_CREDITS];
	const struct lnet_range *g = &lnet_global_ranges[LNET_GLOBAL_TRANSACTION_TIMEOUT];

	assert_string_equal(r->name, "peer_credits");
	assert_int_equal(r->min, LNET_TUN_PEER_CREDITS_MIN);
	assert_int_equal(r->max, 1024);
	assert_int_equal(r->def, 8);
	assert_string_equal(g->name, "transaction_timeout");
	assert_int_equal(g->min, 1);
	assert_int_equal(g->max, LNET_GLOBAL_TRANSACTION_TIMEOUT_MAX);
	assert_int_equal(g->def, 150);
	assert_false(g->read_only);
	/* every id of enum lnet_global is a row, lnd_timeout the read-only one */
	for (u32 i = 0; i < __LNET_GLOBAL_MAX; i++) {
		assert_non_null(lnet_global_ranges[i].name);
		assert_int_equal(lnet_global_ranges[i].read_only, i == LNET_GLOBAL_LND_TIMEOUT);
	}
	assert_int_equal(sizeof(struct lnet_ni_tunables), 4 * __LNET_TUN_MAX);
}

static void test_tunables(void **state)
{
	struct lnet_ni_tunables t;
	struct lnet_bad bad = { 0 };

	lnet_ni_tunables_unset(&t);
	assert_int_equal(t.peer_timeout, -1);
	assert_int_equal(t.credits, -1);
	assert_int_equal(lnet_ni_tunables_check(&t, &bad), 0);
	t.credits = 65536;
	t.peer_timeout = 0;
	assert_int_equal(lnet_ni_tunables_check(&t, &bad), 0);
	t.peer_buffer_credits = 16385;
	assert_int_equal(lnet_ni_tunables_check(&t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_TUN_PEER_BUFFER_CREDITS, 0);
	t.peer_buffer_credits = 5;
	t.peer_credits = 0;
	assert_int_equal(lnet_ni_tunables_check(&t, NULL), -EINVAL);	/* @bad may be NULL */
	assert_int_equal(lnet_ni_tunables_check(&t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_TUN_PEER_CREDITS, 0);
	t.peer_credits = -1;
	lnet_ni_tunables_fill(&t);
	assert_int_equal(t.peer_timeout, 0);
	assert_int_equal(t.peer_credits, LNET_TUN_PEER_CREDITS_DEF);
	assert_int_equal(t.peer_buffer_credits, 5);
	assert_int_equal(t.credits, 65536);
	*lnet_ni_tun_ref(&t, LNET_TUN_CREDITS) = 7;
	assert_int_equal(t.credits, 7);
	assert_int_equal(lnet_ni_tun_get(&t, LNET_TUN_PEER_CREDITS), 8);
}

static void test_ni_add(void **state)
{
	struct lnet_ni_tunables t;
	struct lnet_bad bad = { 0 };

	lnet_ni_tunables_unset(&t);
	assert_int_equal(lnet_ni_add_check(TCP, "eth0", &t, &bad), 0);
	assert_int_equal(lnet_ni_add_check(LNET_NET_ID(LNET_LND_O2IB, 3), "ib0", &t, &bad), 0);
	assert_int_equal(lnet_ni_add_check(LNET_NET_ID(LNET_LND_LO, 0), "eth0", &t, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NET, 0, 0);
	assert_int_equal(lnet_ni_add_check(LNET_NET_ID(LNET_LND_GNI, 0), "eth0", &t, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LND, 0, 0);
	assert_int_equal(lnet_ni_add_check(TCP, "", &t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_IFNAME, 0, 0);
	assert_int_equal(lnet_ni_add_check(TCP, NULL, &t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_IFNAME, 0, 0);
	assert_int_equal(lnet_ni_add_check(TCP, "a23456789012345", &t, &bad), 0);
	assert_int_equal(lnet_ni_add_check(TCP, "a234567890123456", &t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_IFNAME, 0, 0);
	/* the net and the name first, then the tunables */
	t.credits = 0;
	assert_int_equal(lnet_ni_add_check(LNET_NET_ID(LNET_LND_LO, 0), "", &t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NET, 0, 0);
	assert_int_equal(lnet_ni_add_check(TCP, "eth0", &t, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_TUN_CREDITS, 0);
}

/* The rows of LNET_SOCK_TUNABLES: each edge of each range, and the net. */
static void test_ni_lnd_tun(void **state)
{
	static const struct { u32 id; s32 v; int rc; } rows[] = {
		{ LNET_SOCK_CONNS_PER_PEER, 0, 0 },
		{ LNET_SOCK_CONNS_PER_PEER, 127, 0 },
		{ LNET_SOCK_CONNS_PER_PEER, 128, -EINVAL },
		{ LNET_SOCK_CONNS_PER_PEER, -2, -EINVAL },
		{ LNET_SOCK_TIMEOUT, 1, 0 },
		{ LNET_SOCK_TIMEOUT, 86400, 0 },
		{ LNET_SOCK_TIMEOUT, 0, -EINVAL },
		{ LNET_SOCK_TIMEOUT, 86401, -EINVAL },
		{ LNET_SOCK_TOS, -1, 0 },
		{ LNET_SOCK_TOS, 255, 0 },
		{ LNET_SOCK_TOS, 256, -EINVAL },
		{ LNET_SOCK_TOS, -2, -EINVAL },
	};
	struct lnet_sock_tunables t;
	struct lnet_bad bad = { 0 };
	size_t i;

	assert_string_equal(lnet_sock_tun_ranges[LNET_SOCK_TIMEOUT].name, "timeout");
	assert_int_equal(LNET_SOCK_CONNS_PER_PEER_DEF, 0);	/* the LND chooses: by link speed */
	assert_int_equal(LNET_SOCK_TOS_DEF, -1);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		lnet_sock_tunables_unset(&t);
		*lnet_sock_tun_ref(&t, rows[i].id) = rows[i].v;
		assert_int_equal(lnet_ni_lnd_tun_check(TCP, &t, &bad), rows[i].rc);
		if (rows[i].rc)
			assert_bad(&bad, LNET_BAD_LND_RANGE, rows[i].id, 0);
	}
	lnet_sock_tunables_unset(&t);
	assert_int_equal(lnet_ni_lnd_tun_check(TCP, &t, &bad), 0);
	assert_int_equal(lnet_ni_lnd_tun_check(LNET_NET_ID(LNET_LND_O2IB, 0), NULL, &bad), 0);
	assert_int_equal(lnet_ni_lnd_tun_check(LNET_NET_ID(LNET_LND_O2IB, 0), &t, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LND_NET, 0, 0);
	assert_int_equal(lnet_ni_lnd_tun_check(LNET_NET_ID(LNET_LND_EFA, 0), &t, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LND_NET, 0, 0);
}

/* A change in place: only the rows named count; at least one, none unknown. */
static void test_ni_lnd_set(void **state)
{
	const u32 tmo = LNET_NI_LND_ROW(LNET_SOCK_TIMEOUT), tos = LNET_NI_LND_ROW(LNET_SOCK_TOS);
	struct lnet_sock_tunables t;
	struct lnet_bad bad = { 0 };

	lnet_sock_tunables_unset(&t);
	t.timeout = 0;		/* out of range, but not named */
	t.tos = 4;
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, tos, &bad), 0);
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, tos | tmo, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LND_RANGE, LNET_SOCK_TIMEOUT, 0);
	t.timeout = -1;		/* back to the default */
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, tos | tmo, &bad), 0);
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, LNET_NI_LND_ROWS_ALL, &bad), 0);
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_FLAGS, 0, 0);
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, LNET_NI_LND_ROW(__LNET_SOCK_TUN_MAX),
					       &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_FLAGS, 0, 0);
	assert_int_equal(lnet_ni_lnd_set_check(TCP, &t, LNET_NI_F_LND_TUN, &bad), -EINVAL);
	assert_int_equal(lnet_ni_lnd_set_check(LNET_NET_ID(LNET_LND_O2IB, 0), &t, tos, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LND_NET, 0, 0);
}

static void test_global_ranges(void **state)
{
	struct lnet_bad bad = { 0 };
	u32 cur[__LNET_GLOBAL_MAX];

	defaults(cur);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_NUMA_RANGE, 2147483647, &bad), 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_NUMA_RANGE, 2147483648U, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_GLOBAL_NUMA_RANGE, 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_MAX_INTERFACES, 15, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_GLOBAL_MAX_INTERFACES, 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_MAX_INTERFACES, 16, &bad), 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_LND_TIMEOUT, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_READ_ONLY, LNET_GLOBAL_LND_TIMEOUT, 0);
	assert_int_equal(lnet_global_check(cur, __LNET_GLOBAL_MAX, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_UNKNOWN, __LNET_GLOBAL_MAX, 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RECOVERY_LIMIT, 0, NULL), 0);
}

static void test_global_cross(void **state)
{
	struct lnet_bad bad = { 0 };
	u32 cur[__LNET_GLOBAL_MAX];

	/* the defaults accept every retry_count (cfg_global_doc_check relies on it) */
	defaults(cur);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT,
					   LNET_GLOBAL_RETRY_COUNT_MAX, &bad), 0);
	cur[LNET_GLOBAL_TRANSACTION_TIMEOUT] = 10;
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT, 9, &bad), 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT, 10, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_NOT_BELOW, LNET_GLOBAL_RETRY_COUNT,
		   LNET_GLOBAL_TRANSACTION_TIMEOUT);
	cur[LNET_GLOBAL_RETRY_COUNT] = 4;
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_TRANSACTION_TIMEOUT, 5, &bad), 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_TRANSACTION_TIMEOUT, 4, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_NOT_ABOVE, LNET_GLOBAL_TRANSACTION_TIMEOUT,
		   LNET_GLOBAL_RETRY_COUNT);
	cur[LNET_GLOBAL_HEALTH_SENSITIVITY] = 0;
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT, 0, &bad), 0);
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT, 1, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_ZERO_WHILE, LNET_GLOBAL_RETRY_COUNT,
		   LNET_GLOBAL_HEALTH_SENSITIVITY);
	/* the range before the cross-checks */
	assert_int_equal(lnet_global_check(cur, LNET_GLOBAL_RETRY_COUNT, 101, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_GLOBAL_RETRY_COUNT, 0);
	/* the range alone: what libcfg checks before it reads the running values */
	assert_int_equal(lnet_global_range_check(LNET_GLOBAL_RETRY_COUNT, 1, &bad), 0);
	assert_int_equal(lnet_global_range_check(LNET_GLOBAL_RETRY_COUNT, 101, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_GLOBAL_RETRY_COUNT, 0);
	assert_int_equal(lnet_global_range_check(LNET_GLOBAL_LND_TIMEOUT, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_READ_ONLY, LNET_GLOBAL_LND_TIMEOUT, 0);
}

/* --- router buffers -------------------------------------------------------- */

static void test_buffer_table(void **state)
{
	const struct lnet_range *t = &lnet_buf_ranges[LNET_BUF_TINY];
	u32 k;

	assert_int_equal(LNET_NBUF_KINDS, 3);
	assert_string_equal(t->name, "tiny");
	assert_int_equal(t->min, 1);	/* Lustre takes small pools (test routers) */
	assert_int_equal(t->max, 1048576);
	assert_int_equal(t->def, 2048);
	assert_string_equal(lnet_buf_ranges[LNET_BUF_SMALL].name, "small");
	assert_int_equal(lnet_buf_ranges[LNET_BUF_SMALL].min, LNET_BUF_SMALL_MIN);
	assert_int_equal(lnet_buf_ranges[LNET_BUF_LARGE].def, LNET_BUF_LARGE_DEF);
	/* the older names follow the rows */
	assert_int_equal(LNET_TINY_BUF_MIN, 1);
	assert_int_equal(LNET_SMALL_BUF_MIN, 1);
	assert_int_equal(LNET_LARGE_BUF_MIN, 1);
	assert_int_equal(LNET_TINY_BUF_DEF, 2048);
	assert_int_equal(LNET_SMALL_BUF_DEF, 16384);
	assert_int_equal(LNET_LARGE_BUF_DEF, 1024);
	/* LNET_BUF_MAX says every kind has one maximum */
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		assert_int_equal(lnet_buf_ranges[k].max, LNET_BUF_MAX);
}

static void test_buffers_check(void **state)
{
	s32 c[LNET_NBUF_KINDS] = { -1, -1, -1 };
	struct lnet_bad bad = { 0 };

	assert_int_equal(lnet_buffers_check(c, &bad), 0);
	c[LNET_BUF_TINY] = 0;
	c[LNET_BUF_SMALL] = 4096;
	c[LNET_BUF_LARGE] = 1048576;
	assert_int_equal(lnet_buffers_check(c, NULL), 0);
	c[LNET_BUF_SMALL] = -2;
	assert_int_equal(lnet_buffers_check(c, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_BUF_SMALL, 0);
	c[LNET_BUF_SMALL] = -1;
	c[LNET_BUF_LARGE] = 1048577;
	assert_int_equal(lnet_buffers_check(c, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_BUF_LARGE, 0);
	c[LNET_BUF_LARGE] = 1;		/* one buffer is a pool */
	assert_int_equal(lnet_buffers_check(c, &bad), 0);
	c[LNET_BUF_LARGE] = -2;		/* only -1 leaves a kind as it is */
	assert_int_equal(lnet_buffers_check(c, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_RANGE, LNET_BUF_LARGE, 0);
}

/* --- objects: peers, routes, routing, rules ---------------------------------- */

static struct lnet_nid tcp_nid(u8 last)
{
	struct lnet_nid n = { .nid_addr_len = 4, .nid_lnd = LNET_LND_TCP,
			      .nid_addr = { 10, 0, 0, last } };

	return n;
}

static const struct lnet_nid lo_nid = { .nid_addr_len = 4, .nid_lnd = LNET_LND_LO };
static const struct lnet_nid no_nid;

static void test_peer_add(void **state)
{
	struct lnet_nid p = tcp_nid(1), n = tcp_nid(2);
	const u32 non_mr = LNET_PEER_F_NON_MR;
	struct lnet_bad bad = { 0 };

	assert_int_equal(lnet_peer_add_check(&p, NULL, 0, &bad), 0);
	assert_int_equal(lnet_peer_add_check(&p, &n, LNET_PEER_F_LOCK_PRIM, &bad), 0);
	/* non_mr: the primary alone (a zero pr_nid, or the primary again) */
	assert_int_equal(lnet_peer_add_check(&p, NULL, non_mr, &bad), 0);
	assert_int_equal(lnet_peer_add_check(&p, &no_nid, non_mr, &bad), 0);
	assert_int_equal(lnet_peer_add_check(&p, &p, non_mr, &bad), 0);
	assert_int_equal(lnet_peer_add_check(&p, &n, non_mr, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_NON_MR, LNET_BAD_NID_OTHER, 0);
	/* the primary first, then the flags, then 0@lo */
	assert_int_equal(lnet_peer_add_check(&no_nid, &n, LNET_PEER_F_FORCE, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_ZERO_NID, LNET_BAD_NID_PRIMARY, 0);
	assert_int_equal(lnet_peer_add_check(&lo_nid, NULL, LNET_PEER_F_FORCE, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_FLAGS, 0, 0);
	assert_int_equal(lnet_peer_add_check(&p, NULL, 1U << 3, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_FLAGS, 0, 0);
	assert_int_equal(lnet_peer_add_check(&lo_nid, NULL, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NID, LNET_BAD_NID_PRIMARY, 0);
	assert_int_equal(lnet_peer_add_check(&p, &lo_nid, non_mr, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NID, LNET_BAD_NID_OTHER, 0);
}

static void test_route_add(void **state)
{
	const u32 unset = (u32)LNET_ROUTE_HOPS_UNSET, o2ib = LNET_NET_ID(LNET_LND_O2IB, 1);
	struct lnet_nid gw = tcp_nid(9);
	struct lnet_bad bad = { 0 };

	assert_int_equal(lnet_route_add_check(o2ib, &gw, unset, 0, &bad), 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, 1, 0, &bad), 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, LNET_ROUTE_HOPS_MAX,
					      LNET_ROUTE_PRIORITY_MAX, &bad), 0);
	/* the net, then the gateway, then hops and priority */
	assert_int_equal(lnet_route_add_check(LNET_NET_ID(LNET_LND_LO, 0), NULL, 0, ~0U, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NET, 0, 0);
	assert_int_equal(lnet_route_add_check(LNET_NET_ID(77, 0), &gw, 1, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_NET, 0, 0);
	assert_int_equal(lnet_route_add_check(o2ib, NULL, 0, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_ZERO_NID, LNET_BAD_NID_GATEWAY, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &no_nid, 1, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_ZERO_NID, LNET_BAD_NID_GATEWAY, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &lo_nid, 0, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NID, LNET_BAD_NID_GATEWAY, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, 0, ~0U, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_HOPS, 0, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, LNET_ROUTE_HOPS_MAX + 1, 0, &bad),
			 -EINVAL);
	assert_bad(&bad, LNET_BAD_HOPS, 0, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, (u32)-2, 0, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_HOPS, 0, 0);
	assert_int_equal(lnet_route_add_check(o2ib, &gw, unset,
					      (u32)LNET_ROUTE_PRIORITY_MAX + 1, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_PRIORITY, 0, 0);
}

static void test_net_del_routing_udsp(void **state)
{
	struct lnet_bad bad = { 0 };

	assert_int_equal(lnet_net_del_check(TCP, &bad), 0);
	assert_int_equal(lnet_net_del_check(LNET_NET_ID(LNET_LND_LO, 0), &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_LO_NET, 0, 0);
	assert_int_equal(lnet_routing_check(0, &bad), 0);
	assert_int_equal(lnet_routing_check(1, &bad), 0);
	assert_int_equal(lnet_routing_check(2, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_ENABLE, 0, 0);
	assert_int_equal(lnet_udsp_del_check(-1, &bad), 0);
	assert_int_equal(lnet_udsp_del_check(0, &bad), 0);
	assert_int_equal(lnet_udsp_del_check(-2, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_INDEX, 0, 0);
	/* @bad may be NULL: the core only wants the errno */
	assert_int_equal(lnet_udsp_del_check(-2, NULL), -EINVAL);
}

/* CONFIGURE's flags: LNET_CONFIG_F_LARGE_NIDS or none; any other bit refused. */
static void test_configure_flags(void **state)
{
	struct lnet_bad bad = { 0 };

	assert_int_equal(lnet_configure_check(0, &bad), 0);
	assert_int_equal(lnet_configure_check(LNET_CONFIG_F_LARGE_NIDS, &bad), 0);
	assert_int_equal(lnet_configure_check(1U << 1, &bad), -EINVAL);
	assert_bad(&bad, LNET_BAD_FLAGS, 0, 0);
	assert_int_equal(lnet_configure_check(LNET_CONFIG_F_LARGE_NIDS | 1U << 31, NULL),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_ni_add),
		cmocka_unit_test(test_ni_lnd_tun),
		cmocka_unit_test(test_ni_lnd_set),
		cmocka_unit_test(test_global_ranges),
		cmocka_unit_test(test_global_cross),
		cmocka_unit_test(test_peer_add),
		cmocka_unit_test(test_route_add),
		cmocka_unit_test(test_net_del_routing_udsp),
		cmocka_unit_test(test_configure_flags),
		cmocka_unit_test(test_buffer_table),
		cmocka_unit_test(test_buffers_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
