/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lnetctl: command tables, the option parser and the helpers every command
 * file shares. Each object (lnet, net, peer, policy, debug, import/export)
 * lives in its own file and exports its command table (ping, discover and
 * selftest, which send traffic, live in dp.c); main.c links them
 * into the tree that argv, the shell and `help` all walk.
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
#define LNETCTL_MAX_POS		32	/* ping NID... */
#define LNETCTL_MAX_WORDS	64	/* words of one shell line */

enum lnetctl_opt_kind {
	LNETCTL_FLAG,		/* --non_mr */
	LNETCTL_VALUE,		/* --net tcp, --net=tcp, -n tcp, -ntcp */
	LNETCTL_LEVEL,		/* -v, -v 4, -v4, --verbose=4: the number is optional */
};

struct lnetctl_opt {
	const char *name;		/* long name, without "--" */
	char short_name;		/* 0 = none */
	enum lnetctl_opt_kind kind;
	const char *help;		/* printed as "\t--name: help" */
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
};

struct lnetctl_ctx {
	struct cfg_handle *h;
	FILE *out;				/* show output */
	const struct lnetctl_cmd *cmd;		/* the leaf being run */
	char path[64];				/* the words typed: "udsp add" */
	const char *where;			/* "<stdin>:3" in script mode */
	bool stdin_commands;			/* the shell reads stdin */
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
int lnetctl_import(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_export(struct lnetctl_ctx *ctx, int argc, char **argv);
extern const struct lnetctl_opt lnetctl_import_opts[];
extern const struct lnetctl_opt lnetctl_export_opts[];
/* dp.c: the commands that send traffic */
int lnetctl_ping(struct lnetctl_ctx *ctx, int argc, char **argv);
int lnetctl_discover(struct lnetctl_ctx *ctx, int argc, char **argv);
extern const struct lnetctl_opt lnetctl_ping_opts[];
extern const struct lnetctl_opt lnetctl_discover_opts[];
extern const struct lnetctl_cmd lnetctl_selftest_cmds[];

/* --- completion (complete.c) ------------------------------------------------------ */

/* lnetctl __complete ...: words for completions/lnetctl (see complete.c). */
int lnetctl_complete(struct lnetctl_ctx *ctx, int argc, char **argv);

enum lnetctl_value_kind {
	LNETCTL_VALUES_NETS,	/* nets of the configured NIs, lo left out */
	LNETCTL_VALUES_NIDS,	/* local NIDs (not 0@lo), then peer NIDs */
	LNETCTL_VALUES_IDX,	/* policy rule indexes */
};
/* @fn(word, @arg) for each live value of @kind; 0, or the -errno of the failed read. */
int lnetctl_live_values(struct cfg_handle *h, enum lnetctl_value_kind kind,
			void (*fn)(const char *word, void *arg), void *arg);

/* The entry of @table named @word, exactly as dispatch matches it; NULL if none. */
const struct lnetctl_cmd *lnetctl_cmd_lookup(const struct lnetctl_cmd *table,
					     const char *word);
/* @fn(name, @arg) for each command of @table that help lists (hidden ones left out). */
void lnetctl_table_words(const struct lnetctl_cmd *table,
			 void (*fn)(const char *word, void *arg), void *arg);
/* @fn("--name", @arg) for each option of @opts, then "--help" (every leaf takes it). */
void lnetctl_option_words(const struct lnetctl_opt *opts,
			  void (*fn)(const char *word, void *arg), void *arg);
/* The enum lnetctl_value_kind of long option @name (no "--"); -1 when it has no live values. */
int lnetctl_option_values(const char *name);

/* --- dispatch and help (main.c, help.c) --------------------------------------- */

/* Run argv[0..] against @table (exact names), the words so far in ctx->path. */
int lnetctl_dispatch(struct lnetctl_ctx *ctx, const struct lnetctl_cmd *table,
		     int argc, char **argv);
int lnetctl_help_cmd(struct lnetctl_ctx *ctx, int argc, char **argv);
void lnetctl_print_usage(FILE *out);
void lnetctl_print_group(FILE *out, const char *prefix, const struct lnetctl_cmd *table);
void lnetctl_print_leaf(FILE *out, const char *prefix, const struct lnetctl_cmd *cmd);
void lnetctl_print_opts(FILE *out, const struct lnetctl_opt *opts);

/* --- options (opts.c) ------------------------------------------------------------ */

/*
 * Parse the options of the leaf ctx->cmd and between @min_pos and @max_pos
 * positional words. Returns true to go on; false when the command must stop
 * now with a->status: 0 after --help (printed), LNETCTL_USAGE after an
 * error (printed on stderr, naming the option).
 */
bool lnetctl_parse(struct lnetctl_ctx *ctx, int argc, char **argv,
		   int min_pos, int max_pos, struct lnetctl_args *a);
/*
 * The parser itself, for the leaves and for the global options: fills @a
 * from argv; with @stop_at_word it stops at the first positional word and
 * returns its index (argc if none). Returns -1 with a message in @msg on a
 * usage error, -2 when --help/-h was given (and @opts does not define it).
 */
int lnetctl_opts_scan(const struct lnetctl_opt *opts, int argc, char **argv,
		      bool stop_at_word, struct lnetctl_args *a,
		      char *msg, size_t msglen);

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
