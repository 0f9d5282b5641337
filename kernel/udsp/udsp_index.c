// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule index and the object index of the UDSP engine (see
 * udsp_priv.h for what they are and why).
 */
#include "udsp_priv.h"

u32 lnet_udsp_class(const struct lnet_udsp_desc *d)
{
	bool src = lnet_nidexpr_present(&d->src);
	bool dst = lnet_nidexpr_present(&d->dst);

	if (src && dst)
		return UC_PAIR;
	if (dst && lnet_nidexpr_present(&d->rte))
		return UC_ROUTER;
	if (src)
		return lnet_nidexpr_is_net(&d->src) ? UC_LOCAL_NET : UC_LOCAL_NI;
	return lnet_nidexpr_is_net(&d->dst) ? UC_PEER_NET : UC_PEER_NI;
}

const struct lnet_nidexpr *lnet_udsp_class_expr(const struct lnet_udsp_desc *d,
						u32 cls)
{
	return cls <= UC_LOCAL_NI ? &d->src : &d->dst;
}

u32 lnet_udsp_nid_key(const struct lnet_nid *nid)
{
	const u8 *a = nid->nid_addr;

	return (u32)a[0] << 24 | (u32)a[1] << 16 | (u32)a[2] << 8 | a[3];
}

/* Smallest lo and largest hi of list @l of @e. */
static void udsp_list_bounds(const struct lnet_nidexpr *e, u32 l, u32 *lo, u32 *hi)
{
	u32 first = 0, i;

	for (i = 0; i < l; i++)
		first += e->ne_count[i];
	*lo = e->ne_r[first].lo;
	*hi = e->ne_r[first].hi;
	for (i = first + 1; i < first + e->ne_count[l]; i++) {
		if (e->ne_r[i].lo < *lo)
			*lo = e->ne_r[i].lo;
		if (e->ne_r[i].hi > *hi)
			*hi = e->ne_r[i].hi;
	}
}

/*
 * Every address @e can match has its first 32 bits in [lo, hi]: each part
 * lies within its list's smallest lo and largest hi, so the whole lies
 * between those bounds put together (most significant part first).
 */
void lnet_udsp_expr_bounds(const struct lnet_nidexpr *e, u32 *lo, u32 *hi)
{
	u32 l, bits, parts, plo, phi;

	*lo = 0;
	*hi = ~0U;
	if (e->ne_kind == LNET_UDSP_KIND_IPV4) {
		bits = 8;
		parts = 4;
	} else if (e->ne_kind == LNET_UDSP_KIND_IPV6) {
		bits = 16;
		parts = 2;
	} else if (e->ne_kind == LNET_UDSP_KIND_NUM) {
		udsp_list_bounds(e, 1, lo, hi);
		return;
	} else {
		return;
	}
	*hi = 0;
	for (l = 1; l <= parts; l++) {
		udsp_list_bounds(e, l, &plo, &phi);
		*lo = *lo << bits | plo;
		*hi = *hi << bits | phi;
	}
}

struct udsp_group *lnet_udsp_group_get(struct udsp_group *slots, u32 nslots,
				       u32 key, bool create)
{
	u32 i = (key * 0x9e3779b1U) & (nslots - 1);

	while (slots[i].ug_used) {
		if (slots[i].ug_key == key)
			return &slots[i];
		i = (i + 1) & (nslots - 1);
	}
	if (!create)
		return NULL;
	slots[i].ug_used = 1;
	slots[i].ug_key = key;
	return &slots[i];
}

static u32 udsp_slots_for(u32 n)
{
	u32 nslots = 8;

	while (nslots < 2 * n)
		nslots <<= 1;
	return nslots;
}

/* --- rule index -------------------------------------------------------------- */

static u32 udsp_rule_key(const struct lnet_udsp *r)
{
	u32 cls = lnet_udsp_class(&r->udsp_desc);
	const struct lnet_nidexpr *e = lnet_udsp_class_expr(&r->udsp_desc, cls);

	if (e->ne_count[0] == 1 && e->ne_r[0].lo == e->ne_r[0].hi)
		return cls << UDSP_KEY_CLASS | LNET_NET_ID(e->ne_lnd, e->ne_r[0].lo);
	return cls << UDSP_KEY_CLASS | UDSP_KEY_MULTI | e->ne_lnd;
}

static struct lnet_udsp_index *udsp_index_alloc(struct lnet *ln, u32 nrules)
{
	struct lnet_udsp_index *ix;
	u32 nslots = udsp_slots_for(nrules);

	ix = lnet_obj_alloc(ln, sizeof(*ix) + nslots * sizeof(struct udsp_group) +
				nrules * sizeof(struct udsp_entry));
	if (!ix)
		return NULL;
	ix->ui_nslots = nslots;
	ix->ui_nrules = nrules;
	ix->ui_slots = (struct udsp_group *)(ix + 1);
	ix->ui_ents = (struct udsp_entry *)(ix->ui_slots + nslots);
	return ix;
}

static void udsp_index_count(struct lnet_udsp_index *ix, const struct lnet_udsp *r)
{
	u32 key = udsp_rule_key(r), cls = lnet_udsp_class(&r->udsp_desc);

	lnet_udsp_group_get(ix->ui_slots, ix->ui_nslots, key, true)->ug_n++;
	ix->ui_class_n[cls]++;
	if (key & UDSP_KEY_MULTI)
		ix->ui_multi_lnds[cls] |= 1U << (key & 31);
}

static void udsp_index_fill(struct lnet_udsp_index *ix, struct lnet_udsp *r)
{
	u32 cls = lnet_udsp_class(&r->udsp_desc);
	struct udsp_group *g;
	struct udsp_entry *e;

	g = lnet_udsp_group_get(ix->ui_slots, ix->ui_nslots, udsp_rule_key(r), false);
	e = &ix->ui_ents[g->ug_start + g->ug_n++];
	e->ue_rule = r;
	e->ue_idx = r->udsp_idx;
	lnet_udsp_expr_bounds(lnet_udsp_class_expr(&r->udsp_desc, cls),
			      &e->ue_lo, &e->ue_hi);
}

/*
 * Plan the buckets of group @g: as many as entries (a power of two, or
 * fewer when the bounds span less), and give up when the entries would
 * be copied into too many buckets (wide bounds): that group is scanned.
 * Returns the bucket entries needed, 0 for none.
 */
static u32 udsp_group_plan(const struct lnet_udsp_index *ix, struct udsp_group *g)
{
	const struct udsp_entry *e = ix->ui_ents + g->ug_start;
	u32 min = ~0U, max = 0, nb = 1, shift = 0, k;
	u64 span, total = 0;

	g->ug_nb = 0;
	if (g->ug_n < UDSP_BUCKET_MIN)
		return 0;
	for (k = 0; k < g->ug_n; k++) {
		if (e[k].ue_lo < min)
			min = e[k].ue_lo;
		if (e[k].ue_hi > max)
			max = e[k].ue_hi;
	}
	while (nb < g->ug_n)
		nb <<= 1;
	span = (u64)max - min;
	while ((span >> shift) >= nb)
		shift++;
	for (k = 0; k < g->ug_n; k++)
		total += ((e[k].ue_hi - min) >> shift) - ((e[k].ue_lo - min) >> shift) + 1;
	if (total > 4 * (u64)g->ug_n + 64)
		return 0;
	g->ug_min = min;
	g->ug_max = max;
	g->ug_shift = shift;
	g->ug_nb = (u32)(span >> shift) + 1;
	return (u32)total;
}

/* Fill the buckets of planned group @g, whose starts begin at @base. */
static void udsp_group_fill(struct lnet_udsp_index *ix, struct udsp_group *g,
			    u32 base)
{
	u32 *st = ix->ui_bstart + g->ug_boff, k, b, first, last;
	const struct udsp_entry *e = ix->ui_ents + g->ug_start;

	for (k = 0; k < g->ug_n; k++)
		for (b = (e[k].ue_lo - g->ug_min) >> g->ug_shift;
		     b <= (e[k].ue_hi - g->ug_min) >> g->ug_shift; b++)
			st[b + 1]++;
	st[0] = base;
	for (b = 0; b < g->ug_nb; b++)
		st[b + 1] += st[b];
	/* st[b] is a cursor while filling, then shifted back to the start */
	for (k = 0; k < g->ug_n; k++) {
		first = (e[k].ue_lo - g->ug_min) >> g->ug_shift;
		last = (e[k].ue_hi - g->ug_min) >> g->ug_shift;
		for (b = first; b <= last; b++)
			ix->ui_bpos[st[b]++] = g->ug_start + k;
	}
	for (b = g->ug_nb; b > 0; b--)
		st[b] = st[b - 1];
	st[0] = base;
}

/* Buckets for the big groups; without memory every group is scanned. */
static void udsp_index_buckets(struct lnet *ln, struct lnet_udsp_index *ix)
{
	u32 i, nstart = 0, npos = 0, base = 0;
	struct udsp_group *g;

	for (i = 0; i < ix->ui_nslots; i++) {
		g = &ix->ui_slots[i];
		if (!g->ug_used)
			continue;
		npos += udsp_group_plan(ix, g);
		if (g->ug_nb) {
			g->ug_boff = nstart;
			nstart += g->ug_nb + 1;
		}
	}
	if (!nstart)
		return;
	ix->ui_bmem = lnet_obj_alloc(ln, (nstart + npos) * sizeof(u32));
	if (!ix->ui_bmem) {
		for (i = 0; i < ix->ui_nslots; i++)
			ix->ui_slots[i].ug_nb = 0;
		return;
	}
	ix->ui_bstart = ix->ui_bmem;
	ix->ui_bpos = ix->ui_bstart + nstart;
	for (i = 0; i < ix->ui_nslots; i++) {
		g = &ix->ui_slots[i];
		if (!g->ug_used || !g->ug_nb)
			continue;
		udsp_group_fill(ix, g, base);
		base = ix->ui_bstart[g->ug_boff + g->ug_nb];
	}
}

int lnet_udsp_index_build(struct lnet *ln, const struct lnet_udsp *skip,
			  struct lnet_udsp_index **out)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	u32 n, start = 0, i;

	*out = NULL;
	n = us->us_count - (skip != NULL);
	if (!n)
		return 0;
	ix = udsp_index_alloc(ln, n);
	if (!ix)
		return -ENOMEM;
	/* count the rules of each group, then hand out ranges, then fill */
	for (i = 0; i < us->us_count; i++)
		if (us->us_rules[i] != skip)
			udsp_index_count(ix, us->us_rules[i]);
	for (i = 0; i < ix->ui_nslots; i++) {
		ix->ui_slots[i].ug_start = start;
		start += ix->ui_slots[i].ug_n;
		ix->ui_slots[i].ug_n = 0;
	}
	for (i = 0; i < us->us_count; i++)
		if (us->us_rules[i] != skip)
			udsp_index_fill(ix, us->us_rules[i]);
	udsp_index_buckets(ln, ix);
	*out = ix;
	return 0;
}

void lnet_udsp_index_install(struct lnet *ln, struct lnet_udsp_index *ix)
{
	struct lnet_udsp_index *old = lnet_udsp_of(ln)->us_index;

	if (old) {
		if (ix) {
			ix->ui_objs = old->ui_objs;
			old->ui_objs = NULL;
		} else {
			lnet_udsp_objs_drop(ln);
		}
		lnet_obj_free(ln, old->ui_bmem);
		lnet_obj_free(ln, old);
	}
	lnet_udsp_of(ln)->us_index = ix;
}

/* --- object index ------------------------------------------------------------ */

void lnet_udsp_objs_drop(struct lnet *ln)
{
	struct lnet_udsp_index *ix = lnet_udsp_of(ln)->us_index;

	if (!ix || !ix->ui_objs)
		return;
	lnet_obj_free(ln, ix->ui_objs);
	ix->ui_objs = NULL;
}

static struct udsp_objs *udsp_objs_alloc(struct lnet *ln, u32 nlpn, u32 nlpni,
					 u32 *nslots)
{
	struct udsp_objs *o;

	*nslots = udsp_slots_for(nlpn);
	o = lnet_obj_alloc(ln, sizeof(*o) + *nslots * sizeof(struct udsp_group) +
			       nlpni * (sizeof(u32) + sizeof(struct lnet_nid)));
	if (!o)
		return NULL;
	o->uo_groups = (struct udsp_group *)(o + 1);
	o->uo_nids = (struct lnet_nid *)(o->uo_groups + *nslots);
	o->uo_keys = (u32 *)(o->uo_nids + nlpni);
	return o;
}

/* Count (@fill false) or place (@fill true) every peer NI by its net. */
static void udsp_objs_walk(struct lnet *ln, struct udsp_objs *o, u32 nslots,
			   bool fill)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct udsp_group *g;
	u32 at;

	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			g = lnet_udsp_group_get(o->uo_groups, nslots,
						lpn->lpn_net_id, !fill);
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				at = g->ug_start + g->ug_n++;
				if (!fill)
					continue;
				o->uo_nids[at] = lpni->lpni_nid;
				o->uo_keys[at] = lnet_udsp_nid_key(&lpni->lpni_nid);
			}
		}
}

void lnet_udsp_objs_build(struct lnet *ln)
{
	struct lnet_udsp_index *ix = lnet_udsp_of(ln)->us_index;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct udsp_objs *o;
	u32 nlpn = 0, nlpni = 0, nslots, i, start = 0;

	if (!ix || ix->ui_objs)
		return;
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			nlpn++;
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				nlpni++;
		}
	o = udsp_objs_alloc(ln, nlpn, nlpni, &nslots);
	if (!o)
		return;
	udsp_objs_walk(ln, o, nslots, false);
	for (i = 0; i < nslots; i++) {
		o->uo_groups[i].ug_start = start;
		start += o->uo_groups[i].ug_n;
		o->uo_groups[i].ug_n = 0;
	}
	udsp_objs_walk(ln, o, nslots, true);
	/* keep only the used groups, at the front */
	for (i = 0; i < nslots; i++)
		if (o->uo_groups[i].ug_used)
			o->uo_groups[o->uo_ngroups++] = o->uo_groups[i];
	ix->ui_objs = o;
}
