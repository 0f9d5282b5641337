// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl global show; stats show | reset. */
#include "lnetctl.h"

static int global_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run_show(ctx, argc, argv, cfg_show_global);
}

static int stats_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run_show(ctx, argc, argv, cfg_show_stats);
}

static int stats_reset(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_stats_reset);
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
