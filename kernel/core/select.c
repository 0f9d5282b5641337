// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path selection for a destination on a directly connected net: choose the
 * peer net (and so the local net), then the local NI, then the peer NI.
 * Reads only the flattened UDSP values (the rule list is never walked here).
 * Every comparison: a positive result means the candidate is better, a
 * negative one that the current best is better, 0 a tie (go on); its
 * size is the criterion that decided (enum lnet_explain_criterion), which
 * IOC_LNET_EXPLAIN reports (explain.c: with ln_sel_trace set, every
 * candidate is recorded and nothing is committed).
 */
#include "lnet_priv.h"

/* Decided on criterion @c (LNET_EXPLAIN_C_*): the result, sign kept. */
#define LNET_DECIDE(expr, c)					\
	do {							\
		int r_ = (expr);				\
		if (r_)						\
			return r_ * LNET_EXPLAIN_C_##c;		\
	} while (0)

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
	LNET_DECIDE(lnet_cmp_high(c->net_up, b->net_up), NET_UP);
	LNET_DECIDE(lnet_cmp_high(c->lpn_health, b->lpn_health), PNET_HEALTH);
	LNET_DECIDE(lnet_cmp_low(c->lpn->lpn_sel_priority, b->lpn->lpn_sel_priority),
		    PNET_PRIO);
	LNET_DECIDE(lnet_cmp_high(c->net_health, b->net_health), NET_HEALTH);
	LNET_DECIDE(lnet_cmp_low(c->net->net_sel_priority, b->net->net_sel_priority),
		    NET_PRIO);
	LNET_DECIDE(lnet_cmp_low(c->lpn->lpn_seq, b->lpn->lpn_seq), PNET_RR);
	LNET_DECIDE(lnet_cmp_low(c->net->net_seq, b->net->net_seq), NET_RR);
	return 0;
}

/* The trace entry of net candidate @c (NONE without a trace). */
static u32 lnet_trace_net(struct lnet_sel_trace *tr, const struct lnet_net_cand *c)
{
	u32 idx = tr ? lnet_trace_add(tr, LNET_EXPLAIN_K_NET) : LNET_EXPLAIN_NONE;
	struct lnet_ioc_explain_cand *e = tr ? lnet_trace_at(tr, idx) : NULL;

	if (e) {
		e->ec_net = c->net->net_id;
		e->ec_peer_net = c->lpn->lpn_net_id;
		e->ec_up = c->net_up;
		e->ec_health = c->lpn_health;
		e->ec_health2 = c->net_health;
		e->ec_priority = c->lpn->lpn_sel_priority;
		e->ec_priority2 = c->net->net_sel_priority;
		e->ec_seq = c->lpn->lpn_seq;
		e->ec_seq2 = c->net->net_seq;
	}
	return idx;
}

static bool lnet_select_net(struct lnet *ln, struct lnet_peer *lp,
			    struct lnet_net_cand *best)
{
	struct lnet_sel_trace *tr = ln->ln_sel_trace;
	u32 best_idx = LNET_EXPLAIN_NONE, idx;
	struct lnet_peer_net *lpn;
	bool found = false;
	int r;

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
		idx = lnet_trace_net(tr, &c);
		r = found ? lnet_net_cand_cmp(&c, best) : 1;
		if (r > 0)
			*best = c;
		if (tr)
			lnet_trace_duel(tr, &best_idx, idx, r);
		found = true;
	}
	return found;
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

/* B: status up, health, NI priority, tx credits, round robin. */
static int lnet_ni_cmp(const struct lnet_ni *c, const struct lnet_ni *b)
{
	LNET_DECIDE(lnet_cmp_high(c->ni_status == LNET_NI_STATUS_UP,
				  b->ni_status == LNET_NI_STATUS_UP), NI_UP);
	LNET_DECIDE(lnet_cmp_high(c->ni_health.lh_value, b->ni_health.lh_value), NI_HEALTH);
	LNET_DECIDE(lnet_cmp_low(c->ni_sel_priority, b->ni_sel_priority), NI_PRIO);
	LNET_DECIDE(lnet_cmp_s32_high(c->ni_tx_credits, b->ni_tx_credits), NI_CREDITS);
	LNET_DECIDE(lnet_cmp_low(c->ni_seq, b->ni_seq), NI_RR);
	return 0;
}

static u32 lnet_trace_ni(struct lnet_sel_trace *tr, const struct lnet_ni *ni)
{
	u32 idx = lnet_trace_add(tr, LNET_EXPLAIN_K_NI);
	struct lnet_ioc_explain_cand *e = lnet_trace_at(tr, idx);

	if (e) {
		e->ec_nid = ni->ni_nid;
		e->ec_net = ni->ni_net->net_id;
		e->ec_up = ni->ni_status == LNET_NI_STATUS_UP;
		e->ec_health = ni->ni_health.lh_value;
		e->ec_priority = ni->ni_sel_priority;
		e->ec_credits = ni->ni_tx_credits;
		e->ec_seq = ni->ni_seq;
	}
	return idx;
}

/*
 * The same NI loop with a trace: each NI recorded and compared, the ones
 * @usable refuses (@why) left out before any comparison.
 */
static struct lnet_ni *lnet_select_ni_traced(struct lnet_sel_trace *tr, struct lnet_net *net,
					     const struct lnet_peer_net *lpn)
{
	u32 best_idx = LNET_EXPLAIN_NONE, idx;
	struct lnet_ni *ni, *best = NULL;
	int r;

	list_for_each_entry(ni, &net->net_nis, ni_list) {
		if (ni->ni_dying)
			continue;
		idx = lnet_trace_ni(tr, ni);
		if (lpn && !lnet_lpn_reachable(lpn, ni)) {
			lnet_trace_out(tr, idx, LNET_EXPLAIN_C_FAMILY);
			continue;
		}
		r = best ? lnet_ni_cmp(ni, best) : 1;
		if (r > 0)
			best = ni;
		lnet_trace_duel(tr, &best_idx, idx, r);
	}
	return best;
}

static struct lnet_ni *lnet_select_ni(struct lnet *ln, struct lnet_net *net)
{
	struct lnet_ni *ni, *best = NULL;

	if (ln->ln_sel_trace)
		return lnet_select_ni_traced(ln->ln_sel_trace, net, NULL);
	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (!ni->ni_dying && (!best || lnet_ni_cmp(ni, best) > 0))
			best = ni;
	return best;
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

	LNET_DECIDE(lnet_cmp_high(c->lpni_state != LNET_NI_STATUS_DOWN,
				  b->lpni_state != LNET_NI_STATUS_DOWN), LPNI_UP);
	LNET_DECIDE(lnet_cmp_high(c->lpni_health.lh_value, b->lpni_health.lh_value),
		    LPNI_HEALTH);
	LNET_DECIDE(lnet_cmp_low(c->lpni_sel_priority, b->lpni_sel_priority), LPNI_PRIO);
	LNET_DECIDE(lnet_cmp_high(lnet_cand_prefers(cc, ni), lnet_cand_prefers(bc, ni)),
		    LPNI_PREF);
	LNET_DECIDE(lnet_cmp_s32_high(c->lpni_tx_credits, b->lpni_tx_credits), LPNI_CREDITS);
	LNET_DECIDE(lnet_cmp_low(c->lpni_seq, b->lpni_seq), LPNI_RR);
	return 0;
}

static u32 lnet_trace_lpni(struct lnet_sel_trace *tr, const struct lnet_peer_ni *lpni,
			   const struct lnet_ni *ni)
{
	u32 idx = lnet_trace_add(tr, LNET_EXPLAIN_K_PEER_NI);
	struct lnet_ioc_explain_cand *e = lnet_trace_at(tr, idx);

	if (e) {
		e->ec_nid = lpni->lpni_nid;
		e->ec_net = lnet_nid_net(&lpni->lpni_nid);
		e->ec_up = lpni->lpni_state != LNET_NI_STATUS_DOWN;
		e->ec_health = lpni->lpni_health.lh_value;
		e->ec_priority = lpni->lpni_sel_priority;
		e->ec_pref = ni && lnet_lpni_prefers(lpni, &ni->ni_nid);
		e->ec_credits = lpni->lpni_tx_credits;
		e->ec_seq = lpni->lpni_seq;
	}
	return idx;
}

static struct lnet_peer_ni *lnet_select_lpni(struct lnet *ln, struct lnet_peer_net *lpn,
					     const struct lnet_ni *ni)
{
	struct lnet_sel_trace *tr = ln->ln_sel_trace;
	struct lnet_lpni_cand best = { NULL, -1 }, c;
	u32 best_idx = LNET_EXPLAIN_NONE, idx = LNET_EXPLAIN_NONE;
	struct lnet_peer_ni *lpni;
	int r;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
		if (tr)
			idx = lnet_trace_lpni(tr, lpni, ni);
		if (!lnet_same_family(ni, lpni)) {
			if (tr)
				lnet_trace_out(tr, idx, LNET_EXPLAIN_C_FAMILY);
			continue;
		}
		c.lpni = lpni;
		c.pref = -1;
		r = best.lpni ? lnet_lpni_cmp(&c, &best, ni) : 1;
		if (r > 0)
			best = c;
		if (tr)
			lnet_trace_duel(tr, &best_idx, idx, r);
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
	if (ln->ln_sel_trace)
		lnet_trace_ni(ln->ln_sel_trace, ni);	/* the one asked for: chosen */
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

/* B: the NI of the chosen net, one that reaches a peer NI of its family. */
static struct lnet_ni *lnet_select_path_ni(struct lnet *ln, const struct lnet_net_cand *nc)
{
	struct lnet_ni *ni;

	if (ln->ln_sel_trace)	/* the same outcome, each NI recorded once */
		return lnet_select_ni_traced(ln->ln_sel_trace, nc->net, nc->lpn);
	ni = lnet_select_ni(ln, nc->net);
	if (ni && !lnet_lpn_reachable(nc->lpn, ni))
		ni = lnet_select_ni_reaching(nc->net, nc->lpn);
	return ni;
}

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
		p->ni = lnet_select_path_ni(ln, &p->nc);
		if (!p->ni)
			return -EHOSTUNREACH;
	}
	p->lpni = lnet_select_lpni(ln, p->nc.lpn, p->ni);
	return p->lpni ? 0 : -EHOSTUNREACH;
}

/* The path is taken: the round robins move on (not while explaining). */
static void lnet_path_commit(struct lnet *ln, const struct lnet_path *p)
{
	if (ln->ln_sel_trace)
		return;
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
	lnet_path_commit(ln, &p);
	*ni_out = p.ni;
	*lpni_out = p.lpni;
	return 0;
}

struct lnet_ni *lnet_select_ni_on(struct lnet *ln, u32 net_id)
{
	struct lnet_net *net = lnet_net_find(ln, net_id);
	struct lnet_ni *ni = net ? lnet_select_ni(ln, net) : NULL;

	if (ni && !ln->ln_sel_trace)
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

	LNET_DECIDE(lnet_cmp_high(c->pref, b->pref), RT_PREF);
	LNET_DECIDE(lnet_cmp_low(c->r->lr_priority, b->r->lr_priority), RT_PRIO);
	LNET_DECIDE(lnet_cmp_low(lnet_route_hops(c->r), lnet_route_hops(b->r)), RT_HOPS);
	LNET_DECIDE(lnet_cmp_high(cl->lpni_health.lh_value, bl->lpni_health.lh_value),
		    RT_HEALTH);
	LNET_DECIDE(cl->lpni_txqnob < bl->lpni_txqnob ? 1 :
		    cl->lpni_txqnob > bl->lpni_txqnob ? -1 : 0, RT_QUEUED);
	LNET_DECIDE(lnet_cmp_s32_high(cl->lpni_tx_credits, bl->lpni_tx_credits), RT_CREDITS);
	LNET_DECIDE(lnet_cmp_low(c->r->lr_seq, b->r->lr_seq), RT_RR);
	return 0;
}

/* A route's entry: the gateway's NID, the route's own figures. */
static u32 lnet_trace_route(struct lnet_sel_trace *tr, const struct lnet_route *r)
{
	u32 idx = lnet_trace_add(tr, LNET_EXPLAIN_K_ROUTE);
	struct lnet_ioc_explain_cand *e = lnet_trace_at(tr, idx);

	if (e) {
		e->ec_nid = r->lr_gw_nid;
		e->ec_net = r->lr_net;
		e->ec_priority = r->lr_priority;
		e->ec_priority2 = lnet_route_hops(r);
		e->ec_seq = r->lr_seq;
	}
	return idx;
}

/* What the route's candidate found: alive, preference, its gateway NI's figures. */
static void lnet_trace_route_fill(struct lnet_sel_trace *tr, u32 idx,
				  const struct lnet_route_cand *c)
{
	struct lnet_ioc_explain_cand *e = lnet_trace_at(tr, idx);

	if (!e)
		return;
	e->ec_up = 1;
	e->ec_pref = c->pref;
	e->ec_health = c->path.lpni->lpni_health.lh_value;
	e->ec_credits = c->path.lpni->lpni_tx_credits;
	e->ec_queued = c->path.lpni->lpni_txqnob;
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
	LNET_DECIDE(lnet_cmp_high(lnet_peer_net_health(c), lnet_peer_net_health(b)),
		    RNET_HEALTH);
	LNET_DECIDE(lnet_cmp_low(c->lpn_sel_priority, b->lpn_sel_priority), RNET_PRIO);
	LNET_DECIDE(lnet_cmp_low(c->lpn_seq, b->lpn_seq), RNET_RR);
	return 0;
}

static u32 lnet_trace_rnet(struct lnet_sel_trace *tr, const struct lnet_peer_net *lpn)
{
	u32 idx = lnet_trace_add(tr, LNET_EXPLAIN_K_REMOTE_NET);
	struct lnet_ioc_explain_cand *e = lnet_trace_at(tr, idx);

	if (e) {
		e->ec_peer_net = lpn->lpn_net_id;
		e->ec_health = lnet_peer_net_health(lpn);
		e->ec_priority = lpn->lpn_sel_priority;
		e->ec_seq = lpn->lpn_seq;
	}
	return idx;
}

/* Is @lpn a remote peer net a route reaches (else why not, for the trace)? */
static bool lnet_remote_lpn_ok(struct lnet *ln, const struct lnet_peer_net *lpn, u32 *why)
{
	*why = LNET_EXPLAIN_C_NO_ROUTE;
	return !list_empty(&lpn->lpn_peer_nis) && !lnet_net_find(ln, lpn->lpn_net_id) &&
	       lnet_route_alive_to(ln, lpn->lpn_net_id);
}

struct lnet_peer_ni *lnet_select_remote_dst(struct lnet *ln, struct lnet_peer_ni *dst)
{
	struct lnet_sel_trace *tr = ln->ln_sel_trace;
	u32 best_idx = LNET_EXPLAIN_NONE, idx = LNET_EXPLAIN_NONE, why;
	struct lnet_peer_net *lpn, *best = NULL;
	struct lnet_peer_ni *lpni;
	int r;

	list_for_each_entry(lpn, &dst->lpni_peer_net->lpn_peer->lp_peer_nets, lpn_list) {
		/* a net of ours is no remote net: it was the direct path's */
		if (lnet_net_find(ln, lpn->lpn_net_id))
			continue;
		if (tr)
			idx = lnet_trace_rnet(tr, lpn);
		if (!lnet_remote_lpn_ok(ln, lpn, &why)) {
			if (tr)
				lnet_trace_out(tr, idx, why);
			continue;
		}
		r = best ? lnet_remote_lpn_cmp(lpn, best) : 1;
		if (r > 0)
			best = lpn;
		if (tr)
			lnet_trace_duel(tr, &best_idx, idx, r);
	}
	if (!best)
		return dst;
	lpni = lnet_select_lpni(ln, best, NULL);
	if (!tr) {
		best->lpn_seq++;
		lpni->lpni_seq++;
	}
	return lpni;
}

int lnet_select_route(struct lnet *ln, u32 net_id, const struct lnet_peer_ni *dst,
		      const struct lnet_nid *src, struct lnet_ni **ni_out,
		      struct lnet_peer_ni **lpni_out)
{
	struct lnet_sel_trace *tr = ln->ln_sel_trace;
	u32 best_idx = LNET_EXPLAIN_NONE, idx = LNET_EXPLAIN_NONE;
	struct lnet_route_cand best = { 0 }, c;
	struct lnet_route *r;
	u32 top_seq = 0;
	int cmp;

	list_for_each_entry(r, &ln->ln_routes, lr_list) {
		if (r->lr_net != net_id)
			continue;
		if (r->lr_seq > top_seq)
			top_seq = r->lr_seq;
		if (tr) {
			idx = lnet_trace_route(tr, r);
			tr->parent = idx;	/* the gateway path's entries are its */
		}
		if (!lnet_route_cand_get(ln, r, dst, src, &c)) {
			if (tr) {
				tr->parent = LNET_EXPLAIN_NONE;
				lnet_trace_out(tr, idx, LNET_EXPLAIN_C_ROUTE_DOWN);
			}
			continue;
		}
		cmp = best.r ? lnet_route_cand_cmp(&c, &best) : 1;
		if (cmp > 0)
			best = c;
		if (tr) {
			tr->parent = LNET_EXPLAIN_NONE;
			lnet_trace_route_fill(tr, idx, &c);
			lnet_trace_duel(tr, &best_idx, idx, cmp);
		}
	}
	if (!best.r)
		return -EHOSTUNREACH;
	if (!tr)
		best.r->lr_seq = top_seq + 1;
	lnet_path_commit(ln, &best.path);
	*ni_out = best.path.ni;
	*lpni_out = best.path.lpni;
	return 0;
}

int lnet_select_pathway(struct lnet *ln, const struct lnet_nid *dst,
			struct lnet_ni **ni_out, struct lnet_peer_ni **lpni_out)
{
	return lnet_select_pathway_src(ln, dst, NULL, ni_out, lpni_out);
}
