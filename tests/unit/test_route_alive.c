// SPDX-License-Identifier: GPL-2.0-only
/*
 * Route aliveness between LNet instances joined by memlnd: A (tcp) - R
 * (tcp and tcp1) - B (tcp1). A routes tcp1 through R; the monitor pings R
 * every alive_router_check_interval (1 s here) and waits
 * router_ping_timeout (1 s) for the reply. Only aliveness is tested here,
 * not forwarding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd.h"

#define A_NID	"10.21.0.1@tcp"
#define R_NID	"10.21.0.2@tcp"		/* R on A's net */
#define R_NID1	"10.22.0.2@tcp1"	/* R on B's net */
#define B_NID	"10.22.0.3@tcp1"

/* A ping of R and its answer take a few ticks; a check cycle is 2 s. */
#define WAIT_MS	4000

struct trio {
	struct memlnd_node *a, *r, *b;
	u32 tcp1;
};

static int ioc_global(struct memlnd_node *n, u32 id, u32 value)
{
	struct lnet_ioc_global g;

	memset(&g, 0, sizeof(g));
	g.gl_hdr.ioc_len = sizeof(g);
	g.gl_hdr.ioc_version = LNET_IOC_VERSION;
	g.gl_id = id;
	g.gl_value = value;
	return lnet_ioctl(&n->ln, IOC_LIBCFS_SET_GLOBAL, &g, sizeof(g), true);
}

static int route_add(struct memlnd_node *n, const char *net, const char *gw)
{
	struct lnet_ioc_route r;

	memset(&r, 0, sizeof(r));
	r.rt_hdr.ioc_len = sizeof(r);
	r.rt_hdr.ioc_version = LNET_IOC_VERSION;
	assert_int_equal(lnet_net_parse(net, &r.rt_net, NULL, 0), 0);
	r.rt_gateway = memlnd_nid(gw);
	r.rt_hops = LNET_ROUTE_HOPS_UNSET;
	return lnet_ioctl(&n->ln, IOC_LIBCFS_ADD_ROUTE, &r, sizeof(r), true);
}

/* A's first route, as GET_ROUTE reports it. */
static struct lnet_ioc_route a_route(struct trio *t)
{
	struct lnet_ioc_route r;

	memset(&r, 0, sizeof(r));
	r.rt_hdr.ioc_len = sizeof(r);
	r.rt_hdr.ioc_version = LNET_IOC_VERSION;
	assert_int_equal(lnet_ioctl(&t->a->ln, IOC_LIBCFS_GET_ROUTE, &r, sizeof(r), false),
			 0);
	return r;
}

static bool a_route_up(void *arg)
{
	return a_route(arg).rt_state == LNET_NI_STATUS_UP;
}

static bool a_route_down(void *arg)
{
	return a_route(arg).rt_state == LNET_NI_STATUS_DOWN;
}

static bool r_advertises(void *arg)
{
	struct trio *t = arg;
	bool on;

	os_mutex_lock(&t->r->ln.ln_api_mutex);
	on = lnet_routing_advertised(&t->r->ln);
	os_mutex_unlock(&t->r->ln.ln_api_mutex);
	return on;
}

/* (No assert with a node's lock held: a failure would leave it locked.) */
static void r_routing(struct trio *t, u32 enable)
{
	int rc;

	os_mutex_lock(&t->r->ln.ln_api_mutex);
	rc = lnet_routing_set(&t->r->ln, enable);
	os_mutex_unlock(&t->r->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
}

static bool r_routing_off(void *arg)
{
	struct trio *t = arg;
	bool off;

	os_mutex_lock(&t->r->ln.ln_api_mutex);
	off = !lnet_routing_forwards(&t->r->ln);
	os_mutex_unlock(&t->r->ln.ln_api_mutex);
	return off;
}

static void checks(struct memlnd_node *n, u32 interval, u32 timeout)
{
	assert_int_equal(ioc_global(n, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, interval), 0);
	assert_int_equal(ioc_global(n, LNET_GLOBAL_ROUTER_PING_TIMEOUT, timeout), 0);
}

static int setup(void **state)
{
	struct trio *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->a = memlnd_node_new(0);
	t->r = memlnd_node_new(1);
	t->b = memlnd_node_new(2);
	assert_int_equal(memlnd_ni_add(t->a, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(t->r, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(t->r, "tcp1", 1), 0);
	assert_int_equal(memlnd_ni_add(t->b, "tcp1", 1), 0);
	checks(t->a, 1, 1);
	checks(t->r, 1, 1);
	checks(t->b, 1, 1);
	/* B's checks of R keep R's tcp1 side from going silent */
	assert_int_equal(route_add(t->b, "tcp", R_NID1), 0);
	r_routing(t, 1);
	/* STARTING: forwarding (and the ping bit) once interval + timeout passed */
	assert_true(memlnd_wait(r_advertises, t, WAIT_MS));
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct trio *t = *state;

	memlnd_rules_clear();
	assert_int_equal(memlnd_node_free(t->a), 0);
	assert_int_equal(memlnd_node_free(t->r), 0);
	assert_int_equal(memlnd_node_free(t->b), 0);
	free(t);
	return 0;
}

/* Down and multi-hop until R answered; then up and single-hop. */
static void test_route_up_after_first_check(void **state)
{
	struct trio *t = *state;
	struct lnet_ioc_route r;

	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	r = a_route(t);
	assert_int_equal(r.rt_state, LNET_NI_STATUS_DOWN);
	assert_int_equal(r.rt_type, LNET_ROUTE_MULTI_HOP);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	r = a_route(t);
	assert_int_equal(r.rt_type, LNET_ROUTE_SINGLE_HOP);
}

/* R stops routing: its ping says RTE_DISABLED, A's route goes down; back up. */
static void test_route_down_when_routing_off(void **state)
{
	struct trio *t = *state;

	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	r_routing(t, 0);
	assert_true(memlnd_wait(a_route_down, t, WAIT_MS));
	/* STOPPING refuses a new start: wait until R stopped */
	assert_true(memlnd_wait(r_routing_off, t, 2 * WAIT_MS));
	r_routing(t, 1);
	assert_true(memlnd_wait(a_route_up, t, 2 * WAIT_MS));
}

static u32 a_gateway_ni_state(struct trio *t)
{
	struct lnet_nid nid = memlnd_nid(R_NID);
	struct lnet_peer_ni *lpni;
	u32 st;

	os_mutex_lock(&t->a->ln.ln_api_mutex);
	lpni = lnet_peer_ni_find(&t->a->ln, &nid);
	st = lpni ? lpni->lpni_state : 0xffffffffU;
	os_mutex_unlock(&t->a->ln.ln_api_mutex);
	return st;
}

/* R vanishes: down within interval + timeout, its peer NI down; back after. */
static void test_route_down_when_gateway_silent(void **state)
{
	struct trio *t = *state;
	struct timespec t0, t1;
	long ms;

	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	memlnd_rule_set(R_NID, true, LNET_MSG_STATUS_OK, -1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_true(memlnd_wait(a_route_down, t, WAIT_MS));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	/* a check goes within the interval, its timeout after 1 s more */
	assert_true(ms >= 900 && ms <= 2500);
	assert_int_equal(a_gateway_ni_state(t), LNET_NI_STATUS_DOWN);
	memlnd_rules_clear();
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	assert_int_equal(a_gateway_ni_state(t), LNET_NI_STATUS_UP);
}

static u32 r_tcp1_ni_status(struct trio *t)
{
	struct lnet_nid nid = memlnd_nid(R_NID1);
	struct lnet_ni *ni;
	u32 st;

	os_mutex_lock(&t->r->ln.ln_api_mutex);
	ni = lnet_ni_find(&t->r->ln, &nid);
	st = ni ? ni->ni_status : 0xffffffffU;
	os_mutex_unlock(&t->r->ln.ln_api_mutex);
	return st;
}

/*
 * Nobody pings R on tcp1 any more (B's pings vanish): after timeout +
 * interval R's ping info shows its tcp1 NI down. With
 * avoid_asym_router_failure A's single-hop route through R is down then;
 * without it, up. R's own NI stays up (only its ping info tells).
 */
static void test_route_aarf_far_side_silent(void **state)
{
	struct trio *t = *state;

	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	memlnd_rule_set_dir(B_NID, MEMLND_FROM, true, LNET_MSG_STATUS_OK, -1);
	assert_true(memlnd_wait(a_route_down, t, 2 * WAIT_MS));
	assert_int_equal(a_route(t).rt_type, LNET_ROUTE_SINGLE_HOP);
	assert_int_equal(r_tcp1_ni_status(t), LNET_NI_STATUS_UP);
	assert_int_equal(ioc_global(t->a, LNET_GLOBAL_AVOID_ASYM_ROUTER_FAILURE, 0), 0);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	assert_int_equal(ioc_global(t->a, LNET_GLOBAL_AVOID_ASYM_ROUTER_FAILURE, 1), 0);
	assert_true(memlnd_wait(a_route_down, t, WAIT_MS));
	/* B's next ping ends the silence */
	memlnd_rules_clear();
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
}

/* R's tcp1 link goes down: its ping info says so, A's route (aarf) is down. */
static void test_route_aarf_far_link_down(void **state)
{
	struct trio *t = *state;

	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	assert_true(memlnd_wait(a_route_up, t, WAIT_MS));
	memlnd_link_set(t->r, 1, false);
	assert_true(memlnd_wait(a_route_down, t, WAIT_MS));
	memlnd_link_set(t->r, 1, true);
	assert_true(memlnd_wait(a_route_up, t, 2 * WAIT_MS));
}

/* Checks off: a route is up while its gateway's peer NI is, with no ping. */
static void test_route_no_checks(void **state)
{
	struct trio *t = *state;

	checks(t->a, 0, 1);
	memlnd_rule_set(R_NID, true, LNET_MSG_STATUS_OK, -1);
	assert_int_equal(route_add(t->a, "tcp1", R_NID), 0);
	assert_int_equal(a_route(t).rt_state, LNET_NI_STATUS_UP);
	memlnd_sleep_ms(1500);
	assert_int_equal(a_route(t).rt_state, LNET_NI_STATUS_UP);
	assert_int_equal(a_route(t).rt_type, LNET_ROUTE_MULTI_HOP);
	assert_int_equal(memlnd_rule_hits(R_NID), 0);	/* nobody pinged R */
}

/* route add: no local NI on the gateway's net; one route per gateway peer. */
static void test_route_add_refused(void **state)
{
	struct trio *t = *state;
	struct lnet_nid prim = memlnd_nid("10.21.0.9@tcp"), other = memlnd_nid("10.23.0.9@tcp");
	struct lnet_route *first;
	int rc;

	/* A is not on tcp1: it could not reach R there */
	assert_int_equal(route_add(t->a, "tcp2", R_NID1), -EHOSTUNREACH);
	os_mutex_lock(&t->a->ln.ln_api_mutex);
	first = lnet_route_nth(&t->a->ln, 0, 0);
	os_mutex_unlock(&t->a->ln.ln_api_mutex);
	assert_null(first);
	/* a multi-rail peer with two NIDs on tcp (no node answers them) */
	os_mutex_lock(&t->a->ln.ln_api_mutex);
	rc = lnet_peer_ni_add(&t->a->ln, &prim, NULL, 0);
	if (!rc)
		rc = lnet_peer_ni_add(&t->a->ln, &prim, &other, 0);
	os_mutex_unlock(&t->a->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	assert_int_equal(route_add(t->a, "tcp2", "10.21.0.9@tcp"), 0);
	/* the same gateway peer by its other NID: the route exists */
	assert_int_equal(route_add(t->a, "tcp2", "10.23.0.9@tcp"), -EEXIST);
	/* another remote net through it is another route */
	assert_int_equal(route_add(t->a, "tcp3", "10.23.0.9@tcp"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_route_up_after_first_check),
		T(test_route_down_when_routing_off),
		T(test_route_down_when_gateway_silent),
		T(test_route_aarf_far_side_silent),
		T(test_route_aarf_far_link_down),
		T(test_route_no_checks),
		T(test_route_add_refused),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
