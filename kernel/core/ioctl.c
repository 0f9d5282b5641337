// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl entry point: framing and common checks (lnet_ioctl.h), then
 * one small handler per command. Handlers validate their whole input
 * before they change anything. The policy engine's commands (the UDSP
 * ones) come in its hooks (hooks.h) and go through the same checks.
 */
#include "lnet_priv.h"
#include "selftest.h"
#include "../selftest/srpc.h"
#include "validate.h"

/* The uapi indexes are the core's (lc_msgs, lh_fail, dp_hstatus_count). */
#define LNET_SAME(a, b)	((int)(a) == (int)(b))
_Static_assert(LNET_SAME(LNET_IOC_MSG_HELLO, LNET_MSG_HELLO) &&
	       LNET_SAME(LNET_IOC_MSG_PUT, LNET_MSG_PUT) &&
	       LNET_SAME(LNET_IOC_MSG_GET, LNET_MSG_GET) &&
	       LNET_SAME(LNET_IOC_MSG_REPLY, LNET_MSG_REPLY), "message types");
_Static_assert(LNET_SAME(LNET_IOC_STATS_SENT, LNET_STATS_SENT) &&
	       LNET_SAME(LNET_IOC_STATS_RECV, LNET_STATS_RECV) &&
	       LNET_SAME(LNET_IOC_STATS_DROP, LNET_STATS_DROP), "stats kinds");
_Static_assert(LNET_SAME(__LNET_IOC_HS_MAX, LNET_MSG_STATUS_NETWORK_TIMEOUT + 1) &&
	       LNET_SAME(LNET_IOC_HS_LOCAL_INTERRUPT, LNET_MSG_STATUS_LOCAL_INTERRUPT) &&
	       LNET_SAME(LNET_IOC_HS_LOCAL_ERROR, LNET_MSG_STATUS_LOCAL_ERROR) &&
	       LNET_SAME(LNET_IOC_HS_LOCAL_TIMEOUT, LNET_MSG_STATUS_LOCAL_TIMEOUT) &&
	       LNET_SAME(LNET_IOC_HS_REMOTE_ERROR, LNET_MSG_STATUS_REMOTE_ERROR) &&
	       LNET_SAME(LNET_IOC_HS_REMOTE_DROPPED, LNET_MSG_STATUS_REMOTE_DROPPED), "health");
_Static_assert(LNET_PEER_STATE_MULTI_RAIL == LNET_PEER_S_MULTI_RAIL &&
	       LNET_PEER_STATE_CONFIGURED == LNET_PEER_S_CONFIGURED &&
	       LNET_PEER_STATE_DISCOVERED == LNET_PEER_S_DISCOVERED &&
	       LNET_PEER_STATE_NIDS_UPTODATE == LNET_PEER_S_NIDS_UPTODATE, "peer state");
_Static_assert(LNET_PING_MAX_NIDS == LNET_PING_MAX_NIS, "ping NIDs");
_Static_assert(LNET_SAME(__LNET_IOC_LAT_MAX, LNET_LAT_KINDS) &&
	       LNET_SAME(LNET_IOC_LAT_PUT_EGRESS, LNET_LAT_PUT_EGRESS) &&
	       LNET_SAME(LNET_IOC_LAT_GET_RTT, LNET_LAT_GET_RTT) &&
	       LNET_SAME(LNET_IOC_LAT_PUT_ACK, LNET_LAT_PUT_ACK), "latency kinds");
/* no hidden padding before the latencies: the same bytes on i386 */
_Static_assert(offsetof(struct lnet_ioc_ni, ni_lat) ==
	       offsetof(struct lnet_ioc_ni, ni_flags) + 4 &&
	       offsetof(struct lnet_ioc_peer, pr_lat) ==
	       offsetof(struct lnet_ioc_peer, pr_reserved) + 4, "latency layout");
_Static_assert(sizeof(((struct lnet_ioc_ni *)0)->ni_stats) ==
	       sizeof(((struct lnet_counters *)0)->lc_msgs) &&
	       sizeof(((struct lnet_ioc_peer *)0)->pr_stats) ==
	       sizeof(((struct lnet_counters *)0)->lc_msgs) &&
	       sizeof(((struct lnet_ioc_ni *)0)->ni_hstatus) ==
	       sizeof(((struct lnet_health *)0)->lh_fail) &&
	       sizeof(((struct lnet_ioc_peer *)0)->pr_hstatus) ==
	       sizeof(((struct lnet_health *)0)->lh_fail), "shared block");

static bool lnet_u32s_zero(const u32 *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

#define LNET_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* UNCONFIGURE: no flag. */
static bool lnet_config_reserved_zero(const void *buf)
{
	const struct lnet_ioc_config *c = buf;

	return !c->cfg_flags && !c->cfg_reserved;
}

/* CONFIGURE: only the LNET_CONFIG_F_* flags. */
static bool lnet_configure_reserved_zero(const void *buf)
{
	const struct lnet_ioc_config *c = buf;

	return !lnet_configure_check(c->cfg_flags, NULL) && !c->cfg_reserved;
}

static bool lnet_ni_reserved_zero(const void *buf)
{
	const struct lnet_ioc_ni *n = buf;

	return !n->ni_pad && !n->ni_down_reason && !(n->ni_flags & ~LNET_NI_F_LND_TUN);
}

static bool lnet_peer_reserved_zero(const void *buf)
{
	const struct lnet_ioc_peer *p = buf;

	return !p->pr_pad && !p->pr_pad2 &&
	       lnet_u32s_zero(p->pr_reserved, LNET_ARRAY_SIZE(p->pr_reserved));
}

/* --- NIDs from user space ------------------------------------------------ */

static bool lnet_bytes_zero(const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Loopback and link-local addresses are not NIDs (as in Lustre). */
static bool lnet_ip_addr_ok(const struct lnet_nid *nid)
{
	const u8 *a = nid->nid_addr;
	static const u8 v6_lo[16] = { [15] = 1 };

	if (nid->nid_addr_len == 4)
		return a[0] != 127;
	if (memcmp(a, v6_lo, sizeof(v6_lo)) == 0)
		return false;
	return !(a[0] == 0xfe && (a[1] & 0xc0) == 0x80);
}

/* A well-formed NID (or the zero NID when @zero_ok). 0 or -EINVAL. */
static int lnet_ioc_nid_check(const struct lnet_nid *nid, bool zero_ok)
{
	u32 lnd = nid->nid_lnd;

	if (nid->nid_addr_len == 0) {
		if (!zero_ok || nid->nid_lnd || nid->nid_netnum ||
		    !lnet_bytes_zero(nid->nid_addr, sizeof(nid->nid_addr)))
			return -EINVAL;
		return 0;
	}
	if (nid->nid_addr_len != 4 && nid->nid_addr_len != 16)
		return -EINVAL;
	if (lnd == LNET_LND_NONE || !lnet_lnd_name(lnd))
		return -EINVAL;
	if (!lnet_bytes_zero(nid->nid_addr + nid->nid_addr_len,
			     sizeof(nid->nid_addr) - nid->nid_addr_len))
		return -EINVAL;
	if (lnet_lnd_is_ip(lnd))
		return lnet_ip_addr_ok(nid) ? 0 : -EINVAL;
	if (nid->nid_addr_len != 4)
		return -EINVAL;
	if (lnd == LNET_LND_LO && (nid->nid_netnum ||
				   !lnet_bytes_zero(nid->nid_addr, 4)))
		return -EINVAL;
	return 0;
}

/* --- CONFIGURE / UNCONFIGURE ------------------------------------------------ */

/*
 * LNET_CONFIG_F_LARGE_NIDS is set by every CONFIGURE that has it, LNet
 * up already or not (as Lustre's configure); only the unconfigure clears it.
 */
static int lnet_ioc_configure(struct lnet *ln, unsigned int cmd, void *buf,
			      u32 len)
{
	const struct lnet_ioc_config *c = buf;
	int rc = lnet_configure(ln);

	if (!rc && (c->cfg_flags & LNET_CONFIG_F_LARGE_NIDS))
		ln->ln_large_nids = true;
	return rc;
}

static int lnet_ioc_unconfigure(struct lnet *ln, unsigned int cmd, void *buf,
				u32 len)
{
	return lnet_unconfigure(ln);
}

/* --- nets ---------------------------------------------------------------------- */

static bool lnet_ifname_terminated(const char *name)
{
	unsigned int i;

	for (i = 0; i < LNET_IFNAME_LEN; i++)
		if (!name[i])
			return true;
	return false;
}

static int lnet_ioc_add_net(struct lnet *ln, unsigned int cmd, void *buf,
			    u32 len)
{
	const struct lnet_ioc_ni *n = buf;

	if (!lnet_ifname_terminated(n->ni_ifname))
		return -EINVAL;
	return lnet_ni_add_lnd(ln, n->ni_net, n->ni_ifname, &n->ni_tun,
			       n->ni_flags & LNET_NI_F_LND_TUN ? &n->ni_lnd_tun : NULL,
			       n->ni_nid.nid_lnd != LNET_LND_NONE ? &n->ni_nid : NULL);
}

static int lnet_ioc_del_net(struct lnet *ln, unsigned int cmd, void *buf,
			    u32 len)
{
	const struct lnet_ioc_ni *n = buf;

	if (!lnet_ifname_terminated(n->ni_ifname))
		return -EINVAL;
	return lnet_net_del(ln, n->ni_net, n->ni_ifname);
}

/* SET_NI_LND: only the selectors, the flags and ni_lnd_tun may be set. */
static bool lnet_ni_set_fields_zero(const struct lnet_ioc_ni *n)
{
	struct lnet_ioc_ni z = { 0 };

	z.ni_hdr = n->ni_hdr;
	z.ni_net = n->ni_net;
	z.ni_nid = n->ni_nid;
	z.ni_lnd_tun = n->ni_lnd_tun;
	z.ni_flags = n->ni_flags;
	return !memcmp(&z, n, sizeof(z));
}

static int lnet_ioc_set_ni_lnd(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	const struct lnet_ioc_ni *n = buf;
	bool one = !lnet_nid_is_zero(&n->ni_nid);
	int rc;

	if (!lnet_ni_set_fields_zero(n))
		return -EINVAL;
	rc = lnet_ioc_nid_check(&n->ni_nid, true);
	if (rc)
		return rc;
	if (one && n->ni_net && n->ni_net != lnet_nid_net(&n->ni_nid))
		return -EINVAL;
	return lnet_ni_lnd_set(ln, one ? 0 : n->ni_net, one ? &n->ni_nid : NULL,
			       &n->ni_lnd_tun, n->ni_flags & ~LNET_NI_F_LND_TUN);
}

static bool lnet_ni_set_reserved_zero(const void *buf)
{
	const struct lnet_ioc_ni *n = buf;

	return !(n->ni_flags & ~(LNET_NI_F_LND_TUN | LNET_NI_LND_ROWS_ALL));
}

static u32 lnet_list_len(const struct list_head *head)
{
	const struct list_head *pos;
	u32 n = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		n++;
	return n;
}

/* Seconds until @when_ns (rounded up), 0 when nothing is due. */
static u32 lnet_secs_until(u64 when_ns)
{
	u64 now = os_now_ns();

	if (!when_ns || when_ns <= now)
		return 0;
	return (u32)((when_ns - now + 999999999ULL) / 1000000000ULL);
}

/*
 * Where GET_NET and GET_PEER want what a local NI and a peer NI both
 * carry. The two replies give these fields the same names after their
 * own prefix (ni_health, pr_health, ...): LNET_IOC_SHARED names them.
 */
struct lnet_ioc_shared {
	__u32 *health, *ping_count, *next_ping_s;
	__u64 *count[LNET_STATS_KINDS];		/* enum lnet_stats_kind */
	__u64 (*stats)[__LNET_IOC_MSG_MAX];
	__u64 *hstatus;
	struct lnet_ioc_latency *lat;		/* [__LNET_IOC_LAT_MAX] */
};

#define LNET_IOC_SHARED(r, pfx) (&(const struct lnet_ioc_shared) {	\
	.health = &(r)->pfx##health,					\
	.ping_count = &(r)->pfx##ping_count,				\
	.next_ping_s = &(r)->pfx##next_ping_s,				\
	.count = { &(r)->pfx##send_count, &(r)->pfx##recv_count,	\
		   &(r)->pfx##drop_count },				\
	.stats = (r)->pfx##stats,					\
	.hstatus = (r)->pfx##hstatus,					\
	.lat = (r)->pfx##lat,						\
})

static void lnet_ioc_shared_fill(const struct lnet_ioc_shared *out,
				 const struct lnet_health *h,
				 const struct lnet_counters *c)
{
	u32 k;

	*out->health = h->lh_value;
	*out->ping_count = h->lh_ping_count;
	*out->next_ping_s = lnet_secs_until(h->lh_next_ping_ns);
	for (k = 0; k < LNET_STATS_KINDS; k++)
		*out->count[k] = lnet_counters_total(c, k);
	memcpy(out->stats, c->lc_msgs, sizeof(c->lc_msgs));
	memcpy(out->hstatus, h->lh_fail, sizeof(h->lh_fail));
	out->hstatus[LNET_IOC_HS_OK] = 0;
	for (k = 0; k < LNET_LAT_KINDS; k++) {
		out->lat[k].lat_samples = c->lc_lat[k].ll_samples;
		out->lat[k].lat_min_ns = c->lc_lat[k].ll_min_ns;
		out->lat[k].lat_max_ns = c->lc_lat[k].ll_max_ns;
		out->lat[k].lat_avg_ns = lnet_latency_avg_ns(&c->lc_lat[k]);
	}
}

static void lnet_ioc_ni_fill(struct lnet *ln, struct lnet_ioc_ni *n,
			     const struct lnet_ni *ni)
{
	n->ni_net = ni->ni_net->net_id;
	n->ni_nid = ni->ni_nid;
	memset(n->ni_ifname, 0, sizeof(n->ni_ifname));
	memcpy(n->ni_ifname, ni->ni_ifname, strlen(ni->ni_ifname));
	n->ni_tun = ni->ni_tun;
	lnet_ni_lnd_tun_report(ln, ni, &n->ni_lnd_tun, &n->ni_flags);
	n->ni_down_reason = lnet_ni_down_reason(ni);
	n->ni_status = n->ni_down_reason ? LNET_NI_STATUS_DOWN : LNET_NI_STATUS_UP;
	n->ni_net_priority = ni->ni_net->net_sel_priority;
	n->ni_nid_priority = ni->ni_sel_priority;
	n->ni_tx_credits = ni->ni_tx_credits > 0 ? (u32)ni->ni_tx_credits : 0;
	n->ni_min_tx_credits = ni->ni_min_tx_credits;
	n->ni_txq_len = lnet_list_len(&ni->ni_txq);
	lnet_ioc_shared_fill(LNET_IOC_SHARED(n, ni_), &ni->ni_health,
			     &ni->ni_counters);
}

static int lnet_ioc_get_net(struct lnet *ln, unsigned int cmd, void *buf,
			    u32 len)
{
	struct lnet_ioc_ni *n = buf;
	u32 left = n->ni_index;
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &ln->ln_nets, net_list) {
		if (n->ni_net && net->net_id != n->ni_net)
			continue;
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (left--)
				continue;
			lnet_ioc_ni_fill(ln, n, ni);
			return 0;
		}
	}
	return -ENOENT;
}

/* --- peers --------------------------------------------------------------------- */

/* The primary NID must be a NID; pr_nid may be zero ("none"). */
static int lnet_ioc_peer_nids_check(const struct lnet_ioc_peer *p)
{
	int rc = lnet_ioc_nid_check(&p->pr_prim_nid, false);

	return rc ? rc : lnet_ioc_nid_check(&p->pr_nid, true);
}

static int lnet_ioc_add_peer(struct lnet *ln, unsigned int cmd, void *buf,
			     u32 len)
{
	const struct lnet_ioc_peer *p = buf;
	int rc = lnet_ioc_peer_nids_check(p);

	return rc ? rc : lnet_peer_ni_add(ln, &p->pr_prim_nid, &p->pr_nid, p->pr_flags);
}

static int lnet_ioc_del_peer(struct lnet *ln, unsigned int cmd, void *buf,
			     u32 len)
{
	const struct lnet_ioc_peer *p = buf;
	int rc = lnet_ioc_peer_nids_check(p);

	return rc ? rc : lnet_peer_ni_del(ln, &p->pr_prim_nid, &p->pr_nid, p->pr_flags);
}

static int lnet_ioc_set_peer_state(struct lnet *ln, unsigned int cmd, void *buf,
				   u32 len)
{
	const struct lnet_ioc_peer *p = buf;
	u32 state = p->pr_peer_state;
	struct lnet_peer *lp;
	int rc = lnet_ioc_nid_check(&p->pr_prim_nid, false);

	if (rc)
		return rc;
	if ((state & ~LNET_PEER_STATE_SETTABLE) || p->pr_flags || p->pr_index ||
	    !lnet_nid_is_zero(&p->pr_nid))
		return -EINVAL;
	lp = lnet_peer_find(ln, &p->pr_prim_nid);
	if (!lp)
		return -ENOENT;
	lp->lp_state = state & ~LNET_PEER_STATE_LOCK_PRIMARY;
	if (state & LNET_PEER_STATE_LOCK_PRIMARY)
		lp->lp_flags |= LNET_PEER_F_LOCK_PRIM;
	else
		lp->lp_flags &= ~LNET_PEER_F_LOCK_PRIM;
	return 0;
}

/* Copy at most LNET_PREF_MAX NIDs of @src into @dst, zeroing the rest. */
static void lnet_ioc_nids_fill(struct lnet_nid *dst, const struct lnet_nid *src,
			       u32 n)
{
	if (n > LNET_PREF_MAX)
		n = LNET_PREF_MAX;
	memset(dst, 0, LNET_PREF_MAX * sizeof(*dst));
	if (n)
		memcpy(dst, src, n * sizeof(*dst));
}

static void lnet_ioc_peer_fill(struct lnet *ln, struct lnet_ioc_peer *p,
			       const struct lnet_peer_ni *lpni)
{
	const struct lnet_peer_net *lpn = lpni->lpni_peer_net;
	const struct lnet_peer *lp = lpn->lpn_peer;

	p->pr_prim_nid = lp->lp_primary_nid;
	p->pr_flags = lp->lp_flags;
	p->pr_nid = lpni->lpni_nid;
	p->pr_peer_nis = lp->lp_nnis;
	p->pr_state = lpni->lpni_state;
	p->pr_peer_state = lp->lp_state;
	p->pr_net_priority = lpn->lpn_sel_priority;
	p->pr_nid_priority = lpni->lpni_sel_priority;
	p->pr_max_tx_credits = lpni->lpni_max_tx_credits;
	p->pr_tx_credits = lpni->lpni_tx_credits > 0 ?
			   (u32)lpni->lpni_tx_credits : 0;
	p->pr_npref = lpni->lpni_npref;
	p->pr_nrtr = lpni->lpni_nrtr;
	p->pr_min_tx_credits = lpni->lpni_min_tx_credits;
	p->pr_txq_len = lnet_list_len(&lpni->lpni_txq);
	p->pr_rtr_credits = lpni->lpni_rtr_credits;
	p->pr_min_rtr_credits = lpni->lpni_min_rtr_credits;
	p->pr_refcount = 1 + lnet_msgs_holding(ln, lpni);
	lnet_ioc_nids_fill(p->pr_pref, lpni->lpni_pref_nids, lpni->lpni_npref);
	lnet_ioc_nids_fill(p->pr_rtr, lpni->lpni_rtr_nids, lpni->lpni_nrtr);
	lnet_ioc_shared_fill(LNET_IOC_SHARED(p, pr_), &lpni->lpni_health,
			     &lpni->lpni_counters);
}

/* The @*left-th peer NI of @lp, or NULL with @*left reduced by its NIs. */
static struct lnet_peer_ni *lnet_peer_nth_ni(struct lnet_peer *lp, u32 *left)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;

	if (*left >= lp->lp_nnis) {
		*left -= lp->lp_nnis;
		return NULL;
	}
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			if ((*left)-- == 0)
				return lpni;
	return NULL;
}

/*
 * The @index-th peer NI over all peers. Starts at the cursor when it is at
 * or before @index, so that walking every peer NI by index is linear.
 */
static struct lnet_peer_ni *lnet_peer_ni_by_index(struct lnet *ln, u32 index)
{
	struct lnet_peer *lp = list_first_entry(&ln->ln_peers, struct lnet_peer,
						lp_list);
	struct lnet_peer_ni *lpni;
	u32 base = 0;

	if (ln->ln_iter_peer && ln->ln_iter_base <= index) {
		lp = ln->ln_iter_peer;
		base = ln->ln_iter_base;
	}
	for (; &lp->lp_list != &ln->ln_peers; lp = list_next_entry(lp, lp_list)) {
		u32 left = index - base;

		lpni = lnet_peer_nth_ni(lp, &left);
		if (lpni) {
			ln->ln_iter_peer = lp;
			ln->ln_iter_base = base;
			return lpni;
		}
		base += lp->lp_nnis;
	}
	return NULL;
}

static int lnet_ioc_get_peer(struct lnet *ln, unsigned int cmd, void *buf,
			     u32 len)
{
	struct lnet_ioc_peer *p = buf;
	struct lnet_peer_ni *lpni = NULL;
	u32 left = p->pr_index;
	struct lnet_peer *lp;
	int rc;

	rc = lnet_ioc_nid_check(&p->pr_prim_nid, true);
	if (rc)
		return rc;
	if (!lnet_nid_is_zero(&p->pr_prim_nid)) {
		lp = lnet_peer_find(ln, &p->pr_prim_nid);
		if (lp)
			lpni = lnet_peer_nth_ni(lp, &left);
	} else {
		lpni = lnet_peer_ni_by_index(ln, p->pr_index);
	}
	if (!lpni)
		return -ENOENT;
	lnet_ioc_peer_fill(ln, p, lpni);
	return 0;
}

/* --- routes ---------------------------------------------------------------------- */

static bool lnet_route_reserved_zero(const void *buf)
{
	const struct lnet_ioc_route *r = buf;

	return lnet_u32s_zero(r->rt_reserved, LNET_ARRAY_SIZE(r->rt_reserved));
}

static int lnet_ioc_add_route(struct lnet *ln, unsigned int cmd, void *buf,
			      u32 len)
{
	const struct lnet_ioc_route *r = buf;
	int rc = lnet_ioc_nid_check(&r->rt_gateway, false);

	if (rc)
		return rc;
	rc = lnet_route_add(ln, r->rt_net, &r->rt_gateway, (u32)r->rt_hops,
			    r->rt_priority);
	/*
	 * Its gateway is checked by the monitor, which does not run yet on a
	 * node with no NI in an LND (lnet.ko's tcp NIs are configuration only).
	 */
	if (!rc)
		lnet_dp_monitor_ensure(ln);
	return rc;
}

static int lnet_ioc_del_route(struct lnet *ln, unsigned int cmd, void *buf,
			      u32 len)
{
	const struct lnet_ioc_route *r = buf;
	int rc = lnet_ioc_nid_check(&r->rt_gateway, false);

	if (rc)
		return rc;
	return lnet_route_del(ln, r->rt_net, &r->rt_gateway);
}

static int lnet_ioc_get_route(struct lnet *ln, unsigned int cmd, void *buf,
			      u32 len)
{
	struct lnet_ioc_route *r = buf;
	struct lnet_route *rt = lnet_route_nth(ln, r->rt_index, r->rt_net);

	if (!rt)
		return -ENOENT;
	r->rt_net = rt->lr_net;
	r->rt_gateway = rt->lr_gw_nid;
	r->rt_hops = (s32)rt->lr_hops;
	r->rt_priority = rt->lr_priority;
	r->rt_state = lnet_route_alive(ln, rt) ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	/* as Lustre: multi-hop until a reply of the gateway lists the net */
	r->rt_type = rt->lr_single_hop ? LNET_ROUTE_SINGLE_HOP : LNET_ROUTE_MULTI_HOP;
	return 0;
}

/* --- routing, buffers, statistics, global settings ------------------------------------ */

static bool lnet_routing_reserved_zero(const void *buf)
{
	const struct lnet_ioc_routing *r = buf;

	return lnet_u32s_zero(r->rtr_reserved, LNET_ARRAY_SIZE(r->rtr_reserved));
}

static bool lnet_stats_reserved_zero(const void *buf)
{
	const struct lnet_ioc_stats *st = buf;

	return !st->st_pad && !st->st_pad2;
}

static bool lnet_global_reserved_zero(const void *buf)
{
	const struct lnet_ioc_global *g = buf;

	return lnet_u32s_zero(g->gl_reserved, LNET_ARRAY_SIZE(g->gl_reserved));
}

static int lnet_ioc_config_rtr(struct lnet *ln, unsigned int cmd, void *buf,
			       u32 len)
{
	const struct lnet_ioc_routing *r = buf;

	if (r->rtr_tiny || r->rtr_small || r->rtr_large)
		return -EINVAL;
	return lnet_routing_set(ln, r->rtr_enable);
}

static int lnet_ioc_add_buf(struct lnet *ln, unsigned int cmd, void *buf,
			    u32 len)
{
	const struct lnet_ioc_routing *r = buf;
	const s32 counts[LNET_NBUF_KINDS] = { r->rtr_tiny, r->rtr_small, r->rtr_large };

	if (r->rtr_enable)
		return -EINVAL;
	return lnet_buffers_set(ln, counts);
}

static int lnet_ioc_get_buf(struct lnet *ln, unsigned int cmd, void *buf,
			    u32 len)
{
	struct lnet_ioc_routing *r = buf;

	/* what was asked: 0 from `set routing 0` on, while it drains too */
	r->rtr_enable = ln->ln_routing == LNET_ROUTING_ENABLED ||
			ln->ln_routing == LNET_ROUTING_STARTING;
	r->rtr_tiny = ln->ln_buffers[LNET_BUF_TINY];
	r->rtr_small = ln->ln_buffers[LNET_BUF_SMALL];
	r->rtr_large = ln->ln_buffers[LNET_BUF_LARGE];
	return 0;
}

static bool lnet_rtr_pools_reserved_zero(const void *buf)
{
	const struct lnet_ioc_rtr_pools *rp = buf;

	return lnet_u32s_zero(rp->rp_reserved, LNET_ARRAY_SIZE(rp->rp_reserved));
}

/* One partition's pools: this core has a single CPT, so only rp_cpt 0. */
static int lnet_ioc_get_rtr_pools(struct lnet *ln, unsigned int cmd, void *buf,
				  u32 len)
{
	struct lnet_ioc_rtr_pools *rp = buf;
	struct lnet_rtr_pool_info info;
	u32 kind;

	if (rp->rp_cpt)
		return -ENOENT;
	rp->rp_state = ln->ln_routing;
	for (kind = 0; kind < LNET_NBUF_KINDS; kind++) {
		lnet_rtr_pool_info(ln, kind, &info);
		rp->rp_pools[kind].rpl_npages = info.npages;
		rp->rp_pools[kind].rpl_nbuffers = info.nbuffers;
		rp->rp_pools[kind].rpl_credits = info.credits;
		rp->rp_pools[kind].rpl_min_credits = info.min_credits;
	}
	return 0;
}

/* The data path's counters (Lustre's `stats show`), after lnet_stats_get(). */
static void lnet_ioc_stats_dp(struct lnet *ln, struct lnet_ioc_stats *st)
{
	const struct lnet_dp *dp = &ln->ln_dp;

	st->st_msgs_alloc = dp->dp_msgs_alloc;
	st->st_msgs_max = dp->dp_msgs_max;
	st->st_errors = dp->dp_errors;
	st->st_dp_send_count = dp->dp_count[LNET_STATS_SENT];
	st->st_dp_recv_count = dp->dp_count[LNET_STATS_RECV];
	st->st_dp_drop_count = dp->dp_count[LNET_STATS_DROP];
	st->st_resend_count = dp->dp_resend_count;
	st->st_dp_send_length = dp->dp_length[LNET_STATS_SENT];
	st->st_dp_recv_length = dp->dp_length[LNET_STATS_RECV];
	st->st_dp_drop_length = dp->dp_length[LNET_STATS_DROP];
	st->st_response_timeout_count = dp->dp_response_timeout_count;
	st->st_failed_resends = dp->dp_failed_resends;
	st->st_successful_resends = dp->dp_successful_resends;
	memcpy(st->st_hstatus, dp->dp_hstatus_count, sizeof(st->st_hstatus));
	st->st_hstatus[LNET_IOC_HS_OK] = 0;
	st->st_selftest_corrupt = lnet_selftest_corrupt(ln);
	st->st_rst_alloc = lnet_list_len(&dp->dp_active);
	st->st_route_count = dp->dp_route_count;
	st->st_route_length = dp->dp_route_length;
}

/* RESET: what lnet_stats_reset() leaves, the data path's counters. */
static void lnet_ioc_stats_reset_dp(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;

	dp->dp_msgs_max = dp->dp_msgs_alloc;
	lnet_dp_counters_clear(dp);
	lnet_selftest_corrupt_reset(ln);
}

static int lnet_ioc_stats(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	if (cmd == IOC_LIBCFS_RESET_LNET_STATS) {
		lnet_stats_reset(ln);
		lnet_ioc_stats_reset_dp(ln);
	} else {
		lnet_stats_get(ln, buf);
		lnet_ioc_stats_dp(ln, buf);
	}
	return 0;
}

static int lnet_ioc_global(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_global *g = buf;

	if (cmd == IOC_LIBCFS_SET_GLOBAL)
		return lnet_global_set(ln, g->gl_id, g->gl_value);
	return lnet_global_get(ln, g->gl_id, &g->gl_value);
}

/* --- health ----------------------------------------------------------------------- */

_Static_assert(LNET_HEALTH_MAX == LNET_MAX_HEALTH &&
	       (int)LNET_HEALTH_LOCAL_NI == (int)LNET_KIND_NI &&
	       (int)LNET_HEALTH_PEER_NI == (int)LNET_KIND_PEER_NI, "health");

static bool lnet_health_reserved_zero(const void *buf)
{
	const struct lnet_ioc_health *hl = buf;

	return lnet_u32s_zero(hl->hl_reserved, LNET_ARRAY_SIZE(hl->hl_reserved));
}

/* Every NI of kind @kind but 0@lo (whose sends cannot fail) to @value. */
static void lnet_health_set_all(struct lnet *ln, u32 kind, u32 value)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (kind == LNET_KIND_NI) {
		list_for_each_entry(net, &ln->ln_nets, net_list)
			list_for_each_entry(ni, &net->net_nis, ni_list)
				if (!lnet_nid_is_lo(&ni->ni_nid))
					lnet_health_set(ln, &ni->ni_health, value);
		return;
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				lnet_health_set(ln, &lpni->lpni_health, value);
}

/* The health of the local NI or peer NI @nid, NULL if there is none. */
static struct lnet_health *lnet_health_of(struct lnet *ln, u32 kind,
					  const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	if (kind == LNET_KIND_PEER_NI) {
		lpni = lnet_peer_ni_find(ln, nid);
		return lpni ? &lpni->lpni_health : NULL;
	}
	ni = lnet_nid_is_lo(nid) ? NULL : lnet_ni_find(ln, nid);
	return ni ? &ni->ni_health : NULL;
}

static int lnet_ioc_set_health(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_health *hl = buf;
	bool all = hl->hl_flags & LNET_HEALTH_F_ALL;
	struct lnet_health *h;
	int rc;

	if ((hl->hl_kind != LNET_HEALTH_LOCAL_NI && hl->hl_kind != LNET_HEALTH_PEER_NI) ||
	    (hl->hl_flags & ~LNET_HEALTH_F_ALL) || hl->hl_value > LNET_HEALTH_MAX)
		return -EINVAL;
	if (all) {
		if (!lnet_nid_is_zero(&hl->hl_nid))
			return -EINVAL;
		lnet_health_set_all(ln, hl->hl_kind, hl->hl_value);
		return 0;
	}
	rc = lnet_ioc_nid_check(&hl->hl_nid, false);
	if (rc)
		return rc;
	h = lnet_health_of(ln, hl->hl_kind, &hl->hl_nid);
	if (!h)
		return -ENOENT;
	lnet_health_set(ln, h, hl->hl_value);
	return 0;
}

/* --- ping, discover, selftest: they wait for the network ---------------------------- */

static bool lnet_ping_reserved_zero(const void *buf)
{
	const struct lnet_ioc_ping *p = buf;

	return lnet_u32s_zero(p->ping_reserved, LNET_ARRAY_SIZE(p->ping_reserved));
}

static bool lnet_selftest_reserved_zero(const void *buf)
{
	const struct lnet_ioc_selftest *st = buf;

	return !st->sft_pad2 &&
	       lnet_u32s_zero(st->sft_reserved, LNET_ARRAY_SIZE(st->sft_reserved));
}

/* A source NID: zero (any), or one of this node's NIDs. */
static int lnet_ioc_src_check(struct lnet *ln, const struct lnet_nid *src)
{
	int rc = lnet_ioc_nid_check(src, true);

	if (rc || lnet_nid_is_zero(src))
		return rc;
	return lnet_nid_is_lo(src) || lnet_ni_find(ln, src) ? 0 : -EADDRNOTAVAIL;
}

static int lnet_ioc_ping_check(struct lnet *ln, unsigned int cmd,
			       const struct lnet_ioc_ping *p)
{
	u32 flags = cmd == IOC_LIBCFS_DISCOVER ? LNET_PING_F_FORCE : 0;
	int rc = lnet_ioc_nid_check(&p->ping_nid, false);

	if (rc)
		return rc;
	if (!p->ping_timeout_ms || p->ping_timeout_ms > LNET_PING_TIMEOUT_MAX_MS ||
	    (p->ping_flags & ~flags))
		return -EINVAL;
	if (cmd == IOC_LIBCFS_DISCOVER)
		return lnet_nid_is_zero(&p->ping_src) ? 0 : -EINVAL;
	return lnet_ioc_src_check(ln, &p->ping_src);
}

static void lnet_ioc_ping_fill(struct lnet_ioc_ping *p, const struct lnet_ping_result *res)
{
	u32 n = res->nnids < LNET_PING_MAX_NIDS ? res->nnids : LNET_PING_MAX_NIDS;

	p->ping_primary = res->primary;
	p->ping_multi_rail = res->multi_rail;
	p->ping_nnids = n;
	memset(p->ping_nids, 0, sizeof(p->ping_nids));
	memcpy(p->ping_nids, res->nids, n * sizeof(p->ping_nids[0]));
}

/*
 * DISCOVER without FORCE of a peer discovered before: its NIDs as the
 * peer table holds them (0@lo never is a peer NI). False if not known.
 */
static bool lnet_ioc_discovered(struct lnet *ln, const struct lnet_nid *nid,
				struct lnet_ping_result *res)
{
	struct lnet_peer *lp = lnet_peer_find(ln, nid);
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;

	if (!lp || !(lp->lp_state & LNET_PEER_S_DISCOVERED))
		return false;
	res->primary = lp->lp_primary_nid;
	res->multi_rail = lp->lp_state & LNET_PEER_S_MULTI_RAIL;
	res->nnids = 0;
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			if (res->nnids < LNET_PING_MAX_NIS)
				res->nids[res->nnids++] = lpni->lpni_nid;
	return true;
}

static int lnet_ioc_ping(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_ping *p = buf;
	struct lnet_ping_result *res;
	int rc = lnet_ioc_ping_check(ln, cmd, p);

	if (rc)
		return rc;
	res = os_zalloc(sizeof(*res));		/* ~5 KB: not on the stack */
	if (!res)
		return -ENOMEM;
	if (cmd == IOC_LIBCFS_PING_PEER)
		rc = lnet_ping(ln, &p->ping_nid, lnet_nid_is_zero(&p->ping_src) ?
			       NULL : &p->ping_src, p->ping_timeout_ms, res);
	else if ((p->ping_flags & LNET_PING_F_FORCE) ||
		 !lnet_ioc_discovered(ln, &p->ping_nid, res))
		rc = lnet_discover(ln, &p->ping_nid, p->ping_timeout_ms, res);
	if (!rc)
		lnet_ioc_ping_fill(p, res);
	os_free(res);
	return rc;
}

static int lnet_ioc_selftest(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_selftest *st = buf;
	int rc;

	if ((st->sft_op != LNET_SELFTEST_OP_PUT && st->sft_op != LNET_SELFTEST_OP_GET) ||
	    st->sft_size > LNET_SELFTEST_MAX_SIZE ||
	    !st->sft_count || st->sft_count > LNET_SELFTEST_MAX_COUNT ||
	    !st->sft_concurrency || st->sft_concurrency > LNET_SELFTEST_MAX_CONCURRENCY ||
	    !st->sft_timeout_ms || st->sft_timeout_ms > LNET_SELFTEST_MAX_TIMEOUT_MS ||
	    st->sft_check > LNET_LST_CHECK_full)
		return -EINVAL;
	rc = lnet_ioc_nid_check(&st->sft_target, false);
	if (!rc)
		rc = lnet_ioc_src_check(ln, &st->sft_src);
	return rc ? rc : lnet_selftest_run(ln, st);
}

static bool lnet_lst_reserved_zero(const void *buf)
{
	const struct lnet_ioc_lst *l = buf;

	return lnet_u32s_zero(l->lst_reserved, LNET_ARRAY_SIZE(l->lst_reserved));
}

static int lnet_ioc_lst(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	return lnet_lst_ioctl(ln, buf);
}

/* --- explain ----------------------------------------------------------------------- */

/* Everything after the two input NIDs is output: zero on the way in. */
static bool lnet_explain_reserved_zero(const void *buf)
{
	const struct lnet_ioc_explain *ex = buf;
	const u8 *p = (const u8 *)&ex->ex_path;

	return lnet_bytes_zero(p, sizeof(*ex) - (size_t)(p - (const u8 *)ex));
}

static int lnet_ioc_explain(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_explain *ex = buf;
	int rc = lnet_ioc_nid_check(&ex->ex_dst, false);

	if (!rc)
		rc = lnet_ioc_src_check(ln, &ex->ex_src);
	return rc ? rc : lnet_explain(ln, ex);
}

/* --- interfaces --------------------------------------------------------------------- */

static bool lnet_if_reserved_zero(const void *buf)
{
	const struct lnet_ioc_if *f = buf;

	return !f->if_pad[0] && !f->if_pad[1] &&
	       (!f->if_want_len || f->if_want_len == 4 || f->if_want_len == 16) &&
	       lnet_u32s_zero(f->if_reserved, LNET_ARRAY_SIZE(f->if_reserved));
}

/* GET_IF's address: the one if_want_len asks for, else the default one. */
static void lnet_if_addr_report(struct lnet_ioc_if *f, const struct os_ifaddr *ifa)
{
	const u8 *addr = f->if_want_len ? lnet_ifaddr_of_len(ifa, f->if_want_len) : ifa->addr;
	u8 len = f->if_want_len ? f->if_want_len : ifa->addr_len;

	if (!addr || len > sizeof(f->if_addr))
		return;
	f->if_addr_len = len;
	memcpy(f->if_addr, addr, len);
}

static int lnet_ioc_get_if(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_if *f = buf;
	struct os_ifaddr ifa;
	char name[LNET_IFNAME_LEN] = "";
	int rc = lnet_if_name(ln, f->if_index, name);

	if (rc)
		return rc;
	memcpy(f->if_name, name, sizeof(f->if_name));
	f->if_addr_len = 0;
	memset(f->if_addr, 0, sizeof(f->if_addr));
	f->if_status = LNET_NI_STATUS_DOWN;
	rc = lnet_if_lookup(ln, name, &ifa);
	if (rc == -ENODEV || rc == -EADDRNOTAVAIL)
		return 0;	/* gone since, or no usable address: listed without one */
	if (rc)
		return rc;
	f->if_status = ifa.up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	lnet_if_addr_report(f, &ifa);
	return 0;
}

/* --- dispatch ------------------------------------------------------------------------ */

static const struct lnet_ioc_cmd lnet_ioc_cmds[] = {
	{ IOC_LIBCFS_CONFIGURE, sizeof(struct lnet_ioc_config), true, true,
	  lnet_configure_reserved_zero, lnet_ioc_configure },
	{ IOC_LIBCFS_UNCONFIGURE, sizeof(struct lnet_ioc_config), true, true,
	  lnet_config_reserved_zero, lnet_ioc_unconfigure },
	{ IOC_LIBCFS_ADD_NET, sizeof(struct lnet_ioc_ni), true, false,
	  lnet_ni_reserved_zero, lnet_ioc_add_net },
	{ IOC_LIBCFS_DEL_NET, sizeof(struct lnet_ioc_ni), true, false,
	  lnet_ni_reserved_zero, lnet_ioc_del_net },
	{ IOC_LIBCFS_GET_NET, sizeof(struct lnet_ioc_ni), false, false,
	  lnet_ni_reserved_zero, lnet_ioc_get_net },
	{ IOC_LNET_SET_NI_LND, sizeof(struct lnet_ioc_ni), true, false,
	  lnet_ni_set_reserved_zero, lnet_ioc_set_ni_lnd },
	{ IOC_LNET_GET_IF, sizeof(struct lnet_ioc_if), false, true,
	  lnet_if_reserved_zero, lnet_ioc_get_if },
	{ IOC_LIBCFS_ADD_PEER_NI, sizeof(struct lnet_ioc_peer), true, false,
	  lnet_peer_reserved_zero, lnet_ioc_add_peer },
	{ IOC_LIBCFS_DEL_PEER_NI, sizeof(struct lnet_ioc_peer), true, false,
	  lnet_peer_reserved_zero, lnet_ioc_del_peer },
	{ IOC_LIBCFS_GET_PEER_NI, sizeof(struct lnet_ioc_peer), false, false,
	  lnet_peer_reserved_zero, lnet_ioc_get_peer },
	{ IOC_LIBCFS_SET_PEER_STATE, sizeof(struct lnet_ioc_peer), true, false,
	  lnet_peer_reserved_zero, lnet_ioc_set_peer_state },
	{ IOC_LIBCFS_ADD_ROUTE, sizeof(struct lnet_ioc_route), true, false,
	  lnet_route_reserved_zero, lnet_ioc_add_route },
	{ IOC_LIBCFS_DEL_ROUTE, sizeof(struct lnet_ioc_route), true, false,
	  lnet_route_reserved_zero, lnet_ioc_del_route },
	{ IOC_LIBCFS_GET_ROUTE, sizeof(struct lnet_ioc_route), false, false,
	  lnet_route_reserved_zero, lnet_ioc_get_route },
	{ IOC_LIBCFS_CONFIG_RTR, sizeof(struct lnet_ioc_routing), true, false,
	  lnet_routing_reserved_zero, lnet_ioc_config_rtr },
	{ IOC_LIBCFS_ADD_BUF, sizeof(struct lnet_ioc_routing), true, false,
	  lnet_routing_reserved_zero, lnet_ioc_add_buf },
	{ IOC_LIBCFS_GET_BUF, sizeof(struct lnet_ioc_routing), false, false,
	  lnet_routing_reserved_zero, lnet_ioc_get_buf },
	{ IOC_LNET_EXPLAIN, sizeof(struct lnet_ioc_explain), false, false,
	  lnet_explain_reserved_zero, lnet_ioc_explain },
	{ IOC_LNET_GET_RTR_POOLS, sizeof(struct lnet_ioc_rtr_pools), false, false,
	  lnet_rtr_pools_reserved_zero, lnet_ioc_get_rtr_pools },
	{ IOC_LIBCFS_GET_LNET_STATS, sizeof(struct lnet_ioc_stats), false, false,
	  lnet_stats_reserved_zero, lnet_ioc_stats },
	{ IOC_LIBCFS_RESET_LNET_STATS, sizeof(struct lnet_ioc_stats), true, false,
	  lnet_stats_reserved_zero, lnet_ioc_stats },
	{ IOC_LIBCFS_SET_GLOBAL, sizeof(struct lnet_ioc_global), true, false,
	  lnet_global_reserved_zero, lnet_ioc_global },
	{ IOC_LIBCFS_GET_GLOBAL, sizeof(struct lnet_ioc_global), false, false,
	  lnet_global_reserved_zero, lnet_ioc_global },
	{ IOC_LIBCFS_SET_HEALTH, sizeof(struct lnet_ioc_health), true, false,
	  lnet_health_reserved_zero, lnet_ioc_set_health },
	{ IOC_LIBCFS_PING_PEER, sizeof(struct lnet_ioc_ping), false, false,
	  lnet_ping_reserved_zero, lnet_ioc_ping },
	{ IOC_LIBCFS_DISCOVER, sizeof(struct lnet_ioc_ping), true, false,
	  lnet_ping_reserved_zero, lnet_ioc_ping },
	{ IOC_LNET_SELFTEST, sizeof(struct lnet_ioc_selftest), true, false,
	  lnet_selftest_reserved_zero, lnet_ioc_selftest },
	{ IOC_LNET_FAULT_ADD, sizeof(struct lnet_ioc_fault), true, false,
	  lnet_fault_reserved_zero, lnet_ioc_fault },
	{ IOC_LNET_FAULT_DEL, sizeof(struct lnet_ioc_fault), true, false,
	  lnet_fault_reserved_zero, lnet_ioc_fault },
	{ IOC_LNET_FAULT_RESET, sizeof(struct lnet_ioc_fault), true, false,
	  lnet_fault_reserved_zero, lnet_ioc_fault },
	{ IOC_LNET_FAULT_GET, sizeof(struct lnet_ioc_fault), false, false,
	  lnet_fault_reserved_zero, lnet_ioc_fault },
	{ IOC_LNET_LST, sizeof(struct lnet_ioc_lst), true, false,
	  lnet_lst_reserved_zero, lnet_ioc_lst },
};

static const struct lnet_ioc_cmd *lnet_ioc_cmd_in(const struct lnet_ioc_cmd *cmds,
						  unsigned int n, unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (cmds[i].cmd == cmd)
			return &cmds[i];
	return NULL;
}

/* The core's commands, then those of the policy engine (hooks.h). */
static const struct lnet_ioc_cmd *lnet_ioc_cmd_find(const struct lnet *ln,
						    unsigned int cmd)
{
	const struct lnet_ioc_cmd *c;

	c = lnet_ioc_cmd_in(lnet_ioc_cmds, LNET_ARRAY_SIZE(lnet_ioc_cmds), cmd);
	if (!c && ln->ln_hooks)
		c = lnet_ioc_cmd_in(ln->ln_hooks->ioc_cmds,
				    ln->ln_hooks->n_ioc_cmds, cmd);
	return c;
}

bool lnet_ioctl_modifies(const struct lnet *ln, unsigned int cmd)
{
	const struct lnet_ioc_cmd *c = lnet_ioc_cmd_find(ln, cmd);

	return c && c->modifies;
}

/* Every check common to all commands, in the order of lnet_ioctl.h. */
static int lnet_ioc_check(struct lnet *ln, const struct lnet_ioc_cmd *c,
			  const void *buf, u32 len, bool may_modify)
{
	if (len < c->size)
		return -EINVAL;
	if (!c->reserved_zero(buf))
		return -EINVAL;
	if (c->modifies && !may_modify)
		return -EPERM;
	if (!c->when_down && !ln->ln_configured)
		return -ENETDOWN;
	return 0;
}

int lnet_ioctl(struct lnet *ln, unsigned int cmd, void *buf, u32 len,
	       bool may_modify)
{
	const struct lnet_ioc_hdr *hdr = buf;
	const struct lnet_ioc_cmd *c;
	int rc;

	if (!buf || len < sizeof(*hdr) || len > LNET_IOC_MAX_LEN ||
	    hdr->ioc_len != len)
		return -EINVAL;
	if (hdr->ioc_version != LNET_IOC_VERSION)
		return -EPROTO;
	c = lnet_ioc_cmd_find(ln, cmd);
	if (!c)
		return -ENOTTY;

	os_mutex_lock(&ln->ln_api_mutex);
	rc = lnet_ioc_check(ln, c, buf, len, may_modify);
	if (!rc)
		rc = c->handler(ln, cmd, buf, len);
	os_mutex_unlock(&ln->ln_api_mutex);
	return rc;
}
