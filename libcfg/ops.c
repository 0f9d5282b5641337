// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Operations, part one: the messages every command shares (and the text
 * of NIDs, nets and expressions they and <lnet/cfg.h>'s users print), LNet
 * configure/unconfigure, and nets (one NI per interface).
 */
#include <string.h>

#include "ops_priv.h"

const char *cfg_nid_str(const struct lnet_nid *nid, char *buf, size_t len)
{
	if (lnet_nid_print(nid, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

const char *cfg_net_str(u32 net_id, char *buf, size_t len)
{
	if (lnet_net_print(net_id, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

const char *cfg_nidexpr_str(const struct lnet_nidexpr *e, char *buf, size_t len)
{
	if (lnet_nidexpr_print(e, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

bool cfg_nidexpr_match_nid(const struct lnet_nidexpr *e, const struct lnet_nid *nid)
{
	return lnet_nidexpr_match_nid(e, nid);
}

static bool is_dev(const struct cfg_handle *h)
{
	return !strcmp(cfg_target(h), CFG_DEV_PATH);
}

int cfg_ioc_fail(struct cfg_handle *h, int rc, struct cfg_err *err,
		 const struct cfg_loc *loc, const char *doing)
{
	const char *to = cfg_target(h);

	if (cfg_unreachable(h) && is_dev(h))
		return cfg_fail(err, rc, loc, "cannot open %s: %s", to, strerror(-rc));
	if (cfg_unreachable(h))
		return cfg_fail(err, rc, loc, "cannot reach lnetd at %s: %s",
				to, strerror(-rc));
	switch (rc) {
	case -ENETDOWN:
		return cfg_fail(err, rc, loc,
				"LNet is not configured: run 'lnetctl lnet configure'");
	case -EPERM:
		/* lnetd asks what /dev/lnet asks: one message for both */
		return cfg_fail(err, rc, loc,
				"%s: permission denied: configuring LNet needs CAP_NET_ADMIN",
				doing);
	case -EPROTO:
		return cfg_fail(err, rc, loc,
				"%s: %s speaks another version of the LNet ABI (want %#x)",
				doing, to, LNET_IOC_VERSION);
	case -ENOMEM:
		return cfg_fail(err, rc, loc, "%s: LNet is out of memory", doing);
	case -EINTR:
		return cfg_fail(err, rc, loc, "%s: interrupted", doing);
	default:
		return cfg_fail(err, rc, loc, "%s: %s", doing, strerror(-rc));
	}
}

/* --- LNet ------------------------------------------------------------------ */

static int lnet_config_cmd(struct cfg_handle *h, unsigned int cmd, u32 flags,
			   const char *doing, struct cfg_err *err)
{
	struct lnet_ioc_config c = { .cfg_hdr.ioc_len = sizeof(c), .cfg_flags = flags };
	int rc = cfg_ioctl(h, cmd, &c);

	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_lnet_configure(struct cfg_handle *h, struct cfg_err *err)
{
	return cfg_lnet_configure_flags(h, 0, err);
}

int cfg_lnet_configure_flags(struct cfg_handle *h, uint32_t flags, struct cfg_err *err)
{
	if (lnet_configure_check(flags, NULL))
		return cfg_fail(err, -EINVAL, NULL,
				"cannot configure LNet: flags %#x: expected 0 or LNET_CONFIG_F_LARGE_NIDS (%#x)",
				flags, LNET_CONFIG_F_LARGE_NIDS);
	return lnet_config_cmd(h, IOC_LIBCFS_CONFIGURE, flags, "cannot configure LNet", err);
}

int cfg_lnet_unconfigure(struct cfg_handle *h, struct cfg_err *err)
{
	return lnet_config_cmd(h, IOC_LIBCFS_UNCONFIGURE, 0, "cannot unconfigure LNet", err);
}

/* --- nets ---------------------------------------------------------------------- */

static void ni_request(struct lnet_ioc_ni *ni, u32 net_id, const char *ifname)
{
	memset(ni, 0, sizeof(*ni));
	ni->ni_hdr.ioc_len = sizeof(*ni);
	ni->ni_net = net_id;
	if (ifname)
		snprintf(ni->ni_ifname, sizeof(ni->ni_ifname), "%s", ifname);
	lnet_ni_tunables_unset(&ni->ni_tun);
	lnet_sock_tunables_unset(&ni->ni_lnd_tun);
}

int cfg_ni_get(struct cfg_handle *h, u32 index, u32 net_id, struct lnet_ioc_ni *out)
{
	ni_request(out, net_id, NULL);
	out->ni_index = index;
	return cfg_ioctl(h, IOC_LIBCFS_GET_NET, out);
}

/* The message for what lnet_ni_add_check() refused (on @ifname). */
static int net_add_bad(const struct cfg_net *n, const char *net, const char *ifname,
		       const struct lnet_bad *bad, struct cfg_err *err)
{
	const struct lnet_range *r = &lnet_ni_tun_ranges[bad->field];

	switch (bad->why) {
	case LNET_BAD_LO_NET:
		return cfg_fail(err, -EINVAL, &n->loc,
				"net lo cannot be added: 'lnetctl lnet configure' creates 0@lo");
	case LNET_BAD_LND:
		return cfg_fail(err, -EINVAL, &n->loc,
				"net %s cannot be added: only tcp, o2ib and efa nets run on an interface",
				net);
	case LNET_BAD_IFNAME:
		if (!n->nifs)
			return cfg_fail(err, -EINVAL, &n->loc,
					"net %s needs at least one interface", net);
		return cfg_fail(err, -EINVAL, &n->loc,
				"invalid interface '%s': expected 1-%d characters",
				ifname, LNET_IFNAME_LEN - 1);
	}
	return cfg_fail(err, -EINVAL, &n->loc, "invalid %s '%d': expected an integer %d-%d",
			r->name, lnet_ni_tun_get(&n->tun, bad->field), r->min, r->max);
}

/* The message for what lnet_ni_lnd_tun_check() refused. */
static int lnd_tun_bad(const struct cfg_net *n, const char *net,
		       const struct lnet_bad *bad, struct cfg_err *err)
{
	const struct lnet_range *r = &lnet_sock_tun_ranges[bad->field];

	if (bad->why == LNET_BAD_LND_NET)
		return cfg_fail(err, -EINVAL, &n->loc,
				"net %s takes no LND tunables: only tcp nets have an LND here",
				net);
	return cfg_fail(err, -EINVAL, &n->loc,
			"invalid lnd tunable %s '%d': expected an integer %d-%d",
			r->name, lnet_sock_tun_get(&n->lnd_tun, bad->field), r->min, r->max);
}

/*
 * The LND tunables an NI of @n is added with: tcp's; none on o2ib (its
 * keys are accepted and dropped, no o2ib LND runs here); on other nets
 * those given, for lnet_ni_lnd_tun_check() to refuse.
 */
static const struct lnet_sock_tunables *ni_lnd_tun(const struct cfg_net *n)
{
	u32 lnd = LNET_NET_LND(n->net_id), i;

	if (lnd == LNET_LND_TCP)
		return &n->lnd_tun;
	for (i = 0; lnd != LNET_LND_O2IB && i < __LNET_SOCK_TUN_MAX; i++)
		if (lnet_sock_tun_get(&n->lnd_tun, i) != -1)
			return &n->lnd_tun;
	return NULL;
}

/* A NID named for the NI: on the net, and for one interface. */
static int net_add_nid_check(const struct cfg_net *n, const char *net,
			     struct cfg_err *err)
{
	char nid[LNET_NID_STR_MAX];

	cfg_nid_str(&n->nid, nid, sizeof(nid));
	if (lnet_nid_net(&n->nid) != n->net_id)
		return cfg_fail(err, -EINVAL, &n->loc, "NID '%s' is not on net %s", nid, net);
	if (n->nifs > 1)
		return cfg_fail(err, -EINVAL, &n->loc,
				"NID '%s' names one NI: give one interface, not %u", nid, n->nifs);
	return 0;
}

static int lnd_tun_check(const struct cfg_net *n, const char *net, struct cfg_err *err)
{
	struct lnet_bad bad;

	if (lnet_ni_lnd_tun_check(n->net_id, ni_lnd_tun(n), &bad))
		return lnd_tun_bad(n, net, &bad, err);
	return 0;
}

/* LNet's own checks of each NI (validate.c), before the first is added. */
static int net_add_check(const struct cfg_net *n, const char *net,
			 struct cfg_err *err)
{
	struct lnet_bad bad;
	u32 i = 0;
	int rc;

	do {
		const char *ifname = n->nifs ? n->ifnames[i] : "";

		if (lnet_ni_add_check(n->net_id, ifname, &n->tun, &bad))
			return net_add_bad(n, net, ifname, &bad, err);
	} while (++i < n->nifs);
	rc = lnd_tun_check(n, net, err);
	if (!rc && n->nid.nid_lnd)
		rc = net_add_nid_check(n, net, err);
	return rc;
}


static int ni_add_fail(struct cfg_handle *h, const struct cfg_net *n,
		       const char *ifname, const char *net, int rc,
		       struct cfg_err *err)
{
	char doing[96];

	snprintf(doing, sizeof(doing), "cannot add net %s on interface '%s'", net, ifname);
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &n->loc, doing);
	switch (rc) {
	case -ENODEV:
		return cfg_fail(err, rc, &n->loc, "interface '%s' does not exist", ifname);
	case -EADDRNOTAVAIL:
		return cfg_fail(err, rc, &n->loc,
				"interface '%s' has no address usable as a NID (loopback and link-local addresses are not NIDs)",
				ifname);
	case -EEXIST:
		return cfg_fail(err, rc, &n->loc,
				"net %s already has an NI on interface '%s'", net, ifname);
	case -EADDRINUSE:
		return cfg_fail(err, rc, &n->loc,
				"the address of interface '%s' on net %s is already a NID (of another NI or of a peer)",
				ifname, net);
	case -ENXIO: {
		char nid[LNET_NID_STR_MAX];

		return cfg_fail(err, rc, &n->loc,
				"NID '%s' is not the address of interface '%s'",
				cfg_nid_str(&n->nid, nid, sizeof(nid)), ifname);
	}
	}
	return cfg_ioc_fail(h, rc, err, &n->loc, doing);
}

static int ni_add(struct cfg_handle *h, const struct cfg_net *n, const char *ifname)
{
	struct lnet_ioc_ni ni;

	ni_request(&ni, n->net_id, ifname);
	ni.ni_tun = n->tun;
	ni.ni_nid = n->nid;
	if (ni_lnd_tun(n)) {
		ni.ni_flags = LNET_NI_F_LND_TUN;
		ni.ni_lnd_tun = n->lnd_tun;
	}
	return cfg_ioctl(h, IOC_LIBCFS_ADD_NET, &ni);
}

static int ni_del(struct cfg_handle *h, u32 net_id, const char *ifname)
{
	struct lnet_ioc_ni ni;

	ni_request(&ni, net_id, ifname);
	return cfg_ioctl(h, IOC_LIBCFS_DEL_NET, &ni);
}

int cfg_if_get(struct cfg_handle *h, u32 index, u8 want_len, struct lnet_ioc_if *out)
{
	memset(out, 0, sizeof(*out));
	out->if_hdr.ioc_len = sizeof(*out);
	out->if_index = index;
	out->if_want_len = want_len;
	return cfg_ioctl(h, IOC_LNET_GET_IF, out);
}

int cfg_if_of_nid(struct cfg_handle *h, const struct lnet_nid *nid,
		  const struct cfg_loc *loc, char *ifname, struct cfg_err *err)
{
	char str[LNET_NID_STR_MAX];
	struct lnet_ioc_if f;
	u32 i;
	int rc;

	for (i = 0;; i++) {
		rc = cfg_if_get(h, i, nid->nid_addr_len, &f);
		if (rc == -ENOENT)
			break;
		if (rc)
			return cfg_ioc_fail(h, rc, err, loc, "cannot list the interfaces");
		if (f.if_addr_len == nid->nid_addr_len &&
		    !memcmp(f.if_addr, nid->nid_addr, f.if_addr_len)) {
			memcpy(ifname, f.if_name, LNET_IFNAME_LEN);
			ifname[LNET_IFNAME_LEN - 1] = '\0';
			return 0;
		}
	}
	return cfg_fail(err, -ENODEV, loc, "no interface has the address of NID '%s'",
			cfg_nid_str(nid, str, sizeof(str)));
}

/* An NI named by its NID alone: on the interface that has its address. */
static int net_add_by_nid(struct cfg_handle *h, const struct cfg_net *n,
			  const char *net, struct cfg_err *err)
{
	char ifname[LNET_IFNAME_LEN];
	struct lnet_bad bad;
	int rc = cfg_if_of_nid(h, &n->nid, &n->loc, ifname, err);

	if (rc)
		return rc;
	if (lnet_ni_add_check(n->net_id, ifname, &n->tun, &bad))
		return net_add_bad(n, net, ifname, &bad, err);
	rc = ni_add(h, n, ifname);
	return rc ? ni_add_fail(h, n, ifname, net, rc, err) : 0;
}

int cfg_net_add(struct cfg_handle *h, const struct cfg_net *in, struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX];
	struct cfg_net full;
	const struct cfg_net *n = &full;
	int rc;
	u32 i;

	rc = cfg_model_read(in, &full, &cfg_net_model, err);
	if (rc)
		return rc;
	cfg_net_str(n->net_id, net, sizeof(net));
	if (n->nid.nid_lnd && !n->nifs) {
		rc = net_add_nid_check(n, net, err);
		if (!rc)
			rc = lnd_tun_check(n, net, err);
		return rc ? rc : net_add_by_nid(h, n, net, err);
	}
	rc = net_add_check(n, net, err);
	for (i = 0; !rc && i < n->nifs; i++) {
		rc = ni_add(h, n, n->ifnames[i]);
		if (rc) {
			ni_add_fail(h, n, n->ifnames[i], net, rc, err);
			while (i--)	/* undo this call's NIs, newest first */
				ni_del(h, n->net_id, n->ifnames[i]);
			break;
		}
	}
	return rc;
}

static int net_del_fail(struct cfg_handle *h, const struct cfg_net *n,
			const char *ifname, const char *net, int rc,
			struct cfg_err *err)
{
	char doing[96];

	snprintf(doing, sizeof(doing), "cannot delete net %s", net);
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &n->loc, doing);
	if (rc == -ENOENT && !ifname)
		return cfg_fail(err, rc, &n->loc, "net %s is not configured", net);
	if (rc == -ENOENT)
		return cfg_fail(err, rc, &n->loc,
				"net %s has no NI on interface '%s'", net, ifname);
	return cfg_ioc_fail(h, rc, err, &n->loc, doing);
}

int cfg_ni_of_nid(struct cfg_handle *h, const struct lnet_nid *nid, struct lnet_ioc_ni *out)
{
	u32 i;
	int rc;

	for (i = 0;; i++) {
		rc = cfg_ni_get(h, i, lnet_nid_net(nid), out);
		if (rc || lnet_nid_equal(&out->ni_nid, nid))
			return rc;
	}
}

/* The NI named by its NID alone (a `- nid: X` entry): only that NI. */
static int net_del_by_nid(struct cfg_handle *h, const struct cfg_net *n,
			  const char *net, struct cfg_err *err)
{
	char nid[LNET_NID_STR_MAX];
	struct lnet_ioc_ni ni;
	int rc = cfg_ni_of_nid(h, &n->nid, &ni);

	if (rc == -ENOENT)
		return cfg_fail(err, rc, &n->loc, "net %s has no NI with NID '%s'", net,
				cfg_nid_str(&n->nid, nid, sizeof(nid)));
	if (!rc)
		rc = ni_del(h, n->net_id, ni.ni_ifname);
	return rc ? net_del_fail(h, n, ni.ni_ifname, net, rc, err) : 0;
}

/* What a SET_NI_LND names, for its messages: "NI 10.0.0.1@tcp", "net tcp1", ... */
static void lnd_set_what(uint32_t net_id, const struct lnet_nid *nid, char *buf, size_t len)
{
	char s[LNET_NID_STR_MAX];

	if (nid)
		snprintf(buf, len, "NI %s", cfg_nid_str(nid, s, sizeof(s)));
	else if (net_id)
		snprintf(buf, len, "the NIs of net %s", cfg_net_str(net_id, s, sizeof(s)));
	else
		snprintf(buf, len, "every tcp NI");
}

/* The message for what lnet_ni_lnd_set_check() refused. */
static int lnd_set_bad(uint32_t net_id, const struct lnet_sock_tunables *t,
		       const struct lnet_bad *bad, struct cfg_err *err)
{
	const struct lnet_range *r = &lnet_sock_tun_ranges[bad->field];
	char net[LNET_NET_STR_MAX];

	if (bad->why == LNET_BAD_FLAGS)
		return cfg_fail(err, -EINVAL, NULL, "no LND tunable to change");
	if (bad->why == LNET_BAD_LND_NET)
		return cfg_fail(err, -EINVAL, NULL,
				"net %s takes no LND tunables: only tcp nets have an LND here",
				cfg_net_str(net_id, net, sizeof(net)));
	return cfg_fail(err, -EINVAL, NULL, "invalid lnd tunable %s '%d': expected an integer %d-%d",
			r->name, lnet_sock_tun_get(t, bad->field), r->min, r->max);
}

int cfg_net_lnd_set(struct cfg_handle *h, uint32_t net_id, const struct lnet_nid *nid,
		    const struct lnet_sock_tunables *t, uint32_t rows, struct cfg_err *err)
{
	struct lnet_ioc_ni ni = { .ni_hdr.ioc_len = sizeof(ni), .ni_lnd_tun = *t,
				  .ni_flags = LNET_NI_F_LND_TUN | rows };
	char what[32 + LNET_NID_STR_MAX], doing[64 + sizeof(what)];
	struct lnet_bad bad;
	int rc;

	if (nid) {
		ni.ni_nid = *nid;
		net_id = lnet_nid_net(nid);
	}
	ni.ni_net = nid ? 0 : net_id;
	if (lnet_ni_lnd_set_check(net_id ? net_id : LNET_NET_ID(LNET_LND_TCP, 0), t, rows, &bad))
		return lnd_set_bad(net_id, t, &bad, err);
	lnd_set_what(nid ? 0 : net_id, nid, what, sizeof(what));
	snprintf(doing, sizeof(doing), "cannot change the LND tunables of %s", what);
	rc = cfg_ioctl(h, IOC_LNET_SET_NI_LND, &ni);
	if (rc == -ENOENT && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "%s: %s", doing,
				nid ? "not a NID of this node" :
				net_id ? "the net has no NI" : "there is none");
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_net_del(struct cfg_handle *h, const struct cfg_net *in, struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX];
	struct cfg_net full;
	const struct cfg_net *n = &full;
	int rc = 0;
	u32 i;

	rc = cfg_model_read(in, &full, &cfg_net_model, err);
	if (rc)
		return rc;
	cfg_net_str(n->net_id, net, sizeof(net));
	if (lnet_net_del_check(n->net_id, NULL))	/* validate.c, as the core */
		return cfg_fail(err, -EINVAL, &n->loc,
				"net lo cannot be deleted: 'lnetctl lnet unconfigure' removes 0@lo");
	if (!n->nifs && n->nid.nid_lnd)
		return net_del_by_nid(h, n, net, err);
	if (!n->nifs) {
		rc = ni_del(h, n->net_id, NULL);
		return rc ? net_del_fail(h, n, NULL, net, rc, err) : 0;
	}
	for (i = 0; !rc && i < n->nifs; i++) {
		rc = ni_del(h, n->net_id, n->ifnames[i]);
		if (rc)
			net_del_fail(h, n, n->ifnames[i], net, rc, err);
	}
	return rc;
}
