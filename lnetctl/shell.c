// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl with no command: one command per line from stdin, dispatched
 * through the same tables as argv, each line from the root table (no
 * state is carried from one line to the next).
 *
 * On a terminal: readline with the prompt "lnetctl> ", errors do not end
 * the session, history is kept across sessions in $LNETCTL_HISTORY (empty:
 * none) or ~/.lnetctl_history (mode 0600, the last SHELL_HISTORY_MAX
 * lines), and Tab completes at any position through the engine of the
 * bash completion (lnetctl_complete_line, complete.c): commands,
 * sub-commands, options and the live values of --net, NID options and
 * --idx, file names for the FILE of import and export.
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

/* quit and exit: the shell's own commands, matched as every command is. */
static int shell_quit(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	(void)argv;
	if (argc)
		return lnetctl_usage(ctx, "%s takes no argument", ctx->cmd->name);
	ctx->quit = true;
	return LNETCTL_OK;
}

static const struct lnetctl_cmd shell_cmds[] = {
	{ "exit", shell_quit, NULL, NULL, "leave the shell" },
	{ "quit", shell_quit, NULL, NULL, "leave the shell" },
	{ NULL }
};

/* Run one line; ctx->quit set by quit/exit. Returns the line's exit status. */
static int run_line(struct lnetctl_ctx *ctx, char *line)
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
	ctx->cmd = lnetctl_cmd_match(shell_cmds, words[0]);
	if (ctx->cmd)
		return ctx->cmd->fn(ctx, n - 1, words + 1);
	rc = lnetctl_dispatch(ctx, lnetctl_root, n, words);
	/* the shell's own words are in no table help prints: say them after the general help */
	if (n == 1 && ctx->cmd && ctx->cmd->fn == lnetctl_help_cmd && rc == LNETCTL_OK)
		fprintf(ctx->out, "\nIn the shell: 'quit', 'exit' or Ctrl-D leaves; Tab completes "
			"commands, options,\nnets, NIDs and rule indexes.\n");
	return rc;
}

/* --- completion: lnetctl_complete_line(), the engine bash asks too ---------------- */

/*
 * Readline's callbacks take no argument: the shell's context and the
 * candidates of the current Tab live here.
 */
static struct lnetctl_ctx *shell_ctx;

static struct {
	char *word[SHELL_MAX_CANDS];
	int n;
} cands;

static void cands_clear(void)
{
	while (cands.n)
		free(cands.word[--cands.n]);
}

static void cand_add(const char *word, void *arg)
{
	char *w;

	(void)arg;
	if (cands.n == SHELL_MAX_CANDS)
		return;
	w = strdup(word);
	if (w)
		cands.word[cands.n++] = w;
}

/* readline's generator: the engine's candidates (each starts with the text), one per call. */
static char *cand_next(const char *text, int state)
{
	static int i;

	(void)text;
	if (!state)
		i = 0;
	return i < cands.n ? strdup(cands.word[i++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
	struct lnetctl_comp c = { .h = shell_ctx->h, .shell_cmds = shell_cmds,
				  .add = cand_add };
	char *words[LNETCTL_MAX_WORDS], *line = strndup(rl_line_buffer, start);
	const char *why;
	char **matches = NULL;
	int n;

	(void)end;
	rl_attempted_completion_over = 1;
	cands_clear();
	if (!line)
		return NULL;
	n = split_words(line, words, LNETCTL_MAX_WORDS, &why);
	if (n >= 0 && lnetctl_complete_line(&c, n, words, text) == LNETCTL_COMP_FILES)
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

static volatile sig_atomic_t in_readline, in_command, interrupted;

/*
 * Ctrl-C at the prompt drops the line being typed and gives a new prompt,
 * as bash does; readline is blocked in read() then, so redrawing from here
 * is safe in practice. While a command runs it interrupts the command (a
 * ping, a selftest: libcfg stops waiting for lnetd, cfg_set_interrupt)
 * and the shell goes on. Anywhere else it ends lnetctl as usual.
 */
static void on_sigint(int sig)
{
	if (in_command) {
		interrupted = 1;
		return;
	}
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

/*
 * The handler, with SA_RESTART at the prompt (readline reads on) and
 * without it while a command runs, so that the read of lnetd's reply
 * returns EINTR.
 */
static void sigint_setup(bool restart)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	rl_catch_signals = 0;	/* readline would re-raise SIGINT after its cleanup */
}

static bool was_interrupted(void *arg)
{
	(void)arg;
	return interrupted;
}

/* One line typed at the prompt, Ctrl-C interrupting it rather than lnetctl. */
static void run_typed(struct lnetctl_ctx *ctx, char *line)
{
	interrupted = 0;
	sigint_setup(false);
	in_command = 1;
	run_line(ctx, line);
	in_command = 0;
	sigint_setup(true);
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
	shell_ctx = ctx;
	rl_readline_name = "lnetctl";
	rl_attempted_completion_function = complete;
	/* words end at blanks only: NIDs hold '@' and ':', options '=' */
	rl_completer_word_break_characters = " \t\n";
	/* Tab Tab lists the nets after "tcp" was filled in (~/.inputrc may say otherwise) */
	rl_variable_bind("show-all-if-unmodified", "on");
	history_load(hist);
	cfg_set_interrupt(ctx->h, was_interrupted, NULL);
	sigint_setup(true);
	while (!ctx->quit && (line = read_line())) {
		history_add(line);
		run_typed(ctx, line);
		free(line);
		fflush(stdout);
	}
	cfg_set_interrupt(ctx->h, NULL, NULL);
	if (!ctx->quit)
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
	int rc = LNETCTL_OK;

	script_name(name, sizeof(name));
	ctx->where = where;
	while (!ctx->quit && rc == LNETCTL_OK && getline(&line, &cap, stdin) >= 0) {
		snprintf(where, sizeof(where), "%s:%u", name, ++lineno);
		rc = run_line(ctx, line);
		fflush(stdout);
	}
	free(line);
	ctx->where = NULL;
	return rc;
}

int lnetctl_shell(struct lnetctl_ctx *ctx)
{
	ctx->stdin_commands = true;
	ctx->prefixes = true;
	return isatty(STDIN_FILENO) ? shell_tty(ctx) : shell_script(ctx);
}
