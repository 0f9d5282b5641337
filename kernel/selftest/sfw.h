/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lnet_selftest framework on a test node (framework.c): one session
 * (made and removed by a console, ended by its timeout), its batches, the
 * tests added to them, and the units that run a client test
 * (test_client.c) against the test services of other nodes
 * (test_svc.c). Internal to kernel/selftest/.
 */
#ifndef LNET_SELFTEST_SFW_H
#define LNET_SELFTEST_SFW_H

#include "srpc.h"

/* One destination of a test client (lnet_process_id_packed). */
struct sfw_dest {
	u64 d_nid;				/* nid4 */
	u32 d_pid;
};

/* A test added to a batch: server (reserves nothing more here) or client. */
struct sfw_test {
	struct list_head t_list;		/* on b_tests, in order added */
	struct sfw_batch *t_batch;
	u32 t_service;				/* SRPC_SVC_PING / _BRW */
	u32 t_loop;				/* per unit; ~0U: until stopped */
	u32 t_concur;				/* units per destination */
	u32 t_feats;				/* the session's, for the requests */
	bool t_is_client, t_stop_onerr;
	union srpc_test_param t_param;
	u32 t_ndest;
	struct sfw_dest *t_dests;
	struct list_head t_units;		/* struct sfw_unit, running */
	u32 t_nunits;				/* on t_units */
	bool t_stopping;			/* no new RPC */
	u32 t_errors;
};

struct sfw_batch {
	struct list_head b_list;		/* on s_batches */
	struct sfw_session *b_session;
	u64 b_bid;
	struct list_head b_tests;
};

struct sfw_session {
	struct lst_sid s_sid;
	char s_name[LST_NAME_SIZE];
	u32 s_feats;
	u32 s_refs;				/* MKSNs of this sid minus RMSNs */
	u64 s_start_ns, s_last_ns;		/* made; last framework RPC */
	struct list_head s_batches;
};

/* One unit of a client test: a loop of RPCs to one destination. */
struct sfw_unit {
	struct list_head u_list;		/* on t_units */
	struct sfw_test *u_test;
	struct lnet_srpc *u_sp;
	struct list_head u_pending;		/* on sp_pending: start from the monitor */
	bool u_starting;			/* in sfw_unit_next() */
	u32 u_dest;				/* index in t_dests */
	u32 u_done;				/* RPCs finished */
	u8 *u_pages;				/* brw: offset + len bytes, */
	u8 *u_bulk;				/* the bulk's len at offset */
	struct srpc_client_rpc *u_rpc;		/* in flight, or NULL */
};

/* test_client.c: start and stop a client test's units; active units. */
int sfw_test_run(struct lnet_srpc *sp, struct sfw_test *t);
void sfw_test_stop(struct sfw_test *t, bool abort);
static inline bool sfw_batch_active(const struct sfw_batch *b)
{
	const struct sfw_test *t;

	list_for_each_entry(t, &b->b_tests, t_list)
		if (t->t_nunits)
			return true;
	return false;
}

/* framework.c: reply's sid and features; a unit of @b ended; the session of @sid. */
void sfw_reply_fill(struct lnet_srpc *sp, struct srpc_msg *rep);
void sfw_unit_ended(struct lnet_srpc *sp, struct sfw_batch *b);
struct sfw_session *sfw_session_find(struct lnet_srpc *sp, const struct lst_sid *sid);
/* fw_test.c: TEST_REQST */
int sfw_add_test(struct lnet_srpc *sp, struct srpc_server_rpc *rpc);

/* test_svc.c: check a client test's parameters (a positive status or 0). */
u32 sfw_test_param_check(u32 service, u32 feats, const union srpc_test_param *p);
/* Can this node's brw run a bulk of @len (0 or a positive status)? */
u32 sfw_brw_check(u32 rw, u32 len, u32 flags, u32 feats);

#endif /* LNET_SELFTEST_SFW_H */
