// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl __complete: the machine interface behind completions/lnetctl and
 * the consistency tests. It is hidden from help (it is not for people) and
 * prints one candidate per line on stdout:
 *
 *   __complete commands              the top-level command words
 *   __complete subcommands CMD       CMD's sub-commands (nothing for a leaf)
 *   __complete options CMD [SUB]     every long option of that leaf as
 *                                    --name, --help included (every leaf
 *                                    takes it)
 *   __complete values nets|nids|idx  live values: the nets of the configured
 *                                    NIs, local and peer NIDs, policy rule
 *                                    indexes (0@lo and lo are left out: no
 *                                    option that completes values takes them)
 *   __complete tree                  every leaf as "CMD [SUB]", then one
 *                                    "CMD [SUB] --option" line per option
 *
 * The words come from the tables that dispatch and help walk, so a command
 * or option added to a table is completed, and checked against the man
 * pages by tests/bats/docs.bats, without touching the script.
 *
 * Values never fail: when LNet cannot be reached or is down there is
 * nothing to offer, so nothing is printed and the status is still 0 (a
 * completion has no good place to print an error). A bad KIND or a command
 * word that names nothing is a usage error (2): a bug in the caller.
 */
#include <errno.h>
#include <string.h>
#include "lnetctl.h"

static bool visible(const struct lnetctl_cmd *c)
{
	return c->name && !c->hidden;
}

const struct lnetctl_cmd *lnetctl_cmd_lookup(const struct lnetctl_cmd *table,
					     const char *word)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, word))
			return table;
	return NULL;
}

void lnetctl_table_words(const struct lnetctl_cmd *table,
			 void (*fn)(const char *word, void *arg), void *arg)
{
	for (; table && table->name; table++)
		if (visible(table))
			fn(table->name, arg);
}

void lnetctl_option_words(const struct lnetctl_opt *opts,
			  void (*fn)(const char *word, void *arg), void *arg)
{
	char buf[64];

	for (; opts && opts->name; opts++) {
		snprintf(buf, sizeof(buf), "--%s", opts->name);
		fn(buf, arg);
	}
	fn("--help", arg);	/* not in the tables: opts.c gives it to every leaf */
}

static void print_word(const char *word, void *arg)
{
	fprintf(arg, "%s\n", word);
}

static void print_names(FILE *out, const struct lnetctl_cmd *table)
{
	lnetctl_table_words(table, print_word, out);
}

static void print_opts(FILE *out, const char *prefix, const struct lnetctl_opt *opts)
{
	for (; opts && opts->name; opts++)
		fprintf(out, "%s--%s\n", prefix, opts->name);
}

/* CMD [SUB] down to a leaf; a usage error (message printed) otherwise. */
static const struct lnetctl_cmd *find_leaf(const struct lnetctl_ctx *ctx,
					   int argc, char **argv)
{
	const struct lnetctl_cmd *c = lnetctl_cmd_lookup(lnetctl_root, argv[0]);

	if (c && c->sub && argc == 2)
		c = lnetctl_cmd_lookup(c->sub, argv[1]);
	else if (c && (c->sub ? argc != 2 : argc != 1))
		c = NULL;
	if (!c)
		lnetctl_msg(ctx, "'%s%s%s' names no command that takes options: "
			    "expected CMD [SUB]", argv[0], argc > 1 ? " " : "",
			    argc > 1 ? argv[1] : "");
	return c;
}

static int complete_subcommands(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_cmd *c;

	if (argc != 1)
		return lnetctl_usage(ctx, "usage: __complete subcommands CMD");
	c = lnetctl_cmd_lookup(lnetctl_root, argv[0]);
	if (!c)
		return lnetctl_usage(ctx, "unknown command '%s'", argv[0]);
	print_names(ctx->out, c->sub);
	return LNETCTL_OK;
}

static int complete_options(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_cmd *c;

	if (argc < 1 || argc > 2)
		return lnetctl_usage(ctx, "usage: __complete options CMD [SUB]");
	c = find_leaf(ctx, argc, argv);
	if (!c)
		return LNETCTL_USAGE;
	lnetctl_option_words(c->opts, print_word, ctx->out);
	return LNETCTL_OK;
}

/* The leaves under @table, "PATH" then "PATH --option" lines; aliases too. */
static void print_tree(FILE *out, const char *prefix, const struct lnetctl_cmd *table)
{
	char path[64], optprefix[72];

	for (; table->name; table++) {
		if (!visible(table))
			continue;
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? " " : "",
			 table->name);
		if (table->sub) {
			print_tree(out, path, table->sub);
			continue;
		}
		fprintf(out, "%s\n", path);
		snprintf(optprefix, sizeof(optprefix), "%s ", path);
		print_opts(out, optprefix, table->opts);
	}
}

/* --- live values ------------------------------------------------------------- */

/* The nets of the NIs, once each: GET_NET walks a net's NIs one after another. */
static int values_nets(struct cfg_handle *h,
		       void (*fn)(const char *word, void *arg), void *arg)
{
	char buf[LNET_NET_STR_MAX];
	struct lnet_ioc_ni ni;
	u32 net, prev = 0;
	int rc;

	for (u32 i = 0; !(rc = cfg_ni_get(h, i, 0, &ni)); i++) {
		net = lnet_nid_net(&ni.ni_nid);
		if (net == prev || LNET_NET_LND(net) == LNET_LND_LO ||
		    lnet_net_print(net, buf, sizeof(buf)) < 0)
			continue;
		prev = net;
		fn(buf, arg);
	}
	return rc == -ENOENT && !cfg_unreachable(h) ? 0 : rc;
}

static int values_nids(struct cfg_handle *h,
		       void (*fn)(const char *word, void *arg), void *arg)
{
	char buf[LNET_NID_STR_MAX];
	struct lnet_ioc_peer peer;
	struct lnet_ioc_ni ni;
	int rc;

	for (u32 i = 0; !(rc = cfg_ni_get(h, i, 0, &ni)); i++)
		if (ni.ni_nid.nid_lnd != LNET_LND_LO &&
		    lnet_nid_print(&ni.ni_nid, buf, sizeof(buf)) >= 0)
			fn(buf, arg);
	if (rc != -ENOENT || cfg_unreachable(h))
		return rc;
	for (u32 i = 0; !(rc = cfg_peer_ni_get(h, i, NULL, &peer)); i++)
		if (lnet_nid_print(&peer.pr_nid, buf, sizeof(buf)) >= 0)
			fn(buf, arg);
	return rc == -ENOENT && !cfg_unreachable(h) ? 0 : rc;
}

static int values_idx(struct cfg_handle *h,
		      void (*fn)(const char *word, void *arg), void *arg)
{
	struct cfg_policy p;
	char buf[16];
	int rc;

	cfg_policy_init(&p);
	for (u32 i = 0; !(rc = cfg_policy_get(h, i, &p)); i++) {
		snprintf(buf, sizeof(buf), "%u", i);
		fn(buf, arg);
	}
	return rc == -ENOENT && !cfg_unreachable(h) ? 0 : rc;
}

static const struct {
	const char *name;
	int (*walk)(struct cfg_handle *h, void (*fn)(const char *word, void *arg),
		    void *arg);
} value_kinds[] = {
	[LNETCTL_VALUES_NETS] = { "nets", values_nets },
	[LNETCTL_VALUES_NIDS] = { "nids", values_nids },
	[LNETCTL_VALUES_IDX] = { "idx", values_idx },
};

/* The options whose values are live (completions/lnetctl asks with `kind`). */
static const struct {
	const char *opt;
	enum lnetctl_value_kind kind;
} option_values[] = {
	{ "net", LNETCTL_VALUES_NETS },
	{ "nid", LNETCTL_VALUES_NIDS },
	{ "prim_nid", LNETCTL_VALUES_NIDS },
	{ "src", LNETCTL_VALUES_NIDS },
	{ "dst", LNETCTL_VALUES_NIDS },
	{ "rte", LNETCTL_VALUES_NIDS },
	{ "gateway", LNETCTL_VALUES_NIDS },
	{ "source", LNETCTL_VALUES_NIDS },
	{ "idx", LNETCTL_VALUES_IDX },
};

int lnetctl_option_values(const char *name)
{
	for (size_t i = 0; i < sizeof(option_values) / sizeof(option_values[0]); i++)
		if (!strcmp(option_values[i].opt, name))
			return option_values[i].kind;
	return -1;
}

int lnetctl_live_values(struct cfg_handle *h, enum lnetctl_value_kind kind,
			void (*fn)(const char *word, void *arg), void *arg)
{
	if ((unsigned int)kind >= sizeof(value_kinds) / sizeof(value_kinds[0]))
		return -EINVAL;
	return value_kinds[kind].walk(h, fn, arg);
}

static int complete_values(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	size_t k;

	if (argc != 1)
		return lnetctl_usage(ctx, "usage: __complete values nets|nids|idx");
	for (k = 0; k < sizeof(value_kinds) / sizeof(value_kinds[0]); k++)
		if (!strcmp(value_kinds[k].name, argv[0]))
			break;
	if (k == sizeof(value_kinds) / sizeof(value_kinds[0]))
		return lnetctl_usage(ctx, "invalid KIND '%s': expected nets, nids or idx",
				     argv[0]);
	/* A failed read has printed nothing new: there is just nothing more to offer. */
	lnetctl_live_values(ctx->h, k, print_word, ctx->out);
	return LNETCTL_OK;
}

/* `kind --OPTION`: which live values OPTION takes; nothing when none. */
static int complete_kind(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	int k;

	if (argc != 1 || strncmp(argv[0], "--", 2))
		return lnetctl_usage(ctx, "usage: __complete kind --OPTION");
	k = lnetctl_option_values(argv[0] + 2);
	if (k >= 0)
		fprintf(ctx->out, "%s\n", value_kinds[k].name);
	return LNETCTL_OK;
}

/* --- the command ---------------------------------------------------------------- */

int lnetctl_complete(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const char *what = argc ? argv[0] : "";

	if (!strcmp(what, "commands") && argc == 1) {
		print_names(ctx->out, lnetctl_root);
		return LNETCTL_OK;
	}
	if (!strcmp(what, "tree") && argc == 1) {
		print_tree(ctx->out, "", lnetctl_root);
		return LNETCTL_OK;
	}
	if (!strcmp(what, "subcommands"))
		return complete_subcommands(ctx, argc - 1, argv + 1);
	if (!strcmp(what, "options"))
		return complete_options(ctx, argc - 1, argv + 1);
	if (!strcmp(what, "values"))
		return complete_values(ctx, argc - 1, argv + 1);
	if (!strcmp(what, "kind"))
		return complete_kind(ctx, argc - 1, argv + 1);
	return lnetctl_usage(ctx, "expected commands, subcommands CMD, options CMD [SUB], "
			     "values nets|nids|idx, kind --OPTION or tree");
}
