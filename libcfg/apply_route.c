// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Applying the route, routing, buffers and global sections of a document,
 * all or nothing: the running values are saved first and put back on
 * failure (or when a later section of the same import fails).
 *
 * import --del deletes the routes listed and puts the routing, buffers and
 * global keys listed back to their defaults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route_priv.h"

/* One route (one gateway) this import added or deleted. */
struct route_step {
	struct cfg_route r;		/* ngws == 1 */
	bool peer_new;			/* added: its gateway peer came with it */
};

struct cfg_route_undo {
	bool del;
	struct route_step *steps;
	size_t nsteps;
	struct cfg_routing routing;	/* as it was: every field */
	struct cfg_global global;	/* as it was: every settable key */
};

static int push_step(struct cfg_route_undo *u, const struct route_step *s,
		     struct cfg_err *err)
{
	struct route_step *p = realloc(u->steps, (u->nsteps + 1) * sizeof(*p));

	if (!p)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory applying the configuration");
	u->steps = p;
	p[u->nsteps++] = *s;
	return 0;
}

static void one_gateway(struct route_step *s, const struct cfg_route *r, u32 j)
{
	s->r = *r;
	s->r.ngws = 1;
	s->r.gws[0] = r->gws[j];
	s->peer_new = false;
}

static int add_routes(struct cfg_handle *h, const struct cfg_doc *doc,
		      struct cfg_route_undo *u, struct cfg_err *err)
{
	struct lnet_ioc_peer pr;
	struct route_step *s = malloc(sizeof(*s));
	size_t i;
	u32 j;
	int rc = s ? 0 : cfg_fail(err, -ENOMEM, NULL, "out of memory");

	for (i = 0; i < doc->nroutes && !rc; i++)
		for (j = 0; j < doc->routes[i].ngws && !rc; j++) {
			one_gateway(s, &doc->routes[i], j);
			s->peer_new = cfg_peer_ni_get(h, 0, &s->r.gws[0], &pr) != 0;
			rc = cfg_route_add(h, &s->r, err);
			if (!rc)
				rc = push_step(u, s, err);
		}
	free(s);
	return rc;
}

/* The hop and priority of the route to delete, to add it back on undo. */
static void saved_route(struct cfg_handle *h, struct route_step *s)
{
	struct lnet_ioc_route rt;
	u32 i;

	for (i = 0; !cfg_route_get(h, i, s->r.net_id, &rt); i++)
		if (lnet_nid_equal(&rt.rt_gateway, &s->r.gws[0])) {
			s->r.hops = rt.rt_hops;
			s->r.priority = rt.rt_priority;
			return;
		}
}

static int del_routes(struct cfg_handle *h, const struct cfg_doc *doc,
		      struct cfg_route_undo *u, struct cfg_err *err)
{
	struct route_step *s = malloc(sizeof(*s));
	size_t i;
	u32 j;
	int rc = s ? 0 : cfg_fail(err, -ENOMEM, NULL, "out of memory");

	for (i = doc->nroutes; i-- > 0 && !rc;)
		for (j = 0; j < doc->routes[i].ngws && !rc; j++) {
			one_gateway(s, &doc->routes[i], j);
			saved_route(h, s);
			rc = cfg_route_del(h, &s->r, err);
			if (!rc)
				rc = push_step(u, s, err);
		}
	free(s);
	return rc;
}

/* routing and buffers: the doc's values, or with @del the defaults. */
static int apply_routing(struct cfg_handle *h, const struct cfg_routing *r, bool del,
			 struct cfg_err *err)
{
	s32 counts[CFG_NBUF];
	unsigned int k;
	int rc = 0;

	if (r->set & CFG_RTR_ENABLE) {
		rc = cfg_routing_set(h, del ? 0 : r->enable, err);
		if (rc)
			err->loc = r->loc;
	}
	if (rc || !(r->set & ~CFG_RTR_ENABLE))
		return rc;
	for (k = 0; k < CFG_NBUF; k++)
		counts[k] = !(r->set & CFG_RTR_BUF(k)) ? -1 : del ? 0 : r->buffers[k];
	rc = cfg_buffers_set(h, counts, err);
	if (rc)
		err->loc = r->buffers_loc;
	return rc;
}

static int apply_global(struct cfg_handle *h, const struct cfg_global *g, bool del,
			struct cfg_err *err)
{
	const struct cfg_global_spec *s;
	struct cfg_global def = *g;

	if (!del)
		return cfg_global_apply(h, g, err);
	for (s = cfg_global_specs; s->name; s++)
		def.value[s->id] = s->def;
	return cfg_global_apply(h, &def, err);
}

static int save_settings(struct cfg_handle *h, struct cfg_route_undo *u,
			 struct cfg_err *err)
{
	int rc = cfg_routing_get(h, &u->routing, err);

	if (!rc)
		rc = cfg_global_read(h, &u->global, err);
	u->global.set &= ~(1U << LNET_GLOBAL_LND_TIMEOUT);
	return rc;
}

int cfg_doc_apply_routes(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
			 struct cfg_err *err, struct cfg_route_undo **undo)
{
	struct cfg_route_undo *u;
	int rc;

	*undo = NULL;
	if (!cfg_doc_has_routes(doc))
		return 0;
	u = calloc(1, sizeof(*u));
	if (!u)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	u->del = del;
	rc = save_settings(h, u, err);
	if (!rc)
		rc = del ? del_routes(h, doc, u, err) : add_routes(h, doc, u, err);
	if (!rc)
		rc = apply_routing(h, &doc->routing, del, err);
	if (!rc)
		rc = apply_global(h, &doc->global, del, err);
	if (rc) {
		cfg_doc_undo_routes(h, u, err);
		return rc;
	}
	*undo = u;
	return 0;
}

static int undo_step(struct cfg_handle *h, const struct cfg_route_undo *u,
		     const struct route_step *s, struct cfg_err *e)
{
	struct cfg_peer *p;
	int rc;

	if (u->del)
		return cfg_route_add(h, &s->r, e);
	rc = cfg_route_del(h, &s->r, e);
	if (rc == -ENOENT)
		rc = 0;		/* its gateway peer was undone already */
	if (rc || !s->peer_new)
		return rc;
	p = malloc(sizeof(*p));
	if (!p)
		return cfg_fail(e, -ENOMEM, NULL, "out of memory");
	cfg_peer_init(p);
	p->prim = s->r.gws[0];
	p->flags = LNET_PEER_F_FORCE;
	rc = cfg_peer_del(h, p, e);
	free(p);
	return rc == -ENOENT ? 0 : rc;
}

void cfg_doc_undo_routes(struct cfg_handle *h, struct cfg_route_undo *u,
			 struct cfg_err *err)
{
	struct cfg_err e;
	int rc = 0;
	size_t len;

	if (!u)
		return;
	memset(&e, 0, sizeof(e));
	while (u->nsteps && !rc)
		rc = undo_step(h, u, &u->steps[--u->nsteps], &e);
	if (!rc)
		rc = cfg_routing_set(h, u->routing.enable, &e);
	if (!rc)
		rc = cfg_buffers_set(h, u->routing.buffers, &e);
	if (!rc)
		rc = cfg_global_apply(h, &u->global, &e);
	if (rc) {
		len = strlen(err->msg);
		snprintf(err->msg + len, sizeof(err->msg) - len,
			 "; undoing the import failed too: %s", e.msg);
	}
	cfg_doc_free_routes(u);
}

void cfg_doc_free_routes(struct cfg_route_undo *u)
{
	if (!u)
		return;
	free(u->steps);
	free(u);
}
