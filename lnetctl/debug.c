// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl debug nidlist EXPR [NID]: the expression parser, without LNet;
 * debug recovery --local|--peer: the NIs waiting for recovery pings;
 * debug peer --nid NID: everything known about one peer.
 */
#include <errno.h>
#include "lnetctl.h"

/*
 * Prints the canonical form of EXPR and, with NID, "<NID>: match" or
 * "<NID>: no match" (canonical NID). A bad EXPR or NID is what is being
 * checked, not a misuse of the command: exit 1.
 */
static int debug_nidlist(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	char buf[LNET_EXPR_STR_MAX], nidbuf[LNET_NID_STR_MAX];
	struct lnetctl_args a;
	struct lnet_nidexpr e;
	struct lnet_nid nid;

	if (!lnetctl_parse(ctx, argc, argv, 1, 2, &a))
		return a.status;
	if (cfg_parse_nidexpr("expression", a.pos[0], &e, &err))
		return lnetctl_fail(ctx, -EINVAL, &err);
	if (a.npos == 2 && cfg_parse_nid("NID", a.pos[1], &nid, &err))
		return lnetctl_fail(ctx, -EINVAL, &err);
	if (lnet_nidexpr_print(&e, buf, sizeof(buf)) < 0)
		return lnetctl_fail(ctx, -ENOSPC, NULL);
	fprintf(ctx->out, "%s\n", buf);
	if (a.npos < 2)
		return LNETCTL_OK;
	if (lnet_nid_print(&nid, nidbuf, sizeof(nidbuf)) < 0)
		return lnetctl_fail(ctx, -ENOSPC, NULL);
	fprintf(ctx->out, "%s: %s\n", nidbuf,
		lnet_nidexpr_match_nid(&e, &nid) ? "match" : "no match");
	return LNETCTL_OK;
}

/* --- debug recovery ---------------------------------------------------------------- */

enum { DR_LOCAL, DR_PEER };

static const struct lnetctl_opt recovery_opts[] = {
	[DR_LOCAL] = { "local", 'l', LNETCTL_FLAG, "the local NIs in recovery" },
	[DR_PEER] = { "peer", 'p', LNETCTL_FLAG, "the peer NIs in recovery" },
	{ NULL }
};

/*
 * One NID of a recovery list: the heading before the first, as Lustre
 * prints the list ("Local NI recovery:" then "nid-0: ..."), nothing at all
 * when the list is empty.
 */
static void recovery_line(struct lnetctl_ctx *ctx, const char *heading, u32 n,
			  const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	if (!n)
		fprintf(ctx->out, "%s:\n", heading);
	fprintf(ctx->out, "      nid-%u: %s\n", n, cfg_nid_str(nid, buf, sizeof(buf)));
}

/* The local NIs whose health is below the maximum: those recovery pings go to. */
static int recovery_local(struct lnetctl_ctx *ctx)
{
	struct lnet_ioc_ni ni;
	u32 i, n = 0;
	int rc;

	for (i = 0; !(rc = cfg_ni_get(ctx->h, i, 0, &ni)); i++)
		if (ni.ni_health < LNET_HEALTH_MAX)
			recovery_line(ctx, "Local NI recovery", n++, &ni.ni_nid);
	return rc == -ENOENT ? 0 : rc;
}

static int recovery_peer(struct lnetctl_ctx *ctx)
{
	struct lnet_ioc_peer pr;
	u32 i, n = 0;
	int rc;

	for (i = 0; !(rc = cfg_peer_ni_get(ctx->h, i, NULL, &pr)); i++)
		if (pr.pr_health < LNET_HEALTH_MAX)
			recovery_line(ctx, "Peer NI recovery", n++, &pr.pr_nid);
	return rc == -ENOENT ? 0 : rc;
}

static int debug_recovery(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;
	int rc = 0;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[DR_LOCAL] && !a.val[DR_PEER])
		return lnetctl_usage(ctx, "missing option: --local, --peer or both");
	if (a.val[DR_LOCAL])
		rc = recovery_local(ctx);
	if (!rc && a.val[DR_PEER])
		rc = recovery_peer(ctx);
	return lnetctl_show_done(ctx, rc, NULL);
}

/* --- debug peer -------------------------------------------------------------------- */

static const struct lnetctl_opt debug_peer_opts[] = {
	{ "nid", 0, LNETCTL_VALUE, "any NID of the peer", .values = LNETCTL_VALUES_NIDS },
	{ NULL }
};

/*
 * Lustre writes the peer to the kernel's debug log and prints nothing;
 * here it is printed, as `peer show --nid NID -v 5` would.
 */
static int debug_peer(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	struct lnet_nid nid;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[0])
		return lnetctl_missing(ctx, 0);
	if (cfg_parse_nid("--nid", a.val[0], &nid, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_show_done(ctx, cfg_show_peers(ctx->h, &nid, LNETCTL_MAX_VERBOSE,
						     ctx->out, &err), &err);
}

const struct lnetctl_cmd lnetctl_debug_cmds[] = {
	{ "nidlist", debug_nidlist, NULL, NULL,
	  "print the canonical form of a NID expression and whether NID matches it "
	  "(\"NID: match\" or \"NID: no match\")", "EXPR [NID]" },
	{ "recovery", debug_recovery, NULL, recovery_opts,
	  "list the local NIs (--local) or peer NIs (--peer) whose health is below "
	  LNETCTL_STR(LNET_HEALTH_MAX) ", which recovery pings go to" },
	{ "peer", debug_peer, NULL, debug_peer_opts,
	  "print everything known about the peer of --nid (peer show -v "
	  LNETCTL_STR(LNETCTL_MAX_VERBOSE) ")" },
	{ NULL }
};
