// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl net set | peer set --health: the health of local NIs or peer NIs
 * set by hand, as Lustre's tests do to see selection and recovery at work.
 * Without --nid the value goes to every NI of the kind, as on Lustre
 * (`net set --health 900` is how its scripts put NIs back); --all says so
 * explicitly.
 */
#include "lnetctl.h"

enum { HS_NID, HS_HEALTH, HS_ALL };

#define HEALTH_HELP(what) \
	"health value 0-" LNETCTL_STR(LNET_HEALTH_MAX) " of " what \
	" (below " LNETCTL_STR(LNET_HEALTH_MAX) ": recovery pings follow)"

const struct lnetctl_opt lnetctl_net_set_opts[] = {
	[HS_NID] = { "nid", 'n', LNETCTL_VALUE, "the local NI to change (without it: every NI)",
		     .values = LNETCTL_VALUES_NIDS },
	[HS_HEALTH] = { "health", 't', LNETCTL_VALUE, HEALTH_HELP("the NI"),
			.values = LNETCTL_VALUES_TYPED },
	[HS_ALL] = { "all", 'a', LNETCTL_FLAG, "every local NI (0@lo left out)" },
	{ NULL }
};

const struct lnetctl_opt lnetctl_peer_set_opts[] = {
	[HS_NID] = { "nid", 'n', LNETCTL_VALUE,
		     "the peer NI to change (without it: every peer NI)",
		     .values = LNETCTL_VALUES_NIDS },
	[HS_HEALTH] = { "health", 't', LNETCTL_VALUE, HEALTH_HELP("the peer NI"),
			.values = LNETCTL_VALUES_TYPED },
	[HS_ALL] = { "all", 'a', LNETCTL_FLAG, "every peer NI" },
	{ NULL }
};

static int health_set(struct lnetctl_ctx *ctx, int argc, char **argv, uint32_t kind)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct lnet_nid nid;
	uint32_t value;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[HS_HEALTH])
		return lnetctl_missing(ctx, HS_HEALTH);
	if (a.val[HS_NID] && a.val[HS_ALL])
		return lnetctl_usage(ctx, "--nid and --all: give one (without either: every NI)");
	if (cfg_parse_arg_u32("--health", a.val[HS_HEALTH], 0, LNET_HEALTH_MAX, &value, &err) ||
	    (a.val[HS_NID] && cfg_parse_nid("--nid", a.val[HS_NID], &nid, &err)))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_done(ctx, cfg_health_set(ctx->h, kind, a.val[HS_NID] ? &nid : NULL,
						value, &err), &err);
}

int lnetctl_net_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return health_set(ctx, argc, argv, LNET_HEALTH_LOCAL_NI);
}

int lnetctl_peer_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return health_set(ctx, argc, argv, LNET_HEALTH_PEER_NI);
}
