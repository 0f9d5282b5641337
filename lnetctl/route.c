// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl route add | del | show: remote nets reached through gateways
 * (a gateway range or list makes one route per NID); routing show.
 */
#include "lnetctl.h"

/* The options route add and route del share come first, at the same places. */
enum { RC_NET, RC_GATEWAY, RA_HOP, RA_PRIORITY };

static const struct lnetctl_opt route_add_opts[] = {
	[RC_NET] = { "net", 'n', LNETCTL_VALUE, "the remote net, e.g. o2ib1",
		     .values = LNETCTL_VALUES_NETS },
	[RC_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE,
			 "gateways on a local net, comma separated; ranges such as "
			 "10.0.0.[1-4]@tcp make one route per NID", .values = LNETCTL_VALUES_NIDS },
	[RA_HOP] = { "hop", 'c', LNETCTL_VALUE,
		     "hops to the remote net: 1-" LNETCTL_STR(LNET_ROUTE_HOPS_MAX) " (default: -1, unset)",
		     "hop-count", .values = LNETCTL_VALUES_TYPED },
	[RA_PRIORITY] = { "priority", 'p', LNETCTL_VALUE,
			  "0-" LNETCTL_STR(LNET_ROUTE_PRIORITY_MAX) ", 0 highest (default 0)", .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

static const struct lnetctl_opt route_del_opts[] = {
	[RC_NET] = { "net", 'n', LNETCTL_VALUE, "the remote net", .values = LNETCTL_VALUES_NETS },
	[RC_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE,
			 "delete the routes through these gateways (NIDs, comma separated)",
			 .values = LNETCTL_VALUES_NIDS },
	{ NULL }
};

enum { RS_NET, RS_GATEWAY, RS_VERBOSE };

static const struct lnetctl_opt route_show_opts[] = {
	[RS_NET] = { "net", 'n', LNETCTL_VALUE, "only the routes to this net",
		     .values = LNETCTL_VALUES_NETS },
	[RS_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE, "only the routes through this gateway NID",
			 .values = LNETCTL_VALUES_NIDS },
	[RS_VERBOSE] = { "verbose", 'v', LNETCTL_LEVEL,
			 "0-5 (alone: 1): 1 and up add hop, priority, state and type",
			 .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

static int parse_hop(const char *val, s32 *hops, struct cfg_err *err)
{
	if (!cfg_parse_arg_s32("--hop", val, -1, LNET_ROUTE_HOPS_MAX, hops, err) && *hops)
		return 0;
	return cfg_fail(err, -EINVAL, NULL,
			"invalid --hop '%s': expected -1 (unset) or an integer 1-%d",
			val, LNET_ROUTE_HOPS_MAX);
}

/* route add's --hop and --priority, when given, into @r. */
static int parse_metrics(const struct lnetctl_args *a, struct cfg_route *r,
			 struct cfg_err *err)
{
	int rc = 0;

	if (a->val[RA_HOP])
		rc = parse_hop(a->val[RA_HOP], &r->hops, err);
	if (!rc && a->val[RA_PRIORITY])
		rc = cfg_parse_arg_u32("--priority", a->val[RA_PRIORITY], 0,
				       LNET_ROUTE_PRIORITY_MAX, &r->priority, err);
	return rc;
}

/* route add and route del: --net and --gateway (both required), add's extras, the call. */
static int route_change(struct lnetctl_ctx *ctx, int argc, char **argv, enum lnetctl_op op)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_route r;
	int status;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[RC_NET])
		return lnetctl_missing(ctx, RC_NET);
	if (!a.val[RC_GATEWAY])
		return lnetctl_missing(ctx, RC_GATEWAY);
	cfg_route_init(&r);
	if (cfg_parse_net("--net", a.val[RC_NET], &r.net_id, &err) ||
	    cfg_parse_gateways("--gateway", a.val[RC_GATEWAY], &r, &err) ||
	    (op == LNETCTL_ADD && parse_metrics(&a, &r, &err)))
		status = lnetctl_usage(ctx, "%s", err.msg);
	else
		status = lnetctl_done(ctx, op == LNETCTL_ADD ? cfg_route_add(ctx->h, &r, &err) :
					   cfg_route_del(ctx->h, &r, &err), &err);
	cfg_route_fini(&r);
	return status;
}

static int route_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return route_change(ctx, argc, argv, LNETCTL_ADD);
}

static int route_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return route_change(ctx, argc, argv, LNETCTL_DEL);
}

static int route_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct lnet_nid gw;
	u32 net_id = 0;
	int rc, level;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (lnetctl_verbose(ctx, a.val[RS_VERBOSE], &level))
		return LNETCTL_USAGE;
	if ((a.val[RS_NET] && cfg_parse_net("--net", a.val[RS_NET], &net_id, &err)) ||
	    (a.val[RS_GATEWAY] && cfg_parse_nid("--gateway", a.val[RS_GATEWAY], &gw, &err)))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_show_routes(ctx->h, net_id, a.val[RS_GATEWAY] ? &gw : NULL, level > 0,
			     ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

static int routing_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run_show(ctx, argc, argv, cfg_show_routing);
}

const struct lnetctl_cmd lnetctl_route_cmds[] = {
	{ "add", route_add, NULL, route_add_opts,
	  "add routes to a remote net: --net NET --gateway NID[,NID...]" },
	{ "del", route_del, NULL, route_del_opts,
	  "delete routes: --net NET --gateway NID[,NID...] (the gateway peers stay)" },
	{ "show", route_show, NULL, route_show_opts,
	  "show the routes as YAML (nothing when there are none)" },
	{ NULL }
};

const struct lnetctl_cmd lnetctl_routing_cmds[] = {
	{ "show", routing_show, NULL, NULL,
	  "show the router buffer pools, whether this node forwards, and the buffer counts" },
	{ NULL }
};
