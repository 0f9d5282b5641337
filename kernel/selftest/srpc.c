// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRPC layer (srpc.h): request buffers and the server side of a
 * request, client RPCs, the id counter, the instance's lifetime.
 *
 * Every MD here counts in sp_live_mds until its unlinked event; once the
 * instance stops, the last one frees the state, so LNet never writes
 * into freed memory (as kernel/core/selftest.c does for its own MDs).
 */
#include "console.h"

/* A one-use request buffer of a service. */
struct srpc_buf {
	struct list_head sb_list;		/* on sp_bufs */
	struct lnet_srpc *sb_sp;
	u32 sb_service;
	struct lnet_handle_md sb_mdh;
	bool sb_unlinking;
	u8 sb_data[SRPC_MSG_LEN];
};

static const struct lnet_nid srpc_any_nid;

static const u32 srpc_services[] = {
	SRPC_SVC_DEBUG, SRPC_SVC_MAKE_SESSION, SRPC_SVC_REMOVE_SESSION,
	SRPC_SVC_BATCH, SRPC_SVC_TEST, SRPC_SVC_QUERY_STAT,
	SRPC_SVC_BRW, SRPC_SVC_PING,
};

u64 srpc_next_id(struct lnet_srpc *sp)
{
	return ++sp->sp_next_id;
}

static void srpc_maybe_free(struct lnet_srpc *sp)
{
	if (sp->sp_stopping && !sp->sp_live_mds) {
		srpc_bulk_cache_drain(sp);
		os_free(sp);
	}
}

/* --- bulk buffers of served RPCs ----------------------------------------------------- */

u8 *srpc_bulk_get(struct lnet_srpc *sp, u32 len)
{
	struct srpc_bulk_cache *bc = &sp->sp_bulk_cache;

	if (bc->bc_count && bc->bc_len == len)
		return bc->bc_bufs[--bc->bc_count];
	return os_zalloc(len);
}

void srpc_bulk_cache_drain(struct lnet_srpc *sp)
{
	struct srpc_bulk_cache *bc = &sp->sp_bulk_cache;

	while (bc->bc_count)
		os_free(bc->bc_bufs[--bc->bc_count]);
}

/* Keep @buf for the next RPC while a session lasts; one length at a time. */
static void srpc_bulk_put(struct lnet_srpc *sp, u8 *buf, u32 len)
{
	struct srpc_bulk_cache *bc = &sp->sp_bulk_cache;

	if (!buf)
		return;
	if (sp->sp_stopping || !sp->sp_session) {
		os_free(buf);
		return;
	}
	if (bc->bc_len != len) {
		srpc_bulk_cache_drain(sp);
		bc->bc_len = len;
	}
	if (bc->bc_count < SRPC_BULK_CACHE_MAX)
		bc->bc_bufs[bc->bc_count++] = buf;
	else
		os_free(buf);
}

/* Count an LNet event's failure as Lustre does (not a cancel). */
static void srpc_count_event(struct lnet_srpc *sp, const struct lnet_event *ev)
{
	if (ev->status && ev->status != -ECANCELED)
		sp->sp_counters.errors++;
}

/* --- the id carried in requests -------------------------------------------------- */

/* The rpyid (and bulkid, when the type has one) at the start of a request body. */
static void srpc_req_ids(struct srpc_msg *m, u64 **rpyid, u64 **bulkid)
{
	*bulkid = NULL;
	switch (m->type) {
	case SRPC_MSG_TEST_REQST:
		*rpyid = &m->body.tes_reqst.rpyid;
		*bulkid = &m->body.tes_reqst.bulkid;
		break;
	case SRPC_MSG_BRW_REQST:
		*rpyid = &m->body.brw_reqst.rpyid;
		*bulkid = &m->body.brw_reqst.bulkid;
		break;
	default:
		/* every request body starts with its rpyid (rpc.h's rule) */
		*rpyid = &m->body.mksn_reqst.rpyid;
	}
}

/* The status at the start of every reply body. */
static u32 *srpc_reply_status(struct srpc_msg *m)
{
	return &m->body.brw_reply.status;
}

/* --- server side -------------------------------------------------------------------- */

static void srpc_server_free(struct srpc_server_rpc *rpc)
{
	if (rpc->sr_bulk_md) {
		rpc->sr_free_wanted = true;	/* freed by the bulk's last event */
		return;
	}
	list_del(&rpc->sr_list);
	srpc_bulk_put(rpc->sr_srpc, rpc->sr_bulk, rpc->sr_bulk_len);
	os_free(rpc);
}

static void srpc_reply_event(struct lnet *ln, struct lnet_event *ev)
{
	struct srpc_server_rpc *rpc = ev->md_user_ptr;
	struct lnet_srpc *sp = rpc->sr_srpc;

	srpc_count_event(sp, ev);
	if (!ev->unlinked)
		return;
	sp->sp_live_mds--;
	srpc_server_free(rpc);
	srpc_maybe_free(sp);
}

void srpc_server_reply(struct srpc_server_rpc *rpc)
{
	struct lnet_srpc *sp = rpc->sr_srpc;
	struct lnet *ln = sp->sp_ln;
	struct lnet_handle_md mdh;
	u64 *rpyid, *bulkid;
	struct lnet_md md = {
		.start = rpc->sr_reply_buf, .length = SRPC_MSG_LEN, .threshold = 1,
		.user_ptr = rpc, .handler = srpc_reply_event,
	};

	srpc_req_ids(&rpc->sr_req, &rpyid, &bulkid);
	if (*srpc_reply_status(&rpc->sr_reply))
		sp->sp_counters.rpcs_dropped++;
	if (srpc_msg_pack(&rpc->sr_reply, rpc->sr_reply_buf) || lnet_md_bind(ln, &md, &mdh))
		goto err_free;
	sp->sp_live_mds++;
	/* the SEND event (maybe before this returns) frees @rpc */
	if (lnet_put(ln, NULL, mdh, false, &rpc->sr_peer, rpc->sr_peer_pid,
		     SRPC_RDMA_PORTAL, *rpyid, 0, SRPC_MSG_LEN, 0))
		lnet_md_unlink(ln, mdh);
	return;
err_free:
	sp->sp_counters.errors++;
	srpc_server_free(rpc);
}

static void srpc_bulk_event(struct lnet *ln, struct lnet_event *ev)
{
	struct srpc_server_rpc *rpc = ev->md_user_ptr;
	struct lnet_srpc *sp = rpc->sr_srpc;
	int status = ev->status;
	bool moved = ev->type == LNET_EVENT_REPLY ||
		     (ev->type == LNET_EVENT_SEND && ev->msg_type == LNET_MSG_PUT);

	srpc_count_event(sp, ev);
	if (!status && moved && ev->mlength != rpc->sr_bulk_len)
		status = -EBADMSG;	/* the peer's MD took or gave less */
	if (!status && ev->type == LNET_EVENT_REPLY)
		sp->sp_counters.bulk_get += ev->mlength;
	else if (!status && moved)
		sp->sp_counters.bulk_put += ev->mlength;
	if (status && !ev->unlinked && ev->type != LNET_EVENT_UNLINK) {
		rpc->sr_bulk_live = false;
		sp->sp_live_mds++;	/* its UNLINK event may come right here */
		lnet_md_unlink(ln, rpc->sr_bulk_mdh);
		rpc->sr_bulk_done(rpc, status);
		sp->sp_live_mds--;
		srpc_maybe_free(sp);
		return;
	}
	if (!ev->unlinked)
		return;
	sp->sp_live_mds--;
	rpc->sr_bulk_md = false;
	if (rpc->sr_free_wanted) {
		srpc_server_free(rpc);
		srpc_maybe_free(sp);
		return;
	}
	if (rpc->sr_bulk_live) {
		rpc->sr_bulk_live = false;
		rpc->sr_bulk_done(rpc, ev->type == LNET_EVENT_UNLINK ? -ECANCELED : status);
		return;
	}
	/* failed earlier: the reply went already or goes now */
	srpc_maybe_free(sp);
}

int srpc_server_bulk(struct srpc_server_rpc *rpc, u64 bulkid, bool sink)
{
	struct lnet_srpc *sp = rpc->sr_srpc;
	struct lnet *ln = sp->sp_ln;
	struct lnet_md md = {
		.start = rpc->sr_bulk, .length = rpc->sr_bulk_len,
		.threshold = sink ? 2 : 1,	/* GET: SEND + REPLY */
		.user_ptr = rpc, .handler = srpc_bulk_event,
	};
	int rc;

	rc = lnet_md_bind(ln, &md, &rpc->sr_bulk_mdh);
	if (rc)
		return rc;
	sp->sp_live_mds++;
	rpc->sr_bulk_live = true;
	rpc->sr_bulk_md = true;
	if (sink)
		rc = lnet_get(ln, NULL, rpc->sr_bulk_mdh, &rpc->sr_peer, rpc->sr_peer_pid,
			      SRPC_RDMA_PORTAL, bulkid, 0, rpc->sr_bulk_len);
	else
		rc = lnet_put(ln, NULL, rpc->sr_bulk_mdh, false, &rpc->sr_peer,
			      rpc->sr_peer_pid, SRPC_RDMA_PORTAL, bulkid, 0,
			      rpc->sr_bulk_len, 0);
	if (rc) {
		/* no event will say so: the UNLINK event ends the bulk */
		lnet_md_unlink(ln, rpc->sr_bulk_mdh);
	}
	return 0;
}

/* Run @svc's handler on a request that passed the checks. */
static void srpc_serve(struct lnet_srpc *sp, struct srpc_server_rpc *rpc, int unpack_rc)
{
	int rc = 0;

	rpc->sr_reply.type = rpc->sr_req.type + 1;
	rpc->sr_reply.version = SRPC_MSG_VERSION;
	rpc->sr_reply.ses_feats = rpc->sr_req.ses_feats;
	if (unpack_rc == -EPROTO) {
		*srpc_reply_status(&rpc->sr_reply) = EPROTO;
	} else if (srpc_msg_service(rpc->sr_req.type) < SRPC_FRAMEWORK_SERVICE_MAX_ID) {
		rc = sfw_handle_framework(rpc);
	} else {
		rc = sfw_handle_test_service(rpc);
	}
	if (rc == SRPC_HANDLE_DROP) {
		sp->sp_counters.rpcs_dropped++;
		srpc_server_free(rpc);
	} else if (!rc) {
		srpc_server_reply(rpc);
	}
}

/* A request landed in @sb: drop it (no reply) or serve it. */
static void srpc_request(struct lnet_srpc *sp, struct srpc_buf *sb,
			 const struct lnet_event *ev)
{
	struct srpc_server_rpc *rpc;
	int rc;

	if (ev->status || ev->mlength != SRPC_MSG_LEN)
		return;
	rpc = os_zalloc(sizeof(*rpc));
	if (!rpc)
		return;
	rc = srpc_msg_unpack(sb->sb_data, SRPC_MSG_LEN, &rpc->sr_req);
	if ((rc && rc != -EPROTO) || (rpc->sr_req.type & 1) ||
	    srpc_msg_service(rpc->sr_req.type) != sb->sb_service) {
		os_warn_ratelimited("selftest: dropping a bad request for service %u\n",
				    sb->sb_service);
		os_free(rpc);
		return;
	}
	sp->sp_counters.rpcs_rcvd++;
	rpc->sr_srpc = sp;
	rpc->sr_peer = ev->initiator;
	rpc->sr_peer_pid = ev->initiator_pid;
	list_add_tail(&rpc->sr_list, &sp->sp_servers);
	srpc_serve(sp, rpc, rc);
}

static int srpc_buf_post(struct lnet_srpc *sp, u32 service);

static void srpc_buf_event(struct lnet *ln, struct lnet_event *ev)
{
	struct srpc_buf *sb = ev->md_user_ptr;
	struct lnet_srpc *sp = sb->sb_sp;

	srpc_count_event(sp, ev);
	if (ev->type == LNET_EVENT_PUT && !sp->sp_stopping)
		srpc_request(sp, sb, ev);
	if (!ev->unlinked)
		return;
	sp->sp_live_mds--;
	list_del(&sb->sb_list);
	if (sb->sb_service >= SRPC_FRAMEWORK_SERVICE_MAX_ID)
		sp->sp_nbufs[sb->sb_service == SRPC_SVC_PING]--;
	/* used up: another one takes its place at once */
	if (!sp->sp_stopping && srpc_buf_post(sp, sb->sb_service))
		os_err("selftest: cannot post a request buffer of service %u\n",
		       sb->sb_service);
	os_free(sb);
	srpc_maybe_free(sp);
}

static int srpc_buf_post(struct lnet_srpc *sp, u32 service)
{
	struct srpc_buf *sb = os_zalloc(sizeof(*sb));
	struct lnet_md md = {
		.length = SRPC_MSG_LEN, .threshold = 1, .options = LNET_MD_OP_PUT,
		.handler = srpc_buf_event,
	};
	int rc;

	if (!sb)
		return -ENOMEM;
	sb->sb_sp = sp;
	sb->sb_service = service;
	md.start = sb->sb_data;
	md.user_ptr = sb;
	rc = lnet_me_attach_md(sp->sp_ln, srpc_service_portal(service), &srpc_any_nid,
			       LNET_PID_ANY, service, 0, true, &md, &sb->sb_mdh);
	if (rc) {
		os_free(sb);
		return rc;
	}
	list_add_tail(&sb->sb_list, &sp->sp_bufs);
	sp->sp_live_mds++;
	if (service >= SRPC_FRAMEWORK_SERVICE_MAX_ID)
		sp->sp_nbufs[service == SRPC_SVC_PING]++;
	return 0;
}

int srpc_service_reserve(struct lnet_srpc *sp, u32 service, u32 units)
{
	u32 *n = &sp->sp_nbufs[service == SRPC_SVC_PING];
	u32 want = units + SRPC_NBUF_EXTRA;
	int rc = 0;

	/* they stay: a buffer used is posted again, so the pool only grows */
	while (*n < want && *n < SRPC_NBUF_MAX && !rc)
		rc = srpc_buf_post(sp, service);
	return rc;
}

/* --- client side ---------------------------------------------------------------------- */

struct srpc_client_rpc *srpc_client_new(struct lnet_srpc *sp, const struct lnet_nid *peer,
					u32 pid, u32 service, u32 timeout_s)
{
	struct srpc_client_rpc *rpc = os_zalloc(sizeof(*rpc));

	if (!rpc)
		return NULL;
	INIT_LIST_HEAD(&rpc->cr_list);
	rpc->cr_srpc = sp;
	rpc->cr_peer = *peer;
	rpc->cr_peer_pid = pid;
	rpc->cr_service = service;
	rpc->cr_req.version = SRPC_MSG_VERSION;
	rpc->cr_req.ses_feats = LST_FEATS_MASK;
	rpc->cr_deadline_ns = timeout_s ? os_now_ns() + (u64)timeout_s * 1000000000ULL :
			      OS_NO_DEADLINE;
	return rpc;
}

static void srpc_client_unlink(struct lnet *ln, struct srpc_client_rpc *rpc)
{
	if (rpc->cr_live_mds & SRPC_CR_SENT)
		lnet_md_unlink(ln, rpc->cr_req_mdh);
	if (rpc->cr_live_mds & SRPC_CR_REPLY)
		lnet_md_unlink(ln, rpc->cr_reply_mdh);
	if (rpc->cr_live_mds & SRPC_CR_BULK)
		lnet_md_unlink(ln, rpc->cr_bulk_mdh);
}

/*
 * Once finished and every MD is gone, and no handler of the RPC is on
 * the stack (an unlink may deliver its event right away, from inside
 * one): the done callback, then free.
 */
static void srpc_client_maybe_end(struct srpc_client_rpc *rpc)
{
	struct lnet_srpc *sp = rpc->cr_srpc;

	if (!rpc->cr_finished || rpc->cr_live_mds || rpc->cr_busy)
		return;
	list_del(&rpc->cr_list);
	rpc->cr_done(rpc);
	os_free(rpc);
	srpc_maybe_free(sp);
}

/* The outcome is known: unlink what is left; the last unlinked event ends it. */
static void srpc_client_finish(struct srpc_client_rpc *rpc, int status)
{
	if (rpc->cr_finished)
		return;
	rpc->cr_finished = true;
	rpc->cr_status = status;
	rpc->cr_busy++;
	srpc_client_unlink(rpc->cr_srpc->sp_ln, rpc);
	rpc->cr_busy--;
	srpc_client_maybe_end(rpc);
}

void srpc_client_abort(struct srpc_client_rpc *rpc, int status)
{
	srpc_client_finish(rpc, status);
}

/* The reply arrived: unpack and check it; a failed request needs no bulk. */
static void srpc_client_replied(struct srpc_client_rpc *rpc)
{
	int rc = srpc_msg_unpack(rpc->cr_reply_buf, SRPC_MSG_LEN, &rpc->cr_reply);

	if (rc || rpc->cr_reply.type != rpc->cr_req.type + 1) {
		srpc_client_finish(rpc, -EBADMSG);
		return;
	}
	rpc->cr_done_mask |= SRPC_CR_REPLY;
	if (rpc->cr_reply.body.brw_reply.status)
		srpc_client_finish(rpc, 0);	/* the caller reads the status */
}

/* Which of the RPC's MDs @ev is about. */
static u32 srpc_client_md(const struct srpc_client_rpc *rpc, const struct lnet_event *ev)
{
	if (ev->md_handle.cookie == rpc->cr_req_mdh.cookie)
		return SRPC_CR_SENT;
	if (ev->md_handle.cookie == rpc->cr_reply_mdh.cookie)
		return SRPC_CR_REPLY;
	return SRPC_CR_BULK;
}

static void srpc_client_event(struct lnet *ln, struct lnet_event *ev)
{
	struct srpc_client_rpc *rpc = ev->md_user_ptr;
	struct lnet_srpc *sp = rpc->cr_srpc;
	u32 which = srpc_client_md(rpc, ev);
	u32 want = SRPC_CR_SENT | SRPC_CR_REPLY | (rpc->cr_bulk ? SRPC_CR_BULK : 0);

	srpc_count_event(sp, ev);
	rpc->cr_busy++;
	/* first: a finish below must not unlink this MD a second time */
	if (ev->unlinked) {
		rpc->cr_live_mds &= ~which;
		sp->sp_live_mds--;
	}
	if (ev->status && ev->type != LNET_EVENT_UNLINK)
		srpc_client_finish(rpc, ev->status);
	else if (which == SRPC_CR_REPLY && ev->type == LNET_EVENT_PUT)
		srpc_client_replied(rpc);
	else if (which != SRPC_CR_REPLY && ev->unlinked && ev->type != LNET_EVENT_UNLINK)
		rpc->cr_done_mask |= which;	/* sent; bulk moved */
	if ((rpc->cr_done_mask & want) == want)
		srpc_client_finish(rpc, 0);
	rpc->cr_busy--;
	srpc_client_maybe_end(rpc);
}

/* An MD of @rpc on portal 52 under @bits, from its peer only. */
static int srpc_client_attach(struct srpc_client_rpc *rpc, u64 bits, void *buf, u32 len,
			      u32 op, u32 which, struct lnet_handle_md *mdh)
{
	struct lnet_md md = {
		.start = buf, .length = len, .threshold = 1, .options = op,
		.user_ptr = rpc, .handler = srpc_client_event,
	};
	int rc;

	rc = lnet_me_attach_md(rpc->cr_srpc->sp_ln, SRPC_RDMA_PORTAL, &rpc->cr_peer,
			       LNET_PID_ANY, bits, 0, true, &md, mdh);
	if (!rc) {
		rpc->cr_live_mds |= which;
		rpc->cr_srpc->sp_live_mds++;
	}
	return rc;
}

static int srpc_client_send(struct srpc_client_rpc *rpc)
{
	struct lnet *ln = rpc->cr_srpc->sp_ln;
	struct lnet_md md = {
		.start = rpc->cr_req_buf, .length = SRPC_MSG_LEN, .threshold = 1,
		.user_ptr = rpc, .handler = srpc_client_event,
	};
	int rc;

	rc = lnet_md_bind(ln, &md, &rpc->cr_req_mdh);
	if (rc)
		return rc;
	rpc->cr_live_mds |= SRPC_CR_SENT;
	rpc->cr_srpc->sp_live_mds++;
	rc = lnet_put(ln, NULL, rpc->cr_req_mdh, false, &rpc->cr_peer, rpc->cr_peer_pid,
		      srpc_service_portal(rpc->cr_service), rpc->cr_service, 0,
		      SRPC_MSG_LEN, 0);
	if (!rc)
		rpc->cr_srpc->sp_counters.rpcs_sent++;
	return rc;
}

int srpc_client_start(struct srpc_client_rpc *rpc)
{
	struct lnet_srpc *sp = rpc->cr_srpc;
	u64 *rpyid, *bulkid;
	int rc;

	if (sp->sp_stopping)
		return -ESHUTDOWN;
	srpc_req_ids(&rpc->cr_req, &rpyid, &bulkid);
	*rpyid = srpc_next_id(sp);
	if (bulkid)
		*bulkid = rpc->cr_bulk ? srpc_next_id(sp) : 0;
	rc = srpc_msg_pack(&rpc->cr_req, rpc->cr_req_buf);
	if (rc)
		return rc;
	list_add_tail(&rpc->cr_list, &sp->sp_clients);
	rpc->cr_busy++;
	rc = srpc_client_attach(rpc, *rpyid, rpc->cr_reply_buf, SRPC_MSG_LEN,
				LNET_MD_OP_PUT, SRPC_CR_REPLY, &rpc->cr_reply_mdh);
	if (!rc && rpc->cr_bulk)
		rc = srpc_client_attach(rpc, *bulkid, rpc->cr_bulk, rpc->cr_bulk_len,
					rpc->cr_bulk_sink ? LNET_MD_OP_PUT : LNET_MD_OP_GET,
					SRPC_CR_BULK, &rpc->cr_bulk_mdh);
	if (!rc)
		rc = srpc_client_send(rpc);
	if (rc)
		srpc_client_finish(rpc, rc);
	rpc->cr_busy--;
	/* nothing posted at all: no event will end it, the caller keeps it */
	if (rc && !rpc->cr_live_mds) {
		list_del(&rpc->cr_list);
		return rc;
	}
	/* from here on the outcome comes through cr_done (maybe right now) */
	srpc_client_maybe_end(rpc);
	return 0;
}

/* --- lifetime, timers ------------------------------------------------------------------- */

void lnet_srpc_tick(struct lnet *ln, u64 now)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	struct srpc_client_rpc *rpc;
	bool again = true;

	if (!sp)
		return;
	/* finishing may free entries: start over after each one */
	while (again) {
		again = false;
		list_for_each_entry(rpc, &sp->sp_clients, cr_list) {
			if (rpc->cr_finished || rpc->cr_deadline_ns > now)
				continue;
			os_warn("selftest: client RPC to service %u expired\n", rpc->cr_service);
			sp->sp_counters.rpcs_expired++;
			srpc_client_finish(rpc, -ETIMEDOUT);
			again = true;
			break;
		}
	}
	sfw_tick(sp, now);
	lstcon_model_tick(sp, now);
}

void lnet_srpc_process(struct lnet *ln)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);

	if (sp)
		sfw_process(sp);
}

bool lnet_srpc_pending(struct lnet *ln)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);

	return sp && !list_empty(&sp->sp_pending);
}

int lnet_srpc_init(struct lnet *ln)
{
	struct lnet_srpc *sp = os_zalloc(sizeof(*sp));
	u32 i, n;
	int rc = 0;

	if (!sp)
		return -ENOMEM;
	sp->sp_ln = ln;
	INIT_LIST_HEAD(&sp->sp_bufs);
	INIT_LIST_HEAD(&sp->sp_clients);
	INIT_LIST_HEAD(&sp->sp_servers);
	INIT_LIST_HEAD(&sp->sp_pending);
	/* the clock in the top 16 bits, as Lustre starts its counter */
	sp->sp_next_id = (os_now_ns() / 1000000000ULL + os_random_u64()) << 48;
	sp->sp_rpc_timeout_s = SRPC_RPC_TIMEOUT_S;
	sp->sp_session_timeout_s = SFW_SESSION_TIMEOUT_S;
	ln->ln_dp.dp_srpc = sp;
	for (i = 0; i < sizeof(srpc_services) / sizeof(srpc_services[0]) && !rc; i++) {
		u32 svc = srpc_services[i];

		for (n = 0; n < (svc < SRPC_FRAMEWORK_SERVICE_MAX_ID ?
				 SRPC_NBUF_FRAMEWORK : SRPC_NBUF_TEST) && !rc; n++)
			rc = srpc_buf_post(sp, svc);
	}
	if (rc)
		lnet_srpc_fini(ln);
	return rc;
}

/* Unlink one MD still posted or in use; false when none is left to unlink. */
static bool srpc_unlink_one(struct lnet *ln, struct lnet_srpc *sp)
{
	struct srpc_client_rpc *rpc;
	struct srpc_buf *sb;

	list_for_each_entry(rpc, &sp->sp_clients, cr_list)
		if (!rpc->cr_finished) {
			srpc_client_finish(rpc, -ESHUTDOWN);
			return true;
		}
	list_for_each_entry(sb, &sp->sp_bufs, sb_list)
		if (!sb->sb_unlinking) {
			sb->sb_unlinking = true;
			lnet_md_unlink(ln, sb->sb_mdh);
			return true;
		}
	return false;
}

void lnet_srpc_fini(struct lnet *ln)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);

	if (!sp)
		return;
	sfw_shutdown(sp);
	/* a console command waiting now sees the change and leaves it alone */
	os_free(sp->sp_console);
	lstcon_model_free(sp);
	ln->ln_dp.dp_srpc = NULL;
	sp->sp_stopping = true;
	sp->sp_live_mds++;		/* an event below must not free @sp yet */
	while (srpc_unlink_one(ln, sp))
		;
	sp->sp_live_mds--;
	srpc_maybe_free(sp);
}
