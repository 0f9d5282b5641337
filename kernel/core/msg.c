// SPDX-License-Identifier: GPL-2.0-only
/*
 * Messages: allocation, the finalize queue and what completing a message
 * means (events, the ACK a PUT asked for, the REPLY a GET waits for).
 *
 * Every message is finalized exactly once per hand-over: an LND finalizes
 * the sends and receives it owns, the core finalizes what failed before an
 * LND took it, the monitor finalizes initiator messages whose ACK/REPLY
 * did not come in time. Finalizing only queues the message; the queue is
 * run by the outermost caller, so an event handler that sends (maybe over
 * lolnd, which completes at once) never recurses deeper than one level.
 * Events are delivered from that loop only.
 */
#include "lnet_priv.h"

struct lnet_msg *lnet_msg_alloc(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	struct lnet_msg *msg = lnet_obj_alloc(ln, sizeof(*msg));

	if (!msg)
		return NULL;
	INIT_LIST_HEAD(&msg->msg_list);
	INIT_LIST_HEAD(&msg->msg_txq);
	INIT_LIST_HEAD(&msg->msg_fin);
	list_add_tail(&msg->msg_all, &dp->dp_msgs);
	msg->msg_cookie = dp->dp_msg_cookie++;
	if (++dp->dp_msgs_alloc > dp->dp_msgs_max)
		dp->dp_msgs_max = dp->dp_msgs_alloc;
	return msg;
}

void lnet_msg_free(struct lnet *ln, struct lnet_msg *msg)
{
	if (msg->msg_routing)	/* no-op unless it still holds them */
		lnet_fwd_release(ln, msg);
	lnet_msg_set_active(ln, msg, false);
	lnet_md_detach_msg(ln, msg);
	list_del(&msg->msg_all);
	ln->ln_dp.dp_msgs_alloc--;
	lnet_obj_free(ln, msg);
}

void lnet_msg_set_active(struct lnet *ln, struct lnet_msg *msg, bool on)
{
	if (on == msg->msg_on_active)
		return;
	if (on)
		list_add_tail(&msg->msg_list, &ln->ln_dp.dp_active);
	else
		list_del_init(&msg->msg_list);
	msg->msg_on_active = on;
}

struct lnet_msg *lnet_msg_find_active(struct lnet *ln, u64 cookie)
{
	struct lnet_msg *msg;

	list_for_each_entry(msg, &ln->ln_dp.dp_active, msg_list)
		if (msg->msg_cookie == cookie)
			return msg;
	return NULL;
}

/* Deliver msg_ev with @status as the message's final event and free it. */
static void lnet_msg_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	msg->msg_ev.status = status;
	lnet_md_deliver(ln, msg, true);
	lnet_msg_free(ln, msg);
}

/* The ACK/REPLY event of an initiator message whose send is done. */
static void lnet_msg_resp_deliver(struct lnet *ln, struct lnet_msg *msg)
{
	msg->msg_ev.type = msg->msg_type == LNET_MSG_GET ? LNET_EVENT_REPLY :
							   LNET_EVENT_ACK;
	msg->msg_ev.msg_type = msg->msg_type == LNET_MSG_GET ? LNET_MSG_REPLY :
							       LNET_MSG_ACK;
	lnet_msg_done(ln, msg, msg->msg_resp_status);
}

void lnet_msg_response(struct lnet *ln, struct lnet_msg *msg, int status)
{
	lnet_msg_set_active(ln, msg, false);
	msg->msg_resp = LNET_MSG_RESP_DONE;
	msg->msg_resp_status = status;
	if (!msg->msg_sending)
		lnet_msg_resp_deliver(ln, msg);
}

/* A send we made as the target (ACK of a PUT, REPLY of a GET) is done. */
static void lnet_msg_response_sent(struct lnet *ln, struct lnet_msg *msg,
				   int status)
{
	if (msg->msg_type == LNET_MSG_REPLY) {
		lnet_msg_done(ln, msg, status);		/* the GET event */
		return;
	}
	lnet_msg_free(ln, msg);		/* ACK: the PUT event came before */
}

static void lnet_msg_tx_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	if (msg->msg_routing) {
		lnet_forward_tx_done(ln, msg, status);
		return;
	}
	msg->msg_sending = false;
	lnet_msg_return_credits(ln, msg);
	if (status) {
		if (msg->msg_health_status == LNET_MSG_STATUS_OK)
			msg->msg_health_status = LNET_MSG_STATUS_LOCAL_ERROR;
		/*
		 * Health judges sends that left through an NI; once the
		 * answer is in, resending makes no sense.
		 */
		if (msg->msg_txni && msg->msg_resp == LNET_MSG_RESP_NONE &&
		    lnet_health_handle_failure(ln, msg))
			return;
	} else {
		lnet_count(ln, LNET_STATS_SENT, msg->msg_txni, msg->msg_txpeer,
			   msg->msg_type, msg->msg_hdr.payload_length);
		if (msg->msg_type == LNET_MSG_PUT)
			lnet_count_latency(LNET_LAT_PUT_EGRESS, msg->msg_txni,
					   msg->msg_txpeer, msg->msg_lnd_ns);
		if (msg->msg_retries)	/* a resend got it through */
			ln->ln_dp.dp_successful_resends++;
	}
	if (msg->msg_response) {
		lnet_msg_response_sent(ln, msg, status);
		return;
	}
	msg->msg_ev.type = LNET_EVENT_SEND;
	if (!msg->msg_ack_wanted ||
	    (status && msg->msg_resp == LNET_MSG_RESP_NONE)) {
		lnet_msg_done(ln, msg, status);
		return;
	}
	msg->msg_ev.status = status;
	lnet_md_deliver(ln, msg, false);
	if (msg->msg_resp == LNET_MSG_RESP_DONE)
		lnet_msg_resp_deliver(ln, msg);
	/* else: on dp_active for its ACK/REPLY, or its REPLY is coming in */
}

/* The ACK a PUT asked for: the same message goes back as an ACK. */
static void lnet_msg_send_ack(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_hdr *hdr = &msg->msg_hdr;
	struct lnet_handle_wire wmd = hdr->msg.put.ack_wmd;
	u64 bits = hdr->msg.put.match_bits;
	int rc;

	msg->msg_target = hdr->src_nid;
	msg->msg_target_pid = hdr->src_pid;
	msg->msg_src_req = msg->msg_rxni ? msg->msg_rxni->ni_nid : hdr->dest_nid;
	msg->msg_type = LNET_MSG_ACK;
	msg->msg_response = true;
	msg->msg_buf = NULL;
	msg->msg_len = 0;
	memset(&hdr->msg, 0, sizeof(hdr->msg));
	hdr->type = LNET_MSG_ACK;
	hdr->payload_length = 0;
	hdr->msg.ack.dst_wmd = wmd;
	hdr->msg.ack.match_bits = bits;
	hdr->msg.ack.mlength = msg->msg_ev.mlength;
	rc = lnet_send_msg(ln, msg);
	if (rc)
		lnet_msg_free(ln, msg);
}

static bool lnet_wire_handle_none(const struct lnet_handle_wire *h)
{
	return h->wh_interface_cookie == LNET_WIRE_COOKIE_NONE &&
	       h->wh_object_cookie == LNET_WIRE_COOKIE_NONE;
}

/*
 * An incoming PUT is in: the ACK it asked for goes first, then its event,
 * from a copy (the message becomes the ACK). The sender waits for that
 * ACK, the event handler may take long (a selftest sink checks every
 * byte, then is posted again); nothing else of ours runs in between, as
 * we hold the lock, so no one here sees the difference.
 */
static void lnet_msg_put_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	struct lnet_libmd *md = msg->msg_md;
	struct lnet_event ev;

	msg->msg_md = NULL;
	msg->msg_ev.status = status;
	ev = msg->msg_ev;
	if (status || lnet_wire_handle_none(&msg->msg_hdr.msg.put.ack_wmd))
		lnet_msg_free(ln, msg);
	else
		lnet_msg_send_ack(ln, msg);
	if (!md)
		return;
	lnet_md_deliver_ev(ln, md, &ev, true);
	lnet_md_release(ln, md);
}

static void lnet_msg_rx_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	struct lnet_msg *orig = msg->msg_orig;

	if (msg->msg_routing) {
		lnet_forward_rx_done(ln, msg, status);
		return;
	}
	msg->msg_receiving = false;
	if (status)
		lnet_count(ln, LNET_STATS_DROP, msg->msg_rxni, msg->msg_rxpeer,
			   msg->msg_type, msg->msg_hdr.payload_length);
	else
		lnet_count(ln, LNET_STATS_RECV, msg->msg_rxni, msg->msg_rxpeer,
			   msg->msg_type, msg->msg_len);
	if (orig) {			/* the ACK or REPLY of @orig */
		if (!status)
			lnet_count_latency(msg->msg_type == LNET_MSG_REPLY ?
					   LNET_LAT_GET_RTT : LNET_LAT_PUT_ACK,
					   orig->msg_txni, orig->msg_txpeer,
					   orig->msg_lnd_ns);
		if (msg->msg_type == LNET_MSG_REPLY) {
			orig->msg_ev.rlength = msg->msg_rlength;
			orig->msg_ev.mlength = msg->msg_len;
		} else {
			orig->msg_ev.mlength = msg->msg_hdr.msg.ack.mlength;
		}
		lnet_msg_free(ln, msg);
		lnet_msg_response(ln, orig, status);
		return;
	}
	lnet_msg_put_done(ln, msg, status);
}

static void lnet_msg_complete(struct lnet *ln, struct lnet_msg *msg, int status)
{
	if (msg->msg_receiving)
		lnet_msg_rx_done(ln, msg, status);
	else if (msg->msg_sending)
		lnet_msg_tx_done(ln, msg, status);
	else if (msg->msg_ack_wanted && msg->msg_resp == LNET_MSG_RESP_NONE)
		lnet_msg_response(ln, msg, status);	/* timed out / shutdown */
	else
		os_warn("finalize of a %s message that is neither sent, received nor waiting: ignored\n",
			lnet_msg_type_name(msg->msg_type));
}

void lnet_finalize_run(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	struct lnet_msg *msg;

	if (dp->dp_finalizing)
		return;
	dp->dp_finalizing = true;
	while (!list_empty(&dp->dp_finalizeq)) {
		msg = list_first_entry(&dp->dp_finalizeq, struct lnet_msg, msg_fin);
		list_del_init(&msg->msg_fin);
		lnet_msg_complete(ln, msg, msg->msg_fin_status);
	}
	dp->dp_finalizing = false;
	os_cond_broadcast(&dp->dp_cond);
}

void lnet_finalize_defer(struct lnet *ln, struct lnet_msg *msg, int status)
{
	if (!list_empty(&msg->msg_fin)) {
		os_warn("%s message finalized twice: second ignored\n",
			lnet_msg_type_name(msg->msg_type));
		return;
	}
	msg->msg_fin_status = status;
	list_add_tail(&msg->msg_fin, &ln->ln_dp.dp_finalizeq);
}

void lnet_finalize_locked(struct lnet *ln, struct lnet_msg *msg, int status)
{
	lnet_finalize_defer(ln, msg, status);
	lnet_finalize_run(ln);
}

void lnet_finalize(struct lnet *ln, struct lnet_msg *msg, int status)
{
	os_mutex_lock(&ln->ln_api_mutex);
	lnet_finalize_locked(ln, msg, status);
	os_mutex_unlock(&ln->ln_api_mutex);
}

void lnet_msgs_fail_active(struct lnet *ln)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, &ln->ln_dp.dp_active, msg_list) {
		if (msg->msg_sending || !list_empty(&msg->msg_fin))
			continue;
		lnet_msg_set_active(ln, msg, false);
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_ABORTED;
		lnet_finalize_defer(ln, msg, -ESHUTDOWN);
	}
	lnet_finalize_run(ln);
}

void lnet_msgs_forget_ni(struct lnet *ln, struct lnet_ni *ni)
{
	struct lnet_msg *msg;

	lnet_fwd_forget_ni(ln, ni);

	list_for_each_entry(msg, &ln->ln_dp.dp_msgs, msg_all) {
		if (msg->msg_txni == ni) {
			msg->msg_txni = NULL;
			msg->msg_tx_credit = false;
		}
		if (msg->msg_rxni == ni)
			msg->msg_rxni = NULL;
	}
}

u32 lnet_msgs_holding(struct lnet *ln, const struct lnet_peer_ni *lpni)
{
	struct lnet_msg *msg;
	u32 n = 0;

	list_for_each_entry(msg, &ln->ln_dp.dp_msgs, msg_all)
		if (msg->msg_txpeer == lpni || msg->msg_rxpeer == lpni)
			n++;
	return n;
}

void lnet_msgs_forget_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	struct lnet_msg *msg;

	lnet_fwd_forget_peer_ni(ln, lpni);

	list_for_each_entry(msg, &ln->ln_dp.dp_msgs, msg_all) {
		if (msg->msg_txpeer == lpni) {
			msg->msg_txpeer = NULL;
			msg->msg_peer_credit = false;
		}
		if (msg->msg_rxpeer == lpni)
			msg->msg_rxpeer = NULL;
	}
}
