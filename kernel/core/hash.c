// SPDX-License-Identifier: GPL-2.0-only
/*
 * NID -> peer NI hash. Chained, power-of-two bucket count, doubled when
 * there are more peer NIs than buckets so that chains stay short at any
 * size (100k peer NIs cost the same lookup as 1k).
 */
#include "lnet_priv.h"

#define LNET_LPNI_HASH_MIN	256U
/* Stop doubling here: 2^24 buckets is far beyond any real peer count. */
#define LNET_LPNI_HASH_MAX	(1U << 24)

static struct lnet_peer_ni **lnet_lpni_bucket(struct lnet_peer_ni **tbl,
					      u32 size,
					      const struct lnet_nid *nid)
{
	return &tbl[lnet_nid_hash(nid) & (size - 1)];
}

int lnet_lpni_hash_init(struct lnet *ln)
{
	ln->ln_lpni_hash = lnet_obj_alloc(ln, LNET_LPNI_HASH_MIN *
					  sizeof(*ln->ln_lpni_hash));
	if (!ln->ln_lpni_hash)
		return -ENOMEM;
	ln->ln_lpni_hash_size = LNET_LPNI_HASH_MIN;
	ln->ln_npeer_nis = 0;
	return 0;
}

void lnet_lpni_hash_fini(struct lnet *ln)
{
	lnet_obj_free(ln, ln->ln_lpni_hash);
	ln->ln_lpni_hash = NULL;
	ln->ln_lpni_hash_size = 0;
}

/* Rehash into twice the buckets; on -ENOMEM keep the old table (slower). */
static void lnet_lpni_hash_grow(struct lnet *ln)
{
	u32 old_size = ln->ln_lpni_hash_size;
	u32 new_size = old_size * 2;
	struct lnet_peer_ni **tbl;
	u32 i;

	if (new_size > LNET_LPNI_HASH_MAX)
		return;
	tbl = lnet_obj_alloc(ln, (size_t)new_size * sizeof(*tbl));
	if (!tbl)
		return;
	for (i = 0; i < old_size; i++) {
		struct lnet_peer_ni *lpni = ln->ln_lpni_hash[i];

		while (lpni) {
			struct lnet_peer_ni *next = lpni->lpni_hnext;
			struct lnet_peer_ni **b;

			b = lnet_lpni_bucket(tbl, new_size, &lpni->lpni_nid);
			lpni->lpni_hnext = *b;
			*b = lpni;
			lpni = next;
		}
	}
	lnet_obj_free(ln, ln->ln_lpni_hash);
	ln->ln_lpni_hash = tbl;
	ln->ln_lpni_hash_size = new_size;
}

void lnet_lpni_hash_insert(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	struct lnet_peer_ni **b;

	ln->ln_npeer_nis++;
	if (ln->ln_npeer_nis > ln->ln_lpni_hash_size)
		lnet_lpni_hash_grow(ln);
	b = lnet_lpni_bucket(ln->ln_lpni_hash, ln->ln_lpni_hash_size,
			     &lpni->lpni_nid);
	lpni->lpni_hnext = *b;
	*b = lpni;
}

void lnet_lpni_hash_remove(struct lnet *ln, struct lnet_peer_ni *lpni)
{
	struct lnet_peer_ni **pp;

	pp = lnet_lpni_bucket(ln->ln_lpni_hash, ln->ln_lpni_hash_size,
			      &lpni->lpni_nid);
	for (; *pp; pp = &(*pp)->lpni_hnext) {
		if (*pp == lpni) {
			*pp = lpni->lpni_hnext;
			lpni->lpni_hnext = NULL;
			ln->ln_npeer_nis--;
			return;
		}
	}
}

struct lnet_peer_ni *lnet_lpni_hash_find(struct lnet *ln,
					 const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni;

	if (!ln->ln_lpni_hash)
		return NULL;
	lpni = *lnet_lpni_bucket(ln->ln_lpni_hash, ln->ln_lpni_hash_size, nid);
	for (; lpni; lpni = lpni->lpni_hnext)
		if (lnet_nid_equal(&lpni->lpni_nid, nid))
			return lpni;
	return NULL;
}
