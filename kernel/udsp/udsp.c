// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP rule list: ordered, idx == position, dense. Every change
 * rebuilds the rule index first (so that running out of memory changes
 * nothing), then recomputes every object the changed rule matches from
 * all the rules now in the list (deleting all re-flattens everything).
 */
#include "udsp_priv.h"

struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx)
{
	struct lnet_udsp *r;

	list_for_each_entry(r, &ln->ln_udsp_list, udsp_list)
		if (r->udsp_idx == idx)
			return r;
	return NULL;
}

static void udsp_renumber(struct lnet *ln)
{
	struct lnet_udsp *r;
	u32 idx = 0;

	list_for_each_entry(r, &ln->ln_udsp_list, udsp_list) {
		r->udsp_idx = idx;
		r->udsp_desc.idx = (s32)idx;
		idx++;
	}
	ln->ln_udsp_count = idx;
}

/*
 * An existing rule with the same descriptors and action: a PRIORITY rule
 * with another priority takes the new one in place, anything else is a
 * duplicate.
 */
static int udsp_add_existing(struct lnet *ln, struct lnet_udsp *r,
			     const struct lnet_udsp_desc *d, s32 *idx_out)
{
	if (d->action != LNET_UDSP_ACTION_PRIORITY ||
	    r->udsp_desc.priority == d->priority)
		return -EALREADY;
	r->udsp_desc.priority = d->priority;
	if (idx_out)
		*idx_out = (s32)r->udsp_idx;
	lnet_udsp_rule_changed(ln, r);
	return 0;
}

static void udsp_insert(struct lnet *ln, struct lnet_udsp *n, s32 idx)
{
	struct lnet_udsp *at;

	if (idx >= 0 && (u32)idx < ln->ln_udsp_count) {
		at = lnet_udsp_get(ln, (u32)idx);
		list_add_tail(&n->udsp_list, &at->udsp_list);
	} else {
		list_add_tail(&n->udsp_list, &ln->ln_udsp_list);
	}
	udsp_renumber(ln);
}

int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out)
{
	struct lnet_udsp_index *ix;
	struct lnet_udsp *r;
	int rc;

	list_for_each_entry(r, &ln->ln_udsp_list, udsp_list)
		if (lnet_udsp_desc_same_match(&r->udsp_desc, d))
			return udsp_add_existing(ln, r, d, idx_out);
	if (ln->ln_udsp_count >= LNET_UDSP_MAX_RULES)
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
	struct lnet_udsp *r, *tmp;

	list_for_each_entry_safe(r, tmp, &ln->ln_udsp_list, udsp_list) {
		list_del(&r->udsp_list);
		lnet_obj_free(ln, r);
	}
	ln->ln_udsp_count = 0;
	lnet_udsp_index_install(ln, NULL);
}

int lnet_udsp_del(struct lnet *ln, s32 idx)
{
	struct lnet_udsp_index *ix;
	struct lnet_udsp *r;
	int rc;

	if (idx < -1)
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
