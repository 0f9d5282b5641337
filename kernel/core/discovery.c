// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discovery: learn a peer's NIs from its ping info and make our peer hold
 * exactly those, under one primary NID; then push our own ping info to it
 * so that it learns ours. A push received from a peer updates that peer
 * the same way. Peer NIs are added with lnet_peer_ni_add(), so the UDSP
 * rules apply to them as to configured ones.
 */
#include "ping_priv.h"

/*
 * A peer's NIDs as the ping info lists them (no 0@lo; for another node
 * none of ours, for this node only ours).
 */
struct lnet_nid_set {
	u32 n;
	struct lnet_nid nids[LNET_PEER_MAX_NIS];
	bool down[LNET_PEER_MAX_NIS];
};

static bool lnet_nid_set_has(const struct lnet_nid_set *s,
			     const struct lnet_nid *nid)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		if (lnet_nid_equal(&s->nids[i], nid))
			return true;
	return false;
}

static void lnet_nid_set_from_ping(struct lnet *ln, struct lnet_nid_set *s,
				   const struct lnet_ping_info *pi, bool self)
{
	bool status = pi->pi_features & LNET_PING_FEAT_NI_STATUS;
	u32 i;

	s->n = 0;
	for (i = 0; i < pi->pi_nnis && s->n < LNET_PEER_MAX_NIS; i++) {
		const struct lnet_ping_ni *p = &pi->pi_ni[i];

		if (lnet_nid_is_zero(&p->ns_nid) || lnet_nid_is_lo(&p->ns_nid) ||
		    self != (lnet_ni_find(ln, &p->ns_nid) != NULL) ||
		    lnet_nid_set_has(s, &p->ns_nid))
			continue;
		s->down[s->n] = status && p->ns_status == LNET_NI_STATUS_DOWN_WIRE;
		s->nids[s->n++] = p->ns_nid;
	}
}

/*
 * The primary, as Lustre chooses it: the peer's own first NID (the first
 * its ping info lists after 0@lo), so that a node is known by the same NID
 * whichever of its interfaces reached us first; unless the admin locked
 * the primary (peer add --lock_prim) and it is still listed. This node as
 * its own peer (a ping of one of our NIDs) keeps the NID it was made by,
 * as Lustre's does: no discovery chose it.
 */
static struct lnet_nid lnet_merge_primary(struct lnet *ln,
					  const struct lnet_nid *nid,
					  const struct lnet_nid_set *s)
{
	struct lnet_peer *lp = lnet_peer_find(ln, nid);
	bool self = lnet_ni_find(ln, nid) != NULL;
	u32 i;

	if (self && lp && lnet_nid_set_has(s, &lp->lp_primary_nid))
		return lp->lp_primary_nid;
	if (self && lnet_nid_set_has(s, nid))
		return *nid;
	/* a locked primary among the NIDs, whichever peer holds it now */
	for (i = 0; i < s->n; i++) {
		lp = lnet_peer_find(ln, &s->nids[i]);
		if (lp && (lp->lp_flags & LNET_PEER_F_LOCK_PRIM) &&
		    lnet_nid_equal(&lp->lp_primary_nid, &s->nids[i]))
			return s->nids[i];
	}
	return s->nids[0];
}

/* State and flags that a merged peer keeps from one that goes. */
static void lnet_merge_keep(const struct lnet_peer *lp, u32 *state, u32 *flags)
{
	*state |= lp->lp_state & LNET_PEER_S_CONFIGURED;
	*flags |= lp->lp_flags & LNET_PEER_F_NON_MR;
}

/*
 * Take every NID of @s away from the peers other than @prim's; a peer
 * whose primary is taken goes whole (its other NIs are not in @s, or are
 * re-added under @prim). Its state and flags carry over to @prim's peer.
 */
static void lnet_merge_take_nids(struct lnet *ln, const struct lnet_nid *prim,
				 const struct lnet_nid_set *s, u32 *state,
				 u32 *flags)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		struct lnet_peer *q = lnet_peer_find(ln, &s->nids[i]);
		struct lnet_nid qprim;

		if (!q || lnet_nid_equal(&q->lp_primary_nid, prim))
			continue;
		qprim = q->lp_primary_nid;
		if (lnet_nid_equal(&qprim, &s->nids[i])) {
			lnet_merge_keep(q, state, flags);
			lnet_peer_ni_del(ln, &qprim, NULL, LNET_PEER_F_FORCE);
		} else {
			lnet_peer_ni_del(ln, &qprim, &s->nids[i], 0);
		}
	}
}

/* Delete the NIs of @lp that @s does not list (except the primary). */
static void lnet_merge_drop_stale(struct lnet *ln, struct lnet_peer *lp,
				  const struct lnet_nid_set *s)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_nid prim = lp->lp_primary_nid;
	bool again = true;

	/* A deletion may free the peer net being walked: restart after one. */
	while (again) {
		again = false;
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				struct lnet_nid nid = lpni->lpni_nid;

				if (lnet_nid_equal(&nid, &prim) ||
				    lnet_nid_set_has(s, &nid))
					continue;
				lnet_peer_ni_del(ln, &prim, &nid, 0);
				again = true;
				break;
			}
			if (again)
				break;
		}
	}
}

static int lnet_merge_add_nids(struct lnet *ln, const struct lnet_nid *prim,
			       const struct lnet_nid_set *s, u32 flags)
{
	u32 i;
	int rc;

	if (!lnet_peer_find(ln, prim)) {
		rc = lnet_peer_ni_add(ln, prim, NULL, flags);
		if (rc)
			return rc;
	}
	for (i = 0; i < s->n; i++) {
		struct lnet_peer_ni *lpni;

		if (!lnet_peer_ni_find(ln, &s->nids[i])) {
			rc = lnet_peer_ni_add(ln, prim, &s->nids[i], 0);
			/*
			 * A non-MR peer keeps one NI (EMLINK), our own NIDs
			 * (EADDRINUSE) and bad NIDs (EINVAL) are left out,
			 * the rest still merge.
			 */
			if (rc && rc != -EINVAL && rc != -EMLINK &&
			    rc != -EADDRINUSE && rc != -ENOSPC)
				return rc;
		}
		lpni = lnet_peer_ni_find(ln, &s->nids[i]);
		if (lpni)
			lpni->lpni_state = s->down[i] ? LNET_NI_STATUS_DOWN :
				LNET_NI_STATUS_UP;
	}
	return 0;
}

static int lnet_peer_merge_set(struct lnet *ln, const struct lnet_nid *nid,
			       const struct lnet_nid_set *s, u32 features,
			       struct lnet_nid *primary)
{
	struct lnet_nid prim = lnet_merge_primary(ln, nid, s);
	struct lnet_peer *lp = lnet_peer_find(ln, nid);
	u32 state = 0, flags = 0;
	int rc;

	if (lp && !lnet_nid_equal(&lp->lp_primary_nid, &prim)) {
		/* its primary is no longer listed: the peer is rebuilt */
		struct lnet_nid old = lp->lp_primary_nid;

		lnet_merge_keep(lp, &state, &flags);
		lnet_peer_ni_del(ln, &old, NULL, LNET_PEER_F_FORCE);
	}
	lp = lnet_peer_find(ln, &prim);
	if (lp && lnet_nid_equal(&lp->lp_primary_nid, &prim)) {
		state |= lp->lp_state;
		flags |= lp->lp_flags;
	}
	lnet_merge_take_nids(ln, &prim, s, &state, &flags);
	lp = lnet_peer_find(ln, &prim);
	if (lp)
		lnet_merge_drop_stale(ln, lp, s);
	rc = lnet_merge_add_nids(ln, &prim, s, flags &
				 (LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM));
	lp = lnet_peer_find(ln, &prim);
	if (!lp)
		return rc ? rc : -ENOMEM;
	/*
	 * lnet_peer_ni_add() marks a peer it creates CONFIGURED (the admin's
	 * way in): a peer discovery created keeps it only when the admin's
	 * peer it replaces had it (@state holds what the old peers had).
	 */
	lp->lp_state &= ~LNET_PEER_S_CONFIGURED;
	lp->lp_state |= state | LNET_PEER_S_DISCOVERED | LNET_PEER_S_NIDS_UPTODATE;
	if (features & LNET_PING_FEAT_MULTI_RAIL)
		lp->lp_state |= LNET_PEER_S_MULTI_RAIL;
	else
		lp->lp_state &= ~LNET_PEER_S_MULTI_RAIL;
	*primary = prim;
	return rc;
}

int lnet_peer_merge_ping(struct lnet *ln, const struct lnet_nid *nid,
			 const struct lnet_ping_info *pi,
			 struct lnet_nid *primary)
{
	struct lnet_nid_set *s = os_zalloc(sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	lnet_nid_set_from_ping(ln, s, pi, lnet_ni_find(ln, nid) != NULL);
	rc = s->n ? lnet_peer_merge_set(ln, nid, s, pi->pi_features, primary) :
		-EPROTO;
	os_free(s);
	return rc;
}

/* ---- push ---------------------------------------------------------------------- */

int lnet_push_start(struct lnet *ln, const struct lnet_nid *dst,
		    struct lnet_wait_op **opp, struct lnet_handle_md *h)
{
	struct lnet_dp *dp = &ln->ln_dp;
	struct lnet_wait_op *op;
	int rc;

	/* Send what we are now, even if the monitor has not caught up yet. */
	lnet_ping_target_update(ln);
	if (!dp->dp_ping_buf)
		return -ENETDOWN;
	/* A copy: our ping target may be replaced while the PUT is out. */
	op = lnet_wait_op_alloc(ln, dp->dp_ping_len);
	if (!op)
		return -ENOMEM;
	memcpy(op->buf, dp->dp_ping_buf, dp->dp_ping_len);
	rc = lnet_wait_op_bind(ln, op, 1, h);	/* one PUT */
	if (rc) {
		lnet_obj_free(ln, op);
		return rc;
	}
	rc = lnet_put(ln, NULL, *h, true, dst, LNET_PID_LUSTRE,
		      LNET_RESERVED_PORTAL, LNET_PROTO_PING_MATCHBITS, 0,
		      op->len, 0);
	if (rc) {
		lnet_wait_op_release(ln, op, *h);
		return rc;
	}
	*opp = op;
	return 0;
}

/* PUT our ping info to @dst's push target and wait for the ACK. */
static int lnet_push_to(struct lnet *ln, const struct lnet_nid *dst,
			u64 deadline_ns)
{
	struct lnet_wait_op *op;
	struct lnet_handle_md h;
	int rc = lnet_push_start(ln, dst, &op, &h);

	if (rc)
		return rc;
	rc = lnet_wait_op_wait(ln, op, deadline_ns);
	lnet_wait_op_release(ln, op, h);
	return rc;
}

/* No prefix of our own: os.h gives the core's messages none. */
void lnet_push_fail_log(const struct lnet_nid *prim, int rc)
{
	char nid[LNET_NID_STR_MAX];

	if (lnet_nid_print(prim, nid, sizeof(nid)) < 0)
		snprintf(nid, sizeof(nid), "?");
	os_warn("push to %s after its discovery failed: error %d\n", nid, rc);
}

int lnet_discover(struct lnet *ln, const struct lnet_nid *dst, u32 timeout_ms,
		  struct lnet_ping_result *res)
{
	u64 deadline = lnet_ping_deadline(timeout_ms);
	struct lnet_ping_info *pi = NULL;
	struct lnet_nid prim = *dst;
	int rc;

	rc = lnet_ping_fetch(ln, dst, NULL, deadline, &pi);
	if (rc)
		return rc;
	/*
	 * One of our NIDs makes this node its own peer, holding our NIDs, as
	 * Lustre does (its UDSP tests read the rules' values there); there is
	 * nothing to push to ourselves. 0@lo is no peer.
	 */
	if (!lnet_nid_is_lo(dst))
		rc = lnet_peer_merge_ping(ln, dst, pi, &prim);
	if (!rc && !lnet_nid_is_lo(dst) && !lnet_ni_find(ln, dst)) {
		/* The peer is known either way: a failed push only leaves it
		 * with our old NIs. */
		int prc = lnet_push_to(ln, &prim, deadline);

		if (prc)
			lnet_push_fail_log(&prim, prc);
	}
	if (!rc)
		lnet_ping_result_fill(ln, &prim, pi, res);
	os_free(pi);
	return rc;
}

/* A received push, copied out of the push target MD. */
struct lnet_push {
	struct list_head push_list;	/* on dp_pushq */
	struct lnet_nid push_from;
	u32 push_len;
	u8 push_data[];
};

/*
 * Called from the push target's event handler: the PUT's message is still
 * being finalized and points at the sender's peer NI, which a merge may
 * delete, so the merge waits for the monitor (woken now).
 */
void lnet_push_queue(struct lnet *ln, const struct lnet_event *ev)
{
	struct lnet_push *p;
	u32 queued = 0;

	/* a peer sending pushes faster than they are merged is cut off */
	list_for_each_entry(p, &ln->ln_dp.dp_pushq, push_list)
		if (++queued >= LNET_PUSHQ_MAX)
			return;
	p = lnet_obj_alloc(ln, sizeof(*p) + ev->mlength);
	if (!p)
		return;
	p->push_from = ev->source;	/* the NID it came from, not the primary */
	p->push_len = ev->mlength;
	memcpy(p->push_data, (const u8 *)ev->md_user_ptr + ev->offset,
	       ev->mlength);
	list_add_tail(&p->push_list, &ln->ln_dp.dp_pushq);
	os_cond_broadcast(&ln->ln_dp.dp_monitor_cond);
}

static void lnet_push_merge(struct lnet *ln, const struct lnet_push *p)
{
	struct lnet_ping_info *pi = lnet_ping_info_alloc(LNET_PING_MAX_NIS);
	struct lnet_nid prim;
	char from[LNET_NID_STR_MAX];
	int rc;

	if (!pi)
		return;
	rc = lnet_ping_info_decode(p->push_data, p->push_len, pi,
				   LNET_PING_MAX_NIS);
	if (rc > 0 && !lnet_ni_find(ln, &p->push_from))
		rc = lnet_peer_merge_ping(ln, &p->push_from, pi, &prim);
	else if (rc >= 0)
		rc = -EPROTO;
	if (rc) {
		lnet_nid_print(&p->push_from, from, sizeof(from));
		os_warn("push from %s ignored: error %d\n", from, rc);
	}
	os_free(pi);
}

void lnet_push_process(struct lnet *ln)
{
	struct list_head *q = &ln->ln_dp.dp_pushq;
	bool any = false;

	while (!list_empty(q)) {
		struct lnet_push *p = list_first_entry(q, struct lnet_push,
						       push_list);

		list_del(&p->push_list);
		lnet_push_merge(ln, p);
		lnet_obj_free(ln, p);
		any = true;
	}
	if (any)
		os_cond_broadcast(&ln->ln_dp.dp_cond);
}

void lnet_push_flush(struct lnet *ln)
{
	struct list_head *q = &ln->ln_dp.dp_pushq;

	while (!list_empty(q)) {
		struct lnet_push *p = list_first_entry(q, struct lnet_push,
						       push_list);

		list_del(&p->push_list);
		lnet_obj_free(ln, p);
	}
}
