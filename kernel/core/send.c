// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send path: lnet_put / lnet_get build a message on an MD, and
 * lnet_send_msg() chooses its path, takes the credits it needs and hands
 * it to the LND.
 *
 * Credits, as LNet counts them: a counter is the credits left minus the
 * messages waiting. A message first takes a peer NI credit (waiting on the
 * peer NI's queue when the counter went negative), then an NI credit
 * (waiting on the NI's queue). A credit given back while the counter is
 * not positive starts the first waiting message.
 */
#include "lnet_priv.h"

struct lnet_ni *lnet_local_target_ni(struct lnet *ln, const struct lnet_nid *nid)
{
	if (lnet_nid_is_lo(nid) || lnet_ni_find(ln, nid))
		return lnet_lo_ni(ln);
	return NULL;
}

/*
 * The last hop of a forwarded message: to exactly the NI its header names
 * (the originator chose it), from our best NI on that net.
 */
static int lnet_msg_route_last_hop(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_get_or_create(ln, &msg->msg_target);
	struct lnet_ni *ni = lnet_select_ni_on(ln, lnet_nid_net(&msg->msg_target));

	if (!lpni || !ni)
		return lpni ? -EHOSTUNREACH : -ENOMEM;
	lpni->lpni_seq++;
	msg->msg_txni = ni;
	msg->msg_txpeer = lpni;
	return 0;
}

/*
 * No local net is the target's. A multi-rail peer that also has an NI on
 * one of our nets is reached directly; else through a gateway: to the
 * peer's best net we have an alive route to (the NID asked for when the
 * source is given or the peer is not multi-rail), or nowhere.
 */
static int lnet_msg_route_remote(struct lnet *ln, struct lnet_msg *msg,
				 const struct lnet_nid *src)
{
	struct lnet_peer_ni *dst = lnet_peer_ni_find(ln, &msg->msg_target);
	bool mr = dst && !msg->msg_routing &&
		  (dst->lpni_peer_net->lpn_peer->lp_state & LNET_PEER_S_MULTI_RAIL);
	int rc;

	if (mr && !lnet_select_pathway_src(ln, &msg->msg_target, src,
					   &msg->msg_txni, &msg->msg_txpeer))
		return 0;
	/* no peer is made for a NID that nothing of ours reaches */
	if (!dst && !lnet_route_any(ln, lnet_nid_net(&msg->msg_target)))
		return -EHOSTUNREACH;
	/* the destination's peer NI carries its router rules (UDSP --rte) */
	if (!dst)
		dst = lnet_peer_ni_get_or_create(ln, &msg->msg_target);
	if (mr && !src)
		dst = lnet_select_remote_dst(ln, dst);
	rc = lnet_select_route(ln, lnet_nid_net(dst ? &dst->lpni_nid : &msg->msg_target),
			       dst, src, &msg->msg_txni, &msg->msg_txpeer);
	if (!rc)
		msg->msg_gw_dst = dst ? dst->lpni_nid : msg->msg_target;
	return rc;
}

/* The NI and peer NI for @msg: lolnd for local targets, else selection. */
int lnet_msg_route(struct lnet *ln, struct lnet_msg *msg)
{
	const struct lnet_nid *src = NULL;
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni = lnet_local_target_ni(ln, &msg->msg_target);
	int rc;

	msg->msg_txni = NULL;
	msg->msg_txpeer = NULL;
	memset(&msg->msg_gw_dst, 0, sizeof(msg->msg_gw_dst));
	if (ni) {
		msg->msg_txni = ni;
		return ni->ni_dying ? -EHOSTUNREACH : 0;
	}
	if (!lnet_nid_is_zero(&msg->msg_src_req))
		src = &msg->msg_src_req;
	/* an answer goes back the way its request came, as in LNet */
	if (msg->msg_response && msg->msg_rxni && msg->msg_rxpeer &&
	    !msg->msg_retries && !msg->msg_rxni->ni_dying) {
		msg->msg_txni = msg->msg_rxni;
		msg->msg_txpeer = msg->msg_rxpeer;
		/* the request came through a gateway: back through it */
		if (!lnet_net_find(ln, lnet_nid_net(&msg->msg_target)))
			msg->msg_gw_dst = msg->msg_target;
		return 0;
	}
	if (!lnet_net_find(ln, lnet_nid_net(&msg->msg_target)))
		return lnet_msg_route_remote(ln, msg, src);
	if (msg->msg_routing)
		return lnet_msg_route_last_hop(ln, msg);
	if (!lnet_peer_ni_get_or_create(ln, &msg->msg_target))
		return -ENOMEM;
	rc = lnet_select_pathway_src(ln, &msg->msg_target, src, &ni, &lpni);
	if (rc)
		return rc == -ENOENT ? -EHOSTUNREACH : rc;
	msg->msg_txni = ni;
	msg->msg_txpeer = lpni;
	return 0;
}

/* Addresses of the header once the path is known. */
static void lnet_msg_address(struct lnet_msg *msg)
{
	struct lnet_hdr *hdr = &msg->msg_hdr;

	if (msg->msg_txpeer) {
		hdr->src_nid = msg->msg_txni->ni_nid;
		/* through a gateway the header names the final destination */
		if (lnet_nid_is_zero(&msg->msg_gw_dst))
			hdr->dest_nid = msg->msg_txpeer->lpni_nid;
		else
			hdr->dest_nid = msg->msg_gw_dst;
	} else {		/* to ourselves: from and to the NID asked for */
		hdr->src_nid = msg->msg_target;
		hdr->dest_nid = msg->msg_target;
	}
	hdr->src_pid = LNET_PID_LUSTRE;
	hdr->dest_pid = msg->msg_target_pid;
	if (!msg->msg_response) {
		msg->msg_ev.initiator = hdr->src_nid;
		msg->msg_ev.initiator_pid = hdr->src_pid;
		msg->msg_ev.source = hdr->dest_nid;
	}
}

/* Hand @msg (credits held) to its NI's LND; a refusal finalizes it. */
static void lnet_ni_send(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_txni;
	int rc = -ENETUNREACH;

	if (ni && !ni->ni_dying && ni->ni_lnd) {
		/* before the call: lolnd delivers the answer inside it */
		msg->msg_lnd_ns = os_now_ns();
		if (msg->msg_txpeer && !msg->msg_txqnob) {
			msg->msg_txqnob = true;
			msg->msg_txpeer->lpni_txqnob += LNET_WIRE_MSG_HDR_LEN + msg->msg_len;
		}
		rc = ni->ni_lnd->lnd_send(ni, msg);
	}
	if (!rc)
		return;
	if (msg->msg_health_status == LNET_MSG_STATUS_OK)
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_ERROR;
	lnet_finalize_locked(ln, msg, rc);
}

/* Take the credits @msg still needs, or wait for them; then send. */
static void lnet_post_send(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer_ni *lpni = msg->msg_txpeer;
	struct lnet_ni *ni = msg->msg_txni;

	if (lpni && !msg->msg_peer_credit) {
		msg->msg_peer_credit = true;
		if (--lpni->lpni_tx_credits < lpni->lpni_min_tx_credits)
			lpni->lpni_min_tx_credits = lpni->lpni_tx_credits;
		if (lpni->lpni_tx_credits < 0) {
			list_add_tail(&msg->msg_txq, &lpni->lpni_txq);
			return;
		}
	}
	/* lo has no credits (its tunables are 0) */
	if (ni && ni->ni_tun.credits && !msg->msg_tx_credit) {
		msg->msg_tx_credit = true;
		if (--ni->ni_tx_credits < ni->ni_min_tx_credits)
			ni->ni_min_tx_credits = ni->ni_tx_credits;
		if (ni->ni_tx_credits < 0) {
			list_add_tail(&msg->msg_txq, &ni->ni_txq);
			return;
		}
	}
	lnet_ni_send(ln, msg);
}

/* Counted (local_no_route, drop) and said, with the NID and its net. */
static void lnet_msg_no_route(struct lnet *ln, struct lnet_msg *msg)
{
	char dst[LNET_NID_STR_MAX], net[LNET_NID_STR_MAX];
	u32 net_id = lnet_nid_net(&msg->msg_target);
	bool local = lnet_net_find(ln, net_id) != NULL;

	ln->ln_dp.dp_hstatus_count[LNET_MSG_STATUS_LOCAL_NO_ROUTE]++;
	if (!msg->msg_routing) {	/* forward.c counts its own drops */
		ln->ln_dp.dp_count[LNET_STATS_DROP]++;
		ln->ln_dp.dp_length[LNET_STATS_DROP] += msg->msg_hdr.payload_length;
	}
	if (lnet_nid_print(&msg->msg_target, dst, sizeof(dst)) < 0)
		snprintf(dst, sizeof(dst), "?");
	if (lnet_net_print(net_id, net, sizeof(net)) < 0)
		snprintf(net, sizeof(net), "?");
	os_warn_ratelimited("no route to %s%s: net %s %s\n", dst,
		msg->msg_routing ? " (forwarding)" : "", net,
		local ? "has no usable NI or peer NI" :
		lnet_route_any(ln, net_id) ? "has routes, all down" :
		"has no local NI and no route");
}

int lnet_send_msg(struct lnet *ln, struct lnet_msg *msg)
{
	int rc;

	if (!ln->ln_configured || ln->ln_dp.dp_stopping)
		return -ENETDOWN;
	rc = lnet_msg_route(ln, msg);
	if (rc) {
		if (rc == -EHOSTUNREACH)
			lnet_msg_no_route(ln, msg);
		return rc;
	}
	if (!msg->msg_routing)	/* a forwarded header stays as it came */
		lnet_msg_address(msg);
	msg->msg_health_status = LNET_MSG_STATUS_OK;
	msg->msg_sending = true;
	if ((ln->ln_fault_nrules[0] || ln->ln_fault_nrules[1]) && lnet_fault_send(ln, msg))
		return 0;		/* dropped (finalized) or held (fault.c) */
	lnet_post_send(ln, msg);
	return 0;
}

void lnet_send_resume(struct lnet *ln, struct lnet_msg *msg)
{
	lnet_post_send(ln, msg);
}

/* Take a waiting @msg off its credit queue, giving back what it counted. */
static void lnet_msg_unqueue(struct lnet_msg *msg)
{
	list_del_init(&msg->msg_txq);
	if (msg->msg_tx_credit) {		/* waited for an NI credit */
		msg->msg_tx_credit = false;
		if (msg->msg_txni)
			msg->msg_txni->ni_tx_credits++;
	} else if (msg->msg_peer_credit) {	/* waited for a peer credit */
		msg->msg_peer_credit = false;
		if (msg->msg_txpeer)
			msg->msg_txpeer->lpni_tx_credits++;
	}
}

void lnet_msg_return_credits(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer_ni *lpni = msg->msg_txpeer;
	struct lnet_ni *ni = msg->msg_txni;
	struct lnet_msg *next;

	if (msg->msg_txqnob) {
		msg->msg_txqnob = false;
		if (lpni)
			lpni->lpni_txqnob -= LNET_WIRE_MSG_HDR_LEN + msg->msg_len;
	}
	if (!list_empty(&msg->msg_txq))
		lnet_msg_unqueue(msg);
	if (msg->msg_tx_credit) {
		msg->msg_tx_credit = false;
		if (ni && ++ni->ni_tx_credits <= 0 && !list_empty(&ni->ni_txq)) {
			next = list_first_entry(&ni->ni_txq, struct lnet_msg, msg_txq);
			list_del_init(&next->msg_txq);
			lnet_ni_send(ln, next);
		}
	}
	if (msg->msg_peer_credit) {
		msg->msg_peer_credit = false;
		if (lpni && ++lpni->lpni_tx_credits <= 0 &&
		    !list_empty(&lpni->lpni_txq)) {
			next = list_first_entry(&lpni->lpni_txq, struct lnet_msg,
						msg_txq);
			list_del_init(&next->msg_txq);
			lnet_post_send(ln, next);
		}
	}
}

void lnet_txq_fail(struct lnet *ln, struct lnet_ni *ni,
		   struct lnet_peer_ni *lpni, int status)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, &ln->ln_dp.dp_msgs, msg_all) {
		if (list_empty(&msg->msg_txq))
			continue;
		if (ni ? msg->msg_txni != ni : msg->msg_txpeer != lpni)
			continue;
		lnet_msg_unqueue(msg);
		/* health blames what went away: our NI, or the peer NI */
		msg->msg_health_status = ni ? LNET_MSG_STATUS_LOCAL_ABORTED :
					      LNET_MSG_STATUS_REMOTE_DROPPED;
		lnet_finalize_defer(ln, msg, status);
	}
}

/* What lnet_put() and lnet_get() were asked for, handed on as one. */
struct lnet_op {
	u32 type;
	const struct lnet_nid *src;
	struct lnet_handle_md h;
	const struct lnet_nid *target;
	u32 pid;
	u32 portal;
	u64 match_bits;
	u32 offset;
	u32 len;
};

/* Checks common to PUT and GET; the MD or NULL with *@rc. */
static struct lnet_libmd *lnet_op_check(struct lnet *ln, const struct lnet_op *op,
					int *rc)
{
	struct lnet_libmd *md;

	*rc = -ENETDOWN;
	if (!ln->ln_configured || ln->ln_dp.dp_stopping)
		return NULL;
	*rc = -EINVAL;
	md = lnet_md_lookup(ln, op->h.cookie);
	if (!md || !lnet_md_usable(md) || op->portal >= LNET_NPORTALS)
		return NULL;
	if (op->offset > md->md_length || op->len > md->md_length - op->offset ||
	    op->len > LNET_MTU)
		return NULL;
	if (!op->target || lnet_nid_is_zero(op->target))
		return NULL;
	if (op->src && !lnet_nid_is_zero(op->src) && !lnet_ni_find(ln, op->src))
		return NULL;
	*rc = 0;
	lnet_dp_monitor_ensure(ln);
	return md;
}

/* A new initiator message on @md, its event filled for SEND. */
static struct lnet_msg *lnet_op_msg(struct lnet *ln, struct lnet_libmd *md,
				    const struct lnet_op *op)
{
	struct lnet_msg *msg = lnet_msg_alloc(ln);
	struct lnet_event *ev;

	if (!msg)
		return NULL;
	msg->msg_type = op->type;
	msg->msg_hdr.type = op->type;
	msg->msg_target = *op->target;
	msg->msg_target_pid = op->pid;
	if (op->src)
		msg->msg_src_req = *op->src;
	msg->msg_offset = op->offset;
	msg->msg_rlength = op->len;
	msg->msg_deadline_ns = os_now_ns() + (u64)ln->ln_globals[
		LNET_GLOBAL_TRANSACTION_TIMEOUT] * 1000000000ULL;
	ev = &msg->msg_ev;
	ev->type = LNET_EVENT_SEND;
	ev->msg_type = op->type;
	ev->target = *op->target;
	ev->pt_index = op->portal;
	ev->match_bits = op->match_bits;
	ev->rlength = op->len;
	ev->offset = op->offset;
	lnet_md_attach_msg(md, msg);
	return msg;
}

/* The checks, then the message; NULL with *@rc when either fails. */
static struct lnet_msg *lnet_op_start(struct lnet *ln, const struct lnet_op *op,
				      int *rc)
{
	struct lnet_libmd *md = lnet_op_check(ln, op, rc);
	struct lnet_msg *msg;

	if (!md)
		return NULL;
	msg = lnet_op_msg(ln, md, op);
	if (!msg)
		*rc = -ENOMEM;
	return msg;
}

/* The handle an ACK or a REPLY brings back to find @msg again. */
static void lnet_op_reply_wmd(struct lnet *ln, const struct lnet_msg *msg,
			      struct lnet_handle_wire *wh)
{
	wh->wh_interface_cookie = ln->ln_dp.dp_interface_cookie;
	wh->wh_object_cookie = msg->msg_cookie;
}

/* Send a new initiator message; undo everything when nothing was sent. */
static int lnet_op_send(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_libmd *md = msg->msg_md;
	int rc;

	if (msg->msg_ack_wanted)
		lnet_msg_set_active(ln, msg, true);
	rc = lnet_dc_park(ln, msg);
	if (rc > 0)
		return 0;
	if (!rc)
		rc = lnet_send_msg(ln, msg);
	if (!rc)
		return 0;
	if (md->md_threshold != LNET_MD_THRESH_INF)
		md->md_threshold++;
	lnet_msg_free(ln, msg);
	return rc;
}

int lnet_put(struct lnet *ln, const struct lnet_nid *src, struct lnet_handle_md h,
	     bool ack, const struct lnet_nid *target, u32 pid, u32 portal,
	     u64 match_bits, u32 offset, u32 len, u64 hdr_data)
{
	struct lnet_handle_wire none = { LNET_WIRE_COOKIE_NONE, LNET_WIRE_COOKIE_NONE };
	struct lnet_op op = { LNET_MSG_PUT, src, h, target, pid, portal,
			      match_bits, offset, len };
	struct lnet_msg *msg;
	int rc;

	msg = lnet_op_start(ln, &op, &rc);
	if (!msg)
		return rc;
	msg->msg_buf = (u8 *)msg->msg_md->md_start + offset;
	msg->msg_len = len;
	msg->msg_ack_wanted = ack;
	msg->msg_ev.mlength = len;
	msg->msg_ev.hdr_data = hdr_data;
	msg->msg_hdr.payload_length = len;
	msg->msg_hdr.msg.put.ack_wmd = none;
	if (ack)
		lnet_op_reply_wmd(ln, msg, &msg->msg_hdr.msg.put.ack_wmd);
	msg->msg_hdr.msg.put.match_bits = match_bits;
	msg->msg_hdr.msg.put.hdr_data = hdr_data;
	msg->msg_hdr.msg.put.ptl_index = portal;
	msg->msg_hdr.msg.put.offset = offset;
	return lnet_op_send(ln, msg);
}

int lnet_get(struct lnet *ln, const struct lnet_nid *src, struct lnet_handle_md h,
	     const struct lnet_nid *target, u32 pid, u32 portal,
	     u64 match_bits, u32 offset, u32 len)
{
	struct lnet_op op = { LNET_MSG_GET, src, h, target, pid, portal,
			      match_bits, offset, len };
	struct lnet_msg *msg;
	int rc;

	msg = lnet_op_start(ln, &op, &rc);
	if (!msg)
		return rc;
	msg->msg_ack_wanted = true;
	lnet_op_reply_wmd(ln, msg, &msg->msg_hdr.msg.get.return_wmd);
	msg->msg_hdr.msg.get.match_bits = match_bits;
	msg->msg_hdr.msg.get.ptl_index = portal;
	msg->msg_hdr.msg.get.src_offset = offset;
	msg->msg_hdr.msg.get.sink_length = len;
	return lnet_op_send(ln, msg);
}
