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
 *   lst_offset (brw only, 0 for ping: where the client's buffer starts in
 *   its first page, 0..LNET_LST_MAX_OFFSET, a multiple of 8, lst_offset +
 *   lst_size at most LNET_LST_MAX_SIZE: as Lustre's, a bulk spans 256
 *   pages at most; CHECK_SIMPLE marks the first and last word of each
 *   page of the bulk as the server sees it, from offset 0, so that every
 *   server checks what it was sent), lst_concurrency (units per client
 *   and server pair, 1..LNET_LST_MAX_CONCURRENCY), lst_count (RPCs per unit,
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
 *
 * The session model (lst's): one session of this console at a time, its
 * named groups of nodes, its named batches of tests. A session and a run
 * (START) exclude each other: EBUSY. Names (lst_name, lst_from, lst_to)
 * are 1..LNET_LST_NAME_MAX characters of [A-Za-z0-9_.-], NUL-terminated,
 * the rest of the array zero. Each op reads only the in fields it lists
 * (EINVAL names the first bad one: kernel/core/validate.c's
 * lnet_lst_check(), which libcfg runs first) and ignores the others; an
 * unknown flag is EINVAL. Each op that sends RPCs waits at most the
 * session's lst_timeout_s for each.
 *   LNET_LST_OP_SESSION_NEW. In: lst_name, lst_session_timeout_s (the
 *   session ends when no op came for that long, 1..LNET_LST_MAX_SESSION_
 *   TIMEOUT_S), lst_timeout_s (each RPC of the session, 1..
 *   LNET_LST_MAX_TIMEOUT_S), lst_flags (LNET_LST_F_FORCE: end the
 *   session there is first). Local: no RPC. Errors: EBUSY (a session, and
 *   no FORCE; or a run), EADDRNOTAVAIL (no NI to name the session by).
 *   LNET_LST_OP_SESSION_END. RMSN to every node of every group (ESRCH
 *   from a node counts as success), then forgets the groups and batches.
 *   Out: lst_nnodes, lst_nids and lst_nodes[i].ln_status of the nodes
 *   that failed (at most LNET_LST_MAX_NODES of them). Errors: ESRCH.
 *   LNET_LST_OP_SESSION_INFO. Out: lst_name, lst_session_timeout_s,
 *   lst_timeout_s, lst_ngroups, lst_nbatches. Errors: ESRCH.
 *   LNET_LST_OP_GROUP_ADD. In: lst_name, lst_nnodes NIDs in lst_nids
 *   (1..LNET_LST_MAX_NODES, nid4, none twice), lst_flags (LNET_LST_F_FORCE:
 *   MKSN by force, a node's session of another console is replaced). A
 *   group of that name takes the nodes it does not hold yet (EINVAL past
 *   LNET_LST_MAX_NODES); MKSN to each of those. Out: lst_nodes[i] for
 *   each lst_nids[i]: ln_status, ln_state. Errors: EINVAL (a NID twice,
 *   or the group would hold more than LNET_LST_MAX_NODES), EAFNOSUPPORT
 *   (a NID that is not nid4), ENOSPC (LNET_LST_MAX_GROUPS groups
 *   already), EHOSTUNREACH (no node was added:
 *   the group is not made or not changed; ln_status says why for each).
 *   A node that failed while another was added stays in the group, DOWN
 *   or BUSY: the op succeeds and its ln_status says so.
 *   LNET_LST_OP_GROUP_DEL. In: lst_name. RMSN to its nodes that no other
 *   group holds. Errors: ENOENT (no such group), EBUSY (a test uses it).
 *   LNET_LST_OP_GROUP_GET. In: lst_index. Out: lst_name, lst_nnodes,
 *   lst_nids, lst_nodes[i].ln_state and ln_status (of the node's last
 *   RPC). Errors: ENOENT (lst_index past the last group).
 *   LNET_LST_OP_BATCH_ADD. In: lst_name. Errors: EEXIST, ENOSPC
 *   (LNET_LST_MAX_BATCHES batches already).
 *   LNET_LST_OP_BATCH_GET. In: lst_index. Out: lst_name, lst_ntests,
 *   lst_tests, lst_running (1 from RUN until STOP, or a QUERY found no
 *   test active). Errors: ENOENT.
 *   LNET_LST_OP_TEST_ADD. In: lst_name (the batch), lst_from and lst_to
 *   (groups), lst_test, lst_size, lst_check, lst_offset, lst_concurrency,
 *   lst_count (RPCs per unit, 0..LNET_LST_MAX_COUNT, 0 = until BATCH_STOP), with
 *   START's ranges. TEST to the lst_to nodes (servers), then to the
 *   lst_from nodes (clients: each unit sends to every lst_to node). Out:
 *   lst_nnodes, lst_nids, lst_nodes[i] of the nodes that failed (the
 *   servers', else the clients' step). Errors: ENOENT (no such batch or group), EBUSY (the batch
 *   runs), ENOSPC (LNET_LST_MAX_TESTS tests already), EHOSTUNREACH (a
 *   node refused or did not answer: the test is not added).
 *   LNET_LST_OP_BATCH_RUN, _STOP, _QUERY. In: lst_name (the batch).
 *   BATCH RUN, STOP (then QUERY until no test is active, at most
 *   lst_timeout_s), QUERY to its client nodes. Out: lst_active (client
 *   tests active, over the nodes), lst_nnodes, lst_nids, lst_nodes[i]
 *   of the nodes that failed (the first LNET_LST_MAX_NODES). Errors:
 *   ENOENT, ENODATA (RUN of a batch with no test),
 *   EHOSTUNREACH (a node refused or did not answer).
 *   LNET_LST_OP_GROUP_STAT. In: lst_name (a group). STAT to each of its
 *   nodes. Out: lst_nnodes, lst_nids, lst_nodes[i] (the counters; a node
 *   whose STAT failed has ln_status set and its last good counters).
 *   Errors: ENOENT.
 *   Every op of the model but SESSION_NEW: ESRCH without a session.
 */
#ifndef _UAPI_LNET_LST_H
#define _UAPI_LNET_LST_H

#include "lnet_ioctl.h"

/* Ranges (decimal: lnetctl's help shows them). */
#define LNET_LST_MIN_SIZE		8
#define LNET_LST_MAX_SIZE		1048576
#define LNET_LST_MAX_OFFSET		4088	/* into the first 4 KiB page */
#define LNET_LST_MAX_CONCURRENCY	1024
#define LNET_LST_MAX_COUNT		1000000000
#define LNET_LST_MAX_TIMEOUT_S		3600
#define LNET_LST_MAX_NODES		64	/* of a run, a group */
#define LNET_LST_MAX_GROUPS		16
#define LNET_LST_MAX_BATCHES		16
#define LNET_LST_MAX_TESTS		8	/* of a batch */
#define LNET_LST_MAX_SESSION_TIMEOUT_S	86400
#define LNET_LST_NAME_MAX		31	/* characters of a name */
#define LNET_LST_NAME_LEN		32	/* with its NUL */

#define LNET_LST_F_FORCE		0x1U	/* SESSION_NEW, GROUP_ADD */
#define LNET_LST_F_ALL			LNET_LST_F_FORCE

/*
 * Tests: X(name, value); names as lnetctl takes them. The check modes
 * (LNET_LST_CHECKS, enum lnet_lst_check) are in lnet_ioctl.h: selftest
 * put|get take them too.
 */
#define LNET_LST_TESTS(X)	X(ping, 1) X(read, 2) X(write, 3)

enum lnet_lst_test {
#define LNET_LST_TEST_ENUM(n, v) LNET_LST_TEST_##n = v,
	LNET_LST_TESTS(LNET_LST_TEST_ENUM)
#undef LNET_LST_TEST_ENUM
};

enum lnet_lst_op {
	LNET_LST_OP_START	= 1,
	LNET_LST_OP_STAT	= 2,
	LNET_LST_OP_END		= 3,
	LNET_LST_OP_SESSION_NEW	= 4,
	LNET_LST_OP_SESSION_END	= 5,
	LNET_LST_OP_SESSION_INFO = 6,
	LNET_LST_OP_GROUP_ADD	= 7,
	LNET_LST_OP_GROUP_DEL	= 8,
	LNET_LST_OP_GROUP_GET	= 9,
	LNET_LST_OP_BATCH_ADD	= 10,
	LNET_LST_OP_BATCH_GET	= 11,
	LNET_LST_OP_TEST_ADD	= 12,
	LNET_LST_OP_BATCH_RUN	= 13,
	LNET_LST_OP_BATCH_STOP	= 14,
	LNET_LST_OP_BATCH_QUERY	= 15,
	LNET_LST_OP_GROUP_STAT	= 16,
	__LNET_LST_OP_MAX
};

/*
 * A node's state in a group, from the sid of its last reply (as lst):
 * ours ACTIVE, another console's BUSY, none UNKNOWN; no reply DOWN.
 */
#define LNET_LST_NODE_STATES(X) X(unknown, 0) X(active, 1) X(busy, 2) X(down, 3)

enum lnet_lst_node_state {
#define LNET_LST_STATE_ENUM(n, v) LNET_LST_NODE_##n = v,
	LNET_LST_NODE_STATES(LNET_LST_STATE_ENUM)
#undef LNET_LST_STATE_ENUM
};

/* One node's counters, as its last STAT_REPLY gave them. */
struct lnet_ioc_lst_node {
	__u32 ln_status;			/* 0 or a positive errno */
	__u32 ln_running_ms;			/* since its session began */
	__u32 ln_brw_errors, ln_ping_errors;	/* of the session's tests */
	__u32 ln_rpc_errors, ln_rpcs_dropped, ln_rpcs_expired;
	__u32 ln_rpcs_sent, ln_rpcs_rcvd;
	__u32 ln_send_count, ln_recv_count;	/* LNet messages, any kind */
	__u32 ln_state;				/* out: enum lnet_lst_node_state */
	__u64 ln_send_length, ln_recv_length;	/* LNet payload bytes */
	__u64 ln_bulk_get, ln_bulk_put;		/* moved by its brw server */
};

/* A test of a batch (BATCH_GET), as TEST_ADD took it. */
struct lnet_ioc_lst_test {
	__u32 lt_test;				/* enum lnet_lst_test */
	__u32 lt_size, lt_check;		/* 0 for ping */
	__u32 lt_concurrency, lt_count;		/* count 0: until stopped */
	__u32 lt_offset;			/* brw: into the first page */
	char lt_from[LNET_LST_NAME_LEN];	/* groups: clients */
	char lt_to[LNET_LST_NAME_LEN];		/* servers */
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
	__u32 lst_active;			/* out (STAT, END, BATCH_*) */
	__u32 lst_nnodes;			/* the model's NIDs in lst_nids */
	__u32 lst_flags;			/* LNET_LST_F_* */
	__u32 lst_index;			/* GROUP_GET, BATCH_GET */
	__u32 lst_session_timeout_s;
	__u32 lst_ngroups, lst_nbatches;	/* out (SESSION_INFO) */
	__u32 lst_ntests, lst_running;		/* out (BATCH_GET) */
	char lst_name[LNET_LST_NAME_LEN];	/* session, group or batch */
	char lst_from[LNET_LST_NAME_LEN];	/* TEST_ADD's groups */
	char lst_to[LNET_LST_NAME_LEN];
	struct lnet_nid lst_nids[LNET_LST_MAX_NODES];	/* in (START) */
	struct lnet_ioc_lst_node lst_nodes[LNET_LST_MAX_NODES];	/* out */
	struct lnet_ioc_lst_test lst_tests[LNET_LST_MAX_TESTS];	/* out */
	__u32 lst_offset;			/* in (START, TEST_ADD) */
	__u32 lst_reserved[3];
};

#define IOC_LNET_LST	_IOWR(LNET_IOC_TYPE, 160, struct lnet_ioc_lst)

#endif /* _UAPI_LNET_LST_H */
