// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routes: a remote net reached through a gateway peer. The gateway peer is
 * created (non-multi-rail, one NI) when it is not known yet. UDSP router
 * rules read the routes, so every change tells the UDSP engine.
 */
#include "lnet_priv.h"
#include "validate.h"

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
			    const struct lnet_nid *gw, u32 hops, u32 priority)
{
	int rc = lnet_route_add_check(net_id, gw, hops, priority, NULL);

	if (rc)
		return rc;
	if (lnet_ni_find(ln, gw))
		return -EADDRINUSE;	/* we are not our own gateway */
	if (lnet_net_find(ln, net_id))
		return -EISCONN;	/* a local net needs no route */
	return 0;
}

int lnet_route_add(struct lnet *ln, u32 net_id, const struct lnet_nid *gw,
		   u32 hops, u32 priority)
{
	struct lnet_peer *lp;
	struct lnet_route *r;
	int rc;

	rc = lnet_route_check(ln, net_id, gw, hops, priority);
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
	/*
	 * The admin named the gateway: it is a configured peer, as one added
	 * with `peer add` (so that export --backup keeps it and an import of
	 * that backup gives the same peer state).
	 */
	lp->lp_state |= LNET_PEER_S_CONFIGURED;
	r->lr_net = net_id;
	r->lr_gateway = lp;
	r->lr_gw_nid = *gw;
	r->lr_hops = hops;
	r->lr_priority = priority;
	list_add_tail(&r->lr_list, &ln->ln_routes);
	lnet_hook(ln, local_changed);
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
	lnet_hook(ln, local_changed);
	return 0;
}

struct lnet_route *lnet_route_nth(struct lnet *ln, u32 index, u32 net_id)
{
	struct lnet_route *r;

	list_for_each_entry(r, &ln->ln_routes, lr_list) {
		if (net_id && r->lr_net != net_id)
			continue;
		if (!index--)
			return r;
	}
	return NULL;
}

/* Up: a local NI up on the gateway's net, and the gateway's NI up. */
u32 lnet_route_state(struct lnet *ln, const struct lnet_route *r)
{
	const struct lnet_nid *gw = &r->lr_gw_nid;
	struct lnet_net *net = lnet_net_find(ln, lnet_nid_net(gw));
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, gw);
	struct lnet_ni *ni;

	if (!net || !lpni || lpni->lpni_state != LNET_NI_STATUS_UP)
		return LNET_NI_STATUS_DOWN;
	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (ni->ni_status == LNET_NI_STATUS_UP)
			return LNET_NI_STATUS_UP;
	return LNET_NI_STATUS_DOWN;
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

bool lnet_route_alive(struct lnet *ln, const struct lnet_route *r)
{
	return lnet_route_state(ln, r) == LNET_NI_STATUS_UP;
}

/* Is @gw one of our gateways to @net_id? */
static bool lnet_route_via(struct lnet *ln, u32 net_id, const struct lnet_peer *gw)
{
	return gw && lnet_route_find(ln, net_id, gw) != NULL;
}

bool lnet_router_rx_note(struct lnet *ln, struct lnet_ni *ni,
			 struct lnet_peer_ni *lpni, const struct lnet_hdr *hdr)
{
	u32 src_net = lnet_nid_net(&hdr->src_nid);

	(void)ni;
	if (!lpni || src_net == lnet_nid_net(&lpni->lpni_nid))
		return true;
	/* it came through a gateway: one of ours to the source's net? */
	if (ln->ln_globals[LNET_GLOBAL_DROP_ASYM_ROUTE] &&
	    !lnet_route_via(ln, src_net, lpni->lpni_peer_net->lpn_peer))
		return false;
	return true;
}

bool lnet_route_any(struct lnet *ln, u32 net_id)
{
	struct lnet_route *r;

	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_net == net_id)
			return true;
	return false;
}
