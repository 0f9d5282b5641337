/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lnet_selftest console (kernel/selftest/console.c): this node drives
 * Lustre's lnet_selftest protocol on other nodes (ours or Lustre's, any
 * node with lnet_selftest.ko loaded), as Lustre's `lst` does: a session on
 * every node, a server test on each --to node, a client test on each
 * --from node (its units send to every --to node), a batch that runs, the
 * nodes' counters read while it runs, then stop and end.
 *
 * IOC_LNET_LST (160): one command, lst_op says which step.
 *   LNET_LST_OP_START. In: lst_test (enum lnet_lst_test), lst_size (brw
 *   bytes per RPC, LNET_LST_MIN_SIZE..LNET_LST_MAX_SIZE, a multiple of 8;
 *   0 for ping), lst_check (enum lnet_lst_check, brw only; 0 for ping),
 *   lst_concurrency (units per client and server pair,
 *   1..LNET_LST_MAX_CONCURRENCY), lst_count (RPCs per unit,
 *   1..LNET_LST_MAX_COUNT; 0 = until LNET_LST_OP_END), lst_timeout_s (each
 *   RPC, 1..LNET_LST_MAX_TIMEOUT_S), lst_nfrom + lst_nto NIDs in
 *   lst_nids (clients first; 1..LNET_LST_MAX_NODES in all, at least one
 *   of each, nid4 only: SRPC has no large NIDs). Makes the session (made
 *   by force: a session of another console on a node is replaced), adds
 *   the tests, reads every node's counters and runs the tests. Out:
 *   lst_nodes[i], the counters before the run, with ln_status.
 *   Errors: EINVAL (a value above, or a NID twice in one list; a node
 *   may be in both), EAFNOSUPPORT (a NID
 *   that is not nid4), EBUSY (this node already runs one), EHOSTUNREACH
 *   (a node did not take its part: its ln_status says why; the session
 *   is ended on every node again).
 *   LNET_LST_OP_STAT. Out: lst_active (client tests still running, over
 *   all nodes) and lst_nodes[i] the counters of each node now (ln_status:
 *   its STAT failed, the counters are those of its last good STAT).
 *   Errors: ESRCH (no run).
 *   LNET_LST_OP_END. Stops what runs, reads the counters a last time (as
 *   STAT), ends the session on every node. Errors: ESRCH (no run).
 *   ln_status is 0 or a positive errno: ETIMEDOUT (no answer), or the
 *   node's own status (EBUSY, EPROTO...). ENETDOWN: LNet went down.
 *   The command waits for the nodes with the lock released. Mutating.
 */
#ifndef _UAPI_LNET_LST_H
#define _UAPI_LNET_LST_H

#include "lnet_ioctl.h"

/* Ranges (decimal: lnetctl's help shows them). */
#define LNET_LST_MIN_SIZE		8
#define LNET_LST_MAX_SIZE		1048576
#define LNET_LST_MAX_CONCURRENCY	1024
#define LNET_LST_MAX_COUNT		1000000000
#define LNET_LST_MAX_TIMEOUT_S		3600
#define LNET_LST_MAX_NODES		16

/* Tests and check modes: X(name, value); names as lnetctl takes them. */
#define LNET_LST_TESTS(X)	X(ping, 1) X(read, 2) X(write, 3)
#define LNET_LST_CHECKS(X)	X(none, 1) X(simple, 2) X(full, 3)

enum lnet_lst_test {
#define LNET_LST_TEST_ENUM(n, v) LNET_LST_TEST_##n = v,
	LNET_LST_TESTS(LNET_LST_TEST_ENUM)
#undef LNET_LST_TEST_ENUM
};

enum lnet_lst_check {
#define LNET_LST_CHECK_ENUM(n, v) LNET_LST_CHECK_##n = v,
	LNET_LST_CHECKS(LNET_LST_CHECK_ENUM)
#undef LNET_LST_CHECK_ENUM
};

enum lnet_lst_op {
	LNET_LST_OP_START	= 1,
	LNET_LST_OP_STAT	= 2,
	LNET_LST_OP_END		= 3,
};

/* One node's counters, as its last STAT_REPLY gave them. */
struct lnet_ioc_lst_node {
	__u32 ln_status;			/* 0 or a positive errno */
	__u32 ln_running_ms;			/* since its session began */
	__u32 ln_brw_errors, ln_ping_errors;	/* of the session's tests */
	__u32 ln_rpc_errors, ln_rpcs_dropped, ln_rpcs_expired;
	__u32 ln_rpcs_sent, ln_rpcs_rcvd;
	__u32 ln_send_count, ln_recv_count;	/* LNet messages, any kind */
	__u32 ln_pad;
	__u64 ln_send_length, ln_recv_length;	/* LNet payload bytes */
	__u64 ln_bulk_get, ln_bulk_put;		/* moved by its brw server */
};

struct lnet_ioc_lst {
	struct lnet_ioc_hdr lst_hdr;
	__u32 lst_op;				/* enum lnet_lst_op */
	__u32 lst_test;				/* in (START) */
	__u32 lst_size;
	__u32 lst_check;
	__u32 lst_concurrency;
	__u32 lst_count;
	__u32 lst_timeout_s;
	__u32 lst_nfrom, lst_nto;
	__u32 lst_active;			/* out (STAT, END) */
	struct lnet_nid lst_nids[LNET_LST_MAX_NODES];	/* in (START) */
	struct lnet_ioc_lst_node lst_nodes[LNET_LST_MAX_NODES];	/* out */
	__u32 lst_reserved[4];
};

#define IOC_LNET_LST	_IOWR(LNET_IOC_TYPE, 160, struct lnet_ioc_lst)

#endif /* _UAPI_LNET_LST_H */
