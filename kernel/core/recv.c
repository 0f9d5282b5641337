// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive path: an LND announces a header with lnet_parse(); the core
 * checks it, finds the sender's peer NI, matches PUT/GET to a match entry
 * (ACK/REPLY to the message waiting for it, by the cookie of the wire
 * handle) and tells the LND where the payload goes (lnd_recv).
 */
#include "lnet_priv.h"

static void lnet_hdr_log(const struct lnet_hdr *hdr, const char *what)
{
	char src[LNET_NID_STR_MAX], dst[LNET_NID_STR_MAX];

	if (lnet_nid_print(&hdr->src_nid, src, sizeof(src)) < 0)
		snprintf(src, sizeof(src), "?");
	if (lnet_nid_print(&hdr->dest_nid, dst, sizeof(dst)) < 0)
		snprintf(dst, sizeof(dst), "?");
	os_warn_ratelimited("%s message from %s to %s refused: %s\n",
		lnet_msg_type_name(hdr->type), src, dst, what);
}

/*
 * Is the header for this node (*@for_us) or one to forward? A message for
 * another node must come over the net of neither its destination (it
 * should have been sent there directly) nor of another of our NIDs.
 */
static int lnet_hdr_check_dest(struct lnet *ln, struct lnet_ni *ni,
			       const struct lnet_hdr *hdr, bool *for_us)
{
	*for_us = lnet_nid_equal(&hdr->dest_nid, &ni->ni_nid);
	/* lolnd carries messages to any of our NIDs */
	if (!*for_us && lnet_nid_is_lo(&ni->ni_nid))
		*for_us = lnet_ni_find(ln, &hdr->dest_nid) != NULL;
	if (*for_us)
		return 0;
	if (lnet_nid_is_lo(&ni->ni_nid)) {
		lnet_hdr_log(hdr, "dest_nid is not one of this node's NIDs");
		return -EPROTO;
	}
	if (lnet_nid_net(&hdr->dest_nid) == lnet_nid_net(&ni->ni_nid)) {
		lnet_hdr_log(hdr, "dest_nid is on the receiving NI's net but not its NID (it should have been sent direct)");
		return -EPROTO;
	}
	if (lnet_ni_find(ln, &hdr->dest_nid)) {
		lnet_hdr_log(hdr, "dest_nid is another NID of this node, on another net");
		return -EPROTO;
	}
	return 0;
}

/* Protocol checks: -EPROTO (logged) for a header nobody should send. */
static int lnet_hdr_check(struct lnet *ln, struct lnet_ni *ni,
			  const struct lnet_hdr *hdr, bool *for_us)
{
	int rc = lnet_hdr_check_dest(ln, ni, hdr, for_us);

	if (rc)
		return rc;
	if (hdr->type > LNET_MSG_REPLY) {
		lnet_hdr_log(hdr, "type is not ACK, PUT, GET or REPLY");
		return -EPROTO;
	}
	if (hdr->payload_length > LNET_MTU) {
		lnet_hdr_log(hdr, "payload_length is above 1048576");
		return -EPROTO;
	}
	if ((hdr->type == LNET_MSG_ACK || hdr->type == LNET_MSG_GET) &&
	    hdr->payload_length) {
		lnet_hdr_log(hdr, "ACK and GET carry no payload");
		return -EPROTO;
	}
	if (lnet_nid_is_zero(&hdr->src_nid)) {
		lnet_hdr_log(hdr, "src_nid is empty");
		return -EPROTO;
	}
	return 0;
}

/* The peer NI a message came through (NULL for our own NIDs). */
static struct lnet_peer_ni *lnet_rx_peer(struct lnet *ln, const struct lnet_hdr *hdr,
					 const struct lnet_nid *from)
{
	struct lnet_peer_ni *lpni;

	if (!from || lnet_nid_is_zero(from))
		from = &hdr->src_nid;
	if (lnet_nid_is_lo(from) || lnet_ni_find(ln, from))
		return NULL;
	lpni = lnet_peer_ni_get_or_create(ln, from);
	if (lpni)
		lpni->lpni_last_alive_ns = os_now_ns();
	return lpni;
}

/* Throw the message away: the LND discards its payload. */
static void lnet_rx_drop(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			 const struct lnet_hdr *hdr, void *private)
{
	lnet_count(ln, LNET_STATS_DROP, ni, lpni, hdr->type, hdr->payload_length);
	if (ni->ni_lnd && ni->ni_lnd->lnd_recv)
		ni->ni_lnd->lnd_recv(ni, private, NULL, NULL, 0, hdr->payload_length);
}

/*
 * The peer whose NID sent @hdr, or NULL: unknown, or a message of our own
 * (@lpni, the peer NI it came through, is NULL then). Usually that is
 * @lpni's peer; a routed message comes through a router.
 */
static struct lnet_peer *lnet_rx_src_peer(struct lnet *ln, struct lnet_peer_ni *lpni,
					  const struct lnet_hdr *hdr)
{
	if (!lpni)
		return NULL;
	if (!lnet_nid_equal(&lpni->lpni_nid, &hdr->src_nid))
		lpni = lnet_peer_ni_find(ln, &hdr->src_nid);
	return lpni ? lpni->lpni_peer_net->lpn_peer : NULL;
}

static struct lnet_msg *lnet_rx_msg(struct lnet *ln, struct lnet_ni *ni,
				    struct lnet_peer_ni *lpni,
				    const struct lnet_hdr *hdr)
{
	struct lnet_peer *src = lnet_rx_src_peer(ln, lpni, hdr);
	struct lnet_msg *msg = lnet_msg_alloc(ln);
	struct lnet_event *ev;

	if (!msg)
		return NULL;
	msg->msg_hdr = *hdr;
	msg->msg_type = hdr->type;
	msg->msg_rxni = ni;
	msg->msg_rxpeer = lpni;
	msg->msg_receiving = true;
	msg->msg_rlength = hdr->payload_length;
	ev = &msg->msg_ev;
	ev->msg_type = hdr->type;
	/* as Lustre: the initiator by its primary NID, the source as it sent */
	ev->initiator = src ? src->lp_primary_nid : hdr->src_nid;
	ev->initiator_pid = hdr->src_pid;
	ev->target = hdr->dest_nid;
	ev->source = hdr->src_nid;
	return msg;
}

/* Let the LND move the payload; a refusal finalizes the message. */
static void lnet_rx_start(struct lnet *ln, struct lnet_msg *msg, void *private)
{
	struct lnet_ni *ni = msg->msg_rxni;
	int rc;

	rc = ni->ni_lnd->lnd_recv(ni, private, msg, msg->msg_buf, msg->msg_len,
				  msg->msg_rlength);
	if (rc)
		lnet_finalize_locked(ln, msg, rc);
}

/* A message for a header we take in, or NULL when @wanted is false or none
 * can be had: then the header is dropped. */
static struct lnet_msg *lnet_rx_msg_or_drop(struct lnet *ln, struct lnet_ni *ni,
					    struct lnet_peer_ni *lpni,
					    const struct lnet_hdr *hdr, void *private,
					    bool wanted)
{
	struct lnet_msg *msg = wanted ? lnet_rx_msg(ln, ni, lpni, hdr) : NULL;

	if (!msg)
		lnet_rx_drop(ln, ni, lpni, hdr, private);
	return msg;
}

/* A PUT or GET (@op) matched to an MD, its message attached to it; or NULL
 * (dropped). */
static struct lnet_msg *lnet_rx_match(struct lnet *ln, struct lnet_ni *ni,
				      struct lnet_peer_ni *lpni,
				      const struct lnet_hdr *hdr, void *private,
				      u32 op, u32 *mlen, u32 *off)
{
	struct lnet_libmd *md = lnet_me_match(ln, hdr, lnet_rx_src_peer(ln, lpni, hdr),
					      op, mlen, off);
	struct lnet_msg *msg;

	msg = lnet_rx_msg_or_drop(ln, ni, lpni, hdr, private, md != NULL);
	if (msg)
		lnet_md_attach_msg(md, msg);
	return msg;
}

/* The event of a matched PUT or GET, for the MD's handler. */
static void lnet_rx_event(struct lnet_msg *msg, u32 type, u32 pt_index,
			  u64 match_bits, u32 rlength, u32 mlen, u32 off)
{
	msg->msg_ev.type = type;
	msg->msg_ev.pt_index = pt_index;
	msg->msg_ev.match_bits = match_bits;
	msg->msg_ev.rlength = rlength;
	msg->msg_ev.mlength = mlen;
	msg->msg_ev.offset = off;
}

static void lnet_parse_put(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			   const struct lnet_hdr *hdr,
			   void *private)
{
	struct lnet_handle_wire none = { LNET_WIRE_COOKIE_NONE, LNET_WIRE_COOKIE_NONE };
	struct lnet_libmd *md;
	struct lnet_msg *msg;
	u32 mlen = 0, off = 0;

	msg = lnet_rx_match(ln, ni, lpni, hdr, private, LNET_MD_OP_PUT,
			    &mlen, &off);
	if (!msg)
		return;
	md = msg->msg_md;
	msg->msg_buf = (u8 *)md->md_start + off;
	msg->msg_len = mlen;
	msg->msg_offset = off;
	if (md->md_options & LNET_MD_ACK_DISABLE)
		msg->msg_hdr.msg.put.ack_wmd = none;
	lnet_rx_event(msg, LNET_EVENT_PUT, hdr->msg.put.ptl_index,
		      hdr->msg.put.match_bits, hdr->payload_length, mlen, off);
	msg->msg_ev.hdr_data = hdr->msg.put.hdr_data;
	lnet_rx_start(ln, msg, private);
}

/* A GET is received at once (no payload) and becomes its REPLY. */
static void lnet_parse_get(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			   const struct lnet_hdr *hdr,
			   void *private)
{
	struct lnet_libmd *md;
	struct lnet_msg *msg;
	u32 mlen = 0, off = 0;

	msg = lnet_rx_match(ln, ni, lpni, hdr, private, LNET_MD_OP_GET,
			    &mlen, &off);
	if (!msg)
		return;
	md = msg->msg_md;
	ni->ni_lnd->lnd_recv(ni, private, NULL, NULL, 0, 0);
	lnet_count(ln, LNET_STATS_RECV, ni, lpni, LNET_MSG_GET, 0);
	msg->msg_receiving = false;
	lnet_rx_event(msg, LNET_EVENT_GET, hdr->msg.get.ptl_index,
		      hdr->msg.get.match_bits, hdr->msg.get.sink_length, mlen, off);

	msg->msg_type = LNET_MSG_REPLY;
	msg->msg_response = true;
	msg->msg_target = hdr->src_nid;
	msg->msg_target_pid = hdr->src_pid;
	msg->msg_src_req = hdr->dest_nid;
	msg->msg_buf = (u8 *)md->md_start + off;
	msg->msg_len = mlen;
	memset(&msg->msg_hdr.msg, 0, sizeof(msg->msg_hdr.msg));
	msg->msg_hdr.type = LNET_MSG_REPLY;
	msg->msg_hdr.payload_length = mlen;
	msg->msg_hdr.msg.reply.dst_wmd = hdr->msg.get.return_wmd;
	if (lnet_send_msg(ln, msg)) {
		/* no way back: the GET event tells, through the queue */
		msg->msg_sending = true;
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_NO_ROUTE;
		lnet_finalize_locked(ln, msg, -EHOSTUNREACH);
	}
}

/* The initiator message an ACK/REPLY answers, or NULL (drop it). */
static struct lnet_msg *lnet_rx_orig(struct lnet *ln, const struct lnet_handle_wire *wmd,
				     u32 type)
{
	struct lnet_msg *orig;

	if (wmd->wh_interface_cookie != ln->ln_dp.dp_interface_cookie)
		return NULL;
	orig = lnet_msg_find_active(ln, wmd->wh_object_cookie);
	if (!orig || orig->msg_resp != LNET_MSG_RESP_NONE)
		return NULL;
	if (orig->msg_type != (type == LNET_MSG_ACK ? LNET_MSG_PUT : LNET_MSG_GET))
		return NULL;
	return orig;
}

/* @msg answers @orig: @orig's wait is over, @msg's payload may come in. */
static void lnet_rx_answer(struct lnet *ln, struct lnet_msg *msg,
			   struct lnet_msg *orig, void *private)
{
	/* off dp_active: the monitor cannot time it out under us */
	lnet_msg_set_active(ln, orig, false);
	orig->msg_resp = LNET_MSG_RESP_RECV;
	msg->msg_orig = orig;
	lnet_rx_start(ln, msg, private);
}

static void lnet_parse_ack(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			   const struct lnet_hdr *hdr,
			   void *private)
{
	struct lnet_msg *orig = lnet_rx_orig(ln, &hdr->msg.ack.dst_wmd, hdr->type);
	struct lnet_msg *msg;

	msg = lnet_rx_msg_or_drop(ln, ni, lpni, hdr, private, orig != NULL);
	if (!msg)
		return;
	/* the ACK is an operation on the PUT's MD, as the REPLY is on a GET's */
	if (orig->msg_md && orig->msg_md->md_threshold > 0)
		orig->msg_md->md_threshold--;
	lnet_rx_answer(ln, msg, orig, private);
}

static void lnet_parse_reply(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			     const struct lnet_hdr *hdr,
			     void *private)
{
	struct lnet_msg *orig = lnet_rx_orig(ln, &hdr->msg.reply.dst_wmd, hdr->type);
	struct lnet_msg *msg;
	u32 room;

	if (orig && !orig->msg_md)
		orig = NULL;
	room = orig ? orig->msg_rlength : 0;
	if (orig && hdr->payload_length > room &&
	    !(orig->msg_md->md_options & LNET_MD_TRUNCATE))
		orig = NULL;			/* longer than asked for */
	msg = lnet_rx_msg_or_drop(ln, ni, lpni, hdr, private, orig != NULL);
	if (!msg)
		return;
	lnet_md_attach_msg(orig->msg_md, msg);
	msg->msg_buf = (u8 *)orig->msg_md->md_start + orig->msg_offset;
	msg->msg_len = hdr->payload_length < room ? hdr->payload_length : room;
	msg->msg_offset = orig->msg_offset;
	lnet_rx_answer(ln, msg, orig, private);
}

static void lnet_parse_dispatch(struct lnet *ln, struct lnet_ni *ni,
				struct lnet_peer_ni *lpni, const struct lnet_hdr *hdr,
				void *private, bool for_us);

int lnet_parse_locked(struct lnet *ln, struct lnet_ni *ni,
		      const struct lnet_hdr *hdr, const struct lnet_nid *from,
		      void *private)
{
	struct lnet_peer_ni *lpni;
	bool for_us;
	int rc;

	rc = lnet_hdr_check(ln, ni, hdr, &for_us);
	if (rc)
		return rc;
	if (!ln->ln_configured || ln->ln_dp.dp_stopping || ni->ni_dying) {
		lnet_rx_drop(ln, ni, NULL, hdr, private);
		return 0;
	}
	lnet_dp_monitor_ensure(ln);
	lpni = lnet_rx_peer(ln, hdr, from);
	if (!lnet_router_rx_note(ln, ni, lpni, hdr) ||
	    (ln->ln_fault_nrules[0] && lnet_fault_recv(ln, ni, hdr))) {
		lnet_rx_drop(ln, ni, lpni, hdr, private);
		return 0;
	}
	if (ln->ln_fault_nrules[1] && lnet_fault_recv_hold(ln, ni, hdr, from, private))
		return 0;		/* lnet_parse_resume() once it is due */
	lnet_parse_dispatch(ln, ni, lpni, hdr, private, for_us);
	return 0;
}

void lnet_parse_resume(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
		       const struct lnet_nid *from, void *private)
{
	bool for_us;

	if (lnet_hdr_check(ln, ni, hdr, &for_us) || !ln->ln_configured ||
	    ln->ln_dp.dp_stopping || ni->ni_dying) {
		lnet_rx_drop(ln, ni, NULL, hdr, private);
		return;
	}
	lnet_parse_dispatch(ln, ni, lnet_rx_peer(ln, hdr, from), hdr, private, for_us);
}

void lnet_parse_discard(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
			void *private)
{
	lnet_rx_drop(ln, ni, NULL, hdr, private);
}

/* A header that passed the checks and the rules: forward it, or take it in. */
static void lnet_parse_dispatch(struct lnet *ln, struct lnet_ni *ni,
				struct lnet_peer_ni *lpni, const struct lnet_hdr *hdr,
				void *private, bool for_us)
{
	if (!for_us) {
		if (lnet_routing_forwards(ln)) {
			lnet_forward(ln, ni, lpni, hdr, private);
		} else {
			lnet_hdr_log(hdr, "routing is not enabled on this node");
			lnet_rx_drop(ln, ni, lpni, hdr, private);
		}
		return;
	}
	switch (hdr->type) {
	case LNET_MSG_PUT:
		lnet_parse_put(ln, ni, lpni, hdr, private);
		break;
	case LNET_MSG_GET:
		lnet_parse_get(ln, ni, lpni, hdr, private);
		break;
	case LNET_MSG_ACK:
		lnet_parse_ack(ln, ni, lpni, hdr, private);
		break;
	default:
		lnet_parse_reply(ln, ni, lpni, hdr, private);
		break;
	}
}

int lnet_parse(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
	       const struct lnet_nid *from, void *private)
{
	int rc;

	os_mutex_lock(&ln->ln_api_mutex);
	rc = lnet_parse_locked(ln, ni, hdr, from, private);
	os_mutex_unlock(&ln->ln_api_mutex);
	return rc;
}

void lnet_notify(struct lnet *ln, struct lnet_ni *ni, const struct lnet_nid *peer,
		 bool alive)
{
	struct lnet_peer_ni *lpni;

	os_mutex_lock(&ln->ln_api_mutex);
	lpni = ln->ln_configured ? lnet_peer_ni_find(ln, peer) : NULL;
	if (lpni) {
		/* what the LND saw; health changes come with failed sends */
		lpni->lpni_state = alive ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
		if (alive)
			lpni->lpni_last_alive_ns = os_now_ns();
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}
