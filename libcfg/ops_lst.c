// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * selftest run: the lnet_selftest console of this node (IOC_LNET_LST) and
 * the document of a run, per node the rates between the first counters
 * read after the start and the last ones:
 *
 *   selftest_run:
 *       test: write
 *       size: 1048576
 *       check: simple
 *       concurrency: 1
 *       count: 100
 *       nodes:
 *           - nid: 10.0.0.1@tcp
 *             role: client
 *             status: ok
 *             seconds: 2.031
 *             read_mb_s: 0.01
 *             write_mb_s: 51.63
 *             rpc_s: 98.47
 *             errors: 0
 *             ...
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "yemit.h"
#include "ops_priv.h"

static const char *const lst_tests[] = {
#define LST_TEST_NAME(n, v) [v] = #n,
	LNET_LST_TESTS(LST_TEST_NAME)
#undef LST_TEST_NAME
};

static const char *const lst_checks[] = {
#define LST_CHECK_NAME(n, v) [v] = #n,
	LNET_LST_CHECKS(LST_CHECK_NAME)
#undef LST_CHECK_NAME
};

static const char *lst_name(const char *const *names, size_t n, uint32_t v)
{
	return v < n && names[v] ? names[v] : "?";
}

const char *cfg_lst_test_name(uint32_t test)
{
	return lst_name(lst_tests, sizeof(lst_tests) / sizeof(lst_tests[0]), test);
}

const char *cfg_lst_check_name(uint32_t check)
{
	return lst_name(lst_checks, sizeof(lst_checks) / sizeof(lst_checks[0]), check);
}

int cfg_lst_test_parse(const char *s, uint32_t *test, struct cfg_err *err)
{
	for (uint32_t i = 1; i < sizeof(lst_tests) / sizeof(lst_tests[0]); i++)
		if (lst_tests[i] && !strcmp(s, lst_tests[i])) {
			*test = i;
			return 0;
		}
	return cfg_fail(err, -EINVAL, NULL, "--test: '%s' is not one of ping, read, write", s);
}

int cfg_lst_check_parse(const char *s, uint32_t *check, struct cfg_err *err)
{
	for (uint32_t i = 1; i < sizeof(lst_checks) / sizeof(lst_checks[0]); i++)
		if (lst_checks[i] && !strcmp(s, lst_checks[i])) {
			*check = i;
			return 0;
		}
	return cfg_fail(err, -EINVAL, NULL, "--check: '%s' is not one of none, simple, full", s);
}

/* The first node that did not take its part, named with its status. */
static int lst_node_fail(const struct lnet_ioc_lst *req, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX];
	uint32_t i;

	for (i = 0; i < req->lst_nfrom + req->lst_nto; i++)
		if (req->lst_nodes[i].ln_status)
			return cfg_fail(err, -EHOSTUNREACH, NULL,
					"selftest run failed: %s did not take part: %s",
					cfg_nid_str(&req->lst_nids[i], nbuf, sizeof(nbuf)),
					req->lst_nodes[i].ln_status == ETIMEDOUT ?
					"no answer (is lnet_selftest running there?)" :
					strerror((int)req->lst_nodes[i].ln_status));
	return cfg_fail(err, -EHOSTUNREACH, NULL, "selftest run failed");
}

int cfg_lst(struct cfg_handle *h, struct lnet_ioc_lst *req, uint32_t op, struct cfg_err *err)
{
	int rc;

	req->lst_hdr.ioc_len = sizeof(*req);
	req->lst_op = op;
	rc = cfg_ioctl(h, IOC_LNET_LST, req);
	if (!rc)
		return 0;
	if (rc == -EHOSTUNREACH && op == LNET_LST_OP_START && !cfg_unreachable(h))
		return lst_node_fail(req, err);
	if (rc == -EBUSY && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "selftest run failed: this node already runs one");
	if (rc == -EAFNOSUPPORT && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "selftest run failed: lnet_selftest has no "
				"large NIDs: every NID must be IPv4 or numeric");
	return cfg_ioc_fail(h, rc, err, NULL, "selftest run failed");
}

void cfg_lst_rates(const struct lnet_ioc_lst_node *base, const struct lnet_ioc_lst_node *end,
		   struct cfg_lst_rates *r)
{
	double s = (double)(end->ln_running_ms - base->ln_running_ms) / 1000.0;

	memset(r, 0, sizeof(*r));
	r->seconds = s;
	r->errors = end->ln_brw_errors + end->ln_ping_errors +
		    (end->ln_rpc_errors - base->ln_rpc_errors) +
		    (end->ln_rpcs_dropped - base->ln_rpcs_dropped) +
		    (end->ln_rpcs_expired - base->ln_rpcs_expired);
	if (s <= 0)
		return;
	r->read_mb_s = (double)(end->ln_recv_length - base->ln_recv_length) / s / 1e6;
	r->write_mb_s = (double)(end->ln_send_length - base->ln_send_length) / s / 1e6;
	r->rpc_s = (double)((end->ln_send_count - base->ln_send_count) +
			    (end->ln_recv_count - base->ln_recv_count)) / s;
}

static void kv_fixed(struct yemit *w, const char *key, const char *fmt, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	yemit_str(w, key);
	yemit_plain(w, buf);
}

static void lst_node_doc(struct yemit *w, const struct lnet_ioc_lst *end, uint32_t i,
			 const struct lnet_ioc_lst_node *base)
{
	const struct lnet_ioc_lst_node *n = &end->lst_nodes[i];
	char nbuf[LNET_NID_STR_MAX];
	struct cfg_lst_rates r;

	cfg_lst_rates(base, n, &r);
	yemit_map_start(w);
	yemit_kv_str(w, "nid", cfg_nid_str(&end->lst_nids[i], nbuf, sizeof(nbuf)));
	yemit_kv_str(w, "role", i < end->lst_nfrom ? "client" : "server");
	yemit_kv_str(w, "status", n->ln_status ? strerror((int)n->ln_status) : "ok");
	kv_fixed(w, "seconds", "%.3f", r.seconds);
	kv_fixed(w, "read_mb_s", "%.2f", r.read_mb_s);
	kv_fixed(w, "write_mb_s", "%.2f", r.write_mb_s);
	kv_fixed(w, "rpc_s", "%.2f", r.rpc_s);
	yemit_kv_u64(w, "errors", r.errors);
	yemit_kv_u64(w, "brw_errors", n->ln_brw_errors);
	yemit_kv_u64(w, "ping_errors", n->ln_ping_errors);
	yemit_kv_u64(w, "rpcs_expired", n->ln_rpcs_expired - base->ln_rpcs_expired);
	yemit_kv_u64(w, "bulk_read_bytes", n->ln_bulk_put - base->ln_bulk_put);
	yemit_kv_u64(w, "bulk_write_bytes", n->ln_bulk_get - base->ln_bulk_get);
	yemit_map_end(w);
}

int cfg_show_lst(const struct lnet_ioc_lst *start, const struct lnet_ioc_lst *base,
		 const struct lnet_ioc_lst *end, FILE *out, struct cfg_err *err)
{
	struct yemit w;
	int rc = yemit_begin(&w, out, err);
	int wrc;

	yemit_map_start(&w);
	yemit_key_map(&w, "selftest_run");
	yemit_kv_str(&w, "test", cfg_lst_test_name(start->lst_test));
	if (start->lst_test != LNET_LST_TEST_ping) {
		yemit_kv_u64(&w, "size", start->lst_size);
		yemit_kv_str(&w, "check", cfg_lst_check_name(start->lst_check));
		yemit_kv_u64(&w, "offset", start->lst_offset);
	}
	yemit_kv_u64(&w, "concurrency", start->lst_concurrency);
	yemit_kv_u64(&w, "count", start->lst_count);
	yemit_key_seq(&w, "nodes");
	for (uint32_t i = 0; i < start->lst_nfrom + start->lst_nto; i++)
		lst_node_doc(&w, end, i, &base->lst_nodes[i]);
	yemit_seq_end(&w);
	yemit_map_end(&w);
	yemit_map_end(&w);
	wrc = yemit_end(&w);
	return rc ? rc : wrc;
}
