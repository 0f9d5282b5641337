// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl policy explain NID [--source NID] [--yaml]: the path a send to
 * NID would take now, every candidate the core compared and on what it
 * lost (IOC_LNET_EXPLAIN: the core's own selection, traced).
 */
#include <errno.h>
#include <stdlib.h>
#include "lnetctl.h"

enum { EX_SOURCE, EX_YAML };

const struct lnetctl_opt lnetctl_explain_opts[] = {
	[EX_SOURCE] = { "source", 's', LNETCTL_VALUE,
			"explain a send from this local NID (default: selection chooses)",
			.values = LNETCTL_VALUES_NIDS },
	[EX_YAML] = { "yaml", 'y', LNETCTL_FLAG, "print the explanation as YAML" },
	{ NULL }
};

int lnetctl_policy_explain(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnet_nid dst, src, *srcp = NULL;
	struct lnet_ioc_explain *ex;
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 1, 1, &a))
		return a.status;
	if (cfg_parse_nid("NID", a.pos[0], &dst, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (a.val[EX_SOURCE]) {
		if (cfg_parse_nid("--source", a.val[EX_SOURCE], &src, &err))
			return lnetctl_usage(ctx, "%s", err.msg);
		srcp = &src;
	}
	ex = calloc(1, sizeof(*ex));		/* ~6 KB */
	if (!ex)
		return lnetctl_fail(ctx, -ENOMEM, NULL);
	rc = cfg_explain(ctx->h, &dst, srcp, ex, &err);
	if (!rc)
		rc = cfg_show_explain(ex, a.val[EX_YAML] != NULL, ctx->out, &err);
	free(ex);
	return lnetctl_done(ctx, rc, &err);
}
