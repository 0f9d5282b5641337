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

/*
 * The engine's state on one instance (the core's ln_hooks_priv).
 *
 * The rules are an array in idx order (us_rules[i]->udsp_idx == i), so
 * that appending and finding a rule by idx take constant time, and a hash
 * by what the rule matches (lnet_udsp_desc_hash()), so that the rule an
 * ADD changes is found without a walk. While us_pending, the rule list has
 * changed (a deferred batch, lnet_udsp.h) but nothing was re-flattened: the
 * rule index is dropped, every object keeps the values it had, and the
 * next flush (lnet_udsp_flush()) re-flattens everything once.
 */
struct lnet_udsp_set {
	struct lnet_udsp **us_rules;		/* us_count of us_cap, idx order */
	u32 us_count;
	u32 us_cap;
	u32 us_max;				/* LNET_UDSP_MAX_RULES; tests lower it */
	struct lnet_udsp **us_hash;		/* chains, us_hash_size of them */
	u32 us_hash_size;			/* a power of two; 0: none yet */
	bool us_pending;			/* changed, not flattened */
	struct lnet_udsp_index *us_index;	/* NULL: no rule, or pending */
};

struct lnet_udsp {
	struct lnet_udsp *udsp_hnext;		/* on its us_hash chain */
	u32 udsp_hash;				/* lnet_udsp_desc_hash() */
	u32 udsp_idx;				/* == position in us_rules */
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
 * idx in *idx_out, -EALREADY, or -ENOSPC/-ENOMEM (nothing changed).
 * Re-flattens what the rule can reach before returning (everything when
 * changes were pending).
 */
int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out);
/* idx >= 0: delete it (-ENOENT if none); idx == -1: delete all. Re-flattens. */
int lnet_udsp_del(struct lnet *ln, s32 idx);
/*
 * Delete the rules at @idx[0..n), each an idx in the list as the ones
 * before it left it (IOC_LNET_DEL_UDSP_BATCH), then re-flatten once, or
 * leave the changes pending when @defer. All or nothing: -ENOENT with the
 * first idx past the list in *bad, -ENOMEM (*bad = n); nothing changed.
 */
int lnet_udsp_del_many(struct lnet *ln, const s32 *idx, u32 n, bool defer, u32 *bad);
/* The rule at @idx, or NULL. */
struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx);
/* Free every rule without touching other objects (unconfigure). */
void lnet_udsp_destroy_all(struct lnet *ln);

/*
 * A batch (IOC_LNET_ADD_UDSP_BATCH): rules added one after the other as
 * lnet_udsp_add() adds them, each change journalled, nothing re-flattened;
 * then either all of them are undone (abort: the list exactly as before)
 * or kept (commit).
 */
struct lnet_udsp_batch;
/* Room for @max rules: 0 or -ENOMEM. */
int lnet_udsp_batch_begin(struct lnet *ln, u32 max, struct lnet_udsp_batch **bp);
/* As lnet_udsp_add(), on the rule list only; a failure changes nothing. */
int lnet_udsp_batch_add(struct lnet *ln, struct lnet_udsp_batch *b,
			const struct lnet_udsp_desc *d, s32 *idx_out);
/* Undo every change of @b, newest first, and free it. */
void lnet_udsp_batch_abort(struct lnet *ln, struct lnet_udsp_batch *b);
/*
 * Keep the changes of @b and free it. @defer: leave them pending (with
 * whatever was pending); else flush. A flush out of memory undoes @b and
 * returns -ENOMEM (what was pending before stays pending).
 */
int lnet_udsp_batch_commit(struct lnet *ln, struct lnet_udsp_batch *b, bool defer);

/*
 * Re-flatten everything if rules changes are pending: 0, or -ENOMEM (still
 * pending, objects as they were).
 */
int lnet_udsp_flush(struct lnet *ln);

/* Reset every UDSP-derived value to its default, then apply all rules. */
void lnet_udsp_apply_all(struct lnet *ln);

#endif /* LNET_UDSP_H */
