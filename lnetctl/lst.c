// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl selftest run: Lustre's lnet_selftest protocol driven from this
 * node (the lst model in one command: a session on every node, --from
 * nodes as clients, --to nodes as servers, one batch), with a progress
 * line on a terminal and per node rates and errors at the end: a table
 * on a terminal, the selftest_run YAML document otherwise or with --yaml.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lnetctl.h"

enum { RUN_FROM, RUN_TO, RUN_TEST, RUN_SIZE, RUN_CHECK, RUN_OFFSET, RUN_CONCURRENCY, RUN_COUNT,
       RUN_DURATION, RUN_TIMEOUT, RUN_YAML };

#define RUN_COUNT_DEF		100
#define RUN_TIMEOUT_DEF		10
#define RUN_DURATION_MAX	86400

const struct lnetctl_opt lnetctl_selftest_run_opts[] = {
	[RUN_FROM] = { "from", 'f', LNETCTL_VALUE,
		       "the client NIDs, comma separated (ours or Lustre nodes')",
		       .values = LNETCTL_VALUES_NIDS },
	[RUN_TO] = { "to", 't', LNETCTL_VALUE, "the server NIDs, comma separated",
		     .values = LNETCTL_VALUES_NIDS },
	[RUN_TEST] = { "test", 'T', LNETCTL_VALUE, "ping, read or write (default ping)",
		       .values = LNETCTL_VALUES_TYPED },
	[RUN_SIZE] = LNETCTL_LST_SIZE_OPT,
	[RUN_CHECK] = LNETCTL_LST_CHECK_OPT,
	[RUN_OFFSET] = LNETCTL_LST_OFFSET_OPT,
	[RUN_CONCURRENCY] = LNETCTL_LST_CONCURRENCY_OPT,
	[RUN_COUNT] = { "count", 'c', LNETCTL_VALUE,
			"RPCs of each, 0-" LNETCTL_STR(LNET_LST_MAX_COUNT)
			" (0: until --duration; default " LNETCTL_STR(RUN_COUNT_DEF) ")",
			.values = LNETCTL_VALUES_TYPED },
	[RUN_DURATION] = { "duration", 'd', LNETCTL_VALUE,
			   "stop after this many seconds, 1-" LNETCTL_STR(RUN_DURATION_MAX),
			   .values = LNETCTL_VALUES_TYPED },
	[RUN_TIMEOUT] = { "timeout", 'w', LNETCTL_VALUE,
			  "seconds each RPC may take, 1-" LNETCTL_STR(LNET_LST_MAX_TIMEOUT_S)
			  " (default " LNETCTL_STR(RUN_TIMEOUT_DEF) ")",
			  .values = LNETCTL_VALUES_TYPED },
	[RUN_YAML] = { "yaml", 'y', LNETCTL_FLAG, "the YAML document even on a terminal" },
	{ NULL }
};

int lnetctl_lst_nids(const char *opt, const char *s, struct lnet_ioc_lst *req, uint32_t *n,
		    struct cfg_err *err)
{
	char *copy = strdup(s), *save = NULL, *w;
	uint32_t first = req->lst_nfrom + req->lst_nto;
	int rc = copy ? 0 : -ENOMEM;

	for (w = copy ? strtok_r(copy, ",", &save) : NULL; w && !rc;
	     w = strtok_r(NULL, ",", &save)) {
		if (first + *n >= LNET_LST_MAX_NODES) {
			rc = cfg_fail(err, -EINVAL, NULL, "%s: more than %d NIDs in all: '%s'",
				      opt, LNET_LST_MAX_NODES, s);
			break;
		}
		rc = cfg_parse_nid(opt, w, &req->lst_nids[first + *n], err);
		if (!rc)
			(*n)++;
	}
	free(copy);
	if (!rc && !*n)
		rc = cfg_fail(err, -EINVAL, NULL, "%s: no NID in '%s'", opt, s);
	return rc;
}

/* --offset of a read or write test of @req->lst_size bytes. */
static int lst_offset_arg(const char *offset, struct lnet_ioc_lst *req, struct cfg_err *err)
{
	if (cfg_parse_arg_u32("--offset", offset, 0, LNET_LST_MAX_OFFSET, &req->lst_offset, err))
		return -EINVAL;
	if (req->lst_offset % 8)
		return cfg_fail(err, -EINVAL, NULL, "--offset: '%s' is not a multiple of 8 bytes",
				offset);
	if (req->lst_offset + req->lst_size > LNET_LST_MAX_SIZE)
		return cfg_fail(err, -EINVAL, NULL, "--offset: '%s' with --size %u: offset and "
				"size must be at most %u bytes in all (a bulk spans 256 pages "
				"at most)", offset, req->lst_size, LNET_LST_MAX_SIZE);
	return 0;
}

int lnetctl_lst_test_args(const char *test_word, const struct lnetctl_lst_test_vals *v,
			  struct lnet_ioc_lst *req, struct cfg_err *err)
{
	req->lst_concurrency = 1;
	if (v->concur && cfg_parse_arg_u32("--concurrency", v->concur, 1,
					   LNET_LST_MAX_CONCURRENCY, &req->lst_concurrency, err))
		return -EINVAL;
	if (req->lst_test == LNET_LST_TEST_ping) {
		if (v->size || v->check || v->offset)
			return cfg_fail(err, -EINVAL, NULL, "--size, --check and --offset are "
					"for %s read and write, not ping", test_word);
		return 0;
	}
	req->lst_size = LNET_LST_MAX_SIZE;
	req->lst_check = LNET_LST_CHECK_simple;
	if (v->size && cfg_parse_size("--size", v->size, LNET_LST_MIN_SIZE, LNET_LST_MAX_SIZE,
				      &req->lst_size, err))
		return -EINVAL;
	if (req->lst_size % 8)
		return cfg_fail(err, -EINVAL, NULL, "--size: '%s' is not a multiple of 8 bytes",
				v->size);
	if (v->offset && lst_offset_arg(v->offset, req, err))
		return -EINVAL;
	return v->check ? cfg_lst_check_parse(v->check, &req->lst_check, err) : 0;
}

static int run_args(const struct lnetctl_args *a, struct lnet_ioc_lst *req, uint32_t *duration,
		    struct cfg_err *err)
{
	const struct lnetctl_lst_test_vals v = {
		.size = a->val[RUN_SIZE], .check = a->val[RUN_CHECK],
		.offset = a->val[RUN_OFFSET], .concur = a->val[RUN_CONCURRENCY],
	};

	req->lst_test = LNET_LST_TEST_ping;
	req->lst_count = a->val[RUN_DURATION] ? 0 : RUN_COUNT_DEF;
	req->lst_timeout_s = RUN_TIMEOUT_DEF;
	if (!a->val[RUN_FROM] || !a->val[RUN_TO])
		return cfg_fail(err, -EINVAL, NULL, "--from and --to are both needed");
	if (lnetctl_lst_nids("--from", a->val[RUN_FROM], req, &req->lst_nfrom, err) ||
	    lnetctl_lst_nids("--to", a->val[RUN_TO], req, &req->lst_nto, err) ||
	    (a->val[RUN_TEST] && cfg_lst_test_parse(a->val[RUN_TEST], &req->lst_test, err)) ||
	    lnetctl_lst_test_args("--test", &v, req, err) ||
	    (a->val[RUN_COUNT] && cfg_parse_arg_u32("--count", a->val[RUN_COUNT], 0,
						    LNET_LST_MAX_COUNT, &req->lst_count, err)) ||
	    (a->val[RUN_DURATION] && cfg_parse_arg_u32("--duration", a->val[RUN_DURATION], 1,
						       RUN_DURATION_MAX, duration, err)) ||
	    (a->val[RUN_TIMEOUT] && cfg_parse_arg_u32("--timeout", a->val[RUN_TIMEOUT], 1,
						      LNET_LST_MAX_TIMEOUT_S,
						      &req->lst_timeout_s, err)))
		return -EINVAL;
	if (!req->lst_count && !*duration)
		return cfg_fail(err, -EINVAL, NULL, "--count 0 runs until --duration: give one");
	return 0;
}

/* The sums over the nodes of @end against @base, for the progress line. */
static void run_progress(const struct lnet_ioc_lst *base, const struct lnet_ioc_lst *end,
			 double secs)
{
	double rd = 0, wr = 0, rpc = 0;
	uint64_t errors = 0;
	struct cfg_lst_rates r;

	for (uint32_t i = 0; i < end->lst_nfrom + end->lst_nto; i++) {
		cfg_lst_rates(&base->lst_nodes[i], &end->lst_nodes[i], &r);
		if (i < end->lst_nfrom) {	/* the clients' view: what they moved */
			rd += r.read_mb_s;
			wr += r.write_mb_s;
			rpc += r.rpc_s;
		}
		errors += r.errors;
	}
	fprintf(stderr, "\rselftest: %6.1f s  read %9.2f MB/s  write %9.2f MB/s  %9.1f RPC/s"
		"  errors %llu ", secs, rd, wr, rpc, (unsigned long long)errors);
	fflush(stderr);
}

static double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_table(FILE *out, const struct lnet_ioc_lst *base, const struct lnet_ioc_lst *end)
{
	char nbuf[LNET_NID_STR_MAX];
	struct cfg_lst_rates r;

	fprintf(out, "%-24s %-6s %-8s %11s %11s %10s %7s\n", "NID", "ROLE", "STATUS",
		"READ MB/s", "WRITE MB/s", "RPC/s", "ERRORS");
	for (uint32_t i = 0; i < end->lst_nfrom + end->lst_nto; i++) {
		const struct lnet_ioc_lst_node *n = &end->lst_nodes[i];

		cfg_lst_rates(&base->lst_nodes[i], n, &r);
		fprintf(out, "%-24s %-6s %-8s %11.2f %11.2f %10.1f %7llu\n",
			cfg_nid_str(&end->lst_nids[i], nbuf, sizeof(nbuf)),
			i < end->lst_nfrom ? "client" : "server",
			n->ln_status ? "failed" : "ok", r.read_mb_s, r.write_mb_s, r.rpc_s,
			(unsigned long long)r.errors);
	}
}

/* START, a first STAT (the base of the rates), STATs until done, END. */
static int run_steps(struct lnetctl_ctx *ctx, struct lnet_ioc_lst *req, uint32_t duration,
		     struct lnet_ioc_lst *base, struct lnet_ioc_lst *end, struct cfg_err *err)
{
	bool tty = isatty(STDERR_FILENO);
	double t0;
	int rc;

	rc = cfg_lst(ctx->h, req, LNET_LST_OP_START, err);
	if (rc)
		return rc;
	t0 = run_now();
	*base = *req;	/* the counters before the run */
	*end = *base;
	do {
		usleep(tty ? 500000 : 100000);
		rc = cfg_lst(ctx->h, end, LNET_LST_OP_STAT, err);
		if (!rc && tty)
			run_progress(base, end, run_now() - t0);
	} while (!rc && end->lst_active && (!duration || run_now() - t0 < duration));
	if (tty)
		fputc('\n', stderr);
	if (!rc)
		rc = cfg_lst(ctx->h, end, LNET_LST_OP_END, err);
	else
		cfg_lst(ctx->h, end, LNET_LST_OP_END, &(struct cfg_err){ 0 });
	return rc;
}

int lnetctl_selftest_run(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnet_ioc_lst *req = calloc(3, sizeof(*req)), *base = req + 1, *end = req + 2;
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	uint32_t duration = 0, i;
	int rc, status = LNETCTL_OK;

	if (!req)
		return lnetctl_fail(ctx, -ENOMEM, &err);
	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a)) {
		free(req);
		return a.status;
	}
	if (run_args(&a, req, &duration, &err)) {
		free(req);
		return lnetctl_usage(ctx, "%s", err.msg);
	}
	rc = run_steps(ctx, req, duration, base, end, &err);
	if (!rc && !a.val[RUN_YAML] && isatty(fileno(ctx->out)))
		run_table(ctx->out, base, end);
	else if (!rc)
		rc = cfg_show_lst(req, base, end, ctx->out, &err);
	for (i = 0; !rc && i < end->lst_nfrom + end->lst_nto; i++) {
		struct cfg_lst_rates r;

		cfg_lst_rates(&base->lst_nodes[i], &end->lst_nodes[i], &r);
		if (r.errors || end->lst_nodes[i].ln_status)
			status = LNETCTL_ERR;	/* the document says which */
	}
	free(req);
	return rc ? lnetctl_fail(ctx, rc, &err) : status;
}
