// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the LNet core: configure/unconfigure, nets and NIs, peers,
 * the NID hash at 100k peer NIs, routes, preferred lists and the ioctl
 * entry point. Interfaces come from a fake lookup table, not the host.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../kernel/core/lnet.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/core/validate.h"
#include "../../kernel/lnd/lolnd.h"
#include "fake_if.h"

/* --- fake interfaces -------------------------------------------------------- */

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	FAKE_IF4("eth1", 10, 0, 0, 2),
	{ "eth2", 0, 4, { 10, 0, 0, 3 }, false },
	FAKE_IF4("eth0alias", 10, 0, 0, 1),	/* same address as eth0 */
	{ "v6", 0, 16, { 0x20, 0x01, 0x0d, 0xb8, [15] = 5 }, true },
	{ "noaddr", -EADDRNOTAVAIL, 0, { 0 }, true },
	/* 10.0.0.9 and 2001:db8::9: which one is the NID depends */
	{ "dual", 0, 4, { 10, 0, 0, 9 }, true, true, { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 } },
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

static int fake_name(u32 index, char *name)
{
	if (index >= FAKE_IF_COUNT(fake_ifs))
		return -ENOENT;
	snprintf(name, LNET_IFNAME_LEN, "%s", fake_ifs[index].name);
	return 0;
}

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)
#define TCP1	LNET_NET_ID(LNET_LND_TCP, 1)
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

static const struct lnet_nid zero_nid;

static const struct lnet_ni_tunables def_tun = { -1, -1, -1, -1 };

static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	assert_non_null(ln);
	fake_lnet_up(ln, fake_lookup);
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

static unsigned int count_nis(struct lnet_net *net)
{
	struct lnet_ni *ni;
	unsigned int n = 0;

	list_for_each_entry(ni, &net->net_nis, ni_list)
		n++;
	return n;
}

static unsigned int count_list(struct list_head *h)
{
	struct list_head *p;
	unsigned int n = 0;

	for (p = h->next; p != h; p = p->next)
		n++;
	return n;
}

/* --- configure / unconfigure ------------------------------------------------------ */

static void test_configure_creates_lo(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);
	struct lnet_net *net;
	struct lnet_ni *ni;

	assert_true(ln->ln_configured);
	net = list_first_entry(&ln->ln_nets, struct lnet_net, net_list);
	assert_int_equal(net->net_id, LO);
	assert_int_equal(count_nis(net), 1);
	ni = lnet_ni_find(ln, &lo);
	assert_non_null(ni);
	assert_ptr_equal(ni->ni_net, net);
	assert_int_equal(ni->ni_status, LNET_NI_STATUS_UP);
	/* lolnd came with lnet_builtin_register() (fake_lnet_up) */
	assert_non_null(ni->ni_lnd);
	assert_int_equal(ni->ni_lnd->lnd_type, LNET_LND_LO);
	assert_int_equal(ni->ni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(ni->ni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(net->net_sel_priority, LNET_PRIORITY_UNSET);
	assert_true(ln->ln_nobjects > 0);
	{
		char buf[LNET_NID_STR_MAX];

		assert_int_equal(lnet_nid_print(&ni->ni_nid, buf, sizeof(buf)), 4);
		assert_string_equal(buf, "0@lo");
	}
	/* configure again: nothing more is created */
	{
		s64 before = ln->ln_nobjects;

		assert_int_equal(lnet_configure(ln), 0);
		assert_int_equal(ln->ln_nobjects, before);
		assert_int_equal(count_list(&ln->ln_nets), 1);
	}
}

/*
 * The core registers no LND itself: an instance built without the
 * built-in parts still has 0@lo at configure, as configuration only; the
 * built-in parts register once.
 */
static void test_lo_without_lolnd(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);
	struct lnet_ni *ni;

	assert_non_null(ln);
	lnet_init(ln);
	ln->ln_if_lookup = fake_lookup;
	assert_null(lnet_lnd_find(ln, LNET_LND_LO));
	assert_int_equal(lnet_configure(ln), 0);
	ni = lnet_ni_find(ln, &lo);
	assert_non_null(ni);
	assert_int_equal(ni->ni_status, LNET_NI_STATUS_UP);
	assert_null(ni->ni_lnd);
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(lnet_builtin_register(ln), 0);
	assert_non_null(lnet_lnd_find(ln, LNET_LND_LO));
	assert_int_equal(lnet_builtin_register(ln), -EBUSY);
	assert_int_equal(lnet_lolnd_register(ln), -EEXIST);
	assert_int_equal(ln->ln_nobjects, 0);
	lnet_fini(ln);
	free(ln);
}

static void test_unconfigure_frees_everything(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 200);

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", &def_tun), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, 0), 0);
	assert_int_equal(lnet_route_add(ln, O2IB, &gw, 1, 0), 0);
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_false(ln->ln_configured);
	assert_int_equal(ln->ln_nobjects, 0);
	assert_true(list_empty(&ln->ln_nets));
	assert_true(list_empty(&ln->ln_peers));
	assert_true(list_empty(&ln->ln_routes));
	assert_null(lnet_peer_find(ln, &p));
	/* unconfigure when down: 0; configure again gives a fresh lo */
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(lnet_configure(ln), 0);
	assert_int_equal(count_list(&ln->ln_nets), 1);
	assert_null(lnet_net_find(ln, TCP));
}

/* --- nets and NIs ------------------------------------------------------------------- */

static void test_ni_add_defaults(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid nid = nid4(TCP, 10, 0, 0, 1);
	struct lnet_ni *ni;

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", &def_tun), 0);
	ni = lnet_ni_find(ln, &nid);
	assert_non_null(ni);
	assert_string_equal(ni->ni_ifname, "eth0");
	assert_int_equal(ni->ni_net->net_id, TCP);
	{
		char buf[LNET_NID_STR_MAX];

		assert_int_equal(lnet_nid_print(&ni->ni_nid, buf, sizeof(buf)), 12);
		assert_string_equal(buf, "10.0.0.1@tcp");
	}
	assert_int_equal(ni->ni_tun.peer_timeout, LNET_TUN_PEER_TIMEOUT_DEF);
	assert_int_equal(ni->ni_tun.peer_credits, LNET_TUN_PEER_CREDITS_DEF);
	assert_int_equal(ni->ni_tun.peer_buffer_credits, LNET_TUN_PEER_BUFFER_CREDITS_DEF);
	assert_int_equal(ni->ni_tun.credits, LNET_TUN_CREDITS_DEF);
	assert_int_equal(ni->ni_tx_credits, LNET_TUN_CREDITS_DEF);
	assert_int_equal(ni->ni_status, LNET_NI_STATUS_UP);
	assert_int_equal(ni->ni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(ni->ni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(ni->ni_net->net_sel_priority, LNET_PRIORITY_UNSET);
	/* the net after lo, in creation order */
	assert_ptr_equal(list_last_entry(&ln->ln_nets, struct lnet_net, net_list),
			 ni->ni_net);
	/* NULL tunables = all defaults */
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), 0);
	assert_int_equal(count_nis(lnet_net_find(ln, TCP)), 2);
}

static void test_ni_add_values(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ni_tunables t = { 0, 1024, 16384, 65536 };
	struct lnet_nid n2 = nid4(TCP1, 10, 0, 0, 3);
	struct lnet_nid n6;
	u8 a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 5 };
	struct lnet_ni *ni;

	assert_int_equal(lnet_ni_add(ln, TCP1, "eth2", &t), 0);
	ni = lnet_ni_find(ln, &n2);
	assert_non_null(ni);
	assert_int_equal(ni->ni_status, LNET_NI_STATUS_DOWN);	/* link down */
	assert_int_equal(ni->ni_tun.peer_timeout, 0);
	assert_int_equal(ni->ni_tun.peer_credits, 1024);
	assert_int_equal(ni->ni_tun.peer_buffer_credits, 16384);
	assert_int_equal(ni->ni_tun.credits, 65536);
	assert_int_equal(ni->ni_tx_credits, 65536);

	memset(&n6, 0, sizeof(n6));
	lnet_nid_make(&n6, O2IB, a6, 16);
	assert_int_equal(lnet_ni_add(ln, O2IB, "v6", NULL), 0);
	ni = lnet_ni_find(ln, &n6);
	assert_non_null(ni);
	assert_int_equal(ni->ni_nid.nid_addr_len, 16);
}

static void test_ni_add_errors(void **state)
{
	struct lnet *ln = *state;
	s64 objs;

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	objs = ln->ln_nobjects;
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), -EEXIST);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0alias", NULL), -EADDRINUSE);
	assert_int_equal(lnet_ni_add(ln, TCP, "nosuch", NULL), -ENODEV);
	assert_int_equal(lnet_ni_add(ln, TCP1, "nosuch", NULL), -ENODEV);
	assert_int_equal(lnet_ni_add(ln, TCP, "noaddr", NULL), -EADDRNOTAVAIL);
	assert_int_equal(lnet_ni_add(ln, LO, "eth1", NULL), -EINVAL);
	assert_int_equal(lnet_ni_add(ln, LNET_NET_ID(LNET_LND_GNI, 0), "eth1", NULL),
			 -EINVAL);
	assert_int_equal(lnet_ni_add(ln, LNET_NET_ID(77, 0), "eth1", NULL), -EINVAL);
	assert_int_equal(lnet_ni_add(ln, TCP, "", NULL), -EINVAL);
	assert_int_equal(lnet_ni_add(ln, TCP, "a23456789012345x", NULL), -EINVAL);
	assert_int_equal(ln->ln_nobjects, objs);
	assert_null(lnet_net_find(ln, TCP1));
}

static void test_ni_add_peer_nid(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 2);

	/* 10.0.0.2@tcp is a peer's NID: eth1 cannot take it on tcp */
	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, 0), 0);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), -EADDRINUSE);
	assert_null(lnet_net_find(ln, TCP));
	/* on another net it is another NID */
	assert_int_equal(lnet_ni_add(ln, TCP1, "eth1", NULL), 0);
}

static void test_os_if_lookup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct os_ifaddr a;

	assert_non_null(ln);
	lnet_init(ln);
	assert_ptr_equal(ln->ln_if_lookup, os_if_lookup);
	lnet_fini(ln);
	free(ln);
	/* every namespace has lo, and its addresses are never NIDs */
	assert_int_equal(os_if_lookup("lo", &a), -EADDRNOTAVAIL);
	assert_int_equal(os_if_lookup("nosuchif7", &a), -ENODEV);
	assert_int_equal(os_if_lookup("", &a), -ENODEV);
	assert_int_equal(os_if_lookup("a23456789012345678", &a), -ENODEV);
}

/* Count the lines of @f that contain @what, then empty @f. */
static int log_count(FILE *f, const char *what)
{
	char line[512];
	int n = 0;

	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			n++;
	rewind(f);
	assert_int_equal(ftruncate(fileno(f), 0), 0);
	return n;
}

static void log_site(int i)
{
	os_warn_ratelimited("refused %d\n", i);
}

/*
 * Debug lines show only once asked for; a rate-limited call site logs its
 * first OS_RATELIMIT_BURST lines of an interval, drops the rest, and
 * counts them when it logs again in the next interval.
 */
static void test_os_log_levels(void **state)
{
	FILE *saved = os_log_file, *f = tmpfile();
	struct os_ratelimit rl = { 0 };
	int i;

	assert_non_null(f);
	os_log_file = f;
	os_debug("hidden %d\n", 1);
	assert_int_equal(log_count(f, "hidden"), 0);
	os_log_max = OS_LOG_DEBUG;
	os_debug("shown %d\n", 2);
	os_log_max = OS_LOG_INFO;
	assert_int_equal(log_count(f, "Z debug shown 2"), 1);
	for (i = 0; i < OS_RATELIMIT_BURST + 5; i++)
		log_site(i);
	assert_int_equal(log_count(f, " warn refused "), OS_RATELIMIT_BURST);
	/* the same, on a limit of our own, with the interval's end moved back */
	for (i = 0; i < OS_RATELIMIT_BURST + 3; i++)
		assert_int_equal(os_ratelimit_ok(&rl), i < OS_RATELIMIT_BURST);
	assert_int_equal(log_count(f, "suppressed"), 0);
	rl.rl_begin_ns -= OS_RATELIMIT_INTERVAL_NS;
	assert_true(os_ratelimit_ok(&rl));
	assert_int_equal(log_count(f, " warn 3 similar lines suppressed"), 1);
	os_log_file = saved;
	fclose(f);
}

static void test_ni_add_tunable_ranges(void **state)
{
	struct lnet *ln = *state;
	static const struct lnet_ni_tunables bad[] = {
		{ -2, -1, -1, -1 }, { 86401, -1, -1, -1 },
		{ -1, 0, -1, -1 }, { -1, 1025, -1, -1 },
		{ -1, -1, -2, -1 }, { -1, -1, 16385, -1 },
		{ -1, -1, -1, 0 }, { -1, -1, -1, 65537 },
	};
	struct lnet_ni_tunables ok = { 86400, 1, 0, 1 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(lnet_ni_add(ln, TCP, "eth0", &bad[i]), -EINVAL);
	assert_null(lnet_net_find(ln, TCP));
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", &ok), 0);
}

static void test_net_del(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid n0 = nid4(TCP, 10, 0, 0, 1);
	s64 objs = ln->ln_nobjects;

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP1, "eth2", NULL), 0);
	assert_int_equal(lnet_net_del(ln, O2IB, NULL), -ENOENT);
	assert_int_equal(lnet_net_del(ln, TCP, "eth2"), -ENOENT);
	assert_int_equal(lnet_net_del(ln, LO, NULL), -EINVAL);
	assert_int_equal(lnet_net_del(ln, LO, ""), -EINVAL);
	/* one NI */
	assert_int_equal(lnet_net_del(ln, TCP, "eth0"), 0);
	assert_null(lnet_ni_find(ln, &n0));
	assert_int_equal(count_nis(lnet_net_find(ln, TCP)), 1);
	/* the last NI takes the net with it */
	assert_int_equal(lnet_net_del(ln, TCP, "eth1"), 0);
	assert_null(lnet_net_find(ln, TCP));
	/* the whole net */
	assert_int_equal(lnet_net_del(ln, TCP1, ""), 0);
	assert_null(lnet_net_find(ln, TCP1));
	assert_int_equal(count_list(&ln->ln_nets), 1);
	assert_int_equal(ln->ln_nobjects, objs);
}

/* --- peers ------------------------------------------------------------------------------- */

static void test_peer_mr(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid n1 = nid4(TCP, 10, 0, 0, 101);
	struct lnet_nid n2 = nid4(O2IB, 10, 1, 0, 100);
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n2, 0), 0);
	lp = lnet_peer_find(ln, &n2);
	assert_non_null(lp);
	assert_ptr_equal(lnet_peer_find(ln, &p), lp);
	assert_true(lnet_nid_equal(&lp->lp_primary_nid, &p));
	assert_int_equal(lp->lp_nnis, 3);
	assert_int_equal(lp->lp_flags, 0);
	assert_int_equal(count_list(&lp->lp_peer_nets), 2);
	assert_int_equal(ln->ln_npeer_nis, 3);
	lpni = lnet_peer_ni_find(ln, &n1);
	assert_non_null(lpni);
	assert_int_equal(lpni->lpni_peer_net->lpn_net_id, TCP);
	assert_int_equal(count_list(&lpni->lpni_peer_net->lpn_peer_nis), 2);
	assert_int_equal(lpni->lpni_health.lh_value, LNET_MAX_HEALTH);
	assert_int_equal(lpni->lpni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(lpni->lpni_npref, 0);
	assert_int_equal(lpni->lpni_nrtr, 0);
	assert_int_equal(lpni->lpni_max_tx_credits, LNET_TUN_PEER_CREDITS_DEF);
	/* peer alone again: same flags is fine, other flags are not */
	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &zero_nid, LNET_PEER_F_LOCK_PRIM),
			 -EEXIST);
	/* the same NI twice; a secondary NID as another peer's primary */
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, 0), -EEXIST);
	assert_int_equal(lnet_peer_ni_add(ln, &n1, NULL, 0), -EEXIST);
	/* delete a secondary NI: its peer net goes when empty */
	assert_int_equal(lnet_peer_ni_del(ln, &p, &n2, 0), 0);
	assert_null(lnet_peer_ni_find(ln, &n2));
	assert_int_equal(lp->lp_nnis, 2);
	assert_int_equal(count_list(&lp->lp_peer_nets), 1);
	/* the peer exists, the NID is not its NI (any more) */
	assert_int_equal(lnet_peer_ni_del(ln, &p, &n2, 0), -ENXIO);
}

static void test_peer_non_mr(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid q = nid4(TCP, 10, 0, 0, 50);
	struct lnet_nid n1 = nid4(TCP, 10, 0, 0, 101);
	s64 objs = ln->ln_nobjects;

	/* created with a second NID: refused, nothing created */
	assert_int_equal(lnet_peer_ni_add(ln, &q, &n1, LNET_PEER_F_NON_MR), -EINVAL);
	assert_null(lnet_peer_find(ln, &q));
	assert_int_equal(ln->ln_nobjects, objs);

	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, LNET_PEER_F_NON_MR), 0);
	assert_int_equal(lnet_peer_find(ln, &p)->lp_flags, LNET_PEER_F_NON_MR);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, 0), -EMLINK);
	assert_null(lnet_peer_ni_find(ln, &n1));
	assert_int_equal(lnet_peer_find(ln, &p)->lp_nnis, 1);
}

static void test_peer_lock_prim(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid n1 = nid4(TCP, 10, 0, 0, 101);
	s64 objs = ln->ln_nobjects;

	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, LNET_PEER_F_LOCK_PRIM), 0);
	assert_int_equal(lnet_peer_find(ln, &p)->lp_flags, LNET_PEER_F_LOCK_PRIM);
	/* EBUSY: not EPERM, which says the caller may not modify at all */
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, 0), -EBUSY);
	assert_int_equal(lnet_peer_ni_del(ln, &p, &p, 0), -EBUSY);
	/* through a secondary NID, the primary is still locked */
	assert_int_equal(lnet_peer_ni_del(ln, &n1, NULL, 0), -EBUSY);
	assert_non_null(lnet_peer_find(ln, &p));
	/* a non-primary NI may go */
	assert_int_equal(lnet_peer_ni_del(ln, &p, &n1, 0), 0);
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, LNET_PEER_F_NON_MR), -EINVAL);
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, LNET_PEER_F_FORCE), 0);
	assert_null(lnet_peer_find(ln, &p));
	assert_int_equal(ln->ln_nobjects, objs);
}

static void test_peer_delete_primary(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid n1 = nid4(TCP, 10, 0, 0, 101);
	struct lnet_nid n2 = nid4(TCP1, 10, 0, 0, 102);
	s64 objs = ln->ln_nobjects;

	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n2, 0), 0);
	assert_int_equal(lnet_peer_ni_del(ln, &p, &p, 0), 0);
	assert_null(lnet_peer_find(ln, &p));
	assert_null(lnet_peer_ni_find(ln, &n1));
	assert_null(lnet_peer_ni_find(ln, &n2));
	assert_int_equal(ln->ln_npeer_nis, 0);
	assert_true(list_empty(&ln->ln_peers));
	assert_int_equal(ln->ln_nobjects, objs);
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, 0), -ENOENT);
}

static void test_peer_nid_rules(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid b = nid4(TCP, 10, 0, 0, 200);
	struct lnet_nid x = nid4(TCP, 10, 0, 0, 101);
	struct lnet_nid local = nid4(TCP, 10, 0, 0, 1);
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);
	struct lnet_ni_tunables t = { -1, 16, -1, -1 };

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", &t), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &a, &x, 0), 0);
	/* x belongs to a: not to b too */
	assert_int_equal(lnet_peer_ni_add(ln, &b, &x, 0), -EEXIST);
	assert_null(lnet_peer_find(ln, &b));
	/*
	 * our own NID is no other node's (EADDRINUSE); it makes this node
	 * its own peer, which takes no other node's NID; lo is never a peer NID
	 */
	assert_int_equal(lnet_peer_ni_add(ln, &a, &local, 0), -EADDRINUSE);
	assert_int_equal(lnet_peer_ni_add(ln, &local, NULL, 0), 0);
	assert_true(lnet_peer_find(ln, &local)->lp_self);
	assert_int_equal(lnet_peer_ni_add(ln, &local, &b, 0), -EADDRINUSE);
	assert_null(lnet_peer_find(ln, &b));
	assert_int_equal(lnet_peer_ni_del(ln, &local, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &lo, NULL, 0), -EINVAL);
	assert_int_equal(lnet_peer_ni_add(ln, &a, &lo, 0), -EINVAL);
	assert_int_equal(lnet_peer_ni_add(ln, &zero_nid, &a, 0), -EINVAL);
	assert_int_equal(lnet_peer_ni_add(ln, &b, NULL, LNET_PEER_F_FORCE), -EINVAL);
	assert_int_equal(lnet_peer_ni_add(ln, &b, NULL, 1U << 3), -EINVAL);
	/* a NID of another peer is not that peer's NI to delete */
	assert_int_equal(lnet_peer_ni_add(ln, &b, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_del(ln, &b, &x, 0), -ENXIO);
	assert_non_null(lnet_peer_ni_find(ln, &x));
	/* the local net's peer_credits gives the peer NI's credits */
	assert_int_equal(lnet_peer_ni_find(ln, &x)->lpni_max_tx_credits, 16);
	assert_int_equal(lnet_peer_ni_find(ln, &x)->lpni_tx_credits, 16);
	/* router credits: peer_buffer_credits (0 here), else peer_credits */
	assert_int_equal(lnet_peer_ni_find(ln, &x)->lpni_rtr_credits, 16);
	assert_int_equal(lnet_peer_ni_find(ln, &x)->lpni_min_rtr_credits, 16);
}

static void test_peer_max_nis(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 1, 0);
	struct lnet_nid n;
	unsigned int i;

	for (i = 1; i < LNET_PEER_MAX_NIS; i++) {
		n = nid4(TCP, 10, 0, 1, (u8)i);
		assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
	}
	assert_int_equal(lnet_peer_find(ln, &p)->lp_nnis, LNET_PEER_MAX_NIS);
	n = nid4(TCP, 10, 0, 1, 200);
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), -ENOSPC);
	assert_null(lnet_peer_ni_find(ln, &n));
}

/* --- hash ---------------------------------------------------------------------------------- */

#define MANY_PEER_NIS 100000U

static struct lnet_nid many_nid(u32 i)
{
	return nid4(TCP, 10, (u8)(i >> 16), (u8)(i >> 8), (u8)i);
}

static void test_hash_100k(void **state)
{
	struct lnet *ln = *state;
	u32 i, max_chain = 0;
	struct lnet_nid nid, prim;

	/* 1,000 peers with 100 NIs each */
	for (i = 0; i < MANY_PEER_NIS; i++) {
		prim = many_nid(i - i % 100);
		nid = many_nid(i);
		assert_int_equal(lnet_peer_ni_add(ln, &prim, &nid, 0), 0);
	}
	assert_int_equal(ln->ln_npeer_nis, MANY_PEER_NIS);
	assert_int_equal(count_list(&ln->ln_peers), MANY_PEER_NIS / 100);
	/* grown x2 each time n > size: the first power of two >= n */
	assert_int_equal(ln->ln_lpni_hash_size, 131072);
	for (i = 0; i < MANY_PEER_NIS; i++) {
		struct lnet_peer_ni *lpni;

		nid = many_nid(i);
		lpni = lnet_peer_ni_find(ln, &nid);
		assert_non_null(lpni);
		assert_true(lnet_nid_equal(&lpni->lpni_nid, &nid));
		prim = many_nid(i - i % 100);
		assert_true(lnet_nid_equal(&lpni->lpni_peer_net->lpn_peer->lp_primary_nid,
					   &prim));
	}
	for (i = 0; i < ln->ln_lpni_hash_size; i++) {
		struct lnet_peer_ni *p;
		u32 n = 0;

		for (p = ln->ln_lpni_hash[i]; p; p = p->lpni_hnext)
			n++;
		if (n > max_chain)
			max_chain = n;
	}
	/* load <= 1 with a well mixed hash: chains stay short */
	assert_true(max_chain <= 16);
	nid = many_nid(MANY_PEER_NIS);
	assert_null(lnet_peer_ni_find(ln, &nid));
	/* removal keeps the rest findable */
	nid = many_nid(150);
	assert_int_equal(lnet_peer_ni_del(ln, &nid, NULL, 0), 0);
	for (i = 100; i < 200; i++) {
		nid = many_nid(i);
		assert_null(lnet_peer_ni_find(ln, &nid));
	}
	nid = many_nid(200);
	assert_non_null(lnet_peer_ni_find(ln, &nid));
	assert_int_equal(ln->ln_npeer_nis, MANY_PEER_NIS - 100);
}

/* --- routes ----------------------------------------------------------------------------------- */

static void test_routes(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid n1 = nid4(TCP, 10, 0, 0, 101);
	struct lnet_route *r;
	struct lnet_peer *lp;

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	assert_int_equal(lnet_route_add(ln, O2IB, &gw, 2, 7), 0);
	lp = lnet_peer_find(ln, &gw);
	assert_non_null(lp);
	assert_int_equal(lp->lp_flags, LNET_PEER_F_NON_MR);
	r = list_first_entry(&ln->ln_routes, struct lnet_route, lr_list);
	assert_int_equal(r->lr_net, O2IB);
	assert_ptr_equal(r->lr_gateway, lp);
	assert_int_equal(r->lr_hops, 2);
	assert_int_equal(r->lr_priority, 7);
	assert_int_equal(lnet_route_add(ln, O2IB, &gw, 1, 0), -EEXIST);
	/* a local net needs no route */
	assert_int_equal(lnet_route_add(ln, TCP, &gw, 1, 0), -EISCONN);
	/* an existing MR peer may be a gateway as it is */
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n1, 0), 0);
	assert_int_equal(lnet_route_add(ln, TCP1, &n1, 1, 0), 0);
	assert_int_equal(lnet_peer_find(ln, &p)->lp_flags, 0);
	assert_int_equal(count_list(&ln->ln_routes), 2);
	/* del */
	assert_int_equal(lnet_route_del(ln, O2IB, &p), -ENOENT);
	assert_int_equal(lnet_route_del(ln, O2IB, &gw), 0);
	assert_int_equal(lnet_route_del(ln, O2IB, &gw), -ENOENT);
	assert_non_null(lnet_peer_find(ln, &gw));	/* the peer stays */
	/* deleting a gateway peer drops its routes */
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, 0), 0);
	assert_true(list_empty(&ln->ln_routes));
}

/* --- preferred lists ------------------------------------------------------------------------- */

static void test_pref_lists(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid l[3] = { nid4(TCP, 10, 0, 0, 1), nid4(TCP, 10, 0, 0, 2),
				 nid4(TCP, 10, 0, 0, 3) };
	struct lnet_peer_ni *lpni;
	s64 objs;

	assert_int_equal(lnet_peer_ni_add(ln, &p, NULL, 0), 0);
	lpni = lnet_peer_ni_find(ln, &p);
	objs = ln->ln_nobjects;
	assert_int_equal(lnet_peer_ni_set_pref(ln, lpni, l, 2), 0);
	assert_int_equal(lpni->lpni_npref, 2);
	assert_true(lnet_nid_equal(&lpni->lpni_pref_nids[1], &l[1]));
	assert_int_equal(lnet_peer_ni_set_pref(ln, lpni, &l[2], 1), 0);
	assert_int_equal(lpni->lpni_npref, 1);
	assert_true(lnet_nid_equal(&lpni->lpni_pref_nids[0], &l[2]));
	assert_int_equal(lnet_peer_ni_set_pref(ln, lpni, NULL, 0), 0);
	assert_int_equal(lpni->lpni_npref, 0);
	assert_int_equal(lnet_peer_ni_set_rtr(ln, lpni, l, 3), 0);
	assert_int_equal(lpni->lpni_nrtr, 3);
	assert_true(lnet_nid_equal(&lpni->lpni_rtr_nids[2], &l[2]));
	assert_true(ln->ln_nobjects > objs);
	/* freed with the peer NI */
	assert_int_equal(lnet_peer_ni_del(ln, &p, NULL, 0), 0);
	assert_int_equal(ln->ln_nobjects, objs - 3);
}

/* --- ioctl --------------------------------------------------------------------------------------- */

static void ioc_hdr(struct lnet_ioc_hdr *h, u32 len)
{
	h->ioc_len = len;
	h->ioc_version = LNET_IOC_VERSION;
}

static struct lnet_ioc_ni ioc_ni(u32 net, const char *ifname, u32 index)
{
	struct lnet_ioc_ni n;

	memset(&n, 0, sizeof(n));
	ioc_hdr(&n.ni_hdr, sizeof(n));
	n.ni_net = net;
	n.ni_index = index;
	if (ifname)
		strcpy(n.ni_ifname, ifname);
	n.ni_tun.peer_timeout = -1;
	n.ni_tun.peer_credits = -1;
	n.ni_tun.peer_buffer_credits = -1;
	n.ni_tun.credits = -1;
	return n;
}

static struct lnet_ioc_peer ioc_peer(const struct lnet_nid *prim,
				     const struct lnet_nid *nid, u32 flags,
				     u32 index)
{
	struct lnet_ioc_peer p;

	memset(&p, 0, sizeof(p));
	ioc_hdr(&p.pr_hdr, sizeof(p));
	if (prim)
		p.pr_prim_nid = *prim;
	if (nid)
		p.pr_nid = *nid;
	p.pr_flags = flags;
	p.pr_index = index;
	return p;
}

static int ioc_config(struct lnet *ln, unsigned int cmd, bool may_modify)
{
	struct lnet_ioc_config c;

	memset(&c, 0, sizeof(c));
	ioc_hdr(&c.cfg_hdr, sizeof(c));
	return lnet_ioctl(ln, cmd, &c, sizeof(c), may_modify);
}

static void test_ioctl_framing(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n = ioc_ni(TCP, "eth0", 0);
	struct {
		struct lnet_ioc_ni n;
		u8 extra[8];
	} big;

	/* shorter than the header, length disagreeing with ioc_len */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, 4, true), -EINVAL);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n) - 4, true),
			 -EINVAL);
	n.ni_hdr.ioc_len = 4;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, 4, true), -EINVAL);
	n.ni_hdr.ioc_len = LNET_IOC_MAX_LEN + 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, LNET_IOC_MAX_LEN + 1,
				    true), -EINVAL);
	/* header only: shorter than the command's structure */
	n.ni_hdr.ioc_len = sizeof(struct lnet_ioc_hdr);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n,
				    sizeof(struct lnet_ioc_hdr), true), -EINVAL);
	/* version */
	n = ioc_ni(TCP, "eth0", 0);
	n.ni_hdr.ioc_version = LNET_IOC_VERSION + 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), true),
			 -EPROTO);
	/* unknown command; known number with the wrong size */
	n = ioc_ni(TCP, "eth0", 0);
	assert_int_equal(lnet_ioctl(ln, _IOWR(LNET_IOC_TYPE, 87, struct lnet_ioc_ni),
				    &n, sizeof(n), true), -ENOTTY);
	assert_int_equal(lnet_ioctl(ln, _IOWR(LNET_IOC_TYPE, 86, struct lnet_ioc_peer),
				    &n, sizeof(n), true), -ENOTTY);
	/* a longer buffer is fine */
	memset(&big, 0, sizeof(big));
	big.n = ioc_ni(0, NULL, 0);
	big.n.ni_hdr.ioc_len = sizeof(big);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &big, sizeof(big), false), 0);
}

/*
 * ADD_NET's ni_nid (the NID the interface must make: ENXIO otherwise,
 * nothing added), ni_lnd_tun with LNET_NI_F_LND_TUN (refused on o2ib and
 * out of range; GET_NET reports the values in force), and GET_IF.
 */
static void test_ioctl_ni_nid_lnd(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n = ioc_ni(TCP, "eth1", 0);
	struct lnet_ioc_if f;
	u32 i;

	n.ni_nid = nid4(TCP, 10, 0, 0, 1);	/* eth0's address */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -ENXIO);
	assert_null(lnet_net_find(ln, TCP));
	n.ni_nid = nid4(TCP, 10, 0, 0, 2);
	n.ni_flags = LNET_NI_F_LND_TUN;
	lnet_sock_tunables_unset(&n.ni_lnd_tun);
	n.ni_lnd_tun.tos = 256;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
	n.ni_lnd_tun.tos = 8;
	n.ni_lnd_tun.conns_per_peer = 0;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	n = ioc_ni(O2IB, "eth0", 0);
	n.ni_flags = LNET_NI_F_LND_TUN;
	lnet_sock_tunables_unset(&n.ni_lnd_tun);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
	n.ni_flags = 0;
	memset(&n.ni_lnd_tun, 0, sizeof(n.ni_lnd_tun));	/* not read without the flag */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);

	n = ioc_ni(TCP, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_int_equal(n.ni_flags, LNET_NI_F_LND_TUN | LNET_NI_F_LND_TIMEOUT_DEF);
	assert_int_equal(n.ni_lnd_tun.conns_per_peer, 1);	/* 0: the LND's choice */
	assert_int_equal(n.ni_lnd_tun.tos, 8);
	assert_int_equal(n.ni_lnd_tun.timeout, 49);		/* (150 - 1) / (2 + 1) */
	n = ioc_ni(O2IB, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_int_equal(n.ni_flags, 0);
	assert_int_equal(n.ni_lnd_tun.tos, -1);

	ln->ln_if_name = fake_name;
	for (i = 0;; i++) {
		memset(&f, 0, sizeof(f));
		ioc_hdr(&f.if_hdr, sizeof(f));
		f.if_index = i;
		if (lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false))
			break;
		assert_string_equal(f.if_name, fake_ifs[i].name);
		assert_int_equal(f.if_addr_len, fake_ifs[i].rc ? 0 : fake_ifs[i].len);
		assert_memory_equal(f.if_addr, fake_ifs[i].addr, f.if_addr_len);
		assert_int_equal(f.if_status, !fake_ifs[i].rc && fake_ifs[i].up ?
				 LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN);
	}
	assert_int_equal(i, FAKE_IF_COUNT(fake_ifs));
	f.if_index = 0;
	f.if_reserved[2] = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), -EINVAL);
}

/* A SET_NI_LND request of @rows with every value -1, for the NIs of @net / @nid. */
static struct lnet_ioc_ni ioc_set_lnd(u32 net, const struct lnet_nid *nid, u32 rows)
{
	struct lnet_ioc_ni n;

	memset(&n, 0, sizeof(n));
	ioc_hdr(&n.ni_hdr, sizeof(n));
	n.ni_net = net;
	if (nid)
		n.ni_nid = *nid;
	n.ni_flags = LNET_NI_F_LND_TUN | rows;
	lnet_sock_tunables_unset(&n.ni_lnd_tun);
	return n;
}

/* The LND timeout the socket LND reads at its next send, in seconds. */
static u64 lnd_timeout_s(struct lnet *ln, struct lnet_nid nid)
{
	return lnet_ni_lnd_timeout_ns(ln, lnet_ni_find(ln, &nid)) / 1000000000ULL;
}

/*
 * SET_NI_LND: one NI, a net's, every tcp NI; all or nothing; -1 back to
 * the default (the timeout follows the global one again).
 */
static void test_ioctl_set_ni_lnd(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(TCP, 10, 0, 0, 1), b = nid4(TCP, 10, 0, 0, 2);
	struct lnet_nid c = nid4(TCP1, 10, 0, 0, 1), o = nid4(O2IB, 10, 0, 0, 1);
	const u32 tmo = LNET_NI_LND_ROW(LNET_SOCK_TIMEOUT), tos = LNET_NI_LND_ROW(LNET_SOCK_TOS);
	const u32 cpp = LNET_NI_LND_ROW(LNET_SOCK_CONNS_PER_PEER);
	struct lnet_ioc_ni n;

	n = ioc_ni(TCP, "eth0", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	n = ioc_ni(TCP, "eth1", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	n = ioc_ni(TCP1, "eth0", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	n = ioc_ni(O2IB, "eth0", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);

	n = ioc_set_lnd(0, &a, tmo);
	n.ni_lnd_tun.timeout = 7;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), 0);
	assert_int_equal(lnd_timeout_s(ln, a), 7);
	assert_int_equal(lnd_timeout_s(ln, b), 49);

	/* refused: nothing changes */
	n = ioc_set_lnd(TCP, NULL, tmo);
	n.ni_lnd_tun.timeout = 0;				/* out of range */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(TCP, NULL, 0);				/* no row */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(TCP, NULL, tmo | 1U << 20);		/* unknown flag */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(TCP, NULL, tmo);
	n.ni_index = 1;						/* not a field it takes */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(O2IB, NULL, tmo);			/* not tcp */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(0, &o, tmo);
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(TCP1, &a, tmo);				/* --net not the NID's */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -EINVAL);
	n = ioc_set_lnd(0, &(struct lnet_nid){ 0 }, tmo);
	n.ni_nid = nid4(TCP, 10, 0, 0, 9);			/* not ours */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -ENOENT);
	n = ioc_set_lnd(LNET_NET_ID(LNET_LND_TCP, 5), NULL, tmo);	/* no NI */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), -ENOENT);
	assert_int_equal(lnd_timeout_s(ln, a), 7);
	assert_int_equal(lnd_timeout_s(ln, b), 49);

	/* a net's NIs, then every tcp NI: 0 conns per peer is the LND's one */
	n = ioc_set_lnd(TCP, NULL, tos | cpp);
	n.ni_lnd_tun.tos = 4;
	n.ni_lnd_tun.conns_per_peer = 0;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), 0);
	assert_int_equal(lnet_ni_find(ln, &b)->ni_lnd_tun.tos, 4);
	assert_int_equal(lnet_ni_find(ln, &b)->ni_lnd_tun.conns_per_peer, 1);
	assert_int_equal(lnet_ni_find(ln, &c)->ni_lnd_tun.tos, -1);
	n = ioc_set_lnd(0, NULL, tmo);				/* -1: the default again */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SET_NI_LND, &n, sizeof(n), true), 0);
	assert_int_equal(lnd_timeout_s(ln, a), 49);
	assert_int_equal(lnet_ni_find(ln, &a)->ni_lnd_tun.tos, 4);	/* a row not named */
	assert_int_equal(lnet_ni_find(ln, &o)->ni_lnd_tun.timeout, -1);
}

static void test_ioctl_reserved(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n = ioc_ni(TCP, "eth0", 0);
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_ioc_peer pr = ioc_peer(&p, NULL, 0, 0);
	struct lnet_ioc_config c;

	n.ni_flags = 1U << 7;	/* no such flag */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
	assert_null(lnet_net_find(ln, TCP));
	n = ioc_ni(TCP, "eth0", 0);
	n.ni_pad = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
	assert_null(lnet_net_find(ln, TCP));
	pr.pr_pad = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &pr, sizeof(pr), true),
			 -EINVAL);
	pr = ioc_peer(&p, NULL, 0, 0);
	pr.pr_reserved[0] = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &pr, sizeof(pr), true),
			 -EINVAL);
	assert_null(lnet_peer_find(ln, &p));
	memset(&c, 0, sizeof(c));
	ioc_hdr(&c.cfg_hdr, sizeof(c));
	c.cfg_flags = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_UNCONFIGURE, &c, sizeof(c), true),
			 -EINVAL);
	c.cfg_flags = 0;
	c.cfg_reserved = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_UNCONFIGURE, &c, sizeof(c), true),
			 -EINVAL);
	assert_true(ln->ln_configured);
	/* an unterminated interface name */
	n = ioc_ni(TCP, NULL, 0);
	memset(n.ni_ifname, 'a', sizeof(n.ni_ifname));
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
}

static int ioc_config_flags(struct lnet *ln, unsigned int cmd, u32 flags)
{
	struct lnet_ioc_config c;

	memset(&c, 0, sizeof(c));
	ioc_hdr(&c.cfg_hdr, sizeof(c));
	c.cfg_flags = flags;
	return lnet_ioctl(ln, cmd, &c, sizeof(c), true);
}

/*
 * CONFIGURE's flags: LNET_CONFIG_F_LARGE_NIDS only (an unknown bit is
 * EINVAL and changes nothing, up or down); set by each CONFIGURE that has
 * it, up or not, kept by one without it, cleared by UNCONFIGURE, which
 * takes no flag.
 */
static void test_ioctl_configure_flags(void **state)
{
	struct lnet *ln = *state;
	s64 objs = ln->ln_nobjects;

	assert_false(ln->ln_large_nids);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE, 1U << 1), -EINVAL);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE,
					  LNET_CONFIG_F_LARGE_NIDS | 1U << 31), -EINVAL);
	assert_false(ln->ln_large_nids);
	assert_true(ln->ln_configured);
	assert_int_equal(ln->ln_nobjects, objs);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_UNCONFIGURE,
					  LNET_CONFIG_F_LARGE_NIDS), -EINVAL);
	assert_true(ln->ln_configured);

	/* up already: the flag is set all the same, and stays */
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE,
					  LNET_CONFIG_F_LARGE_NIDS), 0);
	assert_true(ln->ln_large_nids);
	assert_int_equal(ln->ln_nobjects, objs);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE, 0), 0);
	assert_true(ln->ln_large_nids);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE, 1U << 2), -EINVAL);
	assert_true(ln->ln_large_nids);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_UNCONFIGURE, 0), 0);
	assert_false(ln->ln_large_nids);

	/* down: a refused CONFIGURE leaves it down */
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE, 1U << 1), -EINVAL);
	assert_false(ln->ln_configured);
	assert_int_equal(ln->ln_nobjects, 0);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE, 0), 0);
	assert_false(ln->ln_large_nids);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_UNCONFIGURE, 0), 0);
	assert_int_equal(ioc_config_flags(ln, IOC_LIBCFS_CONFIGURE,
					  LNET_CONFIG_F_LARGE_NIDS), 0);
	assert_true(ln->ln_configured);
	assert_true(ln->ln_large_nids);
}

static struct lnet_nid nid6(u32 net_id, u8 last)
{
	u8 addr[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = last };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, net_id, addr, 16);
	return n;
}

/* The NID an NI added on @ifname (no NID named) gets on net @net_id: added, then deleted. */
static struct lnet_nid added_nid(struct lnet *ln, u32 net_id, const char *ifname)
{
	struct lnet_ioc_ni n = ioc_ni(net_id, ifname, 0);
	struct lnet_ioc_ni got = ioc_ni(net_id, NULL, 0);

	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &got, sizeof(got), false), 0);
	assert_int_equal(lnet_net_del(ln, net_id, ifname), 0);
	return got.ni_nid;
}

/*
 * Large NIDs change the order only: a dual-stack interface gives its IPv6
 * address first, a one-family interface its one address either way.
 */
static void test_ni_add_large_nids(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid d4 = nid4(TCP, 10, 0, 0, 9), d6 = nid6(TCP, 9);
	struct lnet_nid e0 = nid4(TCP, 10, 0, 0, 1), v6 = nid6(TCP, 5);
	struct lnet_nid got;
	int round;

	for (round = 0; round < 2; round++) {
		bool large = round == 1;

		ln->ln_large_nids = large;
		got = added_nid(ln, TCP, "dual");
		assert_true(lnet_nid_equal(&got, large ? &d6 : &d4));
		got = added_nid(ln, TCP, "eth0");
		assert_true(lnet_nid_equal(&got, &e0));
		got = added_nid(ln, TCP, "v6");
		assert_true(lnet_nid_equal(&got, &v6));
	}
	/* the unconfigure forgets it */
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(lnet_configure(ln), 0);
	assert_false(ln->ln_large_nids);
	got = added_nid(ln, TCP, "dual");
	assert_true(lnet_nid_equal(&got, &d4));
}

/*
 * ADD_NET naming the NID: either address of the interface makes it, the
 * flag or not; another address (or family the interface lacks) is ENXIO.
 */
static void test_ni_add_named_nid_dual(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n;
	int round;

	for (round = 0; round < 2; round++) {
		ln->ln_large_nids = round == 1;
		n = ioc_ni(TCP, "dual", 0);
		n.ni_nid = nid6(TCP, 9);
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
		assert_non_null(lnet_ni_find(ln, &n.ni_nid));
		assert_int_equal(lnet_net_del(ln, TCP, "dual"), 0);
		n.ni_nid = nid4(TCP, 10, 0, 0, 9);
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
		assert_non_null(lnet_ni_find(ln, &n.ni_nid));
		assert_int_equal(lnet_net_del(ln, TCP, "dual"), 0);
		n.ni_nid = nid6(TCP, 8);
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -ENXIO);
		n.ni_nid = nid6(TCP1, 9);			/* the address, another net */
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -ENXIO);
		n = ioc_ni(TCP, "eth0", 0);			/* IPv4 only */
		n.ni_nid = nid6(TCP, 9);
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -ENXIO);
		n = ioc_ni(TCP, "v6", 0);			/* IPv6 only */
		n.ni_nid = nid4(TCP, 10, 0, 0, 9);
		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -ENXIO);
		assert_null(lnet_net_find(ln, TCP));
	}
}

/* GET_IF's if_want_len: the address of that length, none when it lacks one. */
static void test_ioctl_get_if_want_len(void **state)
{
	struct lnet *ln = *state;
	const u8 d6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	const u8 d4[4] = { 10, 0, 0, 9 };
	struct lnet_ioc_if f;
	u32 dual = FAKE_IF_COUNT(fake_ifs) - 1;

	ln->ln_if_name = fake_name;
	ln->ln_large_nids = true;		/* the default address is IPv4 first still */
	memset(&f, 0, sizeof(f));
	ioc_hdr(&f.if_hdr, sizeof(f));
	f.if_index = dual;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), 0);
	assert_string_equal(f.if_name, "dual");
	assert_int_equal(f.if_addr_len, 4);
	assert_memory_equal(f.if_addr, d4, 4);
	f.if_want_len = 16;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), 0);
	assert_int_equal(f.if_addr_len, 16);
	assert_memory_equal(f.if_addr, d6, 16);
	f.if_want_len = 4;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), 0);
	assert_int_equal(f.if_addr_len, 4);
	f.if_index = 4;				/* v6: no IPv4 address */
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), 0);
	assert_string_equal(f.if_name, "v6");
	assert_int_equal(f.if_addr_len, 0);
	f.if_want_len = 8;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), -EINVAL);
	f.if_want_len = 0;
	f.if_pad[1] = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_GET_IF, &f, sizeof(f), false), -EINVAL);
}

static void test_ioctl_perm_and_state(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n = ioc_ni(TCP, "eth0", 0);
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_ioc_peer pr = ioc_peer(&p, NULL, 0, 0);

	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), false), -EPERM);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_NET, &n, sizeof(n), false), -EPERM);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &pr, sizeof(pr), false),
			 -EPERM);
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_UNCONFIGURE, false), -EPERM);
	assert_null(lnet_net_find(ln, TCP));
	assert_true(ln->ln_configured);
	/* show commands are for everyone */
	n = ioc_ni(0, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	/* down: everything but CONFIGURE and UNCONFIGURE is ENETDOWN */
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_UNCONFIGURE, true), 0);
	assert_false(ln->ln_configured);
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_UNCONFIGURE, true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false),
			 -ENETDOWN);
	n = ioc_ni(TCP, "eth0", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true),
			 -ENETDOWN);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &pr, sizeof(pr), false),
			 -ENETDOWN);
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_CONFIGURE, true), 0);
	assert_true(ln->ln_configured);
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_CONFIGURE, true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
}

static void test_ioctl_nets(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_ni n = ioc_ni(TCP, "eth0", 0);
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);
	struct lnet_nid e0 = nid4(TCP, 10, 0, 0, 1);
	struct lnet_nid e2 = nid4(TCP1, 10, 0, 0, 3);

	n.ni_tun.peer_credits = 16;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	n = ioc_ni(TCP1, "eth2", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EEXIST);
	n = ioc_ni(TCP, "eth1", 0);
	n.ni_tun.credits = 0;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);
	n = ioc_ni(LO, "eth1", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), -EINVAL);

	/* every NI, lo first */
	n = ioc_ni(0, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_true(lnet_nid_equal(&n.ni_nid, &lo));
	assert_string_equal(n.ni_ifname, "");
	n = ioc_ni(0, NULL, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_true(lnet_nid_equal(&n.ni_nid, &e0));
	assert_int_equal(n.ni_net, TCP);	/* the reply names the NI's net */
	assert_string_equal(n.ni_ifname, "eth0");
	assert_int_equal(n.ni_tun.peer_timeout, LNET_TUN_PEER_TIMEOUT_DEF);
	assert_int_equal(n.ni_tun.peer_credits, 16);
	assert_int_equal(n.ni_tun.peer_buffer_credits, 0);
	assert_int_equal(n.ni_tun.credits, LNET_TUN_CREDITS_DEF);
	assert_int_equal(n.ni_status, LNET_NI_STATUS_UP);
	assert_int_equal(n.ni_health, LNET_MAX_HEALTH);
	assert_int_equal(n.ni_net_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(n.ni_nid_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(n.ni_tx_credits, LNET_TUN_CREDITS_DEF);
	assert_int_equal(n.ni_send_count, 0);
	n = ioc_ni(0, NULL, 2);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_true(lnet_nid_equal(&n.ni_nid, &e2));
	assert_int_equal(n.ni_status, LNET_NI_STATUS_DOWN);
	n = ioc_ni(0, NULL, 3);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), -ENOENT);
	/* only tcp1 */
	n = ioc_ni(TCP1, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), 0);
	assert_true(lnet_nid_equal(&n.ni_nid, &e2));
	n = ioc_ni(TCP1, NULL, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), -ENOENT);
	n = ioc_ni(O2IB, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_NET, &n, sizeof(n), false), -ENOENT);

	/* delete */
	n = ioc_ni(TCP, "eth1", 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_NET, &n, sizeof(n), true), -ENOENT);
	n = ioc_ni(LO, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_NET, &n, sizeof(n), true), -EINVAL);
	n = ioc_ni(TCP, NULL, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_NET, &n, sizeof(n), true), 0);
	assert_null(lnet_net_find(ln, TCP));
}

static void test_ioctl_peers(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid a1 = nid4(TCP, 10, 0, 0, 101);
	struct lnet_nid b = nid4(TCP, 10, 0, 0, 200);
	struct lnet_nid none = nid4(TCP, 10, 0, 0, 99);
	struct lnet_nid bad;
	struct lnet_nid pref[LNET_PREF_MAX + 4];
	struct lnet_ioc_peer p;
	unsigned int i;

	p = ioc_peer(&a, &a1, LNET_PEER_F_LOCK_PRIM, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true), 0);
	p = ioc_peer(&b, NULL, LNET_PEER_F_NON_MR, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true), 0);
	p = ioc_peer(&b, &none, 0, 0);		/* b is non-MR: EMLINK */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true),
			 -EMLINK);
	/* malformed NIDs */
	bad = a;
	bad.nid_addr_len = 5;
	p = ioc_peer(&bad, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true),
			 -EINVAL);
	bad = a;
	bad.nid_addr[7] = 1;		/* past the 4 address bytes */
	p = ioc_peer(&a, &bad, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true),
			 -EINVAL);
	bad = nid4(TCP, 127, 0, 0, 1);
	p = ioc_peer(&bad, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true),
			 -EINVAL);
	p = ioc_peer(NULL, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_PEER_NI, &p, sizeof(p), true),
			 -EINVAL);

	for (i = 0; i < LNET_PREF_MAX + 4; i++)
		pref[i] = nid4(TCP, 10, 0, 1, (u8)i);
	assert_int_equal(lnet_peer_ni_set_pref(ln, lnet_peer_ni_find(ln, &a1), pref,
					       LNET_PREF_MAX + 4), 0);
	assert_int_equal(lnet_peer_ni_set_rtr(ln, lnet_peer_ni_find(ln, &a1), pref, 2), 0);

	/* every peer NI: a, a1, b */
	p = ioc_peer(NULL, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_prim_nid, &a));
	assert_true(lnet_nid_equal(&p.pr_nid, &a));
	assert_int_equal(p.pr_flags, LNET_PEER_F_LOCK_PRIM);
	assert_int_equal(p.pr_peer_nis, 2);
	assert_int_equal(p.pr_state, LNET_NI_STATUS_UP);
	assert_int_equal(p.pr_health, LNET_MAX_HEALTH);
	assert_int_equal(p.pr_net_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(p.pr_nid_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(p.pr_max_tx_credits, LNET_TUN_PEER_CREDITS_DEF);
	assert_int_equal(p.pr_tx_credits, LNET_TUN_PEER_CREDITS_DEF);
	/* no local net reaches it: peer_credits' default; no message holds it */
	assert_int_equal(p.pr_rtr_credits, LNET_TUN_PEER_CREDITS_DEF);
	assert_int_equal(p.pr_min_rtr_credits, LNET_TUN_PEER_CREDITS_DEF);
	assert_int_equal(p.pr_refcount, 1);
	assert_int_equal(p.pr_npref, 0);
	p = ioc_peer(NULL, NULL, 0, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_prim_nid, &a));
	assert_true(lnet_nid_equal(&p.pr_nid, &a1));
	assert_int_equal(p.pr_npref, LNET_PREF_MAX + 4);
	for (i = 0; i < LNET_PREF_MAX; i++)
		assert_true(lnet_nid_equal(&p.pr_pref[i], &pref[i]));
	assert_int_equal(p.pr_nrtr, 2);
	assert_true(lnet_nid_equal(&p.pr_rtr[1], &pref[1]));
	assert_true(lnet_nid_is_zero(&p.pr_rtr[2]));
	p = ioc_peer(NULL, NULL, 0, 2);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_prim_nid, &b));
	assert_int_equal(p.pr_flags, LNET_PEER_F_NON_MR);
	assert_int_equal(p.pr_peer_nis, 1);
	assert_true(lnet_nid_is_zero(&p.pr_rtr[0]));
	p = ioc_peer(NULL, NULL, 0, 3);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false),
			 -ENOENT);

	/* filtered by a non-primary NID: that peer's NIs only */
	p = ioc_peer(&a1, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_prim_nid, &a));
	assert_true(lnet_nid_equal(&p.pr_nid, &a));
	p = ioc_peer(&a1, NULL, 0, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_nid, &a1));
	p = ioc_peer(&a1, NULL, 0, 2);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false),
			 -ENOENT);
	p = ioc_peer(&none, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false),
			 -ENOENT);

	/* delete: locked needs FORCE (EBUSY); a NID not the peer's is ENXIO */
	p = ioc_peer(&a, NULL, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_PEER_NI, &p, sizeof(p), true), -EBUSY);
	p = ioc_peer(&a, &none, 0, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_PEER_NI, &p, sizeof(p), true),
			 -ENXIO);
	p = ioc_peer(&none, NULL, 0, 0);	/* no such peer */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_PEER_NI, &p, sizeof(p), true),
			 -ENOENT);
	p = ioc_peer(&a, NULL, LNET_PEER_F_FORCE, 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_PEER_NI, &p, sizeof(p), true), 0);
	assert_null(lnet_peer_find(ln, &a1));
	p = ioc_peer(NULL, NULL, 0, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false),
			 -ENOENT);
}

/* --- UDSP: hooks at creation, ioctl dispatch ------------------------------------------ */

/* Add a rule: src/dst/rte expressions ("" = absent), PRIORITY if @prio >= 0. */
static void add_rule(struct lnet *ln, const char *src, const char *dst,
		     const char *rte, long long prio)
{
	struct lnet_udsp_desc d;
	s32 idx = -2;

	memset(&d, 0, sizeof(d));
	d.idx = -1;
	if (src[0])
		assert_int_equal(lnet_nidexpr_parse(src, &d.src, NULL, 0), 0);
	if (dst[0])
		assert_int_equal(lnet_nidexpr_parse(dst, &d.dst, NULL, 0), 0);
	if (rte[0])
		assert_int_equal(lnet_nidexpr_parse(rte, &d.rte, NULL, 0), 0);
	d.action = prio >= 0 ? LNET_UDSP_ACTION_PRIORITY :
			       LNET_UDSP_ACTION_PREFERRED_LIST;
	d.priority = prio >= 0 ? (u32)prio : 0;
	assert_int_equal(lnet_udsp_add(ln, &d, &idx), 0);
	assert_true(idx >= 0);
}

static void test_udsp_hooks_at_creation(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid e0 = nid4(TCP, 10, 0, 0, 1);
	struct lnet_nid e1 = nid4(TCP1, 10, 0, 0, 2);
	struct lnet_nid p = nid4(TCP, 10, 0, 0, 100);
	struct lnet_nid q = nid4(TCP, 10, 0, 0, 101);
	struct lnet_nid gw = nid4(TCP, 10, 0, 0, 254);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	/* rules first, objects after: each object gets them when created */
	add_rule(ln, "tcp1", "", "", 3);
	add_rule(ln, "10.0.0.1@tcp", "", "", 4);
	add_rule(ln, "", "tcp", "", 5);
	add_rule(ln, "", "10.0.0.101@tcp", "", 6);
	add_rule(ln, "10.0.0.1@tcp", "10.0.0.[100-101]@tcp", "", -1);
	add_rule(ln, "", "10.0.0.100@tcp", "10.0.0.254@tcp", -1);

	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP1, "eth1", NULL), 0);
	ni = lnet_ni_find(ln, &e0);
	assert_int_equal(ni->ni_sel_priority, 4);
	assert_int_equal(ni->ni_net->net_sel_priority, LNET_PRIORITY_UNSET);
	ni = lnet_ni_find(ln, &e1);
	assert_int_equal(ni->ni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(ni->ni_net->net_sel_priority, 3);

	assert_int_equal(lnet_peer_ni_add(ln, &p, &q, 0), 0);
	lpni = lnet_peer_ni_find(ln, &q);
	assert_int_equal(lpni->lpni_peer_net->lpn_sel_priority, 5);
	assert_int_equal(lpni->lpni_sel_priority, 6);
	assert_int_equal(lpni->lpni_npref, 1);
	assert_true(lnet_nid_equal(&lpni->lpni_pref_nids[0], &e0));
	lpni = lnet_peer_ni_find(ln, &p);
	assert_int_equal(lpni->lpni_sel_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(lpni->lpni_npref, 1);
	assert_int_equal(lpni->lpni_nrtr, 0);
	/* a route makes the router rule's gateway known */
	assert_int_equal(lnet_route_add(ln, O2IB, &gw, 1, 0), 0);
	assert_int_equal(lpni->lpni_nrtr, 1);
	assert_true(lnet_nid_equal(&lpni->lpni_rtr_nids[0], &gw));
	assert_int_equal(lnet_route_del(ln, O2IB, &gw), 0);
	assert_int_equal(lpni->lpni_nrtr, 0);
	/* the preferred local NI goes: so does the preference */
	assert_int_equal(lnet_net_del(ln, TCP, "eth0"), 0);
	assert_int_equal(lpni->lpni_npref, 0);
	/* unconfigure (teardown) frees the rules too: no object left */
}

static void test_udsp_ioctl_dispatch(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp u;
	struct lnet_ioc_udsp_info info;
	struct lnet_nid lo = nid4(LO, 0, 0, 0, 0);

	memset(&u, 0, sizeof(u));
	ioc_hdr(&u.iou_hdr, sizeof(u));
	u.iou_idx = -1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &u, sizeof(u), false), -EPERM);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &u, sizeof(u), true), 0);
	u.iou_reserved = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &u, sizeof(u), true), -EINVAL);
	u.iou_reserved = 0;
	u.iou_idx = 0;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &u, sizeof(u), false),
			 -ENOENT);
	add_rule(ln, "tcp", "", "", 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &u, sizeof(u), false), 0);
	assert_true(u.iou_bulk_size > 0);

	memset(&info, 0, sizeof(info));
	ioc_hdr(&info.cud_hdr, sizeof(info));
	info.cud_nid = lo;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, &info,
				    sizeof(info), false), 0);
	assert_int_equal(info.cud_net_priority, LNET_PRIORITY_UNSET);
	assert_int_equal(info.cud_nid_priority, LNET_PRIORITY_UNSET);
	info.cud_reserved = 1;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, &info,
				    sizeof(info), false), -EINVAL);
	/* down: ENETDOWN before the engine sees anything */
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_UNCONFIGURE, true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &u, sizeof(u), false),
			 -ENETDOWN);
	assert_int_equal(ln->ln_nobjects, 0);
	assert_int_equal(ioc_config(ln, IOC_LIBCFS_CONFIGURE, true), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &u, sizeof(u), false),
			 -ENOENT);
}

/* 1,000 peers with 1 to 3 NIs: GET_PEER_NI by index, forwards and back. */
static u32 walk_make_peers(struct lnet *ln)
{
	u32 i, j, total = 0;

	for (i = 0; i < 1000; i++) {
		struct lnet_nid prim = nid4(TCP, 10, 2, (u8)(i >> 8), (u8)i);

		assert_int_equal(lnet_peer_ni_add(ln, &prim, NULL, 0), 0);
		total++;
		for (j = 1; j <= i % 3; j++) {
			struct lnet_nid n = nid4(TCP, 10, (u8)(2 + j), (u8)(i >> 8),
						 (u8)i);

			assert_int_equal(lnet_peer_ni_add(ln, &prim, &n, 0), 0);
			total++;
		}
	}
	return total;
}

/* The expected NID at @index: peers in order, each peer's NIs in order. */
static struct lnet_nid walk_expected(u32 index)
{
	u32 i;

	for (i = 0; ; i++) {
		u32 n = 1 + i % 3;

		if (index < n)
			return nid4(TCP, 10, (u8)(2 + index), (u8)(i >> 8), (u8)i);
		index -= n;
	}
}

static void walk_check(struct lnet *ln, u32 index)
{
	struct lnet_ioc_peer p = ioc_peer(NULL, NULL, 0, index);
	struct lnet_nid want = walk_expected(index);

	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	assert_true(lnet_nid_equal(&p.pr_nid, &want));
}

static void test_ioctl_peer_walk(void **state)
{
	struct lnet *ln = *state;
	u32 total = walk_make_peers(ln);
	struct lnet_ioc_peer p;
	struct lnet_nid n;
	u32 i;

	assert_int_equal(total, 1999);
	for (i = 0; i < total; i++)
		walk_check(ln, i);
	p = ioc_peer(NULL, NULL, 0, total);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false),
			 -ENOENT);
	for (i = total; i-- > 0;)
		walk_check(ln, i);
	/* a change under the cursor: peer 0 (one NI) goes, all shift by one */
	walk_check(ln, 1000);
	n = nid4(TCP, 10, 2, 0, 0);
	assert_int_equal(lnet_peer_ni_del(ln, &n, NULL, 0), 0);
	p = ioc_peer(NULL, NULL, 0, 999);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_PEER_NI, &p, sizeof(p), false), 0);
	n = walk_expected(1000);
	assert_true(lnet_nid_equal(&p.pr_nid, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_configure_creates_lo),
		cmocka_unit_test(test_lo_without_lolnd),
		cmocka_unit_test(test_os_log_levels),
		T(test_unconfigure_frees_everything),
		T(test_ni_add_defaults),
		T(test_ni_add_values),
		T(test_ni_add_errors),
		T(test_ni_add_tunable_ranges),
		T(test_ni_add_peer_nid),
		T(test_os_if_lookup),
		T(test_net_del),
		T(test_peer_mr),
		T(test_peer_non_mr),
		T(test_peer_lock_prim),
		T(test_peer_delete_primary),
		T(test_peer_nid_rules),
		T(test_peer_max_nis),
		T(test_hash_100k),
		T(test_routes),
		T(test_pref_lists),
		T(test_ioctl_framing),
		T(test_ioctl_reserved),
		T(test_ioctl_ni_nid_lnd),
		T(test_ioctl_set_ni_lnd),
		T(test_ioctl_perm_and_state),
		T(test_ioctl_configure_flags),
		T(test_ni_add_large_nids),
		T(test_ni_add_named_nid_dual),
		T(test_ioctl_get_if_want_len),
		T(test_ioctl_nets),
		T(test_ioctl_peers),
		T(test_ioctl_peer_walk),
		T(test_udsp_hooks_at_creation),
		T(test_udsp_ioctl_dispatch),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
