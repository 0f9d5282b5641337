/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interface of the UDSP engine: the rule list (udsp.c), the
 * indexes (udsp_index.c) and the flattening (udsp_apply.c).
 *
 * The rule index: each rule belongs to one class and is filed under one
 * key: its class and, when the net list of its selecting descriptor (src
 * for local rules, dst for the others) is a single net number, that net;
 * otherwise its class and LND only. An object looks at the two groups that
 * can hold rules for its net, both sorted by idx, in idx order, and stops
 * at the first match. Each entry carries the bounds of the first 32 bits
 * of the addresses its descriptor can match, so most rules that cannot
 * match are passed over without running the matcher.
 *
 * The object index: every peer NI's NID, grouped by net, so that adding,
 * changing or deleting one rule recomputes only the peer NIs that rule
 * matches. It holds NIDs, not pointers (a peer NI found again by NID
 * cannot be a freed one); a new peer NI makes it stale (dropped).
 */
#ifndef LNET_UDSP_PRIV_H
#define LNET_UDSP_PRIV_H

#include "udsp.h"

enum udsp_class {
	UC_LOCAL_NET,		/* src net, PRIORITY */
	UC_LOCAL_NI,		/* src NID, PRIORITY */
	UC_PEER_NET,		/* dst net, PRIORITY */
	UC_PEER_NI,		/* dst NID, PRIORITY */
	UC_PAIR,		/* src + dst, PREFERRED_LIST */
	UC_ROUTER,		/* dst + rte, PREFERRED_LIST */
	UC_MAX
};

#define UDSP_KEY_MULTI	(1U << 27)	/* key of a rule spanning net numbers */
#define UDSP_KEY_CLASS	28

struct udsp_entry {
	u32 ue_lo, ue_hi;		/* address bounds (lnet_udsp_nid_key) */
	u32 ue_idx;
	struct lnet_udsp *ue_rule;
};

struct udsp_group {
	u32 ug_key;
	u32 ug_used;
	u32 ug_start;			/* first entry of the group */
	u32 ug_n;
	/*
	 * Rule groups of UDSP_BUCKET_MIN entries or more also get buckets
	 * over the address bounds: bucket b holds (in idx order) the
	 * positions of the entries whose bounds meet
	 * [ug_min + (b << ug_shift), ug_min + ((b + 1) << ug_shift)).
	 * ug_nb == 0: no buckets, look at every entry.
	 */
	u32 ug_min, ug_max, ug_shift, ug_nb;
	u32 ug_boff;			/* first bucket in ui_bstart */
};

#define UDSP_BUCKET_MIN	8

struct udsp_objs {
	u32 uo_ngroups;
	struct udsp_group *uo_groups;	/* ug_key = net id */
	u32 *uo_keys;			/* lnet_udsp_nid_key() of each NID */
	struct lnet_nid *uo_nids;
};

struct lnet_udsp_index {
	u32 ui_nslots;			/* power of two */
	u32 ui_nrules;
	u32 ui_class_n[UC_MAX];
	u32 ui_multi_lnds[UC_MAX];	/* LNDs with a multi-net group: bits */
	struct udsp_group *ui_slots;
	struct udsp_entry *ui_ents;	/* grouped, each group in idx order */
	u32 *ui_bstart;			/* per bucket: first in ui_bpos; +1 end */
	u32 *ui_bpos;			/* entry positions, bucket after bucket */
	void *ui_bmem;			/* their allocation, or NULL */
	struct udsp_objs *ui_objs;	/* NULL until needed / when stale */
};

u32 lnet_udsp_class(const struct lnet_udsp_desc *d);
/* The descriptor that selects the objects of the rule's class. */
const struct lnet_nidexpr *lnet_udsp_class_expr(const struct lnet_udsp_desc *d,
						u32 cls);
/* The first 32 bits of a NID's address, as a number. */
u32 lnet_udsp_nid_key(const struct lnet_nid *nid);
void lnet_udsp_expr_bounds(const struct lnet_nidexpr *e, u32 *lo, u32 *hi);
struct udsp_group *lnet_udsp_group_get(struct udsp_group *slots, u32 nslots,
				       u32 key, bool create);

/*
 * Build the rule index of the rule list as it is, leaving out @skip (a rule
 * about to be deleted; may be NULL). *out is NULL when no rule is left.
 * 0 or -ENOMEM (nothing changed).
 */
int lnet_udsp_index_build(struct lnet *ln, const struct lnet_udsp *skip,
			  struct lnet_udsp_index **out);
/* Make @ix (may be NULL) the index; it inherits the object index. */
void lnet_udsp_index_install(struct lnet *ln, struct lnet_udsp_index *ix);
/* Build the object index if missing; stays NULL without memory. */
void lnet_udsp_objs_build(struct lnet *ln);
void lnet_udsp_objs_drop(struct lnet *ln);

/* Recompute what rule @r (added, changed or just unlinked) can affect. */
void lnet_udsp_rule_changed(struct lnet *ln, const struct lnet_udsp *r);

/* The hooks (udsp.c): new objects get the rules at creation. */
void lnet_udsp_apply_net(struct lnet *ln, struct lnet_net *net);
void lnet_udsp_apply_ni(struct lnet *ln, struct lnet_ni *ni);
void lnet_udsp_apply_peer_net(struct lnet *ln, struct lnet_peer_net *lpn);
void lnet_udsp_apply_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni);
/* A local NI or a route went away or came: pair/router lists depend on them. */
void lnet_udsp_local_changed(struct lnet *ln);

/* The UDSP ioctls (udsp_ioctl.c), served through the hooks. */
#define LNET_UDSP_IOC_NCMDS	9
extern const struct lnet_ioc_cmd lnet_udsp_ioc_cmds[];

#endif /* LNET_UDSP_PRIV_H */
