// SPDX-License-Identifier: GPL-2.0-only
/*
 * Local nets and NIs. An NI is an interface on a net; its NID is the
 * interface's address on that net. The lo net with 0@lo exists while LNet
 * is configured and cannot be added or deleted by users.
 */
#include "lnet_priv.h"
#include "validate.h"

struct lnet_net *lnet_net_find(struct lnet *ln, u32 net_id)
{
	struct lnet_net *net;

	list_for_each_entry(net, &ln->ln_nets, net_list)
		if (net->net_id == net_id)
			return net;
	return NULL;
}

struct lnet_ni *lnet_ni_find(struct lnet *ln, const struct lnet_nid *nid)
{
	struct lnet_net *net = lnet_net_find(ln, lnet_nid_net(nid));
	struct lnet_ni *ni;

	if (!net)
		return NULL;
	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (lnet_nid_equal(&ni->ni_nid, nid))
			return ni;
	return NULL;
}

static struct lnet_ni *lnet_ni_find_ifname(struct lnet_net *net,
					   const char *ifname)
{
	struct lnet_ni *ni;

	list_for_each_entry(ni, &net->net_nis, ni_list)
		if (strcmp(ni->ni_ifname, ifname) == 0)
			return ni;
	return NULL;
}

static struct lnet_net *lnet_net_alloc(struct lnet *ln, u32 net_id)
{
	struct lnet_net *net = lnet_obj_alloc(ln, sizeof(*net));

	if (!net)
		return NULL;
	net->net_id = net_id;
	net->net_sel_priority = LNET_PRIORITY_UNSET;
	INIT_LIST_HEAD(&net->net_nis);
	return net;
}

static struct lnet_ni *lnet_ni_alloc(struct lnet *ln)
{
	struct lnet_ni *ni = lnet_obj_alloc(ln, sizeof(*ni));

	if (!ni)
		return NULL;
	ni->ni_sel_priority = LNET_PRIORITY_UNSET;
	lnet_sock_tunables_unset(&ni->ni_lnd_tun);
	INIT_LIST_HEAD(&ni->ni_txq);
	lnet_health_init(&ni->ni_health, LNET_KIND_NI);
	return ni;
}

/*
 * Bring @ni up in its LND when one of its type is registered (else the NI
 * is configuration only and sends through it fail at once).
 */
static int lnet_ni_startup(struct lnet *ln, struct lnet_ni *ni)
{
	const struct lnet_lnd *lnd = lnet_lnd_find(ln, ni->ni_nid.nid_lnd);
	int rc;

	ni->ni_min_tx_credits = ni->ni_tx_credits;
	if (!lnd)
		return 0;
	if (lnd->lnd_startup) {
		rc = lnd->lnd_startup(ln, ni);
		/*
		 * An address family its wire cannot carry (-EAFNOSUPPORT): the NI
		 * is kept as configuration only, like one without an LND.
		 */
		if (rc == -EAFNOSUPPORT) {
			os_warn("NI on %s: its LND cannot carry this address family; configuration only\n",
				ni->ni_ifname);
			ni->ni_family_refused = true;
			return 0;
		}
		if (rc)
			return rc;
	}
	ni->ni_lnd = lnd;
	return 0;
}

/*
 * The LND types this code base has an LND for: lo, and tcp (the socket
 * LND; lnet.ko's comes with a later issue, its tcp NIs are configuration
 * only meanwhile and keep showing their link). Others (o2ib, gni, kfi...)
 * are kept for Lustre's files but carry nothing.
 */
static bool lnet_lnd_type_carried(u32 lnd_type)
{
	return lnd_type == LNET_LND_LO || lnd_type == LNET_LND_TCP;
}

bool lnet_lnd_carries_family(u32 lnd_type, u8 addr_len)
{
	if (lnd_type == LNET_LND_TCP)	/* hello V3 on IPv4, V4 on IPv6 */
		return addr_len == 4 || addr_len == 16;
	return lnet_lnd_type_carried(lnd_type);
}

u32 lnet_ni_down_reason(const struct lnet_ni *ni)
{
	if (ni->ni_lnd)		/* an LND runs it: its link decides */
		return ni->ni_status == LNET_NI_STATUS_UP ? LNET_NI_DOWN_NONE : LNET_NI_DOWN_LINK;
	if (!lnet_lnd_type_carried(ni->ni_nid.nid_lnd))
		return LNET_NI_DOWN_NO_LND;
	if (ni->ni_family_refused ||
	    !lnet_lnd_carries_family(ni->ni_nid.nid_lnd, ni->ni_nid.nid_addr_len))
		return LNET_NI_DOWN_FAMILY;
	return ni->ni_status == LNET_NI_STATUS_UP ? LNET_NI_DOWN_NONE : LNET_NI_DOWN_LINK;
}

void lnet_ni_log(const struct lnet_ni *ni, const char *what)
{
	char nid[LNET_NID_STR_MAX];

	if (lnet_nid_print(&ni->ni_nid, nid, sizeof(nid)) < 0)
		snprintf(nid, sizeof(nid), "?");
	os_info("NI %s (%s) %s\n", nid, ni->ni_ifname, what);
}

static void lnet_ni_attach(struct lnet_net *net, struct lnet_ni *ni)
{
	ni->ni_net = net;
	list_add_tail(&ni->ni_list, &net->net_nis);
}

int lnet_lo_net_create(struct lnet *ln)
{
	static const u8 zero[4];
	struct lnet_net *net;
	struct lnet_ni *ni;

	net = lnet_net_alloc(ln, LNET_NET_ID(LNET_LND_LO, 0));
	if (!net)
		return -ENOMEM;
	ni = lnet_ni_alloc(ln);
	if (!ni)
		goto err_net;
	/* lo has no peers and no buffers: its tunables are all 0 (as Lustre). */
	lnet_nid_make(&ni->ni_nid, net->net_id, zero, sizeof(zero));
	ni->ni_status = LNET_NI_STATUS_UP;
	if (lnet_ni_startup(ln, ni))
		goto err_ni;
	list_add(&net->net_list, &ln->ln_nets);
	lnet_ni_attach(net, ni);
	lnet_hook(ln, net_added, net);
	lnet_hook(ln, ni_added, ni);
	return 0;

err_ni:
	lnet_obj_free(ln, ni);
err_net:
	lnet_obj_free(ln, net);
	return -ENOMEM;
}

/*
 * Arguments of an NI add that can be checked without the interface: those
 * of validate.c (libcfg checks them too), then no NI on @ifname yet.
 */
static int lnet_ni_add_args(struct lnet *ln, u32 net_id, const char *ifname,
			    const struct lnet_ni_tunables *tun,
			    const struct lnet_sock_tunables *lnd_tun)
{
	struct lnet_net *net;
	int rc = lnet_ni_add_check(net_id, ifname, tun, NULL);

	if (!rc)
		rc = lnet_ni_lnd_tun_check(net_id, lnd_tun, NULL);

	if (rc)
		return rc;
	net = lnet_net_find(ln, net_id);
	if (net && lnet_ni_find_ifname(net, ifname))
		return -EEXIST;
	return 0;
}

/*
 * Put a started @ni (and its net @new_net, if new) on the lists, and tell
 * the log, the policy engine, the ping target and the monitor.
 */
static void lnet_ni_publish(struct lnet *ln, struct lnet_net *net,
			    struct lnet_net *new_net, struct lnet_ni *ni)
{
	if (new_net) {
		list_add_tail(&new_net->net_list, &ln->ln_nets);
		lnet_hook(ln, net_added, new_net);
	}
	lnet_ni_attach(net, ni);
	lnet_ni_log(ni, ni->ni_status == LNET_NI_STATUS_UP ? "added, up" :
		    "added, down");
	lnet_hook(ln, ni_added, ni);
	lnet_hook(ln, local_changed);
	lnet_ping_target_update(ln);
	if (ni->ni_lnd)
		lnet_dp_monitor_ensure(ln);
}

/*
 * conns_per_peer for a link of @mbps Mb/s when it is 0 or unset, Lustre's
 * rule: one, plus one for every fourfold of speed above 1 Gb/s (half the
 * base-2 logarithm of the speed in Gb/s), so 10 Gb/s (veth) gives 2,
 * 100 Gb/s 4. A device that tells no speed counts as 1 Gb/s.
 */
s32 lnet_conns_per_peer_for_speed(u32 mbps)
{
	u32 gbps = mbps < 1000 ? 1 : mbps / 1000;
	s32 log2 = 0;

	while (gbps >>= 1)
		log2++;
	return log2 / 2 + 1;
}

/*
 * The LND tunables an NI keeps: as asked (-1 = unset), except that a tcp
 * NI's conns_per_peer 0 ("the LND chooses") and -1 become the number the
 * link speed @mbps gives (Lustre's default), the value in force.
 * Other LNDs have none here: all -1.
 */
static void lnet_ni_lnd_tun_resolve(struct lnet_sock_tunables *t, u32 net_id,
				    const struct lnet_sock_tunables *asked, u32 mbps)
{
	if (asked)
		*t = *asked;
	else
		lnet_sock_tunables_unset(t);
	if (LNET_NET_LND(net_id) == LNET_LND_TCP && t->conns_per_peer <= 0)
		t->conns_per_peer = lnet_conns_per_peer_for_speed(mbps);
}

/* The link speed of @ni's interface now (0: unknown, or no interface). */
static u32 lnet_ni_speed(struct lnet *ln, const struct lnet_ni *ni)
{
	struct os_ifaddr ifa = { 0 };

	return ln->ln_if_lookup(ni->ni_ifname, &ifa) ? 0 : ifa.speed_mbps;
}

/* The NIs a SET_NI_LND names: @nid's, else @net_id's, else every tcp NI. */
static bool lnet_ni_lnd_set_names(const struct lnet_ni *ni, u32 net_id,
				  const struct lnet_nid *nid)
{
	if (nid)
		return lnet_nid_equal(&ni->ni_nid, nid);
	if (net_id)
		return ni->ni_net->net_id == net_id;
	return ni->ni_nid.nid_lnd == LNET_LND_TCP;
}

/* The log's line for an in-place change: every row's value now (-1: the default). */
static void lnet_ni_lnd_log(const struct lnet_ni *ni)
{
	char what[128];
	int n = snprintf(what, sizeof(what), "lnd tunables changed:");
	u32 i;

	for (i = 0; i < __LNET_SOCK_TUN_MAX && n > 0 && (size_t)n < sizeof(what); i++)
		n += snprintf(what + n, sizeof(what) - (size_t)n, " %s %d",
			      lnet_sock_tun_ranges[i].name, lnet_sock_tun_get(&ni->ni_lnd_tun, i));
	lnet_ni_log(ni, what);
}

static void lnet_ni_lnd_set_one(struct lnet *ln, struct lnet_ni *ni,
				const struct lnet_sock_tunables *t, u32 rows)
{
	struct lnet_sock_tunables cur = ni->ni_lnd_tun;
	u32 i;

	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++)
		if (rows & LNET_NI_LND_ROW(i))
			*lnet_sock_tun_ref(&cur, i) = lnet_sock_tun_get(t, i);
	lnet_ni_lnd_tun_resolve(&ni->ni_lnd_tun, ni->ni_net->net_id, &cur,
				lnet_ni_speed(ln, ni));
	lnet_ni_lnd_log(ni);
}

int lnet_ni_lnd_set(struct lnet *ln, u32 net_id, const struct lnet_nid *nid,
		    const struct lnet_sock_tunables *t, u32 rows)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	u32 n = 0;
	int rc;

	if (nid) {
		ni = lnet_ni_find(ln, nid);
		if (!ni)
			return -ENOENT;
		net_id = ni->ni_net->net_id;
	}
	/* the whole check first: the NIs named change all, or none does */
	rc = lnet_ni_lnd_set_check(net_id ? net_id : LNET_NET_ID(LNET_LND_TCP, 0), t, rows,
				   NULL);
	if (rc)
		return rc;
	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (lnet_ni_lnd_set_names(ni, net_id, nid)) {
				lnet_ni_lnd_set_one(ln, ni, t, rows);
				n++;
			}
	return n ? 0 : -ENOENT;
}

void lnet_ni_lnd_tun_report(struct lnet *ln, const struct lnet_ni *ni,
			    struct lnet_sock_tunables *out, u32 *flags)
{
	*out = ni->ni_lnd_tun;
	*flags = 0;
	if (ni->ni_nid.nid_lnd != LNET_LND_TCP)
		return;
	*flags = LNET_NI_F_LND_TUN;
	if (out->timeout == -1) {
		*flags |= LNET_NI_F_LND_TIMEOUT_DEF;
		u32 t = 0;

		lnet_global_get(ln, LNET_GLOBAL_LND_TIMEOUT, &t);
		out->timeout = (s32)t;
	}
}

u64 lnet_ni_lnd_timeout_ns(struct lnet *ln, const struct lnet_ni *ni)
{
	if (ni->ni_lnd_tun.timeout > 0)
		return (u64)ni->ni_lnd_tun.timeout * 1000000000ULL;
	return lnet_lnd_timeout_ns(ln);
}

const u8 *lnet_ifaddr_of_len(const struct os_ifaddr *ifa, u8 len)
{
	if (len == 4 && ifa->has4)
		return ifa->addr4;
	if (len == 16 && ifa->has6)
		return ifa->addr6;
	/* a lookup that tells its one address only (the unit tests' fakes) */
	return ifa->addr_len == len ? ifa->addr : NULL;
}

/* @ifa's address of length @first (4 or 16), else of the other length. */
static u8 lnet_ifaddr_first(const struct os_ifaddr *ifa, u8 first, const u8 **addr)
{
	u8 other = first == 4 ? 16 : 4;

	*addr = lnet_ifaddr_of_len(ifa, first);
	if (*addr)
		return first;
	*addr = lnet_ifaddr_of_len(ifa, other);
	return *addr ? other : 0;
}

/*
 * The NID of a new NI of @net_id on the interface @ifa: @want when one of
 * the interface's addresses makes it (-ENXIO otherwise); without @want,
 * its IPv6 address first when large NIDs are on, else its IPv4 one first.
 */
static int lnet_ni_nid_pick(const struct lnet *ln, u32 net_id,
			    const struct os_ifaddr *ifa, const struct lnet_nid *want,
			    struct lnet_nid *nid)
{
	const u8 *addr;
	u8 len;

	if (want) {
		addr = lnet_ifaddr_of_len(ifa, want->nid_addr_len);
		if (!addr)
			return -ENXIO;
		lnet_nid_make(nid, net_id, addr, want->nid_addr_len);
		return lnet_nid_equal(want, nid) ? 0 : -ENXIO;
	}
	len = lnet_ifaddr_first(ifa, ln->ln_large_nids ? 16 : 4, &addr);
	if (!len)
		return -EADDRNOTAVAIL;
	lnet_nid_make(nid, net_id, addr, len);
	return 0;
}

int lnet_ni_add(struct lnet *ln, u32 net_id, const char *ifname,
		const struct lnet_ni_tunables *tun)
{
	return lnet_ni_add_lnd(ln, net_id, ifname, tun, NULL, NULL);
}

int lnet_ni_add_lnd(struct lnet *ln, u32 net_id, const char *ifname,
		    const struct lnet_ni_tunables *tun,
		    const struct lnet_sock_tunables *lnd_tun,
		    const struct lnet_nid *want)
{
	struct lnet_ni_tunables rtun;
	struct os_ifaddr ifa = { 0 };
	struct lnet_net *net, *new_net = NULL;
	struct lnet_ni *ni;
	struct lnet_nid nid;
	int rc;

	if (tun)
		rtun = *tun;
	else
		lnet_ni_tunables_unset(&rtun);	/* all defaults */
	rc = lnet_ni_add_args(ln, net_id, ifname, &rtun, lnd_tun);
	if (!rc)
		rc = ln->ln_if_lookup(ifname, &ifa);
	if (rc)
		return rc;
	lnet_ni_tunables_fill(&rtun);
	/* a configuration naming the NID: the interface must still make it */
	rc = lnet_ni_nid_pick(ln, net_id, &ifa, want, &nid);
	if (rc)
		return rc;
	/*
	 * our NID, or another node's peer NI: a NID names one node (this
	 * node as its own peer keeps a NID of a net deleted since)
	 */
	if (lnet_ni_find(ln, &nid) || lnet_nid_of_other_node(ln, &nid))
		return -EADDRINUSE;

	net = lnet_net_find(ln, net_id);
	if (!net) {
		net = new_net = lnet_net_alloc(ln, net_id);
		if (!net)
			return -ENOMEM;
	}
	ni = lnet_ni_alloc(ln);
	if (!ni) {
		rc = -ENOMEM;
		goto err_net;
	}
	ni->ni_nid = nid;
	memcpy(ni->ni_ifname, ifname, strlen(ifname) + 1);
	ni->ni_tun = rtun;
	lnet_ni_lnd_tun_resolve(&ni->ni_lnd_tun, net_id, lnd_tun, ifa.speed_mbps);
	ni->ni_tx_credits = rtun.credits;
	ni->ni_status = ifa.up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	ni->ni_net = net;
	rc = lnet_ni_startup(ln, ni);
	if (rc)
		goto err_ni;
	lnet_ni_publish(ln, net, new_net, ni);
	return 0;

err_ni:
	lnet_obj_free(ln, ni);
err_net:
	lnet_obj_free(ln, new_net);	/* NULL: the net was there before */
	return rc;
}

/*
 * Take @ni down: no longer selected, its queued messages failed, its LND
 * shut down with the lock dropped (the LND finalizes what it holds), and
 * no message left pointing at it. Once only; the NI stays allocated.
 */
static void lnet_ni_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	const struct lnet_lnd *lnd = ni->ni_lnd;

	if (ni->ni_dying)
		return;
	ni->ni_dying = true;
	lnet_txq_fail(ln, ni, NULL, -ENETDOWN);
	/* while the LND still has their connections to discard from */
	lnet_fwd_forget_ni(ln, ni);
	lnet_fault_forget_ni(ln, ni);
	lnet_finalize_run(ln);
	if (lnd && lnd->lnd_shutdown) {
		os_mutex_unlock(&ln->ln_api_mutex);
		lnd->lnd_shutdown(ln, ni);
		os_mutex_lock(&ln->ln_api_mutex);
	}
	ni->ni_lnd = NULL;
	lnet_msgs_forget_ni(ln, ni);
}

/* Shut down and free an NI already taken out of its net's list. */
static void lnet_ni_destroy(struct lnet *ln, struct lnet_ni *ni)
{
	if (!lnet_nid_is_lo(&ni->ni_nid))	/* lo comes and goes unlogged */
		lnet_ni_log(ni, "deleted");
	lnet_ni_shutdown(ln, ni);
	/* failures finalized during the shutdown may have queued it again */
	lnet_health_fini(&ni->ni_health);
	lnet_obj_free(ln, ni);
}

/* Shut down and free a net already taken out of ln_nets. */
static void lnet_net_destroy(struct lnet *ln, struct lnet_net *net)
{
	struct lnet_ni *ni;

	while (!list_empty(&net->net_nis)) {
		ni = list_first_entry(&net->net_nis, struct lnet_ni, ni_list);
		list_del_init(&ni->ni_list);
		lnet_ni_destroy(ln, ni);
	}
	lnet_obj_free(ln, net);
}

int lnet_net_del(struct lnet *ln, u32 net_id, const char *ifname)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (lnet_net_del_check(net_id, NULL))
		return -EINVAL;
	net = lnet_net_find(ln, net_id);
	if (!net)
		return -ENOENT;
	/* out of every list before the lock is dropped for the LND */
	ni = NULL;
	if (ifname && ifname[0]) {
		ni = lnet_ni_find_ifname(net, ifname);
		if (!ni)
			return -ENOENT;
		list_del_init(&ni->ni_list);
	}
	if (!ni || list_empty(&net->net_nis))
		list_del(&net->net_list);
	else
		net = NULL;		/* the net stays */
	if (ni)
		lnet_ni_destroy(ln, ni);
	if (net)
		lnet_net_destroy(ln, net);
	lnet_hook(ln, local_changed);
	lnet_ping_target_update(ln);
	return 0;
}

void lnet_nets_shutdown(struct lnet *ln)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

again:
	/* the lock is dropped in each shutdown: walk again from the start */
	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (!ni->ni_dying) {
				lnet_ni_shutdown(ln, ni);
				goto again;
			}
}

void lnet_nets_destroy(struct lnet *ln)
{
	struct lnet_net *net;

	while (!list_empty(&ln->ln_nets)) {
		net = list_first_entry(&ln->ln_nets, struct lnet_net, net_list);
		list_del(&net->net_list);
		lnet_net_destroy(ln, net);
	}
}
