/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * The checks of a request that need no LNet state, shared by the core
 * (which enforces them) and libcfg (which runs them before sending, so
 * that its message names the field and the reason instead of guessing
 * from an errno). Ranges and defaults come from lnet_tunables.h.
 *
 * Every check returns 0 or -EINVAL and, on -EINVAL, says why in @bad
 * (may be NULL); the caller writes the message.
 */
#ifndef LNET_VALIDATE_H
#define LNET_VALIDATE_H

#include "../nid/nid.h"

enum lnet_bad_why {
	LNET_BAD_RANGE = 1,	/* field outside min..max of its row */
	LNET_BAD_UNKNOWN,	/* no such setting */
	LNET_BAD_READ_ONLY,	/* a setting that cannot be set */
	LNET_BAD_NOT_BELOW,	/* field must be smaller than setting @other */
	LNET_BAD_NOT_ABOVE,	/* field must be greater than setting @other */
	LNET_BAD_ZERO_WHILE,	/* field must be 0 while setting @other is 0 */
	LNET_BAD_LO_NET,	/* the lo net: LNet makes it, users cannot */
	LNET_BAD_LND,		/* an LND that does not run on an interface */
	LNET_BAD_IFNAME,	/* empty, or not shorter than LNET_IFNAME_LEN */
	/* peers, routes, routing, rules (the block "objects" below) */
	LNET_BAD_FLAGS,		/* a flag the command does not take */
	LNET_BAD_ZERO_NID,	/* NID @field is missing (the zero NID) */
	LNET_BAD_LO_NID,	/* NID @field is 0@lo: never a peer or gateway */
	LNET_BAD_NET,		/* a net of no known LND */
	LNET_BAD_HOPS,		/* route hops not LNET_ROUTE_HOPS_UNSET or 1..MAX */
	LNET_BAD_PRIORITY,	/* route priority above LNET_ROUTE_PRIORITY_MAX */
	LNET_BAD_ENABLE,	/* routing neither 0 nor 1 */
	LNET_BAD_INDEX,		/* a rule index below -1 */
	LNET_BAD_NON_MR,	/* a second NID asked for with LNET_PEER_F_NON_MR */
	/* LND tunables of an NI */
	LNET_BAD_LND_RANGE,	/* LND tunable @field outside its row's range */
	LNET_BAD_LND_NET,	/* LND tunables on a net whose LND has none here */
};

/* @field of LNET_BAD_ZERO_NID and LNET_BAD_LO_NID */
enum lnet_bad_nid {
	LNET_BAD_NID_PRIMARY = 0,	/* a peer's primary NID */
	LNET_BAD_NID_OTHER,		/* the peer NID being added */
	LNET_BAD_NID_GATEWAY,		/* a route's gateway */
};

struct lnet_bad {
	u32 why;		/* enum lnet_bad_why */
	u32 field;		/* enum lnet_ni_tunable, lnet_global or lnet_buf_kind */
	u32 other;		/* the setting a cross-check compares with */
};

/* A row of a table of lnet_tunables.h. */
struct lnet_range {
	const char *name;	/* YAML key; NULL for a hole in the ids */
	s32 min, max, def;
	bool read_only;
};

extern const struct lnet_range lnet_ni_tun_ranges[__LNET_TUN_MAX];
/* Indexed by enum lnet_global; lnd_timeout is read_only. */
extern const struct lnet_range lnet_global_ranges[__LNET_GLOBAL_MAX];

/* Field @id of @t. */
s32 *lnet_ni_tun_ref(struct lnet_ni_tunables *t, u32 id);
s32 lnet_ni_tun_get(const struct lnet_ni_tunables *t, u32 id);
/* Every field -1 (= the default). */
void lnet_ni_tunables_unset(struct lnet_ni_tunables *t);
/* Every field -1 or in range; then (lnet_ni_tunables_fill) -1 made the default. */
int lnet_ni_tunables_check(const struct lnet_ni_tunables *t, struct lnet_bad *bad);
void lnet_ni_tunables_fill(struct lnet_ni_tunables *t);
/*
 * An NI of net @net_id on interface @ifname with tunables @t: the net is
 * not lo and its LND runs on interfaces, the name fits, the tunables hold.
 */
int lnet_ni_add_check(u32 net_id, const char *ifname,
		      const struct lnet_ni_tunables *t, struct lnet_bad *bad);

/* The rows of LNET_SOCK_TUNABLES, indexed by enum lnet_sock_tunable. */
extern const struct lnet_range lnet_sock_tun_ranges[__LNET_SOCK_TUN_MAX];

s32 *lnet_sock_tun_ref(struct lnet_sock_tunables *t, u32 id);
s32 lnet_sock_tun_get(const struct lnet_sock_tunables *t, u32 id);
/* Every field -1 (= the default). */
void lnet_sock_tunables_unset(struct lnet_sock_tunables *t);
/*
 * The LND tunables @t (NULL: none given) of an NI of net @net_id: only a
 * tcp net takes them (LNET_BAD_LND_NET), each -1 or in its row's range
 * (LNET_BAD_LND_RANGE, field the row).
 */
int lnet_ni_lnd_tun_check(u32 net_id, const struct lnet_sock_tunables *t,
			  struct lnet_bad *bad);
/*
 * A change in place of the LND tunables of the NIs of net @net_id
 * (IOC_LNET_SET_NI_LND): @rows a mask of LNET_NI_LND_ROW() bits, at least
 * one and none past the table (LNET_BAD_FLAGS); the rows it names of @t
 * as lnet_ni_lnd_tun_check() wants them, the others not read.
 */
int lnet_ni_lnd_set_check(u32 net_id, const struct lnet_sock_tunables *t, u32 rows,
			  struct lnet_bad *bad);

/*
 * Setting @id to @value: known, settable and in range (what needs no
 * running values, so a caller can check before it reads them).
 */
int lnet_global_range_check(u32 id, u32 value, struct lnet_bad *bad);
/*
 * Setting @id to @value when the settings are @cur (indexed by enum
 * lnet_global): lnet_global_range_check(), and the cross-checks of
 * lnet_ioctl.h hold.
 */
int lnet_global_check(const u32 cur[__LNET_GLOBAL_MAX], u32 id, u32 value,
		      struct lnet_bad *bad);

/*
 * CONFIGURE's @flags: LNET_CONFIG_F_* bits only, else LNET_BAD_FLAGS.
 * (UNCONFIGURE takes no flag: 0 is its only value.)
 */
int lnet_configure_check(u32 flags, struct lnet_bad *bad);

/* --- objects: peers, routes, routing, rules --------------------------------
 * The checks of ADD_PEER_NI, DEL_NET, ADD_ROUTE, CONFIG_RTR and DEL_UDSP
 * that need no state. What needs state has an errno of its own (see
 * lnet_ioctl.h), so neither side has to guess.
 */

/*
 * Adding @nid (NULL or zero: none) to the peer of primary NID @prim with
 * @flags: a primary NID, only NON_MR and LOCK_PRIM, no 0@lo, and no NID
 * besides @prim when NON_MR says the peer has one. (That an existing peer
 * is non-MR needs state: the core answers EMLINK.)
 */
int lnet_peer_add_check(const struct lnet_nid *prim, const struct lnet_nid *nid,
			u32 flags, struct lnet_bad *bad);
/* Deleting (an NI of) net @net_id: never lo. */
int lnet_net_del_check(u32 net_id, struct lnet_bad *bad);
/*
 * A route to @net_id through @gw: a known LND other than lo, a gateway
 * that is neither zero nor 0@lo, @hops and @priority within their ranges.
 */
int lnet_route_add_check(u32 net_id, const struct lnet_nid *gw, u32 hops,
			 u32 priority, struct lnet_bad *bad);
/* Routing @enable: 0 or 1. */
int lnet_routing_check(u32 enable, struct lnet_bad *bad);
/* Deleting rule @idx: -1 (all) or a rule index. */
int lnet_udsp_del_check(s32 idx, struct lnet_bad *bad);

/* --- the lnet_selftest console (IOC_LNET_LST, lnet_lst.h) ------------------ */

/* @field of a bad IOC_LNET_LST request: the first field that is wrong. */
#define LNET_LST_FIELDS(X) X(OP, "lst_op") X(NAME, "lst_name") X(FROM, "lst_from") \
	X(TO, "lst_to") X(NNODES, "lst_nnodes") X(NIDS, "lst_nids") X(TEST, "lst_test") \
	X(SIZE, "lst_size") X(CHECK, "lst_check") X(OFFSET, "lst_offset") X(CONCURRENCY, "lst_concurrency") \
	X(COUNT, "lst_count") X(TIMEOUT, "lst_timeout_s") \
	X(SESSION_TIMEOUT, "lst_session_timeout_s") X(FLAGS, "lst_flags") \
	X(NFROM, "lst_nfrom") X(NTO, "lst_nto")

enum lnet_lst_field {
#define LNET_LST_FIELD_ENUM(f, key) LNET_LST_FIELD_##f,
	LNET_LST_FIELDS(LNET_LST_FIELD_ENUM)
#undef LNET_LST_FIELD_ENUM
};

/* A session, group or batch name as lnet_lst.h says (1..31 of [A-Za-z0-9_.-]). */
bool lnet_lst_name_ok(const char *name);
/*
 * The in fields op @req->lst_op reads, as lnet_lst.h says: -EINVAL with
 * LNET_BAD_RANGE and @field the first bad one (for a NID, @other its
 * index), or -EAFNOSUPPORT for a NID that is not nid4 (@other its index).
 */
int lnet_lst_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad);

/* --- router buffers ------------------------------------------------------ */

/* Indexed by enum lnet_buf_kind: the rows of LNET_BUFFERS. */
extern const struct lnet_range lnet_buf_ranges[LNET_NBUF_KINDS];

/*
 * Router buffer counts (IOC_LIBCFS_ADD_BUF): each -1 (leave it), 0 (the
 * default) or in its row's range; else LNET_BAD_RANGE, field the kind.
 */
int lnet_buffers_check(const s32 counts[LNET_NBUF_KINDS], struct lnet_bad *bad);

#endif /* LNET_VALIDATE_H */
