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

/* --- the lnet_selftest console ---------------------------------------------------- */

static int lst_bad(struct lnet_bad *bad, u32 field, u32 other)
{
	return lnet_bad(bad, LNET_BAD_RANGE, field, other);
}

static bool lst_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

bool lnet_lst_name_ok(const char *name)
{
	u32 i, n = 0;

	while (n < LNET_LST_NAME_LEN && name[n])
		if (!lst_name_char(name[n++]))
			return false;
	/* the rest zero too: a name compares as its whole array */
	for (i = n; i < LNET_LST_NAME_LEN; i++)
		if (name[i])
			return false;
	return n >= 1 && n <= LNET_LST_NAME_MAX;
}

/* The test of START and TEST_ADD: kind, brw size, check and offset, units, count. */
static int lst_test_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	bool brw = req->lst_test == LNET_LST_TEST_read || req->lst_test == LNET_LST_TEST_write;

	if (!brw && req->lst_test != LNET_LST_TEST_ping)
		return lst_bad(bad, LNET_LST_FIELD_TEST, 0);
	if (brw ? req->lst_size < LNET_LST_MIN_SIZE || req->lst_size > LNET_LST_MAX_SIZE ||
		  req->lst_size % 8 : req->lst_size != 0)
		return lst_bad(bad, LNET_LST_FIELD_SIZE, 0);
	if (brw ? req->lst_check < LNET_LST_CHECK_none || req->lst_check > LNET_LST_CHECK_full :
		  req->lst_check != 0)
		return lst_bad(bad, LNET_LST_FIELD_CHECK, 0);
	/* a bulk spans at most 256 pages, its offset into the first included */
	if (brw ? req->lst_offset > LNET_LST_MAX_OFFSET || req->lst_offset % 8 ||
		  req->lst_offset + req->lst_size > LNET_LST_MAX_SIZE : req->lst_offset != 0)
		return lst_bad(bad, LNET_LST_FIELD_OFFSET, 0);
	if (!req->lst_concurrency || req->lst_concurrency > LNET_LST_MAX_CONCURRENCY)
		return lst_bad(bad, LNET_LST_FIELD_CONCURRENCY, 0);
	if (req->lst_count > LNET_LST_MAX_COUNT)
		return lst_bad(bad, LNET_LST_FIELD_COUNT, 0);
	return 0;
}

/*
 * NIDs [@first, @first + @n) of @req: nid4 and not zero, none twice
 * (a NID may be in both lists of a START: a client that also serves).
 */
static int lst_nids_check(const struct lnet_ioc_lst *req, u32 first, u32 n,
			  struct lnet_bad *bad)
{
	const struct lnet_nid *nids = req->lst_nids;
	u32 i, j;

	for (i = first; i < first + n; i++) {
		if (lnet_nid_is_zero(&nids[i]) ||
		    (nids[i].nid_addr_len != 0 && nids[i].nid_addr_len != 4)) {
			lnet_bad(bad, LNET_BAD_RANGE, LNET_LST_FIELD_NIDS, i);
			return -EAFNOSUPPORT;	/* SRPC has no large NIDs */
		}
		for (j = first; j < i; j++)
			if (lnet_nid_equal(&nids[i], &nids[j]))
				return lst_bad(bad, LNET_LST_FIELD_NIDS, i);
	}
	return 0;
}

static int lst_start_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	int rc = lst_test_check(req, bad);

	if (rc)
		return rc;
	if (!req->lst_timeout_s || req->lst_timeout_s > LNET_LST_MAX_TIMEOUT_S)
		return lst_bad(bad, LNET_LST_FIELD_TIMEOUT, 0);
	if (!req->lst_nfrom || req->lst_nfrom >= LNET_LST_MAX_NODES)
		return lst_bad(bad, LNET_LST_FIELD_NFROM, 0);
	if (!req->lst_nto || req->lst_nfrom + req->lst_nto > LNET_LST_MAX_NODES)
		return lst_bad(bad, LNET_LST_FIELD_NTO, 0);
	rc = lst_nids_check(req, 0, req->lst_nfrom, bad);
	return rc ? rc : lst_nids_check(req, req->lst_nfrom, req->lst_nto, bad);
}

static int lst_session_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	if (!lnet_lst_name_ok(req->lst_name))
		return lst_bad(bad, LNET_LST_FIELD_NAME, 0);
	if (!req->lst_session_timeout_s ||
	    req->lst_session_timeout_s > LNET_LST_MAX_SESSION_TIMEOUT_S)
		return lst_bad(bad, LNET_LST_FIELD_SESSION_TIMEOUT, 0);
	if (!req->lst_timeout_s || req->lst_timeout_s > LNET_LST_MAX_TIMEOUT_S)
		return lst_bad(bad, LNET_LST_FIELD_TIMEOUT, 0);
	if (req->lst_flags & ~LNET_LST_F_ALL)
		return lst_bad(bad, LNET_LST_FIELD_FLAGS, 0);
	return 0;
}

static int lst_group_add_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	if (!lnet_lst_name_ok(req->lst_name))
		return lst_bad(bad, LNET_LST_FIELD_NAME, 0);
	if (req->lst_flags & ~LNET_LST_F_ALL)
		return lst_bad(bad, LNET_LST_FIELD_FLAGS, 0);
	if (!req->lst_nnodes || req->lst_nnodes > LNET_LST_MAX_NODES)
		return lst_bad(bad, LNET_LST_FIELD_NNODES, 0);
	return lst_nids_check(req, 0, req->lst_nnodes, bad);
}

static int lst_test_add_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	if (!lnet_lst_name_ok(req->lst_name))
		return lst_bad(bad, LNET_LST_FIELD_NAME, 0);
	if (!lnet_lst_name_ok(req->lst_from))
		return lst_bad(bad, LNET_LST_FIELD_FROM, 0);
	if (!lnet_lst_name_ok(req->lst_to))
		return lst_bad(bad, LNET_LST_FIELD_TO, 0);
	return lst_test_check(req, bad);
}

int lnet_lst_check(const struct lnet_ioc_lst *req, struct lnet_bad *bad)
{
	switch (req->lst_op) {
	case LNET_LST_OP_START:
		return lst_start_check(req, bad);
	case LNET_LST_OP_SESSION_NEW:
		return lst_session_check(req, bad);
	case LNET_LST_OP_GROUP_ADD:
		return lst_group_add_check(req, bad);
	case LNET_LST_OP_TEST_ADD:
		return lst_test_add_check(req, bad);
	case LNET_LST_OP_GROUP_DEL:
	case LNET_LST_OP_BATCH_ADD:
	case LNET_LST_OP_BATCH_RUN:
	case LNET_LST_OP_BATCH_STOP:
	case LNET_LST_OP_BATCH_QUERY:
	case LNET_LST_OP_GROUP_STAT:
		return lnet_lst_name_ok(req->lst_name) ? 0 : lst_bad(bad, LNET_LST_FIELD_NAME, 0);
	case LNET_LST_OP_STAT:
	case LNET_LST_OP_END:
	case LNET_LST_OP_SESSION_END:
	case LNET_LST_OP_SESSION_INFO:
	case LNET_LST_OP_GROUP_GET:
	case LNET_LST_OP_BATCH_GET:
		return 0;
	default:
		return lst_bad(bad, LNET_LST_FIELD_OP, 0);
	}
}
