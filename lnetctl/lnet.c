// SPDX-License-Identifier: GPL-2.0-only
/* lnetctl lnet configure | unconfigure */
#include "lnetctl.h"

/*
 * Lustre's two flags of configure, taken so that its scripts (sanity-lnet
 * runs `lnet configure -a -l`) work unchanged. Neither changes what
 * configure does here, and the help says why: there are no module
 * parameters to read NIs from (they come from import or net add), and
 * every NID is already a large NID, IPv6 included.
 */
static const struct lnetctl_opt configure_opts[] = {
	{ "all", 'a', LNETCTL_FLAG,
	  "Lustre's: also bring up the NIs of the module parameters; here NIs come "
	  "from 'lnetctl import' or 'net add' only, so it adds nothing" },
	{ "large", 'l', LNETCTL_FLAG,
	  "Lustre's: use large (IPv6-capable) NIDs; here every NID is one already, "
	  "an interface's IPv4 address still comes first" },
	{ NULL }
};

static int lnet_configure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_lnet_configure);
}

static int lnet_unconfigure(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	return lnetctl_run(ctx, argc, argv, cfg_lnet_unconfigure);
}

const struct lnetctl_cmd lnetctl_lnet_cmds[] = {
	{ "configure", lnet_configure, NULL, configure_opts,
	  "bring LNet up (creates the 0@lo NI; nothing if already up)" },
	{ "unconfigure", lnet_unconfigure, NULL, NULL,
	  "bring LNet down: every net, peer and policy is freed" },
	{ NULL }
};
