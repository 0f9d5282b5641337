// SPDX-License-Identifier: GPL-2.0-only
/*
 * Peers, peer nets and peer NIs. A peer is known by its primary NID (its
 * first NI); its NIs are grouped by net. A NID belongs to at most one peer
 * and is never also a local NI's NID. Non-multi-rail peers have exactly one
 * NI. Every peer NI is in the NID hash (hash.c).
 */
#include "lnet_priv.h"
#include "validate.h"

struct lnet_peer *lnet_peer_find(struct lnet *ln, const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_lpni_hash_find(ln, nid);

	return lpni ? lpni->lpni_peer_net->lpn_peer : NULL;
}

struct lnet_peer_ni *lnet_peer_ni_find(struct lnet *ln, const struct lnet_nid *nid)
{
	return lnet_lpni_hash_find(ln, nid);
}

static struct lnet_peer_net *lnet_peer_net_find(struct lnet_peer *lp, u32 net_id)
{
	struct lnet_peer_net *lpn;

	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		if (lpn->lpn_net_id == net_id)
			return lpn;
	return NULL;
}

/* The tunables of the local net @net_id (its first NI), or NULL. */
static const struct lnet_ni_tunables *lnet_peer_net_tun(struct lnet *ln, u32 net_id)
{
	struct lnet_net *net = lnet_net_find(ln, net_id);

	if (!net || list_empty(&net->net_nis))
		return NULL;
	return &list_first_entry(&net->net_nis, struct lnet_ni, ni_list)->ni_tun;
}

/* Credits towards a peer come from the local net's peer_credits tunable. */
static u32 lnet_peer_credits(struct lnet *ln, u32 net_id)
{
	const struct lnet_ni_tunables *t = lnet_peer_net_tun(ln, net_id);

	return t ? (u32)t->peer_credits : LNET_TUN_PEER_CREDITS_DEF;
}

/* Router credits: peer_buffer_credits, or peer_credits when that is 0 (Lustre). */
static s32 lnet_peer_rtr_credits(struct lnet *ln, u32 net_id)
{
	const struct lnet_ni_tunables *t = lnet_peer_net_tun(ln, net_id);

	if (t && t->peer_buffer_credits > 0)
		return t->peer_buffer_credits;
	return (s32)lnet_peer_credits(ln, net_id);
}

static struct lnet_peer_net *lnet_peer_net_get(struct lnet *ln,
					       struct lnet_peer *lp, u32 net_id,
					       bool *created)
{
	struct lnet_peer_net *lpn = lnet_peer_net_find(lp, net_id);

	*created = false;
	if (lpn)
		return lpn;
	lpn = lnet_obj_alloc(ln, sizeof(*lpn));
	if (!lpn)
		return NULL;
	lpn->lpn_peer = lp;
	lpn->lpn_net_id = net_id;
	lpn->lpn_sel_priority = LNET_PRIORITY_UNSET;
	INIT_LIST_HEAD(&lpn->lpn_peer_nis);
	list_add_tail(&lpn->lpn_list, &lp->lp_peer_nets);
	*created = true;
	return lpn;
}

static void lnet_peer_net_free(struct lnet *ln, struct lnet_peer_net *lpn)
{
	list_del(&lpn->lpn_list);
	lnet_obj_free(ln, lpn);
}

/* Attach a new NI @nid to @lp (checks already done). 0 or -ENOMEM. */
static int lnet_peer_attach_ni(struct lnet *ln, struct lnet_peer *lp,
			       const struct lnet_nid *nid)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	bool new_lpn;

	lpn = lnet_peer_net_get(ln, lp, lnet_nid_net(nid), &new_lpn);
	if (!lpn)
		return -ENOMEM;
	lpni = lnet_obj_alloc(ln, sizeof(*lpni));
	if (!lpni) {
		if (new_lpn)
			lnet_peer_net_free(ln, lpn);
		return -ENOMEM;
	}
	lpni->lpni_peer_net = lpn;
	lpni->lpni_nid = *nid;
	lpni->lpni_sel_priority = LNET_PRIORITY_UNSET;
	lpni->lpni_state = LNET_NI_STATUS_UP;
	lpni->lpni_max_tx_credits = lnet_peer_credits(ln, lpn->lpn_net_id);
	lpni->lpni_tx_credits = lpni->lpni_max_tx_credits;
	lpni->lpni_min_tx_credits = lpni->lpni_tx_credits;
	lpni->lpni_rtr_credits = lnet_peer_rtr_credits(ln, lpn->lpn_net_id);
	lpni->lpni_min_rtr_credits = lpni->lpni_rtr_credits;
	INIT_LIST_HEAD(&lpni->lpni_txq);
	INIT_LIST_HEAD(&lpni->lpni_rtrq);
	lnet_health_init(&lpni->lpni_health, LNET_KIND_PEER_NI);
	list_add_tail(&lpni->lpni_list, &lpn->lpn_peer_nis);
	lnet_lpni_hash_insert(ln, lpni);
	lp->lp_nnis++;
	ln->ln_iter_peer = NULL;
	if (new_lpn)
		lnet_hook(ln, peer_net_added, lpn);
	lnet_hook(ln, peer_ni_added, lpni);
	return 0;
}

static void lnet_peer_ni_free(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	struct lnet_peer_net *lpn = lpni->lpni_peer_net;

	lnet_lpni_hash_remove(ln, lpni);
	list_del(&lpni->lpni_list);
	lpn->lpn_peer->lp_nnis--;
	ln->ln_iter_peer = NULL;
	/* its waiting messages fail (run by the caller), none points at it */
	lnet_txq_fail(ln, NULL, lpni, -EHOSTUNREACH);
	lnet_msgs_forget_peer_ni(ln, lpni);
	/* no recovery ping for it any more: the monitor must not see it */
	lnet_health_fini(&lpni->lpni_health);
	lnet_obj_free(ln, lpni->lpni_pref_nids);
	lnet_obj_free(ln, lpni->lpni_rtr_nids);
	lnet_obj_free(ln, lpni);
	if (list_empty(&lpn->lpn_peer_nis))
		lnet_peer_net_free(ln, lpn);
}

static void lnet_peer_free(struct lnet *ln, struct lnet_peer *lp)
{
	/* Freeing a peer net's last NI frees the peer net: restart each time. */
	while (!list_empty(&lp->lp_peer_nets)) {
		struct lnet_peer_net *lpn;

		lpn = list_first_entry(&lp->lp_peer_nets, struct lnet_peer_net,
				       lpn_list);
		lnet_peer_ni_free(ln, list_first_entry(&lpn->lpn_peer_nis,
						       struct lnet_peer_ni,
						       lpni_list));
	}
	list_del(&lp->lp_list);
	ln->ln_iter_peer = NULL;
	lnet_obj_free(ln, lp);
}

/* A new peer whose first NI is @prim (checks already done). */
struct lnet_peer *lnet_peer_create(struct lnet *ln, const struct lnet_nid *prim,
				   u32 flags)
{
	struct lnet_peer *lp = lnet_obj_alloc(ln, sizeof(*lp));

	if (!lp)
		return NULL;
	lp->lp_primary_nid = *prim;
	lp->lp_flags = flags;
	lp->lp_self = lnet_ni_find(ln, prim) != NULL;
	INIT_LIST_HEAD(&lp->lp_peer_nets);
	list_add_tail(&lp->lp_list, &ln->ln_peers);
	if (lnet_peer_attach_ni(ln, lp, prim)) {
		list_del(&lp->lp_list);
		ln->ln_iter_peer = NULL;
		lnet_obj_free(ln, lp);
		return NULL;
	}
	return lp;
}

/*
 * A NID the peer of primary @prim may have: not zero, not lo; one of our
 * own NIDs exactly when the peer is this node (see lp_self): a NID names
 * one node.
 */
static int lnet_peer_nid_check(struct lnet *ln, const struct lnet_nid *prim,
			       const struct lnet_nid *nid)
{
	struct lnet_peer *lp = lnet_peer_find(ln, prim);
	bool self = lp ? lp->lp_self : lnet_ni_find(ln, prim) != NULL;

	if (lnet_nid_is_zero(nid) || lnet_nid_is_lo(nid))
		return -EINVAL;
	if (self != (lnet_ni_find(ln, nid) != NULL))
		return -EADDRINUSE;
	return 0;
}

/* Only the peer itself: exists with the same flags = nothing to do. */
static int lnet_peer_add_alone(struct lnet *ln, const struct lnet_nid *prim,
			       u32 flags)
{
	struct lnet_peer *lp = lnet_peer_find(ln, prim);

	if (!lp) {
		lp = lnet_peer_create(ln, prim, flags);
		if (!lp)
			return -ENOMEM;
		lp->lp_state |= LNET_PEER_S_CONFIGURED;
		return 0;
	}
	if (!lnet_nid_equal(&lp->lp_primary_nid, prim) || lp->lp_flags != flags)
		return -EEXIST;
	return 0;
}

int lnet_peer_ni_add(struct lnet *ln, const struct lnet_nid *prim,
		     const struct lnet_nid *nid, u32 flags)
{
	struct lnet_peer *lp;
	int rc;

	rc = lnet_peer_add_check(prim, nid, flags, NULL);
	if (rc)
		return rc;
	rc = lnet_peer_nid_check(ln, prim, prim);
	if (rc)
		return rc;
	if (!nid || lnet_nid_is_zero(nid) || lnet_nid_equal(nid, prim))
		return lnet_peer_add_alone(ln, prim, flags);
	rc = lnet_peer_nid_check(ln, prim, nid);
	if (rc)
		return rc;
	if (lnet_peer_ni_find(ln, nid))
		return -EEXIST;
	lp = lnet_peer_find(ln, prim);
	if (lp && !lnet_nid_equal(&lp->lp_primary_nid, prim))
		return -EEXIST;		/* @prim is another peer's NI */
	if (lp && (lp->lp_flags & LNET_PEER_F_NON_MR))
		return -EMLINK;		/* an existing non-MR peer has one NI */
	if (lp && lp->lp_nnis >= LNET_PEER_MAX_NIS)
		return -ENOSPC;
	if (!lp) {
		lp = lnet_peer_create(ln, prim, flags);
		if (!lp)
			return -ENOMEM;
		lp->lp_state |= LNET_PEER_S_CONFIGURED;
		rc = lnet_peer_attach_ni(ln, lp, nid);
		if (rc)
			lnet_peer_free(ln, lp);
		return rc;
	}
	return lnet_peer_attach_ni(ln, lp, nid);
}

/* Delete a whole peer, with the routes that use it as their gateway. */
static void lnet_peer_delete(struct lnet *ln, struct lnet_peer *lp)
{
	bool had_routes = lnet_routes_del_gateway(ln, lp);

	lnet_peer_free(ln, lp);
	if (had_routes)
		lnet_hook(ln, local_changed);
}

static int lnet_peer_ni_del_locked(struct lnet *ln, const struct lnet_nid *prim,
				   const struct lnet_nid *nid, u32 flags)
{
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	if (flags & ~(u32)LNET_PEER_F_FORCE)
		return -EINVAL;
	if (lnet_nid_is_zero(prim))
		return -EINVAL;
	lp = lnet_peer_find(ln, prim);
	if (!lp)
		return -ENOENT;
	if (!nid || lnet_nid_is_zero(nid) ||
	    lnet_nid_equal(nid, &lp->lp_primary_nid)) {
		if ((lp->lp_flags & LNET_PEER_F_LOCK_PRIM) &&
		    !(flags & LNET_PEER_F_FORCE))
			return -EBUSY;
		lnet_peer_delete(ln, lp);
		return 0;
	}
	lpni = lnet_peer_ni_find(ln, nid);
	if (!lpni || lpni->lpni_peer_net->lpn_peer != lp)
		return -ENXIO;		/* the peer exists, this NID is not its */
	lnet_peer_ni_free(ln, lpni);
	return 0;
}

int lnet_peer_ni_del(struct lnet *ln, const struct lnet_nid *prim,
		     const struct lnet_nid *nid, u32 flags)
{
	int rc = lnet_peer_ni_del_locked(ln, prim, nid, flags);

	/* the messages that waited for the deleted peer NIs' credits */
	lnet_finalize_run(ln);
	return rc;
}

void lnet_peers_destroy(struct lnet *ln)
{
	struct lnet_peer *lp, *tmp;

	list_for_each_entry_safe(lp, tmp, &ln->ln_peers, lp_list)
		lnet_peer_free(ln, lp);
	lnet_finalize_run(ln);
}

bool lnet_nid_of_other_node(struct lnet *ln, const struct lnet_nid *nid)
{
	const struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, nid);

	return lpni && !lpni->lpni_peer_net->lpn_peer->lp_self;
}

struct lnet_peer_ni *lnet_peer_ni_get_or_create(struct lnet *ln,
						const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, nid);

	if (lpni)
		return lpni;
	/* traffic never makes this node its own peer: only discover does */
	if (lnet_ni_find(ln, nid) || lnet_peer_nid_check(ln, nid, nid))
		return NULL;
	/* known from traffic only: not LNET_PEER_S_CONFIGURED */
	if (!lnet_peer_create(ln, nid, 0))
		return NULL;
	return lnet_peer_ni_find(ln, nid);
}

/* Replace *@list (*@cnt entries, room *@cap) with a copy of @nids. */
static int lnet_nid_list_set(struct lnet *ln, struct lnet_nid **list,
			     u32 *cnt, u32 *cap,
			     const struct lnet_nid *nids, u32 n)
{
	struct lnet_nid *copy = NULL;

	if (n > *cap) {
		copy = lnet_obj_alloc(ln, (size_t)n * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		lnet_obj_free(ln, *list);
		*list = copy;
		*cap = n;
	}
	if (n && *list != nids)
		memcpy(*list, nids, (size_t)n * sizeof(*nids));
	*cnt = n;
	return 0;
}

int lnet_peer_ni_set_pref(struct lnet *ln, struct lnet_peer_ni *lpni,
			  const struct lnet_nid *nids, u32 n)
{
	return lnet_nid_list_set(ln, &lpni->lpni_pref_nids, &lpni->lpni_npref,
				 &lpni->lpni_pref_cap, nids, n);
}

int lnet_peer_ni_set_rtr(struct lnet *ln, struct lnet_peer_ni *lpni,
			 const struct lnet_nid *nids, u32 n)
{
	return lnet_nid_list_set(ln, &lpni->lpni_rtr_nids, &lpni->lpni_nrtr,
				 &lpni->lpni_rtr_cap, nids, n);
}
