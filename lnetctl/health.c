// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl net set | peer set --health: the health of local NIs or peer NIs
 * set by hand, as Lustre's tests do to see selection and recovery at work;
 * peer set --state: a peer's state bits, to see discovery at work.
 * Without --nid the value goes to every NI of the kind, as on Lustre
 * (`net set --health 900` is how its scripts put NIs back); --all says so
 * explicitly.
 */
#include "lnetctl.h"

enum { HS_NID, HS_HEALTH, HS_ALL, HS_STATE };

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
	[HS_STATE] = { "state", 's', LNETCTL_VALUE,
		       "the state bits of the peer of --nid, as `peer show -v 3` numbers them: "
		       "0 multi-rail, 3 configured, 4 discovered, 8 NIDs up to date, "
		       "20 primary NID locked", .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

/* --nid, --health and --state of @a, checked: 0, or the usage error's status. */
static int set_args(struct lnetctl_ctx *ctx, const struct lnetctl_args *a, bool takes_state,
		    struct lnet_nid *nid, uint32_t *value, uint32_t *state)
{
	struct cfg_err err = { 0 };

	if (!a->val[HS_HEALTH] && !(takes_state && a->val[HS_STATE]))
		return takes_state ? lnetctl_usage(ctx, "missing option: --health, --state or both") :
				     lnetctl_missing(ctx, HS_HEALTH);
	if (a->val[HS_NID] && a->val[HS_ALL])
		return lnetctl_usage(ctx, "--nid and --all: give one (without either: every NI)");
	if (takes_state && a->val[HS_STATE] && !a->val[HS_NID])
		return lnetctl_usage(ctx, "--state needs --nid: it sets one peer's state");
	if ((a->val[HS_HEALTH] && cfg_parse_arg_u32("--health", a->val[HS_HEALTH], 0,
						     LNET_HEALTH_MAX, value, &err)) ||
	    (takes_state && a->val[HS_STATE] &&
	     cfg_parse_arg_u32("--state", a->val[HS_STATE], 0, UINT32_MAX, state, &err)) ||
	    (a->val[HS_NID] && cfg_parse_nid("--nid", a->val[HS_NID], nid, &err)))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (*state & ~LNET_PEER_STATE_SETTABLE)
		return lnetctl_usage(ctx, "invalid --state '%s': bits %#x are not state bits a "
				     "peer keeps (settable: %#x)", a->val[HS_STATE],
				     *state & ~LNET_PEER_STATE_SETTABLE, LNET_PEER_STATE_SETTABLE);
	return LNETCTL_OK;
}

static int health_set(struct lnetctl_ctx *ctx, int argc, char **argv, uint32_t kind)
{
	bool peer = kind == LNET_HEALTH_PEER_NI;
	struct cfg_err err = { 0 };
	uint32_t value = 0, state = 0;
	struct lnetctl_args a;
	struct lnet_nid nid;
	int rc = 0;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	rc = set_args(ctx, &a, peer, &nid, &value, &state);
	if (rc)
		return rc;
	if (a.val[HS_HEALTH])
		rc = cfg_health_set(ctx->h, kind, a.val[HS_NID] ? &nid : NULL, value, &err);
	if (!rc && peer && a.val[HS_STATE])
		rc = cfg_peer_state_set(ctx->h, &nid, state, &err);
	return lnetctl_done(ctx, rc, &err);
}

int lnetctl_net_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return health_set(ctx, argc, argv, LNET_HEALTH_LOCAL_NI);
}

int lnetctl_peer_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return health_set(ctx, argc, argv, LNET_HEALTH_PEER_NI);
}
