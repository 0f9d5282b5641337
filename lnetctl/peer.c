// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl peer add | del | show | list */
#include "lnetctl.h"

enum { PA_PRIM, PA_NID, PA_NON_MR, PA_LOCK };

static const struct lnetctl_opt peer_add_opts[] = {
	[PA_PRIM] = { "prim_nid", 'k', LNETCTL_VALUE,
		      "the peer's primary NID (the peer is created if new)" },
	[PA_NID] = { "nid", 'n', LNETCTL_VALUE,
		     "more NIDs of the peer, e.g. 10.0.0.[2-3]@tcp,5@gni" },
	[PA_NON_MR] = { "non_mr", 'm', LNETCTL_FLAG,
			"create the peer without Multi-Rail (one NID only)" },
	[PA_LOCK] = { "lock_prim", 'l', LNETCTL_FLAG,
		      "lock the primary NID: deleting the peer then needs --force" },
	{ NULL }
};

enum { PD_PRIM, PD_NID, PD_FORCE };

static const struct lnetctl_opt peer_del_opts[] = {
	[PD_PRIM] = { "prim_nid", 'k', LNETCTL_VALUE, "the peer's primary NID" },
	[PD_NID] = { "nid", 'n', LNETCTL_VALUE,
		     "delete only these NIDs (without it, the whole peer)" },
	[PD_FORCE] = { "force", 'f', LNETCTL_FLAG, "delete a peer whose primary NID is locked" },
	{ NULL }
};

enum { PS_NID, PS_VERBOSE };

static const struct lnetctl_opt peer_show_opts[] = {
	[PS_NID] = { "nid", 'n', LNETCTL_VALUE, "show only the peer that owns this NID" },
	[PS_VERBOSE] = { "verbose", 'v', LNETCTL_LEVEL,
			 "level 0-5, alone 1: 1 adds credits and statistics, 4 the UDSP values" },
	{ NULL }
};

/* The model of peer add and peer del, from their options. */
static int peer_from_args(const struct lnetctl_args *a, int prim, int nids,
			  struct cfg_peer *p, struct cfg_err *err)
{
	cfg_peer_init(p);
	if (cfg_parse_nid("--prim_nid", a->val[prim], &p->prim, err))
		return -1;
	if (a->val[nids] && cfg_parse_nidlist("--nid", a->val[nids], p, err))
		return -1;
	return 0;
}

static int peer_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_peer p;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[PA_PRIM])
		return lnetctl_missing(ctx, PA_PRIM);
	if (peer_from_args(&a, PA_PRIM, PA_NID, &p, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (a.val[PA_NON_MR])
		p.flags |= LNET_PEER_F_NON_MR;
	if (a.val[PA_LOCK])
		p.flags |= LNET_PEER_F_LOCK_PRIM;
	rc = cfg_peer_add(ctx->h, &p, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

static int peer_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_peer p;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[PD_PRIM])
		return lnetctl_missing(ctx, PD_PRIM);
	if (peer_from_args(&a, PD_PRIM, PD_NID, &p, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (a.val[PD_FORCE])
		p.flags |= LNET_PEER_F_FORCE;
	rc = cfg_peer_del(ctx->h, &p, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

static int peer_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct lnet_nid nid;
	int rc, level;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (lnetctl_verbose(ctx, a.val[PS_VERBOSE], &level))
		return LNETCTL_USAGE;
	if (a.val[PS_NID] && cfg_parse_nid("--nid", a.val[PS_NID], &nid, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_show_peers(ctx->h, a.val[PS_NID] ? &nid : NULL, level, ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

static int peer_list(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	rc = cfg_show_peer_list(ctx->h, ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

const struct lnetctl_cmd lnetctl_peer_cmds[] = {
	{ "add", peer_add, NULL, peer_add_opts,
	  "add a peer (--prim_nid) and more of its NIDs (--nid)" },
	{ "del", peer_del, NULL, peer_del_opts,
	  "delete a peer, or with --nid only those of its NIDs" },
	{ "show", peer_show, NULL, peer_show_opts, "show the peers and their NIs as YAML" },
	{ "list", peer_list, NULL, NULL, "list the primary NIDs of the peers" },
	{ NULL }
};
