/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User Defined Selection Policies (UDSP): the rule ABI.
 * Included by lnet_ioctl.h (and includes it); see there for the framing and
 * common errors.
 *
 * A rule
 * ------
 * A rule has up to three NID descriptors: src (local NIs), dst (peer NIs),
 * rte (routers), and an action. Six shapes are valid; anything else is
 * EINVAL:
 *
 *   src only, PRIORITY        local net priority (net descr) or local NI
 *                             priority (NID descr)
 *   dst only, PRIORITY        peer net priority / peer NI priority
 *   src + dst, PREFERRED_LIST local NIs matching src become preferred
 *                             sources of the peer NIs matching dst
 *   dst + rte, PREFERRED_LIST gateways matching rte become preferred
 *                             routers of the peer NIs matching dst
 *
 * Rules form one ordered list; a rule's idx is its position (0-based,
 * dense). Lower idx wins where several rules match one object.
 *
 * Wire layout (ADD_UDSP request, GET_UDSP reply), all fields host order:
 *
 *   struct lnet_ioc_udsp                      32 bytes
 *   3 x descriptor, in the order src, dst, rte:
 *     struct lnet_ioc_udsp_descr              16 bytes
 *     iud_nlists x range list:
 *       struct lnet_ioc_range_list            4 bytes (count)
 *       count x struct lnet_ioc_range         12 bytes each
 *
 * An absent descriptor is its 16-byte header with every field zero.
 * A present descriptor has iud_lnd != 0 and exactly 1 + N range lists:
 * list 0 holds net numbers (0..65535; "tcp" is [0], "tcp*" is [0-65535]),
 * then N address lists by iud_kind:
 *   LNET_UDSP_KIND_NET   N = 0  a net descriptor ("tcp1", "o2ib[1-3]")
 *   LNET_UDSP_KIND_IPV4  N = 4  one list per octet, most significant first,
 *                               values 0..255 (tcp, o2ib, efa only)
 *   LNET_UDSP_KIND_NUM   N = 1  values 0..4294967295 (gni, ptlf, kfi, lo)
 *   LNET_UDSP_KIND_IPV6  N = 8  one list per 16-bit group, most significant
 *                               first, values 0..65535 (tcp, o2ib, efa)
 * A range {lo, hi, stride} holds v when lo <= v <= hi and (v - lo) %
 * stride == 0; lo <= hi and stride >= 1 always. Every list has 1 to
 * LNET_UDSP_MAX_RANGES ranges; a descriptor has at most
 * LNET_UDSP_MAX_RANGES ranges in all. iud_size is the number of bytes of
 * the descriptor's range lists (after its header), and iou_bulk_size the
 * number of bytes after struct lnet_ioc_udsp: both must be exact.
 * The largest rule is therefore well under LNET_UDSP_MAX_SIZE.
 *
 * IOC_LIBCFS_ADD_UDSP (105)
 *   In: the whole rule; iou_idx = -1 appends, 0..n inserts before the rule
 *   at that position (n or more appends). Out: iou_idx = where it landed.
 *   The same descriptors and action as an existing rule change that
 *   rule: iou_idx >= 0 moves it to that position (n - 1 or more: last),
 *   another priority replaces its priority; iou_idx = -1 leaves it where
 *   it is. Out: iou_idx = where that rule is now.
 *   Errors: EINVAL (layout, counts, sizes, ranges, kind vs. LND, shape,
 *   action, priority not 0 on a PREFERRED_LIST rule, iou_idx < -1),
 *   EALREADY (an identical rule exists and neither its idx nor its
 *   priority would change), ENOSPC (LNET_UDSP_MAX_RULES).
 *
 * IOC_LIBCFS_DEL_UDSP (106)
 *   In: iou_idx >= 0 deletes that rule (later rules move up by one);
 *   iou_idx = -1 deletes every rule (0 even when there are none).
 *   ioc_len must be sizeof(struct lnet_ioc_udsp), iou_bulk_size 0.
 *   Errors: ENOENT (no rule at iou_idx), EINVAL (iou_idx < -1:
 *   lnet_udsp_del_check() in kernel/core/validate.c, which callers run first).
 *
 * IOC_LIBCFS_GET_UDSP_SIZE (107)
 *   In: iou_idx >= 0. Out: iou_bulk_size = bytes the rule needs after
 *   struct lnet_ioc_udsp. Errors: ENOENT (no such rule).
 *
 * IOC_LIBCFS_GET_UDSP (108)
 *   In: iou_idx >= 0; ioc_len = sizeof(struct lnet_ioc_udsp) + room.
 *   Out: the rule in the wire layout above (iou_bulk_size, iou_action,
 *   iou_priority set). Errors: ENOENT (no such rule), ENOSPC (room too
 *   small: iou_bulk_size then holds the size needed).
 *
 * Rule changes re-flatten every rule into every net, NI, peer net and peer
 * NI before the ioctl returns (all but IOC_LNET_ADD_UDSP_BATCH with
 * LNET_UDSP_BATCH_F_DEFER, below); nothing on the send path reads the list.
 *
 * IOC_LIBCFS_GET_CONST_UDSP_INFO (109)
 *   In: cud_nid and cud_peer (0: a local NI, 1: a peer NI).
 *   Out: the NI's net priority and NID priority, and for a peer NI its
 *   preferred local NIDs and preferred routers (at most LNET_PREF_MAX;
 *   cud_npref / cud_nrtr give the real counts). Errors: ENOENT (no such
 *   NI), EINVAL (cud_peer not 0 or 1).
 *   While rule changes are pending (IOC_LNET_ADD_UDSP_BATCH below) these
 *   are the values in force, those of the rules before the changes.
 *
 * Batches
 * -------
 * Many rules in one request, for an import: the rules of a batch go in
 * with one re-flatten, and a series of batches can defer even that to its
 * last one, so that an import of any size re-flattens once. Both commands
 * carry struct lnet_ioc_udsp_batch, then records back to back, each record
 * exactly one rule in the wire layout above (struct lnet_ioc_udsp, its
 * iou_hdr.ioc_len the record's size, ioc_version LNET_IOC_VERSION, then
 * the bulk); ioc_len of the request counts them all. Our own commands
 * (Lustre has no batch): ADD_UDSP, DEL_UDSP and GET_UDSP above do what
 * Lustre's do, one rule at a time.
 *
 * IOC_LNET_ADD_UDSP_BATCH (143)
 *   In: iub_count records, each an ADD_UDSP request; iub_flags 0 or
 *   LNET_UDSP_BATCH_F_DEFER; iub_idx 0. The records are validated first
 *   (framing, then each rule as ADD_UDSP validates it), then applied in
 *   order, each exactly as ADD_UDSP applies it (iou_idx -1 appends, 0..n
 *   inserts; a rule matching an existing rule moves it or gives it the
 *   new priority), then everything is re-flattened once. The request is
 *   all or nothing: when a record fails, the changes of the records
 *   before it are undone and the list is exactly as before the request.
 *   Out: each record's iou_idx = where its rule was right after it was
 *   applied (later records may move it), iub_done = iub_count, iub_total
 *   = the rules in the list.
 *   LNET_UDSP_BATCH_F_DEFER: change the rule list but re-flatten nothing:
 *   the changes are pending, and every net, NI, peer net and peer NI keeps
 *   the values it had (the send path, GET_NET, GET_PEER_NI and
 *   GET_CONST_UDSP_INFO see those) while GET_UDSP, GET_UDSP_SIZE and
 *   GET_UDSP_BATCH show the list as it now is. The next request that
 *   re-flattens applies everything pending at once: ADD_UDSP_BATCH without
 *   the flag (with iub_count 0 it only does that), ADD_UDSP, DEL_UDSP, a
 *   net, NI, peer NI or route added, and an NI or a route deleted (a new
 *   object gets what the rules say). UNCONFIGURE drops the pending rules with the others.
 *   A client that stops in the middle of a series (lnetctl import is
 *   killed) leaves its rules in the list and pending until then.
 *   Errors (iub_done then says which record: 0-based): EINVAL (ioc_len
 *   not the size of the structure and its iub_count records, a record
 *   too short or past the end, iub_idx not 0, an unknown flag, any error
 *   of ADD_UDSP's EINVAL list in a record), EALREADY and ENOSPC (as
 *   ADD_UDSP, for record iub_done), ENOMEM (iub_done == iub_count: the
 *   re-flatten found no memory; nothing of this request was kept, and
 *   what was pending before still is).
 *
 * IOC_LNET_GET_UDSP_BATCH (144)
 *   In: iub_idx >= 0, the first rule wanted; iub_flags 0, iub_count 0;
 *   ioc_len = sizeof(struct lnet_ioc_udsp_batch) + room. Out: the rules
 *   iub_idx, iub_idx + 1, ... as records in the GET_UDSP reply layout
 *   (each iou_idx its idx), as many whole ones as the room holds;
 *   iub_count = how many, iub_done = the bytes they take, iub_total = the
 *   rules in the list. iub_idx >= iub_total: 0 records (not an error).
 *   The room past the records is left as it came. A room of
 *   sizeof(struct lnet_ioc_udsp) + LNET_UDSP_MAX_SIZE holds any rule.
 *   Errors: EINVAL (iub_idx < 0, iub_flags or iub_count not 0), ENOSPC
 *   (the rule at iub_idx does not fit: iub_done = the bytes it needs).
 *
 * IOC_LNET_DEL_UDSP_BATCH (145)
 *   In: iub_count records, each a bare struct lnet_ioc_udsp (its
 *   iou_hdr.ioc_len exactly that size, ioc_version LNET_IOC_VERSION,
 *   iou_idx >= 0, every other field 0); iub_flags 0 or
 *   LNET_UDSP_BATCH_F_DEFER; iub_idx 0. Each record deletes the rule at
 *   its iou_idx in the list as the records before it left it (as that
 *   many DEL_UDSP would), then everything is re-flattened once; with
 *   LNET_UDSP_BATCH_F_DEFER nothing is re-flattened (pending, as for
 *   ADD_UDSP_BATCH). All or nothing: every record is checked before the
 *   first rule goes. Out: iub_done = iub_count, iub_total = the rules
 *   left in the list.
 *   Errors (iub_done then says which record: 0-based): EINVAL (ioc_len
 *   not the size of the structure and its iub_count records, a record of
 *   another size or version, iou_idx < 0, a non-zero field, iub_idx not
 *   0, an unknown flag), ENOENT (no rule at that record's iou_idx once
 *   the records before it are deleted), ENOMEM (iub_done == iub_count:
 *   nothing of this request was done).
 *
 * In all three, iub_reserved must be 0 (EINVAL); out fields are not read.
 */
#ifndef _UAPI_LNET_UDSP_H
#define _UAPI_LNET_UDSP_H

/* When included first: lnet_ioctl.h includes this file at its end. */
#include "lnet_ioctl.h"

#define LNET_UDSP_MAX_RANGES	64
#define LNET_UDSP_MAX_RULES	65536
#define LNET_UDSP_MAX_LISTS	9	/* net numbers + 8 IPv6 groups */
#define LNET_UDSP_MAX_SIZE	4096	/* bytes after struct lnet_ioc_udsp */

enum lnet_udsp_action {
	LNET_UDSP_ACTION_NONE		= 0,
	LNET_UDSP_ACTION_PRIORITY	= 1,
	LNET_UDSP_ACTION_PREFERRED_LIST	= 2,
	__LNET_UDSP_ACTION_MAX		= 3,
};

enum lnet_udsp_kind {
	LNET_UDSP_KIND_NET	= 0,
	LNET_UDSP_KIND_IPV4	= 1,
	LNET_UDSP_KIND_NUM	= 2,
	LNET_UDSP_KIND_IPV6	= 3,
	__LNET_UDSP_KIND_MAX	= 4,
};

struct lnet_ioc_range {
	__u32 lo;
	__u32 hi;
	__u32 stride;
};

struct lnet_ioc_range_list {
	__u32 count;
};

struct lnet_ioc_udsp_descr {
	__u8  iud_lnd;		/* enum lnet_lnd_type; 0 = absent */
	__u8  iud_kind;		/* enum lnet_udsp_kind */
	__u8  iud_nlists;	/* 1 + address lists of the kind */
	__u8  iud_pad;
	__u32 iud_size;		/* bytes of the range lists that follow */
	__u32 iud_reserved[2];
};

struct lnet_ioc_udsp {
	struct lnet_ioc_hdr iou_hdr;
	__s32 iou_idx;
	__u32 iou_action;	/* enum lnet_udsp_action */
	__u32 iou_priority;	/* 0 (highest) .. LNET_PRIORITY_UNSET - 1 */
	__u32 iou_flags;	/* none defined: must be 0 */
	__u32 iou_bulk_size;	/* bytes after this structure */
	__u32 iou_reserved;
};

struct lnet_ioc_udsp_info {
	struct lnet_ioc_hdr cud_hdr;
	__u32 cud_peer;
	__u32 cud_net_priority;			/* out */
	struct lnet_nid cud_nid;
	__u32 cud_nid_priority;			/* out */
	__u32 cud_npref;			/* out */
	__u32 cud_nrtr;				/* out */
	__u32 cud_reserved;
	struct lnet_nid cud_pref[LNET_PREF_MAX];	/* out */
	struct lnet_nid cud_rtr[LNET_PREF_MAX];	/* out */
};

/* iub_flags of IOC_LNET_ADD_UDSP_BATCH and IOC_LNET_DEL_UDSP_BATCH */
enum lnet_udsp_batch_flags {
	LNET_UDSP_BATCH_F_DEFER		= 1U << 0,	/* more follow: no re-flatten */
	__LNET_UDSP_BATCH_F_ALL		= (1U << 1) - 1,
};

struct lnet_ioc_udsp_batch {
	struct lnet_ioc_hdr iub_hdr;
	__u32 iub_flags;	/* ADD, DEL: LNET_UDSP_BATCH_F_*; GET: 0 */
	__s32 iub_idx;		/* GET in: the first rule; ADD, DEL: 0 */
	__u32 iub_count;	/* ADD, DEL in, GET out: records after this structure */
	__u32 iub_done;		/* out: ADD, DEL records done / the one that failed;
				 * GET bytes of the records / bytes needed */
	__u32 iub_total;	/* out: rules in the list */
	__u32 iub_reserved;
};

#define IOC_LIBCFS_ADD_UDSP	_IOWR(LNET_IOC_TYPE, 105, struct lnet_ioc_udsp)
#define IOC_LIBCFS_DEL_UDSP	_IOWR(LNET_IOC_TYPE, 106, struct lnet_ioc_udsp)
#define IOC_LIBCFS_GET_UDSP_SIZE _IOWR(LNET_IOC_TYPE, 107, struct lnet_ioc_udsp)
#define IOC_LIBCFS_GET_UDSP	_IOWR(LNET_IOC_TYPE, 108, struct lnet_ioc_udsp)
#define IOC_LIBCFS_GET_CONST_UDSP_INFO \
	_IOWR(LNET_IOC_TYPE, 109, struct lnet_ioc_udsp_info)
#define IOC_LNET_ADD_UDSP_BATCH	_IOWR(LNET_IOC_TYPE, 143, struct lnet_ioc_udsp_batch)
#define IOC_LNET_GET_UDSP_BATCH	_IOWR(LNET_IOC_TYPE, 144, struct lnet_ioc_udsp_batch)
#define IOC_LNET_DEL_UDSP_BATCH	_IOWR(LNET_IOC_TYPE, 145, struct lnet_ioc_udsp_batch)

/*
 * Which rules decide a NID
 * ------------------------
 * IOC_LNET_UDSP_MATCH (151)
 *   Read-only: every rule that can set a value of one NID or net, in idx
 *   order, the rule that decides each value, and the values (lnetctl
 *   policy show --nid, --net). The engine's own code answers: the test
 *   that tells whether a rule matches an object, the lookup of the rule
 *   that decides it and the functions that set an object's values, run on
 *   a scratch object (never on a real one).
 *   In: um_flags 0 and um_nid, a NID (as lnet_nid_parse() makes them), or
 *   um_flags LNET_UDSP_MATCH_F_NET and um_net, a net id (um_nid zero);
 *   um_first: the first rule to report, 0, then the um_next of the reply
 *   before while that is below um_total. The out fields are not read.
 *   Out:
 *     um_kind      enum lnet_udsp_match_kind. A NID of this node is a
 *                  LOCAL_NI (also when the node is its own peer), another
 *                  one a PEER_NI when a peer has it, else a NEW_PEER_NI:
 *                  its values are what a peer NI with this NID would get
 *                  now. A net is a LOCAL_NET when it has a local NI.
 *     um_value[v]  each value v (enum lnet_udsp_value) the kind has (the
 *                  table below): a priority, LNET_PRIORITY_UNSET when no
 *                  rule sets it; for the lists, how many NIDs they hold.
 *                  LNET_PRIORITY_UNSET for a value the kind does not have.
 *     um_winner[v] the idx of the rule that decides value v; -1 when none
 *                  does (or the kind does not have v), and for the
 *                  PREF_NIDS of a LOCAL_NI, where each peer NI has its own.
 *     um_pref      PEER_NI, NEW_PEER_NI: the preferred source NIDs;
 *                  LOCAL_NI: the peer NIs whose preferred sources hold the
 *                  NID, peers in creation order;
 *     um_rtr       the preferred routers. At most LNET_PREF_MAX of each
 *                  (um_value[] has the real counts), the rest zero.
 *     um_hits      um_nhits records (at most LNET_UDSP_MATCH_HITS): each
 *                  rule from um_first on that can set a value of the
 *                  object, in idx order, uh_value the value. A priority
 *                  rule can when its descriptor holds the object; a pair
 *                  or router rule when its dst holds the peer NI (uh_count:
 *                  the local NIDs or gateways its src or rte picks now; one
 *                  that picks none decides nothing); for a LOCAL_NI, a pair
 *                  rule whose src holds the NID (uh_count: the peer NIs
 *                  whose list it decides). LNET_UDSP_HIT_F_WINS: the rule
 *                  decides the value (a LOCAL_NI's pair rule: the list of
 *                  at least one peer NI).
 *     um_next      the rule after the last one looked at: um_total when
 *                  all were (um_first past the end: no hits, no error).
 *     um_total     the rules in the list.
 *     um_state     LNET_UDSP_MATCH_S_PENDING while rule changes are
 *                  pending (IOC_LNET_ADD_UDSP_BATCH with
 *                  LNET_UDSP_BATCH_F_DEFER): the values are what the rules
 *                  in the list give, which the objects get at the next
 *                  flush; until then they hold those of the rules before.
 *   The values of each kind:
 *     LOCAL_NI              NET_PRIO, NI_PRIO, PREF_NIDS (as a source)
 *     PEER_NI, NEW_PEER_NI  PEER_NET_PRIO, PEER_NI_PRIO, PREF_NIDS, PREF_RTRS
 *     LOCAL_NET             NET_PRIO, PEER_NET_PRIO
 *     PEER_NET              PEER_NET_PRIO
 *   The flattening keeps every object at what the rules give it, so (but
 *   while changes are pending) the values of a configured NI, net or peer
 *   NI are those GET_NET and GET_PEER_NI show.
 *   Errors: EINVAL (a flag other than F_NET; without it, um_nid not such a
 *   NID or um_net not 0; with it, um_net not a net or um_nid not zero;
 *   um_reserved not 0).
 */
enum lnet_udsp_match_flags {
	LNET_UDSP_MATCH_F_NET		= 1U << 0,	/* um_net, not um_nid */
	__LNET_UDSP_MATCH_F_ALL		= (1U << 1) - 1,
};

enum lnet_udsp_match_state {
	LNET_UDSP_MATCH_S_PENDING	= 1U << 0,	/* rule changes not flattened yet */
};

enum lnet_udsp_match_kind {
	LNET_UDSP_MATCH_LOCAL_NI	= 0,
	LNET_UDSP_MATCH_PEER_NI		= 1,
	LNET_UDSP_MATCH_NEW_PEER_NI	= 2,
	LNET_UDSP_MATCH_LOCAL_NET	= 3,
	LNET_UDSP_MATCH_PEER_NET	= 4,
	__LNET_UDSP_MATCH_KIND_MAX	= 5,
};

/* What a rule sets: one value per rule shape, in the order of the shapes. */
enum lnet_udsp_value {
	LNET_UDSP_VAL_NET_PRIO		= 0,	/* --src net: local net priority */
	LNET_UDSP_VAL_NI_PRIO		= 1,	/* --src NIDs: local NI priority */
	LNET_UDSP_VAL_PEER_NET_PRIO	= 2,	/* --dst net: peer net priority */
	LNET_UDSP_VAL_PEER_NI_PRIO	= 3,	/* --dst NIDs: peer NI priority */
	LNET_UDSP_VAL_PREF_NIDS		= 4,	/* --src --dst: preferred sources */
	LNET_UDSP_VAL_PREF_RTRS		= 5,	/* --dst --rte: preferred routers */
	__LNET_UDSP_VAL_MAX		= 6,
};

enum lnet_udsp_hit_flags {
	LNET_UDSP_HIT_F_WINS		= 1U << 0,
};

#define LNET_UDSP_MATCH_HITS	64

struct lnet_ioc_udsp_hit {
	__u32 uh_idx;
	__u8  uh_value;				/* enum lnet_udsp_value */
	__u8  uh_flags;				/* LNET_UDSP_HIT_F_* */
	__u16 uh_pad;
	__u32 uh_count;				/* pair and router rules */
	__u32 uh_reserved;
};

struct lnet_ioc_udsp_match {
	struct lnet_ioc_hdr um_hdr;
	__u32 um_flags;				/* LNET_UDSP_MATCH_F_* */
	__u32 um_net;				/* with F_NET */
	struct lnet_nid um_nid;			/* without F_NET */
	__u32 um_first;
	__u32 um_kind;				/* out */
	__u32 um_total;				/* out */
	__u32 um_next;				/* out */
	__u32 um_nhits;				/* out */
	__u32 um_state;				/* out: LNET_UDSP_MATCH_S_* */
	__u32 um_reserved;
	__s32 um_winner[__LNET_UDSP_VAL_MAX];	/* out */
	__u32 um_value[__LNET_UDSP_VAL_MAX];	/* out */
	struct lnet_ioc_udsp_hit um_hits[LNET_UDSP_MATCH_HITS];	/* out */
	struct lnet_nid um_pref[LNET_PREF_MAX];	/* out */
	struct lnet_nid um_rtr[LNET_PREF_MAX];	/* out */
};

#define IOC_LNET_UDSP_MATCH	_IOWR(LNET_IOC_TYPE, 151, struct lnet_ioc_udsp_match)

#endif /* _UAPI_LNET_UDSP_H */
