// SPDX-License-Identifier: GPL-2.0-only
/*
 * The client side of a test (sfw.h): t_concur units per destination, each
 * sending one request at a time, t_loop times (~0U: until stopped), and
 * judging every reply: a failed RPC, a bad status, a ping answered with
 * another magic or sequence, brw read data without the pattern, each
 * count as an error of the test and of the session.
 *
 * An RPC may end inside its own send (0@lo: the lolnd delivers at once):
 * the unit then goes on sp_pending and the monitor's loop starts its next
 * RPC, so a long run over 0@lo never recurses nor holds the thread.
 */
#include "sfw.h"

static u32 sfw_brw_len(const struct sfw_test *t)
{
	if (srpc_test_param_kind(t->t_service, t->t_feats) == SRPC_PARAM_BULK_V1)
		return t->t_param.bulk_v1.len;
	return t->t_param.bulk.npg * LST_PAGE_SIZE;
}

/*
 * Where a unit's buffer starts in its first page (lst's off=): Lustre
 * takes the offset modulo the page. Only the client's memory moves: the
 * bulk on the wire is the same len bytes, and the server lays them out
 * from offset 0.
 */
static u32 sfw_brw_off(const struct sfw_test *t)
{
	if (srpc_test_param_kind(t->t_service, t->t_feats) == SRPC_PARAM_BULK_V1)
		return t->t_param.bulk_v1.offset % LST_PAGE_SIZE;
	return 0;
}

static u32 sfw_brw_op(const struct sfw_test *t, u32 *flags)
{
	if (srpc_test_param_kind(t->t_service, t->t_feats) == SRPC_PARAM_BULK_V1) {
		*flags = t->t_param.bulk_v1.flags;
		return t->t_param.bulk_v1.opc;
	}
	*flags = t->t_param.bulk.flags;
	return t->t_param.bulk.opc;
}

static void sfw_unit_end(struct sfw_unit *u)
{
	struct sfw_test *t = u->u_test;
	struct lnet_srpc *sp = u->u_sp;

	list_del(&u->u_list);
	if (!list_empty(&u->u_pending))
		list_del(&u->u_pending);
	t->t_nunits--;
	os_free(u->u_pages);
	os_free(u);
	sfw_unit_ended(sp, t->t_batch);
}

/* Count an error of @u's test (@what, @err an errno); stop_onerr stops it. */
static void sfw_unit_error(struct sfw_unit *u, const char *what, int err)
{
	struct sfw_test *t = u->u_test;
	struct lnet_srpc *sp = u->u_sp;

	t->t_errors++;
	if (t->t_service == SRPC_SVC_BRW)
		sp->sp_brw_errors++;
	else
		sp->sp_ping_errors++;
	os_warn_ratelimited("selftest: %s test RPC failed: %s (error %d)\n",
			    srpc_service_name(t->t_service), what, err);
	if (t->t_stop_onerr)
		t->t_stopping = true;
}

static void sfw_unit_next(struct sfw_unit *u);

static void sfw_unit_rpc_done(struct srpc_client_rpc *rpc)
{
	struct sfw_unit *u = rpc->cr_priv;
	const struct srpc_msg *rep = &rpc->cr_reply;
	u32 flags, op = 0;

	u->u_rpc = NULL;
	u->u_done++;
	if (u->u_test->t_service == SRPC_SVC_BRW)
		op = sfw_brw_op(u->u_test, &flags);
	if (rpc->cr_status == -EINTR && u->u_test->t_stopping)
		;	/* aborted by a stop: not the node's fault */
	else if (rpc->cr_status)
		sfw_unit_error(u, "no reply", rpc->cr_status);
	else if (rep->body.brw_reply.status)
		sfw_unit_error(u, "the server's status", -(int)rep->body.brw_reply.status);
	else if (rep->type == SRPC_MSG_PING_REPLY &&
		 (rep->body.ping_reply.magic != LST_PING_TEST_MAGIC ||
		  rep->body.ping_reply.seq != rpc->cr_req.body.ping_reqst.seq))
		sfw_unit_error(u, "bad ping reply", -EBADMSG);
	/* the pattern as the server laid it out: pages from the bulk's start */
	else if (op == LST_BRW_READ &&
		 lst_brw_check(u->u_bulk, 0, rpc->cr_bulk_len, flags))
		sfw_unit_error(u, "bulk data is corrupted", -EBADMSG);
	sfw_unit_next(u);
}

/* Fill @rpc's request for @u's test. */
static void sfw_unit_request(struct sfw_unit *u, struct srpc_client_rpc *rpc)
{
	struct sfw_test *t = u->u_test;
	struct srpc_msg *m = &rpc->cr_req;
	u64 now = os_now_ns();
	u32 flags, op;

	m->ses_feats = t->t_feats;
	if (t->t_service == SRPC_SVC_PING) {
		m->type = SRPC_MSG_PING_REQST;
		m->body.ping_reqst.magic = LST_PING_TEST_MAGIC;
		m->body.ping_reqst.seq = u->u_sp->sp_ping_seq++;
		m->body.ping_reqst.time_sec = now / 1000000000ULL;
		m->body.ping_reqst.time_nsec = now % 1000000000ULL;
		return;
	}
	op = sfw_brw_op(t, &flags);
	m->type = SRPC_MSG_BRW_REQST;
	m->body.brw_reqst.rw = op;
	m->body.brw_reqst.len = sfw_brw_len(t);
	m->body.brw_reqst.flags = flags;
	rpc->cr_bulk = u->u_bulk;
	rpc->cr_bulk_len = sfw_brw_len(t);
	rpc->cr_bulk_sink = op == LST_BRW_READ;
	/* a checked read must bring the pattern: none may be left from the last one */
	if (op == LST_BRW_READ && lst_brw_checks(flags))
		memset(u->u_bulk, 0, rpc->cr_bulk_len);
}

/* Start @u's next RPC; false when the unit is finished (and freed). */
static bool sfw_unit_start(struct sfw_unit *u)
{
	struct sfw_test *t = u->u_test;
	struct lnet_srpc *sp = u->u_sp;
	const struct sfw_dest *d = &t->t_dests[u->u_dest];
	struct srpc_client_rpc *rpc;
	struct lnet_nid nid;

	if (t->t_stopping || sp->sp_stopping || (t->t_loop != ~0U && u->u_done >= t->t_loop)) {
		sfw_unit_end(u);
		return false;
	}
	lnet_nid_from_wire(d->d_nid, &nid);
	rpc = srpc_client_new(sp, &nid, d->d_pid, t->t_service, sp->sp_rpc_timeout_s);
	if (!rpc) {
		sfw_unit_error(u, "no memory", -ENOMEM);
		sfw_unit_end(u);
		return false;
	}
	sfw_unit_request(u, rpc);
	rpc->cr_done = sfw_unit_rpc_done;
	rpc->cr_priv = u;
	u->u_rpc = rpc;
	if (srpc_client_start(rpc)) {
		u->u_rpc = NULL;
		os_free(rpc);
		u->u_done++;
		sfw_unit_error(u, "cannot send", -EHOSTUNREACH);
		sfw_unit_next(u);	/* u_starting: goes on from the monitor */
	}
	return true;
}

static void sfw_unit_next(struct sfw_unit *u)
{
	struct lnet_srpc *sp = u->u_sp;

	if (u->u_starting) {
		/* it ended inside its own send: go on from the monitor */
		if (list_empty(&u->u_pending))
			list_add_tail(&u->u_pending, &sp->sp_pending);
		os_cond_broadcast(&sp->sp_ln->ln_dp.dp_monitor_cond);
		return;
	}
	u->u_starting = true;
	if (!sfw_unit_start(u))
		return;
	u->u_starting = false;
}

/* One RPC more for each unit waiting now; those queued meanwhile wait a turn. */
void sfw_process(struct lnet_srpc *sp)
{
	struct sfw_unit *u;
	u32 n = 0;

	list_for_each_entry(u, &sp->sp_pending, u_pending)
		n++;
	while (n-- && !list_empty(&sp->sp_pending)) {
		u = list_first_entry(&sp->sp_pending, struct sfw_unit, u_pending);
		list_del_init(&u->u_pending);
		sfw_unit_next(u);
	}
}

static struct sfw_unit *sfw_unit_new(struct lnet_srpc *sp, struct sfw_test *t, u32 dest)
{
	struct sfw_unit *u = os_zalloc(sizeof(*u));

	if (!u)
		return NULL;
	INIT_LIST_HEAD(&u->u_pending);
	u->u_test = t;
	u->u_sp = sp;
	u->u_dest = dest;
	if (t->t_service == SRPC_SVC_BRW) {
		u32 flags, op = sfw_brw_op(t, &flags);

		u->u_pages = os_zalloc_pages(sfw_brw_off(t) + sfw_brw_len(t));
		if (!u->u_pages) {
			os_free(u);
			return NULL;
		}
		u->u_bulk = u->u_pages + sfw_brw_off(t);
		/*
		 * A write's pages never change: the pattern goes in once, on
		 * the pages the server sees (from the bulk's start), which
		 * Lustre's client misses with an offset: its CHECK_SIMPLE
		 * marks its own pages, and the server reports EBADMSG.
		 */
		if (op == LST_BRW_WRITE)
			lst_brw_fill(u->u_bulk, 0, sfw_brw_len(t), flags);
	}
	list_add_tail(&u->u_list, &t->t_units);
	t->t_nunits++;
	return u;
}

int sfw_test_run(struct lnet_srpc *sp, struct sfw_test *t)
{
	struct sfw_unit *u, *n;
	u32 d, c;

	t->t_stopping = false;
	for (d = 0; d < t->t_ndest; d++)
		for (c = 0; c < t->t_concur; c++)
			if (!sfw_unit_new(sp, t, d))
				goto err_stop;
	/* every unit starts from the monitor: the RUN reply goes first */
	list_for_each_entry(u, &t->t_units, u_list)
		if (list_empty(&u->u_pending))
			list_add_tail(&u->u_pending, &sp->sp_pending);
	lnet_dp_monitor_ensure(sp->sp_ln);
	os_cond_broadcast(&sp->sp_ln->ln_dp.dp_monitor_cond);
	return 0;
err_stop:
	list_for_each_entry_safe(u, n, &t->t_units, u_list)
		if (!u->u_rpc)
			sfw_unit_end(u);
	return -ENOMEM;
}

/* Stop @t: no new RPC; @abort ends those in flight too. */
void sfw_test_stop(struct sfw_test *t, bool abort)
{
	struct sfw_unit *u, *n;
	bool again = true;

	t->t_stopping = true;
	/* units waiting on sp_pending end now */
	list_for_each_entry_safe(u, n, &t->t_units, u_list)
		if (!u->u_rpc && !u->u_starting)
			sfw_unit_end(u);
	/* an abort may end a unit (and free it) right away: start over */
	while (abort && again) {
		again = false;
		list_for_each_entry(u, &t->t_units, u_list)
			if (u->u_rpc && !u->u_rpc->cr_finished) {
				srpc_client_abort(u->u_rpc, -EINTR);
				again = true;
				break;
			}
	}
}
