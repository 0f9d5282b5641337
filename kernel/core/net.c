// SPDX-License-Identifier: GPL-2.0-only
/*
 * Local nets and NIs. An NI is an interface on a net; its NID is the
 * interface's address on that net. The lo net with 0@lo exists while LNet
 * is configured and cannot be added or deleted by users.
 */
#include "lnet_priv.h"
#include "../udsp/udsp.h"

struct lnet_tun_range {
	s32 min, max, def;
};

/* Allowed ranges (lnet_ioctl.h) and defaults, in lnet_ni_tunables order. */
static const struct lnet_tun_range lnet_tun_ranges[] = {
	{ 0, 86400, LNET_DEF_PEER_TIMEOUT },
	{ 1, 1024, LNET_DEF_PEER_CREDITS },
	{ 0, 16384, LNET_DEF_PEER_BUF_CREDITS },
	{ 1, 65536, LNET_DEF_CREDITS },
};

static s32 *lnet_tun_field(struct lnet_ni_tunables *t, unsigned int i)
{
	s32 *f[] = { &t->peer_timeout, &t->peer_credits,
		     &t->peer_buffer_credits, &t->credits };

	return f[i];
}

/* Check @in (NULL = all defaults) and resolve every -1 into @out. */
static int lnet_tunables_resolve(const struct lnet_ni_tunables *in,
				 struct lnet_ni_tunables *out)
{
	unsigned int i;

	if (in)
		*out = *in;
	else
		memset(out, 0xff, sizeof(*out));	/* every field -1 */
	for (i = 0; i < sizeof(lnet_tun_ranges) / sizeof(lnet_tun_ranges[0]); i++) {
		const struct lnet_tun_range *r = &lnet_tun_ranges[i];
		s32 *v = lnet_tun_field(out, i);

		if (*v == -1)
			*v = r->def;
		else if (*v < r->min || *v > r->max)
			return -EINVAL;
	}
	return 0;
}

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
	ni->ni_health = LNET_MAX_HEALTH;
	return ni;
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
	ni = lnet_ni_alloc(ln);
	if (!net || !ni) {
		lnet_obj_free(ln, net);
		lnet_obj_free(ln, ni);
		return -ENOMEM;
	}
	/* lo has no peers and no buffers: its tunables are all 0 (as Lustre). */
	lnet_nid_make(&ni->ni_nid, net->net_id, zero, sizeof(zero));
	ni->ni_status = LNET_NI_STATUS_UP;
	list_add(&net->net_list, &ln->ln_nets);
	lnet_ni_attach(net, ni);
	lnet_udsp_apply_net(ln, net);
	lnet_udsp_apply_ni(ln, ni);
	return 0;
}

/* Arguments of an NI add that can be checked without the interface. */
static int lnet_ni_add_check(struct lnet *ln, u32 net_id, const char *ifname,
			     size_t *namelen)
{
	u32 lnd = LNET_NET_LND(net_id);
	struct lnet_net *net;

	if (lnd == LNET_LND_LO || !lnet_lnd_is_ip(lnd))
		return -EINVAL;
	if (!ifname || !ifname[0])
		return -EINVAL;
	*namelen = strlen(ifname);
	if (*namelen >= LNET_IFNAME_LEN)
		return -EINVAL;
	net = lnet_net_find(ln, net_id);
	if (net && lnet_ni_find_ifname(net, ifname))
		return -EEXIST;
	return 0;
}

int lnet_ni_add(struct lnet *ln, u32 net_id, const char *ifname,
		const struct lnet_ni_tunables *tun)
{
	struct lnet_ni_tunables rtun;
	struct os_ifaddr ifa = { 0 };
	struct lnet_net *net, *new_net = NULL;
	struct lnet_ni *ni;
	struct lnet_nid nid;
	size_t namelen;
	int rc;

	rc = lnet_ni_add_check(ln, net_id, ifname, &namelen);
	if (!rc)
		rc = lnet_tunables_resolve(tun, &rtun);
	if (!rc)
		rc = ln->ln_if_lookup(ifname, &ifa);
	if (rc)
		return rc;
	if (ifa.addr_len != 4 && ifa.addr_len != 16)
		return -EADDRNOTAVAIL;
	lnet_nid_make(&nid, net_id, ifa.addr, ifa.addr_len);
	/* our NID, or a peer's: a NID names one node */
	if (lnet_ni_find(ln, &nid) || lnet_peer_ni_find(ln, &nid))
		return -EEXIST;

	net = lnet_net_find(ln, net_id);
	if (!net) {
		net = new_net = lnet_net_alloc(ln, net_id);
		if (!net)
			return -ENOMEM;
	}
	ni = lnet_ni_alloc(ln);
	if (!ni) {
		lnet_obj_free(ln, new_net);
		return -ENOMEM;
	}
	ni->ni_nid = nid;
	memcpy(ni->ni_ifname, ifname, namelen + 1);
	ni->ni_tun = rtun;
	ni->ni_tx_credits = rtun.credits;
	ni->ni_status = ifa.up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;

	if (new_net) {
		list_add_tail(&new_net->net_list, &ln->ln_nets);
		lnet_udsp_apply_net(ln, new_net);
	}
	lnet_ni_attach(net, ni);
	lnet_udsp_apply_ni(ln, ni);
	lnet_udsp_local_changed(ln);
	return 0;
}

static void lnet_ni_free(struct lnet *ln, struct lnet_ni *ni)
{
	list_del(&ni->ni_list);
	lnet_obj_free(ln, ni);
}

static void lnet_net_free(struct lnet *ln, struct lnet_net *net)
{
	struct lnet_ni *ni, *tmp;

	list_for_each_entry_safe(ni, tmp, &net->net_nis, ni_list)
		lnet_ni_free(ln, ni);
	list_del(&net->net_list);
	lnet_obj_free(ln, net);
}

int lnet_net_del(struct lnet *ln, u32 net_id, const char *ifname)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (LNET_NET_LND(net_id) == LNET_LND_LO)
		return -EINVAL;
	net = lnet_net_find(ln, net_id);
	if (!net)
		return -ENOENT;
	if (ifname && ifname[0]) {
		ni = lnet_ni_find_ifname(net, ifname);
		if (!ni)
			return -ENOENT;
		lnet_ni_free(ln, ni);
	}
	if (!ifname || !ifname[0] || list_empty(&net->net_nis))
		lnet_net_free(ln, net);
	lnet_udsp_local_changed(ln);
	return 0;
}

void lnet_nets_destroy(struct lnet *ln)
{
	struct lnet_net *net, *tmp;

	list_for_each_entry_safe(net, tmp, &ln->ln_nets, net_list)
		lnet_net_free(ln, net);
}
