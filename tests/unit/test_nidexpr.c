// SPDX-License-Identifier: GPL-2.0-only
/*
 * NID range expressions: parsing into the exact ranges, canonical printing,
 * every rejection with its exact message, print -> parse -> equal over a
 * table and over pseudo-random expressions, matching (the reference's
 * table, with "tcp" and "tcp0" both net 0), validation and expansion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/nid/nid.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void parse_ok(const char *s, struct lnet_nidexpr *e)
{
	char err[256] = "";
	int rc = lnet_nidexpr_parse(s, e, err, sizeof(err));

	if (rc)
		fail_msg("'%s' rejected: %s", s, err);
}

/* print(e) must parse back into an equal expression that prints the same. */
static void check_round_trip(const struct lnet_nidexpr *e, const char *what)
{
	char buf[LNET_EXPR_STR_MAX], again[LNET_EXPR_STR_MAX], err[256] = "";
	struct lnet_nidexpr back;
	int n = lnet_nidexpr_print(e, buf, sizeof(buf));

	if (n < 0)
		fail_msg("%s: print failed: %d", what, n);
	assert_int_equal((size_t)n, strlen(buf));
	if (lnet_nidexpr_parse(buf, &back, err, sizeof(err)))
		fail_msg("%s: printed '%s' does not parse: %s", what, buf, err);
	if (!lnet_nidexpr_equal(e, &back))
		fail_msg("%s: printed '%s' parses into another expression", what, buf);
	assert_int_equal(lnet_nidexpr_print(&back, again, sizeof(again)), n);
	assert_string_equal(again, buf);
}

/* --- canonical output ------------------------------------------------------------- */

static const struct { const char *in, *out; } canon[] = {
	/* nets */
	{ "tcp", "tcp" },
	{ "tcp0", "tcp" },
	{ "tcp[0]", "tcp" },
	{ "tcp2", "tcp2" },
	{ "tcp002", "tcp2" },
	{ "tcp*", "tcp*" },
	{ "tcp[*]", "tcp*" },
	{ "tcp[0-65535]", "tcp*" },
	{ "o2ib[1-3]", "o2ib[1-3]" },
	{ "o2ib[1-3/1]", "o2ib[1-3]" },
	{ "o2ib[2-2]", "o2ib2" },
	{ "o2ib[1,3,5-9]", "o2ib[1,3,5-9]" },
	{ "tcp[0-8/2]", "tcp[0-8/2]" },
	{ "tcp[0,*]", "tcp[0,*]" },
	{ "gni", "gni" },
	{ "ptlf65535", "ptlf65535" },
	{ "efa", "efa" },
	{ "kfi[4]", "kfi4" },
	{ "lo", "lo" },
	{ "lo0", "lo" },
	/* IPv4 */
	{ "10.10.10.[5-8]@o2ib", "10.10.10.[5-8]@o2ib" },
	{ "192.168.[0-2].[1-254/2]@tcp1", "192.168.[0-2].[1-254/2]@tcp1" },
	{ "*@tcp", "*.*.*.*@tcp" },
	{ "*.*.*.*@tcp", "*.*.*.*@tcp" },
	{ "[0-255].[*].*.[0-255/1]@tcp", "*.*.*.*@tcp" },
	{ "10.*.[1-2].3@tcp", "10.*.[1-2].3@tcp" },
	{ "1.1.1.1@tcp", "1.1.1.1@tcp" },
	{ "10.0.0.1@tcp0", "10.0.0.1@tcp" },
	{ "10.0.0.1@tcp[1-2]", "10.0.0.1@tcp[1-2]" },
	{ "010.0.0.001@tcp", "10.0.0.1@tcp" },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.[1,3].*.[1-2,250-255]@o2ib1" },
	{ "*.*.*.*@tcp[1-2]", "*.*.*.*@tcp[1-2]" },
	{ "1.2.3.[4]@tcp", "1.2.3.4@tcp" },
	{ "1.2.3.[4-4/7]@tcp", "1.2.3.[4-4/7]@tcp" },
	{ "1.2.3.[7,*,7]@efa*", "1.2.3.[7,*,7]@efa*" },
	{ "127.0.0.1@tcp", "127.0.0.1@tcp" },	/* an expression, not a NID */
	/* numeric and lo */
	{ "[1-3]@gni", "[1-3]@gni" },
	{ "5@gni3", "5@gni3" },
	{ "401@kfi", "401@kfi" },
	{ "*@kfi", "*@kfi" },
	{ "[0-4294967295]@kfi", "*@kfi" },
	{ "[10-20/5]@kfi", "[10-20/5]@kfi" },
	{ "0x10@kfi", "16@kfi" },
	{ "[0x10-0x1f/0x2]@ptlf", "[16-31/2]@ptlf" },
	{ "4294967295@gni", "4294967295@gni" },
	{ "[1,3,5-9]@gni", "[1,3,5-9]@gni" },
	{ "0@lo", "0@lo" },
	{ "[0]@lo", "0@lo" },
	{ "0@lo0", "0@lo" },
	/* IPv6: groups in hex, "::" only for runs of literal 0 groups */
	{ "2001:db8::[1-ff]@tcp", "2001:db8::[1-ff]@tcp" },
	{ "2001:DB8::[1-FF]@tcp", "2001:db8::[1-ff]@tcp" },
	{ "2001:db8:0:0:0:0:0:[1-ff]@tcp", "2001:db8::[1-ff]@tcp" },
	{ "2001:db8::[1-ff/10]@tcp", "2001:db8::[1-ff/10]@tcp" },
	{ "2001:db8::1@tcp", "2001:db8::1@tcp" },
	{ "2001:0db8:0:1:0:0:0:1@o2ib2", "2001:db8:0:1::1@o2ib2" },
	{ "2001:db8:0:*:0:0:1:[1,2]@tcp", "2001:db8:0:*::1:[1,2]@tcp" },
	{ "*:0:0:*:0:0:0:*@tcp", "*:0:0:*::*@tcp" },
	{ "[0]:[0]:1:2:3:4:5:6@tcp", "::1:2:3:4:5:6@tcp" },
	{ "1:2:3:4:5:6:7::@tcp", "1:2:3:4:5:6:7:0@tcp" },
	{ "::@tcp", "::@tcp" },
	{ "::[1-3]@efa", "::[1-3]@efa" },
	{ "fe80::[1-2]@tcp", "fe80::[1-2]@tcp" },
	/* CIDR, and CIDR-shaped expressions printed as CIDR */
	{ "2001:db8::/64@tcp", "2001:db8::/64@tcp" },
	{ "2001:db8::1/64@tcp", "2001:db8::/64@tcp" },
	{ "2001:db8:0:0:*:*:*:*@tcp", "2001:db8::/64@tcp" },
	{ "2001:db8::/32@o2ib", "2001:db8::/32@o2ib" },
	{ "2001:db8::/33@tcp", "2001:db8::/33@tcp" },
	{ "2001:db8:ffff::/33@tcp", "2001:db8:8000::/33@tcp" },
	{ "2001:db8::[0-ff]@tcp", "2001:db8::/120@tcp" },
	{ "2001:db8::/127@tcp", "2001:db8::/127@tcp" },
	{ "2001:db8::5/128@tcp", "2001:db8::5@tcp" },
	{ "::/0@tcp", "::/0@tcp" },
	{ "*:*:*:*:*:*:*:*@tcp", "::/0@tcp" },
	{ "8000::/1@tcp", "8000::/1@tcp" },
	{ "::ffff:10.0.0.0/104@tcp", "::ffff:10.0.0.0/104@tcp" },
	{ "2001:db8::/64@tcp[1-2]", "2001:db8::/64@tcp[1-2]" },
};

static void test_canonical(void **state)
{
	char buf[LNET_EXPR_STR_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(canon); i++) {
		struct lnet_nidexpr e;
		int n;

		parse_ok(canon[i].in, &e);
		assert_int_equal(lnet_nidexpr_validate(&e, NULL, 0), 0);
		n = lnet_nidexpr_print(&e, buf, sizeof(buf));
		if (n < 0 || strcmp(buf, canon[i].out))
			fail_msg("'%s' printed as '%s', expected '%s'",
				 canon[i].in, buf, canon[i].out);
		assert_int_equal(n, (int)strlen(canon[i].out));
		check_round_trip(&e, canon[i].in);
	}
}

/* --- exact structure ---------------------------------------------------------------- */

struct rng3 {
	u32 lo, hi, stride;
};

static void assert_expr(const char *s, u8 lnd, u8 kind, u8 nlists,
			const u8 *counts, const struct rng3 *r, unsigned int nr)
{
	struct lnet_nidexpr e;

	parse_ok(s, &e);
	assert_int_equal(e.ne_lnd, lnd);
	assert_int_equal(e.ne_kind, kind);
	assert_int_equal(e.ne_nlists, nlists);
	assert_int_equal(e.ne_nranges, nr);
	for (unsigned int i = 0; i < LNET_UDSP_MAX_LISTS; i++)
		assert_int_equal(e.ne_count[i], i < nlists ? counts[i] : 0);
	for (unsigned int i = 0; i < nr; i++) {
		assert_int_equal(e.ne_r[i].lo, r[i].lo);
		assert_int_equal(e.ne_r[i].hi, r[i].hi);
		assert_int_equal(e.ne_r[i].stride, r[i].stride);
	}
}

static void test_structure(void **state)
{
	assert_expr("tcp", LNET_LND_TCP, LNET_UDSP_KIND_NET, 1, (u8[]){ 1 },
		    (struct rng3[]){ { 0, 0, 1 } }, 1);
	assert_expr("tcp0", LNET_LND_TCP, LNET_UDSP_KIND_NET, 1, (u8[]){ 1 },
		    (struct rng3[]){ { 0, 0, 1 } }, 1);
	assert_expr("tcp*", LNET_LND_TCP, LNET_UDSP_KIND_NET, 1, (u8[]){ 1 },
		    (struct rng3[]){ { 0, 65535, 1 } }, 1);
	assert_expr("o2ib[1,3-9/3]", LNET_LND_O2IB, LNET_UDSP_KIND_NET, 1,
		    (u8[]){ 2 }, (struct rng3[]){ { 1, 1, 1 }, { 3, 9, 3 } }, 2);
	assert_expr("lo", LNET_LND_LO, LNET_UDSP_KIND_NET, 1, (u8[]){ 1 },
		    (struct rng3[]){ { 0, 0, 1 } }, 1);
	assert_expr("0@lo", LNET_LND_LO, LNET_UDSP_KIND_NUM, 2, (u8[]){ 1, 1 },
		    (struct rng3[]){ { 0, 0, 1 }, { 0, 0, 1 } }, 2);
	assert_expr("192.168.[0-2].[1-254/2]@tcp1", LNET_LND_TCP,
		    LNET_UDSP_KIND_IPV4, 5, (u8[]){ 1, 1, 1, 1, 1 },
		    (struct rng3[]){ { 1, 1, 1 }, { 192, 192, 1 }, { 168, 168, 1 },
				     { 0, 2, 1 }, { 1, 254, 2 } }, 5);
	assert_expr("*@efa", LNET_LND_EFA, LNET_UDSP_KIND_IPV4, 5,
		    (u8[]){ 1, 1, 1, 1, 1 },
		    (struct rng3[]){ { 0, 0, 1 }, { 0, 255, 1 }, { 0, 255, 1 },
				     { 0, 255, 1 }, { 0, 255, 1 } }, 5);
	assert_expr("[1-3,*]@gni[2,4]", LNET_LND_GNI, LNET_UDSP_KIND_NUM, 2,
		    (u8[]){ 2, 2 },
		    (struct rng3[]){ { 2, 2, 1 }, { 4, 4, 1 }, { 1, 3, 1 },
				     { 0, 4294967295U, 1 } }, 4);
	assert_expr("2001:db8::[1-ff/10]@tcp", LNET_LND_TCP, LNET_UDSP_KIND_IPV6, 9,
		    (u8[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		    (struct rng3[]){ { 0, 0, 1 }, { 0x2001, 0x2001, 1 },
				     { 0xdb8, 0xdb8, 1 }, { 0, 0, 1 }, { 0, 0, 1 },
				     { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 },
				     { 1, 0xff, 16 } }, 9);
	/* /33: group 2 keeps its top bit, the rest of it is free */
	assert_expr("2001:db8:ffff:1::/33@o2ib", LNET_LND_O2IB, LNET_UDSP_KIND_IPV6, 9,
		    (u8[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		    (struct rng3[]){ { 0, 0, 1 }, { 0x2001, 0x2001, 1 },
				     { 0xdb8, 0xdb8, 1 }, { 0x8000, 0xffff, 1 },
				     { 0, 0xffff, 1 }, { 0, 0xffff, 1 },
				     { 0, 0xffff, 1 }, { 0, 0xffff, 1 },
				     { 0, 0xffff, 1 } }, 9);
	assert_expr("::1:2/112@tcp", LNET_LND_TCP, LNET_UDSP_KIND_IPV6, 9,
		    (u8[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		    (struct rng3[]){ { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 },
				     { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 },
				     { 0, 0, 1 }, { 1, 1, 1 }, { 0, 0xffff, 1 } }, 9);
}

static void test_parse_failure_leaves_expr(void **state)
{
	struct lnet_nidexpr e, before;

	parse_ok("10.0.0.[1-3]@tcp", &e);
	before = e;
	assert_int_equal(lnet_nidexpr_parse("10.0.0.[1-3]@tcp1x", &e, NULL, 0), -EINVAL);
	assert_memory_equal(&e, &before, sizeof(e));
	assert_int_equal(lnet_nidexpr_parse("10.0.0.[1-3]@tcp1", &e, NULL, 0), 0);
	assert_false(lnet_nidexpr_equal(&e, &before));
}

/* --- rejections ------------------------------------------------------------------ */

struct reject {
	const char *in;
	const char *msg;
};

#define NET_EMPTY "net is empty: expected an LND (tcp, o2ib, efa, gni, ptlf, kfi or lo) and an optional net number, e.g. 'tcp1'"
#define UNKNOWN(x) "unknown LND '" x "': expected tcp, o2ib, efa, gni, ptlf, kfi or lo"

static const struct reject rejects[] = {
	/* whole expression */
	{ "", "expression is empty: expected a net ('tcp1', 'o2ib[1-3]') or <address>@<net> ('10.0.0.[1-5]@tcp')" },
	{ "10.0.0.1@tcp@tcp", "expression '10.0.0.1@tcp@tcp' has more than one '@'" },
	{ "@tcp", "empty address before '@': expected <address>@<net> or a net alone" },
	{ "10.0.0.1@", NET_EMPTY },
	/* the net */
	{ "foo", UNKNOWN("foo") },
	{ "tcpx", UNKNOWN("tcpx") },
	{ "gip", UNKNOWN("gip") },
	{ "1.2.3.4@bxi3f", UNKNOWN("bxi3f") },
	{ " tcp", UNKNOWN(" tcp") },
	{ "TCP", "LND 'TCP' must be lowercase: expected 'tcp'" },
	{ "10.0.0.1@O2IB1", "LND 'O2IB' must be lowercase: expected 'o2ib'" },
	{ "tcp65536", "net number '65536' is out of range 0-65535" },
	{ "tcp4294967296", "net number '4294967296' is out of range 0-65535" },
	{ "tcp[1-65536]", "net number '65536' is out of range 0-65535" },
	{ "tcp1x", "trailing junk 'x' after net number '1'" },
	{ "tcp ", "net number ' ' is not a number: expected decimal 0-65535" },
	{ "tcp-1", "net number '-1' is not a number: expected decimal 0-65535" },
	{ "tcp*[1]", "trailing junk '[1]' after '*'" },
	{ "tcp1[2]", "trailing junk '[2]' after net number '1'" },
	{ "tcp[]", "empty list '[]': expected [range{,range}] of net number values" },
	{ "tcp[1-3", "unclosed '[' in '[1-3': expected ']'" },
	{ "tcp[1-3]x", "trailing junk 'x' after '[1-3]'" },
	{ "tcp[3-1]", "range '3-1' has lo > hi: expected lo <= hi" },
	{ "lo1", "net 'lo1': lo has no net number (only 'lo')" },
	{ "lo*", "net 'lo*': lo has no net number (only 'lo')" },
	{ "0@lo[0]", "net 'lo[0]': lo has no net number (only 'lo')" },
	/* ranges and lists */
	{ "[1-5/0]@gni", "stride '0' must be at least 1 in '[1-5/0]'" },
	{ "10.0.0.[1-5/00]@tcp", "stride '00' must be at least 1 in '[1-5/00]'" },
	{ "[1-5/]@gni", "empty stride after '/' in '[1-5/]': expected a number of at least 1" },
	{ "[1-5/x]@gni", "stride 'x' is not a number: expected decimal or 0x hex 1-4294967295" },
	{ "10.0.0.[1-5/256]@tcp", "stride '256' is out of range 1-255" },
	{ "10.0.0.[1-5/2x]@tcp", "trailing junk 'x' after stride '2' in '[1-5/2x]'" },
	{ "10.0.0.256@tcp", "octet '256' is out of range 0-255" },
	{ "10.0.0.[250-256]@tcp", "octet '256' is out of range 0-255" },
	{ "10.0.0.[99999999999999999999]@tcp", "octet '99999999999999999999' is out of range 0-255" },
	{ "[5-3]@kfi", "range '5-3' has lo > hi: expected lo <= hi" },
	{ "10.0.0.[9-1/2]@tcp", "range '9-1' has lo > hi: expected lo <= hi" },
	{ "4294967296@gni", "address '4294967296' is out of range 0-4294967295" },
	{ "0x100000000@gni", "address '0x100000000' is out of range 0-4294967295" },
	{ "[1-4294967296]@gni", "address '4294967296' is out of range 0-4294967295" },
	{ "[]@gni", "empty list '[]': expected [range{,range}] of address values" },
	{ "10.0.[].1@tcp", "empty list '[]': expected [range{,range}] of octet values" },
	{ "[1-3@gni", "unclosed '[' in '[1-3': expected ']'" },
	{ "10.0.0.[1@tcp", "unclosed '[' in '[1': expected ']'" },
	{ "[1,,3]@gni", "empty element in list '[1,,3]': expected [range{,range}]" },
	{ "[1,]@gni", "empty element in list '[1,]': expected [range{,range}]" },
	{ "[,1]@gni", "empty element in list '[,1]': expected [range{,range}]" },
	{ "[1-]@gni", "range '1-' has no upper bound: expected lo-hi" },
	{ "[1-/2]@gni", "range '1-/2' has no upper bound: expected lo-hi" },
	{ "[-3]@gni", "address '-3' is not a number: expected decimal or 0x hex 0-4294967295" },
	{ "[1-x]@gni", "address 'x' is not a number: expected decimal or 0x hex 0-4294967295" },
	{ "[1-3x]@gni", "trailing junk 'x' in range '1-3x': expected lo-hi/stride" },
	{ "[1-3-5]@gni", "trailing junk '-5' in range '1-3-5': expected lo-hi/stride" },
	{ "[1x]@gni", "trailing junk 'x' after '1' in list '[1x]'" },
	{ "[1/2]@gni", "trailing junk '/2' after '1' in list '[1/2]'" },
	{ "[*x]@gni", "address '*x' is not a number: expected decimal or 0x hex 0-4294967295" },
	{ "[ 1]@gni", "address ' 1' is not a number: expected decimal or 0x hex 0-4294967295" },
	{ "1-5@gni", "range '1-5' must be in brackets: '[1-5]'" },
	{ "1,2@gni", "range '1,2' must be in brackets: '[1,2]'" },
	{ "10.0.0.1-5@tcp", "range '1-5' must be in brackets: '[1-5]'" },
	{ "5x@gni", "trailing junk 'x' after address '5'" },
	{ "10.0.0.1x@tcp", "trailing junk 'x' after octet '1'" },
	{ "10.0.0.1 @tcp", "trailing junk ' ' after octet '1'" },
	{ "*x@gni", "trailing junk 'x' after '*'" },
	{ "[1-3]x@gni", "trailing junk 'x' after '[1-3]'" },
	{ "x@gni", "address 'x' is not a number: expected decimal or 0x hex 0-4294967295" },
	/* address forms */
	{ "2001:db8::1@gni", "IPv6 address '2001:db8::1' on gni: gni addresses are numbers 0-4294967295" },
	{ "1.2.3.4@kfi", "IPv4 address '1.2.3.4' on kfi: kfi addresses are numbers 0-4294967295" },
	{ "10.1.1@tcp", "IPv4 expression '10.1.1' has 3 octets: expected 4 (a.b.c.d), or '*'" },
	{ "[1-5]@tcp", "IPv4 expression '[1-5]' has 1 octets: expected 4 (a.b.c.d), or '*'" },
	{ "1.2.3.4.5@o2ib", "IPv4 expression '1.2.3.4.5' has 5 octets: expected 4 (a.b.c.d), or '*'" },
	{ "1..3.4@tcp", "empty octet in '1..3.4@tcp': expected a number, '*' or '[list]'" },
	{ "1.2.3.@tcp", "empty octet in '1.2.3.@tcp': expected a number, '*' or '[list]'" },
	{ "1@lo", "lo address '1' is not 0: the only lo NID is 0@lo" },
	{ "*@lo", "lo address '*' is not 0: the only lo NID is 0@lo" },
	{ "[0-1]@lo", "lo address '[0-1]' is not 0: the only lo NID is 0@lo" },
	{ "[0,0]@lo", "lo address '[0,0]' is not 0: the only lo NID is 0@lo" },
	{ "1.2.3.4@lo", "lo address '1.2.3.4' is not 0: the only lo NID is 0@lo" },
	{ "::@lo", "lo address '::' is not 0: the only lo NID is 0@lo" },
	{ "x@lo", "lo address 'x' is not 0: the only lo NID is 0@lo" },
	/* IPv6 */
	{ "10.0.0.0/24@tcp", "CIDR '10.0.0.0/24' is for IPv6 only: write IPv4 ranges per octet, e.g. '10.0.0.*'" },
	{ "2001:db8::/129@tcp", "prefix '129' is out of range 0-128" },
	{ "2001:db8::/@tcp", "prefix '' is not a number: expected /0 to /128" },
	{ "2001:db8::/6x@tcp", "prefix '6x' is not a number: expected /0 to /128" },
	{ "2001:db8::[1-2]/64@tcp", "CIDR address '2001:db8::[1-2]' must be a plain IPv6 address, e.g. '2001:db8::/64'" },
	{ "*::/64@tcp", "CIDR address '*::' must be a plain IPv6 address, e.g. '2001:db8::/64'" },
	{ "2001:db8::g/64@tcp", "group 'g' of IPv6 address '2001:db8::g' is not 1-4 hex digits" },
	{ "1::2::3@tcp", "IPv6 expression '1::2::3' has more than one '::'" },
	{ "1:::3@tcp", "IPv6 expression '1:::3' has more than one '::'" },
	{ "1:2:3@tcp", "IPv6 expression '1:2:3' has 3 groups: expected 8, or '::' for a run of zero groups" },
	{ "1:2:3:4:5:6:7:8:9@tcp", "IPv6 expression '1:2:3:4:5:6:7:8:9' has more than 8 groups" },
	{ "1:2:3:4::5:6:7:8@tcp", "IPv6 expression '1:2:3:4::5:6:7:8' has more than 8 groups" },
	{ "1:2:3:4:5:6:7:@tcp", "empty group in '1:2:3:4:5:6:7:@tcp': expected a number, '*' or '[list]'" },
	{ "2001:db8::10000@tcp", "group '10000' is out of range 0-ffff" },
	{ "2001:db8::[1-fffff]@tcp", "group 'fffff' is out of range 0-ffff" },
	{ "2001:db8::[1-ff/10000]@tcp", "stride '10000' is out of range 1-ffff" },
	{ "2001:db8::g@tcp", "group 'g' is not a number: expected hex 0-ffff" },
	{ "2001:db8::1.2.3.4@tcp", "trailing junk '.2.3.4' after group '1'" },
	{ "2001:db8::[ff-1]@efa", "range 'ff-1' has lo > hi: expected lo <= hi" },
};

static void test_reject(void **state)
{
	struct lnet_nidexpr e;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(rejects); i++) {
		memset(err, 0, sizeof(err));
		if (lnet_nidexpr_parse(rejects[i].in, &e, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' accepted", rejects[i].in);
		if (strcmp(err, rejects[i].msg))
			fail_msg("'%s': got \"%s\", expected \"%s\"",
				 rejects[i].in, err, rejects[i].msg);
	}
	/* no err buffer, or a short one (truncated, terminated) */
	assert_int_equal(lnet_nidexpr_parse("tcp65536", &e, NULL, 0), -EINVAL);
	assert_int_equal(lnet_nidexpr_parse("tcp65536", &e, err, 8), -EINVAL);
	assert_string_equal(err, "net num");
}

/* "[0,1,...,n-1]" */
static void make_list(char *buf, size_t len, unsigned int n, const char *suffix)
{
	size_t pos = 0;

	pos += (size_t)snprintf(buf + pos, len - pos, "[");
	for (unsigned int i = 0; i < n; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%u", i ? "," : "", i);
	snprintf(buf + pos, len - pos, "]%s", suffix);
}

static void test_too_many_ranges(void **state)
{
	char s[1024], err[256] = "";
	struct lnet_nidexpr e;

	/* 63 address ranges + the net's 1 = 64: the most there may be */
	make_list(s, sizeof(s), 63, "@gni");
	parse_ok(s, &e);
	assert_int_equal(e.ne_nranges, LNET_UDSP_MAX_RANGES);
	assert_int_equal(e.ne_count[1], 63);
	check_round_trip(&e, s);

	make_list(s, sizeof(s), 64, "@gni");
	assert_int_equal(lnet_nidexpr_parse(s, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "too many ranges: an expression holds at most 64 in all");

	/* spread over octets and the net list */
	assert_int_equal(lnet_nidexpr_parse("[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
					    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
					    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
					    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]@tcp",
					    &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "too many ranges: an expression holds at most 64 in all");
	parse_ok("[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
		 "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
		 "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]."
		 "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14]@tcp", &e);
	check_round_trip(&e, "63 ranges over 4 octets");

	make_list(s, sizeof(s), 65, "");
	memmove(s + 3, s, strlen(s) + 1);
	memcpy(s, "tcp", 3);
	assert_int_equal(lnet_nidexpr_parse(s, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "too many ranges: an expression holds at most 64 in all");
}

/* --- round trips ----------------------------------------------------------------------- */

static const char *const round_trips[] = {
	"tcp", "tcp1", "tcp*", "tcp[0-65535/2]", "tcp[65535]", "o2ib[0,65535]",
	"efa[1-3,5,7-9/2,*]", "gni[0-0/5]", "kfi[1-1/1]", "ptlf[3-4/65535]",
	"lo", "0@lo",
	"0.0.0.0@tcp", "255.255.255.255@tcp", "*.0.*.0@o2ib9",
	"[0-255/255].[1-254/253].[7-7/9].[0,255]@efa",
	"[1,2,3,4].[5-6].[7-9/1].[10-20/10]@tcp[1,2]",
	"[*,*].[*,0].[0,*].*@tcp*",
	"[0-4294967295/4294967295]@gni", "[4294967295]@kfi",
	"[0-4294967294,4294967295]@ptlf", "[1-10/3,2-11/3,3-12/3]@gni[0-9]",
	"::[1-ffff/ffff]@tcp", "[0-ffff]:[0-fffe]::@tcp", "0:0:0:0:0:0:0:0@tcp",
	"1:0:1:0:1:0:1:0@tcp", "0:1:0:0:1:0:0:0@tcp", "0:0:1:0:0:1:0:0@tcp",
	"[0,0]::[0]@tcp", "[0-0/2]::@tcp", "::[0-1]:*@tcp", "::8000:*@tcp",
	"::[1-2]:*@tcp", "::[2-3]:*@tcp", "::[4-7]:*@tcp", "::[0-7]:[0-fffe]@tcp",
	"2001:db8::/48@tcp1", "2001:db8::/16@o2ib", "2001:db8::/17@efa*",
	"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127@tcp", "::/1@tcp", "8000::/1@tcp",
	"2001:db8::/64@tcp[1-5/2]",
};

static void test_round_trip_table(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(round_trips); i++) {
		struct lnet_nidexpr e;

		parse_ok(round_trips[i], &e);
		check_round_trip(&e, round_trips[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(canon); i++) {
		struct lnet_nidexpr e;

		parse_ok(canon[i].out, &e);
		check_round_trip(&e, canon[i].out);
	}
}

/* xorshift32: a fixed sequence, so failures reproduce */
static u32 rnd_state = 0x9e3779b9U;

static u32 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* A value 0..max, biased to the edges where printers go wrong. */
static u32 rnd_val(u32 max)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return max;
	case 2:
		return max > 3 ? (rnd() % 4) : 0;
	default:
		return (u32)((u64)rnd() % ((u64)max + 1));
	}
}

static void rnd_range(struct lnet_ioc_range *r, u32 max)
{
	u32 kind = rnd() % 5;

	r->lo = rnd_val(max);
	r->hi = r->lo;
	r->stride = 1;
	if (kind == 0) {		/* "*" */
		r->lo = 0;
		r->hi = max;
	} else if (kind >= 2) {		/* lo-hi, maybe /stride */
		r->hi = r->lo + rnd_val(max - r->lo);
		if (kind == 3)
			r->stride = 1 + rnd_val(max ? max - 1 : 0);
		if (kind == 4 && r->lo == r->hi)
			r->stride = 2;	/* "v-v/2": stored as written */
	}
}

static void rnd_list(struct lnet_nidexpr *e, u32 max, unsigned int lists_left)
{
	unsigned int room = LNET_UDSP_MAX_RANGES - e->ne_nranges - lists_left;
	unsigned int n = 1 + (rnd() % 3 == 0 ? rnd() % 6 : 0);

	if (n > room)
		n = room;
	for (unsigned int i = 0; i < n; i++)
		rnd_range(&e->ne_r[e->ne_nranges++], max);
	e->ne_count[e->ne_nlists++] = (u8)n;
}

/* An IPv6 prefix, built the way the parser converts "addr/len". */
static void rnd_cidr(struct lnet_nidexpr *e)
{
	u32 plen = rnd() % 129;

	for (u32 g = 0; g < 8; g++) {
		u32 bits = plen > 16 * g ? plen - 16 * g : 0;
		u32 mask = bits >= 16 ? 0xffff : (0xffffU << (16 - bits)) & 0xffff;
		u32 lo = (rnd() % 3 ? rnd() : 0) & mask;
		struct lnet_ioc_range *r = &e->ne_r[e->ne_nranges++];

		r->lo = lo & 0xffff;
		r->hi = (lo | (~mask & 0xffff)) & 0xffff;
		r->stride = 1;
		e->ne_count[e->ne_nlists++] = 1;
	}
}

static void rnd_expr(struct lnet_nidexpr *e)
{
	static const u8 lnds[] = { LNET_LND_TCP, LNET_LND_O2IB, LNET_LND_EFA,
				   LNET_LND_GNI, LNET_LND_PTLF, LNET_LND_KFI,
				   LNET_LND_LO };
	u8 lnd = lnds[rnd() % ARRAY_SIZE(lnds)];
	unsigned int lists;

	memset(e, 0, sizeof(*e));
	e->ne_lnd = lnd;
	if (rnd() % 4 == 0)
		e->ne_kind = LNET_UDSP_KIND_NET;
	else if (lnd == LNET_LND_LO || !lnet_lnd_is_ip(lnd))
		e->ne_kind = LNET_UDSP_KIND_NUM;
	else
		e->ne_kind = rnd() % 2 ? LNET_UDSP_KIND_IPV4 : LNET_UDSP_KIND_IPV6;
	lists = e->ne_kind == LNET_UDSP_KIND_IPV4 ? 4 :
		e->ne_kind == LNET_UDSP_KIND_IPV6 ? 8 :
		e->ne_kind == LNET_UDSP_KIND_NUM ? 1 : 0;
	rnd_list(e, lnd == LNET_LND_LO ? 0 : 65535, lists);
	if (lnd == LNET_LND_LO) {	/* lo: the parser only makes [0] */
		e->ne_r[0] = (struct lnet_ioc_range){ 0, 0, 1 };
		e->ne_count[0] = 1;
		e->ne_nranges = 1;
		if (lists) {
			e->ne_r[1] = (struct lnet_ioc_range){ 0, 0, 1 };
			e->ne_count[e->ne_nlists++] = 1;
			e->ne_nranges = 2;
		}
		return;
	}
	if (e->ne_kind == LNET_UDSP_KIND_IPV6 && rnd() % 3 == 0) {
		rnd_cidr(e);
		return;
	}
	for (unsigned int l = 0; l < lists; l++) {
		u32 max = e->ne_kind == LNET_UDSP_KIND_IPV4 ? 255 :
			  e->ne_kind == LNET_UDSP_KIND_IPV6 ? 0xffff : 0xffffffffU;

		if (e->ne_kind == LNET_UDSP_KIND_IPV6 && rnd() % 2) {
			e->ne_r[e->ne_nranges++] = (struct lnet_ioc_range){ 0, 0, 1 };
			e->ne_count[e->ne_nlists++] = 1;	/* runs of 0 for "::" */
			continue;
		}
		rnd_list(e, max, lists - l - 1);
	}
}

static void test_round_trip_random(void **state)
{
	char what[64], err[256];

	for (int i = 0; i < 50000; i++) {
		struct lnet_nidexpr e;

		rnd_expr(&e);
		snprintf(what, sizeof(what), "random expression %d", i);
		if (lnet_nidexpr_validate(&e, err, sizeof(err)))
			fail_msg("%s invalid: %s", what, err);
		check_round_trip(&e, what);
	}
}

/* --- matching ------------------------------------------------------------------------ */

struct match_case {
	const char *rule;
	const char *cand;	/* a NID if it has '@', else a net */
	bool match;
};

/* The reference's table (section 7.2), with "tcp" = "tcp0" = net 0. */
static const struct match_case matches[] = {
	{ "tcp", "tcp", true }, { "tcp", "tcp0", true },
	{ "tcp", "tcp1", false }, { "tcp", "tcp2", false }, { "tcp", "o2ib", false },
	{ "tcp0", "tcp", true }, { "tcp0", "tcp1", false },
	{ "tcp1", "tcp1", true }, { "tcp1", "tcp", false },
	/* a net descriptor matches every NID of its nets */
	{ "tcp1", "10.0.0.1@tcp1", true }, { "tcp1", "10.0.0.1@tcp", false },
	{ "tcp1", "2001:db8::1@tcp1", true }, { "tcp1", "10.0.0.1@o2ib1", false },
	{ "tcp[1-3]", "tcp", false }, { "tcp[1-3]", "tcp1", true },
	{ "tcp[1-3]", "tcp3", true }, { "tcp[1-3]", "tcp4", false },
	{ "tcp*", "tcp", true }, { "tcp*", "tcp7", true }, { "tcp*", "tcp65535", true },
	{ "tcp*", "o2ib", false },
	{ "tcp[0-8/2]", "tcp", true }, { "tcp[0-8/2]", "tcp1", false },
	{ "tcp[0-8/2]", "tcp2", true }, { "tcp[0-8/2]", "tcp8", true },
	{ "tcp[0-8/2]", "tcp9", false }, { "tcp[0-9/2]", "tcp9", false },
	{ "10.10.10.[5-8]@tcp", "10.10.10.5@tcp", true },
	{ "10.10.10.[5-8]@tcp", "10.10.10.8@tcp", true },
	{ "10.10.10.[5-8]@tcp", "10.10.10.9@tcp", false },
	{ "10.10.10.[5-8]@tcp", "10.10.10.4@tcp", false },
	{ "10.10.10.[5-8]@tcp", "10.10.10.5@tcp1", false },
	{ "10.10.10.[5-8]@tcp", "10.10.10.5@o2ib", false },
	{ "10.10.10.[5-8]@tcp", "10.10.11.5@tcp", false },
	{ "10.10.10.[1-9/2]@tcp", "10.10.10.1@tcp", true },
	{ "10.10.10.[1-9/2]@tcp", "10.10.10.9@tcp", true },
	{ "10.10.10.[1-9/2]@tcp", "10.10.10.2@tcp", false },
	{ "10.10.10.[1-9/2]@tcp", "10.10.10.11@tcp", false },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.1.7.2@o2ib1", true },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.3.0.251@o2ib1", true },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.2.7.2@o2ib1", false },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.3.0.249@o2ib1", false },
	{ "10.[1,3].*.[1-2,250-255]@o2ib1", "10.1.7.2@o2ib", false },
	{ "*.*.*.*@tcp[1-2]", "1.2.3.4@tcp1", true },
	{ "*.*.*.*@tcp[1-2]", "1.2.3.4@tcp2", true },
	{ "*.*.*.*@tcp[1-2]", "1.2.3.4@tcp", false },
	{ "*.*.*.*@tcp[1-2]", "1.2.3.4@tcp3", false },
	{ "*@tcp", "10.0.0.1@tcp", true }, { "*@tcp", "255.255.255.255@tcp", true },
	{ "*@tcp", "2001:db8::1@tcp", false },	/* IPv4 rule, IPv6 NID */
	{ "*@tcp", "10.0.0.1@efa", false },
	{ "[10-20/5]@kfi", "10@kfi", true }, { "[10-20/5]@kfi", "15@kfi", true },
	{ "[10-20/5]@kfi", "20@kfi", true }, { "[10-20/5]@kfi", "17@kfi", false },
	{ "[10-20/5]@kfi", "25@kfi", false }, { "[10-20/5]@kfi", "15@kfi1", false },
	{ "[10-20/5]@kfi", "15@gni", false },
	{ "*@gni", "0@gni", true }, { "*@gni", "4294967295@gni", true },
	{ "*@gni", "5@gni1", false },
	{ "[0-4294967295/4294967295]@gni", "4294967295@gni", true },
	{ "[1-4294967295/4294967294]@gni", "4294967295@gni", true },
	{ "[1-4294967295/4294967294]@gni", "2@gni", false },
	{ "0@lo", "0@lo", true }, { "lo", "lo", true }, { "lo", "0@lo", true },
	{ "lo", "tcp", false }, { "0@lo", "0@gni", false },
	{ "2001:db8::[1-ff]@tcp", "2001:db8::1@tcp", true },
	{ "2001:db8::[1-ff]@tcp", "2001:db8::ff@tcp", true },
	{ "2001:db8::[1-ff]@tcp", "2001:db8::100@tcp", false },
	{ "2001:db8::[1-ff]@tcp", "2001:db8::1:1@tcp", false },
	{ "2001:db8::[1-ff]@tcp", "2001:db8::1@tcp1", false },
	{ "2001:db8::[1-ff]@tcp", "10.0.0.1@tcp", false },
	{ "2001:db8::[1-ff/2]@tcp", "2001:db8::3@tcp", true },
	{ "2001:db8::[1-ff/2]@tcp", "2001:db8::4@tcp", false },
	{ "2001:db8::/64@tcp", "2001:db8::1234:5678:9abc:def0@tcp", true },
	{ "2001:db8::/64@tcp", "2001:db8::1@tcp", true },
	{ "2001:db8::/64@tcp", "2001:db8:0:1::1@tcp", false },
	{ "2001:db8::/64@tcp", "2001:db9::1@tcp", false },
	{ "2001:db8::/64@tcp", "2001:db8::1@tcp1", false },
	{ "2001:db8::/64@tcp", "10.0.0.1@tcp", false },
	{ "2001:db8::/63@tcp", "2001:db8:0:1::1@tcp", true },
	{ "2001:db8::/63@tcp", "2001:db8:0:2::1@tcp", false },
	{ "2001:db8::/33@tcp", "2001:db8:7fff::1@tcp", true },
	{ "2001:db8::/33@tcp", "2001:db8:8000::1@tcp", false },
	{ "::/0@o2ib", "2001:db8::1@o2ib", true },
	{ "::/0@o2ib", "10.0.0.1@o2ib", false },
	{ "::ffff:10.0.0.0/104@tcp", "::ffff:10.1.2.3@tcp", true },
	{ "::ffff:10.0.0.0/104@tcp", "::ffff:11.1.2.3@tcp", false },
	{ "::ffff:10.0.0.0/104@tcp", "10.1.2.3@tcp", false },
	{ "10.0.0.[1,5-6]@efa[1-2]", "10.0.0.6@efa2", true },
	{ "10.0.0.[1,5-6]@efa[1-2]", "10.0.0.2@efa2", false },
};

static void test_match_table(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(matches); i++) {
		const struct match_case *m = &matches[i];
		struct lnet_nidexpr e;
		bool got;

		parse_ok(m->rule, &e);
		if (strchr(m->cand, '@')) {
			struct lnet_nid nid;

			assert_int_equal(lnet_nid_parse(m->cand, &nid, NULL, 0), 0);
			got = lnet_nidexpr_match_nid(&e, &nid);
		} else {
			u32 net;

			assert_int_equal(lnet_net_parse(m->cand, &net, NULL, 0), 0);
			got = lnet_nidexpr_match_net(&e, net);
		}
		if (got != m->match)
			fail_msg("rule '%s' vs '%s': got %s, expected %s", m->rule,
				 m->cand, got ? "match" : "no match",
				 m->match ? "match" : "no match");
	}
}

static void test_match_net_of_nid_rule(void **state)
{
	struct lnet_nidexpr e, absent = { 0 };
	struct lnet_nid nid;

	/* the net part of a NID descriptor: match_net looks at it alone */
	parse_ok("10.10.10.[5-8]@tcp[1-2]", &e);
	assert_true(lnet_nidexpr_match_net(&e, LNET_NET_ID(LNET_LND_TCP, 1)));
	assert_true(lnet_nidexpr_match_net(&e, LNET_NET_ID(LNET_LND_TCP, 2)));
	assert_false(lnet_nidexpr_match_net(&e, LNET_NET_ID(LNET_LND_TCP, 0)));
	assert_false(lnet_nidexpr_match_net(&e, LNET_NET_ID(LNET_LND_O2IB, 1)));
	/* an absent descriptor matches nothing */
	assert_false(lnet_nidexpr_match_net(&absent, LNET_NET_ID(LNET_LND_TCP, 0)));
	assert_int_equal(lnet_nid_parse("10.0.0.1@tcp", &nid, NULL, 0), 0);
	assert_false(lnet_nidexpr_match_nid(&absent, &nid));
	/* a NID whose address length does not fit the kind */
	parse_ok("*@gni", &e);
	nid = (struct lnet_nid){ .nid_addr_len = 16, .nid_lnd = LNET_LND_GNI };
	assert_false(lnet_nidexpr_match_nid(&e, &nid));
	nid.nid_addr_len = 4;
	assert_true(lnet_nidexpr_match_nid(&e, &nid));
	parse_ok("::/0@tcp", &e);
	nid = (struct lnet_nid){ .nid_addr_len = 4, .nid_lnd = LNET_LND_TCP };
	assert_false(lnet_nidexpr_match_nid(&e, &nid));
}

/* --- validate ---------------------------------------------------------------------- */

struct bad_expr {
	const char *base;
	void (*mutate)(struct lnet_nidexpr *e);
	const char *msg;
};

static void m_lnd3(struct lnet_nidexpr *e) { e->ne_lnd = 3; }
static void m_kind4(struct lnet_nidexpr *e) { e->ne_kind = 4; }
static void m_kind_ipv4(struct lnet_nidexpr *e) { e->ne_kind = LNET_UDSP_KIND_IPV4; }
static void m_kind_num(struct lnet_nidexpr *e) { e->ne_kind = LNET_UDSP_KIND_NUM; }
static void m_kind_ipv6(struct lnet_nidexpr *e) { e->ne_kind = LNET_UDSP_KIND_IPV6; }
static void m_nlists(struct lnet_nidexpr *e) { e->ne_nlists = 3; }
static void m_count0(struct lnet_nidexpr *e) { e->ne_count[2] = 0; }
static void m_count_beyond(struct lnet_nidexpr *e) { e->ne_count[5] = 1; }
static void m_sum(struct lnet_nidexpr *e) { e->ne_nranges = 6; }
static void m_nranges(struct lnet_nidexpr *e) { e->ne_nranges = 65; }
static void m_lo_gt_hi(struct lnet_nidexpr *e) { e->ne_r[1].lo = 5; e->ne_r[1].hi = 3; }
static void m_stride0(struct lnet_nidexpr *e) { e->ne_r[1].stride = 0; }
static void m_octet256(struct lnet_nidexpr *e) { e->ne_r[2].hi = 256; }
static void m_net65536(struct lnet_nidexpr *e) { e->ne_r[0].hi = 65536; }
static void m_group(struct lnet_nidexpr *e) { e->ne_r[8].hi = 0x10000; }
static void m_lo_net1(struct lnet_nidexpr *e) { e->ne_r[0].lo = e->ne_r[0].hi = 1; }
static void m_lo_addr1(struct lnet_nidexpr *e) { e->ne_r[1].hi = 1; }

static const struct bad_expr bad[] = {
	{ "tcp", m_lnd3, "LND 3 is unknown: expected tcp (2), o2ib (5), lo (9), gni (13), ptlf (15), kfi (16) or efa (18)" },
	{ "tcp", m_kind4, "kind 4 is unknown: expected 0-3" },
	{ "5@gni", m_kind_ipv4, "IPv4 addresses are not allowed on gni" },
	{ "5@gni", m_kind_ipv6, "IPv6 addresses are not allowed on gni" },
	{ "10.0.0.1@tcp", m_kind_num, "numeric addresses are not allowed on tcp" },
	{ "10.0.0.1@tcp", m_nlists, "IPv4 descriptor has 3 range lists: expected 5" },
	{ "10.0.0.1@tcp", m_count0, "range list 2 is empty: expected 1-64 ranges" },
	{ "10.0.0.1@tcp", m_count_beyond, "range list 5 is beyond the 5 lists" },
	{ "10.0.0.1@tcp", m_sum, "the lists hold 5 ranges, not 6" },
	{ "10.0.0.1@tcp", m_nranges, "65 ranges: at most 64 in all" },
	{ "[1-9]@gni", m_lo_gt_hi, "range 5-3 of list 1 has lo > hi" },
	{ "[1-9]@gni", m_stride0, "range 1-9 of list 1 has stride 0: expected at least 1" },
	{ "10.0.0.1@tcp", m_octet256, "range 0-256 of list 2 is out of range 0-255" },
	{ "tcp", m_net65536, "range 0-65536 of list 0 is out of range 0-65535" },
	{ "::@tcp", m_group, "range 0-65536 of list 8 is out of range 0-65535" },
	{ "lo", m_lo_net1, "range 1-1 of list 0 is out of range 0-0" },
	{ "0@lo", m_lo_addr1, "range 0-1 of list 1 is out of range 0-0" },
};

static void test_validate(void **state)
{
	char err[256], buf[LNET_EXPR_STR_MAX];
	struct lnet_nidexpr absent = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct lnet_nidexpr e;

		parse_ok(bad[i].base, &e);
		assert_int_equal(lnet_nidexpr_validate(&e, err, sizeof(err)), 0);
		bad[i].mutate(&e);
		err[0] = '\0';
		assert_int_equal(lnet_nidexpr_validate(&e, err, sizeof(err)), -EINVAL);
		if (strcmp(err, bad[i].msg))
			fail_msg("%s #%zu: got \"%s\", expected \"%s\"", bad[i].base,
				 i, err, bad[i].msg);
		/* the printer refuses what validate refuses */
		assert_int_equal(lnet_nidexpr_print(&e, buf, sizeof(buf)), -EINVAL);
	}
	assert_int_equal(lnet_nidexpr_validate(&absent, NULL, 0), -EINVAL);
	assert_int_equal(lnet_nidexpr_print(&absent, buf, sizeof(buf)), -EINVAL);
}

/* --- equal ---------------------------------------------------------------------------- */

static bool equal_texts(const char *a, const char *b)
{
	struct lnet_nidexpr x, y;

	parse_ok(a, &x);
	parse_ok(b, &y);
	assert_int_equal(lnet_nidexpr_equal(&x, &y), lnet_nidexpr_equal(&y, &x));
	return lnet_nidexpr_equal(&x, &y);
}

static void test_equal(void **state)
{
	struct lnet_nidexpr a = { 0 }, b = { 0 };

	assert_true(lnet_nidexpr_equal(&a, &b));
	parse_ok("tcp", &b);
	assert_false(lnet_nidexpr_equal(&a, &b));
	assert_false(lnet_nidexpr_equal(&b, &a));

	assert_true(equal_texts("tcp", "tcp0"));
	assert_true(equal_texts("tcp*", "tcp[0-65535]"));
	assert_true(equal_texts("1.2.3.4@tcp", "1.2.3.[4]@tcp0"));
	assert_true(equal_texts("[1-5]@gni", "[1-5/1]@gni"));
	assert_true(equal_texts("*@tcp", "*.*.*.*@tcp"));
	assert_true(equal_texts("2001:db8::/64@tcp", "2001:db8:0:0:*:*:*:*@tcp"));
	assert_false(equal_texts("tcp", "tcp1"));
	assert_false(equal_texts("tcp", "o2ib"));
	assert_false(equal_texts("[1-3]@gni", "[1-3]@kfi"));
	assert_false(equal_texts("[1-5/2]@gni", "[1-5]@gni"));
	assert_false(equal_texts("[1-3,5]@gni", "[1-3]@gni"));
	assert_false(equal_texts("[1,2]@gni", "[2,1]@gni"));	/* structural */
	assert_false(equal_texts("tcp", "0.0.0.0@tcp"));
	assert_false(equal_texts("1.2.3.4@tcp", "1.2.3.5@tcp"));

	/* what lies past ne_nranges does not count */
	parse_ok("10.0.0.[1-3]@tcp", &a);
	b = a;
	b.ne_r[40] = (struct lnet_ioc_range){ 7, 8, 9 };
	assert_true(lnet_nidexpr_equal(&a, &b));
}

/* --- print buffers --------------------------------------------------------------- */

static void test_print_short_buffer(void **state)
{
	static const char *const texts[] = {
		"tcp", "10.10.10.[5-8]@o2ib", "2001:db8::/64@tcp", "*@kfi",
	};
	char buf[LNET_EXPR_STR_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		size_t len = strlen(texts[i]);
		struct lnet_nidexpr e;

		parse_ok(texts[i], &e);
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(lnet_nidexpr_print(&e, buf, len), -ENOSPC);
		assert_int_equal(buf[len - 1], '\0');
		assert_int_equal(lnet_nidexpr_print(&e, buf, len + 1), (int)len);
		assert_string_equal(buf, texts[i]);
		assert_int_equal(lnet_nidexpr_print(&e, NULL, 0), -ENOSPC);
	}
}

/* The longest expression fits LNET_EXPR_STR_MAX. */
static void test_print_longest(void **state)
{
	struct lnet_nidexpr e = { .ne_lnd = LNET_LND_PTLF, .ne_kind = LNET_UDSP_KIND_NUM,
				  .ne_nlists = 2, .ne_nranges = 64,
				  .ne_count = { 1, 63 } };
	char buf[LNET_EXPR_STR_MAX];

	e.ne_r[0] = (struct lnet_ioc_range){ 65534, 65535, 65535 };
	for (int i = 1; i < 64; i++)
		e.ne_r[i] = (struct lnet_ioc_range){ 4294967293U, 4294967294U, 4294967295U };
	/* "[" 63 x 32 characters, 62 commas "]@ptlf[65534-65535/65535]" */
	assert_int_equal(lnet_nidexpr_print(&e, buf, sizeof(buf)), 2 + 63 * 32 + 62 + 24);
	assert_true(2104 < LNET_EXPR_STR_MAX);
	check_round_trip(&e, "longest numeric");
}

/* --- expand ---------------------------------------------------------------------------- */

struct collect {
	char text[64][LNET_NID_STR_MAX];
	unsigned int n;		/* visited */
	unsigned int stop_at;	/* return 7 on this visit (1-based), 0 = never */
	char last[LNET_NID_STR_MAX];
};

static int collect_nid(const struct lnet_nid *nid, void *arg)
{
	struct collect *c = arg;

	lnet_nid_print(nid, c->last, sizeof(c->last));
	if (c->n < 64)
		memcpy(c->text[c->n], c->last, sizeof(c->last));
	c->n++;
	return c->n == c->stop_at ? 7 : 0;
}

static void expect_expand(const char *s, unsigned int max, int rc,
			  const char *const *want, unsigned int nwant)
{
	struct collect c = { .n = 0 };
	struct lnet_nidexpr e;

	parse_ok(s, &e);
	assert_int_equal(lnet_nidexpr_expand(&e, max, collect_nid, &c), rc);
	assert_int_equal(c.n, nwant);
	for (unsigned int i = 0; i < nwant; i++)
		assert_string_equal(c.text[i], want[i]);
}

static void test_expand(void **state)
{
	expect_expand("10.10.10.[5-8]@o2ib", 100, 0, (const char *[]){
		"10.10.10.5@o2ib", "10.10.10.6@o2ib", "10.10.10.7@o2ib",
		"10.10.10.8@o2ib" }, 4);
	/* the last octet turns fastest */
	expect_expand("10.0.[1-2].[1,3]@tcp1", 100, 0, (const char *[]){
		"10.0.1.1@tcp1", "10.0.1.3@tcp1", "10.0.2.1@tcp1",
		"10.0.2.3@tcp1" }, 4);
	/* overlapping ranges: every NID once */
	expect_expand("[1-3,2-5]@gni", 100, 0, (const char *[]){
		"1@gni", "2@gni", "3@gni", "4@gni", "5@gni" }, 5);
	expect_expand("[0-10/2,0-10/3]@kfi3", 100, 0, (const char *[]){
		"0@kfi3", "2@kfi3", "4@kfi3", "6@kfi3", "8@kfi3", "10@kfi3",
		"3@kfi3", "9@kfi3" }, 8);
	expect_expand("1.1.1.[7,7,7]@tcp", 100, 0, (const char *[]){
		"1.1.1.7@tcp" }, 1);
	expect_expand("0@lo", 1, 0, (const char *[]){ "0@lo" }, 1);
	expect_expand("[4294967294-4294967295]@ptlf", 5, 0, (const char *[]){
		"4294967294@ptlf", "4294967295@ptlf" }, 2);
	expect_expand("[0-4294967295/4294967295]@gni", 5, 0, (const char *[]){
		"0@gni", "4294967295@gni" }, 2);
	/* exactly max: fine; one more: -E2BIG after max visits */
	expect_expand("10.10.10.[5-8]@o2ib", 4, 0, (const char *[]){
		"10.10.10.5@o2ib", "10.10.10.6@o2ib", "10.10.10.7@o2ib",
		"10.10.10.8@o2ib" }, 4);
	expect_expand("10.10.10.[5-8]@o2ib", 3, -E2BIG, (const char *[]){
		"10.10.10.5@o2ib", "10.10.10.6@o2ib", "10.10.10.7@o2ib" }, 3);
	expect_expand("10.10.10.[5-8]@o2ib", 0, -E2BIG, NULL, 0);
	expect_expand("1.2.3.4@tcp[5]", 1, 0, (const char *[]){ "1.2.3.4@tcp5" }, 1);
}

static void test_expand_large(void **state)
{
	struct collect c = { .n = 0 };
	struct lnet_nidexpr e;

	parse_ok("*@tcp", &e);
	assert_int_equal(lnet_nidexpr_expand(&e, 1000, collect_nid, &c), -E2BIG);
	assert_int_equal(c.n, 1000);
	assert_string_equal(c.last, "0.0.3.231@tcp");

	/* a huge duplicate range is skipped in one step, not value by value */
	memset(&c, 0, sizeof(c));
	parse_ok("[0-100,0-4294967295]@gni", &e);
	assert_int_equal(lnet_nidexpr_expand(&e, 200, collect_nid, &c), -E2BIG);
	assert_int_equal(c.n, 200);
	assert_string_equal(c.last, "199@gni");

	memset(&c, 0, sizeof(c));
	parse_ok("[0-4294967295,0-4294967295/2]@gni", &e);
	assert_int_equal(lnet_nidexpr_expand(&e, 3, collect_nid, &c), -E2BIG);
	assert_int_equal(c.n, 3);

	/* a full range behind duplicates that do not divide its stride */
	memset(&c, 0, sizeof(c));
	parse_ok("[0-1000/2,0-1001]@kfi", &e);
	assert_int_equal(lnet_nidexpr_expand(&e, 5000, collect_nid, &c), 0);
	assert_int_equal(c.n, 1002);
	assert_string_equal(c.last, "1001@kfi");
}

static void test_expand_stop_and_refuse(void **state)
{
	struct collect c = { .stop_at = 2 };
	struct lnet_nidexpr e, absent = { 0 };

	parse_ok("[1-9]@gni", &e);
	assert_int_equal(lnet_nidexpr_expand(&e, 100, collect_nid, &c), 7);
	assert_int_equal(c.n, 2);

	/* only IPv4 and numeric kinds with one net number */
	static const char *const refused[] = {
		"tcp", "tcp*", "2001:db8::1@tcp", "2001:db8::/120@tcp",
		"10.0.0.1@tcp[1-2]", "10.0.0.1@tcp*", "10.0.0.1@tcp[1,1]",
		"[1-3]@gni[1-2]",
	};
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		memset(&c, 0, sizeof(c));
		parse_ok(refused[i], &e);
		assert_int_equal(lnet_nidexpr_expand(&e, 100, collect_nid, &c), -EINVAL);
		assert_int_equal(c.n, 0);
	}
	assert_int_equal(lnet_nidexpr_expand(&absent, 100, collect_nid, &c), -EINVAL);
}

/* Expanded NIDs match their expression; neighbours outside do not. */
static void test_expand_matches(void **state)
{
	static const char *const exprs[] = {
		"192.168.[0-2].[1-254/50]@tcp1", "[10-20/5,3]@kfi", "10.[1,3].*.7@o2ib",
	};

	for (size_t i = 0; i < ARRAY_SIZE(exprs); i++) {
		struct collect c = { .n = 0 };
		struct lnet_nidexpr e;

		parse_ok(exprs[i], &e);
		assert_int_equal(lnet_nidexpr_expand(&e, 64, collect_nid, &c) == 0 ||
				 c.n == 64, 1);
		for (unsigned int k = 0; k < c.n && k < 64; k++) {
			struct lnet_nid nid;

			assert_int_equal(lnet_nid_parse(c.text[k], &nid, NULL, 0), 0);
			assert_true(lnet_nidexpr_match_nid(&e, &nid));
			nid.nid_netnum++;
			assert_false(lnet_nidexpr_match_nid(&e, &nid));
		}
	}
}

struct expand_seen {
	const struct lnet_nidexpr *e;
	struct lnet_nid seen[200];
	unsigned int n;
};

static int expand_check(const struct lnet_nid *nid, void *arg)
{
	struct expand_seen *c = arg;

	assert_true(lnet_nidexpr_match_nid(c->e, nid));
	for (unsigned int i = 0; i < c->n; i++)
		assert_false(lnet_nid_equal(&c->seen[i], nid));	/* each NID once */
	c->seen[c->n++] = *nid;
	return 0;
}

/* Random IPv4 and numeric expressions: what expand visits matches, once. */
static void test_expand_random(void **state)
{
	static struct expand_seen c;
	unsigned int tried = 0;

	for (int i = 0; i < 20000 && tried < 2000; i++) {
		struct lnet_nidexpr e;
		int rc;

		rnd_expr(&e);
		if (e.ne_kind != LNET_UDSP_KIND_IPV4 && e.ne_kind != LNET_UDSP_KIND_NUM)
			continue;
		e.ne_r[0].hi = e.ne_r[0].lo;	/* one net number */
		e.ne_r[0].stride = 1;
		if (e.ne_count[0] != 1)
			continue;
		c.e = &e;
		c.n = 0;
		rc = lnet_nidexpr_expand(&e, 200, expand_check, &c);
		assert_true(rc == 0 || (rc == -E2BIG && c.n == 200));
		assert_true(c.n >= 1);
		tried++;
	}
	assert_int_equal(tried, 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_parse_failure_leaves_expr),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_too_many_ranges),
		cmocka_unit_test(test_round_trip_table),
		cmocka_unit_test(test_round_trip_random),
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_match_net_of_nid_rule),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_print_short_buffer),
		cmocka_unit_test(test_print_longest),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_large),
		cmocka_unit_test(test_expand_stop_and_refuse),
		cmocka_unit_test(test_expand_matches),
		cmocka_unit_test(test_expand_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
