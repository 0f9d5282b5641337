// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Operations on routes (one route per gateway NID: ranges are expanded
 * here, the core sees single NIDs), routing and router buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ops_priv.h"

int cfg_parse_gateways(const char *what, const char *s, struct cfg_route *r,
		       struct cfg_err *err)
{
	u32 before = r->ngws, i;
	struct cfg_peer tmp;
	int rc = cfg_model_size(r, &cfg_route_model, err);

	if (rc)
		return rc;
	cfg_peer_init(&tmp);
	rc = cfg_parse_nidlist(what, s, &tmp, err);
	if (!rc && r->ngws + tmp.nnids > LNET_PEER_MAX_NIS)
		rc = cfg_fail(err, -EINVAL, NULL,
			      "invalid %s '%s': more than %d gateways", what, s,
			      LNET_PEER_MAX_NIS);
	for (i = 0; !rc && i < tmp.nnids; i++)
		if (cfg_route_append(r, &tmp.nids[i]))
			rc = cfg_fail(err, -ENOMEM, NULL, "out of memory");
	if (rc)
		r->ngws = before;
	cfg_peer_fini(&tmp);
	return rc;
}

const char *cfg_buf_name(unsigned int kind)
{
	return kind < LNET_NBUF_KINDS ? lnet_buf_ranges[kind].name : NULL;
}

/* The message for count @s of @kind, which lnet_buffers_check() refused. */
static int buffers_bad(const char *what, const char *s, unsigned int kind,
		       struct cfg_err *err)
{
	const struct lnet_range *r = &lnet_buf_ranges[kind];

	return cfg_fail(err, -EINVAL, NULL,
			"invalid %s '%s': expected 0 (the default) or an integer %d-%d",
			what, s, r->min, r->max);
}

/* A count of @kind read by @number: cfg_parse_s32 (YAML) or cfg_parse_arg_s32. */
static int buffers_parse(int (*number)(const char *what, const char *s, s32 min, s32 max,
				       s32 *out, struct cfg_err *err),
			 const char *what, const char *s, unsigned int kind, s32 *out,
			 struct cfg_err *err)
{
	s32 counts[LNET_NBUF_KINDS] = { [0 ... LNET_NBUF_KINDS - 1] = -1 };

	if (kind >= LNET_NBUF_KINDS)
		return cfg_fail(err, -EINVAL, NULL, "invalid %s: no router buffer kind %u",
				what, kind);
	/* -1 is not a number here: only the library's callers leave a kind */
	if (number(what, s, 0, INT32_MAX, &counts[kind], err) ||
	    lnet_buffers_check(counts, NULL))
		return buffers_bad(what, s, kind, err);
	*out = counts[kind];
	return 0;
}

int cfg_parse_buffers(const char *what, const char *s, unsigned int kind, s32 *out,
		      struct cfg_err *err)
{
	return buffers_parse(cfg_parse_s32, what, s, kind, out, err);
}

int cfg_parse_arg_buffers(const char *what, const char *s, unsigned int kind, s32 *out,
			  struct cfg_err *err)
{
	return buffers_parse(cfg_parse_arg_s32, what, s, kind, out, err);
}

/* --- routes ------------------------------------------------------------------ */

static void route_request(struct lnet_ioc_route *rt, u32 net_id,
			  const struct lnet_nid *gw)
{
	memset(rt, 0, sizeof(*rt));
	rt->rt_hdr.ioc_len = sizeof(*rt);
	rt->rt_net = net_id;
	if (gw)
		rt->rt_gateway = *gw;
	rt->rt_hops = LNET_ROUTE_HOPS_UNSET;
}

int cfg_route_get(struct cfg_handle *h, u32 index, u32 net_id, struct lnet_ioc_route *out)
{
	route_request(out, net_id, NULL);
	out->rt_index = index;
	return cfg_ioctl(h, IOC_LIBCFS_GET_ROUTE, out);
}

static int route_cmd(struct cfg_handle *h, unsigned int cmd, const struct cfg_route *r,
		     u32 i)
{
	struct lnet_ioc_route rt;

	route_request(&rt, r->net_id, &r->gws[i]);
	rt.rt_hops = r->hops;
	rt.rt_priority = r->priority;
	return cfg_ioctl(h, cmd, &rt);
}

/* The message for what lnet_route_add_check() refused. */
static int route_add_bad(const struct cfg_route *r, const struct lnet_bad *bad,
			 struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX];

	switch (bad->why) {
	case LNET_BAD_LO_NET:
		return cfg_fail(err, -EINVAL, &r->loc,
				"net lo cannot be routed: it is this node itself");
	case LNET_BAD_NET:
		return cfg_fail(err, -EINVAL, &r->loc,
				"invalid net '%s': no LND of that name",
				cfg_net_str(r->net_id, net, sizeof(net)));
	case LNET_BAD_ZERO_NID:
		return cfg_fail(err, -EINVAL, &r->loc, "a route needs a gateway NID");
	case LNET_BAD_LO_NID:
		return cfg_fail(err, -EINVAL, &r->loc, "0@lo cannot be a gateway");
	case LNET_BAD_HOPS:
		return cfg_fail(err, -EINVAL, &r->loc,
				"invalid hop '%d': expected -1 (unset) or an integer 1-%d",
				r->hops, LNET_ROUTE_HOPS_MAX);
	}
	return cfg_fail(err, -EINVAL, &r->loc,
			"invalid priority '%u': expected an integer 0-%u",
			r->priority, LNET_ROUTE_PRIORITY_MAX);
}

/* LNet's own checks of each route (validate.c), before the first is sent. */
static int route_check(const struct cfg_route *r, struct cfg_err *err)
{
	struct lnet_bad bad;
	u32 i = 0;

	do {
		const struct lnet_nid *gw = r->ngws ? &r->gws[i] : NULL;

		if (lnet_route_add_check(r->net_id, gw, (u32)r->hops, r->priority, &bad))
			return route_add_bad(r, &bad, err);
	} while (++i < r->ngws);
	return 0;
}

static int route_add_fail(struct cfg_handle *h, const struct cfg_route *r, u32 i,
			  int rc, struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX], gw[LNET_NID_STR_MAX], doing[128];

	cfg_net_str(r->net_id, net, sizeof(net));
	cfg_nid_str(&r->gws[i], gw, sizeof(gw));
	snprintf(doing, sizeof(doing), "cannot add the route to %s through %s", net, gw);
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &r->loc, doing);
	switch (rc) {
	case -EISCONN:
		return cfg_fail(err, rc, &r->loc,
				"net %s is a local net: it is reached directly, not through a gateway",
				net);
	case -EEXIST:
		return cfg_fail(err, rc, &r->loc,
				"a route to %s through gateway %s already exists", net, gw);
	case -EADDRINUSE:
		return cfg_fail(err, rc, &r->loc,
				"gateway %s is one of this node's own NIDs", gw);
	case -EHOSTUNREACH:
		return cfg_fail(err, rc, &r->loc, "no local NI on net %s for gateway %s",
				cfg_net_str(lnet_nid_net(&r->gws[i]), net, sizeof(net)), gw);
	}
	return cfg_ioc_fail(h, rc, err, &r->loc, doing);
}

/* Delete route @i of @r and, when @peer_new, its gateway peer too. */
static void route_undo(struct cfg_handle *h, const struct cfg_route *r, u32 i,
		       bool peer_new)
{
	struct lnet_ioc_peer pr;

	route_cmd(h, IOC_LIBCFS_DEL_ROUTE, r, i);
	if (!peer_new)
		return;
	memset(&pr, 0, sizeof(pr));
	pr.pr_hdr.ioc_len = sizeof(pr);
	pr.pr_prim_nid = r->gws[i];
	pr.pr_flags = LNET_PEER_F_FORCE;
	cfg_ioctl(h, IOC_LIBCFS_DEL_PEER_NI, &pr);
}

static bool gateway_known(struct cfg_handle *h, const struct lnet_nid *gw)
{
	struct lnet_ioc_peer pr;

	return !cfg_peer_ni_get(h, 0, gw, &pr);
}

int cfg_route_add(struct cfg_handle *h, const struct cfg_route *in, struct cfg_err *err)
{
	struct cfg_route full;
	const struct cfg_route *r = &full;
	bool *peer_new;
	int rc;
	u32 i;

	rc = cfg_model_read(in, &full, &cfg_route_model, err);
	if (!rc)
		rc = route_check(r, err);
	if (rc)
		return rc;
	peer_new = calloc(r->ngws, sizeof(*peer_new));
	if (!peer_new)
		return cfg_fail(err, -ENOMEM, &r->loc, "out of memory");
	for (i = 0; i < r->ngws; i++) {
		peer_new[i] = !gateway_known(h, &r->gws[i]);
		rc = route_cmd(h, IOC_LIBCFS_ADD_ROUTE, r, i);
		if (rc) {
			route_add_fail(h, r, i, rc, err);
			while (i--)	/* undo this call's routes, newest first */
				route_undo(h, r, i, peer_new[i]);
			break;
		}
	}
	free(peer_new);
	return rc;
}

int cfg_route_del(struct cfg_handle *h, const struct cfg_route *in, struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX], gw[LNET_NID_STR_MAX], doing[128];
	struct cfg_route full;
	const struct cfg_route *r = &full;
	int rc = 0;
	u32 i;

	rc = cfg_model_read(in, &full, &cfg_route_model, err);
	if (rc)
		return rc;
	cfg_net_str(r->net_id, net, sizeof(net));
	for (i = 0; i < r->ngws; i++) {
		rc = route_cmd(h, IOC_LIBCFS_DEL_ROUTE, r, i);
		if (!rc)
			continue;
		cfg_nid_str(&r->gws[i], gw, sizeof(gw));
		if (rc == -ENOENT && !cfg_unreachable(h))
			return cfg_fail(err, rc, &r->loc, "no route to %s through gateway %s",
					net, gw);
		snprintf(doing, sizeof(doing), "cannot delete the route to %s through %s",
			 net, gw);
		return cfg_ioc_fail(h, rc, err, &r->loc, doing);
	}
	return rc;
}

/* --- routing and buffers --------------------------------------------------------- */

static int routing_cmd(struct cfg_handle *h, unsigned int cmd, struct lnet_ioc_routing *r)
{
	r->rtr_hdr.ioc_len = sizeof(*r);
	return cfg_ioctl(h, cmd, r);
}

int cfg_routing_set(struct cfg_handle *h, u32 enable, struct cfg_err *err)
{
	struct lnet_ioc_routing r = { .rtr_enable = enable };
	int rc;

	if (lnet_routing_check(enable, NULL))	/* validate.c, as the core */
		return cfg_fail(err, -EINVAL, NULL, "invalid routing '%u': expected 0 or 1",
				enable);
	rc = routing_cmd(h, IOC_LIBCFS_CONFIG_RTR, &r);
	if (rc == -EBUSY && enable)	/* only while STOPPING: the pools still drain */
		return cfg_fail(err, rc, NULL,
				"cannot enable routing while it is being stopped (routing state "
				"'stopping'): try again once it is disabled");
	return rc ? cfg_ioc_fail(h, rc, err, NULL,
				 enable ? "cannot enable routing" : "cannot disable routing") : 0;
}

int cfg_buffers_set(struct cfg_handle *h, const s32 *counts, unsigned int nkinds,
		    struct cfg_err *err)
{
	s32 all[LNET_NBUF_KINDS] = { [0 ... LNET_NBUF_KINDS - 1] = -1 };
	struct lnet_ioc_routing r = { 0 };
	struct lnet_bad bad;
	char val[16];
	int rc;

	if (nkinds > LNET_NBUF_KINDS)
		return cfg_fail(err, -EINVAL, NULL,
				"invalid router buffer kinds '%u': there are %d", nkinds,
				LNET_NBUF_KINDS);
	memcpy(all, counts, nkinds * sizeof(*counts));
	if (lnet_buffers_check(all, &bad)) {
		snprintf(val, sizeof(val), "%d", all[bad.field]);
		return buffers_bad(lnet_buf_ranges[bad.field].name, val, bad.field, err);
	}
	r.rtr_tiny = all[LNET_BUF_TINY];
	r.rtr_small = all[LNET_BUF_SMALL];
	r.rtr_large = all[LNET_BUF_LARGE];
	rc = routing_cmd(h, IOC_LIBCFS_ADD_BUF, &r);
	return rc ? cfg_ioc_fail(h, rc, err, NULL, "cannot set the router buffers") : 0;
}

int cfg_rtr_pools_get(struct cfg_handle *h, u32 cpt, struct lnet_ioc_rtr_pools *out,
		      struct cfg_err *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->rp_hdr.ioc_len = sizeof(*out);
	out->rp_cpt = cpt;
	rc = cfg_ioctl(h, IOC_LNET_GET_RTR_POOLS, out);
	if (rc == -ENOENT && cpt)
		return rc;	/* the end of the partitions, not a failure */
	return rc ? cfg_ioc_fail(h, rc, err, NULL, "cannot read the router buffer pools") : 0;
}

/*
 * The setting, not whether the node forwards: STARTING was asked to route
 * (1), STOPPING not to (0), though both forward. Import compares with it
 * (enable: 1 while stopping is tried, and refused) and export --backup
 * writes it.
 */
int cfg_routing_get(struct cfg_handle *h, struct cfg_routing *out, struct cfg_err *err)
{
	struct lnet_ioc_routing r = { 0 };
	struct lnet_ioc_rtr_pools rp;
	int rc = routing_cmd(h, IOC_LIBCFS_GET_BUF, &r);

	if (rc)
		return cfg_ioc_fail(h, rc, err, NULL, "cannot read the routing settings");
	rc = cfg_rtr_pools_get(h, 0, &rp, err);
	if (rc)
		return rc;
	memset(out, 0, sizeof(*out));
	out->set = CFG_RTR_ENABLE | CFG_RTR_BUF(LNET_BUF_TINY) | CFG_RTR_BUF(LNET_BUF_SMALL) |
		   CFG_RTR_BUF(LNET_BUF_LARGE);
	out->enable = rp.rp_state == LNET_ROUTING_ENABLED || rp.rp_state == LNET_ROUTING_STARTING;
	out->buffers[LNET_BUF_TINY] = r.rtr_tiny;
	out->buffers[LNET_BUF_SMALL] = r.rtr_small;
	out->buffers[LNET_BUF_LARGE] = r.rtr_large;
	return 0;
}
