// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * import --show: the running configuration of what a document names, in
 * the form of export --backup (one document, importable as it is). Each
 * running object is kept when the document names it as import would find
 * it: a net by net and interface (a net entry without interfaces: all of
 * its NIs), a peer by its primary NID, a route by net and gateway, a rule
 * by what it matches, the routing, buffers and global keys it lists.
 * Objects the document names that are not running are left out.
 */
#include <stdlib.h>
#include <string.h>
#include "section.h"

static bool names_ni(const struct cfg_doc *doc, const struct cfg_net *ni)
{
	size_t i;
	u32 j;

	for (i = 0; i < doc->nnets; i++) {
		const struct cfg_net *n = doc->nets[i];

		if (n->net_id != ni->net_id)
			continue;
		if (!n->nifs)
			return true;
		for (j = 0; j < n->nifs; j++)
			if (!strcmp(n->ifnames[j], ni->ifnames[0]))
				return true;
	}
	return false;
}

static bool names_peer(const struct cfg_doc *doc, const struct cfg_peer *p)
{
	size_t i;

	for (i = 0; i < doc->npeers; i++)
		if (lnet_nid_equal(&doc->peers[i]->prim, &p->prim))
			return true;
	return false;
}

static bool names_route(const struct cfg_doc *doc, const struct cfg_route *r)
{
	size_t i;
	u32 j;

	for (i = 0; i < doc->nroutes; i++) {
		const struct cfg_route *o = doc->routes[i];

		for (j = 0; o->net_id == r->net_id && j < o->ngws; j++)
			if (lnet_nid_equal(&o->gws[j], &r->gws[0]))
				return true;
	}
	return false;
}

static bool names_rule(const struct cfg_doc *doc, const struct cfg_policy *p)
{
	size_t i;

	for (i = 0; i < doc->npolicies; i++)
		if (lnet_udsp_desc_same_match(&doc->policies[i]->d, &p->d))
			return true;
	return false;
}

/*
 * Keep the items of the array *@arr (*@n pointers) that @keep says the
 * document names; free the others with @drop.
 */
static void keep_items(void *arr, size_t *n, const struct cfg_doc *doc,
		       bool (*keep)(const struct cfg_doc *, const void *),
		       void (*drop)(void *))
{
	void **items = *(void ***)arr;
	size_t i, k = 0;

	for (i = 0; i < *n; i++) {
		if (keep(doc, items[i])) {
			items[k++] = items[i];
			continue;
		}
		if (drop)
			drop(items[i]);
		free(items[i]);
	}
	*n = k;
}

/* The adapters keep_items() takes: one per model kind. */
static bool keep_ni(const struct cfg_doc *d, const void *o) { return names_ni(d, o); }
static bool keep_peer(const struct cfg_doc *d, const void *o) { return names_peer(d, o); }
static bool keep_route(const struct cfg_doc *d, const void *o) { return names_route(d, o); }
static bool keep_rule(const struct cfg_doc *d, const void *o) { return names_rule(d, o); }
static void drop_net(void *o) { cfg_net_fini(o); }
static void drop_peer(void *o) { cfg_peer_fini(o); }
static void drop_route(void *o) { cfg_route_fini(o); }

/*
 * The routing, buffers and global keys @doc lists, with their running
 * values (also those at their defaults, which a read document leaves out).
 */
static int keep_values(struct cfg_handle *h, struct cfg_doc *run, const struct cfg_doc *doc,
		       struct cfg_err *err)
{
	struct cfg_routing *r = &doc_priv(run)->routing;
	struct cfg_global *g = &doc_priv(run)->global;
	int rc = 0;

	if (doc_priv(doc)->routing.set)
		rc = cfg_routing_get(h, r, err);
	r->set = doc_priv(doc)->routing.set;
	if (!rc && doc_priv(doc)->global.set)
		rc = cfg_global_read(h, g, err);
	g->set = doc_priv(doc)->global.set;
	return rc;
}

int cfg_doc_show(struct cfg_handle *h, const struct cfg_doc *doc, FILE *out,
		 struct cfg_err *err)
{
	struct cfg_doc *run;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = cfg_doc_read(h, &run, err);
	if (rc)
		return rc;
	keep_items(&run->nets, &run->nnets, doc, keep_ni, drop_net);
	keep_items(&run->peers, &run->npeers, doc, keep_peer, drop_peer);
	keep_items(&run->routes, &run->nroutes, doc, keep_route, drop_route);
	keep_items(&run->policies, &run->npolicies, doc, keep_rule, NULL);
	rc = keep_values(h, run, doc, err);
	if (!rc)
		rc = cfg_doc_write(run, out, err);
	cfg_doc_free(run);
	return rc;
}
