// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl global show; stats show | reset. */
#include "lnetctl.h"

static int global_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_show_done(ctx, cfg_show_global(ctx->h, ctx->out, &err), &err);
}

static int stats_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_show_done(ctx, cfg_show_stats(ctx->h, ctx->out, &err), &err);
}

static int stats_reset(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	rc = cfg_stats_reset(ctx->h, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

const struct lnetctl_cmd lnetctl_global_cmds[] = {
	{ "show", global_show, NULL, NULL,
	  "show the global settings as YAML (lnd_timeout is derived, read-only)" },
	{ NULL }
};

const struct lnetctl_cmd lnetctl_stats_cmds[] = {
	{ "show", stats_show, NULL, NULL,
	  "show the message counters of the local NIs and the peer NIs" },
	{ "reset", stats_reset, NULL, NULL, "set every message counter to 0" },
	{ NULL }
};
