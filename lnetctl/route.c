// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl route add | del | show: remote nets reached through gateways
 * (a gateway range or list makes one route per NID); routing show.
 */
#include "lnetctl.h"

enum { RA_NET, RA_GATEWAY, RA_HOP, RA_PRIORITY };

static const struct lnetctl_opt route_add_opts[] = {
	[RA_NET] = { "net", 'n', LNETCTL_VALUE, "the remote net, e.g. o2ib1" },
	[RA_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE,
			 "gateways on a local net, comma separated; ranges such as "
			 "10.0.0.[1-4]@tcp make one route per NID" },
	[RA_HOP] = { "hop", 'c', LNETCTL_VALUE, "hops to the remote net: 1-255 (default: -1, unset)" },
	[RA_PRIORITY] = { "priority", 'p', LNETCTL_VALUE,
			  "0-2147483647, 0 highest (default 0)" },
	{ NULL }
};

enum { RD_NET, RD_GATEWAY };

static const struct lnetctl_opt route_del_opts[] = {
	[RD_NET] = { "net", 'n', LNETCTL_VALUE, "the remote net" },
	[RD_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE,
			 "delete the routes through these gateways (NIDs, comma separated)" },
	{ NULL }
};

enum { RS_NET, RS_GATEWAY, RS_VERBOSE };

static const struct lnetctl_opt route_show_opts[] = {
	[RS_NET] = { "net", 'n', LNETCTL_VALUE, "only the routes to this net" },
	[RS_GATEWAY] = { "gateway", 'g', LNETCTL_VALUE, "only the routes through this gateway NID" },
	[RS_VERBOSE] = { "verbose", 'v', LNETCTL_LEVEL,
			 "0-5 (alone: 1): 1 and up add hop, priority, state and type" },
	{ NULL }
};

static int parse_hop(const char *val, s32 *hops, struct cfg_err *err)
{
	if (!cfg_parse_s32("--hop", val, -1, LNET_ROUTE_HOPS_MAX, hops, err) && *hops)
		return 0;
	return cfg_fail(err, -EINVAL, NULL,
			"invalid --hop '%s': expected -1 (unset) or an integer 1-%d",
			val, LNET_ROUTE_HOPS_MAX);
}

/* --net and --gateway (both required) into @r. */
static int route_target(struct lnetctl_ctx *ctx, const struct lnetctl_args *a,
			int net, int gw, struct cfg_route *r, struct cfg_err *err)
{
	if (!a->val[net])
		return lnetctl_missing(ctx, net);
	if (!a->val[gw])
		return lnetctl_missing(ctx, gw);
	if (cfg_parse_net("--net", a->val[net], &r->net_id, err) ||
	    cfg_parse_gateways("--gateway", a->val[gw], r, err))
		return lnetctl_usage(ctx, "%s", err->msg);
	return LNETCTL_OK;
}

static int route_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_route r;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	cfg_route_init(&r);
	rc = route_target(ctx, &a, RA_NET, RA_GATEWAY, &r, &err);
	if (rc)
		return rc;
	if ((a.val[RA_HOP] && parse_hop(a.val[RA_HOP], &r.hops, &err)) ||
	    (a.val[RA_PRIORITY] && cfg_parse_u32("--priority", a.val[RA_PRIORITY], 0,
						 LNET_ROUTE_PRIORITY_MAX, &r.priority, &err)))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_route_add(ctx->h, &r, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
}

static int route_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_route r;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	cfg_route_init(&r);
	rc = route_target(ctx, &a, RD_NET, RD_GATEWAY, &r, &err);
	if (rc)
		return rc;
	rc = cfg_route_del(ctx->h, &r, &err);
	return rc ? lnetctl_fail(ctx, rc, &err) : LNETCTL_OK;
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
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_show_done(ctx, cfg_show_routing(ctx->h, ctx->out, &err), &err);
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
	  "show whether this node routes, and its router buffers" },
	{ NULL }
};
