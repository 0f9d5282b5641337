// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * The state-free checks of validate.h, built into lnet.ko, lnetd and
 * liblnetcfg alike, and the tables of lnet_tunables.h made into arrays.
 */
#include "validate.h"

#define TUN_RANGE(id, name, opt, letter, min, max, def, help) \
	[id] = { #name, min, max, def, false },
const struct lnet_range lnet_ni_tun_ranges[__LNET_TUN_MAX] = {
	LNET_NI_TUNABLES(TUN_RANGE)
};

const struct lnet_range lnet_sock_tun_ranges[__LNET_SOCK_TUN_MAX] = {
	LNET_SOCK_TUNABLES(TUN_RANGE)
};

#define GLOBAL_RANGE(name, id, min, max, def) [id] = { #name, min, max, def, false },
const struct lnet_range lnet_global_ranges[__LNET_GLOBAL_MAX] = {
	LNET_GLOBALS(GLOBAL_RANGE)
	[LNET_GLOBAL_LND_TIMEOUT] = { "lnd_timeout", 0, 0, 0, true },
};

/*
 * A tunable table's struct is one s32 per row: the field of row @id is at
 * @offsets[id]. What follows serves both tables.
 */
static s32 *tun_field(void *t, const size_t *offsets, u32 id)
{
	return (s32 *)((char *)t + offsets[id]);
}

static void tun_unset(void *t, const size_t *offsets, u32 nrows)
{
	u32 i;

	for (i = 0; i < nrows; i++)
		*tun_field(t, offsets, i) = -1;
}

/* The first row of @t neither -1 nor in its range, or @nrows when none. */
static u32 tun_out_of_range(const void *t, const size_t *offsets,
			    const struct lnet_range *ranges, u32 nrows)
{
	u32 i;

	for (i = 0; i < nrows; i++) {
		s32 v = *tun_field((void *)t, offsets, i);

		/* -1 is the default, and for tos also a value in range */
		if (v != -1 && (v < ranges[i].min || v > ranges[i].max))
			return i;
	}
	return nrows;
}

#define TUN_OFFSET(id, name, opt, letter, min, max, def, help) \
	[id] = offsetof(struct lnet_ni_tunables, name),
static const size_t lnet_ni_tun_offsets[__LNET_TUN_MAX] = {
	LNET_NI_TUNABLES(TUN_OFFSET)
};

s32 *lnet_ni_tun_ref(struct lnet_ni_tunables *t, u32 id)
{
	return tun_field(t, lnet_ni_tun_offsets, id);
}

s32 lnet_ni_tun_get(const struct lnet_ni_tunables *t, u32 id)
{
	return *tun_field((void *)t, lnet_ni_tun_offsets, id);
}

void lnet_ni_tunables_unset(struct lnet_ni_tunables *t)
{
	tun_unset(t, lnet_ni_tun_offsets, __LNET_TUN_MAX);
}

#define SOCK_TUN_OFFSET(id, name, opt, letter, min, max, def, help) \
	[id] = offsetof(struct lnet_sock_tunables, name),
static const size_t lnet_sock_tun_offsets[__LNET_SOCK_TUN_MAX] = {
	LNET_SOCK_TUNABLES(SOCK_TUN_OFFSET)
};

s32 *lnet_sock_tun_ref(struct lnet_sock_tunables *t, u32 id)
{
	return tun_field(t, lnet_sock_tun_offsets, id);
}

s32 lnet_sock_tun_get(const struct lnet_sock_tunables *t, u32 id)
{
	return *tun_field((void *)t, lnet_sock_tun_offsets, id);
}

void lnet_sock_tunables_unset(struct lnet_sock_tunables *t)
{
	tun_unset(t, lnet_sock_tun_offsets, __LNET_SOCK_TUN_MAX);
}

static int lnet_bad(struct lnet_bad *bad, u32 why, u32 field, u32 other)
{
	if (bad) {
		bad->why = why;
		bad->field = field;
		bad->other = other;
	}
	return -EINVAL;
}

int lnet_ni_tunables_check(const struct lnet_ni_tunables *t, struct lnet_bad *bad)
{
	u32 i = tun_out_of_range(t, lnet_ni_tun_offsets, lnet_ni_tun_ranges, __LNET_TUN_MAX);

	return i < __LNET_TUN_MAX ? lnet_bad(bad, LNET_BAD_RANGE, i, 0) : 0;
}

void lnet_ni_tunables_fill(struct lnet_ni_tunables *t)
{
	u32 i;

	for (i = 0; i < __LNET_TUN_MAX; i++)
		if (*lnet_ni_tun_ref(t, i) == -1)
			*lnet_ni_tun_ref(t, i) = lnet_ni_tun_ranges[i].def;
}

int lnet_ni_add_check(u32 net_id, const char *ifname,
		      const struct lnet_ni_tunables *t, struct lnet_bad *bad)
{
	u32 lnd = LNET_NET_LND(net_id);

	if (lnd == LNET_LND_LO)
		return lnet_bad(bad, LNET_BAD_LO_NET, 0, 0);
	if (!lnet_lnd_is_ip(lnd))
		return lnet_bad(bad, LNET_BAD_LND, 0, 0);
	if (!ifname || !ifname[0] || strlen(ifname) >= LNET_IFNAME_LEN)
		return lnet_bad(bad, LNET_BAD_IFNAME, 0, 0);
	return lnet_ni_tunables_check(t, bad);
}

int lnet_ni_lnd_tun_check(u32 net_id, const struct lnet_sock_tunables *t,
			  struct lnet_bad *bad)
{
	u32 i;

	if (!t)
		return 0;
	if (LNET_NET_LND(net_id) != LNET_LND_TCP)
		return lnet_bad(bad, LNET_BAD_LND_NET, 0, 0);
	i = tun_out_of_range(t, lnet_sock_tun_offsets, lnet_sock_tun_ranges,
			     __LNET_SOCK_TUN_MAX);
	return i < __LNET_SOCK_TUN_MAX ? lnet_bad(bad, LNET_BAD_LND_RANGE, i, 0) : 0;
}

int lnet_ni_lnd_set_check(u32 net_id, const struct lnet_sock_tunables *t, u32 rows,
			  struct lnet_bad *bad)
{
	struct lnet_sock_tunables asked;
	u32 i;

	if (!rows || (rows & ~LNET_NI_LND_ROWS_ALL))
		return lnet_bad(bad, LNET_BAD_FLAGS, 0, 0);
	/* the rows left alone are checked as unset: only the named ones count */
	lnet_sock_tunables_unset(&asked);
	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++)
		if (rows & LNET_NI_LND_ROW(i))
			*lnet_sock_tun_ref(&asked, i) = lnet_sock_tun_get(t, i);
	return lnet_ni_lnd_tun_check(net_id, &asked, bad);
}

/* The settings that depend on each other (see lnet_ioctl.h). */
static int lnet_global_cross_check(const u32 *cur, u32 id, u32 value,
				   struct lnet_bad *bad)
{
	const u32 tt = LNET_GLOBAL_TRANSACTION_TIMEOUT, rc = LNET_GLOBAL_RETRY_COUNT;
	const u32 hs = LNET_GLOBAL_HEALTH_SENSITIVITY;

	if (id == rc && value >= cur[tt])
		return lnet_bad(bad, LNET_BAD_NOT_BELOW, id, tt);
	if (id == rc && value && !cur[hs])
		return lnet_bad(bad, LNET_BAD_ZERO_WHILE, id, hs);
	if (id == tt && value <= cur[rc])
		return lnet_bad(bad, LNET_BAD_NOT_ABOVE, id, rc);
	return 0;
}

int lnet_global_range_check(u32 id, u32 value, struct lnet_bad *bad)
{
	const struct lnet_range *r;

	if (id >= __LNET_GLOBAL_MAX || !lnet_global_ranges[id].name)
		return lnet_bad(bad, LNET_BAD_UNKNOWN, id, 0);
	r = &lnet_global_ranges[id];
	if (r->read_only)
		return lnet_bad(bad, LNET_BAD_READ_ONLY, id, 0);
	if (value < (u32)r->min || value > (u32)r->max)
		return lnet_bad(bad, LNET_BAD_RANGE, id, 0);
	return 0;
}

int lnet_global_check(const u32 cur[__LNET_GLOBAL_MAX], u32 id, u32 value,
		      struct lnet_bad *bad)
{
	int rc = lnet_global_range_check(id, value, bad);

	return rc ? rc : lnet_global_cross_check(cur, id, value, bad);
}

/* --- router buffers ------------------------------------------------------ */

#define BUF_RANGE(id, name, min, max, def) [id] = { #name, min, max, def, false },
const struct lnet_range lnet_buf_ranges[LNET_NBUF_KINDS] = {
	LNET_BUFFERS(BUF_RANGE)
};

int lnet_buffers_check(const s32 counts[LNET_NBUF_KINDS], struct lnet_bad *bad)
{
	u32 i;

	for (i = 0; i < LNET_NBUF_KINDS; i++) {
		const struct lnet_range *r = &lnet_buf_ranges[i];
		s32 c = counts[i];

		if (c != -1 && c != 0 && (c < r->min || c > r->max))
			return lnet_bad(bad, LNET_BAD_RANGE, i, 0);
	}
	return 0;
}

int lnet_configure_check(u32 flags, struct lnet_bad *bad)
{
	return flags & ~(u32)__LNET_CONFIG_F_ALL ? lnet_bad(bad, LNET_BAD_FLAGS, 0, 0) : 0;
}

/* --- objects: peers, routes, routing, rules --------------------------------- */

static bool lnet_nid_lo(const struct lnet_nid *nid)
{
	return nid->nid_lnd == LNET_LND_LO;
}

int lnet_peer_add_check(const struct lnet_nid *prim, const struct lnet_nid *nid,
			u32 flags, struct lnet_bad *bad)
{
	bool other = nid && !lnet_nid_is_zero(nid) && !lnet_nid_equal(nid, prim);

	if (lnet_nid_is_zero(prim))
		return lnet_bad(bad, LNET_BAD_ZERO_NID, LNET_BAD_NID_PRIMARY, 0);
	if (flags & ~(u32)(LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM))
		return lnet_bad(bad, LNET_BAD_FLAGS, 0, 0);
	if (lnet_nid_lo(prim))
		return lnet_bad(bad, LNET_BAD_LO_NID, LNET_BAD_NID_PRIMARY, 0);
	if (other && lnet_nid_lo(nid))
		return lnet_bad(bad, LNET_BAD_LO_NID, LNET_BAD_NID_OTHER, 0);
	if (other && (flags & LNET_PEER_F_NON_MR))
		return lnet_bad(bad, LNET_BAD_NON_MR, LNET_BAD_NID_OTHER, 0);
	return 0;
}

int lnet_net_del_check(u32 net_id, struct lnet_bad *bad)
{
	if (LNET_NET_LND(net_id) == LNET_LND_LO)
		return lnet_bad(bad, LNET_BAD_LO_NET, 0, 0);
	return 0;
}

int lnet_route_add_check(u32 net_id, const struct lnet_nid *gw, u32 hops,
			 u32 priority, struct lnet_bad *bad)
{
	u32 lnd = LNET_NET_LND(net_id);

	if (lnd == LNET_LND_LO)
		return lnet_bad(bad, LNET_BAD_LO_NET, 0, 0);
	if (!lnet_lnd_name(lnd))
		return lnet_bad(bad, LNET_BAD_NET, 0, 0);
	if (!gw || lnet_nid_is_zero(gw))
		return lnet_bad(bad, LNET_BAD_ZERO_NID, LNET_BAD_NID_GATEWAY, 0);
	if (lnet_nid_lo(gw))
		return lnet_bad(bad, LNET_BAD_LO_NID, LNET_BAD_NID_GATEWAY, 0);
	if (hops != (u32)LNET_ROUTE_HOPS_UNSET &&
	    (hops < 1 || hops > LNET_ROUTE_HOPS_MAX))
		return lnet_bad(bad, LNET_BAD_HOPS, 0, 0);
	if (priority > LNET_ROUTE_PRIORITY_MAX)
		return lnet_bad(bad, LNET_BAD_PRIORITY, 0, 0);
	return 0;
}

int lnet_routing_check(u32 enable, struct lnet_bad *bad)
{
	return enable > 1 ? lnet_bad(bad, LNET_BAD_ENABLE, 0, 0) : 0;
}

int lnet_udsp_del_check(s32 idx, struct lnet_bad *bad)
{
	return idx < -1 ? lnet_bad(bad, LNET_BAD_INDEX, 0, 0) : 0;
}
