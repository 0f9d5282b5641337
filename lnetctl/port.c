// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetctl import [FILE|-] [--add|--del [--dry-run]|--show|--exec] and
 * export [FILE|-] [--backup].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lnetctl.h"

#define IMPORT_MAX_BYTES	(64U << 20)

enum { IM_ADD, IM_DEL, IM_SHOW, IM_EXEC, IM_DRY_RUN };

const struct lnetctl_opt lnetctl_import_opts[] = {
	[IM_ADD] = { "add", 'a', LNETCTL_FLAG,
		     "bring what the file describes into force (the default): only what differs changes" },
	[IM_DEL] = { "del", 'd', LNETCTL_FLAG,
		     "delete what the file describes instead of adding it (what is absent is skipped)" },
	[IM_SHOW] = { "show", 's', LNETCTL_FLAG,
		      "print how the objects the file names are configured now (export --backup form)" },
	[IM_EXEC] = { "exec", 'e', LNETCTL_FLAG,
		      "run the file's 'ping:' and 'discover:' sections" },
	[IM_DRY_RUN] = { "dry-run", 0, LNETCTL_FLAG,
			 "print the changes the import would make, one line each, and make none" },
	{ NULL }
};

enum { EX_BACKUP };

const struct lnetctl_opt lnetctl_export_opts[] = {
	[EX_BACKUP] = { "backup", 'b', LNETCTL_FLAG,
			"only what 'import' needs to rebuild this state" },
	{ NULL }
};

/* The whole of @f into a NUL-terminated malloc'ed buffer. 0 or -errno. */
int lnetctl_read_all(FILE *f, char **text, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1), *bigger;

	if (!buf)
		return -ENOMEM;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		if (cap >= IMPORT_MAX_BYTES || !(bigger = realloc(buf, 2 * cap + 1))) {
			free(buf);
			return cap >= IMPORT_MAX_BYTES ? -EFBIG : -ENOMEM;
		}
		buf = bigger;
		cap *= 2;
	}
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* "FILE:LINE:COL: message" when the error is tied to a YAML node. */
static int import_fail(const struct lnetctl_ctx *ctx, const char *name, int rc,
		       const struct cfg_err *err)
{
	if (!err->loc.line)
		return lnetctl_fail(ctx, rc, err);
	if (ctx->where)
		fprintf(stderr, "%s: ", ctx->where);
	fprintf(stderr, "%s:%u:%u: %s\n", name, err->loc.line, err->loc.col,
		err->msg[0] ? err->msg : strerror(-rc));
	return LNETCTL_ERR;
}

static int import_text(struct lnetctl_ctx *ctx, const char *name,
		       const char *text, size_t len, const struct lnetctl_args *a)
{
	bool del = a->val[IM_DEL] != NULL;
	struct cfg_err err = { 0 };
	struct cfg_doc *doc;
	int rc;

	if (a->val[IM_EXEC]) {
		rc = cfg_doc_exec(ctx->h, text, len, ctx->out, &err);
		return rc ? import_fail(ctx, name, rc, &err) : LNETCTL_OK;
	}
	rc = cfg_doc_parse(text, len, &doc, &err);
	if (!rc && a->val[IM_SHOW])
		rc = cfg_doc_show(ctx->h, doc, ctx->out, &err);
	else if (!rc && a->val[IM_DRY_RUN])
		rc = cfg_doc_plan(ctx->h, doc, del, ctx->out, &err);
	else if (!rc)
		rc = cfg_doc_apply(ctx->h, doc, del, &err);
	cfg_doc_free(doc);
	return rc ? import_fail(ctx, name, rc, &err) : LNETCTL_OK;
}

/*
 * What to do, from the options: one of --add, --del, --show and --exec at
 * most; --dry-run goes with --add or --del.
 */
static bool import_mode_ok(struct lnetctl_ctx *ctx, const struct lnetctl_args *a)
{
	static const int modes[] = { IM_ADD, IM_DEL, IM_SHOW, IM_EXEC };
	int first = -1;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!a->val[modes[i]])
			continue;
		if (first >= 0) {
			lnetctl_usage(ctx, "--%s and --%s cannot be combined",
				      lnetctl_import_opts[first].name,
				      lnetctl_import_opts[modes[i]].name);
			return false;
		}
		first = modes[i];
	}
	if (a->val[IM_DRY_RUN] && (first == IM_SHOW || first == IM_EXEC)) {
		lnetctl_usage(ctx, "--dry-run goes with --add or --del, not --%s",
			      lnetctl_import_opts[first].name);
		return false;
	}
	return true;
}

/* @path opened for reading, or NULL with the message printed (a directory is named so). */
static FILE *open_input(struct lnetctl_ctx *ctx, const char *path)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdin;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		lnetctl_msg(ctx, "cannot read '%s': it is a directory: import takes a YAML file",
			    path);
		return NULL;
	}
	f = fopen(path, "r");
	if (!f)
		lnetctl_msg(ctx, "cannot open '%s': %s", path, strerror(errno));
	return f;
}

int lnetctl_import(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	const char *path, *name;
	struct lnetctl_args a;
	size_t len;
	char *text;
	FILE *f;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 1, &a))
		return a.status;
	if (!import_mode_ok(ctx, &a))
		return LNETCTL_USAGE;
	path = a.npos ? a.pos[0] : "-";
	if (!strcmp(path, "-") && ctx->stdin_commands)
		return lnetctl_usage(ctx, "stdin holds the commands: import needs a FILE");
	name = strcmp(path, "-") ? path : "<stdin>";
	f = open_input(ctx, path);
	if (!f)
		return LNETCTL_ERR;
	rc = lnetctl_read_all(f, &text, &len);
	if (f != stdin)
		fclose(f);
	if (rc) {
		lnetctl_msg(ctx, "cannot read '%s': %s", name, strerror(-rc));
		return LNETCTL_ERR;
	}
	rc = import_text(ctx, name, text, len, &a);
	free(text);
	return rc;
}

/* Write @len bytes to @path (created or truncated) only once they all exist. */
static int write_file(const struct lnetctl_ctx *ctx, const char *path,
		      const char *buf, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	bool ok;

	if (!f) {
		lnetctl_msg(ctx, "cannot create '%s': %s", path, strerror(errno));
		return LNETCTL_ERR;
	}
	ok = fwrite(buf, 1, len, f) == len;
	if (f != stdout)
		ok = !fclose(f) && ok;
	if (!ok) {
		lnetctl_msg(ctx, "cannot write '%s': %s", path, strerror(errno));
		return LNETCTL_ERR;
	}
	return LNETCTL_OK;
}

int lnetctl_export(struct lnetctl_ctx *ctx, int argc, char **argv)
{
	struct cfg_err err = { 0 };
	struct lnetctl_args a;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (!lnetctl_parse(ctx, argc, argv, 0, 1, &a))
		return a.status;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return lnetctl_fail(ctx, -ENOMEM, NULL);
	rc = cfg_export(ctx->h, a.val[EX_BACKUP] != NULL, mem, &err);
	if (fclose(mem) && !rc)
		rc = -ENOMEM;
	rc = lnetctl_show_done(ctx, rc, &err);
	if (!rc)
		rc = write_file(ctx, a.npos ? a.pos[0] : "-", buf, len);
	free(buf);
	return rc;
}
