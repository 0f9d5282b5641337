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
	return cfg_ioc_fail(h, rc, err, NULL, doing);
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
	return cfg_ioc_fail(h, rc, err, NULL, doing);
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
	if (!rc)
		return 0;
	cfg_nid_str(&req->sft_target, nbuf, sizeof(nbuf));
	if (rc == -EADDRNOTAVAIL && !lnet_nid_is_zero(&req->sft_src) && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL,
				"selftest %s to %s failed: --source %s is not a NID of this node",
				op, nbuf, cfg_nid_str(&req->sft_src, sbuf, sizeof(sbuf)));
	snprintf(doing, sizeof(doing), "selftest %s to %s failed", op, nbuf);
	return cfg_ioc_fail(h, rc, err, NULL, doing);
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
	yemit_kv_u64(&w, "ok", req->sft_ok);
	yemit_kv_u64(&w, "failed", req->sft_failed);
	yemit_kv_u64(&w, "corrupt", req->sft_corrupt);
	yemit_kv_u64(&w, "elapsed_ns", req->sft_elapsed_ns);
	yemit_map_end(&w);
	yemit_map_end(&w);
	return finish(&w, rc);
}
