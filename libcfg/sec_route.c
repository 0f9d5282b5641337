// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The route section: routes to remote nets, parsed, applied, read back and
 * shown (cfg_show_routes, the route part of export).
 *
 *   route:
 *   - net: o2ib                     # the remote net
 *     gateway: 10.0.0.[1-2]@tcp     # a NID, a range or a list: one route each
 *     hop: -1                       # optional: -1 (unset) or 1-255
 *     priority: 0                   # optional: 0-2147483647
 *     state: up                     # (show -v, export: read-only, ignored)
 *     type: single-hop              # (show -v, export: read-only, ignored)
 *
 * show prints net and gateway; export --backup adds hop and priority; the
 * full export and show -v add state and type. Applying is one step per
 * gateway: an undo deletes the route and the gateway peer it created, or
 * adds a deleted route back with its hop and priority.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"
#include "ops_priv.h"

static const char *const route_top[] = { "route", NULL };
static const char *const route_keys[] = { "net", "gateway", "hop", "priority", NULL };
static const char *const route_ignored[] = { "state", "type", NULL };

/* --- parse ------------------------------------------------------------------------ */

static int route_fields(struct dparse *p, const struct ynode *item, struct cfg_route *r)
{
	struct cfg_err *err = p->err;
	const struct ynode *v;
	int rc;

	v = ytree_get(item, "net");
	if (!v)
		return cfg_fail(err, -EINVAL, &item->loc, "a route needs 'net'");
	rc = need_value(p, v, "net");
	if (!rc)
		rc = at_node(err, v, cfg_parse_net("net", v->str, &r->net_id, err));
	v = ytree_get(item, "gateway");
	if (!rc && !v)
		return cfg_fail(err, -EINVAL, &item->loc, "a route needs 'gateway'");
	if (!rc)
		rc = need_value(p, v, "gateway");
	if (!rc)
		rc = at_node(err, v, cfg_parse_gateways("gateway", v->str, r, err));
	v = ytree_get(item, "hop");
	if (!rc && v && !(rc = need_number(p, v, "hop")) && strcmp(v->str, "-1"))
		rc = at_node(err, v, cfg_parse_s32("hop", v->str, 1, LNET_ROUTE_HOPS_MAX,
						   &r->hops, err));
	v = ytree_get(item, "priority");
	if (!rc && v && !(rc = need_number(p, v, "priority")))
		rc = at_node(err, v, cfg_parse_u32("priority", v->str, 0, LNET_ROUTE_PRIORITY_MAX,
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
		const struct cfg_route *o = doc->routes[i];

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

static int route_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_doc *doc = p->doc;
	struct cfg_route r;
	int rc;

	cfg_route_init(&r);
	r.loc = item->loc;
	rc = need_type(p, item, YNODE_MAP, "route");
	if (!rc)
		rc = check_keys(p, item, "a route", route_keys, route_ignored);
	if (!rc)
		rc = route_fields(p, item, &r);
	if (!rc)
		rc = route_repeated(doc, &r, p->err);
	if (!rc)
		rc = doc_append(&doc->routes, &doc->nroutes, &r, sizeof(r), p->err);
	if (rc)
		cfg_route_fini(&r);
	return rc;
}

static int parse_routes(struct dparse *p, const struct ynode *key)
{
	return parse_items(p, key, route_item);
}

/* --- apply ------------------------------------------------------------------------- */

/* One route (one gateway) this import added or deleted. */
struct route_step {
	struct cfg_route r;		/* ngws == 1 */
	bool peer_new;			/* added: its gateway peer came with it */
};

static void release_step(struct undo *u)
{
	struct route_step *s = u->data;

	cfg_route_fini(&s->r);
	free(s);
}

/* An added route: delete it, and the gateway peer it created. */
static int undo_route_add(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct route_step *s = u->data;
	struct cfg_peer p;
	int rc;

	rc = cfg_route_del(a->h, &s->r, e);
	if (rc == -ENOENT)
		rc = 0;		/* its gateway peer was undone already */
	if (rc || !s->peer_new)
		return rc;
	cfg_peer_init(&p);
	p.prim = s->r.gws[0];
	p.flags = LNET_PEER_F_FORCE;
	rc = cfg_peer_del(a->h, &p, e);
	return rc == -ENOENT ? 0 : rc;
}

/* A deleted route: add it again, with the hop and priority it had. */
static int undo_route_del(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct route_step *s = u->data;

	return cfg_route_add(a->h, &s->r, e);
}

/* The step for gateway @j of @r: a new record, or -ENOMEM in @err. */
static struct route_step *one_gateway(const struct cfg_route *r, u32 j, struct cfg_err *err)
{
	struct route_step *s = malloc(sizeof(*s));

	if (s) {
		s->r = *r;
		s->r.ngws = 0;
		s->r.gws = NULL;
		s->peer_new = false;
	}
	if (s && !cfg_route_append(&s->r, &r->gws[j]))
		return s;
	free(s);
	cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return NULL;
}

/* The running route to s->r.net_id through its gateway, into @rt: found or not. */
static bool running_route(struct cfg_handle *h, const struct route_step *s,
			  struct lnet_ioc_route *rt)
{
	u32 i;

	for (i = 0; !cfg_route_get(h, i, s->r.net_id, rt); i++)
		if (lnet_nid_equal(&rt->rt_gateway, &s->r.gws[0]))
			return true;
	return false;
}

/* "tcp1 via 10.0.0.1@tcp": how the plan names a route. */
static void plan_route(struct applier *a, char op, const struct route_step *s,
		       const char *change)
{
	char net[LNET_NET_STR_MAX], gw[LNET_NID_STR_MAX];

	lnet_net_print(s->r.net_id, net, sizeof(net));
	lnet_nid_print(&s->r.gws[0], gw, sizeof(gw));
	plan_line(a, op, "route %s via %s%s%s", net, gw, change ? ": " : "",
		  change ? change : "");
}

/* Delete the route of @s, pushing how to add it back as it was (@rt). */
static int del_step(struct applier *a, const struct route_step *s,
		    const struct lnet_ioc_route *rt)
{
	struct undo u = { .undo = undo_route_del, .release = release_step };
	struct route_step *saved = one_gateway(&s->r, 0, a->err);
	int rc;

	if (!saved)
		return -ENOMEM;
	u.data = saved;
	saved->r.hops = rt->rt_hops;
	saved->r.priority = rt->rt_priority;
	rc = cfg_route_del(a->h, &saved->r, a->err);
	if (rc) {
		release_undo(&u);
		return rc;
	}
	return push_undo(a, &u);
}

/* Add the route of @s (the undo takes @s over). */
static int add_step(struct applier *a, struct route_step *s)
{
	struct undo u = { .undo = undo_route_add, .release = release_step, .data = s };
	struct lnet_ioc_peer pr;
	int rc;

	s->peer_new = cfg_peer_ni_get(a->h, 0, &s->r.gws[0], &pr) != 0;
	rc = cfg_route_add(a->h, &s->r, a->err);
	if (rc) {
		release_undo(&u);
		return rc;
	}
	return push_undo(a, &u);
}

/*
 * Gateway @j of @r into force: added; or, with another hop or priority,
 * deleted and added again (the core has no change in place); or left.
 */
static int add_route(struct applier *a, const struct cfg_route *r, u32 j)
{
	struct route_step *s = one_gateway(r, j, a->err);
	struct lnet_ioc_route rt;
	char diff[128] = "";
	bool found;
	int rc = 0;

	if (!s)
		return -ENOMEM;
	found = running_route(a->h, s, &rt);
	if (found && rt.rt_hops != s->r.hops)
		plan_change(diff, sizeof(diff), "hop", rt.rt_hops, s->r.hops);
	if (found && rt.rt_priority != s->r.priority)
		plan_change(diff, sizeof(diff), "priority", rt.rt_priority, s->r.priority);
	if ((found && !diff[0]) || a->plan) {
		if (a->plan && (!found || diff[0]))
			plan_route(a, found ? '~' : '+', s, found ? diff : NULL);
		release_step(&(struct undo){ .data = s });
		return 0;
	}
	if (found)
		rc = del_step(a, s, &rt);
	if (rc) {
		release_step(&(struct undo){ .data = s });
		return rc;
	}
	return add_step(a, s);
}

/* Gateway @j of @r out of force, if it is there. */
static int del_route(struct applier *a, const struct cfg_route *r, u32 j)
{
	struct route_step *s = one_gateway(r, j, a->err);
	struct lnet_ioc_route rt;
	int rc = 0;

	if (!s)
		return -ENOMEM;
	if (running_route(a->h, s, &rt)) {
		if (a->plan)
			plan_route(a, '-', s, NULL);
		else
			rc = del_step(a, s, &rt);
	}
	release_step(&(struct undo){ .data = s });
	return rc;
}

/* Deleting goes through the document backwards, each route's gateways forwards. */
static int apply_routes(struct applier *a)
{
	const struct cfg_doc *doc = a->doc;
	size_t i, n = doc->nroutes;
	u32 j;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		const struct cfg_route *r = doc->routes[a->del ? n - 1 - i : i];

		for (j = 0; j < r->ngws && !rc; j++) {
			rc = a->del ? del_route(a, r, j) : add_route(a, r, j);
			if (rc)
				rc = item_failed(a, &r->loc, rc);
		}
	}
	return rc;
}

/* --- read -------------------------------------------------------------------------- */

/* The routes of @net_id (0 = all) through @gw (NULL = any), in order. */
static int read_route_list(struct cfg_handle *h, u32 net_id, const struct lnet_nid *gw,
			   struct lnet_ioc_route **out, size_t *n, struct cfg_err *err)
{
	struct lnet_ioc_route rt;
	u32 i;
	int rc;

	*out = NULL;
	*n = 0;
	for (i = 0; !(rc = cfg_route_get(h, i, net_id, &rt)); i++) {
		if (gw && !lnet_nid_equal(gw, &rt.rt_gateway))
			continue;
		if (cfg_list_append(out, *n, SIZE_MAX, &rt, sizeof(rt))) {
			free(*out);
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
		}
		(*n)++;
	}
	if (rc == -ENOENT && !cfg_unreachable(h))
		return 0;
	free(*out);
	return cfg_ioc_fail(h, rc, err, NULL, "cannot read the routes");
}

static int doc_add_route(struct cfg_doc *doc, const struct lnet_ioc_route *rt,
			 struct cfg_err *err)
{
	struct cfg_route r;
	int rc;

	cfg_route_init(&r);
	r.net_id = rt->rt_net;
	r.hops = rt->rt_hops;
	r.priority = rt->rt_priority;
	rc = cfg_route_append(&r, &rt->rt_gateway) ?
	     cfg_fail(err, -ENOMEM, NULL, "out of memory") :
	     doc_append(&doc->routes, &doc->nroutes, &r, sizeof(r), err);
	if (rc)
		cfg_route_fini(&r);
	return rc;
}

static int read_routes(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct lnet_ioc_route *rts;
	size_t n, i;
	int rc;

	rc = read_route_list(h, 0, NULL, &rts, &n, err);
	for (i = 0; !rc && i < n; i++)
		rc = doc_add_route(doc, &rts[i], err);
	free(rts);
	return rc;
}

/* --- show and write ---------------------------------------------------------------- */

enum route_level { RL_SHOW, RL_BACKUP, RL_FULL };

static void write_route(struct yemit *w, const struct lnet_ioc_route *rt,
			enum route_level level)
{
	yemit_map_start(w);
	emit_net(w, "net", rt->rt_net);
	emit_nid(w, "gateway", &rt->rt_gateway);
	if (level != RL_SHOW) {
		yemit_kv_s64(w, "hop", rt->rt_hops);
		yemit_kv_u64(w, "priority", rt->rt_priority);
	}
	if (level == RL_FULL) {
		yemit_kv_str(w, "state", rt->rt_state == LNET_NI_STATUS_UP ? "up" : "down");
		yemit_kv_str(w, "type", rt->rt_type == LNET_ROUTE_MULTI_HOP ?
			     "multi-hop" : "single-hop");
	}
	yemit_map_end(w);
}

static void write_route_list(struct yemit *w, const struct lnet_ioc_route *rts, size_t n,
			     enum route_level level)
{
	size_t i;

	if (!n)
		return;
	yemit_key_seq(w, "route");
	for (i = 0; i < n; i++)
		write_route(w, &rts[i], level);
	yemit_seq_end(w);
}

int cfg_show_routes(struct cfg_handle *h, u32 net_id, const struct lnet_nid *gw,
		    bool verbose, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	struct lnet_ioc_route *rts;
	size_t n;
	int rc;

	rc = read_route_list(h, net_id, gw, &rts, &n, err);
	if (rc || !n)
		return rc;
	rc = pr_start(&p);
	write_route_list(&p.w, rts, n, verbose ? RL_FULL : RL_SHOW);
	free(rts);
	return pr_finish(&p, rc);
}

static int export_routes(struct printer *p, struct cfg_handle *h)
{
	struct lnet_ioc_route *rts;
	size_t n;
	int rc;

	rc = read_route_list(h, 0, NULL, &rts, &n, p->err);
	if (rc)
		return rc;
	if (n)
		pr_start(p);
	write_route_list(&p->w, rts, n, RL_FULL);
	free(rts);
	return 0;
}

static void write_routes(struct yemit *w, const struct cfg_doc *doc)
{
	struct lnet_ioc_route rt;
	size_t i;
	u32 j;

	yemit_key_seq(w, "route");
	for (i = 0; i < doc->nroutes; i++) {
		const struct cfg_route *r = doc->routes[i];

		memset(&rt, 0, sizeof(rt));
		rt.rt_net = r->net_id;
		rt.rt_hops = r->hops;
		rt.rt_priority = r->priority;
		for (j = 0; j < r->ngws; j++) {
			rt.rt_gateway = r->gws[j];
			write_route(w, &rt, RL_BACKUP);
		}
	}
	yemit_seq_end(w);
}

static bool has_routes(const struct cfg_doc *doc)
{
	return doc->nroutes;
}

const struct cfg_section cfg_sec_route = {
	.keys = route_top,
	.parse = parse_routes,
	.apply = apply_routes,
	.read = read_routes,
	.has = has_routes,
	.write = write_routes,
	.export = export_routes,
};
