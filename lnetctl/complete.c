// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion: the one engine behind Tab in the shell (shell.c) and the
 * bash completion (completions/lnetctl, through `lnetctl __complete line`).
 * It reads the line as argv would be read: the commands through
 * lnetctl_cmd_match(), the options through lnetctl_scan() in its partial
 * mode, so a prefix, an alias or an option already given means to the
 * completion what it means to the parser. The positional words come from
 * the leaf's args in its table: FILE is a file name (the caller completes
 * it), NID a live NID, COMMAND and SUBCOMMAND (help) the table words. An
 * option's value is what its row's .values says (lnetctl.h).
 *
 * lnetctl __complete, hidden from help (it is not for people), prints one
 * word per line on stdout:
 *
 *   __complete line WORD...          the candidates for the last WORD (the
 *                                    word at the cursor, may be empty)
 *                                    after the others: first "words" or
 *                                    "files" (complete a file name), then
 *                                    each candidate, a whole word
 *   __complete commands              the top-level command words
 *   __complete subcommands CMD       CMD's sub-commands (nothing for a leaf)
 *   __complete options CMD [SUB...]  every long option of that leaf as
 *                                    --name (and --alias), --help included
 *   __complete values nets|nids|idx  live values: the nets of the configured
 *                                    NIs, local and peer NIDs, policy rule
 *                                    indexes (0@lo and lo are left out: no
 *                                    option that completes values takes them)
 *   __complete kind --OPTION         which of those OPTION takes (nothing
 *                                    when none)
 *   __complete tree                  every leaf as "CMD [SUB]", then one
 *                                    "CMD [SUB] --option" line per option
 *   __complete kinds                 "--option KIND" per global option, then
 *                                    "CMD [SUB] --option KIND" per option of
 *                                    tree: flag, text (typed, nothing to
 *                                    offer), nets, nids, idx, files, or unset
 *                                    (a row that does not say: a bug)
 *
 * The words come from the tables that dispatch and help walk, so a command
 * or option added to a table is completed, and checked against the man
 * pages by tests/bats/docs.bats, without touching the script. Names and
 * aliases alike: every spelling the matchers take exactly is offered.
 *
 * Values never fail: when LNet cannot be reached or is down there is
 * nothing to offer, so nothing is printed and the status is still 0 (a
 * completion has no good place to print an error). A bad KIND or a command
 * word that names nothing is a usage error (2): a bug in the caller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lnetctl.h"

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

/* Each kind of value by its name in __complete; the live ones with their walk. */
static const struct {
	const char *name;
	int (*walk)(struct cfg_handle *h, void (*fn)(const char *word, void *arg),
		    void *arg);
} value_kinds[] = {
	[LNETCTL_VALUES_UNSET] = { "unset", NULL },
	[LNETCTL_VALUES_TYPED] = { "text", NULL },
	[LNETCTL_VALUES_NETS] = { "nets", values_nets },
	[LNETCTL_VALUES_NIDS] = { "nids", values_nids },
	[LNETCTL_VALUES_IDX] = { "idx", values_idx },
	[LNETCTL_VALUES_FILE] = { "files", NULL },
};

#define N_VALUE_KINDS	(sizeof(value_kinds) / sizeof(value_kinds[0]))

/* Whether @kind is one that LNet is asked for. */
static bool live_kind(enum lnetctl_value_kind kind)
{
	return (unsigned int)kind < N_VALUE_KINDS && value_kinds[kind].walk;
}

/* @fn(word, @arg) for each live value of @kind; 0, or the -errno of the failed read. */
static int live_values(struct cfg_handle *h, enum lnetctl_value_kind kind,
		       void (*fn)(const char *word, void *arg), void *arg)
{
	if (!live_kind(kind))
		return -EINVAL;
	return value_kinds[kind].walk(h, fn, arg);
}

/* --- the engine ------------------------------------------------------------------ */

/* One completion: where candidates go, the live values' LNet, what is typed. */
struct offer {
	const struct lnetctl_comp *c;
	struct cfg_handle *h;	/* c->h, or the LNet of the --socket on the line */
	const char *prefix;	/* "--opt=" typed before a value, else "" */
	const char *text;	/* what is typed of the word (after the prefix) */
	char opt_eq[64];	/* the "--opt=" that prefix points to */
};

/* @word, behind the prefix, if it starts with what is typed. */
static void offer(const char *word, void *arg)
{
	const struct offer *o = arg;
	char buf[256];

	if (strncmp(word, o->text, strlen(o->text)))
		return;
	snprintf(buf, sizeof(buf), "%s%s", o->prefix, word);
	o->c->add(buf, o->c->arg);
}

/* What option @i of @opts takes, as its row says (none for an unknown one). */
static enum lnetctl_comp_kind offer_values(struct offer *o, const struct lnetctl_opt *opts,
					   int i)
{
	enum lnetctl_value_kind kind = i >= 0 ? opts[i].values : LNETCTL_VALUES_UNSET;

	if (kind == LNETCTL_VALUES_FILE)
		return LNETCTL_COMP_FILES;
	/* a failed read has nothing to offer, and no place to say so */
	if (live_kind(kind))
		live_values(o->h, kind, offer, o);
	return LNETCTL_COMP_WORDS;
}

/*
 * When the word at the cursor is the value of an option of @opts (@s their
 * partial scan): "--opt=VALUE", or any word after a VALUE option that is
 * still waiting. Offers what the row says into @kind and returns true.
 */
static bool complete_value(struct offer *o, const struct lnetctl_scan *s,
			   const struct lnetctl_opt *opts, enum lnetctl_comp_kind *kind)
{
	const char *text = o->text, *eq = strchr(text, '=');

	if (!s->words_only && !strncmp(text, "--", 2) && eq) {
		snprintf(o->opt_eq, sizeof(o->opt_eq), "%.*s", (int)(eq - text + 1), text);
		o->prefix = o->opt_eq;
		o->text = eq + 1;
		*kind = offer_values(o, opts, lnetctl_opt_match(opts, text + 2, eq - text - 2,
								NULL, 0));
		return true;
	}
	if (s->pending >= 0 && strncmp(text, "--", 2)) {
		*kind = offer_values(o, opts, s->pending);
		return true;
	}
	return false;
}

/*
 * The placeholder of positional word @idx in @args (its table's help, such
 * as "NID [NID...]" or "[COMMAND [SUBCOMMAND]]") into @buf: the capitals of
 * that word, the last one again if it ends in "...". False if none.
 */
static bool pos_word(const char *args, int idx, char *buf, size_t len)
{
	const char *p = args, *word = NULL;
	size_t n = 0;
	bool repeats = false;

	for (int i = 0; p && *(p += strspn(p, " [")); i++) {
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
		word = p;
		p += strcspn(p, " ");
		repeats = n && !strncmp(word + n, "...", 3);
		if (i == idx)
			break;
		word = repeats ? word : NULL;
	}
	if (!word || !n)
		return false;
	snprintf(buf, len, "%.*s", (int)n, word);
	return true;
}

/* The positional word after @a's: a file, a NID or (help) a command word. */
static enum lnetctl_comp_kind offer_positional(struct offer *o, const struct lnetctl_cmd *cmd,
					       const struct lnetctl_args *a)
{
	const struct lnetctl_cmd *table = lnetctl_root, *c;
	char word[32];

	if (!pos_word(cmd->args, a->npos, word, sizeof(word)))
		return LNETCTL_COMP_WORDS;
	if (!strcmp(word, "FILE"))
		return LNETCTL_COMP_FILES;
	if (!strcmp(word, "NID")) {
		live_values(o->h, LNETCTL_VALUES_NIDS, offer, o);
		return LNETCTL_COMP_WORDS;
	}
	if (strcmp(word, "COMMAND") && strcmp(word, "SUBCOMMAND"))
		return LNETCTL_COMP_WORDS;
	for (int i = 0; i < a->npos && table; i++) {
		c = lnetctl_cmd_match(table, a->pos[i]);
		table = c ? c->sub : NULL;
	}
	lnetctl_table_words(table, offer, o);
	return LNETCTL_COMP_WORDS;
}

/* The word after the leaf @cmd and its @n words so far. */
static enum lnetctl_comp_kind complete_leaf(struct offer *o, const struct lnetctl_cmd *cmd,
					    int n, char **words)
{
	struct lnetctl_scan s = { .opts = cmd->opts, .partial = true };
	enum lnetctl_comp_kind kind;
	struct lnetctl_args a;

	lnetctl_scan(&s, n, words, &a);
	if (complete_value(o, &s, cmd->opts, &kind))
		return kind;
	if (s.unknown)		/* the word may be its value: nothing is right */
		return LNETCTL_COMP_WORDS;
	if (!s.words_only && (o->text[0] == '-' || !cmd->args)) {
		lnetctl_option_words(cmd->opts, &a, offer, o);
		return LNETCTL_COMP_WORDS;
	}
	return offer_positional(o, cmd, &a);
}

/* Walk @words down the tables from the root, as dispatch does; then the word. */
static enum lnetctl_comp_kind complete_cmd(struct offer *o, int n, char **words)
{
	const struct lnetctl_cmd *table = lnetctl_root, *cmd = NULL;
	int i;

	for (i = 0; i < n && table; i++) {
		/* the shell takes unique prefixes of command words, bash exact words */
		cmd = o->c->shell_cmds ? lnetctl_cmd_match_prefix(table, words[i], NULL, 0) :
					 lnetctl_cmd_match(table, words[i]);
		if (!cmd)
			return LNETCTL_COMP_WORDS;
		table = cmd->sub;
	}
	if (!table)
		return complete_leaf(o, cmd, n - i, words + i);
	if (n == 0)
		lnetctl_table_words(o->c->shell_cmds, offer, o);
	lnetctl_table_words(table, offer, o);
	return LNETCTL_COMP_WORDS;
}

/* A word among the global options (@s and @a their partial scan): an option, PATH or the command. */
static enum lnetctl_comp_kind complete_globals(struct offer *o, const struct lnetctl_scan *s,
					       const struct lnetctl_args *a)
{
	enum lnetctl_comp_kind kind;

	if (complete_value(o, s, lnetctl_global_opts, &kind))
		return kind;
	if (s->unknown)
		return LNETCTL_COMP_WORDS;
	if (!s->words_only && o->text[0] == '-')
		lnetctl_option_words(lnetctl_global_opts, a, offer, o);
	else
		lnetctl_table_words(lnetctl_root, offer, o);
	return LNETCTL_COMP_WORDS;
}

/* The --socket PATH typed on the line, "~/" as the shell would expand it, into @buf. */
static const char *line_socket(const char *path, char *buf, size_t len)
{
	const char *home = getenv("HOME");

	if (strncmp(path, "~/", 2) || !home)
		return path;
	snprintf(buf, len, "%s/%s", home, path + 2);
	return buf;
}

enum lnetctl_comp_kind lnetctl_complete_line(const struct lnetctl_comp *c, int n,
					     char **words, const char *text)
{
	struct lnetctl_scan s = { .opts = lnetctl_global_opts, .stop_at_word = true,
				  .partial = true };
	struct offer o = { .c = c, .h = c->h, .prefix = "", .text = text };
	struct cfg_handle *own = NULL;
	enum lnetctl_comp_kind kind;
	const char *sock;
	struct lnetctl_args a;
	char buf[4096];
	int first = 0;

	if (!c->shell_cmds) {
		first = lnetctl_scan(&s, n, words, &a);
		if (first == n)
			return complete_globals(&o, &s, &a);
		sock = a.val[LNETCTL_G_SOCKET];
		if (sock && sock[0] && !cfg_open(line_socket(sock, buf, sizeof(buf)), &own))
			o.h = own;
	}
	kind = complete_cmd(&o, n - first, words + first);
	if (own)
		cfg_close(own);
	return kind;
}

/* --- the queries of __complete --------------------------------------------------- */

static void print_word(const char *word, void *arg)
{
	fprintf(arg, "%s\n", word);
}

/* line WORD...: "words" or "files", then the candidates (collected first). */
static int complete_line_words(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct lnetctl_comp c = { .h = ctx->h, .add = print_word };
	enum lnetctl_comp_kind kind;
	char *buf = NULL;
	size_t len = 0;

	if (argc < 1)
		return lnetctl_usage(ctx, "usage: __complete line WORD... (the last one is completed)");
	c.arg = open_memstream(&buf, &len);
	if (!c.arg)
		return lnetctl_fail(ctx, -ENOMEM, NULL);
	kind = lnetctl_complete_line(&c, argc - 1, argv, argv[argc - 1]);
	fclose(c.arg);
	fprintf(ctx->out, "%s\n%s", kind == LNETCTL_COMP_FILES ? "files" : "words",
		buf ? buf : "");
	free(buf);
	return LNETCTL_OK;
}

/*
 * CMD [SUB...] down to a leaf (fault drop add is three words deep); a
 * usage error (message printed) otherwise.
 */
static const struct lnetctl_cmd *find_leaf(const struct lnetctl_ctx *ctx,
					   int argc, char **argv)
{
	const struct lnetctl_cmd *c = lnetctl_cmd_match(lnetctl_root, argv[0]);
	int i;

	for (i = 1; c && c->sub && i < argc; i++)
		c = lnetctl_cmd_match(c->sub, argv[i]);
	if (c && (c->sub || i != argc))
		c = NULL;
	if (!c)
		lnetctl_msg(ctx, "'%s%s%s%s' names no command that takes options: "
			    "expected CMD [SUB...]", argv[0], argc > 1 ? " " : "",
			    argc > 1 ? argv[1] : "", argc > 2 ? " ..." : "");
	return c;
}

static int complete_subcommands(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_cmd *c;

	if (argc != 1)
		return lnetctl_usage(ctx, "usage: __complete subcommands CMD");
	c = lnetctl_cmd_match(lnetctl_root, argv[0]);
	if (!c)
		return lnetctl_usage(ctx, "unknown command '%s'", argv[0]);
	lnetctl_table_words(c->sub, print_word, ctx->out);
	return LNETCTL_OK;
}

static int complete_options(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_cmd *c;

	if (argc < 1 || argc > 3)
		return lnetctl_usage(ctx, "usage: __complete options CMD [SUB...]");
	c = find_leaf(ctx, argc, argv);
	if (!c)
		return LNETCTL_USAGE;
	lnetctl_option_words(c->opts, NULL, print_word, ctx->out);
	return LNETCTL_OK;
}

/* A walk of tree or kinds: where it is, and what it prints. */
struct tree {
	FILE *out;
	const char *path;
	const struct lnetctl_cmd *table;
	const struct lnetctl_opt *opts;	/* the leaf's, for its options' lines */
	bool kinds;			/* kinds: options only, each with its kind */
};

static void print_tree(const struct tree *t);

/* What completes after @opt, by name: "flag" when it takes no value, "unset" if its row does not say. */
static const char *kind_name(const struct lnetctl_opt *opt)
{
	if (opt->kind == LNETCTL_FLAG)
		return "flag";
	if ((unsigned int)opt->values >= N_VALUE_KINDS)
		return "unset";
	return value_kinds[opt->values].name;
}

/* "PATH --option[ KIND]" for each spelling of the leaf's options: the tables' own, so no --help. */
static void print_tree_option(const char *word, void *arg)
{
	const struct tree *t = arg;
	int i;

	if (!strcmp(word, "--help"))
		return;
	fprintf(t->out, "%s%s%s", t->path, *t->path ? " " : "", word);
	i = lnetctl_opt_match(t->opts, word + 2, strlen(word + 2), NULL, 0);
	if (t->kinds)
		fprintf(t->out, " %s", i >= 0 ? kind_name(&t->opts[i]) : "unset");
	fputc('\n', t->out);
}

/* The entry of t->table that @word spells: its leaves, or the leaf (unless kinds) and its options. */
static void print_tree_entry(const char *word, void *arg)
{
	const struct tree *t = arg;
	const struct lnetctl_cmd *c = lnetctl_cmd_match(t->table, word);
	char path[64];
	struct tree next = { t->out, path, c->sub, c->opts, t->kinds };

	snprintf(path, sizeof(path), "%s%s%s", t->path, *t->path ? " " : "", word);
	if (c->sub) {
		print_tree(&next);
		return;
	}
	if (!t->kinds)
		fprintf(t->out, "%s\n", path);
	lnetctl_option_words(c->opts, NULL, print_tree_option, &next);
}

/* The leaves under t->table, "PATH" then "PATH --option" lines; aliases too. */
static void print_tree(const struct tree *t)
{
	lnetctl_table_words(t->table, print_tree_entry, (void *)t);
}

/* kinds: "--option KIND" for the global options, then "PATH --option KIND" for the leaves'. */
static void print_kinds(FILE *out)
{
	struct tree globals = { out, "", NULL, lnetctl_global_opts, true };
	struct tree leaves = { out, "", lnetctl_root, NULL, true };

	lnetctl_option_words(lnetctl_global_opts, NULL, print_tree_option, &globals);
	print_tree(&leaves);
}

static int complete_values(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	size_t k;

	if (argc != 1)
		return lnetctl_usage(ctx, "usage: __complete values nets|nids|idx");
	for (k = 0; k < N_VALUE_KINDS; k++)
		if (live_kind(k) && !strcmp(value_kinds[k].name, argv[0]))
			break;
	if (k == N_VALUE_KINDS)
		return lnetctl_usage(ctx, "invalid KIND '%s': expected nets, nids or idx",
				     argv[0]);
	/* A failed read has printed nothing new: there is just nothing more to offer. */
	live_values(ctx->h, k, print_word, ctx->out);
	return LNETCTL_OK;
}

/* The first option of the leaves under @table whose name or alias is @name; NULL if none. */
static const struct lnetctl_opt *find_option(const struct lnetctl_cmd *table, const char *name)
{
	const struct lnetctl_opt *opt;

	for (; table && table->name; table++) {
		if (table->sub) {
			opt = find_option(table->sub, name);
			if (opt)
				return opt;
			continue;
		}
		for (opt = table->opts; opt && opt->name; opt++)
			if (!strcmp(opt->name, name) || (opt->alias && !strcmp(opt->alias, name)))
				return opt;
	}
	return NULL;
}

/* `kind --OPTION`: which live values OPTION takes (its row says); nothing when none. */
static int complete_kind(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const struct lnetctl_opt *opt;

	if (argc != 1 || strncmp(argv[0], "--", 2))
		return lnetctl_usage(ctx, "usage: __complete kind --OPTION");
	opt = find_option(lnetctl_root, argv[0] + 2);
	if (opt && live_kind(opt->values))
		fprintf(ctx->out, "%s\n", value_kinds[opt->values].name);
	return LNETCTL_OK;
}

/* --- the command ---------------------------------------------------------------- */

int lnetctl_complete(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const char *what = argc ? argv[0] : "";

	if (!strcmp(what, "line"))
		return complete_line_words(ctx, argc - 1, argv + 1);
	if (!strcmp(what, "commands") && argc == 1) {
		lnetctl_table_words(lnetctl_root, print_word, ctx->out);
		return LNETCTL_OK;
	}
	if (!strcmp(what, "tree") && argc == 1) {
		struct tree t = { ctx->out, "", lnetctl_root, NULL, false };

		print_tree(&t);
		return LNETCTL_OK;
	}
	if (!strcmp(what, "kinds") && argc == 1) {
		print_kinds(ctx->out);
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
	return lnetctl_usage(ctx, "expected line WORD..., commands, subcommands CMD, "
			     "options CMD [SUB], values nets|nids|idx, kind --OPTION, kinds or tree");
}
