// SPDX-License-Identifier: GPL-2.0-only
/*
 * Forwarding: a message for another node arrives on a router. It takes a
 * router credit of the peer NI it came from (at most peer_buffer_credits
 * of them in this router at once; the rest wait on lpni_rtrq), then a
 * buffer of the pool its payload fits (the rest wait on rp_msgs). Then
 * the LND receives the payload into the buffer; once received, the
 * message is sent on with its header as it came (src_nid stays the
 * originator's, dest_nid the final destination's): to the destination
 * itself when its net is local, else through the next gateway (that is
 * all multi-hop is). When the send is done the buffer and the credits go
 * back, starting the next waiter.
 *
 * While a message waits, its LND connection waits with it (lnd_recv is
 * called only once the buffer is there): that is the back-pressure.
 */
#include "lnet_priv.h"

struct lnet_rtr_buf {
	struct list_head rb_list;	/* on rp_free */
	u32 rb_kind;			/* enum lnet_buf_kind */
	u8 rb_data[];
};

static u32 lnet_rtr_buf_size(u32 kind)
{
	return kind == LNET_BUF_TINY ? 0 : kind == LNET_BUF_SMALL ? 4096 : LNET_MTU;
}

/* The pool a payload of @len bytes is received into. */
static u32 lnet_rtr_kind(u32 len)
{
	if (!len)
		return LNET_BUF_TINY;
	return len <= lnet_rtr_buf_size(LNET_BUF_SMALL) ? LNET_BUF_SMALL :
							  LNET_BUF_LARGE;
}

void lnet_rtr_pools_init(struct lnet *ln)
{
	u32 k;

	for (k = 0; k < LNET_NBUF_KINDS; k++) {
		struct lnet_rtr_pool *rp = &ln->ln_rtr_pools[k];

		memset(rp, 0, sizeof(*rp));
		INIT_LIST_HEAD(&rp->rp_free);
		INIT_LIST_HEAD(&rp->rp_msgs);
	}
}

static void lnet_rtr_pool_free_bufs(struct lnet *ln, struct lnet_rtr_pool *rp)
{
	struct lnet_rtr_buf *rb, *tmp;

	list_for_each_entry_safe(rb, tmp, &rp->rp_free, rb_list) {
		list_del(&rb->rb_list);
		rp->rp_allocated--;
		lnet_obj_free(ln, rb);
	}
}

/* A buffer of pool @kind for @msg (a credit is held): reused or new. */
static struct lnet_rtr_buf *lnet_rtr_buf_get(struct lnet *ln, u32 kind)
{
	struct lnet_rtr_pool *rp = &ln->ln_rtr_pools[kind];
	struct lnet_rtr_buf *rb;

	if (!list_empty(&rp->rp_free)) {
		rb = list_first_entry(&rp->rp_free, struct lnet_rtr_buf, rb_list);
		list_del_init(&rb->rb_list);
		return rb;
	}
	rb = lnet_obj_alloc(ln, sizeof(*rb) + lnet_rtr_buf_size(kind));
	if (!rb)
		return NULL;
	INIT_LIST_HEAD(&rb->rb_list);
	rb->rb_kind = kind;
	rp->rp_allocated++;
	return rb;
}

/* Back to its pool; freed when the pool holds more than it may now. */
static void lnet_rtr_buf_put(struct lnet *ln, struct lnet_rtr_buf *rb)
{
	struct lnet_rtr_pool *rp = &ln->ln_rtr_pools[rb->rb_kind];

	if (rp->rp_allocated > rp->rp_nbuffers || !lnet_routing_forwards(ln)) {
		rp->rp_allocated--;
		lnet_obj_free(ln, rb);
		return;
	}
	list_add(&rb->rb_list, &rp->rp_free);
}

static struct lnet_rtr_pool *lnet_fwd_pool(struct lnet *ln, const struct lnet_msg *msg)
{
	return &ln->ln_rtr_pools[lnet_rtr_kind(msg->msg_hdr.payload_length)];
}

/* Throw away a forwarded message that never had its buffer: discard. */
static void lnet_fwd_discard(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_rxni;

	lnet_count(ln, LNET_STATS_DROP, ni, msg->msg_rxpeer, msg->msg_type,
		   msg->msg_hdr.payload_length);
	if (ni && ni->ni_lnd && ni->ni_lnd->lnd_recv)
		ni->ni_lnd->lnd_recv(ni, msg->msg_rx_private, NULL, NULL, 0,
				     msg->msg_hdr.payload_length);
	lnet_fwd_release(ln, msg);
	lnet_msg_free(ln, msg);
}

/* The buffer is there: the LND receives the payload into it. */
static void lnet_fwd_recv(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_rxni;
	struct lnet_rtr_buf *rb = NULL;
	int rc;

	if (ni && !ni->ni_dying)
		rb = lnet_rtr_buf_get(ln, lnet_rtr_kind(msg->msg_hdr.payload_length));
	if (!rb) {
		lnet_fwd_discard(ln, msg);
		return;
	}
	msg->msg_rtr_buf = rb;
	msg->msg_buf = rb->rb_data;
	msg->msg_len = msg->msg_hdr.payload_length;
	rc = ni->ni_lnd->lnd_recv(ni, msg->msg_rx_private, msg, msg->msg_buf,
				  msg->msg_len, msg->msg_len);
	if (rc)
		lnet_finalize_locked(ln, msg, rc);
}

/* A pool credit, then the buffer; or wait on the pool's queue. */
static void lnet_fwd_pool_credit(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_rtr_pool *rp = lnet_fwd_pool(ln, msg);

	msg->msg_pool_credit = true;
	if (--rp->rp_credits < rp->rp_min_credits)
		rp->rp_min_credits = rp->rp_credits;
	if (rp->rp_credits < 0) {
		list_add_tail(&msg->msg_list, &rp->rp_msgs);
		return;
	}
	lnet_fwd_recv(ln, msg);
}

/* A router credit of the peer NI it came from, or wait on its queue. */
static void lnet_fwd_rtr_credit(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer_ni *lpni = msg->msg_rxpeer;

	if (lpni) {
		msg->msg_rtr_credit = true;
		if (--lpni->lpni_rtr_credits < lpni->lpni_min_rtr_credits)
			lpni->lpni_min_rtr_credits = lpni->lpni_rtr_credits;
		if (lpni->lpni_rtr_credits < 0) {
			list_add_tail(&msg->msg_list, &lpni->lpni_rtrq);
			return;
		}
	}
	lnet_fwd_pool_credit(ln, msg);
}

void lnet_fwd_release(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_peer_ni *lpni = msg->msg_rxpeer;
	struct lnet_rtr_pool *rp = lnet_fwd_pool(ln, msg);
	bool start = lnet_routing_forwards(ln);
	struct lnet_msg *next;

	if (msg->msg_rtr_buf) {
		lnet_rtr_buf_put(ln, msg->msg_rtr_buf);
		msg->msg_rtr_buf = NULL;
		msg->msg_buf = NULL;
	}
	if (msg->msg_pool_credit) {
		msg->msg_pool_credit = false;
		if (++rp->rp_credits <= 0 && start && !list_empty(&rp->rp_msgs)) {
			next = list_first_entry(&rp->rp_msgs, struct lnet_msg, msg_list);
			list_del_init(&next->msg_list);
			lnet_fwd_recv(ln, next);
		}
	}
	if (msg->msg_rtr_credit) {
		msg->msg_rtr_credit = false;
		if (lpni && ++lpni->lpni_rtr_credits <= 0 && start &&
		    !list_empty(&lpni->lpni_rtrq)) {
			next = list_first_entry(&lpni->lpni_rtrq, struct lnet_msg,
						msg_list);
			list_del_init(&next->msg_list);
			lnet_fwd_pool_credit(ln, next);
		}
	}
}

/* Start as many of the pool's waiters as its credits now allow. */
void lnet_rtr_pool_kick(struct lnet *ln, struct lnet_rtr_pool *rp)
{
	struct lnet_msg *msg;
	s32 waiting = 0;

	list_for_each_entry(msg, &rp->rp_msgs, msg_list)
		waiting++;
	/* credits = free buffers - waiting: rp_credits + waiting are free */
	while (waiting-- > 0 && rp->rp_credits + waiting >= 0 &&
	       !list_empty(&rp->rp_msgs)) {
		msg = list_first_entry(&rp->rp_msgs, struct lnet_msg, msg_list);
		list_del_init(&msg->msg_list);
		lnet_fwd_recv(ln, msg);
	}
}

/* Is @msg a forwarded message waiting for a credit or a buffer? */
static bool lnet_fwd_waiting(const struct lnet_msg *msg)
{
	return msg->msg_routing && !msg->msg_rtr_buf && !list_empty(&msg->msg_list);
}

/*
 * Take a waiting @msg off its queue. The credit it waits for was counted
 * (the counter went below zero) but never given: it goes back without
 * starting anyone, as no buffer or credit came free. A router credit held
 * while waiting for a buffer is real, and lnet_fwd_release returns it.
 */
static void lnet_fwd_unqueue(struct lnet *ln, struct lnet_msg *msg)
{
	list_del_init(&msg->msg_list);
	if (msg->msg_pool_credit) {
		msg->msg_pool_credit = false;
		lnet_fwd_pool(ln, msg)->rp_credits++;
	} else if (msg->msg_rtr_credit) {
		msg->msg_rtr_credit = false;
		if (msg->msg_rxpeer)
			msg->msg_rxpeer->lpni_rtr_credits++;
	}
}

/* Drop every forwarded message still waiting for a credit or a buffer. */
static void lnet_fwd_drop_waiting(struct lnet *ln, const struct lnet_ni *ni,
				  const struct lnet_peer_ni *lpni)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, &ln->ln_dp.dp_msgs, msg_all) {
		if (!lnet_fwd_waiting(msg))
			continue;
		if ((ni && msg->msg_rxni != ni) || (lpni && msg->msg_rxpeer != lpni))
			continue;
		lnet_fwd_unqueue(ln, msg);
		msg->msg_health_status = LNET_MSG_STATUS_REMOTE_ERROR;
		lnet_fwd_discard(ln, msg);
	}
}

void lnet_parse_abandon(struct lnet *ln, struct lnet_ni *ni, void *private)
{
	struct lnet_msg *msg, *tmp;

	os_mutex_lock(&ln->ln_api_mutex);
	list_for_each_entry_safe(msg, tmp, &ln->ln_dp.dp_msgs, msg_all) {
		if (!lnet_fwd_waiting(msg) || msg->msg_rxni != ni ||
		    msg->msg_rx_private != private)
			continue;
		lnet_fwd_unqueue(ln, msg);
		/* no lnd_recv: the connection it would read from is gone */
		lnet_count(ln, LNET_STATS_DROP, ni, msg->msg_rxpeer, msg->msg_type,
			   msg->msg_hdr.payload_length);
		lnet_fwd_release(ln, msg);
		lnet_msg_free(ln, msg);
	}
	lnet_fault_rx_abandon(ln, ni, private);
	lnet_finalize_run(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
}

void lnet_rtr_pools_drain(struct lnet *ln)
{
	u32 k;

	lnet_fwd_drop_waiting(ln, NULL, NULL);
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		lnet_rtr_pool_free_bufs(ln, &ln->ln_rtr_pools[k]);
}

void lnet_fwd_forget_ni(struct lnet *ln, const struct lnet_ni *ni)
{
	lnet_fwd_drop_waiting(ln, ni, NULL);
}

void lnet_fwd_forget_peer_ni(struct lnet *ln, const struct lnet_peer_ni *lpni)
{
	lnet_fwd_drop_waiting(ln, NULL, lpni);
}

void lnet_rtr_pools_fini(struct lnet *ln)
{
	ln->ln_routing = LNET_ROUTING_DISABLED;
	lnet_rtr_pools_drain(ln);
	lnet_rtr_pools_init(ln);
}

void lnet_forward(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
		  const struct lnet_hdr *hdr, void *private)
{
	struct lnet_msg *msg = lnet_msg_alloc(ln);

	if (!msg) {
		lnet_count(ln, LNET_STATS_DROP, ni, lpni, hdr->type,
			   hdr->payload_length);
		ni->ni_lnd->lnd_recv(ni, private, NULL, NULL, 0, hdr->payload_length);
		return;
	}
	msg->msg_hdr = *hdr;
	msg->msg_type = hdr->type;
	msg->msg_routing = true;
	msg->msg_rxni = ni;
	msg->msg_rxpeer = lpni;
	msg->msg_receiving = true;
	msg->msg_rlength = hdr->payload_length;
	msg->msg_rx_private = private;
	msg->msg_target = hdr->dest_nid;
	msg->msg_target_pid = hdr->dest_pid;
	msg->msg_deadline_ns = os_now_ns() + (u64)ln->ln_globals[
		LNET_GLOBAL_TRANSACTION_TIMEOUT] * 1000000000ULL;
	lnet_fwd_rtr_credit(ln, msg);
}

/* Received into its buffer: send it on (or drop it when that fails). */
void lnet_forward_rx_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	int rc = status;

	msg->msg_receiving = false;
	if (!rc)
		rc = lnet_send_msg(ln, msg);
	if (!rc)
		return;
	lnet_count(ln, LNET_STATS_DROP, msg->msg_rxni, msg->msg_rxpeer,
		   msg->msg_type, msg->msg_hdr.payload_length);
	lnet_fwd_release(ln, msg);
	lnet_msg_free(ln, msg);
}

/* Sent on (or failed): the buffer and credits go back, then the counts. */
void lnet_forward_tx_done(struct lnet *ln, struct lnet_msg *msg, int status)
{
	struct lnet_dp *dp = &ln->ln_dp;

	msg->msg_sending = false;
	lnet_msg_return_credits(ln, msg);
	if (status) {
		lnet_count(ln, LNET_STATS_DROP, msg->msg_txni, msg->msg_txpeer,
			   msg->msg_type, msg->msg_hdr.payload_length);
	} else {
		lnet_count_obj(msg->msg_txni, msg->msg_txpeer, LNET_STATS_SENT,
			       msg->msg_type);
		lnet_count_obj(msg->msg_rxni, msg->msg_rxpeer, LNET_STATS_RECV,
			       msg->msg_type);
		dp->dp_route_count++;
		dp->dp_route_length += msg->msg_hdr.payload_length;
	}
	lnet_fwd_release(ln, msg);
	lnet_msg_free(ln, msg);
}
