// SPDX-License-Identifier: GPL-2.0-only
/*
 * Help text, generated from the command and option tables so that it can
 * never disagree with what the parser accepts. Help goes to stdout and
 * exits 0, wherever it is asked for.
 */
#include <string.h>
#include "lnetctl.h"

#define PATH_MAX_LEN	64

void lnetctl_print_leaf(FILE *out, const char *path, const struct lnetctl_cmd *cmd)
{
	fprintf(out, "%s%s%s: %s\n", path, cmd->args ? " " : "",
		cmd->args ? cmd->args : "", cmd->summary);
	lnetctl_print_opts(out, cmd->opts);
}

void lnetctl_print_group(FILE *out, const char *prefix, const struct lnetctl_cmd *table)
{
	char path[PATH_MAX_LEN];

	for (; table->name; table++) {
		if (table->hidden)
			continue;
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? " " : "",
			 table->name);
		if (table->sub)
			lnetctl_print_group(out, path, table->sub);
		else
			lnetctl_print_leaf(out, path, table);
	}
}

/* One line per leaf command; an alias of a group gets one line after the group's. */
static void print_summaries(FILE *out)
{
	const struct lnetctl_cmd *g, *c;

	for (g = lnetctl_root; g->name; g++) {
		if (g->hidden)
			continue;
		if (!g->sub)
			fprintf(out, "\t%s%s%s: %s\n", g->name, g->args ? " " : "",
				g->args ? g->args : "", g->summary);
		for (c = g->sub; c && c->name; c++)
			fprintf(out, "\t%s %s%s%s: %s\n", g->name, c->name,
				c->args ? " " : "", c->args ? c->args : "", c->summary);
		if (g->alias)
			fprintf(out, "\t%s: the same as %s\n", g->alias, g->name);
	}
}

void lnetctl_print_usage(FILE *out)
{
	fprintf(out,
		"usage: lnetctl [--socket PATH] COMMAND [SUBCOMMAND] [OPTIONS] [ARGS]\n"
		"       lnetctl [--socket PATH]\n"
		"\n"
		"With no command, lnetctl reads commands from stdin, one per line: an\n"
		"interactive shell on a terminal ('quit' or 'exit' to leave), else a script\n"
		"that stops at the first failing line and exits with its status. There a\n"
		"command word may be a prefix that names one command only ('po sh').\n"
		"\n"
		"Global options (before the command):\n"
		"\t--socket: PATH of lnetd's socket (default: /dev/lnet when it exists,\n"
		"\t          else $LNET_SOCKET, else " CFG_DEFAULT_SOCKET ")\n"
		"\t--version: print the version and exit 0\n"
		"\t--list-commands: list the commands, four to a line, and exit 0\n"
		"\t--help: print this help and exit 0\n"
		"\n"
		"Commands:\n");
	print_summaries(out);
	fprintf(out,
		"\n"
		"'lnetctl help COMMAND [SUBCOMMAND]' or 'lnetctl COMMAND [SUBCOMMAND] --help'\n"
		"prints the options of a command. Long options may be abbreviated to any\n"
		"unambiguous prefix (--prio is --priority); --opt=value works too.\n"
		"Show commands take -v/--verbose [LEVEL] (0-%d; -v alone is 1; 4 adds the\n"
		"UDSP values).\n"
		"\n"
		"Exit status:\n"
		"\t0: success\n"
		"\t1: error (the operation failed; the message says why)\n"
		"\t2: usage error (unknown or ambiguous option, missing argument, bad value\n"
		"\t   on the command line)\n", LNETCTL_MAX_VERBOSE);
}

int lnetctl_help_cmd(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_cmd *table = lnetctl_root, *c = NULL;
	struct lnetctl_args a;
	char path[PATH_MAX_LEN] = "";

	if (!lnetctl_parse(ctx, argc, argv, 0, 3, &a))	/* fault drop add */
		return a.status;
	for (int i = 0; i < a.npos; i++) {
		if (!table)
			return lnetctl_usage(ctx, "'%s' has no sub-command '%s'", path, a.pos[i]);
		c = lnetctl_cmd_match(table, a.pos[i]);
		if (!c)
			return lnetctl_usage(ctx, "unknown command '%s%s%s'", path,
					     *path ? " " : "", a.pos[i]);
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s%s",
			 *path ? " " : "", a.pos[i]);
		table = c->sub;
	}
	if (!c)
		lnetctl_print_usage(ctx->out);
	else if (c->sub)
		lnetctl_print_group(ctx->out, path, c->sub);
	else
		lnetctl_print_leaf(ctx->out, path, c);
	return LNETCTL_OK;
}
