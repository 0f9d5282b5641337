/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lnetctl: command tables, the two matchers, the option parser and the
 * helpers every command file shares. Each object (lnet, net, peer, policy,
 * debug, import/export) lives in its own file and exports its command table
 * (ping, discover and selftest, which send traffic, live in dp.c); main.c
 * links them into the tree that argv, the shell, `help`, `--help` and
 * completion all walk, through one command matcher (lnetctl_cmd_match) and
 * one option matcher and parser (lnetctl_opt_match, lnetctl_scan).
 */
#ifndef LNETCTL_H
#define LNETCTL_H

#include <stdbool.h>
#include <stdio.h>
#include "../libcfg/cfg.h"
#include "../kernel/nid/nid.h"	/* lnetctl links the NID library too (libnid.a) */

/* Exit statuses, documented in `lnetctl --help`. */
#define LNETCTL_OK	0
#define LNETCTL_ERR	1	/* the operation failed */
#define LNETCTL_USAGE	2	/* bad option, missing argument, bad value */

#define LNETCTL_MAX_OPTS	16
/* "@x" after expansion: help text from a macro that is a decimal literal. */
#define LNETCTL_STR_(x)		#x
#define LNETCTL_STR(x)		LNETCTL_STR_(x)
#define LNETCTL_MAX_POS		32	/* ping NID... */
#define LNETCTL_MAX_WORDS	64	/* words of one shell line */

enum lnetctl_opt_kind {
	LNETCTL_FLAG,		/* --non_mr */
	LNETCTL_VALUE,		/* --net tcp, --net=tcp, -n tcp, -ntcp */
	LNETCTL_LEVEL,		/* -v, -v 4, -v4, --verbose=4: the number is optional */
};

/*
 * What completes after a VALUE or LEVEL option, said by its row (.values):
 * live values read from LNet, a file name, or nothing (a typed value).
 * UNSET is what a row that says nothing gets: right for a flag, a bug for
 * an option that takes a value (`lnetctl __complete kinds` shows it, and
 * tests/bats/completion.bats fails on it).
 */
enum lnetctl_value_kind {
	LNETCTL_VALUES_UNSET,
	LNETCTL_VALUES_TYPED,	/* a number, a name, a list: nothing to offer */
	LNETCTL_VALUES_NETS,	/* nets of the configured NIs, lo left out */
	LNETCTL_VALUES_NIDS,	/* local NIDs (not 0@lo), then peer NIDs */
	LNETCTL_VALUES_IDX,	/* policy rule indexes */
	LNETCTL_VALUES_FILE,	/* a file name: the caller completes it */
};

struct lnetctl_opt {
	const char *name;		/* long name, without "--" */
	char short_name;		/* 0 = none */
	enum lnetctl_opt_kind kind;
	const char *help;		/* printed as "\t--name: help" */
	const char *alias;		/* a second long name (Lustre's spelling), or NULL */
	enum lnetctl_value_kind values;	/* what completes after it (a flag: none) */
};

struct lnetctl_ctx;

struct lnetctl_cmd {
	const char *name;
	int (*fn)(struct lnetctl_ctx *ctx, int argc, char **argv);
	const struct lnetctl_cmd *sub;		/* a group: its sub-commands */
	const struct lnetctl_opt *opts;		/* a leaf: its options */
	const char *summary;
	const char *args;			/* positional words, for help */
	bool hidden;				/* not listed by help (__complete) */
	const char *alias;			/* a second name (udsp for policy), or NULL */
	unsigned int kind;			/* for @fn: set's buffer kind */
};

struct lnetctl_ctx {
	struct cfg_handle *h;
	FILE *out;				/* show output */
	const struct lnetctl_cmd *cmd;		/* the leaf being run */
	char path[64];				/* the words typed: "udsp add" */
	const char *where;			/* "<stdin>:3" in script mode */
	bool stdin_commands;			/* the shell reads stdin */
	bool quit;				/* the shell's quit or exit was run */
	bool prefixes;				/* the shell: command words may be abbreviated */
};

/*
 * What lnetctl_parse() found. val[i] belongs to opts[i]: NULL when the
 * option was not given, "" for a flag that was, the level ("1" when none
 * was typed) for a LEVEL option.
 */
struct lnetctl_args {
	const char *val[LNETCTL_MAX_OPTS];
	int npos;
	char *pos[LNETCTL_MAX_POS];
	int status;				/* exit status when parsing stops */
};

/* --- tables (one per object file) ------------------------------------------ */

extern const struct lnetctl_cmd lnetctl_root[];
extern const struct lnetctl_cmd lnetctl_lnet_cmds[];
extern const struct lnetctl_cmd lnetctl_net_cmds[];
extern const struct lnetctl_cmd lnetctl_peer_cmds[];
extern const struct lnetctl_cmd lnetctl_policy_cmds[];
extern const struct lnetctl_cmd lnetctl_debug_cmds[];
extern const struct lnetctl_cmd lnetctl_route_cmds[];
extern const struct lnetctl_cmd lnetctl_routing_cmds[];
extern const struct lnetctl_cmd lnetctl_set_cmds[];
extern const struct lnetctl_cmd lnetctl_global_cmds[];
extern const struct lnetctl_cmd lnetctl_stats_cmds[];
extern const struct lnetctl_cmd lnetctl_fault_cmds[];
int lnetctl_import(struct lnetctl_ctx *ctx, int argc, char **argv);
/* explain.c: policy explain */
extern const struct lnetctl_opt lnetctl_explain_opts[];
int lnetctl_policy_explain(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_convert(struct lnetctl_ctx *ctx, int argc, char **argv);
/* The whole of @f into a NUL-terminated malloc'ed buffer (port.c). 0 or -errno. */
int lnetctl_read_all(FILE *f, char **text, size_t *len);
int lnetctl_export(struct lnetctl_ctx *ctx, int argc, char **argv);
extern const struct lnetctl_opt lnetctl_import_opts[];
extern const struct lnetctl_opt lnetctl_convert_opts[];
extern const struct lnetctl_opt lnetctl_export_opts[];
/* main.c: version, list-commands; cpt.c: cpt-of-nid */
int lnetctl_version_cmd(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_list_commands(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_cpt_of_nid(struct lnetctl_ctx *ctx, int argc, char **argv);
/* health.c: net set, peer set */
int lnetctl_net_set(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_peer_set(struct lnetctl_ctx *ctx, int argc, char **argv);
extern const struct lnetctl_opt lnetctl_net_set_opts[];
extern const struct lnetctl_opt lnetctl_peer_set_opts[];
/* dp.c: the commands that send traffic */
int lnetctl_ping(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_discover(struct lnetctl_ctx *ctx, int argc, char **argv);
extern const struct lnetctl_opt lnetctl_ping_opts[];
extern const struct lnetctl_opt lnetctl_discover_opts[];
extern const struct lnetctl_cmd lnetctl_selftest_cmds[];
/* selftest run (lst.c) */
extern const struct lnetctl_opt lnetctl_selftest_run_opts[];
int lnetctl_selftest_run(struct lnetctl_ctx *ctx, int argc, char **argv);
/* The options run and test add share: one help text, one parser (lst.c). */
#define LNETCTL_LST_SIZE_OPT							\
	{ "size", 'z', LNETCTL_VALUE,						\
	  "read/write BYTES per RPC, " LNETCTL_STR(LNET_LST_MIN_SIZE) "-"		\
	  LNETCTL_STR(LNET_LST_MAX_SIZE) ", a multiple of 8, K and M suffixes"	\
	  " (default 1M)", .values = LNETCTL_VALUES_TYPED }
#define LNETCTL_LST_CHECK_OPT							\
	{ "check", 'k', LNETCTL_VALUE,						\
	  "read/write data check: none, simple or full (default simple)",	\
	  .values = LNETCTL_VALUES_TYPED }
#define LNETCTL_LST_CONCURRENCY_OPT						\
	{ "concurrency", 'n', LNETCTL_VALUE,					\
	  "RPCs in flight per client and server, 1-"				\
	  LNETCTL_STR(LNET_LST_MAX_CONCURRENCY) " (default 1)",		\
	  .values = LNETCTL_VALUES_TYPED }
#define LNETCTL_LST_OFFSET_OPT							\
	{ "offset", 'o', LNETCTL_VALUE,						\
	  "read/write: where the client's buffer starts in its first page, 0-"	\
	  LNETCTL_STR(LNET_LST_MAX_OFFSET) ", a multiple of 8; with --size at"	\
	  " most " LNETCTL_STR(LNET_LST_MAX_SIZE) " in all (default 0)",	\
	  .values = LNETCTL_VALUES_TYPED }
/* A test's option values as given (NULL: not given). */
struct lnetctl_lst_test_vals {
	const char *size, *check, *offset, *concur;
};
/*
 * @req->lst_test set: --concurrency, and for read and write --size,
 * --check and --offset of @v into @req; @test_word names where the test
 * came from in the message about ping.
 */
int lnetctl_lst_test_args(const char *test_word, const struct lnetctl_lst_test_vals *v,
			  struct lnet_ioc_lst *req, struct cfg_err *err);
/* "NID,NID..." of @opt into @req->lst_nids after the lst_nfrom + lst_nto there, counted in @n. */
int lnetctl_lst_nids(const char *opt, const char *s, struct lnet_ioc_lst *req, uint32_t *n,
		     struct cfg_err *err);
/* lst's model (lst_model.c): selftest session|group|batch|test|stat */
extern const struct lnetctl_cmd lnetctl_lst_session_cmds[];
extern const struct lnetctl_cmd lnetctl_lst_group_cmds[];
extern const struct lnetctl_cmd lnetctl_lst_batch_cmds[];
extern const struct lnetctl_cmd lnetctl_lst_test_cmds[];
extern const struct lnetctl_opt lnetctl_lst_stat_opts[];
int lnetctl_lst_stat(struct lnetctl_ctx *ctx, int argc, char **argv);

/* --- the two matchers (main.c: commands, opts.c: options) ---------------------- */

/*
 * The entry of @table that @word names: its name or its alias, exactly
 * (case included, no prefixes: a word means one thing at every level).
 * Hidden entries match too. NULL if none. Argv, the shell, help and
 * completion all look commands up here.
 */
const struct lnetctl_cmd *lnetctl_cmd_match(const struct lnetctl_cmd *table,
					    const char *word);
/*
 * The same matcher for the shell, which also takes a unique prefix of a
 * name or alias (`po sh` is policy show), as Lustre's shell does: an exact
 * name or alias first, else the one entry (hidden ones left out) that
 * @word abbreviates. NULL if none, or if several: then, unless @msg is
 * NULL, "ambiguous command 'ro': could be route, routing" in @msg.
 */
const struct lnetctl_cmd *lnetctl_cmd_match_prefix(const struct lnetctl_cmd *table,
						   const char *word, char *msg, size_t len);
/* @fn(word, @arg) for each name and alias of @table that help lists (hidden ones left out). */
void lnetctl_table_words(const struct lnetctl_cmd *table,
			 void (*fn)(const char *word, void *arg), void *arg);

/* What lnetctl_opt_match() and lnetctl_scan() return besides an option's index. */
#define LNETCTL_OPT_NONE	(-1)	/* unknown or ambiguous: the message says which */
#define LNETCTL_OPT_HELP	(-2)	/* --help or -h: every leaf and the top level take it */

/*
 * The option that "--" followed by the @len characters of @name means (as
 * getopt_long reads it): the option whose name or alias it is exactly, else
 * the one option it is a prefix of a spelling of (--prio is --priority).
 * Returns its index in @opts or LNETCTL_OPT_HELP; LNETCTL_OPT_NONE when no
 * option or more than one has that prefix, with the message in @msg (the
 * candidates named) unless @msg is NULL.
 */
int lnetctl_opt_match(const struct lnetctl_opt *opts, const char *name, size_t len,
		      char *msg, size_t msglen);
/* @fn("--spelling", @arg) for each option of @opts that @given does not hold
 * (@given NULL: every one), its name then its alias; then "--help". */
void lnetctl_option_words(const struct lnetctl_opt *opts, const struct lnetctl_args *given,
			  void (*fn)(const char *word, void *arg), void *arg);

/* --- the option parser (opts.c) -------------------------------------------------- */

/* How lnetctl_scan() reads a command's words, and where they leave the next one. */
struct lnetctl_scan {
	const struct lnetctl_opt *opts;
	bool stop_at_word;	/* the global options: stop at the first positional word */
	bool partial;		/* completion: the words end at the cursor; a bad word is skipped */
	/* set by a partial scan, for the word after the last one */
	int pending;		/* the VALUE option still waiting for its value, else -1 */
	bool unknown;		/* the last word was an option that @opts does not have */
	bool words_only;	/* "--" was given: only positional words follow */
	char msg[512];		/* the usage error, naming the option */
};

/*
 * The one parser, for the leaves, the global options and completion: fills
 * @a from argv. Returns the index it stopped at (argc, or the first
 * positional word with stop_at_word); LNETCTL_OPT_HELP when --help or -h
 * was given; LNETCTL_OPT_NONE on a usage error (s->msg). A partial scan
 * never fails.
 */
int lnetctl_scan(struct lnetctl_scan *s, int argc, char **argv, struct lnetctl_args *a);
/*
 * (main.c) Parse the options of the leaf ctx->cmd and between @min_pos and @max_pos
 * positional words. Returns true to go on; false when the command must stop
 * now with a->status: 0 after --help (printed), LNETCTL_USAGE after an
 * error (printed on stderr, naming the option).
 */
bool lnetctl_parse(struct lnetctl_ctx *ctx, int argc, char **argv,
		   int min_pos, int max_pos, struct lnetctl_args *a);

/* The global options (main.c), before the command. */
enum { LNETCTL_G_SOCKET, LNETCTL_G_VERSION, LNETCTL_G_LIST };
extern const struct lnetctl_opt lnetctl_global_opts[];

/* --- dispatch and help (main.c, help.c) --------------------------------------- */

/* Run argv[0..] against @table, the words so far in ctx->path. */
int lnetctl_dispatch(struct lnetctl_ctx *ctx, const struct lnetctl_cmd *table,
		     int argc, char **argv);
int lnetctl_help_cmd(struct lnetctl_ctx *ctx, int argc, char **argv);
void lnetctl_print_usage(FILE *out);
void lnetctl_print_group(FILE *out, const char *prefix, const struct lnetctl_cmd *table);
void lnetctl_print_leaf(FILE *out, const char *prefix, const struct lnetctl_cmd *cmd);
void lnetctl_print_opts(FILE *out, const struct lnetctl_opt *opts);

/* --- completion (complete.c) ------------------------------------------------------ */

/* lnetctl __complete ...: the machine interface of completions/lnetctl (see complete.c). */
int lnetctl_complete(struct lnetctl_ctx *ctx, int argc, char **argv);

/* What the word being completed is, besides the candidates offered. */
enum lnetctl_comp_kind {
	LNETCTL_COMP_WORDS,	/* the candidates are all there is */
	LNETCTL_COMP_FILES,	/* a file name: the caller completes it */
};

/* Who asks lnetctl_complete_line(), and where the candidates go. */
struct lnetctl_comp {
	struct cfg_handle *h;			/* the LNet that live values come from */
	const struct lnetctl_cmd *shell_cmds;	/* the shell's own words; NULL: a command
						 * line, which starts with global options */
	void (*add)(const char *word, void *arg);
	void *arg;
};

/*
 * The candidates for @text, the word at the cursor, after @words (the
 * words before it, "lnetctl" left out): each one a whole word that starts
 * with @text. They come from the tables and lnetctl_scan(), as the line
 * would be read: the readline shell and the bash completion both ask here.
 */
enum lnetctl_comp_kind lnetctl_complete_line(const struct lnetctl_comp *c, int n,
					     char **words, const char *text);

/* --- messages (main.c) ----------------------------------------------------------- */

/* "[<where>: ]lnetctl <path>: <message>" on stderr. */
void lnetctl_msg(const struct lnetctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The message, then LNETCTL_USAGE. */
int lnetctl_usage(const struct lnetctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A failed libcfg call: err->msg (or the errno text), then LNETCTL_ERR. */
int lnetctl_fail(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err);
/*
 * The status of a show: a show whose first read could not reach lnetd
 * prints nothing and would look like "nothing configured"; it is an error.
 */
int lnetctl_show_done(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err);
/* The status of a change (add, del, set): LNETCTL_OK, or lnetctl_fail() of @rc. */
int lnetctl_done(const struct lnetctl_ctx *ctx, int rc, const struct cfg_err *err);
/* A leaf without options or words that makes one libcfg call: its status. */
int lnetctl_run(struct lnetctl_ctx *ctx, int argc, char **argv,
		int (*call)(struct cfg_handle *h, struct cfg_err *err));
/* The same for a show of everything: lnetctl_show_done() of @show. */
int lnetctl_run_show(struct lnetctl_ctx *ctx, int argc, char **argv,
		     int (*show)(struct cfg_handle *h, FILE *out, struct cfg_err *err));
/* What an add/del handler shared by both verbs is asked to do (as iproute2's cmd). */
enum lnetctl_op { LNETCTL_ADD, LNETCTL_DEL };
/* "missing required option --<name of ctx->cmd->opts[i]>", then LNETCTL_USAGE. */
int lnetctl_missing(const struct lnetctl_ctx *ctx, int i);
/* A show level (-v): 0..LNETCTL_MAX_VERBOSE; LNETCTL_USAGE with a message if bad. */
#define LNETCTL_MAX_VERBOSE	5
int lnetctl_verbose(const struct lnetctl_ctx *ctx, const char *val, int *level);

/* --- shell (shell.c) --------------------------------------------------------------- */

/* Commands from stdin: readline on a tty, else a script that stops at the first failure. */
int lnetctl_shell(struct lnetctl_ctx *ctx);

#endif /* LNETCTL_H */
