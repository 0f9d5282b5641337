// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path selection for a destination on a directly connected net: choose the
 * peer net (and so the local net), then the local NI, then the peer NI.
 * Reads only the flattened UDSP values (the rule list is never walked here).
 * Every comparison: a positive result means the candidate is better, a
 * negative one that the current best is better, 0 a tie (go on).
 */
#include "lnet_priv.h"

/* Higher wins. */
static int lnet_cmp_high(u32 cand, u32 best)
{
	return cand > best ? 1 : cand < best ? -1 : 0;
}

/* Lower wins: priorities (0 is the highest), round-robin sequences. */
static int lnet_cmp_low(u32 cand, u32 best)
{
	return cand < best ? 1 : cand > best ? -1 : 0;
}

static int lnet_cmp_s32_high(s32 cand, s32 best)
{
	return cand > best ? 1 : cand < best ? -1 : 0;
}

static u32 lnet_peer_net_health(const struct lnet_peer_net *lpn)
{
	const struct lnet_peer_ni *lpni;
	u32 best = 0;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
		if (lpni->lpni_health.lh_value > best)
			best = lpni->lpni_health.lh_value;
	return best;
}

/*
 * A local net's health: its best NI's; @up tells if any NI is up, @live
 * if any NI is not being deleted.
 */
static u32 lnet_local_net_health(const struct lnet_net *net, bool *up, bool *live)
{
	const struct lnet_ni *ni;
	u32 best = 0;

	*up = false;
	*live = false;
	list_for_each_entry(ni, &net->net_nis, ni_list) {
		if (ni->ni_dying)
			continue;
		*live = true;
		if (ni->ni_status == LNET_NI_STATUS_UP)
			*up = true;
		if (ni->ni_health.lh_value > best)
			best = ni->ni_health.lh_value;
	}
	return best;
}

struct lnet_net_cand {
	struct lnet_peer_net *lpn;
	struct lnet_net *net;
	u32 lpn_health, net_health;
	bool net_up;
};

/*
 * A: a net with an up NI first (a down NI is never chosen while an up one
 * exists), then peer net health, peer net priority, local net health,
 * local net priority, peer net and local net round robin.
 */
static int lnet_net_cand_cmp(const struct lnet_net_cand *c,
			     const struct lnet_net_cand *b)
{
	int r;

	r = lnet_cmp_high(c->net_up, b->net_up);
	if (!r)
		r = lnet_cmp_high(c->lpn_health, b->lpn_health);
	if (!r)
		r = lnet_cmp_low(c->lpn->lpn_sel_priority, b->lpn->lpn_sel_priority);
	if (!r)
		r = lnet_cmp_high(c->net_health, b->net_health);
	if (!r)
		r = lnet_cmp_low(c->net->net_sel_priority, b->net->net_sel_priority);
	if (!r)
		r = lnet_cmp_low(c->lpn->lpn_seq, b->lpn->lpn_seq);
	if (!r)
		r = lnet_cmp_low(c->net->net_seq, b->net->net_seq);
	return r;
}

static bool lnet_select_net(struct lnet *ln, struct lnet_peer *lp,
			    struct lnet_net_cand *best)
{
	struct lnet_peer_net *lpn;
	bool found = false;

	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
		struct lnet_net_cand c = { .lpn = lpn };
		bool live;

		c.net = lnet_net_find(ln, lpn->lpn_net_id);
		if (!c.net || list_empty(&lpn->lpn_peer_nis))
			continue;
		c.net_health = lnet_local_net_health(c.net, &c.net_up, &live);
		if (!live)
			continue;
		c.lpn_health = lnet_peer_net_health(lpn);
		if (!found || lnet_net_cand_cmp(&c, best) > 0)
			*best = c;
		found = true;
	}
	return found;
}

/* B: status up, health, NI priority, tx credits, round robin. */
static int lnet_ni_cmp(const struct lnet_ni *c, const struct lnet_ni *b)
{
	int r;

	r = lnet_cmp_high(c->ni_status == LNET_NI_STATUS_UP,
			  b->ni_status == LNET_NI_STATUS_UP);
	if (!r)
		r = lnet_cmp_high(c->ni_health.lh_value, b->ni_health.lh_value);
	if (!r)
		r = lnet_cmp_low(c->ni_sel_priority, b->ni_sel_priority);
	if (!r)
		r = lnet_cmp_s32_high(c->ni_tx_credits, b->ni_tx_credits);
	if (!r)
		r = lnet_cmp_low(c->ni_seq, b->ni_seq);
	return r;
}

static struct lnet_ni *lnet_select_ni(struct lnet_net *net)
{
	struct lnet_ni *ni, *best = NULL;

	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (!ni->ni_dying && (!best || lnet_ni_cmp(ni, best) > 0))
			best = ni;
	return best;
}

/*
 * Can @ni reach @lpni at all? A net may hold IPv4 and IPv6 NIs side by
 * side (tcp), and a socket connects two addresses of one family: the
 * peer NIs of the other family are not candidates for this NI.
 */
static bool lnet_same_family(const struct lnet_ni *ni, const struct lnet_peer_ni *lpni)
{
	return !ni || ni->ni_nid.nid_addr_len == lpni->lpni_nid.nid_addr_len;
}

/* Has @lpn a peer NI that @ni can reach (lnet_same_family())? */
static bool lnet_lpn_reachable(const struct lnet_peer_net *lpn, const struct lnet_ni *ni)
{
	const struct lnet_peer_ni *lpni;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
		if (lnet_same_family(ni, lpni))
			return true;
	return false;
}

/*
 * B again when the best NI reaches none of the peer's NIs (only the other
 * family's): the best of the NIs that reach one, or NULL.
 */
static struct lnet_ni *lnet_select_ni_reaching(struct lnet_net *net,
					       const struct lnet_peer_net *lpn)
{
	struct lnet_ni *ni, *best = NULL;

	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (!ni->ni_dying && lnet_lpn_reachable(lpn, ni) &&
		    (!best || lnet_ni_cmp(ni, best) > 0))
			best = ni;
	return best;
}

/*
 * Is @nid on the peer NI's preferred list? Compared field by field inline:
 * this runs on the send path for every candidate peer NI that ties on
 * health and priority.
 */
static bool lnet_lpni_prefers(const struct lnet_peer_ni *lpni,
			      const struct lnet_nid *nid)
{
	const struct lnet_nid *p = lpni->lpni_pref_nids;
	u32 i;

	for (i = 0; i < lpni->lpni_npref; i++, p++)
		if (p->nid_netnum == nid->nid_netnum &&
		    p->nid_lnd == nid->nid_lnd &&
		    p->nid_addr_len == nid->nid_addr_len &&
		    !memcmp(p->nid_addr, nid->nid_addr, nid->nid_addr_len))
			return true;
	return false;
}

/* A candidate peer NI; whether it prefers the source NI is looked up lazily. */
struct lnet_lpni_cand {
	const struct lnet_peer_ni *lpni;
	int pref;			/* -1 = not looked up yet */
};

static bool lnet_cand_prefers(struct lnet_lpni_cand *c, const struct lnet_ni *ni)
{
	if (!ni)		/* through a gateway: no source NI to prefer */
		return false;
	if (c->pref < 0)
		c->pref = lnet_lpni_prefers(c->lpni, &ni->ni_nid);
	return c->pref;
}

/*
 * C: not down (the LND's notify or the peer's ping info says so; like a
 * local NI's status), health, peer NI priority, preferred source, tx
 * credits, round robin.
 */
static int lnet_lpni_cmp(struct lnet_lpni_cand *cc, struct lnet_lpni_cand *bc,
			 const struct lnet_ni *ni)
{
	const struct lnet_peer_ni *c = cc->lpni, *b = bc->lpni;
	int r;

	r = lnet_cmp_high(c->lpni_state != LNET_NI_STATUS_DOWN,
			  b->lpni_state != LNET_NI_STATUS_DOWN);
	if (!r)
		r = lnet_cmp_high(c->lpni_health.lh_value, b->lpni_health.lh_value);
	if (!r)
		r = lnet_cmp_low(c->lpni_sel_priority, b->lpni_sel_priority);
	if (!r)
		r = lnet_cmp_high(lnet_cand_prefers(cc, ni), lnet_cand_prefers(bc, ni));
	if (!r)
		r = lnet_cmp_s32_high(c->lpni_tx_credits, b->lpni_tx_credits);
	if (!r)
		r = lnet_cmp_low(c->lpni_seq, b->lpni_seq);
	return r;
}

static struct lnet_peer_ni *lnet_select_lpni(struct lnet_peer_net *lpn,
					     const struct lnet_ni *ni)
{
	struct lnet_lpni_cand best = { NULL, -1 }, c;
	struct lnet_peer_ni *lpni;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
		if (!lnet_same_family(ni, lpni))
			continue;
		c.lpni = lpni;
		c.pref = -1;
		if (!best.lpni || lnet_lpni_cmp(&c, &best, ni) > 0)
			best = c;
	}
	return (struct lnet_peer_ni *)best.lpni;
}

/*
 * A source NID was asked for: only that NI, towards the peer's NIs on its
 * net (the peer net and local net are given, so only C decides).
 */
static int lnet_select_from(struct lnet *ln, struct lnet_peer *lp,
			    const struct lnet_nid *src, struct lnet_net_cand *best,
			    struct lnet_ni **ni_out)
{
	struct lnet_peer_net *lpn;
	struct lnet_ni *ni = lnet_ni_find(ln, src);

	if (!ni || ni->ni_dying)
		return -EHOSTUNREACH;
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		if (lpn->lpn_net_id == ni->ni_net->net_id &&
		    !list_empty(&lpn->lpn_peer_nis)) {
			best->lpn = lpn;
			best->net = ni->ni_net;
			*ni_out = ni;
			return 0;
		}
	return -EHOSTUNREACH;
}

/* A path to the peer @lp (from @src when not NULL), nothing bumped yet. */
struct lnet_path {
	struct lnet_net_cand nc;
	struct lnet_ni *ni;
	struct lnet_peer_ni *lpni;
};

static int lnet_select_path(struct lnet *ln, struct lnet_peer *lp,
			    const struct lnet_nid *src, struct lnet_path *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if (src) {
		rc = lnet_select_from(ln, lp, src, &p->nc, &p->ni);
		if (rc)
			return rc;
	} else {
		if (!lnet_select_net(ln, lp, &p->nc))
			return -EHOSTUNREACH;
		p->ni = lnet_select_ni(p->nc.net);
		if (p->ni && !lnet_lpn_reachable(p->nc.lpn, p->ni))
			p->ni = lnet_select_ni_reaching(p->nc.net, p->nc.lpn);
		if (!p->ni)
			return -EHOSTUNREACH;
	}
	p->lpni = lnet_select_lpni(p->nc.lpn, p->ni);
	return p->lpni ? 0 : -EHOSTUNREACH;
}

/* The path is taken: the round robins move on. */
static void lnet_path_commit(const struct lnet_path *p)
{
	p->nc.lpn->lpn_seq++;
	p->nc.net->net_seq++;
	p->ni->ni_seq++;
	p->lpni->lpni_seq++;
}

int lnet_select_pathway_src(struct lnet *ln, const struct lnet_nid *dst,
			    const struct lnet_nid *src, struct lnet_ni **ni_out,
			    struct lnet_peer_ni **lpni_out)
{
	struct lnet_peer *lp = lnet_peer_find(ln, dst);
	struct lnet_path p;
	int rc;

	if (!lp)
		return -ENOENT;
	rc = lnet_select_path(ln, lp, src, &p);
	if (rc)
		return rc;
	lnet_path_commit(&p);
	*ni_out = p.ni;
	*lpni_out = p.lpni;
	return 0;
}

struct lnet_ni *lnet_select_ni_on(struct lnet *ln, u32 net_id)
{
	struct lnet_net *net = lnet_net_find(ln, net_id);
	struct lnet_ni *ni = net ? lnet_select_ni(net) : NULL;

	if (ni)
		ni->ni_seq++;
	return ni;
}

/* ---- through a gateway ------------------------------------------------- */

static bool lnet_nid_in(const struct lnet_nid *list, u32 n, const struct lnet_nid *nid)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (lnet_nid_equal(&list[i], nid))
			return true;
	return false;
}

struct lnet_route_cand {
	struct lnet_route *r;
	struct lnet_path path;		/* to its gateway */
	bool pref;			/* a UDSP router rule names it */
};

static u32 lnet_route_hops(const struct lnet_route *r)
{
	return r->lr_hops == (u32)LNET_ROUTE_HOPS_UNSET ? 1 : r->lr_hops;
}

/*
 * Preferred by the destination's router rules, then route priority, then
 * hops, then the gateway NI's health, bytes queued and credits, then
 * round robin.
 */
static int lnet_route_cand_cmp(const struct lnet_route_cand *c,
			       const struct lnet_route_cand *b)
{
	const struct lnet_peer_ni *cl = c->path.lpni, *bl = b->path.lpni;
	int r;

	r = lnet_cmp_high(c->pref, b->pref);
	if (!r)
		r = lnet_cmp_low(c->r->lr_priority, b->r->lr_priority);
	if (!r)
		r = lnet_cmp_low(lnet_route_hops(c->r), lnet_route_hops(b->r));
	if (!r)
		r = lnet_cmp_high(cl->lpni_health.lh_value, bl->lpni_health.lh_value);
	if (!r)
		r = cl->lpni_txqnob < bl->lpni_txqnob ? 1 :
		    cl->lpni_txqnob > bl->lpni_txqnob ? -1 : 0;
	if (!r)
		r = lnet_cmp_s32_high(cl->lpni_tx_credits, bl->lpni_tx_credits);
	if (!r)
		r = lnet_cmp_low(c->r->lr_seq, b->r->lr_seq);
	return r;
}

static bool lnet_route_cand_get(struct lnet *ln, struct lnet_route *r,
				const struct lnet_peer_ni *dst,
				const struct lnet_nid *src, struct lnet_route_cand *c)
{
	const struct lnet_peer *gw = r->lr_gateway;

	if (!lnet_route_alive(ln, r) || lnet_select_path(ln, r->lr_gateway, src,
							 &c->path))
		return false;
	c->r = r;
	c->pref = dst && dst->lpni_nrtr &&
		  (lnet_nid_in(dst->lpni_rtr_nids, dst->lpni_nrtr, &gw->lp_primary_nid) ||
		   lnet_nid_in(dst->lpni_rtr_nids, dst->lpni_nrtr, &r->lr_gw_nid));
	return true;
}

static bool lnet_route_alive_to(struct lnet *ln, u32 net_id)
{
	struct lnet_route *r;

	list_for_each_entry(r, &ln->ln_routes, lr_list)
		if (r->lr_net == net_id && lnet_route_alive(ln, r))
			return true;
	return false;
}

/* A remote peer net: health, then UDSP priority, then round robin. */
static int lnet_remote_lpn_cmp(const struct lnet_peer_net *c,
			       const struct lnet_peer_net *b)
{
	int r = lnet_cmp_high(lnet_peer_net_health(c), lnet_peer_net_health(b));

	if (!r)
		r = lnet_cmp_low(c->lpn_sel_priority, b->lpn_sel_priority);
	if (!r)
		r = lnet_cmp_low(c->lpn_seq, b->lpn_seq);
	return r;
}

struct lnet_peer_ni *lnet_select_remote_dst(struct lnet *ln, struct lnet_peer_ni *dst)
{
	struct lnet_peer_net *lpn, *best = NULL;
	struct lnet_peer_ni *lpni;

	list_for_each_entry(lpn, &dst->lpni_peer_net->lpn_peer->lp_peer_nets, lpn_list) {
		if (list_empty(&lpn->lpn_peer_nis) || lnet_net_find(ln, lpn->lpn_net_id) ||
		    !lnet_route_alive_to(ln, lpn->lpn_net_id))
			continue;
		if (!best || lnet_remote_lpn_cmp(lpn, best) > 0)
			best = lpn;
	}
	if (!best)
		return dst;
	lpni = lnet_select_lpni(best, NULL);
	best->lpn_seq++;
	lpni->lpni_seq++;
	return lpni;
}

int lnet_select_route(struct lnet *ln, u32 net_id, const struct lnet_peer_ni *dst,
		      const struct lnet_nid *src, struct lnet_ni **ni_out,
		      struct lnet_peer_ni **lpni_out)
{
	struct lnet_route_cand best = { 0 }, c;
	struct lnet_route *r;
	u32 top_seq = 0;

	list_for_each_entry(r, &ln->ln_routes, lr_list) {
		if (r->lr_net != net_id)
			continue;
		if (r->lr_seq > top_seq)
			top_seq = r->lr_seq;
		if (!lnet_route_cand_get(ln, r, dst, src, &c))
			continue;
		if (!best.r || lnet_route_cand_cmp(&c, &best) > 0)
			best = c;
	}
	if (!best.r)
		return -EHOSTUNREACH;
	best.r->lr_seq = top_seq + 1;
	lnet_path_commit(&best.path);
	*ni_out = best.path.ni;
	*lpni_out = best.path.lpni;
	return 0;
}

int lnet_select_pathway(struct lnet *ln, const struct lnet_nid *dst,
			struct lnet_ni **ni_out, struct lnet_peer_ni **lpni_out)
{
	return lnet_select_pathway_src(ln, dst, NULL, ni_out, lpni_out);
}
