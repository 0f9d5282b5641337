// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl policy (alias udsp) add | del | show: UDSP rules. */
#include <errno.h>
#include <stdint.h>
#include "lnetctl.h"

enum { PO_SRC, PO_DST, PO_RTE, PO_PRIORITY, PO_IDX };

static const struct lnetctl_opt policy_add_opts[] = {
	[PO_SRC] = { "src", 's', LNETCTL_VALUE,
		     "local NIDs or nets: an expression such as 10.0.0.[1-4]@tcp, tcp1, o2ib*",
		     .values = LNETCTL_VALUES_NIDS },
	[PO_DST] = { "dst", 'd', LNETCTL_VALUE, "peer NIDs or nets (same syntax as --src)",
		     .values = LNETCTL_VALUES_NIDS },
	[PO_RTE] = { "rte", 'r', LNETCTL_VALUE, "router NIDs (with --dst)",
		     .values = LNETCTL_VALUES_NIDS },
	[PO_PRIORITY] = { "priority", 'p', LNETCTL_VALUE,
			  "0-" LNETCTL_STR(LNET_PRIORITY_MAX) ", 0 highest (without it: --src or --dst alone gets 0, "
			  "--src with --dst or --dst with --rte makes a preferred list)", .values = LNETCTL_VALUES_TYPED },
	[PO_IDX] = { "idx", 'i', LNETCTL_VALUE,
		     "insert the rule at this position, 0 first (default: append)",
		     .values = LNETCTL_VALUES_IDX },
	{ NULL }
};

enum { PD_IDX, PD_ALL };

static const struct lnetctl_opt policy_del_opts[] = {
	[PD_IDX] = { "idx", 'i', LNETCTL_VALUE, "delete the rule at this position",
		     .values = LNETCTL_VALUES_IDX },
	[PD_ALL] = { "all", 'a', LNETCTL_FLAG, "delete every rule" },
	{ NULL }
};

enum { PS_IDX, PS_NID, PS_NET };

static const struct lnetctl_opt policy_show_opts[] = {
	[PS_IDX] = { "idx", 'i', LNETCTL_VALUE, "show only the rule at this position",
		     .values = LNETCTL_VALUES_IDX },
	[PS_NID] = { "nid", 0, LNETCTL_VALUE,
		     "the rules that decide this NID (a local NI, a peer NI or a NID "
		     "not configured yet), which one wins for each value, and the values",
		     .values = LNETCTL_VALUES_NIDS },
	[PS_NET] = { "net", 0, LNETCTL_VALUE,
		     "the same for a net: its local net and peer net priorities",
		     .values = LNETCTL_VALUES_NETS },
	{ NULL }
};

static int parse_idx(const char *val, s32 *idx, struct cfg_err *err)
{
	return cfg_parse_arg_s32("--idx", val, 0, INT32_MAX, idx, err);
}

/* The descriptors, the priority and the idx from argv; the action derived. */
static int policy_from_args(const struct lnetctl_args *a, struct cfg_policy *p,
			    struct cfg_err *err)
{
	static const char *const what[] = { "--src", "--dst", "--rte" };
	struct lnet_nidexpr *e[] = { &p->d.src, &p->d.dst, &p->d.rte };
	u32 priority = 0;
	int rc;

	cfg_policy_init(p);
	for (int i = PO_SRC; i <= PO_RTE; i++) {
		if (!a->val[i])
			continue;
		rc = cfg_parse_nidexpr(what[i], a->val[i], e[i], err);
		if (rc)
			return rc;
	}
	if (a->val[PO_PRIORITY]) {
		rc = cfg_parse_arg_u32("--priority", a->val[PO_PRIORITY], 0,
				       LNET_PRIORITY_MAX, &priority, err);
		if (rc)
			return rc;
	}
	if (a->val[PO_IDX]) {
		rc = parse_idx(a->val[PO_IDX], &p->d.idx, err);
		if (rc)
			return rc;
	}
	return cfg_policy_finish(p, a->val[PO_PRIORITY] != NULL, priority, err);
}

static int policy_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct cfg_policy p;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[PO_SRC] && !a.val[PO_DST] && !a.val[PO_RTE])
		return lnetctl_usage(ctx, "missing --src, --dst or --rte: a rule needs at "
				     "least one of them");
	if (policy_from_args(&a, &p, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_policy_add(ctx->h, &p, &err);
	/* the rule is in force as asked: nothing to do, as Lustre's import has it */
	if (rc == -EALREADY)
		rc = 0;
	return lnetctl_done(ctx, rc, &err);
}

static int policy_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	s32 idx = -1;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (a.val[PD_IDX] && a.val[PD_ALL])
		return lnetctl_usage(ctx, "--idx and --all cannot be combined");
	if (!a.val[PD_IDX] && !a.val[PD_ALL])
		return lnetctl_usage(ctx, "missing --idx N or --all");
	if (a.val[PD_IDX] && parse_idx(a.val[PD_IDX], &idx, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_done(ctx, cfg_policy_del(ctx->h, idx, &err), &err);
}

/* policy show --nid NID | --net NET: the rules that decide it. */
static int policy_match(struct lnetctl_ctx *ctx, const struct lnetctl_args *a)
{
	struct cfg_err err = { 0 };
	struct lnet_nid nid;
	u32 net = 0;
	int rc;

	if (a->val[PS_NID] && a->val[PS_NET])
		return lnetctl_usage(ctx, "--nid and --net cannot be combined: "
				     "a NID is on its net already");
	if (a->val[PS_IDX])
		return lnetctl_usage(ctx, "--idx cannot be combined with --%s: "
				     "every rule that matches is shown",
				     a->val[PS_NID] ? "nid" : "net");
	if (a->val[PS_NID] && cfg_parse_nid("--nid", a->val[PS_NID], &nid, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	if (a->val[PS_NET] && cfg_parse_net("--net", a->val[PS_NET], &net, &err))
		return lnetctl_usage(ctx, "%s (--net takes one net, e.g. tcp or o2ib1)", err.msg);
	rc = cfg_show_policy_match(ctx->h, a->val[PS_NID] ? &nid : NULL, net, ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

static int policy_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	s32 idx = -1;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (a.val[PS_NID] || a.val[PS_NET])
		return policy_match(ctx, &a);
	if (a.val[PS_IDX] && parse_idx(a.val[PS_IDX], &idx, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = cfg_show_policies(ctx->h, idx, ctx->out, &err);
	return lnetctl_show_done(ctx, rc, &err);
}

const struct lnetctl_cmd lnetctl_policy_cmds[] = {
	{ "add", policy_add, NULL, policy_add_opts,
	  "add a rule (the same descriptors with a new priority update it in place)" },
	{ "del", policy_del, NULL, policy_del_opts,
	  "delete the rule at --idx (later rules move up) or --all rules" },
	{ "show", policy_show, NULL, policy_show_opts,
	  "show the rules as YAML, in order (nothing when there are none); with "
	  "--nid or --net, those that decide it" },
	{ "explain", lnetctl_policy_explain, NULL, lnetctl_explain_opts,
	  "the path a send to NID would take now, and why: every candidate the core "
	  "compared and the criterion it lost on", "NID" },
	{ NULL }
};
