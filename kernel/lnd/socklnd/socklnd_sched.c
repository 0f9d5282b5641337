// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket LND schedulers: each owns a poll set of connections and runs
 * their receive state machines (socket header + LNet header, lnet_parse,
 * payload straight into the buffer lnd_recv gave, slop, lnet_finalize)
 * and writes their tx queues with vectored sends straight from the
 * message buffers. Only the owning scheduler closes and frees a
 * connection; others ask it with ksock_conn_close_req(). While a large
 * payload comes in, a scheduler that emptied its socket polls again for a
 * moment before it sleeps (ksock_sched_busy_poll).
 *
 * Nothing lost in the socket: a message of KSOCK_ACKED_MIN payload bytes
 * or more is not finalized when its last byte is written but when TCP
 * acknowledged it (written total - os_sock_unacked() >= its end offset:
 * c_ackq, checked after each write and, while any waits, every
 * KSOCK_ACK_POLL_MS). Until then a black-holed link can still lose it, and
 * a stalled connection (socklnd_conn.c) fails it with NETWORK_TIMEOUT so
 * that the core resends it on another path. Smaller messages are
 * finalized at once: their copy costs little to resend from the upper
 * layers' own timeouts and waiting on each would cost a wake-up per
 * message. This is the threshold from which Lustre keeps its messages for
 * a zero-copy ACK.
 *
 * Who looks at TCP's ACKs, and when: the owner after each write; any
 * thread reading a message from the peer (ksock_peer_acks_take: the
 * message most likely answers the bytes); and, for a large message that
 * no LNet message will answer (a REPLY, a PUT without ACK, one forwarded),
 * the peer itself: such a message carries a ZC-REQ cookie, and the peer's
 * ZC-ACK, sent once it has read the payload, finalizes it
 * (ksock_peer_zc_acked). Else the KSOCK_ACK_POLL_MS tick would be the
 * first to see it, for a message an upper layer waits on (an lnet_selftest
 * server's bulk before its reply).
 */
#include "socklnd_priv.h"

/*
 * With ks_lock held: have the owning scheduler look at @conn. A scheduler
 * that is not asleep in its poll looks at s_ready before it sleeps again,
 * so it needs no wake-up (a system call, and a thread switch when it is
 * the scheduler itself that asks).
 */
void ksock_conn_schedule(struct ksock_conn *conn, u32 flags)
{
	struct ksock_sched *s = conn->c_sched;
	bool idle = !conn->c_ready_flags;

	conn->c_ready_flags |= flags;
	if (!idle)
		return;
	list_add_tail(&conn->c_ready, &s->s_ready);
	if (s->s_polling) {
		s->s_polling = false;
		os_pollset_wake(s->s_ps);
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

/* With ks_lock held: @nob more bytes left in the socket: progress. */
static void ksock_conn_wrote(struct ksock_conn *conn, u32 nob)
{
	conn->c_tx_written += nob;
	conn->c_tx_deadline = os_now_ns() + conn->c_peer->p_net->n_timeout_ns;
}

/*
 * With ks_lock held: sample what TCP has not acknowledged yet; less than
 * at the last sample means the peer acknowledged bytes: progress.
 */
void ksock_conn_sample_unacked(struct ksock_conn *conn, u64 now)
{
	long n = os_sock_unacked(conn->c_sock);

	if (n < 0)
		return;
	if ((u64)n < conn->c_tx_unacked) {
		conn->c_tx_deadline = now + conn->c_peer->p_net->n_timeout_ns;
		conn->c_peer->p_last_alive = now;
	}
	conn->c_tx_unacked = (u64)n;
}

#define KSOCK_NO_WRITE	(~0ULL)		/* ksock_conn_acked_since(): not after a write */

/* With ks_lock held: the messages of c_ackq that TCP acknowledged move to @done. */
static void ksock_conn_acked_take(struct ksock_conn *conn, struct list_head *done)
{
	struct ksock_tx *tx, *tmp;
	u64 acked;

	ksock_conn_sample_unacked(conn, os_now_ns());
	/* a socket that counts its buffers' size (AF_UNIX) may report more */
	acked = conn->c_tx_written > conn->c_tx_unacked ?
		conn->c_tx_written - conn->c_tx_unacked : 0;
	list_for_each_entry_safe(tx, tmp, &conn->c_ackq, tx_list) {
		if (tx->tx_end > acked)
			break;
		ksock_list_move_tail(&tx->tx_list, done);
	}
}

/*
 * With ks_lock held, in the owner's thread: as ksock_conn_acked_take(),
 * and the connection is on its scheduler's s_acking while some wait.
 * @since: the stream offset a write just began at (KSOCK_NO_WRITE: none).
 * When the oldest waiting message ended in that write, no ACK can have
 * come for it yet: TCP is not asked (a system call per large message).
 */
static void ksock_conn_acked_since(struct ksock_conn *conn, struct list_head *done,
				   u64 since)
{
	struct ksock_tx *tx;

	if (!list_empty(&conn->c_ackq)) {
		tx = list_first_entry(&conn->c_ackq, struct ksock_tx, tx_list);
		if (tx->tx_end <= since)
			ksock_conn_acked_take(conn, done);
	}
	/* another thread may have emptied c_ackq (ksock_peer_acks_take) */
	if (list_empty(&conn->c_ackq))
		list_del_init(&conn->c_acking);
	else if (list_empty(&conn->c_acking))
		list_add_tail(&conn->c_acking, &conn->c_sched->s_acking);
}

static void ksock_conn_acked(struct ksock_conn *conn, struct list_head *done)
{
	ksock_conn_acked_since(conn, done, KSOCK_NO_WRITE);
}

/* With ks_lock held. */
void ksock_conn_queue_tx(struct ksock_conn *conn, struct ksock_tx *tx)
{
	list_add_tail(&tx->tx_list, &conn->c_txq);
	ksock_conn_schedule(conn, KSOCK_DO_TX);
}

/*
 * lnd_send's fast path, with ks_lock held: may the caller write the small
 * message @tx itself (at most 96 (V4: 120) + 1023 bytes, nonblocking),
 * which saves the scheduler a wake-up per message? Only to a connection
 * with nothing queued: the scheduler writes only what is queued, so no
 * one else writes it. It is then c_tx_busy until ksock_conn_send_done().
 * Otherwise @tx is queued for the scheduler.
 */
bool ksock_conn_send_claim(struct ksock_conn *conn, struct ksock_tx *tx)
{
	if (tx->tx_kind == SOCKLND_CONN_CONTROL && list_empty(&conn->c_txq) &&
	    !conn->c_tx_busy && !conn->c_closing) {
		conn->c_tx_busy = true;
		return true;
	}
	ksock_conn_queue_tx(conn, tx);
	return false;
}

/* Without ks_lock, @conn claimed: one nonblocking write of @tx. */
long ksock_conn_send_write(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct os_iov iov[2] = {
		{ tx->tx_hdr, tx->tx_hdr_len },
		{ tx->tx_msg->msg_buf, tx->tx_msg->msg_len },
	};

	return os_sock_send(conn->c_sock, iov, tx->tx_msg->msg_len ? 2 : 1);
}

/*
 * With ks_lock held, after the write that returned @rc: true when all of
 * @tx left (the caller finalizes it); otherwise what is left goes first
 * on the queue, for the scheduler, which also meets the error if there
 * was one. What others queued meanwhile is the scheduler's again, and an
 * owner waiting to close may go on.
 */
bool ksock_conn_send_done(struct ksock_conn *conn, struct ksock_tx *tx, long rc)
{
	bool all = rc == (long)tx->tx_nob;

	conn->c_tx_busy = false;
	if (rc > 0)
		ksock_conn_wrote(conn, (u32)rc);
	if (!all) {
		if (rc > 0)
			tx->tx_sent = (u32)rc;
		list_add(&tx->tx_list, &conn->c_txq);
	}
	if (!list_empty(&conn->c_txq))
		ksock_conn_schedule(conn, KSOCK_DO_TX);
	if (conn->c_closing)
		os_cond_broadcast(&ks.ks_cond);
	return all;
}

/* The scheduler the calling thread is, or NULL. */
struct ksock_sched *ksock_sched_current(void)
{
	int i;

	for (i = 0; i < KSOCK_NSCHED; i++)
		if (ks.ks_sched[i].s_ps && os_thread_is_current(&ks.ks_sched[i].s_thread))
			return &ks.ks_sched[i];
	return NULL;
}

/*
 * In @s's thread, with no lock held: the writes lnd_send left it while
 * the core held its mutex, made now; a message all written is finalized
 * (which may leave more). Its connection may go once it is not busy:
 * what the finalize needs is taken before.
 */
void ksock_sched_flush(struct ksock_sched *s)
{
	struct ksock_conn *conn;
	struct lnet_msg *msg;
	struct ksock_tx *tx;
	struct lnet *ln;
	bool all;
	long rc;

	while (s && !list_empty(&s->s_deferred)) {
		tx = list_first_entry(&s->s_deferred, struct ksock_tx, tx_list);
		list_del_init(&tx->tx_list);
		conn = tx->tx_conn;
		msg = tx->tx_msg;
		ln = conn->c_peer->p_net->n_ln;
		rc = ksock_conn_send_write(conn, tx);
		os_mutex_lock(&ks.ks_lock);
		all = ksock_conn_send_done(conn, tx, rc);
		os_mutex_unlock(&ks.ks_lock);
		if (!all)
			continue;
		os_free(tx);
		msg->msg_health_status = LNET_MSG_STATUS_OK;
		lnet_finalize(ln, msg, 0);
	}
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

	LIST_HEAD(acked);

	os_mutex_lock(&ks.ks_lock);
	conn->c_closing = true;
	if (conn->c_sched->s_rx_streaming == conn)
		conn->c_sched->s_rx_streaming = NULL;
	/*
	 * A write of lnd_send's fast path ends (nonblocking) and queues its
	 * rest; ours first, or we would wait for ourselves.
	 */
	if (conn->c_tx_busy) {
		os_mutex_unlock(&ks.ks_lock);
		ksock_sched_flush(conn->c_sched);
		os_mutex_lock(&ks.ks_lock);
	}
	while (conn->c_tx_busy)
		os_cond_wait(&ks.ks_cond, &ks.ks_lock, OS_NO_DEADLINE);
	if (conn->c_ready_flags) {
		list_del_init(&conn->c_ready);
		conn->c_ready_flags = 0;
	}
	list_del(&conn->c_list);
	conn->c_sched->s_nconns[conn->c_kind]--;
	/* what TCP acknowledged before the end is sent; the rest fails */
	ksock_conn_acked(conn, &acked);
	list_del_init(&conn->c_acking);
	ksock_list_splice_init(&conn->c_ackq, &txs);
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
	ksock_txs_finalize(net, &acked, LNET_MSG_STATUS_OK, 0);
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
		conn->c_rx_bytes += (u64)n;
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

/* Does @tx, once written, wait for TCP's ACK (see the top of the file)? */
static bool ksock_tx_waits_ack(const struct ksock_tx *tx)
{
	return tx->tx_msg && tx->tx_msg->msg_len >= KSOCK_ACKED_MIN;
}

/* ---- zero-copy ACKs ------------------------------------------------------------ */

/*
 * Add @cookie to the cookies of a NOOP not sent yet, in the forms of the
 * V3 protocol's ksm_zc_cookies: [0] == 0 is one cookie, [1]; [0] > [1]
 * two cookies, [0] and [1]; [0] < [1] every cookie from [0] to [1]. One
 * cookie takes a second at any distance, two take a third that makes the
 * three consecutive, a range grows at either end. False when @cookie
 * does not fit: it needs a NOOP of its own. A cookie already held fits.
 */
bool ksock_zc_merge(u64 zc[2], u64 cookie)
{
	u64 lo, hi;

	if (!zc[0]) {
		if (cookie == zc[1])
			return true;
		zc[0] = cookie > zc[1] ? cookie : zc[1];
		zc[1] = cookie > zc[1] ? zc[1] : cookie;
		return true;
	}
	if (zc[0] > zc[1]) {
		if (cookie == zc[0] || cookie == zc[1])
			return true;
		lo = cookie < zc[1] ? cookie : zc[1];
		hi = cookie > zc[0] ? cookie : zc[0];
		if (hi - lo != 2)
			return false;
		zc[0] = lo;
		zc[1] = hi;
		return true;
	}
	if (cookie >= zc[0] && cookie <= zc[1])
		return true;
	if (cookie == zc[1] + 1)
		zc[1] = cookie;
	else if (cookie + 1 == zc[0])
		zc[0] = cookie;
	else
		return false;
	return true;
}

bool ksock_zc_covers(u64 zc0, u64 zc1, u64 cookie)
{
	if (!zc0 || zc0 == zc1)
		return cookie == zc1;
	if (zc0 > zc1)
		return cookie == zc0 || cookie == zc1;
	return cookie >= zc0 && cookie <= zc1;
}

/*
 * A PUT whose ACK comes back to us asks for no ZC-ACK: its ACK finalizes
 * it (ksock_peer_acks_take), and a NOOP more per message would cost both
 * sides a wake-up. Cookies start at 2 as Lustre's (1 is a keepalive).
 */
void ksock_tx_zc_req(struct ksock_peer *peer, struct ksock_tx *tx)
{
	const struct lnet_msg *msg = tx->tx_msg;

	if (!ksock_tx_waits_ack(tx) || (msg->msg_ack_wanted && !msg->msg_routing))
		return;
	if (peer->p_zc_next < 2)
		peer->p_zc_next = 2;
	tx->tx_zc[0] = peer->p_zc_next++;
	lnet_put_le64(tx->tx_hdr + 8, tx->tx_zc[0]);	/* ksm_zc_cookies[0] */
}

/*
 * With ks_lock held: @conn's peer acknowledged the cookies (@zc0, @zc1):
 * its written messages that asked for them move to @done. A cookie may
 * match nothing (the message was finalized on TCP's ACK first, or is
 * still being written): it is ignored, where a Lustre node would close.
 */
static void ksock_peer_zc_acked(struct ksock_conn *conn, u64 zc0, u64 zc1,
				struct list_head *done)
{
	struct ksock_tx *tx, *tmp;
	struct ksock_conn *c;

	if (!zc1)
		return;
	list_for_each_entry(c, &conn->c_peer->p_conns, c_list) {
		if (c->c_closing)
			continue;
		list_for_each_entry_safe(tx, tmp, &c->c_ackq, tx_list)
			if (tx->tx_zc[0] && ksock_zc_covers(zc0, zc1, tx->tx_zc[0]))
				ksock_list_move_tail(&tx->tx_list, done);
	}
}

/* A NOOP read on @conn: its cookies acknowledge ours (a keepalive names none). */
static void ksock_rx_noop(struct ksock_conn *conn, const u8 *hdr)
{
	LIST_HEAD(done);

	if (!lnet_get_le64(hdr + 16))
		return;		/* acknowledges nothing: no lock to take */
	os_mutex_lock(&ks.ks_lock);
	ksock_peer_zc_acked(conn, lnet_get_le64(hdr + 8), lnet_get_le64(hdr + 16), &done);
	os_mutex_unlock(&ks.ks_lock);
	if (!list_empty(&done))
		ksock_txs_finalize(conn->c_peer->p_net, &done, LNET_MSG_STATUS_OK, 0);
}

/* A NOOP's 24 bytes: type, no checksum, its cookies. */
static void ksock_noop_encode(struct ksock_tx *tx)
{
	lnet_put_le32(tx->tx_hdr, KSOCK_MSG_NOOP);
	lnet_put_le32(tx->tx_hdr + 4, 0);
	lnet_put_le64(tx->tx_hdr + 8, tx->tx_zc[0]);
	lnet_put_le64(tx->tx_hdr + 16, tx->tx_zc[1]);
}

/*
 * With ks_lock held: where the answer to a zero-copy request read on
 * @from goes. As a Lustre node does by default (nonblk_zcack), on the
 * connection that carries the peer's bulk to us (BULK_IN, ours sends
 * nothing else, so the answer never waits behind our own bulk), else on
 * an untyped one; failing both, on @from itself. NULL when all close.
 */
static struct ksock_conn *ksock_zc_ack_conn(struct ksock_conn *from)
{
	struct ksock_conn *conn = ksock_peer_conn(from->c_peer, SOCKLND_CONN_BULK_IN);

	if (conn)
		return conn;
	return from->c_closing ? NULL : from;
}

/*
 * The message just read on @from carried @cookie: tell the peer we have
 * it (a NOOP with the cookie in ksm_zc_cookies[1]), at once; a NOOP still
 * waiting to be written takes the cookie along if it fits (Lustre batches
 * the same way). Without a connection or memory the answer is dropped:
 * the peer's own timeout then resends, as for any loss.
 */
static void ksock_zc_ack(struct ksock_conn *from, u64 cookie)
{
	struct ksock_conn *conn;
	struct ksock_tx *tx = NULL;

	os_mutex_lock(&ks.ks_lock);
	conn = ksock_zc_ack_conn(from);
	if (conn && !list_empty(&conn->c_txq))
		tx = list_last_entry(&conn->c_txq, struct ksock_tx, tx_list);
	if (tx && !tx->tx_msg && !tx->tx_sent && ksock_zc_merge(tx->tx_zc, cookie)) {
		ksock_noop_encode(tx);
		conn = NULL;
	}
	tx = conn ? os_zalloc(sizeof(*tx)) : NULL;
	if (tx) {
		tx->tx_kind = conn->c_kind;
		tx->tx_hdr_len = LNET_WIRE_KSOCK_HDR_LEN;
		tx->tx_nob = LNET_WIRE_KSOCK_HDR_LEN;
		tx->tx_zc[1] = cookie;
		tx->tx_deadline = os_now_ns() + conn->c_peer->p_net->n_timeout_ns;
		ksock_noop_encode(tx);
		ksock_conn_queue_tx(conn, tx);
	}
	os_mutex_unlock(&ks.ks_lock);
}

/*
 * With ks_lock held: a message from @conn's peer came in. If the peer's
 * other connections hold written messages waiting for TCP's ACK, the ACK
 * of their bytes has most likely come too (the peer read them before it
 * answered): this thread takes the acknowledged ones into @done now, so
 * that one large message at a time waits neither for a poll tick nor for
 * a wake-up of their scheduler (a system call here, a thread switch and
 * two more system calls there, at the moment the next message starts).
 * Their connections stay on s_acking: only the owner changes that list,
 * and finds c_ackq empty at its next look.
 */
static void ksock_peer_acks_take(struct ksock_conn *conn, struct list_head *done)
{
	struct ksock_conn *c;

	list_for_each_entry(c, &conn->c_peer->p_conns, c_list)
		if (c != conn && !c->c_closing && !list_empty(&c->c_ackq))
			ksock_conn_acked_take(c, done);
}

/* A whole header is in: hand it to the core. */
static int ksock_rx_parse(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->c_peer->p_net;
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	struct lnet_nid from;
	LIST_HEAD(acked);
	u32 plen, tail;
	int rc;

	/* the type, the payload length and the 40-byte union end the header */
	tail = net->n_hdr_len - 48;
	plen = lnet_get_le32(conn->c_rx_hdr + tail + 4);
	if (plen > LNET_MTU)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "payload length %u is over the %u-byte maximum",
				       plen, LNET_MTU);
	if (net->n_version == KSOCK_PROTO_V4)
		rc = lnet_msg_hdr16_decode(conn->c_rx_hdr, net->n_hdr_len, &k, &h);
	else
		rc = lnet_msg_hdr_decode(conn->c_rx_hdr, net->n_hdr_len, &k, &h);
	if (rc)
		return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
				       "bad LNet header (type %u): error %d",
				       lnet_get_le32(conn->c_rx_hdr + tail), rc);
	conn->c_rx_plen = plen;
	/* a Lustre sender keeps a message with a cookie until we answer it */
	conn->c_rx_zc_cookie = k.ksm_zc_cookies[0];
	os_mutex_lock(&ks.ks_lock);
	conn->c_rx_state = KSOCK_RX_PARSE;
	conn->c_rx_in_parse = true;
	conn->c_peer->p_last_alive = os_now_ns();
	from = conn->c_peer->p_nid;
	ksock_peer_acks_take(conn, &acked);
	/* an LNet frame's [1] may acknowledge one of ours (Lustre piggybacks) */
	ksock_peer_zc_acked(conn, 0, k.ksm_zc_cookies[1], &acked);
	os_mutex_unlock(&ks.ks_lock);
	/* before the parse: a PUT's send ends before the ACK that answers it */
	if (!list_empty(&acked))
		ksock_txs_finalize(net, &acked, LNET_MSG_STATUS_OK, 0);

	rc = lnet_parse(net->n_ln, net->n_ni, &h, &from, conn);
	ksock_sched_flush(conn->c_sched);

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

/* RX_HEADER: gather 24 bytes (a NOOP) or 96 (V4: 120; an LNet message). */
static int ksock_rx_header(struct ksock_conn *conn)
{
	u32 type, full = conn->c_peer->p_net->n_hdr_len;
	u8 *hdr = conn->c_rx_hdr;
	long n;

	n = ksock_rx_read(conn, hdr + conn->c_rx_got, full - conn->c_rx_got);
	if (n <= 0) {
		if (n == 0 && conn->c_rx_got == 0)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "the peer closed the connection");
		if (n == 0)
			return ksock_conn_fail(conn, LNET_MSG_STATUS_REMOTE_ERROR,
					       "the peer closed the connection in a message header (%u of %u bytes)",
					       conn->c_rx_got, full);
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
		/* a NOOP is the 24-byte socket header alone */
		ksock_rx_noop(conn, hdr);
		conn->c_rx_got -= LNET_WIRE_KSOCK_HDR_LEN;
		memmove(hdr, hdr + LNET_WIRE_KSOCK_HDR_LEN, conn->c_rx_got);
	}
	if (conn->c_rx_got < full)
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
	if (conn->c_rx_zc_cookie)
		ksock_zc_ack(conn, conn->c_rx_zc_cookie);
	conn->c_rx_zc_cookie = 0;
	if (msg)
		lnet_finalize(conn->c_peer->p_net->n_ln, msg, 0);
	ksock_sched_flush(conn->c_sched);
	return 0;
}

/*
 * The reads stopped (socket empty, or the core holds a header): for the
 * stall check, is a message partly read (not one the core holds: waiting
 * for a router buffer is no fault of the network), and did bytes come?
 */
static void ksock_rx_progress(struct ksock_conn *conn, bool moved)
{
	os_mutex_lock(&ks.ks_lock);
	conn->c_rx_partial = conn->c_rx_state == KSOCK_RX_PAYLOAD ||
			     conn->c_rx_state == KSOCK_RX_SLOP ||
			     (conn->c_rx_state == KSOCK_RX_HEADER && conn->c_rx_got);
	if (moved)
		conn->c_rx_deadline = os_now_ns() + conn->c_peer->p_net->n_timeout_ns;
	if (conn->c_rx_state == KSOCK_RX_PAYLOAD &&
	    conn->c_rx_spin_misses < KSOCK_BUSY_POLL_MISSES &&
	    conn->c_rx_mlen >= KSOCK_BUSY_POLL_MIN && !conn->c_closing)
		conn->c_sched->s_rx_streaming = conn;
	else if (conn->c_sched->s_rx_streaming == conn)
		conn->c_sched->s_rx_streaming = NULL;
	os_mutex_unlock(&ks.ks_lock);
}

/*
 * Read until the socket is empty (a short read or -EAGAIN), the core
 * holds a header, or a close. @hup: a hang-up was reported; from then on
 * read to the end of the stream.
 */
static int ksock_conn_rx(struct ksock_conn *conn, bool hup)
{
	u64 before = conn->c_rx_bytes;
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
			break;		/* lnd_recv will schedule us */
		if (st == KSOCK_RX_HEADER)
			rc = ksock_rx_header(conn);
		else
			rc = ksock_rx_body(conn, st);
		if (rc == -EAGAIN)
			break;
		if (rc)
			return rc;
	}
	ksock_rx_progress(conn, conn->c_rx_bytes != before);
	return 0;
}

/* ---- send -------------------------------------------------------------------- */

/* With ks_lock held: vectors for what is left of the queued messages. */
static int ksock_tx_iov(struct ksock_conn *conn, struct os_iov *iov)
{
	struct ksock_tx *tx;
	u32 off;
	int n = 0;

	list_for_each_entry(tx, &conn->c_txq, tx_list) {
		u32 hlen = tx->tx_hdr_len;

		if (n > KSOCK_TX_IOV - 2)
			break;
		off = tx->tx_sent;
		if (off < hlen) {
			iov[n].iov_base = tx->tx_hdr + off;
			iov[n++].iov_len = hlen - off;
			off = 0;
		} else {
			off -= hlen;
		}
		if (tx->tx_msg && tx->tx_msg->msg_len > off) {
			iov[n].iov_base = (u8 *)tx->tx_msg->msg_buf + off;
			iov[n++].iov_len = tx->tx_msg->msg_len - off;
		}
	}
	return n;
}


/*
 * With ks_lock held: @nob bytes left; whole messages move to @done, or to
 * c_ackq with the stream offset of their last byte.
 */
static void ksock_tx_advance(struct ksock_conn *conn, u32 nob, struct list_head *done)
{
	struct ksock_tx *tx, *tmp;
	u64 end = conn->c_tx_written;

	ksock_conn_wrote(conn, nob);
	list_for_each_entry_safe(tx, tmp, &conn->c_txq, tx_list) {
		u32 left = tx->tx_nob - tx->tx_sent;

		if (nob < left) {
			tx->tx_sent += nob;
			return;
		}
		nob -= left;
		end += left;
		tx->tx_sent = tx->tx_nob;
		tx->tx_end = end;
		ksock_list_move_tail(&tx->tx_list,
				     ksock_tx_waits_ack(tx) ? &conn->c_ackq : done);
	}
}

static int ksock_conn_tx(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->c_peer->p_net;
	struct os_iov iov[KSOCK_TX_IOV];
	LIST_HEAD(done);
	u64 since;
	long rc;
	int n;

	for (;;) {
		os_mutex_lock(&ks.ks_lock);
		/* lnd_send writing: it schedules us again if it leaves work */
		n = conn->c_tx_busy ? 0 : ksock_tx_iov(conn, iov);
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
		since = conn->c_tx_written;
		ksock_tx_advance(conn, (u32)rc, &done);
		ksock_conn_acked_since(conn, &done, since);
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

/*
 * Finalize what TCP acknowledged on the connections of @s that wait for
 * it: true while some still wait. Only @s adds to and takes from
 * s_acking and frees its connections, so the list holds while the lock
 * is dropped to finalize.
 */
static bool ksock_sched_check_acks(struct ksock_sched *s)
{
	struct ksock_conn *conn, *tmp;
	LIST_HEAD(done);
	bool waiting;

	os_mutex_lock(&ks.ks_lock);
	list_for_each_entry_safe(conn, tmp, &s->s_acking, c_acking) {
		ksock_conn_acked(conn, &done);
		if (list_empty(&done))
			continue;
		os_mutex_unlock(&ks.ks_lock);
		ksock_txs_finalize(conn->c_peer->p_net, &done, LNET_MSG_STATUS_OK, 0);
		os_mutex_lock(&ks.ks_lock);
	}
	waiting = !list_empty(&s->s_acking);
	os_mutex_unlock(&ks.ks_lock);
	return waiting;
}

/*
 * A large payload stopped at an empty socket (s_rx_streaming): look at the
 * poll set again without sleeping, for up to KSOCK_BUSY_POLL_NS, until an
 * event or work on s_ready comes. Why: the sender's TCP delivers the rest
 * in bursts tens of microseconds apart, and waking a thread asleep in its
 * poll costs the sender's CPU (an IPI to an idle CPU, dear in a virtual
 * machine) more than the burst itself: a receiver that sleeps after every
 * burst slows a 1 MiB PUT by a sixth. s_polling stays false meanwhile, so
 * other threads queue work without waking us and we look at s_ready.
 * Looks that find nothing KSOCK_BUSY_POLL_MISSES times in a row end them
 * for the payload (c_rx_spin_misses): a link slower than that sleeps for
 * the rest of the message, so that it costs a few such looks per message
 * at most, while a pause of a fast one (bbr's pacing) costs one sleep.
 * s_rx_streaming names the connection until its reads stop in another
 * state, it closes or a look misses.
 */
static int ksock_sched_busy_poll(struct ksock_sched *s, struct os_poll_event *ev,
				 int max)
{
	u64 end = os_now_ns() + KSOCK_BUSY_POLL_NS;
	bool ready;
	int n;

	os_mutex_lock(&ks.ks_lock);
	s->s_busy_polls++;
	os_mutex_unlock(&ks.ks_lock);
	do {
		n = os_pollset_wait(s->s_ps, ev, max, 0);
		os_mutex_lock(&ks.ks_lock);
		if (n > 0)
			s->s_rx_streaming->c_rx_spin_misses = 0;
		ready = n || !list_empty(&s->s_ready) || ks.ks_stop;
		os_mutex_unlock(&ks.ks_lock);
		if (ready)
			return n;
		os_relax();
	} while (os_now_ns() < end);
	os_mutex_lock(&ks.ks_lock);
	s->s_rx_streaming->c_rx_spin_misses++;
	s->s_rx_streaming = NULL;
	os_mutex_unlock(&ks.ks_lock);
	return 0;
}

/*
 * Sleep in the poll set until events, work on s_ready or the timeout. Not
 * once stopping: a busy-poll may have taken the stop's wake-up.
 */
static int ksock_sched_wait(struct ksock_sched *s, struct os_poll_event *ev,
			    int max, bool more, bool acking)
{
	int n;

	os_mutex_lock(&ks.ks_lock);
	more = more || !list_empty(&s->s_ready) || ks.ks_stop;
	s->s_polling = !more;
	os_mutex_unlock(&ks.ks_lock);
	n = os_pollset_wait(s->s_ps, ev, max,
			    more ? 0 : acking ? KSOCK_ACK_POLL_MS : 1000);
	os_mutex_lock(&ks.ks_lock);
	s->s_polling = false;
	os_mutex_unlock(&ks.ks_lock);
	return n;
}

int ksock_scheduler(void *arg)
{
	struct ksock_sched *s = arg;
	struct os_poll_event ev[32];
	bool more = false, stop = false, acking = false;
	int i, n;

	while (!stop) {
		n = 0;
		if (!more && s->s_rx_streaming)
			n = ksock_sched_busy_poll(s, ev, 32);
		if (n == 0)
			n = ksock_sched_wait(s, ev, 32, more, acking);
		for (i = 0; i < n; i++)
			ksock_conn_run(ev[i].data, ksock_poll_flags(ev[i].events));
		more = ksock_sched_run_ready(s, &stop);
		acking = ksock_sched_check_acks(s);
		ksock_sched_flush(s);
	}
	return 0;
}
