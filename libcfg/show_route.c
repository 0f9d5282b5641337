// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * route show, routing show, global show, stats show, and the route,
 * routing, buffers and global sections of export and of a document.
 *
 *   route:                          routing:        global:
 *   - net: o2ib                         enable: 1       numa_range: 0
 *     gateway: 10.0.0.254@tcp       buffers:            ... (LNET_GLOBALS order,
 *     hop: -1        (-v, backup)       tiny: 2048      lnd_timeout after
 *     priority: 0    (-v, backup)       small: 16384    router_sensitivity)
 *     state: up      (-v)               large: 1024
 *     type: single-hop (-v)
 *
 *   statistics: Lustre's `stats show` keys, then ours (write_stats)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route_priv.h"
#include "ops_priv.h"

enum route_level { RL_SHOW, RL_BACKUP, RL_FULL };

static int doc_start(struct yemit *w, FILE *out, struct cfg_err *err)
{
	int rc = yemit_begin(w, out, err);

	yemit_map_start(w);
	return rc ? rc : w->rc;
}

static int doc_finish(struct yemit *w, int rc)
{
	int wrc;

	yemit_map_end(w);
	wrc = yemit_end(w);
	return rc ? rc : wrc;
}

/* --- routes ------------------------------------------------------------------- */

static void kv_nid(struct yemit *w, const char *key, const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	yemit_kv_str(w, key, cfg_nid_str(nid, buf, sizeof(buf)));
}

static void kv_net(struct yemit *w, const char *key, u32 net_id)
{
	char buf[LNET_NET_STR_MAX];

	yemit_kv_str(w, key, cfg_net_str(net_id, buf, sizeof(buf)));
}

static void write_route(struct yemit *w, const struct lnet_ioc_route *rt,
			enum route_level level)
{
	yemit_map_start(w);
	kv_net(w, "net", rt->rt_net);
	kv_nid(w, "gateway", &rt->rt_gateway);
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

/* The routes of @net_id (0 = all) through @gw (NULL = any), in order. */
static int read_routes(struct cfg_handle *h, u32 net_id, const struct lnet_nid *gw,
		       struct lnet_ioc_route **out, size_t *n, struct cfg_err *err)
{
	struct lnet_ioc_route rt, *p;
	size_t cap = 0;
	u32 i;
	int rc;

	*out = NULL;
	*n = 0;
	for (i = 0; !(rc = cfg_route_get(h, i, net_id, &rt)); i++) {
		if (gw && !lnet_nid_equal(gw, &rt.rt_gateway))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			p = realloc(*out, cap * sizeof(*p));
			if (!p) {
				free(*out);
				return cfg_fail(err, -ENOMEM, NULL, "out of memory");
			}
			*out = p;
		}
		(*out)[(*n)++] = rt;
	}
	if (rc == -ENOENT && !cfg_unreachable(h))
		return 0;
	free(*out);
	return cfg_ioc_fail(h, rc, err, NULL, "cannot read the routes");
}

static void write_routes(struct yemit *w, const struct lnet_ioc_route *rts, size_t n,
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
	struct lnet_ioc_route *rts;
	struct yemit w;
	size_t n;
	int rc;

	rc = read_routes(h, net_id, gw, &rts, &n, err);
	if (rc || !n)
		return rc;
	rc = doc_start(&w, out, err);
	write_routes(&w, rts, n, verbose ? RL_FULL : RL_SHOW);
	free(rts);
	return doc_finish(&w, rc);
}

/* --- routing, buffers, global --------------------------------------------------- */

static void write_routing(struct yemit *w, const struct cfg_routing *r)
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
	for (k = 0; k < CFG_NBUF; k++)
		if (r->set & CFG_RTR_BUF(k))
			yemit_kv_u64(w, cfg_buf_names[k], (u32)r->buffers[k]);
	yemit_map_end(w);
}

static void write_global(struct yemit *w, const struct cfg_global *g)
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

int cfg_show_routing(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct cfg_routing r;
	struct yemit w;
	int rc = cfg_routing_get(h, &r, err);

	if (rc)
		return rc;
	rc = doc_start(&w, out, err);
	write_routing(&w, &r);
	return doc_finish(&w, rc);
}

int cfg_show_global(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct cfg_global g;
	struct yemit w;
	int rc = cfg_global_read(h, &g, err);

	if (rc)
		return rc;
	rc = doc_start(&w, out, err);
	write_global(&w, &g);
	return doc_finish(&w, rc);
}

/*
 * Lustre's `stats show` keys in Lustre's order (rst_alloc, route_count and
 * route_length are left out: this node forwards nothing), then ours.
 */
static void write_stats(struct yemit *w, const struct lnet_ioc_stats *st)
{
	static const struct { const char *key; unsigned int hs; } hs[] = {
		{ "local_interrupt_count", LNET_IOC_HS_LOCAL_INTERRUPT },
		{ "local_dropped_count", LNET_IOC_HS_LOCAL_DROPPED },
		{ "local_aborted_count", LNET_IOC_HS_LOCAL_ABORTED },
		{ "local_no_route_count", LNET_IOC_HS_LOCAL_NO_ROUTE },
		{ "local_timeout_count", LNET_IOC_HS_LOCAL_TIMEOUT },
		{ "local_error_count", LNET_IOC_HS_LOCAL_ERROR },
		{ "remote_dropped_count", LNET_IOC_HS_REMOTE_DROPPED },
		{ "remote_error_count", LNET_IOC_HS_REMOTE_ERROR },
		{ "remote_timeout_count", LNET_IOC_HS_REMOTE_TIMEOUT },
		{ "network_timeout_count", LNET_IOC_HS_NETWORK_TIMEOUT },
	};
	size_t i;

	yemit_kv_u64(w, "msgs_alloc", st->st_msgs_alloc);
	yemit_kv_u64(w, "msgs_max", st->st_msgs_max);
	yemit_kv_u64(w, "errors", st->st_errors);
	yemit_kv_u64(w, "send_count", st->st_dp_send_count);
	yemit_kv_u64(w, "resend_count", st->st_resend_count);
	yemit_kv_u64(w, "response_timeout_count", st->st_response_timeout_count);
	for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
		yemit_kv_u64(w, hs[i].key, st->st_hstatus[hs[i].hs]);
	yemit_kv_u64(w, "failed_resends", st->st_failed_resends);
	yemit_kv_u64(w, "successful_resends", st->st_successful_resends);
	yemit_kv_u64(w, "recv_count", st->st_dp_recv_count);
	yemit_kv_u64(w, "drop_count", st->st_dp_drop_count);
	yemit_kv_u64(w, "send_length", st->st_dp_send_length);
	yemit_kv_u64(w, "recv_length", st->st_dp_recv_length);
	yemit_kv_u64(w, "drop_length", st->st_dp_drop_length);
	yemit_kv_u64(w, "peer_send_count", st->st_peer_send_count);
	yemit_kv_u64(w, "peer_recv_count", st->st_peer_recv_count);
	yemit_kv_u64(w, "peer_drop_count", st->st_peer_drop_count);
	yemit_kv_u64(w, "local_nis", st->st_nis);
	yemit_kv_u64(w, "peer_nis", st->st_peer_nis);
	yemit_kv_u64(w, "routes", st->st_routes);
	yemit_kv_u64(w, "selftest_corrupt", st->st_selftest_corrupt);
}

int cfg_show_stats(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct lnet_ioc_stats st;
	struct yemit w;
	int rc = cfg_stats_get(h, &st, err);

	if (rc)
		return rc;
	rc = doc_start(&w, out, err);
	yemit_key_map(&w, "statistics");
	write_stats(&w, &st);
	yemit_map_end(&w);
	return doc_finish(&w, rc);
}

/* --- documents and export ------------------------------------------------------------ */

/* Keep only what differs from the defaults: a fresh node needs no more. */
static void drop_defaults(struct cfg_routing *r, struct cfg_global *g)
{
	static const s32 buf_def[CFG_NBUF] = {
		LNET_TINY_BUF_DEF, LNET_SMALL_BUF_DEF, LNET_LARGE_BUF_DEF
	};
	const struct cfg_global_spec *s;
	unsigned int k;

	if (!r->enable)
		r->set &= ~CFG_RTR_ENABLE;
	for (k = 0; k < CFG_NBUF; k++)
		if (r->buffers[k] == buf_def[k])
			r->set &= ~CFG_RTR_BUF(k);
	g->set &= ~(1U << LNET_GLOBAL_LND_TIMEOUT);
	for (s = cfg_global_specs; s->name; s++)
		if (g->value[s->id] == s->def)
			g->set &= ~(1U << s->id);
}

static int doc_add_route(struct cfg_doc *doc, const struct lnet_ioc_route *rt,
			 struct cfg_err *err)
{
	struct cfg_route *p = realloc(doc->routes, (doc->nroutes + 1) * sizeof(*p));

	if (!p)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	doc->routes = p;
	p = &p[doc->nroutes++];
	cfg_route_init(p);
	p->net_id = rt->rt_net;
	p->ngws = 1;
	p->gws[0] = rt->rt_gateway;
	p->hops = rt->rt_hops;
	p->priority = rt->rt_priority;
	return 0;
}

int cfg_doc_read_routes(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct lnet_ioc_route *rts;
	size_t n, i;
	int rc;

	rc = read_routes(h, 0, NULL, &rts, &n, err);
	for (i = 0; !rc && i < n; i++)
		rc = doc_add_route(doc, &rts[i], err);
	free(rts);
	if (!rc)
		rc = cfg_routing_get(h, &doc->routing, err);
	if (!rc)
		rc = cfg_global_read(h, &doc->global, err);
	if (!rc)
		drop_defaults(&doc->routing, &doc->global);
	return rc;
}

bool cfg_doc_has_routes(const struct cfg_doc *doc)
{
	return doc->nroutes || doc->routing.set || doc->global.set;
}

void cfg_doc_write_routes(struct yemit *w, const struct cfg_doc *doc)
{
	struct lnet_ioc_route rt;
	size_t i;
	u32 j;

	if (doc->nroutes)
		yemit_key_seq(w, "route");
	for (i = 0; i < doc->nroutes; i++) {
		const struct cfg_route *r = &doc->routes[i];

		memset(&rt, 0, sizeof(rt));
		rt.rt_net = r->net_id;
		rt.rt_hops = r->hops;
		rt.rt_priority = r->priority;
		for (j = 0; j < r->ngws; j++) {
			rt.rt_gateway = r->gws[j];
			write_route(w, &rt, RL_BACKUP);
		}
	}
	if (doc->nroutes)
		yemit_seq_end(w);
	write_routing(w, &doc->routing);
	write_global(w, &doc->global);
}

int cfg_export_routes(struct yemit *w, struct cfg_handle *h, struct cfg_err *err)
{
	struct lnet_ioc_route *rts;
	struct cfg_routing r;
	struct cfg_global g;
	size_t n;
	int rc;

	rc = read_routes(h, 0, NULL, &rts, &n, err);
	if (rc)
		return rc;
	write_routes(w, rts, n, RL_FULL);
	free(rts);
	rc = cfg_routing_get(h, &r, err);
	if (!rc)
		rc = cfg_global_read(h, &g, err);
	if (!rc) {
		write_routing(w, &r);
		write_global(w, &g);
	}
	return rc;
}
