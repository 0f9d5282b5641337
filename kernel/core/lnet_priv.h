/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces between the files of the LNet core (kernel/core/).
 * Not for other parts of the tree: they use lnet.h.
 */
#ifndef LNET_CORE_PRIV_H
#define LNET_CORE_PRIV_H

#include "lnet.h"
#include "hooks.h"
#include "fault.h"

/* Tell the policy engine (hooks.h) of @event, if one is registered. */
#define lnet_hook(ln, event, ...)					\
	do {								\
		const struct lnet_hooks *hooks_ = (ln)->ln_hooks;	\
									\
		if (hooks_ && hooks_->event)				\
			hooks_->event((ln), ##__VA_ARGS__);		\
	} while (0)

/* hash.c: NID -> peer NI. Insert never fails (growth is best effort). */
int lnet_lpni_hash_init(struct lnet *ln);
void lnet_lpni_hash_fini(struct lnet *ln);
void lnet_lpni_hash_insert(struct lnet *ln, struct lnet_peer_ni *lpni);
void lnet_lpni_hash_remove(struct lnet *ln, struct lnet_peer_ni *lpni);
struct lnet_peer_ni *lnet_lpni_hash_find(struct lnet *ln,
					 const struct lnet_nid *nid);

/* net.c */
int lnet_lo_net_create(struct lnet *ln);
/*
 * The address of length @len (4: IPv4, 16: IPv6) that the lookup @ifa
 * found, NULL if none. A lookup that sets neither has4 nor has6 tells
 * addr alone.
 */
const u8 *lnet_ifaddr_of_len(const struct os_ifaddr *ifa, u8 len);
/* "NI <nid> (<ifname>) <what>" into the log, at info: an NI's lifecycle. */
void lnet_ni_log(const struct lnet_ni *ni, const char *what);
void lnet_nets_destroy(struct lnet *ln);

/* peer.c */
void lnet_peers_destroy(struct lnet *ln);
struct lnet_peer *lnet_peer_create(struct lnet *ln, const struct lnet_nid *prim,
				   u32 flags);

/* route.c */
void lnet_routes_destroy(struct lnet *ln);
/* Is there a route (alive or not) to @net_id? */
bool lnet_route_any(struct lnet *ln, u32 net_id);
/* Drop every route through @gw (its peer is being deleted). True if any. */
bool lnet_routes_del_gateway(struct lnet *ln, struct lnet_peer *gw);
/*
 * The monitor, each tick: ping the gateways whose check is due (every
 * alive_router_check_interval s; 0 = no checks), and fail those whose
 * ping got no reply within router_ping_timeout s.
 */
void lnet_gateways_check(struct lnet *ln, u64 now_ns);

/*
 * health.c: a new NI's / peer NI's health (@kind enum lnet_kind): the
 * max, no failure, no recovery; fini takes it off its recovery queue.
 */
void lnet_health_init(struct lnet_health *h, u32 kind);
void lnet_health_fini(struct lnet_health *h);
/*
 * Set by hand (IOC_LIBCFS_SET_HEALTH): below LNET_MAX_HEALTH it is
 * recovered by pings as after a failure; at it, its recovery ends.
 */
void lnet_health_set(struct lnet *ln, struct lnet_health *h, u32 value);

/* global.c: routing off, default buffers and settings (configure). */
void lnet_settings_init(struct lnet *ln);

static inline bool lnet_nid_is_lo(const struct lnet_nid *nid)
{
	return nid->nid_lnd == LNET_LND_LO;
}

/* ---- data path internals (dp.c md.c me.c msg.c send.c recv.c) ---------- */

struct lnet_libmd {
	struct list_head md_list;	/* on dp_mds */
	struct lnet_me *md_me;		/* its match entry; NULL when bound */
	u64 md_cookie;
	void *md_start;
	u32 md_length;
	u32 md_max_size;
	u32 md_options;			/* LNET_MD_* */
	int md_threshold;		/* operations left, LNET_MD_THRESH_INF */
	void *md_user_ptr;
	lnet_handler_t md_handler;
	u32 md_offset;			/* next local offset (no MANAGE_REMOTE) */
	u32 md_refcount;		/* messages attached to it */
	bool md_unlinking;		/* lnet_md_unlink: UNLINK event due */
};

struct lnet_me {
	struct list_head me_list;	/* on dp_portals[me_portal] */
	u32 me_portal;
	struct lnet_nid me_match_id;	/* empty: any NID */
	u32 me_match_pid;		/* LNET_PID_ANY: any */
	u64 me_match_bits;
	u64 me_ignore_bits;
	struct lnet_libmd *me_md;
};

/* md.c */
struct lnet_libmd *lnet_md_lookup(struct lnet *ln, u64 cookie);
/* Can a new operation use it (not unlinking, threshold left)? */
bool lnet_md_usable(const struct lnet_libmd *md);
/* @msg starts an operation on @md: a reference, one threshold used. */
void lnet_md_attach_msg(struct lnet_libmd *md, struct lnet_msg *msg);
/* The message's last use of its MD: reference dropped, MD freed if done. */
void lnet_md_detach_msg(struct lnet *ln, struct lnet_msg *msg);
/* A reference to @md dropped (taken by a message): MD freed if done. */
void lnet_md_release(struct lnet *ln, struct lnet_libmd *md);
/*
 * Deliver msg->msg_ev (type and status set by the caller) to the handler
 * of msg->msg_md; @last: the message's final event (so it may be the
 * MD's last, with ev.unlinked set).
 */
void lnet_md_deliver(struct lnet *ln, struct lnet_msg *msg, bool last);
/* The same for an event held apart from its message, which still holds @md. */
void lnet_md_deliver_ev(struct lnet *ln, struct lnet_libmd *md, struct lnet_event *ev,
			bool last);
void lnet_mds_destroy(struct lnet *ln);

/* me.c */
void lnet_portals_init(struct lnet *ln);
/* Free every ME (their MDs are freed by lnet_mds_destroy). */
void lnet_portals_fini(struct lnet *ln);
/* Take @me out of its portal and free it (its MD is being freed). */
void lnet_me_free(struct lnet *ln, struct lnet_me *me);
/*
 * Match an incoming PUT/GET (@op LNET_MD_OP_PUT/GET) from peer @src (the
 * peer of hdr->src_nid, NULL if unknown): the MD, with the length to move
 * and the offset into it, or NULL (drop). An ME that names a NID takes
 * what any NID of that NID's peer sends (Multi-Rail).
 */
struct lnet_libmd *lnet_me_match(struct lnet *ln, const struct lnet_hdr *hdr,
				 const struct lnet_peer *src, u32 op, u32 *mlength,
				 u32 *offset);

/* msg.c */
/* Queue @msg for finalizing without running the queue (see msg.c). */
void lnet_finalize_defer(struct lnet *ln, struct lnet_msg *msg, int status);
/* Run the finalize queue unless a caller up the stack is running it. */
void lnet_finalize_run(struct lnet *ln);
struct lnet_msg *lnet_msg_alloc(struct lnet *ln);
void lnet_msg_free(struct lnet *ln, struct lnet_msg *msg);
/* The initiator's message waiting for the ACK/REPLY with @cookie. */
struct lnet_msg *lnet_msg_find_active(struct lnet *ln, u64 cookie);
void lnet_msg_set_active(struct lnet *ln, struct lnet_msg *msg, bool on);
/* ACK/REPLY outcome for the waiting @msg (delivered once its send is done). */
void lnet_msg_response(struct lnet *ln, struct lnet_msg *msg, int status);
/* Fail every message on dp_active (shutdown): their final event, -ESHUTDOWN. */
void lnet_msgs_fail_active(struct lnet *ln);
/* @ni / @lpni goes away: no message may point at it any longer. */
void lnet_msgs_forget_ni(struct lnet *ln, struct lnet_ni *ni);
void lnet_msgs_forget_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni);
/* Messages not yet finalized that were sent to or received from @lpni. */
u32 lnet_msgs_holding(struct lnet *ln, const struct lnet_peer_ni *lpni);

/* send.c */
/* Return the credits @msg holds (starting the sends that waited). */
void lnet_msg_return_credits(struct lnet *ln, struct lnet_msg *msg);
/*
 * recv.c, for fault.c: a header a delay rule held goes on as lnet_parse
 * would have taken it (checked again: its NI may be going), or is
 * discarded (its payload too, by the LND) and counted as dropped.
 */
void lnet_parse_resume(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
		       const struct lnet_nid *from, void *private);
void lnet_parse_discard(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
			void *private);
/* A send a delay rule held (fault.c) goes on: credits, then its LND. */
void lnet_send_resume(struct lnet *ln, struct lnet_msg *msg);
/* Fail the messages waiting for credits of @ni (@lpni NULL) or of @lpni. */
void lnet_txq_fail(struct lnet *ln, struct lnet_ni *ni,
		   struct lnet_peer_ni *lpni, int status);
/* The NI that sends to @nid when it is 0@lo or one of ours, else NULL. */
struct lnet_ni *lnet_local_target_ni(struct lnet *ln, const struct lnet_nid *nid);

/* counters.c */
/*
 * A message of @type and @len payload bytes was sent, received or dropped
 * (@kind, enum lnet_stats_kind) through @ni and with @lpni (either NULL
 * when there is none): count it there and in the data path's totals.
 */
void lnet_count(struct lnet *ln, u32 kind, struct lnet_ni *ni,
		struct lnet_peer_ni *lpni, u32 type, u32 len);
/* Only on @ni and @lpni: a forwarded message (the totals are route_*). */
void lnet_count_obj(struct lnet_ni *ni, struct lnet_peer_ni *lpni, u32 kind,
		    u32 type);
/*
 * A message that left at @start_ns (os_now_ns()) has reached the end of
 * latency @lat (enum lnet_lat_kind) now: one sample on @ni and on @lpni
 * (either may be NULL: a message to ourselves has no peer NI).
 */
void lnet_count_latency(u32 lat, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			u64 start_ns);
/*
 * Call @fn on the counters of every local NI (@kind LNET_KIND_NI), then of
 * every peer NI (LNET_KIND_PEER_NI).
 */
void lnet_counters_walk(struct lnet *ln,
			void (*fn)(struct lnet_counters *c, u32 kind, void *arg),
			void *arg);
/* Totals by enum lnet_kind and enum lnet_stats_kind, and objects counted. */
struct lnet_counters_sum {
	u64 cs_msgs[LNET_NKINDS][LNET_STATS_KINDS];
	u32 cs_objects[LNET_NKINDS];
};
void lnet_counters_sum(struct lnet *ln, struct lnet_counters_sum *sum);
/* Zero the counters of every local NI and peer NI alike. */
void lnet_counters_reset(struct lnet *ln);

/* dp.c */
struct lnet_ni *lnet_lo_ni(struct lnet *ln);
/*
 * Start the monitor thread if it is not running yet: called by the first
 * send, receive, or NI brought up in an LND (not at configure, so that a
 * configuration-only instance runs no thread).
 */
void lnet_dp_monitor_ensure(struct lnet *ln);

/* select.c: as lnet_select_pathway, only from the NI @src when not NULL. */
int lnet_select_pathway_src(struct lnet *ln, const struct lnet_nid *dst,
			    const struct lnet_nid *src, struct lnet_ni **ni_out,
			    struct lnet_peer_ni **lpni_out);

/* select.c: the best NI of local net @net_id (round robin bumped), or NULL. */
struct lnet_ni *lnet_select_ni_on(struct lnet *ln, u32 net_id);
/*
 * select.c: the gateway for a message to remote net @net_id: among alive
 * routes, the one @dst's router rules prefer, then priority, hops, the
 * gateway NI's health and credits, round robin. The path to it (from @src
 * when not NULL) in *@ni_out / *@lpni_out. 0 or -EHOSTUNREACH.
 */
int lnet_select_route(struct lnet *ln, u32 net_id, const struct lnet_peer_ni *dst,
		      const struct lnet_nid *src, struct lnet_ni **ni_out,
		      struct lnet_peer_ni **lpni_out);

/*
 * select.c: for a multi-rail peer reached through gateways, its peer NI
 * on the best of its nets that an alive route reaches (health, UDSP
 * priority, round robin); @dst itself when there is none.
 */
struct lnet_peer_ni *lnet_select_remote_dst(struct lnet *ln, struct lnet_peer_ni *dst);

/*
 * explain.c: the trace of one IOC_LNET_EXPLAIN (ln->ln_sel_trace). The
 * selection code records each candidate it looks at (lnet_trace_add,
 * then fills the entry) and the outcome of each comparison
 * (lnet_trace_duel: @r as the comparisons return it, the criterion
 * times the sign); with a trace set it commits nothing.
 */
struct lnet_sel_trace {
	struct lnet_ioc_explain *ex;
	u32 parent;			/* the route candidate being resolved, or NONE */
};

u32 lnet_trace_add(struct lnet_sel_trace *tr, u32 kind);
struct lnet_ioc_explain_cand *lnet_trace_at(struct lnet_sel_trace *tr, u32 idx);
void lnet_trace_duel(struct lnet_sel_trace *tr, u32 *best, u32 cand, int r);
void lnet_trace_out(struct lnet_sel_trace *tr, u32 idx, u32 verdict);
int lnet_explain(struct lnet *ln, struct lnet_ioc_explain *ex);
/* send.c: the path of @msg (txni, txpeer, gw_dst), as a send chooses it. */
int lnet_msg_route(struct lnet *ln, struct lnet_msg *msg);
/* discovery_send.c: would a send to @nid discover its peer first? */
bool lnet_dc_would_discover(struct lnet *ln, const struct lnet_nid *nid);

/* peer.c: the peer NI of @nid, created (unconfigured peer) if unknown. */
struct lnet_peer_ni *lnet_peer_ni_get_or_create(struct lnet *ln,
						const struct lnet_nid *nid);

/*
 * router.c / forward.c: routing on this node (see the files). The pools
 * are set up empty by lnet_rtr_pools_init (configure), sized by
 * lnet_rtr_pools_size (routing starts, counts change) and emptied by
 * lnet_rtr_pools_fini (unconfigure: routing off, waiters dropped).
 */
void lnet_rtr_pools_init(struct lnet *ln);
void lnet_rtr_pools_size(struct lnet *ln);
void lnet_rtr_pools_fini(struct lnet *ln);
/* Drop what waits for a credit or buffer; free the idle buffers. */
void lnet_rtr_pools_drain(struct lnet *ln);
void lnet_rtr_pool_kick(struct lnet *ln, struct lnet_rtr_pool *rp);
/* A header for another node arrived on @ni from @lpni: forward it. */
void lnet_forward(struct lnet *ln, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
		  const struct lnet_hdr *hdr, void *private);
/* msg.c's finalize of a forwarded message (msg_routing). */
void lnet_forward_rx_done(struct lnet *ln, struct lnet_msg *msg, int status);
void lnet_forward_tx_done(struct lnet *ln, struct lnet_msg *msg, int status);
/* Its buffer and credits back, starting the next waiters. */
void lnet_fwd_release(struct lnet *ln, struct lnet_msg *msg);
/* @ni / @lpni goes: forwarded messages waiting from it are dropped. */
void lnet_fwd_forget_ni(struct lnet *ln, const struct lnet_ni *ni);
void lnet_fwd_forget_peer_ni(struct lnet *ln, const struct lnet_peer_ni *lpni);

/*
 * route.c: called for every header accepted on @ni from @lpni (NULL for
 * our own NIDs), before it is handled: gateway and net aliveness, and
 * drop_asym_route. False: drop it.
 */
bool lnet_router_rx_note(struct lnet *ln, struct lnet_ni *ni,
			 struct lnet_peer_ni *lpni, const struct lnet_hdr *hdr);

/* net.c: LNDs of every NI shut down (unconfigure, lock dropped around). */
void lnet_nets_shutdown(struct lnet *ln);

/*
 * Discovery on send (discovery_send.c). lnet_dc_park(): called for each new
 * initiator message before its send; 1: the message waits for its peer's
 * discovery (the caller sees success, the message is sent or failed when it
 * ends), 0: send it now, -errno: the discovery could not start (nothing
 * was sent). lnet_dc_process(): the monitor ends the discoveries whose
 * ping or push is over. lnet_dc_flush(): shutdown fails every waiting one.
 */
int lnet_dc_park(struct lnet *ln, struct lnet_msg *msg);
void lnet_dc_process(struct lnet *ln);
void lnet_dc_flush(struct lnet *ln);
/* Does a route have @lp as its gateway? (route.c) */
bool lnet_peer_is_gateway(struct lnet *ln, const struct lnet_peer *lp);

#endif /* LNET_CORE_PRIV_H */
