// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one option parser of lnetctl. Accepts --opt value, --opt=value,
 * -o value, -ovalue and any unambiguous prefix of a long option (Lustre's
 * scripts rely on --prio and --prim). Everything else is a usage error
 * that names the option: unknown or ambiguous options, a missing value, a
 * repeated option, stray words. Help is never printed instead of an error.
 */
#include <stdarg.h>
#include <string.h>
#include "lnetctl.h"

#define SCAN_ERR	(-1)
#define SCAN_HELP	(-2)

struct scan {
	const struct lnetctl_opt *opts;
	int nopts;
	struct lnetctl_args *a;
	char *msg;
	size_t msglen;
};

static int scan_fail(struct scan *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int scan_fail(struct scan *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, s->msglen, fmt, ap);
	va_end(ap);
	return SCAN_ERR;
}

static bool defines_help(const struct scan *s)
{
	for (int i = 0; i < s->nopts; i++)
		if (!strcmp(s->opts[i].name, "help"))
			return true;
	return false;
}

static bool all_digits(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (*w < '0' || *w > '9')
			return false;
	return true;
}

/* "--name" as typed (up to '='): exact match, else the one option it prefixes. */
static int find_long(struct scan *s, const char *name, size_t len)
{
	bool help = !defines_help(s);
	char cands[256] = "";
	int found = -1, n = 0;

	if (!len)
		return scan_fail(s, "unknown option '--%s'", name);
	for (int i = 0; i < s->nopts; i++)
		if (strlen(s->opts[i].name) == len && !strncmp(s->opts[i].name, name, len))
			return i;
	if (help && len == 4 && !strncmp(name, "help", 4))
		return SCAN_HELP;
	for (int i = 0; i <= s->nopts; i++) {
		const char *cand = i < s->nopts ? s->opts[i].name : help ? "help" : NULL;

		if (!cand || strncmp(cand, name, len))
			continue;
		found = i < s->nopts ? i : SCAN_HELP;
		snprintf(cands + strlen(cands), sizeof(cands) - strlen(cands),
			 "%s--%s", n++ ? ", " : "", cand);
	}
	if (n == 1)
		return found;
	if (n == 0)
		return scan_fail(s, "unknown option '--%.*s'", (int)len, name);
	return scan_fail(s, "ambiguous option '--%.*s': could be %s", (int)len, name, cands);
}

static int find_short(struct scan *s, char c)
{
	for (int i = 0; i < s->nopts; i++)
		if (s->opts[i].short_name == c)
			return i;
	if (c == 'h' && !defines_help(s))
		return SCAN_HELP;
	return scan_fail(s, "unknown option '-%c'", c);
}

/*
 * The value of option @i: @inline_val (after '=' or glued to a short
 * option), else the next word for a VALUE option unless it is itself a long
 * option, else (LEVEL) the next word if it is a number. Returns how many
 * extra words were used, or SCAN_ERR.
 */
static int take_value(struct scan *s, int i, const char *inline_val,
		      int argc, char **argv, int pos)
{
	const struct lnetctl_opt *o = &s->opts[i];
	const char *next = pos + 1 < argc ? argv[pos + 1] : NULL;

	if (s->a->val[i])
		return scan_fail(s, "option --%s given more than once", o->name);
	if (o->kind == LNETCTL_FLAG) {
		if (inline_val)
			return scan_fail(s, "option --%s takes no value", o->name);
		s->a->val[i] = "";
		return 0;
	}
	if (inline_val) {
		s->a->val[i] = inline_val;
		return 0;
	}
	if (o->kind == LNETCTL_LEVEL) {
		bool num = next && all_digits(next);

		s->a->val[i] = num ? next : "1";
		return num;
	}
	if (!next || !strncmp(next, "--", 2))
		return scan_fail(s, "option --%s needs a value", o->name);
	s->a->val[i] = next;
	return 1;
}

static int scan_long(struct scan *s, int argc, char **argv, int pos)
{
	const char *name = argv[pos] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int i = find_long(s, name, len);

	if (i < 0)
		return i;
	return take_value(s, i, eq ? eq + 1 : NULL, argc, argv, pos);
}

static int scan_short(struct scan *s, int argc, char **argv, int pos)
{
	const char *w = argv[pos];
	int i = find_short(s, w[1]);

	if (i == SCAN_HELP && w[2])
		return scan_fail(s, "unknown option '%s'", w);
	if (i < 0)
		return i;
	if (s->opts[i].kind == LNETCTL_FLAG && w[2])
		return scan_fail(s, "unknown option '%s'", w);
	return take_value(s, i, w[2] ? w + 2 : NULL, argc, argv, pos);
}

static int add_word(struct scan *s, char *w)
{
	if (s->a->npos == LNETCTL_MAX_POS)
		return scan_fail(s, "unexpected argument '%s'", w);
	s->a->pos[s->a->npos++] = w;
	return 0;
}

int lnetctl_opts_scan(const struct lnetctl_opt *opts, int argc, char **argv,
		      bool stop_at_word, struct lnetctl_args *a,
		      char *msg, size_t msglen)
{
	struct scan s = { .opts = opts, .a = a, .msg = msg, .msglen = msglen };
	bool words_only = false;
	int pos, used;

	memset(a, 0, sizeof(*a));
	while (opts && opts[s.nopts].name)
		s.nopts++;
	for (pos = 0; pos < argc; pos += 1 + used) {
		const char *w = argv[pos];

		used = 0;
		if (!words_only && !strcmp(w, "--")) {
			words_only = true;
			continue;
		}
		if (words_only || w[0] != '-' || !w[1]) {
			if (stop_at_word)
				return pos;
			used = add_word(&s, argv[pos]);
		} else if (w[1] == '-') {
			used = scan_long(&s, argc, argv, pos);
		} else {
			used = scan_short(&s, argc, argv, pos);
		}
		if (used < 0)
			return used;
	}
	return argc;
}

bool lnetctl_parse(struct lnetctl_ctx *ctx, int argc, char **argv,
		   int min_pos, int max_pos, struct lnetctl_args *a)
{
	char msg[512];
	int rc = lnetctl_opts_scan(ctx->cmd->opts, argc, argv, false, a,
				   msg, sizeof(msg));

	if (rc == SCAN_HELP) {
		lnetctl_print_leaf(ctx->out, ctx->path, ctx->cmd);
		a->status = LNETCTL_OK;
		return false;
	}
	if (rc == SCAN_ERR) {
		a->status = lnetctl_usage(ctx, "%s", msg);
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

	if (val && cfg_parse_s32("--verbose", val, 0, LNETCTL_MAX_VERBOSE, &v, &err))
		return lnetctl_usage(ctx, "%s", err.msg);
	*level = v;
	return LNETCTL_OK;
}

void lnetctl_print_opts(FILE *out, const struct lnetctl_opt *opts)
{
	for (; opts && opts->name; opts++) {
		fprintf(out, "\t--%s: %s", opts->name, opts->help);
		if (opts->short_name)
			fprintf(out, " (short: -%c)", opts->short_name);
		fputc('\n', out);
	}
	fprintf(out, "\t--help: print this help and exit 0 (short: -h)\n");
}
