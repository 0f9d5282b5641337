// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discovery on send between two memlnd nodes, discovery on (memlnd turns
 * it off by default): node0 and node1 each have two NIs on tcp
 * (m<n>e0 = 10.21.0.<n+1>, m<n>e1 = 10.22.0.<n+1>); node1 has a sink.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd.h"
#include "../../kernel/core/ping_priv.h"

#define SINK_PORTAL	5
#define SINK_BITS	0x77ULL
#define NPUTS		3

struct pair {
	struct memlnd_node *n0, *n1;
	struct lnet_handle_md sink;
	u8 sink_buf[64];
};

static void set_discovery(struct memlnd_node *n, u32 on)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	n->ln.ln_globals[LNET_GLOBAL_DISCOVERY] = on;
	lnet_ping_target_update(&n->ln);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static int setup(void **state)
{
	static const struct lnet_nid any;
	struct pair *p = calloc(1, sizeof(*p));
	struct lnet_md md = {
		.length = sizeof(p->sink_buf), .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE | LNET_MD_TRUNCATE,
	};

	p->n0 = memlnd_node_new(0);
	p->n1 = memlnd_node_new(1);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 1), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 1), 0);
	set_discovery(p->n0, 1);
	set_discovery(p->n1, 1);
	md.start = p->sink_buf;
	os_mutex_lock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(&p->n1->ln, SINK_PORTAL, &any,
					   LNET_PID_ANY, SINK_BITS, 0, true,
					   &md, &p->sink), 0);
	os_mutex_unlock(&p->n1->ln.ln_api_mutex);
	*state = p;
	return 0;
}

/* Every message finalized exactly once: none left, every object freed. */
static int teardown(void **state)
{
	struct pair *p = *state;

	memlnd_rules_clear();
	assert_int_equal(memlnd_node_free(p->n0), 0);
	assert_int_equal(memlnd_node_free(p->n1), 0);
	free(p);
	return 0;
}

/* ---- PUTs and their events -------------------------------------------------- */

struct op {
	struct memlnd_node *n;
	struct lnet_handle_md h;
	u8 buf[16];
	int nsend, nack, nfinal;
	int send_status, status;	/* of the SEND, of the final event */
	bool unlinked;
};

static void op_event(struct lnet *ln, struct lnet_event *ev)
{
	struct op *op = ev->md_user_ptr;

	(void)ln;
	if (ev->type == LNET_EVENT_SEND) {
		op->nsend++;
		op->send_status = ev->status;
	}
	if (ev->type == LNET_EVENT_ACK)
		op->nack++;
	if (ev->type == LNET_EVENT_ACK || (ev->status && ev->type != LNET_EVENT_UNLINK)) {
		op->nfinal++;
		op->status = ev->status;
	}
	if (ev->unlinked)
		op->unlinked = true;
}

/* With n's lock held: a PUT+ACK of op->buf to @dst; lnet_put's result. */
static int put_start_locked(struct op *op, struct memlnd_node *n, const char *dst)
{
	struct lnet_nid d = memlnd_nid(dst);
	struct lnet_md md = {
		.start = op->buf, .length = sizeof(op->buf), .threshold = 1,
		.user_ptr = op, .handler = op_event,
	};

	memset(op, 0, sizeof(*op));
	op->n = n;
	md.start = op->buf;
	assert_int_equal(lnet_md_bind(&n->ln, &md, &op->h), 0);
	return lnet_put(&n->ln, NULL, op->h, true, &d, LNET_PID_LUSTRE,
			SINK_PORTAL, SINK_BITS, 0, sizeof(op->buf), 0);
}

static bool op_final(void *arg)
{
	struct op *op = arg;
	bool f;

	os_mutex_lock(&op->n->ln.ln_api_mutex);
	f = op->nfinal > 0;
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	return f;
}

static bool op_unlinked(void *arg)
{
	struct op *op = arg;
	bool u;

	os_mutex_lock(&op->n->ln.ln_api_mutex);
	u = op->unlinked;
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	return u;
}

/* Wait for the final event, then for the MD to go (unlinked if needed). */
static void op_wait(struct op *op, long ms)
{
	assert_true(memlnd_wait(op_final, op, ms));
	os_mutex_lock(&op->n->ln.ln_api_mutex);
	if (!op->unlinked)
		lnet_md_unlink(&op->n->ln, op->h);
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	assert_true(memlnd_wait(op_unlinked, op, 1000));
}

/* A PUT to @dst and its final event's status (its events checked). */
static int put(struct memlnd_node *n, const char *dst, long ms)
{
	struct op op;

	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(put_start_locked(&op, n, dst), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	op_wait(&op, ms);
	assert_int_equal(op.nfinal, 1);
	assert_int_equal(op.nsend, 1);
	return op.status;
}

/* ---- looking at the state ---------------------------------------------------- */

static u64 count(struct memlnd_node *n, enum lnet_stats_kind k)
{
	u64 c;

	os_mutex_lock(&n->ln.ln_api_mutex);
	c = n->ln.ln_dp.dp_count[k];
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return c;
}

/* "<primary> <state bits> <NIDs in order>" of @nid's peer on @n, or "none". */
static void peer_line(struct memlnd_node *n, const char *nid, char *out, size_t len)
{
	struct lnet_nid id = memlnd_nid(nid);
	struct lnet_peer *lp;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	char buf[LNET_NID_STR_MAX];
	size_t o;

	os_mutex_lock(&n->ln.ln_api_mutex);
	lp = lnet_peer_find(&n->ln, &id);
	if (!lp) {
		snprintf(out, len, "none");
		os_mutex_unlock(&n->ln.ln_api_mutex);
		return;
	}
	lnet_nid_print(&lp->lp_primary_nid, buf, sizeof(buf));
	o = snprintf(out, len, "%s %#x", buf, lp->lp_state);
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
			lnet_nid_print(&lpni->lpni_nid, buf, sizeof(buf));
			o += snprintf(out + o, len - o, " %s", buf);
		}
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

#define DISCOVERED_MR	(LNET_PEER_S_MULTI_RAIL | LNET_PEER_S_DISCOVERED | \
			 LNET_PEER_S_NIDS_UPTODATE)

/* ---- tests ------------------------------------------------------------------------- */

/*
 * The first PUT to an unknown peer waits for its discovery: a ping (GET)
 * and a push (PUT), then the PUT itself. The peer is known by its own
 * first NID with both NIs, and it learnt ours from the push. The next PUT
 * goes at once.
 */
static void test_send_discovers(void **state)
{
	struct pair *p = *state;
	char line[256], want[256];

	assert_int_equal(put(p->n0, "10.22.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 3);
	assert_int_equal(count(p->n0, LNET_STATS_RECV), 3);	/* REPLY, 2 ACKs */
	peer_line(p->n0, "10.22.0.2@tcp", line, sizeof(line));
	snprintf(want, sizeof(want), "10.21.0.2@tcp %#x 10.21.0.2@tcp 10.22.0.2@tcp",
		 DISCOVERED_MR);
	assert_string_equal(line, want);
	/* node1 learnt node0's NIs from the push, under its first NID */
	peer_line(p->n1, "10.22.0.1@tcp", line, sizeof(line));
	assert_non_null(strstr(line, "10.21.0.1@tcp 10.22.0.1@tcp"));
	assert_int_equal(strncmp(line, "10.21.0.1@tcp ", 14), 0);
	/* up to date: the next PUT, to its other NID, goes alone */
	assert_int_equal(put(p->n0, "10.21.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 4);
}

/* Messages sent while a discovery is out wait for the same one. */
static void test_sends_share_one_discovery(void **state)
{
	struct pair *p = *state;
	struct op ops[NPUTS];
	int i;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	for (i = 0; i < NPUTS; i++)
		assert_int_equal(put_start_locked(&ops[i], p->n0,
						  "10.22.0.2@tcp"), 0);
	/* the monitor cannot have ended it while we hold the lock */
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	for (i = 0; i < NPUTS; i++) {
		op_wait(&ops[i], 3000);
		assert_int_equal(ops[i].nack, 1);
		assert_int_equal(ops[i].status, 0);
	}
	/* one ping, one push, the PUTs */
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 2 + NPUTS);
}

/* `set discovery 0`: the PUT goes at once, the peer stays as traffic made it. */
static void test_discovery_off(void **state)
{
	struct pair *p = *state;
	char line[256], want[256];

	set_discovery(p->n0, 0);
	assert_int_equal(put(p->n0, "10.22.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 1);
	peer_line(p->n0, "10.22.0.2@tcp", line, sizeof(line));
	snprintf(want, sizeof(want), "10.22.0.2@tcp 0 10.22.0.2@tcp");
	assert_string_equal(line, want);
}

/*
 * The ping is lost: the waiting PUT is finalized with the discovery's
 * error (its SEND event says so) and never reaches the peer.
 */
static void test_discovery_fails(void **state)
{
	struct pair *p = *state;
	struct op op;
	int rc;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	rc = lnet_global_set(&p->n0->ln, LNET_GLOBAL_RETRY_COUNT, 0) ?:
	     lnet_global_set(&p->n0->ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	memlnd_rule_set("10.22.0.2@tcp", true, LNET_MSG_STATUS_OK, -1);
	memlnd_rule_set("10.21.0.2@tcp", true, LNET_MSG_STATUS_OK, -1);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(put_start_locked(&op, p->n0, "10.22.0.2@tcp"), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	op_wait(&op, 5000);
	assert_int_equal(op.nsend, 1);
	assert_int_equal(op.send_status, -ETIMEDOUT);
	assert_int_equal(op.nack, 0);
	assert_int_equal(op.nfinal, 1);
	assert_int_equal(count(p->n1, LNET_STATS_RECV), 0);
	/* only the ping left node0 */
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 1);
}

/*
 * A peer with discovery off (no DISCOVERY bit in its reply) is taken as
 * traffic made it: one NID, not Multi-Rail, no push; but marked
 * discovered, so the next send does not ping it again.
 */
static void test_peer_without_discovery(void **state)
{
	struct pair *p = *state;
	char line[256], want[256];

	set_discovery(p->n1, 0);
	assert_int_equal(put(p->n0, "10.22.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 2);	/* the ping, the PUT */
	peer_line(p->n0, "10.22.0.2@tcp", line, sizeof(line));
	snprintf(want, sizeof(want), "10.22.0.2@tcp %#x 10.22.0.2@tcp",
		 LNET_PEER_S_DISCOVERED | LNET_PEER_S_NIDS_UPTODATE);
	assert_string_equal(line, want);
	assert_int_equal(put(p->n0, "10.22.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 3);
}

/* Pings (portal 0) and sends to our own NIDs discover nothing. */
static void test_no_discovery_for_ping_and_self(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_result *res = calloc(1, sizeof(*res));
	struct lnet_nid d = memlnd_nid("10.22.0.2@tcp");
	static const struct lnet_nid any;
	u8 buf[64];
	struct lnet_md md = {
		.start = buf, .length = sizeof(buf), .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE | LNET_MD_TRUNCATE,
	};
	struct lnet_handle_md h;
	char line[256];
	int rc;

	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_ping(&p->n0->ln, &d, NULL, 2000, res), 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	free(res);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 1);
	peer_line(p->n0, "10.22.0.2@tcp", line, sizeof(line));
	assert_string_equal(line, "10.22.0.2@tcp 0 10.22.0.2@tcp");
	/* to ourselves over lolnd: no peer, no ping */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	rc = lnet_me_attach_md(&p->n0->ln, SINK_PORTAL, &any, LNET_PID_ANY,
			       SINK_BITS, 0, true, &md, &h);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	assert_int_equal(put(p->n0, "10.21.0.1@tcp", 3000), 0);
	peer_line(p->n0, "10.21.0.1@tcp", line, sizeof(line));
	assert_string_equal(line, "none");
}

/* A gateway is never discovered by a send: its routes hold its peer. */
static void test_no_discovery_for_gateway(void **state)
{
	struct pair *p = *state;
	struct lnet_nid gw = memlnd_nid("10.21.0.2@tcp");
	u32 tcp9 = LNET_NET_ID(LNET_LND_TCP, 9);
	char line[256];

	int rc;

	/* no gateway check pings either: only the PUT is counted */
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	rc = lnet_global_set(&p->n0->ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0) ?:
	     lnet_route_add(&p->n0->ln, tcp9, &gw, 1, 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
	assert_int_equal(put(p->n0, "10.21.0.2@tcp", 3000), 0);
	assert_int_equal(count(p->n0, LNET_STATS_SENT), 1);
	/* not merged with its other NI, as a discovery would have */
	peer_line(p->n0, "10.21.0.2@tcp", line, sizeof(line));
	assert_non_null(strstr(line, " 10.21.0.2@tcp"));
	assert_null(strstr(line, "10.22.0.2@tcp"));
}

/* Our ping info tells peers whether we take part in discovery. */
static void test_ping_feature_follows_global(void **state)
{
	struct pair *p = *state;
	struct lnet_ping_info *pi = NULL;
	struct lnet_nid d = memlnd_nid("10.21.0.2@tcp");
	int on;

	for (on = 1; on >= 0; on--) {
		set_discovery(p->n1, (u32)on);
		os_mutex_lock(&p->n0->ln.ln_api_mutex);
		assert_int_equal(lnet_ping_fetch(&p->n0->ln, &d, NULL,
						 lnet_ping_deadline(1000), &pi), 0);
		os_mutex_unlock(&p->n0->ln.ln_api_mutex);
		assert_int_equal(!!(pi->pi_features & LNET_PING_FEAT_DISCOVERY), on);
		os_free(pi);
		pi = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_send_discovers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sends_share_one_discovery, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discovery_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discovery_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_without_discovery, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_discovery_for_ping_and_self,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_discovery_for_gateway, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ping_feature_follows_global, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
