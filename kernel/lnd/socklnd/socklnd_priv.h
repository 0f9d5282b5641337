/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Socket LND internals.
 *
 * Objects: one ksock_listener per local address and port (its acceptor
 * thread and listening socket, shared by every NI on that address, of
 * any instance, and refcounted by them), one ksock_net per NI (its peers), one ksock_peer per remote NID (its connections and
 * the messages waiting for one), one ksock_conn per TCP connection (its
 * tx queue and its receive state machine), one ksock_tx per message sent.
 * Threads shared by every NI of every instance: two connds (one answers
 * hellos and tells the core of peers going up and down, one connects and
 * times messages out) and KSOCK_NSCHED schedulers (socket I/O, epoll).
 *
 * Locking: ks.ks_lock guards every list and flag here. It is the innermost
 * lock: taken with an instance's ln_api_mutex held (lnd_send, lnd_recv...)
 * but never held while calling into the core (lnet_parse, lnet_finalize,
 * lnet_notify) or while blocking on a socket. A connection belongs to one
 * scheduler: only that thread reads its socket, runs its receive state,
 * takes messages off its tx queue, closes and frees it; other threads ask
 * it to (ksock_conn_schedule), which wakes it only when it sleeps in its
 * poll (s_polling). The one other writer is lnd_send's fast path: a small
 * message for an empty tx queue; under ks_lock the caller marks the
 * connection c_tx_busy (ksock_conn_send_claim), writes without ks_lock,
 * and clears it under ks_lock (ksock_conn_send_done). While it is set the
 * scheduler does not write the socket and its owner does not close it
 * (ksock_conn_close waits on ks_cond), so a write, which may run the
 * peer's receive path on a veth, holds no lock other threads need. The
 * core calls lnd_send with its ln_api_mutex held, so only a scheduler
 * thread claims (an ACK, the next message started by an event): the
 * claimed message waits on that scheduler's s_deferred until the core
 * call returns (ksock_sched_flush), so the other schedulers are not kept
 * from the core meanwhile. Any other thread (an API call: ping, the first
 * messages of a selftest) queues its message for the scheduler. Both
 * locks are no-I/O mutexes (os.h): the sanitized builds abort on a socket
 * call under either. A scheduler flushes before it waits for a busy
 * connection.
 * ks.ks_thread_mutex serialises starting and stopping the shared threads;
 * taken before ks_lock, never inside it.
 */
#ifndef LNET_SOCKLND_PRIV_H
#define LNET_SOCKLND_PRIV_H

#include "../../os/os_sock.h"
#include "socklnd.h"

#define KSOCK_NSCHED		2
#define KSOCK_SMALL_MAX		1024	/* payloads below go on CONTROL */
#define KSOCK_MIN_RESV_PORT	512	/* privileged source ports we try, */
#define KSOCK_MAX_RESV_PORT	1023	/* from the top down */
#define KSOCK_TX_IOV		32	/* vectors per sendmsg */
#define KSOCK_REAP_NS		(1000000000ULL)	/* timeout scan period */
#define KSOCK_SLOP_BUF		4096
#define KSOCK_RX_STAGE		4096	/* bytes one small read asks for */
#define KSOCK_MAX_HANDSHAKES	256	/* per listener at once (ks_max_handshakes) */
#define KSOCK_TOPUP_RETRY_NS	(1000000000ULL)	/* after a failed extra connection */
/*
 * Payloads from this size on stay on their connection, once written,
 * until TCP acknowledged their last byte (c_ackq): the size from which a
 * Lustre node asks for zero-copy ACKs (zc_min_payload).
 */
#define KSOCK_ACKED_MIN		(16U * 1024U)
#define KSOCK_ACK_POLL_MS	1	/* scheduler wake-up while acks are awaited */
/*
 * A payload of KSOCK_BUSY_POLL_MIN bytes or more partly read and the
 * socket empty for now: its owner looks again without sleeping for up to
 * KSOCK_BUSY_POLL_NS before it sleeps in its poll (ksock_sched_busy_poll).
 */
#define KSOCK_BUSY_POLL_MIN	(64U * 1024U)
#define KSOCK_BUSY_POLL_NS	(50ULL * 1000ULL)
#define KSOCK_BUSY_POLL_MISSES	2	/* in a row: no more for this payload */
/* "[IPv6 address]:port" at most, with its NUL */
#define KSOCK_NAME_LEN		56

/* Why a connection closes: the log line and the health of its messages. */
struct ksock_why {
	char text[96];
	enum lnet_msg_hstatus hstatus;
	bool quiet;			/* our own shutdown: no log line */
};

struct ksock_tx {
	struct list_head tx_list;	/* on c_txq, c_ackq or p_txq */
	struct lnet_msg *tx_msg;	/* NULL: a NOOP carrying ZC-ACK cookies */
	int tx_kind;			/* SOCKLND_CONN_CONTROL / _BULK_OUT */
	u32 tx_nob;			/* header + payload bytes */
	u32 tx_sent;			/* of them, written */
	u64 tx_deadline;		/* os_now_ns() */
	u64 tx_end;			/* on c_ackq: c_tx_written after its last byte */
	/*
	 * A NOOP's ksm_zc_cookies (see ksock_zc_merge); an LNet message's
	 * [0]: the ZC-REQ cookie it carries (ksock_tx_zc_req), 0 for none.
	 */
	u64 tx_zc[2];
	struct ksock_conn *tx_conn;	/* on s_deferred: the connection it claimed */
	u32 tx_hdr_len;			/* LNet messages: the connection version's */
	u8 tx_hdr[LNET_WIRE_MSG_HDR_MAX_LEN];
};

enum ksock_rx_state {
	KSOCK_RX_HEADER,		/* reading the 24 (+72, V4: +96) header bytes */
	KSOCK_RX_PARSE,			/* lnet_parse has it: wait for lnd_recv */
	KSOCK_RX_PAYLOAD,		/* into the buffer lnd_recv gave */
	KSOCK_RX_SLOP,			/* the rest, discarded */
};

/* c_ready_flags: what the owning scheduler is asked to do. */
#define KSOCK_DO_RX	(1U << 0)
#define KSOCK_DO_TX	(1U << 1)
#define KSOCK_DO_CLOSE	(1U << 2)
#define KSOCK_DO_RX_ALL	(1U << 3)	/* read to -EAGAIN or EOF (hang-up seen) */

struct ksock_conn {
	struct list_head c_list;	/* on p_conns */
	struct list_head c_ready;	/* on s_ready while c_ready_flags */
	u32 c_ready_flags;
	struct ksock_peer *c_peer;
	struct ksock_sched *c_sched;
	struct os_sock *c_sock;
	int c_kind;			/* our view: CONTROL, BULK_IN, BULK_OUT */
	char c_name[KSOCK_NAME_LEN];	/* "a.b.c.d:port" or "[v6]:port" of the remote end */
	bool c_closing;			/* asked to close: not used for tx */
	bool c_tx_busy;			/* lnd_send writes it outside ks_lock */
	u64 c_picked;			/* p_picks when last chosen for a send */
	struct ksock_why c_why;		/* the first reason to close */
	struct list_head c_txq;		/* struct ksock_tx, in order */
	/*
	 * Progress (see ksock_conn_stalled()): written and acknowledged
	 * bytes push c_tx_deadline on, read bytes c_rx_deadline.
	 */
	struct list_head c_ackq;	/* written, waiting for TCP's ACK */
	struct list_head c_acking;	/* on s_acking while c_ackq is not empty */
	u64 c_tx_written;		/* bytes written since the connection began */
	u64 c_tx_unacked;		/* the last os_sock_unacked() seen */
	u64 c_tx_deadline;		/* no progress by then with data unacked: stalled */
	u64 c_rx_deadline;		/* the same for a message partly read */
	bool c_rx_partial;		/* a message is partly read */
	u8 c_rx_spin_misses;		/* busy-polls in a row that found nothing */
	u64 c_rx_bytes;			/* read since the connection began (scheduler's) */
	u64 c_rx_zc_cookie;		/* the message being read asks for a ZC-ACK */
	/* Receive state: the scheduler's, lnd_recv's while in RX_PARSE. */
	enum ksock_rx_state c_rx_state;
	bool c_rx_in_parse;		/* inside lnet_parse() */
	u32 c_rx_got;			/* header bytes in c_rx_hdr */
	u32 c_rx_plen;			/* the payload length of the header in c_rx_hdr */
	u8 c_rx_hdr[LNET_WIRE_MSG_HDR_MAX_LEN];
	struct lnet_msg *c_rx_msg;
	u8 *c_rx_buf;
	u32 c_rx_mlen, c_rx_done, c_rx_slop;
	/* Read ahead by the last small read (see ksock_rx_read()). */
	u32 c_stage_off, c_stage_len;
	bool c_rx_drained;		/* a read came back short: stop */
	bool c_rx_to_eof;		/* a hang-up was seen: do not stop */
	u8 c_stage[KSOCK_RX_STAGE];
};

struct ksock_peer {
	struct list_head p_list;	/* on n_peers */
	struct list_head p_connd;	/* on ks_connd_peers while p_connecting */
	struct ksock_net *p_net;
	struct lnet_nid p_nid;
	struct list_head p_conns;	/* struct ksock_conn */
	struct list_head p_txq;		/* waiting for a connection */
	bool p_connecting;
	struct list_head p_notify;	/* on ks_notifyq: tell the core p_alive */
	bool p_alive;
	u64 p_incarnation;		/* from its hellos, 0 = unknown */
	u64 p_last_alive;		/* os_now_ns() of the last message */
	u64 p_picks;			/* sends given a connection so far */
	u64 p_topup_after;		/* os_now_ns(): no extra connection before */
	u64 p_zc_next;			/* the next ZC-REQ cookie: 2.. (1: keepalive) */
};

/*
 * The listening socket of one address and port. ks_listeners and l_refs
 * are guarded by ks_thread_mutex; l_stop by ks_lock.
 */
struct ksock_listener {
	struct list_head l_list;	/* on ks_listeners */
	struct os_netns *l_ns;		/* its instances' namespace (os.h) */
	struct os_sockaddr l_addr;
	u16 l_port;
	u32 l_refs;			/* NIs using it */
	bool l_stop;
	struct os_sock *l_sock;
	struct os_pollset *l_ps;
	struct os_thread l_thread;
	struct os_sock_route l_route;	/* its address's packets leave by its interface */
};

struct ksock_net {
	struct list_head n_list;	/* on ks_nets */
	struct lnet *n_ln;
	struct lnet_ni *n_ni;
	struct lnet_nid n_nid;
	/*
	 * The hello version and header form of every connection of this NI:
	 * V3 (8-byte NIDs) on IPv4, V4 (20-byte NIDs) on IPv6, as a Lustre
	 * node offers them (ksock_net_version()).
	 */
	u32 n_version;
	u32 n_hdr_len;			/* lnet_msg_hdr_size(n_version) */
	u64 n_incarnation;
	u64 n_timeout_ns;		/* lnet_lnd_timeout_ns(), cached */
	u32 n_conns_per_peer;		/* BULK_IN and BULK_OUT each, cached */
	u16 n_port;
	struct ksock_listener *n_listener;
	bool n_shutdown;
	struct list_head n_peers;
	u32 n_nconns;			/* connections not yet freed */
	u32 n_refs;			/* connd working for it */
};

/* A socket accepted for a net, waiting for its hello (connd). */
struct ksock_acc {
	struct list_head a_list;
	struct ksock_net *a_net;
	struct os_sock *a_sock;
	char a_name[KSOCK_NAME_LEN];
};

struct ksock_sched {
	struct os_thread s_thread;
	struct os_pollset *s_ps;
	struct list_head s_ready;	/* struct ksock_conn */
	struct list_head s_acking;	/* struct ksock_conn with c_ackq entries */
	bool s_polling;			/* asleep in its poll: wake it for work */
	/* a large payload stopped at an empty socket: busy-poll for it (own thread) */
	struct ksock_conn *s_rx_streaming;
	u64 s_busy_polls;		/* busy-polls begun, under ks_lock (tests read it) */
	struct list_head s_deferred;	/* struct ksock_tx: its own thread's only */
	u32 s_nconns[SOCKLND_CONN_BULK_OUT + 1];	/* by kind, under ks_lock */
	u8 s_slop[KSOCK_SLOP_BUF];
};

struct ksock_global {
	struct os_mutex ks_lock;
	struct os_cond ks_cond;		/* connd work, conns freed */
	struct os_mutex ks_thread_mutex;
	bool ks_inited;
	bool ks_running;		/* shared threads started */
	bool ks_stop;
	u16 ks_port;
	enum lnet_accept_mode ks_accept;	/* secure, all or none */
	u32 ks_backlog;			/* listen(2) backlog of new listeners */
	u64 ks_handshake_ns;		/* accept_timeout: a handshake's time */
	u32 ks_max_handshakes;		/* per listener at once (tests lower it) */
	struct list_head ks_nets;
	struct list_head ks_listeners;	/* struct ksock_listener */
	u32 ks_nnets;
	struct ksock_sched ks_sched[KSOCK_NSCHED];
	u32 ks_next_sched;
	/* connd 0 answers hellos, connd 1 connects: a connect to a local
	 * NI must not wait for its own thread. */
	struct os_thread ks_connd[2];
	struct list_head ks_connd_peers;	/* struct ksock_peer */
	struct list_head ks_connd_accs;		/* struct ksock_acc */
	/* Peers whose state the core must learn (lnet_notify), told by
	 * connd 0 alone, so that the last state wins. */
	struct list_head ks_notifyq;
};

extern struct ksock_global ks;

/* list.h has no move or splice (yet): ours, kept private to the LND. */
static inline void ksock_list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add_tail(e, head);
}

/* Append every entry of @from to @to; @from ends up empty. */
static inline void ksock_list_splice_init(struct list_head *from, struct list_head *to)
{
	if (list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	INIT_LIST_HEAD(from);
}

/* socklnd.c */
struct ksock_peer *ksock_peer_find(struct ksock_net *net, const struct lnet_nid *nid);
struct ksock_peer *ksock_peer_find_or_create(struct ksock_net *net,
					     const struct lnet_nid *nid);
struct ksock_conn *ksock_peer_conn(struct ksock_peer *peer, int kind);
u32 ksock_peer_conn_count(struct ksock_peer *peer, int kind);
u32 ksock_peer_conns_wanted(const struct ksock_peer *peer, int kind);
bool ksock_peer_short(struct ksock_peer *peer, int kind);
void ksock_peer_start_connect(struct ksock_peer *peer);
bool ksock_peer_alive(struct ksock_peer *peer);
void ksock_peer_notify(struct ksock_peer *peer, bool alive);
void ksock_txs_finalize(struct ksock_net *net, struct list_head *txs,
			enum lnet_msg_hstatus hs, int status);
void ksock_addr_name(const struct os_sockaddr *addr, u16 port, char *buf, size_t len);
void ksock_nid_addr(const struct lnet_nid *nid, struct os_sockaddr *sa);

/* socklnd_accept.c: the acceptor thread of a listener */
int ksock_acceptor(void *arg);

/*
 * Its parts, for tests/fuzz/fuzz_socklnd_accept.c, which plays the thread:
 * the handshakes of the connections @ka accepted, one state machine each.
 */
enum ksock_hs_state {
	KSOCK_HS_REQUEST,		/* LNET_WIRE_ACCEPT_LEN, then v2's rest */
	KSOCK_HS_HELLO,			/* its magic and version: 8 bytes */
	KSOCK_HS_HELLO_REST,		/* the rest of its version's fixed part */
	KSOCK_HS_IPS,			/* then 4 bytes per announced IP (V3) */
};

/* One accepted connection in its handshake. */
struct ksock_hs {
	struct list_head h_list;	/* on ka_pending, oldest first */
	struct os_sock *h_sock;
	char h_name[KSOCK_NAME_LEN];	/* "a.b.c.d:port" or "[v6]:port" of the peer */
	u64 h_deadline;
	enum ksock_hs_state h_state;
	struct lnet_nid h_nid;		/* the NI its request named */
	u32 h_version;			/* that NI's hello version */
	struct ksock_hello h_hello;
	u32 h_got, h_need;
	u8 h_buf[LNET_WIRE_HELLO_LEN + 4 * LNET_WIRE_HELLO_MAX_IPS];
};

/* The acceptor thread's own state. */
struct ksock_acceptor_ctx {
	struct ksock_listener *ka_l;
	struct list_head ka_pending;	/* struct ksock_hs */
	u32 ka_npending;
};

/* @s, accepted from @addr:@port, starts its handshake (or is refused). */
void ksock_hs_start(struct ksock_acceptor_ctx *ka, struct os_sock *s,
		    const struct os_sockaddr *addr, u16 port);
/* Data (or an error) on @hs's socket: it moves on, completes or is dropped. */
void ksock_hs_run(struct ksock_acceptor_ctx *ka, struct ksock_hs *hs);
/* Drop the handshakes past their deadline at @now; ms until the next one. */
int ksock_hs_expire(struct ksock_acceptor_ctx *ka, u64 now);

/* socklnd_conn.c */
int ksock_connd(void *arg);
bool ksock_flag_set(const bool *flag);
u32 ksock_nid_version(const struct lnet_nid *nid);
int ksock_hello_start(const u8 *buf, u32 version, char *why, size_t wlen);
int ksock_hello_parse(const u8 *buf, u32 version, struct ksock_hello *h, char *why,
		      size_t wlen);
u32 ksock_hello_answer_make(struct ksock_net *net, const struct lnet_nid *peer, u8 *buf);
void ksock_hello_answer_send(struct os_sock *sock, u8 *buf, u32 len);
void ksock_passive_finish(struct ksock_net *net, struct os_sock *sock, const char *name,
			  const struct ksock_hello *in, u64 deadline);
int ksock_accept(struct lnet_ni *ni, void *sock);
int ksock_conn_attach(struct ksock_net *net, struct os_sock *sock, const char *name,
		      const struct lnet_nid *peer_nid, u64 incarnation, int kind);

/* socklnd_sched.c */
int ksock_scheduler(void *arg);
void ksock_conn_schedule(struct ksock_conn *conn, u32 flags);
void ksock_conn_close_req(struct ksock_conn *conn, const char *text,
			  enum lnet_msg_hstatus hs);
void ksock_conn_queue_tx(struct ksock_conn *conn, struct ksock_tx *tx);
bool ksock_conn_send_claim(struct ksock_conn *conn, struct ksock_tx *tx);
long ksock_conn_send_write(struct ksock_conn *conn, struct ksock_tx *tx);
bool ksock_conn_send_done(struct ksock_conn *conn, struct ksock_tx *tx, long rc);
int ksock_sched_init(struct ksock_sched *s);
struct ksock_sched *ksock_sched_current(void);
void ksock_sched_flush(struct ksock_sched *s);
void ksock_conn_sample_unacked(struct ksock_conn *conn, u64 now);
bool ksock_zc_merge(u64 zc[2], u64 cookie);
/* Do the ksm_zc_cookies @zc0, @zc1 of a ZC-ACK name @cookie (those forms)? */
bool ksock_zc_covers(u64 zc0, u64 zc1, u64 cookie);
/* With ks_lock held: give @tx, large and answered by no LNet message, a ZC-REQ cookie. */
void ksock_tx_zc_req(struct ksock_peer *peer, struct ksock_tx *tx);

#endif /* LNET_SOCKLND_PRIV_H */
