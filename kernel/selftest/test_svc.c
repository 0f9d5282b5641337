// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test services of a test node: ping (portal 50, service 12) and brw
 * (service 11). A brw server moves the data: for a WRITE it GETs the
 * client's pages and checks the pattern, for a READ it fills the pattern
 * and PUTs it; it replies after the bulk.
 */
#include "sfw.h"

u32 sfw_brw_check(u32 rw, u32 len, u32 flags, u32 feats)
{
	if ((rw != LST_BRW_READ && rw != LST_BRW_WRITE) ||
	    flags < LST_BRW_CHECK_NONE || flags > LST_BRW_CHECK_DISCARD)
		return EINVAL;
	if (feats & ~LST_FEATS_MASK)
		return EPROTO;
	if (!(feats & LST_FEAT_BULK_LEN) && len % LST_PAGE_SIZE)
		return EINVAL;
	return !len || len > LST_BRW_MAX_LEN ? EINVAL : 0;
}

u32 sfw_test_param_check(u32 service, u32 feats, const union srpc_test_param *p)
{
	switch (srpc_test_param_kind(service, feats)) {
	case SRPC_PARAM_PING:
		return 0;
	case SRPC_PARAM_BULK:
		if (p->bulk.npg > LST_BRW_MAX_LEN / LST_PAGE_SIZE)
			return EINVAL;
		return sfw_brw_check(p->bulk.opc, p->bulk.npg * LST_PAGE_SIZE,
				     p->bulk.flags, feats);
	case SRPC_PARAM_BULK_V1:
		/*
		 * The offset into the first page (Lustre takes it modulo the
		 * page), in 8-byte words; the bulk, offset included, fits in
		 * 256 pages.
		 */
		if (p->bulk_v1.offset % 8 ||
		    p->bulk_v1.offset % LST_PAGE_SIZE + (u64)p->bulk_v1.len > LST_BRW_MAX_LEN)
			return EINVAL;
		return sfw_brw_check(p->bulk_v1.opc, p->bulk_v1.len, p->bulk_v1.flags, feats);
	default:
		return EINVAL;
	}
}

static int sfw_ping_serve(struct srpc_server_rpc *rpc)
{
	const struct srpc_ping_reqst *r = &rpc->sr_req.body.ping_reqst;
	struct srpc_ping_reply *rep = &rpc->sr_reply.body.ping_reply;

	if (rpc->sr_req.ses_feats & ~LST_FEATS_MASK) {
		rep->status = EPROTO;
		return 0;
	}
	if (r->magic != LST_PING_TEST_MAGIC)
		return SRPC_HANDLE_DROP;	/* as Lustre: no reply at all */
	rep->magic = r->magic;
	rep->seq = r->seq;
	return 0;
}

/* The bulk moved: a WRITE's pages must hold the pattern; then the reply. */
static void sfw_brw_bulk_done(struct srpc_server_rpc *rpc, int status)
{
	const struct srpc_brw_reqst *r = &rpc->sr_req.body.brw_reqst;
	u32 *st = &rpc->sr_reply.body.brw_reply.status;

	*st = status ? (u32)-status : 0;
	if (!status && r->rw == LST_BRW_WRITE &&
	    lst_brw_check(rpc->sr_bulk, 0, r->len, r->flags)) {
		os_warn_ratelimited("selftest: brw write data from a client is corrupted\n");
		*st = EBADMSG;
	}
	srpc_server_reply(rpc);
}

static int sfw_brw_serve(struct srpc_server_rpc *rpc)
{
	const struct srpc_brw_reqst *r = &rpc->sr_req.body.brw_reqst;
	u32 *st = &rpc->sr_reply.body.brw_reply.status;

	*st = sfw_brw_check(r->rw, r->len, r->flags, rpc->sr_req.ses_feats);
	if (*st)
		return 0;
	rpc->sr_bulk = srpc_bulk_get(rpc->sr_srpc, r->len);
	if (!rpc->sr_bulk) {
		*st = ENOMEM;
		return 0;
	}
	rpc->sr_bulk_len = r->len;
	rpc->sr_bulk_done = sfw_brw_bulk_done;
	if (r->rw == LST_BRW_READ)
		lst_brw_fill(rpc->sr_bulk, 0, r->len, r->flags);
	if (srpc_server_bulk(rpc, r->bulkid, r->rw == LST_BRW_WRITE)) {
		*st = ENOMEM;
		return 0;
	}
	return SRPC_HANDLE_BULK;
}

int sfw_handle_test_service(struct srpc_server_rpc *rpc)
{
	if (rpc->sr_req.type == SRPC_MSG_PING_REQST)
		return sfw_ping_serve(rpc);
	return sfw_brw_serve(rpc);
}
