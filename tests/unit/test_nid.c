// SPDX-License-Identifier: GPL-2.0-only
/*
 * NIDs and nets: LND table, parsing and canonical printing (IPv4, IPv6 in
 * RFC 5952 form, numeric, 0@lo), every rejection with its exact message,
 * printing into short buffers, equality and the hash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/nid/nid.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void test_lnd_table(void **state)
{
	static const struct { u32 lnd; const char *name; bool ip; } lnds[] = {
		{ LNET_LND_TCP, "tcp", true }, { LNET_LND_O2IB, "o2ib", true },
		{ LNET_LND_EFA, "efa", true }, { LNET_LND_GNI, "gni", false },
		{ LNET_LND_PTLF, "ptlf", false }, { LNET_LND_KFI, "kfi", false },
		{ LNET_LND_LO, "lo", false },
	};
	u32 lnd;

	for (size_t i = 0; i < ARRAY_SIZE(lnds); i++) {
		assert_string_equal(lnet_lnd_name(lnds[i].lnd), lnds[i].name);
		assert_int_equal(lnet_lnd_is_ip(lnds[i].lnd), lnds[i].ip);
		lnd = 0;
		assert_int_equal(lnet_lnd_lookup(lnds[i].name, strlen(lnds[i].name), &lnd), 0);
		assert_int_equal(lnd, lnds[i].lnd);
	}
	assert_null(lnet_lnd_name(LNET_LND_NONE));
	assert_null(lnet_lnd_name(3));
	assert_null(lnet_lnd_name(__LNET_LND_MAX));
	assert_false(lnet_lnd_is_ip(3));
	/* exact match of the first len bytes only */
	assert_int_equal(lnet_lnd_lookup("tcp1", 3, &lnd), 0);
	assert_int_equal(lnd, LNET_LND_TCP);
	assert_int_equal(lnet_lnd_lookup("tc", 2, &lnd), -EINVAL);
	assert_int_equal(lnet_lnd_lookup("tcp1", 4, &lnd), -EINVAL);
	assert_int_equal(lnet_lnd_lookup("TCP", 3, &lnd), -EINVAL);
	assert_int_equal(lnet_lnd_lookup("", 0, &lnd), -EINVAL);
}

static void test_net_parse_print(void **state)
{
	static const struct { const char *in; u32 lnd, num; const char *out; } nets[] = {
		{ "tcp", LNET_LND_TCP, 0, "tcp" },
		{ "tcp0", LNET_LND_TCP, 0, "tcp" },
		{ "tcp12", LNET_LND_TCP, 12, "tcp12" },
		{ "tcp007", LNET_LND_TCP, 7, "tcp7" },
		{ "o2ib3", LNET_LND_O2IB, 3, "o2ib3" },
		{ "o2ib", LNET_LND_O2IB, 0, "o2ib" },
		{ "efa65535", LNET_LND_EFA, 65535, "efa65535" },
		{ "gni1", LNET_LND_GNI, 1, "gni1" },
		{ "ptlf", LNET_LND_PTLF, 0, "ptlf" },
		{ "kfi9", LNET_LND_KFI, 9, "kfi9" },
		{ "lo", LNET_LND_LO, 0, "lo" },
		{ "lo0", LNET_LND_LO, 0, "lo" },
	};
	char buf[LNET_NET_STR_MAX], err[128];

	for (size_t i = 0; i < ARRAY_SIZE(nets); i++) {
		u32 id = 0xdeadbeef;

		assert_int_equal(lnet_net_parse(nets[i].in, &id, err, sizeof(err)), 0);
		assert_int_equal(id, LNET_NET_ID(nets[i].lnd, nets[i].num));
		assert_int_equal(lnet_net_print(id, buf, sizeof(buf)),
				 (int)strlen(nets[i].out));
		assert_string_equal(buf, nets[i].out);
	}
	/* unknown LND types still print something distinct */
	assert_int_equal(lnet_net_print(LNET_NET_ID(7, 3), buf, sizeof(buf)), 6);
	assert_string_equal(buf, "lnd7-3");
	assert_int_equal(lnet_net_print(LNET_NET_ID(7, 0), buf, sizeof(buf)), 4);
	assert_string_equal(buf, "lnd7");
}

struct reject {
	const char *in;
	const char *msg;
};

static const struct reject net_rejects[] = {
	{ "", "net is empty: expected an LND (tcp, o2ib, efa, gni, ptlf, kfi or lo) and an optional net number, e.g. 'tcp1'" },
	{ "foo", "unknown LND 'foo': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" },
	{ "tcpx", "unknown LND 'tcpx': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" },
	{ "1", "unknown LND '1': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" },
	{ "TCP", "LND 'TCP' must be lowercase: expected 'tcp'" },
	{ "O2ib2", "LND 'O2ib' must be lowercase: expected 'o2ib'" },
	{ "tcp65536", "net number '65536' is out of range 0-65535" },
	{ "tcp99999999999999999999", "net number '99999999999999999999' is out of range 0-65535" },
	{ "tcp1x", "trailing junk 'x' after net 'tcp1'" },
	{ "tcp ", "trailing junk ' ' after net 'tcp'" },
	{ "tcp-1", "trailing junk '-1' after net 'tcp'" },
	{ "tcp*", "trailing junk '*' after net 'tcp'" },
	{ "lo1", "net 'lo1': lo has no net number (only 'lo')" },
};

static void test_net_reject(void **state)
{
	char err[256];
	u32 id = 42;

	for (size_t i = 0; i < ARRAY_SIZE(net_rejects); i++) {
		err[0] = '\0';
		assert_int_equal(lnet_net_parse(net_rejects[i].in, &id, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, net_rejects[i].msg);
		assert_int_equal(id, 42);
	}
	/* a NULL or zero-sized err buffer is fine */
	assert_int_equal(lnet_net_parse("foo", &id, NULL, 0), -EINVAL);
	err[0] = 'x';
	assert_int_equal(lnet_net_parse("foo", &id, err, 0), -EINVAL);
	assert_int_equal(err[0], 'x');
}

static const struct { const char *in, *out; } nids[] = {
	{ "10.0.0.1@tcp", "10.0.0.1@tcp" },
	{ "10.0.0.1@tcp0", "10.0.0.1@tcp" },
	{ "192.168.1.254@tcp1", "192.168.1.254@tcp1" },
	{ "010.000.0.001@o2ib", "10.0.0.1@o2ib" },
	{ "0.0.0.0@tcp", "0.0.0.0@tcp" },
	{ "255.255.255.255@efa9", "255.255.255.255@efa9" },
	{ "126.255.255.255@tcp", "126.255.255.255@tcp" },
	{ "128.0.0.1@tcp", "128.0.0.1@tcp" },
	{ "2001:db8::1@tcp1", "2001:db8::1@tcp1" },
	{ "2001:DB8::1@tcp", "2001:db8::1@tcp" },
	{ "2001:0db8:0000:0000:0000:0000:0000:0001@o2ib", "2001:db8::1@o2ib" },
	/* RFC 5952 4.2.2: one 0 group is not compressed */
	{ "2001:db8:0:1:1:1:1:1@tcp", "2001:db8:0:1:1:1:1:1@tcp" },
	/* 4.2.3: the longest run; the first of equal runs */
	{ "2001:0:0:1:0:0:0:1@tcp", "2001:0:0:1::1@tcp" },
	{ "2001:db8:0:0:1:0:0:1@tcp", "2001:db8::1:0:0:1@tcp" },
	{ "1:2:3:4:5:6:7:8@tcp", "1:2:3:4:5:6:7:8@tcp" },
	{ "1:2:3:4:5:6:7::@tcp", "1:2:3:4:5:6:7:0@tcp" },
	{ "::2:3:4:5:6:7:8@tcp", "0:2:3:4:5:6:7:8@tcp" },
	{ "1::@tcp", "1::@tcp" },
	{ "::@tcp", "::@tcp" },
	{ "::2@tcp", "::2@tcp" },
	{ "fec0::1@tcp", "fec0::1@tcp" },
	{ "fe7f::1@tcp", "fe7f::1@tcp" },
	{ "::ffff:10.1.2.3@tcp", "::ffff:10.1.2.3@tcp" },
	{ "0:0:0:0:0:ffff:a01:203@tcp", "::ffff:10.1.2.3@tcp" },
	{ "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff@o2ib65535",
	  "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff@o2ib65535" },
	{ "5@gni", "5@gni" },
	{ "5@gni3", "5@gni3" },
	{ "0@kfi", "0@kfi" },
	{ "0x10@kfi", "16@kfi" },
	{ "0XfF@ptlf", "255@ptlf" },
	{ "4294967295@ptlf", "4294967295@ptlf" },
	{ "0xffffffff@gni", "4294967295@gni" },
	{ "007@gni", "7@gni" },
	{ "0@lo", "0@lo" },
	{ "0@lo0", "0@lo" },
};

static void test_nid_parse_print(void **state)
{
	char buf[LNET_NID_STR_MAX], err[256];

	for (size_t i = 0; i < ARRAY_SIZE(nids); i++) {
		struct lnet_nid nid, again;

		err[0] = '\0';
		assert_int_equal(lnet_nid_parse(nids[i].in, &nid, err, sizeof(err)), 0);
		assert_int_equal(lnet_nid_print(&nid, buf, sizeof(buf)),
				 (int)strlen(nids[i].out));
		assert_string_equal(buf, nids[i].out);
		assert_int_equal(lnet_nid_parse(buf, &again, err, sizeof(err)), 0);
		assert_true(lnet_nid_equal(&nid, &again));
		assert_int_equal(lnet_nid_hash(&nid), lnet_nid_hash(&again));
		assert_false(lnet_nid_is_zero(&nid));
	}
}

static void test_nid_fields(void **state)
{
	static const u8 v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	struct lnet_nid nid;

	assert_int_equal(lnet_nid_parse("10.1.2.3@tcp7", &nid, NULL, 0), 0);
	assert_int_equal(nid.nid_addr_len, 4);
	assert_int_equal(nid.nid_lnd, LNET_LND_TCP);
	assert_int_equal(nid.nid_netnum, 7);
	assert_memory_equal(nid.nid_addr, ((u8[]){ 10, 1, 2, 3 }), 4);
	assert_int_equal(lnet_nid_net(&nid), LNET_NET_ID(LNET_LND_TCP, 7));

	assert_int_equal(lnet_nid_parse("2001:db8::1@o2ib", &nid, NULL, 0), 0);
	assert_int_equal(nid.nid_addr_len, 16);
	assert_memory_equal(nid.nid_addr, v6, 16);
	assert_int_equal(lnet_nid_net(&nid), LNET_NET_ID(LNET_LND_O2IB, 0));

	assert_int_equal(lnet_nid_parse("0x01020304@gni2", &nid, NULL, 0), 0);
	assert_int_equal(nid.nid_addr_len, 4);
	assert_memory_equal(nid.nid_addr, ((u8[]){ 1, 2, 3, 4 }), 4);
	assert_int_equal(nid.nid_netnum, 2);

	assert_int_equal(lnet_nid_parse("0@lo", &nid, NULL, 0), 0);
	assert_int_equal(nid.nid_addr_len, 4);
	assert_int_equal(nid.nid_lnd, LNET_LND_LO);
	assert_memory_equal(nid.nid_addr, ((u8[]){ 0, 0, 0, 0 }), 4);
}

static const struct reject nid_rejects[] = {
	{ "10.0.0.1", "NID '10.0.0.1' has no '@': expected <address>@<net>, e.g. '10.0.0.1@tcp'" },
	{ "", "NID '' has no '@': expected <address>@<net>, e.g. '10.0.0.1@tcp'" },
	{ "10.0.0.1@tcp@tcp", "NID '10.0.0.1@tcp@tcp' has more than one '@': expected <address>@<net>" },
	{ "@tcp", "NID has an empty address before '@': expected <address>@<net>" },
	{ "10.0.0.1@", "net is empty: expected an LND (tcp, o2ib, efa, gni, ptlf, kfi or lo) and an optional net number, e.g. 'tcp1'" },
	{ "10.0.0.1@foo", "unknown LND 'foo': expected tcp, o2ib, efa, gni, ptlf, kfi or lo" },
	{ "10.0.0.1@Tcp", "LND 'Tcp' must be lowercase: expected 'tcp'" },
	{ "10.0.0.1@tcp65536", "net number '65536' is out of range 0-65535" },
	{ "10.0.0.1@tcp1x", "trailing junk 'x' after net 'tcp1'" },
	{ "10.0.0.1 @tcp", "octet '1 ' of '10.0.0.1 ' is not a decimal number 0-255" },
	{ " 10.0.0.1@tcp", "octet ' 10' of ' 10.0.0.1' is not a decimal number 0-255" },
	{ "10.0.0.256@tcp", "octet '256' is out of range 0-255" },
	{ "10.0.0.99999999999@tcp", "octet '99999999999' is out of range 0-255" },
	{ "10.0.0@tcp", "IPv4 address '10.0.0' has 3 octets: expected 4 (a.b.c.d)" },
	{ "10.0.0.1.2@tcp", "IPv4 address '10.0.0.1.2' has 5 octets: expected 4 (a.b.c.d)" },
	{ "10@tcp", "IPv4 address '10' has 1 octets: expected 4 (a.b.c.d)" },
	{ "10..0.1@tcp", "IPv4 address '10..0.1' has an empty octet: expected a.b.c.d, each 0-255" },
	{ "10.0.0.@tcp", "IPv4 address '10.0.0.' has an empty octet: expected a.b.c.d, each 0-255" },
	{ "10.0.0.x@tcp", "octet 'x' of '10.0.0.x' is not a decimal number 0-255" },
	{ "10.0.0.+1@tcp", "octet '+1' of '10.0.0.+1' is not a decimal number 0-255" },
	{ "127.0.0.1@tcp", "address '127.0.0.1' is a loopback address (127.0.0.0/8): not a valid NID" },
	{ "127.255.1.2@o2ib", "address '127.255.1.2' is a loopback address (127.0.0.0/8): not a valid NID" },
	{ "::1@tcp", "address '::1' is the IPv6 loopback address (::1): not a valid NID" },
	{ "0:0:0:0:0:0:0:1@tcp", "address '0:0:0:0:0:0:0:1' is the IPv6 loopback address (::1): not a valid NID" },
	{ "fe80::1@tcp", "address 'fe80::1' is an IPv6 link-local address (fe80::/10): not a valid NID" },
	{ "febf:1::@tcp", "address 'febf:1::' is an IPv6 link-local address (fe80::/10): not a valid NID" },
	{ "1::2::3@tcp", "IPv6 address '1::2::3' has more than one '::'" },
	{ "1:2:3@tcp", "IPv6 address '1:2:3' has 3 groups: expected 8, or '::' for a run of zeros" },
	{ "1:2:3:4:5:6:7:8:9@tcp", "IPv6 address '1:2:3:4:5:6:7:8:9' has more than 8 groups" },
	{ "1:2:3:4::5:6:7:8@tcp", "IPv6 address '1:2:3:4::5:6:7:8' has more than 8 groups" },
	{ "12345::1@tcp", "group '12345' of IPv6 address '12345::1' is not 1-4 hex digits" },
	{ "2001:db8::g@tcp", "group 'g' of IPv6 address '2001:db8::g' is not 1-4 hex digits" },
	{ "1:@tcp", "IPv6 address '1:' ends with a single ':'" },
	{ ":1::@tcp", "IPv6 address ':1::' has an empty group: expected groups of 1-4 hex digits" },
	{ "1:::2@tcp", "IPv6 address '1:::2' has more than one '::'" },
	{ "1.2.3.4::@tcp", "group '1.2.3.4' of IPv6 address '1.2.3.4::' is not 1-4 hex digits" },
	{ "::ffff:1.2.3.256@tcp", "octet '256' is out of range 0-255" },
	{ "2001:db8::1@gni", "address '2001:db8::1' is not a number: gni addresses are 0-4294967295 (decimal or 0x hex)" },
	{ "1.2.3.4@kfi", "address '1.2.3.4' is not a number: kfi addresses are 0-4294967295 (decimal or 0x hex)" },
	{ "4294967296@gni", "address '4294967296' is out of range 0-4294967295" },
	{ "0x100000000@gni", "address '0x100000000' is out of range 0-4294967295" },
	{ "0x@gni", "address '0x' is not a number: gni addresses are 0-4294967295 (decimal or 0x hex)" },
	{ "-1@ptlf", "address '-1' is not a number: ptlf addresses are 0-4294967295 (decimal or 0x hex)" },
	{ "5x@gni", "address '5x' is not a number: gni addresses are 0-4294967295 (decimal or 0x hex)" },
	{ "1@lo", "lo address '1' is not 0: the only lo NID is 0@lo" },
	{ "00@lo", "lo address '00' is not 0: the only lo NID is 0@lo" },
	{ "0@lo1", "net 'lo1': lo has no net number (only 'lo')" },
};

static void test_nid_reject(void **state)
{
	struct lnet_nid nid, before;
	char err[256];

	memset(&nid, 0x5a, sizeof(nid));
	before = nid;
	for (size_t i = 0; i < ARRAY_SIZE(nid_rejects); i++) {
		err[0] = '\0';
		assert_int_equal(lnet_nid_parse(nid_rejects[i].in, &nid, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, nid_rejects[i].msg);
		/* nothing written on failure */
		assert_memory_equal(&nid, &before, sizeof(nid));
	}
}

static void test_nid_print_short_buffer(void **state)
{
	static const char *const texts[] = {
		"10.0.0.1@tcp", "2001:db8::1@tcp1", "5@gni", "0@lo",
	};
	char buf[LNET_NID_STR_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		size_t len = strlen(texts[i]);
		struct lnet_nid nid;

		assert_int_equal(lnet_nid_parse(texts[i], &nid, NULL, 0), 0);
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(lnet_nid_print(&nid, buf, len), -ENOSPC);
		assert_int_equal(buf[len - 1], '\0');	/* truncated, terminated */
		assert_int_equal(memcmp(buf, texts[i], len - 1), 0);
		assert_int_equal(lnet_nid_print(&nid, buf, len + 1), (int)len);
		assert_string_equal(buf, texts[i]);
		assert_int_equal(lnet_nid_print(&nid, NULL, 0), -ENOSPC);
	}
}

static void test_nid_longest_fits(void **state)
{
	struct lnet_nid nid;
	char buf[LNET_NID_STR_MAX];
	int n;

	assert_int_equal(lnet_nid_parse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff@o2ib65535",
					&nid, NULL, 0), 0);
	n = lnet_nid_print(&nid, buf, sizeof(buf));
	assert_int_equal(n, 49);
	assert_int_equal(lnet_nid_parse("4294967295@ptlf65535", &nid, NULL, 0), 0);
	assert_int_equal(lnet_nid_print(&nid, buf, sizeof(buf)), 20);
	assert_int_equal(lnet_net_print(LNET_NET_ID(LNET_LND_PTLF, 65535), buf,
					LNET_NET_STR_MAX), 9);
}

static void test_nid_print_zero(void **state)
{
	struct lnet_nid nid = { 0 };
	char buf[LNET_NID_STR_MAX];

	assert_true(lnet_nid_is_zero(&nid));
	assert_int_equal(lnet_nid_print(&nid, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "<none>");
}

static void test_nid_make_equal(void **state)
{
	static const u8 a4[4] = { 10, 0, 0, 1 };
	static const u8 a16[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	struct lnet_nid a, b;
	char buf[LNET_NID_STR_MAX];

	memset(&a, 0x77, sizeof(a));
	lnet_nid_make(&a, LNET_NET_ID(LNET_LND_TCP, 3), a4, 4);
	assert_int_equal(a.nid_addr_len, 4);
	assert_int_equal(a.nid_lnd, LNET_LND_TCP);
	assert_int_equal(a.nid_netnum, 3);
	/* bytes past the address are zero, so memcmp of whole NIDs works */
	assert_memory_equal(a.nid_addr + 4, ((u8[12]){ 0 }), 12);
	assert_int_equal(lnet_nid_print(&a, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "10.0.0.1@tcp3");
	assert_int_equal(lnet_nid_parse("10.0.0.1@tcp3", &b, NULL, 0), 0);
	assert_true(lnet_nid_equal(&a, &b));
	assert_memory_equal(&a, &b, sizeof(a));

	b.nid_netnum = 4;
	assert_false(lnet_nid_equal(&a, &b));
	b.nid_netnum = 3;
	b.nid_lnd = LNET_LND_O2IB;
	assert_false(lnet_nid_equal(&a, &b));
	b.nid_lnd = LNET_LND_TCP;
	b.nid_addr[3] = 2;
	assert_false(lnet_nid_equal(&a, &b));

	lnet_nid_make(&a, LNET_NET_ID(LNET_LND_O2IB, 0), a16, 16);
	assert_int_equal(lnet_nid_print(&a, buf, sizeof(buf)), 16);
	assert_string_equal(buf, "2001:db8::9@o2ib");
	/* same first 4 bytes, other length: not equal */
	lnet_nid_make(&b, LNET_NET_ID(LNET_LND_O2IB, 0), a16, 4);
	assert_false(lnet_nid_equal(&a, &b));
}

/* Sequential addresses must spread evenly over a power-of-two table. */
static void test_nid_hash_spread(void **state)
{
	enum { N = 65536, BUCKETS = 1024 };
	static unsigned int load[BUCKETS];
	unsigned int max = 0, min = N;
	u32 diff = 0, prev = 0;

	memset(load, 0, sizeof(load));
	for (u32 i = 0; i < N; i++) {
		u8 a[4] = { 10, 1, (u8)(i >> 8), (u8)i };
		struct lnet_nid nid;
		u32 h;

		lnet_nid_make(&nid, LNET_NET_ID(LNET_LND_TCP, 0), a, 4);
		h = lnet_nid_hash(&nid);
		load[h & (BUCKETS - 1)]++;
		if (i)
			diff |= h ^ prev;
		prev = h;
	}
	for (unsigned int b = 0; b < BUCKETS; b++) {
		max = load[b] > max ? load[b] : max;
		min = load[b] < min ? load[b] : min;
	}
	/* 64 per bucket on average; a poor hash piles them up */
	assert_true(max <= 110);
	assert_true(min >= 30);
	assert_int_equal(diff, 0xffffffffU);	/* every output bit moves */
}

static void test_nid_hash_net_matters(void **state)
{
	static const u8 a[4] = { 10, 0, 0, 1 };
	struct lnet_nid x, y, z;

	lnet_nid_make(&x, LNET_NET_ID(LNET_LND_TCP, 0), a, 4);
	lnet_nid_make(&y, LNET_NET_ID(LNET_LND_TCP, 1), a, 4);
	lnet_nid_make(&z, LNET_NET_ID(LNET_LND_O2IB, 0), a, 4);
	assert_int_not_equal(lnet_nid_hash(&x), lnet_nid_hash(&y));
	assert_int_not_equal(lnet_nid_hash(&x), lnet_nid_hash(&z));
	assert_int_not_equal(lnet_nid_hash(&y), lnet_nid_hash(&z));
}

/* The libc OS layer under the NID library: clock and log lines. */
static void test_os_user(void **state)
{
	u64 a = os_now_ns(), b;
	char line[256];
	FILE *f = tmpfile();

	b = os_now_ns();
	assert_true(b >= a);
	assert_non_null(f);
	os_log_file = f;
	os_info("hello %d", 42);
	os_warn("with newline\n");
	os_err("an error");
	os_log_file = NULL;
	rewind(f);
	/* "2026-12-02T09:33:14.123456Z info hello 42" */
	assert_non_null(fgets(line, sizeof(line), f));
	assert_int_equal(strlen(line), 28 + strlen("info hello 42\n"));
	assert_int_equal(line[4], '-');
	assert_int_equal(line[10], 'T');
	assert_int_equal(line[19], '.');
	assert_int_equal(line[26], 'Z');
	assert_string_equal(line + 28, "info hello 42\n");
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line + 28, "warn with newline\n");	/* no blank line */
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line + 28, "err an error\n");
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lnd_table),
		cmocka_unit_test(test_net_parse_print),
		cmocka_unit_test(test_net_reject),
		cmocka_unit_test(test_nid_parse_print),
		cmocka_unit_test(test_nid_fields),
		cmocka_unit_test(test_nid_reject),
		cmocka_unit_test(test_nid_print_short_buffer),
		cmocka_unit_test(test_nid_longest_fits),
		cmocka_unit_test(test_nid_print_zero),
		cmocka_unit_test(test_nid_make_equal),
		cmocka_unit_test(test_nid_hash_spread),
		cmocka_unit_test(test_nid_hash_net_matters),
		cmocka_unit_test(test_os_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
