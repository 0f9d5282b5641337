// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl selftest session|group|batch|test|stat: Lustre's lst model on
 * this node's console (lnet_lst.h): a session, named groups of nodes,
 * named batches of tests, run, stop, query, and per node rates from two
 * reads of the counters (a table on a terminal, YAML otherwise or with
 * --yaml). Names, NIDs and test values are checked here first: a usage
 * error names the value and the allowed form (exit 2); a refusal names
 * the session, group, batch or node (exit 1) and changes nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lnetctl.h"

#define SES_TIMEOUT_DEF		300	/* lst's console timeout */
#define SES_RPC_TIMEOUT_DEF	30	/* lst's transaction timeout */
#define STAT_DELAY_DEF		5
#define STAT_DELAY_MAX		3600
#define STAT_COUNT_MAX		1000000

/* A zeroed request, or NULL after the message. */
static struct lnet_ioc_lst *lst_req_new(const struct lnetctl_ctx *ctx)
{
	struct lnet_ioc_lst *req = calloc(1, sizeof(*req));

	if (!req)
		lnetctl_msg(ctx, "out of memory");
	return req;
}

/* @op with @req, then the exit status (a refusal named by libcfg). */
static int lst_do(struct lnetctl_ctx *ctx, struct lnet_ioc_lst *req, uint32_t op)
{
	struct cfg_err err = { 0 };
	int rc = cfg_lst_op(ctx->h, req, op, &err);

	free(req);
	return lnetctl_done(ctx, rc, &err);
}

/* A leaf whose one positional word is a name: parsed into @req->lst_name. */
static struct lnet_ioc_lst *lst_named(struct lnetctl_ctx *ctx, int argc, char **argv,
				      const char *what, struct lnetctl_args *a)
{
	struct cfg_err err = { 0 };
	struct lnet_ioc_lst *req;

	if (!lnetctl_parse(ctx, argc, argv, 1, 1, a))
		return NULL;
	req = lst_req_new(ctx);
	if (!req) {
		a->status = LNETCTL_ERR;
		return NULL;
	}
	if (cfg_lst_name_parse(what, a->pos[0], req->lst_name, &err)) {
		a->status = lnetctl_usage(ctx, "%s", err.msg);
		free(req);
		return NULL;
	}
	return req;
}

/* --- session ------------------------------------------------------------------------------ */

enum { SES_TIMEOUT, SES_RPC_TIMEOUT, SES_FORCE };

static const struct lnetctl_opt session_new_opts[] = {
	[SES_TIMEOUT] = { "timeout", 't', LNETCTL_VALUE,
			  "end the session after this many seconds with no command, 1-"
			  LNETCTL_STR(LNET_LST_MAX_SESSION_TIMEOUT_S) " (default "
			  LNETCTL_STR(SES_TIMEOUT_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[SES_RPC_TIMEOUT] = { "rpc-timeout", 'w', LNETCTL_VALUE,
			      "seconds each RPC to a node may take, 1-"
			      LNETCTL_STR(LNET_LST_MAX_TIMEOUT_S) " (default "
			      LNETCTL_STR(SES_RPC_TIMEOUT_DEF) ")", .values = LNETCTL_VALUES_TYPED },
	[SES_FORCE] = { "force", 'f', LNETCTL_FLAG, "end the session there is first" },
	{ NULL }
};

static int session_new(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnet_ioc_lst *req;
	struct lnetctl_args a;

	req = lst_named(ctx, argc, argv, "NAME", &a);
	if (!req)
		return a.status;
	req->lst_session_timeout_s = SES_TIMEOUT_DEF;
	req->lst_timeout_s = SES_RPC_TIMEOUT_DEF;
	req->lst_flags = a.val[SES_FORCE] ? LNET_LST_F_FORCE : 0;
	if ((a.val[SES_TIMEOUT] &&
	     cfg_parse_arg_u32("--timeout", a.val[SES_TIMEOUT], 1, LNET_LST_MAX_SESSION_TIMEOUT_S,
			       &req->lst_session_timeout_s, &err)) ||
	    (a.val[SES_RPC_TIMEOUT] &&
	     cfg_parse_arg_u32("--rpc-timeout", a.val[SES_RPC_TIMEOUT], 1, LNET_LST_MAX_TIMEOUT_S,
			       &req->lst_timeout_s, &err))) {
		free(req);
		return lnetctl_usage(ctx, "%s", err.msg);
	}
	return lst_do(ctx, req, LNET_LST_OP_SESSION_NEW);
}

/* The nodes an op lists as failed, one line each (the op itself went through). */
static void lst_warn_nodes(const struct lnetctl_ctx *ctx, const struct lnet_ioc_lst *req)
{
	char nbuf[LNET_NID_STR_MAX];

	for (uint32_t i = 0; i < req->lst_nnodes && i < LNET_LST_MAX_NODES; i++)
		if (req->lst_nodes[i].ln_status)
			lnetctl_msg(ctx, "%s: %s (state %s)",
				    cfg_nid_str(&req->lst_nids[i], nbuf, sizeof(nbuf)),
				    cfg_lst_status_str(req->lst_nodes[i].ln_status),
				    cfg_lst_state_str(req->lst_nodes[i].ln_state));
}

static int session_end(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnet_ioc_lst *req;
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	req = lst_req_new(ctx);
	if (!req)
		return LNETCTL_ERR;
	rc = cfg_lst_op(ctx->h, req, LNET_LST_OP_SESSION_END, &err);
	if (!rc)
		lst_warn_nodes(ctx, req);	/* ended all the same, as lst */
	free(req);
	return lnetctl_done(ctx, rc, &err);
}

static int session_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run_show(ctx, argc, argv, cfg_show_lst_session);
}

const struct lnetctl_cmd lnetctl_lst_session_cmds[] = {
	{ "new", session_new, NULL, session_new_opts,
	  "make this console's session (no RPC: nodes join it through groups)", "NAME" },
	{ "end", session_end, NULL, NULL,
	  "end the session on every node of every group, forget its groups and batches" },
	{ "show", session_show, NULL, NULL, "the session's name, timeouts, groups and batches" },
	{ NULL }
};

/* --- groups ----------------------------------------------------------------------------- */

enum { GRP_FORCE };

static const struct lnetctl_opt group_add_opts[] = {
	[GRP_FORCE] = { "force", 'f', LNETCTL_FLAG,
			"take nodes that are in another console's session" },
	{ NULL }
};

static int group_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnet_ioc_lst *req;
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 2, 2, &a))
		return a.status;
	req = lst_req_new(ctx);
	if (!req)
		return LNETCTL_ERR;
	if (cfg_lst_name_parse("NAME", a.pos[0], req->lst_name, &err) ||
	    lnetctl_lst_nids("NIDS", a.pos[1], req, &req->lst_nnodes, &err)) {
		free(req);
		return lnetctl_usage(ctx, "%s", err.msg);
	}
	req->lst_flags = a.val[GRP_FORCE] ? LNET_LST_F_FORCE : 0;
	rc = cfg_lst_op(ctx->h, req, LNET_LST_OP_GROUP_ADD, &err);
	if (!rc)
		lst_warn_nodes(ctx, req);	/* in the group, not active */
	free(req);
	return lnetctl_done(ctx, rc, &err);
}

static int group_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;
	struct lnet_ioc_lst *req = lst_named(ctx, argc, argv, "NAME", &a);

	return req ? lst_do(ctx, req, LNET_LST_OP_GROUP_DEL) : a.status;
}

/* group show / batch show [NAME] */
static int lst_show(struct lnetctl_ctx *ctx, int argc, char **argv, bool batches)
{
	char name[LNET_LST_NAME_LEN];
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 1, &a))
		return a.status;
	if (a.npos && cfg_lst_name_parse("NAME", a.pos[0], name, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_show_done(ctx, cfg_show_lst_objs(ctx->h, batches, a.npos ? name : NULL,
							ctx->out, &err), &err);
}

static int group_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lst_show(ctx, argc, argv, false);
}

const struct lnetctl_cmd lnetctl_lst_group_cmds[] = {
	{ "add", group_add, NULL, group_add_opts,
	  "add the NIDs (comma separated) to group NAME, made if new: each node joins the session",
	  "NAME NIDS" },
	{ "del", group_del, NULL, NULL,
	  "delete group NAME (not while a test uses it); its nodes leave the session", "NAME" },
	{ "show", group_show, NULL, NULL, "the groups (or group NAME), each node's state",
	  "[NAME]" },
	{ NULL }
};

/* --- batches --------------------------------------------------------------------------------- */

static int batch_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;
	struct lnet_ioc_lst *req = lst_named(ctx, argc, argv, "NAME", &a);

	return req ? lst_do(ctx, req, LNET_LST_OP_BATCH_ADD) : a.status;
}

static int batch_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lst_show(ctx, argc, argv, true);
}

/* run, stop, query: the op of ctx->cmd->kind to the batch's clients */
static int batch_ctl(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	uint32_t op = ctx->cmd->kind;
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct lnet_ioc_lst *req = lst_named(ctx, argc, argv, "NAME", &a);
	int rc;

	if (!req)
		return a.status;
	rc = cfg_lst_op(ctx->h, req, op, &err);
	if (!rc && op == LNET_LST_OP_BATCH_QUERY)
		rc = cfg_show_lst_query(req->lst_name, req->lst_active, ctx->out, &err);
	free(req);
	return lnetctl_done(ctx, rc, &err);
}

const struct lnetctl_cmd lnetctl_lst_batch_cmds[] = {
	{ "add", batch_add, NULL, NULL, "add an empty batch NAME", "NAME" },
	{ "show", batch_show, NULL, NULL, "the batches (or batch NAME), their tests", "[NAME]" },
	{ "run", batch_ctl, NULL, NULL, "start the tests of batch NAME on its clients", "NAME",
	  .kind = LNET_LST_OP_BATCH_RUN },
	{ "stop", batch_ctl, NULL, NULL, "stop batch NAME and wait until no test is active",
	  "NAME", .kind = LNET_LST_OP_BATCH_STOP },
	{ "query", batch_ctl, NULL, NULL, "how many tests of batch NAME are active", "NAME",
	  .kind = LNET_LST_OP_BATCH_QUERY },
	{ NULL }
};

/* --- tests ------------------------------------------------------------------------------------ */

enum { TST_BATCH, TST_FROM, TST_TO, TST_SIZE, TST_CHECK, TST_OFFSET, TST_CONCURRENCY,
       TST_LOOP };

static const struct lnetctl_opt test_add_opts[] = {
	[TST_BATCH] = { "batch", 'b', LNETCTL_VALUE, "the batch (required)",
			.values = LNETCTL_VALUES_TYPED },
	[TST_FROM] = { "from", 'f', LNETCTL_VALUE, "the group of the clients (required)",
		       .values = LNETCTL_VALUES_TYPED },
	[TST_TO] = { "to", 't', LNETCTL_VALUE, "the group of the servers (required)",
		     .values = LNETCTL_VALUES_TYPED },
	[TST_SIZE] = LNETCTL_LST_SIZE_OPT,
	[TST_CHECK] = LNETCTL_LST_CHECK_OPT,
	[TST_OFFSET] = LNETCTL_LST_OFFSET_OPT,
	[TST_CONCURRENCY] = LNETCTL_LST_CONCURRENCY_OPT,
	[TST_LOOP] = { "loop", 'l', LNETCTL_VALUE,
		       "RPCs of each unit, 0-" LNETCTL_STR(LNET_LST_MAX_COUNT)
		       " (default 0: until stopped)", .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

static int test_args(const struct lnetctl_ctx *ctx, const struct lnetctl_args *a,
		     struct lnet_ioc_lst *req, struct cfg_err *err)
{
	const struct lnetctl_lst_test_vals v = {
		.size = a->val[TST_SIZE], .check = a->val[TST_CHECK],
		.offset = a->val[TST_OFFSET], .concur = a->val[TST_CONCURRENCY],
	};

	for (int i = TST_BATCH; i <= TST_TO; i++)
		if (!a->val[i])
			return lnetctl_missing(ctx, i);
	if (cfg_lst_name_parse("--batch", a->val[TST_BATCH], req->lst_name, err) ||
	    cfg_lst_name_parse("--from", a->val[TST_FROM], req->lst_from, err) ||
	    cfg_lst_name_parse("--to", a->val[TST_TO], req->lst_to, err) ||
	    cfg_lst_test_parse(a->pos[0], &req->lst_test, err) ||
	    lnetctl_lst_test_args("the test", &v, req, err) ||
	    (a->val[TST_LOOP] && cfg_parse_arg_u32("--loop", a->val[TST_LOOP], 0,
						   LNET_LST_MAX_COUNT, &req->lst_count, err)))
		return lnetctl_usage(ctx, "%s", err->msg);
	return LNETCTL_OK;
}

static int test_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnet_ioc_lst *req;
	struct lnetctl_args a;
	int status;

	if (!lnetctl_parse(ctx, argc, argv, 1, 1, &a))
		return a.status;
	req = lst_req_new(ctx);
	if (!req)
		return LNETCTL_ERR;
	status = test_args(ctx, &a, req, &err);
	if (status) {
		free(req);
		return status;
	}
	return lst_do(ctx, req, LNET_LST_OP_TEST_ADD);
}

const struct lnetctl_cmd lnetctl_lst_test_cmds[] = {
	{ "add", test_add, NULL, test_add_opts,
	  "add a ping, read or write test to a batch: --from clients send to every --to server",
	  "ping|read|write" },
	{ NULL }
};

/* --- stat -------------------------------------------------------------------------------------- */

enum { STAT_DELAY, STAT_COUNT, STAT_YAML };

const struct lnetctl_opt lnetctl_lst_stat_opts[] = {
	[STAT_DELAY] = { "delay", 'd', LNETCTL_VALUE,
			 "seconds between two reads of the counters, 1-" LNETCTL_STR(STAT_DELAY_MAX)
			 " (default " LNETCTL_STR(STAT_DELAY_DEF) ")",
			 .values = LNETCTL_VALUES_TYPED },
	[STAT_COUNT] = { "count", 'c', LNETCTL_VALUE,
			 "intervals to show, 1-" LNETCTL_STR(STAT_COUNT_MAX) " (default 1)",
			 .values = LNETCTL_VALUES_TYPED },
	[STAT_YAML] = { "yaml", 'y', LNETCTL_FLAG, "the YAML document even on a terminal" },
	{ NULL }
};

static void stat_table(FILE *out, const struct lnet_ioc_lst *base, const struct lnet_ioc_lst *end)
{
	char nbuf[LNET_NID_STR_MAX];
	struct cfg_lst_stat_rates r;

	fprintf(out, "%-24s %-10s %10s %10s %10s %10s %7s\n", "NID", "STATUS", "MSGS/s R",
		"MSGS/s W", "MB/s R", "MB/s W", "ERRORS");
	for (uint32_t i = 0; i < end->lst_nnodes; i++) {
		cfg_lst_stat_rates(&base->lst_nodes[i], &end->lst_nodes[i], &r);
		fprintf(out, "%-24s %-10s %10.1f %10.1f %10.2f %10.2f %7llu\n",
			cfg_nid_str(&end->lst_nids[i], nbuf, sizeof(nbuf)),
			cfg_lst_status_str(end->lst_nodes[i].ln_status), r.msgs_r, r.msgs_w,
			r.mb_r, r.mb_w, (unsigned long long)r.errors);
	}
	fflush(out);
}

/* Two STATs @delay apart, @count times: the rates of each interval. */
static int stat_loop(struct lnetctl_ctx *ctx, struct lnet_ioc_lst *base,
		     struct lnet_ioc_lst *end, uint32_t delay, uint32_t count, bool yaml,
		     struct cfg_err *err)
{
	int rc = cfg_lst_op(ctx->h, base, LNET_LST_OP_GROUP_STAT, err);

	for (uint32_t k = 0; !rc && k < count; k++) {
		sleep(delay);
		memcpy(end->lst_name, base->lst_name, sizeof(end->lst_name));
		rc = cfg_lst_op(ctx->h, end, LNET_LST_OP_GROUP_STAT, err);
		if (rc)
			break;
		if (!yaml) {
			stat_table(ctx->out, base, end);
		} else {
			if (count > 1)
				fputs("---\n", ctx->out);
			rc = cfg_show_lst_stat(base->lst_name, base, end, ctx->out, err);
		}
		*base = *end;
	}
	return rc;
}

int lnetctl_lst_stat(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnet_ioc_lst *req, *base, *end;
	uint32_t delay = STAT_DELAY_DEF, count = 1;
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	req = lst_named(ctx, argc, argv, "GROUP", &a);
	if (!req)
		return a.status;
	if ((a.val[STAT_DELAY] && cfg_parse_arg_u32("--delay", a.val[STAT_DELAY], 1,
						    STAT_DELAY_MAX, &delay, &err)) ||
	    (a.val[STAT_COUNT] && cfg_parse_arg_u32("--count", a.val[STAT_COUNT], 1,
						    STAT_COUNT_MAX, &count, &err))) {
		free(req);
		return lnetctl_usage(ctx, "%s", err.msg);
	}
	base = calloc(2, sizeof(*base));
	if (!base) {
		free(req);
		return lnetctl_fail(ctx, -ENOMEM, NULL);
	}
	end = base + 1;
	memcpy(base->lst_name, req->lst_name, sizeof(base->lst_name));
	free(req);
	rc = stat_loop(ctx, base, end, delay, count,
		       a.val[STAT_YAML] || !isatty(fileno(ctx->out)), &err);
	free(base);
	return lnetctl_done(ctx, rc, &err);
}
