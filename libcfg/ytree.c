// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * YAML text -> struct ynode tree, driven by libyaml's parser events. The
 * tree is built with an explicit stack (no recursion on input), bounded in
 * depth and node count, so hostile input cannot exhaust the C stack or
 * memory beyond the limits of ytree.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "ytree.h"

struct yload {
	yaml_parser_t parser;
	const char *text;
	size_t len;
	struct ynode *stack[YTREE_MAX_DEPTH];
	unsigned int depth;
	struct ynode *root;
	size_t nnodes;
	unsigned int ndocs;
	struct cfg_err *err;
};

const char *ytree_type_name(enum ynode_type type)
{
	switch (type) {
	case YNODE_SCALAR:
		return "scalar";
	case YNODE_MAP:
		return "mapping";
	case YNODE_SEQ:
		return "sequence";
	}
	return "node";
}

void ytree_free(struct ynode *n)
{
	while (n) {
		struct ynode *next = n->next;

		ytree_free(n->first);
		ytree_free(n->value);
		free(n->str);
		free(n);
		n = next;
	}
}

const struct ynode *ytree_get(const struct ynode *map, const char *key)
{
	const struct ynode *k;

	if (!map || map->type != YNODE_MAP)
		return NULL;
	for (k = map->first; k; k = k->next)
		if (!strcmp(k->str, key))
			return k->value;
	return NULL;
}

bool ytree_is_null(const struct ynode *n)
{
	if (!n || n->type != YNODE_SCALAR || !n->plain)
		return false;
	return !n->len || !strcmp(n->str, "~") || !strcmp(n->str, "null") ||
	       !strcmp(n->str, "Null") || !strcmp(n->str, "NULL");
}

static struct cfg_loc mark_loc(const yaml_mark_t *m)
{
	struct cfg_loc loc = { .line = m->line + 1, .col = m->column + 1 };

	return loc;
}

/* Reader errors carry a byte offset, not a mark: count lines ourselves. */
static struct cfg_loc offset_loc(const char *text, size_t len, size_t off)
{
	struct cfg_loc loc = { .line = 1, .col = 1 };
	size_t i;

	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			loc.line++;
			loc.col = 1;
		} else {
			loc.col++;
		}
	}
	return loc;
}

static int yload_parser_error(struct yload *l)
{
	const yaml_parser_t *p = &l->parser;
	struct cfg_loc loc;

	if (p->error == YAML_MEMORY_ERROR)
		return cfg_fail(l->err, -ENOMEM, NULL, "out of memory reading YAML");
	if (p->error == YAML_READER_ERROR)
		loc = offset_loc(l->text, l->len, p->problem_offset);
	else
		loc = mark_loc(&p->problem_mark);
	if (p->context)
		return cfg_fail(l->err, -EINVAL, &loc, "%s %s",
				p->problem ? p->problem : "invalid YAML",
				p->context);
	return cfg_fail(l->err, -EINVAL, &loc, "%s",
			p->problem ? p->problem : "invalid YAML");
}

static int ynode_new(struct yload *l, enum ynode_type type,
		     const yaml_mark_t *mark, struct ynode **out)
{
	struct cfg_loc loc = mark_loc(mark);
	struct ynode *n;

	if (l->nnodes >= YTREE_MAX_NODES)
		return cfg_fail(l->err, -EINVAL, &loc,
				"document has more than %u YAML nodes",
				YTREE_MAX_NODES);
	n = calloc(1, sizeof(*n));
	if (!n)
		return cfg_fail(l->err, -ENOMEM, NULL, "out of memory reading YAML");
	l->nnodes++;
	n->type = type;
	n->loc = loc;
	*out = n;
	return 0;
}

static void ynode_append(struct ynode *parent, struct ynode *child)
{
	if (parent->last)
		parent->last->next = child;
	else
		parent->first = child;
	parent->last = child;
	parent->nchildren++;
}

/* A key of @map equal to @key's text, other than @key itself. */
static const struct ynode *ynode_find_key(const struct ynode *map,
					  const struct ynode *key)
{
	const struct ynode *k;

	for (k = map->first; k; k = k->next)
		if (k->len == key->len && !memcmp(k->str, key->str, k->len))
			return k;
	return NULL;
}

static int yload_add_key(struct yload *l, struct ynode *map, struct ynode *n)
{
	const struct ynode *dup;

	if (n->type != YNODE_SCALAR)
		return cfg_fail(l->err, -EINVAL, &n->loc,
				"a mapping key must be a scalar, not a %s",
				ytree_type_name(n->type));
	dup = ynode_find_key(map, n);
	if (dup)
		return cfg_fail(l->err, -EINVAL, &n->loc,
				"duplicate key '%s' (first at %u:%u)", n->str,
				dup->loc.line, dup->loc.col);
	ynode_append(map, n);
	return 0;
}

/* Hang @n under the innermost open collection (or make it the root). */
static int yload_attach(struct yload *l, struct ynode *n)
{
	struct ynode *parent;
	int rc = 0;

	if (!l->depth) {
		l->root = n;
		return 0;
	}
	parent = l->stack[l->depth - 1];
	if (parent->type == YNODE_SEQ)
		ynode_append(parent, n);
	else if (!parent->last || parent->last->value)
		rc = yload_add_key(l, parent, n);
	else
		parent->last->value = n;
	if (rc)
		ytree_free(n);
	return rc;
}

static int yload_scalar(struct yload *l, const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	struct ynode *n;
	int rc;

	if (memchr(ev->data.scalar.value, '\0', len)) {
		struct cfg_loc loc = mark_loc(&ev->start_mark);

		return cfg_fail(l->err, -EINVAL, &loc,
				"a NUL character is not allowed in a value");
	}
	rc = ynode_new(l, YNODE_SCALAR, &ev->start_mark, &n);
	if (rc)
		return rc;
	n->str = malloc(len + 1);
	if (!n->str) {
		free(n);
		return cfg_fail(l->err, -ENOMEM, NULL, "out of memory reading YAML");
	}
	memcpy(n->str, ev->data.scalar.value, len);
	n->str[len] = '\0';
	n->len = len;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	return yload_attach(l, n);
}

static int yload_open(struct yload *l, const yaml_event_t *ev,
		      enum ynode_type type)
{
	struct ynode *n;
	int rc;

	if (l->depth >= YTREE_MAX_DEPTH) {
		struct cfg_loc loc = mark_loc(&ev->start_mark);

		return cfg_fail(l->err, -EINVAL, &loc,
				"nesting deeper than %d levels", YTREE_MAX_DEPTH);
	}
	rc = ynode_new(l, type, &ev->start_mark, &n);
	if (rc)
		return rc;
	rc = yload_attach(l, n);
	if (rc)
		return rc;
	l->stack[l->depth++] = n;
	return 0;
}

/* One event; 1 at the end of the stream. */
static int yload_event(struct yload *l, const yaml_event_t *ev)
{
	struct cfg_loc loc = mark_loc(&ev->start_mark);

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++l->ndocs > 1)
			return cfg_fail(l->err, -EINVAL, &loc,
					"only one YAML document is allowed");
		return 0;
	case YAML_SCALAR_EVENT:
		return yload_scalar(l, ev);
	case YAML_SEQUENCE_START_EVENT:
		return yload_open(l, ev, YNODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		return yload_open(l, ev, YNODE_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		l->depth--;
		return 0;
	case YAML_ALIAS_EVENT:
		return cfg_fail(l->err, -EINVAL, &loc,
				"aliases (*name) are not supported");
	case YAML_STREAM_END_EVENT:
		return 1;
	default:
		return 0;
	}
}

static int yload_run(struct yload *l)
{
	yaml_event_t ev;
	int rc;

	do {
		if (!yaml_parser_parse(&l->parser, &ev))
			return yload_parser_error(l);
		rc = yload_event(l, &ev);
		yaml_event_delete(&ev);
	} while (!rc);
	return rc < 0 ? rc : 0;
}

int ytree_load(const char *text, size_t len, struct ynode **root,
	       struct cfg_err *err)
{
	struct yload l = { .text = text, .len = len, .err = err };
	int rc;

	*root = NULL;
	if (len > YTREE_MAX_SIZE) {
		struct cfg_loc loc = { .line = 1, .col = 1 };

		return cfg_fail(err, -EINVAL, &loc,
				"document is %zu bytes, more than the %u allowed",
				len, YTREE_MAX_SIZE);
	}
	if (!yaml_parser_initialize(&l.parser))
		return cfg_fail(err, -ENOMEM, NULL, "out of memory reading YAML");
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)text, len);
	rc = yload_run(&l);
	yaml_parser_delete(&l.parser);
	if (rc) {
		ytree_free(l.root);
		return rc;
	}
	*root = l.root;
	return 0;
}
