// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lst's model on this node's console (IOC_LNET_LST's session ops,
 * lnet_lst.h): each op checked first with the core's own
 * lnet_lst_check(), so that a bad field is named; each refusal turned
 * into one message naming the session, group, batch or node. The show
 * documents:
 *
 *   selftest_session:            selftest_group:          selftest_batch:
 *       name: s1                     - name: clients          - name: b1
 *       timeout: 300                   nodes:                   running: false
 *       rpc_timeout: 30                    - nid: 10.0.0.1@tcp  tests:
 *       groups: 2                            state: active          - test: write
 *       batches: 1                           status: ok               from: clients
 *                                                                     to: servers
 *                                                                     size: 4096
 *                                                                     check: simple
 *                                                                     concurrency: 1
 *                                                                     loop: 0
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "yemit.h"
#include "ops_priv.h"
#include "../kernel/core/validate.h"

#define LST_STR_(x)	#x
#define LST_STR(x)	LST_STR_(x)

static const char *const lst_field_keys[] = {
#define LST_FIELD_KEY(f, key) [LNET_LST_FIELD_##f] = key,
	LNET_LST_FIELDS(LST_FIELD_KEY)
#undef LST_FIELD_KEY
};

static const char *const lst_states[] = {
#define LST_STATE_NAME(n, v) [v] = #n,
	LNET_LST_NODE_STATES(LST_STATE_NAME)
#undef LST_STATE_NAME
};

int cfg_lst_name_parse(const char *what, const char *s, char *name, struct cfg_err *err)
{
	memset(name, 0, LNET_LST_NAME_LEN);
	if (strlen(s) <= LNET_LST_NAME_MAX)
		memcpy(name, s, strlen(s));
	if (!lnet_lst_name_ok(name))
		return cfg_fail(err, -EINVAL, NULL,
				"%s: '%s' is not a name: 1-%d characters of A-Z a-z 0-9 _ . -",
				what, s, LNET_LST_NAME_MAX);
	return 0;
}

const char *cfg_lst_state_str(uint32_t state)
{
	return state < sizeof(lst_states) / sizeof(lst_states[0]) ? lst_states[state] : "?";
}

const char *cfg_lst_status_str(uint32_t status)
{
	if (!status)
		return "ok";
	return status == ETIMEDOUT ? "no answer" : strerror((int)status);
}

/* The first node of the out list that failed, named; else @fallback. */
static int lst_node_fail(const struct lnet_ioc_lst *req, int rc, const char *doing,
			 struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX];
	uint32_t i;

	for (i = 0; i < req->lst_nnodes && i < LNET_LST_MAX_NODES; i++)
		if (req->lst_nodes[i].ln_status)
			return cfg_fail(err, rc, NULL, "%s: %s: %s%s", doing,
					cfg_nid_str(&req->lst_nids[i], nbuf, sizeof(nbuf)),
					cfg_lst_status_str(req->lst_nodes[i].ln_status),
					req->lst_nodes[i].ln_status == ETIMEDOUT ?
					" (is lnet_selftest running there?)" : "");
	return cfg_fail(err, rc, NULL, "%s: a node failed", doing);
}

/* TEST_ADD's ENOENT: which of the three names is missing. */
static int lst_test_enoent(struct cfg_handle *h, const struct lnet_ioc_lst *req,
			   const char *doing, struct cfg_err *err)
{
	struct lnet_ioc_lst q = { 0 };
	bool batch = false, from = false, to = false;
	uint32_t i;

	for (i = 0; i < LNET_LST_MAX_BATCHES; i++) {
		q.lst_index = i;
		if (cfg_lst_op(h, &q, LNET_LST_OP_BATCH_GET, NULL))
			break;
		batch |= !strcmp(q.lst_name, req->lst_name);
	}
	for (i = 0; i < LNET_LST_MAX_GROUPS; i++) {
		q.lst_index = i;
		if (cfg_lst_op(h, &q, LNET_LST_OP_GROUP_GET, NULL))
			break;
		from |= !strcmp(q.lst_name, req->lst_from);
		to |= !strcmp(q.lst_name, req->lst_to);
	}
	if (!batch)
		return cfg_fail(err, -ENOENT, NULL, "%s: no batch '%s'", doing, req->lst_name);
	return cfg_fail(err, -ENOENT, NULL, "%s: no group '%s'", doing,
			!from ? req->lst_from : to ? "?" : req->lst_to);
}

/* EBUSY, by op. */
static int lst_busy(uint32_t op, const struct lnet_ioc_lst *req, const char *doing,
		    struct cfg_err *err)
{
	switch (op) {
	case LNET_LST_OP_SESSION_NEW:
		return cfg_fail(err, -EBUSY, NULL, "%s: this node's console has a session or a "
				"run already (end it, or --force a new session)", doing);
	case LNET_LST_OP_GROUP_DEL:
		return cfg_fail(err, -EBUSY, NULL, "%s: group '%s' is used by a test of a batch",
				doing, req->lst_name);
	case LNET_LST_OP_TEST_ADD:
		return cfg_fail(err, -EBUSY, NULL, "%s: batch '%s' is running: stop it first",
				doing, req->lst_name);
	default:
		return cfg_fail(err, -EBUSY, NULL, "%s: the console is busy (a selftest run, or "
				"another command waiting for its nodes)", doing);
	}
}

/* One message for a refused op (the errnos of lnet_lst.h). */
static int lst_refused(struct cfg_handle *h, const struct lnet_ioc_lst *req, uint32_t op,
		       int rc, const char *doing, struct cfg_err *err)
{
	bool group = op == LNET_LST_OP_GROUP_ADD || op == LNET_LST_OP_GROUP_DEL ||
		     op == LNET_LST_OP_GROUP_STAT;

	switch (rc) {
	case -EBUSY:
		return lst_busy(op, req, doing, err);
	case -ESRCH:
		return cfg_fail(err, rc, NULL, "%s: no session (make one: lnetctl selftest "
				"session new NAME)", doing);
	case -ENOENT:
		if (op == LNET_LST_OP_TEST_ADD)
			return lst_test_enoent(h, req, doing, err);
		return cfg_fail(err, rc, NULL, "%s: no %s '%s'", doing, group ? "group" : "batch",
				req->lst_name);
	case -EEXIST:
		return cfg_fail(err, rc, NULL, "%s: batch '%s' exists", doing, req->lst_name);
	case -ENOSPC:
		return cfg_fail(err, rc, NULL, "%s: %s", doing,
				op == LNET_LST_OP_GROUP_ADD ? "the session has the most groups (" LST_STR(LNET_LST_MAX_GROUPS) ")" :
				op == LNET_LST_OP_BATCH_ADD ? "the session has the most batches (" LST_STR(LNET_LST_MAX_BATCHES) ")" :
				"the batch has the most tests (" LST_STR(LNET_LST_MAX_TESTS) ")");
	case -ENODATA:
		return cfg_fail(err, rc, NULL, "%s: batch '%s' has no test", doing, req->lst_name);
	case -EINVAL:
		if (op == LNET_LST_OP_GROUP_ADD)
			return cfg_fail(err, rc, NULL, "%s: group '%s' would hold more than "
					LST_STR(LNET_LST_MAX_NODES) " nodes", doing, req->lst_name);
		break;
	case -EHOSTUNREACH:
		return lst_node_fail(req, rc, op == LNET_LST_OP_GROUP_ADD ?
				     "no node added" : doing, err);
	case -EADDRNOTAVAIL:
		return cfg_fail(err, rc, NULL, "%s: no NI to name the session by: add a net first",
				doing);
	}
	return cfg_ioc_fail(h, rc, err, NULL, doing);
}

/* A field that lnet_lst_check() refused, named. */
static int lst_bad_field(const struct lnet_ioc_lst *req, int rc, const struct lnet_bad *bad,
			 const char *doing, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX];

	if (bad->field == LNET_LST_FIELD_NIDS && rc == -EAFNOSUPPORT)
		return cfg_fail(err, rc, NULL, "%s: %s: lnet_selftest has no large NIDs: every "
				"NID must be IPv4 or numeric", doing,
				cfg_nid_str(&req->lst_nids[bad->other], nbuf, sizeof(nbuf)));
	if (bad->field == LNET_LST_FIELD_NIDS)
		return cfg_fail(err, rc, NULL, "%s: %s is given twice", doing,
				cfg_nid_str(&req->lst_nids[bad->other], nbuf, sizeof(nbuf)));
	return cfg_fail(err, rc, NULL, "%s: %s out of range (lnet_lst.h)", doing,
			lst_field_keys[bad->field]);
}

static const char *lst_doing(uint32_t op)
{
	static const char *const doing[] = {
		[LNET_LST_OP_SESSION_NEW] = "cannot make the session",
		[LNET_LST_OP_SESSION_END] = "cannot end the session",
		[LNET_LST_OP_SESSION_INFO] = "cannot read the session",
		[LNET_LST_OP_GROUP_ADD] = "cannot add the group",
		[LNET_LST_OP_GROUP_DEL] = "cannot delete the group",
		[LNET_LST_OP_GROUP_GET] = "cannot read the groups",
		[LNET_LST_OP_BATCH_ADD] = "cannot add the batch",
		[LNET_LST_OP_BATCH_GET] = "cannot read the batches",
		[LNET_LST_OP_TEST_ADD] = "cannot add the test",
		[LNET_LST_OP_BATCH_RUN] = "cannot run the batch",
		[LNET_LST_OP_BATCH_STOP] = "cannot stop the batch",
		[LNET_LST_OP_BATCH_QUERY] = "cannot query the batch",
		[LNET_LST_OP_GROUP_STAT] = "cannot read the counters",
	};

	return op < __LNET_LST_OP_MAX && doing[op] ? doing[op] : "selftest failed";
}

int cfg_lst_op(struct cfg_handle *h, struct lnet_ioc_lst *req, uint32_t op, struct cfg_err *err)
{
	const char *doing = lst_doing(op);
	struct lnet_bad bad = { 0 };
	int rc;

	req->lst_hdr.ioc_len = sizeof(*req);
	req->lst_op = op;
	rc = lnet_lst_check(req, &bad);
	if (rc)
		return lst_bad_field(req, rc, &bad, doing, err);
	rc = cfg_ioctl(h, IOC_LNET_LST, req);
	if (!rc)
		return 0;
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, NULL, doing);
	return lst_refused(h, req, op, rc, doing, err);
}

/* --- the show documents --------------------------------------------------------------- */

int cfg_show_lst_session(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct lnet_ioc_lst req = { 0 };
	struct yemit w;
	int rc = cfg_lst_op(h, &req, LNET_LST_OP_SESSION_INFO, err);

	if (rc)
		return rc;
	rc = yemit_begin(&w, out, err);
	yemit_map_start(&w);
	yemit_key_map(&w, "selftest_session");
	yemit_kv_str(&w, "name", req.lst_name);
	yemit_kv_u64(&w, "timeout", req.lst_session_timeout_s);
	yemit_kv_u64(&w, "rpc_timeout", req.lst_timeout_s);
	yemit_kv_u64(&w, "groups", req.lst_ngroups);
	yemit_kv_u64(&w, "batches", req.lst_nbatches);
	yemit_map_end(&w);
	yemit_map_end(&w);
	return rc ? rc : yemit_end(&w);
}

static void lst_group_doc(struct yemit *w, const struct lnet_ioc_lst *g)
{
	char nbuf[LNET_NID_STR_MAX];

	yemit_map_start(w);
	yemit_kv_str(w, "name", g->lst_name);
	yemit_key_seq(w, "nodes");
	for (uint32_t i = 0; i < g->lst_nnodes; i++) {
		yemit_map_start(w);
		yemit_kv_str(w, "nid", cfg_nid_str(&g->lst_nids[i], nbuf, sizeof(nbuf)));
		yemit_kv_str(w, "state", cfg_lst_state_str(g->lst_nodes[i].ln_state));
		yemit_kv_str(w, "status", cfg_lst_status_str(g->lst_nodes[i].ln_status));
		yemit_map_end(w);
	}
	yemit_seq_end(w);
	yemit_map_end(w);
}

static void lst_test_doc(struct yemit *w, const struct lnet_ioc_lst_test *t)
{
	yemit_map_start(w);
	yemit_kv_str(w, "test", cfg_lst_test_name(t->lt_test));
	yemit_kv_str(w, "from", t->lt_from);
	yemit_kv_str(w, "to", t->lt_to);
	if (t->lt_test != LNET_LST_TEST_ping) {
		yemit_kv_u64(w, "size", t->lt_size);
		yemit_kv_str(w, "check", cfg_lst_check_name(t->lt_check));
		yemit_kv_u64(w, "offset", t->lt_offset);
	}
	yemit_kv_u64(w, "concurrency", t->lt_concurrency);
	yemit_kv_u64(w, "loop", t->lt_count);
	yemit_map_end(w);
}

static void lst_batch_doc(struct yemit *w, const struct lnet_ioc_lst *b)
{
	yemit_map_start(w);
	yemit_kv_str(w, "name", b->lst_name);
	yemit_kv_bool(w, "running", b->lst_running);
	yemit_key_seq(w, "tests");
	for (uint32_t i = 0; i < b->lst_ntests && i < LNET_LST_MAX_TESTS; i++)
		lst_test_doc(w, &b->lst_tests[i]);
	yemit_seq_end(w);
	yemit_map_end(w);
}

/*
 * The groups (@batches false) or batches of the session, or only the one
 * named @name (NULL: all; -ENOENT when it does not exist), as a document.
 * All are read before anything is printed: a failed show prints nothing.
 */
int cfg_show_lst_objs(struct cfg_handle *h, bool batches, const char *name, FILE *out,
		      struct cfg_err *err)
{
	uint32_t op = batches ? LNET_LST_OP_BATCH_GET : LNET_LST_OP_GROUP_GET, n = 0, i;
	struct lnet_ioc_lst *objs = calloc(LNET_LST_MAX_GROUPS, sizeof(*objs));
	struct yemit w;
	int rc = 0;

	if (!objs)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	for (i = 0; !rc && i < LNET_LST_MAX_GROUPS; i++) {
		objs[n].lst_index = i;
		rc = cfg_lst_op(h, &objs[n], op, err);
		if (!rc && (!name || !strcmp(name, objs[n].lst_name)))
			n++;
		else if (!rc)
			memset(&objs[n], 0, sizeof(objs[n]));
	}
	if (rc == -ENOENT)
		rc = 0;
	if (!rc && name && !n)
		rc = cfg_fail(err, -ENOENT, NULL, "no %s '%s'", batches ? "batch" : "group", name);
	if (!rc) {
		rc = yemit_begin(&w, out, err);
		yemit_map_start(&w);
		yemit_key_seq(&w, batches ? "selftest_batch" : "selftest_group");
		for (i = 0; i < n; i++)
			(batches ? lst_batch_doc : lst_group_doc)(&w, &objs[i]);
		yemit_seq_end(&w);
		yemit_map_end(&w);
		rc = rc ? rc : yemit_end(&w);
	}
	free(objs);
	return rc;
}

/* --- lst stat ------------------------------------------------------------------------------ */

void cfg_lst_stat_rates(const struct lnet_ioc_lst_node *base, const struct lnet_ioc_lst_node *end,
			struct cfg_lst_stat_rates *r)
{
	double s = (double)(end->ln_running_ms - base->ln_running_ms) / 1000.0;

	memset(r, 0, sizeof(*r));
	r->seconds = s;
	r->errors = end->ln_brw_errors + end->ln_ping_errors + end->ln_rpc_errors +
		    end->ln_rpcs_dropped + end->ln_rpcs_expired;
	if (s <= 0)
		return;	/* the node's clock did not advance: no rate (lst divides) */
	r->msgs_r = (double)(end->ln_recv_count - base->ln_recv_count) / s;
	r->msgs_w = (double)(end->ln_send_count - base->ln_send_count) / s;
	r->mb_r = (double)(end->ln_recv_length - base->ln_recv_length) / s / 1e6;
	r->mb_w = (double)(end->ln_send_length - base->ln_send_length) / s / 1e6;
}

static void kv_rate(struct yemit *w, const char *key, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.2f", v);
	yemit_str(w, key);
	yemit_plain(w, buf);
}

int cfg_show_lst_stat(const char *group, const struct lnet_ioc_lst *base,
		      const struct lnet_ioc_lst *end, FILE *out, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX];
	struct cfg_lst_stat_rates r;
	struct yemit w;
	int rc = yemit_begin(&w, out, err);

	yemit_map_start(&w);
	yemit_key_map(&w, "selftest_stat");
	yemit_kv_str(&w, "group", group);
	yemit_key_seq(&w, "nodes");
	for (uint32_t i = 0; i < end->lst_nnodes; i++) {
		const struct lnet_ioc_lst_node *n = &end->lst_nodes[i];

		cfg_lst_stat_rates(&base->lst_nodes[i], n, &r);
		yemit_map_start(&w);
		yemit_kv_str(&w, "nid", cfg_nid_str(&end->lst_nids[i], nbuf, sizeof(nbuf)));
		yemit_kv_str(&w, "status", cfg_lst_status_str(n->ln_status));
		kv_rate(&w, "seconds", r.seconds);
		kv_rate(&w, "msgs_r", r.msgs_r);
		kv_rate(&w, "msgs_w", r.msgs_w);
		kv_rate(&w, "mb_r", r.mb_r);
		kv_rate(&w, "mb_w", r.mb_w);
		yemit_kv_u64(&w, "errors", r.errors);
		yemit_kv_u64(&w, "send_count", n->ln_send_count);
		yemit_kv_u64(&w, "recv_count", n->ln_recv_count);
		yemit_map_end(&w);
	}
	yemit_seq_end(&w);
	yemit_map_end(&w);
	yemit_map_end(&w);
	return rc ? rc : yemit_end(&w);
}

int cfg_show_lst_query(const char *batch, uint32_t active, FILE *out, struct cfg_err *err)
{
	struct yemit w;
	int rc = yemit_begin(&w, out, err);

	yemit_map_start(&w);
	yemit_key_map(&w, "selftest_query");
	yemit_kv_str(&w, "batch", batch);
	yemit_kv_u64(&w, "active", active);
	yemit_map_end(&w);
	yemit_map_end(&w);
	return rc ? rc : yemit_end(&w);
}
