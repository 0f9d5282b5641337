// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP rule list: ordered, idx == position, dense. Every change
 * rebuilds the rule index first (so that running out of memory changes
 * nothing), then recomputes every object the changed rule matches from
 * all the rules now in the list (deleting all re-flattens everything).
 * The engine's registration on an instance and its hooks are here too.
 */
#include "udsp_priv.h"
#include "../core/validate.h"

struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx)
{
	struct lnet_udsp *r;

	list_for_each_entry(r, &lnet_udsp_of(ln)->us_rules, udsp_list)
		if (r->udsp_idx == idx)
			return r;
	return NULL;
}

static void udsp_renumber(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp *r;
	u32 idx = 0;

	list_for_each_entry(r, &us->us_rules, udsp_list) {
		r->udsp_idx = idx;
		r->udsp_desc.idx = (s32)idx;
		idx++;
	}
	us->us_count = idx;
}

/* Where a rule asked for at @idx lands in a list of @count rules. */
static u32 udsp_target(s32 idx, u32 count)
{
	return idx >= 0 && (u32)idx < count ? (u32)idx : count;
}

static void udsp_insert(struct lnet *ln, struct lnet_udsp *n, s32 idx)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp *at;

	if (idx >= 0 && (u32)idx < us->us_count) {
		at = lnet_udsp_get(ln, (u32)idx);
		list_add_tail(&n->udsp_list, &at->udsp_list);
	} else {
		list_add_tail(&n->udsp_list, &us->us_rules);
	}
	udsp_renumber(ln);
}

/*
 * Rule @r to position @to (of the list without it, as a new rule would
 * land): the order decides which rule wins, so the index is rebuilt;
 * without memory @r goes back where it was and nothing changed.
 */
static int udsp_move(struct lnet *ln, struct lnet_udsp *r, u32 to)
{
	struct lnet_udsp_index *ix;
	u32 from = r->udsp_idx;
	int rc;

	list_del(&r->udsp_list);
	udsp_renumber(ln);
	udsp_insert(ln, r, (s32)to);
	rc = lnet_udsp_index_build(ln, NULL, &ix);
	if (rc) {
		list_del(&r->udsp_list);
		udsp_renumber(ln);
		udsp_insert(ln, r, (s32)from);
		return rc;
	}
	lnet_udsp_index_install(ln, ix);
	return 0;
}

/*
 * An existing rule with the same descriptors and action: asked for at
 * another idx (d->idx >= 0) it moves there; a PRIORITY rule takes the new
 * priority in place. Nothing to change is a duplicate (-EALREADY).
 */
static int udsp_add_existing(struct lnet *ln, struct lnet_udsp *r,
			     const struct lnet_udsp_desc *d, s32 *idx_out)
{
	u32 count = lnet_udsp_of(ln)->us_count;
	bool reprio = d->action == LNET_UDSP_ACTION_PRIORITY &&
		      r->udsp_desc.priority != d->priority;
	bool move = d->idx >= 0 && udsp_target(d->idx, count - 1) != r->udsp_idx;
	int rc;

	if (!reprio && !move)
		return -EALREADY;
	if (move) {
		rc = udsp_move(ln, r, udsp_target(d->idx, count - 1));
		if (rc)
			return rc;
	}
	if (reprio)
		r->udsp_desc.priority = d->priority;
	if (idx_out)
		*idx_out = (s32)r->udsp_idx;
	lnet_udsp_rule_changed(ln, r);
	return 0;
}

int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp_index *ix;
	struct lnet_udsp *r;
	int rc;

	list_for_each_entry(r, &us->us_rules, udsp_list)
		if (lnet_udsp_desc_same_match(&r->udsp_desc, d))
			return udsp_add_existing(ln, r, d, idx_out);
	if (us->us_count >= LNET_UDSP_MAX_RULES)
		return -ENOSPC;
	r = lnet_obj_alloc(ln, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->udsp_desc = *d;
	udsp_insert(ln, r, d->idx);
	rc = lnet_udsp_index_build(ln, NULL, &ix);
	if (rc) {
		list_del(&r->udsp_list);
		lnet_obj_free(ln, r);
		udsp_renumber(ln);
		return rc;
	}
	lnet_udsp_index_install(ln, ix);
	if (idx_out)
		*idx_out = (s32)r->udsp_idx;
	lnet_udsp_rule_changed(ln, r);
	return 0;
}

static void udsp_free_rules(struct lnet *ln)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	struct lnet_udsp *r, *tmp;

	list_for_each_entry_safe(r, tmp, &us->us_rules, udsp_list) {
		list_del(&r->udsp_list);
		lnet_obj_free(ln, r);
	}
	us->us_count = 0;
	lnet_udsp_index_install(ln, NULL);
}

int lnet_udsp_del(struct lnet *ln, s32 idx)
{
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
	list_del(&r->udsp_list);
	udsp_renumber(ln);
	lnet_udsp_index_install(ln, ix);
	lnet_udsp_rule_changed(ln, r);
	lnet_obj_free(ln, r);
	return 0;
}

void lnet_udsp_destroy_all(struct lnet *ln)
{
	udsp_free_rules(ln);
}

/* --- the engine on an instance (core/hooks.h) ------------------------------ */

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
	.net_added	= lnet_udsp_apply_net,
	.ni_added	= lnet_udsp_apply_ni,
	.peer_net_added	= lnet_udsp_apply_peer_net,
	.peer_ni_added	= lnet_udsp_apply_peer_ni,
	.local_changed	= lnet_udsp_local_changed,
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
	INIT_LIST_HEAD(&us->us_rules);
	rc = lnet_hooks_register(ln, &lnet_udsp_hooks, us);
	if (rc)
		os_free(us);
	return rc;
}
