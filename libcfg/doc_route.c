// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The route, routing, buffers and global sections of a YAML document,
 * validated like the others (shared parsers, line:column of the node):
 *
 *   route:
 *   - net: o2ib                     # the remote net
 *     gateway: 10.0.0.[1-2]@tcp     # a NID, a range or a list: one route each
 *     hop: -1                       # optional: -1 (unset) or 1-255
 *     priority: 0                   # optional: 0-2147483647
 *   routing: {enable: 1}
 *   buffers: {tiny: 2048, small: 16384, large: 1024}   # 0 = the default
 *   global: {numa_range: 0, ...}    # the keys of `lnetctl global show`
 *
 * Keys that show and export write but that cannot be set (route state and
 * type, lnd_timeout) are accepted and ignored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route_priv.h"
#include "ops_priv.h"

static const char *const route_keys[] = { "net", "gateway", "hop", "priority", NULL };
static const char *const route_ignored[] = { "state", "type", NULL };
static const char *const routing_keys[] = { "enable", NULL };

bool cfg_doc_is_route_section(const char *key)
{
	return !strcmp(key, "route") || !strcmp(key, "routing") ||
	       !strcmp(key, "buffers") || !strcmp(key, "global");
}

static bool listed(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static int need(const struct ynode *n, enum ynode_type type, const char *what,
		struct cfg_err *err)
{
	if (n->type != type)
		return cfg_fail(err, -EINVAL, &n->loc, "'%s' must be a %s, not a %s", what,
				ytree_type_name(type), ytree_type_name(n->type));
	if (type == YNODE_SCALAR && ytree_is_null(n))
		return cfg_fail(err, -EINVAL, &n->loc, "no value given for '%s'", what);
	return 0;
}

static int need_number(const struct ynode *n, const char *what, struct cfg_err *err)
{
	int rc = need(n, YNODE_SCALAR, what, err);

	return rc ? rc : cfg_doc_plain_number(n, what, err);
}

/* Every key of @map is in @keys or @ignored; @keys also names them. */
static int only_keys(const struct ynode *map, const char *where,
		     const char *const *keys, const char *const *ignored,
		     const char *expected, struct cfg_err *err)
{
	const struct ynode *k;

	for (k = map->first; k; k = k->next)
		if (!listed(keys, k->str) && !listed(ignored, k->str))
			return cfg_fail(err, -EINVAL, &k->loc,
					"unknown key '%s' in %s: expected %s",
					k->str, where, expected);
	return 0;
}

/* The error a shared parser just reported, pinned to node @v. */
static int at(struct cfg_err *err, const struct ynode *v, int rc)
{
	if (rc)
		err->loc = v->loc;
	return rc;
}

/* --- route --------------------------------------------------------------------- */

static int route_fields(const struct ynode *item, struct cfg_route *r, struct cfg_err *err)
{
	const struct ynode *v;
	int rc;

	v = ytree_get(item, "net");
	if (!v)
		return cfg_fail(err, -EINVAL, &item->loc, "a route needs 'net'");
	rc = need(v, YNODE_SCALAR, "net", err);
	if (!rc)
		rc = at(err, v, cfg_parse_net("net", v->str, &r->net_id, err));
	v = ytree_get(item, "gateway");
	if (!rc && !v)
		return cfg_fail(err, -EINVAL, &item->loc, "a route needs 'gateway'");
	if (!rc)
		rc = need(v, YNODE_SCALAR, "gateway", err);
	if (!rc)
		rc = at(err, v, cfg_parse_gateways("gateway", v->str, r, err));
	v = ytree_get(item, "hop");
	if (!rc && v && !(rc = need_number(v, "hop", err)) && strcmp(v->str, "-1"))
		rc = at(err, v, cfg_parse_s32("hop", v->str, 1, LNET_ROUTE_HOPS_MAX, &r->hops, err));
	v = ytree_get(item, "priority");
	if (!rc && v && !(rc = need_number(v, "priority", err)))
		rc = at(err, v, cfg_parse_u32("priority", v->str, 0, LNET_ROUTE_PRIORITY_MAX,
					 &r->priority, err));
	return rc;
}

/* The same net and gateway twice in one document is a mistake in it. */
static int route_repeated(const struct cfg_doc *doc, const struct cfg_route *r,
			  struct cfg_err *err)
{
	char buf[LNET_NID_STR_MAX];
	size_t i;
	u32 a, b;

	for (i = 0; i < doc->nroutes; i++) {
		const struct cfg_route *o = &doc->routes[i];

		if (o->net_id != r->net_id)
			continue;
		for (a = 0; a < r->ngws; a++)
			for (b = 0; b < o->ngws; b++)
				if (lnet_nid_equal(&r->gws[a], &o->gws[b])) {
					lnet_nid_print(&r->gws[a], buf, sizeof(buf));
					return cfg_fail(err, -EINVAL, &r->loc,
							"the route through gateway %s is listed twice (first at %u:%u)",
							buf, o->loc.line, o->loc.col);
				}
	}
	return 0;
}

static int route_item(struct cfg_doc *doc, const struct ynode *item, struct cfg_err *err)
{
	struct cfg_route *r = malloc(sizeof(*r)), *p;
	int rc;

	if (!r)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the configuration");
	cfg_route_init(r);
	r->loc = item->loc;
	rc = need(item, YNODE_MAP, "route", err);
	if (!rc)
		rc = only_keys(item, "a route", route_keys, route_ignored,
			       "'net', 'gateway', 'hop', 'priority'", err);
	if (!rc)
		rc = route_fields(item, r, err);
	if (!rc)
		rc = route_repeated(doc, r, err);
	p = rc ? NULL : realloc(doc->routes, (doc->nroutes + 1) * sizeof(*p));
	if (!rc && !p)
		rc = cfg_fail(err, -ENOMEM, NULL, "out of memory reading the configuration");
	if (!rc) {
		doc->routes = p;
		p[doc->nroutes++] = *r;
	}
	free(r);
	return rc;
}

static int route_section(struct cfg_doc *doc, const struct ynode *seq, struct cfg_err *err)
{
	const struct ynode *c;
	int rc = need(seq, YNODE_SEQ, "route", err);

	for (c = seq->first; c && !rc; c = c->next)
		rc = route_item(doc, c, err);
	return rc;
}

/* --- routing, buffers, global ------------------------------------------------------------ */

static int routing_section(struct cfg_doc *doc, const struct ynode *map, struct cfg_err *err)
{
	const struct ynode *v;
	int rc = need(map, YNODE_MAP, "routing", err);

	if (!rc)
		rc = only_keys(map, "routing", routing_keys, NULL, "'enable'", err);
	v = rc ? NULL : ytree_get(map, "enable");
	if (!v)
		return rc;
	rc = need_number(v, "enable", err);
	if (!rc)
		rc = at(err, v, cfg_parse_u32("enable", v->str, 0, 1, &doc->routing.enable, err));
	if (!rc) {
		doc->routing.set |= CFG_RTR_ENABLE;
		doc->routing.loc = map->loc;
	}
	return rc;
}

static int buffers_section(struct cfg_doc *doc, const struct ynode *map, struct cfg_err *err)
{
	const char *const keys[] = { "tiny", "small", "large", NULL };
	const struct ynode *k;
	unsigned int kind;
	int rc = need(map, YNODE_MAP, "buffers", err);

	if (!rc)
		rc = only_keys(map, "buffers", keys, NULL, "'tiny', 'small', 'large'", err);
	for (k = rc ? NULL : map->first; k && !rc; k = k->next) {
		for (kind = 0; strcmp(keys[kind], k->str); kind++)
			;
		rc = need_number(k->value, k->str, err);
		if (!rc)
			rc = at(err, k->value, cfg_parse_buffers(k->str, k->value->str, kind,
							    &doc->routing.buffers[kind], err));
		doc->routing.set |= CFG_RTR_BUF(kind);
	}
	doc->routing.buffers_loc = map->loc;
	return rc;
}

static int global_key(struct cfg_doc *doc, const struct ynode *k, struct cfg_err *err)
{
	const struct cfg_global_spec *s = cfg_global_find(k->str);
	struct cfg_global *g = &doc->global;
	int rc;

	if (!s && !strcmp(k->str, "lnd_timeout"))
		return 0;	/* read-only: written by export */
	if (!s)
		return cfg_fail(err, -EINVAL, &k->loc,
				"unknown key '%s' in global: expected a key of 'lnetctl global show'",
				k->str);
	rc = need_number(k->value, k->str, err);
	if (!rc)
		rc = at(err, k->value, cfg_parse_u32(s->name, k->value->str, s->min, s->max,
						&g->value[s->id], err));
	g->set |= 1U << s->id;
	g->loc[s->id] = k->value->loc;
	return rc;
}

static int global_section(struct cfg_doc *doc, const struct ynode *map, struct cfg_err *err)
{
	const struct ynode *k;
	int rc = need(map, YNODE_MAP, "global", err);

	for (k = rc ? NULL : map->first; k && !rc; k = k->next)
		rc = global_key(doc, k, err);
	return rc ? rc : cfg_global_doc_check(&doc->global, err);
}

int cfg_doc_parse_route_section(struct cfg_doc *doc, const struct ynode *key,
				struct cfg_err *err)
{
	const struct ynode *v = key->value;

	if (!v || ytree_is_null(v))
		return 0;
	if (!strcmp(key->str, "route"))
		return route_section(doc, v, err);
	if (!strcmp(key->str, "routing"))
		return routing_section(doc, v, err);
	if (!strcmp(key->str, "buffers"))
		return buffers_section(doc, v, err);
	return global_section(doc, v, err);
}
