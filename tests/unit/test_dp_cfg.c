// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcfg for the data-path commands: the byte-count parser of selftest
 * --size (values, ranges, exact messages) and the ping / discover /
 * selftest documents (exact text).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../libcfg/cfg_priv.h"

static struct cfg_err err;

#define SIZE_MSG(v, max) \
	"invalid --size '" v "': expected bytes 0-" max \
	" (a K or M suffix counts 1024 or 1048576)"

static void size_ok(const char *s, u32 max, u32 want)
{
	u32 v = 12345;

	memset(&err, 0, sizeof(err));
	assert_int_equal(cfg_parse_size("--size", s, 0, max, &v, &err), 0);
	assert_int_equal(v, want);
	assert_string_equal(err.msg, "");
}

static void size_bad(const char *s, u32 min, u32 max, int rc, const char *msg)
{
	u32 v = 12345;

	memset(&err, 0, sizeof(err));
	assert_int_equal(cfg_parse_size("--size", s, min, max, &v, &err), rc);
	assert_int_equal(v, 12345);
	assert_string_equal(err.msg, msg);
}

static void test_size_values(void **state)
{
	size_ok("0", 1048576, 0);
	size_ok("1", 1048576, 1);
	size_ok("007", 1048576, 7);
	size_ok("1048576", 1048576, 1048576);
	size_ok("1M", 1048576, 1048576);
	size_ok("1m", 1048576, 1048576);
	size_ok("64K", 1048576, 65536);
	size_ok("64k", 1048576, 65536);
	size_ok("1024K", 1048576, 1048576);
	size_ok("0M", 1048576, 0);
	size_ok("4095M", UINT32_MAX, 4095U << 20);
	size_ok("4294967295", UINT32_MAX, UINT32_MAX);
	/* Lustre's number forms (strtol base 0), then the suffix */
	size_ok("0x10", 1048576, 16);
	size_ok("010", 1048576, 8);
	size_ok("0x10K", 1048576, 16384);
	size_ok("0X1m", 1048576, 1048576);
	size_ok("0", 1048576, 0);
}

static void test_size_refused(void **state)
{
	size_bad("1048577", 0, 1048576, -ERANGE, SIZE_MSG("1048577", "1048576"));
	size_bad("2M", 0, 1048576, -ERANGE, SIZE_MSG("2M", "1048576"));
	size_bad("1025K", 0, 1048576, -ERANGE, SIZE_MSG("1025K", "1048576"));
	size_bad("4096M", 0, UINT32_MAX, -ERANGE, SIZE_MSG("4096M", "4294967295"));
	size_bad("4294967296", 0, UINT32_MAX, -ERANGE, SIZE_MSG("4294967296", "4294967295"));
	size_bad("99999999999999999999", 0, UINT32_MAX, -ERANGE,
		 SIZE_MSG("99999999999999999999", "4294967295"));
	size_bad("", 0, 1048576, -EINVAL, SIZE_MSG("", "1048576"));
	size_bad("K", 0, 1048576, -EINVAL, SIZE_MSG("K", "1048576"));
	size_bad("1KK", 0, 1048576, -EINVAL, SIZE_MSG("1KK", "1048576"));
	size_bad("1KB", 0, 1048576, -EINVAL, SIZE_MSG("1KB", "1048576"));
	size_bad("1G", 0, 1048576, -EINVAL, SIZE_MSG("1G", "1048576"));
	size_bad("1 K", 0, 1048576, -EINVAL, SIZE_MSG("1 K", "1048576"));
	size_bad(" 1", 0, 1048576, -EINVAL, SIZE_MSG(" 1", "1048576"));
	size_bad("-1", 0, 1048576, -EINVAL, SIZE_MSG("-1", "1048576"));
	size_bad("+1", 0, 1048576, -EINVAL, SIZE_MSG("+1", "1048576"));
	size_bad("0x", 0, 1048576, -EINVAL, SIZE_MSG("0x", "1048576"));
	size_bad("0xK", 0, 1048576, -EINVAL, SIZE_MSG("0xK", "1048576"));
	size_bad("08", 0, 1048576, -EINVAL, SIZE_MSG("08", "1048576"));
	size_bad("0x100001", 0, 1048576, -ERANGE, SIZE_MSG("0x100001", "1048576"));
	size_bad("1.5M", 0, 1048576, -EINVAL, SIZE_MSG("1.5M", "1048576"));
	/* the minimum counts too */
	size_bad("0", 1, 10, -ERANGE,
		 "invalid --size '0': expected bytes 1-10 (a K or M suffix counts 1024 or 1048576)");
}

/* --- documents ------------------------------------------------------------------ */

/* Run @print into a memory file; the text, to free. */
static char *printed(int (*print)(const void *arg, FILE *out), const void *arg, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	memset(&err, 0, sizeof(err));
	*rc = print(arg, f);
	fclose(f);
	return buf;
}

static struct lnet_nid nid(const char *s)
{
	struct lnet_nid n;

	assert_int_equal(cfg_parse_nid("NID", s, &n, &err), 0);
	return n;
}

static const struct lnet_ioc_ping *ping_res;
static size_t ping_n;

static int print_ping(const void *key, FILE *out)
{
	return cfg_show_ping(key, ping_res, ping_n, out, &err);
}

static void test_show_ping(void **state)
{
	struct lnet_ioc_ping *res = calloc(2, sizeof(*res));
	char *text;
	int rc;

	assert_non_null(res);
	res[0].ping_primary = nid("0@lo");
	res[1].ping_primary = nid("10.0.0.2@tcp");
	res[1].ping_multi_rail = 1;
	res[1].ping_nnids = 2;
	res[1].ping_nids[0] = nid("10.0.0.2@tcp");
	res[1].ping_nids[1] = nid("2001:db8::2@tcp1");
	res[1].ping_nids[2] = nid("10.9.9.9@tcp");	/* past ping_nnids: not shown */
	ping_res = res;
	ping_n = 2;
	text = printed(print_ping, "discover", &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(text,
		"discover:\n"
		"-   primary nid: 0@lo\n"
		"    Multi-Rail: false\n"
		"    peer_ni: []\n"
		"-   primary nid: 10.0.0.2@tcp\n"
		"    Multi-Rail: true\n"
		"    peer_ni:\n"
		"    -   nid: 10.0.0.2@tcp\n"
		"    -   nid: 2001:db8::2@tcp1\n");
	free(text);
	/* nothing answered: nothing at all is printed */
	ping_n = 0;
	text = printed(print_ping, "ping", &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(text, "");
	free(text);
	free(res);
}

static int print_selftest(const void *req, FILE *out)
{
	return cfg_show_selftest(req, out, &err);
}

static void test_show_selftest(void **state)
{
	struct lnet_ioc_selftest req = {
		.sft_op = LNET_SELFTEST_OP_GET, .sft_size = 4096, .sft_count = 100,
		.sft_concurrency = 8, .sft_ok = 97, .sft_failed = 2, .sft_corrupt = 1,
		.sft_elapsed_ns = 123456789,
	};
	char *text;
	int rc;

	req.sft_target = nid("10.11.0.2@tcp");
	req.sft_src = nid("10.11.0.1@tcp");
	req.sft_failed_by[0] = 1;				/* timeout */
	req.sft_failed_by[LNET_SELFTEST_NCAUSES - 1] = 1;	/* abandoned */
	text = printed(print_selftest, &req, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(text,
		"selftest:\n"
		"    op: get\n"
		"    target: 10.11.0.2@tcp\n"
		"    size: 4096\n"
		"    count: 100\n"
		"    check: full\n"
		"    ok: 97\n"
		"    failed: 2\n"
		"    corrupt: 1\n"
		"    failed_by:\n"
		"        timeout: 1\n"
		"        unreachable: 0\n"
		"        shutdown: 0\n"
		"        network: 0\n"
		"        start: 0\n"
		"        abandoned: 1\n"
		"    duplicate: 0\n"
		"    elapsed_ns: 123456789\n");
	free(text);
	req.sft_op = LNET_SELFTEST_OP_PUT;
	req.sft_check = LNET_LST_CHECK_none;
	text = printed(print_selftest, &req, &rc);
	assert_non_null(strstr(text, "    op: put\n"));
	assert_non_null(strstr(text, "    count: 100\n    check: none\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_values),
		cmocka_unit_test(test_size_refused),
		cmocka_unit_test(test_show_ping),
		cmocka_unit_test(test_show_selftest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
