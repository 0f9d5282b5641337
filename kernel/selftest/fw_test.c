// SPDX-License-Identifier: GPL-2.0-only
/*
 * TEST_REQST on a test node (sfw.h): a server test is recorded; a client
 * test first GETs its destination list from the console (portal 52, the
 * request's bulkid, ndest x 12 bytes) and is recorded once it came. The
 * batch is made on first use.
 */
#include "sfw.h"

/* The status for a TEST_REQST before anything is made; 0 to go on. */
static u32 sfw_test_check(struct lnet_srpc *sp, const struct srpc_msg *req)
{
	const struct srpc_test_reqst *r = &req->body.tes_reqst;

	if (r->sid.ses_nid == LST_NID_ANY)
		return EINVAL;
	if (!sfw_session_find(sp, &r->sid))
		return ENOENT;
	if (!r->loop || !r->concur || r->concur > SFW_MAX_CONCUR ||
	    r->ndest > SFW_MAX_NDESTS || (r->is_client && !r->ndest))
		return EINVAL;
	if (r->service != SRPC_SVC_PING && r->service != SRPC_SVC_BRW)
		return EINVAL;
	return r->is_client ? sfw_test_param_check(r->service, req->ses_feats, &r->param) : 0;
}

static struct sfw_batch *sfw_batch_get(struct sfw_session *s, u64 bid)
{
	struct sfw_batch *b;

	list_for_each_entry(b, &s->s_batches, b_list)
		if (b->b_bid == bid)
			return b;
	b = os_zalloc(sizeof(*b));
	if (!b)
		return NULL;
	b->b_session = s;
	b->b_bid = bid;
	INIT_LIST_HEAD(&b->b_tests);
	list_add_tail(&b->b_list, &s->s_batches);
	return b;
}

static struct sfw_test *sfw_test_new(const struct srpc_msg *req)
{
	const struct srpc_test_reqst *r = &req->body.tes_reqst;
	struct sfw_test *t = os_zalloc(sizeof(*t));

	if (!t)
		return NULL;
	INIT_LIST_HEAD(&t->t_units);
	t->t_service = r->service;
	t->t_loop = r->loop;
	t->t_concur = r->concur;
	t->t_feats = req->ses_feats;
	t->t_is_client = r->is_client;
	t->t_stop_onerr = r->stop_onerr;
	t->t_param = r->param;
	t->t_ndest = r->ndest;
	return t;
}

/* Attach @t to its batch of the node's session (gone meanwhile: ENOENT). */
static u32 sfw_test_attach(struct lnet_srpc *sp, const struct srpc_test_reqst *r,
			   struct sfw_test *t)
{
	struct sfw_session *s = sfw_session_find(sp, &r->sid);
	struct sfw_batch *b;

	if (!s)
		return ENOENT;
	b = sfw_batch_get(s, r->bid);
	if (!b)
		return ENOMEM;
	if (sfw_batch_active(b))
		return EBUSY;
	t->t_batch = b;
	list_add_tail(&t->t_list, &b->b_tests);
	return 0;
}

/* The destination list came (or not): record the client test, reply. */
static void sfw_test_dests_done(struct srpc_server_rpc *rpc, int status)
{
	struct lnet_srpc *sp = rpc->sr_srpc;
	const struct srpc_test_reqst *r = &rpc->sr_req.body.tes_reqst;
	u32 *st = &rpc->sr_reply.body.tes_reply.status;
	struct sfw_test *t = rpc->sr_priv;
	u32 i;

	*st = status ? (u32)-status : 0;
	t->t_dests = status ? NULL : os_zalloc(t->t_ndest * sizeof(*t->t_dests));
	if (!status && !t->t_dests)
		*st = ENOMEM;
	for (i = 0; !*st && i < t->t_ndest; i++) {
		srpc_dest_unpack(rpc->sr_bulk, i, rpc->sr_req.swabbed,
				 &t->t_dests[i].d_nid, &t->t_dests[i].d_pid);
		if (t->t_dests[i].d_nid == LST_NID_ANY || !t->t_dests[i].d_nid)
			*st = EINVAL;
	}
	if (!*st)
		*st = sfw_test_attach(sp, r, t);
	if (*st) {
		os_free(t->t_dests);
		os_free(t);
	}
	sfw_reply_fill(sp, &rpc->sr_reply);
	srpc_server_reply(rpc);
}

int sfw_add_test(struct lnet_srpc *sp, struct srpc_server_rpc *rpc)
{
	const struct srpc_test_reqst *r = &rpc->sr_req.body.tes_reqst;
	u32 *st = &rpc->sr_reply.body.tes_reply.status;
	struct sfw_test *t;

	*st = sfw_test_check(sp, &rpc->sr_req);
	if (*st)
		return 0;
	t = sfw_test_new(&rpc->sr_req);
	if (!t) {
		*st = ENOMEM;
		return 0;
	}
	if (!t->t_is_client) {
		/* a server test's loop is the number of client units it serves */
		*st = srpc_service_reserve(sp, r->service, r->loop) ? ENOMEM :
		      sfw_test_attach(sp, r, t);
		if (*st)
			os_free(t);
		return 0;
	}
	rpc->sr_bulk_len = r->ndest * LST_DEST_LEN;
	rpc->sr_bulk = os_zalloc(rpc->sr_bulk_len);
	if (!rpc->sr_bulk) {
		os_free(t);
		*st = ENOMEM;
		return 0;
	}
	rpc->sr_priv = t;
	rpc->sr_bulk_done = sfw_test_dests_done;
	if (srpc_server_bulk(rpc, r->bulkid, true)) {
		os_free(t);
		*st = ENOMEM;
		return 0;
	}
	return SRPC_HANDLE_BULK;
}
