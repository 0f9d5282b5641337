// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of routes, routing, router buffers, global settings and
 * statistics in the LNet core, through the ioctl entry point as lnetd and
 * /dev/lnet call it: every range, every cross-check, every errno.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/lnet.h"
#include "../../kernel/udsp/udsp.h"
#include "fake_if.h"

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	{ "down0", 0, 4, { 10, 0, 1, 1 }, false },
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)
#define TCP1	LNET_NET_ID(LNET_LND_TCP, 1)
#define TCP2	LNET_NET_ID(LNET_LND_TCP, 2)
#define O2IB	LNET_NET_ID(LNET_LND_O2IB, 0)
#define LO	LNET_NET_ID(LNET_LND_LO, 0)

static struct lnet_nid nid4(u32 net_id, u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, net_id, addr, 4);
	return n;
}

static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	assert_non_null(ln);
	fake_lnet_up(ln, fake_lookup);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
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

/* --- ioctl helpers ------------------------------------------------------------ */

static int route_cmd(struct lnet *ln, unsigned int cmd, u32 net,
		     const struct lnet_nid *gw, s32 hops, u32 prio)
{
	struct lnet_ioc_route r;

	memset(&r, 0, sizeof(r));
	r.rt_hdr.ioc_len = sizeof(r);
	r.rt_hdr.ioc_version = LNET_IOC_VERSION;
	r.rt_net = net;
	if (gw)
		r.rt_gateway = *gw;
	r.rt_hops = hops;
	r.rt_priority = prio;
	return lnet_ioctl(ln, cmd, &r, sizeof(r), true);
}

static int route_get(struct lnet *ln, u32 index, u32 net, struct lnet_ioc_route *r)
{
	memset(r, 0, sizeof(*r));
	r->rt_hdr.ioc_len = sizeof(*r);
	r->rt_hdr.ioc_version = LNET_IOC_VERSION;
	r->rt_index = index;
	r->rt_net = net;
	return lnet_ioctl(ln, IOC_LIBCFS_GET_ROUTE, r, sizeof(*r), false);
}

static int routing_cmd(struct lnet *ln, unsigned int cmd, u32 enable,
		       s32 tiny, s32 small, s32 large, struct lnet_ioc_routing *out)
{
	struct lnet_ioc_routing r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.rtr_hdr.ioc_len = sizeof(r);
	r.rtr_hdr.ioc_version = LNET_IOC_VERSION;
	r.rtr_enable = enable;
	r.rtr_tiny = tiny;
	r.rtr_small = small;
	r.rtr_large = large;
	rc = lnet_ioctl(ln, cmd, &r, sizeof(r), true);
	if (out)
		*out = r;
	return rc;
}

static int gset(struct lnet *ln, u32 id, u32 value)
{
	struct lnet_ioc_global g;

	memset(&g, 0, sizeof(g));
	g.gl_hdr.ioc_len = sizeof(g);
	g.gl_hdr.ioc_version = LNET_IOC_VERSION;
	g.gl_id = id;
	g.gl_value = value;
	return lnet_ioctl(ln, IOC_LIBCFS_SET_GLOBAL, &g, sizeof(g), true);
}

static u32 gget(struct lnet *ln, u32 id)
{
	struct lnet_ioc_global g;

	memset(&g, 0, sizeof(g));
	g.gl_hdr.ioc_len = sizeof(g);
	g.gl_hdr.ioc_version = LNET_IOC_VERSION;
	g.gl_id = id;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_GLOBAL, &g, sizeof(g), false), 0);
	return g.gl_value;
}

static int stats_cmd(struct lnet *ln, unsigned int cmd, struct lnet_ioc_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->st_hdr.ioc_len = sizeof(*st);
	st->st_hdr.ioc_version = LNET_IOC_VERSION;
	return lnet_ioctl(ln, cmd, st, sizeof(*st), true);
}

/* --- routes --------------------------------------------------------------------- */

static void test_route_add_get(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_nid gw2 = nid4(TCP, 10, 0, 0, 253);
	struct lnet_ioc_route r;

	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, -1, 0), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, TCP1, &gw2, 3, 9), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, TCP1, &gw, 1, 0), 0);
	assert_int_equal(route_get(ln, 0, 0, &r), 0);
	assert_int_equal(r.rt_net, O2IB);
	assert_true(lnet_nid_equal(&r.rt_gateway, &gw));
	assert_int_equal(r.rt_hops, -1);
	assert_int_equal(r.rt_priority, 0);
	/* down and multi-hop until the gateway answers a check (no monitor here) */
	assert_int_equal(r.rt_state, LNET_NI_STATUS_DOWN);
	assert_int_equal(r.rt_type, LNET_ROUTE_MULTI_HOP);
	/* with checks off the local view decides: our NI and the gateway's are up */
	assert_int_equal(gset(ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0), 0);
	assert_int_equal(route_get(ln, 0, 0, &r), 0);
	assert_int_equal(r.rt_state, LNET_NI_STATUS_UP);
	assert_int_equal(r.rt_type, LNET_ROUTE_MULTI_HOP);
	assert_int_equal(route_get(ln, 1, 0, &r), 0);
	assert_int_equal(r.rt_hops, 3);
	assert_int_equal(r.rt_priority, 9);
	assert_int_equal(r.rt_type, LNET_ROUTE_MULTI_HOP);
	assert_int_equal(route_get(ln, 3, 0, &r), -ENOENT);
	/* net filter: index within that net */
	assert_int_equal(route_get(ln, 1, TCP1, &r), 0);
	assert_true(lnet_nid_equal(&r.rt_gateway, &gw));
	assert_int_equal(route_get(ln, 2, TCP1, &r), -ENOENT);
	assert_int_equal(route_get(ln, 0, TCP2, &r), -ENOENT);
	/* the gateway peers are non-MR peers */
	assert_int_equal(lnet_peer_find(ln, &gw2)->lp_flags, LNET_PEER_F_NON_MR);
}

static void test_route_errors(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_nid me = nid4(TCP, 10, 0, 0, 1);
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);
	struct lnet_nid zero;

	memset(&zero, 0, sizeof(zero));
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, 0, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, 256, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, -2, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, 255,
				   0x80000000U), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, LO, &gw, 1, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, LNET_NET_ID(77, 0), &gw, 1, 0),
			 -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &zero, 1, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &lo, 1, 0), -EINVAL);
	/* we are not our own gateway: EADDRINUSE, not one of the EINVALs */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &me, 1, 0), -EADDRINUSE);
	/* a local net is reached directly */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, TCP, &gw, 1, 0), -EISCONN);
	assert_true(list_empty(&ln->ln_routes));
	assert_null(lnet_peer_find(ln, &gw));	/* no gateway peer left behind */
	/* limits are accepted */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, 255,
				   LNET_ROUTE_PRIORITY_MAX), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, 1, 0), -EEXIST);
	/* del */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_DEL_ROUTE, TCP1, &gw, 0, 0), -ENOENT);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_DEL_ROUTE, O2IB, &zero, 0, 0), -EINVAL);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_DEL_ROUTE, O2IB, &gw, 0, 0), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_DEL_ROUTE, O2IB, &gw, 0, 0), -ENOENT);
	assert_non_null(lnet_peer_find(ln, &gw));	/* the gateway peer stays */
}

static void test_route_state(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw_far = nid4(TCP2, 10, 2, 0, 1);
	struct lnet_nid gw_down = nid4(TCP1, 10, 0, 1, 9);
	struct lnet_ioc_route r;

	assert_int_equal(lnet_ni_add(ln, TCP1, "down0", NULL), 0);
	/* gateway on no local net: refused, no gateway peer left behind */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw_far, -1, 0),
			 -EHOSTUNREACH);
	assert_true(list_empty(&ln->ln_routes));
	assert_null(lnet_peer_find(ln, &gw_far));
	/* gateway on a local net whose only NI is down: down */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw_down, -1, 0), 0);
	assert_int_equal(route_get(ln, 0, 0, &r), 0);
	assert_int_equal(r.rt_state, LNET_NI_STATUS_DOWN);
}

/* One route per remote net and gateway *peer*, whichever of its NIDs names it. */
static void test_route_same_gateway_peer(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_nid gw2 = nid4(TCP, 10, 0, 0, 253);

	assert_int_equal(lnet_peer_ni_add(ln, &gw, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &gw, &gw2, 0), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, -1, 0), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw2, -1, 0), -EEXIST);
	/* another remote net through the same peer is a new route */
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, TCP2, &gw2, -1, 0), 0);
	assert_non_null(lnet_route_nth(ln, 1, 0));
	assert_null(lnet_route_nth(ln, 2, 0));
}

/* A router rule's preferred gateways follow the routes as they come and go. */
static void test_route_reflattens_router_rules(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_nid peer = nid4(O2IB, 10, 9, 0, 1);
	struct lnet_udsp_desc d;
	struct lnet_peer_ni *lpni;
	char err[128];

	assert_int_equal(lnet_peer_ni_add(ln, &peer, NULL, 0), 0);
	memset(&d, 0, sizeof(d));
	d.idx = -1;
	d.action = LNET_UDSP_ACTION_PREFERRED_LIST;
	assert_int_equal(lnet_nidexpr_parse("o2ib", &d.dst, err, sizeof(err)), 0);
	assert_int_equal(lnet_nidexpr_parse("10.0.0.[250-254]@tcp", &d.rte, err,
					    sizeof(err)), 0);
	assert_int_equal(lnet_udsp_add(ln, &d, NULL), 0);
	lpni = lnet_peer_ni_find(ln, &peer);
	assert_int_equal(lpni->lpni_nrtr, 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, -1, 0), 0);
	assert_int_equal(lpni->lpni_nrtr, 1);
	assert_true(lnet_nid_equal(&lpni->lpni_rtr_nids[0], &gw));
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_DEL_ROUTE, O2IB, &gw, 0, 0), 0);
	assert_int_equal(lpni->lpni_nrtr, 0);
}

/* --- routing and buffers ------------------------------------------------------------ */

/* IOC_LNET_GET_RTR_POOLS of partition @cpt into @out, as a caller that may not modify. */
static int rtr_pools(struct lnet *ln, u32 cpt, struct lnet_ioc_rtr_pools *out)
{
	memset(out, 0, sizeof(*out));
	out->rp_hdr.ioc_len = sizeof(*out);
	out->rp_hdr.ioc_version = LNET_IOC_VERSION;
	out->rp_cpt = cpt;
	return lnet_ioctl(ln, IOC_LNET_GET_RTR_POOLS, out, sizeof(*out), false);
}

/* The state and the pools' nbuffers/credits, as "state t/t s/s l/l". */
static const char *pools_str(struct lnet *ln)
{
	static char buf[96];
	struct lnet_ioc_rtr_pools rp;
	const struct lnet_ioc_rtr_pool *p = rp.rp_pools;

	assert_int_equal(rtr_pools(ln, 0, &rp), 0);
	assert_int_equal(p[LNET_BUF_TINY].rpl_npages, 0);
	assert_int_equal(p[LNET_BUF_SMALL].rpl_npages, 1);
	assert_int_equal(p[LNET_BUF_LARGE].rpl_npages, 256);
	snprintf(buf, sizeof(buf), "%u %u/%d %u/%d %u/%d", rp.rp_state,
		 p[0].rpl_nbuffers, p[0].rpl_credits, p[1].rpl_nbuffers, p[1].rpl_credits,
		 p[2].rpl_nbuffers, p[2].rpl_credits);
	return buf;
}

/* The monitor's tick, long enough after the last change to end it. */
static void router_tick_later(struct lnet *ln)
{
	lnet_router_tick(ln, os_now_ns() + 1000ULL * 1000000000ULL);
}

static void test_routing(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_routing r;
	struct lnet_ioc_rtr_pools rp;

	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_enable, 0);
	assert_int_equal(r.rtr_tiny, LNET_TINY_BUF_DEF);
	assert_int_equal(r.rtr_small, LNET_SMALL_BUF_DEF);
	assert_int_equal(r.rtr_large, LNET_LARGE_BUF_DEF);
	assert_string_equal(pools_str(ln), "0 0/0 0/0 0/0");
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_ADD_BUF, 0, 16, 8, 4, NULL), 0);
	/* 1: starting, forwarding at once; 1 again changes nothing */
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 1, 0, 0, 0, NULL), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 1, 0, 0, 0, NULL), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 2, 0, 0, 0, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 0, 512, 0, 0, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_enable, 1);
	assert_string_equal(pools_str(ln), "3 16/16 8/8 4/4");
	router_tick_later(ln);
	assert_string_equal(pools_str(ln), "1 16/16 8/8 4/4");
	/* 0: stopping, still forwarding; 1 is refused until it is off, 0 is not */
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 0, 0, 0, 0, NULL), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_enable, 1);
	assert_string_equal(pools_str(ln), "2 16/16 8/8 4/4");
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 1, 0, 0, 0, NULL), -EBUSY);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 0, 0, 0, 0, NULL), 0);
	router_tick_later(ln);
	assert_string_equal(pools_str(ln), "0 0/0 0/0 0/0");
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_enable, 0);
	/* one partition; reserved fields must be zero */
	assert_int_equal(rtr_pools(ln, 1, &rp), -ENOENT);
	memset(&rp, 0, sizeof(rp));
	rp.rp_hdr.ioc_len = sizeof(rp);
	rp.rp_hdr.ioc_version = LNET_IOC_VERSION;
	rp.rp_reserved[3] = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_RTR_POOLS, &rp, sizeof(rp), false), -EINVAL);
}

static void test_buffers(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_routing r;
	const unsigned int add = IOC_LIBCFS_ADD_BUF;

	/* minimums (1: small pools for test nodes) and maximum; -1 leaves a count alone */
	assert_int_equal(routing_cmd(ln, add, 0, 1, 1, 1, NULL), 0);
	assert_int_equal(routing_cmd(ln, add, 0, -1, LNET_BUF_MAX, -1, NULL), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_tiny, 1);
	assert_int_equal(r.rtr_small, LNET_BUF_MAX);
	assert_int_equal(r.rtr_large, 1);
	/* out of range: nothing changes, not even the valid counts */
	assert_int_equal(routing_cmd(ln, add, 0, 1000, LNET_BUF_MAX + 1, -1, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, add, 0, LNET_BUF_MAX + 1, -1, -1, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, add, 0, -1, -1, -3, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, add, 0, -1, -1, LNET_BUF_MAX + 1, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, add, 0, -2, -1, -1, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, add, 1, -1, -1, -1, NULL), -EINVAL);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_tiny, 1);
	/* 0 = the default */
	assert_int_equal(routing_cmd(ln, add, 0, 0, 0, 0, NULL), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_GET_BUF, 0, 0, 0, 0, &r), 0);
	assert_int_equal(r.rtr_tiny, LNET_TINY_BUF_DEF);
	assert_int_equal(r.rtr_small, LNET_SMALL_BUF_DEF);
	assert_int_equal(r.rtr_large, LNET_LARGE_BUF_DEF);
}

/* --- global settings ------------------------------------------------------------------ */

static const struct {
	u32 id, min, max, def;
} ranges[] = {
	{ LNET_GLOBAL_NUMA_RANGE, 0, 0x7fffffff, 0 },
	{ LNET_GLOBAL_MAX_INTERFACES, 16, 16384, 4096 },
	{ LNET_GLOBAL_DISCOVERY, 0, 1, 1 },
	{ LNET_GLOBAL_DROP_ASYM_ROUTE, 0, 1, 0 },
	{ LNET_GLOBAL_RETRY_COUNT, 0, 100, 2 },
	{ LNET_GLOBAL_TRANSACTION_TIMEOUT, 1, 86400, 150 },
	{ LNET_GLOBAL_HEALTH_SENSITIVITY, 0, 1000, 100 },
	{ LNET_GLOBAL_RECOVERY_INTERVAL, 1, 86400, 1 },
	{ LNET_GLOBAL_ROUTER_SENSITIVITY, 0, 100, 100 },
	{ LNET_GLOBAL_RESPONSE_TRACKING, 0, 3, 3 },
	{ LNET_GLOBAL_RECOVERY_LIMIT, 0, 0x7fffffff, 0 },
	{ LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL, 1, 0x7fffffff, 900 },
};

static void test_global_ranges(void **state)
{
	struct lnet *ln = *state;
	size_t i;

	/* room for both ends of retry_count and transaction_timeout */
	assert_int_equal(gset(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 200), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		u32 id = ranges[i].id;
		u32 keep = gget(ln, id);

		if (ranges[i].min)
			assert_int_equal(gset(ln, id, ranges[i].min - 1), -EINVAL);
		assert_int_equal(gset(ln, id, ranges[i].max + 1), -EINVAL);
		assert_int_equal(gget(ln, id), keep);
		assert_int_equal(gset(ln, id, ranges[i].min), 0);
		assert_int_equal(gget(ln, id), ranges[i].min);
		assert_int_equal(gset(ln, id, ranges[i].max), 0);
		assert_int_equal(gget(ln, id), ranges[i].max);
		assert_int_equal(gset(ln, id, keep), 0);
	}
	assert_int_equal(gset(ln, __LNET_GLOBAL_MAX, 0), -EINVAL);
	assert_int_equal(gset(ln, LNET_GLOBAL_LND_TIMEOUT, 10), -EINVAL);
}

static void test_global_defaults_after_configure(void **state)
{
	struct lnet *ln = *state;
	size_t i;

	assert_int_equal(gset(ln, LNET_GLOBAL_DISCOVERY, 0), 0);
	assert_int_equal(routing_cmd(ln, IOC_LIBCFS_CONFIG_RTR, 1, 0, 0, 0, NULL), 0);
	/* held: routing started the monitor thread, which takes it too */
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_unconfigure(ln), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_int_equal(gset(ln, LNET_GLOBAL_DISCOVERY, 0), -ENETDOWN);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_configure(ln), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		assert_int_equal(gget(ln, ranges[i].id), ranges[i].def);
	assert_int_equal(gget(ln, LNET_GLOBAL_LND_TIMEOUT), 49);	/* 149 / 3 */
	assert_false(ln->ln_routing);
}

static void test_global_cross_checks(void **state)
{
	struct lnet *ln = *state;

	/* retry_count < transaction_timeout, both ways */
	assert_int_equal(gset(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 10), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 10), -EINVAL);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 9), 0);
	assert_int_equal(gget(ln, LNET_GLOBAL_LND_TIMEOUT), 1);	/* 9 / 10, at least 1 */
	assert_int_equal(gset(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 9), -EINVAL);
	assert_int_equal(gget(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT), 10);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 1), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 101), 0);
	assert_int_equal(gget(ln, LNET_GLOBAL_LND_TIMEOUT), 50);
	/* health_sensitivity 0 turns retries off, and keeps them off */
	assert_int_equal(gset(ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 0), 0);
	assert_int_equal(gget(ln, LNET_GLOBAL_RETRY_COUNT), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 1), -EINVAL);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 1), 0);
	assert_int_equal(gset(ln, LNET_GLOBAL_RETRY_COUNT, 1), 0);
}

static void test_global_read_only_caller(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_global g;

	memset(&g, 0, sizeof(g));
	g.gl_hdr.ioc_len = sizeof(g);
	g.gl_hdr.ioc_version = LNET_IOC_VERSION;
	g.gl_id = LNET_GLOBAL_DISCOVERY;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_SET_GLOBAL, &g, sizeof(g), false), -EPERM);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_GLOBAL, &g, sizeof(g), false), 0);
	assert_int_equal(g.gl_value, 1);
	g.gl_reserved[1] = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_GLOBAL, &g, sizeof(g), false), -EINVAL);
	g.gl_reserved[1] = 0;
	g.gl_id = 99;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_GLOBAL, &g, sizeof(g), false), -EINVAL);
}

/* --- statistics ------------------------------------------------------------------------- */

static bool counters_zero(const struct lnet_counters *c)
{
	static const struct lnet_counters zero;

	return !memcmp(c, &zero, sizeof(zero));
}

static void test_stats(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 7);
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_ioc_stats st;
	struct lnet_ni *ni;
	struct lnet_peer_ni *lpni;

	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, 0), 0);
	assert_int_equal(route_cmd(ln, IOC_LIBCFS_ADD_ROUTE, O2IB, &gw, -1, 0), 0);
	ni = list_first_entry(&lnet_net_find(ln, TCP)->net_nis, struct lnet_ni, ni_list);
	/* the totals are sums over the message types */
	ni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT] = 3;
	ni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_GET] = 2;
	ni->ni_counters.lc_msgs[LNET_STATS_RECV][LNET_MSG_ACK] = 6;
	ni->ni_counters.lc_msgs[LNET_STATS_DROP][LNET_MSG_HELLO] = 7;
	lpni = lnet_peer_ni_find(ln, &p);
	lpni->lpni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_REPLY] = 1;
	lpni->lpni_counters.lc_msgs[LNET_STATS_RECV][LNET_MSG_PUT] = 2;
	lpni->lpni_counters.lc_msgs[LNET_STATS_DROP][LNET_MSG_GET] = 3;
	assert_int_equal(stats_cmd(ln, IOC_LIBCFS_GET_LNET_STATS, &st), 0);
	assert_int_equal(st.st_send_count, 5);
	assert_int_equal(st.st_recv_count, 6);
	assert_int_equal(st.st_drop_count, 7);
	assert_int_equal(st.st_peer_send_count, 1);
	assert_int_equal(st.st_peer_recv_count, 2);
	assert_int_equal(st.st_peer_drop_count, 3);
	assert_int_equal(st.st_nis, 2);		/* 0@lo and eth0 */
	assert_int_equal(st.st_peer_nis, 2);	/* the peer and the gateway */
	assert_int_equal(st.st_routes, 1);
	assert_int_equal(stats_cmd(ln, IOC_LIBCFS_RESET_LNET_STATS, &st), 0);
	/* every counter of both kinds, by type too */
	assert_true(counters_zero(&ni->ni_counters));
	assert_true(counters_zero(&lpni->lpni_counters));
	assert_int_equal(stats_cmd(ln, IOC_LIBCFS_GET_LNET_STATS, &st), 0);
	assert_int_equal(st.st_send_count + st.st_peer_recv_count, 0);
	assert_int_equal(st.st_nis, 2);
	st.st_pad2 = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_LNET_STATS, &st, sizeof(st), true),
			 -EINVAL);
	memset(&st, 0, sizeof(st));
	st.st_hdr.ioc_len = sizeof(st);
	st.st_hdr.ioc_version = LNET_IOC_VERSION;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_RESET_LNET_STATS, &st, sizeof(st), false),
			 -EPERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_route_add_get),
		T(test_route_errors),
		T(test_route_state),
		T(test_route_same_gateway_peer),
		T(test_route_reflattens_router_rules),
		T(test_routing),
		T(test_buffers),
		T(test_global_ranges),
		T(test_global_defaults_after_configure),
		T(test_global_cross_checks),
		T(test_global_read_only_caller),
		T(test_stats),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
