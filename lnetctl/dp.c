// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl ping | discover | selftest put | selftest get: the commands that
 * send traffic. A target that fails is named on stderr and the others
 * still run; the answers that came are printed as one YAML document.
 */
#include <errno.h>
#include <stdlib.h>
#include "lnetctl.h"

enum { PING_TIMEOUT, PING_SOURCE };

const struct lnetctl_opt lnetctl_ping_opts[] = {
	[PING_TIMEOUT] = { "timeout", 't', LNETCTL_VALUE,
			   "seconds to wait for each reply, 1-" LNETCTL_STR(CFG_PING_TIMEOUT_MAX)
			   " (default " LNETCTL_STR(CFG_PING_TIMEOUT_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[PING_SOURCE] = { "source", 's', LNETCTL_VALUE,
			  "the local NID to send from (default: selection chooses)",
			  .values = LNETCTL_VALUES_NIDS },
	{ NULL }
};

enum { DISC_FORCE };

const struct lnetctl_opt lnetctl_discover_opts[] = {
	[DISC_FORCE] = { "force", 'f', LNETCTL_FLAG,
			 "discover a peer again even if it was discovered before" },
	{ NULL }
};

enum { ST_COUNT, ST_SIZE, ST_SOURCE, ST_CONCURRENCY, ST_TIMEOUT, ST_CHECK };

#define ST_COUNT_DEF		100
#define ST_CONCURRENCY_DEF	8

static const struct lnetctl_opt selftest_opts[] = {
	[ST_COUNT] = { "count", 'c', LNETCTL_VALUE,
		       "messages to send, 1-" LNETCTL_STR(LNET_SELFTEST_MAX_COUNT)
		       " (default " LNETCTL_STR(ST_COUNT_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[ST_SIZE] = { "size", 'z', LNETCTL_VALUE,
		      "payload BYTES of each, 0-" LNETCTL_STR(LNET_SELFTEST_MAX_SIZE)
		      ", K and M suffixes (default 1M)", .values = LNETCTL_VALUES_TYPED },
	[ST_SOURCE] = { "source", 's', LNETCTL_VALUE,
			"the local NID to send from (default: selection chooses)",
			.values = LNETCTL_VALUES_NIDS },
	[ST_CONCURRENCY] = { "concurrency", 'n', LNETCTL_VALUE,
			     "messages in flight at once, 1-" LNETCTL_STR(LNET_SELFTEST_MAX_CONCURRENCY)
			     " (default " LNETCTL_STR(ST_CONCURRENCY_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[ST_TIMEOUT] = { "timeout", 't', LNETCTL_VALUE,
			 "seconds one message may take before it counts failed, 1-"
			 LNETCTL_STR(CFG_SELFTEST_TIMEOUT_MAX)
			 " (default " LNETCTL_STR(CFG_SELFTEST_TIMEOUT_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[ST_CHECK] = { "check", 'k', LNETCTL_VALUE,
		       "how the bytes are checked: none (the length only), simple (both ends of "
		       "each 4 KiB) or full (every byte, the default)",
		       .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

/* Every positional word as a NID, into @nids (a usage error names the bad one). */
static int parse_targets(const struct lnetctl_ctx *ctx, const struct lnetctl_args *a,
			 struct lnet_nid *nids)
{
	struct cfg_err err = { 0 };

	for (int i = 0; i < a->npos; i++)
		if (cfg_parse_nid("NID", a->pos[i], &nids[i], &err))
			return lnetctl_usage(ctx, "%s", err.msg);
	return LNETCTL_OK;
}

/* A failure that every later target would hit too, or Ctrl-C: stop there. */
static bool fails_all(struct cfg_handle *h, int rc)
{
	return cfg_unreachable(h) || rc == -ENETDOWN || rc == -EPERM || rc == -EPROTO ||
	       rc == -EINTR;
}

/*
 * Ask about every target; print the answers; 1 if any target failed.
 * @src NULL for discover.
 */
static int ping_all(struct lnetctl_ctx *ctx, const struct lnetctl_args *a, bool discover,
		    bool force, const struct lnet_nid *src, u32 timeout_ms)
{
	struct lnet_nid nids[LNETCTL_MAX_POS];
	struct lnet_ioc_ping *res;
	struct cfg_err err = { 0 };
	int rc, status = parse_targets(ctx, a, nids);
	size_t n = 0;

	if (status)
		return status;
	res = calloc(LNETCTL_MAX_POS, sizeof(*res));
	if (!res)
		return lnetctl_fail(ctx, -ENOMEM, NULL);
	for (int i = 0; i < a->npos; i++) {
		rc = discover ? cfg_discover(ctx->h, &nids[i], force, timeout_ms, &res[n], &err) :
				cfg_ping(ctx->h, &nids[i], src, timeout_ms, &res[n], &err);
		if (!rc) {
			n++;
			continue;
		}
		status = lnetctl_fail(ctx, rc, &err);
		if (fails_all(ctx->h, rc))
			break;
	}
	rc = cfg_show_ping(discover ? "discover" : "ping", res, n, ctx->out, &err);
	free(res);
	if (rc)
		return lnetctl_fail(ctx, rc, &err);
	return status;
}

int lnetctl_ping(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnet_nid src;
	struct lnetctl_args a;
	u32 timeout = CFG_PING_TIMEOUT_DEF;

	if (!lnetctl_parse(ctx, argc, argv, 1, LNETCTL_MAX_POS, &a))
		return a.status;
	if (a.val[PING_TIMEOUT] && cfg_parse_arg_u32("--timeout", a.val[PING_TIMEOUT], 1,
						     CFG_PING_TIMEOUT_MAX, &timeout, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (a.val[PING_SOURCE] && cfg_parse_nid("--source", a.val[PING_SOURCE], &src, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return ping_all(ctx, &a, false, false, a.val[PING_SOURCE] ? &src : NULL,
			timeout * 1000);
}

int lnetctl_discover(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 1, LNETCTL_MAX_POS, &a))
		return a.status;
	return ping_all(ctx, &a, true, a.val[DISC_FORCE], NULL,
			CFG_PING_TIMEOUT_DEF * 1000);
}

/* The options of selftest put|get into @req (defaults for those not given). */
static int selftest_args(const struct lnetctl_args *a, struct lnet_ioc_selftest *req,
			 struct cfg_err *err)
{
	u32 timeout = CFG_SELFTEST_TIMEOUT_DEF;

	req->sft_count = ST_COUNT_DEF;
	req->sft_size = LNET_SELFTEST_MAX_SIZE;
	req->sft_concurrency = ST_CONCURRENCY_DEF;
	if (cfg_parse_nid("NID", a->pos[0], &req->sft_target, err) ||
	    (a->val[ST_COUNT] && cfg_parse_arg_u32("--count", a->val[ST_COUNT], 1,
						   LNET_SELFTEST_MAX_COUNT, &req->sft_count, err)) ||
	    (a->val[ST_SIZE] && cfg_parse_size("--size", a->val[ST_SIZE], 0,
					       LNET_SELFTEST_MAX_SIZE, &req->sft_size, err)) ||
	    (a->val[ST_SOURCE] && cfg_parse_nid("--source", a->val[ST_SOURCE],
						&req->sft_src, err)) ||
	    (a->val[ST_CONCURRENCY] &&
	     cfg_parse_arg_u32("--concurrency", a->val[ST_CONCURRENCY], 1,
			       LNET_SELFTEST_MAX_CONCURRENCY, &req->sft_concurrency, err)) ||
	    (a->val[ST_TIMEOUT] && cfg_parse_arg_u32("--timeout", a->val[ST_TIMEOUT], 1,
						     CFG_SELFTEST_TIMEOUT_MAX, &timeout, err)) ||
	    (a->val[ST_CHECK] && cfg_lst_check_parse(a->val[ST_CHECK], &req->sft_check, err)))
		return -EINVAL;
	req->sft_timeout_ms = timeout * 1000;
	return 0;
}

static int selftest(struct lnetctl_ctx *ctx, int argc, char **argv, u32 op)
{
	struct lnet_ioc_selftest req = { .sft_op = op };
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 1, 1, &a))
		return a.status;
	if (selftest_args(&a, &req, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_selftest(ctx->h, &req, &err);
	if (!rc)
		rc = cfg_show_selftest(&req, ctx->out, &err);
	if (rc)
		return lnetctl_fail(ctx, rc, &err);
	return req.sft_failed || req.sft_corrupt ? LNETCTL_ERR : LNETCTL_OK;
}

static int selftest_put(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return selftest(ctx, argc, argv, LNET_SELFTEST_OP_PUT);
}

static int selftest_get(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return selftest(ctx, argc, argv, LNET_SELFTEST_OP_GET);
}

const struct lnetctl_cmd lnetctl_selftest_cmds[] = {
	{ "put", selftest_put, NULL, selftest_opts,
	  "PUT pattern data to NID's selftest portal, each ACKed; prints the counts",
	  "NID" },
	{ "get", selftest_get, NULL, selftest_opts,
	  "GET pattern data from NID's selftest portal and check it; prints the counts", "NID" },
	{ "run", lnetctl_selftest_run, NULL, lnetctl_selftest_run_opts,
	  "run Lustre's lnet_selftest ping, read or write from --from nodes to --to nodes;"
	  " rates and errors per node" },
	{ "session", NULL, lnetctl_lst_session_cmds, NULL,
	  "lst's model: this console's session (new, end, show)" },
	{ "group", NULL, lnetctl_lst_group_cmds, NULL,
	  "lst's model: named groups of nodes (add, del, show)" },
	{ "batch", NULL, lnetctl_lst_batch_cmds, NULL,
	  "lst's model: named batches of tests (add, show, run, stop, query)" },
	{ "test", NULL, lnetctl_lst_test_cmds, NULL, "lst's model: add a test to a batch" },
	{ "stat", lnetctl_lst_stat, NULL, lnetctl_lst_stat_opts,
	  "per node LNet messages/s and MB/s read and written, and errors, of a group",
	  "GROUP" },
	{ NULL }
};
