// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routes: a remote net reached through a gateway peer. The gateway peer is
 * created (non-multi-rail, one NI) when it is not known yet. UDSP router
 * rules read the routes, so every change tells the UDSP engine.
 *
 * Gateway checks: the monitor pings each gateway every
 * alive_router_check_interval seconds (a new route's gateway at the next
 * tick) and waits router_ping_timeout seconds for the reply. A route is
 * down until its gateway answered; the reply's NI statuses and features
 * decide it then (lnet_route_from_reply). No reply: the gateway's peer NIs
 * go down, and its routes with them. With checks off (interval 0) a route
 * is alive while the local checks of lnet_route_state() hold.
 */
#include "ping_priv.h"
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
	/* we could never send to a gateway on a net we are not on */
	if (!lnet_net_find(ln, lnet_nid_net(gw)))
		return -EHOSTUNREACH;
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
	r->lr_alive = false;		/* until the gateway answers */
	r->lr_single_hop = false;
	if (!lp->lp_rtr_deadline_ns)
		lp->lp_rtr_next_ns = 0;	/* checked at the next tick */
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
	if (lnet_route_state(ln, r) != LNET_NI_STATUS_UP)
		return false;
	if (!ln->ln_globals[LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL])
		return true;	/* no checks: the local view decides */
	return r->lr_alive;
}

/* ---- gateway checks ---------------------------------------------------------- */

/* At most this many gateway pings per tick; the rest go at the next. */
#define LNET_GW_PING_BATCH	16
#define LNET_NS_PER_SEC		1000000000ULL

struct lnet_gw_ping {
	struct lnet_nid gw;		/* the gateway peer's primary NID */
	u32 gen;			/* lp_rtr_gen when it was sent */
	bool reported;			/* the outcome was applied */
	u8 buf[LNET_PING_INFO_MAX_LEN];
};

static void lnet_route_set_alive(struct lnet_route *r, bool alive)
{
	char net[LNET_NET_STR_MAX], gw[LNET_NID_STR_MAX];

	if (r->lr_alive == alive)
		return;
	r->lr_alive = alive;
	if (lnet_net_print(r->lr_net, net, sizeof(net)) < 0)
		snprintf(net, sizeof(net), "?");
	if (lnet_nid_print(&r->lr_gw_nid, gw, sizeof(gw)) < 0)
		snprintf(gw, sizeof(gw), "?");
	os_info("route to %s through %s is %s\n", net, gw, alive ? "up" : "down");
}

/* No reply (or an error): every NI of the gateway down, its routes dead. */
static void lnet_gateway_down(struct lnet *ln, struct lnet_peer *lp)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_route *r;

	lp->lp_rtr_replied = false;
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			lpni->lpni_state = LNET_NI_STATUS_DOWN;
	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_gateway == lp)
			lnet_route_set_alive(r, false);
}

static bool lnet_ping_ni_up(const struct lnet_ping_info *pi, u32 i)
{
	return !(pi->pi_features & LNET_PING_FEAT_NI_STATUS) ||
	       pi->pi_ni[i].ns_status != LNET_NI_STATUS_DOWN_WIRE;
}

/* Does @pi list an NI on @net_id (*@listed), and is one of those up? */
static bool lnet_ping_net_up(const struct lnet_ping_info *pi, u32 net_id, bool *listed)
{
	bool up = false;
	u32 i;

	*listed = false;
	for (i = 0; i < pi->pi_nnis; i++) {
		if (lnet_nid_net(&pi->pi_ni[i].ns_nid) != net_id)
			continue;
		*listed = true;
		up |= lnet_ping_ni_up(pi, i);
	}
	return up;
}

/*
 * What a reply of @r's gateway says of @r: single hop when the gateway has
 * an NI on the remote net; alive with an up NI on the route's local net
 * (the gateway NID's), routing advertised, and under
 * avoid_asym_router_failure an up NI on the remote net of a single hop.
 */
static void lnet_route_from_reply(struct lnet *ln, struct lnet_route *r,
				  const struct lnet_ping_info *pi)
{
	bool listed, remote_up, alive;

	alive = lnet_ping_net_up(pi, lnet_nid_net(&r->lr_gw_nid), &listed) &&
		!(pi->pi_features & LNET_PING_FEAT_RTE_DISABLED);
	remote_up = lnet_ping_net_up(pi, r->lr_net, &r->lr_single_hop);
	if (ln->ln_globals[LNET_GLOBAL_AVOID_ASYM_ROUTER_FAILURE] && r->lr_single_hop)
		alive &= remote_up;
	lnet_route_set_alive(r, alive);
}

/* The gateway's peer NIs that the reply lists take its statuses. */
static void lnet_gateway_from_reply(struct lnet *ln, struct lnet_peer *lp,
				    const struct lnet_ping_info *pi)
{
	struct lnet_peer_ni *lpni;
	struct lnet_route *r;
	u32 i;

	lp->lp_rtr_replied = true;
	for (i = 0; i < pi->pi_nnis; i++) {
		lpni = lnet_peer_ni_find(ln, &pi->pi_ni[i].ns_nid);
		if (lpni && lpni->lpni_peer_net->lpn_peer == lp)
			lpni->lpni_state = lnet_ping_ni_up(pi, i) ?
				LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	}
	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_gateway == lp)
			lnet_route_from_reply(ln, r, pi);
}

/* The outcome of @op: @len reply bytes, or none (@ok false). */
static void lnet_gw_ping_result(struct lnet *ln, const struct lnet_gw_ping *op,
				bool ok, u32 len)
{
	struct lnet_peer *lp = lnet_peer_find(ln, &op->gw);
	struct lnet_ping_info *pi;

	if (!lp || lp->lp_rtr_gen != op->gen || !lp->lp_rtr_deadline_ns)
		return;		/* gone, or timed out already */
	lp->lp_rtr_deadline_ns = 0;
	pi = ok ? lnet_ping_info_alloc(LNET_PING_MAX_NIS) : NULL;
	if (pi && lnet_ping_info_decode(op->buf, len, pi, LNET_PING_MAX_NIS) > 0)
		lnet_gateway_from_reply(ln, lp, pi);
	else
		lnet_gateway_down(ln, lp);
	os_free(pi);
}

static void lnet_gw_ping_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_gw_ping *op = ev->md_user_ptr;

	bool replied = !ev->status && ev->type == LNET_EVENT_REPLY;

	if (ev->unlinked) {
		if (!op->reported)
			lnet_gw_ping_result(ln, op, replied, ev->mlength);
		lnet_obj_free(ln, op);
		return;
	}
	if (op->reported || (!ev->status && ev->type != LNET_EVENT_REPLY))
		return;
	op->reported = true;
	lnet_gw_ping_result(ln, op, replied, ev->mlength);
	/* a failed GET leaves its threshold: the unlink frees @op */
	lnet_md_unlink(ln, ev->md_handle);
}

/* GET the ping info of @lp through its NID @dst: 0 or -errno. */
static int lnet_gw_ping_send(struct lnet *ln, struct lnet_peer *lp,
			     const struct lnet_nid *dst)
{
	struct lnet_gw_ping *op = lnet_obj_alloc(ln, sizeof(*op));
	struct lnet_md md = {
		.length = LNET_PING_INFO_MAX_LEN,
		.threshold = 1,
		.handler = lnet_gw_ping_event,
	};

	if (!op)
		return -ENOMEM;
	op->gw = lp->lp_primary_nid;
	op->gen = lp->lp_rtr_gen;
	md.start = op->buf;
	md.user_ptr = op;
	return lnet_ping_get(ln, &md, NULL, dst, &op->reported);
}

/* Ping the gateway of @nid (a route's gateway NID), if still there. */
static void lnet_gateway_ping(struct lnet *ln, const struct lnet_nid *nid, u64 now)
{
	struct lnet_peer *lp = lnet_peer_find(ln, nid);
	u64 timeout = ln->ln_globals[LNET_GLOBAL_ROUTER_PING_TIMEOUT] * LNET_NS_PER_SEC;

	if (!lp || lp->lp_rtr_deadline_ns)
		return;
	lp->lp_rtr_gen++;
	lp->lp_rtr_deadline_ns = now + timeout;
	if (!lnet_gw_ping_send(ln, lp, nid))
		return;
	/* a failed send finalized messages: it may be gone */
	lp = lnet_peer_find(ln, nid);
	if (lp && lp->lp_rtr_deadline_ns) {
		lp->lp_rtr_deadline_ns = 0;
		lnet_gateway_down(ln, lp);
	}
}

/*
 * Gateways first, pings after: a send may change the lists being walked.
 * A gateway of several routes is due once: its next time moves on.
 */
static u32 lnet_gateways_due(struct lnet *ln, u64 now, struct lnet_nid *out)
{
	u64 interval = ln->ln_globals[LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL] *
		       LNET_NS_PER_SEC;
	struct lnet_route *r;
	struct lnet_peer *lp;
	u32 n = 0;

	list_for_each_entry(r, &ln->ln_routes, lr_list) {
		lp = r->lr_gateway;
		if (lp->lp_rtr_deadline_ns && now >= lp->lp_rtr_deadline_ns) {
			lp->lp_rtr_deadline_ns = 0;	/* a late reply is ignored */
			lnet_gateway_down(ln, lp);
		}
		if (lp->lp_rtr_deadline_ns || now < lp->lp_rtr_next_ns ||
		    n >= LNET_GW_PING_BATCH)
			continue;
		lp->lp_rtr_next_ns = now + interval;
		out[n++] = r->lr_gw_nid;
	}
	return n;
}

void lnet_gateways_check(struct lnet *ln, u64 now_ns)
{
	struct lnet_nid due[LNET_GW_PING_BATCH];
	u32 i, n;

	if (!ln->ln_globals[LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL])
		return;
	n = lnet_gateways_due(ln, now_ns, due);
	for (i = 0; i < n; i++)
		lnet_gateway_ping(ln, &due[i], now_ns);
}

/* Is @gw one of our gateways to @net_id? */
static bool lnet_route_via(struct lnet *ln, u32 net_id, const struct lnet_peer *gw)
{
	return gw && lnet_route_find(ln, net_id, gw) != NULL;
}

/*
 * @lpni forwarded us a message from @src_net: it is up, and it routes to
 * that net. Its routes to @src_net come alive when they were dead only for
 * want of an answer (no reply to the last check, or none yet); a reply
 * that said otherwise (routing off, a net down) stands until the next.
 */
static void lnet_gateway_forwarded(struct lnet *ln, struct lnet_peer_ni *lpni,
				   u32 src_net)
{
	struct lnet_peer *lp = lpni->lpni_peer_net->lpn_peer;
	struct lnet_route *r;

	if (lp->lp_rtr_replied)
		return;
	lpni->lpni_state = LNET_NI_STATUS_UP;
	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_gateway == lp && r->lr_net == src_net)
			lnet_route_set_alive(r, true);
}

/* ---- what a router tells of its own nets ------------------------------------------ */

/*
 * Only the ping info says so: the NI's own status (local selection, net
 * show) stays as the link has it. A silent net still works for sends of
 * our own, and a peer's first ping must reach us through it to end the
 * silence; what it lacks is only proof that the far side has anybody.
 */
bool lnet_net_silent(struct lnet *ln, const struct lnet_net *net)
{
	u64 quiet = ((u64)ln->ln_globals[LNET_GLOBAL_ROUTER_PING_TIMEOUT] +
		     ln->ln_globals[LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL]) * LNET_NS_PER_SEC;

	if (!lnet_routing_forwards(ln) ||
	    net->net_id == LNET_NET_ID(LNET_LND_LO, 0))
		return false;
	return os_now_ns() - net->net_last_ping_ns > quiet;
}

/*
 * A ping (GET on the reserved portal) from a peer to us on @ni's net ends
 * its silence. The ping target is rebuilt at once, before the GET is
 * matched, so that this ping's reply already shows the net up.
 */
static void lnet_net_pinged(struct lnet *ln, struct lnet_ni *ni,
			    const struct lnet_hdr *hdr)
{
	struct lnet_net *net = ni->ni_net;
	bool was_silent;

	if (hdr->type != LNET_MSG_GET || hdr->msg.get.ptl_index != LNET_RESERVED_PORTAL ||
	    !lnet_nid_equal(&hdr->dest_nid, &ni->ni_nid))
		return;
	was_silent = lnet_net_silent(ln, net);
	net->net_last_ping_ns = os_now_ns();
	if (was_silent)
		lnet_ping_target_update(ln);
}

bool lnet_router_rx_note(struct lnet *ln, struct lnet_ni *ni,
			 struct lnet_peer_ni *lpni, const struct lnet_hdr *hdr)
{
	u32 src_net = lnet_nid_net(&hdr->src_nid);

	if (lpni)	/* not one of our own NIDs */
		lnet_net_pinged(ln, ni, hdr);
	if (!lpni || src_net == lnet_nid_net(&lpni->lpni_nid))
		return true;
	/* it came through a gateway: one of ours to the source's net? */
	if (ln->ln_globals[LNET_GLOBAL_DROP_ASYM_ROUTE] &&
	    !lnet_route_via(ln, src_net, lpni->lpni_peer_net->lpn_peer))
		return false;
	lnet_gateway_forwarded(ln, lpni, src_net);
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

bool lnet_peer_is_gateway(struct lnet *ln, const struct lnet_peer *lp)
{
	struct lnet_route *r;

	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_gateway == lp)
			return true;
	return false;
}
