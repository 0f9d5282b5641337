// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The routing and buffers sections (one struct cfg_routing): parsed,
 * applied, read back and shown (cfg_show_routing, their part of export).
 *
 *   routing: {enable: 1}
 *   buffers: {tiny: 2048, small: 16384, large: 1024}   # 0 = the default
 *
 * is what export --backup writes (enable: the setting, so 0 while it
 * stops). routing show and the full export write Lustre's layout instead:
 * a `routing:` sequence of one `cpt[N]:` item per partition with its
 * pools as they are now (IOC_LNET_GET_RTR_POOLS), then `- enable: N`
 * (1 while the node forwards, stopping included), then `buffers:`.
 *
 * Import also takes what Lustre writes: the sequence a full `lnetctl
 * export` has (one `cpt[N]:` item per partition with its pools' run-time
 * counts, then `- enable: N`), and Lustre's routing states 2 (stopping:
 * it was turned off and is draining) and 3 (starting: turned on, not yet
 * forwarding), which mean off and on. The pool items say what the pools
 * were doing at that moment, nothing to configure: they are checked for
 * shape and skipped (`buffers:` sets the counts). A sequence without an
 * `enable` item leaves routing as it is (Lustre turns it off).
 *
 * Applying saves the running values first and puts them back on undo;
 * import --del puts the keys listed back to their defaults. A document
 * read from LNet keeps only what differs from the defaults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

static const char *const routing_top[] = { "routing", "buffers", NULL };
static const char *const routing_keys[] = { "enable", NULL };
static const char *const pool_keys[] = { "npages", "nbuffers", "credits", "mincredits", NULL };

/* Lustre's routing states, as its export writes them in `enable:`. */
enum lustre_routing_state {
	LUSTRE_RTR_DISABLED,
	LUSTRE_RTR_ENABLED,
	LUSTRE_RTR_STOPPING,
	LUSTRE_RTR_STARTING,
};

/* --- parse ------------------------------------------------------------------------ */

/* `enable: N` of mapping @map: on or off, whichever state Lustre wrote. */
static int routing_enable(struct dparse *p, const struct ynode *map)
{
	struct cfg_routing *r = &doc_priv(p->doc)->routing;
	const struct ynode *v = ytree_get(map, "enable");
	u32 state;
	int rc;

	if (!v)
		return 0;
	if (r->set & CFG_RTR_ENABLE)
		return cfg_fail(p->err, -EINVAL, &v->loc, "routing: 'enable' given twice");
	rc = need_number(p, v, "enable");
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_u32("enable", v->str, LUSTRE_RTR_DISABLED,
						      LUSTRE_RTR_STARTING, &state, p->err));
	if (rc)
		return rc;
	r->enable = state == LUSTRE_RTR_ENABLED || state == LUSTRE_RTR_STARTING;
	r->set |= CFG_RTR_ENABLE;
	r->loc = map->loc;
	return 0;
}

/* "cpt[N]" with N a decimal number: the name Lustre gives a partition's pools. */
static bool is_cpt_key(const char *s)
{
	size_t n;

	if (strncmp(s, "cpt[", 4))
		return false;
	n = strspn(s + 4, "0123456789");
	return n && !strcmp(s + 4 + n, "]");
}

/* tiny, small, large: the buffer kinds' names, NULL-terminated. */
static void buf_kind_names(const char *names[LNET_NBUF_KINDS + 1])
{
	unsigned int kind;

	for (kind = 0; kind < LNET_NBUF_KINDS; kind++)
		names[kind] = cfg_buf_name(kind);
	names[LNET_NBUF_KINDS] = NULL;
}

/* cpt[N]'s tiny/small/large: {npages, nbuffers, credits, mincredits}, numbers. */
static int check_pools(struct dparse *p, const struct ynode *cpt)
{
	const char *kinds[LNET_NBUF_KINDS + 1];
	const struct ynode *k, *f;
	int rc;

	buf_kind_names(kinds);
	rc = need_map(p, cpt->value, cpt->str, kinds);
	for (k = rc ? NULL : cpt->value->first; k && !rc; k = k->next) {
		rc = need_map(p, k->value, k->str, pool_keys);
		for (f = rc ? NULL : k->value->first; f && !rc; f = f->next)
			rc = need_number(p, f->value, f->str);
	}
	return rc;
}

/* One item of the sequence form: `cpt[N]: {...}` or `enable: N`. */
static int routing_item(struct dparse *p, const struct ynode *item)
{
	int rc = need_type(p, item, YNODE_MAP, "routing");

	if (rc)
		return rc;
	if (item->nchildren != 1 ||
	    (strcmp(item->first->str, "enable") && !is_cpt_key(item->first->str)))
		return cfg_fail(p->err, -EINVAL, &item->loc,
				"a routing item is 'cpt[N]: {tiny, small, large}' or 'enable: N'");
	if (!strcmp(item->first->str, "enable"))
		return routing_enable(p, item);
	return check_pools(p, item->first);
}

static int routing_section(struct dparse *p, const struct ynode *key)
{
	const struct ynode *map = key->value;
	int rc;

	if (map->type == YNODE_SEQ)
		return parse_items(p, key, routing_item);
	rc = need_map(p, map, "routing", routing_keys);
	return rc ? rc : routing_enable(p, map);
}

static int buffers_section(struct dparse *p, const struct ynode *map)
{
	const char *keys[LNET_NBUF_KINDS + 1];
	struct cfg_routing *r = &doc_priv(p->doc)->routing;
	const struct ynode *k;
	unsigned int kind;
	int rc;

	buf_kind_names(keys);
	rc = need_map(p, map, "buffers", keys);
	for (k = rc ? NULL : map->first; k && !rc; k = k->next) {
		for (kind = 0; strcmp(keys[kind], k->str); kind++)
			;
		rc = need_number(p, k->value, k->str);
		if (!rc)
			rc = at_node(p->err, k->value,
				     cfg_parse_buffers(k->str, k->value->str, kind,
						       &r->buffers[kind], p->err));
		r->set |= CFG_RTR_BUF(kind);
	}
	r->buffers_loc = map->loc;
	return rc;
}

static int parse_routing(struct dparse *p, const struct ynode *key)
{
	if (!strcmp(key->str, "routing"))
		return routing_section(p, key);
	return buffers_section(p, key->value);
}

/* --- apply ------------------------------------------------------------------------- */

static int undo_routing(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct cfg_routing *saved = u->data;
	int rc = cfg_routing_set(a->h, saved->enable, e);

	return rc ? rc : cfg_buffers_set(a->h, saved->buffers, LNET_NBUF_KINDS, e);
}

static void release_routing(struct undo *u)
{
	free(u->data);
}

/* Push how to put the running values back, before changing them. */
static int save_routing(struct applier *a)
{
	struct undo u = { .undo = undo_routing, .release = release_routing };
	struct cfg_routing *saved = malloc(sizeof(*saved));
	int rc;

	if (!saved)
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	u.data = saved;
	rc = cfg_routing_get(a->h, saved, a->err);
	if (rc) {
		release_undo(&u);
		return rc;
	}
	return push_undo(a, &u);
}

/* The value the document asks for of buffer kind @k: a->del or 0 mean the default. */
static s32 wanted_buffers(const struct applier *a, const struct cfg_routing *r, unsigned int k)
{
	return a->del || !r->buffers[k] ? lnet_buf_ranges[k].def : r->buffers[k];
}

/*
 * What the document changes, as "~ routing: ..." and "~ buffers: ..."
 * lines when planning; true when something differs from @now.
 */
static bool routing_differs(struct applier *a, const struct cfg_routing *r,
			    const struct cfg_routing *now)
{
	char rt[64] = "", buf[256] = "";
	unsigned int k;
	u32 enable = a->del ? 0 : r->enable;

	if ((r->set & CFG_RTR_ENABLE) && now->enable != enable)
		plan_change(rt, sizeof(rt), "enable", now->enable, enable);
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		if ((r->set & CFG_RTR_BUF(k)) && now->buffers[k] != wanted_buffers(a, r, k))
			plan_change(buf, sizeof(buf), cfg_buf_name(k), now->buffers[k],
				    wanted_buffers(a, r, k));
	if (a->plan && rt[0])
		plan_line(a, '~', "routing: %s", rt);
	if (a->plan && buf[0])
		plan_line(a, '~', "buffers: %s", buf);
	return rt[0] || buf[0];
}

/* The document's values, or with a->del the defaults; nothing when in force. */
static int apply_routing(struct applier *a)
{
	const struct cfg_routing *r = &doc_priv(a->doc)->routing;
	struct cfg_routing now;
	s32 counts[LNET_NBUF_KINDS];
	unsigned int k;
	int rc;

	if (!r->set)
		return 0;
	rc = cfg_routing_get(a->h, &now, a->err);
	if (rc || !routing_differs(a, r, &now) || a->plan)
		return rc;
	rc = save_routing(a);
	if (!rc && (r->set & CFG_RTR_ENABLE)) {
		rc = cfg_routing_set(a->h, a->del ? 0 : r->enable, a->err);
		if (rc)
			a->err->loc = r->loc;
	}
	if (rc || !(r->set & ~CFG_RTR_ENABLE))
		return rc;
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		counts[k] = !(r->set & CFG_RTR_BUF(k)) ? -1 : a->del ? 0 : r->buffers[k];
	rc = cfg_buffers_set(a->h, counts, LNET_NBUF_KINDS, a->err);
	if (rc)
		a->err->loc = r->buffers_loc;
	return rc;
}

/* --- read -------------------------------------------------------------------------- */

/* Keep only what differs from the defaults: a fresh node needs no more. */
static int read_routing(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct cfg_routing *r = &doc_priv(doc)->routing;
	unsigned int k;
	int rc = cfg_routing_get(h, r, err);

	if (rc)
		return rc;
	if (!r->enable)
		r->set &= ~CFG_RTR_ENABLE;
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		if (r->buffers[k] == lnet_buf_ranges[k].def)
			r->set &= ~CFG_RTR_BUF(k);
	return 0;
}

/* --- show and write ---------------------------------------------------------------- */

static void write_routing_values(struct yemit *w, const struct cfg_routing *r)
{
	unsigned int k;

	if (r->set & CFG_RTR_ENABLE) {
		yemit_key_map(w, "routing");
		yemit_kv_u64(w, "enable", r->enable);
		yemit_map_end(w);
	}
	if (!(r->set & ~CFG_RTR_ENABLE))
		return;
	yemit_key_map(w, "buffers");
	for (k = 0; k < LNET_NBUF_KINDS; k++)
		if (r->set & CFG_RTR_BUF(k))
			yemit_kv_u64(w, cfg_buf_name(k), (u32)r->buffers[k]);
	yemit_map_end(w);
}

static void write_routing(struct yemit *w, const struct cfg_doc *doc)
{
	write_routing_values(w, &doc_priv(doc)->routing);
}

/* `- cpt[N]: {tiny: {...}, small: {...}, large: {...}}`, a pool per kind. */
static void write_cpt_pools(struct yemit *w, u32 cpt, const struct lnet_ioc_rtr_pools *rp)
{
	const struct lnet_ioc_rtr_pool *pool;
	char key[24];
	unsigned int k;

	snprintf(key, sizeof(key), "cpt[%u]", cpt);
	yemit_map_start(w);
	yemit_key_map(w, key);
	for (k = 0; k < LNET_NBUF_KINDS; k++) {
		pool = &rp->rp_pools[k];
		yemit_key_map(w, cfg_buf_name(k));
		yemit_kv_u64(w, "npages", pool->rpl_npages);
		yemit_kv_u64(w, "nbuffers", pool->rpl_nbuffers);
		yemit_kv_s64(w, "credits", pool->rpl_credits);
		yemit_kv_s64(w, "mincredits", pool->rpl_min_credits);
		yemit_map_end(w);
	}
	yemit_map_end(w);
	yemit_map_end(w);
}

/*
 * `routing:` as Lustre shows it: the pools of each partition, then
 * `- enable: 0|1` (1 in every state that forwards: starting, enabled and
 * stopping).
 */
static int emit_routing_pools(struct printer *p, struct cfg_handle *h)
{
	struct lnet_ioc_rtr_pools rp;
	u32 cpt, state = LNET_ROUTING_DISABLED;
	int rc;

	for (cpt = 0; !(rc = cfg_rtr_pools_get(h, cpt, &rp, p->err)); cpt++) {
		if (!cpt) {
			rc = pr_start(p);
			if (rc)
				return rc;
			yemit_key_seq(&p->w, "routing");
		}
		write_cpt_pools(&p->w, cpt, &rp);
		state = rp.rp_state;
	}
	if (rc != -ENOENT || !cpt)
		return rc;
	yemit_map_start(&p->w);
	yemit_kv_u64(&p->w, "enable", state != LNET_ROUTING_DISABLED);
	yemit_map_end(&p->w);
	yemit_seq_end(&p->w);
	return 0;
}

/* The running values, every one (show and the full export): pools, then counts. */
static int emit_routing(struct printer *p, struct cfg_handle *h)
{
	struct cfg_routing r;
	int rc = cfg_routing_get(h, &r, p->err);

	if (!rc)
		rc = emit_routing_pools(p, h);
	if (rc)
		return rc;
	r.set &= ~CFG_RTR_ENABLE;	/* the sequence said it */
	write_routing_values(&p->w, &r);
	return 0;
}

int cfg_show_routing(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_routing(&p, h));
}

static bool has_routing(const struct cfg_doc *doc)
{
	return doc_priv(doc)->routing.set;
}

const struct cfg_section cfg_sec_routing = {
	.keys = routing_top,
	.parse = parse_routing,
	.apply = apply_routing,
	.read = read_routing,
	.has = has_routing,
	.write = write_routing,
	.export = emit_routing,
};
