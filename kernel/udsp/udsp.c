// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP rule list: ordered, idx == position, dense; an array, so that
 * appending and finding a rule by idx take constant time, and a hash by
 * what a rule matches, so that the rule an ADD changes is found without a
 * walk. Every change rebuilds the rule index first (so that running out of
 * memory changes nothing), then recomputes every object the changed rule
 * matches from all the rules now in the list (deleting all re-flattens
 * everything). A batch changes the list only, journalling each change so
 * that it can be undone, and re-flattens everything once at its end, or
 * leaves that to a later flush (pending).
 * The engine's registration on an instance and its hooks are here too.
 */
#include "udsp_priv.h"
#include "../core/validate.h"

struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);

	return idx < us->us_count ? us->us_rules[idx] : NULL;
}

/* --- the array and the hash --------------------------------------------------- */

/* Room for one more rule: 0 or -ENOMEM (nothing changed). */
static int udsp_reserve(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp **a;
	u32 cap;

	if (us->us_count < us->us_cap)
		return 0;
	cap = us->us_cap ? 2 * us->us_cap : 16;
	a = lnet_obj_alloc(ln, cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (us->us_count)
		memcpy(a, us->us_rules, us->us_count * sizeof(*a));
	lnet_obj_free(ln, us->us_rules);
	us->us_rules = a;
	us->us_cap = cap;
	return 0;
}

/* Positions @from.. get their idx again (after an insert or a removal). */
static void udsp_renumber(struct lnet_udsp_set *us, u32 from)
{
	u32 i;

	for (i = from; i < us->us_count; i++) {
		us->us_rules[i]->udsp_idx = i;
		us->us_rules[i]->udsp_desc.idx = (s32)i;
	}
}

/* Where a rule asked for at @idx lands in a list of @count rules. */
static u32 udsp_target(s32 idx, u32 count)
{
	return idx >= 0 && (u32)idx < count ? (u32)idx : count;
}

/* @r at position @at (<= us_count); room reserved. */
static void udsp_place(struct lnet_udsp_set *us, struct lnet_udsp *r, u32 at)
{
	memmove(&us->us_rules[at + 1], &us->us_rules[at],
		(us->us_count - at) * sizeof(us->us_rules[0]));
	us->us_rules[at] = r;
	us->us_count++;
	udsp_renumber(us, at);
}

static void udsp_unplace(struct lnet_udsp_set *us, struct lnet_udsp *r)
{
	u32 at = r->udsp_idx;

	memmove(&us->us_rules[at], &us->us_rules[at + 1],
		(us->us_count - at - 1) * sizeof(us->us_rules[0]));
	us->us_count--;
	udsp_renumber(us, at);
}

/*
 * A larger table when the chains grow longer than 2 on average. Without
 * memory the chains just grow; -ENOMEM only when there is no table yet.
 */
static int udsp_hash_grow(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp **t, *r;
	u32 size, i;

	if (us->us_hash_size && us->us_count < 2 * us->us_hash_size)
		return 0;
	size = us->us_hash_size ? 4 * us->us_hash_size : 64;
	t = lnet_obj_alloc(ln, size * sizeof(*t));
	if (!t)
		return us->us_hash_size ? 0 : -ENOMEM;
	for (i = 0; i < us->us_count; i++) {
		r = us->us_rules[i];
		r->udsp_hnext = t[r->udsp_hash & (size - 1)];
		t[r->udsp_hash & (size - 1)] = r;
	}
	lnet_obj_free(ln, us->us_hash);
	us->us_hash = t;
	us->us_hash_size = size;
	return 0;
}

/* @r on its chain (the table exists: udsp_hash_grow() said so). */
static void udsp_hash_add(struct lnet_udsp_set *us, struct lnet_udsp *r)
{
	struct lnet_udsp **head = &us->us_hash[r->udsp_hash & (us->us_hash_size - 1)];

	r->udsp_hnext = *head;
	*head = r;
}

static void udsp_hash_del(struct lnet_udsp_set *us, struct lnet_udsp *r)
{
	struct lnet_udsp **pp = &us->us_hash[r->udsp_hash & (us->us_hash_size - 1)];

	while (*pp != r)
		pp = &(*pp)->udsp_hnext;
	*pp = r->udsp_hnext;
}

/* The rule with the same descriptors and action as @d (hash @h), or NULL. */
static struct lnet_udsp *udsp_find(struct lnet_udsp_set *us,
				   const struct lnet_udsp_desc *d, u32 h)
{
	struct lnet_udsp *r;

	if (!us->us_hash_size)
		return NULL;
	for (r = us->us_hash[h & (us->us_hash_size - 1)]; r; r = r->udsp_hnext)
		if (r->udsp_hash == h && lnet_udsp_desc_same_match(&r->udsp_desc, d))
			return r;
	return NULL;
}

/* --- one change of the list, and its undo ------------------------------------ */

/* What one add did to the list, so that it can be undone. */
struct udsp_change {
	struct lnet_udsp *uc_rule;
	bool uc_new;			/* added: undo frees it */
	u32 uc_from;			/* else: its idx before */
	u32 uc_prio;			/* ... and its priority before */
};

/*
 * An add on the list only: a new rule at d->idx, or the existing rule with
 * the same match moved (d->idx >= 0) and/or given d->priority. -EALREADY
 * when neither changes, -ENOSPC, -ENOMEM; nothing changed then.
 */
static int udsp_change(struct lnet *ln, const struct lnet_udsp_desc *d,
		       struct udsp_change *c)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	u32 h = lnet_udsp_desc_hash(d), to;
	struct lnet_udsp *r = udsp_find(us, d, h);
	bool reprio, move;

	if (r) {
		reprio = d->action == LNET_UDSP_ACTION_PRIORITY &&
			 r->udsp_desc.priority != d->priority;
		to = udsp_target(d->idx, us->us_count - 1);
		move = d->idx >= 0 && to != r->udsp_idx;
		if (!reprio && !move)
			return -EALREADY;
		c->uc_rule = r;
		c->uc_new = false;
		c->uc_from = r->udsp_idx;
		c->uc_prio = r->udsp_desc.priority;
		if (move) {
			udsp_unplace(us, r);
			udsp_place(us, r, to);
		}
		if (reprio)
			r->udsp_desc.priority = d->priority;
		return 0;
	}
	if (us->us_count >= us->us_max)
		return -ENOSPC;
	if (udsp_reserve(ln) || udsp_hash_grow(ln))
		return -ENOMEM;
	r = lnet_obj_alloc(ln, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->udsp_desc = *d;
	r->udsp_hash = h;
	udsp_hash_add(us, r);
	udsp_place(us, r, udsp_target(d->idx, us->us_count));
	c->uc_rule = r;
	c->uc_new = true;
	return 0;
}

/* Undo @c: the list as it was before it (later changes undone already). */
static void udsp_change_undo(struct lnet *ln, const struct udsp_change *c)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp *r = c->uc_rule;

	udsp_unplace(us, r);
	if (c->uc_new) {
		udsp_hash_del(us, r);
		lnet_obj_free(ln, r);
		return;
	}
	udsp_place(us, r, c->uc_from);
	r->udsp_desc.priority = c->uc_prio;
}

/* --- pending changes ----------------------------------------------------------- */

/* The list changed and nothing is re-flattened: the index goes (stale). */
static void udsp_set_pending(struct lnet *ln)
{
	lnet_udsp_index_install(ln, NULL);
	lnet_udsp_of(ln)->us_pending = true;
}

int lnet_udsp_flush(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	int rc;

	if (!us->us_pending)
		return 0;
	rc = lnet_udsp_index_build(ln, NULL, &ix);
	if (rc)
		return rc;
	lnet_udsp_index_install(ln, ix);
	us->us_pending = false;
	lnet_udsp_apply_all(ln);
	return 0;
}

/* --- add, delete ----------------------------------------------------------------- */

int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	struct udsp_change c;
	int rc;

	rc = udsp_change(ln, d, &c);
	if (rc)
		return rc;
	rc = lnet_udsp_index_build(ln, NULL, &ix);
	if (rc) {
		udsp_change_undo(ln, &c);
		return rc;
	}
	if (idx_out)
		*idx_out = (s32)c.uc_rule->udsp_idx;
	lnet_udsp_index_install(ln, ix);
	if (us->us_pending) {
		us->us_pending = false;
		lnet_udsp_apply_all(ln);
	} else {
		lnet_udsp_rule_changed(ln, c.uc_rule);
	}
	return 0;
}

static void udsp_free_rules(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	u32 i;

	for (i = 0; i < us->us_count; i++)
		lnet_obj_free(ln, us->us_rules[i]);
	lnet_obj_free(ln, us->us_rules);
	lnet_obj_free(ln, us->us_hash);
	us->us_rules = NULL;
	us->us_hash = NULL;
	us->us_count = 0;
	us->us_cap = 0;
	us->us_hash_size = 0;
	us->us_pending = false;
	lnet_udsp_index_install(ln, NULL);
}

int lnet_udsp_del(struct lnet *ln, s32 idx)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	struct lnet_udsp *r;
	int rc;

	if (lnet_udsp_del_check(idx, NULL))
		return -EINVAL;
	if (idx == -1) {
		udsp_free_rules(ln);
		lnet_udsp_apply_all(ln);
		return 0;
	}
	r = lnet_udsp_get(ln, (u32)idx);
	if (!r)
		return -ENOENT;
	rc = lnet_udsp_index_build(ln, r, &ix);
	if (rc)
		return rc;
	udsp_unplace(us, r);
	udsp_hash_del(us, r);
	lnet_udsp_index_install(ln, ix);
	if (us->us_pending) {
		us->us_pending = false;
		lnet_udsp_apply_all(ln);
	} else {
		lnet_udsp_rule_changed(ln, r);
	}
	lnet_obj_free(ln, r);
	return 0;
}

/* Each idx within the list as the deletions before it leave it. */
static int udsp_del_many_check(struct lnet_udsp_set *us, const s32 *idx, u32 n, u32 *bad)
{
	u32 i;

	for (i = 0; i < n; i++) {
		*bad = i;
		if (idx[i] < 0 || (u32)idx[i] >= us->us_count - i)
			return idx[i] < 0 ? -EINVAL : -ENOENT;
	}
	*bad = n;
	return 0;
}

/* The rules taken out by lnet_udsp_del_many() go for good. */
static void udsp_del_many_free(struct lnet *ln, struct lnet_udsp **gone, u32 n)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	u32 i;

	for (i = 0; i < n; i++) {
		udsp_hash_del(us, gone[i]);
		lnet_obj_free(ln, gone[i]);
	}
}

/*
 * The rules leave the list first and are freed only once the new index
 * is in (the old one points to them); an index without memory puts them
 * back, newest first, each where it was.
 */
int lnet_udsp_del_many(struct lnet *ln, const s32 *idx, u32 n, bool defer, u32 *bad)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix = NULL;
	struct lnet_udsp **gone;
	u32 i;
	int rc;

	rc = udsp_del_many_check(us, idx, n, bad);
	if (rc || !n)
		return rc ? rc : defer ? 0 : lnet_udsp_flush(ln);
	gone = lnet_obj_alloc(ln, (size_t)n * sizeof(*gone));
	if (!gone)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		gone[i] = us->us_rules[idx[i]];
		udsp_unplace(us, gone[i]);
	}
	rc = defer ? 0 : lnet_udsp_index_build(ln, NULL, &ix);
	if (rc) {
		while (i--)
			udsp_place(us, gone[i], (u32)idx[i]);
		goto out;
	}
	if (defer) {
		udsp_set_pending(ln);
	} else {
		lnet_udsp_index_install(ln, ix);
		us->us_pending = false;
		lnet_udsp_apply_all(ln);
	}
	udsp_del_many_free(ln, gone, n);
out:
	lnet_obj_free(ln, gone);
	return rc;
}

void lnet_udsp_destroy_all(struct lnet *ln)
{
	udsp_free_rules(ln);
}

/* --- batches ----------------------------------------------------------------------- */

struct lnet_udsp_batch {
	u32 ub_n, ub_max;
	struct udsp_change ub_changes[];
};

int lnet_udsp_batch_begin(struct lnet *ln, u32 max, struct lnet_udsp_batch **bp)
{
	struct lnet_udsp_batch *b;

	b = lnet_obj_alloc(ln, sizeof(*b) + (size_t)max * sizeof(b->ub_changes[0]));
	if (!b)
		return -ENOMEM;
	b->ub_max = max;
	*bp = b;
	return 0;
}

int lnet_udsp_batch_add(struct lnet *ln, struct lnet_udsp_batch *b,
			const struct lnet_udsp_desc *d, s32 *idx_out)
{
	struct udsp_change *c;
	int rc;

	if (b->ub_n >= b->ub_max)
		return -EINVAL;
	c = &b->ub_changes[b->ub_n];
	rc = udsp_change(ln, d, c);
	if (rc)
		return rc;
	b->ub_n++;
	if (idx_out)
		*idx_out = (s32)c->uc_rule->udsp_idx;
	return 0;
}

/* Undo the changes of @b, newest first (each sees the list it left). */
static void udsp_batch_undo(struct lnet *ln, struct lnet_udsp_batch *b)
{
	while (b->ub_n)
		udsp_change_undo(ln, &b->ub_changes[--b->ub_n]);
}

void lnet_udsp_batch_abort(struct lnet *ln, struct lnet_udsp_batch *b)
{
	udsp_batch_undo(ln, b);
	lnet_obj_free(ln, b);
}

/*
 * Rules that a stale index (that of the list before the batch) still
 * points to are never freed by a batch (it only adds, moves and sets
 * priorities), and no hook runs until the commit: keeping that index
 * while the batch runs is safe, and keeps it for an abort.
 */
int lnet_udsp_batch_commit(struct lnet *ln, struct lnet_udsp_batch *b, bool defer)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	int rc = 0;

	if (defer) {
		if (b->ub_n)
			udsp_set_pending(ln);
	} else if (b->ub_n || us->us_pending) {
		rc = lnet_udsp_index_build(ln, NULL, &ix);
		if (rc) {
			udsp_batch_undo(ln, b);
		} else {
			lnet_udsp_index_install(ln, ix);
			us->us_pending = false;
			lnet_udsp_apply_all(ln);
		}
	}
	lnet_obj_free(ln, b);
	return rc;
}

/* --- the engine on an instance (core/hooks.h) ------------------------------ */

/*
 * A new object or a change of the local NIs and routes while rules are
 * pending: everything is re-flattened now, so the object gets what the rules
 * say and not what a stale index would. Out of memory: os_err and the
 * object gets nothing (no index); the next flush gives it its values.
 */
static bool udsp_flushed(struct lnet *ln)
{
	if (!lnet_udsp_of(ln)->us_pending)
		return false;
	if (lnet_udsp_flush(ln))
		os_err("udsp: out of memory: pending rules not applied yet\n");
	return true;
}

static void udsp_net_added(struct lnet *ln, struct lnet_net *net)
{
	if (!udsp_flushed(ln))
		lnet_udsp_apply_net(ln, net);
}

static void udsp_ni_added(struct lnet *ln, struct lnet_ni *ni)
{
	if (!udsp_flushed(ln))
		lnet_udsp_apply_ni(ln, ni);
}

static void udsp_peer_net_added(struct lnet *ln, struct lnet_peer_net *lpn)
{
	if (!udsp_flushed(ln))
		lnet_udsp_apply_peer_net(ln, lpn);
}

static void udsp_peer_ni_added(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	if (!udsp_flushed(ln))
		lnet_udsp_apply_peer_ni(ln, lpni);
}

static void udsp_local_changed(struct lnet *ln)
{
	if (!udsp_flushed(ln))
		lnet_udsp_local_changed(ln);
}

/* Unconfigure: the rules go; the objects they set go right after them. */
static void udsp_unconfigure(struct lnet *ln)
{
	lnet_udsp_destroy_all(ln);
}

static void udsp_release(struct lnet *ln)
{
	os_free(lnet_udsp_of(ln));
}

static const struct lnet_hooks lnet_udsp_hooks = {
	.net_added	= udsp_net_added,
	.ni_added	= udsp_ni_added,
	.peer_net_added	= udsp_peer_net_added,
	.peer_ni_added	= udsp_peer_ni_added,
	.local_changed	= udsp_local_changed,
	.unconfigure	= udsp_unconfigure,
	.release	= udsp_release,
	.ioc_cmds	= lnet_udsp_ioc_cmds,
	.n_ioc_cmds	= LNET_UDSP_IOC_NCMDS,
};

int lnet_udsp_register(struct lnet *ln)
{
	/* The instance's own state, as its mutex: not an object of ln_nobjects. */
	struct lnet_udsp_set *us = os_zalloc(sizeof(*us));
	int rc;

	if (!us)
		return -ENOMEM;
	us->us_max = LNET_UDSP_MAX_RULES;
	rc = lnet_hooks_register(ln, &lnet_udsp_hooks, us);
	if (rc)
		os_free(us);
	return rc;
}
