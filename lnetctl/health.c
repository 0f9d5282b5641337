// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl net set | peer set --health: the health of local NIs or peer NIs
 * set by hand, as Lustre's tests do to see selection and recovery at work;
 * peer set --state: a peer's state bits, to see discovery at work.
 * Without --nid the value goes to every NI of the kind, as on Lustre
 * (`net set --health 900` is how its scripts put NIs back); --all says so
 * explicitly. net set also changes the socket LND's tunables of running
 * NIs in place (--conns-per-peer, --lnd-timeout, --tos: one NI, a net's,
 * or every tcp NI).
 */
#include <errno.h>
#include <string.h>

#include "lnetctl.h"
#include "../kernel/core/validate.h"

enum { HS_NID, HS_HEALTH, HS_ALL, HS_STATE };
/* net set: --net at peer set's --state place, then the socket LND's rows */
enum { NSET_NET = HS_STATE, NSET_LND };

#define HEALTH_HELP(what) \
	"health value 0-" LNETCTL_STR(LNET_HEALTH_MAX) " of " what \
	" (below " LNETCTL_STR(LNET_HEALTH_MAX) ": recovery pings follow)"

/* Lustre's net set spells --lnd-timeout -l (net add has no letter for it). */
#define NSET_LETTER(id, letter) ((letter) ? (letter) : (id) == LNET_SOCK_TIMEOUT ? 'l' : 0)

#define NET_SET_LND_OPT(id, name, opt, letter, min, max, def, help)		\
	[NSET_LND + id] = { opt, NSET_LETTER(id, letter), LNETCTL_VALUE,	\
			    "tcp: " help ", " #min "-" #max " (-1: the default), "	\
			    "changed in place", .values = LNETCTL_VALUES_TYPED },

const struct lnetctl_opt lnetctl_net_set_opts[] = {
	[HS_NID] = { "nid", 'n', LNETCTL_VALUE, "the local NI to change (without it: every NI)",
		     .values = LNETCTL_VALUES_NIDS },
	[HS_HEALTH] = { "health", 't', LNETCTL_VALUE, HEALTH_HELP("the NI"),
			.values = LNETCTL_VALUES_TYPED },
	[HS_ALL] = { "all", 'a', LNETCTL_FLAG,
		    "every local NI (0@lo left out; for the LND tunables every tcp NI)" },
	[NSET_NET] = { "net", 'i', LNETCTL_VALUE,
		       "only the NIs of this net (LND tunables; not with --health)",
		       .values = LNETCTL_VALUES_NETS },
	LNET_SOCK_TUNABLES(NET_SET_LND_OPT)
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

/*
 * The LND tunables net set was given, into @t (the rows in @rows): each
 * in its row's range, or -1 for the row's default.
 */
static int lnd_args(const struct lnetctl_args *a, struct lnet_sock_tunables *t, u32 *rows,
		    struct cfg_err *err)
{
	const struct lnet_range *r;
	char what[32];
	u32 i;

	lnet_sock_tunables_unset(t);
	*rows = 0;
	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++) {
		const char *val = a->val[NSET_LND + i];

		if (!val)
			continue;
		r = &lnet_sock_tun_ranges[i];
		snprintf(what, sizeof(what), "--%s", lnetctl_net_set_opts[NSET_LND + i].name);
		if (strcmp(val, "-1") &&
		    cfg_parse_arg_s32(what, val, r->min, r->max, lnet_sock_tun_ref(t, i), err))
			return -EINVAL;
		*rows |= LNET_NI_LND_ROW(i);
	}
	return 0;
}

/* "--health, --conns-per-peer, --lnd-timeout or --tos", from the table */
static int net_set_missing(const struct lnetctl_ctx *ctx)
{
	char opts[160] = "--health";
	size_t len;
	u32 i;

	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++) {
		len = strlen(opts);
		snprintf(opts + len, sizeof(opts) - len, "%s--%s",
			 i + 1 < __LNET_SOCK_TUN_MAX ? ", " : " or ",
			 lnetctl_net_set_opts[NSET_LND + i].name);
	}
	return lnetctl_usage(ctx, "missing option: %s", opts);
}

/* Which NIs: --nid, --net, --all (or none: every NI), at most one of them. */
static int net_set_selectors(const struct lnetctl_ctx *ctx, const struct lnetctl_args *a,
			     u32 rows, u32 *net_id, struct cfg_err *err)
{
	if (!a->val[HS_HEALTH] && !rows)
		return net_set_missing(ctx);
	if ((a->val[HS_NID] != NULL) + (a->val[NSET_NET] != NULL) + (a->val[HS_ALL] != NULL) > 1)
		return lnetctl_usage(ctx, "--nid, --net and --all: give one "
				     "(without any: every NI)");
	if (a->val[NSET_NET] && a->val[HS_HEALTH])
		return lnetctl_usage(ctx, "--net selects the NIs of the LND tunables: --health "
				     "takes --nid or none (every NI)");
	if (a->val[NSET_NET] && cfg_parse_net("--net", a->val[NSET_NET], net_id, err))
		return lnetctl_usage(ctx, "%s", err->msg);
	return LNETCTL_OK;
}

/*
 * net set: the LND tunables first (all the NIs named, or none), then the
 * health, so that a refused tunable leaves the health as it was.
 */
int lnetctl_net_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	uint32_t value = 0, state = 0, rows = 0, net_id = 0;
	struct lnet_sock_tunables t;
	struct lnetctl_args a;
	struct lnet_nid nid;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (lnd_args(&a, &t, &rows, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = net_set_selectors(ctx, &a, rows, &net_id, &err);
	if (!rc && a.val[HS_HEALTH])
		rc = set_args(ctx, &a, false, &nid, &value, &state);
	else if (!rc && a.val[HS_NID] && cfg_parse_nid("--nid", a.val[HS_NID], &nid, &err))
		rc = lnetctl_usage(ctx, "%s", err.msg);
	if (rc)
		return rc;
	if (rows)
		rc = cfg_net_lnd_set(ctx->h, net_id, a.val[HS_NID] ? &nid : NULL, &t, rows, &err);
	if (!rc && a.val[HS_HEALTH])
		rc = cfg_health_set(ctx->h, LNET_HEALTH_LOCAL_NI, a.val[HS_NID] ? &nid : NULL,
				    value, &err);
	return lnetctl_done(ctx, rc, &err);
}

int lnetctl_peer_set(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return health_set(ctx, argc, argv, LNET_HEALTH_PEER_NI);
}
