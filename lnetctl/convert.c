// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl convert [FILE|-] [--networks S] [--ip2nets S] [--routes S]: the
 * lnet module parameters a site set in modprobe.d, printed as the YAML
 * configuration `lnetctl import` reads (libcfg/legacy.c has the syntax).
 * Nothing reaches LNet: `lnetctl convert lustre.conf | lnetctl import`
 * applies the result once it reads right.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lnetctl.h"

enum { CV_NETWORKS, CV_IP2NETS, CV_ROUTES };

const struct lnetctl_opt lnetctl_convert_opts[] = {
	[CV_NETWORKS] = { "networks", 'n', LNETCTL_VALUE,
			  "a networks= string (\"tcp0(eth0),o2ib(ib0)\") instead of a FILE",
			  .values = LNETCTL_VALUES_TYPED },
	[CV_IP2NETS] = { "ip2nets", 'i', LNETCTL_VALUE,
			 "an ip2nets= string (\"tcp(eth0) 10.0.0.*; o2ib 10.1.*.*\")",
			 .values = LNETCTL_VALUES_TYPED },
	[CV_ROUTES] = { "routes", 'r', LNETCTL_VALUE,
			"a routes= string (\"o2ib 2 10.0.0.[1-2]@tcp:1; tcp1 10.1.0.1@o2ib\")",
			.values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

/* The three parameters of the modprobe.d file @path ("-": stdin) into @l. */
static int read_modprobe(struct lnetctl_ctx *ctx, const char *path, char **text,
			 struct cfg_legacy *l)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct cfg_err err = { 0 };
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len;
	int rc;

	if (!f) {
		lnetctl_msg(ctx, "cannot open '%s': %s", path, strerror(errno));
		return LNETCTL_ERR;
	}
	rc = lnetctl_read_all(f, text, &len);
	if (f != stdin)
		fclose(f);
	if (rc) {
		lnetctl_msg(ctx, "cannot read '%s': %s", name, strerror(-rc));
		return LNETCTL_ERR;
	}
	rc = cfg_legacy_modprobe(*text, l, &err);
	if (rc) {
		lnetctl_msg(ctx, "%s: %s", name, err.msg);
		return LNETCTL_ERR;
	}
	return LNETCTL_OK;
}

int lnetctl_convert(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct cfg_legacy l = { 0 };
	struct lnetctl_args a;
	char *text = NULL;
	int rc = LNETCTL_OK;

	if (!lnetctl_parse(ctx, argc, argv, 0, 1, &a))
		return a.status;
	l.networks = a.val[CV_NETWORKS];
	l.ip2nets = a.val[CV_IP2NETS];
	l.routes = a.val[CV_ROUTES];
	if (a.npos && (l.networks || l.ip2nets || l.routes))
		return lnetctl_usage(ctx, "a FILE or --networks/--ip2nets/--routes, not both");
	if (!l.networks && !l.ip2nets && !l.routes) {
		const char *path = a.npos ? a.pos[0] : "-";

		if (!strcmp(path, "-") && ctx->stdin_commands)
			return lnetctl_usage(ctx, "stdin holds the commands: convert needs a FILE");
		rc = read_modprobe(ctx, path, &text, &l);
	}
	if (rc == LNETCTL_OK && cfg_legacy_yaml(&l, ctx->out, &err)) {
		lnetctl_msg(ctx, "%s", err.msg);
		rc = LNETCTL_ERR;
	}
	free(text);
	return rc;
}
