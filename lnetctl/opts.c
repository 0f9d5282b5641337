// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one option matcher and the one option parser of lnetctl, for the
 * leaves, the global options and completion. Accepts --opt value,
 * --opt=value, -o value, -ovalue, an option's alias, and any unambiguous
 * prefix of a long option as getopt_long does (Lustre's scripts rely on
 * --prio and --prim). Everything else is a usage error that names the
 * option: unknown or ambiguous options (with the candidates), a missing
 * value, a repeated option, stray words. Help is never printed instead of
 * an error. It prints nothing: it says what it found (the callers, such as
 * lnetctl_parse() in main.c, print the help or the usage error).
 */
#include <stdarg.h>
#include <string.h>
#include "lnetctl.h"

static void set_msg(char *msg, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_msg(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!msg)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}

static bool spelled(const char *spelling, const char *name, size_t len, bool exact)
{
	if (!spelling || strncmp(spelling, name, len))
		return false;
	return !exact || !spelling[len];
}

/*
 * The spelling of option @i (the implicit --help at i == nopts) that
 * "--@name" spells exactly (@exact) or abbreviates; NULL if none. The name
 * comes before the alias, so an ambiguity names the options as help does.
 */
static const char *spelling_of(const struct lnetctl_opt *opts, int nopts, int i,
			       const char *name, size_t len, bool exact)
{
	if (i == nopts)
		return spelled("help", name, len, exact) ? "help" : NULL;
	if (spelled(opts[i].name, name, len, exact))
		return opts[i].name;
	return spelled(opts[i].alias, name, len, exact) ? opts[i].alias : NULL;
}

static int count_opts(const struct lnetctl_opt *opts)
{
	int n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

int lnetctl_opt_match(const struct lnetctl_opt *opts, const char *name, size_t len,
		      char *msg, size_t msglen)
{
	int nopts = count_opts(opts), found = LNETCTL_OPT_NONE, n = 0;
	const char *sp;
	char cands[256] = "";

	for (int i = 0; len && i <= nopts; i++)
		if (spelling_of(opts, nopts, i, name, len, true))
			return i < nopts ? i : LNETCTL_OPT_HELP;
	for (int i = 0; len && i <= nopts; i++) {
		sp = spelling_of(opts, nopts, i, name, len, false);
		if (!sp)
			continue;
		found = i < nopts ? i : LNETCTL_OPT_HELP;
		snprintf(cands + strlen(cands), sizeof(cands) - strlen(cands),
			 "%s--%s", n++ ? ", " : "", sp);
	}
	if (n == 1)
		return found;
	if (n == 0)
		set_msg(msg, msglen, "unknown option '--%.*s'", (int)len, name);
	else
		set_msg(msg, msglen, "ambiguous option '--%.*s': could be %s",
			(int)len, name, cands);
	return LNETCTL_OPT_NONE;
}

static int opt_short(const struct lnetctl_opt *opts, char c, char *msg, size_t msglen)
{
	for (int i = 0; opts && opts[i].name; i++)
		if (opts[i].short_name == c)
			return i;
	if (c == 'h')
		return LNETCTL_OPT_HELP;
	set_msg(msg, msglen, "unknown option '-%c'", c);
	return LNETCTL_OPT_NONE;
}

void lnetctl_option_words(const struct lnetctl_opt *opts, const struct lnetctl_args *given,
			  void (*fn)(const char *word, void *arg), void *arg)
{
	char buf[64];

	for (int i = 0; opts && opts[i].name; i++) {
		if (given && given->val[i])
			continue;
		snprintf(buf, sizeof(buf), "--%s", opts[i].name);
		fn(buf, arg);
		if (!opts[i].alias)
			continue;
		snprintf(buf, sizeof(buf), "--%s", opts[i].alias);
		fn(buf, arg);
	}
	fn("--help", arg);	/* in no table: every leaf takes it */
}

/* --- the parser ------------------------------------------------------------------ */

static int scan_fail(struct lnetctl_scan *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int scan_fail(struct lnetctl_scan *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	return LNETCTL_OPT_NONE;
}

/*
 * A word that is a level rather than the next argument: digits, or 0x and
 * hex digits (Lustre's number forms; 010 is digits already).
 */
static bool level_word(const char *w)
{
	bool hex = w[0] == '0' && (w[1] == 'x' || w[1] == 'X');

	if (hex)
		w += 2;
	if (!*w)
		return false;
	for (; *w; w++)
		if (!(*w >= '0' && *w <= '9') &&
		    !(hex && ((*w >= 'a' && *w <= 'f') || (*w >= 'A' && *w <= 'F'))))
			return false;
	return true;
}

/*
 * The value of option @i: @inline_val (after '=' or glued to a short
 * option), else the next word for a VALUE option unless it is itself a long
 * option, else (LEVEL) the next word if it is a number. Returns how many
 * extra words were used, or LNETCTL_OPT_NONE. A partial scan takes a
 * repeated option again and leaves a VALUE option without its value pending.
 */
static int take_value(struct lnetctl_scan *s, struct lnetctl_args *a, int i,
		      const char *inline_val, int argc, char **argv, int pos)
{
	const struct lnetctl_opt *o = &s->opts[i];
	const char *next = pos + 1 < argc ? argv[pos + 1] : NULL;

	if (a->val[i] && !s->partial)
		return scan_fail(s, "option --%s given more than once", o->name);
	if (o->kind == LNETCTL_FLAG) {
		if (inline_val)
			return scan_fail(s, "option --%s takes no value", o->name);
		a->val[i] = "";
		return 0;
	}
	if (inline_val) {
		a->val[i] = inline_val;
		return 0;
	}
	if (o->kind == LNETCTL_LEVEL) {
		bool num = next && level_word(next);

		a->val[i] = num ? next : "1";
		return num;
	}
	if (!next && s->partial) {
		a->val[i] = "";
		s->pending = i;
		return 0;
	}
	if (!next || !strncmp(next, "--", 2))
		return scan_fail(s, "option --%s needs a value", o->name);
	a->val[i] = next;
	return 1;
}

static int scan_long(struct lnetctl_scan *s, struct lnetctl_args *a,
		     int argc, char **argv, int pos)
{
	const char *name = argv[pos] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int i = lnetctl_opt_match(s->opts, name, len, s->msg, sizeof(s->msg));

	if (i == LNETCTL_OPT_NONE && !len)
		return scan_fail(s, "unknown option '--%s'", name);
	if (i < 0)
		return i;
	return take_value(s, a, i, eq ? eq + 1 : NULL, argc, argv, pos);
}

static int scan_short(struct lnetctl_scan *s, struct lnetctl_args *a,
		      int argc, char **argv, int pos)
{
	const char *w = argv[pos];
	int i = opt_short(s->opts, w[1], s->msg, sizeof(s->msg));

	if (i == LNETCTL_OPT_HELP && w[2])
		return scan_fail(s, "unknown option '%s'", w);
	if (i < 0)
		return i;
	if (s->opts[i].kind == LNETCTL_FLAG && w[2])
		return scan_fail(s, "unknown option '%s'", w);
	return take_value(s, a, i, w[2] ? w + 2 : NULL, argc, argv, pos);
}

static int add_word(struct lnetctl_scan *s, struct lnetctl_args *a, char *w)
{
	if (a->npos == LNETCTL_MAX_POS)
		return scan_fail(s, "unexpected argument '%s'", w);
	a->pos[a->npos++] = w;
	return 0;
}

/* One word at @pos (and its value): the extra words used, or LNETCTL_OPT_*. */
static int scan_word(struct lnetctl_scan *s, struct lnetctl_args *a,
		     int argc, char **argv, int pos)
{
	const char *w = argv[pos];

	if (s->words_only || w[0] != '-' || !w[1])
		return add_word(s, a, argv[pos]);
	if (w[1] == '-')
		return scan_long(s, a, argc, argv, pos);
	return scan_short(s, a, argc, argv, pos);
}

int lnetctl_scan(struct lnetctl_scan *s, int argc, char **argv, struct lnetctl_args *a)
{
	int pos, used;

	memset(a, 0, sizeof(*a));
	s->pending = -1;
	s->unknown = s->words_only = false;
	s->msg[0] = '\0';
	for (pos = 0; pos < argc; pos += 1 + used) {
		if (!s->words_only && !strcmp(argv[pos], "--")) {
			s->words_only = true;
			used = 0;
			continue;
		}
		if (s->stop_at_word && (s->words_only || argv[pos][0] != '-' || !argv[pos][1]))
			return pos;
		used = scan_word(s, a, argc, argv, pos);
		if (used >= 0)
			continue;
		if (!s->partial)
			return used;
		/* completion reads on: the word is skipped, as if not typed */
		s->unknown = used == LNETCTL_OPT_NONE && pos == argc - 1;
		used = 0;
	}
	return argc;
}

void lnetctl_print_opts(FILE *out, const struct lnetctl_opt *opts)
{
	for (; opts && opts->name; opts++) {
		fprintf(out, "\t--%s: %s", opts->name, opts->help);
		if (opts->alias)
			fprintf(out, " (alias: --%s)", opts->alias);
		if (opts->short_name)
			fprintf(out, " (short: -%c)", opts->short_name);
		fputc('\n', out);
	}
	fprintf(out, "\t--help: print this help and exit 0 (short: -h)\n");
}
