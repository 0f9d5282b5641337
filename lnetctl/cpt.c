// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl cpt-of-nid NID...: the CPU partition (CPT) each NID's messages
 * are handled in, in Lustre's form. This core has one partition, so the
 * answer is 0 for every NID; the NIDs are checked all the same (ranges
 * expand, as for peer add --nid), and no LNet is needed.
 */
#include "lnetctl.h"

int lnetctl_cpt_of_nid(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	char buf[LNET_NID_STR_MAX];
	struct lnetctl_args a;
	struct cfg_peer nids;
	int i, status = LNETCTL_OK;
	u32 j;

	if (!lnetctl_parse(ctx, argc, argv, 1, LNETCTL_MAX_POS, &a))
		return a.status;
	cfg_peer_init(&nids);
	for (i = 0; i < a.npos && status == LNETCTL_OK; i++)
		if (cfg_parse_nidlist("NID", a.pos[i], &nids, &err))
			status = lnetctl_usage(ctx, "%s", err.msg);
	if (status == LNETCTL_OK) {
		fprintf(ctx->out, "cpt-of-nid:\n");
		for (j = 0; j < nids.nnids; j++)
			fprintf(ctx->out, "- nid: %s\n  cpt: 0\n",
				cfg_nid_str(&nids.nids[j], buf, sizeof(buf)));
	}
	cfg_peer_fini(&nids);
	return status;
}
