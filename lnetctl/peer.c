// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl peer add | del | show | list */
#include "lnetctl.h"

/* The options peer add and peer del share come first, at the same places. */
enum { PC_PRIM, PC_NID, PC_FLAGS };
enum { PA_NON_MR = PC_FLAGS, PA_LOCK };

static const struct lnetctl_opt peer_add_opts[] = {
	[PC_PRIM] = { "prim_nid", 'k', LNETCTL_VALUE,
		      "the peer's primary NID (the peer is created if new)",
		      .values = LNETCTL_VALUES_NIDS },
	[PC_NID] = { "nid", 'n', LNETCTL_VALUE,
		     "more NIDs of the peer, e.g. 10.0.0.[2-3]@tcp,5@gni",
		     .values = LNETCTL_VALUES_NIDS },
	[PA_NON_MR] = { "non_mr", 'm', LNETCTL_FLAG,
			"create the peer without Multi-Rail (one NID only)" },
	[PA_LOCK] = { "lock_prim", 'l', LNETCTL_FLAG,
		      "lock the primary NID: deleting the peer then needs --force" },
	{ NULL }
};

enum { PD_FORCE = PC_FLAGS };

static const struct lnetctl_opt peer_del_opts[] = {
	[PC_PRIM] = { "prim_nid", 'k', LNETCTL_VALUE, "the peer's primary NID",
		      .values = LNETCTL_VALUES_NIDS },
	[PC_NID] = { "nid", 'n', LNETCTL_VALUE,
		     "delete only these NIDs (without it, the whole peer)",
		     .values = LNETCTL_VALUES_NIDS },
	[PD_FORCE] = { "force", 'f', LNETCTL_FLAG, "delete a peer whose primary NID is locked" },
	{ NULL }
};

enum { PS_NID, PS_VERBOSE };

static const struct lnetctl_opt peer_show_opts[] = {
	[PS_NID] = { "nid", 'n', LNETCTL_VALUE, "show only the peer that owns this NID",
		     .values = LNETCTL_VALUES_NIDS },
	[PS_VERBOSE] = { "verbose", 'v', LNETCTL_LEVEL,
			 "level 0-5, alone 1: 1 adds credits and statistics, 4 the UDSP values",
			 .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

/* The peer flags that the flag options of @op set. */
static u32 peer_flags(const struct lnetctl_args *a, enum lnetctl_op op)
{
	if (op == LNETCTL_DEL)
		return a->val[PD_FORCE] ? LNET_PEER_F_FORCE : 0;
	return (a->val[PA_NON_MR] ? LNET_PEER_F_NON_MR : 0) |
	       (a->val[PA_LOCK] ? LNET_PEER_F_LOCK_PRIM : 0);
}

/* peer add and peer del: the same model from their options, a different call. */
static int peer_change(struct lnetctl_ctx *ctx, int argc, char **argv, enum lnetctl_op op)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_peer p;
	int status;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[PC_PRIM])
		return lnetctl_missing(ctx, PC_PRIM);
	cfg_peer_init(&p);
	p.flags |= peer_flags(&a, op);
	if (cfg_parse_nid("--prim_nid", a.val[PC_PRIM], &p.prim, &err) ||
	    (a.val[PC_NID] && cfg_parse_nidlist("--nid", a.val[PC_NID], &p, &err)))
		status = lnetctl_usage(ctx, "%s", err.msg);
	else
		status = lnetctl_done(ctx, op == LNETCTL_ADD ? cfg_peer_add(ctx->h, &p, &err) :
					   cfg_peer_del(ctx->h, &p, &err), &err);
	cfg_peer_fini(&p);
	return status;
}

static int peer_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return peer_change(ctx, argc, argv, LNETCTL_ADD);
}

static int peer_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return peer_change(ctx, argc, argv, LNETCTL_DEL);
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
	return lnetctl_run_show(ctx, argc, argv, cfg_show_peer_list);
}

const struct lnetctl_cmd lnetctl_peer_cmds[] = {
	{ "add", peer_add, NULL, peer_add_opts,
	  "add a peer (--prim_nid) and more of its NIDs (--nid)" },
	{ "del", peer_del, NULL, peer_del_opts,
	  "delete a peer, or with --nid only those of its NIDs" },
	{ "show", peer_show, NULL, peer_show_opts, "show the peers and their NIs as YAML" },
	{ "list", peer_list, NULL, NULL, "list the primary NIDs of the peers" },
	{ "set", lnetctl_peer_set, NULL, lnetctl_peer_set_opts,
	  "set the health of a peer NI (--nid) or of every one, or a peer's --state" },
	{ NULL }
};
