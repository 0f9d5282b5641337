/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SRPC layer of lnet_selftest on the core (srpc.c) and the framework
 * and test services above it (framework.c, fw_test.c, test_svc.c,
 * test_client.c), so that Lustre's lst can drive this node and this node
 * can drive Lustre's lnet_selftest.ko (facts:
 * shared/reference/lnet-selftest-protocol.md).
 *
 * Server side: SRPC_NBUF_* one-use 160-byte request buffers per service
 * (portal 51 for the framework services, 50 for ping and brw, match bits
 * = service id), each posted again as soon as it is used, so that the
 * pool stays full. A request is checked (event status, 160 bytes,
 * unpacked, the service's request type) or dropped with no reply; the
 * service's handler answers at once or after its bulk.
 *
 * Client side (the test units, and a console): struct srpc_client_rpc
 * posts its reply buffer (portal 52, a new rpyid, only from the peer),
 * its bulk MD if any (portal 52, a new bulkid), sends the request, and
 * finishes when the request was sent, the reply came and the bulk was
 * moved; or at the first failure, or at its deadline (-ETIMEDOUT). Its
 * done callback runs once every one of its MDs is gone, so the caller
 * may reuse or free the buffers there.
 *
 * Everything runs under ln_api_mutex: event handlers, the monitor's
 * tick (lnet_srpc_tick) and the ioctls. Nothing here sleeps.
 */
#ifndef LNET_SELFTEST_SRPC_H
#define LNET_SELFTEST_SRPC_H

#include "../core/lnet_priv.h"
#include "srpc_wire.h"

#define SRPC_NBUF_FRAMEWORK	64	/* request buffers per framework service */
#define SRPC_NBUF_TEST		256	/* per test service (Lustre's minimum) */
#define SRPC_NBUF_EXTRA		64	/* beyond a server test's client units */
#define SRPC_NBUF_MAX		(SFW_MAX_CONCUR * 16)	/* per test service */
#define SRPC_RPC_TIMEOUT_S	64	/* a client RPC's default deadline */
#define SFW_SESSION_TIMEOUT_S	100	/* a session with no framework RPC ends */
#define SFW_MAX_CONCUR		1024	/* units per destination */
#define SFW_MAX_NDESTS		1024	/* destinations of one test client */

struct lnet_srpc;
struct sfw_session;
struct lstcon;
struct lstcon_session;

/* A request being served. */
struct srpc_server_rpc {
	struct list_head sr_list;		/* on srpc_servers */
	struct lnet_srpc *sr_srpc;
	struct lnet_nid sr_peer;		/* the requester's NID */
	u32 sr_peer_pid;
	struct srpc_msg sr_req;
	struct srpc_msg sr_reply;		/* filled by the handler */
	u8 sr_reply_buf[SRPC_MSG_LEN];
	/* bulk the server moves (brw, a test client's destination list) */
	u8 *sr_bulk;
	u32 sr_bulk_len;
	struct lnet_handle_md sr_bulk_mdh;
	bool sr_bulk_live;
	/*
	 * The bulk MD exists (until its unlinked event): a failed bulk is
	 * answered at once, while a message may still hold the MD; the RPC
	 * then stays until that event (sr_free_wanted), which carries it.
	 */
	bool sr_bulk_md;
	bool sr_free_wanted;
	/* called with the bulk's status; sets sr_reply */
	void (*sr_bulk_done)(struct srpc_server_rpc *rpc, int status);
	void *sr_priv;				/* the service's */
};

/* A request this node sends. */
struct srpc_client_rpc {
	struct list_head cr_list;		/* on srpc_clients */
	struct lnet_srpc *cr_srpc;
	struct lnet_nid cr_peer;
	u32 cr_peer_pid;
	u32 cr_service;
	struct srpc_msg cr_req;			/* ids are set by srpc_client_start */
	struct srpc_msg cr_reply;		/* unpacked when cr_status is 0 */
	u8 cr_req_buf[SRPC_MSG_LEN];
	u8 cr_reply_buf[SRPC_MSG_LEN];
	/* bulk: the peer PUTs into it (sink) or GETs it (source) */
	u8 *cr_bulk;
	u32 cr_bulk_len;
	bool cr_bulk_sink;
	u64 cr_deadline_ns;
	int cr_status;				/* 0 or -errno: the first failure */
	u32 cr_done_mask;			/* SRPC_CR_* seen */
	u32 cr_live_mds;
	bool cr_finished;			/* outcome decided, MDs unlinking */
	u32 cr_busy;				/* its handlers on the stack */
	struct lnet_handle_md cr_req_mdh, cr_reply_mdh, cr_bulk_mdh;
	void (*cr_done)(struct srpc_client_rpc *rpc);
	void *cr_priv;
};

#define SRPC_CR_SENT	(1U << 0)
#define SRPC_CR_REPLY	(1U << 1)
#define SRPC_CR_BULK	(1U << 2)

/*
 * Bulk buffers of served brw RPCs, kept for the next RPC of the same
 * length while a session lasts: a fresh 1 MiB buffer per RPC costs its
 * zeroing and, in lnetd, a page fault per page (a third of a brw server's
 * time). A buffer holds only selftest data; a WRITE's bulk must fill it
 * whole (srpc_bulk_event), a READ's is filled by the pattern or sent as is.
 */
#define SRPC_BULK_CACHE_MAX	16

struct srpc_bulk_cache {
	u32 bc_len;				/* of every buffer held */
	u32 bc_count;
	u8 *bc_bufs[SRPC_BULK_CACHE_MAX];
};

/* The SRPC counters (STAT_REPLY) live here; the framework's too. */
struct lnet_srpc {
	struct lnet *sp_ln;
	u64 sp_next_id;				/* rpyid and bulkid */
	struct list_head sp_bufs;		/* request buffers posted */
	u32 sp_live_mds;			/* buffers + replies + bulks */
	struct list_head sp_clients;		/* struct srpc_client_rpc */
	struct list_head sp_servers;		/* struct srpc_server_rpc */
	struct list_head sp_pending;		/* struct sfw_unit to start */
	bool sp_stopping;
	struct srpc_counters sp_counters;
	struct sfw_session *sp_session;		/* NULL: none */
	u32 sp_brw_errors, sp_ping_errors;	/* of the session */
	u32 sp_ping_seq;			/* this node's ping sequence */
	u32 sp_rpc_timeout_s;
	u32 sp_session_timeout_s;
	u32 sp_nbufs[2];			/* posted: brw, ping */
	struct lstcon *sp_console;		/* this node's console run */
	struct lstcon_session *sp_lst_session;	/* or its lst session (a run excludes it) */
	bool sp_console_busy;			/* a console command waits */
	struct srpc_bulk_cache sp_bulk_cache;
};

/*
 * A server RPC's bulk buffer of @len bytes (zeroed when new, as the last
 * RPC left it when kept) or NULL; srpc_bulk_cache_drain() frees the kept
 * ones (a session's end, the instance's).
 */
u8 *srpc_bulk_get(struct lnet_srpc *sp, u32 len);
void srpc_bulk_cache_drain(struct lnet_srpc *sp);

/*
 * Make sure test service @service has buffers for @units clients' RPCs at
 * once (Lustre posts the test's loop + 64, at least 256): 0 or -ENOMEM.
 */
int srpc_service_reserve(struct lnet_srpc *sp, u32 service, u32 units);

/* The instance's SRPC state (ln->ln_dp.dp_srpc), NULL when not configured. */
static inline struct lnet_srpc *lnet_srpc_of(struct lnet *ln)
{
	return ln->ln_dp.dp_srpc;
}

/*
 * lnet_srpc_init/fini (lnet_msg.h): with the data path (dp.c).
 * lnet_srpc_tick: each monitor tick (timeouts). lnet_srpc_process: each
 * turn of the monitor's loop: starts the units on sp_pending.
 */
void sfw_process(struct lnet_srpc *sp);

/* The next rpyid / bulkid. */
u64 srpc_next_id(struct lnet_srpc *sp);

/*
 * Client RPCs. srpc_client_new() zeroes one for @service to @peer/@pid;
 * the caller fills cr_req (type, body; not the ids), cr_bulk*, cr_done,
 * cr_priv, then srpc_client_start(): 0, or -errno and nothing was posted
 * (the caller still owns @rpc). After 0, cr_done runs exactly once (maybe
 * before srpc_client_start returns? no: events come from other threads or
 * from the lolnd below the caller, so it may) and then the RPC is freed.
 * srpc_client_abort() ends it early with @status.
 */
struct srpc_client_rpc *srpc_client_new(struct lnet_srpc *sp, const struct lnet_nid *peer,
					u32 pid, u32 service, u32 timeout_s);
int srpc_client_start(struct srpc_client_rpc *rpc);
void srpc_client_abort(struct srpc_client_rpc *rpc, int status);

/*
 * Server side: the handler of @rpc's service fills rpc->sr_reply and
 * returns 0 (reply now), SRPC_HANDLE_BULK (it started the bulk; the reply
 * goes from sr_bulk_done), or SRPC_HANDLE_DROP (no reply).
 */
#define SRPC_HANDLE_BULK	1
#define SRPC_HANDLE_DROP	2
/* Move the server's bulk: GET (@sink) from or PUT to the requester. */
int srpc_server_bulk(struct srpc_server_rpc *rpc, u64 bulkid, bool sink);
void srpc_server_reply(struct srpc_server_rpc *rpc);

/* IOC_LNET_LST (console.c; checked but for lst_op and the values). */
int lnet_lst_ioctl(struct lnet *ln, struct lnet_ioc_lst *req);

/* The services above (framework.c, test_svc.c) */
int sfw_handle_framework(struct srpc_server_rpc *rpc);
int sfw_handle_test_service(struct srpc_server_rpc *rpc);
void sfw_tick(struct lnet_srpc *sp, u64 now);
void sfw_shutdown(struct lnet_srpc *sp);

#endif /* LNET_SELFTEST_SRPC_H */
