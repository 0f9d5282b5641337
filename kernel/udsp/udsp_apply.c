// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flattening: every net, NI, peer net and peer NI gets the values of the
 * lowest-idx rule that matches it, computed from the rules as they are now
 * (never patched by the rule that was added or deleted), so deleting a rule
 * restores what the remaining rules say.
 *
 * How: see the indexes in udsp_priv.h.
 */
#include "udsp_priv.h"
#include "udsp_explain.h"

/* Local NIs and gateways that pair and router rules pick from. */
struct udsp_pass {
	u32 up_nnis;
	struct lnet_nid *up_nis;	/* local NIDs, nets then NIs in order */
	u32 up_ngws;
	struct lnet_nid *up_gws;	/* distinct gateway primary NIDs */
	struct lnet_nid *up_out;	/* room for max(nnis, ngws) NIDs */
	u32 up_words;			/* bitmap words per rule */
	u64 *up_bits;			/* per index position; NULL: no memo */
	u32 *up_count;			/* matches per position; ~0 unknown */
	void *up_mem;			/* the one allocation */
};

struct udsp_match {
	u32 um_class;
	u32 um_net;
	u32 um_key;			/* lnet_udsp_nid_key() of um_nid */
	const struct lnet_nid *um_nid;
	struct udsp_pass *um_pass;
};

/* --- pair and router targets ------------------------------------------- */

static bool udsp_nid_in(const struct lnet_nid *nids, u32 n,
			const struct lnet_nid *nid)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (lnet_nid_equal(&nids[i], nid))
			return true;
	return false;
}

static void udsp_pass_count(struct lnet *ln, u32 *nnis, u32 *nroutes)
{
	struct lnet_route *rt;
	struct lnet_net *net;
	struct lnet_ni *ni;

	*nnis = 0;
	*nroutes = 0;
	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			(*nnis)++;
	list_for_each_entry(rt, &ln->ln_routes, lr_list)
		(*nroutes)++;
}

static void udsp_pass_fill(struct lnet *ln, struct udsp_pass *p)
{
	struct lnet_route *rt;
	struct lnet_net *net;
	struct lnet_ni *ni;

	p->up_nnis = 0;
	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			p->up_nis[p->up_nnis++] = ni->ni_nid;
	p->up_ngws = 0;
	list_for_each_entry(rt, &ln->ln_routes, lr_list) {
		const struct lnet_nid *gw = &rt->lr_gateway->lp_primary_nid;

		if (!udsp_nid_in(p->up_gws, p->up_ngws, gw))
			p->up_gws[p->up_ngws++] = *gw;
	}
}

/*
 * Snapshot the local NIDs and gateways; with @memo, also room to remember
 * each rule's matches for the whole pass. 0 or -ENOMEM.
 */
static int udsp_pass_init(struct lnet *ln, struct udsp_pass *p, bool memo)
{
	struct lnet_udsp_index *ix;
	u32 nnis, nroutes, most, nrules = 0, i;
	size_t size;
	u8 *m;

	memset(p, 0, sizeof(*p));
	ix = lnet_udsp_of(ln)->us_index;
	if (!ix || !(ix->ui_class_n[UC_PAIR] + ix->ui_class_n[UC_ROUTER]))
		return 0;	/* no list can be set: nothing to pick from */
	udsp_pass_count(ln, &nnis, &nroutes);
	most = nnis > nroutes ? nnis : nroutes;
	if (memo) {
		nrules = ix->ui_nrules;
		p->up_words = (most + 63) / 64;
	}
	size = (nnis + 2 * (size_t)most + 1) * sizeof(struct lnet_nid) +
	       (size_t)nrules * (p->up_words * sizeof(u64) + sizeof(u32));
	m = lnet_obj_alloc(ln, size);
	if (!m)
		return -ENOMEM;
	memset(m, 0, size);
	p->up_mem = m;
	p->up_bits = nrules ? (u64 *)m : NULL;
	m += (size_t)nrules * p->up_words * sizeof(u64);
	p->up_count = nrules ? (u32 *)m : NULL;
	m += (size_t)nrules * sizeof(u32);
	p->up_nis = (struct lnet_nid *)m;
	p->up_gws = p->up_nis + nnis;
	p->up_out = p->up_gws + most;
	for (i = 0; i < nrules; i++)
		p->up_count[i] = ~0U;
	udsp_pass_fill(ln, p);
	return 0;
}

static void udsp_pass_fini(struct lnet *ln, struct udsp_pass *p)
{
	if (p->up_mem)
		lnet_obj_free(ln, p->up_mem);
}

/* The candidates a pair (local NIs) or router (gateways) rule picks from. */
static const struct lnet_nid *udsp_candidates(const struct udsp_pass *p,
					      u32 cls, u32 *n)
{
	*n = cls == UC_PAIR ? p->up_nnis : p->up_ngws;
	return cls == UC_PAIR ? p->up_nis : p->up_gws;
}

static const struct lnet_nidexpr *udsp_target_expr(const struct lnet_udsp *r,
						   u32 cls)
{
	return cls == UC_PAIR ? &r->udsp_desc.src : &r->udsp_desc.rte;
}

/* How many candidates rule @r (at index position @pos) picks; memoized. */
static u32 udsp_target_count(struct udsp_pass *p, const struct lnet_udsp *r,
			     u32 pos, u32 cls)
{
	const struct lnet_nidexpr *e = udsp_target_expr(r, cls);
	const struct lnet_nid *c;
	u64 *bits;
	u32 n, i, cnt = 0;

	if (p->up_count && p->up_count[pos] != ~0U)
		return p->up_count[pos];
	c = udsp_candidates(p, cls, &n);
	bits = p->up_bits ? p->up_bits + (size_t)pos * p->up_words : NULL;
	for (i = 0; i < n; i++) {
		if (!lnet_nidexpr_match_nid(e, &c[i]))
			continue;
		cnt++;
		if (bits)
			bits[i / 64] |= 1ULL << (i % 64);
	}
	if (p->up_count)
		p->up_count[pos] = cnt;
	return cnt;
}

/* Each set bit @i of the @words words of @bits, lowest first (@w, @word: cursors). */
#define UDSP_FOR_EACH_BIT(bits, words, i, w, word)				\
	for ((w) = 0; (w) < (words); (w)++)					\
		for ((word) = (bits)[w]; (word) &&					\
		     ((i) = (w) * 64 + (u32)__builtin_ctzll(word), 1);		\
		     (word) &= (word) - 1)

/* Write the NIDs rule @r picks into p->up_out; returns how many. */
static u32 udsp_targets(struct udsp_pass *p, const struct lnet_udsp *r,
			u32 pos, u32 cls)
{
	const struct lnet_nidexpr *e = udsp_target_expr(r, cls);
	const struct lnet_nid *c;
	const u64 *bits;
	u32 n, i, w, out = 0;
	u64 word;

	udsp_target_count(p, r, pos, cls);
	c = udsp_candidates(p, cls, &n);
	if (p->up_bits) {	/* memoized: visit the set bits only */
		bits = p->up_bits + (size_t)pos * p->up_words;
		UDSP_FOR_EACH_BIT(bits, p->up_words, i, w, word)
			p->up_out[out++] = c[i];
		return out;
	}
	for (i = 0; i < n; i++)
		if (lnet_nidexpr_match_nid(e, &c[i]))
			p->up_out[out++] = c[i];
	return out;
}

/*
 * Is the list rule @r picks already @cur (@ncur NIDs)? With the memo this
 * compares in place: most peer NIs keep their list across a re-flatten.
 */
static bool udsp_targets_same(struct udsp_pass *p, const struct lnet_udsp *r,
			      u32 pos, u32 cls, const struct lnet_nid *cur, u32 ncur)
{
	const struct lnet_nid *c;
	const u64 *bits;
	u32 n, i, w, k = 0;
	u64 word;

	if (udsp_target_count(p, r, pos, cls) != ncur)
		return false;
	if (!p->up_bits) {
		n = udsp_targets(p, r, pos, cls);
		return !n || !memcmp(p->up_out, cur, n * sizeof(*cur));
	}
	c = udsp_candidates(p, cls, &n);
	bits = p->up_bits + (size_t)pos * p->up_words;
	UDSP_FOR_EACH_BIT(bits, p->up_words, i, w, word)
		if (memcmp(&c[i], &cur[k++], sizeof(*cur)))
			return false;
	return true;
}

/* --- first matching rule ------------------------------------------------- */

/* Does the descriptor that selects the objects of @r's class hold the object? */
static bool udsp_rule_selects(const struct lnet_udsp *r, const struct udsp_match *m)
{
	const struct lnet_udsp_desc *d = &r->udsp_desc;

	switch (m->um_class) {
	case UC_LOCAL_NET:
		return lnet_nidexpr_match_net(&d->src, m->um_net);
	case UC_LOCAL_NI:
		return lnet_nidexpr_match_nid(&d->src, m->um_nid);
	case UC_PEER_NET:
		return lnet_nidexpr_match_net(&d->dst, m->um_net);
	default:	/* peer NI priority, pair, router: the peer NI */
		return lnet_nidexpr_match_nid(&d->dst, m->um_nid);
	}
}

/* A pair or router rule also needs something to pick. */
static bool udsp_rule_matches(const struct lnet_udsp *r, u32 pos,
			      struct udsp_match *m)
{
	if (!udsp_rule_selects(r, m))
		return false;
	return m->um_class < UC_PAIR ||
	       udsp_target_count(m->um_pass, r, pos, m->um_class) > 0;
}

/* The entries of one group that can hold a match for one address key. */
struct udsp_cands {
	const u32 *uc_pos;		/* bucket positions, or NULL: */
	u32 uc_start;			/* ... entries uc_start.. */
	u32 uc_n, uc_i;
};

static void udsp_cands_init(const struct lnet_udsp_index *ix,
			    const struct udsp_group *g, u32 key,
			    struct udsp_cands *c)
{
	const u32 *st;

	memset(c, 0, sizeof(*c));
	if (!g)
		return;
	if (!g->ug_nb) {
		c->uc_start = g->ug_start;
		c->uc_n = g->ug_n;
		return;
	}
	if (key < g->ug_min || key > g->ug_max)
		return;
	st = ix->ui_bstart + g->ug_boff + ((key - g->ug_min) >> g->ug_shift);
	c->uc_pos = ix->ui_bpos + st[0];
	c->uc_n = st[1] - st[0];
}

static u32 udsp_cands_at(const struct udsp_cands *c)
{
	return c->uc_pos ? c->uc_pos[c->uc_i] : c->uc_start + c->uc_i;
}

/* The position of the lowest-idx candidate of two not yet looked at. */
static u32 udsp_cands_next(const struct udsp_entry *ents, struct udsp_cands *a,
			   struct udsp_cands *b)
{
	u32 pa, pb;

	if (b->uc_i >= b->uc_n) {
		pa = udsp_cands_at(a);
		a->uc_i++;
		return pa;
	}
	pb = udsp_cands_at(b);
	if (a->uc_i < a->uc_n) {
		pa = udsp_cands_at(a);
		if (ents[pa].ue_idx < ents[pb].ue_idx) {
			a->uc_i++;
			return pa;
		}
	}
	b->uc_i++;
	return pb;
}

/*
 * The lowest-idx rule of class m->um_class that matches; *pos_out is its
 * position in the index. Walks the net's group and the LND's group
 * together in idx order.
 */
static const struct lnet_udsp *udsp_first(struct lnet *ln, struct udsp_match *m,
					  u32 *pos_out)
{
	struct lnet_udsp_index *ix = lnet_udsp_of(ln)->us_index;
	u32 cls = m->um_class << UDSP_KEY_CLASS, pos;
	const struct udsp_entry *e;
	struct udsp_cands a, b;

	if (!ix || !ix->ui_class_n[m->um_class])
		return NULL;
	udsp_cands_init(ix, lnet_udsp_group_get(ix->ui_slots, ix->ui_nslots,
						cls | m->um_net, false),
			m->um_key, &a);
	memset(&b, 0, sizeof(b));
	if (ix->ui_multi_lnds[m->um_class] & 1U << (LNET_NET_LND(m->um_net) & 31))
		udsp_cands_init(ix, lnet_udsp_group_get(ix->ui_slots, ix->ui_nslots,
							cls | UDSP_KEY_MULTI |
							LNET_NET_LND(m->um_net),
							false),
				m->um_key, &b);
	while (a.uc_i < a.uc_n || b.uc_i < b.uc_n) {
		pos = udsp_cands_next(ix->ui_ents, &a, &b);
		e = &ix->ui_ents[pos];
		if (m->um_key < e->ue_lo || m->um_key > e->ue_hi)
			continue;
		if (udsp_rule_matches(e->ue_rule, pos, m)) {
			*pos_out = pos;
			return e->ue_rule;
		}
	}
	return NULL;
}

static u32 udsp_priority(struct lnet *ln, u32 cls, u32 net,
			 const struct lnet_nid *nid)
{
	struct udsp_match m = { .um_class = cls, .um_net = net, .um_nid = nid };
	const struct lnet_udsp *r;
	u32 pos;

	if (nid)
		m.um_key = lnet_udsp_nid_key(nid);
	r = udsp_first(ln, &m, &pos);
	return r ? r->udsp_desc.priority : LNET_PRIORITY_UNSET;
}

/* --- per object ---------------------------------------------------------- */

void lnet_udsp_apply_net(struct lnet *ln, struct lnet_net *net)
{
	net->net_sel_priority = udsp_priority(ln, UC_LOCAL_NET, net->net_id, NULL);
}

void lnet_udsp_apply_ni(struct lnet *ln, struct lnet_ni *ni)
{
	ni->ni_sel_priority = udsp_priority(ln, UC_LOCAL_NI, lnet_nid_net(&ni->ni_nid),
					    &ni->ni_nid);
}

void lnet_udsp_apply_peer_net(struct lnet *ln, struct lnet_peer_net *lpn)
{
	lpn->lpn_sel_priority = udsp_priority(ln, UC_PEER_NET, lpn->lpn_net_id, NULL);
}

/* Decide one list (pair: preferred local NIDs, router: gateways). */
static void udsp_apply_list(struct lnet *ln, struct udsp_pass *p,
			    struct lnet_peer_ni *lpni, u32 cls)
{
	struct udsp_match m = { .um_class = cls, .um_nid = &lpni->lpni_nid,
				.um_net = lnet_nid_net(&lpni->lpni_nid),
				.um_key = lnet_udsp_nid_key(&lpni->lpni_nid),
				.um_pass = p };
	const struct lnet_nid *cur = cls == UC_PAIR ? lpni->lpni_pref_nids : lpni->lpni_rtr_nids;
	u32 ncur = cls == UC_PAIR ? lpni->lpni_npref : lpni->lpni_nrtr;
	const struct lnet_udsp *r;
	u32 pos, n = 0;
	int rc;

	r = udsp_first(ln, &m, &pos);
	if (r ? udsp_targets_same(p, r, pos, cls, cur, ncur) : !ncur)
		return;
	if (r)
		n = udsp_targets(p, r, pos, cls);
	if (cls == UC_PAIR)
		rc = lnet_peer_ni_set_pref(ln, lpni, p->up_out, n);
	else
		rc = lnet_peer_ni_set_rtr(ln, lpni, p->up_out, n);
	if (rc)
		os_err("udsp: cannot set the %s list of a peer NI: %d\n",
		       cls == UC_PAIR ? "preferred NID" : "preferred router", rc);
}

static void udsp_apply_lists(struct lnet *ln, struct udsp_pass *p,
			     struct lnet_peer_ni *lpni)
{
	udsp_apply_list(ln, p, lpni, UC_PAIR);
	udsp_apply_list(ln, p, lpni, UC_ROUTER);
}

static void udsp_apply_peer_ni_prio(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	lpni->lpni_sel_priority = udsp_priority(ln, UC_PEER_NI,
						lnet_nid_net(&lpni->lpni_nid),
						&lpni->lpni_nid);
}

void lnet_udsp_apply_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	struct udsp_pass p;

	lnet_udsp_objs_drop(ln);	/* it does not know this NID */
	udsp_apply_peer_ni_prio(ln, lpni);
	if (udsp_pass_init(ln, &p, false)) {
		os_err("udsp: out of memory: preferred lists of a new peer NI not set\n");
		return;
	}
	udsp_apply_lists(ln, &p, lpni);
	udsp_pass_fini(ln, &p);
}

/* --- everything ----------------------------------------------------------- */

static void udsp_apply_local(struct lnet *ln)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &ln->ln_nets, net_list) {
		lnet_udsp_apply_net(ln, net);
		list_for_each_entry(ni, &net->net_nis, ni_list)
			lnet_udsp_apply_ni(ln, ni);
	}
}

/* A pass with memo, or without one when memory is short (slower, same result). */
static int udsp_pass_init_best(struct lnet *ln, struct udsp_pass *p)
{
	if (!udsp_pass_init(ln, p, true) || !udsp_pass_init(ln, p, false))
		return 0;
	os_err("udsp: out of memory: preferred lists of peer NIs not updated\n");
	return -ENOMEM;
}

static void udsp_apply_peers(struct lnet *ln, bool prio, bool lists)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct udsp_pass p;

	if (lists && udsp_pass_init_best(ln, &p))
		lists = false;
	list_for_each_entry(lp, &ln->ln_peers, lp_list) {
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			if (prio)
				lnet_udsp_apply_peer_net(ln, lpn);
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				if (prio)
					udsp_apply_peer_ni_prio(ln, lpni);
				if (lists)
					udsp_apply_lists(ln, &p, lpni);
			}
		}
	}
	if (lists)
		udsp_pass_fini(ln, &p);
}

void lnet_udsp_apply_all(struct lnet *ln)
{
	udsp_apply_local(ln);
	udsp_apply_peers(ln, true, true);
}

void lnet_udsp_local_changed(struct lnet *ln)
{
	udsp_apply_peers(ln, false, true);
}

/* --- one rule ------------------------------------------------------------- */

/* Recompute peer NI @nid (if it still exists) for rule class @cls. */
static void udsp_recompute(struct lnet *ln, struct udsp_pass *p,
			   const struct lnet_nid *nid, u32 cls)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, nid);

	if (!lpni)
		return;		/* deleted since the object index was built */
	if (cls == UC_PEER_NET)
		lnet_udsp_apply_peer_net(ln, lpni->lpni_peer_net);
	else if (cls == UC_PEER_NI)
		udsp_apply_peer_ni_prio(ln, lpni);
	else
		udsp_apply_list(ln, p, lpni, cls);
}

/* Every peer NI that @e matches, found through the object index. */
static void udsp_recompute_matching(struct lnet *ln, struct udsp_pass *p,
				    const struct lnet_nidexpr *e, u32 cls)
{
	struct udsp_objs *o = lnet_udsp_of(ln)->us_index->ui_objs;
	const struct udsp_group *g;
	u32 lo, hi, i, k;

	lnet_udsp_expr_bounds(e, &lo, &hi);
	for (i = 0; i < o->uo_ngroups; i++) {
		g = &o->uo_groups[i];
		if (!lnet_nidexpr_match_net(e, g->ug_key))
			continue;
		for (k = g->ug_start; k < g->ug_start + g->ug_n; k++) {
			if (o->uo_keys[k] < lo || o->uo_keys[k] > hi ||
			    !lnet_nidexpr_match_nid(e, &o->uo_nids[k]))
				continue;
			udsp_recompute(ln, p, &o->uo_nids[k], cls);
		}
	}
}

/*
 * Only the objects rule @r matches can change when it comes, goes or gets
 * another priority: every other object is still decided by the rule that
 * decided it before.
 */
void lnet_udsp_rule_changed(struct lnet *ln, const struct lnet_udsp *r)
{
	const struct lnet_udsp_index *ix;
	u32 cls = lnet_udsp_class(&r->udsp_desc);
	struct udsp_pass p;
	bool lists = cls == UC_PAIR || cls == UC_ROUTER;

	if (cls == UC_LOCAL_NET || cls == UC_LOCAL_NI) {
		udsp_apply_local(ln);
		return;
	}
	lnet_udsp_objs_build(ln);
	ix = lnet_udsp_of(ln)->us_index;
	if (!ix || !ix->ui_objs) {
		lnet_udsp_apply_all(ln);
		return;
	}
	if (lists && udsp_pass_init_best(ln, &p))
		return;
	udsp_recompute_matching(ln, &p, lnet_udsp_class_expr(&r->udsp_desc, cls),
				cls);
	if (lists)
		udsp_pass_fini(ln, &p);
}

/* --- the explanation (udsp_explain.h) ----------------------------------------- */

struct lnet_udsp_probe {
	struct udsp_pass up;		/* no memo: up_mem unused */
};

int lnet_udsp_probe_new(struct lnet *ln, struct lnet_udsp_probe **out)
{
	struct lnet_udsp_probe *pr;
	u32 nnis, nroutes, most;

	udsp_pass_count(ln, &nnis, &nroutes);
	most = nnis > nroutes ? nnis : nroutes;
	pr = lnet_obj_alloc(ln, sizeof(*pr) +
			    (nnis + 2 * (size_t)most + 1) * sizeof(struct lnet_nid));
	if (!pr)
		return -ENOMEM;
	memset(pr, 0, sizeof(*pr));
	pr->up.up_nis = (struct lnet_nid *)(pr + 1);
	pr->up.up_gws = pr->up.up_nis + nnis;
	pr->up.up_out = pr->up.up_gws + most;
	udsp_pass_fill(ln, &pr->up);
	*out = pr;
	return 0;
}

void lnet_udsp_probe_free(struct lnet *ln, struct lnet_udsp_probe *pr)
{
	lnet_obj_free(ln, pr);
}

static void udsp_probe_object(struct udsp_match *m, struct lnet_udsp_probe *pr,
			      u32 cls, u32 net, const struct lnet_nid *nid)
{
	memset(m, 0, sizeof(*m));
	m->um_class = cls;
	m->um_net = net;
	m->um_nid = nid;
	m->um_key = nid ? lnet_udsp_nid_key(nid) : 0;
	m->um_pass = &pr->up;
}

bool lnet_udsp_probe_selects(struct lnet_udsp_probe *pr, const struct lnet_udsp *r,
			     u32 cls, u32 net, const struct lnet_nid *nid)
{
	struct udsp_match m;

	udsp_probe_object(&m, pr, cls, net, nid);
	return udsp_rule_selects(r, &m);
}

u32 lnet_udsp_probe_picks(struct lnet_udsp_probe *pr, const struct lnet_udsp *r,
			  u32 cls)
{
	return udsp_target_count(&pr->up, r, 0, cls);
}

bool lnet_udsp_rule_picks(const struct lnet_udsp *r, u32 cls, const struct lnet_nid *nid)
{
	return lnet_nidexpr_match_nid(udsp_target_expr(r, cls), nid);
}

const struct lnet_udsp *lnet_udsp_probe_first(struct lnet *ln, struct lnet_udsp_probe *pr,
					      u32 cls, u32 net,
					      const struct lnet_nid *nid)
{
	struct udsp_match m;
	u32 pos;

	udsp_probe_object(&m, pr, cls, net, nid);
	return udsp_first(ln, &m, &pos);
}

void lnet_udsp_probe_peer_ni(struct lnet *ln, struct lnet_udsp_probe *pr,
			     struct lnet_peer_ni *lpni)
{
	udsp_apply_peer_ni_prio(ln, lpni);
	udsp_apply_lists(ln, &pr->up, lpni);
}
