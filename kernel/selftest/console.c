// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lnet_selftest console of this node (IOC_LNET_LST, lnet_lst.h): it
 * sends the framework RPCs Lustre's lst sends (MKSN, TEST, BATCH, STAT,
 * RMSN) to the nodes and waits for their answers. This file holds the
 * transactions, the one-shot run (START, STAT, END) and the entry point;
 * lst's session model is console_model.c.
 *
 * A transaction sends one RPC to each of a range of nodes at once and
 * waits (ln_api_mutex released, on dp_cond: every finalize broadcasts it)
 * until each has ended; each RPC has its deadline, so every one ends.
 */
#include "console.h"
#include "../core/validate.h"

#define LSTCON_BID	1		/* the run's batch */

/* The run of this node's console (sp->sp_console). */
struct lstcon {
	struct lstcon_req c_req;	/* sid, timeout; the test */
	u32 c_nfrom, c_nto;
	struct lnet_nid c_nids[LNET_LST_MAX_NODES];
	struct lnet_ioc_lst_node c_last[LNET_LST_MAX_NODES];
	u8 c_dests[LNET_LST_MAX_NODES * LST_DEST_LEN];	/* the servers */
};

static void lstcon_rpc_done(struct srpc_client_rpc *rpc)
{
	struct lstcon_slot *s = rpc->cr_priv;

	s->s_reply = rpc->cr_reply;
	s->s_noreply = rpc->cr_status != 0;
	s->s_status = rpc->cr_status ? (u32)-rpc->cr_status :
		      rpc->cr_reply.body.brw_reply.status;	/* status: first */
	s->s_done = true;
	os_cond_broadcast(&rpc->cr_srpc->sp_ln->ln_dp.dp_cond);
}

/* --- the requests -------------------------------------------------------------------- */

static void lstcon_fill_test(const struct lstcon_req *r, struct srpc_client_rpc *rpc)
{
	struct srpc_test_reqst *t = &rpc->cr_req.body.tes_reqst;

	t->sid = r->sid;
	t->bid = r->bid;
	t->service = r->test == LNET_LST_TEST_ping ? SRPC_SVC_PING : SRPC_SVC_BRW;
	t->concur = r->concur;
	t->is_client = r->client;
	t->loop = r->loop;
	t->ndest = r->client ? r->ndest : 0;
	if (t->service == SRPC_SVC_BRW) {
		t->param.bulk_v1.opc = r->test == LNET_LST_TEST_read ? LST_BRW_READ :
				       LST_BRW_WRITE;
		t->param.bulk_v1.flags = r->check;	/* the same values as LST_BRW_CHECK_* */
		t->param.bulk_v1.len = r->size;
		t->param.bulk_v1.offset = r->offset;
	}
	if (!r->client)
		return;
	/* the destination list: the node GETs it from here (bulk) */
	rpc->cr_bulk = r->dests;
	rpc->cr_bulk_len = r->ndest * LST_DEST_LEN;
}

/* @service's request: every body starts with the sid after the rpyid. */
static void lstcon_fill(const struct lstcon_req *r, u32 service, struct srpc_client_rpc *rpc)
{
	struct srpc_msg *m = &rpc->cr_req;

	switch (service) {
	case SRPC_SVC_MAKE_SESSION:
		m->type = SRPC_MSG_MKSN_REQST;
		m->body.mksn_reqst.sid = r->sid;
		m->body.mksn_reqst.force = r->force;
		/* a NUL-padded field; @r->name may be shorter (a literal) */
		memset(m->body.mksn_reqst.name, 0, LST_NAME_SIZE);
		memcpy(m->body.mksn_reqst.name, r->name, strnlen(r->name, LST_NAME_SIZE));
		break;
	case SRPC_SVC_REMOVE_SESSION:
		m->type = SRPC_MSG_RMSN_REQST;
		m->body.rmsn_reqst.sid = r->sid;
		break;
	case SRPC_SVC_QUERY_STAT:
		m->type = SRPC_MSG_STAT_REQST;
		m->body.stat_reqst.sid = r->sid;
		break;
	case SRPC_SVC_DEBUG:
		m->type = SRPC_MSG_DEBUG_REQST;
		m->body.dbg_reqst.sid = r->sid;
		break;
	case SRPC_SVC_BATCH:
		m->type = SRPC_MSG_BATCH_REQST;
		m->body.bat_reqst.sid = r->sid;
		m->body.bat_reqst.bid = r->bid;
		/* STOP: after the RPCs in flight (arg 0), so none counts as an error */
		m->body.bat_reqst.opc = r->opc;
		break;
	default:
		m->type = SRPC_MSG_TEST_REQST;
		lstcon_fill_test(r, rpc);
	}
}

int lstcon_rpcs(struct lnet *ln, const struct lstcon_req *r, u32 service,
		const struct lnet_nid *nids, u32 n, struct lstcon_slot *slots)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	u32 i, left = n;
	int rc = 0;

	for (i = 0; i < n; i++) {
		struct srpc_client_rpc *rpc = srpc_client_new(sp, &nids[i], SRPC_PID, service,
							      r->timeout_s);

		slots[i] = (struct lstcon_slot){ .s_status = ENOMEM, .s_noreply = true };
		if (!rpc) {
			slots[i].s_done = true;
			continue;
		}
		lstcon_fill(r, service, rpc);
		rpc->cr_done = lstcon_rpc_done;
		rpc->cr_priv = &slots[i];
		if (srpc_client_start(rpc)) {
			os_free(rpc);
			slots[i].s_done = true;
		}
	}
	lnet_dp_monitor_ensure(ln);	/* its tick expires the RPCs */
	while (left) {
		for (i = 0, left = 0; i < n; i++)
			left += !slots[i].s_done;
		if (left)
			os_cond_wait(&ln->ln_dp.dp_cond, &ln->ln_api_mutex, OS_NO_DEADLINE);
	}
	for (i = 0; i < n; i++)
		if (slots[i].s_status)
			rc = -EHOSTUNREACH;
	return lnet_srpc_of(ln) == sp ? rc : -ENETDOWN;
}

void lstcon_dests(struct lstcon_req *r, u8 *buf, const struct lnet_nid *nids, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u64 nid4 = 0;

		lnet_nid_to_wire(&nids[i], &nid4);
		srpc_dest_pack(buf, i, nid4, SRPC_PID);
	}
	r->dests = buf;
	r->ndest = n;
}

void lstcon_node_stat(struct lnet_ioc_lst_node *n, const struct srpc_stat_reply *r)
{
	n->ln_running_ms = r->fw.running_ms;
	n->ln_brw_errors = r->fw.brw_errors;
	n->ln_ping_errors = r->fw.ping_errors;
	n->ln_rpc_errors = r->rpc.errors;
	n->ln_rpcs_dropped = r->rpc.rpcs_dropped;
	n->ln_rpcs_expired = r->rpc.rpcs_expired;
	n->ln_rpcs_sent = r->rpc.rpcs_sent;
	n->ln_rpcs_rcvd = r->rpc.rpcs_rcvd;
	n->ln_send_count = r->lnet.send_count;
	n->ln_recv_count = r->lnet.recv_count;
	n->ln_send_length = r->lnet.send_length;
	n->ln_recv_length = r->lnet.recv_length;
	n->ln_bulk_get = r->rpc.bulk_get;
	n->ln_bulk_put = r->rpc.bulk_put;
}

int lstcon_sid(struct lnet *ln, struct lst_sid *sid)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if ((net->net_id >> 16) != LNET_LND_LO &&
			    !lnet_nid_to_wire(&ni->ni_nid, &sid->ses_nid)) {
				sid->ses_stamp = (s64)(os_now_ns() / 1000000ULL);
				return 0;
			}
	return -EADDRNOTAVAIL;
}

/* --- the run ---------------------------------------------------------------------------- */

/* @service of the run to its nodes [@first, @first + @n). */
static int lstcon_trans(struct lnet *ln, struct lstcon *con, u32 first, u32 n, u32 service,
			u32 opc, struct lstcon_slot *slots)
{
	con->c_req.opc = opc;
	return lstcon_rpcs(ln, &con->c_req, service, con->c_nids + first, n, slots);
}

/* Each node's status into @req (the slots of a transaction over all nodes). */
static void lstcon_statuses(struct lnet_ioc_lst *req, const struct lstcon_slot *slots, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		req->lst_nodes[i].ln_status = slots[i].s_status;
}

/* STAT: the counters of every node, the client units still running. */
static int lstcon_stat(struct lnet *ln, struct lstcon *con, struct lnet_ioc_lst *req,
		       struct lstcon_slot *slots)
{
	u32 n = con->c_nfrom + con->c_nto, i;
	int rc;

	rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH, LST_BATCH_QUERY, slots);
	if (rc == -ENETDOWN)
		return rc;
	req->lst_active = 0;
	for (i = 0; i < con->c_nfrom; i++)
		req->lst_active += slots[i].s_status ? 0 : slots[i].s_reply.body.bat_reply.active;
	rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_QUERY_STAT, 0, slots);
	if (rc == -ENETDOWN)
		return rc;
	for (i = 0; i < n; i++)
		if (!slots[i].s_status)
			lstcon_node_stat(&con->c_last[i], &slots[i].s_reply.body.stat_reply);
	memcpy(req->lst_nodes, con->c_last, n * sizeof(con->c_last[0]));
	lstcon_statuses(req, slots, n);
	return 0;
}

/* Stop the clients, read the counters, end the session everywhere. */
static int lstcon_end(struct lnet *ln, struct lstcon *con, struct lnet_ioc_lst *req,
		      struct lstcon_slot *slots)
{
	u64 deadline = os_now_ns() + (u64)con->c_req.timeout_s * 1000000000ULL;
	u32 n = con->c_nfrom + con->c_nto;
	int rc;

	rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH, LST_BATCH_STOP, slots);
	/* as lst stop: until no test runs (aborted RPCs end as their MDs go) */
	while (rc != -ENETDOWN) {
		rc = lstcon_stat(ln, con, req, slots);
		if (rc || !req->lst_active || os_now_ns() >= deadline)
			break;
		os_cond_wait(&ln->ln_dp.dp_cond, &ln->ln_api_mutex, os_now_ns() + 10000000ULL);
	}
	if (rc != -ENETDOWN)
		rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_REMOVE_SESSION, 0, slots);
	return rc == -ENETDOWN ? rc : 0;
}

/* MKSN, TEST to the servers then the clients, RUN: each step on every node. */
static int lstcon_start(struct lnet *ln, struct lstcon *con, struct lnet_ioc_lst *req,
			struct lstcon_slot *slots)
{
	struct lstcon_req *r = &con->c_req;
	u32 n = con->c_nfrom + con->c_nto;
	u32 count = r->loop;
	int rc;

	rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_MAKE_SESSION, 0, slots);
	/* a server's loop: the client units it serves (it reserves buffers) */
	r->client = false;
	r->loop = con->c_nfrom * r->concur;
	if (!rc)
		rc = lstcon_trans(ln, con, con->c_nfrom, con->c_nto, SRPC_SVC_TEST, 0,
				  slots + con->c_nfrom);
	r->client = true;
	r->loop = count ? count : ~0U;
	if (!rc)
		rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_TEST, 0, slots);
	/* the counters before the run: the base of its rates and totals */
	if (!rc)
		rc = lstcon_stat(ln, con, req, slots);
	if (!rc)
		rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH, LST_BATCH_RUN, slots);
	lstcon_statuses(req, slots, n);
	return rc;
}

/* START, STAT or END; a START that failed ends the session where it began. */
static int lnet_lst_step(struct lnet *ln, struct lstcon *con, struct lnet_ioc_lst *req,
			 struct lstcon_slot *slots)
{
	u32 n = con->c_nfrom + con->c_nto;
	int rc;

	if (req->lst_op == LNET_LST_OP_STAT)
		return lstcon_stat(ln, con, req, slots);
	if (req->lst_op == LNET_LST_OP_END)
		return lstcon_end(ln, con, req, slots);
	rc = lstcon_start(ln, con, req, slots);
	if (rc == -EHOSTUNREACH &&
	    lstcon_trans(ln, con, 0, n, SRPC_SVC_REMOVE_SESSION, 0, slots) == -ENETDOWN)
		rc = -ENETDOWN;
	return rc;
}

static int lstcon_new(struct lnet *ln, const struct lnet_ioc_lst *req, struct lstcon **out)
{
	struct lstcon *con = os_zalloc(sizeof(*con));
	struct lstcon_req *r;

	if (!con)
		return -ENOMEM;
	r = &con->c_req;
	if (lstcon_sid(ln, &r->sid)) {
		os_free(con);
		return -EADDRNOTAVAIL;	/* no NI to name the session by */
	}
	r->name = "lnetctl";
	r->force = 1;		/* a run replaces any session on its nodes */
	r->bid = LSTCON_BID;
	r->test = req->lst_test;
	r->size = req->lst_size;
	r->check = req->lst_check;
	r->offset = req->lst_offset;
	r->concur = req->lst_concurrency;
	r->loop = req->lst_count;
	r->timeout_s = req->lst_timeout_s;
	con->c_nfrom = req->lst_nfrom;
	con->c_nto = req->lst_nto;
	memcpy(con->c_nids, req->lst_nids, sizeof(con->c_nids));
	lstcon_dests(r, con->c_dests, con->c_nids + con->c_nfrom, con->c_nto);
	*out = con;
	return 0;
}

/* START, STAT, END of the run. */
static int lnet_lst_run_op(struct lnet *ln, struct lnet_srpc *sp, struct lnet_ioc_lst *req)
{
	struct lstcon_slot *slots;
	struct lstcon *con;
	int rc;

	if (req->lst_op == LNET_LST_OP_START && (sp->sp_console || sp->sp_lst_session))
		return -EBUSY;
	if (req->lst_op != LNET_LST_OP_START && !sp->sp_console)
		return -ESRCH;
	slots = os_zalloc(LNET_LST_MAX_NODES * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	con = sp->sp_console;
	if (req->lst_op == LNET_LST_OP_START) {
		rc = lstcon_new(ln, req, &con);
		if (rc) {
			os_free(slots);
			return rc;
		}
	}
	/* the waits release the lock: no other console command meanwhile */
	sp->sp_console = con;
	sp->sp_console_busy = true;
	rc = lnet_lst_step(ln, con, req, slots);
	os_free(slots);
	sp = lnet_srpc_of(ln);
	if (rc == -ENETDOWN || !sp)
		return -ENETDOWN;	/* lnet_srpc_fini() freed @con */
	sp->sp_console_busy = false;
	if (req->lst_op != LNET_LST_OP_STAT && (rc || req->lst_op == LNET_LST_OP_END)) {
		sp->sp_console = NULL;
		os_free(con);
	}
	return rc;
}

int lnet_lst_ioctl(struct lnet *ln, struct lnet_ioc_lst *req)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	int rc;

	if (!sp)
		return -ENETDOWN;
	rc = lnet_lst_check(req, NULL);
	if (rc)
		return rc;
	/* one console command at a time: the others wait with the lock released */
	if (sp->sp_console_busy)
		return -EBUSY;
	if (req->lst_op <= LNET_LST_OP_END)
		return lnet_lst_run_op(ln, sp, req);
	return lstcon_model_op(ln, req);
}
