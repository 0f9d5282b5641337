/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals shared by health.c, monitor.c, ping.c, discovery.c and link.c:
 * recovery scheduling, operations a caller waits for (ping, push), the
 * ping target contents and the merge of a peer's NIDs from its ping info.
 * Everything here expects ln_api_mutex held.
 */
#ifndef LNET_CORE_PING_PRIV_H
#define LNET_CORE_PING_PRIV_H

#include "lnet_priv.h"

/*
 * Room for the largest ping info: the header and LNET_PING_MAX_NIS NIs,
 * each at most a large (IPv6) entry's size.
 */
#define LNET_PING_INFO_MAX_LEN \
	(LNET_WIRE_PING_HDR_LEN + LNET_PING_MAX_NIS * LNET_WIRE_PING_LARGE_NI_LEN)
/* Received pushes waiting for the monitor, at most. */
#define LNET_PUSHQ_MAX			64
/* How often the monitor looks at timeouts and recovery (ns). */
#define LNET_MONITOR_TICK_NS		100000000ULL
/* a turn of selftest units queued by the last one waits this long (1 ms) */
#define LNET_MONITOR_SRPC_TURN_NS	1000000ULL

/*
 * monitor.c: is @msg a recovery ping? It tests one path: a resend on
 * another would prove nothing about it.
 */
bool lnet_msg_is_recovery(const struct lnet_msg *msg);

/*
 * health.c: recovery of a lowered NI / peer NI by the monitor's pings, the
 * same for both kinds.
 */
u64 lnet_recovery_interval_ns(struct lnet *ln, u32 ping_count);
/* On its recovery queue, with a ping time unless one is set or in flight. */
void lnet_recovery_schedule(struct lnet *ln, struct lnet_health *h);
/* Its link came back: a lowered NI is pinged at the next tick. */
void lnet_recovery_now(struct lnet_health *h);
/* A recovery ping answered: health back to LNET_MAX_HEALTH, off the queue. */
void lnet_health_recovered(struct lnet_health *h);
/* A message timed out (monitor): count it, lower the peer NI it went to. */
void lnet_health_timeout(struct lnet *ln, struct lnet_msg *msg);

/*
 * ping.c: a GET (ping) or PUT (push) that a caller waits for. The buffer
 * is the MD. Whoever is last frees it: the waiter when the MD's last event
 * came before it left, else the event handler (abandoned).
 */
struct lnet_wait_op {
	bool done;		/* REPLY/ACK or a failure arrived */
	bool unlinked;		/* the MD's last event came */
	bool abandoned;		/* the waiter left: the handler frees */
	bool wake_monitor;	/* the monitor waits for it (discovery on send) */
	int status;		/* 0 or -errno, valid when done */
	u32 mlength;		/* bytes the REPLY brought */
	u32 len;		/* of buf */
	u8 buf[];
};

struct lnet_wait_op *lnet_wait_op_alloc(struct lnet *ln, u32 len);
/* Bind op->buf as a free-floating MD (@threshold operations). */
int lnet_wait_op_bind(struct lnet *ln, struct lnet_wait_op *op, int threshold,
		      struct lnet_handle_md *h);
/* Wait (lock released meanwhile) until done or @deadline_ns: status. */
int lnet_wait_op_wait(struct lnet *ln, struct lnet_wait_op *op, u64 deadline_ns);
/* The waiter is done with @op: free it now or leave it to the handler. */
void lnet_wait_op_release(struct lnet *ln, struct lnet_wait_op *op,
			  struct lnet_handle_md h);

/*
 * How long the pings LNet sends itself (discovery, recovery, push) wait:
 * as long as a peer may stay silent before it counts dead by default.
 */
#define LNET_PING_TIMEOUT_DEF_MS	180000
/* os_now_ns() + @timeout_ms (0: LNET_PING_TIMEOUT_DEF_MS). */
u64 lnet_ping_deadline(u32 timeout_ms);
/*
 * GET @dst's ping info (from @src if given) into @md, a threshold-1 MD
 * whose user_ptr is an op of the caller's (lnet_obj_alloc'ed) and whose
 * handler frees it on the unlink event. 0: sent. -errno: nothing went, the
 * op is freed or left to that event, with *@reported set (the caller
 * reports the failure, the handler must not).
 */
int lnet_ping_get(struct lnet *ln, struct lnet_md *md, const struct lnet_nid *src,
		  const struct lnet_nid *dst, bool *reported);
/* A zeroed ping info with room for @nnis NIs (os_free it). */
struct lnet_ping_info *lnet_ping_info_alloc(u32 nnis);
/*
 * Ping @dst from @src (NULL: any) until @deadline_ns and decode the reply
 * into a new *@pi. 0, -ETIMEDOUT, -EPROTO (bad reply) or the send's error.
 */
int lnet_ping_fetch(struct lnet *ln, const struct lnet_nid *dst,
		    const struct lnet_nid *src, u64 deadline_ns,
		    struct lnet_ping_info **pi);
/* Decode a GET's reply: a ping info with at least one NI, else -EPROTO. */
int lnet_ping_reply_decode(const struct lnet_wait_op *op,
			   struct lnet_ping_info **out);
/* The result of a ping/discover of @dst from its decoded reply. */
void lnet_ping_result_fill(struct lnet *ln, const struct lnet_nid *dst,
			   const struct lnet_ping_info *pi,
			   struct lnet_ping_result *res);

/*
 * discovery.c: make the peer of @nid hold exactly the NIDs of @pi (merging
 * peers that had some of them), mark it discovered. 0, -EPROTO (no usable
 * NID) or -ENOMEM. Sets *@primary to the peer's primary NID.
 */
int lnet_peer_merge_ping(struct lnet *ln, const struct lnet_nid *nid,
			 const struct lnet_ping_info *pi,
			 struct lnet_nid *primary);
/*
 * Start a PUT of our ping info to @dst's push target (the caller waits for
 * *@opp, then lnet_wait_op_release()s it with *@h); -errno: none is out.
 */
int lnet_push_start(struct lnet *ln, const struct lnet_nid *dst,
		    struct lnet_wait_op **opp, struct lnet_handle_md *h);
/* Log a push that failed after discovering @prim (the peer stays known). */
void lnet_push_fail_log(const struct lnet_nid *prim, int rc);
/* A PUT arrived on our push target: queue it for the monitor (copies). */
void lnet_push_queue(struct lnet *ln, const struct lnet_event *ev);
/* The monitor merges the queued pushes (outside any event handler). */
void lnet_push_process(struct lnet *ln);
/* Drop the queued pushes (shutdown). */
void lnet_push_flush(struct lnet *ln);

#endif /* LNET_CORE_PING_PRIV_H */
