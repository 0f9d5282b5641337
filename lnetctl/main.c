// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl: global options, the command matcher, table dispatch and
 * messages. Every command word is matched exactly, name or alias, against
 * the table of its level (lnetctl_cmd_match: the one matcher of argv, the
 * shell, help and completion); only long options may be abbreviated (see
 * opts.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "lnetctl.h"

#define LNETCTL_VERSION	"0.1.0"

const struct lnetctl_cmd lnetctl_root[] = {
	{ "lnet", NULL, lnetctl_lnet_cmds, NULL, "bring LNet up or down" },
	{ "net", NULL, lnetctl_net_cmds, NULL, "add, delete and show local NIs" },
	{ "peer", NULL, lnetctl_peer_cmds, NULL, "add, delete and show peers" },
	{ "policy", NULL, lnetctl_policy_cmds, NULL,
	  "add, delete and show UDSP rules (alias: udsp)", .alias = "udsp" },
	{ "route", NULL, lnetctl_route_cmds, NULL, "add, delete and show routes to remote nets" },
	{ "routing", NULL, lnetctl_routing_cmds, NULL, "show routing and the router buffers" },
	{ "set", NULL, lnetctl_set_cmds, NULL,
	  "set routing, router buffers and global settings" },
	{ "global", NULL, lnetctl_global_cmds, NULL, "show the global settings" },
	{ "stats", NULL, lnetctl_stats_cmds, NULL, "show or reset the LNet statistics" },
	{ "ping", lnetctl_ping, NULL, lnetctl_ping_opts,
	  "ping nodes: their primary NID and the NIDs their reply lists", "NID [NID...]" },
	{ "discover", lnetctl_discover, NULL, lnetctl_discover_opts,
	  "discover nodes: ping them and make their peers hold every NID they list",
	  "NID [NID...]" },
	{ "selftest", NULL, lnetctl_selftest_cmds, NULL,
	  "PUT or GET pattern data to a node's selftest service and check it; run lnet_selftest tests" },
	{ "debug", NULL, lnetctl_debug_cmds, NULL,
	  "check NID expressions; list the NIs in recovery; print one peer in full" },
	{ "fault", NULL, lnetctl_fault_cmds, NULL,
	  "drop or delay messages that match rules (fault injection, for tests)" },
	{ "cpt-of-nid", lnetctl_cpt_of_nid, NULL, NULL,
	  "the CPU partition of each NID, as YAML (always 0: LNet has one partition here)",
	  "NID [NID...]" },
	{ "import", lnetctl_import, NULL, lnetctl_import_opts,
	  "apply a YAML configuration (net, peer and udsp sections) from FILE or stdin",
	  "[FILE|-]" },
	{ "export", lnetctl_export, NULL, lnetctl_export_opts,
	  "write the running configuration as YAML to FILE or stdout", "[FILE|-]" },
	{ "convert", lnetctl_convert, NULL, lnetctl_convert_opts,
	  "print as YAML the lnet module parameters of a modprobe.d FILE (or stdin), or the strings given",
	  "[FILE|-]" },
	{ "help", lnetctl_help_cmd, NULL, NULL,
	  "print the help of a command group or command", "[COMMAND [SUBCOMMAND...]]" },
	{ "version", lnetctl_version_cmd, NULL, NULL, "print the version (as --version)" },
	{ "list-commands", lnetctl_list_commands, NULL, NULL,
	  "list the commands, four to a line (as --list-commands)" },
	{ "__complete", lnetctl_complete, NULL, NULL,
	  "words for shell completion (see complete.c)", "WHAT [WORDS]", true },
	{ NULL }
};

const struct lnetctl_opt lnetctl_global_opts[] = {
	[LNETCTL_G_SOCKET] = { "socket", 0, LNETCTL_VALUE,
			       "PATH of lnetd's socket (default: /dev/lnet when it exists, "
			       "else $LNET_SOCKET, else " CFG_DEFAULT_SOCKET ")",
			       .values = LNETCTL_VALUES_FILE },
	[LNETCTL_G_VERSION] = { "version", 0, LNETCTL_FLAG, "print the version and exit 0" },
	[LNETCTL_G_LIST] = { "list-commands", 0, LNETCTL_FLAG,
			     "list the commands, four to a line, and exit 0" },
	{ NULL }
};

static void vmsg(const struct lnetctl_ctx *ctx, const char *fmt, va_list ap)
{
	if (ctx->where)
		fprintf(stderr, "%s: ", ctx->where);
	fprintf(stderr, "lnetctl%s%s: ", ctx->path[0] ? " " : "", ctx->path);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void lnetctl_msg(const struct lnetctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(ctx, fmt, ap);
	va_end(ap);
}

int lnetctl_usage(const struct lnetctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(ctx, fmt, ap);
	va_end(ap);
	return LNETCTL_USAGE;
}

/*
 * A leaf's words: lnetctl_scan() (opts.c) says what it found, and this
 * prints the help or the usage error it stands for.
 */
bool lnetctl_parse(struct lnetctl_ctx *ctx, int argc, char **argv,
		   int min_pos, int max_pos, struct lnetctl_args *a)
{
	struct lnetctl_scan s = { .opts = ctx->cmd->opts };
	int rc = lnetctl_scan(&s, argc, argv, a);

	if (rc == LNETCTL_OPT_HELP) {
		lnetctl_print_leaf(ctx->out, ctx->path, ctx->cmd);
		a->status = LNETCTL_OK;
		return false;
	}
	if (rc == LNETCTL_OPT_NONE) {
		a->status = lnetctl_usage(ctx, "%s", s.msg);
		return false;
	}
	if (a->npos > max_pos) {
		a->status = lnetctl_usage(ctx, "unexpected argument '%s'", a->pos[max_pos]);
		return false;
	}
	if (a->npos < min_pos) {
		a->status = lnetctl_usage(ctx, "missing argument %s", ctx->cmd->args);
		return false;
	}
	return true;
}

int lnetctl_missing(const struct lnetctl_ctx *ctx, int i)
{
	return lnetctl_usage(ctx, "missing required option --%s", ctx->cmd->opts[i].name);
}

int lnetctl_verbose(const struct lnetctl_ctx *ctx, const char *val, int *level)
{
	struct cfg_err err;
	s32 v = 0;

	if (val && cfg_parse_arg_s32("--verbose", val, 0, LNETCTL_MAX_VERBOSE, &v, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	*level = v;
	return LNETCTL_OK;
}

int lnetctl_fail(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err)
{
	if (err && err->msg[0])
		lnetctl_msg(ctx, "%s", err->msg);
	else if (rc == -ENETDOWN)
		lnetctl_msg(ctx, "LNet is not configured (run 'lnetctl lnet configure')");
	else if (rc == -ECONNREFUSED || rc == -ENOENT)
		lnetctl_msg(ctx, "cannot reach %s: %s", cfg_target(ctx->h), strerror(-rc));
	else
		lnetctl_msg(ctx, "%s", strerror(-rc));
	return LNETCTL_ERR;
}

int lnetctl_show_done(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err)
{
	if (rc)
		return lnetctl_fail(ctx, rc, err);
	if (cfg_unreachable(ctx->h)) {
		const char *target = cfg_target(ctx->h);

		lnetctl_msg(ctx, "cannot reach %s%s", strncmp(target, "/dev/", 5) ?
			    "lnetd at " : "", target);
		return LNETCTL_ERR;
	}
	return LNETCTL_OK;
}

int lnetctl_done(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err)
{
	return rc ? lnetctl_fail(ctx, rc, err) : LNETCTL_OK;
}

int lnetctl_run(struct lnetctl_ctx *ctx, int argc, char **argv,
		int (*call)(struct cfg_handle *h, struct cfg_err *err))
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_done(ctx, call(ctx->h, &err), &err);
}

int lnetctl_run_show(struct lnetctl_ctx *ctx, int argc, char **argv,
		     int (*show)(struct cfg_handle *h, FILE *out, struct cfg_err *err))
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return lnetctl_show_done(ctx, show(ctx->h, ctx->out, &err), &err);
}

const struct lnetctl_cmd *lnetctl_cmd_match(const struct lnetctl_cmd *table,
					    const char *word)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, word) || (table->alias && !strcmp(table->alias, word)))
			return table;
	return NULL;
}

static bool abbreviates(const char *word, const char *name)
{
	return name && !strncmp(name, word, strlen(word));
}

const struct lnetctl_cmd *lnetctl_cmd_match_prefix(const struct lnetctl_cmd *table,
						   const char *word, char *msg, size_t len)
{
	const struct lnetctl_cmd *c = lnetctl_cmd_match(table, word), *found = NULL;
	size_t used = 0;
	int n = 0;

	if (c || !*word)
		return c;
	for (c = table; c && c->name; c++) {
		if (c->hidden || !(abbreviates(word, c->name) || abbreviates(word, c->alias)))
			continue;
		found = c;
		if (msg && used < len)
			used += snprintf(msg + used, len - used, "%s%s", n ? ", " : "",
					 abbreviates(word, c->name) ? c->name : c->alias);
		n++;
	}
	if (n == 1)
		return found;
	if (n > 1 && msg) {
		char cands[256];

		snprintf(cands, sizeof(cands), "%s", msg);
		snprintf(msg, len, "ambiguous command '%s': could be %s", word, cands);
	} else if (msg && len) {
		msg[0] = '\0';
	}
	return NULL;
}

void lnetctl_table_words(const struct lnetctl_cmd *table,
			 void (*fn)(const char *word, void *arg), void *arg)
{
	for (; table && table->name; table++) {
		if (table->hidden)
			continue;
		fn(table->name, arg);
		if (table->alias)
			fn(table->alias, arg);
	}
}

struct names {
	char buf[512];
	size_t n;
};

static void add_name(const char *word, void *arg)
{
	struct names *names = arg;

	if (names->n < sizeof(names->buf))
		names->n += snprintf(names->buf + names->n, sizeof(names->buf) - names->n,
				     "%s%s", names->n ? ", " : "", word);
}

static bool is_help(const char *w)
{
	return !strcmp(w, "--help") || !strcmp(w, "-h");
}

static void path_append(struct lnetctl_ctx *ctx, const char *name)
{
	size_t n = strlen(ctx->path);

	snprintf(ctx->path + n, sizeof(ctx->path) - n, "%s%s", n ? " " : "", name);
}

static int group_help(struct lnetctl_ctx *ctx, const struct lnetctl_cmd *table,
		      int argc, char **argv)
{
	if (argc > 1)
		return lnetctl_usage(ctx, "unexpected argument '%s'", argv[1]);
	if (table == lnetctl_root)
		lnetctl_print_usage(ctx->out);
	else
		lnetctl_print_group(ctx->out, ctx->path, table);
	return LNETCTL_OK;
}

int lnetctl_dispatch(struct lnetctl_ctx *ctx, const struct lnetctl_cmd *table,
		     int argc, char **argv)
{
	const struct lnetctl_cmd *c;
	struct names names = { "", 0 };
	char ambiguous[320] = "";

	lnetctl_table_words(table, add_name, &names);
	if (argc == 0)
		return lnetctl_usage(ctx, "missing command: one of %s", names.buf);
	if (is_help(argv[0]))
		return group_help(ctx, table, argc, argv);
	c = ctx->prefixes ? lnetctl_cmd_match_prefix(table, argv[0], ambiguous,
						     sizeof(ambiguous)) :
			    lnetctl_cmd_match(table, argv[0]);
	if (!c && ambiguous[0])
		return lnetctl_usage(ctx, "%s", ambiguous);
	if (!c)
		return lnetctl_usage(ctx, "unknown command '%s': expected one of %s",
				     argv[0], names.buf);
	/* as typed ("udsp add" stays udsp), a prefix as the word it stands for */
	path_append(ctx, lnetctl_cmd_match(table, argv[0]) ? argv[0] : c->name);
	if (c->sub)
		return lnetctl_dispatch(ctx, c->sub, argc - 1, argv + 1);
	ctx->cmd = c;
	return c->fn(ctx, argc - 1, argv + 1);
}

static int print_version(void)
{
	printf("lnetctl %s (ioctl ABI %u.%u)\n", LNETCTL_VERSION,
	       LNET_IOC_VERSION >> 16, LNET_IOC_VERSION & 0xffff);
	return LNETCTL_OK;
}

int lnetctl_version_cmd(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return print_version();
}

struct columns {
	FILE *out;
	unsigned int n;
};

/* Lustre's layout, which its completion scripts split on blanks: 20 wide, 4 a line. */
static void column_word(const char *word, void *arg)
{
	struct columns *c = arg;

	fprintf(c->out, ++c->n % 4 ? "%-20s" : "%s\n", word);
}

static int list_commands(FILE *out)
{
	struct columns c = { out, 0 };

	lnetctl_table_words(lnetctl_root, column_word, &c);
	if (c.n % 4)
		fputc('\n', out);
	return LNETCTL_OK;
}

int lnetctl_list_commands(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_args a;

	if (!lnetctl_parse(ctx, argc, argv, 0, 0, &a))
		return a.status;
	return list_commands(ctx->out);
}

/* Flush stdout: a full disk or a closed pipe is an error, not a success. */
static int finish_output(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "lnetctl: error writing output: %s\n", strerror(errno));
		return rc ? rc : LNETCTL_ERR;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct lnetctl_ctx ctx = { .out = stdout };
	struct lnetctl_scan s = { .opts = lnetctl_global_opts, .stop_at_word = true };
	struct lnetctl_args a;
	const char *socket;
	int first, rc;

	first = lnetctl_scan(&s, argc - 1, argv + 1, &a);
	if (first == LNETCTL_OPT_HELP) {
		lnetctl_print_usage(stdout);
		return finish_output(LNETCTL_OK);
	}
	if (first < 0)
		return lnetctl_usage(&ctx, "%s (see 'lnetctl --help')", s.msg);
	if (a.val[LNETCTL_G_VERSION] && first < argc - 1)
		return lnetctl_usage(&ctx, "--version takes no command ('%s')", argv[1 + first]);
	if (a.val[LNETCTL_G_VERSION])
		return finish_output(print_version());
	if (a.val[LNETCTL_G_LIST] && first < argc - 1)
		return lnetctl_usage(&ctx, "--list-commands takes no command ('%s')",
				     argv[1 + first]);
	if (a.val[LNETCTL_G_LIST])
		return finish_output(list_commands(stdout));
	socket = a.val[LNETCTL_G_SOCKET];
	if (socket && !socket[0])
		return lnetctl_usage(&ctx, "invalid --socket '': expected a path");
	rc = cfg_open(socket, &ctx.h);
	if (rc)
		return lnetctl_fail(&ctx, rc, NULL);
	if (first == argc - 1)
		rc = lnetctl_shell(&ctx);
	else
		rc = lnetctl_dispatch(&ctx, lnetctl_root, argc - 1 - first, argv + 1 + first);
	cfg_close(ctx.h);
	return finish_output(rc);
}
