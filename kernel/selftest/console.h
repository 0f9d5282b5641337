/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lnet_selftest console of this node, internal to kernel/selftest/:
 * transactions (console.c: one framework RPC to each of a list of nodes
 * at once, waiting for all of them with ln_api_mutex released), the run
 * of `selftest run` (console.c) and lst's session model (console_model.c:
 * a session, groups of nodes, batches of tests).
 */
#ifndef LNET_SELFTEST_CONSOLE_H
#define LNET_SELFTEST_CONSOLE_H

#include "sfw.h"

/* One node's RPC of a transaction. */
struct lstcon_slot {
	bool s_done;
	bool s_noreply;			/* the RPC failed: no reply to read */
	u32 s_status;			/* 0 or a positive errno */
	struct srpc_msg s_reply;
};

/* What the requests of a transaction carry (the same for every node). */
struct lstcon_req {
	struct lst_sid sid;
	u32 timeout_s;			/* each RPC's deadline */
	const char *name;		/* MKSN: the session's */
	u32 force;			/* MKSN */
	u64 bid;			/* BATCH, TEST */
	u32 opc;			/* BATCH */
	/* TEST */
	u32 test, size, check, offset, concur, loop;
	bool client;
	u32 ndest;
	u8 *dests;			/* a client's destination list (bulk) */
};

/*
 * @service's request of @r to each of @nids[0..@n), all at once; 0 when
 * every node answered status 0, -EHOSTUNREACH otherwise (@slots say who
 * and why), -ENETDOWN when LNet went down meanwhile (then the caller's
 * console state is gone: touch nothing of it).
 */
int lstcon_rpcs(struct lnet *ln, const struct lstcon_req *r, u32 service,
		const struct lnet_nid *nids, u32 n, struct lstcon_slot *slots);
/* The session's id: our first nid4 NI that is not 0@lo, and the clock. */
int lstcon_sid(struct lnet *ln, struct lst_sid *sid);
/* A STAT_REPLY's counters into @n (ln_status and ln_state left alone). */
void lstcon_node_stat(struct lnet_ioc_lst_node *n, const struct srpc_stat_reply *r);
/* @r's destination list: the nid4 of @nids[0..@n) at @buf. */
void lstcon_dests(struct lstcon_req *r, u8 *buf, const struct lnet_nid *nids, u32 n);

/* console_model.c: the ops of the session model; free the session. */
int lstcon_model_op(struct lnet *ln, struct lnet_ioc_lst *req);
void lstcon_model_free(struct lnet_srpc *sp);
/* Each monitor tick: keep the nodes' sessions alive (lst's pinger). */
void lstcon_model_tick(struct lnet_srpc *sp, u64 now);

#endif /* LNET_SELFTEST_CONSOLE_H */
