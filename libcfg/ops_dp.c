// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The data-path commands: ping, discover, selftest and their outputs
 * (the byte-count parser of selftest --size is in parse.c).
 *
 *   ping:                         selftest:
 *       - primary nid: 10.0.0.2@tcp    op: put
 *         Multi-Rail: false            target: 10.0.0.2@tcp
 *         peer_ni:                     size: 1048576
 *             - nid: 10.0.0.2@tcp      count: 100
 *             - nid: 10.0.1.2@tcp1     ok: 100
 *                                      failed: 0
 *   (discover: the same under          corrupt: 0
 *    discover:)                        elapsed_ns: 123456789
 */
#include <errno.h>
#include <string.h>
#include "yemit.h"
#include "ops_priv.h"

/* --- no route ------------------------------------------------------------------ */

/*
 * Why LNet has no way to net @net_id: NULL when there is one (a local NI
 * on it, or a route to it that is up), else what is missing.
 */
static const char *no_route_reason(struct cfg_handle *h, u32 net_id)
{
	struct lnet_ioc_route rt;
	struct lnet_ioc_ni ni;
	u32 i;

	if (!cfg_ni_get(h, 0, net_id, &ni))
		return NULL;
	for (i = 0; !cfg_route_get(h, i, net_id, &rt); i++)
		if (rt.rt_state == LNET_NI_STATUS_UP)
			return NULL;
	return i ? "no local NI, and no route to it is up" : "no local NI and no route";
}

/*
 * A send to @nid failed (@rc; @doing says what, e.g. "failed to ping
 * NID"). When no way leads to its net, name the net and why, in one line;
 * else (the peer itself did not answer) the usual message.
 */
static int send_fail(struct cfg_handle *h, int rc, const struct lnet_nid *nid,
		     const char *doing, struct cfg_err *err)
{
	u32 net_id = LNET_NET_ID(nid->nid_lnd, nid->nid_netnum);
	const char *why = NULL;
	char net[LNET_NID_STR_MAX];

	if (rc == -EHOSTUNREACH && !cfg_unreachable(h))
		why = no_route_reason(h, net_id);
	if (!why)
		return cfg_ioc_fail(h, rc, err, NULL, doing);
	return cfg_fail(err, rc, NULL, "%s: no route to net %s (%s)", doing,
			cfg_net_str(net_id, net, sizeof(net)), why);
}

/* --- ping and discover ------------------------------------------------------ */

static void ping_request(struct lnet_ioc_ping *p, const struct lnet_nid *nid,
			 u32 timeout_ms)
{
	memset(p, 0, sizeof(*p));
	p->ping_hdr.ioc_len = sizeof(*p);
	p->ping_nid = *nid;
	p->ping_timeout_ms = timeout_ms;
}

int cfg_ping(struct cfg_handle *h, const struct lnet_nid *nid, const struct lnet_nid *src,
	     u32 timeout_ms, struct lnet_ioc_ping *out, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX], sbuf[LNET_NID_STR_MAX], doing[96];
	int rc;

	ping_request(out, nid, timeout_ms);
	if (src)
		out->ping_src = *src;
	rc = cfg_ioctl(h, IOC_LIBCFS_PING_PEER, out);
	if (!rc)
		return 0;
	cfg_nid_str(nid, nbuf, sizeof(nbuf));
	if (rc == -EADDRNOTAVAIL && src && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL,
				"failed to ping %s: --source %s is not a NID of this node",
				nbuf, cfg_nid_str(src, sbuf, sizeof(sbuf)));
	snprintf(doing, sizeof(doing), "failed to ping %s", nbuf);
	return send_fail(h, rc, nid, doing, err);
}

int cfg_discover(struct cfg_handle *h, const struct lnet_nid *nid, bool force,
		 u32 timeout_ms, struct lnet_ioc_ping *out, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX], doing[96];
	int rc;

	ping_request(out, nid, timeout_ms);
	if (force)
		out->ping_flags = LNET_PING_F_FORCE;
	rc = cfg_ioctl(h, IOC_LIBCFS_DISCOVER, out);
	if (!rc)
		return 0;
	snprintf(doing, sizeof(doing), "failed to discover %s",
		 cfg_nid_str(nid, nbuf, sizeof(nbuf)));
	return send_fail(h, rc, nid, doing, err);
}

/* Close the document (always: it frees the emitter); the first error wins. */
static int finish(struct yemit *w, int rc)
{
	int wrc = yemit_end(w);

	return rc ? rc : wrc;
}

static void kv_nid(struct yemit *w, const char *key, const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	yemit_kv_str(w, key, cfg_nid_str(nid, buf, sizeof(buf)));
}

static void write_ping(struct yemit *w, const struct lnet_ioc_ping *p)
{
	u32 i, n = p->ping_nnids < LNET_PING_MAX_NIDS ? p->ping_nnids : LNET_PING_MAX_NIDS;

	yemit_map_start(w);
	kv_nid(w, "primary nid", &p->ping_primary);
	yemit_kv_bool(w, "Multi-Rail", p->ping_multi_rail);
	yemit_key_seq(w, "peer_ni");
	for (i = 0; i < n; i++) {
		yemit_map_start(w);
		kv_nid(w, "nid", &p->ping_nids[i]);
		yemit_map_end(w);
	}
	yemit_seq_end(w);
	yemit_map_end(w);
}

int cfg_show_ping(const char *key, const struct lnet_ioc_ping *res, size_t n, FILE *out,
		  struct cfg_err *err)
{
	struct yemit w;
	size_t i;
	int rc;

	if (!n)
		return 0;
	rc = yemit_begin(&w, out, err);
	yemit_map_start(&w);
	yemit_key_seq(&w, key);
	for (i = 0; i < n; i++)
		write_ping(&w, &res[i]);
	yemit_seq_end(&w);
	yemit_map_end(&w);
	return finish(&w, rc);
}

/* --- selftest ------------------------------------------------------------------- */

int cfg_selftest(struct cfg_handle *h, struct lnet_ioc_selftest *req, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX], sbuf[LNET_NID_STR_MAX], doing[128];
	const char *op = req->sft_op == LNET_SELFTEST_OP_GET ? "get" : "put";
	int rc;

	req->sft_hdr.ioc_len = sizeof(*req);
	rc = cfg_ioctl(h, IOC_LNET_SELFTEST, req);
	/*
	 * The core counts failed messages instead of failing the run: when
	 * none got through and no way leads to the target's net, that is
	 * the one thing worth saying (instead of the counts).
	 */
	if (!rc && !req->sft_ok && req->sft_failed &&
	    no_route_reason(h, LNET_NET_ID(req->sft_target.nid_lnd, req->sft_target.nid_netnum)))
		rc = -EHOSTUNREACH;
	if (!rc)
		return 0;
	cfg_nid_str(&req->sft_target, nbuf, sizeof(nbuf));
	if (rc == -EADDRNOTAVAIL && !lnet_nid_is_zero(&req->sft_src) && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL,
				"selftest %s to %s failed: --source %s is not a NID of this node",
				op, nbuf, cfg_nid_str(&req->sft_src, sbuf, sizeof(sbuf)));
	snprintf(doing, sizeof(doing), "selftest %s to %s failed", op, nbuf);
	return send_fail(h, rc, &req->sft_target, doing, err);
}

/* failed_by: every cause of LNET_SELFTEST_CAUSES, in its order, 0s too. */
static void selftest_failed_by(struct yemit *w, const struct lnet_ioc_selftest *req)
{
	static const char *const names[] = {
#define SELFTEST_CAUSE_NAME(id, name) [id] = #name,
		LNET_SELFTEST_CAUSES(SELFTEST_CAUSE_NAME)
#undef SELFTEST_CAUSE_NAME
	};
	unsigned int c;

	yemit_key_map(w, "failed_by");
	for (c = 0; c < LNET_SELFTEST_NCAUSES; c++)
		yemit_kv_u64(w, names[c], req->sft_failed_by[c]);
	yemit_map_end(w);
}

int cfg_show_selftest(const struct lnet_ioc_selftest *req, FILE *out, struct cfg_err *err)
{
	struct yemit w;
	int rc = yemit_begin(&w, out, err);

	yemit_map_start(&w);
	yemit_key_map(&w, "selftest");
	yemit_kv_str(&w, "op", req->sft_op == LNET_SELFTEST_OP_GET ? "get" : "put");
	kv_nid(&w, "target", &req->sft_target);
	yemit_kv_u64(&w, "size", req->sft_size);
	yemit_kv_u64(&w, "count", req->sft_count);
	yemit_kv_str(&w, "check", cfg_lst_check_name(req->sft_check ? req->sft_check :
							 LNET_LST_CHECK_full));
	yemit_kv_u64(&w, "ok", req->sft_ok);
	yemit_kv_u64(&w, "failed", req->sft_failed);
	yemit_kv_u64(&w, "corrupt", req->sft_corrupt);
	selftest_failed_by(&w, req);
	yemit_kv_u64(&w, "duplicate", req->sft_duplicate);
	yemit_kv_u64(&w, "elapsed_ns", req->sft_elapsed_ns);
	yemit_map_end(&w);
	yemit_map_end(&w);
	return finish(&w, rc);
}
