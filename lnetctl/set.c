// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl set NAME VALUE: routing, router buffers and the global settings.
 * The global settings come from one table (LNET_GLOBALS in lnet_tunables.h): its rows
 * make both the sub-commands here and the checks of their values.
 */
#include <ctype.h>
#include <string.h>
#include "lnetctl.h"

/*
 * The one VALUE word. A negative number is a value here, not an option,
 * so that "set retry_count -1" names the range instead of "-1".
 */
static bool set_value(struct lnetctl_ctx *ctx, int argc, char **argv,
		      const char **val, int *status)
{
	struct lnetctl_args a;

	if (argc >= 1 && argv[0][0] == '-' && isdigit((unsigned char)argv[0][1])) {
		if (argc > 1) {
			*status = lnetctl_usage(ctx, "unexpected argument '%s'", argv[1]);
			return false;
		}
		*val = argv[0];
		return true;
	}
	if (!lnetctl_parse(ctx, argc, argv, 1, 1, &a)) {
		*status = a.status;
		return false;
	}
	*val = a.pos[0];
	return true;
}

static int set_routing(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	const char *val;
	u32 enable;
	int rc;

	if (!set_value(ctx, argc, argv, &val, &rc))
		return rc;
	if (cfg_parse_arg_u32("routing", val, 0, 1, &enable, &err))
		return lnetctl_usage(ctx, "invalid routing '%s': expected 0 (disable) or 1 (enable)",
				     val);
	return lnetctl_done(ctx, cfg_routing_set(ctx->h, enable, &err), &err);
}

/* tiny_buffers, small_buffers, large_buffers: the kind is in the row. */
static int set_buffers(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	s32 counts[LNET_NBUF_KINDS] = { [0 ... LNET_NBUF_KINDS - 1] = -1 };
	unsigned int k = ctx->cmd->kind;
	const char *val;
	int rc;

	if (!set_value(ctx, argc, argv, &val, &rc))
		return rc;
	if (cfg_parse_arg_buffers(ctx->cmd->name, val, k, &counts[k], &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_done(ctx, cfg_buffers_set(ctx->h, counts, LNET_NBUF_KINDS, &err), &err);
}

static int set_global(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct cfg_global_spec *s = cfg_global_find(ctx->cmd->name);
	struct cfg_err err = { 0 };
	const char *val;
	u32 value;
	int rc;

	if (!set_value(ctx, argc, argv, &val, &rc))
		return rc;
	if (cfg_parse_arg_u32(s->name, val, s->min, s->max, &value, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_done(ctx, cfg_global_set(ctx->h, s, value, &err), &err);
}

#define BUF_ROW(id, name, min, max, def)					\
	{ #name "_buffers", set_buffers, NULL, NULL,				\
	  "router buffers for " #name " messages: 0 (the default) or " #min "-" #max, \
	  "N", .kind = id },
#define SET_ROW(name, id, min, max, def) \
	{ #name, set_global, NULL, NULL, #min "-" #max " (default " #def ")", "N" },

const struct lnetctl_cmd lnetctl_set_cmds[] = {
	{ "routing", set_routing, NULL, NULL, "1: this node routes; 0: it does not", "0|1" },
	LNET_BUFFERS(BUF_ROW)
	LNET_GLOBALS(SET_ROW)
	{ NULL }
};
