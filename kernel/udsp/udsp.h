/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The UDSP engine: the rule list and its flattening into priorities and
 * preferred lists on nets, NIs, peer nets and peer NIs. It follows the
 * core's objects through the core's hooks (core/hooks.h): every object
 * created gets the rules at once, a change of the local NIs or routes
 * recomputes the preferred lists, and it serves the UDSP ioctls.
 */
#ifndef LNET_UDSP_H
#define LNET_UDSP_H

#include "../core/hooks.h"
#include "udsp_wire.h"

struct lnet_udsp_index;

/* The engine's state on one instance (the core's ln_hooks_priv). */
struct lnet_udsp_set {
	struct list_head us_rules;		/* struct lnet_udsp, idx order */
	u32 us_count;
	struct lnet_udsp_index *us_index;	/* NULL while no rule */
};

struct lnet_udsp {
	struct list_head udsp_list;		/* on us_rules */
	u32 udsp_idx;				/* == position in the list */
	struct lnet_udsp_desc udsp_desc;
};

/*
 * Put the engine on @ln: right after lnet_init(), before the instance is
 * used (through lnet_builtin_register(), kernel/builtin/, for whoever
 * builds an instance). lnet_fini() frees it. 0, -ENOMEM or -EBUSY (hooks
 * registered already).
 */
int lnet_udsp_register(struct lnet *ln);

static inline struct lnet_udsp_set *lnet_udsp_of(struct lnet *ln)
{
	return lnet_hooks_priv(ln);
}

/*
 * Add a validated rule at d->idx (-1 = append). An existing rule with the
 * same descriptors and action moves to d->idx (when >= 0) and takes the
 * new priority; -EALREADY when neither changes. Returns 0 and the final
 * idx in *idx_out, -EALREADY, or -ENOSPC/-ENOMEM. Re-flattens everything.
 */
int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out);
/* idx >= 0: delete it (-ENOENT if none); idx == -1: delete all. Re-flattens. */
int lnet_udsp_del(struct lnet *ln, s32 idx);
struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx);
/* Free every rule without touching other objects (unconfigure). */
void lnet_udsp_destroy_all(struct lnet *ln);

/* Reset every UDSP-derived value to its default, then apply all rules. */
void lnet_udsp_apply_all(struct lnet *ln);

#endif /* LNET_UDSP_H */
