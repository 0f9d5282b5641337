// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl with no command: one command per line from stdin, dispatched
 * through the same tables as argv, each line from the root table (no
 * state is carried from one line to the next).
 *
 * On a terminal: readline with the prompt "lnetctl> ", errors do not end
 * the session, history is kept across sessions in $LNETCTL_HISTORY (empty:
 * none) or ~/.lnetctl_history (mode 0600, the last SHELL_HISTORY_MAX
 * lines), and Tab completes at any position with the words of
 * `lnetctl __complete` (complete.c): commands, sub-commands, options and
 * the live values of --net, NID options and --idx, file names for the
 * FILE of import and export.
 *
 * Otherwise a script: blank lines and '#' comments are skipped, messages
 * are prefixed "FILE:LINE: " ("<stdin>:LINE: " from a pipe) and the first
 * failing line ends lnetctl with that line's exit status.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>
#include "lnetctl.h"

#define SHELL_PROMPT		"lnetctl> "
#define SHELL_HISTORY_MAX	1000
#define SHELL_HISTORY_FILE	".lnetctl_history"
#define SHELL_MAX_CANDS		1024	/* completion candidates of one Tab */

/*
 * Split @line in place into words: blanks separate words, '...' quotes
 * literally, "..." quotes with \" and \\, a backslash escapes the next
 * character, '#' at the start of a word comments out the rest. Returns the
 * number of words, or -1 with a reason in *why.
 */
static int split_words(char *line, char **words, int max, const char **why)
{
	char *in = line, *out = line;
	int n = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t' || *in == '\r' || *in == '\n')
			in++;
		if (!*in || *in == '#')
			return n;
		if (n == max) {
			*why = "too many words";
			return -1;
		}
		words[n++] = out;
		while (*in && *in != ' ' && *in != '\t' && *in != '\r' && *in != '\n') {
			char q = *in;

			if (q == '\'' || q == '"') {
				for (in++; *in && *in != q; *out++ = *in++)
					if (q == '"' && *in == '\\' && (in[1] == '"' || in[1] == '\\'))
						in++;
				if (!*in) {
					*why = "unterminated quote";
					return -1;
				}
				in++;
			} else if (q == '\\' && in[1]) {
				*out++ = in[1];
				in += 2;
			} else {
				*out++ = *in++;
			}
		}
		/* the terminator may overwrite the blank the loop stopped at */
		if (*in)
			in++;
		*out++ = '\0';
	}
}

/* Run one line; *quit set by quit/exit. Returns the line's exit status. */
static int run_line(struct lnetctl_ctx *ctx, char *line, bool *quit)
{
	char *words[LNETCTL_MAX_WORDS];
	const char *why = NULL;
	int n = split_words(line, words, LNETCTL_MAX_WORDS, &why), rc;

	ctx->path[0] = '\0';
	ctx->cmd = NULL;
	if (n < 0)
		return lnetctl_usage(ctx, "%s", why);
	if (n == 0)
		return LNETCTL_OK;
	if (!strcmp(words[0], "quit") || !strcmp(words[0], "exit")) {
		if (n > 1)
			return lnetctl_usage(ctx, "%s takes no argument", words[0]);
		*quit = true;
		return LNETCTL_OK;
	}
	rc = lnetctl_dispatch(ctx, lnetctl_root, n, words);
	/* the shell's own words are in no table: say them after the general help */
	if (n == 1 && !strcmp(words[0], "help") && rc == LNETCTL_OK)
		fprintf(ctx->out, "\nIn the shell: 'quit', 'exit' or Ctrl-D leaves; Tab completes "
			"commands, options,\nnets, NIDs and rule indexes.\n");
	return rc;
}

/* --- completion: the words of `lnetctl __complete`, from complete.c --------- */

/*
 * Readline's callbacks take no argument: the shell's context and the
 * candidates of the current Tab live here.
 */
static struct lnetctl_ctx *shell_ctx;

static struct {
	char *word[SHELL_MAX_CANDS];
	int n;
	const char *prefix;	/* "--opt=" typed before a value, else "" */
} cands;

static void cands_clear(void)
{
	while (cands.n)
		free(cands.word[--cands.n]);
	cands.prefix = "";
}

static void cand_add(const char *word, void *arg)
{
	size_t len = strlen(cands.prefix) + strlen(word) + 1;
	char *w;

	if (cands.n == SHELL_MAX_CANDS)
		return;
	w = malloc(len);
	if (!w)
		return;
	snprintf(w, len, "%s%s", cands.prefix, word);
	cands.word[cands.n++] = w;
}

/* readline's generator: the candidates that start with @text, one per call. */
static char *cand_next(const char *text, int state)
{
	static int i;
	size_t len = strlen(text);

	if (!state)
		i = 0;
	while (i < cands.n)
		if (!strncmp(cands.word[i++], text, len))
			return strdup(cands.word[i - 1]);
	return NULL;
}

/* The option of @opts that "--@name" (@len chars) means to the parser: exact, else a unique prefix. */
static const struct lnetctl_opt *find_long(const struct lnetctl_opt *opts,
					   const char *name, size_t len)
{
	const struct lnetctl_opt *o, *found = NULL;

	for (o = opts; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	for (o = opts; o && o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (found)
			return NULL;
		found = o;
	}
	return found;
}

static const struct lnetctl_opt *find_short(const struct lnetctl_opt *opts, char c)
{
	for (; opts && opts->name; opts++)
		if (opts->short_name == c)
			return opts;
	return NULL;
}

/* The option a word names ("--name", "--name=v", "-n", "-nv"); *inline_val when it carries one. */
static const struct lnetctl_opt *word_opt(const struct lnetctl_opt *opts, const char *w,
					  bool *inline_val)
{
	const char *eq;

	*inline_val = false;
	if (w[0] != '-' || !w[1])
		return NULL;
	if (w[1] != '-') {
		*inline_val = w[2] != '\0';
		return find_short(opts, w[1]);
	}
	eq = strchr(w + 2, '=');
	*inline_val = eq != NULL;
	return find_long(opts, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
}

/* What the words typed after a leaf's name leave the next word to be. */
struct leaf_state {
	const struct lnetctl_opt *given[LNETCTL_MAX_OPTS];
	int ngiven;
	const struct lnetctl_opt *pending;	/* a VALUE option waiting for its value */
	int npos;				/* positional words so far */
};

/* The same walk as the parser: a VALUE option takes the next word unless it is a long option. */
static void leaf_scan(const struct lnetctl_opt *opts, char **words, int n,
		      struct leaf_state *st)
{
	const struct lnetctl_opt *o;
	bool inline_val;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < n; i++) {
		if (st->pending && strncmp(words[i], "--", 2)) {
			st->pending = NULL;
			continue;
		}
		st->pending = NULL;
		o = word_opt(opts, words[i], &inline_val);
		if (!o) {
			st->npos += words[i][0] != '-';
			continue;
		}
		if (st->ngiven < LNETCTL_MAX_OPTS)
			st->given[st->ngiven++] = o;
		if (o->kind == LNETCTL_VALUE && !inline_val)
			st->pending = o;
	}
}

/* Each option once, as the parser wants (@arg: the leaf_state); --help always. */
static void cand_add_option(const char *word, void *arg)
{
	const struct leaf_state *st = arg;

	for (int i = 0; i < st->ngiven; i++)
		if (!strcmp(st->given[i]->name, word + 2))
			return;
	cand_add(word, NULL);
}

/* The live values of option @o, as `__complete values` reads them. */
static void cand_values(const struct lnetctl_opt *o)
{
	int kind = o ? lnetctl_option_values(o->name) : -1;

	if (kind >= 0)
		lnetctl_live_values(shell_ctx->h, kind, cand_add, NULL);
}

/*
 * The word @text after the leaf @cmd and its words so far. Returns false
 * to let readline complete a file name (the FILE of import and export).
 */
static bool complete_leaf(const struct lnetctl_cmd *cmd, char **words, int n,
			  const char *text)
{
	struct leaf_state st;
	const char *eq = strchr(text, '=');
	bool inline_val;

	leaf_scan(cmd->opts, words, n, &st);
	if (!strncmp(text, "--", 2) && eq) {
		static char prefix[64];

		snprintf(prefix, sizeof(prefix), "%.*s", (int)(eq - text + 1), text);
		cands.prefix = prefix;
		cand_values(word_opt(cmd->opts, text, &inline_val));
		return true;
	}
	if (st.pending && strncmp(text, "--", 2)) {
		cand_values(st.pending);
		return true;
	}
	if (!text[0] && cmd->args && strstr(cmd->args, "FILE") && st.npos == 0)
		return false;
	if (!text[0] || text[0] == '-') {
		lnetctl_option_words(cmd->opts, cand_add_option, &st);
		return true;
	}
	return !(cmd->args && strstr(cmd->args, "FILE") && st.npos == 0);
}

/* help COMMAND [SUBCOMMAND]: the words of the tables again. */
static void complete_help(char **words, int n)
{
	const struct lnetctl_cmd *table = lnetctl_root, *c;

	for (int i = 0; i < n && table; i++) {
		c = lnetctl_cmd_lookup(table, words[i]);
		table = c ? c->sub : NULL;
	}
	lnetctl_table_words(table, cand_add, NULL);
}

/* The shell's own words: no table has them. */
static void complete_shell_words(void)
{
	cand_add("exit", NULL);
	cand_add("quit", NULL);
}

/* Walk the words before @text down the tables, exactly as dispatch does. */
static bool complete_words(char **words, int n, const char *text)
{
	const struct lnetctl_cmd *table = lnetctl_root, *c = NULL;
	int i;

	for (i = 0; i < n && table; i++) {
		c = lnetctl_cmd_lookup(table, words[i]);
		if (!c)
			return true;
		table = c->sub;
	}
	if (table) {
		if (n == 0)
			complete_shell_words();
		lnetctl_table_words(table, cand_add, NULL);
		return true;
	}
	if (c->fn == lnetctl_help_cmd && text[0] != '-') {
		complete_help(words + i, n - i);
		return true;
	}
	return complete_leaf(c, words + i, n - i, text);
}

static char **complete(const char *text, int start, int end)
{
	char *words[LNETCTL_MAX_WORDS], *line = strndup(rl_line_buffer, start);
	const char *why;
	char **matches = NULL;
	int n;

	rl_attempted_completion_over = 1;
	cands_clear();
	if (!line)
		return NULL;
	n = split_words(line, words, LNETCTL_MAX_WORDS, &why);
	if (n >= 0 && !complete_words(words, n, text))
		rl_attempted_completion_over = 0;	/* readline's file names */
	else if (n >= 0)
		matches = rl_completion_matches(text, cand_next);
	free(line);
	return matches;
}

/* --- history ------------------------------------------------------------------ */

/* $LNETCTL_HISTORY (empty: no history file), else ~/.lnetctl_history; NULL if none. */
static const char *history_path(char *buf, size_t len)
{
	const char *env = getenv("LNETCTL_HISTORY"), *home = getenv("HOME");

	if (env)
		return *env ? env : NULL;
	if (!home || !*home)
		return NULL;
	if ((size_t)snprintf(buf, len, "%s/" SHELL_HISTORY_FILE, home) >= len)
		return NULL;
	return buf;
}

static void history_load(const char *path)
{
	int rc;

	stifle_history(SHELL_HISTORY_MAX);
	if (!path)
		return;
	rc = read_history(path);
	if (rc && rc != ENOENT)
		fprintf(stderr, "lnetctl: cannot read history '%s': %s\n", path, strerror(rc));
}

/* The history holds the commands typed, options and all: only its owner reads it. */
static void history_save(const char *path)
{
	int rc;

	if (!path)
		return;
	rc = write_history(path);
	if (!rc && chmod(path, 0600))
		rc = errno;
	if (rc)
		fprintf(stderr, "lnetctl: cannot save history '%s': %s\n", path, strerror(rc));
}

/* A line worth recalling: not blank, not the same as the one before. */
static void history_add(const char *line)
{
	HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;

	if (line[strspn(line, " \t")] && !(last && !strcmp(last->line, line)))
		add_history(line);
}

/* --- the two loops ------------------------------------------------------------- */

static volatile sig_atomic_t in_readline;

/*
 * Ctrl-C at the prompt drops the line being typed and gives a new prompt,
 * as bash does; readline is blocked in read() then, so redrawing from here
 * is safe in practice. While a command runs it ends lnetctl as usual.
 */
static void on_sigint(int sig)
{
	if (!in_readline) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (write(STDOUT_FILENO, "\n", 1) < 0)
		return;
	rl_on_new_line();
	rl_replace_line("", 0);
	rl_redisplay();
}

static void sigint_setup(void)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	rl_catch_signals = 0;	/* readline would re-raise SIGINT after its cleanup */
}

static char *read_line(void)
{
	char *line;

	in_readline = 1;
	line = readline(SHELL_PROMPT);
	in_readline = 0;
	return line;
}

static int shell_tty(struct lnetctl_ctx *ctx)
{
	char buf[4096], *line;
	const char *hist = history_path(buf, sizeof(buf));
	bool quit = false;

	shell_ctx = ctx;
	rl_readline_name = "lnetctl";
	rl_attempted_completion_function = complete;
	/* words end at blanks only: NIDs hold '@' and ':', options '=' */
	rl_completer_word_break_characters = " \t\n";
	/* Tab Tab lists the nets after "tcp" was filled in (~/.inputrc may say otherwise) */
	rl_variable_bind("show-all-if-unmodified", "on");
	history_load(hist);
	sigint_setup();
	while (!quit && (line = read_line())) {
		history_add(line);
		run_line(ctx, line, &quit);
		free(line);
		fflush(stdout);
	}
	if (!quit)
		putchar('\n');
	history_save(hist);
	cands_clear();
	return LNETCTL_OK;
}

/*
 * What errors call the script: the file behind a redirected stdin
 * (`lnetctl < FILE`), else "<stdin>" (a pipe, or a here-document that the
 * shell already unlinked).
 */
static void script_name(char *buf, size_t len)
{
	struct stat st;
	ssize_t n;

	if (!fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode)) {
		n = readlink("/proc/self/fd/0", buf, len - 1);
		if (n > 0 && buf[0] == '/') {
			buf[n] = '\0';
			if (!strstr(buf, " (deleted)"))
				return;
		}
	}
	snprintf(buf, len, "<stdin>");
}

static int shell_script(struct lnetctl_ctx *ctx)
{
	char name[PATH_MAX], where[PATH_MAX + 16], *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	bool quit = false;
	int rc = LNETCTL_OK;

	script_name(name, sizeof(name));
	ctx->where = where;
	while (!quit && rc == LNETCTL_OK && getline(&line, &cap, stdin) >= 0) {
		snprintf(where, sizeof(where), "%s:%u", name, ++lineno);
		rc = run_line(ctx, line, &quit);
		fflush(stdout);
	}
	free(line);
	ctx->where = NULL;
	return rc;
}

int lnetctl_shell(struct lnetctl_ctx *ctx)
{
	ctx->stdin_commands = true;
	return isatty(STDIN_FILENO) ? shell_tty(ctx) : shell_script(ctx);
}
