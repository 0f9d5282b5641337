// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl lnet configure | unconfigure */
#include "lnetctl.h"

/*
 * Lustre's two flags of configure. --all is taken so that its scripts
 * (sanity-lnet runs `lnet configure -a -l`) work unchanged: there are no
 * module parameters to read NIs from (they come from import or net add).
 * --large does what Lustre's does: every NID is a large NID already, and
 * what changes is that an interface's IPv6 address comes first for the
 * NIs added by interface, until the unconfigure.
 */
enum { LC_ALL, LC_LARGE };

static const struct lnetctl_opt configure_opts[] = {
	[LC_ALL] = { "all", 'a', LNETCTL_FLAG,
		     "Lustre's: also bring up the NIs of the module parameters; here NIs come "
		     "from 'lnetctl import' or 'net add' only, so it adds nothing" },
	[LC_LARGE] = { "large", 'l', LNETCTL_FLAG,
		       "use large NIDs: until 'lnet unconfigure', an NI added by interface "
		       "takes the interface's IPv6 address before its IPv4 one (also when "
		       "LNet is up already)" },
	{ NULL }
};

static int lnet_configure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	u32 flags = 0;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (a.val[LC_LARGE])
		flags |= LNET_CONFIG_F_LARGE_NIDS;
	return lnetctl_done(ctx, cfg_lnet_configure_flags(ctx->h, flags, &err), &err);
}

static int lnet_unconfigure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_lnet_unconfigure);
}

const struct lnetctl_cmd lnetctl_lnet_cmds[] = {
	{ "configure", lnet_configure, NULL, configure_opts,
	  "bring LNet up (creates the 0@lo NI); when up already, only --large does anything" },
	{ "unconfigure", lnet_unconfigure, NULL, NULL,
	  "bring LNet down: every net, peer and policy is freed" },
	{ NULL }
};
