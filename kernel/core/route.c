// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routes: a remote net reached through a gateway peer. The gateway peer is
 * created (non-multi-rail, one NI) when it is not known yet. UDSP router
 * rules read the routes, so every change tells the UDSP engine.
 */
#include "lnet_priv.h"
#include "../udsp/udsp.h"

static struct lnet_route *lnet_route_find(struct lnet *ln, u32 net_id,
					  const struct lnet_peer *gw)
{
	struct lnet_route *r;

	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_net == net_id && r->lr_gateway == gw)
			return r;
	return NULL;
}

static int lnet_route_check(struct lnet *ln, u32 net_id,
			    const struct lnet_nid *gw)
{
	u32 lnd = LNET_NET_LND(net_id);

	if (!lnet_lnd_name(lnd) || lnd == LNET_LND_LO)
		return -EINVAL;
	if (lnet_net_find(ln, net_id))
		return -EINVAL;		/* a local net needs no route */
	if (!gw || lnet_nid_is_zero(gw) || lnet_nid_is_lo(gw))
		return -EINVAL;
	if (lnet_ni_find(ln, gw))
		return -EINVAL;		/* we are not our own gateway */
	return 0;
}

int lnet_route_add(struct lnet *ln, u32 net_id, const struct lnet_nid *gw,
		   u32 hops, u32 priority)
{
	struct lnet_peer *lp;
	struct lnet_route *r;
	int rc;

	rc = lnet_route_check(ln, net_id, gw);
	if (rc)
		return rc;
	lp = lnet_peer_find(ln, gw);
	if (lp && lnet_route_find(ln, net_id, lp))
		return -EEXIST;
	r = lnet_obj_alloc(ln, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (!lp) {
		lp = lnet_peer_create(ln, gw, LNET_PEER_F_NON_MR);
		if (!lp) {
			lnet_obj_free(ln, r);
			return -ENOMEM;
		}
	}
	r->lr_net = net_id;
	r->lr_gateway = lp;
	r->lr_hops = hops;
	r->lr_priority = priority;
	list_add_tail(&r->lr_list, &ln->ln_routes);
	lnet_udsp_local_changed(ln);
	return 0;
}

int lnet_route_del(struct lnet *ln, u32 net_id, const struct lnet_nid *gw)
{
	struct lnet_peer *lp;
	struct lnet_route *r;

	if (!gw || lnet_nid_is_zero(gw))
		return -EINVAL;
	lp = lnet_peer_find(ln, gw);
	r = lp ? lnet_route_find(ln, net_id, lp) : NULL;
	if (!r)
		return -ENOENT;
	list_del(&r->lr_list);
	lnet_obj_free(ln, r);
	lnet_udsp_local_changed(ln);
	return 0;
}

bool lnet_routes_del_gateway(struct lnet *ln, struct lnet_peer *gw)
{
	struct lnet_route *r, *tmp;
	bool any = false;

	list_for_each_entry_safe(r, tmp, &ln->ln_routes, lr_list) {
		if (r->lr_gateway != gw)
			continue;
		list_del(&r->lr_list);
		lnet_obj_free(ln, r);
		any = true;
	}
	return any;
}

void lnet_routes_destroy(struct lnet *ln)
{
	struct lnet_route *r, *tmp;

	list_for_each_entry_safe(r, tmp, &ln->ln_routes, lr_list) {
		list_del(&r->lr_list);
		lnet_obj_free(ln, r);
	}
}
