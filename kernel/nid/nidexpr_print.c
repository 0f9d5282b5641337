// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * NID range expressions: the printer. Its output parses back into an equal
 * expression: every range is written as stored (a stride of 1 is implied,
 * a full range is "*"), IPv6 groups in hex, and an IPv6 expression shaped
 * like a prefix is written as CIDR.
 */
#include "nid_priv.h"

static bool range_full(const struct lnet_ioc_range *r, u32 max)
{
	return r->lo == 0 && r->hi == max && r->stride == 1;
}

static bool range_single(const struct lnet_ioc_range *r)
{
	return r->lo == r->hi && r->stride == 1;
}

static void sb_range(struct nid_sb *sb, const struct lnet_ioc_range *r,
		     u32 max, bool hex)
{
	/* single first: lo's lists hold only 0, which is also their full range */
	if (range_single(r)) {
		nid_sb_u32(sb, r->lo, hex);
		return;
	}
	if (range_full(r, max)) {
		nid_sb_str(sb, "*");
		return;
	}
	nid_sb_u32(sb, r->lo, hex);
	nid_sb_str(sb, "-");
	nid_sb_u32(sb, r->hi, hex);
	if (r->stride > 1) {
		nid_sb_str(sb, "/");
		nid_sb_u32(sb, r->stride, hex);
	}
}

/* A list: bare when it is one "*" or one value, else "[r,r,...]". */
static void sb_list(struct nid_sb *sb, const struct lnet_nidexpr *e,
		    unsigned int list, bool hex)
{
	const struct lnet_ioc_range *r = nidexpr_list(e, list);
	u32 max = nidexpr_list_max(e->ne_lnd, e->ne_kind, list);
	unsigned int n = e->ne_count[list];

	if (n == 1 && (range_full(r, max) || range_single(r))) {
		sb_range(sb, r, max, hex);
		return;
	}
	nid_sb_str(sb, "[");
	for (unsigned int i = 0; i < n; i++) {
		if (i)
			nid_sb_str(sb, ",");
		sb_range(sb, &r[i], max, hex);
	}
	nid_sb_str(sb, "]");
}

static void sb_net(struct nid_sb *sb, const struct lnet_nidexpr *e)
{
	const struct lnet_ioc_range *r = nidexpr_list(e, 0);

	nid_sb_str(sb, lnet_lnd_name(e->ne_lnd));
	/* net number 0 alone is the bare LND name, as for nets */
	if (e->ne_count[0] == 1 && range_single(r) && r->lo == 0)
		return;
	sb_list(sb, e, 0, false);
}

static bool list_is_zero(const struct lnet_nidexpr *e, unsigned int list)
{
	const struct lnet_ioc_range *r = nidexpr_list(e, list);

	return e->ne_count[list] == 1 && range_single(r) && r->lo == 0;
}

/* Group by group; "::" only for the longest run (>= 2) of literal 0. */
static void sb_groups(struct nid_sb *sb, const struct lnet_nidexpr *e)
{
	bool zero[8];
	int start, len;

	for (int g = 0; g < 8; g++)
		zero[g] = list_is_zero(e, 1 + g);
	nid_zero_run(zero, &start, &len);
	for (int g = 0; g < 8; g++) {
		if (g == start) {
			nid_sb_str(sb, "::");
			g += len - 1;
			continue;
		}
		if (g && g != start + len)
			nid_sb_str(sb, ":");
		sb_list(sb, e, 1 + g, true);
	}
}

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

/* log2 of a power of two */
static int log2_u32(u32 v)
{
	int k = 0;

	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k;
}

/*
 * The prefix length when @e is what "addr/len" parses into (len < 128):
 * single values, then one aligned block of 2^k values, then full groups.
 * -1 otherwise.
 */
static int cidr_len(const struct lnet_nidexpr *e)
{
	const struct lnet_ioc_range *r;
	unsigned int g = 0;
	u32 size;

	while (g < 8 && e->ne_count[1 + g] == 1 && range_single(nidexpr_list(e, 1 + g)))
		g++;
	if (g == 8 || e->ne_count[1 + g] != 1)
		return -1;
	r = nidexpr_list(e, 1 + g);
	size = r->hi - r->lo + 1;
	if (r->stride != 1 || !is_pow2(size) || r->lo % size)
		return -1;
	for (unsigned int h = g + 1; h < 8; h++)
		if (e->ne_count[1 + h] != 1 || !range_full(nidexpr_list(e, 1 + h), 0xffff))
			return -1;
	return (int)(16 * g + 16) - log2_u32(size);
}

static void sb_cidr(struct nid_sb *sb, const struct lnet_nidexpr *e, int plen)
{
	u8 addr[16];

	for (unsigned int g = 0; g < 8; g++) {
		u32 v = (int)(16 * g) < plen ? nidexpr_list(e, 1 + g)->lo : 0;

		addr[2 * g] = (u8)(v >> 8);
		addr[2 * g + 1] = (u8)v;
	}
	nid_sb_ip6(sb, addr);
	nid_sb_str(sb, "/");
	nid_sb_u32(sb, (u32)plen, false);
}

static void sb_addr(struct nid_sb *sb, const struct lnet_nidexpr *e)
{
	int plen;

	switch (e->ne_kind) {
	case LNET_UDSP_KIND_IPV4:
		for (unsigned int i = 0; i < 4; i++) {
			if (i)
				nid_sb_str(sb, ".");
			sb_list(sb, e, 1 + i, false);
		}
		break;
	case LNET_UDSP_KIND_NUM:
		sb_list(sb, e, 1, false);
		break;
	case LNET_UDSP_KIND_IPV6:
		plen = cidr_len(e);
		if (plen >= 0)
			sb_cidr(sb, e, plen);
		else
			sb_groups(sb, e);
		break;
	}
}

int lnet_nidexpr_print(const struct lnet_nidexpr *e, char *buf, size_t len)
{
	struct nid_sb sb = { buf, len, 0 };

	if (lnet_nidexpr_validate(e, NULL, 0))
		return -EINVAL;
	if (e->ne_kind != LNET_UDSP_KIND_NET) {
		sb_addr(&sb, e);
		nid_sb_str(&sb, "@");
	}
	sb_net(&sb, e);
	return nid_sb_done(&sb);
}
