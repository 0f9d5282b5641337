// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP engine on a real core instance (fake interfaces): rule order,
 * duplicates, delete, and the values flattened into nets, NIs, peer nets
 * and peer NIs after every change, driven through lnet_ioctl() with
 * marshalled buffers as lnetd and the module receive them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/udsp/udsp.h"
#include "../../kernel/builtin/builtin.h"

#define PRIO	LNET_UDSP_ACTION_PRIORITY
#define PREF	LNET_UDSP_ACTION_PREFERRED_LIST
#define UNSET	LNET_PRIORITY_UNSET

static const struct { const char *name, *addr; } fake_ifs[] = {
	{ "eth0", "10.0.0.1" }, { "eth1", "10.0.0.2" }, { "eth2", "10.0.1.1" },
	{ "eth3", "10.0.2.1" }, { "eth4", "10.0.0.3" },
	{ "ib0", "192.168.0.1" }, { "ib1", "192.168.0.2" },
};

static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	size_t i;

	for (i = 0; i < sizeof(fake_ifs) / sizeof(fake_ifs[0]); i++) {
		if (strcmp(ifname, fake_ifs[i].name))
			continue;
		memset(out, 0, sizeof(*out));
		out->addr_len = 4;
		out->up = true;
		assert_int_equal(inet_pton(AF_INET, fake_ifs[i].addr, out->addr), 1);
		return 0;
	}
	return -ENODEV;
}

static struct lnet_nid nid_of(const char *s)
{
	struct lnet_nid nid;
	char err[128] = "";

	if (lnet_nid_parse(s, &nid, err, sizeof(err)))
		fail_msg("bad NID '%s': %s", s, err);
	return nid;
}

static u32 net_of(const char *s)
{
	u32 id;

	assert_int_equal(lnet_net_parse(s, &id, NULL, 0), 0);
	return id;
}

static void add_ni(struct lnet *ln, const char *net, const char *ifname)
{
	assert_int_equal(lnet_ni_add(ln, net_of(net), ifname, NULL), 0);
}

static void add_peer_ni(struct lnet *ln, const char *prim, const char *nid)
{
	struct lnet_nid p = nid_of(prim), n = nid_of(nid ? nid : prim);

	assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
}

static void add_route(struct lnet *ln, const char *net, const char *gw)
{
	struct lnet_nid g = nid_of(gw);

	assert_int_equal(lnet_route_add(ln, net_of(net), &g, 1, 0), 0);
}

/*
 * Local: tcp (eth0 10.0.0.1, eth1 10.0.0.2), tcp1 (eth2 10.0.1.1),
 * o2ib (ib0 192.168.0.1, ib1 192.168.0.2). Peers: A = 10.0.0.10@tcp with
 * 10.0.0.11@tcp and 192.168.0.10@o2ib, B = 10.0.1.20@tcp1, C = 10.5.0.1@tcp5
 * behind gateways 10.0.0.100@tcp and 10.0.0.101@tcp.
 */
static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	lnet_init(ln);
	assert_int_equal(lnet_builtin_register(ln), 0);
	ln->ln_if_lookup = fake_if_lookup;
	assert_int_equal(lnet_configure(ln), 0);
	add_ni(ln, "tcp", "eth0");
	add_ni(ln, "tcp", "eth1");
	add_ni(ln, "tcp1", "eth2");
	add_ni(ln, "o2ib", "ib0");
	add_ni(ln, "o2ib", "ib1");
	add_peer_ni(ln, "10.0.0.10@tcp", NULL);
	add_peer_ni(ln, "10.0.0.10@tcp", "10.0.0.11@tcp");
	add_peer_ni(ln, "10.0.0.10@tcp", "192.168.0.10@o2ib");
	add_peer_ni(ln, "10.0.1.20@tcp1", NULL);
	add_route(ln, "tcp5", "10.0.0.100@tcp");
	add_route(ln, "tcp5", "10.0.0.101@tcp");
	add_peer_ni(ln, "10.5.0.1@tcp5", NULL);
	*state = ln;
	return 0;
}

static int teardown(void **state)
{
	struct lnet *ln = *state;

	lnet_fini(ln);
	/* every rule, index and list went back */
	assert_int_equal(ln->ln_nobjects, 0);
	free(ln);
	return 0;
}

/* --- rules through the ioctl entry point -------------------------------- */

static int add_rule(struct lnet *ln, const char *src, const char *dst,
		    const char *rte, u32 action, u32 prio, s32 idx, s32 *idx_out)
{
	struct lnet_udsp_desc d = { .idx = idx, .action = action, .priority = prio };
	const char *in[3] = { src, dst, rte };
	struct lnet_nidexpr *e[3] = { &d.src, &d.dst, &d.rte };
	u8 buf[LNET_UDSP_MAX_SIZE + 64];
	int i, n, rc;

	for (i = 0; i < 3; i++)
		if (in[i])
			assert_int_equal(lnet_nidexpr_parse(in[i], e[i], NULL, 0), 0);
	n = lnet_udsp_marshal(&d, buf, sizeof(buf));
	assert_true(n > 0);
	rc = lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, buf, (u32)n, true);
	if (idx_out)
		*idx_out = ((struct lnet_ioc_udsp *)buf)->iou_idx;
	return rc;
}

static void add_ok(struct lnet *ln, const char *src, const char *dst,
		   const char *rte, u32 prio, s32 idx, s32 want_idx)
{
	u32 action = (src && dst) || rte ? PREF : PRIO;
	s32 got = -100;

	assert_int_equal(add_rule(ln, src, dst, rte, action, prio, idx, &got), 0);
	assert_int_equal(got, want_idx);
}

static int del_rule(struct lnet *ln, s32 idx)
{
	struct lnet_ioc_udsp h = { .iou_idx = idx };

	h.iou_hdr.ioc_len = sizeof(h);
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	return lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &h, sizeof(h), true);
}

/* Rule @idx as text "src|dst|rte|priority" via GET_UDSP_SIZE + GET_UDSP. */
static int get_rule(struct lnet *ln, s32 idx, char *out, size_t outlen)
{
	struct lnet_ioc_udsp h = { .iou_idx = idx };
	struct lnet_udsp_desc d;
	char s[3][LNET_EXPR_STR_MAX];
	const struct lnet_nidexpr *e[3] = { &d.src, &d.dst, &d.rte };
	u8 *buf;
	u32 len;
	int rc, i;

	h.iou_hdr.ioc_len = sizeof(h);
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	rc = lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &h, sizeof(h), false);
	if (rc)
		return rc;
	len = sizeof(h) + h.iou_bulk_size;
	buf = calloc(1, len);
	h.iou_hdr.ioc_len = len;
	h.iou_bulk_size = 0;
	memcpy(buf, &h, sizeof(h));
	rc = lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP, buf, len, false);
	assert_int_equal(rc, 0);
	assert_int_equal(lnet_udsp_demarshal(buf, len, &d, NULL, 0), 0);
	free(buf);
	assert_int_equal(d.idx, idx);
	for (i = 0; i < 3; i++) {
		s[i][0] = '\0';
		if (lnet_nidexpr_present(e[i]))
			assert_true(lnet_nidexpr_print(e[i], s[i], sizeof(s[i])) > 0);
	}
	snprintf(out, outlen, "%s|%s|%s|%u", s[0], s[1], s[2], d.priority);
	return 0;
}

static void rule_is(struct lnet *ln, s32 idx, const char *want)
{
	char got[4 * LNET_EXPR_STR_MAX];

	assert_int_equal(get_rule(ln, idx, got, sizeof(got)), 0);
	assert_string_equal(got, want);
}

static void rules_count(struct lnet *ln, u32 n)
{
	char got[4 * LNET_EXPR_STR_MAX];

	assert_int_equal(lnet_udsp_of(ln)->us_count, n);
	if (n)
		assert_int_equal(get_rule(ln, (s32)n - 1, got, sizeof(got)), 0);
	assert_int_equal(get_rule(ln, (s32)n, got, sizeof(got)), -ENOENT);
}

/* --- flattened values ------------------------------------------------------ */

static u32 net_prio(struct lnet *ln, const char *net)
{
	struct lnet_net *n = lnet_net_find(ln, net_of(net));

	assert_non_null(n);
	return n->net_sel_priority;
}

static u32 ni_prio(struct lnet *ln, const char *nid)
{
	struct lnet_nid n = nid_of(nid);
	struct lnet_ni *ni = lnet_ni_find(ln, &n);

	assert_non_null(ni);
	return ni->ni_sel_priority;
}

static struct lnet_peer_ni *lpni_of(struct lnet *ln, const char *nid)
{
	struct lnet_nid n = nid_of(nid);
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &n);

	assert_non_null(lpni);
	return lpni;
}

static u32 lpni_prio(struct lnet *ln, const char *nid)
{
	return lpni_of(ln, nid)->lpni_sel_priority;
}

static u32 lpn_prio(struct lnet *ln, const char *nid)
{
	return lpni_of(ln, nid)->lpni_peer_net->lpn_sel_priority;
}

static void nids_text(const struct lnet_nid *nids, u32 n, char *out, size_t len)
{
	char one[LNET_NID_STR_MAX];
	u32 i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		assert_true(lnet_nid_print(&nids[i], one, sizeof(one)) > 0);
		if (i)
			strncat(out, ",", len - strlen(out) - 1);
		strncat(out, one, len - strlen(out) - 1);
	}
}

static void pref_is(struct lnet *ln, const char *nid, const char *want)
{
	struct lnet_peer_ni *lpni = lpni_of(ln, nid);
	char got[1024];

	nids_text(lpni->lpni_pref_nids, lpni->lpni_npref, got, sizeof(got));
	assert_string_equal(got, want);
}

static void rtr_is(struct lnet *ln, const char *nid, const char *want)
{
	struct lnet_peer_ni *lpni = lpni_of(ln, nid);
	char got[1024];

	nids_text(lpni->lpni_rtr_nids, lpni->lpni_nrtr, got, sizeof(got));
	assert_string_equal(got, want);
}

/* --- tests ------------------------------------------------------------------ */

static void test_order(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "tcp", NULL, NULL, 1, -1, 0);
	add_ok(ln, "tcp1", NULL, NULL, 2, -1, 1);
	add_ok(ln, "o2ib", NULL, NULL, 3, 0, 0);	/* insert before tcp */
	add_ok(ln, "tcp2", NULL, NULL, 4, 99, 3);	/* idx >= count appends */
	add_ok(ln, "tcp3", NULL, NULL, 5, 3, 3);	/* idx == count - 1 inserts */
	add_ok(ln, "tcp4", NULL, NULL, 6, 5, 5);	/* idx == count appends */
	rules_count(ln, 6);
	rule_is(ln, 0, "o2ib|||3");
	rule_is(ln, 1, "tcp|||1");
	rule_is(ln, 2, "tcp1|||2");
	rule_is(ln, 3, "tcp3|||5");
	rule_is(ln, 4, "tcp2|||4");
	rule_is(ln, 5, "tcp4|||6");
	/* delete: later rules move up, idx stays dense */
	assert_int_equal(del_rule(ln, 1), 0);
	rules_count(ln, 5);
	rule_is(ln, 0, "o2ib|||3");
	rule_is(ln, 1, "tcp1|||2");
	rule_is(ln, 2, "tcp3|||5");
	rule_is(ln, 4, "tcp4|||6");
	assert_int_equal(del_rule(ln, 4), 0);
	assert_int_equal(del_rule(ln, 4), -ENOENT);
	assert_int_equal(del_rule(ln, -2), -EINVAL);
	rules_count(ln, 4);
	/* add with iou_idx < -1 */
	assert_int_equal(add_rule(ln, "tcp9", NULL, NULL, PRIO, 1, -2, NULL), -EINVAL);
	rules_count(ln, 4);
}

static void test_duplicates(void **state)
{
	struct lnet *ln = *state;
	s32 idx = -100;

	add_ok(ln, "tcp", NULL, NULL, 1, -1, 0);
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 1, -1, NULL), -EALREADY);
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 1, 0, NULL), -EALREADY);
	add_ok(ln, "10.0.0.1@tcp", "tcp", NULL, 0, 0, 0);
	rules_count(ln, 2);
	/* same descriptors, new priority, no idx: updated in place, idx kept (1) */
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 9, -1, &idx), 0);
	assert_int_equal(idx, 1);
	rules_count(ln, 2);
	rule_is(ln, 0, "10.0.0.1@tcp|tcp||0");
	rule_is(ln, 1, "tcp|||9");
	assert_int_equal(net_prio(ln, "tcp"), 9);
	/* asked for at another idx: moved there (and the priority taken) */
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 7, 0, &idx), 0);
	assert_int_equal(idx, 0);
	rule_is(ln, 0, "tcp|||7");
	rule_is(ln, 1, "10.0.0.1@tcp|tcp||0");
	assert_int_equal(net_prio(ln, "tcp"), 7);
	/* past the end: last; at its own idx with its priority: a duplicate */
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 7, 5, &idx), 0);
	assert_int_equal(idx, 1);
	rule_is(ln, 0, "10.0.0.1@tcp|tcp||0");
	rule_is(ln, 1, "tcp|||7");
	assert_int_equal(add_rule(ln, "tcp", NULL, NULL, PRIO, 7, 1, NULL), -EALREADY);
	assert_int_equal(add_rule(ln, "10.0.0.1@tcp", "tcp", NULL, PREF, 0, 1, &idx), 0);
	assert_int_equal(idx, 1);
	rule_is(ln, 0, "tcp|||7");
	rule_is(ln, 1, "10.0.0.1@tcp|tcp||0");
	assert_int_equal(add_rule(ln, "10.0.0.1@tcp", "tcp", NULL, PREF, 0, -1, NULL),
			 -EALREADY);
	/* a different descriptor is a different rule */
	add_ok(ln, "10.0.0.[1-2]@tcp", "tcp", NULL, 0, -1, 2);
	/* a useless shape never gets in */
	assert_int_equal(add_rule(ln, NULL, NULL, "tcp", PREF, 0, -1, NULL), -EINVAL);
	assert_int_equal(add_rule(ln, "tcp", "tcp1", NULL, PRIO, 3, -1, NULL), -EINVAL);
	rules_count(ln, 3);
}

static void test_delete_all(void **state)
{
	struct lnet *ln = *state;

	assert_int_equal(del_rule(ln, -1), 0);		/* none: still 0 */
	add_ok(ln, "tcp", NULL, NULL, 1, -1, 0);
	add_ok(ln, "10.0.0.1@tcp", NULL, NULL, 2, -1, 1);
	add_ok(ln, NULL, "tcp", NULL, 3, -1, 2);
	add_ok(ln, "10.0.0.1@tcp", "tcp", NULL, 0, -1, 3);
	assert_int_equal(net_prio(ln, "tcp"), 1);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 2);
	assert_int_equal(lpn_prio(ln, "10.0.0.10@tcp"), 3);
	pref_is(ln, "10.0.0.10@tcp", "10.0.0.1@tcp");
	assert_int_equal(del_rule(ln, -1), 0);
	rules_count(ln, 0);
	assert_null(lnet_udsp_of(ln)->us_index);
	assert_int_equal(net_prio(ln, "tcp"), UNSET);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), UNSET);
	assert_int_equal(lpn_prio(ln, "10.0.0.10@tcp"), UNSET);
	pref_is(ln, "10.0.0.10@tcp", "");
}

static void test_net_priorities(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "tcp", NULL, NULL, 5, -1, 0);
	assert_int_equal(net_prio(ln, "tcp"), 5);
	assert_int_equal(net_prio(ln, "tcp1"), UNSET);
	assert_int_equal(net_prio(ln, "o2ib"), UNSET);
	assert_int_equal(net_prio(ln, "lo"), UNSET);
	add_ok(ln, "tcp*", NULL, NULL, 7, -1, 1);
	assert_int_equal(net_prio(ln, "tcp"), 5);	/* idx 0 wins */
	assert_int_equal(net_prio(ln, "tcp1"), 7);
	add_ok(ln, "tcp1", NULL, NULL, 1, 0, 0);
	assert_int_equal(net_prio(ln, "tcp1"), 1);
	assert_int_equal(net_prio(ln, "tcp"), 5);
	/* deleting restores what the remaining rules say, not the default */
	assert_int_equal(del_rule(ln, 0), 0);
	assert_int_equal(net_prio(ln, "tcp1"), 7);
	assert_int_equal(del_rule(ln, 0), 0);		/* "tcp" */
	assert_int_equal(net_prio(ln, "tcp"), 7);
	/* NIs keep their own priority: untouched by net rules */
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), UNSET);
	/* a net created after the rule gets it */
	add_ni(ln, "tcp2", "eth3");
	assert_int_equal(net_prio(ln, "tcp2"), 7);
	assert_int_equal(del_rule(ln, 0), 0);
	assert_int_equal(net_prio(ln, "tcp2"), UNSET);
}

static void test_ni_priorities(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "10.0.0.[1-2]@tcp", NULL, NULL, 3, -1, 0);
	add_ok(ln, "10.0.0.1@tcp", NULL, NULL, 1, -1, 1);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 3);
	assert_int_equal(ni_prio(ln, "10.0.0.2@tcp"), 3);
	assert_int_equal(ni_prio(ln, "10.0.1.1@tcp1"), UNSET);
	assert_int_equal(net_prio(ln, "tcp"), UNSET);
	assert_int_equal(add_rule(ln, "10.0.0.1@tcp", NULL, NULL, PRIO, 0, -1, NULL), 0);
	rule_is(ln, 1, "10.0.0.1@tcp|||0");		/* updated in place */
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 3);
	/* a lower idx takes over */
	add_ok(ln, "10.0.0.[1,5]@tcp", NULL, NULL, 2, 0, 0);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 2);
	assert_int_equal(ni_prio(ln, "10.0.0.2@tcp"), 3);
}

static void test_ni_priorities_delete(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "10.0.0.1@tcp", NULL, NULL, 1, -1, 0);
	add_ok(ln, "*.*.*.*@tcp*", NULL, NULL, 4, -1, 1);
	add_ok(ln, "192.168.0.*@o2ib", NULL, NULL, 6, -1, 2);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 1);
	assert_int_equal(ni_prio(ln, "10.0.0.2@tcp"), 4);
	assert_int_equal(ni_prio(ln, "10.0.1.1@tcp1"), 4);
	assert_int_equal(ni_prio(ln, "192.168.0.2@o2ib"), 6);
	assert_int_equal(ni_prio(ln, "0@lo"), UNSET);
	assert_int_equal(del_rule(ln, 0), 0);
	assert_int_equal(ni_prio(ln, "10.0.0.1@tcp"), 4);
	/* an NI added later gets the rule */
	add_ni(ln, "tcp", "eth4");
	assert_int_equal(ni_prio(ln, "10.0.0.3@tcp"), 4);
	assert_int_equal(del_rule(ln, 0), 0);
	assert_int_equal(ni_prio(ln, "10.0.0.3@tcp"), UNSET);
	assert_int_equal(ni_prio(ln, "192.168.0.2@o2ib"), 6);
}

static void test_peer_priorities(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid p = nid_of("10.0.0.10@tcp"), n = nid_of("10.0.0.12@tcp");

	add_ok(ln, NULL, "tcp", NULL, 4, -1, 0);
	add_ok(ln, NULL, "10.0.0.11@tcp", NULL, 2, -1, 1);
	add_ok(ln, NULL, "10.0.0.[10-19]@tcp", NULL, 8, -1, 2);
	assert_int_equal(lpn_prio(ln, "10.0.0.10@tcp"), 4);
	assert_int_equal(lpn_prio(ln, "192.168.0.10@o2ib"), UNSET);
	assert_int_equal(lpn_prio(ln, "10.0.1.20@tcp1"), UNSET);
	assert_int_equal(lpni_prio(ln, "10.0.0.10@tcp"), 8);
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), 2);
	assert_int_equal(lpni_prio(ln, "192.168.0.10@o2ib"), UNSET);
	assert_int_equal(lpni_prio(ln, "10.0.0.100@tcp"), UNSET);
	/* a peer NI created after the rules */
	assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
	assert_int_equal(lpni_prio(ln, "10.0.0.12@tcp"), 8);
	/* a peer net created after the rules */
	add_ok(ln, NULL, "tcp1", NULL, 11, 0, 0);
	add_peer_ni(ln, "10.0.0.10@tcp", "10.0.1.30@tcp1");
	assert_int_equal(lpn_prio(ln, "10.0.1.30@tcp1"), 11);
	assert_int_equal(lpn_prio(ln, "10.0.1.20@tcp1"), 11);
	/* delete: the remaining rules decide again */
	assert_int_equal(del_rule(ln, 2), 0);		/* 10.0.0.11 */
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), 8);
	assert_int_equal(del_rule(ln, 2), 0);		/* [10-19] */
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), UNSET);
	assert_int_equal(lpni_prio(ln, "10.0.0.12@tcp"), UNSET);
	assert_int_equal(lpn_prio(ln, "10.0.0.12@tcp"), 4);
}

static void test_pair_lists(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "10.0.0.1@tcp", "10.0.0.[10-11]@tcp", NULL, 0, -1, 0);
	pref_is(ln, "10.0.0.10@tcp", "10.0.0.1@tcp");
	pref_is(ln, "10.0.0.11@tcp", "10.0.0.1@tcp");
	pref_is(ln, "192.168.0.10@o2ib", "");
	pref_is(ln, "10.0.0.100@tcp", "");
	/* net src (all NIs of the net), net dst (every peer NI of the net) */
	add_ok(ln, "tcp", "tcp", NULL, 0, -1, 1);
	pref_is(ln, "10.0.0.10@tcp", "10.0.0.1@tcp");		/* idx 0 wins */
	pref_is(ln, "10.0.0.100@tcp", "10.0.0.1@tcp,10.0.0.2@tcp");
	pref_is(ln, "10.0.1.20@tcp1", "");
	/* a lower rule whose src matches no local NI does not decide */
	add_ok(ln, "10.9.9.9@tcp", "10.0.0.10@tcp", NULL, 0, 0, 0);
	pref_is(ln, "10.0.0.10@tcp", "10.0.0.1@tcp");
	/* deleting the deciding rule lets the next one decide */
	assert_int_equal(del_rule(ln, 1), 0);
	pref_is(ln, "10.0.0.10@tcp", "10.0.0.1@tcp,10.0.0.2@tcp");
	pref_is(ln, "10.0.0.11@tcp", "10.0.0.1@tcp,10.0.0.2@tcp");
	/* a new local NI joins the lists of the net rule */
	add_ni(ln, "tcp", "eth4");
	pref_is(ln, "10.0.0.11@tcp", "10.0.0.1@tcp,10.0.0.2@tcp,10.0.0.3@tcp");
	/* ... and leaves them */
	assert_int_equal(lnet_net_del(ln, net_of("tcp"), "eth1"), 0);
	pref_is(ln, "10.0.0.11@tcp", "10.0.0.1@tcp,10.0.0.3@tcp");
	/* a new peer NI gets it at creation */
	add_peer_ni(ln, "10.0.0.10@tcp", "10.0.0.12@tcp");
	pref_is(ln, "10.0.0.12@tcp", "10.0.0.1@tcp,10.0.0.3@tcp");
	/* delete all: every list empties */
	assert_int_equal(del_rule(ln, -1), 0);
	pref_is(ln, "10.0.0.12@tcp", "");
}

static void test_pair_cross_net(void **state)
{
	struct lnet *ln = *state;

	add_ok(ln, "192.168.0.[1-2]@o2ib", "tcp", NULL, 0, -1, 0);
	pref_is(ln, "10.0.0.10@tcp", "192.168.0.1@o2ib,192.168.0.2@o2ib");
	add_ok(ln, "o2ib", "192.168.0.10@o2ib", NULL, 0, -1, 1);
	pref_is(ln, "192.168.0.10@o2ib", "192.168.0.1@o2ib,192.168.0.2@o2ib");
	add_ok(ln, "192.168.0.2@o2ib", "192.168.0.*@o2ib", NULL, 0, 0, 0);
	pref_is(ln, "192.168.0.10@o2ib", "192.168.0.2@o2ib");
	pref_is(ln, "10.0.0.10@tcp", "192.168.0.1@o2ib,192.168.0.2@o2ib");
}

static void test_router_lists(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid gw = nid_of("10.0.0.101@tcp");

	add_ok(ln, NULL, "tcp5", "10.0.0.100@tcp", 0, -1, 0);
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.100@tcp");
	rtr_is(ln, "10.0.0.10@tcp", "");
	pref_is(ln, "10.5.0.1@tcp5", "");
	add_ok(ln, NULL, "10.5.0.1@tcp5", "10.0.0.[100-101]@tcp", 0, 0, 0);
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.100@tcp,10.0.0.101@tcp");
	/* a rule whose rte matches no gateway does not decide */
	add_ok(ln, NULL, "tcp5", "10.0.0.200@tcp", 0, 0, 0);
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.100@tcp,10.0.0.101@tcp");
	/* a gateway goes away with its route */
	assert_int_equal(lnet_route_del(ln, net_of("tcp5"), &gw), 0);
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.100@tcp");
	add_route(ln, "tcp5", "10.0.0.200@tcp");
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.200@tcp");
	assert_int_equal(del_rule(ln, 0), 0);
	rtr_is(ln, "10.5.0.1@tcp5", "10.0.0.100@tcp");
	assert_int_equal(del_rule(ln, -1), 0);
	rtr_is(ln, "10.5.0.1@tcp5", "");
}

static void info(struct lnet *ln, const char *nid, u32 peer,
		 struct lnet_ioc_udsp_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->cud_hdr.ioc_len = sizeof(*ci);
	ci->cud_hdr.ioc_version = LNET_IOC_VERSION;
	ci->cud_peer = peer;
	ci->cud_nid = nid_of(nid);
}

static void test_const_info(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_info *ci = calloc(1, sizeof(*ci));
	char got[512];

	add_ok(ln, "tcp", NULL, NULL, 2, -1, 0);
	add_ok(ln, "10.0.0.2@tcp", NULL, NULL, 3, -1, 1);
	add_ok(ln, NULL, "tcp", NULL, 4, -1, 2);
	add_ok(ln, NULL, "10.0.0.11@tcp", NULL, 5, -1, 3);
	add_ok(ln, "tcp", "10.0.0.11@tcp", NULL, 0, -1, 4);
	info(ln, "10.0.0.2@tcp", 0, ci);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, ci,
				    sizeof(*ci), false), 0);
	assert_int_equal(ci->cud_net_priority, 2);
	assert_int_equal(ci->cud_nid_priority, 3);
	assert_int_equal(ci->cud_npref, 0);
	info(ln, "10.0.0.11@tcp", 1, ci);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, ci,
				    sizeof(*ci), false), 0);
	assert_int_equal(ci->cud_net_priority, 4);
	assert_int_equal(ci->cud_nid_priority, 5);
	assert_int_equal(ci->cud_npref, 2);
	assert_int_equal(ci->cud_nrtr, 0);
	nids_text(ci->cud_pref, ci->cud_npref, got, sizeof(got));
	assert_string_equal(got, "10.0.0.1@tcp,10.0.0.2@tcp");
	assert_true(lnet_nid_is_zero(&ci->cud_pref[2]));
	info(ln, "10.0.0.99@tcp", 1, ci);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, ci,
				    sizeof(*ci), false), -ENOENT);
	info(ln, "10.0.0.11@tcp", 0, ci);		/* not a local NI */
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, ci,
				    sizeof(*ci), false), -ENOENT);
	info(ln, "10.0.0.11@tcp", 2, ci);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, ci,
				    sizeof(*ci), false), -EINVAL);
	free(ci);
}

static void test_get_errors(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp h = { .iou_idx = 0 };
	u8 buf[256];

	add_ok(ln, "10.0.0.[1-2]@tcp", NULL, NULL, 3, -1, 0);	/* 160 bytes */
	/* too little room: ENOSPC with the size needed */
	h.iou_hdr.ioc_len = 100;
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &h, sizeof(h));
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP, buf, 100, false), -ENOSPC);
	assert_int_equal(((struct lnet_ioc_udsp *)buf)->iou_bulk_size, 128);
	/* a negative idx names no rule */
	h.iou_idx = -1;
	h.iou_hdr.ioc_len = sizeof(h);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &h, sizeof(h), false),
			 -ENOENT);
	/* DEL carries no bulk */
	h.iou_idx = 0;
	h.iou_bulk_size = 4;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &h, sizeof(h), true),
			 -EINVAL);
	/* read-only callers cannot change rules */
	h.iou_bulk_size = 0;
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &h, sizeof(h), false),
			 -EPERM);
	rules_count(ln, 1);
}

/* The engine API directly: what the ioctls are built on. */
static void test_api(void **state)
{
	struct lnet *ln = *state;
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	s32 idx;

	d->idx = -1;
	d->action = PRIO;
	d->priority = 1;
	assert_int_equal(lnet_nidexpr_parse("o2ib", &d->src, NULL, 0), 0);
	assert_int_equal(lnet_udsp_add(ln, d, &idx), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(lnet_udsp_add(ln, d, &idx), -EALREADY);
	assert_non_null(lnet_udsp_get(ln, 0));
	assert_null(lnet_udsp_get(ln, 1));
	assert_int_equal(net_prio(ln, "o2ib"), 1);
	/* destroy_all frees the rules and leaves objects as they are */
	lnet_udsp_destroy_all(ln);
	assert_int_equal(lnet_udsp_of(ln)->us_count, 0);
	assert_null(lnet_udsp_of(ln)->us_index);
	assert_int_equal(net_prio(ln, "o2ib"), 1);
	lnet_udsp_apply_all(ln);
	assert_int_equal(net_prio(ln, "o2ib"), UNSET);
	/*
	 * The rule limit, without adding 65536 rules: lowered to 1 here, the
	 * list is full with one rule; the same rule still changes in place.
	 */
	lnet_udsp_of(ln)->us_max = 1;
	assert_int_equal(lnet_udsp_add(ln, d, &idx), 0);
	d->priority = 2;
	assert_int_equal(lnet_udsp_add(ln, d, &idx), 0);
	assert_int_equal(net_prio(ln, "o2ib"), 2);
	assert_int_equal(lnet_nidexpr_parse("tcp", &d->src, NULL, 0), 0);
	assert_int_equal(lnet_udsp_add(ln, d, &idx), -ENOSPC);
	assert_int_equal(lnet_udsp_of(ln)->us_count, 1);
	lnet_udsp_of(ln)->us_max = LNET_UDSP_MAX_RULES;
	assert_int_equal(lnet_udsp_add(ln, d, &idx), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(lnet_udsp_of(ln)->us_count, 2);
	free(d);
}

/* --- differential: the engine against a brute-force reading of the rules -- */

static u32 rnd_state = 12345;

static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 1103515245U + 12345U;
	return (rnd_state >> 8) % n;
}

static const char *const rnd_nets[] = {
	"tcp", "tcp1", "tcp[0-1]", "tcp*", "o2ib", "tcp5", "o2ib*",
};

static void rnd_nid_expr(char *buf, size_t len)
{
	u32 a = rnd(20), b = a + rnd(12);

	switch (rnd(8)) {
	case 0:
		snprintf(buf, len, "10.0.0.[%u-%u]@tcp", a, b);
		break;
	case 1:
		snprintf(buf, len, "10.0.[0-1].*@tcp[0-1]");
		break;
	case 2:
		snprintf(buf, len, "10.0.0.%u@tcp", a);
		break;
	case 3:
		snprintf(buf, len, "192.168.0.[%u-%u]@o2ib", a, b);
		break;
	case 4:
		snprintf(buf, len, "10.5.0.*@tcp5");
		break;
	case 5:
		snprintf(buf, len, "*.*.*.*@tcp*");
		break;
	case 6:
		snprintf(buf, len, "10.0.0.[%u-%u/3]@tcp", a, b + 10);
		break;
	default:
		snprintf(buf, len, "10.0.0.[%u-%u]@tcp", a + 90, b + 95);
		break;
	}
}

static void rnd_expr(char *buf, size_t len)
{
	if (rnd(3) == 0)
		snprintf(buf, len, "%s", rnd_nets[rnd(sizeof(rnd_nets) / sizeof(rnd_nets[0]))]);
	else
		rnd_nid_expr(buf, len);
}

static void rnd_rule(struct lnet *ln)
{
	char x[64], y[64];
	s32 idx = rnd(3) ? -1 : (s32)rnd(lnet_udsp_of(ln)->us_count + 2);
	int rc;

	rnd_expr(x, sizeof(x));
	rnd_expr(y, sizeof(y));
	switch (rnd(4)) {
	case 0:
		rc = add_rule(ln, x, NULL, NULL, PRIO, rnd(20), idx, NULL);
		break;
	case 1:
		rc = add_rule(ln, NULL, x, NULL, PRIO, rnd(20), idx, NULL);
		break;
	case 2:
		rc = add_rule(ln, x, y, NULL, PREF, 0, idx, NULL);
		break;
	default:
		rc = add_rule(ln, NULL, x, y, PREF, 0, idx, NULL);
		break;
	}
	assert_true(rc == 0 || rc == -EALREADY);
}

/* Peers, local NIs and routes come and go too. */
static void rnd_object(struct lnet *ln)
{
	char nid[64];
	struct lnet_nid p = nid_of("10.0.0.10@tcp"), n, gw = nid_of("10.0.0.102@tcp");

	switch (rnd(4)) {
	case 0:
		snprintf(nid, sizeof(nid), "10.0.0.%u@tcp", 12 + rnd(10));
		n = nid_of(nid);
		if (lnet_peer_ni_find(ln, &n))
			assert_int_equal(lnet_peer_ni_del(ln, &p, &n, 0), 0);
		else
			assert_int_equal(lnet_peer_ni_add(ln, &p, &n, 0), 0);
		break;
	case 1:
		snprintf(nid, sizeof(nid), "192.168.0.%u@o2ib", 20 + rnd(10));
		n = nid_of(nid);
		if (lnet_peer_ni_find(ln, &n))
			assert_int_equal(lnet_peer_ni_del(ln, &n, NULL, 0), 0);
		else
			assert_int_equal(lnet_peer_ni_add(ln, &n, &n, 0), 0);
		break;
	case 2:
		n = nid_of("10.0.0.3@tcp");
		if (lnet_ni_find(ln, &n))
			assert_int_equal(lnet_net_del(ln, net_of("tcp"), "eth4"), 0);
		else
			add_ni(ln, "tcp", "eth4");
		break;
	default:
		if (lnet_route_del(ln, net_of("tcp5"), &gw))
			add_route(ln, "tcp5", "10.0.0.102@tcp");
		break;
	}
}

static bool oracle_shape(const struct lnet_udsp *r, bool src, bool dst, bool rte)
{
	const struct lnet_udsp_desc *d = &r->udsp_desc;

	return lnet_nidexpr_present(&d->src) == src &&
	       lnet_nidexpr_present(&d->dst) == dst &&
	       lnet_nidexpr_present(&d->rte) == rte;
}

static u32 oracle_prio(struct lnet *ln, bool src, bool net, u32 net_id,
		       const struct lnet_nid *nid)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);

	for (u32 i = 0; i < us->us_count; i++) {
		const struct lnet_udsp *r = us->us_rules[i];
		const struct lnet_nidexpr *e = src ? &r->udsp_desc.src : &r->udsp_desc.dst;

		if (!oracle_shape(r, src, !src, false) || lnet_nidexpr_is_net(e) != net)
			continue;
		if (net ? lnet_nidexpr_match_net(e, net_id) : lnet_nidexpr_match_nid(e, nid))
			return r->udsp_desc.priority;
	}
	return UNSET;
}

/* Local NIDs (pair) or distinct gateways (router) @e picks, as text. */
static u32 oracle_pick(struct lnet *ln, const struct lnet_nidexpr *e, bool gws,
		       char *out, size_t len)
{
	struct lnet_nid got[64];
	struct lnet_route *rt;
	struct lnet_net *net;
	struct lnet_ni *ni;
	u32 n = 0, i;

	if (!gws) {
		list_for_each_entry(net, &ln->ln_nets, net_list)
			list_for_each_entry(ni, &net->net_nis, ni_list)
				if (lnet_nidexpr_match_nid(e, &ni->ni_nid))
					got[n++] = ni->ni_nid;
	} else {
		list_for_each_entry(rt, &ln->ln_routes, lr_list) {
			const struct lnet_nid *g = &rt->lr_gateway->lp_primary_nid;

			for (i = 0; i < n && !lnet_nid_equal(&got[i], g); i++)
				;
			if (i == n && lnet_nidexpr_match_nid(e, g))
				got[n++] = *g;
		}
	}
	nids_text(got, n, out, len);
	return n;
}

static void oracle_list(struct lnet *ln, const struct lnet_peer_ni *lpni, bool rtr,
			char *out, size_t len)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);

	out[0] = '\0';
	for (u32 i = 0; i < us->us_count; i++) {
		const struct lnet_udsp *r = us->us_rules[i];
		const struct lnet_udsp_desc *d = &r->udsp_desc;

		if (!oracle_shape(r, !rtr, true, rtr) ||
		    !lnet_nidexpr_match_nid(&d->dst, &lpni->lpni_nid))
			continue;
		if (oracle_pick(ln, rtr ? &d->rte : &d->src, rtr, out, len))
			return;
	}
}

static void oracle_check(struct lnet *ln)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;
	struct lnet_ni *ni;
	char want[1024], got[1024];

	list_for_each_entry(net, &ln->ln_nets, net_list) {
		assert_int_equal(net->net_sel_priority,
				 oracle_prio(ln, true, true, net->net_id, NULL));
		list_for_each_entry(ni, &net->net_nis, ni_list)
			assert_int_equal(ni->ni_sel_priority,
					 oracle_prio(ln, true, false, 0, &ni->ni_nid));
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			assert_int_equal(lpn->lpn_sel_priority,
					 oracle_prio(ln, false, true, lpn->lpn_net_id, NULL));
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				assert_int_equal(lpni->lpni_sel_priority,
						 oracle_prio(ln, false, false, 0,
							     &lpni->lpni_nid));
				oracle_list(ln, lpni, false, want, sizeof(want));
				nids_text(lpni->lpni_pref_nids, lpni->lpni_npref, got,
					  sizeof(got));
				assert_string_equal(got, want);
				oracle_list(ln, lpni, true, want, sizeof(want));
				nids_text(lpni->lpni_rtr_nids, lpni->lpni_nrtr, got,
					  sizeof(got));
				assert_string_equal(got, want);
			}
		}
}

/*
 * 600 random steps (rule adds at random places, deletes, new and deleted
 * peer NIs, local NIs and routes); after each one every object must hold
 * exactly what a plain walk of the rule list says.
 */
static void test_random_against_oracle(void **state)
{
	struct lnet *ln = *state;
	u32 most = 0;
	int step, rc;

	for (step = 0; step < 600; step++) {
		switch (rnd(6)) {
		case 0:
		case 1:
		case 2:
			rnd_rule(ln);
			break;
		case 3:
			if (!lnet_udsp_of(ln)->us_count)
				break;
			rc = del_rule(ln, rnd(40) ? (s32)rnd(lnet_udsp_of(ln)->us_count) : -1);
			assert_int_equal(rc, 0);
			break;
		default:
			rnd_object(ln);
			break;
		}
		oracle_check(ln);
		if (lnet_udsp_of(ln)->us_count > most)
			most = lnet_udsp_of(ln)->us_count;
	}
	/* enough rules at once for address buckets (8 per group and up) */
	assert_true(most >= 40);
}

/* --- batches (IOC_LNET_ADD_UDSP_BATCH, IOC_LNET_GET_UDSP_BATCH) ----------- */

#define BATCH_HDR	((u32)sizeof(struct lnet_ioc_udsp_batch))

struct tbatch {
	u32 len, count;
	u8 buf[LNET_IOC_MAX_LEN];
};

static struct tbatch *tb_new(void)
{
	struct tbatch *b = calloc(1, sizeof(*b));

	b->len = BATCH_HDR;
	return b;
}

/* A record of rule src/dst/rte (NULL: absent) at @idx. */
static void tb_add(struct tbatch *b, const char *src, const char *dst, const char *rte,
		   u32 prio, s32 idx)
{
	struct lnet_udsp_desc d = { .idx = idx, .priority = prio };
	const char *in[3] = { src, dst, rte };
	struct lnet_nidexpr *e[3] = { &d.src, &d.dst, &d.rte };
	int i, n;

	d.action = (src && dst) || rte ? PREF : PRIO;
	for (i = 0; i < 3; i++)
		if (in[i])
			assert_int_equal(lnet_nidexpr_parse(in[i], e[i], NULL, 0), 0);
	n = lnet_udsp_marshal(&d, b->buf + b->len, sizeof(b->buf) - b->len);
	assert_true(n > 0);
	b->len += (u32)n;
	b->count++;
}

/* Send @b as one @cmd batch; its header as the core left it in *out. */
static int tb_send_cmd(struct lnet *ln, unsigned int cmd, struct tbatch *b, u32 flags,
		       struct lnet_ioc_udsp_batch *out)
{
	struct lnet_ioc_udsp_batch h = { .iub_flags = flags, .iub_count = b->count };
	int rc;

	h.iub_hdr.ioc_len = b->len;
	h.iub_hdr.ioc_version = LNET_IOC_VERSION;
	memcpy(b->buf, &h, sizeof(h));
	rc = lnet_ioctl(ln, cmd, b->buf, b->len, true);
	if (out)
		memcpy(out, b->buf, sizeof(*out));
	b->len = BATCH_HDR;
	b->count = 0;
	return rc;
}

static int tb_send(struct lnet *ln, struct tbatch *b, u32 flags,
		   struct lnet_ioc_udsp_batch *out)
{
	return tb_send_cmd(ln, IOC_LNET_ADD_UDSP_BATCH, b, flags, out);
}

/* Every flattened value of every object, as text. */
static char *values_text(struct lnet *ln)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;
	struct lnet_ni *ni;
	char nid[LNET_NID_STR_MAX], list[1024], *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	list_for_each_entry(net, &ln->ln_nets, net_list) {
		fprintf(f, "net %x %u\n", net->net_id, net->net_sel_priority);
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			lnet_nid_print(&ni->ni_nid, nid, sizeof(nid));
			fprintf(f, " ni %s %u\n", nid, ni->ni_sel_priority);
		}
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			fprintf(f, "peer net %x %u\n", lpn->lpn_net_id, lpn->lpn_sel_priority);
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				lnet_nid_print(&lpni->lpni_nid, nid, sizeof(nid));
				fprintf(f, " peer ni %s %u", nid, lpni->lpni_sel_priority);
				nids_text(lpni->lpni_pref_nids, lpni->lpni_npref, list,
					  sizeof(list));
				fprintf(f, " pref %s", list);
				nids_text(lpni->lpni_rtr_nids, lpni->lpni_nrtr, list,
					  sizeof(list));
				fprintf(f, " rtr %s\n", list);
			}
		}
	fclose(f);
	return out;
}

/* The rules (GET_UDSP) and the values, as text. */
static char *state_text(struct lnet *ln)
{
	char rule[4 * LNET_EXPR_STR_MAX], *values = values_text(ln), *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (s32 i = 0; !get_rule(ln, i, rule, sizeof(rule)); i++)
		fprintf(f, "rule %d %s\n", i, rule);
	fputs(values, f);
	fclose(f);
	free(values);
	return out;
}

static void same_text(char *got, char *want)
{
	assert_string_equal(got, want);
	free(got);
	free(want);
}

/* A random rule as text, the same for two instances. */
struct trule {
	char x[64], y[64];
	u32 shape, prio;
	s32 idx;
};

static void rnd_trule(struct trule *t, u32 count)
{
	t->idx = rnd(3) ? -1 : (s32)rnd(count + 2);
	rnd_expr(t->x, sizeof(t->x));
	rnd_expr(t->y, sizeof(t->y));
	t->shape = rnd(4);
	t->prio = t->shape < 2 ? rnd(20) : 0;
}

static int trule_add(struct lnet *ln, const struct trule *t)
{
	switch (t->shape) {
	case 0:
		return add_rule(ln, t->x, NULL, NULL, PRIO, t->prio, t->idx, NULL);
	case 1:
		return add_rule(ln, NULL, t->x, NULL, PRIO, t->prio, t->idx, NULL);
	case 2:
		return add_rule(ln, t->x, t->y, NULL, PREF, 0, t->idx, NULL);
	default:
		return add_rule(ln, NULL, t->x, t->y, PREF, 0, t->idx, NULL);
	}
}

static void trule_queue(struct tbatch *b, const struct trule *t)
{
	switch (t->shape) {
	case 0:
		tb_add(b, t->x, NULL, NULL, t->prio, t->idx);
		break;
	case 1:
		tb_add(b, NULL, t->x, NULL, t->prio, t->idx);
		break;
	case 2:
		tb_add(b, t->x, t->y, NULL, 0, t->idx);
		break;
	default:
		tb_add(b, NULL, t->x, t->y, 0, t->idx);
		break;
	}
}

/*
 * 400 random rules (inserts at random places, new priorities and moves of
 * rules already there) added one by one with ADD_UDSP on one instance and
 * in batches of up to 40 on another, deferring all but the last: the same
 * rules in the same order, and every object holds exactly the same values
 * (those of the oracle too). While the batches are pending the values are
 * those before the first one.
 */
static void test_batch_same_as_one_by_one(void **state)
{
	struct lnet *one = *state, *many;
	struct tbatch *b = tb_new();
	struct lnet_ioc_udsp_batch out;
	char *before;
	struct trule t;
	int i, rc;

	setup((void **)&many);
	add_ok(one, "tcp", NULL, NULL, 5, -1, 0);
	add_ok(many, "tcp", NULL, NULL, 5, -1, 0);
	before = values_text(many);
	for (i = 0; i < 400; i++) {
		rnd_trule(&t, lnet_udsp_of(one)->us_count);
		rc = trule_add(one, &t);
		assert_true(rc == 0 || rc == -EALREADY);
		if (rc)
			continue;	/* it would fail the batch: not sent */
		trule_queue(b, &t);
		if (b->count == 40) {
			assert_int_equal(tb_send(many, b, LNET_UDSP_BATCH_F_DEFER, &out), 0);
			assert_int_equal(out.iub_done, 40);
			assert_int_equal(out.iub_total, lnet_udsp_of(one)->us_count);
			assert_true(lnet_udsp_of(many)->us_pending);
			same_text(values_text(many), strdup(before));
		}
	}
	assert_true(b->count > 0);
	assert_int_equal(tb_send(many, b, 0, &out), 0);
	assert_false(lnet_udsp_of(many)->us_pending);
	assert_true(lnet_udsp_of(one)->us_count >= 150);
	same_text(state_text(many), state_text(one));
	oracle_check(many);
	free(before);
	free(b);
	teardown((void **)&many);
}

/*
 * A batch is all or nothing: a rule inserted at idx 0, a priority
 * rewritten, a rule moved, then a record that fails (the same rule again,
 * a bad record, the rule limit): the list and every value as before, and
 * iub_done names the record.
 */
static void test_batch_all_or_nothing(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_batch out;
	struct tbatch *b = tb_new();
	char *before;

	add_ok(ln, "tcp", NULL, NULL, 3, -1, 0);
	add_ok(ln, NULL, "10.0.0.[10-11]@tcp", NULL, 2, -1, 1);
	add_ok(ln, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, -1, 2);
	before = state_text(ln);

	tb_add(b, NULL, "tcp1", NULL, 0, 0);			/* new, at 0 */
	tb_add(b, "tcp", NULL, NULL, 7, -1);			/* new priority */
	tb_add(b, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, 0);	/* moved to 0 */
	tb_add(b, NULL, "tcp1", NULL, 0, -1);			/* identical */
	assert_int_equal(tb_send(ln, b, 0, &out), -EALREADY);
	assert_int_equal(out.iub_done, 3);
	assert_int_equal(out.iub_total, 3);
	same_text(state_text(ln), strdup(before));

	/* the same three, deferred, then a record that is not a rule */
	tb_add(b, NULL, "tcp1", NULL, 0, 0);
	tb_add(b, "tcp", NULL, NULL, 7, -1);
	tb_add(b, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, 0);
	tb_add(b, NULL, "o2ib", NULL, 1, -1);
	((struct lnet_ioc_udsp *)(b->buf + b->len - 48))->iou_flags = 1;	/* record 3 */
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, &out), -EINVAL);
	assert_int_equal(out.iub_done, 3);
	assert_false(lnet_udsp_of(ln)->us_pending);
	same_text(state_text(ln), strdup(before));

	/* the rule limit, reached by the fourth record */
	lnet_udsp_of(ln)->us_max = 4;
	tb_add(b, NULL, "tcp1", NULL, 0, 0);
	tb_add(b, "tcp", NULL, NULL, 7, -1);
	tb_add(b, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, 0);
	tb_add(b, NULL, "o2ib", NULL, 1, -1);
	assert_int_equal(tb_send(ln, b, 0, &out), -ENOSPC);
	assert_int_equal(out.iub_done, 3);
	same_text(state_text(ln), strdup(before));
	lnet_udsp_of(ln)->us_max = LNET_UDSP_MAX_RULES;

	/* and the three alone go in, each record telling where it landed */
	tb_add(b, NULL, "tcp1", NULL, 0, 0);
	tb_add(b, "tcp", NULL, NULL, 7, -1);
	tb_add(b, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, 0);
	assert_int_equal(tb_send(ln, b, 0, &out), 0);
	assert_int_equal(out.iub_done, 3);
	assert_int_equal(out.iub_total, 4);
	assert_int_equal(((struct lnet_ioc_udsp *)(b->buf + BATCH_HDR))->iou_idx, 0);
	rule_is(ln, 0, "10.0.0.1@tcp|10.0.0.10@tcp||0");
	rule_is(ln, 1, "|tcp1||0");
	rule_is(ln, 2, "tcp|||7");
	free(before);
	free(b);
}

/* --- deletions in batches (IOC_LNET_DEL_UDSP_BATCH) ------------------------------ */

/* A deletion record: a bare header with @idx. */
static void tb_del(struct tbatch *b, s32 idx)
{
	struct lnet_ioc_udsp u = { .iou_idx = idx };

	u.iou_hdr.ioc_len = sizeof(u);
	u.iou_hdr.ioc_version = LNET_IOC_VERSION;
	memcpy(b->buf + b->len, &u, sizeof(u));
	b->len += sizeof(u);
	b->count++;
}

static int tb_send_del(struct lnet *ln, struct tbatch *b, u32 flags,
		       struct lnet_ioc_udsp_batch *out)
{
	return tb_send_cmd(ln, IOC_LNET_DEL_UDSP_BATCH, b, flags, out);
}

/*
 * 400 random rules (some fail: identical) on two instances, then 250
 * deletions at random places:
 * one by one with DEL_UDSP on one, in batches of up to 30 on the other,
 * deferring all but the last (values untouched while pending): the same
 * rules left, and every object holds the same values (the oracle's).
 */
static void test_del_batch_same_as_one_by_one(void **state)
{
	struct lnet *one = *state, *many;
	struct tbatch *b = tb_new();
	struct lnet_ioc_udsp_batch out;
	char *before;
	struct trule t;
	s32 idx;
	int i;

	setup((void **)&many);
	for (i = 0; i < 400; i++) {
		rnd_trule(&t, lnet_udsp_of(one)->us_count);
		if (!trule_add(one, &t))
			assert_int_equal(trule_add(many, &t), 0);
	}
	same_text(state_text(many), state_text(one));
	assert_true(lnet_udsp_of(one)->us_count > 250);
	before = values_text(many);
	for (i = 0; i < 250; i++) {
		idx = (s32)rnd(lnet_udsp_of(one)->us_count);
		assert_int_equal(lnet_udsp_del(one, idx), 0);
		tb_del(b, idx);
		if (b->count == 30) {
			assert_int_equal(tb_send_del(many, b, LNET_UDSP_BATCH_F_DEFER, &out), 0);
			assert_int_equal(out.iub_done, 30);
			assert_int_equal(out.iub_total, lnet_udsp_of(one)->us_count);
			assert_true(lnet_udsp_of(many)->us_pending);
			same_text(values_text(many), strdup(before));
		}
	}
	assert_int_equal(tb_send_del(many, b, 0, &out), 0);
	assert_false(lnet_udsp_of(many)->us_pending);
	same_text(state_text(many), state_text(one));
	oracle_check(many);
	free(before);
	free(b);
	teardown((void **)&many);
}

/*
 * A deletion batch is all or nothing: an idx past the list as the records
 * before it leave it (ENOENT), a record with a field set, a negative idx,
 * a bad flag (EINVAL): the rules and values as before, iub_done names the
 * record. An empty batch without DEFER flushes what is pending.
 */
static void test_del_batch_all_or_nothing(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_batch out;
	struct tbatch *b = tb_new();
	char *before;

	add_ok(ln, "tcp", NULL, NULL, 3, -1, 0);
	add_ok(ln, NULL, "10.0.0.[10-11]@tcp", NULL, 2, -1, 1);
	add_ok(ln, "10.0.0.1@tcp", "10.0.0.10@tcp", NULL, 0, -1, 2);
	before = state_text(ln);

	tb_del(b, 0);
	tb_del(b, 1);
	tb_del(b, 1);		/* one rule left: no idx 1 any more */
	assert_int_equal(tb_send_del(ln, b, 0, &out), -ENOENT);
	assert_int_equal(out.iub_done, 2);
	assert_int_equal(out.iub_total, 3);
	same_text(state_text(ln), strdup(before));

	tb_del(b, 2);
	tb_del(b, 0);
	((struct lnet_ioc_udsp *)(b->buf + b->len - sizeof(struct lnet_ioc_udsp)))->iou_priority = 1;
	assert_int_equal(tb_send_del(ln, b, 0, &out), -EINVAL);
	assert_int_equal(out.iub_done, 1);
	tb_del(b, -1);
	assert_int_equal(tb_send_del(ln, b, 0, &out), -EINVAL);
	assert_int_equal(out.iub_done, 0);
	tb_del(b, 0);
	assert_int_equal(tb_send_del(ln, b, 1U << 5, &out), -EINVAL);
	same_text(state_text(ln), strdup(before));

	/* deferred, then the empty batch flushes */
	tb_del(b, 2);
	tb_del(b, 0);
	assert_int_equal(tb_send_del(ln, b, LNET_UDSP_BATCH_F_DEFER, &out), 0);
	assert_int_equal(out.iub_total, 1);
	assert_true(lnet_udsp_of(ln)->us_pending);
	assert_int_equal(tb_send_del(ln, b, 0, &out), 0);
	assert_false(lnet_udsp_of(ln)->us_pending);
	rule_is(ln, 0, "|10.0.0.[10-11]@tcp||2");
	oracle_check(ln);
	free(before);
	free(b);
}

/*
 * Pending rules: the values stay as they were (also for GET_CONST_UDSP_INFO)
 * while GET_UDSP shows the rules; what re-flattens applies all of them: an
 * empty batch, ADD_UDSP, DEL_UDSP, a new peer NI, a new local NI.
 */
static void test_batch_pending(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_info ci;
	struct tbatch *b = tb_new();
	char *before;

	add_ok(ln, NULL, "tcp", NULL, 4, -1, 0);
	before = values_text(ln);
	tb_add(b, NULL, "10.0.0.[10-30]@tcp", NULL, 1, 0);
	tb_add(b, "tcp", NULL, NULL, 2, -1);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	same_text(values_text(ln), strdup(before));
	rules_count(ln, 3);
	rule_is(ln, 0, "|10.0.0.[10-30]@tcp||1");
	info(ln, "10.0.0.11@tcp", 1, &ci);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_CONST_UDSP_INFO, &ci,
				    sizeof(ci), false), 0);
	assert_int_equal(ci.cud_nid_priority, UNSET);
	/* an empty batch without the flag: the flush */
	assert_int_equal(tb_send(ln, b, 0, NULL), 0);
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), 1);
	assert_int_equal(net_prio(ln, "tcp"), 2);
	oracle_check(ln);

	/* a new peer NI while pending: everything applied, it too */
	tb_add(b, NULL, "10.0.0.[20-29]@tcp", NULL, 6, 0);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), 1);
	add_peer_ni(ln, "10.0.0.10@tcp", "10.0.0.22@tcp");
	assert_false(lnet_udsp_of(ln)->us_pending);
	assert_int_equal(lpni_prio(ln, "10.0.0.22@tcp"), 6);
	oracle_check(ln);

	/* a new local NI, ADD_UDSP and DEL_UDSP flush too */
	tb_add(b, "10.0.0.3@tcp", NULL, NULL, 9, -1);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	add_ni(ln, "tcp", "eth4");
	assert_int_equal(ni_prio(ln, "10.0.0.3@tcp"), 9);
	oracle_check(ln);
	tb_add(b, NULL, "10.0.0.22@tcp", NULL, 8, 0);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	add_ok(ln, NULL, "o2ib", NULL, 3, -1, 6);
	assert_int_equal(lpni_prio(ln, "10.0.0.22@tcp"), 8);
	oracle_check(ln);
	tb_add(b, NULL, "10.0.0.11@tcp", NULL, 5, 0);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	assert_int_equal(del_rule(ln, 6), 0);
	assert_int_equal(lpni_prio(ln, "10.0.0.11@tcp"), 5);
	oracle_check(ln);

	/* left pending: unconfigure (teardown) frees everything */
	tb_add(b, NULL, "tcp1", NULL, 5, 0);
	assert_int_equal(tb_send(ln, b, LNET_UDSP_BATCH_F_DEFER, NULL), 0);
	assert_true(lnet_udsp_of(ln)->us_pending);
	free(before);
	free(b);
}

static int tb_raw(struct lnet *ln, struct tbatch *b, u32 flags, u32 count, s32 idx,
		  bool may_modify, struct lnet_ioc_udsp_batch *out)
{
	struct lnet_ioc_udsp_batch h = { .iub_flags = flags, .iub_count = count,
					 .iub_idx = idx };
	int rc;

	h.iub_hdr.ioc_len = b->len;
	h.iub_hdr.ioc_version = LNET_IOC_VERSION;
	memcpy(b->buf, &h, sizeof(h));
	rc = lnet_ioctl(ln, IOC_LNET_ADD_UDSP_BATCH, b->buf, b->len, may_modify);
	memcpy(out, b->buf, sizeof(*out));
	return rc;
}

static int get_batch(struct lnet *ln, u8 *buf, u32 len, s32 idx, u32 flags, u32 count)
{
	struct lnet_ioc_udsp_batch h = { .iub_flags = flags, .iub_count = count,
					 .iub_idx = idx };

	h.iub_hdr.ioc_len = len;
	h.iub_hdr.ioc_version = LNET_IOC_VERSION;
	memcpy(buf, &h, sizeof(h));
	return lnet_ioctl(ln, IOC_LNET_GET_UDSP_BATCH, buf, len, false);
}

/* The framing of both batch commands and each of their errors. */
static void test_batch_errors(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_udsp_batch out, *g;
	struct tbatch *b = tb_new();
	u8 *buf = calloc(1, LNET_IOC_MAX_LEN), *rec;
	struct lnet_udsp_desc d;
	u32 off, i;

	tb_add(b, NULL, "tcp1", NULL, 1, -1);
	tb_add(b, NULL, "o2ib", NULL, 2, -1);
	assert_int_equal(tb_raw(ln, b, 2, 2, 0, true, &out), -EINVAL);	/* flag */
	assert_int_equal(tb_raw(ln, b, 0, 2, 1, true, &out), -EINVAL);	/* idx */
	assert_int_equal(tb_raw(ln, b, 0, 3, 0, true, &out), -EINVAL);	/* count */
	assert_int_equal(out.iub_done, 2);
	assert_int_equal(tb_raw(ln, b, 0, 1, 0, true, &out), -EINVAL);	/* bytes left */
	assert_int_equal(out.iub_done, 1);
	assert_int_equal(tb_raw(ln, b, 0, 100000, 0, true, &out), -EINVAL);
	assert_int_equal(tb_raw(ln, b, 0, 2, 0, false, &out), -EPERM);
	/* iub_reserved */
	memcpy(&out, b->buf, sizeof(out));
	out.iub_flags = 0;
	out.iub_idx = 0;
	out.iub_count = 2;
	out.iub_reserved = 1;
	memcpy(b->buf, &out, sizeof(out));
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_ADD_UDSP_BATCH, b->buf, b->len, true),
			 -EINVAL);
	/* a record whose ioc_len runs past the end */
	((struct lnet_ioc_udsp *)(b->buf + BATCH_HDR))->iou_hdr.ioc_len = LNET_IOC_MAX_LEN;
	assert_int_equal(tb_raw(ln, b, 0, 2, 0, true, &out), -EINVAL);
	assert_int_equal(out.iub_done, 0);
	rules_count(ln, 0);
	b->len = BATCH_HDR;
	b->count = 0;

	/* GET: 50 rules, fetched with rooms of every size from one rule up */
	for (i = 0; i < 50; i++) {
		char dst[64];

		snprintf(dst, sizeof(dst), "10.0.%u.[1-%u]@tcp", i, i + 1);
		tb_add(b, NULL, dst, NULL, i, -1);
	}
	assert_int_equal(tb_send(ln, b, 0, &out), 0);
	g = (struct lnet_ioc_udsp_batch *)buf;
	assert_int_equal(get_batch(ln, buf, BATCH_HDR + 10, 0, 0, 0), -ENOSPC);
	assert_int_equal(g->iub_done, 160);
	assert_int_equal(get_batch(ln, buf, LNET_IOC_MAX_LEN, 0, 1, 0), -EINVAL);
	assert_int_equal(get_batch(ln, buf, LNET_IOC_MAX_LEN, 0, 0, 1), -EINVAL);
	assert_int_equal(get_batch(ln, buf, LNET_IOC_MAX_LEN, -1, 0, 0), -EINVAL);
	assert_int_equal(get_batch(ln, buf, LNET_IOC_MAX_LEN, 50, 0, 0), 0);
	assert_int_equal(g->iub_count, 0);
	assert_int_equal(g->iub_total, 50);
	for (u32 room = 160; room < 1000; room += 170) {
		char want[4 * LNET_EXPR_STR_MAX], got[4 * LNET_EXPR_STR_MAX];
		s32 idx = 0;

		while (idx < 50) {
			assert_int_equal(get_batch(ln, buf, BATCH_HDR + room, idx, 0, 0), 0);
			assert_int_equal(g->iub_total, 50);
			assert_int_equal(g->iub_count, room / 160 < 50 - (u32)idx ?
						       room / 160 : 50 - (u32)idx);
			assert_int_equal(g->iub_done, g->iub_count * 160);
			rec = buf + BATCH_HDR;
			for (off = 0; off < g->iub_done; off += 160, idx++) {
				assert_int_equal(lnet_udsp_demarshal(rec + off, 160, &d, NULL, 0), 0);
				assert_int_equal(d.idx, idx);
				snprintf(got, sizeof(got), "|");
				lnet_nidexpr_print(&d.dst, got + 1, sizeof(got) - 1);
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "||%u",
					 d.priority);
				assert_int_equal(get_rule(ln, idx, want, sizeof(want)), 0);
				assert_string_equal(got, want);
			}
		}
	}
	free(buf);
	free(b);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_order),
		T(test_duplicates),
		T(test_delete_all),
		T(test_net_priorities),
		T(test_ni_priorities),
		T(test_ni_priorities_delete),
		T(test_peer_priorities),
		T(test_pair_lists),
		T(test_pair_cross_net),
		T(test_router_lists),
		T(test_const_info),
		T(test_get_errors),
		T(test_api),
		T(test_random_against_oracle),
		T(test_batch_same_as_one_by_one),
		T(test_batch_all_or_nothing),
		T(test_del_batch_same_as_one_by_one),
		T(test_del_batch_all_or_nothing),
		T(test_batch_pending),
		T(test_batch_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
