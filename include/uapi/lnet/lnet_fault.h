/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fault injection (lnetctl fault, Lustre's `lnetctl fault` / `lctl
 * net_drop_add`): drop rules and delay rules the core applies to the
 * messages it sends and receives. Included by lnet_ioctl.h.
 *
 * A rule matches a message when its source NID matches fa_src, its
 * destination NID fa_dst (the header's NIDs: for a routed message the
 * final ones), its type is in fa_msg_mask, its portal (PUT and GET) in
 * fa_ptl_mask, and, when fa_local_nid is not the zero NID, the local NI
 * it leaves by (send) or arrived on (receive) is fa_local_nid.
 *
 * Which of the matching messages a rule hits:
 *   fa_rate N       one in each window of N matching messages, at a place
 *                   in the window drawn at random when the window opens:
 *                   N * K matching messages give exactly K hits; N = 1
 *                   hits every one (lnetctl's --drop_all).
 *   fa_interval S   the first matching message of each S seconds: the
 *                   first one at once, then the first one S seconds or
 *                   more after the last hit; with LNET_FAULT_F_RANDOM the
 *                   moment is drawn at random within each S seconds.
 * Exactly one of the two is non-zero.
 *
 * What a hit does:
 *   DROP on send    the message never reaches its LND. Without a health
 *                   status it is lost as on the wire: its send completes
 *                   with status 0 and an ACK or REPLY it waits for times
 *                   out. With fa_hstatus_mask, one of the statuses of the
 *                   mask (drawn at random when several) becomes the
 *                   message's health status and the send fails with
 *                   -EIO: the NI or peer NI it blames loses health and
 *                   the send may be resent, as when an LND reports it.
 *   DROP on receive the header is dropped as an unmatched one (counted
 *                   in drop_count); a health status plays no part (no
 *                   send of ours failed).
 *   DELAY on send   the message waits fa_latency seconds, then goes on
 *                   to its LND (the monitor releases it, to the 100 ms
 *                   tick). Deleting the rule releases at once what it
 *                   holds; deleting the NI or peer NI it goes through
 *                   fails it as one waiting for credits; unconfigure
 *                   fails every held message, as a shutdown does.
 *   DELAY on receive the header waits fa_latency seconds before it is
 *                   taken in (matched, forwarded); its connection reads
 *                   nothing more meanwhile, as when a router waits for a
 *                   buffer. Deleting the rule lets it in at once; its
 *                   connection closing or its NI going drops it (counted
 *                   in drop_count), and so does unconfigure. Not on 0@lo.
 *
 * Each rule counts its hits: fs_count (Lustre's ds_dropped / ls_delayed
 * and fs_count) and, by message type, fs_msgs. Resends are messages again.
 *
 * IOC_LNET_FAULT_ADD (152)
 *   In: fa_type, fa_src, fa_dst, fa_local_nid, fa_msg_mask (0 = every
 *   type), fa_ptl_mask (0 = every portal), fa_rate xor fa_interval,
 *   fa_hstatus_mask (DROP only), fa_latency (DELAY only, 1..
 *   LNET_FAULT_LATENCY_MAX), fa_flags (LNET_FAULT_F_RANDOM, with
 *   fa_interval only). The rule goes at the end of its type's list.
 *   Errors: EINVAL (type unknown, a pattern kind unknown or its unused
 *   fields not zero, a malformed NID, a mask bit unknown, both or neither
 *   of rate and interval, rate or interval or latency out of range, a
 *   portal mask with ACK or REPLY in fa_msg_mask, a health status on a
 *   delay rule, an unknown flag, any out field not zero), ENOSPC
 *   (LNET_FAULT_MAX_RULES rules of the type already).
 * IOC_LNET_FAULT_DEL (153)
 *   In: fa_type, and fa_src + fa_dst (the rules with exactly these
 *   patterns) or LNET_FAULT_F_ALL (every rule of the type; fa_src and
 *   fa_dst zero). Out: fa_index = the number of rules deleted.
 *   Errors: EINVAL, ENOENT (no rule deleted).
 * IOC_LNET_FAULT_RESET (154)
 *   In: fa_type. The counters of every rule of the type go to 0.
 *   Errors: EINVAL.
 * IOC_LNET_FAULT_GET (155)
 *   In: fa_type, fa_index (0 = the oldest rule). Out: the rule as added
 *   and its counters (fs_*). Errors: EINVAL, ENOENT (past the last rule).
 * Every field not used by the command must be zero (EINVAL otherwise).
 */
#ifndef _UAPI_LNET_FAULT_H
#define _UAPI_LNET_FAULT_H

/* When included first: lnet_ioctl.h includes this file at its end. */
#include "lnet_ioctl.h"

enum lnet_fault_type {
	LNET_FAULT_DROP		= 1,
	LNET_FAULT_DELAY	= 2,
};

/* How a NID pattern (struct lnet_fault_nid) matches. */
enum lnet_fault_nid_kind {
	LNET_FAULT_NID_ANY	= 0,	/* "*": every NID (fn_net, fn_nid zero) */
	LNET_FAULT_NID_NET	= 1,	/* "*@net": every NID of fn_net */
	LNET_FAULT_NID_ONE	= 2,	/* fn_nid only */
	__LNET_FAULT_NID_MAX	= 3,
};

struct lnet_fault_nid {
	__u32 fn_kind;			/* enum lnet_fault_nid_kind */
	__u32 fn_net;			/* NET: LNET_NET_ID(); else 0 */
	struct lnet_nid fn_nid;		/* ONE: the NID; else the zero NID */
};					/* 28 bytes */

/* fa_msg_mask bits: 1 << the message type (enum lnet_ioc_msg_type), as Lustre's. */
enum lnet_fault_msg_bit {
	LNET_FAULT_MSG_ACK	= 1U << 0,
	LNET_FAULT_MSG_PUT	= 1U << 1,
	LNET_FAULT_MSG_GET	= 1U << 2,
	LNET_FAULT_MSG_REPLY	= 1U << 3,
	__LNET_FAULT_MSG_ALL	= (1U << 4) - 1,
};

/* The names lnetctl takes (--message, any case) and shows, Lustre's. */
#define LNET_FAULT_MSGS(X)			\
	X(LNET_FAULT_MSG_PUT, "PUT")		\
	X(LNET_FAULT_MSG_ACK, "ACK")		\
	X(LNET_FAULT_MSG_GET, "GET")		\
	X(LNET_FAULT_MSG_REPLY, "REPLY")

/*
 * The health statuses a drop may give (--health_error), Lustre's names;
 * "random" (every one of them, one drawn per drop) is lnetctl's word for
 * LNET_FAULT_HS_ALL.
 */
#define LNET_FAULT_HEALTH_ERRORS(X)				\
	X(LNET_IOC_HS_LOCAL_INTERRUPT, "local_interrupt")	\
	X(LNET_IOC_HS_LOCAL_DROPPED, "local_dropped")		\
	X(LNET_IOC_HS_LOCAL_ABORTED, "local_aborted")		\
	X(LNET_IOC_HS_LOCAL_NO_ROUTE, "local_no_route")		\
	X(LNET_IOC_HS_LOCAL_ERROR, "local_error")		\
	X(LNET_IOC_HS_LOCAL_TIMEOUT, "local_timeout")		\
	X(LNET_IOC_HS_REMOTE_ERROR, "remote_error")		\
	X(LNET_IOC_HS_REMOTE_DROPPED, "remote_dropped")		\
	X(LNET_IOC_HS_REMOTE_TIMEOUT, "remote_timeout")		\
	X(LNET_IOC_HS_NETWORK_TIMEOUT, "network_timeout")

/* fa_hstatus_mask: bit h for enum lnet_ioc_hstatus h (1..10; bit 0 unused). */
#define LNET_FAULT_HS_ALL	(((1U << __LNET_IOC_HS_MAX) - 1) & ~1U)

enum lnet_fault_flags {
	LNET_FAULT_F_ALL	= 1U << 0,	/* DEL: every rule of the type */
	LNET_FAULT_F_RANDOM	= 1U << 1,	/* ADD: a random moment per interval */
	__LNET_FAULT_F_ALL	= (1U << 2) - 1,
};

#define LNET_FAULT_RATE_MAX	1000000000	/* one in a billion */
#define LNET_FAULT_INTERVAL_MAX	86400		/* seconds: a day */
#define LNET_FAULT_LATENCY_MAX	3600		/* seconds: an hour */
#define LNET_FAULT_MAX_RULES	256		/* per type */

/* fs_msgs[] index: as enum lnet_ioc_msg_type (ACK 0, PUT 1, GET 2, REPLY 3). */
#define LNET_FAULT_NMSG		4

struct lnet_ioc_fault {
	struct lnet_ioc_hdr fa_hdr;
	__u32 fa_type;			/* enum lnet_fault_type */
	__u32 fa_flags;			/* LNET_FAULT_F_* */
	struct lnet_fault_nid fa_src;
	struct lnet_fault_nid fa_dst;
	struct lnet_nid fa_local_nid;	/* zero NID: any local NI */
	__u32 fa_msg_mask;		/* LNET_FAULT_MSG_*; 0 = every type */
	__u32 fa_hstatus_mask;		/* DROP: 1 << enum lnet_ioc_hstatus */
	__u32 fa_pad;			/* zero: fa_ptl_mask on 8 bytes everywhere */
	__u64 fa_ptl_mask;		/* bit p: portal p; 0 = every portal */
	__u32 fa_rate;			/* one in N, or 0 */
	__u32 fa_interval;		/* seconds, or 0 */
	__u32 fa_latency;		/* DELAY: seconds held */
	__u32 fa_index;			/* GET in: which rule; DEL out: deleted */
	__u64 fs_count;			/* out (GET): messages hit */
	__u64 fs_msgs[LNET_FAULT_NMSG];	/* out (GET): hits by message type */
	__u32 fa_reserved[4];
};					/* 184 bytes */

#define IOC_LNET_FAULT_ADD	_IOWR(LNET_IOC_TYPE, 152, struct lnet_ioc_fault)
#define IOC_LNET_FAULT_DEL	_IOWR(LNET_IOC_TYPE, 153, struct lnet_ioc_fault)
#define IOC_LNET_FAULT_RESET	_IOWR(LNET_IOC_TYPE, 154, struct lnet_ioc_fault)
#define IOC_LNET_FAULT_GET	_IOWR(LNET_IOC_TYPE, 155, struct lnet_ioc_fault)

#endif /* _UAPI_LNET_FAULT_H */
