// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl debug nidlist EXPR [NID]: the expression parser, without LNet. */
#include "lnetctl.h"

/*
 * Prints the canonical form of EXPR and, with NID, "<NID>: match" or
 * "<NID>: no match" (canonical NID). A bad EXPR or NID is what is being
 * checked, not a misuse of the command: exit 1.
 */
static int debug_nidlist(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	char buf[LNET_EXPR_STR_MAX], nidbuf[LNET_NID_STR_MAX];
	struct lnetctl_args a;
	struct lnet_nidexpr e;
	struct lnet_nid nid;

	if (!lnetctl_parse(ctx, argc, argv, 1, 2, &a))
		return a.status;
	if (cfg_parse_nidexpr("expression", a.pos[0], &e, &err))
		return lnetctl_fail(ctx, -EINVAL, &err);
	if (a.npos == 2 && cfg_parse_nid("NID", a.pos[1], &nid, &err))
		return lnetctl_fail(ctx, -EINVAL, &err);
	if (lnet_nidexpr_print(&e, buf, sizeof(buf)) < 0)
		return lnetctl_fail(ctx, -ENOSPC, NULL);
	fprintf(ctx->out, "%s\n", buf);
	if (a.npos < 2)
		return LNETCTL_OK;
	if (lnet_nid_print(&nid, nidbuf, sizeof(nidbuf)) < 0)
		return lnetctl_fail(ctx, -ENOSPC, NULL);
	fprintf(ctx->out, "%s: %s\n", nidbuf,
		lnet_nidexpr_match_nid(&e, &nid) ? "match" : "no match");
	return LNETCTL_OK;
}

const struct lnetctl_cmd lnetctl_debug_cmds[] = {
	{ "nidlist", debug_nidlist, NULL, NULL,
	  "print the canonical form of a NID expression and whether NID matches it "
	  "(\"NID: match\" or \"NID: no match\")", "EXPR [NID]" },
	{ NULL }
};
