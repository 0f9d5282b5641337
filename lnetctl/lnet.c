// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl lnet configure | unconfigure */
#include "lnetctl.h"

static int lnet_configure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_lnet_configure);
}

static int lnet_unconfigure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_lnet_unconfigure);
}

const struct lnetctl_cmd lnetctl_lnet_cmds[] = {
	{ "configure", lnet_configure, NULL, NULL,
	  "bring LNet up (creates the 0@lo NI; nothing if already up)" },
	{ "unconfigure", lnet_unconfigure, NULL, NULL,
	  "bring LNet down: every net, peer and policy is freed" },
	{ NULL }
};
