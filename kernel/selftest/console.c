// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lnet_selftest console of this node (IOC_LNET_LST, lnet_lst.h): it
 * sends the framework RPCs Lustre's lst sends (MKSN, TEST, BATCH, STAT,
 * RMSN) to the nodes of a run and waits for their answers.
 *
 * A transaction sends one RPC to each of a range of nodes at once and
 * waits (ln_api_mutex released, on dp_cond: every finalize broadcasts it)
 * until each has ended; each RPC has its deadline, so every one ends.
 */
#include "sfw.h"

#define LSTCON_BID	1		/* the run's batch */

/* The run of this node's console (sp->sp_console). */
struct lstcon {
	struct lst_sid c_sid;
	u32 c_test, c_size, c_check, c_concur, c_count, c_timeout_s;
	u32 c_nfrom, c_nto;
	struct lnet_nid c_nids[LNET_LST_MAX_NODES];
	struct lnet_ioc_lst_node c_last[LNET_LST_MAX_NODES];
	u8 c_dests[LNET_LST_MAX_NODES * LST_DEST_LEN];	/* the servers */
};

/* One node's RPC of a transaction. */
struct lstcon_slot {
	bool s_done;
	u32 s_status;			/* 0 or a positive errno */
	struct srpc_msg s_reply;
};

typedef void (*lstcon_fill_t)(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc);

static void lstcon_rpc_done(struct srpc_client_rpc *rpc)
{
	struct lstcon_slot *s = rpc->cr_priv;

	s->s_reply = rpc->cr_reply;
	s->s_status = rpc->cr_status ? (u32)-rpc->cr_status :
		      rpc->cr_reply.body.brw_reply.status;	/* status: first */
	s->s_done = true;
	os_cond_broadcast(&rpc->cr_srpc->sp_ln->ln_dp.dp_cond);
}

/*
 * @fill's RPC to nodes [@first, @first + @n), all at once; 0 when every
 * node answered status 0, -EHOSTUNREACH otherwise, -ENETDOWN when LNet
 * went down meanwhile.
 */
static int lstcon_trans(struct lnet *ln, struct lstcon *con, u32 first, u32 n,
			u32 service, lstcon_fill_t fill, struct lstcon_slot *slots)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	u32 i, left = n;
	int rc = 0;

	for (i = 0; i < n; i++) {
		struct srpc_client_rpc *rpc = srpc_client_new(sp, &con->c_nids[first + i],
							      SRPC_PID, service, con->c_timeout_s);

		slots[i] = (struct lstcon_slot){ .s_status = ENOMEM };
		if (!rpc) {
			slots[i].s_done = true;
			continue;
		}
		fill(con, first + i, rpc);
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

/* --- the requests -------------------------------------------------------------------- */

static void lstcon_fill_mksn(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	rpc->cr_req.type = SRPC_MSG_MKSN_REQST;
	rpc->cr_req.body.mksn_reqst.sid = con->c_sid;
	rpc->cr_req.body.mksn_reqst.force = 1;
	snprintf(rpc->cr_req.body.mksn_reqst.name, LST_NAME_SIZE, "lnetctl");
}

static void lstcon_fill_rmsn(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	rpc->cr_req.type = SRPC_MSG_RMSN_REQST;
	rpc->cr_req.body.rmsn_reqst.sid = con->c_sid;
}

static void lstcon_fill_stat(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	rpc->cr_req.type = SRPC_MSG_STAT_REQST;
	rpc->cr_req.body.stat_reqst.sid = con->c_sid;
}

static void lstcon_fill_batch(struct lstcon *con, u32 opc, struct srpc_client_rpc *rpc)
{
	rpc->cr_req.type = SRPC_MSG_BATCH_REQST;
	rpc->cr_req.body.bat_reqst.sid = con->c_sid;
	rpc->cr_req.body.bat_reqst.bid = LSTCON_BID;
	rpc->cr_req.body.bat_reqst.opc = opc;
	/* STOP: after the RPCs in flight (arg 0), so none counts as an error */
}

static void lstcon_fill_run(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	lstcon_fill_batch(con, LST_BATCH_RUN, rpc);
}

static void lstcon_fill_stop(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	lstcon_fill_batch(con, LST_BATCH_STOP, rpc);
}

static void lstcon_fill_query(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	lstcon_fill_batch(con, LST_BATCH_QUERY, rpc);
}

/* TEST: to a server (node >= c_nfrom) or a client with the servers' list. */
static void lstcon_fill_test(struct lstcon *con, u32 node, struct srpc_client_rpc *rpc)
{
	struct srpc_test_reqst *t = &rpc->cr_req.body.tes_reqst;
	bool client = node < con->c_nfrom;
	u32 i;

	rpc->cr_req.type = SRPC_MSG_TEST_REQST;
	t->sid = con->c_sid;
	t->bid = LSTCON_BID;
	t->service = con->c_test == LNET_LST_TEST_ping ? SRPC_SVC_PING : SRPC_SVC_BRW;
	t->concur = con->c_concur;
	t->is_client = client;
	/* a server's loop: the client units it serves (it reserves buffers) */
	t->loop = client ? (con->c_count ? con->c_count : ~0U) : con->c_nfrom * con->c_concur;
	t->ndest = client ? con->c_nto : 0;
	if (t->service == SRPC_SVC_BRW) {
		t->param.bulk_v1.opc = con->c_test == LNET_LST_TEST_read ? LST_BRW_READ :
				       LST_BRW_WRITE;
		t->param.bulk_v1.flags = con->c_check;	/* the same values as LST_BRW_CHECK_* */
		t->param.bulk_v1.len = con->c_size;
	}
	if (!client)
		return;
	/* the destination list: the node GETs it from here (bulk) */
	for (i = 0; i < con->c_nto; i++) {
		u64 nid4 = 0;

		lnet_nid_to_wire(&con->c_nids[con->c_nfrom + i], &nid4);
		srpc_dest_pack(con->c_dests, i, nid4, SRPC_PID);
	}
	rpc->cr_bulk = con->c_dests;
	rpc->cr_bulk_len = con->c_nto * LST_DEST_LEN;
}

/* --- the steps ------------------------------------------------------------------------ */

static void lstcon_node_stat(struct lnet_ioc_lst_node *n, const struct srpc_stat_reply *r)
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

	rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH, lstcon_fill_query, slots);
	if (rc == -ENETDOWN)
		return rc;
	req->lst_active = 0;
	for (i = 0; i < con->c_nfrom; i++)
		req->lst_active += slots[i].s_status ? 0 : slots[i].s_reply.body.bat_reply.active;
	rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_QUERY_STAT, lstcon_fill_stat, slots);
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
	u32 n = con->c_nfrom + con->c_nto;
	int rc;

	u64 deadline = os_now_ns() + (u64)con->c_timeout_s * 1000000000ULL;

	rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH, lstcon_fill_stop, slots);
	/* as lst stop: until no test runs (aborted RPCs end as their MDs go) */
	while (rc != -ENETDOWN) {
		rc = lstcon_stat(ln, con, req, slots);
		if (rc || !req->lst_active || os_now_ns() >= deadline)
			break;
		os_cond_wait(&ln->ln_dp.dp_cond, &ln->ln_api_mutex, os_now_ns() + 10000000ULL);
	}
	if (rc != -ENETDOWN)
		rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_REMOVE_SESSION, lstcon_fill_rmsn, slots);
	return rc == -ENETDOWN ? rc : 0;
}

/* The session's id: our first nid4 NI that is not 0@lo, and the clock. */
static int lstcon_sid(struct lnet *ln, struct lst_sid *sid)
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

/* MKSN, TEST to the servers then the clients, RUN: each step on every node. */
static int lstcon_start(struct lnet *ln, struct lstcon *con, struct lnet_ioc_lst *req,
			struct lstcon_slot *slots)
{
	u32 n = con->c_nfrom + con->c_nto;
	int rc;

	rc = lstcon_trans(ln, con, 0, n, SRPC_SVC_MAKE_SESSION, lstcon_fill_mksn, slots);
	if (!rc)
		rc = lstcon_trans(ln, con, con->c_nfrom, con->c_nto, SRPC_SVC_TEST,
				  lstcon_fill_test, slots + con->c_nfrom);
	if (!rc)
		rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_TEST,
				  lstcon_fill_test, slots);
	/* the counters before the run: the base of its rates and totals */
	if (!rc)
		rc = lstcon_stat(ln, con, req, slots);
	if (!rc)
		rc = lstcon_trans(ln, con, 0, con->c_nfrom, SRPC_SVC_BATCH,
				  lstcon_fill_run, slots);
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
	    lstcon_trans(ln, con, 0, n, SRPC_SVC_REMOVE_SESSION, lstcon_fill_rmsn,
			 slots) == -ENETDOWN)
		rc = -ENETDOWN;
	return rc;
}

/* --- the command ------------------------------------------------------------------------- */

static int lstcon_check(const struct lnet_ioc_lst *req)
{
	u32 n = req->lst_nfrom + req->lst_nto, i, j;
	bool brw = req->lst_test == LNET_LST_TEST_read || req->lst_test == LNET_LST_TEST_write;

	if ((!brw && req->lst_test != LNET_LST_TEST_ping) ||
	    (brw && (req->lst_size < LNET_LST_MIN_SIZE || req->lst_size > LNET_LST_MAX_SIZE ||
		     req->lst_size % 8 || req->lst_check < LNET_LST_CHECK_none ||
		     req->lst_check > LNET_LST_CHECK_full)) ||
	    (!brw && (req->lst_size || req->lst_check)) ||
	    !req->lst_concurrency || req->lst_concurrency > LNET_LST_MAX_CONCURRENCY ||
	    req->lst_count > LNET_LST_MAX_COUNT ||
	    !req->lst_timeout_s || req->lst_timeout_s > LNET_LST_MAX_TIMEOUT_S ||
	    !req->lst_nfrom || !req->lst_nto || n > LNET_LST_MAX_NODES)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!lnet_nid_is_nid4(&req->lst_nids[i]) || lnet_nid_is_zero(&req->lst_nids[i]))
			return -EAFNOSUPPORT;
		/* twice in one list: no; a client that also serves: yes */
		for (j = i < req->lst_nfrom ? 0 : req->lst_nfrom; j < i; j++)
			if (lnet_nid_equal(&req->lst_nids[i], &req->lst_nids[j]))
				return -EINVAL;
	}
	return 0;
}

static int lstcon_new(struct lnet *ln, const struct lnet_ioc_lst *req, struct lstcon **out)
{
	struct lstcon *con = os_zalloc(sizeof(*con));

	if (!con)
		return -ENOMEM;
	if (lstcon_sid(ln, &con->c_sid)) {
		os_free(con);
		return -EADDRNOTAVAIL;	/* no NI to name the session by */
	}
	con->c_test = req->lst_test;
	con->c_size = req->lst_size;
	con->c_check = req->lst_check;
	con->c_concur = req->lst_concurrency;
	con->c_count = req->lst_count;
	con->c_timeout_s = req->lst_timeout_s;
	con->c_nfrom = req->lst_nfrom;
	con->c_nto = req->lst_nto;
	memcpy(con->c_nids, req->lst_nids, sizeof(con->c_nids));
	*out = con;
	return 0;
}

int lnet_lst_ioctl(struct lnet *ln, struct lnet_ioc_lst *req)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	struct lstcon_slot *slots;
	struct lstcon *con;
	int rc;

	if (!sp)
		return -ENETDOWN;
	if (req->lst_op == LNET_LST_OP_START) {
		rc = lstcon_check(req);
		if (rc)
			return rc;
		if (sp->sp_console)
			return -EBUSY;
	} else if (req->lst_op != LNET_LST_OP_STAT && req->lst_op != LNET_LST_OP_END) {
		return -EINVAL;
	} else if (!sp->sp_console || sp->sp_console_busy) {
		return sp->sp_console ? -EBUSY : -ESRCH;
	}
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
