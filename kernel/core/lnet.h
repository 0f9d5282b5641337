/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LNet core: one LNet instance (struct lnet) with its nets, local NIs,
 * peers, peer nets, peer NIs and routes, and the UDSP values flattened
 * into them. Portable: uses the OS layer only.
 *
 * Locking: ln_api_mutex guards everything, configuration and data path
 * (see lnet_msg.h for the rules the data path and the LNDs follow).
 * lnet_ioctl() takes it; the functions below expect it held.
 *
 * Contexts: every entry point runs in process context and may sleep; none
 * runs in interrupt, softirq or atomic context.
 *  - lnet_init(), the registrations of the engine and the LNDs
 *    (lnet_builtin_register(), lnet_lnd_register()), lnet_fini(): the
 *    module's init and exit (insmod, rmmod); lnetd's main thread. Nothing
 *    else runs then.
 *  - lnet_ioctl(): the caller's ioctl system call (module), one of lnetd's
 *    worker threads (one request each); it may wait for the network.
 *  - lnet_link_event(): the module's work item (a kworker), queued by the
 *    netdevice notifier, which only records the change under rtnl_lock;
 *    lnetd's link monitor thread.
 *  - the monitor (monitor.c): its own thread (kthread, pthread).
 *  - the UNLOCKED entry points of lnet_msg.h: the LNDs' own threads
 *    (lolnd calls the _locked ones from the sender, the mutex held).
 *  - the hooks (hooks.h) and event handlers: with the mutex held, from
 *    whichever of these changed the objects or completed the message.
 * The only atomic sections are the kernel os_if_lookup()'s (RCU read lock,
 * the device's address lock): a copy, nothing that sleeps.
 */
#ifndef LNET_CORE_H
#define LNET_CORE_H

#include "../os/os.h"
#include "../nid/nid.h"
#include "lnet_msg.h"

#define LNET_MAX_HEALTH		1000
/* ln_fault_rules[]: drop rules, then delay rules (LNET_FAULT_DROP - 1, ...) */
#define LNET_FAULT_NTYPES	2

struct lnet_hooks;

/* The two kinds of object that carry a struct lnet_health and lnet_counters. */
enum lnet_kind {
	LNET_KIND_NI,			/* struct lnet_ni, a local NI */
	LNET_KIND_PEER_NI,		/* struct lnet_peer_ni */
	LNET_NKINDS,
};

/*
 * The health of a local NI or a peer NI (health.c): lowered by the failed
 * sends blamed on it, raised back to LNET_MAX_HEALTH by a recovery ping
 * that the monitor (monitor.c) sends while it is on ln_recoveryq[lh_kind].
 */
struct lnet_health {
	u32 lh_value;				/* 0..LNET_MAX_HEALTH */
	u32 lh_kind;				/* enum lnet_kind */
	/* failed sends by enum lnet_msg_hstatus: what lowered lh_value */
	u64 lh_fail[LNET_MSG_STATUS_NETWORK_TIMEOUT + 1];
	u64 lh_next_ping_ns;			/* recovery ping, 0 = none due */
	u32 lh_ping_count;			/* recovery pings since lowered */
	bool lh_recovery_pending;		/* a recovery ping is in flight */
	/* on ln_recoveryq[lh_kind] while lh_value is below LNET_MAX_HEALTH */
	struct list_head lh_recovery_list;
};

/* The latencies a local NI and a peer NI measure (counters.c). */
enum lnet_lat_kind {
	LNET_LAT_PUT_EGRESS,	/* PUT handed to the LND -> the LND sent it */
	LNET_LAT_GET_RTT,	/* GET handed to the LND -> its REPLY received */
	LNET_LAT_PUT_ACK,	/* PUT handed to the LND -> its ACK received */
	LNET_LAT_KINDS,
};

/* One latency: samples, extremes and the sum the average comes from. */
struct lnet_latency {
	u64 ll_samples;
	u64 ll_min_ns, ll_max_ns;	/* 0 while there is no sample */
	u64 ll_total_ns;
};

/*
 * The messages sent, received and dropped through a local NI or with a
 * peer NI, by message type (counters.c); the totals are their sums. The
 * latencies of the messages that went that way.
 */
struct lnet_counters {
	u64 lc_msgs[LNET_STATS_KINDS][LNET_MSG_HELLO + 1];
	struct lnet_latency lc_lat[LNET_LAT_KINDS];
};

/* The messages of @kind (enum lnet_stats_kind) of every type in @c. */
u64 lnet_counters_total(const struct lnet_counters *c, u32 kind);
/* The mean of @l in nanoseconds, rounded down (0 with no sample). */
u64 lnet_latency_avg_ns(const struct lnet_latency *l);

struct lnet_net {
	struct list_head net_list;		/* on ln_nets, creation order */
	u32 net_id;
	u32 net_sel_priority;			/* UDSP: local net priority */
	u32 net_seq;				/* round robin among nets */
	struct list_head net_nis;		/* struct lnet_ni */
	u64 net_last_ping_ns;			/* route.c: a peer's last ping here */
};

struct lnet_ni {
	struct list_head ni_list;		/* on net_nis */
	struct lnet_net *ni_net;
	struct lnet_nid ni_nid;
	char ni_ifname[LNET_IFNAME_LEN];
	u32 ni_sel_priority;			/* UDSP: local NID priority */
	u32 ni_status;				/* enum lnet_ni_status: the link */
	bool ni_family_refused;			/* its LND refused the address family */
	struct lnet_ni_tunables ni_tun;		/* resolved: no -1 left */
	/* tcp: conns_per_peer resolved; tos, timeout -1 = unset (derived) */
	struct lnet_sock_tunables ni_lnd_tun;
	s32 ni_tx_credits;
	u32 ni_seq;
	/* Data path (lnet_msg.h) */
	const struct lnet_lnd *ni_lnd;
	void *ni_lnd_data;			/* the LND's per-NI state */
	struct list_head ni_txq;		/* msgs waiting for a tx credit */
	s32 ni_min_tx_credits;			/* low-water mark */
	bool ni_dying;				/* being deleted: not selected */
	struct lnet_health ni_health;		/* LNET_KIND_NI */
	struct lnet_counters ni_counters;
};

struct lnet_peer {
	struct list_head lp_list;		/* on ln_peers, creation order */
	struct lnet_nid lp_primary_nid;
	u32 lp_flags;				/* LNET_PEER_F_NON_MR | _LOCK_PRIM */
	u32 lp_state;				/* LNET_PEER_S_* (data path) */
	u32 lp_nnis;
	/*
	 * This node as its own peer (its primary is one of our NIDs, as a
	 * discover of ourselves makes it in Lustre): it holds only our NIDs,
	 * and no other peer holds any of them.
	 */
	bool lp_self;
	struct list_head lp_peer_nets;		/* struct lnet_peer_net */
	/*
	 * Gateway checks (route.c), for a peer that routes have as gateway:
	 * when the next ping goes (0: at the next monitor tick), the
	 * deadline of the one out (0: none), its number (a reply to an older
	 * one is ignored), and whether the last check got a reply.
	 */
	u64 lp_rtr_next_ns, lp_rtr_deadline_ns;
	u32 lp_rtr_gen;
	bool lp_rtr_replied;
};

struct lnet_peer_net {
	struct list_head lpn_list;		/* on lp_peer_nets */
	struct lnet_peer *lpn_peer;
	u32 lpn_net_id;
	u32 lpn_sel_priority;			/* UDSP: peer net priority */
	u32 lpn_seq;
	struct list_head lpn_peer_nis;		/* struct lnet_peer_ni */
};

struct lnet_peer_ni {
	struct list_head lpni_list;		/* on lpn_peer_nis, in order added */
	struct lnet_peer_ni *lpni_hnext;	/* hash chain */
	struct lnet_peer_net *lpni_peer_net;
	struct lnet_nid lpni_nid;
	u32 lpni_sel_priority;			/* UDSP: peer NID priority */
	u32 lpni_state;				/* enum lnet_ni_status */
	s32 lpni_tx_credits;
	u32 lpni_max_tx_credits;
	u32 lpni_seq;
	/* Data path (lnet_msg.h) */
	struct list_head lpni_txq;		/* msgs waiting for a tx credit */
	s32 lpni_min_tx_credits;		/* low-water mark */
	u64 lpni_txqnob;			/* bytes handed to the LND, not done */
	/*
	 * Router credits (router.c): messages from this peer NI that this
	 * node forwards may hold at most this many router buffers; the rest
	 * wait on lpni_rtrq.
	 */
	s32 lpni_rtr_credits, lpni_min_rtr_credits;
	struct list_head lpni_rtrq;
	struct lnet_health lpni_health;		/* LNET_KIND_PEER_NI */
	struct lnet_counters lpni_counters;
	u64 lpni_last_alive_ns;			/* last message from it */
	/* UDSP: preferred local NIDs (pair rules), preferred gateways */
	struct lnet_nid *lpni_pref_nids;
	u32 lpni_npref, lpni_pref_cap;
	struct lnet_nid *lpni_rtr_nids;
	u32 lpni_nrtr, lpni_rtr_cap;
};

/*
 * A router buffer pool (router.c): rp_nbuffers buffers of rp_npages pages,
 * allocated when first needed and kept on rp_free. rp_credits counts the
 * buffers not in use minus the messages waiting on rp_msgs.
 */
struct lnet_rtr_pool {
	u32 rp_npages;
	u32 rp_nbuffers;
	s32 rp_credits, rp_min_credits;
	u32 rp_allocated;			/* buffers allocated so far */
	struct list_head rp_free;		/* struct lnet_rtr_buf */
	struct list_head rp_msgs;		/* forwarded msgs waiting */
};

struct lnet_route {
	struct list_head lr_list;		/* on ln_routes */
	u32 lr_net;				/* the remote net */
	struct lnet_peer *lr_gateway;
	struct lnet_nid lr_gw_nid;		/* the gateway NID as given */
	u32 lr_hops;
	u32 lr_priority;
	/* Aliveness (route.c): what the gateway's last ping reply said. */
	bool lr_alive;
	bool lr_single_hop;			/* its reply listed rt_net */
	u32 lr_seq;				/* round robin among equals */
};

struct lnet {
	struct os_mutex ln_api_mutex;
	bool ln_configured;
	/*
	 * LNET_CONFIG_F_LARGE_NIDS: set by a CONFIGURE that has it, cleared
	 * by the unconfigure; an NI added by interface takes the IPv6
	 * address first (lnet_ni_add_lnd()).
	 */
	bool ln_large_nids;
	struct list_head ln_nets;		/* 0@lo's net first */
	struct list_head ln_peers;
	struct list_head ln_routes;
	/* The policy engine on this instance (hooks.h), or NULL. */
	const struct lnet_hooks *ln_hooks;
	void *ln_hooks_priv;			/* its state: the core never reads it */
	struct lnet_peer_ni **ln_lpni_hash;	/* NID -> peer NI */
	u32 ln_lpni_hash_size;			/* power of two */
	u32 ln_npeer_nis;
	s64 ln_nobjects;			/* live objects: 0 when down */
	/*
	 * GET_PEER_NI cursor: ln_iter_peer's first NI has index ln_iter_base
	 * over all peers, so a walk by index costs O(1) per step. NULL when
	 * peers or peer NIs changed since (core only).
	 */
	struct lnet_peer *ln_iter_peer;
	u32 ln_iter_base;
	/*
	 * Set only while IOC_LNET_EXPLAIN runs the selection (under
	 * ln_api_mutex, as every selection): the candidates are recorded
	 * there and nothing is committed (explain.c). NULL otherwise.
	 */
	struct lnet_sel_trace *ln_sel_trace;
	/* os_if_lookup() unless a test puts its own here (after lnet_init()) */
	int (*ln_if_lookup)(const char *ifname, struct os_ifaddr *out);
	/* os_if_name() unless a test puts its own here */
	int (*ln_if_name)(u32 index, char *name);
	/* Routing, router buffers, global settings: defaults at configure. */
	u32 ln_routing;				/* enum lnet_routing_state */
	u64 ln_routing_since_ns;		/* when it entered that state */
	s32 ln_buffers[LNET_NBUF_KINDS];	/* enum lnet_buf_kind */
	struct lnet_rtr_pool ln_rtr_pools[LNET_NBUF_KINDS];	/* router.c */
	u32 ln_globals[__LNET_GLOBAL_MAX];	/* enum lnet_global */
	struct lnet_dp ln_dp;			/* the data path (lnet_msg.h) */
	/*
	 * Per kind (enum lnet_kind), the struct lnet_health of the NIs /
	 * peer NIs whose health was lowered, in the order they were: what
	 * the monitor looks at for recovery pings (health.c adds, a recovery
	 * or the object's deletion removes). Set up by lnet_init().
	 */
	struct list_head ln_recoveryq[LNET_NKINDS];
	/*
	 * Fault injection (fault.c): the drop and the delay rules, in the
	 * order added, the sends delay rules hold (linked by msg_txq) and the
	 * received headers they hold, released by the monitor. Rules live
	 * from configure to unconfigure.
	 */
	struct list_head ln_fault_rules[LNET_FAULT_NTYPES];
	u32 ln_fault_nrules[LNET_FAULT_NTYPES];
	struct list_head ln_fault_held;
	struct list_head ln_fault_rx_held;	/* received headers held (fault.c) */
};

/* lnet_peer.lp_state (data path; shown as `peer state` bits like Lustre's). */
#define LNET_PEER_S_MULTI_RAIL	(1U << 0)
#define LNET_PEER_S_CONFIGURED	(1U << 3)	/* added by the admin */
#define LNET_PEER_S_DISCOVERED	(1U << 4)
#define LNET_PEER_S_NIDS_UPTODATE (1U << 8)

/* Instance lifetime. lnet_fini() unconfigures first. */
void lnet_init(struct lnet *ln);
void lnet_fini(struct lnet *ln);

/*
 * The ioctl entry point of both builds: @buf holds the @len bytes copied
 * in from the caller (@len = hdr.ioc_len, already checked to be at least
 * sizeof(struct lnet_ioc_hdr) and at most LNET_IOC_MAX_LEN by the
 * transport); replies are written into @buf, which the transport copies
 * back. @may_modify is false for callers that may only run show commands.
 * Takes ln_api_mutex. Returns 0 or -errno (see lnet_ioctl.h).
 */
int lnet_ioctl(struct lnet *ln, unsigned int cmd, void *buf, u32 len,
	       bool may_modify);

/* Everything below expects ln_api_mutex held. */
int lnet_configure(struct lnet *ln);
int lnet_unconfigure(struct lnet *ln);

int lnet_ni_add(struct lnet *ln, u32 net_id, const char *ifname,
		const struct lnet_ni_tunables *tun);
/*
 * lnet_ni_add() with the LND tunables @lnd_tun (NULL: the defaults) and,
 * when @want is not NULL, the NID @want: only if one of the interface's
 * addresses (its IPv4 or its IPv6 one) makes it (-ENXIO otherwise).
 * Without @want the NID is the interface's IPv4 address, else its IPv6
 * one; the other way round with ln_large_nids.
 */
int lnet_ni_add_lnd(struct lnet *ln, u32 net_id, const char *ifname,
		    const struct lnet_ni_tunables *tun,
		    const struct lnet_sock_tunables *lnd_tun,
		    const struct lnet_nid *want);
/* The LND tunables of @ni in force (GET_NET): LNET_NI_F_LND_TUN on tcp. */
/*
 * IOC_LNET_SET_NI_LND: the @rows (LNET_NI_LND_ROW bits) of @t into the NI
 * of @nid, else every NI of @net_id, else every tcp NI; 0, -EINVAL or
 * -ENOENT (nothing changed).
 */
int lnet_ni_lnd_set(struct lnet *ln, u32 net_id, const struct lnet_nid *nid,
		    const struct lnet_sock_tunables *t, u32 rows);
void lnet_ni_lnd_tun_report(struct lnet *ln, const struct lnet_ni *ni,
			    struct lnet_sock_tunables *out, u32 *flags);
/* How long a send may wait in @ni's LND: its timeout, else lnd_timeout. */
u64 lnet_ni_lnd_timeout_ns(struct lnet *ln, const struct lnet_ni *ni);
/*
 * Does the LND of @lnd_type carry NIs of addresses of @addr_len bytes? The
 * one place that says so: the socket LND refuses the others at startup,
 * and `net show` reports them down (lnet.ko too, where no tcp LND runs).
 */
bool lnet_lnd_carries_family(u32 lnd_type, u8 addr_len);
/* Why @ni is down as GET_NET reports it (enum lnet_ni_down_reason; 0: up). */
u32 lnet_ni_down_reason(const struct lnet_ni *ni);
/* conns_per_peer 0 or unset on a link of @mbps Mb/s (0: unknown): Lustre's rule. */
s32 lnet_conns_per_peer_for_speed(u32 mbps);
int lnet_net_del(struct lnet *ln, u32 net_id, const char *ifname);
struct lnet_net *lnet_net_find(struct lnet *ln, u32 net_id);
struct lnet_ni *lnet_ni_find(struct lnet *ln, const struct lnet_nid *nid);

int lnet_peer_ni_add(struct lnet *ln, const struct lnet_nid *prim,
		     const struct lnet_nid *nid, u32 flags);
int lnet_peer_ni_del(struct lnet *ln, const struct lnet_nid *prim,
		     const struct lnet_nid *nid, u32 flags);
struct lnet_peer_ni *lnet_peer_ni_find(struct lnet *ln, const struct lnet_nid *nid);
/* Is @nid a peer NI of a peer that is not this node (see lp_self)? */
bool lnet_nid_of_other_node(struct lnet *ln, const struct lnet_nid *nid);
struct lnet_peer *lnet_peer_find(struct lnet *ln, const struct lnet_nid *nid);

/* Routes (route.c): what routed sends choose among (UDSP router rules read them). */
int lnet_route_add(struct lnet *ln, u32 net_id, const struct lnet_nid *gw,
		   u32 hops, u32 priority);
int lnet_route_del(struct lnet *ln, u32 net_id, const struct lnet_nid *gw);
/* The @index-th route (of net @net_id, 0 = all), or NULL. */
struct lnet_route *lnet_route_nth(struct lnet *ln, u32 index, u32 net_id);
/*
 * Is @net silent (route.c)? On a router, a local net (not lo) that no
 * peer pinged for router_ping_timeout + alive_router_check_interval s: our
 * ping info shows its NIs down, so that clients whose routes need this
 * side of us (avoid_asym_router_failure) stop using them.
 */
bool lnet_net_silent(struct lnet *ln, const struct lnet_net *net);
/* LNET_NI_STATUS_UP when the gateway is reachable from here (local checks only). */
u32 lnet_route_state(struct lnet *ln, const struct lnet_route *r);
/* May a send use @r now (its gateway answers and forwards)? */
bool lnet_route_alive(struct lnet *ln, const struct lnet_route *r);

/*
 * Routing (router.c): the state machine of `set routing` and the router
 * buffer pools. lnet_routing_set: 1 from DISABLED starts (STARTING, the
 * pools sized), 0 stops (STOPPING: still forwarding, the ping feature bit
 * says it does not); the monitor's lnet_router_tick ends both. -EINVAL for
 * a value not 0 or 1, -EBUSY for 1 while STOPPING.
 */
int lnet_routing_set(struct lnet *ln, u32 enable);
/* Does this node forward messages for others (any state but DISABLED)? */
bool lnet_routing_forwards(const struct lnet *ln);
/* Does it tell peers it routes (ENABLED: ping bit RTE_DISABLED clear)? */
bool lnet_routing_advertised(const struct lnet *ln);
/* The monitor, once a tick: STARTING -> ENABLED, STOPPING -> DISABLED. */
void lnet_router_tick(struct lnet *ln, u64 now_ns);
/* A pool as `routing show` prints it. */
struct lnet_rtr_pool_info {
	u32 npages, nbuffers;
	s32 credits, min_credits;
};
void lnet_rtr_pool_info(struct lnet *ln, u32 kind, struct lnet_rtr_pool_info *out);

/*
 * Router buffer counts, global settings and statistics (global.c), with
 * the ranges and errors of lnet_ioctl.h. Hops are LNET_ROUTE_HOPS_UNSET
 * as a u32 when unset.
 */
/* Each count -1 (unchanged), 0 (default) or in range; all checked first. */
int lnet_buffers_set(struct lnet *ln, const s32 counts[LNET_NBUF_KINDS]);
int lnet_global_set(struct lnet *ln, u32 id, u32 value);
int lnet_global_get(struct lnet *ln, u32 id, u32 *value);
void lnet_stats_get(struct lnet *ln, struct lnet_ioc_stats *st);
void lnet_stats_reset(struct lnet *ln);

/*
 * Choose the local NI and the peer NI for a message to @dst (any NID of
 * the peer). Order: health, then UDSP priority (peer net, local net, local
 * NI, peer NI), then preferred local NIDs, then credits, then round robin;
 * bumps the round-robin sequences of what it chose.
 * Returns 0, -EHOSTUNREACH (no local net shared with the peer) or -ENOENT
 * (no such peer).
 */
int lnet_select_pathway(struct lnet *ln, const struct lnet_nid *dst,
			struct lnet_ni **ni_out, struct lnet_peer_ni **lpni_out);

/*
 * Replace the preferred local NIDs (pair rules) / preferred routers of
 * @lpni with a copy of @nids[0..n) (n == 0 empties the list). For the UDSP
 * engine. 0, or -ENOMEM with the old list left unchanged. The lists are
 * freed with the peer NI.
 */
int lnet_peer_ni_set_pref(struct lnet *ln, struct lnet_peer_ni *lpni,
			  const struct lnet_nid *nids, u32 n);
int lnet_peer_ni_set_rtr(struct lnet *ln, struct lnet_peer_ni *lpni,
			 const struct lnet_nid *nids, u32 n);

/* Object accounting for leak checks (module unload, tests). */
void *lnet_obj_alloc(struct lnet *ln, size_t size);
void lnet_obj_free(struct lnet *ln, void *p);

#endif /* LNET_CORE_H */
