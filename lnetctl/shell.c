// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl with no command: one command per line from stdin, dispatched
 * through the same tables as argv. On a terminal: readline, prompt
 * "lnetctl> ", history, errors do not end the session. Otherwise a script:
 * messages are prefixed "<stdin>:LINE: " and the first failing line ends
 * lnetctl with that line's exit status.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>
#include "lnetctl.h"

#define SHELL_PROMPT	"lnetctl> "

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
	int n = split_words(line, words, LNETCTL_MAX_WORDS, &why);

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
	return lnetctl_dispatch(ctx, lnetctl_root, n, words);
}

/* --- completion: command words and long options, from the same tables --- */

static const struct lnetctl_cmd *compl_table;	/* words to offer, or */
static const struct lnetctl_opt *compl_opts;	/* the options of a leaf */

static char *complete_next(const char *text, int state)
{
	static size_t i, len;
	char buf[64];

	if (!state) {
		i = 0;
		len = strlen(text);
	}
	while (compl_table && compl_table[i].name)
		if (!strncmp(compl_table[i++].name, text, len))
			return strdup(compl_table[i - 1].name);
	while (compl_opts && compl_opts[i].name) {
		snprintf(buf, sizeof(buf), "--%s", compl_opts[i++].name);
		if (!strncmp(buf, text, len))
			return strdup(buf);
	}
	return NULL;
}

/* Walk the words before the cursor down the tables, exactly as dispatch does. */
static char **complete(const char *text, int start, int end)
{
	char line[256], *words[LNETCTL_MAX_WORDS];
	const char *why;
	int n;

	rl_attempted_completion_over = 1;
	snprintf(line, sizeof(line), "%.*s", start, rl_line_buffer);
	n = split_words(line, words, LNETCTL_MAX_WORDS, &why);
	compl_table = lnetctl_root;
	compl_opts = NULL;
	for (int i = 0; i < n && compl_table; i++) {
		const struct lnetctl_cmd *c = compl_table;

		while (c->name && strcmp(c->name, words[i]))
			c++;
		if (!c->name)
			return NULL;
		compl_table = c->sub;
		compl_opts = c->sub ? NULL : c->opts;
	}
	if (!compl_table && (!compl_opts || text[0] != '-'))
		return NULL;
	return rl_completion_matches(text, complete_next);
}

static int shell_tty(struct lnetctl_ctx *ctx)
{
	bool quit = false;
	char *line;

	rl_attempted_completion_function = complete;
	stifle_history(100);
	while (!quit && (line = readline(SHELL_PROMPT))) {
		if (*line)
			add_history(line);
		run_line(ctx, line, &quit);
		free(line);
		fflush(stdout);
	}
	if (!quit)
		putchar('\n');
	return LNETCTL_OK;
}

static int shell_script(struct lnetctl_ctx *ctx)
{
	char where[32], *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	bool quit = false;
	int rc = LNETCTL_OK;

	ctx->where = where;
	while (!quit && rc == LNETCTL_OK && getline(&line, &cap, stdin) >= 0) {
		snprintf(where, sizeof(where), "<stdin>:%u", ++lineno);
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
