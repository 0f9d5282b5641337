// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl lnet configure | unconfigure */
#include "lnetctl.h"

static int lnet_configure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	rc = cfg_lnet_configure(ctx->h, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

static int lnet_unconfigure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	rc = cfg_lnet_unconfigure(ctx->h, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

const struct lnetctl_cmd lnetctl_lnet_cmds[] = {
	{ "configure", lnet_configure, NULL, NULL,
	  "bring LNet up (creates the 0@lo NI; nothing if already up)" },
	{ "unconfigure", lnet_unconfigure, NULL, NULL,
	  "bring LNet down: every net, peer and policy is freed" },
	{ NULL }
};
