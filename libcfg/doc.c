// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A YAML configuration document as a whole, by walking the section table
 * (cfg_sections[], one row per sec_*.c; section.h says what a row holds):
 *
 *  - cfg_doc_parse(): the top-level keys checked against the table, each
 *    section parsed by its row, then the checks across the document; all
 *    of it validated before anything is applied. Every error carries the
 *    line:column of the node at fault.
 *  - cfg_doc_apply(): all or nothing, and only what differs from the
 *    running state (section.h, struct applier); cfg_doc_plan() the same
 *    walk, writing the changes instead of making them. Every step that succeeds pushes how
 *    to undo it on one stack; the first failure undoes the stack in reverse
 *    order, which also puts rules back at the very idx they had (each undo
 *    sees LNet exactly as its step left it). Sections are added in table
 *    order and deleted (import --del) in the reverse order.
 *  - cfg_doc_read(), cfg_doc_write(), cfg_export(): the running
 *    configuration as a document, a document as YAML, and the two export
 *    forms, section by section in table order.
 *
 * Also the parsing, applying and printing helpers the sections share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

/*
 * In the order the "expected" list of an unknown top-level key names them;
 * the rows marked last are applied and written after the others.
 */
static const struct cfg_section *const cfg_sections[] = {
	&cfg_sec_net, &cfg_sec_peer, &cfg_sec_udsp, &cfg_sec_route,
	&cfg_sec_routing, &cfg_sec_global,
};

#define NSECTIONS (sizeof(cfg_sections) / sizeof(cfg_sections[0]))

/* The rows in the order they are applied and written. */
static void sections_in_order(const struct cfg_section *out[NSECTIONS])
{
	size_t i, n = 0;
	int last;

	for (last = 0; last <= 1; last++)
		for (i = 0; i < NSECTIONS; i++)
			if (cfg_sections[i]->last == last)
				out[n++] = cfg_sections[i];
}

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* The row owning top-level key @key, or NULL. */
static const struct cfg_section *section_of(const char *key)
{
	size_t i;

	for (i = 0; i < NSECTIONS; i++)
		if (in_list(cfg_sections[i]->keys, key))
			return cfg_sections[i];
	return NULL;
}

static struct cfg_doc *doc_new(struct cfg_err *err)
{
	struct doc *d = calloc(1, sizeof(*d));

	if (!d) {
		cfg_fail(err, -ENOMEM, NULL, "out of memory reading the configuration");
		return NULL;
	}
	return &d->pub;
}

void cfg_doc_free(struct cfg_doc *doc)
{
	size_t i;

	if (!doc)
		return;
	for (i = 0; i < doc->nnets; i++) {
		cfg_net_fini(doc->nets[i]);
		free(doc->nets[i]);
	}
	for (i = 0; i < doc->npeers; i++) {
		cfg_peer_fini(doc->peers[i]);
		free(doc->peers[i]);
	}
	for (i = 0; i < doc->nroutes; i++) {
		cfg_route_fini(doc->routes[i]);
		free(doc->routes[i]);
	}
	for (i = 0; i < doc->npolicies; i++)
		free(doc->policies[i]);
	free(doc->nets);
	free(doc->peers);
	free(doc->policies);
	free(doc->routes);
	cfg_ip2nets_release(&doc_priv(doc)->ip2nets);
	free(doc_priv(doc));
}

int doc_append(void *arr, size_t *n, const void *item, size_t size, struct cfg_err *err)
{
	void *copy = malloc(size);

	if (!copy || cfg_list_append(arr, *n, SIZE_MAX, &copy, sizeof(copy))) {
		free(copy);
		return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the configuration");
	}
	memcpy(copy, item, size);
	(*n)++;
	return 0;
}

/* --- parsing helpers -------------------------------------------------------------- */

int at_node(struct cfg_err *err, const struct ynode *n, int rc)
{
	if (rc)
		err->loc = n->loc;
	return rc;
}

static void join_keys(const char *const *keys, char *buf, size_t len, size_t *off)
{
	for (; *keys && *off < len; keys++)
		*off += snprintf(buf + *off, len - *off, "%s'%s'",
				 *off ? ", " : "", *keys);
}

static int unknown_key(struct dparse *p, const struct ynode *k, const char *where,
		       const char *list)
{
	return cfg_fail(p->err, -EINVAL, &k->loc, "unknown key '%s' in %s: expected %s",
			k->str, where, list);
}

int check_keys(struct dparse *p, const struct ynode *map, const char *where,
	       const char *const *allowed, const char *const *ignored)
{
	const struct ynode *k;
	char list[256];
	size_t off = 0;

	for (k = map->first; k; k = k->next) {
		if (in_list(allowed, k->str) || in_list(ignored, k->str))
			continue;
		list[0] = '\0';
		join_keys(allowed, list, sizeof(list), &off);
		return unknown_key(p, k, where, list);
	}
	return 0;
}

int need_map(struct dparse *p, const struct ynode *n, const char *what,
	     const char *const *allowed)
{
	int rc = need_type(p, n, YNODE_MAP, what);

	return rc ? rc : check_keys(p, n, what, allowed, NULL);
}

int need_type(struct dparse *p, const struct ynode *n, enum ynode_type type,
	      const char *what)
{
	if (n->type == type)
		return 0;
	return cfg_fail(p->err, -EINVAL, &n->loc, "'%s' must be a %s, not a %s",
			what, ytree_type_name(type), ytree_type_name(n->type));
}

int need_value(struct dparse *p, const struct ynode *n, const char *what)
{
	int rc = need_type(p, n, YNODE_SCALAR, what);

	if (rc)
		return rc;
	if (ytree_is_null(n))
		return cfg_fail(p->err, -EINVAL, &n->loc,
				"no value given for '%s'", what);
	return 0;
}

int cfg_doc_plain_number(const struct ynode *n, const char *what, struct cfg_err *err)
{
	if (n->plain)
		return 0;
	return cfg_fail(err, -EINVAL, &n->loc,
			"invalid %s '%s': expected a number, not a quoted string", what, n->str);
}

int need_number(struct dparse *p, const struct ynode *n, const char *what)
{
	int rc = need_value(p, n, what);

	return rc ? rc : cfg_doc_plain_number(n, what, p->err);
}

bool is_empty(const struct ynode *n)
{
	return !n || ytree_is_null(n);
}

int parse_items(struct dparse *p, const struct ynode *key,
		int (*item)(struct dparse *p, const struct ynode *item))
{
	const struct ynode *c, *seq = key->value;
	int rc = need_type(p, seq, YNODE_SEQ, key->str);

	for (c = seq->first; c && !rc; c = c->next)
		rc = item(p, c);
	return rc;
}

/* --- cfg_doc_parse ------------------------------------------------------------------ */

/* Every top-level key names a section; the message lists them all. */
static int check_top_keys(struct dparse *p, const struct ynode *root)
{
	const struct ynode *k;
	char list[256];
	size_t i, off = 0;

	for (k = root->first; k; k = k->next) {
		if (section_of(k->str))
			continue;
		list[0] = '\0';
		for (i = 0; i < NSECTIONS; i++)
			join_keys(cfg_sections[i]->keys, list, sizeof(list), &off);
		return unknown_key(p, k, "the document", list);
	}
	return 0;
}

static int parse_root(struct dparse *p, const struct ynode *root)
{
	const struct ynode *k;
	size_t i;
	int rc;

	if (!root || ytree_is_null(root))
		return 0;
	if (root->type != YNODE_MAP)
		return cfg_fail(p->err, -EINVAL, &root->loc,
				"the document must be a mapping of 'net', 'peer' and 'udsp', not a %s",
				ytree_type_name(root->type));
	rc = check_top_keys(p, root);
	for (k = root->first; k && !rc; k = k->next)
		if (!is_empty(k->value))
			rc = section_of(k->str)->parse(p, k);
	for (i = 0; i < NSECTIONS && !rc; i++)
		if (cfg_sections[i]->check)
			rc = cfg_sections[i]->check(p);
	return rc;
}

int cfg_doc_parse(const char *text, size_t len, struct cfg_doc **doc,
		  struct cfg_err *err)
{
	struct dparse p = { .err = err };
	struct ynode *root;
	int rc;

	*doc = NULL;
	memset(err, 0, sizeof(*err));
	rc = ytree_load(text, len, &root, err);
	if (rc)
		return rc;
	p.doc = doc_new(err);
	rc = p.doc ? parse_root(&p, root) : -ENOMEM;
	ytree_free(root);
	if (rc)
		cfg_doc_free(p.doc);
	else
		*doc = p.doc;
	return rc;
}

/* --- cfg_doc_apply ---------------------------------------------------------------- */

void release_undo(struct undo *u)
{
	if (u->release)
		u->release(u);
}

int push_undo(struct applier *a, struct undo *u)
{
	if (a->nundo == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		struct undo *p = realloc(a->undo, cap * sizeof(*p));

		if (!p) {
			release_undo(u);
			return cfg_fail(a->err, -ENOMEM, NULL,
					"out of memory applying the configuration");
		}
		a->undo = p;
		a->cap = cap;
	}
	a->undo[a->nundo++] = *u;
	return 0;
}

int item_failed(struct applier *a, const struct cfg_loc *loc, int rc)
{
	a->err->loc = *loc;
	return rc;
}

/* Undo everything, newest first; the first undo failure is appended to err. */
static void rollback(struct applier *a)
{
	struct cfg_err e;
	bool failed = false;
	size_t len;

	while (a->nundo) {
		struct undo *u = &a->undo[--a->nundo];

		memset(&e, 0, sizeof(e));
		if (u->undo(a, u, &e) && !failed) {
			failed = true;
			len = strlen(a->err->msg);
			snprintf(a->err->msg + len, sizeof(a->err->msg) - len,
				 "; undoing the import failed too: %s", e.msg);
		}
		release_undo(u);
	}
}

void plan_line(struct applier *a, char op, const char *fmt, ...)
{
	va_list ap;

	fprintf(a->plan, "%c ", op);
	va_start(ap, fmt);
	vfprintf(a->plan, fmt, ap);
	va_end(ap);
	fputc('\n', a->plan);
}

void plan_change(char *buf, size_t len, const char *key, long long from, long long to)
{
	size_t off = strlen(buf);

	if (off < len)
		snprintf(buf + off, len - off, "%s%s %lld -> %lld", off ? ", " : "", key,
			 from, to);
}

static int doc_apply(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
		     FILE *plan, struct cfg_err *err)
{
	struct applier a = { .h = h, .doc = doc, .del = del, .plan = plan, .err = err };
	const struct cfg_section *order[NSECTIONS];
	size_t i;
	int rc = 0;

	memset(err, 0, sizeof(*err));
	sections_in_order(order);
	for (i = 0; i < NSECTIONS && !rc; i++)
		rc = order[del ? NSECTIONS - 1 - i : i]->apply(&a);
	if (rc)
		rollback(&a);
	while (a.nundo)
		release_undo(&a.undo[--a.nundo]);
	free(a.undo);
	return rc;
}

int cfg_doc_apply(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
		  struct cfg_err *err)
{
	return doc_apply(h, doc, del, NULL, err);
}

int cfg_doc_plan(struct cfg_handle *h, const struct cfg_doc *doc, bool del, FILE *out,
		 struct cfg_err *err)
{
	return doc_apply(h, doc, del, out, err);
}

/* --- cfg_doc_read, cfg_doc_write, cfg_export ------------------------------------------- */

/* Every section but those that stream export --backup when @streamed is false. */
static int read_sections(struct cfg_handle *h, struct cfg_doc **doc, bool streamed,
			 struct cfg_err *err)
{
	const struct cfg_section *order[NSECTIONS];
	struct cfg_doc *d = doc_new(err);
	size_t i;
	int rc = d ? 0 : -ENOMEM;

	sections_in_order(order);
	for (i = 0; i < NSECTIONS && !rc; i++)
		if (streamed || !order[i]->backup)
			rc = order[i]->read(h, d, err);
	if (rc) {
		cfg_doc_free(d);
		d = NULL;
	}
	*doc = d;
	return rc;
}

int cfg_doc_read(struct cfg_handle *h, struct cfg_doc **doc, struct cfg_err *err)
{
	return read_sections(h, doc, true, err);
}

int cfg_doc_write(const struct cfg_doc *doc, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	const struct cfg_section *order[NSECTIONS];
	size_t i;

	sections_in_order(order);
	for (i = 0; i < NSECTIONS; i++)
		if (order[i]->has(doc)) {
			pr_start(&p);
			order[i]->write(&p.w, doc);
		}
	return pr_finish(&p, 0);
}

/*
 * export --backup writes what cfg_doc_read() reads, in the layout of
 * cfg_doc_write(); everything is read before the first line is written,
 * except what a section streams.
 */
static int export_backup(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	const struct cfg_section *order[NSECTIONS];
	struct cfg_doc *doc;
	size_t i;
	int rc;

	rc = read_sections(h, &doc, false, err);
	if (rc)
		return rc;
	sections_in_order(order);
	for (i = 0; i < NSECTIONS && !rc; i++) {
		if (order[i]->backup) {
			rc = order[i]->backup(&p, h);
		} else if (order[i]->has(doc)) {
			pr_start(&p);
			order[i]->write(&p.w, doc);
		}
	}
	cfg_doc_free(doc);
	return pr_finish(&p, rc);
}

int cfg_export(struct cfg_handle *h, bool backup, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	const struct cfg_section *order[NSECTIONS];
	size_t i;
	int rc = 0;

	if (backup)
		return export_backup(h, out, err);
	sections_in_order(order);
	for (i = 0; i < NSECTIONS && !rc; i++)
		rc = order[i]->export(&p, h);
	return pr_finish(&p, rc);
}
