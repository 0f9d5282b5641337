// SPDX-License-Identifier: GPL-2.0-only
/*
 * IOC_LNET_EXPLAIN: the path a send to a NID would take now, and why. The
 * send path's own route and selection code runs (lnet_msg_route() on a
 * message that is never sent) with a trace attached to the instance
 * (ln_sel_trace): select.c records every candidate it compares and the
 * criterion each comparison was decided on, and commits nothing while
 * the trace is set (no round robin moves, no peer is created). So what
 * the explanation says wins is what the next send picks, as long as
 * nothing changes in between.
 *
 * Context: an ioctl handler, under ln_api_mutex; it never sleeps on the
 * network.
 */
#include "lnet_priv.h"

u32 lnet_trace_add(struct lnet_sel_trace *tr, u32 kind)
{
	struct lnet_ioc_explain *ex = tr->ex;
	struct lnet_ioc_explain_cand *c;

	if (ex->ex_ncand >= LNET_EXPLAIN_MAX_CAND) {
		ex->ex_flags |= LNET_EXPLAIN_F_TRUNCATED;
		return LNET_EXPLAIN_NONE;
	}
	c = &ex->ex_cand[ex->ex_ncand];
	memset(c, 0, sizeof(*c));
	c->ec_kind = kind;
	c->ec_verdict = LNET_EXPLAIN_C_WON;
	c->ec_against = LNET_EXPLAIN_NONE;
	c->ec_parent = tr->parent;
	return ex->ex_ncand++;
}

struct lnet_ioc_explain_cand *lnet_trace_at(struct lnet_sel_trace *tr, u32 idx)
{
	return idx < tr->ex->ex_ncand ? &tr->ex->ex_cand[idx] : NULL;
}

/*
 * @cand was compared with the best so far (*@best; NONE: it is the first)
 * and the comparison returned @r: the loser's entry says on what and to
 * whom it lost; *@best follows the winner.
 */
void lnet_trace_duel(struct lnet_sel_trace *tr, u32 *best, u32 cand, int r)
{
	struct lnet_ioc_explain_cand *loser;
	u32 winner;

	if (*best == LNET_EXPLAIN_NONE) {
		*best = cand;
		return;
	}
	winner = r > 0 ? cand : *best;
	loser = lnet_trace_at(tr, r > 0 ? *best : cand);
	if (loser) {
		loser->ec_verdict = r ? (u32)(r > 0 ? r : -r) : LNET_EXPLAIN_C_TIE;
		loser->ec_against = winner;
	}
	*best = winner;
}

/* @idx was left out before any comparison, for @verdict. */
void lnet_trace_out(struct lnet_sel_trace *tr, u32 idx, u32 verdict)
{
	struct lnet_ioc_explain_cand *c = lnet_trace_at(tr, idx);

	if (c)
		c->ec_verdict = verdict;
}

/* What a send to @ex->ex_dst would find of its peer. */
static void lnet_explain_peer(struct lnet *ln, struct lnet_ioc_explain *ex)
{
	struct lnet_peer *lp = lnet_peer_find(ln, &ex->ex_dst);

	if (lnet_dc_would_discover(ln, &ex->ex_dst))
		ex->ex_flags |= LNET_EXPLAIN_F_DISCOVER;
	if (!lp) {
		if (!lnet_local_target_ni(ln, &ex->ex_dst))
			ex->ex_flags |= LNET_EXPLAIN_F_NO_PEER;
		return;
	}
	ex->ex_peer = lp->lp_primary_nid;
	if (lp->lp_state & LNET_PEER_S_MULTI_RAIL)
		ex->ex_flags |= LNET_EXPLAIN_F_MULTI_RAIL;
}

/* The path lnet_msg_route() chose for @msg, in @ex's terms. */
static void lnet_explain_result(struct lnet *ln, const struct lnet_msg *msg,
				struct lnet_ioc_explain *ex)
{
	if (ex->ex_rc)
		return;
	if (!msg->msg_txpeer) {
		ex->ex_path = LNET_EXPLAIN_PATH_LOCAL;
		ex->ex_ni = msg->msg_txni->ni_nid;
		return;
	}
	ex->ex_ni = msg->msg_txni->ni_nid;
	if (lnet_nid_is_zero(&msg->msg_gw_dst)) {
		ex->ex_path = LNET_EXPLAIN_PATH_DIRECT;
		ex->ex_lpni = msg->msg_txpeer->lpni_nid;
		return;
	}
	ex->ex_path = LNET_EXPLAIN_PATH_ROUTED;
	ex->ex_gw = msg->msg_txpeer->lpni_nid;
	ex->ex_lpni = msg->msg_gw_dst;
}

/*
 * A send to a NID that no peer has makes that peer (one NI, the rules
 * applied by the engine's hooks) before it selects: so does the
 * explanation, and it deletes the peer again afterwards. True when it
 * made one; -ENOMEM in *@rc when it could not.
 */
static bool lnet_explain_peer_make(struct lnet *ln, const struct lnet_nid *nid, int *rc)
{
	*rc = 0;
	if (lnet_peer_ni_find(ln, nid) || lnet_local_target_ni(ln, nid))
		return false;
	if (!lnet_peer_ni_get_or_create(ln, nid)) {
		*rc = -ENOMEM;
		return false;
	}
	return true;
}

int lnet_explain(struct lnet *ln, struct lnet_ioc_explain *ex)
{
	struct lnet_sel_trace tr = { .ex = ex, .parent = LNET_EXPLAIN_NONE };
	struct lnet_msg *msg;
	bool made;
	int rc;

	msg = os_zalloc(sizeof(*msg));
	if (!msg)
		return -ENOMEM;
	msg->msg_target = ex->ex_dst;
	msg->msg_src_req = ex->ex_src;
	lnet_explain_peer(ln, ex);
	made = lnet_explain_peer_make(ln, &ex->ex_dst, &rc);
	if (rc)
		goto out;
	ln->ln_sel_trace = &tr;
	ex->ex_rc = lnet_msg_route(ln, msg);
	ln->ln_sel_trace = NULL;
	lnet_explain_result(ln, msg, ex);
	if (made)
		lnet_peer_ni_del(ln, &ex->ex_dst, NULL, LNET_PEER_F_FORCE);
out:
	os_free(msg);
	return rc;
}
