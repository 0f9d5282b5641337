// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lnet_select_pathway() with hand-set flattened values:
 * health, UDSP priorities (peer net, local net, local NI, peer NI),
 * preferred local NIDs, credits, link status and round robin.
 *
 * Local: tcp  = eth0 10.0.0.1, eth1 10.0.0.2
 *        tcp1 = eth3 10.1.0.1, eth4 10.1.0.2
 * Peer:  10.0.0.100@tcp (primary), 10.0.0.101@tcp,
 *        10.1.0.100@tcp1, 10.1.0.101@tcp1
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/lnet.h"
#include "fake_if.h"

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)
#define TCP1	LNET_NET_ID(LNET_LND_TCP, 1)
#define O2IB	LNET_NET_ID(LNET_LND_O2IB, 0)

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	FAKE_IF4("eth1", 10, 0, 0, 2),
	FAKE_IF4("eth3", 10, 1, 0, 1),
	FAKE_IF4("eth4", 10, 1, 0, 2),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

static struct lnet_nid nid4(u32 net_id, u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, net_id, addr, 4);
	return n;
}

/* Everything a test touches, found once in setup. */
struct sel {
	struct lnet ln;
	struct lnet_ni *eth0, *eth1, *eth3, *eth4;
	struct lnet_peer_ni *p100, *p101, *q100, *q101;	/* tcp, tcp1 */
	struct lnet_nid prim;
};

static struct lnet_ni *ni_of(struct lnet *ln, u32 net, u8 c, u8 d)
{
	struct lnet_nid nid = nid4(net, 10, c, 0, d);
	struct lnet_ni *ni = lnet_ni_find(ln, &nid);

	assert_non_null(ni);
	return ni;
}

static struct lnet_peer_ni *lpni_of(struct lnet *ln, u32 net, u8 c, u8 d)
{
	struct lnet_nid nid = nid4(net, 10, c, 0, d);
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &nid);

	assert_non_null(lpni);
	return lpni;
}

/* Local NIs on both nets; the peer on @peer_tcp1 too or tcp only. */
static int setup_common(void **state, bool peer_tcp1)
{
	struct sel *s = calloc(1, sizeof(*s));
	struct lnet *ln;
	struct lnet_nid n;

	assert_non_null(s);
	ln = &s->ln;
	fake_lnet_up(ln, fake_lookup);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth1", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP1, "eth3", NULL), 0);
	assert_int_equal(lnet_ni_add(ln, TCP1, "eth4", NULL), 0);
	s->prim = nid4(TCP, 10, 0, 0, 100);
	n = nid4(TCP, 10, 0, 0, 101);
	assert_int_equal(lnet_peer_ni_add(ln, &s->prim, &n, 0), 0);
	if (peer_tcp1) {
		n = nid4(TCP1, 10, 1, 0, 100);
		assert_int_equal(lnet_peer_ni_add(ln, &s->prim, &n, 0), 0);
		n = nid4(TCP1, 10, 1, 0, 101);
		assert_int_equal(lnet_peer_ni_add(ln, &s->prim, &n, 0), 0);
		s->q100 = lpni_of(ln, TCP1, 1, 100);
		s->q101 = lpni_of(ln, TCP1, 1, 101);
	}
	s->eth0 = ni_of(ln, TCP, 0, 1);
	s->eth1 = ni_of(ln, TCP, 0, 2);
	s->eth3 = ni_of(ln, TCP1, 1, 1);
	s->eth4 = ni_of(ln, TCP1, 1, 2);
	s->p100 = lpni_of(ln, TCP, 0, 100);
	s->p101 = lpni_of(ln, TCP, 0, 101);
	*state = s;
	return 0;
}

static int setup_one_net(void **state)
{
	return setup_common(state, false);
}

static int setup_two_nets(void **state)
{
	return setup_common(state, true);
}

static int teardown(void **state)
{
	struct sel *s = *state;

	fake_lnet_down(&s->ln);
	free(s);
	return 0;
}

/* Select towards the peer (by @dst, default its primary NID). */
static void pick(struct sel *s, const struct lnet_nid *dst,
		 struct lnet_ni **ni, struct lnet_peer_ni **lpni)
{
	*ni = NULL;
	*lpni = NULL;
	assert_int_equal(lnet_select_pathway(&s->ln, dst ? dst : &s->prim,
					     ni, lpni), 0);
	assert_non_null(*ni);
	assert_non_null(*lpni);
	/* always a pair on one net */
	assert_int_equal((*ni)->ni_net->net_id, (*lpni)->lpni_peer_net->lpn_net_id);
}

/* @n selections all choose @want_ni and @want_lpni. */
static void pick_always(struct sel *s, unsigned int n, struct lnet_ni *want_ni,
			struct lnet_peer_ni *want_lpni)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	while (n--) {
		pick(s, NULL, &ni, &lpni);
		if (want_ni)
			assert_ptr_equal(ni, want_ni);
		if (want_lpni)
			assert_ptr_equal(lpni, want_lpni);
	}
}

static void pick_net_always(struct sel *s, unsigned int n, u32 net_id)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	while (n--) {
		pick(s, NULL, &ni, &lpni);
		assert_int_equal(ni->ni_net->net_id, net_id);
	}
}

/* --- errors -------------------------------------------------------------------- */

static void test_select_errors(void **state)
{
	struct sel *s = *state;
	struct lnet_nid unknown = nid4(TCP, 10, 0, 0, 99);
	struct lnet_nid far = nid4(O2IB, 10, 9, 0, 1);
	struct lnet_peer_ni *lpni = NULL;
	struct lnet_ni *ni = NULL;

	assert_int_equal(lnet_select_pathway(&s->ln, &unknown, &ni, &lpni), -ENOENT);
	assert_int_equal(lnet_peer_ni_add(&s->ln, &far, NULL, 0), 0);
	assert_int_equal(lnet_select_pathway(&s->ln, &far, &ni, &lpni), -EHOSTUNREACH);
	assert_null(ni);
	assert_null(lpni);
	assert_int_equal(s->eth0->ni_seq + s->eth1->ni_seq, 0);
}

/* --- round robin ---------------------------------------------------------------- */

static void test_select_round_robin_nis(void **state)
{
	struct sel *s = *state;
	struct lnet_nid secondary = nid4(TCP, 10, 0, 0, 101);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		pick(s, i % 2 ? &secondary : NULL, &ni, &lpni);
		assert_ptr_equal(ni, i % 2 ? s->eth1 : s->eth0);
		assert_ptr_equal(lpni, i % 2 ? s->p101 : s->p100);
	}
	assert_int_equal(s->eth0->ni_seq, 3);
	assert_int_equal(s->eth1->ni_seq, 3);
	assert_int_equal(s->p100->lpni_seq, 3);
	assert_int_equal(s->p101->lpni_seq, 3);
	assert_int_equal(s->p100->lpni_peer_net->lpn_seq, 6);
	assert_int_equal(s->eth0->ni_net->net_seq, 6);
	assert_int_equal(s->eth3->ni_seq, 0);
}

static void test_select_round_robin_nets(void **state)
{
	struct sel *s = *state;
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		pick(s, NULL, &ni, &lpni);
		assert_int_equal(ni->ni_net->net_id, i % 2 ? TCP1 : TCP);
	}
	/* each net was used twice, alternating its NIs and peer NIs */
	assert_int_equal(s->eth0->ni_seq, 1);
	assert_int_equal(s->eth1->ni_seq, 1);
	assert_int_equal(s->eth3->ni_seq, 1);
	assert_int_equal(s->eth4->ni_seq, 1);
	assert_int_equal(s->q100->lpni_seq, 1);
	assert_int_equal(s->q101->lpni_seq, 1);
}

/* --- health ------------------------------------------------------------------------- */

static void test_select_health_beats_priority(void **state)
{
	struct sel *s = *state;

	/* peer net: tcp has the better priority but sicker peer NIs */
	s->p100->lpni_peer_net->lpn_sel_priority = 0;
	s->p100->lpni_health.lh_value = 500;
	s->p101->lpni_health.lh_value = 400;
	pick_net_always(s, 3, TCP1);
	/* local net health: tcp1's NIs are sick, its priority does not help */
	s->p100->lpni_health.lh_value = LNET_MAX_HEALTH;
	s->p101->lpni_health.lh_value = LNET_MAX_HEALTH;
	s->p100->lpni_peer_net->lpn_sel_priority = LNET_PRIORITY_UNSET;
	s->eth3->ni_health.lh_value = 100;
	s->eth4->ni_health.lh_value = 100;
	s->eth3->ni_net->net_sel_priority = 0;
	pick_net_always(s, 3, TCP);
	/* local NI: eth0 has the priority, eth1 the health */
	s->eth0->ni_health.lh_value = 900;
	s->eth0->ni_sel_priority = 0;
	pick_always(s, 3, s->eth1, NULL);
	/* peer NI: 100 has the priority, 101 the health */
	s->p100->lpni_health.lh_value = 999;
	s->p100->lpni_sel_priority = 0;
	pick_always(s, 3, s->eth1, s->p101);
}

/* --- UDSP priorities ---------------------------------------------------------------- */

static void test_select_peer_net_priority(void **state)
{
	struct sel *s = *state;

	s->q100->lpni_peer_net->lpn_sel_priority = 3;
	pick_net_always(s, 4, TCP1);
	/* 0 beats 3 */
	s->p100->lpni_peer_net->lpn_sel_priority = 0;
	pick_net_always(s, 4, TCP);
}

static void test_select_peer_net_before_local_net(void **state)
{
	struct sel *s = *state;

	/* the peer net's priority is compared before the local net's */
	s->p100->lpni_peer_net->lpn_sel_priority = 1;
	s->eth3->ni_net->net_sel_priority = 0;
	pick_net_always(s, 4, TCP);
}

static void test_select_local_net_priority(void **state)
{
	struct sel *s = *state;

	s->eth3->ni_net->net_sel_priority = 7;
	pick_net_always(s, 4, TCP1);
	s->eth0->ni_net->net_sel_priority = 6;
	pick_net_always(s, 4, TCP);
}

static void test_select_ni_priority(void **state)
{
	struct sel *s = *state;

	s->eth1->ni_sel_priority = 5;
	pick_always(s, 4, s->eth1, NULL);
	s->eth0->ni_sel_priority = 4;
	pick_always(s, 4, s->eth0, NULL);
}

static void test_select_peer_ni_priority(void **state)
{
	struct sel *s = *state;

	s->p101->lpni_sel_priority = 2;
	pick_always(s, 4, NULL, s->p101);
	/* the local NIs still alternate */
	assert_int_equal(s->eth0->ni_seq, 2);
	assert_int_equal(s->eth1->ni_seq, 2);
}

/* --- preferred NIDs ------------------------------------------------------------------ */

static void test_select_preferred(void **state)
{
	struct sel *s = *state;
	struct lnet_nid eth1_nid = s->eth1->ni_nid;

	/* eth0 is the source; 101 prefers it, 100 prefers eth1 */
	s->eth0->ni_sel_priority = 0;
	assert_int_equal(lnet_peer_ni_set_pref(&s->ln, s->p101, &s->eth0->ni_nid, 1), 0);
	assert_int_equal(lnet_peer_ni_set_pref(&s->ln, s->p100, &eth1_nid, 1), 0);
	pick_always(s, 4, s->eth0, s->p101);
	/* with eth1 the source, 100 is the preferred one */
	s->eth1->ni_sel_priority = 0;
	s->eth0->ni_sel_priority = 1;
	pick_always(s, 4, s->eth1, s->p100);
	/* a peer NI priority beats being preferred */
	s->p101->lpni_sel_priority = 0;
	pick_always(s, 4, s->eth1, s->p101);
	/* preferred beats credits */
	s->p101->lpni_sel_priority = LNET_PRIORITY_UNSET;
	s->p101->lpni_tx_credits = 100;
	pick_always(s, 4, s->eth1, s->p100);
}

/* --- credits ---------------------------------------------------------------------------- */

static void test_select_credits(void **state)
{
	struct sel *s = *state;

	s->eth1->ni_tx_credits = LNET_TUN_CREDITS_DEF + 1;
	s->p101->lpni_tx_credits = LNET_TUN_PEER_CREDITS_DEF + 1;
	pick_always(s, 4, s->eth1, s->p101);
	/* negative (queued) credits lose to zero */
	s->eth1->ni_tx_credits = -3;
	s->eth0->ni_tx_credits = 0;
	s->p101->lpni_tx_credits = -1;
	s->p100->lpni_tx_credits = 0;
	pick_always(s, 4, s->eth0, s->p100);
	/* priority beats credits */
	s->eth1->ni_sel_priority = 9;
	s->p101->lpni_sel_priority = 9;
	pick_always(s, 4, s->eth1, s->p101);
}

/* --- link status ------------------------------------------------------------------------ */

static void test_select_status_down(void **state)
{
	struct sel *s = *state;

	/* a down NI loses to an up one whatever its health and priority */
	s->eth0->ni_net->net_sel_priority = 0;		/* stay on tcp */
	s->eth0->ni_status = LNET_NI_STATUS_DOWN;
	s->eth0->ni_sel_priority = 0;
	s->eth1->ni_health.lh_value = 10;
	pick_always(s, 4, s->eth1, NULL);
	/* every NI of tcp down: tcp1 wins despite tcp's priorities */
	s->eth1->ni_status = LNET_NI_STATUS_DOWN;
	s->p100->lpni_peer_net->lpn_sel_priority = 0;
	pick_net_always(s, 4, TCP1);
}

static void test_select_peer_ni_down(void **state)
{
	struct sel *s = *state;

	/* a down peer NI loses to an up one whatever its health and priority */
	s->p100->lpni_state = LNET_NI_STATUS_DOWN;
	s->p100->lpni_sel_priority = 0;
	s->p101->lpni_health.lh_value = 10;
	pick_always(s, 4, NULL, s->p101);
	/* up again: the UDSP priority decides once more (health equal) */
	s->p100->lpni_state = LNET_NI_STATUS_UP;
	s->p101->lpni_health.lh_value = LNET_MAX_HEALTH;
	pick_always(s, 4, NULL, s->p100);
}

static void test_select_only_down(void **state)
{
	struct sel *s = *state;
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	/* with no up NI, a down one is still returned */
	s->eth0->ni_status = LNET_NI_STATUS_DOWN;
	s->eth1->ni_status = LNET_NI_STATUS_DOWN;
	pick(s, NULL, &ni, &lpni);
	assert_ptr_equal(ni, s->eth0);
	assert_int_equal(ni->ni_status, LNET_NI_STATUS_DOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_select_errors, setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_peer_ni_down,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_round_robin_nis,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_round_robin_nets,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_health_beats_priority,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_peer_net_priority,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_peer_net_before_local_net,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_local_net_priority,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_ni_priority,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_peer_ni_priority,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_preferred,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_credits,
						setup_one_net, teardown),
		cmocka_unit_test_setup_teardown(test_select_status_down,
						setup_two_nets, teardown),
		cmocka_unit_test_setup_teardown(test_select_only_down,
						setup_one_net, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
