// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket LND schedulers: each owns a poll set of connections and runs
 * their receive state machines (socket header + LNet header, lnet_parse,
 * payload straight into the buffer lnd_recv gave, slop, lnet_finalize)
 * and writes their tx queues with vectored sends straight from the
 * message buffers. Only the owning scheduler closes and frees a
 * connection; others ask it with ksock_conn_close_req().
 */
#include "socklnd_priv.h"

/* With ks_lock held: have the owning scheduler look at @conn. */
void ksock_conn_schedule(struct ksock_conn *conn, u32 flags)
{
	bool idle = !conn->c_ready_flags;

	conn->c_ready_flags |= flags;
	if (idle) {
		list_add_tail(&conn->c_ready, &conn->c_sched->s_ready);
		os_pollset_wake(conn->c_sched->s_ps);
	}
}

static void ksock_why_set(struct ksock_conn *conn, enum lnet_msg_hstatus hs,
			  bool quiet, const char *fmt, va_list ap)
{
	conn->c_closing = true;
	conn->c_why.hstatus = hs;
	conn->c_why.quiet = quiet;
	vsnprintf(conn->c_why.text, sizeof(conn->c_why.text), fmt, ap);
}

static void ksock_why_setf(struct ksock_conn *conn, enum lnet_msg_hstatus hs,
			   bool quiet, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void ksock_why_setf(struct ksock_conn *conn, enum lnet_msg_hstatus hs,
			   bool quiet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ksock_why_set(conn, hs, quiet, fmt, ap);
	va_end(ap);
}

/* With ks_lock held: ask the owner to close @conn (first reason wins). */
void ksock_conn_close_req(struct ksock_conn *conn, const char *text,
			  enum lnet_msg_hstatus hs)
{
	if (conn->c_closing)
		return;
	ksock_why_setf(conn, hs, hs == LNET_MSG_STATUS_LOCAL_ERROR &&
		       conn->c_peer->p_net->n_shutdown, "%s", text);
	ksock_conn_schedule(conn, KSOCK_DO_CLOSE);
}

/* With ks_lock held. */
void ksock_conn_queue_tx(struct ksock_conn *conn, struct ksock_tx *tx)
{
	list_add_tail(&tx->tx_list, &conn->c_txq);
	ksock_conn_schedule(conn, KSOCK_DO_TX);
}

/*
 * lnd_send's fast path, with ks_lock held: a small message for a
 * connection with nothing queued is written at once from the caller's
 * thread (a nonblocking send of at most 96 + 1023 bytes), which saves the
 * scheduler a wake-up per message. Nobody else writes the socket: the
 * scheduler only does with messages queued, and cannot close it while we
 * hold the lock. True when all of it left (the caller finalizes it);
 * otherwise what is left is queued for the scheduler, which also meets
 * the error if there was one.
 */
bool ksock_conn_send_now(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct os_iov iov[2] = {
		{ tx->tx_hdr, LNET_WIRE_MSG_HDR_LEN },
		{ tx->tx_msg->msg_buf, tx->tx_msg->msg_len },
	};
	long rc = -EAGAIN;

	if (tx->tx_kind == SOCKLND_CONN_CONTROL && list_empty(&conn->c_txq))
		rc = os_sock_send(conn->c_sock, iov, tx->tx_msg->msg_len ? 2 : 1);
	if (rc == (long)tx->tx_nob)
		return true;
	if (rc > 0)
		tx->tx_sent = (u32)rc;
	ksock_conn_queue_tx(conn, tx);
	return false;
}

static bool ksock_is_error(enum lnet_msg_hstatus hs)
{
	return hs != LNET_MSG_STATUS_OK;
}

/* The owner closes @conn: everything it held fails; then it is freed. */
static void ksock_conn_close(struct ksock_conn *conn)
{
	struct ksock_peer *peer = conn->c_peer;
	struct ksock_net *net = peer->p_net;
	struct lnet_msg *rxmsg = NULL;
	struct lnet_nid nid = peer->p_nid;
	char nidstr[LNET_NID_STR_MAX];
	bool parked;
	LIST_HEAD(txs);

	os_mutex_lock(&ks.ks_lock);
	conn->c_closing = true;
	if (conn->c_ready_flags) {
		list_del_init(&conn->c_ready);
		conn->c_ready_flags = 0;
	}
	list_del(&conn->c_list);
	ksock_list_splice_init(&conn->c_txq, &txs);
	if (conn->c_rx_state == KSOCK_RX_PAYLOAD || conn->c_rx_state == KSOCK_RX_SLOP)
		rxmsg = conn->c_rx_msg;
	/* the core holds its header, waiting for a router buffer */
	parked = conn->c_rx_state == KSOCK_RX_PARSE;
	if (ksock_is_error(conn->c_why.hstatus) && !ksock_peer_alive(peer))
		ksock_peer_notify(peer, false);
	os_mutex_unlock(&ks.ks_lock);

	/*
	 * Logged first: whoever sees the socket close finds the line. A
	 * connection's end is its lifecycle (info) whatever the reason.
	 */
	if (!conn->c_why.quiet) {
		lnet_nid_print(&nid, nidstr, sizeof(nidstr));
		os_info("socklnd: %s (%s): closing the connection: %s\n",
			conn->c_name, nidstr, conn->c_why.text);
	}
	os_pollset_del(conn->c_sched->s_ps, conn->c_sock);
	os_sock_close(conn->c_sock);
	if (rxmsg) {
		rxmsg->msg_health_status = conn->c_why.hstatus;
		lnet_finalize(net->n_ln, rxmsg, -EIO);
	}
	if (parked)
		lnet_parse_abandon(net->n_ln, net->n_ni, conn);
	ksock_txs_finalize(net, &txs, conn->c_why.hstatus, -EIO);

	os_mutex_lock(&ks.ks_lock);
	net->n_nconns--;
	os_cond_broadcast(&ks.ks_cond);
	os_mutex_unlock(&ks.ks_lock);
	os_free(conn);
}

/* The owner found a reason to close @conn: record it, close it. -EIO. */
static int ksock_conn_fail(struct ksock_conn *conn, enum lnet_msg_hstatus hs,
			   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int ksock_conn_fail(struct ksock_conn *conn, enum lnet_msg_hstatus hs,
			   const char *fmt, ...)
{
	va_list ap;

	os_mutex_lock(&ks.ks_lock);
	if (!conn->c_closing) {
		va_start(ap, fmt);
		ksock_why_set(conn, hs, false, fmt, ap);
		va_end(ap);
	}
	os_mutex_unlock(&ks.ks_lock);
	ksock_conn_close(conn);
	return -EIO;
}

/* ---- receive ----------------------------------------------------------------- */

static void ksock_rx_set_state(struct ksock_conn *conn, enum ksock_rx_state st)
{
	os_mutex_lock(&ks.ks_lock);
	conn->c_rx_state = st;
	os_mutex_unlock(&ks.ks_lock);
}

/*
 * Up to @want bytes into @dst: first what the last read staged, else
 * from the socket. A small want reads a whole stage at once, so a burst
 * of small messages costs one recv; a large one goes straight into @dst
 * (the MD: no copy). A read that comes back short has emptied the socket
 * for now, and the edge-triggered poll reports any later byte, so the
 * caller stops there (c_rx_drained, -EAGAIN) rather than spend one more
 * recv per message to meet -EAGAIN. Not once a hang-up was seen: its
 * edge may already be spent, so then we read on to the end of the stream.
 * Bytes, 0 at the end of the stream, or -errno.
 */
static long ksock_rx_read(struct ksock_conn *conn, void *dst, u32 want)
{
	bool stage = want < KSOCK_RX_STAGE;
	u32 ask = stage ? KSOCK_RX_STAGE : want;
	long n;

	if (conn->c_stage_off == conn->c_stage_len) {
		if (conn->c_rx_drained)
			return -EAGAIN;
		n = os_sock_recv(conn->c_sock, stage ? conn->c_stage : dst, ask);
		if (n <= 0)
			return n;
		conn->c_rx_drained = (u32)n < ask && !conn->c_rx_to_eof;
		if (!stage)
			return n;
		conn->c_stage_off = 0;
		conn->c_stage_len = (u32)n;
	}
	n = conn->c_stage_len - conn->c_stage_off;
	if (n > want)
		n = want;
	memcpy(dst, conn->c_stage + conn->c_stage_off, n);
	conn->c_stage_off += (u32)n;
	return n;
}

/* A receive returned @n <= 0 in the middle of @what: -EAGAIN or close. */
static int ksock_rx_short(struct ksock_conn *conn, long n, const char *what)
{
	if (n == -EAGAIN)
		return -EAGAIN;
	if (n < 0)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "receive failed in %s: error %ld", what, n);
	return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
			       "the peer closed the connection %s", what);
}

/* A whole header is in: hand it to the core. */
static int ksock_rx_parse(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->c_peer->p_net;
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	struct lnet_nid from;
	u32 plen;
	int rc;

	plen = lnet_get_le32(conn->c_rx_hdr + LNET_WIRE_KSOCK_HDR_LEN + 28);
	if (plen > LNET_MTU)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "payload length %u is over the %u-byte maximum",
				       plen, LNET_MTU);
	rc = lnet_msg_hdr_decode(conn->c_rx_hdr, LNET_WIRE_MSG_HDR_LEN, &k, &h);
	if (rc)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "bad LNet header (type %u): error %d",
				       lnet_get_le32(conn->c_rx_hdr + 48), rc);
	os_mutex_lock(&ks.ks_lock);
	conn->c_rx_state = KSOCK_RX_PARSE;
	conn->c_rx_in_parse = true;
	conn->c_peer->p_last_alive = os_now_ns();
	from = conn->c_peer->p_nid;
	os_mutex_unlock(&ks.ks_lock);

	rc = lnet_parse(net->n_ln, net->n_ni, &h, &from, conn);

	os_mutex_lock(&ks.ks_lock);
	conn->c_rx_in_parse = false;
	conn->c_rx_got = 0;
	os_mutex_unlock(&ks.ks_lock);
	if (rc < 0)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "the core refused its %s: error %d",
				       lnet_msg_type_name(h.type), rc);
	return 0;
}

/* RX_HEADER: gather 24 bytes (a NOOP) or 96 (an LNet message). */
static int ksock_rx_header(struct ksock_conn *conn)
{
	u8 *hdr = conn->c_rx_hdr;
	u32 type;
	long n;

	n = ksock_rx_read(conn, hdr + conn->c_rx_got, LNET_WIRE_MSG_HDR_LEN - conn->c_rx_got);
	if (n <= 0) {
		if (n == 0 && conn->c_rx_got == 0)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "the peer closed the connection");
		if (n == 0)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "the peer closed the connection in a message header (%u of %u bytes)",
					       conn->c_rx_got, LNET_WIRE_MSG_HDR_LEN);
		return ksock_rx_short(conn, n, "a message header");
	}
	conn->c_rx_got += (u32)n;
	while (conn->c_rx_got >= 4) {
		type = lnet_get_le32(hdr);
		if (type == KSOCK_MSG_LNET)
			break;
		if (type != KSOCK_MSG_NOOP)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "bad socket message type 0x%x", type);
		if (conn->c_rx_got < LNET_WIRE_KSOCK_HDR_LEN)
			return 0;
		/* A NOOP is the 24-byte socket header alone: drop it. */
		conn->c_rx_got -= LNET_WIRE_KSOCK_HDR_LEN;
		memmove(hdr, hdr + LNET_WIRE_KSOCK_HDR_LEN, conn->c_rx_got);
	}
	if (conn->c_rx_got < LNET_WIRE_MSG_HDR_LEN)
		return 0;
	return ksock_rx_parse(conn);
}

/* RX_PAYLOAD then RX_SLOP, then the message is done. */
static int ksock_rx_body(struct ksock_conn *conn, enum ksock_rx_state st)
{
	struct lnet_msg *msg;
	long n;

	if (st == KSOCK_RX_PAYLOAD && conn->c_rx_done < conn->c_rx_mlen) {
		n = ksock_rx_read(conn, conn->c_rx_buf + conn->c_rx_done,
				  conn->c_rx_mlen - conn->c_rx_done);
		if (n <= 0)
			return ksock_rx_short(conn, n, "in a message payload");
		conn->c_rx_done += (u32)n;
		return 0;
	}
	if (conn->c_rx_slop) {
		n = ksock_rx_read(conn, conn->c_sched->s_slop,
				  conn->c_rx_slop < KSOCK_SLOP_BUF ?
				  conn->c_rx_slop : KSOCK_SLOP_BUF);
		if (n <= 0)
			return ksock_rx_short(conn, n, "in a message payload");
		conn->c_rx_slop -= (u32)n;
		return 0;
	}
	msg = conn->c_rx_msg;
	conn->c_rx_msg = NULL;
	ksock_rx_set_state(conn, KSOCK_RX_HEADER);
	if (msg)
		lnet_finalize(conn->c_peer->p_net->n_ln, msg, 0);
	return 0;
}

/*
 * Read until the socket is empty (a short read or -EAGAIN), the core
 * holds a header, or a close. @hup: a hang-up was reported; from then on
 * read to the end of the stream.
 */
static int ksock_conn_rx(struct ksock_conn *conn, bool hup)
{
	enum ksock_rx_state st;
	int rc;

	/* Each call reads the socket at least once: this one may be the
	 * edge a parked (RX_PARSE) connection did not read at. */
	conn->c_rx_drained = false;
	if (hup)
		conn->c_rx_to_eof = true;
	for (;;) {
		os_mutex_lock(&ks.ks_lock);
		st = conn->c_rx_state;
		os_mutex_unlock(&ks.ks_lock);
		if (st == KSOCK_RX_PARSE)
			return 0;	/* lnd_recv will schedule us */
		if (st == KSOCK_RX_HEADER)
			rc = ksock_rx_header(conn);
		else
			rc = ksock_rx_body(conn, st);
		if (rc == -EAGAIN)
			return 0;
		if (rc)
			return rc;
	}
}

/* ---- send -------------------------------------------------------------------- */

/* With ks_lock held: vectors for what is left of the queued messages. */
static int ksock_tx_iov(struct ksock_conn *conn, struct os_iov *iov)
{
	struct ksock_tx *tx;
	u32 off;
	int n = 0;

	list_for_each_entry(tx, &conn->c_txq, tx_list) {
		if (n > KSOCK_TX_IOV - 2)
			break;
		off = tx->tx_sent;
		if (off < LNET_WIRE_MSG_HDR_LEN) {
			iov[n].iov_base = tx->tx_hdr + off;
			iov[n++].iov_len = LNET_WIRE_MSG_HDR_LEN - off;
			off = 0;
		} else {
			off -= LNET_WIRE_MSG_HDR_LEN;
		}
		if (tx->tx_msg->msg_len > off) {
			iov[n].iov_base = (u8 *)tx->tx_msg->msg_buf + off;
			iov[n++].iov_len = tx->tx_msg->msg_len - off;
		}
	}
	return n;
}

/* With ks_lock held: @nob bytes left; whole messages move to @done. */
static void ksock_tx_advance(struct ksock_conn *conn, u32 nob, struct list_head *done)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, &conn->c_txq, tx_list) {
		u32 left = tx->tx_nob - tx->tx_sent;

		if (nob < left) {
			tx->tx_sent += nob;
			return;
		}
		nob -= left;
		tx->tx_sent = tx->tx_nob;
		ksock_list_move_tail(&tx->tx_list, done);
	}
}

static int ksock_conn_tx(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->c_peer->p_net;
	struct os_iov iov[KSOCK_TX_IOV];
	LIST_HEAD(done);
	long rc;
	int n;

	for (;;) {
		os_mutex_lock(&ks.ks_lock);
		n = ksock_tx_iov(conn, iov);
		os_mutex_unlock(&ks.ks_lock);
		if (!n)
			return 0;
		rc = os_sock_send(conn->c_sock, iov, n);
		if (rc == -EAGAIN)
			return 0;	/* OS_POLL_OUT will bring us back */
		if (rc < 0)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "send failed: error %ld", rc);
		os_mutex_lock(&ks.ks_lock);
		ksock_tx_advance(conn, (u32)rc, &done);
		os_mutex_unlock(&ks.ks_lock);
		ksock_txs_finalize(net, &done, LNET_MSG_STATUS_OK, 0);
	}
}

/* ---- the scheduler thread ---------------------------------------------------- */

static void ksock_conn_run(struct ksock_conn *conn, u32 flags)
{
	if (flags & KSOCK_DO_CLOSE) {
		ksock_conn_close(conn);
		return;
	}
	if ((flags & KSOCK_DO_TX) && ksock_conn_tx(conn))
		return;
	if (flags & KSOCK_DO_RX)
		ksock_conn_rx(conn, flags & KSOCK_DO_RX_ALL);
}

static u32 ksock_poll_flags(unsigned int ev)
{
	u32 f = 0;

	if (ev & (OS_POLL_IN | OS_POLL_ERR))
		f |= KSOCK_DO_RX;
	if (ev & (OS_POLL_HUP | OS_POLL_ERR))
		f |= KSOCK_DO_RX | KSOCK_DO_RX_ALL;
	if (ev & (OS_POLL_OUT | OS_POLL_ERR))
		f |= KSOCK_DO_TX;
	return f;
}

/* Run the connections other threads asked for; true if more are waiting. */
static bool ksock_sched_run_ready(struct ksock_sched *s, bool *stop)
{
	struct ksock_conn *conn;
	u32 flags;
	int budget = 64;
	bool more;

	os_mutex_lock(&ks.ks_lock);
	while (!list_empty(&s->s_ready) && budget--) {
		conn = list_first_entry(&s->s_ready, struct ksock_conn, c_ready);
		list_del_init(&conn->c_ready);
		flags = conn->c_ready_flags;
		conn->c_ready_flags = 0;
		os_mutex_unlock(&ks.ks_lock);
		ksock_conn_run(conn, flags);
		os_mutex_lock(&ks.ks_lock);
	}
	more = !list_empty(&s->s_ready);
	*stop = ks.ks_stop;
	os_mutex_unlock(&ks.ks_lock);
	return more;
}

int ksock_scheduler(void *arg)
{
	struct ksock_sched *s = arg;
	struct os_poll_event ev[32];
	bool more = false, stop = false;
	int i, n;

	while (!stop) {
		n = os_pollset_wait(s->s_ps, ev, 32, more ? 0 : 1000);
		for (i = 0; i < n; i++)
			ksock_conn_run(ev[i].data, ksock_poll_flags(ev[i].events));
		more = ksock_sched_run_ready(s, &stop);
	}
	return 0;
}
