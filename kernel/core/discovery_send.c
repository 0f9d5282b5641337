// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discovery on send, as Lustre does it: a new message to a peer that has
 * not been discovered yet starts a discovery that does not block the
 * sender (a ping, then a push of our NIs) and waits for it. When the
 * discovery ends the waiting messages are sent, to the peer as it is now
 * known (its NIs and its rules); when it fails they are finalized with its
 * error. Ping and push themselves (portal 0), ACKs and REPLYs, forwarded
 * messages, our own NIDs and gateways (a merge would rebuild the peer its
 * routes point at; their checks keep them known) never wait.
 *
 * Context: lnet_dc_park() runs in the sender's call with ln_api_mutex
 * held. The ping's and push's events only note the outcome and wake the
 * monitor, which runs lnet_dc_process(): the merge deletes peer NIs that
 * the finishing GET's message still points at, so it cannot run in the
 * event handler. A discovery is found by the NID it pinged, never by a
 * peer pointer: the merge may free and rebuild the peer.
 */
#include "ping_priv.h"

enum lnet_dc_state {
	LNET_DC_PING,			/* the GET of its ping info is out */
	LNET_DC_PUSH,			/* merged; the PUT of ours is out */
};

struct lnet_dc {
	struct list_head dc_list;	/* on dp_dcq */
	struct lnet_nid dc_nid;		/* pinged: the first message's target */
	struct lnet_nid dc_prim;	/* the primary after the merge */
	enum lnet_dc_state dc_state;
	struct lnet_wait_op *dc_op;	/* the GET or the PUT */
	struct lnet_handle_md dc_md;
	struct list_head dc_msgs;	/* waiting, linked by msg_txq */
};

/* Is @msg a send that discovers its peer first, if it needs to? */
static bool lnet_dc_applies(struct lnet *ln, const struct lnet_msg *msg)
{
	return ln->ln_globals[LNET_GLOBAL_DISCOVERY] && !msg->msg_routing &&
	       !msg->msg_response && msg->msg_retries == 0 &&
	       msg->msg_ev.pt_index != LNET_RESERVED_PORTAL &&
	       !lnet_local_target_ni(ln, &msg->msg_target);
}

/* Up to date, as Lustre's test: discovered, its NIDs current. */
static bool lnet_peer_uptodate(const struct lnet_peer *lp)
{
	u32 want = LNET_PEER_S_DISCOVERED | LNET_PEER_S_NIDS_UPTODATE;

	return (lp->lp_state & want) == want;
}

/* The discovery under way for @nid's peer (or of @nid itself), or NULL. */
static struct lnet_dc *lnet_dc_find(struct lnet *ln, const struct lnet_nid *nid,
				    const struct lnet_peer *lp)
{
	struct lnet_dc *dc;

	list_for_each_entry(dc, &ln->ln_dp.dp_dcq, dc_list)
		if (lnet_nid_equal(&dc->dc_nid, nid) ||
		    (lp && lnet_peer_find(ln, &dc->dc_nid) == lp))
			return dc;
	return NULL;
}

/* GET @nid's ping info without waiting; the monitor sees it end. */
static int lnet_dc_ping_start(struct lnet *ln, struct lnet_dc *dc)
{
	struct lnet_wait_op *op = lnet_wait_op_alloc(ln, LNET_PING_INFO_MAX_LEN);
	int rc;

	if (!op)
		return -ENOMEM;
	op->wake_monitor = true;
	rc = lnet_wait_op_bind(ln, op, 1, &dc->dc_md);	/* one GET */
	if (rc) {
		lnet_obj_free(ln, op);
		return rc;
	}
	rc = lnet_get(ln, NULL, dc->dc_md, &dc->dc_nid, LNET_PID_LUSTRE,
		      LNET_RESERVED_PORTAL, LNET_PROTO_PING_MATCHBITS, 0, op->len);
	if (rc) {
		lnet_wait_op_release(ln, op, dc->dc_md);
		return rc;
	}
	dc->dc_op = op;
	dc->dc_state = LNET_DC_PING;
	return 0;
}

static struct lnet_dc *lnet_dc_start(struct lnet *ln, const struct lnet_nid *nid,
				     int *rc)
{
	struct lnet_dc *dc = lnet_obj_alloc(ln, sizeof(*dc));

	*rc = -ENOMEM;
	if (!dc)
		return NULL;
	dc->dc_nid = *nid;
	INIT_LIST_HEAD(&dc->dc_msgs);
	*rc = lnet_dc_ping_start(ln, dc);
	if (*rc) {
		lnet_obj_free(ln, dc);
		return NULL;
	}
	list_add_tail(&dc->dc_list, &ln->ln_dp.dp_dcq);
	return dc;
}

int lnet_dc_park(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer *lp;
	struct lnet_dc *dc;
	int rc = 0;

	if (!lnet_dc_applies(ln, msg))
		return 0;
	lp = lnet_peer_find(ln, &msg->msg_target);
	if (lp && (lnet_peer_uptodate(lp) || lnet_peer_is_gateway(ln, lp)))
		return 0;
	dc = lnet_dc_find(ln, &msg->msg_target, lp);
	if (!dc)
		dc = lnet_dc_start(ln, &msg->msg_target, &rc);
	if (!dc)
		return rc;
	msg->msg_dc_wait = true;
	list_add_tail(&msg->msg_txq, &dc->dc_msgs);
	return 1;
}

/*
 * Would a PUT to @nid (a plain send: not a response, not forwarded, not
 * on portal 0) wait for a discovery of its peer? The test of the send
 * path above, for IOC_LNET_EXPLAIN.
 */
bool lnet_dc_would_discover(struct lnet *ln, const struct lnet_nid *nid)
{
	struct lnet_peer *lp;

	if (!ln->ln_globals[LNET_GLOBAL_DISCOVERY] || lnet_local_target_ni(ln, nid))
		return false;
	lp = lnet_peer_find(ln, nid);
	return !(lp && (lnet_peer_uptodate(lp) || lnet_peer_is_gateway(ln, lp)));
}

/* A waiting message the sender was told is out: its events say it failed. */
static void lnet_dc_fail_msg(struct lnet *ln, struct lnet_msg *msg, int rc)
{
	msg->msg_txni = NULL;		/* no NI was used: no health to judge */
	msg->msg_txpeer = NULL;
	msg->msg_sending = true;	/* finalized as a failed send */
	msg->msg_health_status = LNET_MSG_STATUS_LOCAL_NO_ROUTE;
	lnet_finalize_defer(ln, msg, rc);
}

/* Send the waiting messages (@status 0) or fail them; @dc goes. */
static void lnet_dc_finish(struct lnet *ln, struct lnet_dc *dc, int status)
{
	struct lnet_msg *msg, *tmp;

	if (dc->dc_op)
		lnet_wait_op_release(ln, dc->dc_op, dc->dc_md);
	list_del(&dc->dc_list);
	list_for_each_entry_safe(msg, tmp, &dc->dc_msgs, msg_txq) {
		int rc = status;

		list_del_init(&msg->msg_txq);
		msg->msg_dc_wait = false;
		if (!rc)
			rc = lnet_send_msg(ln, msg);
		if (rc)
			lnet_dc_fail_msg(ln, msg, rc);
	}
	lnet_obj_free(ln, dc);
	lnet_finalize_run(ln);
}

/*
 * A peer whose reply lacks the DISCOVERY bit (discovery off there) is
 * taken as it is, as Lustre does: no NID added or taken away, no push;
 * only marked discovered, so that sends to it do not ping it again.
 */
static int lnet_dc_no_discovery(struct lnet *ln, struct lnet_dc *dc)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_get_or_create(ln, &dc->dc_nid);

	if (!lpni)
		return -ENOMEM;
	lpni->lpni_peer_net->lpn_peer->lp_state |= LNET_PEER_S_DISCOVERED |
						   LNET_PEER_S_NIDS_UPTODATE;
	return 0;
}

/* The ping is over: merge what it brought, then push ours. */
static void lnet_dc_ping_done(struct lnet *ln, struct lnet_dc *dc)
{
	struct lnet_ping_info *pi = NULL;
	int rc = dc->dc_op->status;

	if (!rc)
		rc = lnet_ping_reply_decode(dc->dc_op, &pi);
	lnet_wait_op_release(ln, dc->dc_op, dc->dc_md);
	dc->dc_op = NULL;
	if (!rc && !(pi->pi_features & LNET_PING_FEAT_DISCOVERY)) {
		os_free(pi);
		lnet_dc_finish(ln, dc, lnet_dc_no_discovery(ln, dc));
		return;
	}
	if (!rc)
		rc = lnet_peer_merge_ping(ln, &dc->dc_nid, pi, &dc->dc_prim);
	os_free(pi);
	if (rc) {
		lnet_dc_finish(ln, dc, rc);
		return;
	}
	rc = lnet_push_start(ln, &dc->dc_prim, &dc->dc_op, &dc->dc_md);
	if (rc) {
		/* the peer is known: a failed push only leaves it our old NIs */
		lnet_push_fail_log(&dc->dc_prim, rc);
		dc->dc_op = NULL;
		lnet_dc_finish(ln, dc, 0);
		return;
	}
	dc->dc_op->wake_monitor = true;
	dc->dc_state = LNET_DC_PUSH;
}

static struct lnet_dc *lnet_dc_first_over(struct lnet *ln)
{
	struct lnet_dc *dc;

	list_for_each_entry(dc, &ln->ln_dp.dp_dcq, dc_list)
		if (dc->dc_op && dc->dc_op->done)
			return dc;
	return NULL;
}

/*
 * Sending the waiting messages may start other discoveries (lolnd
 * completes at once and event handlers send): the walk starts again after
 * each step, and each step leaves @dc with an op that is not over, or gone.
 */
void lnet_dc_process(struct lnet *ln)
{
	struct lnet_dc *dc;

	while ((dc = lnet_dc_first_over(ln))) {
		if (dc->dc_state == LNET_DC_PING) {
			lnet_dc_ping_done(ln, dc);
			continue;
		}
		if (dc->dc_op->status)
			lnet_push_fail_log(&dc->dc_prim, dc->dc_op->status);
		lnet_dc_finish(ln, dc, 0);
	}
}

void lnet_dc_flush(struct lnet *ln)
{
	struct list_head *q = &ln->ln_dp.dp_dcq;

	while (!list_empty(q))
		lnet_dc_finish(ln, list_first_entry(q, struct lnet_dc, dc_list),
			       -ESHUTDOWN);
}
