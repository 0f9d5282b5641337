// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcfg value parsers and cfg_policy_finish(): values, ranges, and the
 * exact messages users see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../libcfg/ops_priv.h"
#include "../../libcfg/ip2nets.h"

static struct cfg_err err;

static void reset_err(void)
{
	memset(&err, 0, sizeof(err));
}

/* --- cfg_fail and the constructors ---------------------------------------- */

static void test_fail_fills_message_and_loc(void **state)
{
	struct cfg_loc loc = { .line = 3, .col = 7 };

	reset_err();
	assert_int_equal(cfg_fail(&err, -EINVAL, &loc, "bad %s %d", "x", 5), -EINVAL);
	assert_string_equal(err.msg, "bad x 5");
	assert_int_equal(err.loc.line, 3);
	assert_int_equal(err.loc.col, 7);
	assert_int_equal(cfg_fail(&err, -ERANGE, NULL, "again"), -ERANGE);
	assert_string_equal(err.msg, "again");
	assert_int_equal(err.loc.line, 0);
	assert_int_equal(err.loc.col, 0);
	assert_int_equal(cfg_fail(NULL, -ENOENT, &loc, "nowhere"), -ENOENT);
}

static void test_init(void **state)
{
	struct cfg_net n;
	struct cfg_peer p;
	struct cfg_policy pol;

	memset(&n, 0x5a, sizeof(n));
	cfg_net_init(&n);
	assert_int_equal(n.nifs, 0);
	assert_int_equal(n.net_id, 0);
	assert_int_equal(n.tun.peer_timeout, -1);
	assert_int_equal(n.tun.peer_credits, -1);
	assert_int_equal(n.tun.peer_buffer_credits, -1);
	assert_int_equal(n.tun.credits, -1);
	memset(&p, 0x5a, sizeof(p));
	cfg_peer_init(&p);
	assert_int_equal(p.nnids, 0);
	assert_int_equal(p.flags, 0);
	assert_true(lnet_nid_is_zero(&p.prim));
	memset(&pol, 0x5a, sizeof(pol));
	cfg_policy_init(&pol);
	assert_int_equal(pol.d.idx, -1);
	assert_int_equal(pol.d.action, LNET_UDSP_ACTION_NONE);
	assert_false(lnet_nidexpr_present(&pol.d.src));
	assert_false(lnet_nidexpr_present(&pol.d.dst));
	assert_false(lnet_nidexpr_present(&pol.d.rte));
}

/* --- integers -------------------------------------------------------------- */

static void u32_ok(const char *s, u32 min, u32 max, u32 want)
{
	u32 v = 12345;

	reset_err();
	assert_int_equal(cfg_parse_u32("--priority", s, min, max, &v, &err), 0);
	assert_int_equal(v, want);
	assert_string_equal(err.msg, "");
}

static void u32_bad(const char *s, u32 min, u32 max, int rc, const char *msg)
{
	u32 v = 12345;

	reset_err();
	assert_int_equal(cfg_parse_u32("--priority", s, min, max, &v, &err), rc);
	assert_int_equal(v, 12345);
	assert_string_equal(err.msg, msg);
}

static void test_u32(void **state)
{
	u32_ok("0", 0, 10, 0);
	u32_ok("10", 0, 10, 10);
	u32_ok("007", 0, 10, 7);
	u32_ok("4294967294", 0, 4294967294U, 4294967294U);
	u32_ok("4294967295", 0, UINT32_MAX, UINT32_MAX);
	u32_bad("11", 0, 10, -ERANGE, "invalid --priority '11': expected an integer 0-10");
	u32_bad("0", 1, 10, -ERANGE, "invalid --priority '0': expected an integer 1-10");
	u32_bad("4294967295", 0, 4294967294U, -ERANGE,
		"invalid --priority '4294967295': expected an integer 0-4294967294");
	u32_bad("4294967296", 0, UINT32_MAX, -ERANGE,
		"invalid --priority '4294967296': expected an integer 0-4294967295");
	u32_bad("99999999999999999999999", 0, UINT32_MAX, -ERANGE,
		"invalid --priority '99999999999999999999999': expected an integer 0-4294967295");
	u32_bad("abc", 0, 4294967294U, -EINVAL,
		"invalid --priority 'abc': expected an integer 0-4294967294");
	u32_bad("", 0, 10, -EINVAL, "invalid --priority '': expected an integer 0-10");
	u32_bad("1a", 0, 10, -EINVAL, "invalid --priority '1a': expected an integer 0-10");
	u32_bad(" 1", 0, 10, -EINVAL, "invalid --priority ' 1': expected an integer 0-10");
	u32_bad("1 ", 0, 10, -EINVAL, "invalid --priority '1 ': expected an integer 0-10");
	u32_bad("+1", 0, 10, -EINVAL, "invalid --priority '+1': expected an integer 0-10");
	u32_bad("-1", 0, 10, -EINVAL, "invalid --priority '-1': expected an integer 0-10");
	u32_bad("0x1", 0, 10, -EINVAL, "invalid --priority '0x1': expected an integer 0-10");
	u32_bad("1.0", 0, 10, -EINVAL, "invalid --priority '1.0': expected an integer 0-10");
}

static void s32_ok(const char *s, s32 min, s32 max, s32 want)
{
	s32 v = 12345;

	reset_err();
	assert_int_equal(cfg_parse_s32("--idx", s, min, max, &v, &err), 0);
	assert_int_equal(v, want);
}

static void s32_bad(const char *s, s32 min, s32 max, int rc, const char *msg)
{
	s32 v = 12345;

	reset_err();
	assert_int_equal(cfg_parse_s32("--idx", s, min, max, &v, &err), rc);
	assert_int_equal(v, 12345);
	assert_string_equal(err.msg, msg);
}

static void test_s32(void **state)
{
	s32_ok("-1", -1, INT32_MAX, -1);
	s32_ok("0", -1, INT32_MAX, 0);
	s32_ok("-0", -1, 5, 0);
	s32_ok("2147483647", -1, INT32_MAX, INT32_MAX);
	s32_ok("-2147483648", INT32_MIN, INT32_MAX, INT32_MIN);
	s32_ok("86400", -1, 86400, 86400);
	s32_bad("-2", -1, INT32_MAX, -ERANGE,
		"invalid --idx '-2': expected an integer -1-2147483647");
	s32_bad("2147483648", -1, INT32_MAX, -ERANGE,
		"invalid --idx '2147483648': expected an integer -1-2147483647");
	s32_bad("-2147483649", INT32_MIN, INT32_MAX, -ERANGE,
		"invalid --idx '-2147483649': expected an integer -2147483648-2147483647");
	s32_bad("86401", -1, 86400, -ERANGE, "invalid --idx '86401': expected an integer -1-86400");
	s32_bad("-", -1, 5, -EINVAL, "invalid --idx '-': expected an integer -1-5");
	s32_bad("--1", -1, 5, -EINVAL, "invalid --idx '--1': expected an integer -1-5");
	s32_bad("", -1, 5, -EINVAL, "invalid --idx '': expected an integer -1-5");
	s32_bad("+3", -1, 5, -EINVAL, "invalid --idx '+3': expected an integer -1-5");
	s32_bad("3x", -1, 5, -EINVAL, "invalid --idx '3x': expected an integer -1-5");
	s32_bad("-1 ", -1, 5, -EINVAL, "invalid --idx '-1 ': expected an integer -1-5");
}

/* Command-line words: strtol(..., 0) forms, whole, in range; the same messages. */
static void test_arg_numbers(void **state)
{
	static const struct {
		const char *s;
		int rc;
		s32 v;
	} cases[] = {
		{ "16", 0, 16 }, { "0x10", 0, 16 }, { "0X1f", 0, 31 }, { "010", 0, 8 },
		{ "0", 0, 0 }, { "00", 0, 0 }, { "-0x10", 0, -16 }, { "-010", 0, -8 },
		{ "0x7fffffff", 0, INT32_MAX }, { "-0x80000000", 0, INT32_MIN },
		{ "08", -EINVAL }, { "0x", -EINVAL }, { "0xg", -EINVAL }, { "1a", -EINVAL },
		{ "", -EINVAL }, { "+1", -EINVAL }, { " 1", -EINVAL }, { "0x 1", -EINVAL },
		{ "0x80000000", -ERANGE }, { "0x10000000000000000", -ERANGE },
	};
	char msg[128];
	size_t i;
	s32 v;
	u32 u;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 12345;
		reset_err();
		assert_int_equal(cfg_parse_arg_s32("--hop", cases[i].s, INT32_MIN, INT32_MAX,
						   &v, &err), cases[i].rc);
		assert_int_equal(v, cases[i].rc ? 12345 : cases[i].v);
		snprintf(msg, sizeof(msg),
			 "invalid --hop '%s': expected an integer -2147483648-2147483647",
			 cases[i].s);
		assert_string_equal(err.msg, cases[i].rc ? msg : "");
	}
	reset_err();
	assert_int_equal(cfg_parse_arg_u32("--health", "0x3e8", 0, 1000, &u, &err), 0);
	assert_int_equal(u, 1000);
	assert_int_equal(cfg_parse_arg_u32("--health", "01751", 0, 1000, &u, &err), -ERANGE);
	assert_string_equal(err.msg, "invalid --health '01751': expected an integer 0-1000");
	reset_err();
	assert_int_equal(cfg_parse_arg_u32("--health", "-1", 0, 1000, &u, &err), -EINVAL);
	/* YAML stays decimal: 010 is ten, 0x10 is not a number */
	assert_int_equal(cfg_parse_u32("priority", "010", 0, 100, &u, &err), 0);
	assert_int_equal(u, 10);
	assert_int_equal(cfg_parse_u32("priority", "0x10", 0, 100, &u, &err), -EINVAL);
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "true", "yes", "on", "1", "TRUE", "Yes", "oN" };
	static const char *const no[] = { "false", "no", "off", "0", "FALSE", "No", "OFF" };
	static const char *const bad[] = { "", "2", "y", "n", "truee", "enable", " on" };
	char want[128];
	size_t i;
	bool v;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = false;
		assert_int_equal(cfg_parse_bool("lock_prim", yes[i], &v, &err), 0);
		assert_true(v);
		v = true;
		assert_int_equal(cfg_parse_bool("lock_prim", no[i], &v, &err), 0);
		assert_false(v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = true;
		reset_err();
		assert_int_equal(cfg_parse_bool("lock_prim", bad[i], &v, &err), -EINVAL);
		assert_true(v);
		snprintf(want, sizeof(want),
			 "invalid lock_prim '%s': expected true/false, yes/no, on/off or 1/0",
			 bad[i]);
		assert_string_equal(err.msg, want);
	}
}

/* --- nets, NIDs, expressions: the NID library's reason in our frame ------- */

/* "invalid <what> '<value>': <reason the NID library gives>" */
static void assert_framed(const char *what, const char *value, const char *why)
{
	char want[600];

	snprintf(want, sizeof(want), "invalid %s '%s': %s", what, value, why);
	assert_string_equal(err.msg, want);
	assert_true(strlen(why) > 0);
}

static void test_net(void **state)
{
	char why[256];
	u32 id = 7, want;

	assert_int_equal(cfg_parse_net("--net", "tcp1", &id, &err), 0);
	assert_int_equal(id, LNET_NET_ID(LNET_LND_TCP, 1));
	assert_int_equal(cfg_parse_net("--net", "tcp", &id, &err), 0);
	assert_int_equal(id, LNET_NET_ID(LNET_LND_TCP, 0));
	assert_int_equal(cfg_parse_net("net", "o2ib3", &id, &err), 0);
	assert_int_equal(id, LNET_NET_ID(LNET_LND_O2IB, 3));
	reset_err();
	want = id;
	assert_int_equal(cfg_parse_net("--net", "foo1", &id, &err), -EINVAL);
	assert_int_equal(id, want);
	assert_int_equal(lnet_net_parse("foo1", &id, why, sizeof(why)), -EINVAL);
	assert_framed("--net", "foo1", why);
	reset_err();
	assert_int_equal(cfg_parse_net("--net", "tcp65536", &id, &err), -EINVAL);
	lnet_net_parse("tcp65536", &id, why, sizeof(why));
	assert_framed("--net", "tcp65536", why);
}

static void test_nid(void **state)
{
	struct lnet_nid nid;
	char why[256], buf[LNET_NID_STR_MAX];

	assert_int_equal(cfg_parse_nid("--nid", "10.0.0.1@tcp", &nid, &err), 0);
	assert_int_equal(lnet_nid_print(&nid, buf, sizeof(buf)), strlen("10.0.0.1@tcp"));
	assert_string_equal(buf, "10.0.0.1@tcp");
	assert_int_equal(cfg_parse_nid("--prim_nid", "5@gni1", &nid, &err), 0);
	lnet_nid_print(&nid, buf, sizeof(buf));
	assert_string_equal(buf, "5@gni1");
	reset_err();
	assert_int_equal(cfg_parse_nid("--nid", "10.0.0.256@tcp", &nid, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid --nid '10.0.0.256@tcp': octet '256' is out of range 0-255");
	/* no "@net": tcp, as Lustre; the message says so when that fails */
	assert_int_equal(cfg_parse_nid("--nid", "10.0.0.1", &nid, &err), 0);
	lnet_nid_print(&nid, buf, sizeof(buf));
	assert_string_equal(buf, "10.0.0.1@tcp");
	assert_int_equal(cfg_parse_nid("--nid", "2001:db8::1", &nid, &err), 0);
	lnet_nid_print(&nid, buf, sizeof(buf));
	assert_string_equal(buf, "2001:db8::1@tcp");
	reset_err();
	assert_int_equal(cfg_parse_nid("--nid", "10.0.0.256", &nid, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid --nid '10.0.0.256': octet '256' is out of range "
			    "0-255 (a NID without '@<net>' is on tcp)");
	reset_err();
	assert_int_equal(cfg_parse_nid("--nid", "", &nid, &err), -EINVAL);
	lnet_nid_parse("", &nid, why, sizeof(why));
	assert_framed("--nid", "", why);
	reset_err();
	assert_int_equal(cfg_parse_nid("--nid", "127.0.0.1@tcp", &nid, &err), -EINVAL);
	lnet_nid_parse("127.0.0.1@tcp", &nid, why, sizeof(why));
	assert_framed("--nid", "127.0.0.1@tcp", why);
}

static void test_nidexpr(void **state)
{
	struct lnet_nidexpr e;
	char why[256];

	assert_int_equal(cfg_parse_nidexpr("--src", "10.0.0.[1-3]@tcp", &e, &err), 0);
	assert_int_equal(e.ne_lnd, LNET_LND_TCP);
	assert_int_equal(e.ne_kind, LNET_UDSP_KIND_IPV4);
	assert_int_equal(cfg_parse_nidexpr("--dst", "o2ib[1-3]", &e, &err), 0);
	assert_int_equal(e.ne_lnd, LNET_LND_O2IB);
	assert_int_equal(e.ne_kind, LNET_UDSP_KIND_NET);
	assert_int_equal(cfg_parse_nidexpr("--rte", "[1-3]@gni", &e, &err), 0);
	assert_int_equal(e.ne_kind, LNET_UDSP_KIND_NUM);
	reset_err();
	assert_int_equal(cfg_parse_nidexpr("--src", "10.0.0.256@tcp", &e, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid --src '10.0.0.256@tcp': octet '256' is out of range 0-255");
	reset_err();
	assert_int_equal(cfg_parse_nidexpr("--dst", "10.0.0.[5-1]@tcp", &e, &err), -EINVAL);
	lnet_nidexpr_parse("10.0.0.[5-1]@tcp", &e, why, sizeof(why));
	assert_framed("--dst", "10.0.0.[5-1]@tcp", why);
	reset_err();
	assert_int_equal(cfg_parse_nidexpr("dst", "tcp x", &e, &err), -EINVAL);
	lnet_nidexpr_parse("tcp x", &e, why, sizeof(why));
	assert_framed("dst", "tcp x", why);
}

/* IPv4 CIDR, as Lustre takes it: the same expression as its octet ranges. */
static void test_nidexpr_ipv4_cidr(void **state)
{
	static const char *const same[][2] = {
		{ "10.0.0.0/24@tcp", "10.0.0.*@tcp" },
		{ "10.0.0.77/24@tcp1", "10.0.0.*@tcp1" },
		{ "10.0.16.0/20@tcp", "10.0.[16-31].*@tcp" },
		{ "192.168.1.130/25@o2ib", "192.168.1.[128-255]@o2ib" },
		{ "10.1.2.3/32@tcp", "10.1.2.3@tcp" },
		{ "10.1.2.3/0@tcp", "*.*.*.*@tcp" },
		{ "172.16.0.0/12@tcp", "172.[16-31].*.*@tcp" },
	};
	static const char *const bad[] = {
		"10.0.0.0/33@tcp", "10.0.0/24@tcp", "10.0.0.256/8@tcp", "10.0.0.0/@tcp",
		"10.0.0.0/x@tcp", "10.0.0.0.0/8@tcp",
	};
	struct lnet_nidexpr a, b;
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		assert_int_equal(cfg_parse_nidexpr("--dst", same[i][0], &a, &err), 0);
		assert_int_equal(cfg_parse_nidexpr("--dst", same[i][1], &b, &err), 0);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset_err();
		assert_int_equal(cfg_parse_nidexpr("--dst", bad[i], &a, &err), -EINVAL);
		snprintf(want, sizeof(want), "invalid --dst '%s': an IPv4 CIDR is four octets "
			 "0-255, '/' and a prefix length 0-32, e.g. '10.0.0.0/24@tcp'", bad[i]);
		assert_string_equal(err.msg, want);
	}
	/* IPv6 CIDR is the NID library's own */
	assert_int_equal(cfg_parse_nidexpr("--dst", "2001:db8::/64@tcp", &a, &err), 0);
}

/* --- interface lists ---------------------------------------------------------- */

static void ifnames_bad(struct cfg_net *n, const char *s, int rc, const char *why)
{
	u32 before = n->nifs;
	char want[600];

	reset_err();
	assert_int_equal(cfg_parse_ifnames("--if", s, n, &err), rc);
	assert_int_equal(n->nifs, before);
	snprintf(want, sizeof(want), "invalid --if '%s': %s", s, why);
	assert_string_equal(err.msg, want);
}

static void test_ifnames(void **state)
{
	struct cfg_net n;
	char list[1024] = "";
	int i;

	cfg_net_init(&n);
	assert_int_equal(cfg_parse_ifnames("--if", "eth0,eth1", &n, &err), 0);
	assert_int_equal(n.nifs, 2);
	assert_string_equal(n.ifnames[0], "eth0");
	assert_string_equal(n.ifnames[1], "eth1");
	assert_int_equal(cfg_parse_ifnames("interfaces", "ib0", &n, &err), 0);
	assert_int_equal(n.nifs, 3);
	assert_string_equal(n.ifnames[2], "ib0");
	assert_int_equal(cfg_parse_ifnames("--if", "abcdefghijklmno", &n, &err), 0);
	assert_string_equal(n.ifnames[3], "abcdefghijklmno");

	/* Lustre's IF[partitions]: the list is checked and dropped */
	assert_int_equal(cfg_parse_ifnames("--if", "eth8[0,1],eth9[2-3]", &n, &err), 0);
	assert_int_equal(n.nifs, 6);
	assert_string_equal(n.ifnames[4], "eth8");
	assert_string_equal(n.ifnames[5], "eth9");
	n.nifs = 4;
	ifnames_bad(&n, "eth9[x]", -EINVAL,
		    "expected IF or IF[partitions], e.g. eth0[0,1] (partitions 0-1023)");
	ifnames_bad(&n, "[0]", -EINVAL,
		    "expected IF or IF[partitions], e.g. eth0[0,1] (partitions 0-1023)");
	ifnames_bad(&n, "eth9[0]x", -EINVAL,
		    "expected IF or IF[partitions], e.g. eth0[0,1] (partitions 0-1023)");
	ifnames_bad(&n, "eth2,eth0", -EINVAL, "interface 'eth0' is listed twice");
	ifnames_bad(&n, "eth5,eth5", -EINVAL, "interface 'eth5' is listed twice");
	ifnames_bad(&n, "abcdefghijklmnop", -EINVAL, "an interface name has 1-15 characters");
	ifnames_bad(&n, "", -EINVAL, "empty interface name");
	ifnames_bad(&n, "eth7,", -EINVAL, "empty interface name");
	ifnames_bad(&n, ",eth7", -EINVAL, "empty interface name");
	ifnames_bad(&n, "eth7,,eth8", -EINVAL, "empty interface name");
	ifnames_bad(&n, "a/b", -EINVAL, "'/' is not allowed in an interface name");
	ifnames_bad(&n, "..", -EINVAL, "'.' and '..' are not interface names");
	ifnames_bad(&n, "eth 0", -EINVAL,
		    "whitespace and ':' are not allowed in an interface name");
	assert_string_equal(n.ifnames[3], "abcdefghijklmno");

	cfg_net_fini(&n);
	assert_int_equal(n.nifs, 0);
	assert_null(n.ifnames);
	for (i = 0; i < CFG_MAX_IFS; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%se%d",
			 i ? "," : "", i);
	assert_int_equal(cfg_parse_ifnames("--if", list, &n, &err), 0);
	assert_int_equal(n.nifs, CFG_MAX_IFS);
	assert_string_equal(n.ifnames[CFG_MAX_IFS - 1], "e31");
	ifnames_bad(&n, "x0", -E2BIG, "at most 32 interfaces per net");
	assert_int_equal(cfg_net_append(&n, "x0"), -E2BIG);
	cfg_net_fini(&n);
}

/* --- NID lists ------------------------------------------------------------------ */

static void nidlist_bad(struct cfg_peer *p, const char *s, int rc, const char *why)
{
	u32 before = p->nnids;
	char want[1200];

	reset_err();
	assert_int_equal(cfg_parse_nidlist("--nid", s, p, &err), rc);
	assert_int_equal(p->nnids, before);
	snprintf(want, sizeof(want), "invalid --nid '%s': %s", s, why);
	assert_string_equal(err.msg, want);
}

static void assert_nid(const struct lnet_nid *nid, const char *want)
{
	char buf[LNET_NID_STR_MAX];

	assert_true(lnet_nid_print(nid, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

static struct lnet_nid nid_of(const char *s)
{
	struct lnet_nid nid;

	assert_int_equal(cfg_parse_nid("nid", s, &nid, &err), 0);
	return nid;
}

static void test_nidlist(void **state)
{
	struct cfg_peer p;

	cfg_peer_init(&p);
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.[1-3]@tcp,5@gni", &p, &err), 0);
	assert_int_equal(p.nnids, 4);
	assert_nid(&p.nids[0], "10.0.0.1@tcp");
	assert_nid(&p.nids[1], "10.0.0.2@tcp");
	assert_nid(&p.nids[2], "10.0.0.3@tcp");
	assert_nid(&p.nids[3], "5@gni");
	assert_int_equal(cfg_parse_nidlist("nid", "10.1.[1,3].7@tcp1", &p, &err), 0);
	assert_int_equal(p.nnids, 6);
	assert_nid(&p.nids[4], "10.1.1.7@tcp1");
	assert_nid(&p.nids[5], "10.1.3.7@tcp1");
	assert_int_equal(cfg_parse_nidlist("--nid", "2001:db8::1@tcp", &p, &err), 0);
	assert_int_equal(p.nnids, 7);
	assert_nid(&p.nids[6], "2001:db8::1@tcp");
	/* without "@net": tcp, ranges too */
	assert_int_equal(cfg_parse_nidlist("--nid", "10.5.0.[1-2],10.5.1.1@tcp1", &p, &err), 0);
	assert_int_equal(p.nnids, 10);
	assert_nid(&p.nids[7], "10.5.0.1@tcp");
	assert_nid(&p.nids[8], "10.5.0.2@tcp");
	assert_nid(&p.nids[9], "10.5.1.1@tcp1");

	nidlist_bad(&p, "10.0.0.9@tcp,10.0.0.2@tcp", -EINVAL,
		    "NID 10.0.0.2@tcp is listed twice");
	nidlist_bad(&p, "10.0.0.256@tcp", -EINVAL, "octet '256' is out of range 0-255");
	nidlist_bad(&p, "10.9.0.[1-2]@tcp,", -EINVAL, "empty NID in the list");
	nidlist_bad(&p, "10.0.0.9@tcp,,5@gni", -EINVAL, "empty NID in the list");
	nidlist_bad(&p, "", -EINVAL, "empty NID in the list");
	nidlist_bad(&p, "o2ib[1-2]", -EINVAL, "'o2ib[1-2]' is a net, expected NIDs");
	nidlist_bad(&p, "10.6.0.[1-2", -EINVAL,
		    "unclosed '[' in '[1-2': expected ']' (a NID without '@<net>' is on tcp)");
	nidlist_bad(&p, "10.7.0.*@tcp", -E2BIG, "a peer has at most 128 NIDs");
	nidlist_bad(&p, "2001:db8::[1-3]@tcp", -EINVAL,
		    "only IPv4 and numeric NID ranges on one net can be listed");

	cfg_peer_fini(&p);
	assert_int_equal(cfg_parse_nidlist("--nid", "10.2.0.[1-128]@tcp", &p, &err), 0);
	assert_int_equal(p.nnids, LNET_PEER_MAX_NIS);
	assert_nid(&p.nids[127], "10.2.0.128@tcp");
	nidlist_bad(&p, "10.3.0.1@tcp", -E2BIG, "a peer has at most 128 NIDs");
	cfg_peer_fini(&p);
}

/* --- growth: the size field and the lists (cfg.h) ---------------------------------- */

/* A struct that never went through its init macro is refused, by name. */
static void test_model_not_initialized(void **state)
{
	struct cfg_net n;
	struct cfg_peer p;
	struct cfg_route r;
	struct lnet_nid a = nid_of("10.0.0.1@tcp");

	memset(&n, 0, sizeof(n));
	memset(&p, 0, sizeof(p));
	memset(&r, 0, sizeof(r));
	reset_err();
	assert_int_equal(cfg_parse_ifnames("--if", "eth0", &n, &err), -EINVAL);
	assert_string_equal(err.msg, "struct cfg_net of 0 bytes: not set up by cfg_net_init()");
	assert_int_equal(cfg_net_append(&n, "eth0"), -EINVAL);
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.1@tcp", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "struct cfg_peer of 0 bytes: not set up by cfg_peer_init()");
	assert_int_equal(cfg_peer_append(&p, &a), -EINVAL);
	assert_int_equal(cfg_parse_gateways("--gateway", "10.0.0.1@tcp", &r, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "struct cfg_route of 0 bytes: not set up by cfg_route_init()");
	assert_int_equal(cfg_route_append(&r, &a), -EINVAL);
	assert_int_equal(n.nifs + p.nnids + r.ngws, 0);
}

/*
 * A program built against a later release passes a bigger struct: taken
 * while the fields this library does not know are zero, refused otherwise.
 */
static void test_model_newer_program(void **state)
{
	struct { struct cfg_peer p; u32 later; } big;
	char want[128];

	cfg_peer_init_size(&big.p, sizeof(big));
	assert_int_equal(big.p.size, sizeof(big));
	assert_int_equal(big.later, 0);
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.[1-2]@tcp", &big.p, &err), 0);
	assert_int_equal(big.p.nnids, 2);
	big.later = 7;
	reset_err();
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.3@tcp", &big.p, &err), -E2BIG);
	snprintf(want, sizeof(want),
		 "struct cfg_peer of %zu bytes: byte %zu is set, this library knows %zu",
		 sizeof(big), offsetof(__typeof__(big), later), sizeof(struct cfg_peer));
	assert_string_equal(err.msg, want);
	assert_int_equal(big.p.nnids, 2);
	cfg_peer_fini(&big.p);
}

/*
 * A program built against the first release passes its struct with the
 * first release's size: taken; one byte less was never set up.
 */
static void test_model_first_release(void **state)
{
	struct cfg_peer p;
	char want[128];

	cfg_peer_init_size(&p, CFG_PEER_SIZE_0_1);
	assert_int_equal(p.size, CFG_PEER_SIZE_0_1);
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.1@tcp", &p, &err), 0);
	assert_int_equal(p.nnids, 1);
	p.size = CFG_PEER_SIZE_0_1 - 1;
	reset_err();
	assert_int_equal(cfg_parse_nidlist("--nid", "10.0.0.2@tcp", &p, &err), -EINVAL);
	snprintf(want, sizeof(want), "struct cfg_peer of %zu bytes: not set up by cfg_peer_init()",
		 CFG_PEER_SIZE_0_1 - 1);
	assert_string_equal(err.msg, want);
	assert_int_equal(p.nnids, 1);
	p.size = CFG_PEER_SIZE_0_1;
	cfg_peer_fini(&p);
}

/*
 * An older program's struct ends before the fields a later release
 * appended. This release is the first, so the tunables of cfg_net stand in
 * for such fields: a model whose first release ended before them. Init
 * writes only the older program's bytes, and the copy an entry point reads
 * has the tunables' defaults (-1), not what lies past the caller's struct.
 */
static void test_model_older_program(void **state)
{
	struct cfg_model older = cfg_net_model;
	char names[1][LNET_IFNAME_LEN] = { "eth3" };
	struct cfg_net old, full;
	u32 i;

	older.first = offsetof(struct cfg_net, tun);
	memset(&old, 0x5a, sizeof(old));	/* past the older struct: not the caller's */
	cfg_net_init_size(&old, older.first);
	assert_int_equal(old.size, older.first);
	assert_null(old.ifnames);
	for (i = 0; i < __LNET_TUN_MAX; i++)
		assert_int_equal(*lnet_ni_tun_ref(&old.tun, i), 0x5a5a5a5a);
	old.ifnames = names;	/* cfg_net_append() checks the real first release */
	old.nifs = 1;
	old.net_id = LNET_NET_ID(LNET_LND_TCP, 2);
	reset_err();
	assert_int_equal(cfg_model_read(&old, &full, &older, &err), 0);
	assert_int_equal(full.size, sizeof(full));
	assert_int_equal(full.net_id, LNET_NET_ID(LNET_LND_TCP, 2));
	assert_int_equal(full.nifs, 1);
	assert_string_equal(full.ifnames[0], "eth3");
	for (i = 0; i < __LNET_TUN_MAX; i++)
		assert_int_equal(*lnet_ni_tun_ref(&full.tun, i), -1);
	assert_int_equal(full.loc.line + full.loc.col, 0);
	/* smaller than that first release: refused, nothing read */
	old.size = older.first - 1;
	memset(&full, 0, sizeof(full));
	assert_int_equal(cfg_model_read(&old, &full, &older, &err), -EINVAL);
	assert_int_equal(full.size, 0);
}

/* A newer program's struct through the same copy: its known fields read, the rest must be zero. */
static void test_model_read_newer(void **state)
{
	struct { struct cfg_route r; u32 later; } big;
	struct cfg_route full;
	char want[128];

	cfg_route_init_size(&big.r, sizeof(big));
	assert_int_equal(big.r.hops, LNET_ROUTE_HOPS_UNSET);
	big.r.priority = 4;
	reset_err();
	assert_int_equal(cfg_model_read(&big.r, &full, &cfg_route_model, &err), 0);
	assert_int_equal(full.size, sizeof(full));
	assert_int_equal(full.priority, 4);
	assert_int_equal(full.hops, LNET_ROUTE_HOPS_UNSET);
	big.later = 1;
	assert_int_equal(cfg_model_read(&big.r, &full, &cfg_route_model, &err), -E2BIG);
	snprintf(want, sizeof(want),
		 "struct cfg_route of %zu bytes: byte %zu is set, this library knows %zu",
		 sizeof(big), offsetof(__typeof__(big), later), sizeof(struct cfg_route));
	assert_string_equal(err.msg, want);
}

/* Lists have no room of their own to track: cut short, they stay valid. */
static void test_model_lists(void **state)
{
	struct cfg_route r;
	struct lnet_nid gw;
	char s[32];
	u32 i;

	cfg_route_init(&r);
	assert_int_equal(r.size, sizeof(r));
	assert_int_equal(r.hops, LNET_ROUTE_HOPS_UNSET);
	for (i = 0; i < LNET_PEER_MAX_NIS; i++) {
		snprintf(s, sizeof(s), "10.1.%u.%u@tcp", i / 200, i % 200 + 1);
		gw = nid_of(s);
		assert_int_equal(cfg_route_append(&r, &gw), 0);
		if (i == 5)
			r.ngws = 3;	/* the caller drops the last three */
	}
	assert_int_equal(r.ngws, LNET_PEER_MAX_NIS - 3);
	assert_nid(&r.gws[2], "10.1.0.3@tcp");
	assert_nid(&r.gws[3], "10.1.0.7@tcp");
	assert_nid(&r.gws[r.ngws - 1], "10.1.0.128@tcp");
	assert_int_equal(cfg_parse_gateways("--gateway", "10.2.0.[1-3]@tcp", &r, &err), 0);
	assert_int_equal(r.ngws, LNET_PEER_MAX_NIS);
	assert_int_equal(cfg_route_append(&r, &gw), -E2BIG);
	cfg_route_fini(&r);
	assert_int_equal(r.ngws, 0);
	assert_null(r.gws);
	assert_int_equal(r.size, sizeof(r));	/* still usable */
	cfg_route_fini(&r);
}

/* --- cfg_policy_finish ---------------------------------------------------------- */

static void policy_set(struct cfg_policy *p, const char *src, const char *dst,
		       const char *rte)
{
	cfg_policy_init(p);
	if (src)
		assert_int_equal(cfg_parse_nidexpr("--src", src, &p->d.src, &err), 0);
	if (dst)
		assert_int_equal(cfg_parse_nidexpr("--dst", dst, &p->d.dst, &err), 0);
	if (rte)
		assert_int_equal(cfg_parse_nidexpr("--rte", rte, &p->d.rte, &err), 0);
}

static void finish_ok(const char *src, const char *dst, const char *rte,
		      bool has_prio, u32 prio, u32 action, u32 want_prio)
{
	struct cfg_policy p;

	policy_set(&p, src, dst, rte);
	reset_err();
	assert_int_equal(cfg_policy_finish(&p, has_prio, prio, &err), 0);
	assert_int_equal(p.d.action, action);
	assert_int_equal(p.d.priority, want_prio);
	assert_int_equal(p.d.idx, -1);
	assert_string_equal(err.msg, "");
}

static void test_finish_shapes(void **state)
{
	/* local net priority, explicit and derived */
	finish_ok("tcp", NULL, NULL, true, 3, LNET_UDSP_ACTION_PRIORITY, 3);
	finish_ok("tcp", NULL, NULL, false, 0, LNET_UDSP_ACTION_PRIORITY, 0);
	/* local NID priority */
	finish_ok("10.0.0.[1-2]@tcp", NULL, NULL, true, 4294967294U,
		  LNET_UDSP_ACTION_PRIORITY, 4294967294U);
	/* peer net priority */
	finish_ok(NULL, "o2ib1", NULL, true, 0, LNET_UDSP_ACTION_PRIORITY, 0);
	/* peer NID priority, derived 0 */
	finish_ok(NULL, "10.1.1.*@tcp", NULL, false, 0, LNET_UDSP_ACTION_PRIORITY, 0);
	/* NID pair */
	finish_ok("10.0.0.1@tcp", "10.1.1.*@tcp", NULL, false, 0,
		  LNET_UDSP_ACTION_PREFERRED_LIST, 0);
	/* router */
	finish_ok(NULL, "10.5.5.[1-100]@o2ib2", "10.1.1.[1-2]@tcp", false, 0,
		  LNET_UDSP_ACTION_PREFERRED_LIST, 0);
}

static void finish_bad(const char *src, const char *dst, const char *rte,
		       bool has_prio, u32 prio, int rc, const char *msg)
{
	struct cfg_policy p;

	policy_set(&p, src, dst, rte);
	p.loc.line = 9;
	p.loc.col = 4;
	reset_err();
	assert_int_equal(cfg_policy_finish(&p, has_prio, prio, &err), rc);
	assert_string_equal(err.msg, msg);
	assert_int_equal(err.loc.line, 9);
	assert_int_equal(err.loc.col, 4);
}

static void test_finish_rejects(void **state)
{
	finish_bad(NULL, NULL, NULL, false, 0, -EINVAL,
		   "a rule needs at least one of src, dst and rte");
	finish_bad(NULL, NULL, NULL, true, 1, -EINVAL,
		   "a rule needs at least one of src, dst and rte");
	finish_bad("tcp", NULL, NULL, true, 4294967295U, -ERANGE,
		   "invalid priority '4294967295': expected an integer 0-4294967294");
	finish_bad(NULL, NULL, "10.1.1.1@tcp", false, 0, -EINVAL,
		   "invalid rule (rte): --rte needs --dst: a router rule is --dst with --rte");
	finish_bad(NULL, NULL, "tcp", true, 2, -EINVAL,
		   "invalid rule (rte + priority 2): --rte needs --dst: a router rule is --dst with --rte");
	finish_bad("tcp", NULL, "10.1.1.1@tcp", false, 0, -EINVAL,
		   "invalid rule (src + rte): --src and --rte cannot be combined: a router rule is --dst with --rte");
	finish_bad("tcp", "tcp1", "10.1.1.1@tcp", false, 0, -EINVAL,
		   "invalid rule (src + dst + rte): --src, --dst and --rte cannot be combined: use --src with --dst, or --dst with --rte");
	finish_bad("tcp", "tcp1", NULL, true, 3, -EINVAL,
		   "invalid rule (src + dst + priority 3): a priority applies to one descriptor only: --src with --dst makes a preferred-NID rule, which takes no priority");
	finish_bad(NULL, "tcp1", "10.1.1.1@tcp", true, 0, -EINVAL,
		   "invalid rule (dst + rte + priority 0): a priority applies to one descriptor only: --dst with --rte makes a preferred-router rule, which takes no priority");
}

/* The settings in LNET_GLOBALS order, by index and by name, NULL past the last. */
static void test_global_specs(void **state)
{
#define G_NAME(name, id, min, max, def) #name,
	static const char *const names[] = { LNET_GLOBALS(G_NAME) };
#undef G_NAME
	const struct cfg_global_spec *s;
	unsigned int i, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++) {
		s = cfg_global_spec_at(i);
		assert_non_null(s);
		assert_string_equal(s->name, names[i]);
		assert_ptr_equal(cfg_global_find(names[i]), s);
	}
	assert_null(cfg_global_spec_at(n));
	assert_null(cfg_global_spec_at(~0U));
	assert_null(cfg_global_find("lnd_timeout"));	/* read-only: not settable */
	assert_null(cfg_global_find("retry"));
	s = cfg_global_find("retry_count");
	assert_int_equal(s->id, LNET_GLOBAL_RETRY_COUNT);
	assert_int_equal(s->min, LNET_GLOBAL_RETRY_COUNT_MIN);
	assert_int_equal(s->max, LNET_GLOBAL_RETRY_COUNT_MAX);
	assert_int_equal(s->def, LNET_GLOBAL_RETRY_COUNT_DEF);
}

/* The router buffer kinds by index, NULL past the last; their counts. */
static void test_buffers(void **state)
{
	const s32 bad_small[] = { -1, 1048577 };
	s32 v = 7;

	assert_string_equal(cfg_buf_name(LNET_BUF_TINY), "tiny");
	assert_string_equal(cfg_buf_name(LNET_BUF_SMALL), "small");
	assert_string_equal(cfg_buf_name(LNET_BUF_LARGE), "large");
	assert_null(cfg_buf_name(LNET_NBUF_KINDS));
	assert_null(cfg_buf_name(~0U));
	reset_err();
	assert_int_equal(cfg_parse_buffers("small", "0", LNET_BUF_SMALL, &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cfg_parse_buffers("small", "4096", LNET_BUF_SMALL, &v, &err), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cfg_parse_buffers("large", "1048576", LNET_BUF_LARGE, &v, &err), 0);
	assert_int_equal(v, 1048576);
	assert_int_equal(cfg_parse_buffers("tiny_buffers", "-2", LNET_BUF_TINY, &v, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "invalid tiny_buffers '-2': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_parse_buffers("large", "1048577", LNET_BUF_LARGE, &v, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "invalid large '1048577': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_parse_buffers("small", "-1", LNET_BUF_SMALL, &v, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid small '-1': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_parse_buffers("small", "x", LNET_BUF_SMALL, &v, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid small 'x': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(v, 1048576);
	/* YAML stays decimal; the command line reads Lustre's forms */
	assert_int_equal(cfg_parse_buffers("small", "0x1000", LNET_BUF_SMALL, &v, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid small '0x1000': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_parse_buffers("small", "010000", LNET_BUF_SMALL, &v, &err), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(cfg_parse_arg_buffers("small_buffers", "0x1000", LNET_BUF_SMALL, &v,
					       &err), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cfg_parse_arg_buffers("small_buffers", "010000", LNET_BUF_SMALL, &v,
					       &err), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cfg_parse_arg_buffers("small_buffers", "0x100001", LNET_BUF_SMALL, &v,
					       &err), -EINVAL);
	assert_string_equal(err.msg, "invalid small_buffers '0x100001': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_parse_arg_buffers("small_buffers", "09", LNET_BUF_SMALL, &v, &err),
			 -EINVAL);
	assert_int_equal(v, 4096);
	assert_int_equal(cfg_parse_buffers("huge", "1", LNET_NBUF_KINDS, &v, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid huge: no router buffer kind 3");
	/* cfg_buffers_set checks before it sends: no handle is needed to fail */
	assert_int_equal(cfg_buffers_set(NULL, bad_small, 2, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid small '1048577': expected 0 (the default) or an integer 1-1048576");
	assert_int_equal(cfg_buffers_set(NULL, bad_small, LNET_NBUF_KINDS + 1, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid router buffer kinds '4': there are 3");
}

/* CPT lists as Lustre writes them: the partitions named, or one line. */
static void test_cpts(void **state)
{
	static const struct { const char *s; int rc; uint64_t mask; } rows[] = {
		{ "[0,1]", 0, 0x3 }, { "[0-3]", 0, 0xf }, { "[0,2-3]", 0, 0xd },
		{ "0", 0, 0x1 }, { "[ 0 , 3 ]", 0, 0x9 }, { "[0-6/2]", 0, 0x55 },
		{ "[1023]", 0, 0 }, { "[63]", 0, 1ULL << 63 },
		{ "", -EINVAL, 0 }, { "[]", -EINVAL, 0 }, { "[0,]", -EINVAL, 0 },
		{ "[0,", -EINVAL, 0 }, { "[1-0]", -EINVAL, 0 }, { "[0-3/0]", -EINVAL, 0 },
		{ "[1024]", -EINVAL, 0 }, { "[x]", -EINVAL, 0 }, { "[0]x", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
	};
	struct cfg_err err = { 0 };
	uint64_t mask;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		mask = 0;
		assert_int_equal(cfg_parse_cpts("CPT", rows[i].s, &mask, &err), rows[i].rc);
		assert_true(mask == rows[i].mask);
	}
	assert_string_equal(err.msg,
			    "invalid CPT '-1': expected a list of partitions 0-1023 such as '[0,1]' or '[0-3]'");
	assert_int_equal(cfg_parse_cpts("CPT", "[0,1]", NULL, &err), 0);
}

/* Address ranges: IPv4 octet patterns and IPv6 prefixes, matched and refused. */
static void test_ip2nets_ranges(void **state)
{
	static const struct { const char *range; u8 a[4]; bool match; } v4[] = {
		{ "192.168.1.[2-20/2]", { 192, 168, 1, 4 }, true },
		{ "192.168.1.[2-20/2]", { 192, 168, 1, 5 }, false },
		{ "192.168.1.[2-20/2]", { 192, 168, 1, 22 }, false },
		{ "*.*.*.*", { 1, 2, 3, 4 }, true },
		{ "10.[0,2-3].*.1", { 10, 3, 9, 1 }, true },
		{ "10.[0,2-3].*.1", { 10, 1, 9, 1 }, false },
		{ "10.0.0.1", { 10, 0, 0, 1 }, true },
	};
	static const char *const bad[] = {
		"10.0.0", "10.0.0.256", "10.0.0.1.2", "10.[5-1].0.0", "10.[1,.0.0",
		"10.0.0.x", "", "2001:db8::/129", "2001:zz::", "10.0.0.[1-3/0]",
	};
	struct cfg_err err = { 0 };
	struct cfg_iprange r;
	u8 a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	size_t i;

	for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++) {
		assert_int_equal(cfg_iprange_parse("ip-range", v4[i].range, &r, &err), 0);
		assert_int_equal(cfg_iprange_match(&r, v4[i].a, 4), v4[i].match);
		assert_false(cfg_iprange_match(&r, a6, 16));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cfg_iprange_parse("ip-range", bad[i], &r, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid ip-range '10.0.0.[1-3/0]': expected an IPv4 pattern such as '192.168.1.[2-20/2]' or '10.*.*.*', or an IPv6 address[/prefix]");
	assert_int_equal(cfg_iprange_parse("ip-range", "2001:db8::/32", &r, &err), 0);
	assert_true(cfg_iprange_match(&r, a6, 16));
	assert_int_equal(cfg_iprange_parse("ip-range", "2001:db9::/31", &r, &err), 0);
	assert_true(cfg_iprange_match(&r, a6, 16));		/* db8 and db9 share 31 bits */
	assert_int_equal(cfg_iprange_parse("ip-range", "2001:db8::8", &r, &err), 0);
	assert_false(cfg_iprange_match(&r, a6, 16));
}

/* The interfaces of the matcher's cases. */
static const struct cfg_ifinfo ip2nets_ifs[] = {
	{ "lo", true, 0, { 0 } },
	{ "eth0", true, 4, { 192, 168, 0, 2 } },
	{ "eth1", true, 4, { 192, 168, 0, 4 } },
	{ "eth2", false, 4, { 192, 168, 0, 6 } },		/* down */
	{ "ib0", true, 4, { 10, 0, 0, 7 } },
	{ "v6", true, 16, { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } },
};

/* @rules (legacy form) on ip2nets_ifs: "net:if,if net:if" or the error. */
static const char *ip2nets_run(const char *rules, char *buf, size_t len)
{
	struct cfg_ip2nets set = { 0 };
	struct cfg_err err = { 0 };
	struct cfg_net *nets = NULL;
	size_t n = 0, i, off = 0;
	char net[LNET_NET_STR_MAX];
	u32 j;
	int rc = cfg_ip2nets_parse_legacy(rules, NULL, &set, &err);

	if (!rc)
		rc = cfg_ip2nets_eval(&set, ip2nets_ifs,
				      sizeof(ip2nets_ifs) / sizeof(ip2nets_ifs[0]), &nets, &n, &err);
	if (rc)
		snprintf(buf, len, "%s", err.msg);
	else
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		off += (size_t)snprintf(buf + off, len - off, "%s%s:", i ? " " : "",
					cfg_net_str(nets[i].net_id, net, sizeof(net)));
		for (j = 0; j < nets[i].nifs; j++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", j ? "," : "",
						nets[i].ifnames[j]);
	}
	cfg_ip2nets_free_nets(nets, n);
	cfg_ip2nets_release(&set);
	return buf;
}

/* Lustre's rules, one case a row. */
static void test_ip2nets_eval(void **state)
{
	static const struct { const char *rules, *want; } rows[] = {
		/* listed interfaces: all up, each in a range when there are ranges */
		{ "tcp(eth0,eth1) 192.168.0.*", "tcp:eth0,eth1" },
		{ "tcp(eth0,eth2)", "no ip2nets rule matches an interface of this node" },
		{ "tcp(eth0) 10.*.*.*", "no ip2nets rule matches an interface of this node" },
		{ "tcp(nosuch)", "no ip2nets rule matches an interface of this node" },
		/* ranges only: every up interface in a range (eth2 is down) */
		{ "tcp 192.168.0.[2-6]", "tcp:eth0,eth1" },
		{ "o2ib 10.0.0.7 192.168.0.4", "o2ib:eth1,ib0" },
		{ "tcp 2001:db8::/32", "tcp:v6" },
		/* neither: the first up interface with an IPv4 address */
		{ "tcp", "tcp:eth0" },
		/* a rule that matches nothing is skipped; the first match of a net wins */
		{ "tcp 10.9.*.*; tcp(eth1); tcp(eth0); o2ib 10.*.*.*", "tcp:eth1 o2ib:ib0" },
		{ "tcp0 192.168.0.2 # a comment; tcp(eth1)\ntcp1 *.*.*.*",
		  "tcp:eth0 tcp1:eth0,eth1,ib0" },
		/* the string itself */
		{ " ; ", "invalid ip2nets ' ; ': no rule in it" },
		{ "tcp(eth0", "invalid ip2nets net 'tcp(eth0': expected NET or NET(IF[,IF...])" },
		{ "bogus9 1.2.3.4",
		  "invalid ip2nets net 'bogus9': unknown LND 'bogus': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" },
	};
	char buf[600];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_string_equal(ip2nets_run(rows[i].rules, buf, sizeof(buf)), rows[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fail_fills_message_and_loc),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_u32),
		cmocka_unit_test(test_s32),
		cmocka_unit_test(test_arg_numbers),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_net),
		cmocka_unit_test(test_nid),
		cmocka_unit_test(test_nidexpr),
		cmocka_unit_test(test_nidexpr_ipv4_cidr),
		cmocka_unit_test(test_ifnames),
		cmocka_unit_test(test_model_not_initialized),
		cmocka_unit_test(test_model_newer_program),
		cmocka_unit_test(test_model_first_release),
		cmocka_unit_test(test_model_older_program),
		cmocka_unit_test(test_model_read_newer),
		cmocka_unit_test(test_model_lists),
		cmocka_unit_test(test_nidlist),
		cmocka_unit_test(test_finish_shapes),
		cmocka_unit_test(test_finish_rejects),
		cmocka_unit_test(test_global_specs),
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_cpts),
		cmocka_unit_test(test_ip2nets_ranges),
		cmocka_unit_test(test_ip2nets_eval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
