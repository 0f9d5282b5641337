// SPDX-License-Identifier: GPL-2.0-only
/*
 * lst's model on this node's console (lnet_lst.h): one session, its named
 * groups of nodes and its named batches of tests, driven by the framework
 * RPCs lst sends (MKSN when a node joins a group, TEST to the servers
 * then the clients, BATCH RUN/STOP/QUERY to the clients, STAT, RMSN when
 * a node leaves the last group or the session ends).
 *
 * A node is one object per session, whichever groups hold it: the node
 * framework counts MKSNs of one sid (an RMSN drops one), so each node gets
 * one MKSN that took and one RMSN, never one per group. Every op checks
 * all it can before it changes anything or sends; an op that waits for
 * the nodes holds sp_console_busy, so no other console op runs meanwhile,
 * and after each wait it touches nothing if LNet went down (fini freed
 * the session).
 */
#include "console.h"
#include "../core/validate.h"

#define LSTCON_PING_NS		(8ULL * 1000000000ULL)	/* lst's pinger interval */
#define LSTCON_MAX_SET		(LNET_LST_MAX_TESTS * LNET_LST_MAX_NODES)

struct lstcon_node {
	struct list_head n_list;		/* on s_nodes */
	struct lnet_nid n_nid;
	u32 n_groups;				/* the groups that hold it */
	bool n_made;				/* our MKSN took: one RMSN undoes it */
	struct lnet_ioc_lst_node n_last;	/* last RPC's status and state; counters */
};

struct lstcon_group {
	char g_name[LNET_LST_NAME_LEN];
	u32 g_n;
	u32 g_users;				/* tests that use it: no delete */
	struct lstcon_node *g_nodes[LNET_LST_MAX_NODES];
};

struct lstcon_test {
	struct lnet_ioc_lst_test t_def;
	struct lstcon_group *t_from, *t_to;
};

struct lstcon_batch {
	char b_name[LNET_LST_NAME_LEN];
	u64 b_bid;
	bool b_running;
	u32 b_ntests;
	struct lstcon_test b_tests[LNET_LST_MAX_TESTS];
};

struct lstcon_session {
	struct lstcon_req s_req;		/* sid, RPC deadline, name */
	char s_name[LNET_LST_NAME_LEN];
	u32 s_timeout_s;			/* idle that long: the session ends */
	u64 s_last_op_ns, s_last_ping_ns;
	u64 s_next_bid;
	struct list_head s_nodes;
	u32 s_ngroups, s_nbatches;
	struct lstcon_group *s_groups[LNET_LST_MAX_GROUPS];
	struct lstcon_batch *s_batches[LNET_LST_MAX_BATCHES];
};

/* What an op that sends works with (too big for a stack). */
struct lstcon_work {
	struct lstcon_slot w_slots[LNET_LST_MAX_NODES];
	struct lnet_nid w_nids[LNET_LST_MAX_NODES];
	struct lstcon_node *w_set[LSTCON_MAX_SET];	/* the nodes of the op */
	u32 w_n;
	u8 w_dests[LNET_LST_MAX_NODES * LST_DEST_LEN];
	struct lnet_nid w_req[LNET_LST_MAX_NODES];	/* GROUP_ADD's NIDs */
};

/* --- lookups ----------------------------------------------------------------------------- */

static struct lstcon_group *lstcon_group_find(struct lstcon_session *ses, const char *name,
					      u32 *idx)
{
	u32 i;

	for (i = 0; i < ses->s_ngroups; i++)
		if (!strncmp(ses->s_groups[i]->g_name, name, LNET_LST_NAME_LEN)) {
			if (idx)
				*idx = i;
			return ses->s_groups[i];
		}
	return NULL;
}

static struct lstcon_batch *lstcon_batch_find(struct lstcon_session *ses, const char *name)
{
	u32 i;

	for (i = 0; i < ses->s_nbatches; i++)
		if (!strncmp(ses->s_batches[i]->b_name, name, LNET_LST_NAME_LEN))
			return ses->s_batches[i];
	return NULL;
}

static struct lstcon_node *lstcon_node_find(struct lstcon_session *ses,
					    const struct lnet_nid *nid)
{
	struct lstcon_node *nd;

	list_for_each_entry(nd, &ses->s_nodes, n_list)
		if (lnet_nid_equal(&nd->n_nid, nid))
			return nd;
	return NULL;
}

static bool lstcon_group_has(const struct lstcon_group *g, const struct lstcon_node *nd)
{
	u32 i;

	for (i = 0; i < g->g_n; i++)
		if (g->g_nodes[i] == nd)
			return true;
	return false;
}

/* @nd into the work set unless it is there already. */
static void lstcon_set_add(struct lstcon_work *w, struct lstcon_node *nd)
{
	u32 i;

	for (i = 0; i < w->w_n; i++)
		if (w->w_set[i] == nd)
			return;
	if (w->w_n < LSTCON_MAX_SET)
		w->w_set[w->w_n++] = nd;
}

static void lstcon_set_group(struct lstcon_work *w, const struct lstcon_group *g)
{
	u32 i;

	for (i = 0; i < g->g_n; i++)
		lstcon_set_add(w, g->g_nodes[i]);
}

/* --- RPCs to a set of nodes ------------------------------------------------------------------ */

/* The node's state from its reply's sid (every reply has it after the status). */
static void lstcon_node_result(const struct lstcon_session *ses, struct lstcon_node *nd,
			       const struct lstcon_slot *s)
{
	const struct lst_sid *sid = &s->s_reply.body.rmsn_reply.sid;

	nd->n_last.ln_status = s->s_status;
	if (s->s_noreply)
		nd->n_last.ln_state = LNET_LST_NODE_down;
	else if (sid->ses_nid == ses->s_req.sid.ses_nid &&
		 sid->ses_stamp == ses->s_req.sid.ses_stamp)
		nd->n_last.ln_state = LNET_LST_NODE_active;
	else if (sid->ses_nid == LST_NID_ANY)
		nd->n_last.ln_state = LNET_LST_NODE_unknown;
	else
		nd->n_last.ln_state = LNET_LST_NODE_busy;
}

/* Node @nd's line of the op's out list. */
static void lstcon_out_node(struct lnet_ioc_lst *req, const struct lstcon_node *nd)
{
	if (req->lst_nnodes >= LNET_LST_MAX_NODES)
		return;
	req->lst_nids[req->lst_nnodes] = nd->n_nid;
	req->lst_nodes[req->lst_nnodes++] = nd->n_last;
}

/*
 * @service to every node of the work set, LNET_LST_MAX_NODES at a time.
 * BATCH replies' active counts add up in lst_active. Out: every node of
 * the set (@all), else the nodes that failed. 0, -EHOSTUNREACH, -ENETDOWN.
 */
static int lstcon_set_rpcs(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			   u32 service, struct lnet_ioc_lst *req, bool all)
{
	u32 done, n, i;
	int rc = 0, trc;

	req->lst_nnodes = 0;
	req->lst_active = 0;
	for (done = 0; done < w->w_n; done += n) {
		n = w->w_n - done < LNET_LST_MAX_NODES ? w->w_n - done : LNET_LST_MAX_NODES;
		for (i = 0; i < n; i++)
			w->w_nids[i] = w->w_set[done + i]->n_nid;
		trc = lstcon_rpcs(ln, &ses->s_req, service, w->w_nids, n, w->w_slots);
		if (trc == -ENETDOWN)
			return trc;
		rc = rc ? rc : trc;
		for (i = 0; i < n; i++) {
			struct lstcon_node *nd = w->w_set[done + i];
			const struct lstcon_slot *s = &w->w_slots[i];

			lstcon_node_result(ses, nd, s);
			if (service == SRPC_SVC_QUERY_STAT && !s->s_status)
				lstcon_node_stat(&nd->n_last, &s->s_reply.body.stat_reply);
			if (service == SRPC_SVC_BATCH && !s->s_status)
				req->lst_active += s->s_reply.body.bat_reply.active;
			if (all || s->s_status)
				lstcon_out_node(req, nd);
		}
	}
	return rc;
}

/* --- the session --------------------------------------------------------------------------- */

static void lstcon_node_put(struct lstcon_node *nd)
{
	if (--nd->n_groups)
		return;
	list_del(&nd->n_list);
	os_free(nd);
}

static void lstcon_session_free(struct lstcon_session *ses)
{
	struct lstcon_node *nd, *nn;
	u32 i;

	for (i = 0; i < ses->s_ngroups; i++)
		os_free(ses->s_groups[i]);
	for (i = 0; i < ses->s_nbatches; i++)
		os_free(ses->s_batches[i]);
	list_for_each_entry_safe(nd, nn, &ses->s_nodes, n_list) {
		list_del(&nd->n_list);
		os_free(nd);
	}
	os_free(ses);
}

void lstcon_model_free(struct lnet_srpc *sp)
{
	if (sp->sp_lst_session)
		lstcon_session_free(sp->sp_lst_session);
	sp->sp_lst_session = NULL;
}

/* RMSN to every node the session made (ESRCH: gone already, fine); then free it. */
static int lstcon_session_end(struct lnet *ln, struct lnet_srpc *sp, struct lstcon_work *w,
			      struct lnet_ioc_lst *req)
{
	struct lstcon_session *ses = sp->sp_lst_session;
	struct lstcon_node *nd;
	u32 i, n = 0;
	int rc;

	w->w_n = 0;
	list_for_each_entry(nd, &ses->s_nodes, n_list)
		if (nd->n_made)
			lstcon_set_add(w, nd);
	rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_REMOVE_SESSION, req, false);
	if (rc == -ENETDOWN)
		return rc;
	for (i = 0; i < req->lst_nnodes; i++)	/* keep the real failures */
		if (req->lst_nodes[i].ln_status != ESRCH) {
			req->lst_nids[n] = req->lst_nids[i];
			req->lst_nodes[n++] = req->lst_nodes[i];
		}
	req->lst_nnodes = n;
	lnet_srpc_of(ln)->sp_lst_session = NULL;
	lstcon_session_free(ses);
	return 0;
}

static int lstcon_session_new(struct lnet *ln, struct lnet_srpc *sp, struct lstcon_work *w,
			      struct lnet_ioc_lst *req)
{
	struct lstcon_session *ses;
	struct lst_sid sid;
	int rc;

	if (sp->sp_lst_session && !(req->lst_flags & LNET_LST_F_FORCE))
		return -EBUSY;
	if (lstcon_sid(ln, &sid))
		return -EADDRNOTAVAIL;	/* no NI to name the session by */
	ses = os_zalloc(sizeof(*ses));
	if (!ses)
		return -ENOMEM;
	if (sp->sp_lst_session) {
		rc = lstcon_session_end(ln, sp, w, req);
		if (rc) {
			os_free(ses);
			return rc;
		}
	}
	INIT_LIST_HEAD(&ses->s_nodes);
	ses->s_req.sid = sid;
	ses->s_req.timeout_s = req->lst_timeout_s;
	memcpy(ses->s_name, req->lst_name, LNET_LST_NAME_LEN);
	ses->s_req.name = ses->s_name;
	ses->s_timeout_s = req->lst_session_timeout_s;
	ses->s_last_op_ns = os_now_ns();
	ses->s_last_ping_ns = ses->s_last_op_ns;
	lnet_srpc_of(ln)->sp_lst_session = ses;
	lnet_dp_monitor_ensure(ln);	/* its tick runs the pinger */
	return 0;
}

static int lstcon_session_info(struct lstcon_session *ses, struct lnet_ioc_lst *req)
{
	memcpy(req->lst_name, ses->s_name, LNET_LST_NAME_LEN);
	req->lst_session_timeout_s = ses->s_timeout_s;
	req->lst_timeout_s = ses->s_req.timeout_s;
	req->lst_ngroups = ses->s_ngroups;
	req->lst_nbatches = ses->s_nbatches;
	return 0;
}

/* --- groups ------------------------------------------------------------------------------ */

/*
 * The nodes of @req that @g (NULL: a new group) does not hold yet, into
 * the work set: made (found in the session, or new and not on any list
 * yet) or -ENOMEM with nothing left behind.
 */
static int lstcon_group_new_nodes(struct lstcon_session *ses, struct lstcon_group *g,
				  const struct lnet_ioc_lst *req, struct lstcon_work *w)
{
	u32 i;

	w->w_n = 0;
	for (i = 0; i < req->lst_nnodes; i++) {
		struct lstcon_node *nd = lstcon_node_find(ses, &req->lst_nids[i]);

		if (nd && g && lstcon_group_has(g, nd))
			continue;
		if (!nd) {
			nd = os_zalloc(sizeof(*nd));
			if (!nd)
				goto err_free_new;
			nd->n_nid = req->lst_nids[i];
			nd->n_last.ln_state = LNET_LST_NODE_unknown;
			list_add_tail(&nd->n_list, &ses->s_nodes);
		}
		w->w_set[w->w_n++] = nd;
	}
	return 0;
err_free_new:
	for (i = 0; i < w->w_n; i++)
		if (!w->w_set[i]->n_groups) {
			list_del(&w->w_set[i]->n_list);
			os_free(w->w_set[i]);
		}
	w->w_n = 0;
	return -ENOMEM;
}

/* MKSN to the new nodes not made yet: how many of the new nodes are made now. */
static int lstcon_group_mksn(struct lnet *ln, struct lstcon_session *ses,
			     struct lstcon_work *w, struct lnet_ioc_lst *req, u32 *made)
{
	struct lstcon_work *todo = w;	/* the made ones drop out of the set */
	u32 i, n = w->w_n, k = 0;
	struct lstcon_node **all = os_zalloc(n * sizeof(*all) + 1);
	int rc;

	if (!all)
		return -ENOMEM;
	memcpy(all, w->w_set, n * sizeof(*all));
	for (i = 0; i < n; i++)
		if (!all[i]->n_made)
			todo->w_set[k++] = all[i];
	todo->w_n = k;
	ses->s_req.force = !!(req->lst_flags & LNET_LST_F_FORCE);
	rc = lstcon_set_rpcs(ln, ses, todo, SRPC_SVC_MAKE_SESSION, req, true);
	if (rc != -ENETDOWN) {
		for (i = 0; i < k; i++)
			todo->w_set[i]->n_made = !todo->w_set[i]->n_last.ln_status;
		memcpy(w->w_set, all, n * sizeof(*all));
		w->w_n = n;
		for (i = 0, *made = 0; i < n; i++)
			*made += all[i]->n_made;
	}
	os_free(all);
	return rc == -ENETDOWN ? rc : 0;
}

/* Out: each NID of the request (saved in w_req) with its node's state and status. */
static void lstcon_group_out(struct lstcon_session *ses, struct lstcon_work *w,
			     struct lnet_ioc_lst *req, u32 nnids)
{
	u32 i;

	for (i = 0; i < nnids; i++) {
		struct lstcon_node *nd = lstcon_node_find(ses, &w->w_req[i]);

		req->lst_nids[i] = w->w_req[i];
		if (nd)
			req->lst_nodes[i] = nd->n_last;
	}
	req->lst_nnodes = nnids;
}

static int lstcon_group_add(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			    struct lnet_ioc_lst *req)
{
	struct lstcon_group *g = lstcon_group_find(ses, req->lst_name, NULL), *newg = NULL;
	u32 nnids = req->lst_nnodes, made = 0, i;
	int rc;

	if (!g && ses->s_ngroups >= LNET_LST_MAX_GROUPS)
		return -ENOSPC;
	if (!g) {
		g = newg = os_zalloc(sizeof(*g));
		if (!g)
			return -ENOMEM;
		memcpy(g->g_name, req->lst_name, LNET_LST_NAME_LEN);
	}
	memcpy(w->w_req, req->lst_nids, nnids * sizeof(w->w_req[0]));
	rc = lstcon_group_new_nodes(ses, newg ? NULL : g, req, w);
	if (!rc && g->g_n + w->w_n > LNET_LST_MAX_NODES)
		rc = -EINVAL;
	if (!rc)
		rc = lstcon_group_mksn(ln, ses, w, req, &made);
	if (rc == -ENETDOWN) {
		os_free(newg);	/* the session is gone, the new nodes with it */
		return rc;
	}
	if (!rc && w->w_n && !made)
		rc = -EHOSTUNREACH;	/* lst: "No nodes added successfully" */
	for (i = 0; !rc && i < w->w_n; i++) {
		g->g_nodes[g->g_n++] = w->w_set[i];
		w->w_set[i]->n_groups++;
	}
	lstcon_group_out(ses, w, req, nnids);
	/* nodes that joined no group after all */
	for (i = 0; rc && i < w->w_n; i++)
		if (!w->w_set[i]->n_groups) {
			list_del(&w->w_set[i]->n_list);
			os_free(w->w_set[i]);
		}
	if (!rc && newg)
		ses->s_groups[ses->s_ngroups++] = newg;
	else if (newg)
		os_free(newg);
	return rc;
}

static int lstcon_group_del(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			    struct lnet_ioc_lst *req)
{
	u32 idx, i;
	struct lstcon_group *g = lstcon_group_find(ses, req->lst_name, &idx);
	int rc;

	if (!g)
		return -ENOENT;
	if (g->g_users)
		return -EBUSY;	/* lst: a test of a batch uses it */
	w->w_n = 0;
	for (i = 0; i < g->g_n; i++)
		if (g->g_nodes[i]->n_groups == 1 && g->g_nodes[i]->n_made)
			lstcon_set_add(w, g->g_nodes[i]);
	rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_REMOVE_SESSION, req, false);
	if (rc == -ENETDOWN)
		return rc;
	for (i = 0; i < g->g_n; i++)
		lstcon_node_put(g->g_nodes[i]);
	for (i = idx + 1; i < ses->s_ngroups; i++)
		ses->s_groups[i - 1] = ses->s_groups[i];
	ses->s_ngroups--;
	os_free(g);
	return 0;
}

static int lstcon_group_get(struct lstcon_session *ses, struct lnet_ioc_lst *req)
{
	struct lstcon_group *g;
	u32 i;

	if (req->lst_index >= ses->s_ngroups)
		return -ENOENT;
	g = ses->s_groups[req->lst_index];
	memcpy(req->lst_name, g->g_name, LNET_LST_NAME_LEN);
	req->lst_nnodes = 0;
	for (i = 0; i < g->g_n; i++)
		lstcon_out_node(req, g->g_nodes[i]);
	return 0;
}

static int lstcon_group_stat(struct lnet *ln, struct lstcon_session *ses,
			     struct lstcon_work *w, struct lnet_ioc_lst *req)
{
	struct lstcon_group *g = lstcon_group_find(ses, req->lst_name, NULL);
	int rc;

	if (!g)
		return -ENOENT;
	w->w_n = 0;
	lstcon_set_group(w, g);
	rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_QUERY_STAT, req, true);
	return rc == -EHOSTUNREACH ? 0 : rc;	/* each node's ln_status says */
}

/* --- batches and tests ------------------------------------------------------------------- */

static int lstcon_batch_add(struct lstcon_session *ses, struct lnet_ioc_lst *req)
{
	struct lstcon_batch *b;

	if (lstcon_batch_find(ses, req->lst_name))
		return -EEXIST;
	if (ses->s_nbatches >= LNET_LST_MAX_BATCHES)
		return -ENOSPC;
	b = os_zalloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	memcpy(b->b_name, req->lst_name, LNET_LST_NAME_LEN);
	b->b_bid = ++ses->s_next_bid;
	ses->s_batches[ses->s_nbatches++] = b;
	return 0;
}

static int lstcon_batch_get(struct lstcon_session *ses, struct lnet_ioc_lst *req)
{
	struct lstcon_batch *b;
	u32 i;

	if (req->lst_index >= ses->s_nbatches)
		return -ENOENT;
	b = ses->s_batches[req->lst_index];
	memcpy(req->lst_name, b->b_name, LNET_LST_NAME_LEN);
	req->lst_ntests = b->b_ntests;
	req->lst_running = b->b_running;
	for (i = 0; i < b->b_ntests; i++)
		req->lst_tests[i] = b->b_tests[i].t_def;
	return 0;
}

/* TEST to the servers (the to group), then to the clients with the servers' list. */
static int lstcon_test_rpcs(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			    const struct lstcon_test *t, u64 bid, struct lnet_ioc_lst *req)
{
	struct lstcon_req *r = &ses->s_req;
	u32 i;
	int rc;

	r->bid = bid;
	r->test = t->t_def.lt_test;
	r->size = t->t_def.lt_size;
	r->check = t->t_def.lt_check;
	r->offset = t->t_def.lt_offset;
	r->concur = t->t_def.lt_concurrency;
	r->client = false;
	/* a server's loop: the client units it serves (it reserves buffers) */
	r->loop = t->t_from->g_n * r->concur;
	w->w_n = 0;
	lstcon_set_group(w, t->t_to);
	rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_TEST, req, false);
	if (rc)
		return rc;
	for (i = 0; i < t->t_to->g_n; i++)
		w->w_nids[i] = t->t_to->g_nodes[i]->n_nid;
	lstcon_dests(r, w->w_dests, w->w_nids, t->t_to->g_n);
	r->client = true;
	r->loop = t->t_def.lt_count ? t->t_def.lt_count : ~0U;
	w->w_n = 0;
	lstcon_set_group(w, t->t_from);
	return lstcon_set_rpcs(ln, ses, w, SRPC_SVC_TEST, req, false);
}

static int lstcon_test_add(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			   struct lnet_ioc_lst *req)
{
	struct lstcon_batch *b = lstcon_batch_find(ses, req->lst_name);
	struct lstcon_test t = {
		.t_def = {
			.lt_test = req->lst_test, .lt_size = req->lst_size,
			.lt_check = req->lst_check, .lt_offset = req->lst_offset,
			.lt_concurrency = req->lst_concurrency,
			.lt_count = req->lst_count,
		},
		.t_from = lstcon_group_find(ses, req->lst_from, NULL),
		.t_to = lstcon_group_find(ses, req->lst_to, NULL),
	};
	int rc;

	if (!b || !t.t_from || !t.t_to)
		return -ENOENT;
	if (b->b_running)
		return -EBUSY;	/* lst: a running batch takes no test */
	if (b->b_ntests >= LNET_LST_MAX_TESTS)
		return -ENOSPC;
	memcpy(t.t_def.lt_from, req->lst_from, LNET_LST_NAME_LEN);
	memcpy(t.t_def.lt_to, req->lst_to, LNET_LST_NAME_LEN);
	rc = lstcon_test_rpcs(ln, ses, w, &t, b->b_bid, req);
	if (rc)
		return rc;
	b->b_tests[b->b_ntests++] = t;
	t.t_from->g_users++;
	t.t_to->g_users++;
	return 0;
}

/* The client nodes of @b's tests into the work set. */
static void lstcon_batch_clients(struct lstcon_work *w, const struct lstcon_batch *b)
{
	u32 i;

	w->w_n = 0;
	for (i = 0; i < b->b_ntests; i++)
		lstcon_set_group(w, b->b_tests[i].t_from);
}

static int lstcon_batch_ctl(struct lnet *ln, struct lstcon_session *ses, struct lstcon_work *w,
			    struct lnet_ioc_lst *req)
{
	struct lstcon_batch *b = lstcon_batch_find(ses, req->lst_name);
	u64 deadline = os_now_ns() + (u64)ses->s_req.timeout_s * 1000000000ULL;
	int rc;

	if (!b)
		return -ENOENT;
	if (!b->b_ntests && req->lst_op == LNET_LST_OP_BATCH_RUN)
		return -ENODATA;	/* nothing to run */
	lstcon_batch_clients(w, b);
	ses->s_req.bid = b->b_bid;
	ses->s_req.opc = req->lst_op == LNET_LST_OP_BATCH_RUN ? LST_BATCH_RUN :
			 req->lst_op == LNET_LST_OP_BATCH_STOP ? LST_BATCH_STOP : LST_BATCH_QUERY;
	rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_BATCH, req, false);
	if (rc == -ENETDOWN)
		return rc;
	if (req->lst_op == LNET_LST_OP_BATCH_RUN) {
		b->b_running = true;	/* as lst: a node that failed is named */
		return rc;
	}
	/*
	 * Stop: query until no test is active (or the RPC deadline), so a
	 * query after a stop that returned finds the batch idle. The STOP
	 * replies carry no count: the first query always goes.
	 */
	ses->s_req.opc = LST_BATCH_QUERY;
	if (!rc && req->lst_op == LNET_LST_OP_BATCH_STOP)
		rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_BATCH, req, false);
	while (!rc && req->lst_op == LNET_LST_OP_BATCH_STOP && req->lst_active &&
	       os_now_ns() < deadline) {
		os_cond_wait(&ln->ln_dp.dp_cond, &ln->ln_api_mutex, os_now_ns() + 10000000ULL);
		rc = lstcon_set_rpcs(ln, ses, w, SRPC_SVC_BATCH, req, false);
	}
	if (rc != -ENETDOWN && (req->lst_op == LNET_LST_OP_BATCH_STOP || !req->lst_active))
		b->b_running = false;
	return rc;
}

/* --- the pinger ----------------------------------------------------------------------------- */

static void lstcon_ping_done(struct srpc_client_rpc *rpc)
{
}

/*
 * A node ends its session after its timeout (100 s) without a framework
 * RPC, so, as lst's pinger, DEBUG every node the session made every 8 s,
 * for as long as the console is not idle past the session's timeout
 * (then the nodes' sessions expire by themselves and the next op finds
 * the session gone). Fire and forget: the answer changes nothing.
 */
void lstcon_model_tick(struct lnet_srpc *sp, u64 now)
{
	struct lstcon_session *ses = sp->sp_lst_session;
	struct lstcon_node *nd;

	if (!ses || sp->sp_console_busy || now - ses->s_last_ping_ns < LSTCON_PING_NS)
		return;
	if (now - ses->s_last_op_ns >= (u64)ses->s_timeout_s * 1000000000ULL) {
		os_warn("selftest: console session %s idle for %u s: ended\n", ses->s_name,
			ses->s_timeout_s);
		lstcon_model_free(sp);
		return;
	}
	ses->s_last_ping_ns = now;
	list_for_each_entry(nd, &ses->s_nodes, n_list) {
		struct srpc_client_rpc *rpc;

		if (!nd->n_made)
			continue;
		rpc = srpc_client_new(sp, &nd->n_nid, SRPC_PID, SRPC_SVC_DEBUG,
				      ses->s_req.timeout_s);
		if (!rpc)
			return;
		rpc->cr_req.type = SRPC_MSG_DEBUG_REQST;
		rpc->cr_req.body.dbg_reqst.sid = ses->s_req.sid;
		rpc->cr_done = lstcon_ping_done;
		if (srpc_client_start(rpc))
			os_free(rpc);
	}
}

/* --- the ops ---------------------------------------------------------------------------------- */

static int lstcon_model_step(struct lnet *ln, struct lstcon_session *ses,
			     struct lstcon_work *w, struct lnet_ioc_lst *req)
{
	switch (req->lst_op) {
	case LNET_LST_OP_SESSION_END:
		return lstcon_session_end(ln, lnet_srpc_of(ln), w, req);
	case LNET_LST_OP_SESSION_INFO:
		return lstcon_session_info(ses, req);
	case LNET_LST_OP_GROUP_ADD:
		return lstcon_group_add(ln, ses, w, req);
	case LNET_LST_OP_GROUP_DEL:
		return lstcon_group_del(ln, ses, w, req);
	case LNET_LST_OP_GROUP_GET:
		return lstcon_group_get(ses, req);
	case LNET_LST_OP_GROUP_STAT:
		return lstcon_group_stat(ln, ses, w, req);
	case LNET_LST_OP_BATCH_ADD:
		return lstcon_batch_add(ses, req);
	case LNET_LST_OP_BATCH_GET:
		return lstcon_batch_get(ses, req);
	case LNET_LST_OP_TEST_ADD:
		return lstcon_test_add(ln, ses, w, req);
	default:
		return lstcon_batch_ctl(ln, ses, w, req);
	}
}

int lstcon_model_op(struct lnet *ln, struct lnet_ioc_lst *req)
{
	struct lnet_srpc *sp = lnet_srpc_of(ln);
	struct lstcon_session *ses = sp->sp_lst_session;
	struct lstcon_work *w;
	int rc;

	if (sp->sp_console)
		return -EBUSY;	/* a run: its sessions on the nodes are ours too */
	if (!ses && req->lst_op != LNET_LST_OP_SESSION_NEW)
		return -ESRCH;
	w = os_zalloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	sp->sp_console_busy = true;
	if (ses)
		ses->s_last_op_ns = os_now_ns();
	if (req->lst_op == LNET_LST_OP_SESSION_NEW)
		rc = lstcon_session_new(ln, sp, w, req);
	else
		rc = lstcon_model_step(ln, ses, w, req);
	os_free(w);
	sp = lnet_srpc_of(ln);
	if (rc == -ENETDOWN || !sp)
		return -ENETDOWN;	/* lnet_srpc_fini() freed the session */
	sp->sp_console_busy = false;
	return rc;
}
