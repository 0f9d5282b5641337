// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The global section: LNet's global settings (LNET_GLOBALS), parsed,
 * applied, read back and shown (cfg_show_global, its part of export).
 *
 *   global: {numa_range: 0, ...}    # the keys of `lnetctl global show`
 *   numa: {range: 0}                # Lustre's other way to write numa_range
 *
 * lnd_timeout is read-only: written by show and export (after
 * router_sensitivity, where Lustre has it), ignored by import. max_intf
 * (Lustre 2.10-2.12) is read as max_interfaces. Applying
 * saves every settable value first and puts them back on undo; import
 * --del puts the keys listed back to their defaults. A document read from
 * LNet keeps only what differs from the defaults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

static const char *const global_top[] = { "global", "numa", NULL };
static const char *const numa_keys[] = { "range", NULL };

/* --- parse ------------------------------------------------------------------------ */

/* Lustre 2.10-2.12 wrote max_interfaces under its module parameter's old name. */
static const char *global_name(const char *key)
{
	return strcmp(key, "max_intf") ? key : "max_interfaces";
}

static int global_key(struct dparse *p, const struct ynode *k)
{
	const struct cfg_global_spec *s = cfg_global_find(global_name(k->str));
	struct cfg_global *g = &doc_priv(p->doc)->global;
	u32 value = 0;
	int rc;

	if (!s && !strcmp(k->str, "lnd_timeout"))
		return 0;	/* read-only: written by export */
	if (!s)
		return cfg_fail(p->err, -EINVAL, &k->loc,
				"unknown key '%s' in global: expected a key of 'lnetctl global show'",
				k->str);
	/* YAML keys are unique: twice is max_intf with max_interfaces (a
	 * numa_range given already came from `numa:`, checked below) */
	if ((g->set & (1U << s->id)) && s->id != LNET_GLOBAL_NUMA_RANGE)
		return cfg_fail(p->err, -EINVAL, &k->loc,
				"'%s' in global: %s is already given (max_intf is its old name)",
				k->str, s->name);
	rc = need_number(p, k->value, k->str);
	if (!rc)
		rc = at_node(p->err, k->value, cfg_parse_u32(s->name, k->value->str, s->min,
							     s->max, &value, p->err));
	/* only numa_range can be set already: by a `numa:` written before */
	if (!rc && (g->set & (1U << s->id)) && g->value[s->id] != value)
		rc = cfg_fail(p->err, -EINVAL, &k->value->loc,
			      "global %s %u differs from numa range %u", s->name, value,
			      g->value[s->id]);
	g->value[s->id] = value;
	g->set |= 1U << s->id;
	g->loc[s->id] = k->value->loc;
	return rc;
}

/*
 * `numa: {range: N}` sets numa_range, as Lustre's import does; written
 * back as global's numa_range (where Lustre's export has it). Both ways
 * in one document must agree.
 */
static int parse_numa(struct dparse *p, const struct ynode *map)
{
	struct cfg_global *g = &doc_priv(p->doc)->global;
	const unsigned int id = LNET_GLOBAL_NUMA_RANGE;
	const struct cfg_global_spec *s = cfg_global_find("numa_range");
	const struct ynode *v;
	u32 range;
	int rc = need_map(p, map, "numa", numa_keys);

	v = rc ? NULL : ytree_get(map, "range");
	if (!v)
		return rc;
	rc = need_number(p, v, "range");
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_u32("range", v->str, s->min, s->max,
						      &range, p->err));
	if (rc)
		return rc;
	if ((g->set & (1U << id)) && g->value[id] != range)
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"numa range %u differs from global numa_range %u", range,
				g->value[id]);
	g->value[id] = range;
	g->set |= 1U << id;
	g->loc[id] = v->loc;
	return 0;
}

static int parse_global(struct dparse *p, const struct ynode *key)
{
	const struct ynode *k, *map = key->value;
	int rc;

	if (!strcmp(key->str, "numa"))
		return parse_numa(p, map);
	rc = need_type(p, map, YNODE_MAP, "global");

	for (k = rc ? NULL : map->first; k && !rc; k = k->next)
		rc = global_key(p, k);
	return rc ? rc : cfg_global_doc_check(&doc_priv(p->doc)->global, p->err);
}

/* --- apply ------------------------------------------------------------------------- */

static int undo_global(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	return cfg_global_apply(a->h, u->data, e);
}

static void release_global(struct undo *u)
{
	free(u->data);
}

/* Push how to put every settable value back, before changing any. */
static int save_global(struct applier *a)
{
	struct undo u = { .undo = undo_global, .release = release_global };
	struct cfg_global *saved = malloc(sizeof(*saved));
	int rc;

	if (!saved)
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	u.data = saved;
	rc = cfg_global_read(a->h, saved, a->err);
	saved->set &= ~(1U << LNET_GLOBAL_LND_TIMEOUT);
	if (rc) {
		release_undo(&u);
		return rc;
	}
	return push_undo(a, &u);
}

/*
 * @want (the document's values, or the defaults with a->del) where they
 * differ from the running ones: only those stay set in @want; "~ global:
 * KEY OLD -> NEW, ..." when planning. True when something differs.
 */
static int global_differs(struct applier *a, struct cfg_global *want, bool *differs)
{
	const struct cfg_global_spec *s;
	struct cfg_global now;
	char buf[512] = "";
	int rc = cfg_global_read(a->h, &now, a->err);

	if (rc)
		return rc;
	for (s = cfg_global_specs; s->name; s++) {
		if (!(want->set & (1U << s->id)))
			continue;
		if (a->del)
			want->value[s->id] = s->def;
		if (now.value[s->id] == want->value[s->id])
			want->set &= ~(1U << s->id);
		else
			plan_change(buf, sizeof(buf), s->name, now.value[s->id],
				    want->value[s->id]);
	}
	if (a->plan && buf[0])
		plan_line(a, '~', "global: %s", buf);
	*differs = buf[0];
	return 0;
}

/* The document's values, or with a->del the defaults of the keys it lists. */
static int apply_global(struct applier *a)
{
	struct cfg_global want = doc_priv(a->doc)->global;
	bool differs;
	int rc;

	if (!want.set)
		return 0;
	rc = global_differs(a, &want, &differs);
	if (rc || !differs || a->plan)
		return rc;
	rc = save_global(a);
	return rc ? rc : cfg_global_apply(a->h, &want, a->err);
}

/* --- read -------------------------------------------------------------------------- */

/* Keep only what differs from the defaults: a fresh node needs no more. */
static int read_global(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct cfg_global *g = &doc_priv(doc)->global;
	const struct cfg_global_spec *s;
	int rc = cfg_global_read(h, g, err);

	if (rc)
		return rc;
	g->set &= ~(1U << LNET_GLOBAL_LND_TIMEOUT);
	for (s = cfg_global_specs; s->name; s++)
		if (g->value[s->id] == s->def)
			g->set &= ~(1U << s->id);
	return 0;
}

/* --- show and write ---------------------------------------------------------------- */

static void write_global_values(struct yemit *w, const struct cfg_global *g)
{
	const struct cfg_global_spec *s;

	if (!g->set)
		return;
	yemit_key_map(w, "global");
	for (s = cfg_global_specs; s->name; s++) {
		if (g->set & (1U << s->id))
			yemit_kv_u64(w, s->name, g->value[s->id]);
		/* read-only, shown where Lustre shows it */
		if (s->id == LNET_GLOBAL_ROUTER_SENSITIVITY &&
		    (g->set & (1U << LNET_GLOBAL_LND_TIMEOUT)))
			yemit_kv_u64(w, "lnd_timeout", g->value[LNET_GLOBAL_LND_TIMEOUT]);
	}
	yemit_map_end(w);
}

static void write_global(struct yemit *w, const struct cfg_doc *doc)
{
	write_global_values(w, &doc_priv(doc)->global);
}

/* The running values, every one (show and the full export). */
static int emit_global(struct printer *p, struct cfg_handle *h)
{
	struct cfg_global g;
	int rc = cfg_global_read(h, &g, p->err);

	if (rc)
		return rc;
	rc = pr_start(p);
	write_global_values(&p->w, &g);
	return rc;
}

int cfg_show_global(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_global(&p, h));
}

static bool has_global(const struct cfg_doc *doc)
{
	return doc_priv(doc)->global.set;
}

const struct cfg_section cfg_sec_global = {
	.keys = global_top,
	.parse = parse_global,
	.apply = apply_global,
	.read = read_global,
	.has = has_global,
	.write = write_global,
	.export = emit_global,
};
