// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnet_selftest (kernel/selftest/) between three LNet instances joined by
 * memlnd (node<n> = 10.21.0.<n+1>@tcp). Node 0 plays Lustre's console:
 * the test sends the framework RPCs lst sends (MKSN, TEST with its
 * destination list, BATCH RUN/QUERY/STOP, STAT, RMSN) through the SRPC
 * client of node 0, so nodes 0..2 serve them exactly as they would serve
 * lst. Checked: every session rule (EBUSY, force, ESRCH, EINVAL, EPROTO),
 * ping and brw read/write tests with each check mode and exact counters,
 * a corrupted byte found by the brw server (write) and by the client
 * (read), a node that stops answering mid-run, the session timeout, bad
 * TEST arguments. Teardown checks that every object and send is gone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd.h"
#include "../../kernel/selftest/srpc.h"
#include "../../kernel/selftest/sfw.h"
#include "../../kernel/core/validate.h"

#define NNODES	3
#define STAMP	4242

struct nodes {
	struct memlnd_node *n[NNODES];
};

static struct nodes *N;

static const char *const nid_str[NNODES] = { "10.21.0.1@tcp", "10.21.0.2@tcp",
					     "10.21.0.3@tcp" };

static u64 nid4(int i)
{
	struct lnet_nid nid = memlnd_nid(nid_str[i]);
	u64 w;

	assert_int_equal(lnet_nid_to_wire(&nid, &w), 0);
	return w;
}

static const struct lst_sid *sid_main(void)
{
	static struct lst_sid sid;

	sid.ses_nid = nid4(0);
	sid.ses_stamp = STAMP;
	return &sid;
}

static int setup(void **state)
{
	N = calloc(1, sizeof(*N));
	for (int i = 0; i < NNODES; i++) {
		N->n[i] = memlnd_node_new(i);
		assert_int_equal(memlnd_ni_add(N->n[i], "tcp", 0), 0);
	}
	return 0;
}

static int teardown(void **state)
{
	memlnd_rules_clear();
	memlnd_corrupt_set(0, 0);
	for (int i = 0; i < NNODES; i++)
		assert_int_equal(memlnd_node_free(N->n[i]), 0);
	free(N);
	return 0;
}

/* --- the console's calls ---------------------------------------------------------- */

struct call {
	bool done;
	int status;
	struct srpc_msg reply;
};

static void call_done(struct srpc_client_rpc *rpc)
{
	struct call *c = rpc->cr_priv;

	c->status = rpc->cr_status;
	c->reply = rpc->cr_reply;
	c->done = true;
}

struct wait_arg {
	struct memlnd_node *n;
	struct call *c;
};

static bool call_finished(void *arg)
{
	struct wait_arg *w = arg;
	bool done;

	os_mutex_lock(&w->n->ln.ln_api_mutex);
	done = w->c->done;
	os_mutex_unlock(&w->n->ln.ln_api_mutex);
	return done;
}

/*
 * Node 0 sends @req (type, body) to node @to's @service with @bulk as a
 * GET source (a destination list); returns the RPC status, *@reply.
 */
static int call(int to, u32 service, const struct srpc_msg *req, u8 *bulk, u32 bulk_len,
		struct srpc_msg *reply)
{
	struct memlnd_node *n = N->n[0];
	struct lnet_nid peer = memlnd_nid(nid_str[to]);
	struct call c = { 0 };
	struct wait_arg w = { n, &c };
	struct srpc_client_rpc *rpc;
	int rc;

	os_mutex_lock(&n->ln.ln_api_mutex);
	rpc = srpc_client_new(lnet_srpc_of(&n->ln), &peer, LNET_PID_LUSTRE, service, 5);
	assert_non_null(rpc);
	rpc->cr_req.type = req->type;
	rpc->cr_req.ses_feats = req->ses_feats;
	rpc->cr_req.body = req->body;
	rpc->cr_bulk = bulk;
	rpc->cr_bulk_len = bulk_len;
	rpc->cr_done = call_done;
	rpc->cr_priv = &c;
	rc = srpc_client_start(rpc);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	if (rc) {
		os_free(rpc);
		return rc;
	}
	assert_true(memlnd_wait(call_finished, &w, 8000));
	*reply = c.reply;
	return c.status;
}

static struct srpc_msg msg_of(u32 type)
{
	struct srpc_msg m = { .type = type, .version = 1, .ses_feats = LST_FEATS_MASK };

	return m;
}

/* MKSN to @to: the reply's status (the RPC itself must succeed). */
static u32 mksn(int to, const struct lst_sid *sid, bool force, const char *name,
		struct srpc_msg *rep)
{
	struct srpc_msg m = msg_of(SRPC_MSG_MKSN_REQST);

	m.body.mksn_reqst.sid = *sid;
	m.body.mksn_reqst.force = force;
	strcpy(m.body.mksn_reqst.name, name);
	assert_int_equal(call(to, SRPC_SVC_MAKE_SESSION, &m, NULL, 0, rep), 0);
	assert_int_equal(rep->type, SRPC_MSG_MKSN_REPLY);
	return rep->body.mksn_reply.status;
}

static u32 rmsn(int to, const struct lst_sid *sid, struct srpc_msg *rep)
{
	struct srpc_msg m = msg_of(SRPC_MSG_RMSN_REQST);

	m.body.rmsn_reqst.sid = *sid;
	assert_int_equal(call(to, SRPC_SVC_REMOVE_SESSION, &m, NULL, 0, rep), 0);
	return rep->body.rmsn_reply.status;
}

static u32 stat(int to, struct srpc_stat_reply *out)
{
	struct srpc_msg m = msg_of(SRPC_MSG_STAT_REQST), rep;

	m.body.stat_reqst.sid = *sid_main();
	assert_int_equal(call(to, SRPC_SVC_QUERY_STAT, &m, NULL, 0, &rep), 0);
	*out = rep.body.stat_reply;
	return out->status;
}

static u32 batch(int to, u32 opc, u32 testidx, u32 *active)
{
	struct srpc_msg m = msg_of(SRPC_MSG_BATCH_REQST), rep;

	m.body.bat_reqst.sid = *sid_main();
	m.body.bat_reqst.bid = 7;
	m.body.bat_reqst.opc = opc;
	m.body.bat_reqst.testidx = testidx;
	assert_int_equal(call(to, SRPC_SVC_BATCH, &m, NULL, 0, &rep), 0);
	if (active)
		*active = rep.body.bat_reply.active;
	return rep.body.bat_reply.status;
}

/* TEST to @to: a server (@ndest 0) or a client of the nodes @dest[]. */
static u32 add_test(int to, u32 service, bool client, u32 loop, u32 concur,
		    const int *dest, u32 ndest, const union srpc_test_param *param)
{
	struct srpc_msg m = msg_of(SRPC_MSG_TEST_REQST), rep;
	struct srpc_test_reqst *t = &m.body.tes_reqst;
	u8 list[NNODES * LST_DEST_LEN];

	t->sid = *sid_main();
	t->bid = 7;
	t->service = service;
	t->loop = loop;
	t->concur = concur;
	t->is_client = client;
	t->stop_onerr = 0;
	t->ndest = ndest;
	if (param)
		t->param = *param;
	for (u32 i = 0; i < ndest; i++)
		srpc_dest_pack(list, i, nid4(dest[i]), LNET_PID_LUSTRE);
	assert_int_equal(call(to, SRPC_SVC_TEST, &m, ndest ? list : NULL,
			      ndest * LST_DEST_LEN, &rep), 0);
	return rep.body.tes_reply.status;
}

static void session_all(void)
{
	struct srpc_msg rep;

	for (int i = 0; i < NNODES; i++)
		assert_int_equal(mksn(i, sid_main(), false, "s", &rep), 0);
}

/* Poll QUERY on node @to until batch 7 is idle. */
static void wait_idle(int to)
{
	u32 active = 1;

	for (int k = 0; k < 1000 && active; k++) {
		assert_int_equal(batch(to, LST_BATCH_QUERY, 0, &active), 0);
		if (active)
			memlnd_sleep_ms(5);
	}
	assert_int_equal(active, 0);
}

static union srpc_test_param brw(u16 opc, u16 flags, u32 len)
{
	union srpc_test_param p = { .bulk_v1 = { opc, flags, len, 0 } };

	return p;
}

/* --- tests -------------------------------------------------------------------------- */

static void test_session_rules(void **state)
{
	struct lst_sid other = { nid4(2), 1 }, any = { LST_NID_ANY, -1 };
	struct srpc_stat_reply st;
	struct srpc_msg rep;

	assert_int_equal(stat(1, &st), ESRCH);
	assert_int_equal(mksn(1, &any, false, "x", &rep), EINVAL);
	assert_int_equal(mksn(1, sid_main(), false, "first", &rep), 0);
	assert_int_equal(rep.body.mksn_reply.timeout, SFW_SESSION_TIMEOUT_S);
	assert_int_equal(rep.body.mksn_reply.sid.ses_stamp, STAMP);
	assert_int_equal(rep.ses_feats, LST_FEATS_MASK);
	/* another console: busy, told the session's name; its own sid stays */
	assert_int_equal(mksn(1, &other, false, "second", &rep), EBUSY);
	assert_string_equal(rep.body.mksn_reply.name, "first");
	assert_int_equal(rep.body.mksn_reply.sid.ses_stamp, STAMP);
	assert_int_equal(rmsn(1, &other, &rep), EBUSY);
	/* the same sid again takes a reference: two removes end it */
	assert_int_equal(mksn(1, sid_main(), false, "first", &rep), 0);
	assert_int_equal(rmsn(1, sid_main(), &rep), 0);
	assert_int_equal(rep.body.rmsn_reply.sid.ses_stamp, STAMP);
	assert_int_equal(rmsn(1, sid_main(), &rep), 0);
	assert_int_equal(rep.body.rmsn_reply.sid.ses_nid, LST_NID_ANY);
	assert_int_equal(rep.body.rmsn_reply.sid.ses_stamp, -1);
	assert_int_equal(rmsn(1, sid_main(), &rep), ESRCH);
	/* force replaces */
	assert_int_equal(mksn(1, &other, false, "second", &rep), 0);
	assert_int_equal(mksn(1, sid_main(), true, "third", &rep), 0);
	assert_int_equal(stat(1, &st), 0);
	assert_int_equal(st.sid.ses_stamp, STAMP);
	/* features other than the session's: EPROTO */
	{
		struct srpc_msg m = msg_of(SRPC_MSG_STAT_REQST);

		m.ses_feats = 0;
		m.body.stat_reqst.sid = *sid_main();
		assert_int_equal(call(1, SRPC_SVC_QUERY_STAT, &m, NULL, 0, &rep), 0);
		assert_int_equal(rep.body.stat_reply.status, EPROTO);
	}
	assert_int_equal(rmsn(1, sid_main(), &rep), 0);
}

static void test_ping(void **state)
{
	struct srpc_stat_reply s0, s1, s2;
	int to[2] = { 1, 2 };
	u32 active;

	session_all();
	assert_int_equal(add_test(1, SRPC_SVC_PING, false, 1, 1, NULL, 0, NULL), 0);
	assert_int_equal(add_test(2, SRPC_SVC_PING, false, 1, 1, NULL, 0, NULL), 0);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 10, 2, to, 2, NULL), 0);
	assert_int_equal(stat(1, &s1), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), 0);
	wait_idle(0);
	assert_int_equal(batch(0, LST_BATCH_QUERY, 1, &active), 0);
	assert_int_equal(active, 0);
	assert_int_equal(stat(0, &s0), 0);
	assert_int_equal(s0.fw.ping_errors, 0);
	assert_int_equal(s0.fw.active_batches, 0);
	/* node 1: MKSN, TEST, STAT, 20 pings, this STAT */
	assert_int_equal(stat(1, &s2), 0);
	assert_int_equal(s2.rpc.rpcs_rcvd - s1.rpc.rpcs_rcvd, 20 + 1);
	assert_int_equal(stat(2, &s2), 0);
	assert_int_equal(s2.rpc.rpcs_rcvd, 1 + 1 + 20 + 1);
	assert_int_equal(s2.rpc.rpcs_dropped, 0);
	assert_true(s2.fw.running_ms < 10000);
	assert_true(s2.lnet.recv_count >= 23);
}

/* brw @p from node 0 to node 1, @loop x @concur. */
static void run_brw_param(union srpc_test_param p, u32 loop, u32 concur,
			  struct srpc_stat_reply *s0, struct srpc_stat_reply *s1)
{
	int to = 1;

	session_all();
	assert_int_equal(add_test(1, SRPC_SVC_BRW, false, 1, 1, NULL, 0, NULL), 0);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, loop, concur, &to, 1, &p), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), 0);
	wait_idle(0);
	assert_int_equal(stat(0, s0), 0);
	assert_int_equal(stat(1, s1), 0);
}

/* brw @op of @len with @check from node 0 to node 1, @loop x @concur. */
static void run_brw(u16 op, u16 check, u32 len, u32 loop, u32 concur,
		    struct srpc_stat_reply *s0, struct srpc_stat_reply *s1)
{
	run_brw_param(brw(op, check, len), loop, concur, s0, s1);
}

static void test_brw_write_full(void **state)
{
	struct srpc_stat_reply s0, s1;

	run_brw(LST_BRW_WRITE, LST_BRW_CHECK_FULL, LST_BRW_MAX_LEN, 4, 2, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 0);
	assert_int_equal(s1.rpc.bulk_get, 8ULL * LST_BRW_MAX_LEN);
	assert_int_equal(s1.rpc.bulk_put, 0);
	assert_int_equal(s1.rpc.rpcs_dropped, 0);
}

static void test_brw_read_simple(void **state)
{
	struct srpc_stat_reply s0, s1;

	run_brw(LST_BRW_READ, LST_BRW_CHECK_SIMPLE, 65536, 5, 3, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 0);
	assert_int_equal(s1.rpc.bulk_put, 15ULL * 65536);
	assert_int_equal(s1.rpc.bulk_get, 0);
}

static void test_brw_check_modes(void **state)
{
	static const u16 checks[] = { LST_BRW_CHECK_NONE, LST_BRW_CHECK_SIMPLE,
				      LST_BRW_CHECK_FULL, LST_BRW_CHECK_DISCARD };
	struct srpc_stat_reply s0, s1;
	struct srpc_msg rep;

	for (u32 i = 0; i < 4; i++)
		for (u16 op = LST_BRW_READ; op <= LST_BRW_WRITE; op++) {
			run_brw(op, checks[i], 4096 + 8 * i, 2, 1, &s0, &s1);
			assert_int_equal(s0.fw.brw_errors, 0);
			for (int n = 0; n < NNODES; n++)
				assert_int_equal(rmsn(n, sid_main(), &rep), 0);
		}
}

/*
 * lst's off=: the client's buffer starts @offset into its first page (an
 * offset past the page counts modulo the page, as in Lustre). SIMPLE marks
 * the first and last word of each page of the bulk as the server lays it
 * out, from the bulk's start: marking the client's own pages (Lustre's
 * way) would leave the server's words unmarked (a write's EBADMSG) and
 * look where the server wrote nothing (a read's corruption).
 */
static void test_brw_offset(void **state)
{
	static const u32 offsets[] = { 8, 4088, LST_PAGE_SIZE + 16 };
	static const u16 checks[] = { LST_BRW_CHECK_SIMPLE, LST_BRW_CHECK_FULL };
	struct srpc_stat_reply s0, s1;
	struct srpc_msg rep;
	u8 *pages = os_zalloc_pages(10);

	assert_non_null(pages);
	assert_int_equal((uintptr_t)pages % 4096, 0);
	os_free(pages);
	for (u32 i = 0; i < 3; i++)
		for (u32 c = 0; c < 2; c++)
			for (u16 op = LST_BRW_READ; op <= LST_BRW_WRITE; op++) {
				union srpc_test_param p = brw(op, checks[c], 3 * LST_PAGE_SIZE);

				p.bulk_v1.offset = offsets[i];
				run_brw_param(p, 3, 2, &s0, &s1);
				assert_int_equal(s0.fw.brw_errors, 0);
				assert_int_equal(s1.rpc.rpcs_dropped, 0);
				for (int n = 0; n < NNODES; n++)
					assert_int_equal(rmsn(n, sid_main(), &rep), 0);
			}
	/* the largest bulk at the largest offset: 256 pages */
	{
		union srpc_test_param p = brw(LST_BRW_WRITE, LST_BRW_CHECK_SIMPLE,
					      LST_BRW_MAX_LEN - 4088);

		p.bulk_v1.offset = 4088;
		run_brw_param(p, 2, 1, &s0, &s1);
		assert_int_equal(s0.fw.brw_errors, 0);
		/* the writes above too: 3 offsets x 2 checks x 6 RPCs of 3 pages */
		assert_int_equal(s1.rpc.bulk_get, 3ULL * 2 * 6 * 3 * LST_PAGE_SIZE +
				 2ULL * (LST_BRW_MAX_LEN - 4088));
	}
}

/* A flipped byte: the server finds it in a write, the client in a read. */
static void test_brw_corrupt(void **state)
{
	struct srpc_stat_reply s0, s1;
	struct srpc_msg rep;

	memlnd_corrupt_set(8192, 1);
	run_brw(LST_BRW_WRITE, LST_BRW_CHECK_FULL, 8192, 3, 1, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 1);
	assert_int_equal(s1.rpc.rpcs_dropped, 1);	/* the EBADMSG reply */
	for (int n = 0; n < NNODES; n++)
		assert_int_equal(rmsn(n, sid_main(), &rep), 0);
	/* SIMPLE checks only the first and last word of each page: hit one */
	memlnd_corrupt_set(8192, 1);
	run_brw(LST_BRW_READ, LST_BRW_CHECK_FULL, 8192, 3, 1, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 1);
	/* the node's SRPC counters outlive sessions: still the write's one */
	assert_int_equal(s1.rpc.rpcs_dropped, 1);
	assert_int_equal(memlnd.corrupt_left, 0);
}

/* Node 1's kept bulk buffers: how many, their length, which (@bufs). */
static u32 bulk_kept(u32 *len, u8 **bufs)
{
	struct memlnd_node *n = N->n[1];
	struct srpc_bulk_cache *bc = &lnet_srpc_of(&n->ln)->sp_bulk_cache;
	u32 count;

	os_mutex_lock(&n->ln.ln_api_mutex);
	count = bc->bc_count;
	*len = bc->bc_len;
	if (bufs)
		memcpy(bufs, bc->bc_bufs, count * sizeof(*bufs));
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return count;
}

/*
 * A brw server keeps the bulk buffers of its RPCs for the session's next
 * ones (one length at a time), and a checked read or write through a kept
 * buffer is still exact; the session's end frees them.
 */
static void test_brw_bulk_kept(void **state)
{
	union srpc_test_param rd = brw(LST_BRW_READ, LST_BRW_CHECK_FULL, 8192);
	u8 *first[SRPC_BULK_CACHE_MAX], *again[SRPC_BULK_CACHE_MAX];
	struct srpc_stat_reply s0, s1;
	struct srpc_msg rep;
	u32 n, m, len;
	int to = 1;

	run_brw(LST_BRW_WRITE, LST_BRW_CHECK_FULL, 8192, 4, 2, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 0);
	n = bulk_kept(&len, first);
	assert_true(n >= 1 && n <= 2);		/* at most the 2 RPCs at once */
	assert_int_equal(len, 8192);
	/* the batch again, with a read beside the write: 8 + 6 RPCs, 4 at once */
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 3, 2, &to, 1, &rd), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), 0);
	wait_idle(0);
	assert_int_equal(stat(0, &s0), 0);
	assert_int_equal(s0.fw.brw_errors, 0);
	assert_int_equal(stat(1, &s1), 0);
	assert_int_equal(s1.rpc.bulk_get, 16ULL * 8192);
	assert_int_equal(s1.rpc.bulk_put, 6ULL * 8192);
	m = bulk_kept(&len, again);
	assert_true(m >= n && m <= 4);
	for (u32 i = 0; i < n; i++) {
		bool found = false;

		for (u32 j = 0; j < m; j++)
			found |= again[j] == first[i];
		assert_true(found);
	}
	/* the session's end frees them; a server outside any session keeps none */
	assert_int_equal(rmsn(1, sid_main(), &rep), 0);
	assert_int_equal(bulk_kept(&len, NULL), 0);
	assert_int_equal(rmsn(0, sid_main(), &rep), 0);
	assert_int_equal(rmsn(2, sid_main(), &rep), 0);
	/* another length, another session */
	run_brw(LST_BRW_WRITE, LST_BRW_CHECK_SIMPLE, 4096, 2, 1, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 0);
	assert_int_equal(bulk_kept(&len, NULL), 1);
	assert_int_equal(len, 4096);
	/* kept across sessions? no: a new session starts with none */
	for (int i = 0; i < NNODES; i++)
		assert_int_equal(rmsn(i, sid_main(), &rep), 0);
	assert_int_equal(bulk_kept(&len, NULL), 0);
	run_brw(LST_BRW_READ, LST_BRW_CHECK_SIMPLE, 12288, 2, 1, &s0, &s1);
	assert_int_equal(s0.fw.brw_errors, 0);
	assert_int_equal(bulk_kept(&len, NULL), 1);
	assert_int_equal(len, 12288);
}

/* Node 2 stops answering mid-run: the client's RPCs to it time out. */
static void test_node_leaves(void **state)
{
	struct srpc_stat_reply s0;
	int to = 2;
	u32 active;

	session_all();
	os_mutex_lock(&N->n[0]->ln.ln_api_mutex);
	lnet_srpc_of(&N->n[0]->ln)->sp_rpc_timeout_s = 1;
	os_mutex_unlock(&N->n[0]->ln.ln_api_mutex);
	assert_int_equal(add_test(2, SRPC_SVC_PING, false, 1, 1, NULL, 0, NULL), 0);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, ~0U, 1, &to, 1, NULL), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), 0);
	memlnd_sleep_ms(50);
	assert_int_equal(batch(0, LST_BATCH_QUERY, 0, &active), 0);
	assert_int_equal(active, 1);
	memlnd_rule_set(nid_str[2], true, LNET_MSG_STATUS_OK, -1);	/* drop all */
	memlnd_sleep_ms(1600);
	assert_int_equal(stat(0, &s0), 0);
	assert_true(s0.fw.ping_errors >= 1);
	assert_true(s0.rpc.rpcs_expired >= 1);
	assert_int_equal(batch(0, LST_BATCH_STOP, 0, NULL), 0);
	wait_idle(0);
	memlnd_rules_clear();
}

static void test_session_timeout(void **state)
{
	struct srpc_stat_reply st;
	struct srpc_msg rep;

	os_mutex_lock(&N->n[1]->ln.ln_api_mutex);
	lnet_srpc_of(&N->n[1]->ln)->sp_session_timeout_s = 1;
	os_mutex_unlock(&N->n[1]->ln.ln_api_mutex);
	assert_int_equal(mksn(1, sid_main(), false, "t", &rep), 0);
	assert_int_equal(rep.body.mksn_reply.timeout, 1);
	memlnd_sleep_ms(600);
	assert_int_equal(stat(1, &st), 0);		/* renews it */
	memlnd_sleep_ms(600);
	assert_int_equal(stat(1, &st), 0);
	memlnd_sleep_ms(1300);
	assert_int_equal(stat(1, &st), ESRCH);
	assert_int_equal(st.sid.ses_nid, LST_NID_ANY);
}

/* A server test reserves request buffers for the client units it serves. */
static void test_reserve(void **state)
{
	struct lnet_srpc *sp = lnet_srpc_of(&N->n[1]->ln);
	u32 brw, ping;

	session_all();
	assert_int_equal(add_test(1, SRPC_SVC_PING, false, 100, 1, NULL, 0, NULL), 0);
	assert_int_equal(add_test(1, SRPC_SVC_BRW, false, 1000, 1, NULL, 0, NULL), 0);
	os_mutex_lock(&N->n[1]->ln.ln_api_mutex);
	brw = sp->sp_nbufs[0];
	ping = sp->sp_nbufs[1];
	os_mutex_unlock(&N->n[1]->ln.ln_api_mutex);
	assert_int_equal(ping, SRPC_NBUF_TEST);
	assert_int_equal(brw, 1000 + SRPC_NBUF_EXTRA);
}

static void test_bad_tests(void **state)
{
	union srpc_test_param big = brw(LST_BRW_WRITE, LST_BRW_CHECK_FULL, LST_BRW_MAX_LEN + 8);
	union srpc_test_param op = brw(3, LST_BRW_CHECK_FULL, 4096);
	union srpc_test_param chk = brw(LST_BRW_READ, 5, 4096);
	union srpc_test_param odd = brw(LST_BRW_READ, LST_BRW_CHECK_FULL, 4096);
	union srpc_test_param over = brw(LST_BRW_READ, LST_BRW_CHECK_FULL, LST_BRW_MAX_LEN);
	union srpc_test_param wrap = brw(LST_BRW_READ, LST_BRW_CHECK_FULL, LST_BRW_MAX_LEN - 8);
	int to = 1;

	odd.bulk_v1.offset = 4;			/* not in 8-byte words */
	over.bulk_v1.offset = 8;		/* 257 pages */
	wrap.bulk_v1.offset = 2 * LST_PAGE_SIZE + 8;	/* 8 into its page: 256 */

	assert_int_equal(add_test(1, SRPC_SVC_PING, false, 1, 1, NULL, 0, NULL), ENOENT);
	session_all();
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 0, 1, &to, 1, NULL), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 1, 0, &to, 1, NULL), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 1, SFW_MAX_CONCUR + 1, &to, 1, NULL),
			 EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 1, 1, &to, 0, NULL), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BATCH, false, 1, 1, NULL, 0, NULL), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &big), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &op), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &chk), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &odd), EINVAL);
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &over), EINVAL);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), ENOENT);	/* no batch 7 */
	/* a batch that runs takes no test */
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, ~0U, 1, &to, 1, NULL), 0);
	assert_int_equal(add_test(1, SRPC_SVC_PING, false, 1, 1, NULL, 0, NULL), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), 0);
	assert_int_equal(batch(0, LST_BATCH_RUN, 0, NULL), EALREADY);
	assert_int_equal(add_test(0, SRPC_SVC_PING, true, 1, 1, &to, 1, NULL), EBUSY);
	assert_int_equal(batch(0, LST_BATCH_STOP, 0, NULL), 0);
	wait_idle(0);
	/* an offset past the page counts modulo the page (Lustre's): 256 pages */
	assert_int_equal(add_test(0, SRPC_SVC_BRW, true, 1, 1, &to, 1, &wrap), 0);
}

/* --- the console (IOC_LNET_LST) on node 0 ---------------------------------------------- */

static int lst_ioc(struct lnet_ioc_lst *req, u32 op)
{
	req->lst_hdr.ioc_len = sizeof(*req);
	req->lst_hdr.ioc_version = LNET_IOC_VERSION;
	req->lst_op = op;
	return lnet_ioctl(&N->n[0]->ln, IOC_LNET_LST, req, sizeof(*req), true);
}

static struct lnet_ioc_lst *lst_req(u32 test, u32 size, u32 check, u32 count)
{
	static struct lnet_ioc_lst req;

	memset(&req, 0, sizeof(req));
	req.lst_test = test;
	req.lst_size = size;
	req.lst_check = check;
	req.lst_concurrency = 2;
	req.lst_count = count;
	req.lst_timeout_s = 1;
	req.lst_nfrom = 1;
	req.lst_nto = 2;
	req.lst_nids[0] = memlnd_nid(nid_str[0]);
	req.lst_nids[1] = memlnd_nid(nid_str[1]);
	req.lst_nids[2] = memlnd_nid(nid_str[2]);
	return &req;
}

/* STAT until the clients are idle. */
static void lst_wait_idle(struct lnet_ioc_lst *req)
{
	for (int k = 0; k < 400; k++) {
		assert_int_equal(lst_ioc(req, LNET_LST_OP_STAT), 0);
		if (!req->lst_active)
			return;
		memlnd_sleep_ms(5);
	}
	fail_msg("the run did not end");
}

static void test_console_runs(void **state)
{
	struct lnet_ioc_lst *req = lst_req(LNET_LST_TEST_write, 65536, LNET_LST_CHECK_full, 5);

	assert_int_equal(lst_ioc(req, LNET_LST_OP_STAT), -ESRCH);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(req->lst_nodes[i].ln_status, 0);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EBUSY);
	lst_wait_idle(req);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_END), 0);
	/* 5 RPCs x 2 units to each server, 64 KiB each */
	assert_int_equal(req->lst_nodes[1].ln_bulk_get, 10 * 65536);
	assert_int_equal(req->lst_nodes[2].ln_bulk_get, 10 * 65536);
	assert_int_equal(req->lst_nodes[0].ln_brw_errors, 0);
	assert_true(req->lst_nodes[0].ln_send_length >= 20 * 65536);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_END), -ESRCH);
	/* ping until stopped: END stops it */
	req = lst_req(LNET_LST_TEST_ping, 0, 0, 0);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), 0);
	memlnd_sleep_ms(50);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_STAT), 0);
	assert_int_equal(req->lst_active, 1);	/* tests, not units */
	assert_int_equal(lst_ioc(req, LNET_LST_OP_END), 0);
	assert_int_equal(req->lst_active, 0);
	assert_true(req->lst_nodes[1].ln_rpcs_rcvd > 10);
	assert_int_equal(req->lst_nodes[0].ln_ping_errors, 0);
	/* the sessions are gone: a STAT of node 1 by sid finds none */
	{
		struct srpc_stat_reply st;

		assert_int_equal(stat(1, &st), ESRCH);
	}
}

/*
 * A node that is client and server of one run (lst lets a node be in
 * both groups): its own units load its server while the console's
 * framework RPCs (STAT, STOP) must still be answered.
 */
static void test_console_self(void **state)
{
	struct lnet_ioc_lst *req = lst_req(LNET_LST_TEST_write, 65536, LNET_LST_CHECK_full, 0);

	req->lst_concurrency = 16;
	req->lst_nids[0] = memlnd_nid(nid_str[1]);
	req->lst_nids[1] = memlnd_nid(nid_str[1]);
	req->lst_nids[2] = memlnd_nid(nid_str[2]);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), 0);
	for (int k = 0; k < 5; k++) {
		memlnd_sleep_ms(100);
		assert_int_equal(lst_ioc(req, LNET_LST_OP_STAT), 0);
		for (int i = 0; i < 3; i++)
			assert_int_equal(req->lst_nodes[i].ln_status, 0);
		assert_int_equal(req->lst_active, 1);
	}
	assert_int_equal(lst_ioc(req, LNET_LST_OP_END), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(req->lst_nodes[i].ln_status, 0);
	assert_int_equal(req->lst_nodes[0].ln_brw_errors, 0);
	assert_true(req->lst_nodes[1].ln_bulk_get > 0);
	assert_true(req->lst_nodes[2].ln_bulk_get > 0);
}

static void test_console_errors(void **state)
{
	struct lnet_ioc_lst *req = lst_req(LNET_LST_TEST_read, 4096, LNET_LST_CHECK_simple, 1);
	struct lnet_nid v6;

	req->lst_size = 4100;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EINVAL);
	req->lst_size = LNET_LST_MAX_SIZE + 8;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EINVAL);
	req = lst_req(LNET_LST_TEST_ping, 0, LNET_LST_CHECK_full, 1);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EINVAL);
	req = lst_req(LNET_LST_TEST_ping, 0, 0, 1);
	req->lst_nids[2] = req->lst_nids[1];
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EINVAL);
	assert_int_equal(lnet_nid_parse("2001:db8::5@tcp", &v6, NULL, 0), 0);
	req->lst_nids[2] = v6;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EAFNOSUPPORT);
	req = lst_req(LNET_LST_TEST_ping, 0, 0, 1);
	req->lst_reserved[1] = 1;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EINVAL);
	req = lst_req(LNET_LST_TEST_ping, 0, 0, 1);
	assert_int_equal(lst_ioc(req, 99), -EINVAL);
	/* a node that does not answer: the run does not start, nowhere */
	memlnd_rule_set(nid_str[2], true, LNET_MSG_STATUS_OK, -1);
	req = lst_req(LNET_LST_TEST_ping, 0, 0, 1);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_START), -EHOSTUNREACH);
	assert_int_equal(req->lst_nodes[0].ln_status, 0);
	assert_int_equal(req->lst_nodes[2].ln_status, ETIMEDOUT);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_STAT), -ESRCH);
	memlnd_rules_clear();
	{
		struct srpc_stat_reply st;

		assert_int_equal(stat(1, &st), ESRCH);	/* ended there again */
	}
}


/* --- lst's model on the console of node 0 -------------------------------------------------- */

static struct lnet_ioc_lst *model_req(const char *name)
{
	static struct lnet_ioc_lst req;

	memset(&req, 0, sizeof(req));
	strncpy(req.lst_name, name, sizeof(req.lst_name) - 1);
	return &req;
}

static void model_session(void)
{
	struct lnet_ioc_lst *req = model_req("s1");

	req->lst_session_timeout_s = 300;
	req->lst_timeout_s = 5;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_NEW), 0);
}

static int model_group(const char *name, int first, int n)
{
	struct lnet_ioc_lst *req = model_req(name);

	for (int i = 0; i < n; i++)
		req->lst_nids[i] = memlnd_nid(nid_str[first + i]);
	req->lst_nnodes = n;
	return lst_ioc(req, LNET_LST_OP_GROUP_ADD);
}

/* lnet_lst_check(): each field of each op, the one named. */
static void test_model_checks(void **state)
{
	struct lnet_ioc_lst *req = model_req("s1");
	struct lnet_bad bad;

	req->lst_op = LNET_LST_OP_SESSION_NEW;
	req->lst_timeout_s = 1;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_SESSION_TIMEOUT);
	req->lst_session_timeout_s = LNET_LST_MAX_SESSION_TIMEOUT_S;
	assert_int_equal(lnet_lst_check(req, &bad), 0);
	req->lst_flags = 2;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_FLAGS);
	req = model_req("a b");
	req->lst_op = LNET_LST_OP_BATCH_ADD;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_NAME);
	req = model_req("");
	req->lst_op = LNET_LST_OP_GROUP_DEL;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	req = model_req("x");
	req->lst_name[5] = 'y';		/* past the NUL: not zero */
	req->lst_op = LNET_LST_OP_GROUP_STAT;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	req = model_req("b1");
	req->lst_op = LNET_LST_OP_TEST_ADD;
	strcpy(req->lst_from, "g1");
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_TO);
	strcpy(req->lst_to, "g2");
	req->lst_test = LNET_LST_TEST_write;
	req->lst_size = 4100;
	req->lst_check = LNET_LST_CHECK_full;
	req->lst_concurrency = 1;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_SIZE);
	req->lst_size = LNET_LST_MAX_SIZE;
	req->lst_offset = 8;		/* 257 pages */
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_OFFSET);
	req->lst_size = 4096;
	req->lst_offset = 4092;		/* not in 8-byte words */
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_OFFSET);
	req->lst_offset = LNET_LST_MAX_OFFSET + 8;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_OFFSET);
	req->lst_offset = LNET_LST_MAX_OFFSET;
	assert_int_equal(lnet_lst_check(req, &bad), 0);
	req->lst_test = LNET_LST_TEST_ping;	/* ping has no bulk */
	req->lst_size = 0;
	req->lst_check = 0;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_OFFSET);
	req->lst_test = LNET_LST_TEST_write;
	req->lst_size = 4096;
	req->lst_check = LNET_LST_CHECK_full;
	req->lst_offset = 0;
	req->lst_count = LNET_LST_MAX_COUNT + 1;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_COUNT);
	req->lst_count = 0;
	assert_int_equal(lnet_lst_check(req, &bad), 0);
	req = model_req("g1");
	req->lst_op = LNET_LST_OP_GROUP_ADD;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_NNODES);
	req->lst_nnodes = 2;
	req->lst_nids[0] = memlnd_nid(nid_str[1]);
	req->lst_nids[1] = memlnd_nid(nid_str[1]);
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_NIDS);
	assert_int_equal(bad.other, 1);
	assert_int_equal(lnet_nid_parse("2001:db8::5@tcp", &req->lst_nids[1], NULL, 0), 0);
	assert_int_equal(lnet_lst_check(req, &bad), -EAFNOSUPPORT);
	req->lst_op = 99;
	assert_int_equal(lnet_lst_check(req, &bad), -EINVAL);
	assert_int_equal(bad.field, LNET_LST_FIELD_OP);
}

/* The model's refusals through the ioctl: nothing changes. */
static void test_model_ops(void **state)
{
	struct lnet_ioc_lst *req = model_req("g1");

	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_INFO), -ESRCH);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_GROUP_DEL), -ESRCH);
	model_session();
	req = model_req("s2");
	req->lst_session_timeout_s = 300;
	req->lst_timeout_s = 1;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_NEW), -EBUSY);
	/* a run and a session exclude each other */
	assert_int_equal(lst_ioc(lst_req(LNET_LST_TEST_ping, 0, 0, 1), LNET_LST_OP_START), -EBUSY);
	assert_int_equal(model_group("c", 0, 1), 0);
	assert_int_equal(model_group("s", 1, 1), 0);
	assert_int_equal(model_group("c2", 1, 1), 0);	/* node 1 in two groups */
	/* a node that does not answer: no group */
	memlnd_rule_set(nid_str[2], true, LNET_MSG_STATUS_OK, -1);
	req = model_req("x");
	req->lst_nids[0] = memlnd_nid(nid_str[2]);
	req->lst_nnodes = 1;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_GROUP_ADD), -EHOSTUNREACH);
	assert_int_equal(req->lst_nodes[0].ln_status, ETIMEDOUT);
	assert_int_equal(req->lst_nodes[0].ln_state, LNET_LST_NODE_down);
	memlnd_rules_clear();
	assert_int_equal(model_group("s", 2, 1), 0);	/* and now it answers */
	req = model_req("");
	req->lst_index = 3;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_GROUP_GET), -ENOENT);
	req->lst_index = 0;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_GROUP_GET), 0);
	assert_string_equal(req->lst_name, "c");
	assert_int_equal(req->lst_nnodes, 1);
	assert_int_equal(req->lst_nodes[0].ln_state, LNET_LST_NODE_active);
	assert_int_equal(lst_ioc(model_req("b"), LNET_LST_OP_BATCH_ADD), 0);
	assert_int_equal(lst_ioc(model_req("b"), LNET_LST_OP_BATCH_ADD), -EEXIST);
	assert_int_equal(lst_ioc(model_req("b"), LNET_LST_OP_BATCH_RUN), -ENODATA);
	req = model_req("b");
	strcpy(req->lst_from, "c");
	strcpy(req->lst_to, "nope");
	req->lst_test = LNET_LST_TEST_ping;
	req->lst_concurrency = 1;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_TEST_ADD), -ENOENT);
	memset(req->lst_to, 0, sizeof(req->lst_to));
	strcpy(req->lst_to, "s");
	assert_int_equal(lst_ioc(req, LNET_LST_OP_TEST_ADD), 0);
	assert_int_equal(lst_ioc(model_req("s"), LNET_LST_OP_GROUP_DEL), -EBUSY);
	req = model_req("s");
	assert_int_equal(lst_ioc(req, LNET_LST_OP_GROUP_STAT), 0);
	assert_int_equal(req->lst_nnodes, 2);
	assert_int_equal(req->lst_nodes[0].ln_status, 0);
	assert_true(req->lst_nodes[0].ln_rpcs_rcvd > 0);
	assert_int_equal(lst_ioc(model_req("b"), LNET_LST_OP_BATCH_RUN), 0);
	req = model_req("b");
	strcpy(req->lst_from, "c");
	strcpy(req->lst_to, "s");
	req->lst_test = LNET_LST_TEST_ping;
	req->lst_concurrency = 1;
	assert_int_equal(lst_ioc(req, LNET_LST_OP_TEST_ADD), -EBUSY);
	req = model_req("b");
	assert_int_equal(lst_ioc(req, LNET_LST_OP_BATCH_STOP), 0);
	assert_int_equal(req->lst_active, 0);
	req = model_req("");
	assert_int_equal(lst_ioc(req, LNET_LST_OP_BATCH_GET), 0);
	assert_int_equal(req->lst_ntests, 1);
	assert_int_equal(req->lst_running, 0);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_INFO), 0);
	assert_int_equal(req->lst_ngroups, 3);
	assert_int_equal(req->lst_nbatches, 1);
	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_END), 0);
	assert_int_equal(req->lst_nnodes, 0);
	{
		struct srpc_stat_reply st;

		assert_int_equal(stat(1, &st), ESRCH);	/* one RMSN undid two groups */
	}
	assert_int_equal(lst_ioc(req, LNET_LST_OP_SESSION_INFO), -ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_session_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_write_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_read_simple, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_check_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_brw_bulk_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_leaves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reserve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_tests, setup, teardown),
		cmocka_unit_test_setup_teardown(test_console_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_console_self, setup, teardown),
		cmocka_unit_test_setup_teardown(test_console_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_model_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_model_ops, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
