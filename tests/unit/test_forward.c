// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routing through gateways, on LNet instances joined by memlnd:
 *   A  (node0) m0e0 10.21.0.1@tcp
 *   R1 (node1) m1e0 10.21.0.2@tcp, m1e1 10.22.0.2@tcp1, routing on
 *   R2 (node2) m2e0 10.21.0.3@tcp, m2e1 10.22.0.3@tcp1, routing on
 *   B  (node3) m3e1 10.22.0.4@tcp1
 * A routes tcp1 and B routes tcp through both routers. Traffic is the
 * selftest service's (byte-checked); the routers' route_count says which
 * one carried it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd.h"
#include "../../kernel/core/selftest.h"
#include "../../kernel/core/lnet_priv.h"

#define A_NID	"10.21.0.1@tcp"
#define R1_TCP	"10.21.0.2@tcp"
#define R1_TCP1	"10.22.0.2@tcp1"
#define R2_TCP	"10.21.0.3@tcp"
#define R2_TCP1	"10.22.0.3@tcp1"
#define B_NID	"10.22.0.4@tcp1"

struct world {
	struct memlnd_node *a, *r1, *r2, *b;
};

static void locked_ok(struct memlnd_node *n, int rc)
{
	(void)n;
	assert_int_equal(rc, 0);
}

#define LOCKED(n, expr)						\
	do {							\
		int rc_;					\
		os_mutex_lock(&(n)->ln.ln_api_mutex);		\
		rc_ = (expr);					\
		os_mutex_unlock(&(n)->ln.ln_api_mutex);		\
		locked_ok((n), rc_);				\
	} while (0)

static int route_add(struct memlnd_node *n, const char *net, const char *gw,
		     u32 prio)
{
	struct lnet_nid g = memlnd_nid(gw);
	u32 net_id;
	int rc;

	assert_int_equal(lnet_net_parse(net, &net_id, NULL, 0), 0);
	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_route_add(&n->ln, net_id, &g, (u32)LNET_ROUTE_HOPS_UNSET, prio);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return rc;
}

/* Short timers everywhere: routers go from STARTING to ENABLED in 2 s. */
static void timers(struct memlnd_node *n)
{
	LOCKED(n, lnet_global_set(&n->ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 1));
	LOCKED(n, lnet_global_set(&n->ln, LNET_GLOBAL_ROUTER_PING_TIMEOUT, 1));
}

static bool routes_alive(void *arg)
{
	struct memlnd_node *n = arg;
	struct lnet_route *r;
	bool all = true;

	os_mutex_lock(&n->ln.ln_api_mutex);
	list_for_each_entry(r, &n->ln.ln_routes, lr_list)
		if (!lnet_route_alive(&n->ln, r))
			all = false;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return all;
}

static bool routers_enabled(void *arg)
{
	struct world *w = arg;
	bool on;

	os_mutex_lock(&w->r1->ln.ln_api_mutex);
	on = lnet_routing_advertised(&w->r1->ln);
	os_mutex_unlock(&w->r1->ln.ln_api_mutex);
	os_mutex_lock(&w->r2->ln.ln_api_mutex);
	on = on && lnet_routing_advertised(&w->r2->ln);
	os_mutex_unlock(&w->r2->ln.ln_api_mutex);
	return on;
}

static void world_up(struct world *w, u32 a_r1, u32 a_r2, u32 b_r1, u32 b_r2)
{
	assert_true(memlnd_wait(routers_enabled, w, 5000));
	assert_int_equal(route_add(w->a, "tcp1", R1_TCP, a_r1), 0);
	assert_int_equal(route_add(w->a, "tcp1", R2_TCP, a_r2), 0);
	assert_int_equal(route_add(w->b, "tcp", R1_TCP1, b_r1), 0);
	assert_int_equal(route_add(w->b, "tcp", R2_TCP1, b_r2), 0);
	assert_true(memlnd_wait(routes_alive, w->a, 5000));
	assert_true(memlnd_wait(routes_alive, w->b, 5000));
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	struct memlnd_node *n;

	w->a = memlnd_node_new(0);
	w->r1 = memlnd_node_new(1);
	w->r2 = memlnd_node_new(2);
	w->b = memlnd_node_new(3);
	assert_int_equal(memlnd_ni_add(w->a, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r1, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r1, "tcp1", 1), 0);
	assert_int_equal(memlnd_ni_add(w->r2, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r2, "tcp1", 1), 0);
	assert_int_equal(memlnd_ni_add(w->b, "tcp1", 1), 0);
	for (n = w->a; n; n = n == w->a ? w->r1 : n == w->r1 ? w->r2 :
			      n == w->r2 ? w->b : NULL)
		timers(n);
	LOCKED(w->r1, lnet_routing_set(&w->r1->ln, 1));
	LOCKED(w->r2, lnet_routing_set(&w->r2->ln, 1));
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	memlnd_rules_clear();
	/* every object freed (router buffers too), every send finalized */
	assert_int_equal(memlnd_node_free(w->a), 0);
	assert_int_equal(memlnd_node_free(w->r1), 0);
	assert_int_equal(memlnd_node_free(w->r2), 0);
	assert_int_equal(memlnd_node_free(w->b), 0);
	free(w);
	return 0;
}

/* A selftest run of @count @op messages of @size to @dst, 8 in flight. */
static struct lnet_ioc_selftest run(struct memlnd_node *n, u32 op, const char *dst,
				    u32 size, u32 count)
{
	struct lnet_ioc_selftest req = {
		.sft_op = op, .sft_size = size, .sft_count = count,
		.sft_concurrency = 8, .sft_timeout_ms = 3000,
	};

	req.sft_target = memlnd_nid(dst);
	LOCKED(n, lnet_selftest_run(&n->ln, &req));
	return req;
}

static u64 routed(struct memlnd_node *n)
{
	u64 c;

	os_mutex_lock(&n->ln.ln_api_mutex);
	c = n->ln.ln_dp.dp_route_count;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return c;
}

struct routed_want {
	struct memlnd_node *n1, *n2;
	u64 want;
};

static bool routed_reached(void *arg)
{
	const struct routed_want *rw = arg;

	return routed(rw->n1) + (rw->n2 ? routed(rw->n2) : 0) >= rw->want;
}

/*
 * The routers' counts as they settle: a forwarded send counts when its
 * completion comes, which may be after the far end already has it.
 */
static void wait_routed(struct memlnd_node *n1, struct memlnd_node *n2, u64 want)
{
	struct routed_want rw = { n1, n2, want };

	assert_true(memlnd_wait(routed_reached, &rw, 3000));
	assert_int_equal(routed(n1) + (n2 ? routed(n2) : 0), want);
}

static void assert_run_ok(const struct lnet_ioc_selftest *r, u32 count)
{
	assert_int_equal(r->sft_ok, count);
	assert_int_equal(r->sft_failed, 0);
	assert_int_equal(r->sft_corrupt, 0);
}

static void test_put_get_both_ways(void **state)
{
	struct world *w = *state;
	struct lnet_ioc_selftest r;

	world_up(w, 0, 0, 0, 0);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, LNET_MTU, 20);
	assert_run_ok(&r, 20);
	r = run(w->b, LNET_SELFTEST_OP_GET, A_NID, LNET_MTU, 20);
	assert_run_ok(&r, 20);
	/* 20 PUTs + 20 ACKs + 20 GETs + 20 REPLYs, spread over both routers */
	wait_routed(w->r1, w->r2, 80);
	assert_true(routed(w->r1) > 0);
	assert_true(routed(w->r2) > 0);
}

static void test_route_priority(void **state)
{
	struct world *w = *state;
	struct lnet_ioc_selftest r;

	/* R2 is the better route both ways: it carries everything */
	world_up(w, 5, 0, 5, 0);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, 4096, 30);
	assert_run_ok(&r, 30);
	wait_routed(w->r2, NULL, 60);
	assert_int_equal(routed(w->r1), 0);
}

/* A router rule of @n's peer NI @dst: prefer the gateway @gw. */
static void prefer_router(struct memlnd_node *n, const char *dst, const char *gw)
{
	struct lnet_nid d = memlnd_nid(dst), g = memlnd_nid(gw);
	struct lnet_peer_ni *lpni;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lpni = lnet_peer_ni_get_or_create(&n->ln, &d);
	assert_non_null(lpni);
	assert_int_equal(lnet_peer_ni_set_rtr(&n->ln, lpni, &g, 1), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static void test_preferred_router(void **state)
{
	struct world *w = *state;
	struct lnet_ioc_selftest r;

	/* preferred beats priority: R1 although R2 has the better one */
	world_up(w, 5, 0, 5, 0);
	prefer_router(w->a, B_NID, R1_TCP);
	prefer_router(w->b, A_NID, R1_TCP1);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, 0, 20);
	assert_run_ok(&r, 20);
	wait_routed(w->r1, NULL, 40);
	assert_int_equal(routed(w->r2), 0);
}

static void pool(struct memlnd_node *n, u32 kind, struct lnet_rtr_pool_info *info)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	lnet_rtr_pool_info(&n->ln, kind, info);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static void test_buffers_exhausted(void **state)
{
	struct world *w = *state;
	const s32 one_large[LNET_NBUF_KINDS] = { -1, -1, 1 };
	struct lnet_rtr_pool_info info;
	struct lnet_ioc_selftest r;

	/* only R1, with one large buffer: 8 in flight queue and all complete */
	LOCKED(w->r1, lnet_buffers_set(&w->r1->ln, one_large));
	world_up(w, 0, 5, 0, 5);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, LNET_MTU, 24);
	assert_run_ok(&r, 24);
	wait_routed(w->r1, NULL, 48);
	pool(w->r1, LNET_BUF_LARGE, &info);
	assert_int_equal(info.npages, 256);
	assert_int_equal(info.nbuffers, 1);
	assert_int_equal(info.credits, 1);
	assert_true(info.min_credits < 0);	/* messages waited for it */
	pool(w->r1, LNET_BUF_TINY, &info);	/* the ACKs */
	assert_int_equal(info.npages, 0);
	assert_int_equal(info.credits, (s32)info.nbuffers);
}

/* Hand @n's NI @ni_nid a header as if its LND had read it from @from. */
static int parse_hdr(struct memlnd_node *n, const char *ni_nid, const char *from,
		     const char *src, const char *dst)
{
	struct lnet_nid id = memlnd_nid(ni_nid), f = memlnd_nid(from);
	struct memlnd_item *it = memlnd_item_new(MEMLND_RX, 0);
	struct lnet_hdr hdr = { 0 };
	struct lnet_ni *ni;
	int rc;

	hdr.src_nid = memlnd_nid(src);
	hdr.dest_nid = memlnd_nid(dst);
	hdr.type = LNET_MSG_PUT;
	hdr.src_pid = hdr.dest_pid = LNET_PID_LUSTRE;
	os_mutex_lock(&n->ln.ln_api_mutex);
	ni = lnet_ni_find(&n->ln, &id);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	assert_non_null(ni);
	rc = lnet_parse(&n->ln, ni, &hdr, &f, it);
	/* refused: no lnd_recv took it; dropped: lnd_recv(NULL) freed it */
	if (rc)
		free(it);
	else if (__atomic_add_fetch(&it->rx_refs, 1, __ATOMIC_SEQ_CST) == 2)
		free(it);
	return rc;
}

static u64 dropped(struct memlnd_node *n)
{
	u64 c;

	os_mutex_lock(&n->ln.ln_api_mutex);
	c = n->ln.ln_dp.dp_count[LNET_STATS_DROP];
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return c;
}

static void test_misrouted(void **state)
{
	struct world *w = *state;
	u64 drops = dropped(w->r1);

	/* for a NID on the net it came in on: it should have gone direct */
	assert_int_equal(parse_hdr(w->r1, R1_TCP, A_NID, A_NID, "10.21.0.9@tcp"),
			 -EPROTO);
	/* for R1's NID on another net: not how anyone reaches it */
	assert_int_equal(parse_hdr(w->r1, R1_TCP, A_NID, A_NID, R1_TCP1), -EPROTO);
	assert_int_equal(dropped(w->r1), drops);
	/* routing off on R1: dropped (not a protocol error) and counted */
	LOCKED(w->r1, lnet_routing_set(&w->r1->ln, 0));
	LOCKED(w->r1, (lnet_router_tick(&w->r1->ln, os_now_ns() + 3600ULL * 1000000000ULL), 0));
	assert_int_equal(parse_hdr(w->r1, R1_TCP, A_NID, A_NID, B_NID), 0);
	assert_int_equal(dropped(w->r1), drops + 1);
	assert_int_equal(routed(w->r1), 0);
}

static void test_routing_states(void **state)
{
	struct world *w = *state;
	struct lnet *r1 = &w->r1->ln;
	u64 now = os_now_ns();

	os_mutex_lock(&r1->ln_api_mutex);
	/* STARTING (setup) forwards but does not advertise yet */
	assert_true(r1->ln_routing == LNET_ROUTING_STARTING ||
		    r1->ln_routing == LNET_ROUTING_ENABLED);
	lnet_router_tick(r1, now + 3ULL * 1000000000ULL);
	assert_int_equal(r1->ln_routing, LNET_ROUTING_ENABLED);
	assert_int_equal(lnet_routing_set(r1, 0), 0);
	assert_int_equal(r1->ln_routing, LNET_ROUTING_STOPPING);
	assert_true(lnet_routing_forwards(r1));
	assert_false(lnet_routing_advertised(r1));
	assert_int_equal(lnet_routing_set(r1, 1), -EBUSY);
	assert_int_equal(lnet_routing_set(r1, 2), -EINVAL);
	/* not before interval + timeout (2 s) */
	lnet_router_tick(r1, r1->ln_routing_since_ns + 1000000000ULL);
	assert_int_equal(r1->ln_routing, LNET_ROUTING_STOPPING);
	/* idle pools: DISABLED once the delay passed */
	lnet_router_tick(r1, r1->ln_routing_since_ns + 2ULL * 1000000000ULL);
	assert_int_equal(r1->ln_routing, LNET_ROUTING_DISABLED);
	assert_false(lnet_routing_forwards(r1));
	assert_int_equal(lnet_routing_set(r1, 0), 0);
	assert_int_equal(lnet_routing_set(r1, 1), 0);
	assert_int_equal(r1->ln_routing, LNET_ROUTING_STARTING);
	os_mutex_unlock(&r1->ln_api_mutex);
}

static void test_no_route(void **state)
{
	struct world *w = *state;
	struct lnet_ioc_selftest r;
	struct lnet_nid nowhere;
	u64 noroute;

	os_mutex_lock(&w->a->ln.ln_api_mutex);
	noroute = w->a->ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_LOCAL_NO_ROUTE];
	os_mutex_unlock(&w->a->ln.ln_api_mutex);
	/* no route to tcp7 at all: refused at once, counted, no peer made */
	r = run(w->a, LNET_SELFTEST_OP_PUT, "10.29.0.1@tcp7", 0, 3);
	assert_int_equal(r.sft_ok, 0);
	assert_int_equal(r.sft_failed, 3);
	os_mutex_lock(&w->a->ln.ln_api_mutex);
	assert_int_equal(w->a->ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_LOCAL_NO_ROUTE],
			 noroute + 3);
	nowhere = memlnd_nid("10.29.0.1@tcp7");
	assert_null(lnet_peer_find(&w->a->ln, &nowhere));
	os_mutex_unlock(&w->a->ln.ln_api_mutex);
}

/*
 * Multi-rail behind routers: B has m3e1 10.22.0.4@tcp1 and m3e2
 * 10.23.0.4@tcp2; R1 joins tcp and tcp1, R2 tcp and tcp2. A discovers B,
 * then its sends to B's tcp1 NID use both of B's nets; with the route via
 * R1 gone they all take tcp2.
 */
static int setup_mr(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	w->a = memlnd_node_new(0);
	w->r1 = memlnd_node_new(1);
	w->r2 = memlnd_node_new(2);
	w->b = memlnd_node_new(3);
	assert_int_equal(memlnd_ni_add(w->a, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r1, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r1, "tcp1", 1), 0);
	assert_int_equal(memlnd_ni_add(w->r2, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(w->r2, "tcp2", 2), 0);
	assert_int_equal(memlnd_ni_add(w->b, "tcp1", 1), 0);
	assert_int_equal(memlnd_ni_add(w->b, "tcp2", 2), 0);
	timers(w->a);
	timers(w->r1);
	timers(w->r2);
	timers(w->b);
	LOCKED(w->r1, lnet_routing_set(&w->r1->ln, 1));
	LOCKED(w->r2, lnet_routing_set(&w->r2->ln, 1));
	*state = w;
	return 0;
}

static void test_multi_rail_behind_routers(void **state)
{
	struct world *w = *state;
	struct lnet_ping_result *res = calloc(1, sizeof(*res));
	struct lnet_nid b = memlnd_nid(B_NID), r1 = memlnd_nid(R1_TCP);
	struct lnet_ioc_selftest r;
	u32 tcp1;

	assert_true(memlnd_wait(routers_enabled, w, 5000));
	assert_int_equal(route_add(w->a, "tcp1", R1_TCP, 0), 0);
	assert_int_equal(route_add(w->a, "tcp2", R2_TCP, 0), 0);
	assert_int_equal(route_add(w->b, "tcp", R1_TCP1, 0), 0);
	assert_int_equal(route_add(w->b, "tcp", "10.23.0.3@tcp2", 0), 0);
	assert_true(memlnd_wait(routes_alive, w->a, 5000));
	assert_true(memlnd_wait(routes_alive, w->b, 5000));
	LOCKED(w->a, lnet_discover(&w->a->ln, &b, 3000, res));
	assert_true(res->multi_rail);
	assert_int_equal(res->nnids, 2);
	free(res);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, 4096, 40);
	assert_run_ok(&r, 40);
	assert_true(routed(w->r1) > 0);
	assert_true(routed(w->r2) > 0);
	/* no route to tcp1 any more: every send goes to B's tcp2 NI */
	assert_int_equal(lnet_net_parse("tcp1", &tcp1, NULL, 0), 0);
	LOCKED(w->a, lnet_route_del(&w->a->ln, tcp1, &r1));
	/* 40 PUTs and their ACKs, after the discovery's 4 messages */
	wait_routed(w->r1, w->r2, 84);
	os_mutex_lock(&w->r1->ln.ln_api_mutex);
	w->r1->ln.ln_dp.dp_route_count = 0;
	os_mutex_unlock(&w->r1->ln.ln_api_mutex);
	os_mutex_lock(&w->r2->ln.ln_api_mutex);
	w->r2->ln.ln_dp.dp_route_count = 0;
	os_mutex_unlock(&w->r2->ln.ln_api_mutex);
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, 4096, 20);
	assert_run_ok(&r, 20);
	wait_routed(w->r2, NULL, 40);
	assert_int_equal(routed(w->r1), 0);
}

/* Messages @n's NI @nid received, of any type. */
static u64 ni_received(struct memlnd_node *n, const char *nid)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_ni *ni;
	u64 c = 0;
	u32 t;

	os_mutex_lock(&n->ln.ln_api_mutex);
	ni = lnet_ni_find(&n->ln, &id);
	assert_non_null(ni);
	for (t = 0; t <= LNET_MSG_HELLO; t++)
		c += ni->ni_counters.lc_msgs[LNET_STATS_RECV][t];
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return c;
}

/*
 * A multi-rail gateway: R1 has two NIs on tcp (m1e0, m1e2) and A knows
 * both under one peer; routed traffic uses both.
 */
static void test_multi_rail_gateway(void **state)
{
	struct world *w = *state;
	struct lnet_nid r1 = memlnd_nid(R1_TCP), r1b = memlnd_nid("10.23.0.2@tcp");
	struct lnet_ioc_selftest r;
	u64 before0, before2;

	assert_int_equal(memlnd_ni_add(w->r1, "tcp", 2), 0);
	LOCKED(w->a, lnet_peer_ni_add(&w->a->ln, &r1, NULL, 0));
	LOCKED(w->a, lnet_peer_ni_add(&w->a->ln, &r1, &r1b, 0));
	world_up(w, 0, 5, 0, 5);
	before0 = ni_received(w->r1, R1_TCP);
	before2 = ni_received(w->r1, "10.23.0.2@tcp");
	r = run(w->a, LNET_SELFTEST_OP_PUT, B_NID, 4096, 40);
	assert_run_ok(&r, 40);
	wait_routed(w->r1, NULL, 80);
	assert_int_equal(routed(w->r2), 0);
	/*
	 * Both of the gateway's NIs took some of the 40 PUTs (the second
	 * gets nothing else; the first also answers A's gateway checks).
	 */
	assert_true(ni_received(w->r1, R1_TCP) > before0);
	assert_true(ni_received(w->r1, "10.23.0.2@tcp") > before2);
	assert_true(ni_received(w->r1, "10.23.0.2@tcp") - before2 < 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_put_get_both_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_priority, setup, teardown),
		cmocka_unit_test_setup_teardown(test_preferred_router, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buffers_exhausted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_misrouted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_routing_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_route, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multi_rail_behind_routers, setup_mr,
						teardown),
		cmocka_unit_test_setup_teardown(test_multi_rail_gateway, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
