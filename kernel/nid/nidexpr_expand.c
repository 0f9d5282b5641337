// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * NID range expressions: expansion into the NIDs they hold. Each address
 * list is walked in order of its ranges; a value already held by an
 * earlier range of the same list is skipped, so every NID is visited once.
 * The lists are combined like an odometer, the last list turning fastest.
 */
#include "nid_priv.h"

/*
 * Values skipped as duplicates before expansion gives up with -E2BIG:
 * overlapping ranges built to defeat the skipping cannot stall us.
 */
#define EXPAND_SKIP_BUDGET	(1U << 24)

struct list_it {
	const struct lnet_ioc_range *r;
	unsigned int n;		/* ranges */
	unsigned int ri;	/* current range */
	u64 v;			/* current value */
};

struct expand {
	struct list_it it[4];
	unsigned int nl;	/* address lists */
	u32 skips;		/* left of EXPAND_SKIP_BUDGET */
};

/* The earlier range of the list holding @v, or NULL. */
static const struct lnet_ioc_range *held_earlier(const struct list_it *it, u64 v)
{
	for (unsigned int j = 0; j < it->ri; j++)
		if (nidexpr_range_has(&it->r[j], (u32)v))
			return &it->r[j];
	return NULL;
}

/* Move to the first value at or after the current one not held earlier. */
static bool it_settle(struct expand *x, struct list_it *it)
{
	while (it->ri < it->n) {
		const struct lnet_ioc_range *cur = &it->r[it->ri], *dup;

		if (it->v > cur->hi) {
			if (++it->ri < it->n)
				it->v = it->r[it->ri].lo;
			continue;
		}
		dup = held_earlier(it, it->v);
		if (!dup)
			return true;
		if (!x->skips)
			return false;
		x->skips--;
		if (cur->stride % dup->stride == 0)	/* all up to dup->hi held */
			it->v += ((dup->hi - it->v) / cur->stride + 1) * cur->stride;
		else
			it->v += cur->stride;
	}
	return false;
}

static bool it_first(struct expand *x, struct list_it *it)
{
	it->ri = 0;
	it->v = it->r[0].lo;
	return it_settle(x, it);
}

static bool it_next(struct expand *x, struct list_it *it)
{
	it->v += it->r[it->ri].stride;
	return it_settle(x, it);
}

/* Turn the odometer: false when every combination was seen. */
static bool expand_next(struct expand *x)
{
	for (int i = (int)x->nl - 1; i >= 0; i--) {
		if (it_next(x, &x->it[i]))
			return true;
		if (!x->skips || !it_first(x, &x->it[i]))
			return false;
	}
	return false;
}

static void expand_nid(const struct lnet_nidexpr *e, const struct expand *x,
		       struct lnet_nid *nid)
{
	u32 net_id = LNET_NET_ID(e->ne_lnd, e->ne_r[0].lo);
	u8 a[4];

	if (e->ne_kind == LNET_UDSP_KIND_IPV4) {
		for (unsigned int i = 0; i < 4; i++)
			a[i] = (u8)x->it[i].v;
	} else {
		u32 v = (u32)x->it[0].v;

		a[0] = (u8)(v >> 24);
		a[1] = (u8)(v >> 16);
		a[2] = (u8)(v >> 8);
		a[3] = (u8)v;
	}
	lnet_nid_make(nid, net_id, a, 4);
}

static int expand_init(const struct lnet_nidexpr *e, struct expand *x)
{
	const struct lnet_ioc_range *r = &e->ne_r[e->ne_count[0]];

	if (lnet_nidexpr_validate(e, NULL, 0) || e->ne_count[0] != 1 ||
	    e->ne_r[0].lo != e->ne_r[0].hi ||
	    (e->ne_kind != LNET_UDSP_KIND_IPV4 && e->ne_kind != LNET_UDSP_KIND_NUM))
		return -EINVAL;
	x->nl = e->ne_nlists - 1u;
	x->skips = EXPAND_SKIP_BUDGET;
	for (unsigned int i = 0; i < x->nl; i++) {
		x->it[i].r = r;
		x->it[i].n = e->ne_count[1 + i];
		r += x->it[i].n;
		it_first(x, &x->it[i]);	/* a list's first value is never a duplicate */
	}
	return 0;
}

int lnet_nidexpr_expand(const struct lnet_nidexpr *e, unsigned int max,
			int (*fn)(const struct lnet_nid *nid, void *arg), void *arg)
{
	struct expand x;
	unsigned int seen = 0;
	int rc = expand_init(e, &x);

	while (!rc) {
		struct lnet_nid nid;

		if (seen == max)
			return -E2BIG;
		expand_nid(e, &x, &nid);
		rc = fn(&nid, arg);
		if (rc)
			return rc;
		seen++;
		if (!expand_next(&x))
			return x.skips ? 0 : -E2BIG;
	}
	return rc;
}
