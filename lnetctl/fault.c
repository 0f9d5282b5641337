// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl fault drop|delay add|del|reset|show: fault injection rules, as
 * Lustre's `lnetctl fault` (its option names and letters). One handler
 * per verb serves both rule types: the command's kind says which.
 * Stricter than Lustre where it is silent: a repeated option is an error
 * (--message and --portal take comma lists instead), --drop_all excludes
 * --rate and --interval, del needs --all or both --source and --dest.
 */
#include <string.h>

#include "lnetctl.h"

/* Shared places first; then drop's --health_error or delay's --latency. */
enum { FA_SOURCE, FA_DEST, FA_RATE, FA_INTERVAL, FA_PORTAL, FA_MESSAGE, FA_LOCAL_NID,
       FA_RULE_TYPE, FA_HEALTH, FA_LATENCY = FA_HEALTH, FA_RANDOM, FA_DROP_ALL };

#define FAULT_COMMON_OPTS(what)								\
	[FA_SOURCE] = { "source", 's', LNETCTL_VALUE,					\
			"messages from this NID, '*' (any) or '*@NET' (required)",	\
			.values = LNETCTL_VALUES_NIDS },				\
	[FA_DEST] = { "dest", 'd', LNETCTL_VALUE,					\
		      "messages to this NID, '*' (any) or '*@NET' (required)",		\
		      .values = LNETCTL_VALUES_NIDS },					\
	[FA_RATE] = { "rate", 'r', LNETCTL_VALUE,					\
		      what " one in N matching messages, 1-" LNETCTL_STR(LNET_FAULT_RATE_MAX) \
		      " (one at random in each N)", .values = LNETCTL_VALUES_TYPED },	\
	[FA_INTERVAL] = { "interval", 'i', LNETCTL_VALUE,				\
			  what " the first matching message of every S seconds, 1-"	\
			  LNETCTL_STR(LNET_FAULT_INTERVAL_MAX) " (not with --rate)",	\
			  .values = LNETCTL_VALUES_TYPED },				\
	[FA_PORTAL] = { "portal", 'p', LNETCTL_VALUE,					\
			"only PUTs and GETs to these portals, 0-63, comma separated",	\
			.values = LNETCTL_VALUES_TYPED },				\
	[FA_MESSAGE] = { "message", 'm', LNETCTL_VALUE,					\
			 "only these message types: PUT, ACK, GET, REPLY, comma separated", \
			 .values = LNETCTL_VALUES_TYPED },				\
	[FA_LOCAL_NID] = { "local_nid", 'o', LNETCTL_VALUE,				\
			   "only messages leaving by or arriving on this local NI",	\
			   .values = LNETCTL_VALUES_NIDS },				\
	[FA_RULE_TYPE] = { "rule_type", 't', LNETCTL_VALUE,				\
			   "the rule type, as the command names it (Lustre's; optional)", \
			   .values = LNETCTL_VALUES_TYPED }

static const struct lnetctl_opt drop_add_opts[] = {
	FAULT_COMMON_OPTS("drop"),
	[FA_HEALTH] = { "health_error", 'e', LNETCTL_VALUE,
			"a dropped send fails with one of these health statuses (comma "
			"separated: local_interrupt, local_dropped, local_aborted, "
			"local_no_route, local_error, local_timeout, remote_error, "
			"remote_dropped, remote_timeout, network_timeout; random: any), "
			"so health reacts; without it the message is lost as on the wire",
			.values = LNETCTL_VALUES_TYPED },
	[FA_RANDOM] = { "random", 'n', LNETCTL_FLAG,
			"with --interval: a random moment in each interval" },
	[FA_DROP_ALL] = { "drop_all", 'x', LNETCTL_FLAG,
			  "drop every matching message (as --rate 1)" },
	{ NULL }
};

static const struct lnetctl_opt delay_add_opts[] = {
	FAULT_COMMON_OPTS("delay"),
	[FA_LATENCY] = { "latency", 'l', LNETCTL_VALUE,
			 "hold each delayed message this many seconds, 1-"
			 LNETCTL_STR(LNET_FAULT_LATENCY_MAX) " (required)",
			 .values = LNETCTL_VALUES_TYPED },
	{ NULL }
};

enum { FD_SOURCE, FD_DEST, FD_ALL };

static const struct lnetctl_opt fault_del_opts[] = {
	[FD_SOURCE] = { "source", 's', LNETCTL_VALUE,
			"the rules with this --source (with --dest)", .values = LNETCTL_VALUES_NIDS },
	[FD_DEST] = { "dest", 'd', LNETCTL_VALUE,
		      "the rules with this --dest (with --source)", .values = LNETCTL_VALUES_NIDS },
	[FD_ALL] = { "all", 'a', LNETCTL_FLAG, "every rule of the type" },
	{ NULL }
};

static const char *type_word(uint32_t type)
{
	return type == LNET_FAULT_DELAY ? "delay" : "drop";
}

/* --rate / --interval / --drop_all, --random: how the rule picks its messages. */
static int parse_pick(struct lnetctl_ctx *ctx, const struct lnetctl_args *a, bool drop,
		      struct lnet_ioc_fault *f, struct cfg_err *err)
{
	bool all = drop && a->val[FA_DROP_ALL];

	if (all && (a->val[FA_RATE] || a->val[FA_INTERVAL]))
		return lnetctl_usage(ctx, "--drop_all drops every message: not with --rate or "
				     "--interval");
	if (!all && !a->val[FA_RATE] == !a->val[FA_INTERVAL])
		return lnetctl_usage(ctx, "give either --rate or --interval%s, not %s",
				     drop ? " (or --drop_all)" : "",
				     a->val[FA_RATE] ? "both" : "neither");
	if ((a->val[FA_RATE] && cfg_parse_arg_u32("--rate", a->val[FA_RATE], 1,
						   LNET_FAULT_RATE_MAX, &f->fa_rate, err)) ||
	    (a->val[FA_INTERVAL] && cfg_parse_arg_u32("--interval", a->val[FA_INTERVAL], 1,
						       LNET_FAULT_INTERVAL_MAX, &f->fa_interval,
						       err)))
		return lnetctl_usage(ctx, "%s", err->msg);
	if (all)
		f->fa_rate = 1;
	if (drop && a->val[FA_RANDOM]) {
		if (!a->val[FA_INTERVAL])
			return lnetctl_usage(ctx, "--random needs --interval");
		f->fa_flags |= LNET_FAULT_F_RANDOM;
	}
	return LNETCTL_OK;
}

/* --portal, --message, --local_nid, --health_error / --latency into @f. */
static int parse_filters(struct lnetctl_ctx *ctx, const struct lnetctl_args *a, bool drop,
			 struct lnet_ioc_fault *f, struct cfg_err *err)
{
	uint64_t ptl = 0;

	if ((a->val[FA_PORTAL] &&
	     cfg_parse_fault_portals("--portal", a->val[FA_PORTAL], &ptl, err)) ||
	    (a->val[FA_MESSAGE] &&
	     cfg_parse_fault_msgs("--message", a->val[FA_MESSAGE], &f->fa_msg_mask, err)) ||
	    (a->val[FA_LOCAL_NID] &&
	     cfg_parse_nid("--local_nid", a->val[FA_LOCAL_NID], &f->fa_local_nid, err)))
		return lnetctl_usage(ctx, "%s", err->msg);
	f->fa_ptl_mask = ptl;
	if (drop && a->val[FA_HEALTH] &&
	    cfg_parse_fault_hstatus("--health_error", a->val[FA_HEALTH], &f->fa_hstatus_mask, err))
		return lnetctl_usage(ctx, "%s", err->msg);
	if (!drop && !a->val[FA_LATENCY])
		return lnetctl_missing(ctx, FA_LATENCY);
	if (!drop && cfg_parse_arg_u32("--latency", a->val[FA_LATENCY], 1,
				       LNET_FAULT_LATENCY_MAX, &f->fa_latency, err))
		return lnetctl_usage(ctx, "%s", err->msg);
	if (f->fa_ptl_mask && (f->fa_msg_mask & (LNET_FAULT_MSG_ACK | LNET_FAULT_MSG_REPLY)))
		return lnetctl_usage(ctx, "--portal with --message '%s': ACK and REPLY carry "
				     "no portal", a->val[FA_MESSAGE]);
	return LNETCTL_OK;
}

static int fault_add(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	uint32_t type = ctx->cmd->kind;
	bool drop = type == LNET_FAULT_DROP;
	struct lnet_ioc_fault f = { .fa_type = type };
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	if (!a.val[FA_SOURCE])
		return lnetctl_missing(ctx, FA_SOURCE);
	if (!a.val[FA_DEST])
		return lnetctl_missing(ctx, FA_DEST);
	if (a.val[FA_RULE_TYPE] && strcmp(a.val[FA_RULE_TYPE], type_word(type)))
		return lnetctl_usage(ctx, "invalid --rule_type '%s': this command adds %s rules",
				     a.val[FA_RULE_TYPE], type_word(type));
	if (cfg_parse_fault_nid("--source", a.val[FA_SOURCE], &f.fa_src, &err) ||
	    cfg_parse_fault_nid("--dest", a.val[FA_DEST], &f.fa_dst, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	rc = parse_pick(ctx, &a, drop, &f, &err);
	if (!rc)
		rc = parse_filters(ctx, &a, drop, &f, &err);
	if (rc)
		return rc;
	return lnetctl_done(ctx, cfg_fault_add(ctx->h, &f, &err), &err);
}

static int fault_del(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnet_fault_nid src, dst;
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	bool all;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	all = a.val[FD_ALL] != NULL;
	if (all && (a.val[FD_SOURCE] || a.val[FD_DEST]))
		return lnetctl_usage(ctx, "--all deletes every rule: not with --source or --dest");
	if (!all && (!a.val[FD_SOURCE] || !a.val[FD_DEST]))
		return lnetctl_usage(ctx, "give --all, or both --source and --dest");
	if (!all && (cfg_parse_fault_nid("--source", a.val[FD_SOURCE], &src, &err) ||
		     cfg_parse_fault_nid("--dest", a.val[FD_DEST], &dst, &err)))
		return lnetctl_usage(ctx, "%s", err.msg);
	return lnetctl_done(ctx, cfg_fault_del(ctx->h, ctx->cmd->kind, all ? NULL : &src,
					       all ? NULL : &dst, NULL, &err), &err);
}

static int fault_reset(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_done(ctx, cfg_fault_reset(ctx->h, ctx->cmd->kind, &err), &err);
}

static int fault_show(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_show_done(ctx, cfg_fault_show(ctx->h, ctx->cmd->kind, ctx->out, &err),
				 &err);
}

#define FAULT_CMDS(type, word, opts, add_help)						\
	{ "add", fault_add, NULL, opts, add_help, .kind = type },			\
	{ "del", fault_del, NULL, fault_del_opts,					\
	  "delete " word " rules: --all, or the ones with --source and --dest",		\
	  .kind = type },								\
	{ "reset", fault_reset, NULL, NULL, "zero the counters of every " word " rule",	\
	  .kind = type },								\
	{ "show", fault_show, NULL, NULL,						\
	  "show the " word " rules and their counters as YAML (nothing when none)",	\
	  .kind = type },								\
	{ NULL }

static const struct lnetctl_cmd fault_drop_cmds[] = {
	FAULT_CMDS(LNET_FAULT_DROP, "drop", drop_add_opts,
		   "add a drop rule: --source --dest, and --rate, --interval or --drop_all"),
};

static const struct lnetctl_cmd fault_delay_cmds[] = {
	FAULT_CMDS(LNET_FAULT_DELAY, "delay", delay_add_opts,
		   "add a delay rule: --source --dest --latency, and --rate or --interval"),
};

const struct lnetctl_cmd lnetctl_fault_cmds[] = {
	{ "drop", NULL, fault_drop_cmds, NULL,
	  "drop messages that match: sends (health may react) and receives" },
	{ "delay", NULL, fault_delay_cmds, NULL,
	  "hold messages that match for a latency (sends and receives), then let them go on" },
	{ NULL }
};
