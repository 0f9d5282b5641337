// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * NID range expressions: structure checks, equality, matching against nets
 * and NIDs, and expansion into the NIDs an expression holds.
 */
#include "nid_priv.h"

static const char *const kind_name[__LNET_UDSP_KIND_MAX] = {
	[LNET_UDSP_KIND_NET] = "net",
	[LNET_UDSP_KIND_IPV4] = "IPv4",
	[LNET_UDSP_KIND_NUM] = "numeric",
	[LNET_UDSP_KIND_IPV6] = "IPv6",
};

int nidexpr_kind_lists(u32 kind)
{
	static const int lists[__LNET_UDSP_KIND_MAX] = {
		[LNET_UDSP_KIND_NET] = 0,
		[LNET_UDSP_KIND_IPV4] = 4,
		[LNET_UDSP_KIND_NUM] = 1,
		[LNET_UDSP_KIND_IPV6] = 8,
	};

	return kind < __LNET_UDSP_KIND_MAX ? lists[kind] : -1;
}

u32 nidexpr_list_max(u32 lnd, u32 kind, unsigned int list)
{
	if (lnd == LNET_LND_LO)
		return 0;	/* lo: net 0, address 0 */
	if (list == 0)
		return LNET_NETNUM_MAX;
	switch (kind) {
	case LNET_UDSP_KIND_IPV4:
		return 255;
	case LNET_UDSP_KIND_IPV6:
		return 0xffff;
	default:
		return 0xffffffffU;
	}
}

const struct lnet_ioc_range *nidexpr_list(const struct lnet_nidexpr *e,
					  unsigned int list)
{
	unsigned int first = 0;

	for (unsigned int i = 0; i < list; i++)
		first += e->ne_count[i];
	return &e->ne_r[first];
}

/* --- validate ------------------------------------------------------------------- */

static bool kind_allowed(u32 lnd, u32 kind)
{
	switch (kind) {
	case LNET_UDSP_KIND_NET:
		return true;
	case LNET_UDSP_KIND_IPV4:
	case LNET_UDSP_KIND_IPV6:
		return lnet_lnd_is_ip(lnd);
	case LNET_UDSP_KIND_NUM:
		return lnet_lnd_is_num(lnd) || lnd == LNET_LND_LO;
	}
	return false;
}

static int validate_shape(const struct lnet_nidexpr *e, char *err, size_t errlen)
{
	const char *lnd = lnet_lnd_name(e->ne_lnd);
	int lists = nidexpr_kind_lists(e->ne_kind);

	if (!lnd)
		return nid_err(err, errlen, "LND %u is unknown: expected tcp (2), o2ib (5), lo (9), gni (13), ptlf (15), kfi (16) or efa (18)",
			       e->ne_lnd);
	if (lists < 0)
		return nid_err(err, errlen, "kind %u is unknown: expected 0-%u",
			       e->ne_kind, __LNET_UDSP_KIND_MAX - 1);
	if (!kind_allowed(e->ne_lnd, e->ne_kind))
		return nid_err(err, errlen, "%s addresses are not allowed on %s",
			       kind_name[e->ne_kind], lnd);
	if (e->ne_nlists != 1 + lists)
		return nid_err(err, errlen, "%s descriptor has %u range lists: expected %d",
			       kind_name[e->ne_kind], e->ne_nlists, 1 + lists);
	if (e->ne_nranges > LNET_UDSP_MAX_RANGES)
		return nid_err(err, errlen, "%u ranges: at most %u in all",
			       e->ne_nranges, LNET_UDSP_MAX_RANGES);
	return 0;
}

static int validate_counts(const struct lnet_nidexpr *e, char *err, size_t errlen)
{
	unsigned int sum = 0;

	for (unsigned int i = 0; i < LNET_UDSP_MAX_LISTS; i++) {
		if (i < e->ne_nlists && e->ne_count[i] == 0)
			return nid_err(err, errlen, "range list %u is empty: expected 1-%u ranges",
				       i, LNET_UDSP_MAX_RANGES);
		if (i >= e->ne_nlists && e->ne_count[i])
			return nid_err(err, errlen, "range list %u is beyond the %u lists",
				       i, e->ne_nlists);
		sum += e->ne_count[i];
	}
	if (sum != e->ne_nranges)
		return nid_err(err, errlen, "the lists hold %u ranges, not %u",
			       sum, e->ne_nranges);
	return 0;
}

static int validate_range(const struct lnet_ioc_range *r, unsigned int list,
			  u32 max, char *err, size_t errlen)
{
	if (r->lo > r->hi)
		return nid_err(err, errlen, "range %u-%u of list %u has lo > hi",
			       r->lo, r->hi, list);
	if (r->stride == 0)
		return nid_err(err, errlen, "range %u-%u of list %u has stride 0: expected at least 1",
			       r->lo, r->hi, list);
	if (r->hi > max)
		return nid_err(err, errlen, "range %u-%u of list %u is out of range 0-%u",
			       r->lo, r->hi, list, max);
	return 0;
}

int lnet_nidexpr_validate(const struct lnet_nidexpr *e, char *err, size_t errlen)
{
	const struct lnet_ioc_range *r = e->ne_r;
	int rc = validate_shape(e, err, errlen);

	if (!rc)
		rc = validate_counts(e, err, errlen);
	for (unsigned int l = 0; !rc && l < e->ne_nlists; l++) {
		u32 max = nidexpr_list_max(e->ne_lnd, e->ne_kind, l);

		for (unsigned int i = 0; !rc && i < e->ne_count[l]; i++, r++)
			rc = validate_range(r, l, max, err, errlen);
	}
	return rc;
}

/* --- equal and match ---------------------------------------------------------- */

bool lnet_nidexpr_equal(const struct lnet_nidexpr *a, const struct lnet_nidexpr *b)
{
	unsigned int n = a->ne_nranges;

	if (!a->ne_lnd || !b->ne_lnd)
		return a->ne_lnd == b->ne_lnd;
	if (a->ne_lnd != b->ne_lnd || a->ne_kind != b->ne_kind ||
	    a->ne_nlists != b->ne_nlists || n != b->ne_nranges ||
	    memcmp(a->ne_count, b->ne_count, sizeof(a->ne_count)))
		return false;
	if (n > LNET_UDSP_MAX_RANGES)
		n = LNET_UDSP_MAX_RANGES;
	return !memcmp(a->ne_r, b->ne_r, n * sizeof(a->ne_r[0]));
}

static bool list_has(const struct lnet_nidexpr *e, unsigned int list, u32 v)
{
	const struct lnet_ioc_range *r = nidexpr_list(e, list);

	for (unsigned int i = 0; i < e->ne_count[list]; i++)
		if (nidexpr_range_has(&r[i], v))
			return true;
	return false;
}

bool lnet_nidexpr_match_net(const struct lnet_nidexpr *e, u32 net_id)
{
	return e->ne_lnd && e->ne_nlists && e->ne_lnd == LNET_NET_LND(net_id) &&
	       list_has(e, 0, LNET_NET_NUM(net_id));
}

static u32 addr_u32(const u8 *a)
{
	return (u32)a[0] << 24 | (u32)a[1] << 16 | (u32)a[2] << 8 | a[3];
}

static bool match_addr(const struct lnet_nidexpr *e, const struct lnet_nid *nid)
{
	const u8 *a = nid->nid_addr;

	switch (e->ne_kind) {
	case LNET_UDSP_KIND_IPV4:
		if (nid->nid_addr_len != 4 || !lnet_lnd_is_ip(nid->nid_lnd))
			return false;
		for (unsigned int i = 0; i < 4; i++)
			if (!list_has(e, 1 + i, a[i]))
				return false;
		return true;
	case LNET_UDSP_KIND_IPV6:
		if (nid->nid_addr_len != 16)
			return false;
		for (unsigned int g = 0; g < 8; g++)
			if (!list_has(e, 1 + g, (u32)a[2 * g] << 8 | a[2 * g + 1]))
				return false;
		return true;
	case LNET_UDSP_KIND_NUM:
		return nid->nid_addr_len == 4 && !lnet_lnd_is_ip(nid->nid_lnd) &&
		       list_has(e, 1, addr_u32(a));
	}
	return false;
}

bool lnet_nidexpr_match_nid(const struct lnet_nidexpr *e, const struct lnet_nid *nid)
{
	if (!lnet_nidexpr_match_net(e, lnet_nid_net(nid)))
		return false;
	if (e->ne_kind == LNET_UDSP_KIND_NET)
		return true;
	if (e->ne_nlists != 1 + nidexpr_kind_lists(e->ne_kind))
		return false;
	return match_addr(e, nid);
}
