// SPDX-License-Identifier: GPL-2.0-only
/*
 * IOC_LNET_UDSP_MATCH (lnet_udsp.h): which rules decide a NID or a net,
 * and what they give it. Nothing here decides: whether a rule holds an
 * object, which rule decides it and what the object gets come from the
 * flattening's own code (udsp_explain.h), run on scratch objects that are
 * on no list, so that the answer cannot drift from what the engine does.
 */
#include "udsp_explain.h"

_Static_assert((int)LNET_UDSP_VAL_NET_PRIO == UC_LOCAL_NET &&
	       (int)LNET_UDSP_VAL_NI_PRIO == UC_LOCAL_NI &&
	       (int)LNET_UDSP_VAL_PEER_NET_PRIO == UC_PEER_NET &&
	       (int)LNET_UDSP_VAL_PEER_NI_PRIO == UC_PEER_NI &&
	       (int)LNET_UDSP_VAL_PREF_NIDS == UC_PAIR &&
	       (int)LNET_UDSP_VAL_PREF_RTRS == UC_ROUTER &&
	       (int)__LNET_UDSP_VAL_MAX == UC_MAX, "a value is the class of its rules");

#define V(v)	(1U << (v))

/* The values of each kind of object (the table of lnet_udsp.h). */
static const u32 udsp_kind_values[__LNET_UDSP_MATCH_KIND_MAX] = {
	[LNET_UDSP_MATCH_LOCAL_NI] = V(UC_LOCAL_NET) | V(UC_LOCAL_NI) | V(UC_PAIR),
	[LNET_UDSP_MATCH_PEER_NI] = V(UC_PEER_NET) | V(UC_PEER_NI) | V(UC_PAIR) |
				    V(UC_ROUTER),
	[LNET_UDSP_MATCH_NEW_PEER_NI] = V(UC_PEER_NET) | V(UC_PEER_NI) | V(UC_PAIR) |
					V(UC_ROUTER),
	[LNET_UDSP_MATCH_LOCAL_NET] = V(UC_LOCAL_NET) | V(UC_PEER_NET),
	[LNET_UDSP_MATCH_PEER_NET] = V(UC_PEER_NET),
};

/* The object asked about. */
struct udsp_obj {
	u32 kind;
	u32 net;
	const struct lnet_nid *nid;	/* NULL for a net */
};

static bool udsp_has(const struct udsp_obj *o, u32 cls)
{
	return udsp_kind_values[o->kind] & V(cls);
}

/* --- the request ------------------------------------------------------------ */

/* A NID that lnet_nid_parse() could have made: it prints and reads back. */
static bool udsp_nid_ok(const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];
	struct lnet_nid back;

	return lnet_nid_print(nid, buf, sizeof(buf)) > 0 &&
	       !lnet_nid_parse(buf, &back, NULL, 0) &&
	       !memcmp(&back, nid, sizeof(back));
}

static bool udsp_net_ok(u32 net)
{
	char buf[LNET_NET_STR_MAX];
	u32 back;

	return lnet_net_print(net, buf, sizeof(buf)) > 0 &&
	       !lnet_net_parse(buf, &back, NULL, 0) && back == net;
}

static int udsp_match_check(const struct lnet_ioc_udsp_match *m)
{
	static const struct lnet_nid zero;

	if (m->um_flags & ~__LNET_UDSP_MATCH_F_ALL)
		return -EINVAL;
	if (m->um_flags & LNET_UDSP_MATCH_F_NET)
		return udsp_net_ok(m->um_net) &&
		       !memcmp(&m->um_nid, &zero, sizeof(zero)) ? 0 : -EINVAL;
	return udsp_nid_ok(&m->um_nid) && !m->um_net ? 0 : -EINVAL;
}

static void udsp_obj_find(struct lnet *ln, const struct lnet_ioc_udsp_match *m,
			  struct udsp_obj *o)
{
	o->nid = NULL;
	if (m->um_flags & LNET_UDSP_MATCH_F_NET) {
		o->net = m->um_net;
		o->kind = lnet_net_find(ln, o->net) ? LNET_UDSP_MATCH_LOCAL_NET :
						       LNET_UDSP_MATCH_PEER_NET;
		return;
	}
	o->nid = &m->um_nid;
	o->net = lnet_nid_net(o->nid);
	if (lnet_ni_find(ln, o->nid))
		o->kind = LNET_UDSP_MATCH_LOCAL_NI;
	else if (lnet_peer_ni_find(ln, o->nid))
		o->kind = LNET_UDSP_MATCH_PEER_NI;
	else
		o->kind = LNET_UDSP_MATCH_NEW_PEER_NI;
}

/* --- the values, set on scratch objects ---------------------------------------- */

static void udsp_nids_out(struct lnet_nid *to, const struct lnet_nid *from, u32 n)
{
	if (n > LNET_PREF_MAX)
		n = LNET_PREF_MAX;
	if (n)
		memcpy(to, from, n * sizeof(*to));
}

/* A peer NI with the NID, on a peer net of its own: its priority and lists. */
static int udsp_peer_ni_values(struct lnet *ln, struct lnet_udsp_probe *pr,
			       const struct udsp_obj *o, struct lnet_ioc_udsp_match *m)
{
	struct lnet_peer_net lpn = { .lpn_net_id = o->net };
	struct lnet_peer_ni *lpni;

	/* the size of a peer NI's counters: off the kernel stack */
	lpni = lnet_obj_alloc(ln, sizeof(*lpni));
	if (!lpni)
		return -ENOMEM;
	memset(lpni, 0, sizeof(*lpni));
	lpni->lpni_nid = *o->nid;
	lpni->lpni_peer_net = &lpn;
	lnet_udsp_probe_peer_ni(ln, pr, lpni);
	m->um_value[UC_PEER_NI] = lpni->lpni_sel_priority;
	m->um_value[UC_PAIR] = lpni->lpni_npref;
	m->um_value[UC_ROUTER] = lpni->lpni_nrtr;
	udsp_nids_out(m->um_pref, lpni->lpni_pref_nids, lpni->lpni_npref);
	udsp_nids_out(m->um_rtr, lpni->lpni_rtr_nids, lpni->lpni_nrtr);
	lnet_obj_free(ln, lpni->lpni_pref_nids);
	lnet_obj_free(ln, lpni->lpni_rtr_nids);
	lnet_obj_free(ln, lpni);
	return 0;
}

/* A local NI with the NID, on a net of its own: its priority. */
static int udsp_ni_value(struct lnet *ln, struct lnet_net *net, const struct udsp_obj *o,
			 struct lnet_ioc_udsp_match *m)
{
	struct lnet_ni *ni;

	/* as a peer NI: off the kernel stack */
	ni = lnet_obj_alloc(ln, sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	memset(ni, 0, sizeof(*ni));
	ni->ni_nid = *o->nid;
	ni->ni_net = net;
	lnet_udsp_apply_ni(ln, ni);
	m->um_value[UC_LOCAL_NI] = ni->ni_sel_priority;
	lnet_obj_free(ln, ni);
	return 0;
}

static int udsp_values(struct lnet *ln, struct lnet_udsp_probe *pr,
		       const struct udsp_obj *o, struct lnet_ioc_udsp_match *m)
{
	struct lnet_net net = { .net_id = o->net };
	struct lnet_peer_net lpn = { .lpn_net_id = o->net };

	if (udsp_has(o, UC_LOCAL_NET)) {
		lnet_udsp_apply_net(ln, &net);
		m->um_value[UC_LOCAL_NET] = net.net_sel_priority;
	}
	if (udsp_has(o, UC_PEER_NET)) {
		lnet_udsp_apply_peer_net(ln, &lpn);
		m->um_value[UC_PEER_NET] = lpn.lpn_sel_priority;
	}
	if (udsp_has(o, UC_LOCAL_NI))
		return udsp_ni_value(ln, &net, o, m);
	if (udsp_has(o, UC_PEER_NI))
		return udsp_peer_ni_values(ln, pr, o, m);
	return 0;
}

static void udsp_winners(struct lnet *ln, struct lnet_udsp_probe *pr,
			 const struct udsp_obj *o, struct lnet_ioc_udsp_match *m)
{
	const struct lnet_udsp *r;
	u32 cls;

	for (cls = 0; cls < UC_MAX; cls++) {
		if (!udsp_has(o, cls) || (cls == UC_PAIR && o->kind == LNET_UDSP_MATCH_LOCAL_NI))
			continue;
		r = lnet_udsp_probe_first(ln, pr, cls, o->net, o->nid);
		if (r)
			m->um_winner[cls] = (s32)r->udsp_idx;
	}
}

/* --- the rules ----------------------------------------------------------------- */

/* Can rule @r (of class @cls) set a value of the object? */
static bool udsp_can_set(struct lnet_udsp_probe *pr, const struct lnet_udsp *r,
			 u32 cls, const struct udsp_obj *o)
{
	if (!udsp_has(o, cls))
		return false;
	if (cls == UC_PAIR && o->kind == LNET_UDSP_MATCH_LOCAL_NI)
		return lnet_udsp_rule_picks(r, cls, o->nid);
	return lnet_udsp_probe_selects(pr, r, cls, o->net, o->nid);
}

static void udsp_hits(struct lnet *ln, struct lnet_udsp_probe *pr,
		      const struct udsp_obj *o, struct lnet_ioc_udsp_match *m)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_ioc_udsp_hit *h;
	const struct lnet_udsp *r;
	u32 i, cls;

	for (i = m->um_first; i < us->us_count && m->um_nhits < LNET_UDSP_MATCH_HITS; i++) {
		r = lnet_udsp_get(ln, i);
		cls = lnet_udsp_class(&r->udsp_desc);
		if (!udsp_can_set(pr, r, cls, o))
			continue;
		h = &m->um_hits[m->um_nhits++];
		h->uh_idx = i;
		h->uh_value = (u8)cls;
		if ((cls == UC_PAIR || cls == UC_ROUTER) && o->kind != LNET_UDSP_MATCH_LOCAL_NI)
			h->uh_count = lnet_udsp_probe_picks(pr, r, cls);
		if (m->um_winner[cls] == (s32)i)
			h->uh_flags |= LNET_UDSP_HIT_F_WINS;
	}
	m->um_next = i < us->us_count ? i : us->us_count;
}

/*
 * A local NI as a source: the peer NIs whose preferred-source list the
 * flattening decides with a pair rule that picks the NID, counted on the
 * rule's hit when it is one of this reply's.
 */
static void udsp_source_of(struct lnet *ln, struct lnet_udsp_probe *pr,
			   const struct udsp_obj *o, struct lnet_ioc_udsp_match *m)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	const struct lnet_udsp *r;
	struct lnet_peer *lp;
	u32 n = 0, i;

	list_for_each_entry(lp, &ln->ln_peers, lp_list)
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
		r = lnet_udsp_probe_first(ln, pr, UC_PAIR, lpn->lpn_net_id,
					  &lpni->lpni_nid);
		if (!r || !lnet_udsp_rule_picks(r, UC_PAIR, o->nid))
			continue;
		if (n < LNET_PREF_MAX)
			m->um_pref[n] = lpni->lpni_nid;
		n++;
		for (i = 0; i < m->um_nhits; i++) {
			if (m->um_hits[i].uh_idx == r->udsp_idx) {
				m->um_hits[i].uh_count++;
				m->um_hits[i].uh_flags |= LNET_UDSP_HIT_F_WINS;
			}
		}
	}
	m->um_value[UC_PAIR] = n;
}

static int udsp_match_fill(struct lnet *ln, struct lnet_ioc_udsp_match *m)
{
	struct lnet_udsp_probe *pr;
	struct udsp_obj o;
	u32 cls;
	int rc;

	rc = lnet_udsp_probe_new(ln, &pr);
	if (rc)
		return rc;
	udsp_obj_find(ln, m, &o);
	m->um_kind = o.kind;
	m->um_total = lnet_udsp_of(ln)->us_count;
	for (cls = 0; cls < UC_MAX; cls++) {
		m->um_value[cls] = LNET_PRIORITY_UNSET;
		m->um_winner[cls] = -1;
	}
	rc = udsp_values(ln, pr, &o, m);
	if (!rc) {
		udsp_winners(ln, pr, &o, m);
		udsp_hits(ln, pr, &o, m);
		if (o.kind == LNET_UDSP_MATCH_LOCAL_NI)
			udsp_source_of(ln, pr, &o, m);
	}
	lnet_udsp_probe_free(ln, pr);
	return rc;
}

/* The out fields start zeroed: what a reply does not fill is 0. */
static void udsp_match_clear_out(struct lnet_ioc_udsp_match *m)
{
	size_t from = offsetof(struct lnet_ioc_udsp_match, um_kind);

	memset((u8 *)m + from, 0, sizeof(*m) - from);
}

/*
 * While rule changes are pending the engine has no index (lnet_udsp_flush()
 * builds it): the answer is what the rules in the list give, through an
 * index built for it alone and dropped after; no object changes.
 */
static int udsp_match_pending(struct lnet *ln, struct lnet_ioc_udsp_match *m)
{
	struct lnet_udsp_index *ix;
	int rc;

	rc = lnet_udsp_index_build(ln, NULL, &ix);
	if (rc)
		return rc;
	lnet_udsp_of(ln)->us_index = ix;
	rc = udsp_match_fill(ln, m);
	lnet_udsp_index_install(ln, NULL);	/* frees it */
	m->um_state |= LNET_UDSP_MATCH_S_PENDING;
	return rc;
}

int lnet_udsp_ioc_match(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp_match *m;
	int rc;

	if (len != sizeof(*m))
		return -EINVAL;
	/* ~1.8 KB: keep it off the kernel stack */
	m = lnet_obj_alloc(ln, sizeof(*m));
	if (!m)
		return -ENOMEM;
	memcpy(m, buf, sizeof(*m));
	rc = udsp_match_check(m);
	if (!rc) {
		udsp_match_clear_out(m);
		if (lnet_udsp_of(ln)->us_pending)
			rc = udsp_match_pending(ln, m);
		else
			rc = udsp_match_fill(ln, m);
	}
	if (!rc)
		memcpy(buf, m, sizeof(*m));
	lnet_obj_free(ln, m);
	return rc;
}

bool lnet_udsp_match_reserved_zero(const void *buf)
{
	const struct lnet_ioc_udsp_match *m = buf;

	return !m->um_reserved;
}
