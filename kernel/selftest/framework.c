// SPDX-License-Identifier: GPL-2.0-only
/*
 * The framework services of a test node (sfw.h): make, remove and debug
 * the session, add tests, control batches, report counters. Statuses are
 * positive errnos on the wire, as a Lustre console expects them.
 *
 * A session that ends (removed, replaced by force, expired) stops its
 * tests at once; it is freed when its last unit has ended, since a unit's
 * RPC in flight still points at its test.
 */
#include "sfw.h"

static const struct lst_sid sfw_sid_any = { LST_NID_ANY, -1 };

static struct sfw_session *sfw_zombie_of(struct sfw_batch *b);

/* Units still running in @s (zombie sessions wait for 0). */
static u32 sfw_session_units(const struct sfw_session *s)
{
	const struct sfw_batch *b;
	const struct sfw_test *t;
	u32 n = 0;

	list_for_each_entry(b, &s->s_batches, b_list)
		list_for_each_entry(t, &b->b_tests, t_list)
			n += t->t_nunits;
	return n;
}

static void sfw_session_free(struct sfw_session *s)
{
	struct sfw_batch *b, *bn;
	struct sfw_test *t, *tn;

	list_for_each_entry_safe(b, bn, &s->s_batches, b_list) {
		list_for_each_entry_safe(t, tn, &b->b_tests, t_list) {
			list_del(&t->t_list);
			os_free(t->t_dests);
			os_free(t);
		}
		list_del(&b->b_list);
		os_free(b);
	}
	os_free(s);
}

/* Stop every test of @s; free it now or when its last unit ends. */
static void sfw_session_end(struct lnet_srpc *sp, struct sfw_session *s)
{
	struct sfw_batch *b;
	struct sfw_test *t;

	if (sp->sp_session == s) {
		sp->sp_session = NULL;
		srpc_bulk_cache_drain(sp);
	}
	/* units ending below must not free @s while this walks it */
	s->s_refs = 1;
	list_for_each_entry(b, &s->s_batches, b_list)
		list_for_each_entry(t, &b->b_tests, t_list)
			sfw_test_stop(t, true);
	s->s_refs = 0;	/* a zombie: no longer the node's session */
	if (!sfw_session_units(s))
		sfw_session_free(s);
}

/* A unit of @b ended (test_client.c): a zombie session may go now. */
void sfw_unit_ended(struct lnet_srpc *sp, struct sfw_batch *b)
{
	struct sfw_session *s = sfw_zombie_of(b);

	if (s && !sfw_session_units(s))
		sfw_session_free(s);
}

static struct sfw_session *sfw_zombie_of(struct sfw_batch *b)
{
	struct sfw_session *s = b->b_session;

	return s->s_refs ? NULL : s;
}

static bool sfw_sid_equal(const struct lst_sid *a, const struct lst_sid *b)
{
	return a->ses_nid == b->ses_nid && a->ses_stamp == b->ses_stamp;
}

/* The node's session if @sid is its id, else NULL. */
struct sfw_session *sfw_session_find(struct lnet_srpc *sp, const struct lst_sid *sid)
{
	struct sfw_session *s = sp->sp_session;

	return s && sfw_sid_equal(&s->s_sid, sid) ? s : NULL;
}

/* --- the services ------------------------------------------------------------------ */

static u32 sfw_make_session(struct lnet_srpc *sp, const struct srpc_msg *req,
			    struct srpc_mksn_reply *rep)
{
	const struct srpc_mksn_reqst *r = &req->body.mksn_reqst;
	struct sfw_session *s = sp->sp_session;

	if (r->sid.ses_nid == LST_NID_ANY)
		return EINVAL;
	if (req->ses_feats & ~LST_FEATS_MASK)
		return EPROTO;
	if (s && sfw_sid_equal(&s->s_sid, &r->sid)) {
		s->s_refs++;
		return 0;
	}
	if (s && !r->force) {
		memcpy(rep->name, s->s_name, LST_NAME_SIZE);
		return EBUSY;
	}
	if (s) {
		os_warn("selftest: session %s replaced by force\n", s->s_name);
		sfw_session_end(sp, s);
	}
	s = os_zalloc(sizeof(*s));
	if (!s)
		return ENOMEM;
	s->s_sid = r->sid;
	memcpy(s->s_name, r->name, LST_NAME_SIZE);
	s->s_feats = req->ses_feats;
	s->s_refs = 1;
	s->s_start_ns = os_now_ns();
	s->s_last_ns = s->s_start_ns;
	INIT_LIST_HEAD(&s->s_batches);
	sp->sp_session = s;
	sp->sp_brw_errors = sp->sp_ping_errors = 0;
	return 0;
}

static u32 sfw_remove_session(struct lnet_srpc *sp, const struct lst_sid *sid)
{
	struct sfw_session *s = sp->sp_session;

	if (sid->ses_nid == LST_NID_ANY)
		return EINVAL;
	if (!s)
		return ESRCH;
	if (!sfw_sid_equal(&s->s_sid, sid))
		return EBUSY;
	if (--s->s_refs == 0)
		sfw_session_end(sp, s);
	return 0;
}

static void sfw_stat(struct lnet_srpc *sp, struct srpc_stat_reply *r)
{
	const struct lnet_dp *dp = &sp->sp_ln->ln_dp;
	struct sfw_session *s = sp->sp_session;
	struct lnet_counters_common *c = &r->lnet;
	const struct sfw_batch *b;

	r->rpc = sp->sp_counters;
	r->fw.running_ms = (u32)((os_now_ns() - s->s_start_ns) / 1000000ULL);
	list_for_each_entry(b, &s->s_batches, b_list)
		r->fw.active_batches += sfw_batch_active(b);
	r->fw.brw_errors = sp->sp_brw_errors;
	r->fw.ping_errors = sp->sp_ping_errors;
	c->msgs_alloc = (u32)dp->dp_msgs_alloc;
	c->msgs_max = (u32)dp->dp_msgs_max;
	c->errors = (u32)dp->dp_errors;
	c->send_count = (u32)dp->dp_count[LNET_STATS_SENT];
	c->recv_count = (u32)dp->dp_count[LNET_STATS_RECV];
	c->drop_count = (u32)dp->dp_count[LNET_STATS_DROP];
	c->route_count = (u32)dp->dp_route_count;
	c->send_length = dp->dp_length[LNET_STATS_SENT];
	c->recv_length = dp->dp_length[LNET_STATS_RECV];
	c->drop_length = dp->dp_length[LNET_STATS_DROP];
	c->route_length = dp->dp_route_length;
}

static struct sfw_batch *sfw_batch_find(struct sfw_session *s, u64 bid)
{
	struct sfw_batch *b;

	list_for_each_entry(b, &s->s_batches, b_list)
		if (b->b_bid == bid)
			return b;
	return NULL;
}

/* QUERY: testidx 0 counts the active tests, n the units of the n-th test. */
static u32 sfw_batch_query(const struct sfw_batch *b, u32 testidx, u32 *active)
{
	const struct sfw_test *t;
	u32 i = 0;

	*active = 0;
	list_for_each_entry(t, &b->b_tests, t_list) {
		i++;
		if (!testidx)
			*active += t->t_nunits != 0;
		else if (i == testidx)
			*active = t->t_nunits;
	}
	return testidx > i ? ENOENT : 0;
}

static u32 sfw_control_batch(struct lnet_srpc *sp, const struct srpc_batch_reqst *r,
			     struct srpc_batch_reply *rep)
{
	struct sfw_session *s = sfw_session_find(sp, &r->sid);
	struct sfw_batch *b = s ? sfw_batch_find(s, r->bid) : NULL;
	struct sfw_test *t;
	u32 rc = 0;

	if (!s)
		return ESRCH;
	if (!b)
		return ENOENT;
	switch (r->opc) {
	case LST_BATCH_RUN:
		if (sfw_batch_active(b))
			return EALREADY;
		list_for_each_entry(t, &b->b_tests, t_list)
			if (t->t_is_client && !rc)
				rc = (u32)-sfw_test_run(sp, t);
		return rc;
	case LST_BATCH_STOP:
		list_for_each_entry(t, &b->b_tests, t_list)
			sfw_test_stop(t, r->arg != 0);
		return 0;
	case LST_BATCH_QUERY:
		return sfw_batch_query(b, r->testidx, &rep->active);
	}
	return EINVAL;
}

/* Check a session request: 0, or the status to reply with. */
static u32 sfw_check_session(struct lnet_srpc *sp, const struct lst_sid *sid, bool any_einval)
{
	if (sid->ses_nid == LST_NID_ANY && any_einval)
		return EINVAL;
	return sfw_session_find(sp, sid) ? 0 : ESRCH;
}

void sfw_reply_fill(struct lnet_srpc *sp, struct srpc_msg *rep)
{
	struct sfw_session *s = sp->sp_session;

	/* the session lives on: its timer starts again */
	if (s)
		s->s_last_ns = os_now_ns();
	rep->body.rmsn_reply.sid = s ? s->s_sid : sfw_sid_any;
	rep->ses_feats = s ? s->s_feats : LST_FEATS_MASK;
	lnet_dp_monitor_ensure(sp->sp_ln);	/* its tick ends the session */
}

/* Framework requests other than TEST; @st is the reply's status. */
static void sfw_serve(struct lnet_srpc *sp, struct srpc_server_rpc *rpc, u32 *st)
{
	const struct srpc_msg *req = &rpc->sr_req;
	struct srpc_msg *rep = &rpc->sr_reply;
	struct sfw_session *s = sp->sp_session;

	switch (req->type) {
	case SRPC_MSG_MKSN_REQST:
		*st = sfw_make_session(sp, req, &rep->body.mksn_reply);
		rep->body.mksn_reply.timeout = sp->sp_session_timeout_s;
		break;
	case SRPC_MSG_RMSN_REQST:
		*st = sfw_remove_session(sp, &req->body.rmsn_reqst.sid);
		break;
	case SRPC_MSG_DEBUG_REQST:
		*st = s ? 0 : ESRCH;
		if (!s)
			break;
		rep->body.dbg_reply.timeout = sp->sp_session_timeout_s;
		memcpy(rep->body.dbg_reply.name, s->s_name, LST_NAME_SIZE);
		break;
	case SRPC_MSG_STAT_REQST:
		*st = sfw_check_session(sp, &req->body.stat_reqst.sid, true);
		if (!*st)
			sfw_stat(sp, &rep->body.stat_reply);
		break;
	case SRPC_MSG_BATCH_REQST:
		*st = sfw_control_batch(sp, &req->body.bat_reqst, &rep->body.bat_reply);
		break;
	}
}

int sfw_handle_framework(struct srpc_server_rpc *rpc)
{
	struct lnet_srpc *sp = rpc->sr_srpc;
	const struct srpc_msg *req = &rpc->sr_req;
	struct srpc_msg *rep = &rpc->sr_reply;
	u32 *st = &rep->body.rmsn_reply.status;	/* every reply: status, sid */
	int rc = 0;

	if (sp->sp_session && req->type != SRPC_MSG_MKSN_REQST &&
	    req->type != SRPC_MSG_DEBUG_REQST && req->ses_feats != sp->sp_session->s_feats)
		*st = EPROTO;
	else if (req->type == SRPC_MSG_TEST_REQST)
		rc = sfw_add_test(sp, rpc);	/* may answer after its bulk */
	else
		sfw_serve(sp, rpc, st);
	if (rc == SRPC_HANDLE_BULK)
		return rc;	/* @rpc may be gone already */
	sfw_reply_fill(sp, rep);
	return rc;
}

/* --- timers, shutdown ----------------------------------------------------------------- */

void sfw_tick(struct lnet_srpc *sp, u64 now)
{
	struct sfw_session *s = sp->sp_session;

	if (!s || !sp->sp_session_timeout_s ||
	    now - s->s_last_ns < (u64)sp->sp_session_timeout_s * 1000000000ULL)
		return;
	os_warn("selftest: session %s expired\n", s->s_name);
	sfw_session_end(sp, s);
}

void sfw_shutdown(struct lnet_srpc *sp)
{
	if (sp->sp_session)
		sfw_session_end(sp, sp->sp_session);
}
