// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl net add | del | show: local NIs, one per interface. */
#include <errno.h>
#include "lnetctl.h"
#include "../kernel/core/validate.h"

/*
 * The options net add and net del share come first, at the same places;
 * then net add's tunables, one per row of LNET_NI_TUNABLES, the row's
 * range in its help.
 */
enum { NC_NET, NC_IF, NA_NID, NA_IP2NET, NA_CPT, NA_TUN, NA_LND = NA_TUN + __LNET_TUN_MAX };

#define NET_TUN_OPT(id, name, opt, letter, min, max, def, help) \
	[NA_TUN + id] = { opt, letter, LNETCTL_VALUE, help ", " #min "-" #max, \
			  .values = LNETCTL_VALUES_TYPED },

/* The socket LND's tunables (tcp nets), one per row of LNET_SOCK_TUNABLES. */
#define NET_LND_OPT(id, name, opt, letter, min, max, def, help) \
	[NA_LND + id] = { opt, letter, LNETCTL_VALUE, "tcp: " help ", " #min "-" #max, \
			  .values = LNETCTL_VALUES_TYPED },

static const struct lnetctl_opt net_add_opts[] = {
	[NC_NET] = { "net", 'n', LNETCTL_VALUE, "NET to add the NIs to, e.g. tcp or o2ib1",
		     .values = LNETCTL_VALUES_NETS },
	[NC_IF] = { "if", 'i', LNETCTL_VALUE,
		    "interfaces IF[,IF...], one NI each (its IPv4 address, else its IPv6 one; "
		    "IPv6 first after 'lnet configure --large')",
		    .values = LNETCTL_VALUES_TYPED },
	[NA_NID] = { "nid", 0, LNETCTL_VALUE,
		     "the NI's NID: one of --if's addresses (IPv4 or IPv6) must make it, or without --if (and --net) it finds the interface",
		     .values = LNETCTL_VALUES_TYPED },
	[NA_IP2NET] = { "ip2net", 'p', LNETCTL_VALUE,
			"Lustre's ip2nets rules, e.g. \"tcp(eth0) 192.168.0.[2-20]; o2ib 10.0.0.*\"",
			.values = LNETCTL_VALUES_TYPED },
	[NA_CPT] = { "cpt", 's', LNETCTL_VALUE,
		     "CPU partitions, e.g. [0,1] (accepted: this node has one, 0)",
		     .values = LNETCTL_VALUES_TYPED },
	LNET_NI_TUNABLES(NET_TUN_OPT)
	LNET_SOCK_TUNABLES(NET_LND_OPT)
	{ NULL }
};

enum { ND_NID = NA_NID };	/* --nid: the same place as net add's */

static const struct lnetctl_opt net_del_opts[] = {
	[NC_NET] = { "net", 'n', LNETCTL_VALUE,
		     "NET to delete (the whole net without --if or --nid)",
		     .values = LNETCTL_VALUES_NETS },
	[NC_IF] = { "if", 'i', LNETCTL_VALUE, "delete only the NIs on these interfaces IF[,IF...]",
		    .values = LNETCTL_VALUES_TYPED },
	[ND_NID] = { "nid", 0, LNETCTL_VALUE,
		     "delete only the NIs of these NIDs NID[,NID...] (all on one net; "
		     "--net may be left out)", .values = LNETCTL_VALUES_NIDS },
	{ NULL }
};

enum { NS_NET, NS_VERBOSE };

static const struct lnetctl_opt net_show_opts[] = {
	[NS_NET] = { "net", 'n', LNETCTL_VALUE, "show only this net",
		     .values = LNETCTL_VALUES_NETS },
	[NS_VERBOSE] = { "verbose", 'v', LNETCTL_LEVEL,
			 "level 0-5, alone 1: 1 adds statistics, tunables, lnd tunables and CPT, 4 the UDSP values",
			 .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

/*
 * The options of one table's rows, from net_add_opts[@first]: each given
 * one in its row's range into the field @ref gives.
 */
static int parse_rows(const struct lnetctl_args *a, u32 first, u32 nrows,
		      const struct lnet_range *ranges, s32 *(*ref)(void *t, u32 id),
		      void *t, struct cfg_err *err)
{
	char what[32];
	u32 i;
	int rc;

	for (i = 0; i < nrows; i++) {
		if (!a->val[first + i])
			continue;
		snprintf(what, sizeof(what), "--%s", net_add_opts[first + i].name);
		rc = cfg_parse_arg_s32(what, a->val[first + i], ranges[i].min, ranges[i].max,
				   ref(t, i), err);
		if (rc)
			return rc;
	}
	return 0;
}

static s32 *ni_tun_ref(void *t, u32 id)
{
	return lnet_ni_tun_ref(t, id);
}

static s32 *sock_tun_ref(void *t, u32 id)
{
	return lnet_sock_tun_ref(t, id);
}

/* Tunables of net add: each in its row's range (-1 = default when absent). */
static int parse_tunables(const struct lnetctl_args *a, struct cfg_net *n,
			  struct cfg_err *err)
{
	int rc = parse_rows(a, NA_TUN, __LNET_TUN_MAX, lnet_ni_tun_ranges, ni_tun_ref,
			    &n->tun, err);

	if (!rc)
		rc = parse_rows(a, NA_LND, __LNET_SOCK_TUN_MAX, lnet_sock_tun_ranges,
				sock_tun_ref, &n->lnd_tun, err);
	/* checked, not kept: every NI runs on the one partition */
	if (!rc && a->val[NA_CPT])
		rc = cfg_parse_cpts("--cpt", a->val[NA_CPT], NULL, err);
	return rc;
}

/* --nid: the NID, and the net (--net, if given too, must be the NID's). */
static int parse_nid(const struct lnetctl_args *a, struct cfg_net *n, struct cfg_err *err)
{
	int rc = cfg_parse_nid("--nid", a->val[NA_NID], &n->nid, err);

	if (!rc)
		n->net_id = lnet_nid_net(&n->nid);
	return rc;
}

/* net add --ip2net RULES: the NIs the rules give here, with the tunables. */
static int net_add_ip2net(struct lnetctl_ctx *ctx, const struct lnetctl_args *a)
{
	struct cfg_err err = { 0 };
	struct cfg_net tmpl;
	int status;

	cfg_net_init(&tmpl);
	if (a->val[NC_NET] || a->val[NC_IF] || a->val[NA_NID])
		status = lnetctl_usage(ctx, "--ip2net names the nets and interfaces: no --net, --if or --nid with it");
	else if (parse_tunables(a, &tmpl, &err))
		status = lnetctl_usage(ctx, "%s", err.msg);
	else
		status = lnetctl_done(ctx, cfg_net_add_ip2nets(ctx->h, a->val[NA_IP2NET], &tmpl,
							       &err), &err);
	cfg_net_fini(&tmpl);
	return status;
}

/*
 * net add and net del: add needs --if or --nid and takes the tunables;
 * del's --if is optional.
 */
static int net_change(struct lnetctl_ctx *ctx, int argc, char **argv, enum lnetctl_op op)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_net n;
	bool by_nid;
	int status;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (op == LNETCTL_ADD && a.val[NA_IP2NET])
		return net_add_ip2net(ctx, &a);
	by_nid = op == LNETCTL_ADD && a.val[NA_NID];
	if (!a.val[NC_NET] && !by_nid)
		return lnetctl_missing(ctx, NC_NET);
	if (op == LNETCTL_ADD && !a.val[NC_IF] && !by_nid)
		return lnetctl_missing(ctx, NC_IF);
	cfg_net_init(&n);
	if ((by_nid && parse_nid(&a, &n, &err)) ||
	    (a.val[NC_NET] && cfg_parse_net("--net", a.val[NC_NET], &n.net_id, &err)) ||
	    (a.val[NC_IF] && cfg_parse_ifnames("--if", a.val[NC_IF], &n, &err)) ||
	    (op == LNETCTL_ADD && parse_tunables(&a, &n, &err)))
		status = lnetctl_usage(ctx, "%s", err.msg);
	else
		status = lnetctl_done(ctx, op == LNETCTL_ADD ? cfg_net_add(ctx->h, &n, &err) :
					   cfg_net_del(ctx->h, &n, &err), &err);
	cfg_net_fini(&n);
	return status;
}

static int net_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return net_change(ctx, argc, argv, LNETCTL_ADD);
}

/* The interface of the local NI @nid into @n (its net): 0, or the message. */
static int nid_ifname(struct lnetctl_ctx *ctx, const struct lnet_nid *nid, struct cfg_net *n,
		      struct cfg_err *err)
{
	char buf[LNET_NID_STR_MAX];
	struct lnet_ioc_ni ni;
	u32 i;
	int rc;

	for (i = 0; !(rc = cfg_ni_get(ctx->h, i, n->net_id, &ni)); i++)
		if (lnet_nid_equal(&ni.ni_nid, nid))
			return cfg_net_append(n, ni.ni_ifname) ?
			       cfg_fail(err, -E2BIG, NULL, "--nid: too many NIDs") : 0;
	if (rc != -ENOENT)
		return rc;	/* LNet down or unreachable: lnetctl_fail() says which */
	return cfg_fail(err, -ENOENT, NULL, "cannot delete NI %s: not a NID of this node",
			cfg_nid_str(nid, buf, sizeof(buf)));
}

/*
 * net del --nid: the NIs of those NIDs, through their interfaces, on the
 * NIDs' one net (which --net, when given, must be).
 */
static int net_del_nids(struct lnetctl_ctx *ctx, const struct lnetctl_args *a)
{
	char want[LNET_NET_STR_MAX], got[LNET_NET_STR_MAX];
	struct cfg_err err = { 0 };
	struct cfg_peer nids;
	struct cfg_net n;
	u32 i, net_id = 0;
	int rc, status;

	cfg_peer_init(&nids);
	cfg_net_init(&n);
	rc = (a->val[NC_NET] && cfg_parse_net("--net", a->val[NC_NET], &net_id, &err)) ||
	     cfg_parse_nidlist("--nid", a->val[ND_NID], &nids, &err);
	for (i = 0; !rc && i < nids.nnids; i++) {
		u32 id = lnet_nid_net(&nids.nids[i]);

		if (!net_id)
			net_id = id;
		if (id != net_id)
			rc = cfg_fail(&err, -EINVAL, NULL,
				      "invalid --nid '%s': NIDs of net %s, not only of %s%s",
				      a->val[ND_NID], cfg_net_str(id, got, sizeof(got)),
				      cfg_net_str(net_id, want, sizeof(want)),
				      a->val[NC_NET] ? " (--net)" : "");
	}
	if (rc) {
		status = lnetctl_usage(ctx, "%s", err.msg);
		goto out;
	}
	n.net_id = net_id;
	for (i = 0; !rc && i < nids.nnids; i++)
		rc = nid_ifname(ctx, &nids.nids[i], &n, &err);
	status = lnetctl_done(ctx, rc ? rc : cfg_net_del(ctx->h, &n, &err), &err);
out:
	cfg_net_fini(&n);
	cfg_peer_fini(&nids);
	return status;
}

static int net_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (a.val[ND_NID] && a.val[NC_IF])
		return lnetctl_usage(ctx, "--if and --nid: give one (each names the NIs to delete)");
	if (a.val[ND_NID])
		return net_del_nids(ctx, &a);
	return net_change(ctx, argc, argv, LNETCTL_DEL);
}

static int net_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	u32 net_id = 0;
	int rc, level;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (lnetctl_verbose(ctx, a.val[NS_VERBOSE], &level))
		return LNETCTL_USAGE;
	if (a.val[NS_NET] && cfg_parse_net("--net", a.val[NS_NET], &net_id, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_show_nets(ctx->h, net_id, level, ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

const struct lnetctl_cmd lnetctl_net_cmds[] = {
	{ "add", net_add, NULL, net_add_opts,
	  "add NIs to a net (created if new): --net NET --if IF[,IF...], --nid NID or --ip2net RULES" },
	{ "del", net_del, NULL, net_del_opts,
	  "delete a net, or with --if or --nid only those NIs" },
	{ "show", net_show, NULL, net_show_opts, "show the local NIs as YAML" },
	{ "set", lnetctl_net_set, NULL, lnetctl_net_set_opts,
	  "change local NIs in place: --health N, LND tunables (--conns-per-peer, --lnd-timeout, --tos)" },
	{ NULL }
};
