/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LNet data path: portals with match entries, memory descriptors,
 * events, messages, credits, health, ping and discovery, and the interface
 * between the core and its LNDs (lolnd, socklnd). Included by lnet.h.
 *
 * LOCKING (one lock): ln->ln_api_mutex guards every object of the core,
 * configuration and data path alike.
 *  - lnet_ioctl() holds it for the whole command. A command that waits
 *    for the network (ping, discover, selftest) waits with os_cond_wait()
 *    on ln->ln_dp.dp_cond, which releases it while waiting; a ping's and
 *    a discovery's wait is os_cond_wait_intr(): the shell's Ctrl-C (SIGINT
 *    in the kernel) ends it with -EINTR and the command abandons its MD.
 *  - Every function of this header expects it held, except the ones marked
 *    UNLOCKED, which are the LNDs' entry points from their own threads and
 *    take it themselves.
 *  - Event handlers run with it held: they must not block; they may call
 *    the functions of this header (post an MD, send a message).
 *  - The core calls LND operations with it held, except lnd_shutdown
 *    (see struct lnet_lnd). An LND never holds its own locks while calling
 *    an UNLOCKED entry point, and never calls one from an operation.
 *
 * CONTEXTS: everything here runs in process context and may sleep (the
 * mutex, os_zalloc()'s GFP_KERNEL), in lnetd and in lnet.ko alike:
 *  - the locked functions and the LND operations: from lnet_ioctl() (the
 *    caller's ioctl; one of lnetd's workers), the monitor thread, an
 *    UNLOCKED entry point, or a namespace's instance starting or ending
 *    (lnet_init/lnet_fini: insmod, rmmod, a namespace made or dismantled,
 *    the latter in the kernel's netns cleanup worker);
 *  - the UNLOCKED entry points: the LNDs' own threads only (socklnd's
 *    schedulers, connds and acceptors: pthreads in lnetd, kthreads in
 *    lnet.ko), never a softirq, an interrupt or a timer;
 *  - lnet_link_event(): lnetd's link monitor, the module's per-namespace
 *    work item (a kworker).
 * What does run in softirq context is the kernel's socket callbacks
 * (sk_data_ready, sk_write_space, sk_state_change): they belong to the OS
 * layer (os_linux_sock.c), take only spinlocks and rwlocks, allocate
 * nothing, and only mark a socket ready and wake the LND thread that owns
 * it; no code of kernel/core or kernel/lnd runs there.
 */
#ifndef LNET_CORE_MSG_H
#define LNET_CORE_MSG_H

#include "../os/os.h"
#include "../nid/nid.h"
#include "../wire/lnet_wire.h"

struct lnet;
struct lnet_ni;
struct lnet_peer_ni;
struct lnet_msg;
struct lnet_libmd;
struct lnet_me;
struct lnet_srpc;

#define LNET_NPORTALS			64
#define LNET_RESERVED_PORTAL		0	/* ping and push targets */
#define LNET_PROTO_PING_MATCHBITS	0x8000000000000000ULL
/* Ours: the selftest service (IOC_LNET_SELFTEST) on this portal. */
#define LNET_SELFTEST_PORTAL		62
#define LNET_SELFTEST_PUT_BITS		0x5e1f7e5700000001ULL
#define LNET_SELFTEST_GET_BITS		0x5e1f7e5700000002ULL

/* ---- memory descriptors and match entries -------------------------------- */

/* An MD handle: a cookie, never a pointer; 0 is "none". */
struct lnet_handle_md {
	u64 cookie;
};

enum lnet_event_kind {
	LNET_EVENT_GET = 1,	/* target: a GET read this MD */
	LNET_EVENT_PUT,		/* target: a PUT wrote into this MD */
	LNET_EVENT_REPLY,	/* initiator: the REPLY of our GET arrived */
	LNET_EVENT_ACK,		/* initiator: the ACK of our PUT arrived */
	LNET_EVENT_SEND,	/* initiator/target: a send of this MD completed */
	LNET_EVENT_UNLINK,	/* the MD was unlinked (lnet_md_unlink) */
};

struct lnet_event {
	enum lnet_event_kind type;
	struct lnet_nid initiator;	/* the sending peer's primary NID */
	u32 initiator_pid;
	struct lnet_nid target;		/* our NID the message was sent to */
	struct lnet_nid source;		/* the peer's NID that sent it */
	u32 pt_index;
	u64 match_bits;
	u32 rlength;			/* length asked for */
	u32 mlength;			/* length moved */
	u32 offset;			/* where in the MD */
	u64 hdr_data;
	struct lnet_handle_md md_handle;
	void *md_user_ptr;
	void *md_start;
	int status;			/* 0 or -errno (see lnet_finalize) */
	bool unlinked;			/* last event of this MD */
	u32 msg_type;			/* enum lnet_msg_type of the message */
};

typedef void (*lnet_handler_t)(struct lnet *ln, struct lnet_event *ev);

/* MD options */
#define LNET_MD_OP_PUT		(1U << 0)	/* PUTs may write it */
#define LNET_MD_OP_GET		(1U << 1)	/* GETs may read it */
#define LNET_MD_MANAGE_REMOTE	(1U << 2)	/* use the offset the peer gives */
#define LNET_MD_TRUNCATE	(1U << 3)	/* accept longer PUT/GET, cut */
#define LNET_MD_ACK_DISABLE	(1U << 4)	/* never ACK a PUT into it */
#define LNET_MD_MAX_SIZE	(1U << 5)	/* md_max_size: at most per op */
#define LNET_MD_THRESH_INF	(-1)

struct lnet_md {
	void *start;
	u32 length;
	int threshold;		/* operations left; LNET_MD_THRESH_INF */
	u32 max_size;
	u32 options;		/* LNET_MD_* */
	void *user_ptr;
	lnet_handler_t handler;	/* NULL: no events */
};

/*
 * Threshold: every operation on an MD uses one (a PUT or GET sent from it,
 * the ACK or REPLY that answers it, each incoming PUT or GET it takes), so
 * a PUT with ACK or a GET binds threshold 2 to be unlinked with its last
 * event; an answer still lands when its message used up the threshold.
 * A failed or timed-out ACK/REPLY leaves its unit unused: unlink the MD.
 *
 * Bind a free-floating MD (for a send, or the sink of a GET's REPLY):
 * 0 and *@h, or -ENOMEM / -EINVAL (length > LNET_MTU with no TRUNCATE,
 * NULL start with length > 0, threshold 0, MAX_SIZE without a max_size
 * or above the length). Unlinked automatically when its threshold
 * reaches 0 and nothing is in flight on it.
 */
int lnet_md_bind(struct lnet *ln, const struct lnet_md *md,
		 struct lnet_handle_md *h);
/*
 * Unlink: no new operation matches it; the UNLINK event (with unlinked
 * set) is delivered once the messages in flight on it are finalized.
 * -ENOENT for an unknown handle.
 */
int lnet_md_unlink(struct lnet *ln, struct lnet_handle_md h);

/*
 * Attach a match entry with its MD to @portal (0..LNET_NPORTALS-1): it
 * matches incoming PUT/GET with (match_bits ^ @match_bits) & ~@ignore_bits
 * == 0 from @match_id (ANY: an empty NID) and @match_pid (LNET_PID_ANY).
 * @tail: after the entries already there (else before them). The ME goes
 * away with its MD. 0 and *@h, or -EINVAL / -ENOMEM.
 */
int lnet_me_attach_md(struct lnet *ln, u32 portal, const struct lnet_nid *match_id,
		      u32 match_pid, u64 match_bits, u64 ignore_bits, bool tail,
		      const struct lnet_md *md, struct lnet_handle_md *h);

/*
 * PUT @h's bytes [@offset, @offset + @len) to @target/@pid on @portal.
 * @ack: ask for an ACK (LNET_EVENT_ACK follows LNET_EVENT_SEND).
 * @src: the local NID to send from, or NULL to let selection choose.
 * Events on @h: SEND when the bytes left, then ACK; on failure one SEND or
 * ACK with status != 0. Returns 0 (the events then tell the outcome) or
 * -errno when nothing was sent and no event will come (-EINVAL bad
 * handle/portal/range, -ENETDOWN not configured, -EHOSTUNREACH no path).
 */
int lnet_put(struct lnet *ln, const struct lnet_nid *src, struct lnet_handle_md h,
	     bool ack, const struct lnet_nid *target, u32 pid, u32 portal,
	     u64 match_bits, u32 offset, u32 len, u64 hdr_data);
/*
 * GET @len bytes into @h at @offset (the target reads from its MD at
 * @offset too when it manages remote offsets); events SEND then REPLY
 * (or one failing event).
 */
int lnet_get(struct lnet *ln, const struct lnet_nid *src, struct lnet_handle_md h,
	     const struct lnet_nid *target, u32 pid, u32 portal,
	     u64 match_bits, u32 offset, u32 len);

/* ---- messages (core internal, seen by LNDs) -------------------------------- */

/* Why a send failed, for health (set by the LND or the core before finalize). */
/* What a counter counts: index of lnet_counters.lc_msgs, dp_count, dp_length. */
enum lnet_stats_kind {
	LNET_STATS_SENT,
	LNET_STATS_RECV,
	LNET_STATS_DROP,
	LNET_STATS_KINDS,
};

enum lnet_msg_hstatus {
	LNET_MSG_STATUS_OK = 0,
	LNET_MSG_STATUS_LOCAL_INTERRUPT,
	LNET_MSG_STATUS_LOCAL_DROPPED,
	LNET_MSG_STATUS_LOCAL_ABORTED,
	LNET_MSG_STATUS_LOCAL_NO_ROUTE,
	LNET_MSG_STATUS_LOCAL_ERROR,	/* our NI failed: lowers the NI's health */
	LNET_MSG_STATUS_LOCAL_TIMEOUT,
	LNET_MSG_STATUS_REMOTE_ERROR,	/* the peer failed: lowers the peer NI's */
	LNET_MSG_STATUS_REMOTE_DROPPED,
	LNET_MSG_STATUS_REMOTE_TIMEOUT,
	LNET_MSG_STATUS_NETWORK_TIMEOUT,
};

struct lnet_msg {
	struct list_head msg_list;	/* on dp_active (initiator) or a queue */
	struct list_head msg_txq;	/* waiting for credits: ni/lpni queue */
	struct lnet_hdr msg_hdr;	/* what goes on the wire (host order) */
	u32 msg_type;			/* enum lnet_msg_type */
	/* Sending side */
	struct lnet_nid msg_target;	/* as asked: any NID of the peer */
	u32 msg_target_pid;
	struct lnet_nid msg_src_req;	/* requested source, or empty */
	struct lnet_nid msg_gw_dst;	/* through a gateway: the final NI */
	struct lnet_ni *msg_txni;	/* chosen by selection */
	struct lnet_peer_ni *msg_txpeer;
	bool msg_tx_credit;		/* holds an NI tx credit */
	bool msg_peer_credit;		/* holds a peer NI tx credit */
	bool msg_sending;		/* handed to the LND, not yet done */
	bool msg_txqnob;		/* counted in msg_txpeer's lpni_txqnob */
	u64 msg_lnd_ns;			/* when last handed to the LND (latency) */
	bool msg_ack_wanted;		/* PUT waiting for ACK / GET for REPLY */
	u32 msg_retries;		/* resends done */
	u64 msg_deadline_ns;		/* transaction timeout */
	enum lnet_msg_hstatus msg_health_status;
	/* Receiving side */
	struct lnet_ni *msg_rxni;
	struct lnet_peer_ni *msg_rxpeer;
	bool msg_receiving;
	/* Both: the MD part this message moves */
	struct lnet_libmd *msg_md;
	void *msg_buf;			/* md start + offset */
	u32 msg_offset;			/* into the MD */
	u32 msg_len;			/* bytes to move (mlength) */
	u32 msg_rlength;		/* bytes asked for */
	struct lnet_event msg_ev;	/* filled as the message goes */
	void *msg_private;		/* the LND's, for its own use */
	/* Core private (msg.c, send.c, recv.c): LNDs leave these alone. */
	struct list_head msg_all;	/* on dp_msgs while allocated */
	struct list_head msg_fin;	/* on dp_finalizeq */
	u64 msg_cookie;			/* object cookie of our wire handle */
	struct lnet_msg *msg_orig;	/* REPLY being received: its GET */
	int msg_fin_status;		/* status given to lnet_finalize */
	u32 msg_resp;			/* LNET_MSG_RESP_*: ACK/REPLY progress */
	int msg_resp_status;		/* of the ACK/REPLY (or timeout) */
	bool msg_response;		/* an ACK/REPLY we send back */
	bool msg_on_active;		/* on dp_active */
	bool msg_dc_wait;		/* waits for its peer's discovery, on msg_txq */
	/* Forwarding (forward.c): a message for another node, passing by. */
	bool msg_routing;
	bool msg_rtr_credit;		/* holds a router credit of msg_rxpeer */
	bool msg_pool_credit;		/* holds a router pool credit */
	void *msg_rtr_buf;		/* its router buffer */
	void *msg_rx_private;		/* the LND's, for the deferred lnd_recv */
	/* Fault injection (fault.c): the delay rule holding it, until when. */
	void *msg_fault_rule;
	u64 msg_fault_release_ns;
};

/* struct lnet_msg.msg_resp of a PUT+ACK or GET (initiator side). */
#define LNET_MSG_RESP_NONE	0	/* still waiting for it */
#define LNET_MSG_RESP_RECV	1	/* the REPLY's payload is being received */
#define LNET_MSG_RESP_DONE	2	/* arrived (msg_resp_status set) */

/* The "no handle" of the wire (a PUT that wants no ACK), as Lustre. */
#define LNET_WIRE_COOKIE_NONE	(~0ULL)

/* ---- the LND interface ------------------------------------------------------ */

struct lnet_lnd {
	u32 lnd_type;			/* enum lnet_lnd_type */
	/* Bring up @ni (lock held): 0 or -errno (the NI is not added). */
	int (*lnd_startup)(struct lnet *ln, struct lnet_ni *ni);
	/*
	 * Take @ni down, called WITHOUT the lock after the core has taken the
	 * NI out of its lists and failed what waited for credits: close its
	 * connections, finalize every message the LND still holds (with
	 * lnet_finalize(), UNLOCKED) and stop its threads if it was the last
	 * NI. The NI is freed after this returns.
	 */
	void (*lnd_shutdown)(struct lnet *ln, struct lnet_ni *ni);
	/* LND-specific control (NULL: -EOPNOTSUPP). */
	int (*lnd_ctl)(struct lnet_ni *ni, unsigned int cmd, void *arg);
	/*
	 * Send @msg (header in msg_hdr, payload msg_buf/msg_len) to
	 * msg_txpeer->lpni_nid through @ni. Must not block. 0: the LND owns
	 * the message until it calls lnet_finalize(); -errno: it does not
	 * (the core finalizes).
	 */
	int (*lnd_send)(struct lnet_ni *ni, struct lnet_msg *msg);
	/*
	 * Receive the payload of the message announced by lnet_parse() into
	 * @buf (@mlen bytes), then discard rlen - mlen bytes; @msg NULL with
	 * mlen 0: discard all rlen bytes. Must not block: the LND finishes
	 * the receive on its own thread and then calls lnet_finalize(@msg)
	 * (not for NULL). 0 or -errno (the core then finalizes @msg).
	 * Usually called inside lnet_parse(); for a message this node
	 * forwards it may come later (from any thread holding the lock),
	 * once a router buffer is free: until then the LND reads nothing
	 * more from that connection, so a busy router slows its senders.
	 */
	int (*lnd_recv)(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
			void *buf, u32 mlen, u32 rlen);
	/* Optional: buffer the payload so that @private can be reused. */
	int (*lnd_eager_recv)(struct lnet_ni *ni, void *private,
			      struct lnet_msg *msg, void **new_private);
	/* Optional: the core learnt that @peer is down / up. */
	void (*lnd_notify_peer)(struct lnet_ni *ni, const struct lnet_nid *peer,
				bool alive);
	/* Optional: when the LND last heard from @peer (os_now_ns()), 0 = never. */
	void (*lnd_query)(struct lnet_ni *ni, const struct lnet_nid *peer, u64 *when);
	/*
	 * Optional: a connection arrived for @ni through the acceptor; the
	 * LND owns @sock from now on (an os socket; see os_sock.h).
	 */
	int (*lnd_accept)(struct lnet_ni *ni, void *sock);
};

/* Register an LND (before lnet_configure): whoever builds the instance does. */
int lnet_lnd_register(struct lnet *ln, const struct lnet_lnd *lnd);
const struct lnet_lnd *lnet_lnd_find(struct lnet *ln, u32 lnd_type);

/*
 * UNLOCKED. An LND received the header @hdr on @ni from the peer NI
 * @from (the NID the connection is with; src_nid of the header is the
 * sender's). The core checks it (known type, payload_length <= LNET_MTU;
 * dest_nid is @ni's NID, or, for a message to forward, a NID on neither
 * @ni's net nor one of ours), counts it, finds or creates the peer NI,
 * matches it (or forwards it: forward.c) and calls lnd_recv() (with a
 * NULL msg when it drops it). Returns 0, or -EPROTO for a header that
 * breaks the protocol (the LND closes the connection and logs it;
 * lnd_recv() was not called).
 */
int lnet_parse(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
	       const struct lnet_nid *from, void *private);
/*
 * UNLOCKED. The connection @private of @ni goes away while a header it
 * announced waits in the core for lnd_recv (a router waiting for a
 * buffer): the core drops that message and never calls lnd_recv with
 * @private again. An LND whose lnd_recv can come after lnet_parse calls
 * this before freeing what @private points to; and its lnd_recv on a
 * closing connection fails (-ECONNRESET) instead of taking the message.
 */
void lnet_parse_abandon(struct lnet *ln, struct lnet_ni *ni, void *private);
/* UNLOCKED. A send or receive the LND owned is done: 0 or -errno. */
void lnet_finalize(struct lnet *ln, struct lnet_msg *msg, int status);
/* Locked forms of the two, for lolnd (which runs inside lnd_send). */
int lnet_parse_locked(struct lnet *ln, struct lnet_ni *ni,
		      const struct lnet_hdr *hdr, const struct lnet_nid *from,
		      void *private);
void lnet_finalize_locked(struct lnet *ln, struct lnet_msg *msg, int status);
/* UNLOCKED. An LND's view of a peer changed (connection lost: !alive). */
void lnet_notify(struct lnet *ln, struct lnet_ni *ni, const struct lnet_nid *peer,
		 bool alive);

/* ---- health, link state, ping, discovery, selftest ------------------------- */

/*
 * UNLOCKED. Interface @ifname went up or down (rtnetlink in lnetd, a
 * netdevice notifier in the module): every NI on it gets status up/down;
 * a down NI is never selected while an up one can reach the peer.
 */
void lnet_link_event(struct lnet *ln, const char *ifname, bool up);
/*
 * UNLOCKED. The same for the device of index @ifindex (in the instance's
 * namespace), now named @ifname: the NIs on that device, or, for an NI
 * whose device is unknown, on a device of that name. @gone: the device
 * is unregistered; its NIs go down and forget it.
 */
void lnet_link_event_dev(struct lnet *ln, int ifindex, const char *ifname, bool up,
			 bool gone);

/*
 * The health of an NI / peer NI after a failed send: lowered by
 * health_sensitivity; a recovery ping raises it back (monitor thread).
 * Called by the core's finalize with the message's health status; returns
 * true when the message was queued for a resend (retry_count and the
 * transaction timeout allow it), false when it must be finalized.
 */
bool lnet_health_handle_failure(struct lnet *ln, struct lnet_msg *msg);

/* The answer to a ping or discovery. */
struct lnet_ping_result {
	struct lnet_nid primary;
	bool multi_rail;
	u32 nnids;			/* NIDs in @nids (not counting 0@lo) */
	struct lnet_nid nids[LNET_PING_MAX_NIS];
};

/*
 * Ping @dst (GET on the reserved portal) from @src (NULL: any) and wait up
 * to @timeout_ms; fills @res from the reply. 0, -ETIMEDOUT, -EHOSTUNREACH,
 * -EPROTO (bad reply), -ENETDOWN. Waits with the lock released.
 */
int lnet_ping(struct lnet *ln, const struct lnet_nid *dst, const struct lnet_nid *src,
	      u32 timeout_ms, struct lnet_ping_result *res);
/*
 * Discover @dst: ping it, create the peer NIs its reply lists under one
 * peer (rules applied to them), push our own NIs to it. Same errors.
 */
int lnet_discover(struct lnet *ln, const struct lnet_nid *dst, u32 timeout_ms,
		  struct lnet_ping_result *res);

/* Push target buffers posted at once (see lnet_push_target_post()). */
#define LNET_PUSH_BUFS		2

/*
 * The data-path state of an instance (ln->ln_dp). Set up by lnet_configure()
 * and torn down by lnet_unconfigure() (which also stops the monitor).
 */
struct lnet_dp {
	struct os_cond dp_cond;			/* waiters of ioctls, monitor */
	struct list_head dp_portals[LNET_NPORTALS];	/* struct lnet_me */
	struct list_head dp_mds;		/* every live struct lnet_libmd */
	u64 dp_md_cookie;			/* the next MD cookie */
	u64 dp_interface_cookie;		/* random per configure */
	struct list_head dp_active;		/* msgs waiting for ACK/REPLY/timeout */
	struct list_head dp_resendq;		/* msgs to resend (health) */
	struct list_head dp_finalizeq;		/* finalize without recursion */
	bool dp_finalizing;
	const struct lnet_lnd *dp_lnds[8];
	u32 dp_nlnds;
	struct os_thread dp_monitor;
	bool dp_monitor_stop;
	struct lnet_handle_md dp_ping_md;	/* ping target */
	/* Push targets (ping.c): each takes several pushes side by side. */
	struct lnet_handle_md dp_push_mds[LNET_PUSH_BUFS];
	bool dp_push_up;			/* used-up ones are posted again */
	u8 *dp_ping_buf;			/* our ping info (wire bytes) */
	u32 dp_ping_len;
	u64 dp_incarnation;			/* random per configure */
	/* Counters for `stats show` (enum in lnet_ioctl.h order). */
	u64 dp_msgs_alloc, dp_msgs_max, dp_errors;
	/* messages and their payload bytes by enum lnet_stats_kind */
	u64 dp_count[LNET_STATS_KINDS], dp_length[LNET_STATS_KINDS];
	u64 dp_resend_count;
	u64 dp_route_count, dp_route_length;	/* forwarded (forward.c) */
	u64 dp_response_timeout_count, dp_failed_resends, dp_successful_resends;
	u64 dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT + 1];
	void *dp_selftest;			/* selftest service (selftest.c) */
	struct lnet_srpc *dp_srpc;		/* lnet_selftest (kernel/selftest/) */
	struct list_head dp_msgs;		/* every allocated struct lnet_msg */
	u64 dp_msg_cookie;			/* the next message cookie */
	bool dp_stopping;			/* lnet_unconfigure is running */
	bool dp_monitor_running;		/* started by the first traffic */
	struct list_head dp_pushq;		/* pushes received (discovery.c) */
	struct list_head dp_dcq;		/* discoveries on send (discovery_send.c) */
	struct os_cond dp_monitor_cond;		/* wakes the monitor (monitor.c) */
};

/* Data path lifetime: called by lnet_configure / lnet_unconfigure. */
int lnet_dp_startup(struct lnet *ln);
void lnet_dp_shutdown(struct lnet *ln);
/* Zero the traffic counters (not dp_msgs_alloc/dp_msgs_max): startup, stats reset. */
void lnet_dp_counters_clear(struct lnet_dp *dp);

/*
 * Send @msg (header type, target, MD part and msg_src_req filled): choose
 * the path (0@lo and our own NIDs go through lolnd; else
 * lnet_select_pathway, only the msg_src_req NI when one is given), take
 * the NI and peer NI tx credits (queueing when they run out) and hand it
 * to the LND. 0: the message will be finalized (maybe already was: do not
 * touch it); -errno: nothing was sent and the caller still owns @msg
 * (-EHOSTUNREACH no path, -ENETDOWN not configured, -ENOMEM).
 * Health resends call it again on a message whose send failed.
 */
int lnet_send_msg(struct lnet *ln, struct lnet_msg *msg);

/*
 * Finalize rules that concern the monitor (CORE-B): a message on dp_active
 * with !msg_sending waits for its ACK/REPLY; the monitor times it out with
 * lnet_finalize_locked(msg, -ETIMEDOUT) after setting msg_health_status
 * (that delivers the ACK/REPLY event with -ETIMEDOUT; no resend is tried
 * and lnet_health_handle_failure is not called for it). A message with
 * msg_sending belongs to its LND: only the LND finalizes it. A send that
 * fails (status != 0) goes through lnet_health_handle_failure first.
 */

/* Services started by lnet_dp_startup, in this order (stopped in reverse). */
int lnet_ping_target_init(struct lnet *ln);
void lnet_ping_target_fini(struct lnet *ln);
int lnet_selftest_init(struct lnet *ln);
void lnet_selftest_fini(struct lnet *ln);
/* Lustre's lnet_selftest protocol (kernel/selftest/srpc.h). */
int lnet_srpc_init(struct lnet *ln);
void lnet_srpc_fini(struct lnet *ln);
void lnet_srpc_tick(struct lnet *ln, u64 now);
void lnet_srpc_process(struct lnet *ln);
bool lnet_srpc_pending(struct lnet *ln);
int lnet_monitor_start(struct lnet *ln);
void lnet_monitor_stop(struct lnet *ln);

/*
 * LND timeout in ns: the lnd_timeout global (transaction_timeout - 1) /
 * (retry_count + 1) seconds, at least 1, as Lustre computes it.
 */
u64 lnet_lnd_timeout_ns(struct lnet *ln);
/*
 * Rebuild our ping info (ping.c) after an NI was added or deleted or
 * changed status; nothing happens when it is unchanged. The monitor also
 * calls it every tick (100 ms), so a missed call only delays the change.
 * lnet_monitor_stop() is called with ln_api_mutex held and releases it
 * while it joins the thread (which needs the lock to finish).
 */
void lnet_ping_target_update(struct lnet *ln);

#endif /* LNET_CORE_MSG_H */
