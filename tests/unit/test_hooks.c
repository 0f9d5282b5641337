// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the core's hooks (kernel/core/hooks.h): which event comes
 * for which change, in which order, with the mutex held; an engine's
 * ioctl commands under the core's checks; an instance without an engine;
 * and the UDSP engine's registration (once, freed by lnet_fini()).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/hooks.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/lnd/lolnd.h"
#include "fake_if.h"

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	FAKE_IF4("eth1", 10, 0, 0, 2),
	FAKE_IF4("eth2", 10, 1, 0, 1),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)
#define TCP1	LNET_NET_ID(LNET_LND_TCP, 1)
#define TCP5	LNET_NET_ID(LNET_LND_TCP, 5)

static struct lnet_nid nid(const char *s)
{
	struct lnet_nid n;

	assert_int_equal(lnet_nid_parse(s, &n, NULL, 0), 0);
	return n;
}

/* ---- a recording engine ---------------------------------------------------- */

/* The events seen, one "<event> <object>" line each. */
static char events[2048];
static int calls;		/* handler calls of the engine's ioctl command */

static void record(struct lnet *ln, const char *what, const char *obj)
{
	size_t used = strlen(events);

	/* every hook runs with the mutex held: trylock fails */
	assert_int_not_equal(pthread_mutex_trylock(&ln->ln_api_mutex.m), 0);
	snprintf(events + used, sizeof(events) - used, "%s%s%s\n", what,
		 obj ? " " : "", obj ? obj : "");
}

/* "what net" / "what NID" for the objects the hooks are told about. */
static void record_net(struct lnet *ln, const char *what, u32 net_id)
{
	char s[LNET_NID_STR_MAX];

	assert_true(lnet_net_print(net_id, s, sizeof(s)) > 0);
	record(ln, what, s);
}

static void record_nid(struct lnet *ln, const char *what, const struct lnet_nid *nid)
{
	char s[LNET_NID_STR_MAX];

	assert_true(lnet_nid_print(nid, s, sizeof(s)) > 0);
	record(ln, what, s);
}

static void rec_net(struct lnet *ln, struct lnet_net *net)
{
	record_net(ln, "net", net->net_id);
}

static void rec_ni(struct lnet *ln, struct lnet_ni *ni)
{
	record_nid(ln, "ni", &ni->ni_nid);
}

static void rec_peer_net(struct lnet *ln, struct lnet_peer_net *lpn)
{
	record_net(ln, "peer_net", lpn->lpn_net_id);
}

static void rec_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	record_nid(ln, "peer_ni", &lpni->lpni_nid);
}

static void rec_local(struct lnet *ln)
{
	record(ln, "local_changed", NULL);
}

static void rec_unconfigure(struct lnet *ln)
{
	record(ln, "unconfigure", NULL);
}

/* lnet_fini() calls it with the mutex released. */
static void rec_release(struct lnet *ln)
{
	size_t used = strlen(events);

	assert_int_equal(pthread_mutex_trylock(&ln->ln_api_mutex.m), 0);
	pthread_mutex_unlock(&ln->ln_api_mutex.m);
	assert_ptr_equal(lnet_hooks_priv(ln), events);
	snprintf(events + used, sizeof(events) - used, "release\n");
}

static bool rec_reserved_zero(const void *buf)
{
	const struct lnet_ioc_udsp *u = buf;

	return !u->iou_flags;
}

static int rec_ioctl(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp *u = buf;

	assert_int_equal(cmd, IOC_LIBCFS_ADD_UDSP);
	assert_int_equal(len, sizeof(*u));
	assert_int_not_equal(pthread_mutex_trylock(&ln->ln_api_mutex.m), 0);
	calls++;
	u->iou_idx = 42;
	return 0;
}

static const struct lnet_ioc_cmd rec_cmds[] = {
	{ IOC_LIBCFS_ADD_UDSP, sizeof(struct lnet_ioc_udsp), true, false,
	  rec_reserved_zero, rec_ioctl },
};

static const struct lnet_hooks rec_hooks = {
	.net_added = rec_net,
	.ni_added = rec_ni,
	.peer_net_added = rec_peer_net,
	.peer_ni_added = rec_peer_ni,
	.local_changed = rec_local,
	.unconfigure = rec_unconfigure,
	.release = rec_release,
	.ioc_cmds = rec_cmds,
	.n_ioc_cmds = 1,
};

static struct lnet *rec_up(void)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	assert_non_null(ln);
	events[0] = '\0';
	calls = 0;
	lnet_init(ln);
	assert_int_equal(lnet_hooks_register(ln, &rec_hooks, events), 0);
	/* once per instance */
	assert_int_equal(lnet_hooks_register(ln, &rec_hooks, NULL), -EBUSY);
	assert_int_equal(lnet_udsp_register(ln), -EBUSY);
	assert_int_equal(lnet_lolnd_register(ln), 0);
	ln->ln_if_lookup = fake_lookup;
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_configure(ln), 0);
	return ln;
}

/* What happened since the last look, then forget it. */
static void expect_events(const char *want)
{
	assert_string_equal(events, want);
	events[0] = '\0';
}

/* ---- tests ---------------------------------------------------------------- */

static void test_events_in_order(void **state)
{
	struct lnet_nid p = nid("10.0.0.10@tcp"), p2 = nid("10.0.0.11@tcp");
	struct lnet_nid q = nid("10.1.0.10@tcp1"), gw = nid("10.0.0.100@tcp");
	struct lnet *ln = rec_up();

	expect_events("net lo\nni 0@lo\n");
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	expect_events("net tcp\nni 10.0.0.1@tcp\nlocal_changed\n");
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), 0);
	expect_events("ni 10.0.0.2@tcp\nlocal_changed\n");
	/* a refused add tells nobody */
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), -EEXIST);
	expect_events("");
	assert_int_equal(lnet_peer_ni_add(ln, &p, &p, 0), 0);
	expect_events("peer_net tcp\npeer_ni 10.0.0.10@tcp\n");
	assert_int_equal(lnet_peer_ni_add(ln, &p, &p2, 0), 0);
	expect_events("peer_ni 10.0.0.11@tcp\n");
	assert_int_equal(lnet_peer_ni_add(ln, &p, &q, 0), 0);
	expect_events("peer_net tcp1\npeer_ni 10.1.0.10@tcp1\n");
	/* a peer NI goes without an event: the engine holds no pointer */
	assert_int_equal(lnet_peer_ni_del(ln, &p, &p2, 0), 0);
	expect_events("");
	/* the gateway is a new peer, then the route changes the lists */
	assert_int_equal(lnet_route_add(ln, TCP5, &gw, 1, 0), 0);
	expect_events("peer_net tcp\npeer_ni 10.0.0.100@tcp\nlocal_changed\n");
	assert_int_equal(lnet_route_del(ln, TCP5, &gw), 0);
	expect_events("local_changed\n");
	assert_int_equal(lnet_route_add(ln, TCP5, &gw, 1, 0), 0);
	expect_events("local_changed\n");
	/* deleting the gateway takes its route: the lists change */
	assert_int_equal(lnet_peer_ni_del(ln, &gw, NULL, 0), 0);
	expect_events("local_changed\n");
	assert_int_equal(lnet_net_del(ln, TCP, "eth1"), 0);
	expect_events("local_changed\n");
	assert_int_equal(lnet_net_del(ln, TCP, NULL), 0);
	expect_events("local_changed\n");
	assert_int_equal(lnet_unconfigure(ln), 0);
	expect_events("unconfigure\n");
	assert_int_equal(ln->ln_nobjects, 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	lnet_fini(ln);
	expect_events("release\n");
	assert_null(ln->ln_hooks);
	free(ln);
}

static void ioc_udsp_init(struct lnet_ioc_udsp *u)
{
	memset(u, 0, sizeof(*u));
	u->iou_hdr.ioc_len = sizeof(*u);
	u->iou_hdr.ioc_version = LNET_IOC_VERSION;
	u->iou_idx = -1;
}

/* The engine's command gets every check of the core's own commands. */
static void test_engine_ioctl_checked(void **state)
{
	struct lnet *ln = rec_up();
	struct lnet_ioc_udsp u;

	os_mutex_unlock(&ln->ln_api_mutex);
	ioc_udsp_init(&u);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, &u, sizeof(u), true), 0);
	assert_int_equal(u.iou_idx, 42);
	assert_int_equal(calls, 1);
	/* its reserved fields, may_modify, configured: refused before it runs */
	ioc_udsp_init(&u);
	u.iou_flags = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, &u, sizeof(u), true),
			 -EINVAL);
	ioc_udsp_init(&u);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, &u, sizeof(u), false),
			 -EPERM);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_unconfigure(ln), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, &u, sizeof(u), true),
			 -ENETDOWN);
	assert_int_equal(calls, 1);
	/* a command the engine did not register is no command */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &u, sizeof(u), true),
			 -ENOTTY);
	lnet_fini(ln);
	free(ln);
}

/* Without an engine: no UDSP command, every object at its default. */
static void test_no_engine(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct lnet_nid p = nid("10.0.0.10@tcp"), me = nid("10.0.0.1@tcp");
	struct lnet_peer_ni *lpni;
	struct lnet_ioc_udsp u;
	struct lnet_ni *ni;

	assert_non_null(ln);
	lnet_init(ln);
	assert_int_equal(lnet_lolnd_register(ln), 0);
	ln->ln_if_lookup = fake_lookup;
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_configure(ln), 0);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &p, 0), 0);
	ni = lnet_ni_find(ln, &me);
	assert_non_null(ni);
	assert_int_equal(ni->ni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(ni->ni_net->net_sel_priority, LNET_PRIORITY_UNSET);
	lpni = lnet_peer_ni_find(ln, &p);
	assert_non_null(lpni);
	assert_int_equal(lpni->lpni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(lpni->lpni_npref, 0);
	assert_int_equal(lpni->lpni_nrtr, 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	ioc_udsp_init(&u);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, &u, sizeof(u), true),
			 -ENOTTY);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(ln->ln_nobjects, 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	lnet_fini(ln);
	free(ln);
}

/*
 * The UDSP engine's state lives with the instance, not with a
 * configuration: configure cycles keep it (and count no object for it),
 * lnet_fini() frees it (the sanitized build finds a leak).
 */
static void test_udsp_register(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	int cycle;

	assert_non_null(ln);
	lnet_init(ln);
	assert_int_equal(lnet_udsp_register(ln), 0);
	assert_int_equal(lnet_udsp_register(ln), -EBUSY);
	assert_int_equal(lnet_lolnd_register(ln), 0);
	assert_non_null(lnet_udsp_of(ln));
	ln->ln_if_lookup = fake_lookup;
	for (cycle = 0; cycle < 2; cycle++) {
		os_mutex_lock(&ln->ln_api_mutex);
		assert_int_equal(lnet_configure(ln), 0);
		assert_int_equal(lnet_udsp_of(ln)->us_count, 0);
		assert_int_equal(lnet_unconfigure(ln), 0);
		assert_int_equal(ln->ln_nobjects, 0);
		os_mutex_unlock(&ln->ln_api_mutex);
	}
	lnet_fini(ln);
	assert_null(ln->ln_hooks);
	assert_null(ln->ln_hooks_priv);
	free(ln);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_in_order),
		cmocka_unit_test(test_engine_ioctl_checked),
		cmocka_unit_test(test_no_engine),
		cmocka_unit_test(test_udsp_register),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
